//! A connection as hyper serves it, and the handler every request of the edge reaches.
//!
//! [`Conn`] is what a connection needs, one per listener and visitor thread (made by
//! [`Conns::make`]): the hyper builders, the slow-client limits and the visitor thread's own
//! hot routes. [`drive`] serves a connection through hyper until it ends, the shutdown drains
//! it, or it stays idle or stuck too long ([`crate::liveness`]). [`Conn::handle`] is the one
//! handler both hyper's service and the HTTP/1.1 front ([`crate::h1`]) call: `/healthz`, the
//! admin listener's `/metrics`, or the visit ([`crate::visit`]).

use std::{convert::Infallible, net::IpAddr, sync::Arc, time::Duration};

use futures_util::future::Either;
use hyper::{Request, StatusCode, body::Incoming, service::service_fn};
use hyper_util::{
    rt::{TokioExecutor, TokioTimer},
    server::{conn::auto, graceful::Watcher},
};
use vitrine_shared::Settings;

use crate::{
    hot::{self, HotRoutes, Local},
    liveness,
    request::{Listener, VisitBody},
    serve::{NO_STORE, Resp, TEXT, respond},
    tls::Certs,
    visit::Visits,
};

/// What a connection needs, shared by every connection of a listener.
pub(crate) struct Conn {
    pub(crate) kind: Listener,
    pub(crate) visits: Arc<Visits>,
    builder: auto::Builder<TokioExecutor>,
    /// The same, speaking only the protocol a TLS connection's ALPN agreed on.
    http1_only: auto::Builder<TokioExecutor>,
    http2_only: auto::Builder<TokioExecutor>,
    pub(crate) header_timeout: Duration,
    /// `EDGE_IDLE_TIMEOUT_MS` and `EDGE_WRITE_TIMEOUT_MS` (see [`liveness`]).
    idle_timeout: Duration,
    write_timeout: Duration,
    /// `EDGE_MAX_HEADER_BYTES`: the longest request head the plain front reads before it
    /// leaves the request to hyper (which answers 431).
    pub(crate) max_header_bytes: usize,
    /// `EDGE_PLAIN_FRONT`: whether [`crate::h1`]'s front reads HTTP/1.1 requests before hyper.
    pub(crate) front: bool,
    pub(crate) certs: Arc<Certs>,
    /// The visitor thread's own state (visitor listeners only).
    pub(crate) local: Option<Local>,
}

/// The settings every [`Conn`] is made from: hyper's builders with the edge's limits.
pub(crate) struct Conns {
    visits: Arc<Visits>,
    builder: auto::Builder<TokioExecutor>,
    header_timeout: Duration,
    idle_timeout: Duration,
    write_timeout: Duration,
    max_header_bytes: usize,
    front: bool,
    hot_cache_bytes: u64,
    hot_ttl: Duration,
}

impl Conns {
    pub(crate) fn new(settings: &Settings, visits: Arc<Visits>) -> Conns {
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
        Conns {
            visits,
            builder,
            header_timeout,
            idle_timeout,
            write_timeout,
            max_header_bytes,
            front: settings.edge_plain_front,
            hot_cache_bytes: settings.edge_hot_cache_bytes,
            hot_ttl: hot::ttl(Duration::from_millis(settings.edge_site_ttl_ms.max(4))),
        }
    }

    /// A listener's `Conn`; on a visitor listener, with a new visitor thread's hot routes and
    /// counts (so make one per thread: its reference counts stay on its core).
    pub(crate) fn make(&self, kind: Listener) -> Arc<Conn> {
        Arc::new(Conn {
            kind,
            visits: self.visits.clone(),
            builder: self.builder.clone(),
            http1_only: self.builder.clone().http1_only(),
            http2_only: self.builder.clone().http2_only(),
            header_timeout: self.header_timeout,
            idle_timeout: self.idle_timeout,
            write_timeout: self.write_timeout,
            max_header_bytes: self.max_header_bytes,
            front: self.front,
            certs: self.visits.certs.clone(),
            local: (kind != Listener::Admin).then(|| Local {
                hot: HotRoutes::new(self.hot_cache_bytes, self.hot_ttl),
                counts: self.visits.metrics.shard(),
                analytics: self.visits.analytics.shard(),
            }),
        })
    }
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
pub(crate) async fn drive<IO>(
    conn: Arc<Conn>,
    io: IO,
    peer: IpAddr,
    watcher: Watcher,
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
        match c.hot(&req, peer) {
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

impl Conn {
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
    fn hot(&self, req: &Request<Incoming>, peer: IpAddr) -> Option<Resp> {
        let local = self.local.as_ref()?;
        match self.kind {
            Listener::Visitors => self.visits.hot(local, req, peer, false),
            Listener::VisitorsTls => self.visits.hot(local, req, peer, true),
            Listener::Admin => None,
        }
    }

    /// Every request that no hot route answered, from hyper or from the front.
    pub(crate) async fn handle(&self, req: Request<VisitBody>, peer: IpAddr) -> Resp {
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
