//! Edge load comparison (issue 4): the same 1,000 published sites, served by the Vitrine edge
//! and by nginx on this machine, in the same run.
//!
//! 1. A real control plane (SQLite, local object store) gets 1,000 projects through its HTTP
//!    API, each with a ~15 KB home page and a collection page (`/blog/{post}`) bound to a
//!    collection with one post, and publishes each (`POST /api/publish_v2/{id}`).
//! 2. The edge serves them at `site{i}.localhost`. The exact bytes the edge answers are written
//!    to an nginx root (`root …/$host;`, one server block), so both serve the same content.
//! 3. `wrk -c64 -t2 -d{secs}s` with a Lua script that picks a random Host per request runs
//!    against nginx and the edge: the home page (static) on both, then the collection page on
//!    the edge (rendered once from the live post, then served from the render cache).
//!
//! Targets: edge ≥ 1.2 × nginx requests/s with p99 ≤ nginx's; collection page ≥ 0.8 × the
//! edge's static-page rate. The run prints PASS/MISS and exits non-zero on a miss.
//!
//! Run: `cargo bench -p vitrine-benches --bench edge_load` (needs `nginx` and `wrk` on PATH:
//! `apt-get install nginx-light wrk`). `EDGE_LOAD_SECS` sets the duration (default 10).

use vitrine_benches::{Nginx, free_port, random_host_script, register, seed_site, settings, wrk};
use vitrine_control::startup::Application;
use vitrine_edge::Edge;
use vitrine_shared::testing::{Backend, TestDb};

const SITES: usize = 1000;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let secs: u64 = std::env::var("EDGE_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let db = TestDb::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = settings(&db.url, dir.path().join("data"));
    let app = Application::build(settings.clone()).await.unwrap();
    let base = format!("http://{}", app.addr());
    let client = register(&base).await;
    println!("edge load: seeding and publishing {SITES} sites…");
    for i in 0..SITES {
        seed_site(&client, &base, i).await;
    }

    let edge = Edge::build(&settings).await.unwrap();
    let edge_addr = edge.http_addr;

    // nginx root: the bytes the edge serves, per host.
    let root = dir.path().join("nginx-sites");
    let plain = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
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
            let body = res.bytes().await.unwrap();
            if path == "/" {
                assert!(body.len() >= 15_000, "page of {} bytes", body.len());
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
        pid = dir.path().join("nginx.pid").display(),
        dir = dir.path().display(),
        root = root.display(),
    );
    let nginx = Nginx::start(dir.path(), nginx_port, &nginx_config);
    let nginx_addr = nginx.addr;
    let probe = plain
        .get(format!("http://{nginx_addr}/blog/ola"))
        .header("host", "site7.localhost")
        .send()
        .await
        .unwrap();
    assert_eq!(probe.status(), 200, "nginx serves the copied sites");

    let script = random_host_script(dir.path(), SITES);

    // Warm both, then measure; wrk runs in its own process, so it blocks only this thread.
    let warm = secs.clamp(1, 3);
    let _ = tokio::task::block_in_place(|| wrk(nginx_addr, "/", warm, &script));
    let nginx_static = tokio::task::block_in_place(|| wrk(nginx_addr, "/", secs, &script));
    let _ = tokio::task::block_in_place(|| wrk(edge_addr, "/", warm, &script));
    let edge_static = tokio::task::block_in_place(|| wrk(edge_addr, "/", secs, &script));
    let _ = tokio::task::block_in_place(|| wrk(edge_addr, "/blog/ola", warm, &script));
    let edge_collection =
        tokio::task::block_in_place(|| wrk(edge_addr, "/blog/ola", secs, &script));

    drop(nginx);
    edge.stop().await;
    app.stop().await.unwrap();

    let ratio = edge_static.rps / nginx_static.rps;
    let p99_ok = edge_static.p99_ms <= nginx_static.p99_ms;
    let rate_ok = ratio >= 1.2;
    let coll_ratio = edge_collection.rps / edge_static.rps;
    let coll_ok = coll_ratio >= 0.8;
    println!("| server | path | requests/s | p99 |");
    println!("|---|---|---|---|");
    println!(
        "| nginx | / (15 KB) | {:.0} | {:.2} ms |",
        nginx_static.rps, nginx_static.p99_ms
    );
    println!(
        "| edge | / (15 KB) | {:.0} | {:.2} ms |",
        edge_static.rps, edge_static.p99_ms
    );
    println!(
        "| edge | /blog/ola (collection page) | {:.0} | {:.2} ms |",
        edge_collection.rps, edge_collection.p99_ms
    );
    println!(
        "edge/nginx requests/s: {ratio:.2} {} (target ≥ 1.2); p99 edge {:.2} ms vs nginx {:.2} ms {}",
        if rate_ok { "PASS" } else { "MISS" },
        edge_static.p99_ms,
        nginx_static.p99_ms,
        if p99_ok { "PASS" } else { "MISS" }
    );
    println!(
        "collection page / static page: {coll_ratio:.2} {} (target ≥ 0.8)",
        if coll_ok { "PASS" } else { "MISS" }
    );
    if !(rate_ok && p99_ok && coll_ok) {
        std::process::exit(1);
    }
}
