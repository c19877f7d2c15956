//! Templates (themes): the list, creating a project from one, and saving a project as one
//! (administrators only).

use axum::{
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde::Deserialize;
use utoipa::ToSchema;
use vitrine_shared::{domain::required_text, store::TemplateInfo};

use crate::{
    auth::{Admin, CurrentUser},
    authz::authorize_project,
    error::{ApiJson, ApiPath, ErrorBody, Result},
    routes::projects::{NAME_REQUIRED, choose_slug, create_from_snapshot},
    state::AppState,
    views::{ProjectView, TemplateView},
};

#[derive(Debug, Deserialize, ToSchema)]
pub struct UseTemplate {
    pub name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveTemplate {
    pub project_id: i64,
    pub name: Option<String>,
    /// Replace this template instead of creating a new one.
    pub template_id: Option<i64>,
    pub description: Option<String>,
    pub category: Option<String>,
}

#[utoipa::path(get, path = "/api/templates", tag = "templates",
    responses((status = 200, body = Vec<TemplateView>), (status = 401, body = ErrorBody)))]
pub async fn list_templates(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<Vec<TemplateView>>> {
    let templates = state.store.list_templates(user.is_admin).await?;
    Ok(ApiJson(
        templates.into_iter().map(TemplateView::from).collect(),
    ))
}

#[utoipa::path(post, path = "/api/templates/use/{template_id}", tag = "templates", request_body = UseTemplate,
    params(("template_id" = i64, Path, description = "Template id")),
    responses((status = 201, body = ProjectView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn use_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(template_id): ApiPath<i64>,
    ApiJson(req): ApiJson<UseTemplate>,
) -> Result<impl IntoResponse> {
    let name = required_text("name", req.name.as_deref(), 200, NAME_REQUIRED)?;
    let template = state.store.template_by_id(template_id).await?;
    if !template.is_published && !user.is_admin {
        return Err(crate::error::ApiError::NotFound);
    }
    let snapshot = state.store.template_snapshot(template_id).await?;
    let slug = choose_slug(&state, None, &name).await?;
    create_from_snapshot(&state, user.id, &name, &slug, &snapshot).await
}

#[utoipa::path(post, path = "/api/templates", tag = "templates", request_body = SaveTemplate,
    responses((status = 201, body = TemplateView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn save_template(
    State(state): State<AppState>,
    Admin(admin): Admin,
    ApiJson(req): ApiJson<SaveTemplate>,
) -> Result<impl IntoResponse> {
    authorize_project(&state, &admin, req.project_id).await?;
    let name = required_text(
        "name",
        req.name.as_deref(),
        200,
        "Template name is required",
    )?;
    let snapshot = state.store.export_snapshot(req.project_id).await?;
    let template = match req.template_id {
        Some(id) => state.store.replace_template(id, &name, &snapshot).await?,
        None => {
            let info = TemplateInfo {
                name: &name,
                description: req.description.as_deref().unwrap_or(""),
                category: req.category.as_deref().unwrap_or(""),
                sort_order: 99,
            };
            if state
                .store
                .list_templates(true)
                .await?
                .iter()
                .any(|t| t.name == name)
            {
                return Err(crate::error::ApiError::Conflict {
                    field: "name",
                    message: "A template with this name already exists".into(),
                });
            }
            state.store.upsert_template(&info, &snapshot).await?
        }
    };
    Ok((StatusCode::CREATED, ApiJson(TemplateView::from(template))))
}

/// The template's home page as a document, for the theme picker's thumbnails. It is served
/// sandboxed (no scripts, no outside requests) and may be framed only by the dashboard.
#[utoipa::path(get, path = "/api/templates/{id}/preview", tag = "templates",
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 200, description = "HTML document", content_type = "text/html"), (status = 404, body = ErrorBody)))]
pub async fn preview_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<Response> {
    let template = state.store.template_by_id(id).await?;
    if !template.is_published && !user.is_admin {
        return Err(crate::error::ApiError::NotFound);
    }
    let snapshot = state.store.template_snapshot(id).await?;
    let home = snapshot
        .pages
        .iter()
        .find(|p| p.slug == "/")
        .map(|p| p.output.as_str())
        .unwrap_or("");
    let document = format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=1280\">\
         <style>body{{margin:0;font-family:system-ui,sans-serif}}</style></head><body>{home}</body></html>"
    );
    let mut response = Html(document).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:",
        ),
    );
    h.insert(
        header::X_FRAME_OPTIONS,
        HeaderValue::from_static("SAMEORIGIN"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=300"),
    );
    Ok(response)
}
