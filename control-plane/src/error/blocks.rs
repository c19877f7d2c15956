//! The errors of the block library's calls and their answers: a library write the store
//! refused, an outside address the fetch proxy could not read, a picture Chromium could not
//! take. The two last are declared here (`crate::outbound` and `crate::pictures::screenshot`
//! re-export them) so that the error module depends on nothing of the app.

use axum::http::StatusCode;
use vitrine_shared::store::{LibraryError, MAX_BUSINESS_BLOCKS};

use super::{ApiError, ErrorCode};

/// The message of a block name its library already holds.
pub const BLOCK_NAME_TAKEN: &str = "Block Name already exists";

/// A library write the store refused.
impl From<LibraryError> for ApiError {
    fn from(e: LibraryError) -> Self {
        match e {
            LibraryError::NameTaken => {
                ApiError::conflict("name", ErrorCode::BlockNameTaken, BLOCK_NAME_TAKEN)
            }
            LibraryError::CategoryNotEmpty => ApiError::conflict(
                "category",
                ErrorCode::CategoryNotEmpty,
                "The category still has blocks; move or delete them first",
            ),
            LibraryError::UnknownCategory => ApiError::invalid(
                "category_id",
                ErrorCode::CategoryUnknown,
                "Unknown category",
            ),
            LibraryError::Full => ApiError::conflict(
                "library",
                ErrorCode::LibraryFull,
                format!(
                    "The business's block library is full ({MAX_BUSINESS_BLOCKS} blocks at most); delete one first"
                ),
            )
            .param("max", MAX_BUSINESS_BLOCKS),
            LibraryError::Store(e) => e.into(),
        }
    }
}

/// Why a fetch gave nothing (`crate::outbound`, which re-exports it; declared here so this
/// module depends on nothing of the app). One the outbound guard refuses (scheme, address,
/// port) is the caller's 422 on `url`; one that failed is a 400 with the reason in `detail`.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("only http and https addresses can be fetched")]
    Scheme,
    #[error("the address is private or local and may not be fetched")]
    Refused,
    #[error("only the web's ports (80 and 443) may be fetched")]
    Port,
    #[error("the server answered {0}")]
    Status(StatusCode),
    #[error("the answer is larger than {0} bytes")]
    TooLarge(usize),
    #[error("{0}")]
    Http(String),
}

impl From<FetchError> for ApiError {
    fn from(e: FetchError) -> Self {
        match e {
            FetchError::Refused | FetchError::Scheme | FetchError::Port => {
                ApiError::invalid("url", ErrorCode::FetchRefused, e.to_string())
            }
            other => ApiError::bad_request(
                ErrorCode::FetchFailed,
                format!("The address could not be fetched: {other}"),
            )
            .param("detail", other.to_string()),
        }
    }
}

/// Why no thumbnail was made (`crate::pictures::screenshot`, which re-exports it). Without
/// Chromium, a 503 the administrator can act on; a Chromium that failed is the server's own 500.
#[derive(Debug, thiserror::Error)]
pub enum ShotError {
    #[error(
        "Screenshots need Chromium: install it (apt-get install chromium) or set CHROMIUM_PATH"
    )]
    NoBrowser,
    #[error("Chromium failed: {0}")]
    Failed(String),
}

impl From<ShotError> for ApiError {
    fn from(e: ShotError) -> Self {
        match e {
            ShotError::NoBrowser => {
                ApiError::unavailable(ErrorCode::ThumbnailsUnavailable, e.to_string())
            }
            other => ApiError::Internal(anyhow::anyhow!(other)),
        }
    }
}
