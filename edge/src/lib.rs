//! The Vitrine edge: the hyper server that serves published sites to visitors.
//!
//! [`Edge::build`] binds the visitor listener and the admin listener (port 0 allowed), and
//! starts the background services: the change-feed reader ([`feed`]) and the form-spool
//! replayer ([`submissions`]). Every service watches one shutdown signal; [`Edge::stop`] lets
//! in-flight requests finish.
//!
//! Modules on a request's path, in the order a request meets them; each uses only the modules
//! listed below it, so none imports another in a circle (the workspace's
//! `tests/tests/architecture.rs` holds the code to this list):
//! - [`h1`]: the HTTP/1.1 front, which answers `GET`s and `HEAD`s without hyper's codec and
//!   hands the rest to this root's `drive` (the one module that uses the root's items);
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
//! - [`listen`]: the visitor listeners' sockets, a group per address sharing one port.
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
//! The first socket of each address is bound without `SO_REUSEPORT` (then given it), so an
//! address another process holds is refused as in use rather than silently shared
//! ([`listen`]). The admin listener and the background services (change feed, spool replay,
//! heartbeat, renewals, ACME orders) run on the runtime that built the edge. Slow clients are
//! cut off: a connection that sends nothing within `EDGE_HEADER_TIMEOUT_MS` is closed, and
//! hyper's own header-read timeout (same value) bounds an HTTP/1 request head that trickles
//! in. A head larger than `EDGE_MAX_HEADER_BYTES` gets 431 from hyper (HTTP/1) or a refused
//! stream (HTTP/2's header-list limit). Every connection hyper serves is closed after
//! `EDGE_IDLE_TIMEOUT_MS` without a request in progress, or when a write to the client has
//! been blocked for `EDGE_WRITE_TIMEOUT_MS` ([`liveness`]); HTTP/2 connections are also pinged
//! and closed when a ping goes unanswered.

pub mod acme;
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

use std::{
    convert::Infallible,
    io,
    net::{IpAddr, SocketAddr},
    sync::Arc,
    thread,
    time::Duration,
};

use futures_util::future::Either;
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

pub use listen::bind_group;
pub use pages::NOT_FOUND_PAGE;
pub use request::Listener;

use crate::{
    acme::Acme,
    hot::{HotRoutes, Local},
    metrics::Metrics,
    request::VisitBody,
    serve::{NO_STORE, Resp, TEXT, respond},
    sites::Sites,
    submissions::{FormLimits, Forms},
    tls::Certs,
    visit::Visits,
};

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
    /// The visitor threads (see the module docs).
    workers: Vec<thread::JoinHandle<()>>,
}

/// What a connection needs, shared by every connection of a listener.
struct Conn {
    kind: Listener,
    visits: Arc<Visits>,
    builder: auto::Builder<TokioExecutor>,
    /// The same, speaking only the protocol a TLS connection's ALPN agreed on.
    http1_only: auto::Builder<TokioExecutor>,
    http2_only: auto::Builder<TokioExecutor>,
    header_timeout: Duration,
    /// `EDGE_IDLE_TIMEOUT_MS` and `EDGE_WRITE_TIMEOUT_MS` (see [`liveness`]).
    idle_timeout: Duration,
    write_timeout: Duration,
    /// `EDGE_MAX_HEADER_BYTES`: the longest request head the plain front reads before it
    /// leaves the request to hyper (which answers 431).
    max_header_bytes: usize,
    /// `EDGE_PLAIN_FRONT`: whether [`h1`]'s front reads HTTP/1.1 requests before hyper.
    front: bool,
    certs: Arc<Certs>,
    /// The visitor thread's own state (visitor listeners only).
    local: Option<Local>,
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
            certs: certs.clone(),
            https_port: https_addr.port(),
            trusted_proxies: settings.trusted_proxies()?,
        });
        let header_timeout = Duration::from_millis(settings.edge_header_timeout_ms.max(1));
        let max_header_bytes = settings.edge_max_header_bytes.max(8192);
        let idle_timeout = Duration::from_millis(settings.edge_idle_timeout_ms.max(1));
        let write_timeout = Duration::from_millis(settings.edge_write_timeout_ms.max(1));
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .max_buf_size(max_header_bytes);
        builder
            .http2()
            .timer(TokioTimer::new())
            // A peer silent for the idle timeout is pinged; one that cannot answer within the
            // write timeout (gone, or no longer reading) is closed.
            .keep_alive_interval(idle_timeout)
            .keep_alive_timeout(write_timeout)
            .max_header_list_size(
                u32::try_from(settings.edge_max_header_bytes).unwrap_or(u32::MAX),
            );
        let hot_ttl = hot::ttl(Duration::from_millis(settings.edge_site_ttl_ms.max(4)));
        let conn = |kind| {
            Arc::new(Conn {
                kind,
                visits: visits.clone(),
                builder: builder.clone(),
                http1_only: builder.clone().http1_only(),
                http2_only: builder.clone().http2_only(),
                header_timeout,
                idle_timeout,
                write_timeout,
                max_header_bytes,
                front: settings.edge_plain_front,
                certs: certs.clone(),
                local: (kind != Listener::Admin).then(|| Local {
                    hot: HotRoutes::new(settings.edge_hot_cache_bytes, hot_ttl),
                    counts: metrics.shard(),
                }),
            })
        };
        let (shutdown, rx) = watch::channel(false);
        let workers = http
            .into_iter()
            .zip(https)
            .enumerate()
            .map(|(i, (http, https))| {
                // Each thread its own `Conn`s: their reference counts stay on its core.
                let (plain, tls) = (conn(Listener::Visitors), conn(Listener::VisitorsTls));
                let rx = rx.clone();
                thread::Builder::new()
                    // `edge:{http port}/{n}`, within the 15 bytes a thread name keeps.
                    .name(format!("edge:{}/{i}", http_addr.port()))
                    .spawn(move || visitor_thread(http, plain, https, tls, rx))
            })
            .collect::<io::Result<Vec<_>>>()?;
        let mut tasks = vec![
            tokio::spawn(serve(admin, conn(Listener::Admin), rx.clone())),
            tokio::spawn(feed::run(
                sites.clone(),
                certs.clone(),
                Duration::from_millis(settings.edge_change_poll_ms.max(1)),
                feed_at,
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

/// One visitor thread: its own current-thread runtime serving its sockets of both visitor
/// listeners until the shutdown signal (see the module docs).
fn visitor_thread(
    http: std::net::TcpListener,
    plain: Arc<Conn>,
    https: std::net::TcpListener,
    tls: Arc<Conn>,
    shutdown: watch::Receiver<bool>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!(error = %e, "visitor thread: no runtime");
            return;
        }
    };
    runtime.block_on(async move {
        let (http, https) = match (TcpListener::from_std(http), TcpListener::from_std(https)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!(error = %e, "visitor thread: listener");
                return;
            }
        };
        let plain = tokio::spawn(serve(http, plain, shutdown.clone()));
        let tls = tokio::spawn(serve(https, tls, shutdown));
        let _ = tokio::join!(plain, tls);
    });
}

async fn serve(listener: TcpListener, conn: Arc<Conn>, mut shutdown: watch::Receiver<bool>) {
    let graceful = GracefulShutdown::new();
    // For the plain front, which closes idle connections itself (see [`h1`]).
    let stopping = shutdown.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let watcher = graceful.watcher();
                let conn = conn.clone();
                let stop = stopping.clone();
                tokio::spawn(async move {
                    // A client that opens a connection and sends nothing is cut off here; one
                    // that starts and then trickles is cut off by the header timeout (the plain
                    // front's, or hyper's). On TLS the ClientHello's own time limit does both
                    // (see [`Conn::handshake`]), without a peek per connection.
                    if conn.kind != Listener::VisitorsTls
                        && !first_byte_within(&stream, conn.header_timeout).await
                    {
                        return;
                    }
                    match conn.kind {
                        Listener::Visitors => {
                            h1::serve(conn, stream, peer.ip(), watcher, stop, false, None).await;
                        }
                        Listener::Admin => {
                            drive(conn, TokioIo::new(stream), peer.ip(), watcher, None).await;
                        }
                        Listener::VisitorsTls => {
                            let Some(tls) = conn.handshake(stream).await else { return };
                            // h2 goes to hyper; HTTP/1.1 (chosen, or no ALPN) to the front,
                            // which hands hyper only what ALPN agreed on.
                            let (peer, alpn) = (peer.ip(), tls.get_ref().1.alpn_protocol());
                            match alpn {
                                Some(b"h2") => {
                                    let io = TokioIo::new(tls);
                                    drive(conn, io, peer, watcher, Some(Alpn::H2)).await;
                                }
                                Some(_) => {
                                    let alpn = Some(Alpn::H1);
                                    h1::serve(conn, tls, peer, watcher, stop, true, alpn).await;
                                }
                                None => h1::serve(conn, tls, peer, watcher, stop, true, None).await,
                            }
                        }
                    }
                });
            }
            _ = shutdown.wait_for(|s| *s) => break,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
}

/// The protocol a TLS connection's ALPN agreed on.
#[derive(Clone, Copy)]
pub(crate) enum Alpn {
    H1,
    H2,
}

/// Serves one connection (plain or TLS) until it ends, the shutdown drains it, or it is
/// idle or stuck for too long ([`liveness`]: dropping it closes it). With `alpn`, only that
/// protocol is spoken (RFC 9113 §3.2: after ALPN h2, anything but h2's preface is a
/// connection error, not an HTTP/1.1 request); without, hyper tells HTTP/2 by its preface.
async fn drive<IO>(
    conn: Arc<Conn>,
    io: IO,
    peer: IpAddr,
    watcher: hyper_util::server::graceful::Watcher,
    alpn: Option<Alpn>,
) where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let activity = liveness::Activity::new();
    let c = conn.clone();
    let requests = activity.clone();
    // A hot route is answered before any future exists; everything else runs boxed. The
    // service future is moved into place for every request, so it stays small either way.
    // Each request stays in progress until hyper has taken its whole body.
    let service = service_fn(move |req| {
        let request = requests.begin();
        match c.hot(&req) {
            Some(r) => Either::Left(std::future::ready(Ok::<_, Infallible>(
                r.map(|b| liveness::Tracked::new(b, request)),
            ))),
            None => {
                let c = c.clone();
                Either::Right(Box::pin(async move {
                    let r = c.handle(req.map(http_body_util::Either::Left), peer).await;
                    Ok::<_, Infallible>(r.map(|b| liveness::Tracked::new(b, request)))
                }))
            }
        }
    });
    let io = liveness::Watched::new(io, activity.clone());
    let builder = match alpn {
        None => &conn.builder,
        Some(Alpn::H1) => &conn.http1_only,
        Some(Alpn::H2) => &conn.http2_only,
    };
    let served = watcher.watch(builder.serve_connection(io, service).into_owned());
    tokio::select! {
        _ = served => {}
        why = activity.expired(conn.idle_timeout, conn.write_timeout) => {
            conn.visits.metrics.connection_closed(why.label());
        }
    }
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
            Ok(Err(_)) => {
                self.certs.handshake_failed("bad_client_hello");
                return None;
            }
            // Silent, or too slow to send its ClientHello: closed like a silent plain client.
            Err(_) => return None,
        };
        let sni = start.client_hello().server_name().map(str::to_owned);
        let config = self.certs.config_for(sni.as_deref()).await.ok()?;
        tokio::time::timeout(self.header_timeout, start.into_stream(config))
            .await
            .ok()?
            .ok()
    }

    async fn metrics(&self) -> Resp {
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

    /// The hot routes' answer, for the visitor listeners (see [`crate::hot`]).
    fn hot(&self, req: &Request<Incoming>) -> Option<Resp> {
        let local = self.local.as_ref()?;
        match self.kind {
            Listener::Visitors => self.visits.hot(local, req, false),
            Listener::VisitorsTls => self.visits.hot(local, req, true),
            Listener::Admin => None,
        }
    }

    async fn handle(&self, req: Request<VisitBody>, peer: IpAddr) -> Resp {
        match (self.kind, req.uri().path()) {
            (_, "/healthz") => respond(StatusCode::OK, TEXT, NO_STORE, "ok"),
            (Listener::Admin, "/metrics") => self.metrics().await,
            (Listener::Admin, _) => respond(StatusCode::NOT_FOUND, TEXT, NO_STORE, "not found"),
            (kind, _) => match &self.local {
                Some(local) => self.visits.handle(req, peer, kind, local).await,
                None => respond(StatusCode::NOT_FOUND, TEXT, NO_STORE, "not found"),
            },
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
