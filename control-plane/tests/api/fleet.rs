//! Multi-node mode as deployed (issue 8): one control plane and two edge nodes, each a
//! separate process running the real binary, sharing PostgreSQL and an S3-compatible object
//! store (moto's S3 server, from PyPI), with Pebble (ACME) and dnsmasq (DNS) for certificates.
//! The edges reach PostgreSQL through a [`TcpProxy`] so that the test can take the database
//! away from them and give it back, as a restart or a network cut does.
//!
//! `scripts/test.sh` installs moto in a virtualenv and sets `VITRINE_TEST_MOTO_SERVER`; without
//! it (or `moto_server` on the PATH) the test fails with that instruction, never skips.

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use reqwest::{Client, StatusCode, redirect::Policy};
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::testing::{Backend, DnsRecord, DnsServer, TcpProxy, TestDb};

use crate::{
    helpers::{metric_at, wait_until},
    pebble::{Pebble, fetch, free_port},
};

const PLATFORM: &str = "vitrine.test";
const NINETY_DAYS: u64 = 90 * 24 * 3600;

/// A child process killed when dropped; its log is in `log`.
struct Proc {
    child: Child,
    log: PathBuf,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Proc {
    /// Starts `bin serve` with `env` and waits for its "listening" line; returns the line.
    fn start(bin: &Path, env: &[(String, String)], log: PathBuf) -> (Proc, String) {
        assert!(
            bin.exists(),
            "{} is missing: build the workspace's binaries (cargo test --workspace does)",
            bin.display()
        );
        let mut child = Command::new(bin)
            .arg("serve")
            .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let line = loop {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(l) if l.contains("listening on") => break l,
                Ok(_) => continue,
                Err(_) => panic!(
                    "{} did not start:\n{}",
                    bin.display(),
                    std::fs::read_to_string(&log).unwrap_or_default()
                ),
            }
        };
        (Proc { child, log }, line)
    }
}

/// The words of a "listening" line that are addresses (`http://a:b` or `a:b`).
fn addrs(line: &str) -> Vec<SocketAddr> {
    line.split([' ', '(', ')'])
        .filter_map(|w| w.trim_start_matches("http://").parse().ok())
        .collect()
}

struct Node {
    proc: Proc,
    http: SocketAddr,
    admin: SocketAddr,
    https: SocketAddr,
}

/// The moto S3 server on a free port, with the bucket made.
async fn s3() -> (Proc, String) {
    let bin = std::env::var("VITRINE_TEST_MOTO_SERVER").unwrap_or_else(|_| "moto_server".into());
    let port = free_port();
    let dir = tempfile::tempdir().unwrap().keep();
    let child = Command::new(&bin)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("moto.log")).unwrap())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("moto's S3 server is required ({bin}: {e}); scripts/test.sh installs it (pip install 'moto[server]')")
        });
    let proc = Proc {
        child,
        log: dir.join("moto.log"),
    };
    let endpoint = format!("http://127.0.0.1:{port}");
    // Path-style bucket creation; moto does not check signatures.
    wait_until("moto's start", Duration::from_secs(30), async || {
        Client::new()
            .put(format!("{endpoint}/vitrine"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
    })
    .await;
    (proc, endpoint)
}

async fn status(client: &Client, edge: SocketAddr, host: &str, path: &str) -> Option<u16> {
    client
        .get(format!("http://{edge}{path}"))
        .header("host", host)
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .ok()
        .map(|r| r.status().as_u16())
}

async fn submit(client: &Client, edge: SocketAddr, host: &str, n: usize) -> bool {
    client
        .post(format!("http://{edge}/_forms"))
        .header("host", host)
        .header("accept", "application/json")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("nome=Visitante+{n}&mensagem=ola"))
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .is_ok_and(|r| r.status() == StatusCode::OK)
}

async fn submissions(db: &TestDb, project: i64) -> i64 {
    db.store
        .list_submissions(ProjectId(project), true, 1, 0)
        .await
        .unwrap()
        .1
}

#[tokio::test(flavor = "multi_thread")]
async fn one_control_plane_and_two_edges_share_postgresql_and_s3() {
    let db = TestDb::new(Backend::Postgres).await;
    let proxy = TcpProxy::in_front_of(&db.url).await;
    let (_s3, endpoint) = s3().await;
    let dns = DnsServer::start();
    let mut pebble = Pebble::prepare();
    let (directory_url, ca_file) = (pebble.directory_url.clone(), pebble.ca_file.clone());
    let dir = tempfile::tempdir().unwrap();
    let control_bin = PathBuf::from(env!("CARGO_BIN_EXE_vitrine-control"));
    let edge_bin = control_bin.with_file_name("vitrine-edge");

    let common = |database_url: &str| -> Vec<(String, String)> {
        [
            ("VITRINE_DATABASE_URL", database_url.to_string()),
            ("VITRINE_OBJECT_STORE_URL", "s3://vitrine".into()),
            ("AWS_ENDPOINT", endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
            ("AWS_DEFAULT_REGION", "us-east-1".into()),
            ("VITRINE_PLATFORM_DOMAIN", PLATFORM.into()),
            ("VITRINE_PUBLIC_IP", "127.0.0.1".into()),
            ("VITRINE_DNS_NAMESERVERS", dns.addr.to_string()),
            ("VITRINE_LOG_FORMAT", "pretty".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    };
    let mut control_env = common(&db.url);
    control_env.extend(
        [
            (
                "VITRINE_DATA_DIR",
                dir.path().join("control").display().to_string(),
            ),
            ("VITRINE_CONTROL_LISTEN", "127.0.0.1:0".into()),
            ("VITRINE_CONTROL_ADMIN_LISTEN", "127.0.0.1:0".into()),
            (
                "VITRINE_DASHBOARD_DIR",
                dir.path().join("no-dashboard").display().to_string(),
            ),
            ("VITRINE_ADMIN_PASSWORD", "fleet-admin-password".into()),
        ]
        .map(|(k, v)| (k.to_string(), v)),
    );
    let (_control, line) = Proc::start(&control_bin, &control_env, dir.path().join("control.log"));
    let base = format!("http://{}", addrs(&line)[0]);

    let edge_env = |name: &str| {
        let mut env = common(&proxy.postgres_url(&db.url));
        env.extend(
            [
                (
                    "VITRINE_DATA_DIR",
                    dir.path().join(name).display().to_string(),
                ),
                ("VITRINE_EDGE_NODE_ID", name.to_string()),
                ("VITRINE_EDGE_HEARTBEAT_SECS", "1".into()),
                ("VITRINE_EDGE_HTTP_LISTEN", "127.0.0.1:0".into()),
                ("VITRINE_EDGE_HTTPS_LISTEN", "127.0.0.1:0".into()),
                ("VITRINE_EDGE_ADMIN_LISTEN", "127.0.0.1:0".into()),
                ("VITRINE_EDGE_FORM_RATE_PER_MINUTE", "100000".into()),
                ("VITRINE_ACME_DIRECTORY_URL", directory_url.clone()),
                ("VITRINE_ACME_CA_BUNDLE", ca_file.display().to_string()),
                ("VITRINE_ACME_BACKOFF_BASE_SECS", "1".into()),
                ("VITRINE_ACME_ISSUE_WAIT_MS", "60000".into()),
            ]
            .map(|(k, v)| (k.to_string(), v)),
        );
        env
    };
    let start_edge = |name: &str| {
        let (proc, line) = Proc::start(
            &edge_bin,
            &edge_env(name),
            dir.path().join(format!("{name}.log")),
        );
        let a = addrs(&line);
        Node {
            proc,
            http: a[0],
            admin: a[1],
            https: a[2],
        }
    };
    let a = start_edge("edge-a");
    let mut b = start_edge("edge-b");
    pebble.start(a.http.port(), dns.addr, NINETY_DAYS).await;
    let visitor = Client::builder().redirect(Policy::none()).build().unwrap();

    // An owner builds a site through the control plane.
    let owner = Client::builder().cookie_store(true).build().unwrap();
    let res = owner
        .post(format!("{base}/api/register"))
        .json(&json!({"name": "Dona", "email": "dona@example.com", "password": "senha-da-dona"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "register: {}", res.status());
    let project: Value = owner
        .post(format!("{base}/api/projects"))
        .json(&json!({"name": "Frota"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let pid = project["id"].as_i64().unwrap();
    let host = format!("{}.{PLATFORM}", project["slug"].as_str().unwrap());
    for edge in [a.http, b.http] {
        assert_eq!(
            status(&visitor, edge, &host, "/").await,
            Some(404),
            "not published yet"
        );
    }

    // 1. A publish is served by both edges within a second of its answer.
    let res = owner
        .post(format!("{base}/api/publish_v2/{pid}"))
        .json(&json!({"project_id": pid, "token": "x"}))
        .send()
        .await
        .unwrap();
    assert!(
        res.status().is_success(),
        "publish: {}",
        res.text().await.unwrap()
    );
    let took = wait_until(
        "the publish on both edges",
        Duration::from_secs(1),
        async || {
            status(&visitor, a.http, &host, "/").await == Some(200)
                && status(&visitor, b.http, &host, "/").await == Some(200)
        },
    )
    .await;
    println!("publish served by both edges {took:?} after its answer");

    // 2. A redirect change reaches both edges, with no re-publish.
    let res = owner
        .post(format!("{base}/api/redirects"))
        .json(&json!({"project_id": pid, "from": "/antigo", "to": "/"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CREATED);
    let took = wait_until(
        "the redirect on both edges",
        Duration::from_secs(1),
        async || {
            status(&visitor, a.http, &host, "/antigo").await == Some(301)
                && status(&visitor, b.http, &host, "/antigo").await == Some(301)
        },
    )
    .await;
    println!("redirect on both edges after {took:?}");

    // 3. A certificate is ordered once and served by both.
    dns.set("frota.test", DnsRecord::A("127.0.0.1".parse().unwrap()));
    db.store
        .mark_domain_verified(ProjectId(pid), "frota.test")
        .await
        .unwrap();
    let root = pebble.issuing_root().await;
    let (sa, sb) = tokio::join!(
        fetch(&root, "frota.test", a.https),
        fetch(&root, "frota.test", b.https)
    );
    let (sa, sb) = (sa.unwrap(), sb.unwrap());
    assert_eq!((sa.0, sb.0), (200, 200));
    assert_eq!(sa.2, sb.2, "both nodes serve the one certificate");
    let orders = db
        .store
        .acme_orders_since(chrono::Utc::now() - chrono::Duration::hours(1))
        .await
        .unwrap();
    assert_eq!(orders, 1, "one order for two nodes");

    // 4. Killing an edge in the middle of a flood of submissions loses nothing: what it
    //    acknowledged is stored, and the rest go to the other node (as a load balancer retries).
    let mut acknowledged = 0;
    for n in 0..60 {
        if n == 30 {
            b.proc.child.kill().unwrap();
            b.proc.child.wait().unwrap();
        }
        let first = if n % 2 == 0 { a.http } else { b.http };
        if submit(&visitor, first, &host, n).await || submit(&visitor, a.http, &host, n).await {
            acknowledged += 1;
        }
    }
    assert_eq!(acknowledged, 60);
    assert_eq!(status(&visitor, a.http, &host, "/").await, Some(200));
    assert_eq!(submissions(&db, pid).await, 60);
    let log = b.proc.log.clone();
    drop(b);
    println!("edge-b was killed; its log: {}", log.display());

    // The node comes back (same spool, same id) and serves from the shared stores.
    b = start_edge("edge-b");
    wait_until("the restarted edge", Duration::from_secs(5), async || {
        status(&visitor, b.http, &host, "/").await == Some(200)
    })
    .await;

    // 5. The database goes away: both edges keep serving and spool submissions to disk; once
    //    it is back, the spools replay into it.
    proxy.cut();
    for n in 0..20 {
        let node = if n % 2 == 0 { &a } else { &b };
        assert!(
            submit(&visitor, node.http, &host, 100 + n).await,
            "submission {n} during the outage; the edge's log:\n{}",
            std::fs::read_to_string(&node.proc.log).unwrap_or_default()
        );
    }
    // Both keep serving until each has met the outage in its own lookups (reloading the
    // host ahead of its end finds the database gone and opens the breaker), and after.
    let outage = r#"vitrine_edge_db_failures_total{reason="outage"}"#;
    wait_until(
        "both edges meeting the outage",
        Duration::from_secs(30),
        async || {
            let mut met = true;
            for edge in [&a, &b] {
                assert_eq!(
                    status(&visitor, edge.http, &host, "/").await,
                    Some(200),
                    "serving during the outage"
                );
                met &= metric_at(edge.admin, outage).await >= 1.0;
            }
            met
        },
    )
    .await;
    for edge in [a.http, b.http] {
        assert_eq!(
            status(&visitor, edge, &host, "/").await,
            Some(200),
            "serving once the breaker is open"
        );
    }
    assert_eq!(
        submissions(&db, pid).await,
        60,
        "nothing reached the database while it was away"
    );
    proxy.restore();
    let took = wait_until("the spools' replay", Duration::from_secs(20), async || {
        submissions(&db, pid).await == 80
    })
    .await;
    println!("spooled submissions replayed {took:?} after the database came back");

    // Both nodes report to the fleet.
    wait_until("both heartbeats", Duration::from_secs(5), async || {
        let nodes = db.store.edge_nodes().await.unwrap();
        ["edge-a", "edge-b"]
            .iter()
            .all(|id| nodes.iter().any(|n| n.id == *id && n.requests > 0))
    })
    .await;
    drop(a);
    drop(b);
}
