//! Publishing's own error and the answer each failure of a publish becomes.

use vitrine_shared::{
    blob::BlobError, manifest::MAX_MANIFEST_BYTES, render::RenderError, sandbox::SandboxError,
    store::StoreError,
};

use super::{ApiError, ErrorCode};

/// Why a publish failed (see `crate::publish`). The deploy records the [`ApiError`] it
/// becomes: its message as the reason, its code and its params.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// A page's address starts with a segment the edge answers itself (`/_assets`, …).
    #[error("The page \"{page}\" uses the reserved address {path}; choose another slug")]
    ReservedPath { page: String, path: String },
    /// A block on `page` does not compile or render, or went over a render budget.
    #[error("{}", template_message(page, error))]
    Template { page: String, error: RenderError },
    /// An API-fed list of `block` could not be read from `url`.
    #[error("Block \u{201c}{block}\u{201d}: the list from {url} could not be read: {detail}")]
    ExternalList {
        block: String,
        url: String,
        detail: String,
    },
    /// The manifest is `size` bytes, over [`MAX_MANIFEST_BYTES`].
    #[error(
        "The published site is too large: its index of pages, redirects and templates takes \
         {} KB, and at most {} KB are allowed",
        size.div_ceil(1024),
        MAX_MANIFEST_BYTES / 1024
    )]
    TooLarge { size: usize },
    /// The render sandbox could not run a page (busy workers, a broken sandbox); a template's
    /// own error is [`PublishError::Template`].
    #[error(transparent)]
    Sandbox(SandboxError),
    #[error("blob store: {0}")]
    Blob(#[from] BlobError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The message of a template that failed on a page: over a budget, or an error.
fn template_message(page: &str, e: &RenderError) -> String {
    match e.exceeded {
        Some(reason) => format!(
            "On page \"{page}\": Block \"{}\" went over a render budget: {}",
            e.block,
            reason.message()
        ),
        None => format!(
            "Template error on page \"{page}\" in block \"{}\": {}",
            e.block, e.message
        ),
    }
}

/// A failed publish as the caller meets it: what the owner got wrong (a reserved address, a
/// template, an unreadable list, a site too large) is a 4xx naming the page or block; busy
/// renderers are a 503; the store's errors are as above; the object store's are ours.
impl From<PublishError> for ApiError {
    fn from(e: PublishError) -> Self {
        let message = e.to_string();
        match e {
            PublishError::ReservedPath { page, path } => {
                ApiError::invalid("slug", ErrorCode::ReservedPagePath, message)
                    .param("page", page)
                    .param("path", path)
            }
            PublishError::Template { page, error } => match error.exceeded {
                Some(reason) => ApiError::invalid("blocks", ErrorCode::RenderBudget, message)
                    .param("page", page)
                    .param("block", error.block)
                    .param("reason", reason.message()),
                None => ApiError::invalid("blocks", ErrorCode::TemplateError, message)
                    .param("page", page)
                    .param("block", error.block)
                    .param("detail", error.message),
            },
            PublishError::ExternalList { block, url, detail } => {
                ApiError::bad_request(ErrorCode::ExternalListUnreadable, message)
                    .param("block", block)
                    .param("url", url)
                    .param("detail", detail)
            }
            PublishError::TooLarge { size } => {
                ApiError::invalid("site", ErrorCode::SiteTooLarge, message)
                    .param("size_kb", size.div_ceil(1024))
                    .param("max_kb", MAX_MANIFEST_BYTES / 1024)
            }
            PublishError::Sandbox(e) => ApiError::render("blocks", e),
            PublishError::Blob(_) => ApiError::Internal(anyhow::anyhow!(message)),
            PublishError::Store(e) => e.into(),
            PublishError::Internal(e) => ApiError::Internal(e),
        }
    }
}
