//! Monitoring (issue 8): the heartbeat row the ops screen reads, and `/metrics`.

use std::time::Duration;

use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{Site, TestEdge, basic, live_page};

dual_test! {
    async fn the_heartbeat_reports_traffic_errors_and_history_and_metrics_expose_the_fleet_figures(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_node_id = "edge-test-1".into();
            s.edge_region = "sa-east".into();
            s.edge_heartbeat_secs = 1;
        })
        .await;
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[("ola", "Olá", "")]).await;
        let mut site: Site = basic("<h1>Início</h1>");
        site.collection_pages.insert("quebrado".into(), live_page("quebrado", Some(table), "{% if %}"));
        t.publish(loja, site).await;

        for _ in 0..20 {
            assert_eq!(t.text("loja.localhost", "/").await.0, 200);
        }
        assert_eq!(t.text("outro.example.com", "/").await.0, 404);
        assert_eq!(t.text("loja.localhost", "/quebrado/ola").await.0, 500);

        // Within a couple of beats the row holds all of it.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let node = loop {
            let nodes = t.db.store.edge_nodes().await.unwrap();
            if let Some(n) = nodes.into_iter().find(|n| n.id == "edge-test-1" && n.requests >= 22) {
                break n;
            }
            assert!(tokio::time::Instant::now() < deadline, "no heartbeat with the requests");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(node.region, "sa-east");
        assert_eq!(node.version, env!("CARGO_PKG_VERSION"));
        assert_eq!(node.errors, 1);
        assert!(node.started_at <= node.last_seen_at);
        assert!(node.cache_hit_ratio.is_some_and(|r| r > 0.5 && r <= 1.0), "{node:?}");
        let errors = &node.recent_errors.0;
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!((errors[0].status, errors[0].host.as_str(), errors[0].path.as_str()), (500, "loja.localhost", "/quebrado/ola"));
        let history = &node.history.0;
        assert!(!history.is_empty());
        assert_eq!(history.iter().map(|p| p.requests).sum::<u64>() as i64, node.requests);
        assert_eq!(history.iter().map(|p| p.errors).sum::<u64>(), 1);

        // The next beat moves last_seen_at on.
        let seen = node.last_seen_at;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            let nodes = t.db.store.edge_nodes().await.unwrap();
            let again = nodes.into_iter().find(|n| n.id == "edge-test-1").unwrap();
            if again.last_seen_at > seen {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "no later beat: {again:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        let metrics = reqwest::get(format!("http://{}/metrics", t.edge.admin_addr))
            .await.unwrap().text().await.unwrap();
        for expected in [
            "vitrine_edge_requests_total{class=\"2xx\",host=\"platform\"} 20",
            "vitrine_edge_requests_total{class=\"4xx\",host=\"custom\"} 1",
            "vitrine_edge_requests_total{class=\"5xx\",host=\"platform\"} 1",
            "# TYPE vitrine_edge_request_duration_seconds histogram",
            "vitrine_edge_request_duration_seconds_count 22",
            "vitrine_edge_cache_entries{cache=\"site\"}",
            "vitrine_edge_cache_entries{cache=\"file\"}",
            "vitrine_edge_cache_hit_ratio{cache=\"site\"}",
            "vitrine_edge_form_spool_depth 0",
            "vitrine_edge_change_feed_lag_seconds",
        ] {
            assert!(metrics.contains(expected), "{expected} missing from:\n{metrics}");
        }
        let lag: f64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix("vitrine_edge_change_feed_lag_seconds "))
            .expect("lag gauge")
            .parse()
            .unwrap();
        assert!((0.0..2.0).contains(&lag), "the feed is read every 250 ms: {lag}");
        t.edge.stop().await;
    }
}
