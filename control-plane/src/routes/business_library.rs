//! A business's own block library (issue 20, "The shared library belongs to the platform"):
//! the business's administrators write it, its members see it in the editor beside My Blocks
//! (`GET /api/blocks` carries it as `business_blocks`), and nobody else reads or writes it.
//!
//! Who gets what:
//! - a caller outside any business has no business library: 404 on every call;
//! - a block of another business is not found (404), exactly like one that does not exist, so
//!   ids cannot be probed across businesses; the store's statements name the business too;
//! - a member who is not the business's administrator may read it, and gets 403 on writes.
//!
//! The global library and the templates stay with the platform administrators
//! (`routes::blocks`, `routes::templates`); the checks every saved block passes are
//! [`crate::block_checks`].

use axum::{
    extract::{FromRequestParts, State},
    http::{StatusCode, request::Parts},
    response::IntoResponse,
};
use utoipa::IntoResponses;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::ids::{BusinessBlockId, BusinessId};
use vitrine_shared::store::BusinessBlock;

use crate::{
    accounts::auth::CurrentUser,
    block_checks::{BlockSource, check_order},
    error::{ApiError, ErrorBody, ErrorCode, LibraryWriteAnswers, Result},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// `GET`, `POST /api/business/blocks`; `POST`, `DELETE /api/business/blocks/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_business_blocks, create_business_block))
        .routes(routes!(update_business_block, delete_business_block))
}

/// The caller's business's library: the one library a caller reads (their business's; 404
/// outside any business), and whether they may write it. Every route here takes it, so no
/// route reads a library but its caller's.
pub struct Library {
    pub business_id: BusinessId,
    /// The caller administers the business.
    writer: bool,
}

impl FromRequestParts<AppState> for Library {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        let business_id = user.business_id.ok_or(ApiError::NotFound)?;
        let writer = user.is_business_admin;
        Ok(Library {
            business_id,
            writer,
        })
    }
}

impl Library {
    /// Only the business's administrators write its library.
    fn may_write(&self) -> Result<()> {
        if self.writer {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                ErrorCode::LibraryAdminOnly,
                "Only the business's administrators can change its block library",
            ))
        }
    }
}

/// A call on the caller's business's library as a whole (its list, a new block).
#[derive(IntoResponses)]
#[allow(dead_code, reason = "an OpenAPI description only; never built")]
enum LibraryAnswers {
    #[response(status = 401)]
    SignedOut(ErrorBody),
    /// The caller is in no business
    #[response(status = 404)]
    NoBusiness(ErrorBody),
}

/// A call on one block of the caller's business's library: another business's block is not
/// found either.
#[derive(IntoResponses)]
#[allow(dead_code, reason = "an OpenAPI description only; never built")]
enum LibraryBlockAnswers {
    #[response(status = 401)]
    SignedOut(ErrorBody),
    /// No such block in the caller's business
    #[response(status = 404)]
    NoSuchBlock(ErrorBody),
}

/// A thumbnail address: empty, an uploaded file (`/files/…`) or an http(s) URL. The editor
/// shows it as an `<img>` to every member of the business.
fn check_image(image: &str) -> Result<()> {
    let allowed = image.is_empty()
        || image.starts_with("/files/")
        || image.starts_with("https://")
        || image.starts_with("http://");
    if !allowed || image.len() > 2048 || image.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            "image",
            ErrorCode::ImageUrlInvalid,
            "The image must be an uploaded file or an http(s) address (2048 characters at most)",
        ));
    }
    Ok(())
}

/// Checks a save (`POST /api/business/blocks[/{id}]`: only the business's administrators
/// write; creating needs a name and a template; replacing keeps what the body leaves out of
/// `current`) and saves it.
async fn save(
    state: &AppState,
    library: &Library,
    current: Option<BusinessBlock>,
    req: BlockSource,
) -> Result<BusinessBlock> {
    library.may_write()?;
    let (id, req) = match current {
        Some(c) => (
            Some(c.id),
            req.or(BlockSource::saved(c.content, c.sort_order)),
        ),
        None => (None, req),
    };
    let order = check_order(req.order.unwrap_or(99))?;
    let block = req.check()?;
    check_image(&block.image)?;
    let business_id = library.business_id;
    Ok(match id {
        Some(id) => {
            state
                .store
                .update_business_block(business_id, id, &block, order)
                .await?
        }
        None => {
            state
                .store
                .insert_business_block(business_id, &block, order)
                .await?
        }
    })
}

#[utoipa::path(get, path = "/api/business/blocks", tag = "blocks",
    responses((status = 200, description = "The caller's business's library", body = Vec<BusinessBlock>),
        LibraryAnswers))]
pub async fn list_business_blocks(
    State(state): State<AppState>,
    library: Library,
) -> Result<ApiJson<Vec<BusinessBlock>>> {
    Ok(ApiJson(
        state.store.business_blocks(library.business_id).await?,
    ))
}

#[utoipa::path(post, path = "/api/business/blocks", tag = "blocks", request_body = BlockSource,
    responses((status = 201, body = BusinessBlock), LibraryAnswers, LibraryWriteAnswers))]
pub async fn create_business_block(
    State(state): State<AppState>,
    library: Library,
    ApiJson(req): ApiJson<BlockSource>,
) -> Result<impl IntoResponse> {
    let saved = save(&state, &library, None, req).await?;
    Ok((StatusCode::CREATED, ApiJson(saved)))
}

#[utoipa::path(post, path = "/api/business/blocks/{id}", tag = "blocks", request_body = BlockSource,
    params(("id" = i64, Path, description = "A block of the caller's business's library")),
    responses((status = 200, body = BusinessBlock), LibraryBlockAnswers, LibraryWriteAnswers))]
pub async fn update_business_block(
    State(state): State<AppState>,
    library: Library,
    ApiPath(id): ApiPath<BusinessBlockId>,
    ApiJson(req): ApiJson<BlockSource>,
) -> Result<ApiJson<BusinessBlock>> {
    // Found first: a block of another business answers 404 to everyone, administrators of
    // their own business included.
    let current = state.store.business_block(library.business_id, id).await?;
    Ok(ApiJson(save(&state, &library, Some(current), req).await?))
}

#[utoipa::path(delete, path = "/api/business/blocks/{id}", tag = "blocks",
    params(("id" = i64, Path, description = "A block of the caller's business's library")),
    responses((status = 204), LibraryBlockAnswers,
        (status = 403, description = "Not the business's administrator", body = ErrorBody)))]
pub async fn delete_business_block(
    State(state): State<AppState>,
    library: Library,
    ApiPath(id): ApiPath<BusinessBlockId>,
) -> Result<StatusCode> {
    state.store.business_block(library.business_id, id).await?;
    library.may_write()?;
    state
        .store
        .delete_business_block(library.business_id, id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbnails_are_uploads_or_web_addresses() {
        for ok in [
            "",
            "/files/uploads/1/a.png",
            "https://cdn.example/a.png",
            "http://x/a.png",
        ] {
            assert!(check_image(ok).is_ok(), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "data:image/svg+xml,<svg onload=alert(1)>",
            "//evil.example/a.png",
            "files/a.png",
            "https://x/\na.png",
        ] {
            assert!(check_image(bad).is_err(), "{bad}");
        }
        assert!(check_image(&format!("https://x/{}", "a".repeat(2048))).is_err());
    }
}
