//! Visitor analytics at the edge (`docs/analytics.md`): every HTML page the edge answers a
//! person with (`200`, `304`) and every site 404 is counted, bots apart; taps on WhatsApp,
//! phone and e-mail links arrive through the site's signed `/_go` ([`Analytics::go`]).
//!
//! **Hot path.** Each visitor thread records into its own [`Shard`] (one mutex only that
//! thread takes between flushes), so counting adds no contention across cores. Assets are
//! never looked at: the caller checks the answer's content type first. For a page, the work
//! is one HMAC (the visitor), a few substring checks and, for a person, a bot-list match.
//!
//! **Flush.** Every `ANALYTICS_FLUSH_MS` the flusher takes each shard's counts (swapping the
//! maps out), merges them per site and day, and adds them through the store with additive
//! upserts ([`Store::add_analytics`]); what a failed flush held is merged back for the next
//! one (bounded by the caps below). Once a day it deletes aggregates older than two years.
//!
//! **Bounded memory.** Per site and day between two flushes a shard keeps at most
//! [`MAX_VISITORS`] visitors, [`MAX_PATHS`] paths (then [`OTHER_PATH`]) and
//! [`MAX_PAGE_VISITORS`] page-visitor pairs; values are cut to
//! [`classify::MAX_VALUE`] bytes. A site with no visitor since the last flush holds nothing.

use std::{
    collections::{HashMap, HashSet},
    net::IpAddr,
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

use bytes::Bytes;
use chrono::{Days, NaiveDate, Utc};
use compact_str::CompactString;
use hyper::{StatusCode, header};
use tokio::sync::watch;
use vitrine_shared::{
    Settings, Store,
    analytics::{AnalyticsKey, Salt, Tap, classify, tap_of},
    ids::ProjectId,
    store::{KEEP_DAYS, OTHER_PATH, SiteDay, VisitorSeen},
};

use crate::serve::{NO_STORE, Resp, TEXT, respond};

/// The most visitors a shard keeps per site and day between two flushes (more are still
/// counted as views; `docs/analytics.md`).
pub const MAX_VISITORS: usize = 20_000;
/// The most paths a shard keeps per site and day between two flushes.
pub const MAX_PATHS: usize = 200;
/// The most (page, visitor) pairs a shard keeps per site and day between two flushes.
pub const MAX_PAGE_VISITORS: usize = 40_000;
/// The longest path kept.
const MAX_PATH: usize = 200;

/// What a page request says about its visitor, as sent (the callers read the headers).
#[derive(Default, Clone, Copy)]
pub struct Seen<'a> {
    pub user_agent: &'a [u8],
    pub referer: &'a [u8],
    pub accept_language: &'a [u8],
}

/// One counted page answer.
pub struct PageHit<'a> {
    pub project: ProjectId,
    /// The request's host as sent (a referrer from it is the site's own).
    pub host: &'a str,
    pub path: &'a str,
    pub query: Option<&'a str>,
    /// `false`: the site's 404.
    pub found: bool,
    /// The visitor's address (after trusted proxies).
    pub client: IpAddr,
    pub seen: Seen<'a>,
}

/// One site-day's counts in memory.
#[derive(Default)]
struct DayCounts {
    views: i64,
    bots: i64,
    taps: [i64; 3],
    visitors: HashMap<i64, VisitorSeen>,
    pages: HashMap<(CompactString, bool), i64>,
    page_visitors: HashSet<(CompactString, i64)>,
}

type Days_ = HashMap<(ProjectId, NaiveDate), DayCounts>;

/// A visitor thread's counts (see the module docs).
#[derive(Default)]
pub struct Shard {
    inner: Mutex<ShardInner>,
}

#[derive(Default)]
struct ShardInner {
    /// The day's salt, derived once per day per thread (never stored).
    salt: Option<(NaiveDate, Salt)>,
    days: Days_,
}

/// The edge's analytics: the key, the shards, the flusher's settings.
pub struct Analytics {
    key: OnceLock<AnalyticsKey>,
    shards: Mutex<Vec<Arc<Shard>>>,
    store: Store,
    flush_every: Duration,
    exact_cap: u64,
}

impl Analytics {
    pub fn new(settings: &Settings, store: Store) -> Arc<Analytics> {
        let configured = settings
            .analytics_secret
            .as_ref()
            .filter(|s| !s.is_empty())
            .map(|s| s.expose().to_string());
        let key = OnceLock::new();
        if let Some(secret) = &configured {
            let _ = key.set(AnalyticsKey::new(secret));
        }
        Arc::new(Analytics {
            key,
            shards: Mutex::default(),
            store,
            flush_every: Duration::from_millis(settings.analytics_flush_ms.max(1)),
            exact_cap: settings.analytics_exact_visitors,
        })
    }

    /// A new visitor thread's shard.
    pub fn shard(&self) -> Arc<Shard> {
        let shard = Arc::new(Shard::default());
        self.shards.lock().expect("shards").push(shard.clone());
        shard
    }

    /// The key, once known (at once with `ANALYTICS_SECRET`; else after the first read of
    /// the database's).
    pub fn key(&self) -> Option<&AnalyticsKey> {
        self.key.get()
    }

    /// Counts a page answer on `shard`.
    pub fn page(&self, shard: &Shard, hit: &PageHit<'_>) {
        let Some(key) = self.key() else { return };
        let ua = String::from_utf8_lossy(hit.seen.user_agent);
        let now = Utc::now();
        let today = now.date_naive();
        let mut inner = shard.inner.lock().expect("analytics shard");
        let inner = &mut *inner;
        if classify::is_bot(&ua) {
            inner.days.entry((hit.project, today)).or_default().bots += 1;
            return;
        }
        if inner.salt.as_ref().is_none_or(|(d, _)| *d != today) {
            inner.salt = Some((today, key.salt(today)));
        }
        let salt = &inner.salt.as_ref().expect("just set").1;
        let visitor = salt.visitor(hit.project, hit.client, hit.seen.user_agent);
        let day = inner.days.entry((hit.project, today)).or_default();
        let path = if hit.path.len() > MAX_PATH {
            OTHER_PATH
        } else {
            hit.path
        };
        let page_key = (CompactString::from(path), hit.found);
        let page_key = if day.pages.len() >= MAX_PATHS && !day.pages.contains_key(&page_key) {
            (CompactString::from(OTHER_PATH), hit.found)
        } else {
            page_key
        };
        if !hit.found {
            *day.pages.entry(page_key).or_default() += 1;
            return;
        }
        day.views += 1;
        if day.page_visitors.len() < MAX_PAGE_VISITORS {
            day.page_visitors.insert((page_key.0.clone(), visitor));
        }
        *day.pages.entry(page_key).or_default() += 1;
        let minute = now.timestamp().div_euclid(60);
        if let Some(v) = day.visitors.get_mut(&visitor) {
            v.minute = v.minute.max(minute);
        } else if day.visitors.len() < MAX_VISITORS {
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            let own = hit.host.rsplit_once(':').map_or(hit.host, |(h, _)| h);
            let [utm_source, utm_medium, utm_campaign] = classify::campaign(hit.query);
            day.visitors.insert(
                visitor,
                VisitorSeen {
                    visitor,
                    minute,
                    source: classify::source(&text(hit.seen.referer), own),
                    utm_source,
                    utm_medium,
                    utm_campaign,
                    device: classify::device(&ua).to_string(),
                    language: classify::language(&text(hit.seen.accept_language)),
                },
            );
        }
    }

    /// `/_go?u=<url>&s=<signature>`: a tap on a WhatsApp, phone or e-mail link, counted and
    /// sent on with a `302`; any target that is not signed by the fleet's key, or not one of
    /// those kinds, is refused with a `400` (never an open redirect).
    /// `counted`: the site's project when the site counts visitors.
    pub fn go(&self, shard: &Shard, counted: Option<ProjectId>, query: Option<&str>) -> Resp {
        let (mut url, mut sig) = (None, None);
        for (k, v) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
            match &*k {
                "u" if url.is_none() => url = Some(v.into_owned()),
                "s" if sig.is_none() => sig = Some(v.into_owned()),
                _ => {}
            }
        }
        let refuse = || {
            respond(
                StatusCode::BAD_REQUEST,
                TEXT,
                NO_STORE,
                Bytes::from_static(b"Invalid link.\n"),
            )
        };
        let (Some(key), Some(url), Some(sig)) = (self.key(), url, sig) else {
            return refuse();
        };
        let Some(tap) = tap_of(&url).filter(|_| key.verify(&url, &sig)) else {
            return refuse();
        };
        let Ok(location) = header::HeaderValue::from_str(&url) else {
            return refuse();
        };
        let slot = match tap {
            Tap::WhatsApp => 0,
            Tap::Phone => 1,
            Tap::Email => 2,
        };
        if let Some(project) = counted {
            let today = Utc::now().date_naive();
            shard
                .inner
                .lock()
                .expect("analytics shard")
                .days
                .entry((project, today))
                .or_default()
                .taps[slot] += 1;
        }
        let mut r = respond(StatusCode::FOUND, TEXT, NO_STORE, Bytes::new());
        r.headers_mut().insert(header::LOCATION, location);
        r
    }

    /// Reads the database's key when `ANALYTICS_SECRET` is unset and it is not known yet
    /// (at start, then at each flush until it is).
    pub async fn load_key(&self) {
        if self.key.get().is_some() {
            return;
        }
        match self.store.analytics_key().await {
            Ok(secret) => {
                let _ = self.key.set(AnalyticsKey::new(&secret));
            }
            Err(e) => tracing::warn!(error = %e, "analytics key unavailable"),
        }
    }

    /// Takes every shard's counts, merged per site and day.
    fn take(&self) -> Days_ {
        let shards = self.shards.lock().expect("shards").clone();
        let mut all = Days_::new();
        for shard in shards {
            let days = std::mem::take(&mut shard.inner.lock().expect("analytics shard").days);
            merge(&mut all, days);
        }
        all
    }

    /// Writes what the shards hold; a site-day the database refused for an outage is kept
    /// for the next flush.
    pub async fn flush(&self) {
        self.load_key().await;
        let mut again = Days_::new();
        for ((project, day), counts) in self.take() {
            let row = site_day(project, day, &counts);
            if let Err(e) = self.store.add_analytics(&row, self.exact_cap).await {
                tracing::warn!(project = project.get(), error = %e, "analytics flush failed");
                if e.is_outage() {
                    again.insert((project, day), counts);
                }
            }
        }
        if !again.is_empty() {
            let shard = self.shards.lock().expect("shards").first().cloned();
            if let Some(shard) = shard {
                merge(
                    &mut shard.inner.lock().expect("analytics shard").days,
                    again,
                );
            }
        }
    }

    /// Flushes every `ANALYTICS_FLUSH_MS` and prunes once a day, until shutdown (then flushes
    /// once more).
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let mut pruned: Option<NaiveDate> = None;
        loop {
            tokio::select! {
                _ = tokio::time::sleep(self.flush_every) => {}
                _ = shutdown.changed() => {
                    self.flush().await;
                    return;
                }
            }
            self.flush().await;
            let today = Utc::now().date_naive();
            if pruned != Some(today) {
                let before = today - Days::new(KEEP_DAYS as u64);
                match self.store.prune_analytics(before).await {
                    Ok(_) => pruned = Some(today),
                    Err(e) => tracing::warn!(error = %e, "analytics pruning failed"),
                }
            }
        }
    }
}

fn merge(into: &mut Days_, from: Days_) {
    for (k, c) in from {
        let d = into.entry(k).or_default();
        d.views += c.views;
        d.bots += c.bots;
        for i in 0..3 {
            d.taps[i] += c.taps[i];
        }
        for (h, v) in c.visitors {
            if let Some(held) = d.visitors.get_mut(&h) {
                held.minute = held.minute.max(v.minute);
                if held.source == classify::DIRECT {
                    held.source = v.source;
                }
                for (mine, theirs) in [
                    (&mut held.utm_source, v.utm_source),
                    (&mut held.utm_medium, v.utm_medium),
                    (&mut held.utm_campaign, v.utm_campaign),
                ] {
                    if mine.is_empty() {
                        *mine = theirs;
                    }
                }
            } else if d.visitors.len() < MAX_VISITORS {
                d.visitors.insert(h, v);
            }
        }
        for (p, n) in c.pages {
            *d.pages.entry(p).or_default() += n;
        }
        d.page_visitors.extend(c.page_visitors);
    }
}

fn site_day(project_id: ProjectId, day: NaiveDate, c: &DayCounts) -> SiteDay {
    SiteDay {
        views: c.views,
        bots: c.bots,
        whatsapp: c.taps[0],
        phone: c.taps[1],
        email: c.taps[2],
        visitors: c.visitors.values().cloned().collect(),
        pages: c
            .pages
            .iter()
            .map(|((p, found), n)| (p.to_string(), *found, *n))
            .collect(),
        page_visitors: c
            .page_visitors
            .iter()
            .map(|(p, v)| (p.to_string(), *v))
            .collect(),
        ..SiteDay::new(project_id, day)
    }
}

/// Whether an answer is a page to count: a `GET` of HTML answered `200`, `304` or `404`.
pub fn counted(method: &hyper::Method, status: StatusCode, content_type: Option<&[u8]>) -> bool {
    method == hyper::Method::GET
        && matches!(status.as_u16(), 200 | 304 | 404)
        && content_type.is_some_and(|t| t.starts_with(b"text/html"))
}
