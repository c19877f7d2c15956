//! Prometheus metrics served at `/metrics` on the admin listener.
//!
//! `prometheus-client` is the Prometheus project's own Rust client: typed counters and label
//! sets, lock-free increments on the hot path, and the text exposition format without a global
//! registry (each [`crate::Edge`] has its own, so tests in one process do not mix counts).
//!
//! **Per-thread counts.** What every visitor request counts (its status class and host kind,
//! its latency, a hot-route hit) goes first to its visitor thread's [`Shard`]: counters that
//! only that thread writes, so a request never takes a label map's lock, hashes a label set
//! or writes a cache line another core writes too. [`Metrics::fold`] moves the shards' counts
//! into the shared families; it runs before every export and every heartbeat, so whatever
//! reads the metrics sees every request answered until then.

use std::{
    collections::VecDeque,
    sync::{
        Arc, Mutex,
        atomic::{AtomicI64, AtomicU64, Ordering},
    },
    time::Duration,
};

use chrono::Utc;
use prometheus_client::{
    encoding::{EncodeLabelSet, EncodeLabelValue, text::encode},
    metrics::{counter::Counter, family::Family, gauge::Gauge},
    registry::Registry,
};
use vitrine_shared::{
    latency::{Latency, status_class},
    store::EdgeError,
};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabels {
    /// `2xx`, `3xx`, `4xx`, `5xx` or `other`.
    pub class: &'static str,
    /// `platform` (`{slug}.{platform domain}`), `custom` (any other name) or `none` (no
    /// usable Host header, or an IP address).
    pub host: &'static str,
}

/// The caches whose hits and misses are counted.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum CacheName {
    /// A visitor thread's hot routes ([`crate::hot`]); counted on hits only, since every
    /// miss goes on to the other caches.
    route,
    site,
    /// Whether a name has a certificate, for the HTTP → HTTPS redirect ([`crate::tls`]).
    https,
    manifest,
    file,
    render,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CacheLabels {
    pub cache: CacheName,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ReasonLabels {
    pub reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ResultLabels {
    pub result: &'static str,
}

/// How many 5xx answers the heartbeat keeps for the ops screen.
const RECENT_ERRORS: usize = 20;

/// Every counter the edge keeps.
pub struct Metrics {
    registry: Registry,
    requests: Family<StatusLabels, Counter>,
    /// Visitor request latency, from the request's arrival to its response head.
    pub latency: Latency,
    /// Totals for the heartbeat (the families above are for Prometheus, by label).
    served: AtomicU64,
    failed: AtomicU64,
    hits_total: AtomicU64,
    misses_total: AtomicU64,
    recent_errors: Mutex<VecDeque<EdgeError>>,
    /// Entries per cache, and each cache's hit ratio, set when `/metrics` is read.
    pub cache_entries: Family<CacheLabels, Gauge>,
    pub cache_hit_ratio: Family<CacheLabels, Gauge<f64, AtomicU64>>,
    /// Form submissions waiting in the disk spool, set when `/metrics` is read.
    pub spool_depth: Gauge,
    /// When the change feed was last read to its end (Unix ms; 0: not yet).
    feed_caught_up_ms: AtomicI64,
    /// How many times the change feed has been read to its end (for waits on the feed).
    feed_reads: AtomicU64,
    feed_lag: Gauge<f64, AtomicU64>,
    hits: Family<CacheLabels, Counter>,
    misses: Family<CacheLabels, Counter>,
    pub render_errors: Counter,
    /// `sitemap.xml` documents built from the database (a cached one costs none).
    pub sitemaps_built: Counter,
    render_budget_exceeded: Family<ReasonLabels, Counter>,
    renders_refused: Family<ReasonLabels, Counter>,
    pub spooled_submissions: Counter,
    /// Form notifications not queued: their recipient had had its hourly share.
    pub capped_notifications: Counter,
    /// Bytes in the form spool (set by the spool as it changes).
    pub spool_bytes: Gauge,
    form_refusals: Family<ReasonLabels, Counter>,
    form_dead_letters: Family<ResultLabels, Counter>,
    /// Database calls that failed at the edge, by what kind of failure (only `outage` opens
    /// the breaker, see [`crate::sites`]).
    db_failures: Family<ReasonLabels, Counter>,
    pub stale_served: Counter,
    /// Entries reloaded in the background before their end ([`crate::spread::Timed`]).
    reloads: Family<CacheLabels, Counter>,
    /// Visitor requests the plain HTTP/1.1 front answered without hyper's codec ([`crate::h1`]).
    front_answers: Counter,
    tls_handshakes: Family<ResultLabels, Counter>,
    acme_events: Family<ResultLabels, Counter>,
    /// Connections closed by their watchdog ([`crate::liveness`]), by reason.
    connections_closed: Family<ReasonLabels, Counter>,
    /// Certificates held in this node's memory.
    pub certificates_held: Gauge,
    shards: Mutex<Vec<Arc<Shard>>>,
}

/// Status classes and host kinds, as [`Shard`] indexes them.
const CLASSES: [&str; 5] = ["2xx", "3xx", "4xx", "5xx", "other"];
const HOST_KINDS: [&str; 3] = ["platform", "custom", "none"];

/// One visitor thread's counts (see the module docs).
#[derive(Default)]
pub struct Shard {
    requests: [[AtomicU64; HOST_KINDS.len()]; CLASSES.len()],
    latency: Latency,
    route_hits: AtomicU64,
    front_answers: AtomicU64,
}

impl Shard {
    /// Counts one visitor request. `host`: one of [`crate::request::host_kind`]'s answers.
    pub fn request(&self, status: u16, host: &'static str, elapsed: Duration) {
        self.latency.observe(elapsed);
        let class = CLASSES
            .iter()
            .position(|c| *c == status_class(status))
            .unwrap_or(CLASSES.len() - 1);
        let kind = HOST_KINDS
            .iter()
            .position(|k| *k == host)
            .unwrap_or(HOST_KINDS.len() - 1);
        self.requests[class][kind].fetch_add(1, Ordering::Relaxed);
    }

    /// A request answered from the thread's hot routes.
    pub fn route_hit(&self) {
        self.route_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// A request the plain HTTP/1.1 front answered, from a hot route or the full path.
    pub fn front_answer(&self) {
        self.front_answers.fetch_add(1, Ordering::Relaxed);
    }
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("vitrine_edge");
        let requests = Family::<StatusLabels, Counter>::default();
        let hits = Family::<CacheLabels, Counter>::default();
        let misses = Family::<CacheLabels, Counter>::default();
        let render_errors = Counter::default();
        let sitemaps_built = Counter::default();
        registry.register(
            "sitemaps_built",
            "sitemap.xml documents built from the database (served from the render cache until the records change)",
            sitemaps_built.clone(),
        );
        let render_budget_exceeded = Family::<ReasonLabels, Counter>::default();
        let renders_refused = Family::<ReasonLabels, Counter>::default();
        let spooled_submissions = Counter::default();
        let capped_notifications = Counter::default();
        registry.register(
            "form_notifications_capped",
            "Form notifications not sent because their recipient had been sent FORM_NOTIFICATIONS_PER_RECIPIENT_PER_HOUR in the last hour (the submissions are in the form history)",
            capped_notifications.clone(),
        );
        let stale_served = Counter::default();
        let reloads = Family::<CacheLabels, Counter>::default();
        registry.register(
            "cache_reloads",
            "Cache entries reloaded from the database in the background, ahead of their end, while visitors were answered from them",
            reloads.clone(),
        );
        let front_answers = Counter::default();
        registry.register(
            "front_answers",
            "Visitor requests the plain HTTP/1.1 front answered (hot routes and full path) without hyper's HTTP/1 codec",
            front_answers.clone(),
        );
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
            "render_budget_exceeded",
            "Renders stopped for going over a budget, by reason: output (5 MB), memory, time (visitors got the 500 page)",
            render_budget_exceeded.clone(),
        );
        registry.register(
            "renders_refused",
            "Page renders not run, by reason: visitor_rate (the visitor's uncached renders this minute, 429), busy (no worker in time or the account's line full, 503), short_circuit (the page's template kept failing its budget in this deploy, 500)",
            renders_refused.clone(),
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
        let spool_bytes = Gauge::default();
        let form_refusals = Family::<ReasonLabels, Counter>::default();
        let form_dead_letters = Family::<ResultLabels, Counter>::default();
        let db_failures = Family::<ReasonLabels, Counter>::default();
        registry.register(
            "form_spool_bytes",
            "Bytes in the form spool (capped by EDGE_SPOOL_MAX_BYTES)",
            spool_bytes.clone(),
        );
        registry.register(
            "form_refusals",
            "Form submissions refused, by reason (rate_limited, site_rate_limited, spool_full, rejected, invalid_form, too_large, ...)",
            form_refusals.clone(),
        );
        registry.register(
            "form_dead_letters",
            "Form submissions the database refused (live or on replay) moved to the dead-letter file (written), or lost because it was full (dropped)",
            form_dead_letters.clone(),
        );
        registry.register(
            "db_failures",
            "Failed database calls by kind: outage (opens the breaker), slow_query, input, other",
            db_failures.clone(),
        );
        let tls_handshakes = Family::<ResultLabels, Counter>::default();
        let acme_events = Family::<ResultLabels, Counter>::default();
        let certificates_held = Gauge::default();
        let connections_closed = Family::<ReasonLabels, Counter>::default();
        registry.register(
            "connections_closed",
            "Connections the edge closed itself: idle (no request in progress for EDGE_IDLE_TIMEOUT_MS) or write_timeout (a write blocked for EDGE_WRITE_TIMEOUT_MS)",
            connections_closed.clone(),
        );
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
        let latency = Latency::default();
        registry.register(
            "request_duration_seconds",
            "Visitor request latency until the response head",
            latency.clone(),
        );
        let cache_entries = Family::<CacheLabels, Gauge>::default();
        let cache_hit_ratio = Family::<CacheLabels, Gauge<f64, AtomicU64>>::default();
        let spool_depth = Gauge::default();
        let feed_lag = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "cache_entries",
            "Entries in each cache",
            cache_entries.clone(),
        );
        registry.register(
            "cache_hit_ratio",
            "Hits over lookups of each cache since the node started",
            cache_hit_ratio.clone(),
        );
        registry.register(
            "form_spool_depth",
            "Form submissions waiting in the disk spool for the database",
            spool_depth.clone(),
        );
        registry.register(
            "change_feed_lag_seconds",
            "Seconds since the change feed was last read to its end (how stale the caches may be)",
            feed_lag.clone(),
        );
        Metrics {
            registry,
            latency,
            served: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            hits_total: AtomicU64::new(0),
            misses_total: AtomicU64::new(0),
            recent_errors: Mutex::new(VecDeque::with_capacity(RECENT_ERRORS)),
            cache_entries,
            cache_hit_ratio,
            spool_depth,
            feed_caught_up_ms: AtomicI64::new(0),
            feed_reads: AtomicU64::new(0),
            feed_lag,
            tls_handshakes,
            acme_events,
            connections_closed,
            certificates_held,
            requests,
            hits,
            misses,
            render_errors,
            sitemaps_built,
            render_budget_exceeded,
            renders_refused,
            spooled_submissions,
            capped_notifications,
            spool_bytes,
            form_refusals,
            form_dead_letters,
            db_failures,
            stale_served,
            reloads,
            front_answers,
            shards: Mutex::new(Vec::new()),
        }
    }
}

impl Metrics {
    /// A new visitor thread's counts, folded into these from now on.
    pub fn shard(&self) -> Arc<Shard> {
        let shard = Arc::new(Shard::default());
        self.shards.lock().expect("shards lock").push(shard.clone());
        shard
    }

    /// Moves every shard's counts into the shared families and totals.
    pub fn fold(&self) {
        let shards = self.shards.lock().expect("shards lock").clone();
        for shard in shards {
            self.latency.absorb(&shard.latency);
            for (class, row) in CLASSES.iter().zip(&shard.requests) {
                for (host, count) in HOST_KINDS.iter().zip(row) {
                    let n = count.swap(0, Ordering::Relaxed);
                    if n > 0 {
                        self.served.fetch_add(n, Ordering::Relaxed);
                        self.requests
                            .get_or_create(&StatusLabels { class, host })
                            .inc_by(n);
                    }
                }
            }
            self.front_answers
                .inc_by(shard.front_answers.swap(0, Ordering::Relaxed));
            let hits = shard.route_hits.swap(0, Ordering::Relaxed);
            if hits > 0 {
                self.hits_total.fetch_add(hits, Ordering::Relaxed);
                self.hits
                    .get_or_create(&CacheLabels {
                        cache: CacheName::route,
                    })
                    .inc_by(hits);
            }
        }
    }

    /// Remembers a 5xx answer for the ops screen (also counted by [`Shard::request`]).
    pub fn server_error(&self, status: u16, host: &str, path: &str) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        let mut recent = self.recent_errors.lock().expect("recent errors lock");
        if recent.len() == RECENT_ERRORS {
            recent.pop_front();
        }
        recent.push_back(EdgeError {
            at: Utc::now(),
            status,
            host: host.chars().take(255).collect(),
            path: path.chars().take(255).collect(),
        });
    }

    /// Requests and 5xx answers since the node started.
    pub fn totals(&self) -> (u64, u64) {
        (
            self.served.load(Ordering::Relaxed),
            self.failed.load(Ordering::Relaxed),
        )
    }

    /// Hits over lookups across every cache, `None` before the first lookup.
    pub fn overall_hit_ratio(&self) -> Option<f64> {
        let hits = self.hits_total.load(Ordering::Relaxed);
        let all = hits + self.misses_total.load(Ordering::Relaxed);
        (all > 0).then(|| hits as f64 / all as f64)
    }

    pub fn recent_errors(&self) -> Vec<EdgeError> {
        self.recent_errors
            .lock()
            .expect("recent errors lock")
            .iter()
            .cloned()
            .collect()
    }

    /// The change feed has just been read to its end.
    pub fn feed_caught_up(&self) {
        self.feed_caught_up_ms
            .store(Utc::now().timestamp_millis(), Ordering::Relaxed);
        self.feed_reads.fetch_add(1, Ordering::Release);
    }

    /// How many times the change feed has been read to its end. A read counted after a wait
    /// began by two more than when it began started after it (the one in progress then counts
    /// once at most), so it saw everything committed before the wait.
    pub fn feed_reads(&self) -> u64 {
        self.feed_reads.load(Ordering::Acquire)
    }

    /// Seconds since the feed was last read to its end; `None` before the first read.
    pub fn feed_lag_seconds(&self) -> Option<f64> {
        match self.feed_caught_up_ms.load(Ordering::Relaxed) {
            0 => None,
            at => Some((Utc::now().timestamp_millis() - at).max(0) as f64 / 1000.0),
        }
    }

    /// Folds the shards and sets the gauges that are read from elsewhere (cache sizes, spool
    /// depth, feed lag), just before an export.
    pub fn refresh(&self, caches: &[(CacheName, u64)], spool_depth: usize) {
        self.fold();
        for &(cache, entries) in caches {
            let labels = CacheLabels { cache };
            self.cache_entries
                .get_or_create(&labels)
                .set(i64::try_from(entries).unwrap_or(i64::MAX));
            let hits = self.hits.get_or_create(&labels).get();
            let misses = self.misses.get_or_create(&labels).get();
            if hits + misses > 0 {
                self.cache_hit_ratio
                    .get_or_create(&labels)
                    .set(hits as f64 / (hits + misses) as f64);
            }
        }
        self.spool_depth
            .set(i64::try_from(spool_depth).unwrap_or(i64::MAX));
        if let Some(lag) = self.feed_lag_seconds() {
            self.feed_lag.set(lag);
        }
    }

    pub fn cache(&self, cache: CacheName, hit: bool) {
        let (family, total) = if hit {
            (&self.hits, &self.hits_total)
        } else {
            (&self.misses, &self.misses_total)
        };
        total.fetch_add(1, Ordering::Relaxed);
        family.get_or_create(&CacheLabels { cache }).inc();
    }

    /// An entry of `cache` reloaded in the background ([`crate::spread::Timed`]).
    pub fn reloaded(&self, cache: CacheName) {
        self.reloads.get_or_create(&CacheLabels { cache }).inc();
    }

    /// A render stopped for going over a budget (`output`, `memory`, `time`).
    pub fn render_budget_exceeded(&self, reason: &'static str) {
        self.render_budget_exceeded
            .get_or_create(&ReasonLabels { reason })
            .inc();
    }

    pub fn renders_refused(&self, reason: &'static str) {
        self.renders_refused
            .get_or_create(&ReasonLabels { reason })
            .inc();
    }

    pub fn tls_handshake(&self, result: &'static str) {
        self.tls_handshakes
            .get_or_create(&ResultLabels { result })
            .inc();
    }

    /// A connection closed by its watchdog; `reason`: [`crate::liveness::Expired::label`].
    pub fn connection_closed(&self, reason: &'static str) {
        self.connections_closed
            .get_or_create(&ReasonLabels { reason })
            .inc();
    }

    /// A form submission refused; `reason` is its answer's code.
    pub fn form_refused(&self, reason: &'static str) {
        self.form_refusals
            .get_or_create(&ReasonLabels { reason })
            .inc();
    }

    /// A dead-lettered submission: `written` or `dropped`.
    pub fn dead_letter(&self, result: &'static str) {
        self.form_dead_letters
            .get_or_create(&ResultLabels { result })
            .inc();
    }

    /// A failed database call: `outage`, `slow_query`, `input` or `other`.
    pub fn db_failure(&self, reason: &'static str) {
        self.db_failures
            .get_or_create(&ReasonLabels { reason })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_fold_into_the_exported_counters_once() {
        let m = Metrics::default();
        let (a, b) = (m.shard(), m.shard());
        a.request(200, "platform", Duration::from_micros(100));
        a.request(200, "platform", Duration::from_micros(100));
        b.request(404, "custom", Duration::from_millis(2));
        b.request(503, "none", Duration::from_millis(2));
        a.route_hit();
        assert_eq!(m.totals().0, 0, "nothing is exported before a fold");
        m.refresh(&[], 0);
        let text = m.encode();
        for line in [
            "vitrine_edge_requests_total{class=\"2xx\",host=\"platform\"} 2",
            "vitrine_edge_requests_total{class=\"4xx\",host=\"custom\"} 1",
            "vitrine_edge_requests_total{class=\"5xx\",host=\"none\"} 1",
            "vitrine_edge_cache_hits_total{cache=\"route\"} 1",
            "vitrine_edge_request_duration_seconds_count 4",
        ] {
            assert!(text.contains(line), "{line} missing from:\n{text}");
        }
        assert_eq!(m.totals().0, 4);
        // A second fold adds only what came since.
        a.request(301, "platform", Duration::from_micros(50));
        m.fold();
        m.fold();
        assert_eq!(m.totals().0, 5);
        assert_eq!(m.latency.snapshot().count(), 5);
        assert_eq!(m.overall_hit_ratio(), Some(1.0));
    }
}
