//! The block library (spec 2 §2, §7 "Block library" and "Administrator"): the library the
//! editor's left panel shows, My Blocks, the global library's admin calls under `/erp/*`, the
//! editor's render call (the same renderer as the publisher and the edge) and the fetch proxy
//! for API-fed lists.
//!
//! Every template that is saved is checked first: its `x-vars` must parse
//! (`x-vars error: …`) and the template must compile, so a broken block never reaches a page.

use std::collections::BTreeMap;

use axum::{
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::{
    blocks::split_x_vars,
    fonts::canvas_fonts,
    render::{Block, EFFECTS_RUNTIME, RenderContext, base_style, check_template},
    store::{
        BlockCategory, BlockExport, BlockInput, BusinessBlock, CategoryExport, CategoryInput,
        LibraryBlock, LibraryError, MAX_BUSINESS_BLOCKS, MyBlock, StoreError,
    },
};

use crate::{
    auth::{Admin, CurrentUser},
    authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    outbound::FetchError,
    routes::preview::live_context,
    state::AppState,
};

/// Longest template, CSS or JS a block may carry.
const MAX_CODE: usize = 256 * 1024;
/// Most blocks one render call may carry.
const MAX_RENDER_BLOCKS: usize = 500;
/// Records an API-fed list keeps (spec 2 §5: external data is capped at 100 records).
pub const MAX_EXTERNAL_RECORDS: usize = 100;

pub const NAME_REQUIRED: &str = "Block Name is required";
pub const NAME_TAKEN: &str = "Block Name already exists";

/// A category with its blocks, as the editor's left panel lists them.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryView {
    #[serde(flatten)]
    pub category: BlockCategory,
    pub blocks: Vec<LibraryBlock>,
}

/// The library as the editor loads it.
#[derive(Debug, Serialize, ToSchema)]
pub struct LibraryView {
    /// The global library (written by platform administrators).
    pub categories: Vec<CategoryView>,
    /// The caller's own blocks.
    pub my_blocks: Vec<MyBlock>,
    /// The caller's business's library (empty outside a business).
    pub business_blocks: Vec<BusinessBlock>,
}

impl From<LibraryError> for ApiError {
    fn from(e: LibraryError) -> Self {
        match e {
            LibraryError::NameTaken => {
                ApiError::conflict("name", ErrorCode::BlockNameTaken, NAME_TAKEN)
            }
            LibraryError::CategoryNotEmpty => ApiError::conflict(
                "category",
                ErrorCode::CategoryNotEmpty,
                "The category still has blocks; move or delete them first",
            ),
            LibraryError::UnknownCategory => ApiError::invalid("category_id", ErrorCode::CategoryUnknown, "Unknown category"),
            LibraryError::Full => ApiError::conflict(
                "library",
                ErrorCode::LibraryFull,
                format!(
                    "The business's block library is full ({MAX_BUSINESS_BLOCKS} blocks at most); delete one first"
                ),
            )
            .param("max", MAX_BUSINESS_BLOCKS),
            LibraryError::Store(e) => e.into(),
        }
    }
}

async fn library(state: &AppState) -> Result<Vec<CategoryView>> {
    let categories = state.store.block_categories().await?;
    let mut blocks = state.store.library_blocks().await?;
    let mut out: Vec<CategoryView> = categories
        .into_iter()
        .map(|category| {
            let (mine, rest) = blocks
                .drain(..)
                .partition(|b: &LibraryBlock| b.category_id == Some(category.id));
            blocks = rest;
            CategoryView {
                category,
                blocks: mine,
            }
        })
        .collect();
    if !blocks.is_empty() {
        out.push(CategoryView {
            category: BlockCategory {
                id: 0,
                seed_key: Some("uncategorized".into()),
                name: "Sem categoria".into(),
                icon: String::new(),
                sort_order: i64::MAX,
            },
            blocks,
        });
    }
    Ok(out)
}

#[utoipa::path(get, path = "/api/blocks", tag = "blocks",
    responses((status = 200, body = LibraryView), (status = 401, body = ErrorBody)))]
pub async fn get_library(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<LibraryView>> {
    let business_blocks = match user.business_id {
        Some(business_id) => state.store.business_blocks(business_id).await?,
        None => Vec::new(),
    };
    Ok(ApiJson(LibraryView {
        categories: library(&state).await?,
        my_blocks: state.store.my_blocks(user.id).await?,
        business_blocks,
    }))
}

/// Checks a block's code: sizes, `x-vars`, and that the template compiles.
pub(crate) fn check_code(template: &str, css: &str, js: &str) -> Result<()> {
    for (field, code) in [("template", template), ("css", css), ("js", js)] {
        if code.len() > MAX_CODE {
            return Err(ApiError::invalid(
                field,
                ErrorCode::TooLarge,
                format!("{field} is too large (256 KB at most)"),
            )
            .param("kb", 256));
        }
    }
    if template.trim().is_empty() {
        return Err(ApiError::invalid(
            "template",
            ErrorCode::BlockHtmlEmpty,
            "The block's HTML is empty",
        ));
    }
    let (stripped, _) = split_x_vars(template).map_err(x_vars_error)?;
    check_template(&stripped).map_err(|e| {
        ApiError::invalid(
            "template",
            ErrorCode::TemplateInvalid,
            format!("template error: {e}"),
        )
        .param("detail", e.to_string())
    })
}

/// A block's `x-vars` definitions that cannot be read (the parser's words in `detail`).
fn x_vars_error(detail: String) -> ApiError {
    ApiError::invalid("template", ErrorCode::XVarsInvalid, detail.clone()).param("detail", detail)
}

/// The trimmed name of a block: required, 200 characters at most.
pub(crate) fn block_name(name: Option<&str>) -> Result<String> {
    let name = name.map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::BlockNameRequired,
            NAME_REQUIRED,
        ));
    }
    if name.chars().count() > 200 {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::TooLong,
            "Block Name must be at most 200 characters",
        )
        .param("max", 200));
    }
    Ok(name.to_string())
}

/// `POST /api/newMyBlock` body.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveMyBlock {
    /// Overwrite this one of your blocks; absent to create one.
    pub id: Option<i64>,
    pub name: Option<String>,
    #[serde(default)]
    pub template: String,
    #[serde(default)]
    pub css: String,
    #[serde(default)]
    pub js: String,
}

#[utoipa::path(post, path = "/api/newMyBlock", tag = "blocks", request_body = SaveMyBlock,
    responses((status = 201, body = MyBlock), (status = 200, description = "Overwritten", body = MyBlock),
        (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn save_my_block(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<SaveMyBlock>,
) -> Result<impl IntoResponse> {
    let name = block_name(req.name.as_deref())?;
    check_code(&req.template, &req.css, &req.js)?;
    let saved = state
        .store
        .save_my_block(user.id, req.id, &name, &req.template, &req.css, &req.js)
        .await?;
    let status = if req.id.is_some() {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    Ok((status, ApiJson(saved)))
}

#[utoipa::path(delete, path = "/api/block/{id}", tag = "blocks",
    params(("id" = i64, Path, description = "My Blocks entry id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_my_block(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode> {
    state.store.delete_my_block(user.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A library block save (`POST /api/newBlock`, `POST /erp/block/{id?}`). On `/erp/block/{id}` a
/// body with only `category_id` moves the block.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SaveBlock {
    /// Replace this block (`/api/newBlock`); absent to create one.
    pub id: Option<i64>,
    pub name: Option<String>,
    pub category_id: Option<i64>,
    pub image: Option<String>,
    pub keywords: Option<String>,
    pub template: Option<String>,
    pub css: Option<String>,
    pub js: Option<String>,
    pub order: Option<i64>,
}

async fn save_library_block(
    state: &AppState,
    id: Option<i64>,
    req: SaveBlock,
) -> Result<(StatusCode, ApiJson<LibraryBlock>)> {
    if let Some(id) = id
        && req.name.is_none()
        && req.template.is_none()
        && let Some(category_id) = req.category_id
    {
        return Ok((
            StatusCode::OK,
            ApiJson(state.store.set_block_category(id, category_id).await?),
        ));
    }
    let name = block_name(req.name.as_deref())?;
    let template = req.template.unwrap_or_default();
    let css = req.css.unwrap_or_default();
    let js = req.js.unwrap_or_default();
    check_code(&template, &css, &js)?;
    let image = req.image.unwrap_or_default();
    if image.len() > 2048 {
        return Err(ApiError::invalid(
            "image",
            ErrorCode::TooLong,
            "Image URL is too long",
        ));
    }
    let keywords = req.keywords.unwrap_or_default();
    check_search_words(&keywords)?;
    let current = match id {
        Some(id) => Some(state.store.library_block(id).await?),
        None => None,
    };
    let saved = state
        .store
        .save_library_block(
            id,
            &BlockInput {
                uid: None,
                name: &name,
                category_id: req
                    .category_id
                    .or(current.as_ref().and_then(|c| c.category_id)),
                image: if image.is_empty() {
                    current.as_ref().map(|c| c.image.as_str()).unwrap_or("")
                } else {
                    &image
                },
                keywords: &keywords,
                template: &template,
                css: &css,
                js: &js,
                sort_order: req.order,
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
    crate::thumbnails::refresh(&state);
    saved
}

#[utoipa::path(post, path = "/erp/block/{id}", tag = "admin", request_body = SaveBlock,
    params(("id" = i64, Path, description = "Block id")),
    responses((status = 200, body = LibraryBlock), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_update_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SaveBlock>,
) -> Result<impl IntoResponse> {
    let saved = save_library_block(&state, Some(id), req).await;
    // A changed block gets a new thumbnail (its source's hash names the picture).
    crate::thumbnails::refresh(&state);
    saved
}

/// `{order}` for the reorder calls.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Reorder {
    pub order: i64,
}

/// A block's comma-separated search words: 1000 bytes at most.
pub(crate) fn check_search_words(keywords: &str) -> Result<()> {
    if keywords.len() > 1000 {
        return Err(ApiError::invalid(
            "keywords",
            ErrorCode::TooLong,
            "Keywords are too long",
        ));
    }
    Ok(())
}

pub fn check_order(order: i64) -> Result<i64> {
    if !(0..=1_000_000).contains(&order) {
        return Err(ApiError::invalid(
            "order",
            ErrorCode::OrderOutOfRange,
            "order must be a number from 0 to 1000000",
        ));
    }
    Ok(order)
}

#[utoipa::path(post, path = "/erp/reorder-block/{id}", tag = "admin", request_body = Reorder,
    params(("id" = i64, Path, description = "Block id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_reorder_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<Reorder>,
) -> Result<StatusCode> {
    state
        .store
        .reorder_block(id, check_order(req.order)?)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/erp/delete-block/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Block id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn erp_delete_block(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
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
    id: Option<i64>,
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
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<SaveCategory>,
) -> Result<ApiJson<BlockCategory>> {
    save_category(&state, Some(id), req).await
}

#[utoipa::path(post, path = "/erp/reorder-category/{id}", tag = "admin", request_body = Reorder,
    params(("id" = i64, Path, description = "Category id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn erp_reorder_category(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<Reorder>,
) -> Result<StatusCode> {
    state
        .store
        .reorder_block_category(id, check_order(req.order)?)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/erp/delete-category/{id}", tag = "admin",
    params(("id" = i64, Path, description = "Category id")),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "The category still has blocks", body = ErrorBody)))]
pub async fn erp_delete_category(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
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
        let label = |e: ApiError| {
            let message = format!("Block {}: {e}", i + 1);
            match e {
                ApiError::Refused(mut r) => {
                    r.message = message;
                    r.field = Some("blocks".into());
                    r.params.insert("index".into(), (i + 1).into());
                    ApiError::Refused(r)
                }
                other => other,
            }
        };
        block_name(Some(&b.name)).map_err(label)?;
        check_code(&b.template, &b.css, &b.js).map_err(label)?;
        if !names.insert(b.name.trim().to_lowercase()) {
            return Err(label(ApiError::invalid(
                "name",
                ErrorCode::BlockNameTaken,
                NAME_TAKEN,
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
    ApiPath(id): ApiPath<i64>,
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

/// `POST /api/project/{id}/render` body: the editor's current blocks.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RenderRequest {
    /// The page being edited (its name and slug, and on a collection page its collection).
    pub page_id: i64,
    /// On a collection page: the post to show, by slug (the collection's first otherwise).
    pub post: Option<String>,
    #[schema(value_type = Vec<Object>)]
    pub blocks: Vec<Json>,
}

/// One block's HTML, or its template error.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderedBlock {
    pub uid: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What the editor's canvas shows.
#[derive(Debug, Serialize, ToSchema)]
pub struct RenderResponse {
    /// HTML for the canvas's `<head>`: the base stylesheet published pages carry
    /// (`BASE_CSS`), the site's fonts and their CSS variables as published pages set them
    /// (`fonts::canvas_fonts`), and the effects runtime.
    pub head: String,
    pub blocks: Vec<RenderedBlock>,
}

#[utoipa::path(post, path = "/api/project/{id}/render", tag = "pages", request_body = RenderRequest,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = RenderResponse), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn render_blocks(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
    ApiJson(req): ApiJson<RenderRequest>,
) -> Result<ApiJson<RenderResponse>> {
    authorize_project(&state, &user, project_id).await?;
    if req.blocks.len() > MAX_RENDER_BLOCKS {
        return Err(ApiError::invalid(
            "blocks",
            ErrorCode::TooManyBlocks,
            format!("At most {MAX_RENDER_BLOCKS} blocks can be rendered at once"),
        )
        .param("max", MAX_RENDER_BLOCKS));
    }
    let mut blocks = Vec::with_capacity(req.blocks.len());
    for (i, b) in req.blocks.into_iter().enumerate() {
        let block: Block = serde_json::from_value(b).map_err(|e| {
            ApiError::invalid(
                "blocks",
                ErrorCode::BlockUnreadable,
                format!("Block {} cannot be read: {e}", i + 1),
            )
            .param("index", i + 1)
            .param("detail", e.to_string())
        })?;
        blocks.push(block);
    }
    let page = match state.store.page_by_id(req.page_id).await {
        Ok(p) if p.project_id == project_id => p,
        Ok(_) | Err(StoreError::NotFound) => return Err(ApiError::NotFound),
        Err(e) => return Err(e.into()),
    };
    let mut ctx = live_context(&state, project_id, &page, &blocks, req.post.clone()).await?;
    ctx.api = api_lists(&state, &blocks).await;
    let rendered = state
        .sandbox
        .each(&blocks, &ctx)
        .await
        .map_err(|e| ApiError::render("blocks", e))?;
    let project = state.store.project_by_id(project_id).await?;
    Ok(ApiJson(RenderResponse {
        head: format!(
            "{}{}{EFFECTS_RUNTIME}",
            base_style(),
            canvas_fonts(&project.meta.0, &state.settings.fonts_url)
        ),
        blocks: blocks
            .iter()
            .zip(rendered)
            .map(|(b, r)| match r {
                Ok(html) => RenderedBlock {
                    uid: b.uid.clone(),
                    html: Some(html),
                    error: None,
                },
                Err(e) => RenderedBlock {
                    uid: b.uid.clone(),
                    html: None,
                    error: Some(e.to_string()),
                },
            })
            .collect(),
    }))
}

/// The records of every API-fed list; a list whose fetch fails is empty (the editor shows
/// the error through `/api/fetch`).
pub async fn api_lists(state: &AppState, blocks: &[Block]) -> BTreeMap<String, Vec<Json>> {
    let mut out = BTreeMap::new();
    for (key, url) in blocks.iter().flat_map(Block::api_lists) {
        let records = fetch_records(state, &url).await.unwrap_or_default();
        out.insert(key, records);
    }
    out
}

/// Fetches an outside JSON API through the outbound guard and returns at most 100 records:
/// the answer's array, or its `data` array.
pub async fn fetch_records(state: &AppState, url: &str) -> Result<Vec<Json>> {
    let body = state.fetcher.get(url).await.map_err(|e| match e {
        FetchError::Refused | FetchError::Scheme | FetchError::Port => {
            ApiError::invalid("url", ErrorCode::FetchRefused, e.to_string())
        }
        other => ApiError::bad_request(
            ErrorCode::FetchFailed,
            format!("The address could not be fetched: {other}"),
        )
        .param("detail", other.to_string()),
    })?;
    let value: Json = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad_request(
            ErrorCode::FetchNotJson,
            format!("The answer is not JSON: {e}"),
        )
    })?;
    let records = match value {
        Json::Array(a) => a,
        Json::Object(mut o) => match o.remove("data") {
            Some(Json::Array(a)) => a,
            _ => {
                return Err(ApiError::bad_request(
                    ErrorCode::FetchNotList,
                    "The answer is neither a list nor an object with a data list",
                ));
            }
        },
        _ => {
            return Err(ApiError::bad_request(
                ErrorCode::FetchNotList,
                "The answer is neither a list nor an object with a data list",
            ));
        }
    };
    Ok(records.into_iter().take(MAX_EXTERNAL_RECORDS).collect())
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
    _user: CurrentUser,
    ApiQuery(q): ApiQuery<FetchQuery>,
) -> Result<ApiJson<Vec<Json>>> {
    Ok(ApiJson(fetch_records(&state, &q.url).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ScreenshotQuery {
    /// `width,height` (blocks: 1280,600; templates: 1280,1280).
    pub size: Option<String>,
    /// `1` crops the picture to the content's height (blocks: on; templates: off).
    pub trim: Option<String>,
}

fn trim_of(q: &ScreenshotQuery, default: bool) -> bool {
    match q.trim.as_deref().map(str::trim) {
        None | Some("") => default,
        Some(t) => matches!(t, "1" | "true" | "on"),
    }
}

/// Takes the picture, stores it with the uploads and answers it as PNG; `record` saves its URL.
async fn shoot(
    state: &AppState,
    document: String,
    size: (u32, u32),
    trim: bool,
    name: &str,
) -> Result<(Vec<u8>, String)> {
    let browser = crate::screenshot::chromium(state.settings.chromium_path.as_deref());
    let user = &state.settings.chromium_user;
    let png = crate::screenshot::take(browser.as_deref(), user, &document, size, trim)
        .await
        .map_err(|e| match e {
            crate::screenshot::ShotError::NoBrowser => {
                ApiError::unavailable(ErrorCode::ThumbnailsUnavailable, e.to_string())
            }
            other => ApiError::Internal(anyhow::anyhow!(other)),
        })?;
    let hash = hex::encode(&Sha256::digest(&png)[..8]);
    let key = format!("uploads/thumbnails/{name}-{hash}.png");
    state
        .blobs
        .put(&key, bytes::Bytes::from(png.clone()))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok((png, format!("/files/{key}")))
}

/// A library block alone in a document, with its default values, as its thumbnail shows it.
pub async fn block_document(state: &AppState, block: &LibraryBlock) -> Result<String> {
    let (template, vars) = split_x_vars(&block.template).map_err(x_vars_error)?;
    let page = Block {
        uid: block.uid.clone(),
        name: block.name.clone(),
        template,
        vars,
        ..Block::default()
    };
    let html = state
        .sandbox
        .page(std::slice::from_ref(&page), &RenderContext::default())
        .await
        .map_err(|e| ApiError::render("template", e))?;
    Ok(format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
         {base}<style>body{{font-family:system-ui,sans-serif}}{css}</style></head><body>{html}<script>{js}</script></body></html>",
        base = base_style(),
        css = block.css.replace("</", "<\\/"),
        js = block.js.replace("</script", "<\\/script"),
    ))
}

fn png_response(png: Vec<u8>) -> Response {
    let mut r = png.into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

#[utoipa::path(get, path = "/api/block-screenshot/{id}", tag = "admin", params(("id" = i64, Path, description = "Block id"), ScreenshotQuery),
    responses((status = 200, description = "PNG; the block's image is set to it", content_type = "image/png"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, description = "Chromium is not installed", body = ErrorBody)))]
pub async fn block_screenshot(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<ScreenshotQuery>,
) -> Result<Response> {
    let size = crate::screenshot::parse_size(q.size.as_deref(), (1280, 600))
        .map_err(|e| ApiError::invalid("size", ErrorCode::SizeInvalid, e))?;
    let block = state.store.library_block(id).await?;
    let document = block_document(&state, &block).await?;
    let (png, url) = shoot(
        &state,
        document,
        size,
        trim_of(&q, true),
        &format!("block-{id}"),
    )
    .await?;
    state.store.set_block_image(id, &url).await?;
    Ok(png_response(png))
}

#[utoipa::path(get, path = "/api/template-screenshot/{id}", tag = "admin", params(("id" = i64, Path, description = "Template id"), ScreenshotQuery),
    responses((status = 200, description = "PNG; the template's thumbnail is set to it", content_type = "image/png"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, description = "Chromium is not installed", body = ErrorBody)))]
pub async fn template_screenshot(
    State(state): State<AppState>,
    _admin: Admin,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<ScreenshotQuery>,
) -> Result<Response> {
    let size = crate::screenshot::parse_size(q.size.as_deref(), (1280, 1280))
        .map_err(|e| ApiError::invalid("size", ErrorCode::SizeInvalid, e))?;
    let snapshot = state.store.template_snapshot(id).await?;
    let document = crate::routes::templates::template_document(&state, &snapshot, "/").await?;
    let (png, url) = shoot(
        &state,
        document,
        size,
        trim_of(&q, false),
        &format!("template-{id}"),
    )
    .await?;
    state.store.set_template_thumbnail(id, &url).await?;
    Ok(png_response(png))
}

/// How far the pass that pictures the library's blocks and templates got (see
/// [`crate::thumbnails`]); `/erp/blocks` polls it while one runs.
#[utoipa::path(get, path = "/erp/thumbnails", tag = "admin",
    responses((status = 200, body = crate::thumbnails::ThumbnailProgress), (status = 403, body = ErrorBody)))]
pub async fn thumbnail_progress(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<crate::thumbnails::ThumbnailProgress>> {
    Ok(ApiJson(state.thumbnails.progress()))
}

/// "Regenerate all thumbnails": pictures every block and template again in the background
/// (those whose image an administrator set by hand keep it); answers at once with the progress.
#[utoipa::path(post, path = "/erp/thumbnails", tag = "admin",
    responses((status = 202, body = crate::thumbnails::ThumbnailProgress), (status = 403, body = ErrorBody)))]
pub async fn regenerate_thumbnails(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<(StatusCode, ApiJson<crate::thumbnails::ThumbnailProgress>)> {
    Ok((
        StatusCode::ACCEPTED,
        ApiJson(crate::thumbnails::start(&state, true)),
    ))
}
