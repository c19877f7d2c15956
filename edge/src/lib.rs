//! The Vitrine edge: the hyper server that serves published sites to visitors.
//!
//! Today it answers health checks on its visitor and admin listeners, and the platform's 404
//! page for every site host (publishing comes with the edge issue). It is built in the shape
//! the rest will need: services bound by [`Edge::build`] (port 0 allowed), each stopped by a
//! shared shutdown signal that lets in-flight requests finish.

pub mod submissions;

use std::{convert::Infallible, net::SocketAddr, time::Duration};

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Request, Response, StatusCode, body::Incoming, header, service::service_fn};
use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::{conn::auto, graceful::GracefulShutdown},
};
use tokio::{net::TcpListener, sync::watch, task::JoinHandle};
use vitrine_shared::Settings;

/// Which listener a request came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    Visitors,
    Admin,
}

pub struct Edge {
    pub http_addr: SocketAddr,
    pub admin_addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Edge {
    /// Binds the visitor HTTP listener and the admin listener.
    pub async fn build(settings: &Settings) -> anyhow::Result<Edge> {
        let http = TcpListener::bind(&settings.edge_http_listen).await?;
        let admin = TcpListener::bind(&settings.edge_admin_listen).await?;
        let (http_addr, admin_addr) = (http.local_addr()?, admin.local_addr()?);
        let (shutdown, rx) = watch::channel(false);
        let tasks = vec![
            tokio::spawn(serve(http, Listener::Visitors, rx.clone())),
            tokio::spawn(serve(admin, Listener::Admin, rx)),
        ];
        Ok(Edge {
            http_addr,
            admin_addr,
            shutdown,
            tasks,
        })
    }

    /// Stops accepting, lets in-flight requests finish (up to 10 s), then returns.
    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
    }
}

async fn serve(listener: TcpListener, kind: Listener, mut shutdown: watch::Receiver<bool>) {
    let graceful = GracefulShutdown::new();
    let builder = auto::Builder::new(TokioExecutor::new());
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else { continue };
                let conn = builder.serve_connection(TokioIo::new(stream), service_fn(move |req| handle(req, kind)));
                let conn = graceful.watch(conn.into_owned());
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            _ = shutdown.wait_for(|s| *s) => break,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
}

fn text(
    status: StatusCode,
    content_type: &'static str,
    body: &'static str,
) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(content_type),
    );
    r
}

/// The platform's page for a host that serves no site.
pub const NOT_FOUND_PAGE: &str = "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Site não encontrado</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f6f5f2;color:#222}main{text-align:center;padding:2rem}h1{font-size:1.6rem}</style></head><body><main><h1>Site não encontrado</h1><p>Não há nenhum site publicado neste endereço.</p><p lang=\"en\">There is no published site at this address.</p></main></body></html>";

async fn handle(
    req: Request<Incoming>,
    kind: Listener,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let response = match (kind, req.uri().path()) {
        (_, "/healthz") => text(StatusCode::OK, "text/plain; charset=utf-8", "ok"),
        (Listener::Admin, _) => text(
            StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            "not found",
        ),
        (Listener::Visitors, _) => text(
            StatusCode::NOT_FOUND,
            "text/html; charset=utf-8",
            NOT_FOUND_PAGE,
        ),
    };
    Ok(response)
}
