//! Pictures taken by headless Chromium: the library's thumbnails ([`thumbnails`]), each
//! published site's picture in a queue shared fairly between accounts ([`site`]), and the
//! taking of a picture itself, confined ([`screenshot`]).

pub mod screenshot;
pub mod site;
pub mod thumbnails;

pub use site::{Job, Pictures, Queued, Run, SITE_SHOTS};
