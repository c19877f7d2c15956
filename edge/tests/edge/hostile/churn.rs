//! One tenant changing its site without pause (publishes, redirects, domains): every change
//! reaches every edge, and each used to end every tenant's hot routes and every name's
//! HTTPS answer, so one account could keep the whole node on the slow path and send every
//! visitor's request to the database. Now a change ends only what is its own project's.

use std::time::Duration;

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{dual_test, testing::TestDb};

use crate::{
    hot::{route_hits, settle},
    support::{TestEdge, basic},
};

const NEIGHBOUR: &str = "vizinha.localhost";
/// Whether a name has a certificate (for the HTTP → HTTPS redirect), asked of the database.
const HTTPS_MISSES: &str = "vitrine_edge_cache_misses_total{cache=\"https\"}";

dual_test! {
    /// The attacker publishes ten times and adds a redirect. The neighbour's page keeps
    /// answering from its visitor thread's hot route, and a path of its that is never hot (a
    /// 404) finds whether its name has a certificate still in memory.
    async fn a_tenant_changing_its_site_without_pause_ends_only_its_own_hot_routes(db: TestDb) {
        // One visitor thread, and entries that outlive the test: only the attacker's changes
        // could end the neighbour's.
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_workers = 1;
            s.edge_site_ttl_ms = 3_600_000;
        })
        .await;
        t.simple_site("vizinha", "<h1>Vizinha</h1>").await;
        let attacker = t.project("atacante").await;
        t.publish(attacker, basic("<h1>v0</h1>")).await;
        settle(&t, NEIGHBOUR, "/").await;
        assert_eq!(t.text(NEIGHBOUR, "/nada").await.0, 404);

        for i in 1..=10 {
            t.publish(attacker, basic(&format!("<h1>v{i}</h1>"))).await;
        }
        t.db.store.insert_redirect(ProjectId(attacker), "/a", "/b").await.unwrap();
        t.feed_applied().await;
        // Its own hot routes did end: its new page shows.
        t.until("atacante.localhost", "/", 200, "v10", Duration::from_secs(1)).await;

        let (hits, https_misses) = (route_hits(&t).await, t.metric(HTTPS_MISSES).await);
        for _ in 0..5 {
            let (status, body) = t.text(NEIGHBOUR, "/").await;
            assert_eq!((status, body.as_str()), (200, "<h1>Vizinha</h1>"));
        }
        assert_eq!(route_hits(&t).await, hits + 5, "the neighbour's page left its hot route");
        assert_eq!(t.text(NEIGHBOUR, "/nada").await.0, 404);
        assert_eq!(
            t.metric(HTTPS_MISSES).await,
            https_misses,
            "the neighbour's name was asked of the database again"
        );
        t.edge.stop().await;
    }
}
