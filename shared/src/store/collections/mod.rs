//! Collections (tables), their fields and their posts (records). Post values are one JSON
//! object per post, keyed by field id.
//!
//! This module owns the collections themselves and the two statements that every write to a
//! collection's schema or posts runs in its own transaction (`add_post_count`,
//! `records_changed`). The fields ([`fields`]), the posts and their bulk writes ([`posts`])
//! the list queries over posts ([`query`]) and the bulk write an import streams into
//! ([`stream`]) have modules of their own.

mod fields;
mod posts;
mod query;
mod sitemap;
mod stream;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now, projects::first_free, trusted};
use crate::ids::{CollectionId, ProjectId};

pub use fields::{Field, FieldInput};
pub use posts::{NewPost, Post, PostUpdate};
pub use query::{FilterOp, LIST_QUERY_TIMEOUT, OrderKey, PostFilter};
pub use stream::PostsStep;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Collection {
    pub id: CollectionId,
    pub project_id: ProjectId,
    pub name: String,
    pub slug: String,
    pub meta: Json<Value>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Keeps `collections.post_count` exact: every statement that adds or removes posts runs this
/// in the same transaction, so listings never have to count 100,000 rows.
///
/// `add_post_count!(tx, collection_id, delta)` expands to an expression that adds `delta` to
/// the count and then appends the collection's change (`records_changed!`), awaiting both on
/// `tx`, and evaluates to a `Result` (the statement's result or a [`StoreError`]). A macro
/// rather than a function because `tx` is a SQLite or a PostgreSQL transaction depending on
/// the arm of `dispatch!` it expands in (see the store's module doc).
macro_rules! add_post_count {
    ($tx:expr, $collection:expr, $delta:expr) => {
        match sqlx::query("UPDATE collections SET post_count = post_count + $1 WHERE id = $2")
            .bind::<i64>($delta)
            .bind($collection)
            .execute(&mut *$tx)
            .await
            .map_err(map_err)
        {
            Ok(_) => records_changed!($tx, $collection),
            Err(e) => Err(e),
        }
    };
}
pub(crate) use add_post_count;

/// Appends a `records` change for a collection, in the transaction that changed its posts or
/// schema, so the edge re-renders what shows them.
///
/// `records_changed!(tx, collection_id)` expands to an expression that runs the `INSERT INTO
/// changes` on `tx`, awaits it and evaluates to a `Result`. A macro rather than a function
/// because `tx` is a SQLite or a PostgreSQL transaction depending on the arm of `dispatch!`
/// it expands in (see the store's module doc).
macro_rules! records_changed {
    ($tx:expr, $collection:expr) => {
        sqlx::query(
            "INSERT INTO changes (project_id, kind, key, created_at) \
             SELECT project_id, 'records', CAST(id AS TEXT), $2 FROM collections WHERE id = $1",
        )
        .bind::<$crate::ids::CollectionId>($collection)
        .bind(now())
        .execute(&mut *$tx)
        .await
        .map_err(map_err)
    };
}
pub(crate) use records_changed;

const COLLECTION_COLUMNS: &str = "id, project_id, name, slug, meta, created_at, updated_at";

impl Store {
    #[tracing::instrument(level = "debug", skip(self, meta), err(level = "debug"))]
    pub async fn insert_collection(
        &self,
        project_id: ProjectId,
        name: &str,
        slug: &str,
        meta: &Value,
    ) -> Result<Collection> {
        let sql = format!(
            "INSERT INTO collections (project_id, name, slug, meta, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $5) RETURNING {COLLECTION_COLUMNS}"
        );
        let c = dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let c = sqlx::query_as::<_, Collection>(trusted(&sql))
                .bind(project_id).bind(name).bind(slug).bind(Json(meta)).bind(now())
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, c.id)?;
            tx.commit().await.map_err(map_err)?;
            Ok::<_, StoreError>(c)
        })?;
        self.touch_project(project_id).await?;
        Ok(c)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn collection_by_id(&self, id: CollectionId) -> Result<Collection> {
        let sql = format!("SELECT {COLLECTION_COLUMNS} FROM collections WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Collection>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// A project's collection by slug.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn collection_by_slug(
        &self,
        project_id: ProjectId,
        slug: &str,
    ) -> Result<Collection> {
        let sql = format!(
            "SELECT {COLLECTION_COLUMNS} FROM collections WHERE project_id = $1 AND slug = $2"
        );
        dispatch!(self, p => sqlx::query_as::<_, Collection>(trusted(&sql))
            .bind(project_id).bind(slug)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    #[tracing::instrument(level = "debug", skip(self, meta), err(level = "debug"))]
    pub async fn update_collection(
        &self,
        id: CollectionId,
        name: &str,
        slug: &str,
        meta: &Value,
    ) -> Result<Collection> {
        let sql = format!(
            "UPDATE collections \
             SET name = $1, slug = $2, meta = $3, updated_at = $4 \
             WHERE id = $5 RETURNING {COLLECTION_COLUMNS}"
        );
        // The slug names the read API's path and the meta its order: the edge must hear.
        let c = dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let c = sqlx::query_as::<_, Collection>(trusted(&sql))
                .bind(name).bind(slug).bind(Json(meta)).bind(now()).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            records_changed!(tx, id)?;
            tx.commit().await.map_err(map_err)?;
            Ok::<_, StoreError>(c)
        })?;
        self.touch_project(c.project_id).await?;
        Ok(c)
    }

    /// Deletes a collection with its fields and posts in one transaction; collection pages
    /// bound to it become static pages. Relation fields elsewhere pointing at it lose their
    /// target (their values are left for the owner to fix).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_collection(&self, id: CollectionId) -> Result<()> {
        let c = self.collection_by_id(id).await?;
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            sqlx::query("DELETE FROM posts WHERE collection_id = $1").bind(id)
                .execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM fields WHERE collection_id = $1").bind(id)
                .execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("UPDATE pages SET table_id = NULL WHERE table_id = $1").bind(id)
                .execute(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, id)?;
            sqlx::query("DELETE FROM collections WHERE id = $1").bind(id)
                .execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)
        })?;
        self.touch_project(c.project_id).await
    }

    /// A free collection slug in a project.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn free_collection_slug(
        &self,
        project_id: ProjectId,
        base: &str,
        except: Option<CollectionId>,
    ) -> Result<String> {
        let taken: Vec<String> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT slug FROM collections \
             WHERE project_id = $1 AND (slug = $2 OR slug LIKE $3) AND id <> $4")
            .bind(project_id).bind(base).bind(format!("{base}-%")).bind(except.unwrap_or(CollectionId(0)))
            .fetch_all(p).await.map_err(map_err))?;
        Ok(first_free(base, &taken))
    }

    /// Project id of a collection (authorization before anything else is read).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn collection_project_id(&self, id: CollectionId) -> Result<ProjectId> {
        dispatch!(self, p => sqlx::query_scalar::<_, ProjectId>(
            "SELECT project_id FROM collections WHERE id = $1")
            .bind(id).fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }
}
