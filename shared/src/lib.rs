//! What the control plane and the edge both need: domain types and their validation,
//! configuration, the database store (SQLite or PostgreSQL behind one API), the blob store
//! (a local directory or S3) and the site snapshot format used by duplication and templates.
//!
//! Nothing here depends on axum or hyper, so both binaries (and the benches) can use it.

pub mod account;
pub mod analytics;
pub mod billing;
pub mod blob;
pub mod blocks;
pub mod compress;
pub mod config;
pub mod dns;
pub mod domain;
pub mod error_code;
pub mod fields;
pub mod font_catalogue;
pub mod fonts;
pub mod form_sent;
pub mod identity;
pub mod ids;
pub mod language;
pub mod latency;
pub mod lifecycle;
pub mod list_query;
pub mod manifest;
pub mod media_type;
pub mod money;
pub mod outbound;
pub mod photos;
pub mod proxies;
pub mod record_lists;
pub mod redirects;
pub mod render;
pub mod sandbox;
pub mod secret;
pub mod sections;
pub mod seo;
pub mod snapshot;
pub mod store;
pub mod text_code;
pub mod theme;
pub mod tls;
pub mod uploads;
pub mod values;

pub use config::Settings;
pub use store::Store;

#[cfg(any(test, feature = "testing"))]
pub mod testing;
