//! The control plane's Prometheus metrics, served at `/metrics` on its admin listener
//! (`CONTROL_ADMIN_LISTEN`), never on the public one.
//!
//! prometheus-client (the Prometheus project's Rust client, as on the edge): requests by
//! status class and route template (bounded cardinality: never the raw path), request
//! latency, what the background work finished (rounds of the mail, Conversion API and
//! domain-check workers; the pictures taken after a publish, by outcome), and figures read at
//! scrape time: the mail outbox and the edge fleet (live and stale nodes, so an alert can fire
//! when a node stops reporting).

use std::{sync::Arc, time::Instant};

use axum::{
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::Response,
};
use chrono::Utc;
use prometheus_client::{
    encoding::{EncodeLabelSet, text::encode},
    metrics::{counter::Counter, family::Family, gauge::Gauge},
    registry::Registry,
};
use vitrine_shared::{
    Store,
    latency::{Latency, status_class},
};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    class: &'static str,
    /// The route's template (`/api/projects/{id}`), or `other` for the dashboard's files
    /// and unknown paths.
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabels {
    state: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct WorkerLabels {
    worker: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ConfinementLabels {
    confinement: &'static str,
}

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Latency,
    outbox_pending: Gauge,
    edge_nodes: Family<StateLabels, Gauge>,
    worker_rounds: Family<WorkerLabels, Counter>,
    site_screenshots: Family<OutcomeLabels, Counter>,
    confinement: Family<ConfinementLabels, Gauge>,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("vitrine_control");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = Latency::default();
        let outbox_pending = Gauge::default();
        let edge_nodes = Family::<StateLabels, Gauge>::default();
        let worker_rounds = Family::<WorkerLabels, Counter>::default();
        let site_screenshots = Family::<OutcomeLabels, Counter>::default();
        let confinement = Family::<ConfinementLabels, Gauge>::default();
        registry.register(
            "http_requests",
            "Requests by status class and route",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Request latency until the response head",
            latency.clone(),
        );
        registry.register(
            "outbox_pending",
            "Mail waiting in the outbox",
            outbox_pending.clone(),
        );
        registry.register(
            "edge_nodes",
            "Edge nodes by heartbeat state (stale: none for 30 s)",
            edge_nodes.clone(),
        );
        registry.register(
            "worker_rounds",
            "Rounds the background workers finished (mail, conversions, domain_checks, uploads_collector), failed ones included",
            worker_rounds.clone(),
        );
        registry.register(
            "site_screenshots",
            "Pictures of a deploy's home page after a publish, by outcome: taken, none (nothing to picture), no_browser, failed, replaced (a newer deploy took its place in the queue), over_budget (the account's pictures of the hour were spent)",
            site_screenshots.clone(),
        );
        registry.register(
            "site_picture_confinement",
            "1 for what bounds each Chromium: cgroup-v2, cgroup-v1 or rlimits, +netns with a network namespace of its own",
            confinement.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            outbox_pending,
            edge_nodes,
            worker_rounds,
            site_screenshots,
            confinement,
        }
    }
}

impl Metrics {
    fn record(&self, status: u16, route: String, started: Instant) {
        self.latency.observe(started.elapsed());
        let class = status_class(status);
        self.requests
            .get_or_create(&RequestLabels { class, route })
            .inc();
    }

    /// A background worker finished a round.
    pub fn worker_round(&self, worker: &'static str) {
        self.worker_rounds
            .get_or_create(&WorkerLabels { worker })
            .inc();
    }

    /// A picture after a publish ended with `outcome`.
    pub fn site_screenshot(&self, outcome: &'static str) {
        self.site_screenshots
            .get_or_create(&OutcomeLabels { outcome })
            .inc();
    }

    /// What bounds each Chromium ([`crate::confine::Confiner::describe`]).
    pub fn confinement(&self, confinement: &'static str) {
        self.confinement
            .get_or_create(&ConfinementLabels { confinement })
            .set(1);
    }

    /// Reads the scrape-time figures from the database, then the text exposition.
    pub async fn export(&self, store: &Store) -> String {
        if let Ok((pending, _)) = store.outbox_counts().await {
            self.outbox_pending.set(pending);
        }
        if let Ok(nodes) = store.edge_nodes().await {
            let now = Utc::now();
            let stale = nodes.iter().filter(|n| n.is_stale(now)).count() as i64;
            self.edge_nodes
                .get_or_create(&StateLabels { state: "live" })
                .set(nodes.len() as i64 - stale);
            self.edge_nodes
                .get_or_create(&StateLabels { state: "stale" })
                .set(stale);
        }
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// Middleware: counts and times every request of the public listener.
pub async fn track(State(metrics): State<Arc<Metrics>>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "other".into());
    let res = next.run(req).await;
    metrics.record(res.status().as_u16(), route, started);
    res
}
