//! The edge over real sockets.

use vitrine_edge::Edge;
use vitrine_shared::{
    Settings,
    secret::Secret,
    testing::{Backend, TestDb},
};

/// Settings for an edge on port 0 over a migrated database, with its data in `dir`.
fn settings(db: &TestDb, dir: &std::path::Path) -> Settings {
    Settings {
        edge_http_listen: "127.0.0.1:0".into(),
        edge_https_listen: "127.0.0.1:0".into(),
        edge_admin_listen: "127.0.0.1:0".into(),
        database_url: Some(Secret::new(db.url.clone())),
        data_dir: dir.to_path_buf(),
        ..Settings::default()
    }
}

#[tokio::test]
async fn health_checks_answer_on_both_listeners_and_unknown_hosts_get_the_platform_404() {
    let db = TestDb::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let edge = Edge::build(&settings(&db, dir.path())).await.unwrap();
    for addr in [edge.http_addr, edge.admin_addr] {
        let res = reqwest::get(format!("http://{addr}/healthz"))
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.text().await.unwrap(), "ok");
    }
    let res = reqwest::Client::new()
        .get(format!("http://{}/", edge.http_addr))
        .header("host", "unknown.example.com")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap().contains("Site não encontrado"));
    let metrics = reqwest::get(format!("http://{}/metrics", edge.admin_addr))
        .await
        .unwrap();
    assert_eq!(metrics.status(), 200);
    let metrics = metrics.text().await.unwrap();
    assert!(
        metrics.contains("vitrine_edge_requests_total{class=\"4xx\",host=\"custom\"} 1"),
        "{metrics}"
    );
    assert!(metrics.contains("vitrine_edge_cache_misses_total{cache=\"site\"} 1"));
    edge.stop().await;
}

#[tokio::test]
async fn stopping_lets_in_flight_connections_finish_and_refuses_new_ones() {
    let db = TestDb::new(Backend::Sqlite).await;
    let dir = tempfile::tempdir().unwrap();
    let edge = Edge::build(&settings(&db, dir.path())).await.unwrap();
    let addr = edge.http_addr;
    let client = reqwest::Client::new();
    assert_eq!(
        client
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    edge.stop().await;
    assert!(
        reqwest::Client::new()
            .get(format!("http://{addr}/healthz"))
            .send()
            .await
            .is_err()
    );
}

#[test]
fn the_edge_binary_stops_gracefully_on_sigterm_and_lists_its_settings() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_vitrine-edge");
    let help = Command::new(bin).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for (name, _) in vitrine_shared::config::SETTINGS_HELP {
        assert!(
            help.contains(&format!("VITRINE_{name}")),
            "{name} missing from --help"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .env("VITRINE_DATA_DIR", dir.path())
        .env("VITRINE_EDGE_HTTP_LISTEN", "127.0.0.1:0")
        .env("VITRINE_EDGE_ADMIN_LISTEN", "127.0.0.1:0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(
        line.starts_with("vitrine-edge listening on http://"),
        "{line}"
    );
    assert!(
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "the edge ended with {status}");
}
