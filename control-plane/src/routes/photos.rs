//! The background conversion of older uploads into photos (issue 44, [`crate::photos`]):
//! its progress and starting it, for platform administrators (`/erp/photos`).

use axum::{extract::State, http::StatusCode};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    accounts::auth::Admin,
    error::{ErrorBody, Result},
    extract::ApiJson,
    photos::Conversion,
    state::AppState,
};

/// `GET` and `POST /erp/photos`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(photo_progress, convert_photos))
}

/// How many photo uploads are converted (or refused) of all, and whether a pass runs here;
/// the dashboard's `/erp/photos` polls it while one runs.
#[utoipa::path(get, path = "/erp/photos", tag = "admin",
    responses((status = 200, body = Conversion), (status = 403, body = ErrorBody)))]
pub async fn photo_progress(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<Conversion>> {
    Ok(ApiJson(state.photos.progress(&state.core).await?))
}

/// Converts every photo upload not yet converted, in the background; answers at once with
/// the progress (a pass already running goes on).
#[utoipa::path(post, path = "/erp/photos", tag = "admin",
    responses((status = 202, body = Conversion), (status = 403, body = ErrorBody)))]
pub async fn convert_photos(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<(StatusCode, ApiJson<Conversion>)> {
    state.photos.start(&state.core);
    Ok((
        StatusCode::ACCEPTED,
        ApiJson(state.photos.progress(&state.core).await?),
    ))
}
