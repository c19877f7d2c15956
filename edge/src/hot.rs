//! Each visitor thread's hot routes: the answer to a `GET`/`HEAD` of a deploy's static route,
//! of a page rendered from live records or of the read API, kept by the raw `Host` and path
//! the visitor sent (with the query, for the read API), so a repeat request skips every step
//! between the request line and the response (host normalising, the host, redirect and file
//! caches, the route table).
//!
//! This is the layer in front of the shared caches in [`crate::sites`], the way a CPU's L1
//! sits in front of a shared L2: one per visitor thread, guarded by a mutex that only its own
//! thread takes, so a hit touches no memory another core writes to. Only the change-feed
//! epoch is shared, and it is read, not written, per request. The shared moka caches stay the
//! source of truth and keep their own policy and limits; this layer only remembers what they
//! answered.
//!
//! What an entry holds is decided on the slow path: the site that served it, the file and its
//! precomputed headers, and the bodies of the representations visitors asked for (each
//! loaded when a request first asks for it: [`crate::serve::Prepared::load`]). Not the
//! deploy's manifest: entries are weighed by their bodies, so a manifest held here would
//! escape the manifest cache's byte budget.
//! An entry is used only while
//! - its project's site generation is the one the slow path saw ([`SiteSeen`]): every
//!   change-feed entry that can alter such an answer (a publish, unpublish, rollback, domain,
//!   redirect or certificate change; record edits cannot) moves its project's, so a change
//!   shows at once, and one tenant publishing again and again ends only its own entries. A
//!   slow path that raced with a change keeps no entry at all ([`crate::sites::Sites::unchanged_since`]);
//! - the edge's hot epoch is the one read before the slow path started: only a change that
//!   names no project (a certificate of none) moves it, and ends every entry;
//! - it is younger than a quarter of `EDGE_SITE_TTL_MS` ([`ttl`]);
//! - for a page rendered from live records (a collection page, a page with database-fed
//!   lists), its project's records generation is the one it was rendered under: a record edit
//!   ends it, as it ends the render cache's entry.
//!
//! Conditional requests, ranges and encodings are still answered per request from the entry
//! ([`crate::serve::static_file`]), so a hit answers exactly what the slow path would.
//!
//! quick_cache's unsynchronised cache holds the entries: a small, well-kept cache with a
//! scan-resistant policy (S3-FIFO) and weights, so each thread keeps the routes it serves
//! most within `EDGE_HOT_CACHE_BYTES` of bodies.

use std::{
    hash::Hash,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use compact_str::CompactString;
use quick_cache::{Equivalent, Weighter, unsync::Cache};

use crate::{
    metrics::Shard,
    serve::Prepared,
    sites::{RecordsSeen, Site, SiteSeen},
    spread,
};

/// Where a site's read API is: `/_api/collections/{slug}`.
pub const READ_API: &str = "/_api/collections/";

/// What a hot route is kept under besides the host: the path, and for the read API, whose
/// answer depends on its query, the path and the query. (A page's answer depends on no query
/// but the form confirmation's, which hot routes never answer.)
pub fn hot_path<'a>(path: &'a str, query: Option<&str>) -> std::borrow::Cow<'a, str> {
    match query {
        Some(q) if path.starts_with(READ_API) => format!("{path}?{q}").into(),
        _ => path.into(),
    }
}

/// What a visitor thread keeps for itself: its hot routes and its counts.
pub struct Local {
    pub hot: HotRoutes,
    pub counts: Arc<Shard>,
    /// The thread's visitor counts ([`crate::analytics`]).
    pub analytics: Arc<crate::analytics::Shard>,
}

/// One remembered answer.
pub struct HotRoute {
    /// The hot epoch read before the slow path that made this entry began.
    pub epoch: u64,
    /// Its project's site generation when that slow path ended.
    pub site_seen: SiteSeen,
    /// When that slow path began.
    pub made: Instant,
    /// The host's kind, for the request counter ([`crate::request::host_kind`]).
    pub host_kind: &'static str,
    pub site: Arc<Site>,
    pub file: Prepared,
    /// For a page rendered from records: the project's records generation it was rendered
    /// under; a record edit ends the entry.
    pub records: Option<RecordsSeen>,
}

/// The raw `Host` and path. compact_str keeps strings of up to 24 bytes inline (a preview
/// host and most paths), so comparing a key reads the cache's own slot rather than two more
/// heap allocations on every lookup.
#[derive(PartialEq, Eq)]
pub struct HotKey {
    host: CompactString,
    path: CompactString,
}

/// The borrowed form of [`HotKey`], for lookups without allocating.
struct HotKeyRef<'a> {
    host: &'a str,
    path: &'a str,
}

// Both hash as the two strings in order, as `Equivalent` requires.
impl Hash for HotKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.host.as_str().hash(state);
        self.path.as_str().hash(state);
    }
}

impl Hash for HotKeyRef<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.host.hash(state);
        self.path.hash(state);
    }
}

impl Equivalent<HotKey> for HotKeyRef<'_> {
    fn equivalent(&self, key: &HotKey) -> bool {
        self.host == key.host.as_str() && self.path == key.path.as_str()
    }
}

/// Entries weigh the bodies they hold outright, their heads and keys, at least 1 (a large
/// body they only name is the file cache's to weigh, see `serve::held`).
#[derive(Clone)]
struct BodyWeight;

impl Weighter<HotKey, Held> for BodyWeight {
    fn weight(&self, key: &HotKey, (_, route): &Held) -> u64 {
        (key.host.len() + key.path.len() + route.file.held_bytes()).max(1) as u64
    }
}

/// How long hot routes are used, for a host TTL of `site_ttl`: a quarter of it. A host entry
/// is reloaded in the background by the first read in the second half of its life
/// ([`crate::sites`]), a window at least 3/8 of the TTL long (lifetimes are spread over
/// its last quarter). Hot routes sit in front of the host cache, so its reads come only
/// when they end; ending every quarter TTL or sooner, they always read a busy host inside that
/// window, and its reload never falls on a visitor's request.
pub fn ttl(site_ttl: Duration) -> Duration {
    site_ttl / 4
}

/// An entry and the instant it stops being used: its slow path's start plus the TTL, spread
/// by key ([`crate::spread`]).
type Held = (Instant, Arc<HotRoute>);

/// One visitor thread's hot routes.
pub struct HotRoutes {
    ttl: Duration,
    cache: Mutex<Cache<HotKey, Held, BodyWeight>>,
}

impl HotRoutes {
    /// `capacity`: bytes of bodies (and keys) kept; `ttl`: the longest an entry is used.
    pub fn new(capacity: u64, ttl: Duration) -> HotRoutes {
        // Estimated entries: a 15 KB page, held in the one representation most visitors ask for.
        let estimate = usize::try_from(capacity / 16_000).unwrap_or(1024).max(16);
        HotRoutes {
            ttl,
            cache: Mutex::new(Cache::with_weighter(estimate, capacity.max(1), BodyWeight)),
        }
    }

    /// The entry for `host` and `path` while it is still good at `now` under `epoch`.
    pub fn get(&self, host: &str, path: &str, epoch: u64, now: Instant) -> Option<Arc<HotRoute>> {
        let cache = self.cache.lock().ok()?;
        let (until, route) = cache.get(&HotKeyRef { host, path })?;
        let good = route.epoch == epoch
            && now < *until
            && route.site_seen.current()
            && route.records.as_ref().is_none_or(RecordsSeen::current);
        good.then(|| route.clone())
    }

    /// The entry for `host` and `path`, good or not: what it holds of a file is still that
    /// file's (for [`crate::serve::Prepared::load`]).
    pub fn held(&self, host: &str, path: &str) -> Option<Arc<HotRoute>> {
        let cache = self.cache.lock().ok()?;
        cache
            .peek(&HotKeyRef { host, path })
            .map(|(_, route)| route.clone())
    }

    /// Remembers an answer made on the slow path.
    pub fn insert(&self, host: &str, path: &str, route: HotRoute) {
        let key = HotKeyRef { host, path };
        let until = route.made + spread::lifetime(self.ttl, &key);
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(
                HotKey {
                    host: CompactString::new(host),
                    path: CompactString::new(path),
                },
                (until, Arc::new(route)),
            );
        }
    }

    /// Entries held (for tests).
    pub fn len(&self) -> usize {
        self.cache.lock().map_or(0, |c| c.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;
    use vitrine_shared::ids::{AccountId, ProjectId};
    use vitrine_shared::manifest::StaticFile;

    use super::*;

    fn route(body: &'static [u8], epoch: u64, made: Instant) -> HotRoute {
        let site = Arc::new(Site {
            project_id: ProjectId(1),
            slug: "loja".into(),
            account: vitrine_shared::account::Account::User(AccountId(1)),
            deploy: None,
            hsts: false,
            analytics: true,
            verified_domain: None,
            base_url: "http://loja.localhost".into(),
        });
        let file = StaticFile {
            key: "k".into(),
            content_type: "text/html".into(),
            etag: "\"t\"".into(),
            size: body.len() as u64,
            br: None,
            gzip: None,
            immutable: false,
        };
        HotRoute {
            epoch,
            site_seen: SiteSeen::default(),
            made,
            host_kind: "platform",
            site,
            file: Prepared::holding(file, Bytes::from_static(body)),
            records: None,
        }
    }

    #[test]
    fn an_entry_serves_only_under_its_epoch_and_within_its_time() {
        let hot = HotRoutes::new(1 << 20, Duration::from_secs(10));
        let start = Instant::now();
        hot.insert("loja.localhost", "/", route(b"<h1>oi</h1>", 7, start));
        let hit = hot.get("loja.localhost", "/", 7, start).expect("a hit");
        assert_eq!(hit.host_kind, "platform");
        assert_eq!(hit.file.body_bytes(), 11);
        assert!(
            hot.get("loja.localhost", "/", 8, start).is_none(),
            "a change moved the epoch"
        );
        assert!(
            hot.get("loja.localhost", "/", 7, start + Duration::from_secs(10))
                .is_none()
        );
        assert!(
            hot.get("Loja.localhost", "/", 7, start).is_none(),
            "keys are the raw bytes"
        );
        assert!(hot.get("loja.localhost", "/sobre", 7, start).is_none());
    }

    #[test]
    fn entries_made_together_end_spread_over_the_last_quarter_of_the_ttl() {
        let hot = HotRoutes::new(1 << 20, Duration::from_secs(10));
        let start = Instant::now();
        let hosts: Vec<String> = (0..100).map(|i| format!("s{i}.localhost")).collect();
        for h in &hosts {
            hot.insert(h, "/", route(b"oi", 1, start));
        }
        let alive = |secs: f64| {
            let at = start + Duration::from_secs_f64(secs);
            hosts
                .iter()
                .filter(|h| hot.get(h, "/", 1, at).is_some())
                .count()
        };
        assert_eq!(alive(7.4), 100, "none before three quarters of the TTL");
        assert!(
            (20..80).contains(&alive(8.75)),
            "about half by 7/8: {}",
            alive(8.75)
        );
        assert_eq!(alive(10.0), 0, "none past the TTL");
    }

    #[test]
    fn hot_routes_end_more_often_than_a_host_entrys_reload_window_lasts() {
        for ms in [4, 1_000, 10_000, 3_600_000] {
            let site_ttl = Duration::from_millis(ms);
            // The shortest host entry lives 3/4 of the TTL; its second half is the window.
            let shortest_window = site_ttl * 3 / 4 / 2;
            assert!(ttl(site_ttl) < shortest_window, "{site_ttl:?}");
        }
    }

    #[test]
    fn the_cache_keeps_within_its_byte_budget() {
        static BODY: [u8; 1000] = [b'x'; 1000];
        let hot = HotRoutes::new(20_000, Duration::from_secs(10));
        let start = Instant::now();
        for i in 0..200 {
            hot.insert(&format!("s{i}.localhost"), "/", route(&BODY, 1, start));
        }
        assert!(
            hot.len() <= 20,
            "{} entries of ~1 KB in a 20 KB budget",
            hot.len()
        );
        assert!(!hot.is_empty());
    }
}
