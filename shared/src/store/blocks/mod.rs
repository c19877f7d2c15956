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

use super::StoreError;

pub use business::{BusinessBlock, BusinessBlockInput, MAX_BUSINESS_BLOCKS};
pub use library::{
    BlockCategory, BlockExport, BlockInput, CategoryExport, CategoryInput, LibraryBlock,
};
pub use mine::MyBlock;

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
