//! The Vitrine edge: the hyper server that serves published sites to visitors.
//!
//! [`Edge::build`] binds the visitor listener and the admin listener (port 0 allowed), and
//! starts the background services: the change-feed reader ([`feed`]) and the form-spool
//! replayer ([`submissions`]). Every service watches one shutdown signal; [`Edge::stop`] lets
//! in-flight requests finish.
//!
//! Modules on a request's path, in the order a request meets them; each uses only the modules
//! listed below it, so none imports another in a circle (the workspace's
//! `tests/tests/architecture.rs` holds the code to this list, and to this root being only the
//! crate's face: no module uses an item of it):
//! - [`accept`]: the visitor threads and every listener's accept loop, the first-byte limit
//!   and the TLS handshake, then each connection to the front or to hyper;
//! - [`h1`]: the HTTP/1.1 front, which answers `GET`s and `HEAD`s without hyper's codec and
//!   hands the rest of a connection to hyper ([`conn`]);
//! - [`conn`]: a connection as hyper serves it, and the handler both hyper and the front call
//!   (`/healthz`, the admin `/metrics`, or the visit);
//! - [`visit`]: the journey: hot routes first, then host → site, redirects, statics, assets,
//!   collection and live pages, 404;
//! - [`hot`]: each visitor thread's hot routes and counts ([`hot::Local`]);
//! - [`forms`]: `/_forms`, and the page landed on after a form was sent;
//! - [`live`]: collection pages, pages with database-fed lists and the read API;
//! - [`request`]: the per-request context ([`request::Visit`]), what a hot-route lookup reads,
//!   and the checks of host, path and query;
//! - [`pages`]: the edge's own pages and error answers (404, 503, 405, JSON errors…);
//! - [`serve`]: responses, static files (ETag/304, HEAD, Range, br/gzip) and HSTS;
//! - [`head`]: HTTP/1.1 response heads as hyper writes them;
//! - [`sites`]: the in-memory caches (hosts, manifests, files, renders) and their invalidation;
//! - [`host`]: Host header → site key;
//! - [`spread`]: cache lifetimes spread by key, so entries made together are not refilled in
//!   one wave.
//!
//! Beside the path (no import cycle among these either):
//! - [`submissions`]: the form store, with its disk spool;
//! - [`feed`]: the change feed that keeps the caches true;
//! - [`tls`]: the HTTPS listener's certificate lookup (memory, database, on-demand issuance);
//! - [`acme`]: ordering and renewing certificates, with the lease, back-off and cap;
//! - [`metrics`]: Prometheus counters for `/metrics` on the admin listener;
//! - [`heartbeat`]: the node's report to the database every few seconds, for the ops screen;
//! - [`liveness`]: closing connections that stay idle or stop reading;
//! - [`listen`]: the visitor listeners' sockets, a group per address sharing one port;
//! - [`analytics`]: visitor counts per thread, flushed to the database, and the tap links'
//!   `/_go`.
//!
//! The visitor listeners are plain HTTP (`EDGE_HTTP_LISTEN`: HTTP/1.1, or HTTP/2 with prior
//! knowledge) and HTTPS (`EDGE_HTTPS_LISTEN`: rustls, ALPN h2 and http/1.1), both through
//! hyper-util's auto builder; on HTTPS the protocol ALPN agreed on is the only one spoken
//! (`tests/edge/h2_conformance.rs` holds both listeners to RFC 9113). On the plain listener,
//! and on TLS connections that did not choose h2, [`h1`]'s front reads HTTP/1.1 `GET` and
//! `HEAD` requests first and answers them through the same handler without hyper's codec;
//! anything else hands the connection to hyper (`EDGE_PLAIN_FRONT=false` hands every
//! connection to hyper).
//!
//! **Thread per core.** Visitors are served by `EDGE_WORKERS` threads (one per core by
//! default), each running its own single-threaded tokio runtime with its own listening socket
//! on each visitor address (`SO_REUSEPORT`), so the kernel spreads new connections over the
//! threads and a connection, its requests and their wake-ups never leave one thread: no
//! work-stealing queues, no cross-core wake-ups, and the caches' reference counts and locks
//! are the only state the threads share. This is nginx's worker model; measured against
//! tokio's work-stealing runtime on the same edge it is what `benches/edge-load.sh` shows.
//! The threads and their accept loops are [`accept`]'s. The first socket of each address is
//! bound without `SO_REUSEPORT` (then given it), so an address another process holds is
//! refused as in use rather than silently shared ([`listen`]). The admin listener and the background services (change feed, spool replay,
//! heartbeat, renewals, ACME orders) run on the runtime that built the edge. Slow clients are
//! cut off: a connection that sends nothing within `EDGE_HEADER_TIMEOUT_MS` is closed, and
//! hyper's own header-read timeout (same value) bounds an HTTP/1 request head that trickles
//! in. A head larger than `EDGE_MAX_HEADER_BYTES` gets 431 from hyper (HTTP/1) or a refused
//! stream (HTTP/2's header-list limit). Every connection hyper serves is closed after
//! `EDGE_IDLE_TIMEOUT_MS` without a request in progress, or when a write to the client has
//! been blocked for `EDGE_WRITE_TIMEOUT_MS` ([`liveness`]); HTTP/2 connections are also pinged
//! and closed when a ping goes unanswered.

mod accept;
pub mod acme;
pub mod analytics;
mod conn;
pub mod feed;
pub mod forms;
mod h1;
mod head;
pub mod heartbeat;
pub mod host;
pub mod hot;
mod listen;
pub mod live;
pub mod liveness;
pub mod metrics;
pub mod pages;
pub mod request;
pub mod serve;
pub mod sites;
pub mod spread;
pub mod submissions;
pub mod tls;
pub mod visit;

use std::{net::SocketAddr, sync::Arc, thread, time::Duration};

use tokio::{net::TcpListener, sync::watch, task::JoinHandle};
use vitrine_shared::{Settings, Store, blob::BlobStore};

pub use listen::bind_group;
pub use pages::NOT_FOUND_PAGE;
pub use request::Listener;

use crate::{
    acme::Acme,
    analytics::Analytics,
    conn::Conns,
    metrics::Metrics,
    sites::Sites,
    submissions::{FormLimits, Forms},
    tls::Certs,
    visit::Visits,
};

/// How often the form spool is replayed into the database.
const REPLAY_EVERY: Duration = Duration::from_secs(2);

/// A running edge: its listeners' addresses, what tests and the benchmarks inspect, and the
/// threads and tasks [`Edge::stop`] ends.
pub struct Edge {
    pub http_addr: SocketAddr,
    pub https_addr: SocketAddr,
    pub admin_addr: SocketAddr,
    /// The certificates (for tests and the bench to inspect).
    pub certs: Arc<Certs>,
    pub acme: Option<Arc<Acme>>,
    /// The caches, for tests and the bench to inspect.
    pub sites: Arc<Sites>,
    pub metrics: Arc<Metrics>,
    pub forms: Arc<Forms>,
    /// The visitor counts (for tests to flush).
    pub analytics: Arc<Analytics>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
    /// The visitor threads (see the module docs).
    workers: Vec<thread::JoinHandle<()>>,
}

impl Edge {
    /// Connects the store and the blob store the settings name, then binds (see
    /// [`Edge::build_with`]).
    pub async fn build(settings: &Settings) -> anyhow::Result<Edge> {
        let store = Store::connect(&settings.database_url()).await?;
        let blobs = BlobStore::from_settings(settings)?;
        Edge::build_with(settings, store, blobs).await
    }

    /// Binds the visitor and admin listeners and starts the background services with the
    /// given store and blob store.
    pub async fn build_with(
        settings: &Settings,
        store: Store,
        blobs: BlobStore,
    ) -> anyhow::Result<Edge> {
        let workers = settings.edge_workers();
        let http = bind_group(&settings.edge_http_listen, workers)?;
        let https = bind_group(&settings.edge_https_listen, workers)?;
        let admin = TcpListener::bind(&settings.edge_admin_listen).await?;
        let (http_addr, https_addr, admin_addr) = (
            http[0].local_addr()?,
            https[0].local_addr()?,
            admin.local_addr()?,
        );
        let metrics = Arc::new(Metrics::default());
        let acme = Acme::from_settings(settings, store.clone(), metrics.clone())?;
        let certs = Arc::new(Certs::new(
            settings,
            store.clone(),
            acme.clone(),
            metrics.clone(),
        )?);
        let sites = Arc::new(Sites::new(settings, store.clone(), blobs, metrics.clone()));
        // Before the first visitor: what the feed already holds cannot make anything stale.
        let feed_at = feed::Reader::at_end(&store).await;
        let analytics = Analytics::new(settings, store.clone());
        analytics.load_key().await;
        let forms = Forms::new(
            store,
            &settings.edge_spool_dir(),
            FormLimits::from_settings(settings),
            metrics.clone(),
        )?;
        let visits = Arc::new(Visits {
            platform_domain: settings.platform_domain(),
            sites: sites.clone(),
            forms: forms.clone(),
            metrics: metrics.clone(),
            analytics: analytics.clone(),
            certs: certs.clone(),
            https_port: https_addr.port(),
            trusted_proxies: settings.trusted_proxies()?,
        });
        let conns = Conns::new(settings, visits);
        let (shutdown, rx) = watch::channel(false);
        let workers = accept::spawn_visitors(http, https, &conns, http_addr.port(), &rx)?;
        let mut tasks = vec![
            tokio::spawn(accept::run(admin, conns.make(Listener::Admin), rx.clone())),
            tokio::spawn(feed::run(
                sites.clone(),
                certs.clone(),
                Duration::from_millis(settings.edge_change_poll_ms.max(1)),
                feed_at,
                rx.clone(),
            )),
            tokio::spawn(forms.clone().run_replayer(REPLAY_EVERY, rx.clone())),
            tokio::spawn(analytics.clone().run(rx.clone())),
            tokio::spawn(
                heartbeat::Heartbeat::new(
                    settings,
                    http_addr,
                    sites.store.clone(),
                    metrics.clone(),
                    certs.clone(),
                )
                .run(rx.clone()),
            ),
        ];
        if let Some(acme) = &acme {
            tasks.push(tokio::spawn(acme.clone().run_renewals(
                Duration::from_secs(settings.acme_renew_check_secs.max(1)),
                rx,
            )));
        }
        Ok(Edge {
            http_addr,
            https_addr,
            admin_addr,
            certs,
            acme,
            sites,
            metrics,
            forms,
            analytics,
            shutdown,
            tasks,
            workers,
        })
    }

    /// Stops accepting, lets in-flight requests finish (up to 10 s), replays the form spool
    /// once more, then returns.
    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        let workers = self.workers;
        let joined = tokio::task::spawn_blocking(move || {
            for w in workers {
                let _ = w.join();
            }
        });
        let _ = joined.await;
        for t in self.tasks {
            let _ = t.await;
        }
    }
}
