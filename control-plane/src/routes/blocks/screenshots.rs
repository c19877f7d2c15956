//! A library block's picture (spec 2 §7 "Block library": `GET /api/block-screenshot/{id}`),
//! and the background pass that pictures the whole library (`/erp/thumbnails`, see
//! [`crate::pictures::thumbnails`]). A template's picture is with the templates
//! ([`crate::routes::templates`]).

use axum::{extract::State, http::StatusCode, response::Response};
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::{account::Account, ids::LibraryBlockId, sandbox::Share};

use crate::{
    accounts::auth::Admin,
    error::{ErrorBody, Result, ScreenshotAnswers},
    extract::{ApiJson, ApiPath, ApiQuery},
    pictures::thumbnails::{ScreenshotQuery, png_response, shoot},
    rendering::block_document,
    state::AppState,
};

/// `GET /api/block-screenshot/{id}`, `GET` and `POST /erp/thumbnails`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(block_screenshot))
        .routes(routes!(thumbnail_progress, regenerate_thumbnails))
}

#[utoipa::path(get, path = "/api/block-screenshot/{id}", tag = "admin", params(("id" = i64, Path, description = "Block id"), ScreenshotQuery),
    responses((status = 200, description = "PNG; the block's image is set to it", content_type = "image/png"),
        ScreenshotAnswers))]
pub async fn block_screenshot(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<LibraryBlockId>,
    ApiQuery(q): ApiQuery<ScreenshotQuery>,
) -> Result<Response> {
    let size = q.size((1280, 600))?;
    let block = state.store.library_block(id).await?;
    let document = block_document(&state, Share::editor(Account::Platform), &block).await?;
    let (png, url) = shoot(&state, document, size, q.trim(true), &format!("block-{id}")).await?;
    state.store.set_block_image(id, &url).await?;
    Ok(png_response(png))
}

/// How far the pass that pictures the library's blocks and templates got (see
/// [`crate::pictures::thumbnails`]); `/erp/blocks` polls it while one runs.
#[utoipa::path(get, path = "/erp/thumbnails", tag = "admin",
    responses((status = 200, body = crate::pictures::thumbnails::ThumbnailProgress), (status = 403, body = ErrorBody)))]
pub async fn thumbnail_progress(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<crate::pictures::thumbnails::ThumbnailProgress>> {
    Ok(ApiJson(state.thumbnails.progress()))
}

/// "Regenerate all thumbnails": pictures every block and template again in the background
/// (those whose image an administrator set by hand keep it); answers at once with the progress.
#[utoipa::path(post, path = "/erp/thumbnails", tag = "admin",
    responses((status = 202, body = crate::pictures::thumbnails::ThumbnailProgress), (status = 403, body = ErrorBody)))]
pub async fn regenerate_thumbnails(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<(
    StatusCode,
    ApiJson<crate::pictures::thumbnails::ThumbnailProgress>,
)> {
    Ok((
        StatusCode::ACCEPTED,
        ApiJson(crate::pictures::thumbnails::start(&state, true)),
    ))
}
