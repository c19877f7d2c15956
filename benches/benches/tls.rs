//! Edge TLS (issue 5), three measurements in one run:
//!
//! 1. **Start-up with 10,000 certificates stored**: the edge is built against a database
//!    holding 10,000 issued certificates (SQLite and PostgreSQL); ready means its listeners are
//!    bound and a first HTTPS request for one of those names is answered. Certificates load
//!    lazily, so the target is < 1 s whatever the count.
//! 2. **New TLS handshakes per second** (ECDSA P-256), edge vs nginx with the same certificate
//!    and key, same machine, same run: `wrk -H "Connection: close"` makes every request a new
//!    TCP connection and a full handshake (wrk never resumes sessions), against a 2-byte answer
//!    (`/healthz` on both). Target: edge ≥ nginx.
//! 3. **testssl.sh** against the edge's listener (trusting the bench's root): no finding of
//!    severity HIGH or CRITICAL.
//!
//! Run: `bash benches/tls.sh` (installs nginx-light, wrk and testssl.sh when missing).
//! `TLS_LOAD_SECS` sets each wrk run (default 10). Exits non-zero on a miss.

use std::{
    net::SocketAddr,
    process::{Command, Stdio},
    time::Instant,
};

use vitrine_benches::{
    Nginx, free_port,
    https::{Pki, pki},
};
use vitrine_edge::Edge;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    Settings, Store,
    blob::BlobStore,
    testing::{Backend, TestDb, fixtures},
};

const CERTS: usize = 10_000;
/// The name both servers answer for: it resolves without any DNS set-up, for wrk and testssl.
const NAME: &str = "localhost";

/// Stores `name`'s certificate as issued.
async fn store_cert(store: &Store, project: i64, name: &str, pki: &Pki) {
    let not_after = chrono::Utc::now() + chrono::Duration::days(89);
    vitrine_shared::testing::store_certificate(
        store,
        ProjectId(project),
        name,
        &pki.chain_pem,
        &pki.key_pem,
        not_after,
    )
    .await;
}

fn settings(dir: &std::path::Path) -> Settings {
    Settings {
        edge_http_listen: "127.0.0.1:0".into(),
        edge_https_listen: "127.0.0.1:0".into(),
        edge_admin_listen: "127.0.0.1:0".into(),
        edge_spool_dir: Some(dir.join("spool")),
        platform_domain: "vitrine.bench".into(),
        ..Settings::default()
    }
}

fn client(ca_pem: &str, name: &str, addr: SocketAddr) -> reqwest::Client {
    reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(ca_pem.as_bytes()).unwrap()])
        .resolve(name, addr)
        .build()
        .unwrap()
}

/// Measurement 1 on one database: seconds from build to ready, and to the first answer.
async fn startup(backend: Backend) -> (f64, f64) {
    let db = TestDb::new(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let owner = fixtures::user(&db.store, "Bench", "bench@example.com").await;
    // The names share one wildcard certificate; what matters is the row count.
    let shared = pki(&["*.certs.bench"]);
    println!("tls: storing {CERTS} certificates ({backend:?})…");
    let p = fixtures::project(&db.store, owner, "muitos").await;
    for i in 0..CERTS {
        store_cert(&db.store, p.get(), &format!("site{i}.certs.bench"), &shared).await;
    }
    // Start-up as the binary does it: connect to the database and the object store, bind.
    let mut s = settings(dir.path());
    s.database_url = Some(vitrine_shared::secret::Secret::new(db.url.clone()));
    s.data_dir = dir.path().join("data");

    let started = Instant::now();
    let edge = Edge::build(&s).await.unwrap();
    let ready = started.elapsed().as_secs_f64();
    let name = format!("site{}.certs.bench", CERTS * 7 / 10);
    let name = name.as_str();
    let r = client(&shared.ca_pem, name, edge.https_addr)
        .get(format!("https://{name}:{}/healthz", edge.https_addr.port()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let first = started.elapsed().as_secs_f64();
    edge.certs.settle().await;
    assert_eq!(
        edge.certs.cached(),
        1,
        "only the certificate asked for is loaded"
    );
    edge.stop().await;
    (ready, first)
}

fn wrk(url: &str, secs: u64) -> f64 {
    let out = Command::new("wrk")
        .args([
            "-t2",
            "-c64",
            &format!("-d{secs}s"),
            "-H",
            "Connection: close",
        ])
        .arg(url)
        .output()
        .expect("wrk must be installed (apt-get install wrk)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "wrk failed: {text}");
    assert!(!text.contains("Non-2xx"), "errors under load:\n{text}");
    println!("{}", text.trim_end());
    text.lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no Requests/sec in:\n{text}"))
}

/// testssl.sh's findings of severity HIGH or CRITICAL, as "id: finding" lines.
fn testssl(port: u16, ca_file: &std::path::Path, out: &std::path::Path) -> Vec<String> {
    let json = out.join("testssl.json");
    let status = Command::new("testssl")
        .args(["--quiet", "--color", "0", "--warnings", "batch", "--add-ca"])
        .arg(ca_file)
        .arg("--jsonfile")
        .arg(&json)
        .arg(format!("{NAME}:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("testssl must be installed (apt-get install testssl.sh)");
    let text = std::fs::read_to_string(&json)
        .unwrap_or_else(|e| panic!("testssl wrote no report ({status}): {e}"));
    let findings: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert!(
        findings.len() > 20,
        "testssl ran only {} checks",
        findings.len()
    );
    findings
        .iter()
        .filter(|f| matches!(f["severity"].as_str(), Some("HIGH" | "CRITICAL")))
        .map(|f| format!("{}: {}", f["id"], f["finding"]))
        .collect()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let secs: u64 = std::env::var("TLS_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let mut ok = true;

    // 1. Start-up.
    let mut rows = Vec::new();
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let (ready, first) = startup(backend).await;
        let pass = ready < 1.0;
        ok &= pass;
        rows.push(format!(
            "| {backend:?} | {CERTS} | {:.0} ms | {:.0} ms | {} |",
            ready * 1000.0,
            first * 1000.0,
            if pass { "PASS" } else { "MISS" }
        ));
    }

    // 2. Handshakes: one certificate, served by both.
    let dir = tempfile::tempdir().unwrap();
    let pki = pki(&[NAME]);
    for (file, pem) in [
        ("ca.pem", &pki.ca_pem),
        ("chain.pem", &pki.chain_pem),
        ("key.pem", &pki.key_pem),
    ] {
        std::fs::write(dir.path().join(file), pem).unwrap();
    }
    let db = TestDb::new(Backend::Sqlite).await;
    let owner = fixtures::user(&db.store, "Bench", "bench@example.com").await;
    let p = fixtures::project(&db.store, owner, "seguro").await;
    db.store.mark_domain_verified(p, NAME).await.unwrap();
    store_cert(&db.store, p.get(), NAME, &pki).await;
    let blobs = BlobStore::local(dir.path()).unwrap();
    let edge = Edge::build_with(&settings(dir.path()), db.store.clone(), blobs)
        .await
        .unwrap();

    let nginx_port = free_port();
    let nginx_config = format!(
        "worker_processes 2;\npid {d}/nginx.pid;\nerror_log {d}/nginx-error.log;\ndaemon off;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n  access_log off;\n\
               server {{\n    listen 127.0.0.1:{nginx_port} ssl http2;\n    server_name {NAME};\n\
                 ssl_certificate {d}/chain.pem;\n    ssl_certificate_key {d}/key.pem;\n\
                 ssl_protocols TLSv1.2 TLSv1.3;\n\
                 location = /healthz {{ default_type text/plain; return 200 ok; }}\n  }}\n}}\n",
        d = dir.path().display(),
    );
    let nginx = Nginx::start(dir.path(), nginx_port, &nginx_config);
    let nginx_addr = nginx.addr;
    for addr in [nginx_addr, edge.https_addr] {
        let r = client(&pki.ca_pem, NAME, addr)
            .get(format!("https://{NAME}:{}/healthz", addr.port()))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{addr} answers over TLS");
    }
    let nginx_url = format!("https://{NAME}:{nginx_port}/healthz");
    let edge_url = format!("https://{NAME}:{}/healthz", edge.https_addr.port());
    let warm = secs.clamp(1, 3);
    let _ = tokio::task::block_in_place(|| wrk(&nginx_url, warm));
    let nginx_rate = tokio::task::block_in_place(|| wrk(&nginx_url, secs));
    let _ = tokio::task::block_in_place(|| wrk(&edge_url, warm));
    let edge_rate = tokio::task::block_in_place(|| wrk(&edge_url, secs));
    drop(nginx);
    let ratio = edge_rate / nginx_rate;
    let handshakes_ok = ratio >= 1.0;
    ok &= handshakes_ok;

    // 3. testssl.sh against the edge.
    println!("tls: running testssl.sh against the edge (a few minutes)…");
    let port = edge.https_addr.port();
    let ca_file = dir.path().join("ca.pem");
    let severe = tokio::task::block_in_place(|| testssl(port, &ca_file, dir.path()));
    ok &= severe.is_empty();
    edge.stop().await;

    println!("\n| database | certificates stored | edge ready | first HTTPS answer | < 1 s |");
    println!("|---|---|---|---|---|");
    for r in rows {
        println!("{r}");
    }
    println!("\n| server | new TLS handshakes/s (ECDSA P-256, Connection: close) |");
    println!("|---|---|");
    println!("| nginx | {nginx_rate:.0} |");
    println!("| edge | {edge_rate:.0} |");
    println!(
        "\nedge / nginx = {ratio:.2} (target ≥ 1.0): {}",
        if handshakes_ok { "PASS" } else { "MISS" }
    );
    if severe.is_empty() {
        println!("testssl.sh: no HIGH or CRITICAL finding: PASS");
    } else {
        println!("testssl.sh HIGH/CRITICAL findings: MISS");
        for s in &severe {
            println!("  {s}");
        }
    }
    if !ok {
        std::process::exit(1);
    }
}
