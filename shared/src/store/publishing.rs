//! Deploys, the change feed and the edge's view of a site (form history is in
//! [`super::submissions`]).
//!
//! A deploy is written to the object store first and only then made live by one transaction
//! ([`Store::finish_deploy`]) that points the project at it and appends to the change feed, so
//! a failed build never touches the live site and every edge hears of the switch.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::types::Json;
use utoipa::ToSchema;

use crate::error_code::{ErrorCode, Params};
use crate::ids::{AccountId, BusinessId, DeployId, ProjectId};

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now, trusted};

/// Where a deploy's build is: running, finished (it may be made live), or stopped by a refusal or
/// an interruption (`Deploy::error` says why).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeployStatus {
    Building,
    Ready,
    Failed,
}

crate::text_code::text_code!(DeployStatus, "deploy status", [
    Building => "building",
    Ready => "ready",
    Failed => "failed",
]);

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Deploy {
    #[schema(value_type = i64)]
    pub id: DeployId,
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub status: DeployStatus,
    pub manifest_key: String,
    pub files: i64,
    pub bytes: i64,
    /// Why a failed build failed, in English.
    pub error: Option<String>,
    /// Its stable code (`ErrorCode`), which the dashboard translates, and the values its text
    /// names: the failed publish's own refusal.
    pub error_code: Option<String>,
    #[schema(value_type = Object)]
    pub error_params: Json<Value>,
    #[schema(value_type = Option<i64>)]
    pub created_by: Option<AccountId>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// The PostgreSQL notification channel on which every change-feed insert is announced (a
/// trigger from migration 0004 sends the entry's id), so edges that `LISTEN` hear of it at once.
pub const CHANGES_CHANNEL: &str = "vitrine_changes";

/// The reason recorded for a build whose process stopped before it finished.
pub const INTERRUPTED_BUILD: &str = "The build was interrupted; please publish again";

const DEPLOY_COLUMNS: &str = "id, project_id, status, manifest_key, files, bytes, error, \
     error_code, error_params, created_by, created_at, finished_at";

/// One entry of the change feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Change {
    pub id: i64,
    pub project_id: ProjectId,
    /// `deploy` (publish, unpublish, rollback), `project` (slug, domain or settings changed,
    /// or the project deleted), `redirects`, `records` (key: the collection id; records,
    /// fields or the collection itself changed).
    pub kind: String,
    pub key: String,
}

/// What the edge needs to know about the project behind a host.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SiteRow {
    pub project_id: ProjectId,
    pub slug: String,
    pub is_published: bool,
    pub active_deploy_id: Option<DeployId>,
    pub manifest_key: Option<String>,
    /// The project's settings (`meta`); the edge reads `hsts` from it.
    pub meta: super::Json<serde_json::Value>,
    /// The project's owner, and their business: whose fair share the site's renders use.
    pub owner_id: AccountId,
    pub business_id: Option<BusinessId>,
    /// The project's custom domain when it is verified (its canonical address, `crate::seo`).
    pub verified_domain: Option<String>,
}

impl SiteRow {
    /// The account the site's renders count against (a business counts as one).
    pub fn account(&self) -> crate::account::Account {
        crate::account::Account::of(self.owner_id, self.business_id)
    }

    /// The owner opted in to HSTS (`meta.hsts`).
    pub fn hsts(&self) -> bool {
        self.meta.get("hsts").and_then(serde_json::Value::as_bool) == Some(true)
    }

    /// The owner counts visitors (`meta.analytics`): on unless turned off.
    pub fn analytics(&self) -> bool {
        self.meta
            .get("analytics")
            .and_then(serde_json::Value::as_bool)
            != Some(false)
    }
}

/// Opens the project's publication period (see `publications`) unless one is open, inside an
/// open transaction: the monthly billing charges sites that were on line during the month.
///
/// `open_publication!(tx, project_id)` expands to an expression that runs the `INSERT INTO
/// publications` on `tx`, awaits it and evaluates to a `Result`. A macro rather than a
/// function because `tx` is a SQLite or a PostgreSQL transaction depending on the arm of
/// `dispatch!` it expands in (see the store's module doc).
macro_rules! open_publication {
    ($tx:expr, $project:expr) => {
        sqlx::query(
            "INSERT INTO publications (project_id, user_id, name, started_at) \
             SELECT id, user_id, name, $2 FROM projects WHERE id = $1 AND NOT EXISTS \
             (SELECT 1 FROM publications WHERE project_id = $1 AND ended_at IS NULL)",
        )
        .bind::<$crate::ids::ProjectId>($project)
        .bind(now())
        .execute(&mut *$tx)
        .await
        .map_err(map_err)
    };
}

/// Closes the project's open publication period, inside an open transaction.
///
/// `close_publication!(tx, project_id)` expands to an expression that runs the `UPDATE
/// publications` on `tx`, awaits it and evaluates to a `Result`. A macro rather than a
/// function because `tx` is a SQLite or a PostgreSQL transaction depending on the arm of
/// `dispatch!` it expands in (see the store's module doc).
macro_rules! close_publication {
    ($tx:expr, $project:expr) => {
        sqlx::query(
            "UPDATE publications SET ended_at = $2 WHERE project_id = $1 AND ended_at IS NULL",
        )
        .bind::<$crate::ids::ProjectId>($project)
        .bind(now())
        .execute(&mut *$tx)
        .await
        .map_err(map_err)
    };
}
pub(crate) use close_publication;

/// Appends to the change feed inside an open transaction, so the change is seen exactly when
/// the write it announces commits.
///
/// `push_change!(tx, project_id, kind, key)` expands to an expression that runs the `INSERT
/// INTO changes` on `tx`, awaits it and evaluates to a `Result`. A macro rather than a
/// function because `tx` is a SQLite or a PostgreSQL transaction depending on the arm of
/// `dispatch!` it expands in (see the store's module doc).
macro_rules! push_change {
    ($tx:expr, $project:expr, $kind:expr, $key:expr) => {
        sqlx::query(
            "INSERT INTO changes (project_id, kind, key, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind::<$crate::ids::ProjectId>($project)
        .bind::<&str>($kind)
        .bind::<&str>($key)
        .bind(now())
        .execute(&mut *$tx)
        .await
        .map_err(map_err)
    };
}
pub(crate) use push_change;

impl Store {
    // ----- deploys -------------------------------------------------------------------------

    /// Starts a deploy in the `building` state.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn create_deploy(
        &self,
        project_id: ProjectId,
        user_id: Option<AccountId>,
    ) -> Result<Deploy> {
        let sql = format!(
            "INSERT INTO deploys (project_id, status, created_by, created_at) \
             VALUES ($1, 'building', $2, $3) RETURNING {DEPLOY_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, Deploy>(trusted(&sql))
            .bind(project_id).bind(user_id).bind(now())
            .fetch_one(p).await.map_err(map_err))
    }

    /// Marks a complete deploy ready and makes it the live one, in one transaction.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn finish_deploy(
        &self,
        deploy_id: DeployId,
        manifest_key: &str,
        files: i64,
        bytes: i64,
    ) -> Result<Deploy> {
        let sql = format!(
            "UPDATE deploys \
             SET status = 'ready', manifest_key = $1, files = $2, bytes = $3, finished_at = $4 \
             WHERE id = $5 AND status = 'building' RETURNING {DEPLOY_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let deploy = sqlx::query_as::<_, Deploy>(trusted(&sql))
                .bind(manifest_key).bind(files).bind(bytes).bind(now()).bind(deploy_id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            sqlx::query("UPDATE projects \
                         SET active_deploy_id = $1, is_published = TRUE, updated_at = $2 \
                         WHERE id = $3")
                .bind(deploy.id).bind(now()).bind(deploy.project_id)
                .execute(&mut *tx).await.map_err(map_err)?;
            open_publication!(tx, deploy.project_id)?;
            push_change!(tx, deploy.project_id, "deploy", &deploy.id.to_string())?;
            tx.commit().await.map_err(map_err)?;
            Ok(deploy)
        })
    }

    /// Records why a build failed (`error`, in English; its `code` and the values it names,
    /// for the dashboard's translation); the live site is untouched.
    #[tracing::instrument(level = "debug", skip(self, params), err(level = "debug"))]
    pub async fn fail_deploy(
        &self,
        deploy_id: DeployId,
        error: &str,
        code: ErrorCode,
        params: &Params,
    ) -> Result<()> {
        let params = Json(Value::Object(params.clone()));
        dispatch!(self, p => sqlx::query(
            "UPDATE deploys SET status = 'failed', error = $1, error_code = $2, error_params = $3, \
             finished_at = $4 WHERE id = $5")
            .bind(error).bind(code.as_str()).bind(&params).bind(now()).bind(deploy_id)
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Marks builds started before `before` and still `building` as failed: their process
    /// stopped half-way (a crash or a restart), and a build is never that slow. Returns how
    /// many were marked. The live site is untouched, as for any failed build.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn fail_stale_deploys(&self, before: DateTime<Utc>) -> Result<u64> {
        dispatch!(self, p => sqlx::query(
            "UPDATE deploys SET status = 'failed', error = $1, error_code = $2, finished_at = $3 \
             WHERE status = 'building' AND created_at < $4")
            .bind(INTERRUPTED_BUILD)
            .bind(ErrorCode::BuildInterrupted.as_str())
            .bind(now()).bind(before)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))
    }

    /// Deploys that retention lets go, oldest first: per project, `ready` deploys beyond the
    /// newest `keep` ready ones, and `failed` deploys finished before `failed_before`. The
    /// active deploy and builds in progress are never among them.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn prunable_deploys(
        &self,
        keep: i64,
        failed_before: DateTime<Utc>,
    ) -> Result<Vec<Deploy>> {
        let sql = format!(
            "SELECT {DEPLOY_COLUMNS} FROM ( \
               SELECT {DEPLOY_COLUMNS}, \
                 ROW_NUMBER() OVER (PARTITION BY project_id ORDER BY id DESC) AS newer \
               FROM deploys WHERE status = 'ready') ranked \
             WHERE newer > $1 \
               AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.active_deploy_id = ranked.id) \
             UNION ALL \
             SELECT {DEPLOY_COLUMNS} FROM deploys d \
             WHERE status = 'failed' AND COALESCE(finished_at, created_at) < $2 \
               AND NOT EXISTS (SELECT 1 FROM projects p WHERE p.active_deploy_id = d.id) \
             ORDER BY id"
        );
        dispatch!(self, p => sqlx::query_as::<_, Deploy>(trusted(&sql))
            .bind(keep).bind(failed_before)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Deletes a deploy's row unless it became active or is building meanwhile. Returns
    /// whether it went. Its objects must be deleted first (see the control plane's
    /// housekeeping), so no row ever points at missing objects: those under its
    /// `manifest::deploy_prefix`, which no other deploy names. Pages and assets under
    /// `sites/{project}/` are shared by later deploys and never go with one (`site`'s layout).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_deploy(&self, deploy_id: DeployId) -> Result<bool> {
        dispatch!(self, p => sqlx::query(
            "DELETE FROM deploys WHERE id = $1 AND status <> 'building' \
             AND NOT EXISTS (SELECT 1 FROM projects WHERE active_deploy_id = $1)")
            .bind(deploy_id)
            .execute(p).await.map(|r| r.rows_affected() > 0).map_err(map_err))
    }

    /// A project's deploys, newest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn list_deploys(&self, project_id: ProjectId, limit: i64) -> Result<Vec<Deploy>> {
        let sql = format!(
            "SELECT {DEPLOY_COLUMNS} FROM deploys WHERE project_id = $1 ORDER BY id DESC LIMIT $2"
        );
        dispatch!(self, p => sqlx::query_as::<_, Deploy>(trusted(&sql))
            .bind(project_id).bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn deploy_by_id(&self, id: DeployId) -> Result<Deploy> {
        let sql = format!("SELECT {DEPLOY_COLUMNS} FROM deploys WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Deploy>(trusted(&sql))
            .bind(id).fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// The project's live deploy id, if any.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn active_deploy_id(&self, project_id: ProjectId) -> Result<Option<DeployId>> {
        dispatch!(self, p => sqlx::query_scalar::<_, Option<DeployId>>(
            "SELECT active_deploy_id FROM projects WHERE id = $1")
            .bind(project_id).fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Rolls back (or forward) to an earlier ready deploy of the same project, at once.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn activate_deploy(
        &self,
        project_id: ProjectId,
        deploy_id: DeployId,
    ) -> Result<Deploy> {
        let deploy = self.deploy_by_id(deploy_id).await?;
        if deploy.project_id != project_id || deploy.status != DeployStatus::Ready {
            return Err(StoreError::NotFound);
        }
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            sqlx::query("UPDATE projects \
                         SET active_deploy_id = $1, is_published = TRUE, updated_at = $2 \
                         WHERE id = $3")
                .bind(deploy.id).bind(now()).bind(project_id)
                .execute(&mut *tx).await.map_err(map_err)?;
            open_publication!(tx, project_id)?;
            push_change!(tx, project_id, "deploy", &deploy.id.to_string())?;
            tx.commit().await.map_err(map_err)
        })?;
        Ok(deploy)
    }

    /// Takes a site down. The deploys stay, so publishing or rolling back brings it back.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn unpublish_project(&self, project_id: ProjectId) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let n = sqlx::query("UPDATE projects SET is_published = FALSE, updated_at = $1 \
                                 WHERE id = $2")
                .bind(now()).bind(project_id)
                .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            close_publication!(tx, project_id)?;
            push_change!(tx, project_id, "deploy", "")?;
            tx.commit().await.map_err(map_err)
        })
    }

    // ----- change feed ---------------------------------------------------------------------

    /// Appends one change on its own (for writes that are a single statement elsewhere).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn append_change(&self, project_id: ProjectId, kind: &str, key: &str) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            push_change!(tx, project_id, kind, key)?;
            tx.commit().await.map_err(map_err)
        })
    }

    /// Changes after `after_id`, oldest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn changes_since(&self, after_id: i64, limit: i64) -> Result<Vec<Change>> {
        dispatch!(self, p => sqlx::query_as::<_, Change>(
            "SELECT id, project_id, kind, key FROM changes WHERE id > $1 ORDER BY id LIMIT $2")
            .bind(after_id).bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    /// The newest change id (0 when the feed is empty): where a starting edge begins.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn last_change_id(&self) -> Result<i64> {
        dispatch!(self, p => sqlx::query_scalar::<_, Option<i64>>("SELECT MAX(id) FROM changes")
            .fetch_one(p).await.map_err(map_err))
        .map(|id| id.unwrap_or(0))
    }

    /// Drops changes older than `before`, keeping the newest row so ids never restart.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn prune_changes(&self, before: DateTime<Utc>) -> Result<u64> {
        dispatch!(self, p => sqlx::query(
            "DELETE FROM changes WHERE created_at < $1 AND id < (SELECT MAX(id) FROM changes)")
            .bind(before).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))
    }

    // ----- the edge's view -----------------------------------------------------------------

    /// The site behind a preview slug (`{slug}.{platform domain}`).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn site_by_slug(&self, slug: &str) -> Result<Option<SiteRow>> {
        self.site_where("p.slug = $1", slug).await
    }

    /// The site behind a custom-domain host (already lower-case): the project holding the
    /// host's unit, i.e. whose verified domain is the host or its `www.` twin. The unit is
    /// unique in the database, so a twin can never answer for anyone but its holder.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn site_by_domain(&self, host: &str) -> Result<Option<SiteRow>> {
        self.site_where(
            "p.verified = TRUE AND p.domain_unit = $1",
            crate::domain::domain_unit(host),
        )
        .await
    }

    async fn site_where(&self, condition: &'static str, value: &str) -> Result<Option<SiteRow>> {
        let sql = format!(
            "SELECT p.id AS project_id, p.slug, p.is_published, \
             p.active_deploy_id, d.manifest_key, p.meta, \
             u.id AS owner_id, u.business_id, \
             CASE WHEN p.verified = TRUE THEN p.verified_domain ELSE NULL END AS verified_domain \
             FROM projects p \
             JOIN users u ON u.id = p.user_id \
             LEFT JOIN deploys d ON d.id = p.active_deploy_id \
             WHERE {condition}"
        );
        dispatch!(self, p => sqlx::query_as::<_, SiteRow>(trusted(&sql))
            .bind(value).fetch_optional(p).await.map_err(map_err))
    }
}
