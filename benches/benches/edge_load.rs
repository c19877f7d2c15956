//! Edge load comparison (issue 4): the same 1,000 published sites, served by the Vitrine edge
//! and by nginx on this machine, in the same run.
//!
//! 1. A real control plane (SQLite, local object store) gets 1,000 projects through its HTTP
//!    API, each with a ~15 KB home page and a collection page (`/blog/{post}`) bound to a
//!    collection with one post, and publishes each (`POST /api/publish_v2/{id}`).
//! 2. The edge, the release `vitrine-edge` binary in its own process with its default settings
//!    (`edge-load.sh` builds it; `EDGE_LOAD_EDGE_BIN` names another), serves them at
//!    `site{i}.localhost` from the same database and object store. The exact bytes the edge
//!    answers are written to an nginx root (`root …/$host;`, one server block, `sendfile`,
//!    `tcp_nopush`, `open_file_cache`, one worker per core, no access log), so both serve the
//!    same content.
//! 3. `wrk -t2 -c64 -d{secs}s --latency` with a Lua script that picks a random Host per
//!    request. Everything shares the machine's two cores, and their speed drifts by ±10 %
//!    within minutes, so the runs are interleaved: `EDGE_LOAD_ROUNDS` rounds, each running
//!    nginx and the edge back to back (in alternating order) and then the edge's collection
//!    page. Each ratio is taken within its round, and the medians are reported.
//! 4. A third server gives the result its context: a bare hyper server (the edge's own HTTP
//!    stack, thread per core, with no routing, caches, timeouts or metrics) answering each
//!    host's page from a hash map with the very headers the edge sends: what hyper's HTTP/1
//!    codec alone costs. The edge's plain listener answers `GET`s without that codec
//!    (`edge/src/h1.rs`), so `edge / bare hyper` may exceed 1.
//!
//! Targets (on the medians): edge ≥ 1.2 × nginx requests/s with p99 ≤ nginx's; collection page
//! ≥ 0.8 × the edge's static-page rate. The run prints PASS/MISS and exits non-zero on a miss.
//!
//! Run: `bash benches/edge-load.sh`. `EDGE_LOAD_SECS` sets each run (default 6),
//! `EDGE_LOAD_ROUNDS` the rounds (default 5). `EDGE_LOAD_HOLD=1` keeps the servers up after the
//! runs, printing their addresses, until the process is interrupted: for profiling them under a
//! load of one's own.

use std::{collections::HashMap, convert::Infallible, net::SocketAddr, sync::Arc, thread};

use bytes::Bytes;
use http_body_util::Full;
use hyper::{
    HeaderMap, Request, Response, StatusCode, body::Incoming, header, service::service_fn,
};
use hyper_util::rt::TokioIo;
use tokio::{net::TcpListener, sync::watch};
use vitrine_benches::{
    EdgeProc, Load, Nginx, Stack, edge_bin, env_u64, free_port, random_host_script, seed_site, wrk,
};

const SITES: usize = 1000;

/// The edge binary's allocator (see `edge/src/main.rs`), so the bare hyper reference, which runs
/// in this process, is measured on the same footing.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let (secs, rounds) = (
        env_u64("EDGE_LOAD_SECS", 6),
        env_u64("EDGE_LOAD_ROUNDS", 5).max(1),
    );
    let edge_bin = edge_bin("EDGE_LOAD_EDGE_BIN");
    let stack = Stack::start().await;
    let (client, base, dir) = (&stack.client, &stack.base, stack.dir.path());
    println!("edge load: seeding and publishing {SITES} sites…");
    for i in 0..SITES {
        seed_site(client, base, i).await;
    }

    let edge = EdgeProc::start(&edge_bin, &stack.db.url, &stack.data_dir);
    let edge_addr = edge.addr;

    // nginx root, and the bare server's map: the bytes (and headers) the edge serves, per host.
    let root = dir.join("nginx-sites");
    let plain = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let mut pages = HashMap::new();
    for i in 0..SITES {
        let host = format!("site{i}.localhost");
        for (path, file) in [("/", "index.html"), ("/blog/ola", "blog/ola/index.html")] {
            let res = plain
                .get(format!("http://{edge_addr}{path}"))
                .header("host", &host)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200, "{host}{path}");
            let mut headers = res.headers().clone();
            let body = res.bytes().await.unwrap();
            if path == "/" {
                assert!(body.len() >= 15_000, "page of {} bytes", body.len());
                // hyper writes these itself.
                headers.remove(header::DATE);
                headers.remove(header::CONTENT_LENGTH);
                pages.insert(host.clone(), (headers, body.clone()));
            }
            let target = root.join(&host).join(file);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, &body).unwrap();
        }
    }
    let nginx_port = free_port();
    let nginx_config = format!(
        "worker_processes 2;\npid {pid};\nerror_log {dir}/nginx-error.log;\ndaemon off;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  keepalive_requests 100000;\n  open_file_cache max=4000;\n  default_type text/html;\n\
               server {{\n    listen 127.0.0.1:{nginx_port};\n    root {root}/$host;\n    index index.html;\n    location / {{ try_files $uri $uri/index.html =404; }}\n  }}\n}}\n",
        pid = dir.join("nginx.pid").display(),
        dir = dir.display(),
        root = root.display(),
    );
    let nginx = Nginx::start(dir, nginx_port, &nginx_config);
    let nginx_addr = nginx.addr;
    let probe = plain
        .get(format!("http://{nginx_addr}/blog/ola"))
        .header("host", "site7.localhost")
        .send()
        .await
        .unwrap();
    assert_eq!(probe.status(), 200, "nginx serves the copied sites");

    let script = random_host_script(dir, SITES);

    let bare = BareHyper::start(pages, 2);
    let bare_addr = bare.addr;

    // Warm each, then measure in interleaved rounds; wrk runs in its own process, so it blocks
    // only this thread.
    let run = |addr, path, secs| tokio::task::block_in_place(|| wrk(addr, path, secs, &script));
    for (addr, path) in [
        (nginx_addr, "/"),
        (edge_addr, "/"),
        (edge_addr, "/blog/ola"),
        (bare_addr, "/"),
    ] {
        run(addr, path, 3);
    }
    let mut table = Vec::new();
    for round in 0..rounds {
        let (nginx_static, edge_static) = if round % 2 == 0 {
            let n = run(nginx_addr, "/", secs);
            (n, run(edge_addr, "/", secs))
        } else {
            let e = run(edge_addr, "/", secs);
            (run(nginx_addr, "/", secs), e)
        };
        let edge_collection = run(edge_addr, "/blog/ola", secs);
        let bare_static = run(bare_addr, "/", secs);
        table.push(Round {
            nginx_static,
            edge_static,
            edge_collection,
            bare_static,
        });
        println!(
            "round {}: nginx {:.0}/s (p99 {:.2} ms), edge {:.0}/s (p99 {:.2} ms), edge collection page {:.0}/s, bare hyper {:.0}/s",
            round + 1,
            nginx_static.rps,
            nginx_static.p99_ms,
            edge_static.rps,
            edge_static.p99_ms,
            edge_collection.rps,
            bare_static.rps
        );
    }

    if std::env::var_os("EDGE_LOAD_HOLD").is_some() {
        println!(
            "holding: edge pid {} on {edge_addr}, nginx on {nginx_addr}, bare hyper on {bare_addr}, wrk script {}",
            edge.child.id(),
            script.display()
        );
        let _ = tokio::signal::ctrl_c().await;
    }
    drop(bare);
    drop(nginx);
    drop(edge);
    stack.app.stop().await.unwrap();

    let median = |f: &dyn Fn(&Round) -> f64| vitrine_benches::median(table.iter().map(f).collect());
    let ratio = median(&|r| r.edge_static.rps / r.nginx_static.rps);
    let p99_ratio = median(&|r| r.edge_static.p99_ms / r.nginx_static.p99_ms);
    let coll_ratio = median(&|r| r.edge_collection.rps / r.edge_static.rps);
    let floor_ratio = median(&|r| r.edge_static.rps / r.bare_static.rps);
    let bare_ratio = median(&|r| r.bare_static.rps / r.nginx_static.rps);
    let (rate_ok, p99_ok, coll_ok) = (ratio >= 1.2, p99_ratio <= 1.0, coll_ratio >= 0.8);
    let pass = |ok| if ok { "PASS" } else { "MISS" };
    println!("\n| server | path | requests/s (median) | p99 (median) |");
    println!("|---|---|---|---|");
    for (name, path, f) in [
        (
            "nginx",
            "/ (15 KB)",
            &(|r: &Round| r.nginx_static) as &dyn Fn(&Round) -> Load,
        ),
        ("edge", "/ (15 KB)", &|r: &Round| r.edge_static),
        ("edge", "/blog/ola (collection page)", &|r: &Round| {
            r.edge_collection
        }),
        ("bare hyper (reference)", "/ (15 KB)", &|r: &Round| {
            r.bare_static
        }),
    ] {
        println!(
            "| {name} | {path} | {:.0} | {:.2} ms |",
            median(&|r| f(r).rps),
            median(&|r| f(r).p99_ms)
        );
    }
    println!(
        "\nover {rounds} rounds of {secs} s (median of the per-round ratios):\n\
         edge/nginx requests/s: {ratio:.2} {} (target ≥ 1.2)\n\
         edge/nginx p99: {p99_ratio:.2} {} (target ≤ 1)\n\
         collection page / static page: {coll_ratio:.2} {} (target ≥ 0.8)\n\
         edge / bare hyper requests/s: {floor_ratio:.2}; bare hyper / nginx: {bare_ratio:.2} (context)",
        pass(rate_ok),
        pass(p99_ok),
        pass(coll_ok),
    );
    if !(rate_ok && p99_ok && coll_ok) {
        std::process::exit(1);
    }
}

/// One round's measurements.
struct Round {
    nginx_static: Load,
    edge_static: Load,
    edge_collection: Load,
    bare_static: Load,
}

/// The bare hyper server of the module docs: `threads` current-thread runtimes, each with its
/// own `SO_REUSEPORT` socket (the edge's own listener group), answering `GET /` with the page
/// of the request's `Host` and the headers the edge sent for it. Stops when dropped.
struct BareHyper {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl BareHyper {
    fn start(pages: HashMap<String, (HeaderMap, Bytes)>, threads: usize) -> BareHyper {
        let pages = Arc::new(pages);
        let sockets = vitrine_edge::bind_group("127.0.0.1:0", threads).unwrap();
        let addr = sockets[0].local_addr().unwrap();
        let (stop, rx) = watch::channel(false);
        let threads = sockets
            .into_iter()
            .map(|socket| {
                let (pages, mut rx) = (pages.clone(), rx.clone());
                thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap();
                    rt.block_on(async move {
                        let listener = TcpListener::from_std(socket).unwrap();
                        loop {
                            let (stream, _) = tokio::select! {
                                accepted = listener.accept() => accepted.unwrap(),
                                _ = rx.wait_for(|s| *s) => return,
                            };
                            let _ = stream.set_nodelay(true);
                            let pages = pages.clone();
                            tokio::spawn(async move {
                                let service = service_fn(move |req: Request<Incoming>| {
                                    let page = req
                                        .headers()
                                        .get(header::HOST)
                                        .and_then(|h| h.to_str().ok())
                                        .filter(|_| req.uri().path() == "/")
                                        .and_then(|h| pages.get(h));
                                    let mut r = Response::new(Full::new(Bytes::new()));
                                    match page {
                                        Some((headers, body)) => {
                                            *r.headers_mut() = headers.clone();
                                            *r.body_mut() = Full::new(body.clone());
                                        }
                                        None => *r.status_mut() = StatusCode::NOT_FOUND,
                                    }
                                    std::future::ready(Ok::<_, Infallible>(r))
                                });
                                let _ = hyper::server::conn::http1::Builder::new()
                                    .serve_connection(TokioIo::new(stream), service)
                                    .await;
                            });
                        }
                    });
                })
            })
            .collect();
        BareHyper {
            addr,
            stop,
            threads,
        }
    }
}

impl Drop for BareHyper {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
