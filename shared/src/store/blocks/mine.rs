//! My Blocks: each user's own blocks. Every write by id names the user in the statement.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::ids::{AccountId, MyBlockId};
use crate::store::{Result, Store, StoreError, dispatch, map_err, now, touched, trusted};

const MY_BLOCK_COLUMNS: &str = "id, name, template, css, js";

/// One of a user's own blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, ToSchema)]
pub struct MyBlock {
    #[schema(value_type = i64)]
    pub id: MyBlockId,
    pub name: String,
    pub template: String,
    pub css: String,
    pub js: String,
}

impl Store {
    /// A user's own blocks, newest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn my_blocks(&self, user_id: AccountId) -> Result<Vec<MyBlock>> {
        let sql =
            format!("SELECT {MY_BLOCK_COLUMNS} FROM my_blocks WHERE user_id = $1 ORDER BY id DESC");
        dispatch!(self, p => sqlx::query_as::<_, MyBlock>(trusted(&sql)).bind(user_id)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Creates one of the user's blocks, or overwrites one they own (`NotFound` otherwise).
    #[tracing::instrument(level = "debug", skip(self, template, css, js), err(level = "debug"))]
    pub async fn save_my_block(
        &self,
        user_id: AccountId,
        id: Option<MyBlockId>,
        name: &str,
        template: &str,
        css: &str,
        js: &str,
    ) -> Result<MyBlock> {
        let t = now();
        match id {
            None => {
                let sql = format!(
                    "INSERT INTO my_blocks \
                     (user_id, name, template, css, js, created_at, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING {MY_BLOCK_COLUMNS}"
                );
                dispatch!(self, p => sqlx::query_as::<_, MyBlock>(trusted(&sql))
                    .bind(user_id).bind(name.trim()).bind(template).bind(css).bind(js).bind(t)
                    .fetch_one(p).await.map_err(map_err))
            }
            Some(id) => {
                let sql = format!(
                    "UPDATE my_blocks \
                     SET name = $1, template = $2, css = $3, js = $4, updated_at = $5 \
                     WHERE id = $6 AND user_id = $7 RETURNING {MY_BLOCK_COLUMNS}"
                );
                dispatch!(self, p => sqlx::query_as::<_, MyBlock>(trusted(&sql))
                    .bind(name.trim()).bind(template).bind(css)
                    .bind(js).bind(t).bind(id).bind(user_id)
                    .fetch_optional(p).await.map_err(map_err))?
                .ok_or(StoreError::NotFound)
            }
        }
    }

    /// Deletes one of the user's blocks (`NotFound` when it is not theirs).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_my_block(&self, user_id: AccountId, id: MyBlockId) -> Result<()> {
        touched(
            dispatch!(self, p => sqlx::query("DELETE FROM my_blocks WHERE id = $1 AND user_id = $2")
            .bind(id).bind(user_id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?,
        )
    }
}
