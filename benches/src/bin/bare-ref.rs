//! The load benches' bare reference: hyper and rustls with nothing of the edge's own, the limit
//! of this stack on this machine. It is built with the release profile and the edge's allocator
//! and runs as its own process, as the edge does, with the edge's listener group (thread per
//! core, one current-thread runtime and one `SO_REUSEPORT` socket per thread) and the edge's
//! TLS configuration ([`vitrine_edge::tls::visitor_config`]: the same suites, ALPN h2 then
//! http/1.1, session ids and tickets). Plain connections get hyper's HTTP/1.1; TLS ones
//! hyper-util's auto builder (h2 or HTTP/1.1 by ALPN, as the edge's hyper path).
//!
//! It answers from memory what the bench wrote to nginx's root: `ROOT/{host}/{path}/index.html`
//! (and its `.gz`, sent for `Accept-Encoding: gzip` when there is one, else the identity, as
//! nginx's `gzip_static`), with the headers the edge sent for it (`index.html.headers`, one
//! `name: value` per line), and `200 ok` at `/healthz`. No routing, caches, timeouts or metrics.
//!
//! `vitrine-bare-ref ROOT CERT KEY THREADS` prints `bare listening on http://A (https B)`.

use std::{collections::HashMap, convert::Infallible, path::Path, sync::Arc, thread};

use bytes::Bytes;
use http_body_util::Full;
use hyper::{
    HeaderMap, Request, Response, StatusCode,
    body::Incoming,
    header::{self, HeaderName, HeaderValue},
    service::service_fn,
};
use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::conn::auto,
};
use tokio::net::TcpListener;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `(host, path, gzip)` → the answer's headers and body.
type Pages = HashMap<(String, String, bool), (HeaderMap, Bytes)>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, cert, key, threads] = &args[..] else {
        eprintln!("usage: vitrine-bare-ref ROOT CERT KEY THREADS");
        std::process::exit(2);
    };
    let threads: usize = threads.parse().expect("THREADS");
    let pages = Arc::new(load(Path::new(root)));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = vitrine_edge::tls::visitor_config(
        &provider,
        &std::fs::read_to_string(cert).expect("CERT"),
        &std::fs::read_to_string(key).expect("KEY"),
        rustls::server::ServerSessionMemoryCache::new(20_000),
        rustls::crypto::ring::Ticketer::new().expect("ticketer"),
    )
    .expect("TLS configuration");
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    let plain = vitrine_edge::bind_group("127.0.0.1:0", threads).expect("bind");
    let tls = vitrine_edge::bind_group("127.0.0.1:0", threads).expect("bind");
    println!(
        "bare listening on http://{} (https {})",
        plain[0].local_addr().unwrap(),
        tls[0].local_addr().unwrap()
    );
    let workers: Vec<_> = plain
        .into_iter()
        .zip(tls)
        .map(|(plain, tls)| {
            let (pages, acceptor) = (pages.clone(), acceptor.clone());
            thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap()
                    .block_on(async move {
                        let plain = TcpListener::from_std(plain).unwrap();
                        let tls = TcpListener::from_std(tls).unwrap();
                        let a = tokio::spawn(accept(plain, pages.clone(), None));
                        let b = tokio::spawn(accept(tls, pages, Some(acceptor)));
                        let _ = tokio::join!(a, b);
                    })
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
}

async fn accept(
    listener: TcpListener,
    pages: Arc<Pages>,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (pages, acceptor) = (pages.clone(), acceptor.clone());
        tokio::spawn(async move {
            let service = service_fn(move |req: Request<Incoming>| {
                std::future::ready(Ok::<_, Infallible>(answer(&pages, &req)))
            });
            match acceptor {
                None => {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                }
                Some(acceptor) => {
                    let tls = if lazy_acceptor() {
                        // As the edge accepts: the ClientHello read first, then the
                        // configuration given (the edge chooses it by SNI, here it is fixed).
                        let lazy = tokio_rustls::LazyConfigAcceptor::new(
                            rustls::server::Acceptor::default(),
                            stream,
                        );
                        let Ok(start) = lazy.await else { return };
                        start.into_stream(acceptor.config().clone()).await
                    } else {
                        acceptor.accept(stream).await
                    };
                    let Ok(tls) = tls else { return };
                    let _ = auto::Builder::new(TokioExecutor::new())
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                }
            }
        });
    }
}

/// `BARE_LAZY_ACCEPTOR=1`: accept TLS as the edge does, through `LazyConfigAcceptor`, so a run
/// can tell that acceptor's cost per connection from the rest of the edge's.
fn lazy_acceptor() -> bool {
    static LAZY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LAZY.get_or_init(|| std::env::var("BARE_LAZY_ACCEPTOR").is_ok_and(|v| v == "1"))
}

fn answer(pages: &Pages, req: &Request<Incoming>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::new()));
    if req.uri().path() == "/healthz" {
        *r.body_mut() = Full::new(Bytes::from_static(b"ok"));
        return r;
    }
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| req.uri().host())
        .unwrap_or("");
    let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
    let gzip = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("gzip"));
    let mut key = (host.to_string(), req.uri().path().to_string(), gzip);
    // A page with no gzip variant (the edge answered identity to `Accept-Encoding: gzip`) is
    // answered in identity, as nginx's `gzip_static` does.
    if gzip && !pages.contains_key(&key) {
        key.2 = false;
    }
    match pages.get(&key) {
        Some((headers, body)) => {
            *r.headers_mut() = headers.clone();
            *r.body_mut() = Full::new(body.clone());
        }
        None => *r.status_mut() = StatusCode::NOT_FOUND,
    }
    r
}

/// Every `index.html` (and `.gz`) under `root/{host}/`, with its headers file.
fn load(root: &Path) -> Pages {
    let mut pages = Pages::new();
    for host in std::fs::read_dir(root).expect("ROOT") {
        let host = host.unwrap();
        let name = host.file_name().to_string_lossy().to_string();
        let mut stack = vec![host.path()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let file = path.file_name().unwrap().to_string_lossy().to_string();
                let gzip = match file.as_str() {
                    "index.html" => false,
                    "index.html.gz" => true,
                    _ => continue,
                };
                let rel = dir.strip_prefix(host.path()).unwrap().to_string_lossy();
                let url = if rel.is_empty() {
                    "/".to_string()
                } else {
                    format!("/{rel}")
                };
                let headers = headers(Path::new(&format!("{}.headers", path.display())));
                let body = Bytes::from(std::fs::read(&path).unwrap());
                pages.insert((name.clone(), url, gzip), (headers, body));
            }
        }
    }
    pages
}

fn headers(file: &Path) -> HeaderMap {
    let mut map = HeaderMap::new();
    for line in std::fs::read_to_string(file).unwrap_or_default().lines() {
        if let Some((n, v)) = line.split_once(": ")
            && let (Ok(n), Ok(v)) = (
                HeaderName::from_bytes(n.as_bytes()),
                HeaderValue::from_str(v),
            )
        {
            map.append(n, v);
        }
    }
    map
}
