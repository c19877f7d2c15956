//! The change feed: what the database says changed reaches the edge within a second, although
//! the edge caches hosts for far longer than that.

use std::time::Duration;

use vitrine_shared::ids::{DeployId, ProjectId};
use vitrine_shared::{
    dual_test,
    testing::{Backend, TestDb},
};

use crate::support::{TestEdge, basic};

const SECOND: Duration = Duration::from_secs(1);

dual_test! {
    async fn publishes_unpublishes_rollbacks_and_redirect_changes_show_within_a_second(db: TestDb) {
        // A one-hour host TTL: only the change feed can make these show.
        let t = TestEdge::start_with(db, None, |s| s.edge_site_ttl_ms = 3_600_000).await;
        let host = "loja.localhost";
        let loja = t.project("loja").await;
        let (status, body) = t.text(host, "/").await;
        assert_eq!(status, 404);
        assert!(body.contains("Site não publicado"));

        let first = t.publish(loja, basic("<h1>versão 1</h1>")).await;
        t.until(host, "/", 200, "versão 1", SECOND).await;
        t.publish(loja, basic("<h1>versão 2</h1>")).await;
        t.until(host, "/", 200, "versão 2", SECOND).await;

        t.db.store.activate_deploy(ProjectId(loja), DeployId(first)).await.unwrap();
        t.until(host, "/", 200, "versão 1", SECOND).await;

        t.db.store.insert_redirect(ProjectId(loja), "/sobre", "/quem-somos").await.unwrap();
        let start = std::time::Instant::now();
        loop {
            let r = t.get(host, "/sobre").send().await.unwrap();
            if r.status() == 301 {
                assert_eq!(r.headers()["location"], "/quem-somos");
                break;
            }
            assert!(start.elapsed() < SECOND, "redirect not seen: {}", r.status());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }

        t.db.store.unpublish_project(ProjectId(loja)).await.unwrap();
        t.until(host, "/", 404, "Site não publicado", SECOND).await;

        // A host first seen as nobody's starts serving once a project takes it.
        t.until("nova.localhost", "/", 404, "Site não encontrado", SECOND).await;
        t.simple_site("nova", "<h1>Nova</h1>").await;
        t.until("nova.localhost", "/", 200, "Nova", SECOND).await;
        t.edge.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_listen_brings_changes_at_once_without_waiting_for_the_poll() {
    let db = TestDb::new(Backend::Postgres).await;
    // Polling once a minute: a change seen within a second came through LISTEN.
    let t = TestEdge::start_with(db, None, |s| {
        s.edge_site_ttl_ms = 3_600_000;
        s.edge_change_poll_ms = 60_000;
    })
    .await;
    let loja = t.project("loja").await;
    // Before changing anything, let the reader make its first read and the LISTEN connection
    // its first wake-up (a second read): from then on a change is announced, not polled for.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while t.edge.metrics.feed_reads() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the feed is not listening"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    t.until("loja.localhost", "/", 404, "Site não publicado", SECOND)
        .await;
    t.publish(loja, basic("<h1>via LISTEN</h1>")).await;
    t.until("loja.localhost", "/", 200, "via LISTEN", SECOND)
        .await;
    t.publish(loja, basic("<h1>de novo</h1>")).await;
    t.until("loja.localhost", "/", 200, "de novo", SECOND).await;
    t.edge.stop().await;
}
