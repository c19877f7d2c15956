//! A project's shared sections (`crate::sections`): its global header and footer, one row
//! each. Every statement names the project (`WHERE project_id = $1`), and turning a page's
//! block into a section reads the page by id *and* project, so a section is never read from,
//! written to or attached to another project's pages, whatever the caller checked before.

use serde_json::Value;
use sqlx::types::Json;

use super::BeginWrite;
use super::{Page, Result, Store, StoreError, dispatch, map_err, now};
use crate::ids::{PageId, ProjectId};
use crate::sections::{MenuItem, MenuPage, SectionKind, Sections, menu};

impl Store {
    /// The project's shared sections.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn global_sections(&self, project_id: ProjectId) -> Result<Sections> {
        let rows: Vec<(String, Json<Value>)> = dispatch!(self, p => sqlx::query_as(
            "SELECT kind, block FROM global_sections WHERE project_id = $1")
            .bind(project_id).fetch_all(p).await.map_err(map_err))?;
        let mut out = Sections::default();
        for (kind, block) in rows {
            if let Some(kind) = SectionKind::parse(&kind) {
                out.set(kind, Some(block.0));
            }
        }
        Ok(out)
    }

    /// The project's site menu (`crate::sections::menu`), the home page first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn site_menu(&self, project_id: ProjectId) -> Result<Vec<MenuItem>> {
        type Row = (String, String, Option<i64>, Json<Value>);
        let rows: Vec<Row> = dispatch!(self, p => sqlx::query_as(
            "SELECT name, slug, table_id, meta FROM pages WHERE project_id = $1 \
             ORDER BY CASE WHEN slug = '/' THEN 0 ELSE 1 END, id")
            .bind(project_id).fetch_all(p).await.map_err(map_err))?;
        Ok(menu(rows.iter().map(|(name, slug, table_id, meta)| {
            MenuPage {
                name,
                slug,
                is_collection: table_id.is_some(),
                meta: &meta.0,
            }
        })))
    }

    /// Creates or replaces the project's `kind` section.
    #[tracing::instrument(level = "debug", skip(self, block), err(level = "debug"))]
    pub async fn save_global_section(
        &self,
        project_id: ProjectId,
        kind: SectionKind,
        block: &Value,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO global_sections (project_id, kind, block, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4) \
             ON CONFLICT (project_id, kind) DO UPDATE \
             SET block = excluded.block, updated_at = excluded.updated_at")
            .bind(project_id).bind(kind.as_str()).bind(Json(block)).bind(now())
            .execute(p).await.map(drop).map_err(map_err))?;
        self.touch_project(project_id).await
    }

    /// Removes the project's `kind` section (`NotFound` when it has none).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_global_section(
        &self,
        project_id: ProjectId,
        kind: SectionKind,
    ) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query(
            "DELETE FROM global_sections WHERE project_id = $1 AND kind = $2")
            .bind(project_id).bind(kind.as_str())
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        super::touched(n)?;
        self.touch_project(project_id).await
    }

    /// Makes the block `uid` of page `page_id` (of project `project_id`: `NotFound` for a page
    /// of another project) the project's `kind` section, in one transaction: the block leaves
    /// the page and becomes the section (replacing the one there was), and the other pages of
    /// the project drop their own copy of it (a header, their first block, or a footer, their
    /// last, with the same template) so no page shows it twice. Returns the page as it is
    /// now, or `None` when it has no block `uid` (then nothing is written).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn make_global_section(
        &self,
        project_id: ProjectId,
        page_id: PageId,
        kind: SectionKind,
        uid: &str,
    ) -> Result<Option<Page>> {
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let blocks: Option<Json<Value>> = sqlx::query_scalar(
                "SELECT blocks FROM pages WHERE id = $1 AND project_id = $2")
                .bind(page_id).bind(project_id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?;
            let mut blocks = match blocks {
                Some(Json(Value::Array(b))) => b,
                Some(_) => Vec::new(),
                None => return Err(StoreError::NotFound),
            };
            let Some(at) = blocks
                .iter()
                .position(|b| b.get("uid").and_then(Value::as_str) == Some(uid))
            else {
                return Ok(None);
            };
            let mut block = blocks.remove(at);
            if let Some(obj) = block.as_object_mut() {
                obj.insert("uid".into(), Value::from(kind.uid()));
            }
            let template = block
                .get("template")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            sqlx::query(
                "INSERT INTO global_sections (project_id, kind, block, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $4) \
                 ON CONFLICT (project_id, kind) DO UPDATE \
                 SET block = excluded.block, updated_at = excluded.updated_at")
                .bind(project_id).bind(kind.as_str()).bind(Json(&block)).bind(ts)
                .execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("UPDATE pages SET blocks = $1, updated_at = $2 \
                         WHERE id = $3 AND project_id = $4")
                .bind(Json(Value::Array(blocks))).bind(ts).bind(page_id).bind(project_id)
                .execute(&mut *tx).await.map_err(map_err)?;
            if !template.trim().is_empty() {
                let others: Vec<(PageId, Json<Value>)> = sqlx::query_as(
                    "SELECT id, blocks FROM pages WHERE project_id = $1 AND id <> $2")
                    .bind(project_id).bind(page_id)
                    .fetch_all(&mut *tx).await.map_err(map_err)?;
                for (id, Json(other)) in others {
                    let Value::Array(mut list) = other else { continue };
                    let edge = match kind {
                        SectionKind::Header => 0,
                        SectionKind::Footer => list.len().saturating_sub(1),
                    };
                    let same = list.get(edge)
                        .and_then(|b| b.get("template"))
                        .and_then(Value::as_str)
                        .is_some_and(|t| t == template);
                    if !same {
                        continue;
                    }
                    list.remove(edge);
                    sqlx::query("UPDATE pages SET blocks = $1, updated_at = $2 \
                                 WHERE id = $3 AND project_id = $4")
                        .bind(Json(Value::Array(list))).bind(ts).bind(id).bind(project_id)
                        .execute(&mut *tx).await.map_err(map_err)?;
                }
            }
            sqlx::query("UPDATE projects SET updated_at = $1 WHERE id = $2")
                .bind(ts).bind(project_id)
                .execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)?;
            Ok::<_, StoreError>(())
        })?;
        self.page_by_id(page_id).await.map(Some)
    }
}
