//! Shared sections (`vitrine_shared::sections`): a project's global header and footer, edited
//! once and shown on every page. Every call passes the project authorization check first, and
//! a page is named with its project (`/api/project/{id}/page/{page_id}/…`) and read by both,
//! so another project's page is not found: a section is never attached to it.

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use vitrine_shared::ids::{PageId, ProjectId};
use vitrine_shared::{
    blocks::check_vars,
    render::{Block, check_template},
    sections::{SectionKind, Sections},
    store::{Page, StoreError},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// Most bytes a section's block may take as JSON (its code and its values).
const MAX_SECTION_BYTES: usize = 512 * 1024;

/// `POST /api/project/{id}/sections/{kind}` body: the section's block as the editor holds it.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveSection {
    #[schema(value_type = Object)]
    pub block: Value,
}

/// `POST /api/project/{id}/page/{page_id}/sections/{kind}` body: the page's block to share.
#[derive(Debug, Deserialize, ToSchema)]
pub struct MakeSection {
    pub uid: String,
}

/// A block made a shared section: the page without it, and the project's sections.
#[derive(Debug, Serialize, ToSchema)]
pub struct MadeSection {
    pub page: Page,
    pub sections: Sections,
}

#[utoipa::path(get, path = "/api/project/{id}/sections", tag = "pages",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = Sections), (status = 404, body = ErrorBody)))]
pub async fn get_sections(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
) -> Result<ApiJson<Sections>> {
    authorize_project(&state, &user, project_id).await?;
    Ok(ApiJson(state.store.global_sections(project_id).await?))
}

/// The block checked as a page block would be at publish: readable, its variable
/// definitions well formed, its template parsing; and of a reasonable size.
fn checked_block(kind: SectionKind, mut block: Value) -> Result<Value> {
    let size = serde_json::to_vec(&block).map(|v| v.len()).unwrap_or(0);
    if size > MAX_SECTION_BYTES {
        return Err(ApiError::invalid(
            "block",
            ErrorCode::TooLarge,
            "The section is too large (512 KB at most)",
        )
        .param("kb", MAX_SECTION_BYTES / 1024));
    }
    let parsed: Block = serde_json::from_value(block.clone())
        .ok()
        .filter(|_| block.is_object())
        .ok_or_else(|| {
            ApiError::invalid(
                "block",
                ErrorCode::BlockUnreadable,
                "The section's block cannot be read",
            )
            .param("index", 1)
            .param("detail", "expected a block object")
        })?;
    check_vars(&parsed.vars).map_err(|detail| {
        ApiError::invalid("block", ErrorCode::XVarsInvalid, detail.clone()).param("detail", detail)
    })?;
    check_template(&parsed.template).map_err(|detail| {
        ApiError::invalid(
            "block",
            ErrorCode::TemplateError,
            format!("Template error in block \"{}\": {detail}", parsed.name),
        )
        .param("block", parsed.name.clone())
        .param("detail", detail)
    })?;
    block["uid"] = Value::from(kind.uid());
    Ok(block)
}

#[utoipa::path(post, path = "/api/project/{id}/sections/{kind}", tag = "pages", request_body = SaveSection,
    params(("id" = i64, Path, description = "Project id"), ("kind" = inline(SectionKind), Path, description = "header or footer")),
    responses((status = 200, body = Sections), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_section(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((project_id, kind)): ApiPath<(ProjectId, SectionKind)>,
    ApiJson(req): ApiJson<SaveSection>,
) -> Result<ApiJson<Sections>> {
    authorize_project(&state, &user, project_id).await?;
    let block = checked_block(kind, req.block)?;
    state
        .store
        .save_global_section(project_id, kind, &block)
        .await?;
    Ok(ApiJson(state.store.global_sections(project_id).await?))
}

#[utoipa::path(delete, path = "/api/project/{id}/sections/{kind}", tag = "pages",
    params(("id" = i64, Path, description = "Project id"), ("kind" = inline(SectionKind), Path, description = "header or footer")),
    responses((status = 204, description = "The project has no such section (any more)"), (status = 404, body = ErrorBody)))]
pub async fn delete_section(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((project_id, kind)): ApiPath<(ProjectId, SectionKind)>,
) -> Result<StatusCode> {
    authorize_project(&state, &user, project_id).await?;
    match state.store.delete_global_section(project_id, kind).await {
        Ok(()) | Err(StoreError::NotFound) => Ok(StatusCode::NO_CONTENT),
        Err(e) => Err(e.into()),
    }
}

#[utoipa::path(post, path = "/api/project/{id}/page/{page_id}/sections/{kind}", tag = "pages", request_body = MakeSection,
    params(("id" = i64, Path, description = "Project id"), ("page_id" = i64, Path, description = "Page id"),
        ("kind" = inline(SectionKind), Path, description = "header or footer")),
    responses((status = 200, body = MadeSection), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn make_section(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((project_id, page_id, kind)): ApiPath<(ProjectId, PageId, SectionKind)>,
    ApiJson(req): ApiJson<MakeSection>,
) -> Result<ApiJson<MadeSection>> {
    authorize_project(&state, &user, project_id).await?;
    let Some(page) = state
        .store
        .make_global_section(project_id, page_id, kind, &req.uid)
        .await?
    else {
        return Err(ApiError::invalid(
            "uid",
            ErrorCode::BlockNotOnPage,
            "The page has no such block",
        ));
    };
    Ok(ApiJson(MadeSection {
        page,
        sections: state.store.global_sections(project_id).await?,
    }))
}
