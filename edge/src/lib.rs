//! The Vitrine edge: the hyper server that serves published sites to visitors.
//!
//! [`Edge::build`] binds the visitor listener and the admin listener (port 0 allowed), and
//! starts the background services: the change-feed reader ([`feed`]) and the form-spool
//! replayer ([`submissions`]). Every service watches one shutdown signal; [`Edge::stop`] lets
//! in-flight requests finish.
//!
//! Modules, in the order a request meets them:
//! - [`host`]: Host header → site key;
//! - [`sites`]: the in-memory caches (hosts, manifests, files, renders) and their invalidation;
//! - [`visit`]: the request order (redirects, statics, assets, collection and live pages, 404);
//! - [`serve`]: static responses (ETag/304, HEAD, Range, br/gzip) and the fixed pages;
//! - [`live`]: collection pages, pages with database-fed lists and the read API;
//! - [`submissions`]: `/_forms` with its disk spool;
//! - [`feed`]: the change feed that keeps the caches true;
//! - [`tls`]: the HTTPS listener's certificate lookup (memory, database, on-demand issuance);
//! - [`acme`]: ordering and renewing certificates, with the lease, back-off and cap;
//! - [`metrics`]: Prometheus counters for `/metrics` on the admin listener;
//! - [`heartbeat`]: the node's report to the database every few seconds, for the ops screen.
//!
//! The visitor listeners are plain HTTP (`EDGE_HTTP_LISTEN`: HTTP/1.1, or HTTP/2 with prior
//! knowledge) and HTTPS (`EDGE_HTTPS_LISTEN`: rustls, ALPN h2 and http/1.1), both through
//! hyper-util's auto builder. Slow clients are cut off: a connection that sends nothing within
//! `EDGE_HEADER_TIMEOUT_MS` is closed, and hyper's own header-read timeout (same value) bounds
//! an HTTP/1 request head that trickles in. A head larger than `EDGE_MAX_HEADER_BYTES` gets
//! 431 from hyper (HTTP/1) or a refused stream (HTTP/2's header-list limit).

pub mod acme;
pub mod feed;
pub mod heartbeat;
pub mod host;
pub mod live;
pub mod metrics;
pub mod serve;
pub mod sites;
pub mod submissions;
pub mod tls;
pub mod visit;

use std::{
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    sync::Arc,
    time::Duration,
};

use hyper::{Request, StatusCode, body::Incoming, service::service_fn};
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto, graceful::GracefulShutdown},
};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::watch,
    task::JoinHandle,
};
use vitrine_shared::{Settings, Store, blob::BlobStore};

pub use serve::NOT_FOUND_PAGE;

use crate::{
    acme::Acme,
    metrics::Metrics,
    serve::{NO_STORE, Resp, TEXT, respond},
    sites::Sites,
    submissions::Forms,
    tls::Certs,
    visit::Visits,
};

/// Which listener a request came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    Visitors,
    VisitorsTls,
    Admin,
}

/// How often the form spool is replayed into the database.
const REPLAY_EVERY: Duration = Duration::from_secs(2);

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
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

/// What a connection needs, shared by every connection of a listener.
struct Conn {
    kind: Listener,
    visits: Arc<Visits>,
    builder: auto::Builder<TokioExecutor>,
    header_timeout: Duration,
    certs: Arc<Certs>,
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
        let http = TcpListener::bind(&settings.edge_http_listen).await?;
        let https = TcpListener::bind(&settings.edge_https_listen).await?;
        let admin = TcpListener::bind(&settings.edge_admin_listen).await?;
        let (http_addr, https_addr, admin_addr) =
            (http.local_addr()?, https.local_addr()?, admin.local_addr()?);
        let metrics = Arc::new(Metrics::default());
        let acme = Acme::from_settings(settings, store.clone(), metrics.clone())?;
        let certs = Arc::new(Certs::new(
            settings,
            store.clone(),
            acme.clone(),
            metrics.clone(),
        )?);
        let sites = Arc::new(Sites::new(settings, store.clone(), blobs, metrics.clone()));
        let forms = Forms::new(
            store,
            &settings.edge_spool_dir(),
            settings.edge_form_rate_per_minute,
        )?;
        let visits = Arc::new(Visits {
            platform_domain: settings.platform_domain(),
            sites: sites.clone(),
            forms: forms.clone(),
            metrics: metrics.clone(),
            certs: certs.clone(),
            https_port: https_addr.port(),
            trusted_proxies: settings.trusted_proxies()?,
        });
        let header_timeout = Duration::from_millis(settings.edge_header_timeout_ms.max(1));
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .max_buf_size(settings.edge_max_header_bytes.max(8192));
        builder
            .http2()
            .timer(TokioTimer::new())
            .max_header_list_size(
                u32::try_from(settings.edge_max_header_bytes).unwrap_or(u32::MAX),
            );
        let conn = |kind| {
            Arc::new(Conn {
                kind,
                visits: visits.clone(),
                builder: builder.clone(),
                header_timeout,
                certs: certs.clone(),
            })
        };
        let (shutdown, rx) = watch::channel(false);
        let mut tasks = vec![
            tokio::spawn(serve(http, conn(Listener::Visitors), rx.clone())),
            tokio::spawn(serve(https, conn(Listener::VisitorsTls), rx.clone())),
            tokio::spawn(serve(admin, conn(Listener::Admin), rx.clone())),
            tokio::spawn(feed::run(
                sites.clone(),
                certs.clone(),
                Duration::from_millis(settings.edge_change_poll_ms.max(1)),
                rx.clone(),
            )),
            tokio::spawn(forms.clone().run_replayer(REPLAY_EVERY, rx.clone())),
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
            shutdown,
            tasks,
        })
    }

    /// Stops accepting, lets in-flight requests finish (up to 10 s), replays the form spool
    /// once more, then returns.
    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
    }
}

async fn serve(listener: TcpListener, conn: Arc<Conn>, mut shutdown: watch::Receiver<bool>) {
    let graceful = GracefulShutdown::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let watcher = graceful.watcher();
                let conn = conn.clone();
                tokio::spawn(async move {
                    // A client that opens a connection and sends nothing is cut off here; one
                    // that starts and then trickles is cut off by hyper's header timeout.
                    if !first_byte_within(&stream, conn.header_timeout).await {
                        return;
                    }
                    if conn.kind != Listener::VisitorsTls {
                        let io = TokioIo::new(stream);
                        return drive(conn, io, peer.ip(), watcher).await;
                    }
                    if let Some(tls) = conn.handshake(stream).await {
                        drive(conn, TokioIo::new(tls), peer.ip(), watcher).await;
                    }
                });
            }
            _ = shutdown.wait_for(|s| *s) => break,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
}

/// Serves one connection (plain or TLS) until it ends or the shutdown drains it.
async fn drive<IO>(
    conn: Arc<Conn>,
    io: IO,
    peer: IpAddr,
    watcher: hyper_util::server::graceful::Watcher,
) where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let c = conn.clone();
    let service = service_fn(move |req| {
        let c = c.clone();
        async move { Ok::<_, Infallible>(c.handle(req, peer).await) }
    });
    let served = conn.builder.serve_connection(io, service).into_owned();
    let _ = watcher.watch(served).await;
}

async fn first_byte_within(stream: &TcpStream, limit: Duration) -> bool {
    let mut one = [0u8; 1];
    matches!(
        tokio::time::timeout(limit, stream.peek(&mut one)).await,
        Ok(Ok(n)) if n > 0
    )
}

impl Conn {
    /// Reads the ClientHello, picks the certificate by its server name (see [`tls`]) and
    /// completes the handshake, all within the header timeout (issuance aside). `None`: the
    /// connection is closed.
    async fn handshake(
        &self,
        stream: TcpStream,
    ) -> Option<tokio_rustls::server::TlsStream<TcpStream>> {
        let acceptor =
            tokio_rustls::LazyConfigAcceptor::new(rustls::server::Acceptor::default(), stream);
        let start = match tokio::time::timeout(self.header_timeout, acceptor).await {
            Ok(Ok(start)) => start,
            _ => {
                self.certs.handshake_failed("bad_client_hello");
                return None;
            }
        };
        let sni = start.client_hello().server_name().map(str::to_owned);
        let config = self.certs.config_for(sni.as_deref()).await.ok()?;
        tokio::time::timeout(self.header_timeout, start.into_stream(config))
            .await
            .ok()?
            .ok()
    }

    async fn handle(&self, req: Request<Incoming>, peer: IpAddr) -> Resp {
        match (self.kind, req.uri().path()) {
            (_, "/healthz") => respond(StatusCode::OK, TEXT, NO_STORE, "ok"),
            (Listener::Admin, "/metrics") => {
                self.certs.settle().await;
                let caches = self.visits.sites.cache_sizes().await;
                let spooled = self.visits.forms.spooled().await;
                self.visits.metrics.refresh(&caches, spooled);
                respond(
                    StatusCode::OK,
                    "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    NO_STORE,
                    self.visits.metrics.encode(),
                )
            }
            (Listener::Admin, _) => respond(StatusCode::NOT_FOUND, TEXT, NO_STORE, "not found"),
            (Listener::Visitors, _) => self.visits.handle(req, peer, false).await,
            (Listener::VisitorsTls, _) => self.visits.handle(req, peer, true).await,
        }
    }
}

/// A tiny deterministic generator for the unit tests' input sweeps.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
}
