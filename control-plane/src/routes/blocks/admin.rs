//! The global block library's writes (spec 2 §7 "Block library" and "Administrator"):
//! `POST /api/newBlock` and the `/erp/*` block and category screens: save, move, reorder and
//! delete blocks and categories, empty the library, import, export and search. Every tenant's
//! editor shows this library, so only platform administrators write it.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::ids::{BlockCategoryId, LibraryBlockId};
use vitrine_shared::store::{
    BlockCategory, BlockExport, BlockInput, CategoryExport, CategoryInput, LibraryBlock,
};

use crate::{
    accounts::auth::{Admin, CurrentUser},
    block_checks::{BlockSource, block_name, check_code, check_order},
    error::{ApiError, BLOCK_NAME_TAKEN, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// The global library's writes, in the order of spec 2 §7.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(new_block))
        .routes(routes!(erp_reorder_block))
        .routes(routes!(erp_reorder_category))
        .routes(routes!(erp_create_block))
        .routes(routes!(erp_update_block))
        .routes(routes!(erp_create_category))
        .routes(routes!(erp_update_category))
        .routes(routes!(erp_delete_block))
        .routes(routes!(erp_delete_category))
        .routes(routes!(erp_truncate))
        .routes(routes!(erp_import_categories))
        .routes(routes!(erp_import_blocks))
        .routes(routes!(erp_search_blocks))
        .routes(routes!(erp_export_block))
        .routes(routes!(erp_export_categories))
        .routes(routes!(erp_export_blocks))
}

/// A library block save (`POST /api/newBlock`, `POST /erp/block/{id?}`). On `/erp/block/{id}` a
/// body with only `category_id` moves the block.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SaveBlock {
    /// Replace this block (`/api/newBlock`); absent to create one.
    #[schema(value_type = Option<i64>)]
    pub id: Option<LibraryBlockId>,
    #[schema(value_type = Option<i64>)]
    pub category_id: Option<BlockCategoryId>,
    #[serde(flatten)]
    pub block: BlockSource,
}

async fn save_library_block(
    state: &AppState,
    id: Option<LibraryBlockId>,
    req: SaveBlock,
) -> Result<(StatusCode, ApiJson<LibraryBlock>)> {
    if let Some(id) = id
        && req.block.name.is_none()
        && req.block.template.is_none()
        && let Some(category_id) = req.category_id
    {
        return Ok((
            StatusCode::OK,
            ApiJson(state.store.set_block_category(id, category_id).await?),
        ));
    }
    let order = req.block.order;
    let mut block = req.block.check()?;
    if block.image.len() > 2048 {
        return Err(ApiError::invalid(
            "image",
            ErrorCode::TooLong,
            "Image URL is too long",
        ));
    }
    let current = match id {
        Some(id) => Some(state.store.library_block(id).await?),
        None => None,
    };
    // An empty image keeps the block's picture.
    if block.image.is_empty()
        && let Some(c) = &current
    {
        block.image.clone_from(&c.content.image);
    }
    let saved = state
        .store
        .save_library_block(
            id,
            &BlockInput {
                uid: None,
                content: &block,
                category_id: req
                    .category_id
                    .or(current.as_ref().and_then(|c| c.category_id)),
                sort_order: order,
            },
        )
        .await?;
    let status = if id.is_some() {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, ApiJson(saved)))
}

#[utoipa::path(post, path = "/api/newBlock", tag = "blocks", request_body = SaveBlock,
    responses((status = 201, body = LibraryBlock), (status = 200, description = "Replaced", body = LibraryBlock),
        (status = 401, body = ErrorBody), (status = 403, description = "Not a platform administrator", body = ErrorBody),
        (status = 404, description = "No such block or category", body = ErrorBody),
        (status = 409, description = "Block Name already exists", body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn new_block(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<SaveBlock>,
) -> Result<impl IntoResponse> {
    // Every tenant's editor shows the global library, so only platform administrators write
    // it (issue 20; spec 2 §6 let business administrators save here too). Business
    // administrators save to their business's own library (`routes::business_library`).
    if !user.is_admin {
        return Err(ApiError::forbidden(
            ErrorCode::GlobalLibraryAdminOnly,
            "Only platform administrators can save to the global block library; business administrators save to their business's library",
        ));
    }
    let id = req.id;
    save_library_block(&state, id, req).await
}

#[utoipa::path(post, path = "/erp/block", tag = "admin", request_body = SaveBlock,
    responses((status = 201, body = LibraryBlock), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_create_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiJson(req): ApiJson<SaveBlock>,
) -> Result<impl IntoResponse> {
    let saved = save_library_block(&state, None, req).await;
    crate::pictures::thumbnails::refresh(&state);
    saved
}

#[utoipa::path(post, path = "/erp/block/{id}", tag = "admin", request_body = SaveBlock,
    params(("id" = i64, Path, description = "Block id")),
    responses((status = 200, body = LibraryBlock), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_update_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<LibraryBlockId>,
    ApiJson(req): ApiJson<SaveBlock>,
) -> Result<impl IntoResponse> {
    let saved = save_library_block(&state, Some(id), req).await;
    // A changed block gets a new thumbnail (its source's hash names the picture).
    crate::pictures::thumbnails::refresh(&state);
    saved
}

/// `{order}` for the reorder calls.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Reorder {
    pub order: i64,
}

/// A `/erp/reorder-…/{id}` call: blocks and categories move alike (the same body, check and
/// answer), each kind through its own store call and with its own kind of id.
macro_rules! erp_reorder {
    ($handler:ident, $path:literal, $id:literal, $id_type:ty, $reorder:ident) => {
        #[utoipa::path(post, path = $path, tag = "admin", request_body = Reorder,
            params(("id" = i64, Path, description = $id)),
            responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
        pub async fn $handler(
            State(state): State<AppState>,
            _admin: Admin,
            ApiPath(id): ApiPath<$id_type>,
            ApiJson(req): ApiJson<Reorder>,
        ) -> Result<StatusCode> {
            state.store.$reorder(id, check_order(req.order)?).await?;
            Ok(StatusCode::NO_CONTENT)
        }
    };
}

erp_reorder!(
    erp_reorder_block,
    "/erp/reorder-block/{id}",
    "Block id",
    LibraryBlockId,
    reorder_block
);
erp_reorder!(
    erp_reorder_category,
    "/erp/reorder-category/{id}",
    "Category id",
    BlockCategoryId,
    reorder_block_category
);

#[utoipa::path(post, path = "/erp/delete-block/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Block id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn erp_delete_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<LibraryBlockId>,
) -> Result<StatusCode> {
    state.store.delete_library_block(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A category save.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveCategory {
    pub name: Option<String>,
    pub icon: Option<String>,
    pub order: Option<i64>,
}

async fn save_category(
    state: &AppState,
    id: Option<BlockCategoryId>,
    req: SaveCategory,
) -> Result<ApiJson<BlockCategory>> {
    let name = req.name.as_deref().map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::Required,
            "Category name is required",
        ));
    }
    if name.chars().count() > 100 {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::TooLong,
            "Category name must be at most 100 characters",
        )
        .param("max", 100));
    }
    let icon = req.icon.unwrap_or_default();
    if icon.len() > 16 * 1024 {
        return Err(ApiError::invalid(
            "icon",
            ErrorCode::TooLarge,
            "The icon is too large (16 KB at most)",
        )
        .param("kb", 16));
    }
    let order = check_order(req.order.unwrap_or(99))?;
    Ok(ApiJson(
        state
            .store
            .save_block_category(
                id,
                &CategoryInput {
                    seed_key: None,
                    name,
                    icon: &icon,
                    sort_order: order,
                },
            )
            .await?,
    ))
}

#[utoipa::path(post, path = "/erp/category", tag = "admin", request_body = SaveCategory,
    responses((status = 201, body = BlockCategory), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_create_category(
    State(state): State<AppState>,
    _admin: Admin,
    ApiJson(req): ApiJson<SaveCategory>,
) -> Result<impl IntoResponse> {
    Ok((StatusCode::CREATED, save_category(&state, None, req).await?))
}

#[utoipa::path(post, path = "/erp/category/{id}", tag = "admin", request_body = SaveCategory,
    params(("id" = i64, Path, description = "Category id")),
    responses((status = 200, body = BlockCategory), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_update_category(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<BlockCategoryId>,
    ApiJson(req): ApiJson<SaveCategory>,
) -> Result<ApiJson<BlockCategory>> {
    save_category(&state, Some(id), req).await
}

#[utoipa::path(post, path = "/erp/delete-category/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Category id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "The category still has blocks", body = ErrorBody)))]
pub async fn erp_delete_category(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<BlockCategoryId>,
) -> Result<StatusCode> {
    state.store.delete_block_category(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/erp/truncate", tag = "admin",
    responses((status = 204), (status = 403, body = ErrorBody)))]
pub async fn erp_truncate(State(state): State<AppState>, _admin: Admin) -> Result<StatusCode> {
    state.store.truncate_library().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An import: a list, or the text of an export (a JSON list) as the admin pasted it.
fn import_list<T: serde::de::DeserializeOwned>(field: &'static str, v: Json) -> Result<Vec<T>> {
    let v = match v {
        Json::String(text) => serde_json::from_str(&text).map_err(|e| {
            ApiError::invalid(
                field,
                ErrorCode::JsonInvalid,
                format!("The text is not valid JSON: {e}"),
            )
            .param("detail", e.to_string())
        })?,
        other => other,
    };
    serde_json::from_value(v).map_err(|e| {
        ApiError::invalid(
            field,
            ErrorCode::JsonInvalid,
            format!("The {field} cannot be read: {e}"),
        )
        .param("detail", e.to_string())
    })
}

/// `POST /erp/import-categories` body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ImportCategories {
    /// A list of categories, or the text of an export.
    #[schema(value_type = Object)]
    pub categories: Json,
}

/// `POST /erp/import-blocks` body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ImportBlocks {
    /// A list of blocks, or the text of an export.
    #[schema(value_type = Object)]
    pub blocks: Json,
}

/// How many an import wrote.
#[derive(Debug, Serialize, ToSchema)]
pub struct Imported {
    pub imported: usize,
}

#[utoipa::path(post, path = "/erp/import-categories", tag = "admin", request_body = ImportCategories,
    responses((status = 200, body = Imported), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_import_categories(
    State(state): State<AppState>,
    _admin: Admin,
    ApiJson(req): ApiJson<ImportCategories>,
) -> Result<ApiJson<Imported>> {
    let categories: Vec<CategoryExport> = import_list("categories", req.categories)?;
    for (i, c) in categories.iter().enumerate() {
        if c.name.trim().is_empty() {
            return Err(ApiError::invalid(
                "categories",
                ErrorCode::CategoryNameRequired,
                format!("Category {}: the name is required", i + 1),
            )
            .param("index", i + 1));
        }
    }
    let (n, _) = state.store.import_library(&categories, &[]).await?;
    Ok(ApiJson(Imported { imported: n }))
}

#[utoipa::path(post, path = "/erp/import-blocks", tag = "admin", request_body = ImportBlocks,
    responses((status = 200, body = Imported), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_import_blocks(
    State(state): State<AppState>,
    _admin: Admin,
    ApiJson(req): ApiJson<ImportBlocks>,
) -> Result<ApiJson<Imported>> {
    let blocks: Vec<BlockExport> = import_list("blocks", req.blocks)?;
    let mut names = std::collections::HashSet::new();
    for (i, b) in blocks.iter().enumerate() {
        // The block's own refusal, said of the block at this place in the list.
        let label = |e: ApiError| e.of_item("blocks", "Block", i + 1);
        block_name(Some(&b.name)).map_err(label)?;
        check_code(&b.template, &b.css, &b.js).map_err(label)?;
        if !names.insert(b.name.trim().to_lowercase()) {
            return Err(label(ApiError::invalid(
                "name",
                ErrorCode::BlockNameTaken,
                BLOCK_NAME_TAKEN,
            )));
        }
    }
    let (_, n) = state.store.import_library(&[], &blocks).await?;
    Ok(ApiJson(Imported { imported: n }))
}

/// `POST /erp/searchBlocks` body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SearchBlocks {
    #[serde(default)]
    pub term: String,
}

#[utoipa::path(post, path = "/erp/searchBlocks", tag = "admin", request_body = SearchBlocks,
    responses((status = 200, body = Vec<LibraryBlock>), (status = 403, body = ErrorBody)))]
pub async fn erp_search_blocks(
    State(state): State<AppState>,
    _admin: Admin,
    ApiJson(req): ApiJson<SearchBlocks>,
) -> Result<ApiJson<Vec<LibraryBlock>>> {
    Ok(ApiJson(state.store.search_library(&req.term).await?))
}

#[utoipa::path(get, path = "/erp/export-block/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Block id")),
    responses((status = 200, body = BlockExport), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn erp_export_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<LibraryBlockId>,
) -> Result<ApiJson<BlockExport>> {
    Ok(ApiJson(state.store.export_library_block(id).await?))
}

#[utoipa::path(get, path = "/erp/export-categories", tag = "admin",
    responses((status = 200, body = Vec<CategoryExport>), (status = 403, body = ErrorBody)))]
pub async fn erp_export_categories(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<Vec<CategoryExport>>> {
    Ok(ApiJson(state.store.export_library().await?.0))
}

#[utoipa::path(get, path = "/erp/export-blocks", tag = "admin",
    responses((status = 200, body = Vec<BlockExport>), (status = 403, body = ErrorBody)))]
pub async fn erp_export_blocks(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<Vec<BlockExport>>> {
    Ok(ApiJson(state.store.export_library().await?.1))
}
