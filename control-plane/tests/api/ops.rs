//! The ops screen's data and the control plane's `/metrics` (issue 8).

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use vitrine_shared::{
    dual_test,
    store::{EdgeNode, EdgePoint, Json},
};

use crate::helpers::{TestApp, expect_error, json_ok};

fn node(id: &str, seconds_ago: i64) -> EdgeNode {
    let seen = Utc::now() - Duration::seconds(seconds_ago);
    EdgeNode {
        id: id.into(),
        version: "0.1.0".into(),
        region: "sa-east".into(),
        started_at: seen - Duration::hours(1),
        last_seen_at: seen,
        requests: 1200,
        errors: 3,
        p99_ms: Some(4.5),
        cache_hit_ratio: Some(0.97),
        certificates: 2,
        recent_errors: Json(vec![]),
        history: Json(vec![EdgePoint {
            at: seen,
            requests: 40,
            errors: 0,
        }]),
    }
}

dual_test!(
    async fn administrators_see_every_edge_node_with_the_silent_ones_flagged_stale(app: TestApp) {
        app.store.edge_heartbeat(&node("edge-a", 2)).await.unwrap();
        app.store.edge_heartbeat(&node("edge-b", 45)).await.unwrap();
        // A later beat replaces the row.
        let mut again = node("edge-a", 1);
        again.requests = 1500;
        app.store.edge_heartbeat(&again).await.unwrap();

        let user = app.register("dona@example.com").await;
        expect_error(app.get(&user, "/api/edges").await, StatusCode::FORBIDDEN).await;

        let admin = app.register("ops@example.com").await;
        app.make_admin(&admin).await;
        let body = json_ok(app.get(&admin, "/api/edges").await).await;
        assert_eq!(body["stale_after_seconds"], 30);
        let nodes = body["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), 2);
        assert_eq!(
            (nodes[0]["id"].as_str(), nodes[0]["stale"].as_bool()),
            (Some("edge-a"), Some(false))
        );
        assert_eq!(nodes[0]["requests"], 1500);
        assert_eq!(nodes[0]["region"], "sa-east");
        assert_eq!(nodes[0]["p99_ms"], 4.5);
        assert_eq!(nodes[0]["history"][0]["requests"], 40);
        assert_eq!(
            (nodes[1]["id"].as_str(), nodes[1]["stale"].as_bool()),
            (Some("edge-b"), Some(true))
        );

        // /metrics lives on the admin listener only.
        let admin_addr = app.app.admin_addr().expect("admin listener");
        let metrics = reqwest::get(format!("http://{admin_addr}/metrics"))
            .await
            .unwrap();
        assert_eq!(metrics.status(), StatusCode::OK);
        let metrics = metrics.text().await.unwrap();
        for expected in [
            "vitrine_control_http_requests_total{class=\"2xx\",route=\"/api/edges\"} 1",
            "vitrine_control_http_requests_total{class=\"4xx\",route=\"/api/edges\"} 1",
            "# TYPE vitrine_control_http_request_duration_seconds histogram",
            "vitrine_control_edge_nodes{state=\"live\"} 1",
            "vitrine_control_edge_nodes{state=\"stale\"} 1",
            "vitrine_control_outbox_pending",
        ] {
            assert!(
                metrics.contains(expected),
                "{expected} missing from:\n{metrics}"
            );
        }
        let public = reqwest::get(app.url("/metrics"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(!public.contains("vitrine_control_http_requests"));
    }
);
