//! The block library: categories and blocks (global, edited by platform administrators), each
//! business's own library (edited by its administrators, read by its members) and each user's
//! My Blocks. Block names are unique ignoring case (`name_key`; within the business for a
//! business's library); a category is deleted only when empty; imports write everything or
//! nothing.
//!
//! Every write by id to a business's library or to My Blocks names its owner in the statement
//! itself (`WHERE id = $1 AND business_id = $2`), so a block of someone else's is not found,
//! never overwritten, whatever the caller checked before.
//!
//! The platform's library is in [`library`], a business's own in [`business`] and a user's
//! My Blocks in [`mine`]; what they share (how a name is compared, how a write is refused)
//! is here.

mod business;
mod library;
mod mine;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::StoreError;

pub use business::{BusinessBlock, MAX_BUSINESS_BLOCKS};
pub use library::{
    BlockCategory, BlockExport, BlockInput, CategoryExport, CategoryInput, LibraryBlock,
};
pub use mine::MyBlock;

/// What a block of the platform's library or of a business's is made of, whichever library
/// holds it: what the editor lists it by and the code it inserts. A library's block carries
/// it flattened (in its JSON, its schema and its row), beside what that library adds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
pub struct BlockContent {
    pub name: String,
    /// Thumbnail: an uploaded file (`/files/…`) or an http(s) address; empty for none.
    pub image: String,
    /// Comma-separated search words.
    pub keywords: String,
    /// The block's HTML with its `x-vars` definitions.
    pub template: String,
    pub css: String,
    pub js: String,
}

/// Why a library write was refused.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("Block Name already exists")]
    NameTaken,
    #[error("The category still has blocks")]
    CategoryNotEmpty,
    #[error("Unknown category")]
    UnknownCategory,
    /// The business's library holds [`MAX_BUSINESS_BLOCKS`] already.
    #[error("The business's library is full")]
    Full,
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}
