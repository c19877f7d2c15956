//! Publishing calls (spec 1 §7): publish, unpublish, and the deploy history with rollback.
//!
//! Every call authorizes the project first through [`authorize_project`] (a project the caller
//! may not see answers 404) and then hands over to [`crate::publish`], which builds deploys and
//! serialises changes of one project's publish state.
//!
//! `POST /api/publish_v2/{id}/events` is the same publish as `POST /api/publish_v2/{id}`,
//! answered as server-sent events while the build runs: `step` events ([`Step`]: the fonts,
//! page i of n, the assets, going live), then one `result` ([`PublishView`]) or `error`
//! ([`StreamError`]: the error body with the status the JSON call would have answered). A
//! refusal before the build starts (a project the caller may not see, a bad body) is the same
//! JSON error as the plain call's.

use std::{convert::Infallible, sync::Arc};

use axum::{
    body::Bytes,
    extract::State,
    http::HeaderMap,
    response::sse::{Event, KeepAlive, Sse},
};
use futures::{Stream, StreamExt};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use utoipa::ToSchema;
use vitrine_shared::ids::{AccountId, DeployId, ProjectId};
use vitrine_shared::store::{Deploy, DeployStatus};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, is_json},
    publish::{Progress, Step, live_url, publish_with_progress},
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
    #[schema(value_type = Option<i64>)]
    pub active_deploy_id: Option<DeployId>,
}

/// POST /api/publish_v2/{id}: the body the dashboard sends (both optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PublishV2Request {
    /// When present it must name the project in the path.
    #[schema(value_type = Option<i64>)]
    pub project_id: Option<ProjectId>,
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
    user_id: AccountId,
    project_id: ProjectId,
    progress: Option<Progress>,
) -> Result<PublishView> {
    let published = publish_with_progress(state, project_id, user_id, progress).await?;
    let project = state.store.project_by_id(project_id).await?;
    Ok(PublishView {
        deploy: published.deploy,
        url: live_url(&state.settings, &project),
        warnings: published.warnings,
    })
}

/// The `error` event of a streamed publish: the body the JSON call would have answered, and
/// its status.
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamError {
    pub status: u16,
    #[serde(flatten)]
    pub body: ErrorBody,
}

/// A server-sent event named `name` carrying `data` as JSON.
fn sse_event(name: &str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name))
}

/// The optional body of a publish call, checked against the project being published.
trait PublishBody: DeserializeOwned + Default {
    fn check(self, project_id: ProjectId) -> Result<()>;
}

impl PublishBody for PublishV2Request {
    fn check(self, project_id: ProjectId) -> Result<()> {
        if self.project_id.is_some_and(|p| p != project_id) {
            return Err(ApiError::invalid(
                "project_id",
                ErrorCode::ProjectMismatch,
                "project_id does not match the project being published",
            ));
        }
        Ok(())
    }
}

impl PublishBody for PublishRequest {
    /// Its one field is accepted for compatibility only: a body that reads is a good one.
    fn check(self, _project_id: ProjectId) -> Result<()> {
        Ok(())
    }
}

/// Reads and checks a publish call's body, of type `B`, for project `id`.
fn check_body<B: PublishBody>(id: ProjectId, headers: &HeaderMap, body: &Bytes) -> Result<()> {
    optional_json::<B>(headers, body)?.check(id)
}

/// A JSON publish call (`POST /api/publish_v2/{id}`, and the older `POST /api/publish/{id}`):
/// the project authorized, then its body checked ([`PublishBody`]), then built and made live.
/// The two calls differ only in their address and the body they accept.
macro_rules! publish_call {
    ($handler:ident, $path:literal, $body:ident) => {
        #[utoipa::path(post, path = $path, tag = "publishing",
            params(("id" = i64, Path, description = "Project id")),
            request_body = $body,
            responses((status = 200, body = PublishView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
        pub async fn $handler(
            State(state): State<AppState>,
            user: CurrentUser,
            ApiPath(id): ApiPath<ProjectId>,
            headers: HeaderMap,
            body: Bytes,
        ) -> Result<ApiJson<PublishView>> {
            authorize_project(&state, &user, id).await?;
            check_body::<$body>(id, &headers, &body)?;
            Ok(ApiJson(
                publish_and_describe(&state, user.id, id, None).await?,
            ))
        }
    };
}

publish_call!(publish_v2, "/api/publish_v2/{id}", PublishV2Request);
publish_call!(publish_v1, "/api/publish/{id}", PublishRequest);

/// One event of the publish stream as a client reads it (the OpenAPI schema of each
/// server-sent event, as schemathesis and other clients parse them).
#[derive(Debug, utoipa::ToSchema)]
pub struct PublishEvent {
    /// `step`, `result` or `error`.
    pub event: String,
    /// The event's JSON: a Step, a PublishView or a StreamError.
    pub data: String,
}

/// The publish of `POST /api/publish_v2/{id}`, streamed as server-sent events while it builds
/// (see the module's documentation). All or nothing as ever: an `error` event means the live
/// site is as it was.
#[utoipa::path(post, path = "/api/publish_v2/{id}/events", tag = "publishing",
    params(("id" = i64, Path, description = "Project id")),
    request_body = PublishV2Request,
    responses(
        (status = 200, content_type = "text/event-stream", body = PublishEvent,
            description = "Server-sent events: `step` (a Step as JSON) as the build goes, then one `result` (a PublishView) or `error` (a StreamError)"),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn publish_v2_events(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Sse<impl Stream<Item = std::result::Result<Event, Infallible>>>> {
    authorize_project(&state, &user, id).await?;
    check_body::<PublishV2Request>(id, &headers, &body)?;
    let (tx, rx) = futures::channel::mpsc::unbounded::<Event>();
    let steps = tx.clone();
    let progress: Progress = Arc::new(move |step: Step| {
        // A reader that went away does not stop the build.
        let _ = steps.unbounded_send(sse_event("step", &step));
    });
    let user_id = user.id;
    tokio::spawn(async move {
        let last = match publish_and_describe(&state, user_id, id, Some(progress)).await {
            Ok(view) => sse_event("result", &view),
            Err(e) => {
                let (status, body, _) = e.into_parts();
                let status = status.as_u16();
                sse_event("error", &StreamError { status, body })
            }
        };
        let _ = tx.unbounded_send(last);
    });
    Ok(Sse::new(rx.map(Ok)).keep_alive(KeepAlive::default()))
}

#[utoipa::path(post, path = "/api/unpublish/{id}", tag = "publishing",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = UnpublishView), (status = 404, body = ErrorBody)))]
pub async fn unpublish(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<UnpublishView>> {
    authorize_project(&state, &user, id).await?;
    let lock = state.publisher.lock(id);
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
    ApiPath(id): ApiPath<ProjectId>,
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
    ApiPath((id, deploy_id)): ApiPath<(ProjectId, DeployId)>,
) -> Result<ApiJson<PublishView>> {
    authorize_project(&state, &user, id).await?;
    let lock = state.publisher.lock(id);
    let _guard = lock.lock().await;
    let deploy = state.store.deploy_by_id(deploy_id).await?;
    if deploy.project_id != id {
        return Err(ApiError::NotFound);
    }
    if deploy.status != DeployStatus::Ready {
        return Err(ApiError::invalid(
            "deploy_id",
            ErrorCode::DeployNotFinished,
            format!(
                "Only a finished deploy can be made live; this one is {}",
                deploy.status
            ),
        )
        .param("status", deploy.status.code()));
    }
    let deploy = state.store.activate_deploy(id, deploy_id).await?;
    // The card shows the deploy now live: its picture, taken now if it has none yet.
    let shot = crate::pictures::screenshot::site_shot_key(id, deploy_id);
    match state.blobs.exists(&shot).await {
        Ok(true) => {
            let url = crate::pictures::screenshot::site_shot_url(id, deploy_id);
            let now = chrono::Utc::now().timestamp();
            state
                .store
                .set_project_thumbnail(id, deploy_id, &url, now)
                .await?;
        }
        _ => state.pictures.after_publish(id, deploy_id),
    }
    let project = state.store.project_by_id(id).await?;
    Ok(ApiJson(PublishView {
        deploy,
        url: live_url(&state.settings, &project),
        warnings: Vec::new(),
    }))
}

/// The picture of a deploy's home page, taken after it went live (see
/// [`crate::pictures::screenshot`]); the project cards show it. 404 for a project the caller may not see, another project's
/// deploy, or a deploy without a picture (yet).
#[utoipa::path(get, path = "/api/projects/{id}/deploys/{deploy_id}/screenshot", tag = "publishing",
    params(("id" = i64, Path, description = "Project id"), ("deploy_id" = i64, Path, description = "Deploy id")),
    responses((status = 200, description = "PNG of the deploy's home page", content_type = "image/png"),
        (status = 404, body = ErrorBody)))]
pub async fn deploy_screenshot(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((id, deploy_id)): ApiPath<(ProjectId, DeployId)>,
) -> Result<axum::response::Response> {
    use axum::{
        http::{HeaderValue, header},
        response::IntoResponse,
    };
    authorize_project(&state, &user, id).await?;
    let deploy = state.store.deploy_by_id(deploy_id).await?;
    if deploy.project_id != id {
        return Err(ApiError::NotFound);
    }
    let png = state
        .blobs
        .get(&crate::pictures::screenshot::site_shot_key(id, deploy_id))
        .await?;
    let mut r = png.into_response();
    let headers = r.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    // A deploy's picture never changes once taken; only its owner's browser keeps it.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=31536000, immutable"),
    );
    Ok(r)
}
