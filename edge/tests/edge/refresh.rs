//! Host entries reloaded ahead of their end (`edge/src/sites.rs`): a busy host is looked up
//! in the background, so no visitor's request waits on the database once the host is known,
//! and what the database says still shows within the TTL when no change reaches the edge.

use std::time::{Duration, Instant};

use vitrine_shared::{
    dual_test,
    testing::{Backend, TestDb},
};

use crate::support::{TestEdge, basic};

const HOST: &str = "loja.localhost";
const SITE_MISSES: &str = "vitrine_edge_cache_misses_total{cache=\"site\"}";
const REFRESHES: &str = "vitrine_edge_cache_reloads_total{cache=\"site\"}";

dual_test! {
    /// Four TTLs of steady visits: the host is reloaded again and again, never while a visitor
    /// waits (no host-cache miss after the first).
    async fn a_busy_host_is_reloaded_in_the_background_and_no_visitor_waits_for_it(db: TestDb) {
        let ttl = Duration::from_millis(1200);
        let t = TestEdge::start_with(db, None, |s| s.edge_site_ttl_ms = 1200).await;
        let loja = t.project("loja").await;
        t.publish(loja, basic("<h1>Loja</h1>")).await;
        t.until(HOST, "/", 200, "Loja", Duration::from_secs(2)).await;
        // The publish's change drops what was loaded before it; load the host after it.
        t.feed_applied().await;
        assert_eq!(t.text(HOST, "/").await.0, 200);
        let misses = t.metric(SITE_MISSES).await;
        let refreshes = t.metric(REFRESHES).await;
        assert!(misses >= 1);

        let start = Instant::now();
        while start.elapsed() < ttl * 4 {
            let (status, body) = t.text(HOST, "/").await;
            assert_eq!((status, body.as_str()), (200, "<h1>Loja</h1>"));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(t.metric(SITE_MISSES).await, misses, "a visitor waited for a host lookup");
        let reloaded = t.metric(REFRESHES).await - refreshes;
        // Reloaded once per 1/2 to 3/4 of the TTL (its second half starts at 3/8 to 1/2 of it).
        assert!((3..=11).contains(&reloaded), "{reloaded} background reloads in four TTLs");
        t.edge.stop().await;
    }
}

/// The change feed silent (SQLite, read once a minute): a new publish still shows within the
/// TTL and a hot route's quarter of it, brought by a background reload; no visitor waited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_reload_brings_what_the_feed_did_not() {
    let db = TestDb::new(Backend::Sqlite).await;
    let t = TestEdge::start_with(db, None, |s| {
        s.edge_site_ttl_ms = 1200;
        s.edge_change_poll_ms = 60_000;
    })
    .await;
    let loja = t.project("loja").await;
    t.publish(loja, basic("<h1>versão 1</h1>")).await;
    t.until(HOST, "/", 200, "versão 1", Duration::from_secs(1))
        .await;
    let misses = t.metric(SITE_MISSES).await;

    t.publish(loja, basic("<h1>versão 2</h1>")).await;
    let took = t
        .until(HOST, "/", 200, "versão 2", Duration::from_secs(3))
        .await;
    assert!(took <= Duration::from_millis(1200 + 300 + 500), "{took:?}");
    assert_eq!(
        t.metric(SITE_MISSES).await,
        misses,
        "a visitor waited for a host lookup"
    );
    assert!(t.metric(REFRESHES).await >= 1);
    t.edge.stop().await;
}
