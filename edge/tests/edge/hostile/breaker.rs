//! Visitors cannot open the edge-wide database breaker: input errors are that request's 4xx,
//! and one tenant's slow queries time out on their own.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    time::Duration,
};

use serde_json::{Value, json};
use vitrine_shared::ids::{CollectionId, ProjectId};
use vitrine_shared::{
    Store, dual_test,
    store::{NewPost, now},
    testing::TestDb,
};

use crate::support::{Site, TestEdge, basic};

/// Read-API queries no database can answer as asked: NUL bytes (PostgreSQL refuses them as
/// a data exception; SQLite compares them and finds nothing), impossible dates, numbers that
/// are not numbers, unknown fields and operators. `true`: the value carries a NUL.
const BAD_QUERIES: &[(&str, bool)] = &[
    ("filter_field=name&filter_value=%00", true),
    (
        "filter_field=slug&filter_op=contains&filter_value=a%00b",
        true,
    ),
    ("filter_field=corpo&filter_op=%3E&filter_value=x%00", true),
    (
        "filter_field=created_at&filter_op=%3E&filter_value=0000-01-01T00:00:00Z",
        false,
    ),
    (
        "filter_field=created_at&filter_value=2024-02-30T00:00:00Z",
        false,
    ),
    (
        "filter_field=updated_at&filter_op=%3C&filter_value=10000-01-01T00:00:00Z",
        false,
    ),
    ("filter_field=id&filter_value=1e99", false),
    ("filter_field=id&filter_value=99999999999999999999", false),
    ("filter_field=nada&filter_value=1", false),
    ("filter_field=name&filter_op=~&filter_value=1", false),
    ("limit=abc", false),
    ("limit=100000", false),
    ("order_dir=sideways", false),
];

/// A site whose collection `slug` (rich-text field `corpo`) has `n` records of `text`,
/// readable at `/_api/collections/{slug}`. The records go in as one bulk insert.
async fn site_with_collection(t: &TestEdge, project: i64, slug: &str, n: usize, text: &str) {
    let store = &t.db.store;
    let c = t.collection(project, slug, &[]).await;
    let field = store
        .collection_fields(CollectionId(c))
        .await
        .unwrap()
        .remove(0);
    let rows: Vec<NewPost> = (0..n)
        .map(|i| {
            let mut data = serde_json::Map::new();
            data.insert(field.id.to_string(), Value::String(format!("{i} {text}")));
            NewPost {
                name: format!("Item {i}"),
                slug: format!("item-{i}"),
                data,
                created_at: now(),
            }
        })
        .collect();
    store
        .insert_posts(CollectionId(c), &rows, u64::MAX)
        .await
        .unwrap();
    let mut site: Site = basic(&format!("<h1>{slug}</h1>"));
    site.collections.insert(slug.into(), CollectionId(c));
    t.publish(project, site).await;
}

/// Visitors hammering `path?{query}&offset={n}` (a new offset each time, so no answer comes
/// from the render cache) from `workers` tasks until `stop`: what they were answered.
fn hammer(
    t: &TestEdge,
    host: &'static str,
    queries: Vec<String>,
    workers: usize,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicUsize>,
) -> Vec<tokio::task::JoinHandle<Vec<(String, u16, Value)>>> {
    (0..workers)
        .map(|w| {
            let (client, base, queries, stop, answered) = (
                t.client.clone(),
                t.url(""),
                queries.clone(),
                stop.clone(),
                answered.clone(),
            );
            tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut n = w * 1_000_000;
                while !stop.load(Ordering::Acquire) {
                    let q = &queries[n % queries.len()];
                    n += 1;
                    let url = format!("{base}{q}&offset={n}");
                    let r = client.get(url).header("host", host).send().await.unwrap();
                    let status = r.status().as_u16();
                    seen.push((q.clone(), status, r.json().await.unwrap_or(Value::Null)));
                    answered.fetch_add(1, Ordering::Release);
                }
                seen
            })
        })
        .collect()
}

async fn answers(
    handles: Vec<tokio::task::JoinHandle<Vec<(String, u16, Value)>>>,
) -> Vec<(String, u16, Value)> {
    let mut all = Vec::new();
    for h in handles {
        all.extend(h.await.unwrap());
    }
    all
}

dual_test! {
    async fn a_loop_of_bad_read_api_queries_on_one_site_never_keeps_another_sites_deploy_off_line(db: TestDb) {
        let t = TestEdge::start(db).await;
        let a = t.project("loja-a").await;
        site_with_collection(&t, a, "posts", 3, "texto").await;
        let b = t.simple_site("loja-b", "<h1>B v1</h1>").await;
        let second = Duration::from_secs(1);
        t.until("loja-b.localhost", "/", 200, "B v1", Duration::from_secs(5)).await;
        let pg = matches!(t.db.store, Store::Postgres(_));

        let stop = Arc::new(AtomicBool::new(false));
        let queries = BAD_QUERIES
            .iter()
            .map(|(q, _)| format!("/_api/collections/posts?{q}"))
            .collect();
        let answered = Arc::new(AtomicUsize::new(0));
        let attack = hammer(&t, "loja-a.localhost", queries, 2, stop.clone(), answered.clone());
        // Let the attack run (each bad query answered four times over), then B publishes: its
        // new deploy is served within a second.
        t.until("loja-a.localhost", "/_api/collections/posts?limit=abc", 400, "invalid_query", second).await;
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while answered.load(Ordering::Acquire) < 4 * BAD_QUERIES.len() {
            assert!(std::time::Instant::now() < deadline, "the attack made no progress");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        t.publish(b, basic("<h1>B v2</h1>")).await;
        t.until("loja-b.localhost", "/", 200, "B v2", second).await;
        assert!(!t.edge.sites.degraded(), "the breaker is shut");
        // And A's own good queries are answered from the database all along.
        t.until("loja-a.localhost", "/_api/collections/posts?limit=2", 200, "Item", second).await;
        stop.store(true, Ordering::Release);
        let seen = answers(attack).await;
        assert!(seen.len() >= BAD_QUERIES.len(), "the attack ran: {} requests", seen.len());
        for (q, status, body) in &seen {
            let nul = BAD_QUERIES.iter().any(|(b, nul)| *nul && q.ends_with(b));
            match (status, nul, pg) {
                // SQLite compares a NUL like any byte and finds nothing.
                (200, true, false) => assert_eq!(body, &json!([]), "{q}"),
                (400, _, _) => assert_eq!(body["error"], "invalid_query", "{q}: {body}"),
                _ => panic!("{q}: {status} {body}"),
            }
        }
        assert_eq!(t.metric("vitrine_edge_db_failures_total{reason=\"outage\"}").await, 0);
        if pg {
            // The database itself refused the NULs: counted as input, never as an outage.
            assert!(t.metric("vitrine_edge_db_failures_total{reason=\"input\"}").await > 0);
        }
        assert!(!t.edge.sites.degraded());
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_slow_query_over_one_tenants_large_collection_times_out_for_that_tenant_alone(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_query_timeout_ms = 100).await;
        let a = t.project("loja-a").await;
        // 50,000 records of 2 KB: a filter and an order over all of them take the database
        // several times the edge's 100 ms.
        let long = "um texto comprido o bastante para que varrer custe tempo de verdade ".repeat(30);
        site_with_collection(&t, a, "grande", 50_000, &long).await;
        let b = t.project("loja-b").await;
        site_with_collection(&t, b, "pequena", 2, "curto").await;
        let (second, patient) = (Duration::from_secs(1), Duration::from_secs(5));
        t.until("loja-b.localhost", "/", 200, "pequena", patient).await;

        let stop = Arc::new(AtomicBool::new(false));
        let slow = vec![
            "/_api/collections/grande?filter_field=corpo&filter_op=contains&filter_value=nada&order_field=corpo".to_string(),
            "/_api/collections/grande?filter_field=corpo&filter_op=contains&filter_value=comprido%20demais&order_field=corpo&order_dir=asc".to_string(),
        ];
        // More visitors at once than the tenant has query slots.
        let attack = hammer(&t, "loja-a.localhost", slow, 6, stop.clone(), Default::default());
        t.until(
            "loja-a.localhost",
            "/_api/collections/grande?filter_field=corpo&filter_op=contains&filter_value=x&order_field=corpo",
            503,
            "query_timeout",
            patient,
        )
        .await;
        // Meanwhile B is served from the database: its records, and a new deploy within a second.
        t.until("loja-b.localhost", "/_api/collections/pequena?order_field=name", 200, "Item 1", patient).await;
        let mut next: Site = basic("<h1>B v2</h1>");
        next.collections.insert(
            "pequena".into(),
            t.db.store.collection_by_slug(ProjectId(b), "pequena").await.unwrap().id,
        );
        t.publish(b, next).await;
        t.until("loja-b.localhost", "/", 200, "B v2", second).await;
        assert!(!t.edge.sites.degraded(), "the breaker is shut");
        t.until("loja-b.localhost", "/_api/collections/pequena?limit=1", 200, "Item", patient).await;
        stop.store(true, Ordering::Release);

        let seen = answers(attack).await;
        assert!(!seen.is_empty());
        for (q, status, body) in &seen {
            assert_eq!((*status, body["error"].as_str()), (503, Some("query_timeout")), "{q}: {body}");
        }
        assert_eq!(t.metric("vitrine_edge_db_failures_total{reason=\"outage\"}").await, 0);
        assert!(t.metric("vitrine_edge_db_failures_total{reason=\"slow_query\"}").await > 0);
        assert!(!t.edge.sites.degraded());
        t.edge.stop().await;
    }
}
