//! Templates (themes): a name, a category, an order, a published flag and a snapshot.

use sqlx::types::Json;

use super::{Result, Store, StoreError, Template, dispatch, map_err, now, touched, trusted};
use crate::ids::TemplateId;
use crate::snapshot::Snapshot;

const TEMPLATE_COLUMNS: &str =
    "id, name, description, category, sort_order, is_published, thumbnail, created_at, updated_at";

/// A template's descriptive fields.
#[derive(Debug, Clone)]
pub struct TemplateInfo<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub category: &'a str,
    pub sort_order: i64,
}

impl Store {
    /// Templates by order then name; unpublished ones only when asked (admins).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn list_templates(&self, include_unpublished: bool) -> Result<Vec<Template>> {
        let sql = format!(
            "SELECT {TEMPLATE_COLUMNS} FROM templates \
             WHERE is_published OR $1 ORDER BY sort_order, name"
        );
        dispatch!(self, p => sqlx::query_as::<_, Template>(trusted(&sql)).bind(include_unpublished)
            .fetch_all(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn template_by_id(&self, id: TemplateId) -> Result<Template> {
        let sql = format!("SELECT {TEMPLATE_COLUMNS} FROM templates WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Template>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn template_snapshot(&self, id: TemplateId) -> Result<Snapshot> {
        let raw: Option<Json<Snapshot>> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT snapshot FROM templates WHERE id = $1")
            .bind(id).fetch_optional(p).await.map_err(map_err))?;
        raw.map(|j| j.0).ok_or(StoreError::NotFound)
    }

    /// Creates a template, or replaces the snapshot and fields of the one with the same name.
    #[tracing::instrument(level = "debug", skip_all, fields(name = info.name), err(level = "debug"))]
    pub async fn upsert_template(
        &self,
        info: &TemplateInfo<'_>,
        snapshot: &Snapshot,
    ) -> Result<Template> {
        snapshot.check().map_err(StoreError::Corrupt)?;
        let sql = format!(
            "INSERT INTO templates \
             (name, description, category, sort_order, snapshot, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $6) \
             ON CONFLICT (name) DO UPDATE \
             SET description = excluded.description, category = excluded.category, \
             sort_order = excluded.sort_order, snapshot = excluded.snapshot, \
             updated_at = excluded.updated_at RETURNING {TEMPLATE_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, Template>(trusted(&sql))
            .bind(info.name).bind(info.description).bind(info.category).bind(info.sort_order)
            .bind(Json(snapshot)).bind(now())
            .fetch_one(p).await.map_err(map_err))
    }

    /// Replaces an existing template's name and snapshot (admin "save as template" onto it).
    #[tracing::instrument(level = "debug", skip(self, snapshot), err(level = "debug"))]
    pub async fn replace_template(
        &self,
        id: TemplateId,
        name: &str,
        snapshot: &Snapshot,
    ) -> Result<Template> {
        snapshot.check().map_err(StoreError::Corrupt)?;
        let sql = format!(
            "UPDATE templates SET name = $1, snapshot = $2, updated_at = $3 \
             WHERE id = $4 RETURNING {TEMPLATE_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, Template>(trusted(&sql))
            .bind(name).bind(Json(snapshot)).bind(now()).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Records a template's thumbnail URL.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_template_thumbnail(&self, id: TemplateId, url: &str) -> Result<()> {
        touched(dispatch!(self, p => sqlx::query(
                "UPDATE templates SET thumbnail = $1, updated_at = $2 WHERE id = $3")
            .bind(url).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?)
    }

    /// Changes a template's name, category, description and published flag (admin screen).
    #[tracing::instrument(level = "debug", skip(self, info), fields(name = info.name), err(level = "debug"))]
    pub async fn update_template_info(
        &self,
        id: TemplateId,
        info: &TemplateInfo<'_>,
        is_published: bool,
    ) -> Result<Template> {
        let sql = format!(
            "UPDATE templates \
             SET name = $1, description = $2, category = $3, \
             sort_order = $4, is_published = $5, updated_at = $6 \
             WHERE id = $7 RETURNING {TEMPLATE_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, Template>(trusted(&sql))
            .bind(info.name).bind(info.description).bind(info.category).bind(info.sort_order)
            .bind(is_published).bind(now()).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn reorder_template(&self, id: TemplateId, order: i64) -> Result<()> {
        touched(dispatch!(self, p => sqlx::query(
                "UPDATE templates SET sort_order = $1, updated_at = $2 WHERE id = $3")
            .bind(order).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_template(&self, id: TemplateId) -> Result<()> {
        touched(
            dispatch!(self, p => sqlx::query("DELETE FROM templates WHERE id = $1")
            .bind(id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?,
        )
    }
}
