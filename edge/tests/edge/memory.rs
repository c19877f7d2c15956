//! What the edge holds per site stays within its budgets: a host cache of 100,000 sites keeps
//! no manifests, and the manifests themselves are bounded by their bytes.

use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::TestEdge;

const SITES: usize = 12;

dual_test! {
    async fn manifests_stay_within_their_byte_budget_and_are_read_again_after_eviction(db: TestDb) {
        // Room for a few of these sites' manifests; no hot routes, so every request needs its
        // site's manifest.
        let budget = 2_500;
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_manifest_cache_bytes = budget;
            s.edge_hot_cache_bytes = 1;
        })
        .await;
        for i in 0..SITES {
            t.simple_site(&format!("loja{i}"), &format!("<h1>Loja {i}</h1>")).await;
        }
        let row = t.db.store.site_by_slug("loja0").await.unwrap().unwrap();
        let one = t.blobs.get(&row.manifest_key.unwrap()).await.unwrap().len() as u64;
        assert!(one * SITES as u64 > 2 * budget, "the sites' manifests ({one} bytes each) must not fit");

        for round in 0..2 {
            for i in 0..SITES {
                let (status, body) = t.text(&format!("loja{i}.localhost"), "/").await;
                assert_eq!((status, body), (200, format!("<h1>Loja {i}</h1>")), "round {round}");
                let (status, _) = t.text(&format!("loja{i}.localhost"), "/nada").await;
                assert_eq!(status, 404, "the site's own 404, from its manifest");
            }
            // An export applies the cache's pending evictions (moka does that work lazily).
            let held = t.metric("vitrine_edge_cache_entries{cache=\"manifest\"}").await;
            assert!(
                held >= 1 && held * one <= budget,
                "{held} manifests of {one} bytes held within {budget}"
            );
        }
        let misses = t.metric("vitrine_edge_cache_misses_total{cache=\"manifest\"}").await;
        assert!(misses > SITES as u64, "evicted manifests were read again: {misses} reads");
    }
}

dual_test! {
    async fn a_manifest_over_the_limit_is_read_once_and_not_served(db: TestDb) {
        // Publishes refuse such a manifest; one written some other way (an older release, an
        // operator's copy) must not make the edge read and parse megabytes per request.
        let t = TestEdge::start_with(db, None, |s| s.edge_hot_cache_bytes = 1).await;
        t.simple_site("inchado", "<h1>Inchado</h1>").await;
        t.simple_site("vizinho", "<h1>Vizinho</h1>").await;
        let row = t.db.store.site_by_slug("inchado").await.unwrap().unwrap();
        let key = row.manifest_key.unwrap();
        let oversized = vec![b' '; vitrine_shared::manifest::MAX_MANIFEST_BYTES + 1];
        t.blobs.put(&key, oversized.into()).await.unwrap();

        let before = t.metric("vitrine_edge_cache_misses_total{cache=\"manifest\"}").await;
        for path in ["/", "/sobre", "/nada", "/", "/"] {
            let (status, body) = t.text("inchado.localhost", path).await;
            assert_eq!(status, 503, "{path}: {body}");
        }
        let misses = t.metric("vitrine_edge_cache_misses_total{cache=\"manifest\"}").await;
        assert_eq!(misses - before, 1, "the oversized manifest was read once");
        let (status, body) = t.text("vizinho.localhost", "/").await;
        assert_eq!((status, body.as_str()), (200, "<h1>Vizinho</h1>"), "the neighbour is served");
    }
}
