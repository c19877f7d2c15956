//! Error answers that several routes document alike, as utoipa `IntoResponses` types: a
//! route's `responses(...)` names one of these beside its own statuses instead of listing
//! the same tuples again. They only describe; no handler builds them.

use utoipa::IntoResponses;

use super::ErrorBody;

/// A save to a business's own block library: who may write, what a block must be, and what
/// the library already holds (the routes name their 401 and 404 beside it).
#[derive(IntoResponses)]
#[allow(dead_code, reason = "an OpenAPI description only; never built")]
pub enum LibraryWriteAnswers {
    /// Not the business's administrator
    #[response(status = 403)]
    NotAdministrator(ErrorBody),
    /// Block Name already exists, or (a new block) the library is full
    #[response(status = 409)]
    Conflict(ErrorBody),
    #[response(status = 422)]
    Invalid(ErrorBody),
}

/// A file sent in a JSON body (an upload, an import): its place may not exist, the file may
/// be too large or not what the call takes, or its account's share used up.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "an OpenAPI description only; never built")]
pub enum FileBodyAnswers {
    #[response(status = 404)]
    NoSuchPlace(ErrorBody),
    /// The account's share is used up: its storage quota (bytes or files), or its records
    #[response(status = 409)]
    QuotaUsed(ErrorBody),
    #[response(status = 413)]
    TooLarge(ErrorBody),
    #[response(status = 422)]
    Invalid(ErrorBody),
}

/// A picture taken by Chromium (a block's or a template's thumbnail): administrators only,
/// of something that exists, at a size the query allows, on a node with Chromium.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "an OpenAPI description only; never built")]
pub enum ScreenshotAnswers {
    #[response(status = 403)]
    NotAdministrator(ErrorBody),
    #[response(status = 404)]
    NotFound(ErrorBody),
    #[response(status = 422)]
    Invalid(ErrorBody),
    /// Chromium is not installed
    #[response(status = 503)]
    NoBrowser(ErrorBody),
}
