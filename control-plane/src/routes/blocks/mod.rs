//! The block library's calls (spec 2 §2, §7 "Block library" and "Administrator"), one module
//! per resource, each with its router (merged in [`crate::routes`]):
//!
//! - [`library`]: the library the editor's left panel shows;
//! - [`my_blocks`]: the caller's own blocks;
//! - [`admin`]: the global library's writes, `/api/newBlock` and the `/erp/*` block and
//!   category screens (import, export, search);
//! - [`render`]: the editor's canvas (the same renderer as the publisher and the edge);
//! - [`fetch`]: the fetch proxy for API-fed lists;
//! - [`screenshots`]: a block's picture and the pass that pictures the whole library.
//!
//! A business's own library is [`crate::routes::business_library`]; the checks every saved
//! block passes are [`crate::block_checks`].

pub mod admin;
pub mod fetch;
pub mod library;
pub mod my_blocks;
pub mod render;
pub mod screenshots;
