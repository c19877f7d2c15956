//! The fetch proxy (spec 2 §7 "Pages and data": external data is fetched through a fetch
//! proxy with a url parameter): the editor reads an API-fed list's records through the
//! control plane's outbound guard, never from the browser.

use axum::extract::State;
use serde::Deserialize;
use serde_json::Value as Json;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::account::Account;

use crate::{
    accounts::auth::CurrentUser,
    error::{ErrorBody, Result},
    external_lists::fetch_records,
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

/// `GET /api/fetch?url=…`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(fetch_proxy))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FetchQuery {
    /// The http(s) address of a JSON API.
    pub url: String,
}

#[utoipa::path(get, path = "/api/fetch", tag = "pages", params(FetchQuery),
    responses((status = 200, description = "At most 100 records", body = Vec<Object>), (status = 400, body = ErrorBody),
        (status = 422, description = "A private or local address, or not http(s)", body = ErrorBody)))]
pub async fn fetch_proxy(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(q): ApiQuery<FetchQuery>,
) -> Result<ApiJson<Vec<Json>>> {
    let account = Account::of(user.id, user.business_id);
    Ok(ApiJson(
        fetch_records(&state, &state.external_answers, account, &q.url).await?,
    ))
}
