//! Projects (sites). A project always has a home page (`/`), created in the same
//! transaction as the project.

use sqlx::types::Json;

use super::BeginWrite;
use super::{
    CollectionSummary, PageSummary, Project, ProjectChanges, ProjectOwner, Result, Store,
    StoreError, dispatch,
    domains::{release_slug, take_slug},
    map_err, now,
    publishing::{close_publication, push_change},
    trusted,
};
use crate::ids::{AccountId, BusinessId, DeployId, ProjectId};

pub(crate) const PROJECT_COLUMNS: &str = "id, user_id, name, slug, domain, token, uuid, \
     is_published, thumbnail, thumbnail_timestamp, meta, verified, verified_domain, verified_at, \
     created_at, updated_at, active_deploy_id";

/// A project about to be created.
#[derive(Debug, Clone)]
pub struct NewProject<'a> {
    pub user_id: AccountId,
    pub name: &'a str,
    pub slug: &'a str,
    pub token: &'a str,
    pub uuid: &'a str,
    pub meta: serde_json::Value,
}

impl Store {
    /// Creates a project with an empty home page named `home_name`.
    #[tracing::instrument(level = "debug", skip(self, new), fields(slug = new.slug), err(level = "debug"))]
    pub async fn insert_project(&self, new: &NewProject<'_>, home_name: &str) -> Result<Project> {
        let snapshot = crate::snapshot::Snapshot::blank(home_name);
        // A blank project has no records: no cap to check.
        self.insert_project_from_snapshot(new, &snapshot, u64::MAX)
            .await
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_by_id(&self, id: ProjectId) -> Result<Project> {
        let sql = format!("SELECT {PROJECT_COLUMNS} FROM projects WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Project>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Who owns a project, for the authorization policy.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_owner(&self, id: ProjectId) -> Result<ProjectOwner> {
        dispatch!(self, p => sqlx::query_as::<_, ProjectOwner>(
            "SELECT p.id AS project_id, p.user_id AS owner_id, u.business_id AS owner_business_id \
             FROM projects p JOIN users u ON u.id = p.user_id WHERE p.id = $1")
            .bind(id).fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Projects a user might see: their own and, when they belong to a business, every
    /// project of that business. The caller filters the business ones by access level.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn projects_candidates(
        &self,
        user_id: AccountId,
        business_id: Option<BusinessId>,
    ) -> Result<Vec<(Project, ProjectOwner)>> {
        let sql = format!(
            "SELECT {cols}, u.business_id AS owner_business_id \
             FROM projects p JOIN users u ON u.id = p.user_id \
             WHERE p.user_id = $1 OR (u.business_id IS NOT NULL AND u.business_id = $2) \
             ORDER BY p.updated_at DESC, p.id DESC",
            cols = PROJECT_COLUMNS
                .split(", ")
                .map(|c| format!("p.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let rows: Vec<ProjectWithBusiness> = dispatch!(self, p => sqlx::query_as(trusted(&sql))
            .bind(user_id).bind(business_id).fetch_all(p).await.map_err(map_err))?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let owner = ProjectOwner {
                    project_id: r.project.id,
                    owner_id: r.project.user_id,
                    owner_business_id: r.owner_business_id,
                };
                (r.project, owner)
            })
            .collect())
    }

    /// Applies validated changes. A slug given up is held for the project's owner
    /// (`slug_holds`); a new slug another user holds is refused with
    /// [`super::SLUG_HELD`].
    #[tracing::instrument(level = "debug", skip(self, changes), err(level = "debug"))]
    pub async fn update_project(&self, id: ProjectId, changes: &ProjectChanges) -> Result<Project> {
        let current = self.project_by_id(id).await?;
        let name = changes.name.clone().unwrap_or(current.name);
        let slug = changes.slug.clone().unwrap_or(current.slug.clone());
        let meta = changes.meta.clone().unwrap_or(current.meta.0);
        let sql = format!(
            "UPDATE projects SET name = $1, slug = $2, meta = $3, updated_at = $4 \
             WHERE id = $5 RETURNING {PROJECT_COLUMNS}"
        );
        // Slug and meta (fonts, code, pixel) decide what visitors get: tell the edges.
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            if slug != current.slug {
                take_slug!(tx, &slug, current.user_id).await?;
                release_slug!(tx, &current.slug, current.user_id)?;
            }
            let project = sqlx::query_as::<_, Project>(trusted(&sql))
                .bind(&name).bind(&slug).bind(Json(&meta)).bind(now()).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            push_change!(tx, id, "project", "")?;
            tx.commit().await.map_err(map_err)?;
            Ok(project)
        })
    }

    /// Deletes a project with its pages, collections, redirects and history (cascade). Its
    /// slug is held for its owner (`slug_holds`).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_project(&self, id: ProjectId) -> Result<()> {
        // The change feed has no foreign key, so the entry outlives the project and edges
        // forget it.
        let n = dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let gone: Option<(String, AccountId)> = sqlx::query_as(
                "DELETE FROM projects WHERE id = $1 RETURNING slug, user_id")
                .bind(id).fetch_optional(&mut *tx).await.map_err(map_err)?;
            let n = u64::from(gone.is_some());
            if let Some((slug, owner)) = &gone {
                release_slug!(tx, slug, *owner)?;
                close_publication!(tx, id)?;
                push_change!(tx, id, "project", "")?;
            }
            tx.commit().await.map_err(map_err)?;
            Ok::<_, StoreError>(n)
        })?;
        if n == 0 {
            Err(StoreError::NotFound)
        } else {
            Ok(())
        }
    }

    /// Marks a project changed (its pages or content were edited).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn touch_project(&self, id: ProjectId) -> Result<()> {
        dispatch!(self, p => sqlx::query("UPDATE projects SET updated_at = $1 WHERE id = $2")
            .bind(now()).bind(id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// A free preview slug: `base` itself, or `base-2`, `base-3`, … whichever is neither
    /// taken, held after its release (whoever holds it: a derived slug never needs one that is
    /// cooling off), nor reserved.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn free_project_slug(&self, base: &str) -> Result<String> {
        let taken: Vec<String> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT slug FROM projects WHERE slug = $1 OR slug LIKE $2 \
             UNION SELECT slug FROM slug_holds WHERE slug = $1 OR slug LIKE $2")
            .bind(base).bind(format!("{base}-%")).fetch_all(p).await.map_err(map_err))?;
        Ok(first_free(base, &taken))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_pages(&self, project_id: ProjectId) -> Result<Vec<PageSummary>> {
        dispatch!(self, p => sqlx::query_as::<_, PageSummary>(
            "SELECT id, name, slug, table_id, slug = '/' AS is_home, updated_at FROM pages \
             WHERE project_id = $1 \
             ORDER BY CASE WHEN slug = '/' THEN 0 ELSE 1 END, id")
            .bind(project_id).fetch_all(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_collections(
        &self,
        project_id: ProjectId,
    ) -> Result<Vec<CollectionSummary>> {
        dispatch!(self, p => sqlx::query_as::<_, CollectionSummary>(
            "SELECT id, name, slug FROM collections WHERE project_id = $1 ORDER BY id")
            .bind(project_id).fetch_all(p).await.map_err(map_err))
    }

    /// Records the picture of the project's published home page (`thumbnail`, its address,
    /// and `thumbnail_timestamp`, when it was taken), when `deploy_id` is still the live deploy:
    /// a picture of an older deploy that finished late does not replace a newer one's.
    /// Answers whether it was recorded. The project's `updated_at` stays: a picture is not an edit.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_project_thumbnail(
        &self,
        id: ProjectId,
        deploy_id: DeployId,
        url: &str,
        taken_at: i64,
    ) -> Result<bool> {
        let n = dispatch!(self, p => sqlx::query(
            "UPDATE projects SET thumbnail = $1, thumbnail_timestamp = $2 \
             WHERE id = $3 AND active_deploy_id = $4")
            .bind(url).bind(taken_at).bind(id).bind(deploy_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(n > 0)
    }

    /// Regenerates a project's client-panel token; the old one stops working at once.
    #[tracing::instrument(level = "debug", skip(self, token), err(level = "debug"))]
    pub async fn set_project_token(&self, project_id: ProjectId, token: &str) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query(
            "UPDATE projects SET token = $1, updated_at = $2 WHERE id = $3")
            .bind(token).bind(now()).bind(project_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        if n == 0 {
            Err(StoreError::NotFound)
        } else {
            Ok(())
        }
    }

    /// A project's spreadsheet-link token; `None`: no link was made yet (or the project is
    /// gone).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_sheet_token(&self, project_id: ProjectId) -> Result<Option<String>> {
        let token: Option<Option<String>> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT sheet_token FROM projects WHERE id = $1")
            .bind(project_id).fetch_optional(p).await.map_err(map_err))?;
        Ok(token.flatten())
    }

    /// Makes (or replaces) a project's spreadsheet-link token; the client-panel token is
    /// untouched, and the old link stops working at once.
    #[tracing::instrument(level = "debug", skip(self, token), err(level = "debug"))]
    pub async fn set_project_sheet_token(&self, project_id: ProjectId, token: &str) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query(
            "UPDATE projects SET sheet_token = $1, updated_at = $2 WHERE id = $3")
            .bind(token).bind(now()).bind(project_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        super::touched(n)
    }

    /// The project a spreadsheet-link token pushes rows into.
    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn project_id_by_sheet_token(&self, token: &str) -> Result<Option<ProjectId>> {
        dispatch!(self, p => sqlx::query_scalar::<_, ProjectId>(
            "SELECT id FROM projects WHERE sheet_token = $1")
            .bind(token).fetch_optional(p).await.map_err(map_err))
    }

    /// The project a client-panel token opens.
    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn project_id_by_token(&self, token: &str) -> Result<Option<ProjectId>> {
        dispatch!(self, p => sqlx::query_scalar::<_, ProjectId>(
            "SELECT id FROM projects WHERE token = $1")
            .bind(token).fetch_optional(p).await.map_err(map_err))
    }
}

#[derive(sqlx::FromRow)]
struct ProjectWithBusiness {
    #[sqlx(flatten)]
    project: Project,
    owner_business_id: Option<BusinessId>,
}

/// `base` if free, else the first `base-N` (N ≥ 2) not in `taken`; never a reserved slug. A
/// base of a reserved shape (`xn--…`, from a project made before such slugs were refused)
/// would stay reserved whatever its suffix, so it gets a `site-` prefix first.
pub(crate) fn first_free(base: &str, taken: &[String]) -> String {
    use crate::domain::is_reserved_slug;
    let base = if is_reserved_slug(&format!("{base}-2")) {
        format!("site-{base}")
    } else {
        base.to_string()
    };
    let free =
        |candidate: &str| !taken.iter().any(|t| t == candidate) && !is_reserved_slug(candidate);
    if free(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|candidate| free(candidate))
        .expect("an unbounded range always yields a free name")
}
