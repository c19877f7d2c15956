//! The platform operators' view of the edge fleet (issue 8, `/erp/edges`): every node's last
//! heartbeat, with the ones that stopped reporting flagged stale.

use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use vitrine_shared::store::{EdgeNode, STALE_AFTER_SECONDS};

use crate::{
    accounts::auth::Admin,
    error::{ErrorBody, Result},
    extract::ApiJson,
    state::AppState,
};

#[derive(Debug, Serialize, ToSchema)]
pub struct EdgeView {
    #[serde(flatten)]
    pub node: EdgeNode,
    /// No heartbeat for `stale_after_seconds`.
    pub stale: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EdgesResponse {
    pub now: DateTime<Utc>,
    pub stale_after_seconds: i64,
    pub nodes: Vec<EdgeView>,
}

#[utoipa::path(get, path = "/api/edges", tag = "admin",
    responses((status = 200, body = EdgesResponse), (status = 403, body = ErrorBody)))]
pub async fn list_edges(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<EdgesResponse>> {
    let now = Utc::now();
    let nodes = state
        .store
        .edge_nodes()
        .await?
        .into_iter()
        .map(|node| EdgeView {
            stale: node.is_stale(now),
            node,
        })
        .collect();
    Ok(ApiJson(EdgesResponse {
        now,
        stale_after_seconds: STALE_AFTER_SECONDS,
        nodes,
    }))
}
