//! The node's heartbeat (issue 8): every `EDGE_HEARTBEAT_SECS` the edge upserts its row in
//! `edge_nodes` with its id, version, region and start time, its request and 5xx totals, the
//! p99 latency of the last interval, the cache hit ratio, the certificates it holds, its
//! recent 5xx answers and a ring of per-interval figures (the ops screen's chart). A node
//! whose row stops moving is flagged stale by the control plane.
//!
//! The database may be down: the beat is then skipped (the ring keeps growing in memory and
//! the next beat that gets through carries it).

use std::{collections::VecDeque, net::SocketAddr, sync::Arc, time::Duration};

use chrono::{DateTime, Utc};
use tokio::sync::watch;
use vitrine_shared::{
    Settings, Store,
    latency::LatencySnapshot,
    store::{EdgeNode, EdgePoint, Json},
};

use crate::{metrics::Metrics, tls::Certs};

/// Points kept in the chart's ring: ten minutes at the default interval.
pub const HISTORY: usize = 120;

pub struct Heartbeat {
    store: Store,
    metrics: Arc<Metrics>,
    certs: Arc<Certs>,
    every: Duration,
    id: String,
    region: String,
    started_at: DateTime<Utc>,
    last_latency: LatencySnapshot,
    last_totals: (u64, u64),
    history: VecDeque<EdgePoint>,
}

/// `EDGE_NODE_ID`, else `{hostname}:{http port}`.
fn node_id(settings: &Settings, http: SocketAddr) -> String {
    if !settings.edge_node_id.trim().is_empty() {
        return settings.edge_node_id.trim().to_string();
    }
    let host = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "edge".into());
    format!("{host}:{}", http.port())
}

impl Heartbeat {
    pub fn new(
        settings: &Settings,
        http: SocketAddr,
        store: Store,
        metrics: Arc<Metrics>,
        certs: Arc<Certs>,
    ) -> Heartbeat {
        Heartbeat {
            store,
            metrics,
            certs,
            every: Duration::from_secs(settings.edge_heartbeat_secs.max(1)),
            id: node_id(settings, http),
            region: settings.edge_region.clone(),
            started_at: Utc::now(),
            last_latency: LatencySnapshot::default(),
            last_totals: (0, 0),
            history: VecDeque::with_capacity(HISTORY),
        }
    }

    /// Beats at once, then every interval, until `stop` turns true.
    pub async fn run(mut self, mut stop: watch::Receiver<bool>) {
        loop {
            self.beat().await;
            tokio::select! {
                _ = tokio::time::sleep(self.every) => {}
                _ = stop.wait_for(|s| *s) => break,
            }
        }
    }

    /// The row as it stands now (advances the interval).
    pub async fn report(&mut self) -> EdgeNode {
        let now = Utc::now();
        self.metrics.fold();
        let latency = self.metrics.latency.snapshot();
        let interval = latency.since(&self.last_latency);
        self.last_latency = latency;
        let (requests, errors) = self.metrics.totals();
        let point = EdgePoint {
            at: now,
            requests: requests.saturating_sub(self.last_totals.0),
            errors: errors.saturating_sub(self.last_totals.1),
        };
        self.last_totals = (requests, errors);
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(point);
        self.certs.settle().await;
        EdgeNode {
            id: self.id.clone(),
            version: env!("CARGO_PKG_VERSION").into(),
            region: self.region.clone(),
            started_at: self.started_at,
            last_seen_at: now,
            requests: i64::try_from(requests).unwrap_or(i64::MAX),
            errors: i64::try_from(errors).unwrap_or(i64::MAX),
            p99_ms: interval.quantile(0.99).map(|s| s * 1000.0),
            cache_hit_ratio: self.metrics.overall_hit_ratio(),
            certificates: self.metrics.certificates_held.get(),
            recent_errors: Json(self.metrics.recent_errors()),
            history: Json(self.history.iter().cloned().collect()),
        }
    }

    async fn beat(&mut self) {
        let row = self.report().await;
        match tokio::time::timeout(Duration::from_secs(2), self.store.edge_heartbeat(&row)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::debug!(error = %e, "heartbeat not recorded"),
            Err(_) => tracing::debug!("heartbeat timed out"),
        }
    }
}
