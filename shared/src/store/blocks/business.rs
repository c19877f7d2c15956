//! A business's own block library: edited by its administrators, read by its members, at
//! most [`MAX_BUSINESS_BLOCKS`] blocks. Every write by id names the business in the statement.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{BlockContent, LibraryError, name_key};
use crate::ids::{BusinessBlockId, BusinessId};
use crate::store::{Result, Store, StoreError, dispatch, map_err, now, touched, trusted};

const BUSINESS_BLOCK_COLUMNS: &str =
    "id, name, image, keywords, template, css, js, sort_order, updated_at";

/// Most blocks one business's library holds: every member's editor loads them all.
pub const MAX_BUSINESS_BLOCKS: i64 = 200;

/// A block of a business's own library.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
pub struct BusinessBlock {
    #[schema(value_type = i64)]
    pub id: BusinessBlockId,
    #[serde(flatten)]
    #[sqlx(flatten)]
    pub content: BlockContent,
    #[serde(rename = "order")]
    pub sort_order: i64,
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

/// In a business's library the one unique constraint is its name's.
fn business_library_err(e: sqlx::Error) -> LibraryError {
    if let sqlx::Error::Database(db) = &e
        && db.is_unique_violation()
    {
        return LibraryError::NameTaken;
    }
    LibraryError::Store(map_err(e))
}

impl Store {
    /// A business's library by order, then name.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn business_blocks(&self, business_id: BusinessId) -> Result<Vec<BusinessBlock>> {
        let sql = format!(
            "SELECT {BUSINESS_BLOCK_COLUMNS} FROM business_blocks \
             WHERE business_id = $1 ORDER BY sort_order, name, id"
        );
        dispatch!(self, p => sqlx::query_as::<_, BusinessBlock>(trusted(&sql)).bind(business_id)
            .fetch_all(p).await.map_err(map_err))
    }

    /// One block of `business_id`'s library (`NotFound` for another business's block).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn business_block(
        &self,
        business_id: BusinessId,
        id: BusinessBlockId,
    ) -> Result<BusinessBlock> {
        let sql = format!(
            "SELECT {BUSINESS_BLOCK_COLUMNS} FROM business_blocks \
             WHERE id = $1 AND business_id = $2"
        );
        dispatch!(self, p => sqlx::query_as::<_, BusinessBlock>(trusted(&sql))
            .bind(id).bind(business_id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Adds a block to `business_id`'s library, unless it holds [`MAX_BUSINESS_BLOCKS`]
    /// already (`Full`); the count and the insert are one statement.
    #[tracing::instrument(level = "debug", skip(self, b), fields(name = b.name.as_str()), err(level = "debug"))]
    pub async fn insert_business_block(
        &self,
        business_id: BusinessId,
        b: &BlockContent,
        sort_order: i64,
    ) -> Result<BusinessBlock, LibraryError> {
        let sql = format!(
            "INSERT INTO business_blocks \
             (business_id, name, name_key, image, keywords, template, css, js, sort_order, \
             created_at, updated_at) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10 \
             WHERE (SELECT COUNT(*) FROM business_blocks WHERE business_id = $1) < $11 \
             RETURNING {BUSINESS_BLOCK_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, BusinessBlock>(trusted(&sql))
            .bind(business_id).bind(b.name.trim())
            .bind(name_key(&b.name)).bind(&b.image).bind(&b.keywords)
            .bind(&b.template).bind(&b.css).bind(&b.js)
            .bind(sort_order).bind(now()).bind(MAX_BUSINESS_BLOCKS)
            .fetch_optional(p).await.map_err(business_library_err))?
        .ok_or(LibraryError::Full)
    }

    /// Replaces a block of `business_id`'s library (`NotFound` for another business's block:
    /// nothing is written).
    #[tracing::instrument(level = "debug", skip(self, b), fields(name = b.name.as_str()), err(level = "debug"))]
    pub async fn update_business_block(
        &self,
        business_id: BusinessId,
        id: BusinessBlockId,
        b: &BlockContent,
        sort_order: i64,
    ) -> Result<BusinessBlock, LibraryError> {
        let sql = format!(
            "UPDATE business_blocks \
             SET name = $1, name_key = $2, image = $3, keywords = $4, \
             template = $5, css = $6, js = $7, sort_order = $8, updated_at = $9 \
             WHERE id = $10 AND business_id = $11 \
             RETURNING {BUSINESS_BLOCK_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, BusinessBlock>(trusted(&sql))
            .bind(b.name.trim()).bind(name_key(&b.name)).bind(&b.image).bind(&b.keywords)
            .bind(&b.template).bind(&b.css).bind(&b.js)
            .bind(sort_order).bind(now()).bind(id)
            .bind(business_id)
            .fetch_optional(p).await.map_err(business_library_err))?
        .ok_or(LibraryError::Store(StoreError::NotFound))
    }

    /// Deletes a block of `business_id`'s library (`NotFound` for another business's block).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_business_block(
        &self,
        business_id: BusinessId,
        id: BusinessBlockId,
    ) -> Result<()> {
        touched(dispatch!(self, p => sqlx::query(
                "DELETE FROM business_blocks WHERE id = $1 AND business_id = $2")
            .bind(id).bind(business_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{dual_test, testing::TestDb};

    fn input(name: &str, template: &str) -> BlockContent {
        BlockContent {
            name: name.into(),
            template: template.into(),
            ..BlockContent::default()
        }
    }

    dual_test!(
        async fn a_business_library_write_by_id_never_reaches_another_business(db: TestDb) {
            let s = &db.store;
            let a = s.insert_business("A").await.unwrap();
            let b = s.insert_business("B").await.unwrap();
            let theirs = s
                .insert_business_block(b, &input("Hero", "<p>b</p>"), 99)
                .await
                .unwrap();
            // Business A names B's block: nothing is found, nothing is written.
            assert!(matches!(
                s.business_block(a, theirs.id).await,
                Err(StoreError::NotFound)
            ));
            assert!(matches!(
                s.update_business_block(a, theirs.id, &input("Roubado", "<p>a</p>"), 99)
                    .await,
                Err(LibraryError::Store(StoreError::NotFound))
            ));
            assert!(matches!(
                s.delete_business_block(a, theirs.id).await,
                Err(StoreError::NotFound)
            ));
            assert_eq!(s.business_block(b, theirs.id).await.unwrap(), theirs);
            assert!(s.business_blocks(a).await.unwrap().is_empty());
            // Names are unique within a business, ignoring case, and free across businesses.
            assert!(matches!(
                s.insert_business_block(b, &input(" hero ", "<p>x</p>"), 99)
                    .await,
                Err(LibraryError::NameTaken)
            ));
            s.insert_business_block(a, &input("Hero", "<p>a</p>"), 99)
                .await
                .unwrap();
            assert_eq!(s.business_blocks(b).await.unwrap(), vec![theirs]);
        }
    );
}
