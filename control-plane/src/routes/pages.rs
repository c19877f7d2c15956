//! Pages (spec 1 §7, spec 2 §7 "Pages and data"): create, read, update, delete.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use vitrine_shared::ids::{CollectionId, PageId, ProjectId};
use vitrine_shared::{
    blocks::sanitize_rich_text,
    domain::{Invalid, normalize_page_slug, required_text},
    store::{Page, PageChanges},
};

use crate::page_starter::starter_blocks;
use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorize_project,
    conflicts::page_warnings,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, double_option},
    publish::Warning,
    state::AppState,
};

const MAX_OUTPUT: usize = 2 * 1024 * 1024;

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreatePage {
    pub name: Option<String>,
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    /// Makes it a collection page of this collection of the project, which starts with the
    /// library's detail block bound to the collection's fields.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub table_id: Option<CollectionId>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdatePage {
    pub name: Option<String>,
    pub slug: Option<String>,
    pub description: Option<String>,
    pub image: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub meta: Option<Value>,
    pub output: Option<String>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub blocks: Option<Value>,
    /// Binds the page to a collection of the same project (a collection page), or null.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<i64>)]
    pub table_id: Option<Option<CollectionId>>,
}

/// A page as saved, and what the owner should know about it: one of the project's redirects
/// takes its address (`page_under_redirect`, see [`crate::conflicts`]).
#[derive(Debug, Serialize, ToSchema)]
pub struct PageSaved {
    #[serde(flatten)]
    pub page: Page,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

#[utoipa::path(post, path = "/api/pages", tag = "pages", request_body = CreatePage,
    responses((status = 201, body = PageSaved), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_page(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<CreatePage>,
) -> Result<impl IntoResponse> {
    authorize_project(&state, &user, req.project_id).await?;
    let name = required_text(
        "name",
        req.name.as_deref(),
        200,
        ErrorCode::Required,
        "Page name is required",
    )?;
    if let Some(t) = req.table_id {
        check_collection(&state, t, req.project_id).await?;
    }
    let mut page = state
        .store
        .insert_page(req.project_id, &name, &normalize_page_slug(&name))
        .await?;
    if let Some(t) = req.table_id {
        let changes = PageChanges {
            table_id: Some(Some(t)),
            blocks: starter_blocks(&state, t).await?,
            ..PageChanges::default()
        };
        page = state.store.update_page(page.id, &changes).await?;
    }
    let warnings = page_warnings(&state, &page).await?;
    Ok((StatusCode::CREATED, ApiJson(PageSaved { page, warnings })))
}

/// A collection of this project, else 422 `unknown_collection` (another project's is unknown too).
async fn check_collection(
    state: &AppState,
    table_id: CollectionId,
    project_id: ProjectId,
) -> Result<()> {
    if state
        .store
        .collection_in_project(table_id, project_id)
        .await?
    {
        Ok(())
    } else {
        Err(Invalid::new(
            "table_id",
            ErrorCode::UnknownCollection,
            "Unknown collection",
        )
        .into())
    }
}

#[utoipa::path(get, path = "/api/project/{id}/page/{page_id}", tag = "pages",
    params(("id" = i64, Path, description = "Project id"), ("page_id" = i64, Path, description = "Page id")),
    responses((status = 200, body = Page), (status = 404, body = ErrorBody)))]
pub async fn get_page(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((project_id, page_id)): ApiPath<(ProjectId, PageId)>,
) -> Result<ApiJson<Page>> {
    authorize_project(&state, &user, project_id).await?;
    let page = state.store.page_by_id(page_id).await?;
    if page.project_id != project_id {
        return Err(ApiError::NotFound);
    }
    Ok(ApiJson(page))
}

#[utoipa::path(post, path = "/api/page/{id}", tag = "pages", request_body = UpdatePage,
    params(("id" = i64, Path, description = "Page id")),
    responses((status = 200, body = PageSaved), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_page(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(page_id): ApiPath<PageId>,
    ApiJson(req): ApiJson<UpdatePage>,
) -> Result<ApiJson<PageSaved>> {
    let project_id = state.store.page_project_id(page_id).await?;
    authorize_project(&state, &user, project_id).await?;
    let current = state.store.page_by_id(page_id).await?;
    let mut changes = PageChanges::default();
    if let Some(name) = req.name {
        changes.name = Some(required_text(
            "name",
            Some(&name),
            200,
            ErrorCode::Required,
            "Page name is required",
        )?);
    }
    if let Some(slug) = req.slug {
        let slug = normalize_page_slug(&slug);
        if current.slug == "/" && slug != "/" {
            return Err(Invalid::new(
                "slug",
                ErrorCode::HomeSlugFixed,
                "The home page's slug cannot be changed",
            )
            .into());
        }
        if slug.len() > 200 {
            return Err(Invalid::new(
                "slug",
                ErrorCode::TooLong,
                "slug must be at most 200 characters",
            )
            .param("max", 200)
            .into());
        }
        changes.slug = Some(slug);
    }
    if let Some(d) = req.description {
        if d.chars().count() > 1000 {
            return Err(Invalid::new(
                "description",
                ErrorCode::TooLong,
                "Description must be at most 1000 characters",
            )
            .param("max", 1000)
            .into());
        }
        changes.description = Some(d);
    }
    if let Some(image) = req.image {
        if image.len() > 2048 {
            return Err(Invalid::new("image", ErrorCode::TooLong, "Image URL is too long").into());
        }
        changes.image = Some(image);
    }
    if let Some(meta) = req.meta {
        if !meta.is_object() {
            return Err(
                Invalid::new("meta", ErrorCode::MustBeObject, "meta must be an object").into(),
            );
        }
        changes.meta = Some(meta);
    }
    if let Some(output) = req.output {
        if output.len() > MAX_OUTPUT {
            return Err(Invalid::new(
                "output",
                ErrorCode::PageTooLarge,
                "The page is too large (2 MB at most)",
            )
            .param("mb", 2)
            .into());
        }
        changes.output = Some(output);
    }
    if let Some(mut blocks) = req.blocks {
        // A list of blocks, each an object (the document's `PageView.blocks`).
        if !blocks
            .as_array()
            .is_some_and(|list| list.iter().all(Value::is_object))
        {
            return Err(Invalid::new(
                "blocks",
                ErrorCode::MustBeList,
                "blocks must be a list of objects",
            )
            .into());
        }
        // Rich text typed in the canvas (inline editing) or the panel is kept clean.
        sanitize_rich_text(&mut blocks);
        changes.blocks = Some(blocks);
    }
    if let Some(table_id) = req.table_id {
        // The home page is the site's `/`: a collection page answers `/{page}/{post}`.
        if table_id.is_some() && current.slug == "/" {
            return Err(Invalid::new(
                "table_id",
                ErrorCode::HomePageStatic,
                "The home page cannot be a collection page",
            )
            .into());
        }
        if let Some(t) = table_id {
            check_collection(&state, t, project_id).await?;
        }
        changes.table_id = Some(table_id);
    }
    // A new address (or a collection page's posts) may fall under a redirect.
    let moved = changes.slug.as_ref().is_some_and(|s| *s != current.slug)
        || changes.table_id.is_some_and(|t| t != current.table_id);
    let page = state.store.update_page(page_id, &changes).await?;
    let warnings = if moved {
        page_warnings(&state, &page).await?
    } else {
        Vec::new()
    };
    Ok(ApiJson(PageSaved { page, warnings }))
}

#[utoipa::path(delete, path = "/api/page/{id}", tag = "pages",
    params(("id" = i64, Path, description = "Page id")),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn delete_page(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(page_id): ApiPath<PageId>,
) -> Result<StatusCode> {
    let project_id = state.store.page_project_id(page_id).await?;
    authorize_project(&state, &user, project_id).await?;
    let page = state.store.page_by_id(page_id).await?;
    if page.slug == "/" {
        return Err(Invalid::new(
            "id",
            ErrorCode::HomePageKept,
            "The home page cannot be deleted",
        )
        .into());
    }
    state.store.delete_page(page_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
