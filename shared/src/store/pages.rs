//! Pages of a project: static pages, and collection pages (`table_id` set, shown as `slug/*`).

use sqlx::types::Json;

use super::{
    Page, PageChanges, Result, Store, StoreError, dispatch, map_err, now, projects::first_free,
    trusted,
};
use crate::ids::{CollectionId, PageId, ProjectId};

const PAGE_COLUMNS: &str = "id, project_id, name, slug, description, image, meta, output, blocks, \
     table_id, slug = '/' AS is_home, created_at, updated_at";

impl Store {
    /// Adds an empty page; its slug is `slug`, or `slug-2`, … if taken in the project.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn insert_page(&self, project_id: ProjectId, name: &str, slug: &str) -> Result<Page> {
        let base = if slug == "/" { "page" } else { slug };
        let taken: Vec<String> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT slug FROM pages WHERE project_id = $1 AND (slug = $2 OR slug LIKE $3)")
            .bind(project_id).bind(base).bind(format!("{base}-%"))
            .fetch_all(p).await.map_err(map_err))?;
        let has_home: bool = dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM pages WHERE project_id = $1 AND slug = '/'")
            .bind(project_id).fetch_one(p).await.map_err(map_err))?
            > 0;
        let slug = if slug == "/" && !has_home {
            "/".to_string()
        } else {
            first_free(base, &taken)
        };
        let ts = now();
        let sql = format!(
            "INSERT INTO pages (project_id, name, slug, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4) RETURNING {PAGE_COLUMNS}"
        );
        let page = dispatch!(self, p => sqlx::query_as::<_, Page>(trusted(&sql))
            .bind(project_id).bind(name).bind(&slug).bind(ts)
            .fetch_one(p).await.map_err(map_err))?;
        self.touch_project(project_id).await?;
        Ok(page)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn page_by_id(&self, id: PageId) -> Result<Page> {
        let sql = format!("SELECT {PAGE_COLUMNS} FROM pages WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Page>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Every page of a project with its content, the home page first (publishing).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn pages_of_project(&self, project_id: ProjectId) -> Result<Vec<Page>> {
        let sql = format!(
            "SELECT {PAGE_COLUMNS} FROM pages WHERE project_id = $1 \
             ORDER BY CASE WHEN slug = '/' THEN 0 ELSE 1 END, id"
        );
        dispatch!(self, p => sqlx::query_as::<_, Page>(trusted(&sql))
            .bind(project_id).fetch_all(p).await.map_err(map_err))
    }

    /// The project a page belongs to (for authorization before anything else is read).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn page_project_id(&self, id: PageId) -> Result<ProjectId> {
        dispatch!(self, p => sqlx::query_scalar::<_, ProjectId>(
            "SELECT project_id FROM pages WHERE id = $1")
            .bind(id).fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    #[tracing::instrument(level = "debug", skip(self, changes), err(level = "debug"))]
    pub async fn update_page(&self, id: PageId, changes: &PageChanges) -> Result<Page> {
        let cur = self.page_by_id(id).await?;
        let sql = format!(
            "UPDATE pages \
             SET name = $1, slug = $2, description = $3, image = $4, meta = $5, \
             output = $6, blocks = $7, table_id = $8, updated_at = $9 \
             WHERE id = $10 RETURNING {PAGE_COLUMNS}"
        );
        let page = dispatch!(self, p => sqlx::query_as::<_, Page>(trusted(&sql))
            .bind(changes.name.as_ref().unwrap_or(&cur.name))
            .bind(changes.slug.as_ref().unwrap_or(&cur.slug))
            .bind(changes.description.as_ref().unwrap_or(&cur.description))
            .bind(changes.image.as_ref().unwrap_or(&cur.image))
            .bind(Json(changes.meta.as_ref().unwrap_or(&cur.meta.0)))
            .bind(changes.output.as_ref().unwrap_or(&cur.output))
            .bind(Json(changes.blocks.as_ref().unwrap_or(&cur.blocks.0)))
            .bind(changes.table_id.unwrap_or(cur.table_id))
            .bind(now())
            .bind(id)
            .fetch_one(p).await.map_err(map_err))?;
        self.touch_project(page.project_id).await?;
        Ok(page)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_page(&self, id: PageId) -> Result<()> {
        let project_id = self.page_project_id(id).await?;
        dispatch!(self, p => sqlx::query("DELETE FROM pages WHERE id = $1")
            .bind(id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        self.touch_project(project_id).await
    }

    /// Whether a collection belongs to a project (for binding collection pages).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn collection_in_project(
        &self,
        collection_id: CollectionId,
        project_id: ProjectId,
    ) -> Result<bool> {
        let n: i64 = dispatch!(self, p => sqlx::query_scalar(
            "SELECT COUNT(*) FROM collections WHERE id = $1 AND project_id = $2")
            .bind(collection_id).bind(project_id).fetch_one(p).await.map_err(map_err))?;
        Ok(n > 0)
    }
}
