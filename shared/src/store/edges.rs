//! The edge fleet's heartbeats (issue 8): each edge node upserts its row every few seconds;
//! the ops screen lists them and flags the ones that stopped reporting.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::types::Json;

use super::{Result, Store, dispatch, map_err, trusted};

/// One 5xx answer an edge gave, kept in its ring of recent errors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EdgeError {
    pub at: DateTime<Utc>,
    pub status: u16,
    pub host: String,
    pub path: String,
}

/// What one heartbeat interval held: the requests and 5xx errors served in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct EdgePoint {
    pub at: DateTime<Utc>,
    pub requests: u64,
    pub errors: u64,
}

/// An edge node's last heartbeat. `requests` and `errors` count since the node started;
/// `p99_ms` is the latency over the last interval and `cache_hit_ratio` over the node's
/// life, each `None` until it has served something.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct EdgeNode {
    pub id: String,
    pub version: String,
    pub region: String,
    pub started_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub requests: i64,
    pub errors: i64,
    #[schema(required)]
    pub p99_ms: Option<f64>,
    #[schema(required)]
    pub cache_hit_ratio: Option<f64>,
    pub certificates: i64,
    #[schema(value_type = Vec<EdgeError>)]
    pub recent_errors: Json<Vec<EdgeError>>,
    #[schema(value_type = Vec<EdgePoint>)]
    pub history: Json<Vec<EdgePoint>>,
}

/// A node with no heartbeat for this long is stale (it stopped reporting).
pub const STALE_AFTER_SECONDS: i64 = 30;

impl EdgeNode {
    /// Whether the node is stale at `now`: no heartbeat for [`STALE_AFTER_SECONDS`].
    pub fn is_stale(&self, now: DateTime<Utc>) -> bool {
        (now - self.last_seen_at).num_seconds() >= STALE_AFTER_SECONDS
    }
}

const EDGE_COLUMNS: &str = "id, version, region, started_at, last_seen_at, requests, errors, \
     p99_ms, cache_hit_ratio, certificates, recent_errors, history";

impl Store {
    /// Records a heartbeat: inserts the node's row or replaces its figures.
    #[tracing::instrument(level = "debug", skip_all, fields(node = node.id.as_str()), err(level = "debug"))]
    pub async fn edge_heartbeat(&self, node: &EdgeNode) -> Result<()> {
        let sql = format!(
            "INSERT INTO edge_nodes ({EDGE_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
             ON CONFLICT (id) DO UPDATE \
             SET version = excluded.version, region = excluded.region, \
             started_at = excluded.started_at, last_seen_at = excluded.last_seen_at, \
             requests = excluded.requests, errors = excluded.errors, p99_ms = excluded.p99_ms, \
             cache_hit_ratio = excluded.cache_hit_ratio, \
             certificates = excluded.certificates, recent_errors = excluded.recent_errors, \
             history = excluded.history"
        );
        dispatch!(self, p => sqlx::query(trusted(&sql))
            .bind(&node.id).bind(&node.version).bind(&node.region)
            .bind(node.started_at).bind(node.last_seen_at)
            .bind(node.requests).bind(node.errors).bind(node.p99_ms).bind(node.cache_hit_ratio)
            .bind(node.certificates).bind(&node.recent_errors).bind(&node.history)
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Every node that ever reported, by id.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn edge_nodes(&self) -> Result<Vec<EdgeNode>> {
        let sql = format!("SELECT {EDGE_COLUMNS} FROM edge_nodes ORDER BY id");
        dispatch!(self, p => sqlx::query_as(trusted(&sql)).fetch_all(p).await.map_err(map_err))
    }

    /// Forgets nodes silent since before `before` (a retired node's row goes after a day).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn forget_edge_nodes(&self, before: DateTime<Utc>) -> Result<u64> {
        let done = dispatch!(self, p => sqlx::query(
            "DELETE FROM edge_nodes WHERE last_seen_at < $1")
            .bind(before).execute(p).await.map_err(map_err).map(|r| r.rows_affected()))?;
        Ok(done)
    }
}
