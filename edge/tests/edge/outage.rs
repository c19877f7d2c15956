//! A database outage: every site the edge has cached keeps serving.

use std::time::Duration;

use vitrine_edge::Edge;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    Store, dual_test,
    testing::{Backend, TcpProxy, TestDb},
};

use crate::support::{
    Site, TestEdge, basic, feed_read_twice, live_page, settings, until_served_stale,
};

/// How the test takes the database away from the edge.
enum Cut {
    /// PostgreSQL through a proxy that drops every connection.
    Proxy(TcpProxy),
    /// SQLite: the edge's pool is closed under it.
    Close(Store),
}

/// A visitor's form to `loja.localhost` on the edge at `edge`.
async fn form_during_the_outage(
    client: &reqwest::Client,
    edge: std::net::SocketAddr,
) -> reqwest::Response {
    client
        .post(format!("http://{edge}/_forms"))
        .header("host", "loja.localhost")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("nome=Ana&mensagem=durante+a+queda")
        .send()
        .await
        .unwrap()
}

impl Cut {
    /// An edge's own connection to the database at `url`, and the way to take it away.
    async fn connect(url: &str) -> (Store, Cut) {
        if url.starts_with("postgres") {
            let proxy = TcpProxy::in_front_of(url).await;
            let store = Store::connect(&proxy.postgres_url(url)).await.unwrap();
            (store, Cut::Proxy(proxy))
        } else {
            let store = Store::connect(url).await.unwrap();
            (store.clone(), Cut::Close(store))
        }
    }

    async fn cut(&self) {
        match self {
            Cut::Proxy(p) => p.cut(),
            Cut::Close(s) => s.close().await,
        }
    }
}

async fn outage_keeps_cached_sites_serving(backend: Backend) {
    let db = TestDb::new(backend).await;
    let (edge_store, cut) = Cut::connect(&db.url).await;
    // Hosts are trusted for 200 ms only, so the outage outlives every fresh entry.
    let t = TestEdge::start_with(db, Some(edge_store), |s| s.edge_site_ttl_ms = 200).await;
    let loja = t.project("loja").await;
    let table = t
        .collection(loja, "posts", &[("ola", "Olá", "<p>oi</p>")])
        .await;
    let mut site: Site = basic("<h1>Loja no ar</h1>");
    site.collection_pages.insert(
        "blog".into(),
        live_page("blog", Some(table), "<h1>{{ post.name }}</h1>"),
    );
    t.publish(loja, site).await;
    t.simple_site("outra", "<h1>Outra</h1>").await;
    let secs = Duration::from_secs(1);
    t.until("loja.localhost", "/", 200, "Loja no ar", secs)
        .await;
    t.until("loja.localhost", "/blog/ola", 200, "<h1>Olá</h1>", secs)
        .await;
    // The publishes above reach the feed up to one poll (250 ms) later and drop the copies
    // loaded before them; let the feed catch up, then load the copies the outage will use.
    t.feed_applied().await;
    t.until("loja.localhost", "/", 200, "Loja no ar", secs)
        .await;
    t.until("loja.localhost", "/blog/ola", 200, "<h1>Olá</h1>", secs)
        .await;

    cut.cut().await;
    // Past the host TTL: a live page (never a hot route) is answered from the last-known copy.
    until_served_stale(
        &t.client,
        t.edge.http_addr,
        &t.edge.metrics,
        "loja.localhost",
        "/blog/ola",
    )
    .await;

    for _ in 0..3 {
        let (status, body) = t.text("loja.localhost", "/").await;
        assert_eq!((status, body.as_str()), (200, "<h1>Loja no ar</h1>"));
        let (status, body) = t.text("loja.localhost", "/blog/ola").await;
        assert_eq!(status, 200);
        assert!(body.contains("<h1>Olá</h1>"), "{body}");
        let (status, _) = t.text("loja.localhost", "/sobre").await;
        assert_eq!(status, 200, "a page never visited but in the cached deploy");
    }
    // Only what was never cached is unavailable, and says so.
    let (status, body) = t.text("outra.localhost", "/").await;
    assert_eq!(status, 503);
    assert!(body.contains("indisponível"), "{body}");

    // A visitor's form goes to the disk spool, and is answered as usual.
    let r = form_during_the_outage(&t.client, t.edge.http_addr).await;
    assert_eq!(r.status(), 303);
    assert_eq!(t.edge.forms.spooled().await, 1);

    let metrics = reqwest::get(format!("http://{}/metrics", t.edge.admin_addr))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !metrics.contains("vitrine_edge_stale_sites_served_total 0"),
        "{metrics}"
    );
    assert!(
        metrics.contains("vitrine_edge_spooled_submissions_total 1"),
        "{metrics}"
    );
    if let Cut::Proxy(p) = &cut {
        // Back online: the spool is replayed into the form history.
        p.restore();
        let start = std::time::Instant::now();
        loop {
            let (_, total) =
                t.db.store
                    .list_submissions(ProjectId(loja), true, 10, 0)
                    .await
                    .unwrap();
            if total == 1 {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "spool not replayed"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(t.edge.forms.spooled().await, 0);
    }
    t.edge.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_outage_keeps_cached_sites_serving() {
    outage_keeps_cached_sites_serving(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_keeps_cached_sites_serving() {
    outage_keeps_cached_sites_serving(Backend::Postgres).await;
}

dual_test! {
    /// A node restarted after a site was published loads the site, and keeps it through an outage
    /// that begins before the node's next visitor: the changes already in the feed when it started
    /// (that publish among them) must not drop what it loaded since. This is how two nodes share a
    /// database in production (`control-plane/tests/api/fleet.rs` runs the same with processes).
    async fn a_restarted_node_keeps_what_it_loaded(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        t.publish(loja, basic("<h1>Loja no ar</h1>")).await;
        t.db.store
            .insert_redirect(ProjectId(loja), "/velho", "/")
            .await
            .unwrap();

        // The restarted node: its own connection, to cut, and the shared object store.
        let (store, cut) = Cut::connect(&t.db.url).await;
        let spool = tempfile::tempdir().unwrap();
        let mut s = settings(spool.path());
        s.edge_site_ttl_ms = 200;
        s.edge_change_poll_ms = 50;
        let node = Edge::build_with(&s, store, t.blobs.clone()).await.unwrap();
        let get = |path: &'static str| {
            t.client
                .get(format!("http://{}{path}", node.http_addr))
                .header("host", "loja.localhost")
                .send()
        };
        assert_eq!(get("/").await.unwrap().status(), 200);
        // Many polls of the feed, and no visitor, before the database goes away.
        for _ in 0..5 {
            feed_read_twice(&node.metrics).await;
        }
        cut.cut().await;
        // Past the host TTL: the page is answered from the last-known copy.
        until_served_stale(&t.client, node.http_addr, &node.metrics, "loja.localhost", "/").await;
        let r = get("/").await.unwrap();
        assert_eq!(r.status(), 200, "the site it loaded, during the outage");
        assert_eq!(r.text().await.unwrap(), "<h1>Loja no ar</h1>");
        let r = form_during_the_outage(&t.client, node.http_addr).await;
        assert_eq!(r.status(), 303, "a form during the outage is spooled");
        assert_eq!(node.forms.spooled().await, 1);
        node.stop().await;
        t.edge.stop().await;
    }
}
