//! Templates (themes): the list, creating a project from one, and saving a project as one,
//! new or in place of an existing one (administrators only: templates are the platform's, so
//! no owner but an administrator may write one), a template's picture, and the
//! administrator's template screen (`/erp/template*`).

use axum::{
    extract::State,
    http::{StatusCode, header},
    response::{Html, IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::ids::{ProjectId, TemplateId};
use vitrine_shared::{
    account::Account,
    domain::{normalize_page_slug, required_text},
    sandbox::Share,
    store::{Template, TemplateInfo},
};

use crate::{
    accounts::auth::{Admin, CurrentUser},
    accounts::authz::authorize_project,
    block_checks::check_order,
    error::{ApiError, ErrorBody, ErrorCode, Result, ScreenshotAnswers},
    extract::{ApiJson, ApiPath, ApiQuery},
    pictures::thumbnails::{ScreenshotQuery, png_response, shoot},
    projects::{choose_slug, create_from_snapshot, parse_name},
    rendering::template_document,
    responses::ProjectView,
    state::AppState,
};

/// The theme calls (spec 1 §7) and the administrator's (spec 2 §7 "Administrator").
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_templates, save_template))
        .routes(routes!(use_template))
        .routes(routes!(preview_template))
        .routes(routes!(template_detail))
        .routes(routes!(template_screenshot))
        .routes(routes!(erp_template_list))
        .routes(routes!(erp_edit_template))
        .routes(routes!(erp_reorder_template))
        .routes(routes!(erp_delete_template))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UseTemplate {
    pub name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveTemplate {
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub name: Option<String>,
    /// Replace this template instead of creating a new one.
    #[schema(value_type = Option<i64>)]
    pub template_id: Option<TemplateId>,
    pub description: Option<String>,
    pub category: Option<String>,
}

#[utoipa::path(get, path = "/api/templates", tag = "templates",
    responses((status = 200, body = Vec<Template>), (status = 401, body = ErrorBody)))]
pub async fn list_templates(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<Vec<Template>>> {
    let templates = state.store.list_templates(user.is_admin).await?;
    Ok(ApiJson(templates))
}

#[utoipa::path(post, path = "/api/templates/use/{template_id}", tag = "templates", request_body = UseTemplate,
    params(("template_id" = i64, Path, description = "Template id")),
    responses((status = 201, body = ProjectView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn use_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(template_id): ApiPath<TemplateId>,
    ApiJson(req): ApiJson<UseTemplate>,
) -> Result<impl IntoResponse> {
    let name = parse_name(req.name.as_deref())?;
    visible_template(&state, &user, template_id).await?;
    let snapshot = state.store.template_snapshot(template_id).await?;
    let slug = choose_slug(&state, None, &name).await?;
    // The site is called what the owner named it, never the template's business.
    create_from_snapshot(&state, user.id, (&name, &name), &slug, &snapshot).await
}

#[utoipa::path(post, path = "/api/templates", tag = "templates", request_body = SaveTemplate,
    responses((status = 201, body = Template), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "A template with this name already exists", body = ErrorBody)))]
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
        ErrorCode::Required,
        "Template name is required",
    )?;
    // Another template's name may not be taken, whether this one is new or updated.
    if state
        .store
        .list_templates(true)
        .await?
        .iter()
        .any(|t| t.name == name && Some(t.id) != req.template_id)
    {
        return Err(ApiError::conflict(
            "name",
            ErrorCode::TemplateNameTaken,
            "A template with this name already exists",
        ));
    }
    let snapshot = state.store.export_snapshot(req.project_id).await?;
    let template = match req.template_id {
        // Every template is the platform's, so an administrator may update any of them.
        Some(id) => state.store.replace_template(id, &name, &snapshot).await?,
        None => {
            let info = TemplateInfo {
                name: &name,
                description: req.description.as_deref().unwrap_or(""),
                category: req.category.as_deref().unwrap_or(""),
                sort_order: 99,
            };
            state.store.upsert_template(&info, &snapshot).await?
        }
    };
    Ok((StatusCode::CREATED, ApiJson(template)))
}

/// `GET /api/templates/{id}`: a template with the list of its pages, for the theme preview.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateDetail {
    #[serde(flatten)]
    pub template: Template,
    pub pages: Vec<TemplatePage>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TemplatePage {
    pub name: String,
    /// `/` for the home page, else the page's path without its leading slash.
    pub slug: String,
}

/// A template the user may see: published ones, and every one for administrators.
async fn visible_template(
    state: &AppState,
    user: &CurrentUser,
    id: TemplateId,
) -> Result<Template> {
    let template = state.store.template_by_id(id).await?;
    if !template.is_published && !user.is_admin {
        return Err(ApiError::NotFound);
    }
    Ok(template)
}

#[utoipa::path(get, path = "/api/templates/{id}", tag = "templates",
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 200, body = TemplateDetail), (status = 404, body = ErrorBody)))]
pub async fn template_detail(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<TemplateId>,
) -> Result<ApiJson<TemplateDetail>> {
    let template = visible_template(&state, &user, id).await?;
    let snapshot = state.store.template_snapshot(id).await?;
    let mut pages: Vec<TemplatePage> = snapshot
        .pages
        .iter()
        .map(|p| TemplatePage {
            name: p.name.clone(),
            slug: normalize_page_slug(&p.slug),
        })
        .collect();
    pages.sort_by_key(|p| p.slug != "/");
    Ok(ApiJson(TemplateDetail { template, pages }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TemplatePreviewQuery {
    /// The page's slug (`/` or `sobre`); the home page when absent.
    pub page: Option<String>,
}

/// One of the template's pages as a document, for the theme picker and the theme preview. It
/// is served sandboxed (no scripts, no outside requests) and may be framed only by the
/// dashboard.
#[utoipa::path(get, path = "/api/templates/{id}/preview", tag = "templates",
    params(("id" = i64, Path, description = "Template id"), TemplatePreviewQuery),
    responses((status = 200, description = "HTML document", content_type = "text/html"),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn preview_template(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<TemplateId>,
    ApiQuery(q): ApiQuery<TemplatePreviewQuery>,
) -> Result<Response> {
    visible_template(&state, &user, id).await?;
    let snapshot = state.store.template_snapshot(id).await?;
    let share = Share::editor(Account::of(user.id, user.business_id));
    let document =
        template_document(&state, share, &snapshot, q.page.as_deref().unwrap_or("/")).await?;
    let headers = [
        (
            header::CONTENT_SECURITY_POLICY,
            "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: 'self'; font-src data:; frame-ancestors 'self'",
        ),
        (header::X_FRAME_OPTIONS, "SAMEORIGIN"),
        (header::CACHE_CONTROL, "private, max-age=300"),
    ];
    Ok((headers, Html(document)).into_response())
}

#[utoipa::path(get, path = "/erp/templateList", tag = "admin",
    responses((status = 200, body = Vec<Template>), (status = 403, body = ErrorBody)))]
pub async fn erp_template_list(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<Vec<Template>>> {
    let templates = state.store.list_templates(true).await?;
    Ok(ApiJson(templates))
}

/// `POST /erp/template/{id}`: any of the template's descriptive fields.
#[derive(Debug, Deserialize, ToSchema)]
pub struct EditTemplate {
    pub name: Option<String>,
    pub description: Option<String>,
    pub category: Option<String>,
    pub order: Option<i64>,
    /// '1' or '0' (or a boolean).
    #[schema(value_type = Object)]
    pub is_published: Option<serde_json::Value>,
}

fn published_flag(v: &serde_json::Value) -> Result<bool> {
    match v {
        serde_json::Value::Bool(b) => Ok(*b),
        serde_json::Value::String(s) if s == "1" => Ok(true),
        serde_json::Value::String(s) if s == "0" => Ok(false),
        serde_json::Value::Number(n) if n.as_i64() == Some(1) => Ok(true),
        serde_json::Value::Number(n) if n.as_i64() == Some(0) => Ok(false),
        _ => Err(ApiError::invalid(
            "is_published",
            ErrorCode::NotAFlag,
            "is_published must be '1' or '0'",
        )),
    }
}

#[utoipa::path(post, path = "/erp/template/{id}", tag = "admin", request_body = EditTemplate,
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 200, body = Template), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_edit_template(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<TemplateId>,
    ApiJson(req): ApiJson<EditTemplate>,
) -> Result<ApiJson<Template>> {
    let current = state.store.template_by_id(id).await?;
    let name = match req.name {
        Some(n) => parse_name(Some(&n))?,
        None => current.name,
    };
    let description = req.description.unwrap_or(current.description);
    let category = req.category.unwrap_or(current.category);
    if description.chars().count() > 1000 || category.chars().count() > 100 {
        return Err(ApiError::invalid(
            "description",
            ErrorCode::TooLong,
            "Description (1000) or category (100 characters) is too long",
        ));
    }
    let order = check_order(req.order.unwrap_or(current.sort_order))?;
    let published = match &req.is_published {
        Some(v) => published_flag(v)?,
        None => current.is_published,
    };
    let info = TemplateInfo {
        name: &name,
        description: &description,
        category: &category,
        sort_order: order,
    };
    Ok(ApiJson(
        state
            .store
            .update_template_info(id, &info, published)
            .await?,
    ))
}

/// `{order}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct TemplateOrder {
    pub order: i64,
}

#[utoipa::path(post, path = "/erp/reorder-template/{id}", tag = "admin", request_body = TemplateOrder,
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_reorder_template(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<TemplateId>,
    ApiJson(req): ApiJson<TemplateOrder>,
) -> Result<StatusCode> {
    state
        .store
        .reorder_template(id, check_order(req.order)?)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/erp/delete-template/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn erp_delete_template(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<TemplateId>,
) -> Result<StatusCode> {
    state.store.delete_template(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(get, path = "/api/template-screenshot/{id}", tag = "admin", params(("id" = i64, Path, description = "Template id"), ScreenshotQuery),
    responses((status = 200, description = "PNG; the template's thumbnail is set to it", content_type = "image/png"),
        ScreenshotAnswers))]
pub async fn template_screenshot(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<TemplateId>,
    ApiQuery(q): ApiQuery<ScreenshotQuery>,
) -> Result<Response> {
    let size = q.size((1280, 1280))?;
    let snapshot = state.store.template_snapshot(id).await?;
    let document =
        template_document(&state, Share::editor(Account::Platform), &snapshot, "/").await?;
    let (png, url) = shoot(
        &state,
        document,
        size,
        q.trim(false),
        &format!("template-{id}"),
    )
    .await?;
    state.store.set_template_thumbnail(id, &url).await?;
    Ok(png_response(png))
}
