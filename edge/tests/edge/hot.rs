//! The visitor threads' hot routes: a repeat request for a static route is answered from the
//! thread's own memory, and must answer exactly what the full path would, and never outlive a
//! change.

use std::time::Duration;

use vitrine_shared::ids::{CollectionId, ProjectId};
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{TestEdge, basic, live_page};

const SECOND: Duration = Duration::from_secs(1);

/// Status, headers (but `date`) and body: everything a visitor could tell apart.
async fn answer(r: reqwest::Response) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let status = r.status().as_u16();
    let mut headers: Vec<(String, String)> = r
        .headers()
        .iter()
        .filter(|(name, _)| *name != "date")
        .map(|(n, v)| (n.to_string(), v.to_str().unwrap().to_string()))
        .collect();
    headers.sort();
    (status, headers, r.bytes().await.unwrap().to_vec())
}

/// Reads the change feed to its end, then asks for `host` + `path` until a hot route answers
/// it: no change the test made before is pending that could end a hot route in the middle of
/// the test.
pub(crate) async fn settle(t: &TestEdge, host: &str, path: &str) {
    t.feed_applied().await;
    let start = std::time::Instant::now();
    let before = route_hits(t).await;
    loop {
        assert_eq!(t.get(host, path).send().await.unwrap().status(), 200);
        if route_hits(t).await > before {
            return;
        }
        assert!(start.elapsed() < SECOND, "{host}{path} never answered hot");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub(crate) async fn route_hits(t: &TestEdge) -> u64 {
    t.metric("vitrine_edge_cache_hits_total{cache=\"route\"}")
        .await
}

dual_test! {
    async fn a_hot_route_answers_exactly_what_the_full_path_answers(db: TestDb) {
        // One visitor thread: each keeps its own hot routes, and a client may open a second
        // connection, which could land on the other thread.
        let t = TestEdge::start_with(db, None, |s| s.edge_workers = 1).await;
        t.simple_site("loja", "<h1>Bem-vindo à Loja</h1><p>0123456789</p>").await;
        settle(&t, "loja.localhost", "/").await;
        let tag = t.get("loja.localhost", "/").send().await.unwrap().headers()["etag"]
            .to_str()
            .unwrap()
            .to_string();
        // Each case first goes the full path under a spelling of the host not asked for yet (the
        // hot routes are keyed by the host as sent), then again from the hot route.
        let spellings = [
            "LOJA.localhost", "Loja.localhost", "lOja.localhost", "loJa.localhost",
            "lojA.localhost", "LOja.localhost", "loJA.localhost", "LoJa.localhost",
            "lOjA.localhost", "LOJa.localhost", "lOJA.localhost", "loja.localhost.",
        ];
        let cases: [(&str, &[(&str, &str)]); 12] = [
            ("GET", &[]),
            ("HEAD", &[]),
            ("GET", &[("accept-encoding", "gzip, br")]),
            ("GET", &[("accept-encoding", "gzip")]),
            ("GET", &[("if-none-match", &tag)]),
            ("GET", &[("if-none-match", "\"other\"")]),
            ("GET", &[("range", "bytes=0-3")]),
            ("GET", &[("range", "bytes=9999-")]),
            ("GET", &[("range", "bytes=0-3"), ("if-range", "\"old\"")]),
            ("HEAD", &[("accept-encoding", "br")]),
            ("GET", &[("accept-encoding", "br;q=0, gzip;q=0")]),
            ("GET", &[("if-none-match", "*"), ("accept-encoding", "br")]),
        ];
        for ((method, headers), host) in cases.iter().zip(spellings) {
            let send = || {
                let mut r = t
                    .client
                    .request(method.parse().unwrap(), t.url("/"))
                    .header("host", host);
                for (name, value) in *headers {
                    r = r.header(*name, *value);
                }
                r.send()
            };
            let before = route_hits(&t).await;
            let full = answer(send().await.unwrap()).await;
            assert_eq!(route_hits(&t).await, before, "{method} {headers:?}: first answer was hot");
            let hot = answer(send().await.unwrap()).await;
            assert_eq!(route_hits(&t).await, before + 1, "{method} {headers:?}: not answered hot");
            assert_eq!(hot, full, "{method} {headers:?}");
        }
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_hot_route_holds_the_representations_visitors_asked_for_and_keeps_them(db: TestDb) {
        // A hot route is made with the body its request chose, not every variant the deploy
        // has; one asked in another encoding goes the full path once and is then held too,
        // without losing what the route held before.
        let t = TestEdge::start_with(db, None, |s| s.edge_workers = 1).await;
        let page = format!("<h1>Catálogo</h1>{}", "<p>Camisa de algodão, tamanho M</p>".repeat(60));
        t.simple_site("roupas", &page).await;
        t.feed_applied().await;
        let host = "roupas.localhost";
        let ask = |encoding: Option<&'static str>| {
            let mut r = t.get(host, "/");
            if let Some(e) = encoding {
                r = r.header("accept-encoding", e);
            }
            r.send()
        };
        // (encoding asked, answered hot?) in order.
        let steps = [
            (None, false),
            (None, true),
            (Some("gzip"), false),
            (Some("gzip"), true),
            (None, true),
            (Some("br, gzip"), false),
            (Some("br, gzip"), true),
            (Some("gzip"), true),
            (None, true),
        ];
        for (i, (encoding, hot)) in steps.into_iter().enumerate() {
            let before = route_hits(&t).await;
            let r = ask(encoding).await.unwrap();
            assert_eq!(r.status(), 200);
            let coding = r.headers().get("content-encoding").map(|v| v.to_str().unwrap().to_string());
            let expected = match encoding {
                None => None,
                Some("gzip") => Some("gzip".to_string()),
                Some(_) => Some("br".to_string()),
            };
            assert_eq!(coding, expected, "step {i}: {encoding:?}");
            let body = r.bytes().await.unwrap();
            if encoding.is_none() {
                assert_eq!(std::str::from_utf8(&body).unwrap().matches("algodão").count(), 60);
            } else {
                assert!(body.len() < page.len() / 4, "step {i}: {} bytes", body.len());
            }
            let hits = route_hits(&t).await - before;
            assert_eq!(hits, u64::from(hot), "step {i}: {encoding:?}, hot {hot}");
        }
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_hot_route_gives_way_at_once_to_a_redirect_a_deploy_and_an_unpublish(db: TestDb) {
        // A one-hour host TTL: only the change feed can end a hot route.
        let t = TestEdge::start_with(db, None, |s| s.edge_site_ttl_ms = 3_600_000).await;
        let host = "loja.localhost";
        let loja = t.simple_site("loja", "<h1>versão 1</h1>").await;
        settle(&t, host, "/sobre").await;
        assert_eq!(t.text(host, "/sobre").await, (200, "<h1>Sobre nós</h1>".into()));

        // A redirect over a page that exists: redirects come first.
        let rule = t.db.store.insert_redirect(ProjectId(loja), "/sobre", "/quem-somos").await.unwrap();
        t.until(host, "/sobre", 301, "", SECOND).await;
        let r = t.get(host, "/sobre?x=1").send().await.unwrap();
        assert_eq!(r.headers()["location"], "/quem-somos?x=1");
        t.db.store.delete_redirect(rule.id).await.unwrap();
        t.until(host, "/sobre", 200, "Sobre nós", SECOND).await;

        settle(&t, host, "/").await;
        t.publish(loja, basic("<h1>versão 2</h1>")).await;
        t.until(host, "/", 200, "versão 2", SECOND).await;
        t.db.store.unpublish_project(ProjectId(loja)).await.unwrap();
        t.until(host, "/", 404, "Site não publicado", SECOND).await;
        t.until(host, "/sobre", 404, "Site não publicado", SECOND).await;
        t.edge.stop().await;
    }
}

dual_test! {
    async fn the_configured_visitor_threads_serve_and_end_with_the_edge(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_workers = 3).await;
        t.simple_site("loja", "<h1>Loja</h1>").await;
        // New connections each time, so the kernel spreads them over the three sockets.
        let prefix = format!("edge:{}/", t.edge.http_addr.port());
        let threads = || {
            std::fs::read_dir("/proc/self/task")
                .unwrap()
                .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("comm")).ok())
                .filter(|name| name.starts_with(&prefix))
                .count()
        };
        assert_eq!(threads(), 3, "three visitor threads run");
        for _ in 0..30 {
            let fresh = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
            let r = fresh
                .get(t.url("/"))
                .header("host", "loja.localhost")
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            assert_eq!(r.text().await.unwrap(), "<h1>Loja</h1>");
        }
        t.edge.stop().await;
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while threads() > 0 {
            assert!(std::time::Instant::now() < deadline, "visitor threads outlived stop()");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

dual_test! {
    async fn a_hot_collection_page_ends_with_a_record_edit_and_answers_as_the_full_path(db: TestDb) {
        // A one-hour host TTL: only the change feed can end a hot page. One visitor thread, as
        // above.
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_site_ttl_ms = 3_600_000;
            s.edge_workers = 1;
        })
        .await;
        let host = "loja.localhost";
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[("ola", "Olá", "<p>Primeiro texto</p>")]).await;
        let mut site = basic("<h1>Início</h1>");
        site.collection_pages.insert(
            "blog".into(),
            live_page("blog", Some(table), "<h1>{{ post.name }}</h1>{{ post.fields.corpo }}"),
        );
        t.publish(loja, site).await;
        settle(&t, host, "/blog/ola").await;

        // Full path first (a new spelling of the host), then hot: the same answer.
        for headers in [vec![], vec![("range", "bytes=0-9")], vec![("accept-encoding", "br")]] {
            let send = |host: &'static str| {
                let mut r = t.get(host, "/blog/ola");
                for (name, value) in &headers {
                    r = r.header(*name, *value);
                }
                r.send()
            };
            let spelling = match headers.len() {
                0 => "LOJA.localhost",
                _ if headers[0].0 == "range" => "Loja.localhost",
                _ => "lOja.localhost",
            };
            let before = route_hits(&t).await;
            let full = answer(send(spelling).await.unwrap()).await;
            let hot = answer(send(spelling).await.unwrap()).await;
            assert_eq!(route_hits(&t).await, before + 1, "{headers:?}");
            assert_eq!(hot, full, "{headers:?}");
        }
        let tag = t.get(host, "/blog/ola").send().await.unwrap().headers()["etag"].clone();
        let r = t.get(host, "/blog/ola").header("if-none-match", tag).send().await.unwrap();
        assert_eq!(r.status(), 304);

        let post = t.db.store.query_posts(CollectionId(table), None, &[], 10, 0, vitrine_shared::store::LIST_QUERY_TIMEOUT).await.unwrap().remove(0);
        let mut data = post.data.0.clone();
        let key = data.keys().next().unwrap().clone();
        data.insert(key, serde_json::Value::String("<p>Texto revisto</p>".into()));
        t.db.store.update_post(post.id, "Olá de novo", "ola", &data).await.unwrap();
        t.until(host, "/blog/ola", 200, "Texto revisto", SECOND).await;
        settle(&t, host, "/blog/ola").await;
        assert!(t.text(host, "/blog/ola").await.1.contains("<h1>Olá de novo</h1>"));
        t.db.store.delete_posts(&[post.id]).await.unwrap();
        t.until(host, "/blog/ola", 404, "Página perdida", SECOND).await;
        t.edge.stop().await;
    }
}

dual_test! {
    async fn large_pages_are_answered_hot_from_the_file_cache_beyond_the_hot_routes_budget(db: TestDb) {
        // The thread's hot routes may hold 16 KiB; each page is over 40 KB. A hot route names
        // a body that large in the file cache instead of holding it, so all three are hot
        // together, and answer what the full path answers.
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_workers = 1;
            s.edge_hot_cache_bytes = 16 * 1024;
        })
        .await;
        let pages: Vec<String> = (0..3)
            .map(|i| format!("<h1>Página {i}</h1>{}", format!("<p>linha {i}</p>").repeat(3000)))
            .collect();
        for (i, page) in pages.iter().enumerate() {
            assert!(page.len() > 40_000);
            t.simple_site(&format!("grande{i}"), page).await;
        }
        t.feed_applied().await;
        let host = |i: usize| format!("grande{i}.localhost");
        for (i, page) in pages.iter().enumerate() {
            let before = route_hits(&t).await;
            let full = answer(t.get(&host(i), "/").send().await.unwrap()).await;
            assert_eq!(route_hits(&t).await, before, "site {i}: first answer was hot");
            assert_eq!(full.2, page.as_bytes(), "site {i}");
        }
        // Every page again, twice: each answer hot, the same as the full path's.
        for round in 0..2 {
            for (i, page) in pages.iter().enumerate() {
                let before = route_hits(&t).await;
                let r = t.get(&host(i), "/").send().await.unwrap();
                let (status, _, body) = answer(r).await;
                assert_eq!((status, body.as_slice()), (200, page.as_bytes()), "round {round}, site {i}");
                assert_eq!(route_hits(&t).await, before + 1, "round {round}, site {i}: not answered hot");
                // A range is cut from the same named body (hyper's path, `held_file`).
                let before = route_hits(&t).await;
                let r = t.get(&host(i), "/").header("range", "bytes=4-9").send().await.unwrap();
                assert_eq!(r.status(), 206);
                assert_eq!(r.bytes().await.unwrap(), &page.as_bytes()[4..=9]);
                assert_eq!(route_hits(&t).await, before + 1, "round {round}, site {i}: range not hot");
            }
        }
        t.edge.stop().await;
    }
}
