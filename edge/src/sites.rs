//! Everything the edge keeps in memory, and the rules for when it is thrown away.
//!
//! The caches are moka's (a well-kept concurrent cache with TinyLFU admission, per-entry
//! weights, TTLs and coalesced loads: two visitors missing the same key cause one load):
//!
//! | cache | key | dropped when |
//! |---|---|---|
//! | `fresh` hosts | normalised host | its TTL (`EDGE_SITE_TTL_MS`, spread by key) ends, or a `deploy`/`project` change for its project arrives; reloaded in the background when read past half of it |
//! | `last_known` hosts | normalised host | only a change for its project (or eviction): the copy served while the database is down |
//! | deploys | deploy id | eviction only (weighted by stored size, `EDGE_MANIFEST_CACHE_BYTES`): a manifest never changes |
//! | redirect matchers | project, site generation | a `redirects`/`deploy`/`project` change bumps the generation (weighed by the rules' bytes, [`MATCHER_CACHE_BYTES`]) |
//! | files | object key | eviction only (weighted by size, `EDGE_FILE_CACHE_BYTES`): objects are immutable |
//! | renders | project, records generation, deploy, request | a `records` change bumps the generation |
//!
//! **Hosts are reloaded ahead of their end** ([`crate::spread::Timed`]): a host visited once per
//! half TTL is never looked up while a visitor waits, and is never served past its lifetime.
//!
//! Generations rather than invalidation for renders and matchers: a render that read the old
//! records and finishes after the change lands under the old generation's key, which nobody
//! asks for again, so a slow render can never put stale HTML back into the cache.
//!
//! **Outage:** when the database is unreachable (or slower than [`DB_TIMEOUT`]) a breaker stays
//! open for [`BREAKER`], and lookups do not wait on the database: an expired host is answered
//! from `last_known`, renders from the render cache. Only what was never cached fails (503).
//!
//! **Nothing a visitor sends opens the breaker.** Only connection, pool and timeout failures
//! count ([`vitrine_shared::store::Failure::Outage`]); a query the database refuses for its
//! input is that request's 400, and a list query over one tenant's large collection runs with
//! its own statement time limit (`EDGE_QUERY_TIMEOUT_MS`) and within [`ListSlots`], so it
//! fails alone (503) and never holds the connections other tenants wait for.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use bytes::Bytes;
use hyper::StatusCode;
use moka::future::Cache;
use vitrine_shared::{
    Settings, Store,
    account::Account,
    blob::{BlobError, BlobStore},
    ids::{DeployId, ProjectId},
    redirects::Matcher,
    sandbox::Sandbox,
    store::{Change, Failure, SiteRow, StoreError},
};

mod deploy_view;
mod generations;
mod rations;
mod slots;

pub use deploy_view::DeployView;
pub use generations::{Generations, RecordsSeen, SiteSeen};
pub use rations::{RenderRations, SHORT_CIRCUIT_AFTER};
pub use slots::{LIST_SLOTS_PER_ACCOUNT, ListSlot, ListSlots};

use crate::{
    host::SiteHost,
    metrics::{CacheName, Metrics},
    spread::{self, Timed},
};

/// The longest the edge waits on the database for one lookup.
pub const DB_TIMEOUT: Duration = Duration::from_secs(2);
/// What the compiled redirect rules of the projects an edge serves may hold, in bytes: the
/// rules of thousands of typical sites, or of 16 sites at `redirects::MAX_RULES` of the
/// longest rules.
pub const MATCHER_CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// How long the edge stops asking a database that just failed.
pub const BREAKER: Duration = Duration::from_secs(2);

/// The site behind a host.
///
/// It names its live deploy rather than holding the manifest: the host caches keep up to
/// `EDGE_SITE_CACHE_ENTRIES` sites (100,000 by default) and must stay small per site, while
/// the manifests, which grow with a site's pages, live only in the manifest cache, bounded by
/// their bytes (`EDGE_MANIFEST_CACHE_BYTES`), and are read again from the object store after
/// eviction (which works while the database is down).
pub struct Site {
    pub project_id: ProjectId,
    pub slug: String,
    /// Whose fair share of the render workers the site's renders use.
    pub account: Account,
    /// The live deploy, when the project is published.
    pub deploy: Option<LiveDeploy>,
    /// Send Strict-Transport-Security on HTTPS responses.
    pub hsts: bool,
    /// The owner counts visitors (`meta.analytics`, on unless `false`: `crate::analytics`).
    pub analytics: bool,
    /// The verified custom domain, when the project has one; `base_url`: its canonical
    /// address, that domain over HTTPS else the preview address (`vitrine_shared::seo`).
    pub verified_domain: Option<String>,
    pub base_url: String,
}

/// A site's live deploy: its id (the manifest cache's key) and where its manifest is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveDeploy {
    pub id: DeployId,
    pub manifest_key: String,
}

/// A response built from live data, cached until the records change.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub status: StatusCode,
    pub content_type: &'static str,
    pub body: Bytes,
    /// Strong validator over the body (HTML pages), so revisits get 304.
    pub etag: Option<String>,
    /// Its brotli and gzip variants, made once with it, each kept if it saves a tenth.
    pub br: Option<Bytes>,
    pub gzip: Option<Bytes>,
}

/// Why a lookup could not be answered.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Unavailable {
    /// The database is unreachable (the breaker is open): 503.
    #[error("database unavailable: {0}")]
    Database(String),
    #[error("object store: {0}")]
    Blob(String),
    /// No render worker for this request in time, or the worker was starved of CPU
    /// (`vitrine_shared::sandbox`): 503 with `Retry-After`; not cached.
    #[error("renderer: {0}")]
    Renderer(String),
    /// The visitor has caused their share of uncached renders this minute ([`RenderRations`]):
    /// 429, with the seconds until they may cause another.
    #[error("too many uncached pages from this visitor")]
    Throttled(u64),
    /// This request's query ran past its own statement time limit: 503 for it alone.
    #[error("query too slow: {0}")]
    SlowQuery(String),
    /// Every list-query slot of this project (or of the edge) stayed taken: 503 for it alone.
    #[error("too many slow queries at once")]
    Busy,
    /// The database refused this request's query for what it carries: that request's 400.
    #[error("query refused: {0}")]
    Refused(String),
    /// Any other failure of this request's query (not an outage).
    #[error("query failed: {0}")]
    Failed(String),
}

/// Key of a cached render: the records generation makes an edit invisible to old entries.
pub type RenderKey = (ProjectId, u64, DeployId, String);

pub struct Sites {
    pub store: Store,
    /// Where owners' templates render: worker processes within budgets, off the visitor
    /// threads (which only await the answer).
    pub sandbox: Sandbox,
    /// A visitor's share of uncached renders, and the templates that keep failing their budget.
    pub rations: RenderRations,
    pub blobs: BlobStore,
    metrics: Arc<Metrics>,
    fresh: Cache<String, Arc<Timed<Option<Arc<Site>>>>>,
    /// `EDGE_SITE_TTL_MS`: the longest a host entry is served.
    site_ttl: Duration,
    last_known: Cache<String, Arc<Site>>,
    /// `None`: a manifest over `MAX_MANIFEST_BYTES`, a verdict kept so it is read only once.
    deploys: Cache<DeployId, Option<Arc<DeployView>>>,
    matchers: Cache<(ProjectId, u64), Arc<Matcher>>,
    files: Cache<String, Arc<Bytes>>,
    renders: Cache<RenderKey, Arc<Rendered>>,
    generations: Mutex<HashMap<ProjectId, Arc<Generations>>>,
    /// Bumped by every change that can alter a host's answer; a host load that saw it move
    /// loads again, so it never caches what it read before the change.
    epoch: AtomicU64,
    /// Odd while a change that can alter a static route's answer (all but record edits) is
    /// being applied: bumped once before it and once after. A slow path that saw it odd, or
    /// saw it move, keeps no hot route, since what it read may predate the change.
    changing: AtomicU64,
    /// Bumped by such a change that names no project (a certificate of none): it ends every
    /// hot route. A project's own changes end its hot routes only ([`SiteSeen`]).
    hot_epoch: AtomicU64,
    down_until: Mutex<Option<Instant>>,
    list_slots: ListSlots,
    query_timeout: Duration,
    /// For the preview addresses (`Settings::preview_url`).
    settings: Settings,
}

impl Sites {
    pub fn new(
        settings: &Settings,
        store: Store,
        blobs: BlobStore,
        metrics: Arc<Metrics>,
    ) -> Sites {
        let hosts = settings.edge_site_cache_entries.max(1);
        Sites {
            sandbox: Sandbox::from_settings(settings),
            rations: RenderRations::new(settings.edge_render_rate_per_minute),
            blobs,
            metrics,
            fresh: Cache::builder()
                .max_capacity(hosts)
                .expire_after(spread::UntilEnd)
                .support_invalidation_closures()
                .build(),
            site_ttl: Duration::from_millis(settings.edge_site_ttl_ms.max(1)),
            last_known: Cache::builder()
                .max_capacity(hosts)
                .support_invalidation_closures()
                .build(),
            deploys: Cache::builder()
                .max_capacity(settings.edge_manifest_cache_bytes.max(1))
                .weigher(|_, v: &Option<Arc<DeployView>>| v.as_ref().map_or(64, |d| d.weight))
                .build(),
            // Weighed by their rules' bytes: a project's rules are capped
            // (`redirects::MAX_RULES`), their number in the cache by these bytes.
            matchers: Cache::builder()
                .max_capacity(MATCHER_CACHE_BYTES)
                .weigher(|_, m: &Arc<Matcher>| m.weight())
                .build(),
            files: Cache::builder()
                .max_capacity(settings.edge_file_cache_bytes.max(1))
                .weigher(|k: &String, v: &Arc<Bytes>| {
                    u32::try_from(k.len() + v.len()).unwrap_or(u32::MAX)
                })
                .build(),
            renders: Cache::builder()
                .max_capacity(settings.edge_render_cache_entries.max(1))
                .build(),
            generations: Mutex::new(HashMap::new()),
            epoch: AtomicU64::new(0),
            changing: AtomicU64::new(0),
            hot_epoch: AtomicU64::new(0),
            down_until: Mutex::new(None),
            list_slots: ListSlots::new(store.pool_size()),
            query_timeout: Duration::from_millis(settings.edge_query_timeout_ms.max(1)),
            settings: settings.clone(),
            store,
        }
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Entries in each cache (moka counts lazily: pending work is applied first).
    pub async fn cache_sizes(&self) -> Vec<(CacheName, u64)> {
        self.fresh.run_pending_tasks().await;
        self.deploys.run_pending_tasks().await;
        self.files.run_pending_tasks().await;
        self.renders.run_pending_tasks().await;
        vec![
            (CacheName::site, self.fresh.entry_count()),
            (CacheName::manifest, self.deploys.entry_count()),
            (CacheName::file, self.files.entry_count()),
            (CacheName::render, self.renders.entry_count()),
        ]
    }

    /// The hot routes' epoch (see [`crate::hot`]).
    pub fn hot_epoch(&self) -> u64 {
        self.hot_epoch.load(Ordering::Acquire)
    }

    /// Read before a slow path, for [`Sites::unchanged_since`].
    pub fn changing(&self) -> u64 {
        self.changing.load(Ordering::SeqCst)
    }

    /// Whether no change was being applied when `changing` was read, nor has been since: then
    /// a slow path between the two reads saw no change half-applied, and the [`SiteSeen`] read
    /// at its end dates what it read.
    pub fn unchanged_since(&self, changing: u64) -> bool {
        changing.is_multiple_of(2) && self.changing.load(Ordering::SeqCst) == changing
    }

    /// `project_id`'s site generation now (see [`SiteSeen`]).
    pub fn site_seen(&self, project_id: ProjectId) -> SiteSeen {
        let generations = self.generations(project_id);
        let seen = generations.site.load(Ordering::Acquire);
        SiteSeen { generations, seen }
    }

    /// Whether the database failed a moment ago (lookups are being answered from memory).
    pub fn degraded(&self) -> bool {
        self.db_down()
    }

    fn db_down(&self) -> bool {
        let mut guard = self.down_until.lock().expect("breaker lock");
        match *guard {
            Some(until) if Instant::now() < until => true,
            Some(_) => {
                *guard = None;
                false
            }
            None => false,
        }
    }

    fn mark_db_down(&self) {
        *self.down_until.lock().expect("breaker lock") = Some(Instant::now() + BREAKER);
    }

    /// Runs a database call with the edge's time limit ([`DB_TIMEOUT`]). Only an outage
    /// opens the breaker (see [`Sites::db_within`]).
    pub async fn db<T>(
        &self,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, Unavailable> {
        self.db_within(DB_TIMEOUT, call).await
    }

    /// Runs a database call that may take up to `limit`. Only an outage opens the breaker for
    /// everyone: the database unreachable, its pool exhausted, or no answer at all within
    /// `limit`. A query the database refused for what it carries (a visitor's NUL, a date it
    /// cannot hold) or a statement stopped by its own time limit fails for this request alone.
    pub async fn db_within<T>(
        &self,
        limit: Duration,
        call: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, Unavailable> {
        if self.db_down() {
            return Err(Unavailable::Database("recently failed".into()));
        }
        let e = match tokio::time::timeout(limit, call).await {
            Ok(Ok(v)) => return Ok(v),
            Ok(Err(e)) => e,
            Err(_) => {
                self.metrics.db_failure("outage");
                self.mark_db_down();
                return Err(Unavailable::Database("timed out".into()));
            }
        };
        let (reason, unavailable) = match e.failure() {
            Failure::Outage => {
                self.mark_db_down();
                ("outage", Unavailable::Database(e.to_string()))
            }
            Failure::SlowQuery => ("slow_query", Unavailable::SlowQuery(e.to_string())),
            Failure::Input => ("input", Unavailable::Refused(e.to_string())),
            Failure::Other => ("other", Unavailable::Failed(e.to_string())),
        };
        self.metrics.db_failure(reason);
        Err(unavailable)
    }

    /// A slot for one list query of `account`'s projects (see [`ListSlots`]): `Busy` when
    /// none frees up within the query time limit.
    pub async fn list_slot(&self, account: Account) -> Result<ListSlot, Unavailable> {
        self.list_slots.acquire(account, self.query_timeout).await
    }

    /// `EDGE_QUERY_TIMEOUT_MS`: the statement time limit of one list query.
    pub fn query_timeout(&self) -> Duration {
        self.query_timeout
    }

    fn generations(&self, project_id: ProjectId) -> Arc<Generations> {
        self.generations
            .lock()
            .expect("generations lock")
            .entry(project_id)
            .or_default()
            .clone()
    }

    /// The records generation of a project: part of every render key.
    pub fn records_generation(&self, project_id: ProjectId) -> u64 {
        self.records_seen(project_id).seen
    }

    /// The records generation of a project now, to tell later whether it is still current.
    pub fn records_seen(&self, project_id: ProjectId) -> RecordsSeen {
        let generations = self.generations(project_id);
        let seen = generations.records.load(Ordering::Acquire);
        RecordsSeen { generations, seen }
    }

    /// The site behind a host: `Ok(None)` for a host that serves no site.
    pub async fn resolve(
        self: &Arc<Self>,
        host: &SiteHost,
    ) -> Result<Option<Arc<Site>>, Unavailable> {
        let key = host.key();
        if let Some(hit) = self.fresh.get(&key).await {
            self.metrics.cache(CacheName::site, true);
            if hit.claim_reload() {
                self.reload(key, host.clone());
            }
            return Ok(hit.value.clone());
        }
        self.metrics.cache(CacheName::site, false);
        let loaded = if self.db_down() {
            Err(Unavailable::Database("recently failed".into()))
        } else {
            self.fresh
                .try_get_with(key.clone(), async {
                    loop {
                        let epoch = self.epoch.load(Ordering::SeqCst);
                        let site = self.load_host(host).await?;
                        if self.epoch.load(Ordering::SeqCst) == epoch {
                            return Ok(Timed::new(site, epoch, self.site_ttl, &key));
                        }
                    }
                })
                .await
                .map_err(|e: Arc<Unavailable>| (*e).clone())
        };
        match loaded {
            Ok(entry) => {
                self.settle(&key, &entry).await;
                Ok(entry.value.clone())
            }
            Err(e) => match self.last_known.get(&key).await {
                Some(stale) => {
                    self.metrics.stale_served.inc();
                    Ok(Some(stale))
                }
                None => Err(e),
            },
        }
    }

    /// Loads a host again off the visitor's path (see the module docs). A failed load keeps the
    /// entry until its end, after which a visitor's lookup meets the failure (and `last_known`).
    fn reload(self: &Arc<Self>, key: String, host: SiteHost) {
        let sites = self.clone();
        tokio::spawn(async move {
            let epoch = sites.epoch.load(Ordering::SeqCst);
            let Ok(site) = sites.load_host(&host).await else {
                return;
            };
            if sites.epoch.load(Ordering::SeqCst) != epoch {
                return; // a change landed during the load: the next visitor loads afresh
            }
            let entry = Timed::new(site, epoch, sites.site_ttl, &key);
            sites.fresh.insert(key.clone(), entry.clone()).await;
            sites.metrics.reloaded(CacheName::site);
            sites.settle(&key, &entry).await;
        });
    }

    /// After a host entry was stored: drops it again if a change landed since its load began
    /// (its invalidation may have run before the insert), else keeps `last_known` in step.
    async fn settle(&self, key: &str, entry: &Timed<Option<Arc<Site>>>) {
        if entry.stale_under(self.epoch.load(Ordering::SeqCst)) {
            self.fresh.invalidate(key).await;
            return;
        }
        match &entry.value {
            Some(s) => self.last_known.insert(key.to_owned(), s.clone()).await,
            // Gone (deleted, or its slug or domain changed): never serve it again.
            None => self.last_known.invalidate(key).await,
        }
    }

    async fn load_host(&self, host: &SiteHost) -> Result<Option<Arc<Site>>, Unavailable> {
        let row = match host {
            SiteHost::Slug(slug) => self.db(self.store.site_by_slug(slug)).await?,
            // The holder of the host's unit (the host or its www. twin verified): one row at
            // most, so a twin never answers for anyone but its holder.
            SiteHost::Domain(domain) => self.db(self.store.site_by_domain(domain)).await?,
        };
        let Some(row) = row else { return Ok(None) };
        let deploy = match &row {
            SiteRow {
                is_published: true,
                active_deploy_id: Some(id),
                manifest_key: Some(key),
                ..
            } => Some(LiveDeploy {
                id: *id,
                manifest_key: key.clone(),
            }),
            _ => None,
        };
        let (hsts, account, analytics) = (row.hsts(), row.account(), row.analytics());
        let base_url = match &row.verified_domain {
            Some(domain) => format!("https://{domain}"),
            None => self.settings.preview_url(&row.slug),
        };
        Ok(Some(Arc::new(Site {
            project_id: row.project_id,
            account,
            slug: row.slug,
            deploy,
            hsts,
            analytics,
            verified_domain: row.verified_domain,
            base_url,
        })))
    }

    /// The project's live redirect rules compiled once per change; the deploy's own rules
    /// while the database cannot be read.
    pub async fn matcher(&self, site: &Site, deploy: &DeployView) -> Arc<Matcher> {
        let site_generation = self
            .generations(site.project_id)
            .site
            .load(Ordering::Acquire);
        let key = (site.project_id, site_generation);
        if let Some(m) = self.matchers.get(&key).await {
            return m;
        }
        match self.db(self.store.project_redirects(site.project_id)).await {
            Ok(rules) => {
                let m = Arc::new(Matcher::new(
                    rules.iter().map(|(f, t)| (f.as_str(), t.as_str())),
                ));
                self.matchers.insert(key, m.clone()).await;
                m
            }
            Err(e) => {
                tracing::debug!(error = %e, project = site.project_id.get(), "redirects from the deploy manifest");
                deploy.manifest_matcher()
            }
        }
    }

    /// An object's bytes, from memory when they are there (a hot route may name the entry).
    pub async fn file(&self, key: &str) -> Result<Arc<Bytes>, Arc<BlobError>> {
        let entry = self
            .files
            .entry_by_ref(key)
            .or_try_insert_with(async { self.blobs.get(key).await.map(Arc::new) })
            .await?;
        self.metrics.cache(CacheName::file, !entry.is_fresh());
        Ok(entry.into_value())
    }

    /// Applies one change-feed entry: what it made stale is never served again.
    pub fn apply(&self, change: &Change) {
        let project = change.project_id;
        let g = self.generations(project);
        let bump = |n: &AtomicU64| n.fetch_add(1, Ordering::SeqCst);
        if change.kind == "records" {
            bump(&g.records);
            return;
        }
        // Between the two bumps no slow path keeps its answer as a hot route.
        bump(&self.changing);
        bump(&g.site);
        if change.kind != "redirects" {
            bump(&g.records);
            // deploy, project, certificate and any kind this edge does not know yet: look the
            // host up again.
            self.forget_hosts(project);
        }
        if project == ProjectId(0) {
            bump(&self.hot_epoch);
        }
        bump(&self.changing);
    }

    fn forget_hosts(&self, project: ProjectId) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        let fresh = self.fresh.invalidate_entries_if(move |_, v| {
            v.value.as_ref().is_none_or(|s| s.project_id == project)
        });
        let known = self
            .last_known
            .invalidate_entries_if(move |_, s| s.project_id == project);
        if let Err(e) = fresh.and(known) {
            // Only possible if the caches were built without closure support: drop everything.
            tracing::error!(error = %e, "cache invalidation by predicate failed");
            self.fresh.invalidate_all();
            self.last_known.invalidate_all();
        }
    }
}
