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

use std::{io::Write, net::SocketAddr, path::Path, process::Command};

use serde_json::{Value, json};
use vitrine_benches::{Nginx, free_port};
use vitrine_control::startup::Application;
use vitrine_edge::Edge;
use vitrine_shared::{
    Settings,
    testing::{Backend, TestDb},
};

const SITES: usize = 1000;

#[derive(Debug, Clone, Copy)]
struct Load {
    rps: f64,
    p99_ms: f64,
}

fn page_block(i: usize) -> Value {
    // ~15 KB of ordinary page HTML.
    let mut html = format!(
        "<header><h1>Site {i}</h1><nav><a href=\"/\">Início</a> <a href=\"/blog/ola\">Blog</a></nav></header><main>"
    );
    let mut n = 0;
    while html.len() < 15_000 {
        html.push_str(&format!(
            "<section><h2>Seção {n}</h2><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p></section>"
        ));
        n += 1;
    }
    html.push_str("</main>");
    json!([{ "uid": "conteudo", "name": "Conteúdo", "template": html, "css": "main{max-width:60rem;margin:auto}", "js": "" }])
}

async fn seed_site(client: &reqwest::Client, base: &str, i: usize) {
    let p: Value = client
        .post(format!("{base}/api/projects"))
        .json(&json!({"name": format!("site{i}")}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let project = p["id"].as_i64().unwrap();
    let home = p["pages"][0]["id"].as_i64().expect("home page");
    let res = client
        .post(format!("{base}/api/page/{home}"))
        .json(&json!({"blocks": page_block(i)}))
        .send()
        .await
        .unwrap();
    assert!(
        res.status().is_success(),
        "page update: {}",
        res.text().await.unwrap()
    );
    let t: Value = client
        .post(format!("{base}/api/tables"))
        .json(&json!({"project_id": project, "name": "Posts", "slug": "posts", "meta": {"plural": "Posts", "singular": "Post"}}))
        .send().await.unwrap().json().await.unwrap();
    let table = t["id"].as_i64().unwrap();
    let f: Value = client
        .post(format!("{base}/api/fields"))
        .json(&json!({"table_id": table, "name": "Corpo", "type": "wysiwyg"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let field = f["id"].as_i64().unwrap();
    let body = format!("<p>{}</p>", "Texto do post. ".repeat(900));
    let res = client
        .post(format!("{base}/api/posts"))
        .json(&json!({"table_id": table, "name": "Olá", "slug": "ola", "fields": [{"field_id": field, "value": body}]}))
        .send().await.unwrap();
    assert!(
        res.status().is_success(),
        "post: {}",
        res.text().await.unwrap()
    );
    let pg: Value = client
        .post(format!("{base}/api/pages"))
        .json(&json!({"project_id": project, "name": "Blog"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let page = pg["id"].as_i64().unwrap();
    let res = client
        .post(format!("{base}/api/page/{page}"))
        .json(&json!({"slug": "blog", "table_id": table, "blocks": [{
            "uid": "post", "name": "Post",
            "template": "<article><h1>{{ post.name }}</h1><time>{{ post.date }}</time>{{ post.fields.corpo }}</article>",
            "css": "article{max-width:40rem}", "js": ""}]}))
        .send().await.unwrap();
    assert!(
        res.status().is_success(),
        "collection page: {}",
        res.text().await.unwrap()
    );
    let res = client
        .post(format!("{base}/api/publish_v2/{project}"))
        .json(&json!({"project_id": project}))
        .send()
        .await
        .unwrap();
    assert!(
        res.status().is_success(),
        "publish: {}",
        res.text().await.unwrap()
    );
}

fn wrk(addr: SocketAddr, path: &str, secs: u64, script: &Path) -> Load {
    let out = Command::new("wrk")
        .args(["-t2", "-c64", &format!("-d{secs}s"), "--latency", "-s"])
        .arg(script)
        .arg(format!("http://{addr}{path}"))
        .output()
        .expect("wrk must be installed (apt-get install wrk)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "wrk failed: {text}");
    assert!(!text.contains("Non-2xx"), "errors under load:\n{text}");
    let rps = text
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no Requests/sec in:\n{text}"));
    let p99 = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("99%"))
        .map(|v| parse_latency(v.trim()))
        .unwrap_or_else(|| panic!("no 99% latency in:\n{text}"));
    Load { rps, p99_ms: p99 }
}

fn parse_latency(v: &str) -> f64 {
    let (num, unit) = v.split_at(v.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(v.len()));
    let n: f64 = num.trim().parse().unwrap_or(f64::NAN);
    match unit {
        "us" => n / 1000.0,
        "ms" => n,
        "s" => n * 1000.0,
        "m" => n * 60_000.0,
        _ => f64::NAN,
    }
}

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
    let settings = Settings {
        database_url: Some(vitrine_shared::secret::Secret::new(db.url.clone())),
        data_dir: dir.path().join("data"),
        control_listen: "127.0.0.1:0".into(),
        control_admin_listen: "127.0.0.1:0".into(),
        edge_http_listen: "127.0.0.1:0".into(),
        edge_https_listen: "127.0.0.1:0".into(),
        edge_admin_listen: "127.0.0.1:0".into(),
        platform_domain: "localhost".into(),
        ..Settings::default()
    };
    let app = Application::build(settings.clone()).await.unwrap();
    let base = format!("http://{}", app.addr());
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let res = client
        .post(format!("{base}/api/register"))
        .json(&json!({"name": "Load", "email": "load@example.com", "password": "load-password"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
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

    let script = dir.path().join("random-host.lua");
    let mut f = std::fs::File::create(&script).unwrap();
    writeln!(
        f,
        "math.randomseed(os.time())\nrequest = function()\n  wrk.headers[\"Host\"] = \"site\" .. math.random(0, {}) .. \".localhost\"\n  return wrk.format(nil)\nend",
        SITES - 1
    )
    .unwrap();
    drop(f);

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
