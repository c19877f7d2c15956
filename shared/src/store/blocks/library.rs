//! The platform's block library: categories and blocks, edited by platform administrators,
//! with its import and export and the seeding of the built-in blocks.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{BlockContent, LibraryError, name_key};
use crate::ids::{BlockCategoryId, LibraryBlockId};
use crate::store::{
    BeginWrite, Result, Store, StoreError, dispatch, like_pattern, map_err, now, touched, trusted,
};

const CATEGORY_COLUMNS: &str = "id, seed_key, name, icon, sort_order";
const BLOCK_COLUMNS: &str =
    "id, uid, name, category_id, image, keywords, template, css, js, sort_order";

/// A library category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
pub struct BlockCategory {
    #[schema(value_type = i64)]
    pub id: BlockCategoryId,
    /// The seeded category's key (`elements`, `hero`, …); `null` for one an admin created.
    #[serde(rename = "key")]
    pub seed_key: Option<String>,
    pub name: String,
    /// An inline SVG.
    pub icon: String,
    #[serde(rename = "order")]
    pub sort_order: i64,
}

/// A library block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
pub struct LibraryBlock {
    #[schema(value_type = i64)]
    pub id: LibraryBlockId,
    pub uid: String,
    #[serde(flatten)]
    #[sqlx(flatten)]
    pub content: BlockContent,
    #[schema(required, value_type = Option<i64>)]
    pub category_id: Option<BlockCategoryId>,
    #[serde(rename = "order")]
    pub sort_order: i64,
}

/// What a library block save writes.
#[derive(Debug, Clone, Copy)]
pub struct BlockInput<'a> {
    pub uid: Option<&'a str>,
    pub content: &'a BlockContent,
    pub category_id: Option<BlockCategoryId>,
    pub sort_order: Option<i64>,
}

/// What a category save writes.
#[derive(Debug, Clone, Default)]
pub struct CategoryInput<'a> {
    pub seed_key: Option<&'a str>,
    pub name: &'a str,
    pub icon: &'a str,
    pub sort_order: i64,
}

/// A category as exported and imported (blocks carry the category's name, not its id, so an
/// export loads into another installation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CategoryExport {
    #[serde(default)]
    pub key: Option<String>,
    pub name: String,
    #[serde(default)]
    pub icon: String,
    #[serde(default = "default_order")]
    pub order: i64,
}

/// A block as exported and imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct BlockExport {
    #[serde(default)]
    pub uid: Option<String>,
    pub name: String,
    /// The category's name (created when missing on import).
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub image: String,
    #[serde(default)]
    pub keywords: String,
    pub template: String,
    #[serde(default)]
    pub css: String,
    #[serde(default)]
    pub js: String,
    #[serde(default = "default_order")]
    pub order: i64,
}

fn default_order() -> i64 {
    99
}

fn library_err(e: sqlx::Error) -> LibraryError {
    match map_err(e) {
        StoreError::Conflict("blocks_name_key") => LibraryError::NameTaken,
        StoreError::Db(sqlx::Error::Database(db)) if db.is_foreign_key_violation() => {
            LibraryError::UnknownCategory
        }
        other => LibraryError::Store(other),
    }
}

impl Store {
    /// Categories by order, then name.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn block_categories(&self) -> Result<Vec<BlockCategory>> {
        let sql = format!(
            "SELECT {CATEGORY_COLUMNS} FROM block_categories ORDER BY sort_order, name, id"
        );
        dispatch!(self, p => sqlx::query_as::<_, BlockCategory>(trusted(&sql))
            .fetch_all(p).await.map_err(map_err))
    }

    /// Every library block by order, then name.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn library_blocks(&self) -> Result<Vec<LibraryBlock>> {
        let sql = format!("SELECT {BLOCK_COLUMNS} FROM blocks ORDER BY sort_order, name, id");
        dispatch!(self, p => sqlx::query_as::<_, LibraryBlock>(trusted(&sql))
            .fetch_all(p).await.map_err(map_err))
    }

    /// Library blocks whose name or keywords contain `term` (ignoring case).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn search_library(&self, term: &str) -> Result<Vec<LibraryBlock>> {
        let pattern = like_pattern(term);
        let sql = format!(
            "SELECT {BLOCK_COLUMNS} FROM blocks \
             WHERE name_key LIKE $1 ESCAPE '\\' OR lower(keywords) LIKE $1 ESCAPE '\\' \
             ORDER BY sort_order, name, id"
        );
        dispatch!(self, p => sqlx::query_as::<_, LibraryBlock>(trusted(&sql)).bind(&pattern)
            .fetch_all(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn library_block(&self, id: LibraryBlockId) -> Result<LibraryBlock> {
        let sql = format!("SELECT {BLOCK_COLUMNS} FROM blocks WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, LibraryBlock>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Creates a block (`id` `None`) or replaces one's fields. A new block without a uid gets
    /// a random one; the order defaults to 99.
    #[tracing::instrument(level = "debug", skip(self, input), fields(name = input.content.name.as_str()), err(level = "debug"))]
    pub async fn save_library_block(
        &self,
        id: Option<LibraryBlockId>,
        input: &BlockInput<'_>,
    ) -> Result<LibraryBlock, LibraryError> {
        let b = input.content;
        let key = name_key(&b.name);
        let t = now();
        match id {
            None => {
                let uid = input
                    .uid
                    .map(str::to_string)
                    .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
                let sql = format!(
                    "INSERT INTO blocks \
                     (uid, name, name_key, category_id, image, keywords, template, css, js, \
                     sort_order, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) \
                     RETURNING {BLOCK_COLUMNS}"
                );
                dispatch!(self, p => sqlx::query_as::<_, LibraryBlock>(trusted(&sql))
                    .bind(&uid).bind(b.name.trim()).bind(&key)
                    .bind(input.category_id).bind(&b.image).bind(&b.keywords)
                    .bind(&b.template).bind(&b.css).bind(&b.js)
                    .bind(input.sort_order.unwrap_or(99)).bind(t)
                    .fetch_one(p).await.map_err(library_err))
            }
            Some(id) => {
                let sql = format!(
                    "UPDATE blocks \
                     SET name = $1, name_key = $2, category_id = $3, image = $4, \
                     keywords = $5, template = $6, css = $7, js = $8, \
                     sort_order = COALESCE($9, sort_order), updated_at = $10 \
                     WHERE id = $11 RETURNING {BLOCK_COLUMNS}"
                );
                dispatch!(self, p => sqlx::query_as::<_, LibraryBlock>(trusted(&sql))
                    .bind(b.name.trim()).bind(&key)
                    .bind(input.category_id).bind(&b.image)
                    .bind(&b.keywords)
                    .bind(&b.template).bind(&b.css).bind(&b.js).bind(input.sort_order)
                    .bind(t).bind(id)
                    .fetch_optional(p).await.map_err(library_err))?
                .ok_or(LibraryError::Store(StoreError::NotFound))
            }
        }
    }

    /// Moves a block to another category.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_block_category(
        &self,
        id: LibraryBlockId,
        category_id: BlockCategoryId,
    ) -> Result<LibraryBlock, LibraryError> {
        let sql = format!(
            "UPDATE blocks SET category_id = $1, updated_at = $2 \
             WHERE id = $3 RETURNING {BLOCK_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, LibraryBlock>(trusted(&sql))
            .bind(category_id).bind(now()).bind(id)
            .fetch_optional(p).await.map_err(library_err))?
        .ok_or(LibraryError::Store(StoreError::NotFound))
    }

    /// Records a block's thumbnail URL.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_block_image(&self, id: LibraryBlockId, url: &str) -> Result<()> {
        touched(dispatch!(self, p => sqlx::query(
                "UPDATE blocks SET image = $1, updated_at = $2 WHERE id = $3")
            .bind(url).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?)
    }

    /// Sets a block's order.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn reorder_block(&self, id: LibraryBlockId, order: i64) -> Result<()> {
        touched(dispatch!(self, p => sqlx::query(
                "UPDATE blocks SET sort_order = $1, updated_at = $2 WHERE id = $3")
            .bind(order).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_library_block(&self, id: LibraryBlockId) -> Result<()> {
        touched(
            dispatch!(self, p => sqlx::query("DELETE FROM blocks WHERE id = $1")
            .bind(id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?,
        )
    }

    /// Creates a category (`id` `None`) or replaces one's name, icon and order.
    #[tracing::instrument(level = "debug", skip(self, c), fields(name = c.name), err(level = "debug"))]
    pub async fn save_block_category(
        &self,
        id: Option<BlockCategoryId>,
        c: &CategoryInput<'_>,
    ) -> Result<BlockCategory> {
        let t = now();
        match id {
            None => {
                let sql = format!(
                    "INSERT INTO block_categories \
                     (seed_key, name, icon, sort_order, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $5) RETURNING {CATEGORY_COLUMNS}"
                );
                dispatch!(self, p => sqlx::query_as::<_, BlockCategory>(trusted(&sql))
                    .bind(c.seed_key).bind(c.name.trim()).bind(c.icon).bind(c.sort_order).bind(t)
                    .fetch_one(p).await.map_err(map_err))
            }
            Some(id) => {
                let sql = format!(
                    "UPDATE block_categories \
                     SET name = $1, icon = $2, sort_order = $3, updated_at = $4 \
                     WHERE id = $5 RETURNING {CATEGORY_COLUMNS}"
                );
                dispatch!(self, p => sqlx::query_as::<_, BlockCategory>(trusted(&sql))
                    .bind(c.name.trim()).bind(c.icon).bind(c.sort_order).bind(t).bind(id)
                    .fetch_optional(p).await.map_err(map_err))?
                .ok_or(StoreError::NotFound)
            }
        }
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn reorder_block_category(&self, id: BlockCategoryId, order: i64) -> Result<()> {
        touched(dispatch!(self, p => sqlx::query(
                "UPDATE block_categories SET sort_order = $1, updated_at = $2 WHERE id = $3")
            .bind(order).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?)
    }

    /// Deletes a category, only when no block is in it.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_block_category(&self, id: BlockCategoryId) -> Result<(), LibraryError> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let used: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blocks WHERE category_id = $1")
                .bind(id).fetch_one(&mut *tx).await.map_err(map_err)?;
            if used > 0 {
                return Err(LibraryError::CategoryNotEmpty);
            }
            let done = sqlx::query("DELETE FROM block_categories WHERE id = $1")
                .bind(id).execute(&mut *tx).await.map_err(map_err)?;
            if done.rows_affected() == 0 {
                return Err(LibraryError::Store(StoreError::NotFound));
            }
            tx.commit().await.map_err(map_err)?;
            Ok(())
        })
    }

    /// Deletes every library block and category (My Blocks stay).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn truncate_library(&self) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            sqlx::query("DELETE FROM blocks").execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM block_categories").execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)
        })
    }

    /// Adds categories (by name: an existing one with the same name is updated) and blocks
    /// (by uid, else by name ignoring case: an existing one is updated), in one transaction.
    /// A block's category is looked up by name and created when missing. Returns how many
    /// categories and blocks were written.
    #[tracing::instrument(level = "debug", skip_all, fields(categories = categories.len(), blocks = blocks.len()), err(level = "debug"))]
    pub async fn import_library(
        &self,
        categories: &[CategoryExport],
        blocks: &[BlockExport],
    ) -> Result<(usize, usize), LibraryError> {
        let t = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            for c in categories {
                let existing: Option<BlockCategoryId> = sqlx::query_scalar(
                    "SELECT id FROM block_categories \
                     WHERE lower(name) = $1 OR (seed_key IS NOT NULL AND seed_key = $2)")
                    .bind(name_key(&c.name)).bind(c.key.as_deref())
                    .fetch_optional(&mut *tx).await.map_err(map_err)?;
                match existing {
                    Some(id) => sqlx::query(
                        "UPDATE block_categories \
                         SET name = $1, icon = $2, sort_order = $3, updated_at = $4 \
                         WHERE id = $5")
                        .bind(c.name.trim()).bind(&c.icon).bind(c.order).bind(t).bind(id)
                        .execute(&mut *tx).await.map_err(map_err)?,
                    None => sqlx::query("INSERT INTO block_categories \
                                         (seed_key, name, icon, sort_order, created_at, \
                                         updated_at) VALUES ($1, $2, $3, $4, $5, $5)")
                        .bind(c.key.as_deref()).bind(c.name.trim())
                        .bind(&c.icon).bind(c.order).bind(t)
                        .execute(&mut *tx).await.map_err(map_err)?,
                };
            }
            for b in blocks {
                let category = b.category.as_deref().map(str::trim).filter(|c| !c.is_empty());
                let category_id: Option<BlockCategoryId> = match category {
                    None => None,
                    Some(name) => {
                        let found: Option<BlockCategoryId> = sqlx::query_scalar(
                            "SELECT id FROM block_categories WHERE lower(name) = $1")
                            .bind(name_key(name)).fetch_optional(&mut *tx).await.map_err(map_err)?;
                        match found {
                            Some(id) => Some(id),
                            None => Some(sqlx::query_scalar(
                                "INSERT INTO block_categories \
                                 (name, icon, sort_order, created_at, updated_at) \
                                 VALUES ($1, '', 99, $2, $2) RETURNING id")
                                .bind(name).bind(t).fetch_one(&mut *tx).await.map_err(map_err)?),
                        }
                    }
                };
                let existing: Option<LibraryBlockId> = sqlx::query_scalar(
                    "SELECT id FROM blocks WHERE uid = $1 OR name_key = $2 \
                     ORDER BY (uid = $1) DESC LIMIT 1")
                    .bind(b.uid.as_deref().unwrap_or("")).bind(name_key(&b.name))
                    .fetch_optional(&mut *tx).await.map_err(map_err)?;
                match existing {
                    Some(id) => sqlx::query(
                        "UPDATE blocks \
                         SET name = $1, name_key = $2, category_id = $3, image = $4, \
                         keywords = $5, template = $6, css = $7, js = $8, sort_order = $9, \
                         updated_at = $10 WHERE id = $11")
                        .bind(b.name.trim()).bind(name_key(&b.name))
                        .bind(category_id).bind(&b.image).bind(&b.keywords)
                        .bind(&b.template).bind(&b.css).bind(&b.js).bind(b.order).bind(t).bind(id)
                        .execute(&mut *tx).await.map_err(library_err)?,
                    None => sqlx::query("INSERT INTO blocks \
                                         (uid, name, name_key, category_id, image, keywords, \
                                         template, css, js, sort_order, created_at, updated_at) \
                                         VALUES \
                                         ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)")
                        .bind(b.uid.clone().unwrap_or_else(|| uuid::Uuid::new_v4().to_string()))
                        .bind(b.name.trim()).bind(name_key(&b.name))
                        .bind(category_id).bind(&b.image).bind(&b.keywords)
                        .bind(&b.template).bind(&b.css).bind(&b.js).bind(b.order).bind(t)
                        .execute(&mut *tx).await.map_err(library_err)?,
                };
            }
            tx.commit().await.map_err(map_err)?;
            Ok((categories.len(), blocks.len()))
        })
    }

    /// The library as exported: categories, and blocks naming their category.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn export_library(&self) -> Result<(Vec<CategoryExport>, Vec<BlockExport>)> {
        let categories = self.block_categories().await?;
        let name_of = |id: Option<BlockCategoryId>| {
            categories
                .iter()
                .find(|c| Some(c.id) == id)
                .map(|c| c.name.clone())
        };
        let blocks = self
            .library_blocks()
            .await?
            .into_iter()
            .map(|b| export_block(b, &name_of))
            .collect();
        let categories = categories
            .iter()
            .map(|c| CategoryExport {
                key: c.seed_key.clone(),
                name: c.name.clone(),
                icon: c.icon.clone(),
                order: c.sort_order,
            })
            .collect();
        Ok((categories, blocks))
    }

    /// One block as exported.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn export_library_block(&self, id: LibraryBlockId) -> Result<BlockExport> {
        let b = self.library_block(id).await?;
        let categories = self.block_categories().await?;
        Ok(export_block(b, &|id| {
            categories
                .iter()
                .find(|c| Some(c.id) == id)
                .map(|c| c.name.clone())
        }))
    }

    /// Seeds a category by key: created, or updated in place. Returns its id.
    #[tracing::instrument(level = "debug", skip_all, fields(name = c.name), err(level = "debug"))]
    pub async fn seed_block_category(&self, c: &CategoryInput<'_>) -> Result<BlockCategoryId> {
        let t = now();
        dispatch!(self, p => sqlx::query_scalar::<_, BlockCategoryId>(
            "INSERT INTO block_categories \
             (seed_key, name, icon, sort_order, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $5) \
             ON CONFLICT (seed_key) DO UPDATE \
             SET name = excluded.name, icon = excluded.icon, \
             sort_order = excluded.sort_order, updated_at = excluded.updated_at \
             RETURNING id")
            .bind(c.seed_key).bind(c.name).bind(c.icon).bind(c.sort_order).bind(t)
            .fetch_one(p).await.map_err(map_err))
    }

    /// Seeds a block by uid: created, or updated in place.
    /// Creates or updates (by uid) a seeded library block; returns its id.
    #[tracing::instrument(level = "debug", skip_all, fields(name = input.content.name.as_str()), err(level = "debug"))]
    pub async fn seed_library_block(
        &self,
        input: &BlockInput<'_>,
    ) -> Result<LibraryBlockId, LibraryError> {
        let (b, t) = (input.content, now());
        dispatch!(self, p => sqlx::query_scalar(
            "INSERT INTO blocks \
             (uid, name, name_key, category_id, image, keywords, template, css, js, sort_order, \
             created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) \
             ON CONFLICT (uid) DO UPDATE \
             SET name = excluded.name, name_key = excluded.name_key, \
             category_id = excluded.category_id, keywords = excluded.keywords, \
             template = excluded.template, css = excluded.css, js = excluded.js, \
             sort_order = excluded.sort_order, updated_at = excluded.updated_at \
             RETURNING id")
            .bind(input.uid).bind(b.name.trim()).bind(name_key(&b.name))
            .bind(input.category_id).bind(&b.image).bind(&b.keywords)
            .bind(&b.template).bind(&b.css).bind(&b.js).bind(input.sort_order.unwrap_or(99))
            .bind(t)
            .fetch_one(p).await.map_err(library_err))
    }
}

fn export_block(
    b: LibraryBlock,
    category: &dyn Fn(Option<BlockCategoryId>) -> Option<String>,
) -> BlockExport {
    let BlockContent {
        name,
        image,
        keywords,
        template,
        css,
        js,
    } = b.content;
    BlockExport {
        uid: Some(b.uid),
        name,
        category: category(b.category_id),
        image,
        keywords,
        template,
        css,
        js,
        order: b.sort_order,
    }
}
