//! My Blocks (spec 2 §7 "Block library"): a user's own blocks, saved from the editor and
//! shown only to them.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::{ids::MyBlockId, store::MyBlock};

use crate::{
    accounts::auth::CurrentUser,
    block_checks::{block_name, check_code},
    error::{ErrorBody, Result},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// `POST /api/newMyBlock`, `DELETE /api/block/{id}`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(save_my_block))
        .routes(routes!(delete_my_block))
}

/// `POST /api/newMyBlock` body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveMyBlock {
    /// Overwrite this one of your blocks; absent to create one.
    #[schema(value_type = Option<i64>)]
    pub id: Option<MyBlockId>,
    pub name: Option<String>,
    #[serde(default)]
    pub template: String,
    #[serde(default)]
    pub css: String,
    #[serde(default)]
    pub js: String,
}

#[utoipa::path(post, path = "/api/newMyBlock", tag = "blocks", request_body = SaveMyBlock,
    responses((status = 201, body = MyBlock), (status = 200, description = "Overwritten", body = MyBlock),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_my_block(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<SaveMyBlock>,
) -> Result<impl IntoResponse> {
    let name = block_name(req.name.as_deref())?;
    check_code(&req.template, &req.css, &req.js)?;
    let saved = state
        .store
        .save_my_block(user.id, req.id, &name, &req.template, &req.css, &req.js)
        .await?;
    let status = if req.id.is_some() {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, ApiJson(saved)))
}

#[utoipa::path(delete, path = "/api/block/{id}", tag = "blocks",
    params(("id" = i64, Path, description = "My Blocks entry id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_my_block(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<MyBlockId>,
) -> Result<StatusCode> {
    state.store.delete_my_block(user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
