//! Publishing calls (spec 1 §7): publish, unpublish, and the deploy history with rollback.
//!
//! Every call authorizes the project first through [`authorize_project`] (a project the caller
//! may not see answers 404) and then hands over to [`crate::publish`], which builds deploys and
//! serialises changes of one project's publish state.

use axum::{body::Bytes, extract::State, http::HeaderMap};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use utoipa::ToSchema;
use vitrine_shared::store::Deploy;

use crate::{
    auth::CurrentUser,
    authz::authorize_project,
    error::{ApiError, ApiJson, ApiPath, ErrorBody, ErrorCode, Result, is_json},
    publish::{live_url, publish},
    state::AppState,
};

/// How many deploys the history lists.
const HISTORY_LIMIT: i64 = 50;

/// A deploy that is live, and where.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublishView {
    pub deploy: Deploy,
    /// The live address: `https://{verified domain}`, else the preview address.
    pub url: String,
    /// What the owner should know that did not stop the publish (a web font the provider
    /// could not deliver, so the page uses the fallback fonts); usually empty.
    #[serde(default)]
    pub warnings: Vec<crate::publish::Warning>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UnpublishView {
    pub is_published: bool,
}

/// The deploy history, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeployList {
    pub data: Vec<Deploy>,
    pub active_deploy_id: Option<i64>,
}

/// POST /api/publish_v2/{id}: the body the dashboard sends (both optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PublishV2Request {
    /// When present it must name the project in the path.
    pub project_id: Option<i64>,
    /// Accepted for compatibility; the session decides who may publish.
    pub token: Option<String>,
}

/// POST /api/publish/{id}: the body the dashboard sends (optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishRequest {
    /// Accepted for compatibility; deploys always go to the platform's own edge.
    pub should_update_vercel: Option<bool>,
}

/// An optional JSON body: empty means the defaults; anything else must be JSON.
fn optional_json<T: DeserializeOwned + Default>(headers: &HeaderMap, body: &Bytes) -> Result<T> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    if !is_json(headers) {
        return Err(ApiError::not_json());
    }
    crate::nul::refuse_in_json(body)?;
    serde_json::from_slice(body).map_err(|e| {
        if e.is_data() {
            crate::error::invalid_body(&e.to_string())
        } else {
            crate::error::malformed_json(&e.to_string())
        }
    })
}

/// Publishes an already authorized project and says where it is live.
async fn publish_and_describe(
    state: &AppState,
    user: &CurrentUser,
    project_id: i64,
) -> Result<ApiJson<PublishView>> {
    let published = publish(state, project_id, user.id).await?;
    let project = state.store.project_by_id(project_id).await?;
    Ok(ApiJson(PublishView {
        deploy: published.deploy,
        url: live_url(&state.settings, &project),
        warnings: published.warnings,
    }))
}

#[utoipa::path(post, path = "/api/publish_v2/{id}", tag = "publishing",
    params(("id" = i64, Path, description = "Project id")),
    request_body = PublishV2Request,
    responses((status = 200, body = PublishView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn publish_v2(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<ApiJson<PublishView>> {
    authorize_project(&state, &user, id).await?;
    let req: PublishV2Request = optional_json(&headers, &body)?;
    if req.project_id.is_some_and(|p| p != id) {
        return Err(ApiError::invalid(
            "project_id",
            ErrorCode::ProjectMismatch,
            "project_id does not match the project being published",
        ));
    }
    publish_and_describe(&state, &user, id).await
}

#[utoipa::path(post, path = "/api/publish/{id}", tag = "publishing",
    params(("id" = i64, Path, description = "Project id")),
    request_body = PublishRequest,
    responses((status = 200, body = PublishView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn publish_v1(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<ApiJson<PublishView>> {
    authorize_project(&state, &user, id).await?;
    let _: PublishRequest = optional_json(&headers, &body)?;
    publish_and_describe(&state, &user, id).await
}

#[utoipa::path(post, path = "/api/unpublish/{id}", tag = "publishing",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = UnpublishView), (status = 404, body = ErrorBody)))]
pub async fn unpublish(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<UnpublishView>> {
    authorize_project(&state, &user, id).await?;
    let lock = state.publish_lock(id);
    let _guard = lock.lock().await;
    state.store.unpublish_project(id).await?;
    Ok(ApiJson(UnpublishView {
        is_published: false,
    }))
}

#[utoipa::path(get, path = "/api/projects/{id}/deploys", tag = "publishing",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = DeployList), (status = 404, body = ErrorBody)))]
pub async fn list_deploys(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<DeployList>> {
    authorize_project(&state, &user, id).await?;
    let data = state.store.list_deploys(id, HISTORY_LIMIT).await?;
    let active_deploy_id = state.store.active_deploy_id(id).await?;
    Ok(ApiJson(DeployList {
        data,
        active_deploy_id,
    }))
}

/// Rolls back (or forward) to one of the project's earlier ready deploys, at once.
#[utoipa::path(post, path = "/api/projects/{id}/deploys/{deploy_id}/activate", tag = "publishing",
    params(("id" = i64, Path, description = "Project id"), ("deploy_id" = i64, Path, description = "Deploy id")),
    responses((status = 200, body = PublishView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn activate_deploy(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((id, deploy_id)): ApiPath<(i64, i64)>,
) -> Result<ApiJson<PublishView>> {
    authorize_project(&state, &user, id).await?;
    let lock = state.publish_lock(id);
    let _guard = lock.lock().await;
    let deploy = state.store.deploy_by_id(deploy_id).await?;
    if deploy.project_id != id {
        return Err(ApiError::NotFound);
    }
    if deploy.status != "ready" {
        return Err(ApiError::invalid(
            "deploy_id",
            ErrorCode::DeployNotFinished,
            format!(
                "Only a finished deploy can be made live; this one is {}",
                deploy.status
            ),
        )
        .param("status", deploy.status.clone()));
    }
    let deploy = state.store.activate_deploy(id, deploy_id).await?;
    let project = state.store.project_by_id(id).await?;
    Ok(ApiJson(PublishView {
        deploy,
        url: live_url(&state.settings, &project),
        warnings: Vec::new(),
    }))
}
