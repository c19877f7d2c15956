//! Redirects (spec 1 §2, §5, §7): a project's list with search, order and pages, and one rule
//! at a time for the form.
//!
//! Origins and destinations go through the shared parser (`vitrine_shared::redirects`), the
//! one whose output the edge's matcher trusts, so what is stored is always valid and
//! normalised. A rule of another user's project answers 404, like one that does not exist.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::ids::{ProjectId, RedirectId};
use vitrine_shared::{
    redirects::{Rule, parse_rule},
    store::{RedirectOrder, RedirectQuery, RedirectRule},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    conflicts::redirect_warnings,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    pagination::{PageRequest, Paginated},
    publish::Warning,
    state::AppState,
};

/// A rule as the dashboard sees it (spec 1 §3 "Redirect").
#[derive(Debug, Serialize, ToSchema)]
pub struct RedirectView {
    #[schema(value_type = i64)]
    pub id: RedirectId,
    pub from: String,
    pub to: String,
    pub created_at: DateTime<Utc>,
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    /// Set when a saved rule needs the owner's attention: `*` redirects the whole site.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<&'static str>,
    /// On a save: the pages this rule hides (`redirect_hides_page`, `redirect_hides_pages`),
    /// saved anyway; see [`crate::conflicts`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

impl RedirectView {
    fn new(r: RedirectRule, warning: Option<&'static str>) -> Self {
        RedirectView {
            id: r.id,
            from: r.from,
            to: r.to,
            created_at: r.created_at,
            project_id: r.project_id,
            warning,
            warnings: Vec::new(),
        }
    }

    /// A rule just saved, with the pages it hides.
    async fn saved(
        state: &AppState,
        r: RedirectRule,
        warning: Option<&'static str>,
    ) -> Result<Self> {
        let warnings = redirect_warnings(state, r.project_id, &r.from, &r.to).await?;
        Ok(RedirectView {
            warnings,
            ..RedirectView::new(r, warning)
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RedirectListQuery {
    /// Page number from 1.
    pub page: Option<i64>,
    /// `-created_at` (default), `created_at`, `from` or `-from`.
    pub order: Option<String>,
    /// Keeps rules whose origin or destination contains it, ignoring case.
    pub term: Option<String>,
    /// Rules per page: 1 to 1000 (default 100), or -1 for all.
    pub limit: Option<i64>,
}

const MAX_TERM: usize = 255;

#[derive(Debug, Deserialize, ToSchema)]
pub struct RedirectRequest {
    /// Required when creating; when updating it may only repeat the rule's own project.
    #[schema(value_type = Option<i64>)]
    pub project_id: Option<ProjectId>,
    /// The origin path. Required when creating; kept when absent on update.
    pub from: Option<String>,
    /// The destination: a path or an http(s) URL. Required when creating; kept when absent on update.
    pub to: Option<String>,
}

#[utoipa::path(get, path = "/api/projects/{id}/redirects", tag = "redirects",
    params(("id" = i64, Path, description = "Project id"), RedirectListQuery),
    responses((status = 200, body = Paginated<RedirectView>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn list_redirects(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiQuery(q): ApiQuery<RedirectListQuery>,
) -> Result<ApiJson<Paginated<RedirectView>>> {
    authorize_project(&state, &user, project_id).await?;
    let pages = PageRequest::parse(q.page, q.limit)?;
    let order = match q.order.as_deref() {
        None | Some("") => RedirectOrder::default(),
        Some(o) => RedirectOrder::parse(o).ok_or_else(|| {
            ApiError::bad_request(
                ErrorCode::BadOrder,
                "order must be -created_at, created_at, from or -from",
            )
        })?,
    };
    let term = q.term.as_deref().map(str::trim).filter(|t| !t.is_empty());
    if term.is_some_and(|t| t.chars().count() > MAX_TERM) {
        return Err(ApiError::bad_request(
            ErrorCode::SearchTooLong,
            format!("term must be at most {MAX_TERM} characters"),
        )
        .param("max", MAX_TERM));
    }
    let (rows, total) = state
        .store
        .redirects_page(
            project_id,
            &RedirectQuery {
                term,
                order,
                limit: pages.limit,
                offset: pages.offset(),
            },
        )
        .await?;
    // The page links repeat what the call asked for, page aside.
    let query: Vec<(&str, String)> = [
        ("order", q.order),
        ("term", q.term),
        ("limit", q.limit.map(|l| l.to_string())),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
    .collect();
    Ok(ApiJson(Paginated::new(
        rows.into_iter()
            .map(|r| RedirectView::new(r, None))
            .collect(),
        total,
        pages,
        &format!("/api/projects/{project_id}/redirects"),
        &query,
    )))
}

/// The rule behind `id`, once the caller may see its project.
async fn authorized_redirect(
    state: &AppState,
    user: &CurrentUser,
    id: RedirectId,
) -> Result<RedirectRule> {
    let rule = state.store.redirect_by_id(id).await?;
    authorize_project(state, user, rule.project_id).await?;
    Ok(rule)
}

#[utoipa::path(get, path = "/api/redirects/{id}", tag = "redirects",
    params(("id" = i64, Path, description = "Redirect id")),
    responses((status = 200, body = RedirectView), (status = 404, body = ErrorBody)))]
pub async fn get_redirect(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<RedirectId>,
) -> Result<ApiJson<RedirectView>> {
    let rule = authorized_redirect(&state, &user, id).await?;
    Ok(ApiJson(RedirectView::new(rule, None)))
}

/// Creates a rule. An origin the project already redirects answers 409; a rule that hides a
/// page is saved with a warning.
#[utoipa::path(post, path = "/api/redirects", tag = "redirects", request_body = RedirectRequest,
    responses((status = 201, body = RedirectView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_redirect(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<RedirectRequest>,
) -> Result<impl IntoResponse> {
    let project_id = req.project_id.ok_or_else(|| {
        ApiError::invalid("project_id", ErrorCode::Required, "project_id is required")
    })?;
    authorize_project(&state, &user, project_id).await?;
    let Rule { from, to, warning } = parse_rule(
        req.from.as_deref().unwrap_or(""),
        req.to.as_deref().unwrap_or(""),
    )?;
    let rule = state.store.insert_redirect(project_id, &from, &to).await?;
    Ok((
        StatusCode::CREATED,
        ApiJson(RedirectView::saved(&state, rule, warning).await?),
    ))
}

#[utoipa::path(post, path = "/api/redirects/{id}", tag = "redirects", request_body = RedirectRequest,
    params(("id" = i64, Path, description = "Redirect id")),
    responses((status = 200, body = RedirectView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_redirect(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<RedirectId>,
    ApiJson(req): ApiJson<RedirectRequest>,
) -> Result<ApiJson<RedirectView>> {
    let current = authorized_redirect(&state, &user, id).await?;
    if req.project_id.is_some_and(|p| p != current.project_id) {
        return Err(ApiError::invalid(
            "project_id",
            ErrorCode::RedirectProjectFixed,
            "A redirect cannot move to another project",
        ));
    }
    let Rule { from, to, warning } = parse_rule(
        req.from.as_deref().unwrap_or(&current.from),
        req.to.as_deref().unwrap_or(&current.to),
    )?;
    let rule = state.store.update_redirect(id, &from, &to).await?;
    Ok(ApiJson(RedirectView::saved(&state, rule, warning).await?))
}

#[utoipa::path(delete, path = "/api/redirects/{id}", tag = "redirects",
    params(("id" = i64, Path, description = "Redirect id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_redirect(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<RedirectId>,
) -> Result<StatusCode> {
    authorized_redirect(&state, &user, id).await?;
    state.store.delete_redirect(id).await?;
    Ok(StatusCode::NO_CONTENT)
}
