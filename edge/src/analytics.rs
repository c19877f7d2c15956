//! Visitor analytics at the edge (`docs/analytics.md`): every HTML page the edge answers a
//! person with (`200`, `304`) and every site 404 is counted, bots apart; taps on WhatsApp,
//! phone and e-mail links arrive through the site's signed `/_go` ([`Analytics::go`]).
//!
//! **Hot path.** Each visitor thread records into its own [`Shard`] (one mutex only that
//! thread takes between flushes), so counting adds no contention across cores. Assets are
//! never looked at: the caller checks the answer's content type first. For a page, the work
//! is a few foldhash table lookups ([`memory`]): the person, kept per thread with their
//! visitor hash and device ([`people`]; a new one costs one HMAC from the day's keyed state
//! and a bot-list verdict, itself kept per user agent in [`agents`]), the site-day, the path
//! and the page-visitor pair.
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
//! Across every site, what the shards hold is reckoned in bytes as it grows ([`memory`])
//! against `ANALYTICS_MEMORY_MB`: at half of it the flusher is woken early; past it, a
//! site-day's counters still count (views, bots, taps: one small table entry per site) but
//! new visitors, paths and page-visitor pairs wait for the flush (counted in
//! [`Analytics::dropped`]). So however many sites are visited between two flushes, their
//! counts take at most the budget (plus one table's growth) and one counter entry per site
//! (measured at 100,000 sites in `benches/benches/analytics_memory.rs`).

use std::{
    mem::size_of,
    net::IpAddr,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed},
    },
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use bytes::Bytes;
use chrono::{DateTime, Days, NaiveDate, Utc};
use hyper::{StatusCode, header};
use tokio::sync::{Notify, watch};
use vitrine_shared::{
    Settings, Store,
    account::Account,
    analytics::{AnalyticsKey, Salt, Tap, classify, tap_of},
    ids::ProjectId,
    store::{KEEP_DAYS, OTHER_PATH, VisitorSeen},
};

use self::{
    agents::Agents,
    memory::{Detail, Map, PageRef, PairRef},
    merge::{merge, reckon, site_day},
    people::{People, Person},
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
/// The shortest time between two flushes the memory budget asked for early.
const EARLY_FLUSH_GAP: Duration = Duration::from_secs(1);
/// One account's visitor details may take at most this fraction (1/8) of
/// `ANALYTICS_MEMORY_MB` between two flushes, split evenly over the visitor threads' shards:
/// one tenant sending a flood of made-up people leaves the rest of the budget to the others.
pub const ACCOUNT_SHARE: usize = 8;

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
    /// The site's account, whose share of the memory budget its details take.
    pub account: Account,
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

/// One site-day's counts in memory: its counters, and who came and what they saw while the
/// memory budget allows.
#[derive(Default)]
struct DayCounts {
    views: i64,
    bots: i64,
    taps: [i64; 3],
    detail: Option<Box<Detail>>,
}

type Days_ = Map<(ProjectId, NaiveDate), DayCounts>;

/// The bytes of a shard's table of site-days at `capacity`.
fn days_table(capacity: usize) -> usize {
    memory::table::<((ProjectId, NaiveDate), DayCounts)>(capacity)
}

/// A visitor thread's counts (see the module docs).
#[derive(Default)]
pub struct Shard {
    inner: Mutex<ShardInner>,
}

#[derive(Default)]
struct ShardInner {
    /// The day's salt, derived once per day per thread (never stored), with its day and that
    /// day's number since 1970 (what the clock is compared with).
    salt: Option<(i64, NaiveDate, Salt)>,
    days: Days_,
    /// What `days` is reckoned to take ([`memory`]).
    held: usize,
    /// The user agents this thread has told apart ([`agents`]).
    agents: Agents,
    /// The people this thread counted under `salt` ([`people`]).
    people: People,
    /// What each account's details take of `held` ([`ACCOUNT_SHARE`]).
    accounts: Map<Account, usize>,
}

/// The edge's analytics: the key, the shards, the flusher's settings.
pub struct Analytics {
    key: OnceLock<AnalyticsKey>,
    shards: Mutex<Vec<Arc<Shard>>>,
    store: Store,
    flush_every: Duration,
    exact_cap: u64,
    /// `ANALYTICS_MEMORY_MB` in bytes, what every shard holds together, and how many visitor
    /// details were left out for it.
    budget: usize,
    held: AtomicUsize,
    dropped: AtomicU64,
    /// Wakes the flusher when `held` passes half the budget, or an account its share.
    early: Notify,
    /// How many shards there are (an account's share is split over them).
    shard_count: AtomicUsize,
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
            budget: usize::try_from(settings.analytics_memory_mb.max(1))
                .unwrap_or(usize::MAX)
                .saturating_mul(1024 * 1024),
            held: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
            early: Notify::new(),
            shard_count: AtomicUsize::new(0),
        })
    }

    /// A new visitor thread's shard.
    pub fn shard(&self) -> Arc<Shard> {
        let shard = Arc::new(Shard::default());
        let mut shards = self.shards.lock().expect("shards");
        shards.push(shard.clone());
        self.shard_count.store(shards.len(), Relaxed);
        shard
    }

    /// The key, once known (at once with `ANALYTICS_SECRET`; else after the first read of
    /// the database's).
    pub fn key(&self) -> Option<&AnalyticsKey> {
        self.key.get()
    }

    /// What every shard holds, as reckoned ([`cost`]).
    pub fn held(&self) -> usize {
        self.held.load(Relaxed)
    }

    /// Visitors, paths and page-visitor pairs left out since start because the shards held
    /// `ANALYTICS_MEMORY_MB` (their views were counted).
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Relaxed)
    }

    /// Whether the shards hold less than the budget: new details may be kept.
    fn room(&self) -> bool {
        self.held.load(Relaxed) < self.budget
    }

    /// What one account's details may take on one shard: its [`ACCOUNT_SHARE`] of the
    /// budget, split over the shards.
    pub fn account_share(&self) -> usize {
        self.budget / ACCOUNT_SHARE / self.shard_count.load(Relaxed).max(1)
    }

    /// Whether a new detail of `account` that takes `bytes` may be kept on a shard whose
    /// accounts hold `accounts`: the budget has room and the account stays within its share.
    /// A detail left out is counted; one left out for the account's share wakes the flusher,
    /// which frees it.
    fn room_for(&self, accounts: &Map<Account, usize>, account: Account, bytes: usize) -> bool {
        let holds = accounts.get(&account).copied().unwrap_or(0);
        let over_share = holds + bytes > self.account_share();
        if over_share {
            self.early.notify_one();
        }
        let room = self.room() && !over_share;
        if !room {
            self.dropped.fetch_add(1, Relaxed);
        }
        room
    }

    /// [`Analytics::add`]s a detail of `account` that took `bytes`, to the account's share
    /// too (the accounts' own table is reckoned in `held`, in nobody's share).
    fn keep(
        &self,
        (held, accounts): (&mut usize, &mut Map<Account, usize>),
        account: Account,
        bytes: usize,
    ) {
        let before = memory::table::<(Account, usize)>(accounts.capacity());
        *accounts.entry(account).or_default() += bytes;
        let grew = memory::table::<(Account, usize)>(accounts.capacity()) - before;
        self.add(held, bytes + grew);
    }

    /// Adds `bytes` to what a shard holds (`held`) and to the total, and wakes the flusher
    /// as the total passes half the budget.
    fn add(&self, held: &mut usize, bytes: usize) {
        let before = self.held.fetch_add(bytes, Relaxed);
        *held += bytes;
        let half = self.budget / 2;
        if before < half && before + bytes >= half {
            self.early.notify_one();
        }
    }

    /// The site-day `key` of `days`, made (and reckoned) when it is new.
    fn day<'d>(
        &self,
        days: &'d mut Days_,
        held: &mut usize,
        key: (ProjectId, NaiveDate),
    ) -> &'d mut DayCounts {
        let growth =
            memory::growth::<((ProjectId, NaiveDate), DayCounts)>(days.len(), days.capacity());
        match days.entry(key) {
            hashbrown::hash_map::Entry::Occupied(o) => o.into_mut(),
            hashbrown::hash_map::Entry::Vacant(v) => {
                self.add(held, growth);
                v.insert(DayCounts::default())
            }
        }
    }

    /// Counts a page answer on `shard`. Past the memory budget only the counters count (the
    /// module docs); each detail kept adds what its table grew by and its strings.
    pub fn page(&self, shard: &Shard, hit: &PageHit<'_>) {
        let Some(key) = self.key() else { return };
        let now = unix_seconds();
        let mut inner = shard.inner.lock().expect("analytics shard");
        let ShardInner {
            salt,
            days,
            held,
            agents,
            people,
            accounts,
        } = &mut *inner;
        let day_number = now.div_euclid(86_400);
        if salt.as_ref().is_none_or(|(n, _, _)| *n != day_number) {
            let today = DateTime::from_timestamp(now, 0).map_or(NaiveDate::MIN, |t| t.date_naive());
            *salt = Some((day_number, today, key.salt(today)));
            people.forget();
        }
        let (_, today, salt) = salt.as_ref().expect("just set");
        let today = *today;
        let sent_by = (hit.project, hit.client, hit.seen.user_agent);
        let person = people.person(sent_by, || {
            let agent = agents.verdict(hit.seen.user_agent);
            (!agent.bot).then(|| Person {
                visitor: salt.visitor(hit.project, hit.client, hit.seen.user_agent),
                device: agent.device,
            })
        });
        let day = self.day(days, held, (hit.project, today));
        let Some(Person { visitor, device }) = person else {
            day.bots += 1;
            return;
        };
        let who = hit.account;
        if hit.found {
            day.views += 1;
        }
        if day.detail.is_none() {
            if !self.room_for(accounts, who, size_of::<Detail>()) {
                return;
            }
            self.keep((held, accounts), who, size_of::<Detail>());
        }
        let d = day.detail.get_or_insert_default();
        let path = if hit.path.len() > MAX_PATH {
            OTHER_PATH
        } else {
            hit.path
        };
        let mut page = PageRef {
            path,
            found: hit.found,
        };
        if d.pages.len() >= MAX_PATHS && !d.pages.contains_key(&page) {
            page.path = OTHER_PATH;
        }
        if let Some(n) = d.pages.get_mut(&page) {
            *n += 1;
        } else {
            let page = page.owned();
            let spilled = memory::spilled(&page.path);
            if !self.room_for(accounts, who, d.page_growth() + spilled) {
                return;
            }
            let before = d.tables();
            d.pages.insert(page, 1);
            self.keep((held, accounts), who, d.tables() - before + spilled);
        }
        if !hit.found {
            return;
        }
        let pair = PairRef {
            path: page.path,
            visitor,
        };
        if d.page_visitors.len() < MAX_PAGE_VISITORS && !d.page_visitors.contains(&pair) {
            let pair = pair.owned();
            let spilled = memory::spilled(&pair.path);
            if self.room_for(accounts, who, d.pair_growth() + spilled) {
                let before = d.tables();
                d.page_visitors.insert(pair);
                self.keep((held, accounts), who, d.tables() - before + spilled);
            }
        }
        let minute = now.div_euclid(60);
        if let Some(v) = d.visitors.get_mut(&visitor) {
            v.minute = v.minute.max(minute);
            return;
        }
        if d.visitors.len() >= MAX_VISITORS {
            return;
        }
        if !self.room() {
            self.dropped.fetch_add(1, Relaxed);
            return;
        }
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let own = hit.host.rsplit_once(':').map_or(hit.host, |(h, _)| h);
        let [utm_source, utm_medium, utm_campaign] = classify::campaign(hit.query);
        let seen = VisitorSeen {
            visitor,
            minute,
            source: classify::source(&text(hit.seen.referer), own),
            utm_source,
            utm_medium,
            utm_campaign,
            device: device.to_string(),
            language: classify::language(&text(hit.seen.accept_language)),
        };
        let (before, strings) = (d.tables(), memory::strings(&seen));
        if !self.room_for(accounts, who, d.visitor_growth() + strings) {
            return;
        }
        d.visitors.insert(visitor, seen);
        self.keep((held, accounts), who, d.tables() - before + strings);
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
            let mut inner = shard.inner.lock().expect("analytics shard");
            let ShardInner { days, held, .. } = &mut *inner;
            self.day(days, held, (project, today)).taps[slot] += 1;
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
    /// Also what they were reckoned to hold: it stays in [`Analytics::held`] until the
    /// flush has written them, so a slow flush leaves less room for new counts, not more.
    fn take(&self) -> (Days_, usize) {
        let shards = self.shards.lock().expect("shards").clone();
        let (mut all, mut bytes) = (Days_::default(), 0);
        for shard in shards {
            let mut inner = shard.inner.lock().expect("analytics shard");
            bytes += std::mem::take(&mut inner.held);
            let days = std::mem::take(&mut inner.days);
            inner.accounts = Map::default();
            drop(inner);
            merge(&mut all, days);
        }
        (all, bytes)
    }

    /// Writes what the shards hold; a site-day the database refused for an outage is kept
    /// for the next flush.
    pub async fn flush(&self) {
        self.load_key().await;
        let mut again = Days_::default();
        let (taken, bytes) = self.take();
        for ((project, day), counts) in taken {
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
                let kept: usize = again.values().map(reckon).sum();
                let mut inner = shard.inner.lock().expect("analytics shard");
                inner.held += kept;
                self.held.fetch_add(kept, Relaxed);
                merge(&mut inner.days, again);
            }
        }
        self.held.fetch_sub(bytes, Relaxed);
    }

    /// Flushes every `ANALYTICS_FLUSH_MS` and prunes once a day, until shutdown (then flushes
    /// once more).
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let mut pruned: Option<NaiveDate> = None;
        let mut last = tokio::time::Instant::now();
        loop {
            tokio::select! {
                _ = tokio::time::sleep(self.flush_every) => {}
                // Half the memory budget is held, or an account holds its share: flush now,
                // yet never sooner than EARLY_FLUSH_GAP after the last flush (a tenant who
                // fills its share again and again cannot keep the database writing).
                _ = self.early.notified() => {
                    tokio::time::sleep_until(last + EARLY_FLUSH_GAP).await;
                }
                _ = shutdown.changed() => {
                    self.flush().await;
                    return;
                }
            }
            self.flush().await;
            last = tokio::time::Instant::now();
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

/// The clock in whole seconds since 1970 (what a page is counted at: its day and minute).
fn unix_seconds() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Whether an answer is a page to count: a `GET` of HTML answered `200`, `304` or `404`.
pub fn counted(method: &hyper::Method, status: StatusCode, content_type: Option<&[u8]>) -> bool {
    method == hyper::Method::GET
        && matches!(status.as_u16(), 200 | 304 | 404)
        && content_type.is_some_and(|t| t.starts_with(b"text/html"))
}

mod agents;
mod memory;
mod merge;
mod people;
#[cfg(test)]
mod tests;
