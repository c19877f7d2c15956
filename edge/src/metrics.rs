//! Prometheus metrics served at `/metrics` on the admin listener.
//!
//! `prometheus-client` is the Prometheus project's own Rust client: typed counters and label
//! sets, lock-free increments on the hot path, and the text exposition format without a global
//! registry (each [`crate::Edge`] has its own, so tests in one process do not mix counts).

use prometheus_client::{
    encoding::{EncodeLabelSet, EncodeLabelValue, text::encode},
    metrics::{counter::Counter, family::Family, gauge::Gauge},
    registry::Registry,
};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabels {
    /// `2xx`, `3xx`, `4xx`, `5xx` or `other`.
    pub class: &'static str,
}

/// The caches whose hits and misses are counted.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum CacheName {
    site,
    manifest,
    file,
    render,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CacheLabels {
    pub cache: CacheName,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ResultLabels {
    pub result: &'static str,
}

/// Every counter the edge keeps.
pub struct Metrics {
    registry: Registry,
    requests: Family<StatusLabels, Counter>,
    hits: Family<CacheLabels, Counter>,
    misses: Family<CacheLabels, Counter>,
    pub render_errors: Counter,
    pub spooled_submissions: Counter,
    pub stale_served: Counter,
    tls_handshakes: Family<ResultLabels, Counter>,
    acme_events: Family<ResultLabels, Counter>,
    /// Certificates held in this node's memory.
    pub certificates_held: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("vitrine_edge");
        let requests = Family::<StatusLabels, Counter>::default();
        let hits = Family::<CacheLabels, Counter>::default();
        let misses = Family::<CacheLabels, Counter>::default();
        let render_errors = Counter::default();
        let spooled_submissions = Counter::default();
        let stale_served = Counter::default();
        registry.register(
            "requests",
            "Visitor requests by status class",
            requests.clone(),
        );
        registry.register("cache_hits", "Cache hits by cache", hits.clone());
        registry.register("cache_misses", "Cache misses by cache", misses.clone());
        registry.register(
            "render_errors",
            "Pages whose template failed at render (visitors got the 500 page)",
            render_errors.clone(),
        );
        registry.register(
            "spooled_submissions",
            "Form submissions written to the disk spool because the database was unreachable",
            spooled_submissions.clone(),
        );
        registry.register(
            "stale_sites_served",
            "Host lookups answered from an expired cache entry because the database was unreachable",
            stale_served.clone(),
        );
        let tls_handshakes = Family::<ResultLabels, Counter>::default();
        let acme_events = Family::<ResultLabels, Counter>::default();
        let certificates_held = Gauge::default();
        registry.register(
            "tls_handshakes",
            "TLS handshakes by how the certificate lookup ended (ok, no_sni, malformed_sni, unknown_name, no_certificate)",
            tls_handshakes.clone(),
        );
        registry.register(
            "acme",
            "ACME events: ordered, issued, failed, cap_reached",
            acme_events.clone(),
        );
        registry.register(
            "certificates_held",
            "Certificates loaded in this edge's memory",
            certificates_held.clone(),
        );
        Metrics {
            registry,
            tls_handshakes,
            acme_events,
            certificates_held,
            requests,
            hits,
            misses,
            render_errors,
            spooled_submissions,
            stale_served,
        }
    }
}

impl Metrics {
    pub fn request(&self, status: u16) {
        let class = match status {
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            500..=599 => "5xx",
            _ => "other",
        };
        self.requests.get_or_create(&StatusLabels { class }).inc();
    }

    pub fn cache(&self, cache: CacheName, hit: bool) {
        let family = if hit { &self.hits } else { &self.misses };
        family.get_or_create(&CacheLabels { cache }).inc();
    }

    pub fn tls_handshake(&self, result: &'static str) {
        self.tls_handshakes
            .get_or_create(&ResultLabels { result })
            .inc();
    }

    pub fn acme(&self, result: &'static str) {
        self.acme_events
            .get_or_create(&ResultLabels { result })
            .inc();
    }

    /// The text exposition format.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}
