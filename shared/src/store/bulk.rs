//! Many live sites at once, for load generators: the scale benchmark
//! (`benches/benches/sites_scale.rs`) writes 100,000 published sites through here and the
//! object store rather than through 100,000 HTTP publishes, which would measure the control
//! plane instead of the edge.
//!
//! A site written here is what a finished publish leaves for the edge: a project with a
//! `ready` deploy that is its active one. What a publish does besides is left out on purpose:
//! no change-feed entry (no edge is running while a generator fills a database), no billing
//! period and no pages or collections rows (the edge reads none of them for a static page).

use super::BeginWrite;
use super::{Json, Result, Store, dispatch, map_err, now};
use crate::ids::{AccountId, DeployId, ProjectId};

/// One site for [`Store::insert_live_sites`]: its slug, which, being unique, is also the
/// project's name, token and uuid, and its deploy's size.
#[derive(Debug, Clone, Copy)]
pub struct LiveSite<'a> {
    pub slug: &'a str,
    /// Objects and bytes the deploy wrote (as [`Store::finish_deploy`] records them).
    pub files: i64,
    pub bytes: i64,
}

/// Ids of a site [`Store::insert_live_sites`] wrote; its manifest belongs at
/// `crate::manifest::manifest_key(project_id, deploy_id)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveIds {
    pub project_id: ProjectId,
    pub deploy_id: DeployId,
}

impl Store {
    /// Writes `sites` as published projects of `user_id`, each with a ready, active deploy
    /// whose manifest key is `crate::manifest::manifest_key`, all in one transaction: either every
    /// site exists afterwards or none does. Returns their ids in order. The caller writes each
    /// manifest and the objects it names (before an edge asks for them).
    #[tracing::instrument(level = "debug", skip(self, sites), fields(sites = sites.len()), err(level = "debug"))]
    pub async fn insert_live_sites(
        &self,
        user_id: AccountId,
        sites: &[LiveSite<'_>],
    ) -> Result<Vec<LiveIds>> {
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let mut ids = Vec::with_capacity(sites.len());
            for site in sites {
                let project_id: ProjectId = sqlx::query_scalar(
                    "INSERT INTO projects \
                     (user_id, name, slug, token, uuid, is_published, meta, created_at, \
                     updated_at) VALUES ($1, $2, $2, $2, $2, TRUE, $3, $4, $4) \
                     RETURNING id")
                    .bind(user_id).bind(site.slug)
                    .bind(Json(serde_json::json!({}))).bind(ts)
                    .fetch_one(&mut *tx).await.map_err(map_err)?;
                let deploy_id: DeployId = sqlx::query_scalar(
                    "INSERT INTO deploys \
                     (project_id, status, files, bytes, created_by, created_at, finished_at) \
                     VALUES ($1, 'ready', $2, $3, $4, $5, $5) RETURNING id")
                    .bind(project_id).bind(site.files).bind(site.bytes).bind(user_id).bind(ts)
                    .fetch_one(&mut *tx).await.map_err(map_err)?;
                sqlx::query("UPDATE deploys SET manifest_key = $1 WHERE id = $2")
                    .bind(crate::manifest::manifest_key(project_id, deploy_id)).bind(deploy_id)
                    .execute(&mut *tx).await.map_err(map_err)?;
                sqlx::query("UPDATE projects SET active_deploy_id = $1 WHERE id = $2")
                    .bind(deploy_id).bind(project_id)
                    .execute(&mut *tx).await.map_err(map_err)?;
                ids.push(LiveIds { project_id, deploy_id });
            }
            tx.commit().await.map_err(map_err)?;
            Ok(ids)
        })
    }
}
