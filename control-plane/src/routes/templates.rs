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
    error::{ApiError, ApiJson, ApiPath, ErrorBody, Result},
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

#[utoipa::path(get, path = "/erp/templateList", tag = "admin",
    responses((status = 200, body = Vec<TemplateView>), (status = 403, body = ErrorBody)))]
pub async fn erp_template_list(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<Vec<TemplateView>>> {
    let templates = state.store.list_templates(true).await?;
    Ok(ApiJson(
        templates.into_iter().map(TemplateView::from).collect(),
    ))
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
            "is_published must be '1' or '0'",
        )),
    }
}

#[utoipa::path(post, path = "/erp/template/{id}", tag = "admin", request_body = EditTemplate,
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 200, body = TemplateView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_edit_template(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<EditTemplate>,
) -> Result<ApiJson<TemplateView>> {
    let current = state.store.template_by_id(id).await?;
    let name = match req.name {
        Some(n) => required_text("name", Some(&n), 200, NAME_REQUIRED)?,
        None => current.name,
    };
    let description = req.description.unwrap_or(current.description);
    let category = req.category.unwrap_or(current.category);
    if description.chars().count() > 1000 || category.chars().count() > 100 {
        return Err(ApiError::invalid(
            "description",
            "Description (1000) or category (100 characters) is too long",
        ));
    }
    let order = crate::routes::blocks::check_order(req.order.unwrap_or(current.sort_order))?;
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
    Ok(ApiJson(TemplateView::from(
        state
            .store
            .update_template_info(id, &info, published)
            .await?,
    )))
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
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<TemplateOrder>,
) -> Result<StatusCode> {
    state
        .store
        .reorder_template(id, crate::routes::blocks::check_order(req.order)?)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/erp/delete-template/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Template id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn erp_delete_template(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode> {
    state.store.delete_template(id).await?;
    Ok(StatusCode::NO_CONTENT)
}
