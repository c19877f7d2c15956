//! The block library as the editor loads it (spec 2 §2 "Page editor screen"): the global
//! library by category, the caller's My Blocks and their business's library.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::{
    ids::BlockCategoryId,
    store::{BlockCategory, BusinessBlock, LibraryBlock, MyBlock},
};

use crate::{
    accounts::auth::CurrentUser,
    error::{ErrorBody, Result},
    extract::ApiJson,
    state::AppState,
};

/// `GET /api/blocks`, and the same at the spec's `GET /api/block-categories/blocks`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_library))
        .routes(routes!(get_library_by_category))
}

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
                id: BlockCategoryId::new(0),
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

/// The library at the path spec 1 §7 names for it; the same answer as [`get_library`] (the
/// dashboard calls `/api/blocks`). Its own function only so the document has an operation
/// for each path.
#[utoipa::path(get, path = "/api/block-categories/blocks", tag = "blocks",
    responses((status = 200, body = LibraryView), (status = 401, body = ErrorBody)))]
pub async fn get_library_by_category(
    state: State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<LibraryView>> {
    get_library(state, user).await
}
