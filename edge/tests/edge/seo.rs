//! `/sitemap.xml` and `/robots.txt` at the edge (issue 44): what a visitor hammering the
//! sitemap costs the shared database. It is built once per records generation and deploy
//! (concurrent misses share one build), repeat requests are answered from memory, and each
//! rebuild a visitor causes (by asking right after record edits) takes one of their uncached
//! renders: past their share they get 429, and the database is not read.

use vitrine_shared::ids::CollectionId;
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{Site, TestEdge, basic, live_page};

dual_test! {
    async fn a_hammered_sitemap_is_built_once_per_records_change_within_the_visitors_share(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_render_rate_per_minute = 3;
            s.edge_trusted_proxies = "127.0.0.1/8".into();
        }).await;
        let loja = t.project("loja").await;
        let posts: Vec<(String, String)> = (0..40).map(|i| (format!("post-{i}"), format!("Post {i}"))).collect();
        let refs: Vec<(&str, &str, &str)> = posts.iter().map(|(s, n)| (s.as_str(), n.as_str(), "<p>x</p>")).collect();
        let table = t.collection(loja, "posts", &refs).await;
        let mut site: Site = basic("<h1>Início</h1>");
        site.collection_pages.insert("blog".into(), live_page("blog", Some(table), "<h1>{{ post.name }}</h1>"));
        t.publish(loja, site).await;
        // The deploy's own change bumps the records generation: let it land first.
        t.feed_applied().await;
        let host = "loja.localhost";
        let built = "vitrine_edge_sitemaps_built_total";

        // Fifty requests at once: one build. Each miss takes from the visitor's share before it
        // joins the build, so one address asking fifty times at once is partly refused (429),
        // never with a read of its own.
        let asks = (0..50).map(|_| t.text(host, "/sitemap.xml"));
        let answers = futures::future::join_all(asks).await;
        assert!(answers.iter().any(|(status, _)| *status == 200));
        for (status, body) in answers {
            match status {
                200 => assert_eq!(body.matches("<url>").count(), 2 + 40, "{body}"),
                other => assert_eq!(other, 429),
            }
        }
        assert_eq!(t.metric(built).await, 1);
        // Fifty after, one by one: all answered from memory.
        for _ in 0..50 {
            let (status, body) = t.text(host, "/sitemap.xml").await;
            assert_eq!((status, body.matches("<url>").count()), (200, 42));
        }
        assert_eq!(t.metric(built).await, 1);
        let (_, body) = t.text(host, "/sitemap.xml").await;
        assert!(body.contains("<loc>http://loja.localhost:0/blog/post-7</loc>") || body.contains("/blog/post-7</loc>"), "{body}");
        assert!(!body.contains("/404<") && !body.contains("/500<"), "{body}");

        // Each records change costs one rebuild, taken from the visitor's share (3 a minute, all
        // but spent by the fifty at once): once it is spent, a rebuild is refused before the
        // database is read, and another visitor's share is its own.
        let shared = &t;
        let edit = |n: usize| async move {
            let store = &shared.db.store;
            let post = store.query_posts(CollectionId(table), None, &[], 1, 0, vitrine_shared::store::LIST_QUERY_TIMEOUT).await.unwrap().remove(0);
            store.update_post(post.id, &format!("Editado {n}"), &post.slug, &post.data.0).await.unwrap();
            shared.feed_applied().await;
        };
        let mut refused = false;
        for n in 0..4 {
            edit(n).await;
            let before = t.metric(built).await;
            let r = t.get(host, "/sitemap.xml").send().await.unwrap();
            if r.status() == 429 {
                assert!(r.headers().contains_key("retry-after"));
                assert_eq!(t.metric(built).await, before, "a refused rebuild reads nothing");
                refused = true;
                break;
            }
            assert_eq!(r.status(), 200);
            assert_eq!(t.metric(built).await, before + 1, "one build per records change");
        }
        assert!(refused, "a visitor forcing rebuilds is stopped within their share");
        let other = t
            .get(host, "/sitemap.xml")
            .header("x-forwarded-for", "203.0.113.7")
            .send()
            .await
            .unwrap();
        assert_eq!(other.status(), 200, "another visitor's share is untouched");
        // Other sites and the cached pages are untouched.
        let (status, _) = t.text(host, "/").await;
        assert_eq!(status, 200);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn robots_txt_defaults_to_crawling_and_names_the_sitemap(db: TestDb) {
        let t = TestEdge::start(db).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        let r = t.get("loja.localhost", "/robots.txt").send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "text/plain; charset=utf-8");
        let body = r.text().await.unwrap();
        assert!(body.starts_with("User-agent: *\nAllow: /\n\nSitemap: http://loja.localhost"), "{body}");
        assert!(body.ends_with("/sitemap.xml\n"), "{body}");
        let r = t.client.head(t.url("/robots.txt")).header("host", "loja.localhost").send().await.unwrap();
        assert_eq!(r.status(), 200);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_site_with_more_urls_than_one_sitemap_holds_gets_a_sitemap_index(db: TestDb) {
        use vitrine_shared::seo::sitemap::MAX_URLS;
        use vitrine_shared::store::NewPost;
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_render_rate_per_minute = 4;
            s.edge_trusted_proxies = "127.0.0.1/8".into();
        }).await;
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[]).await;
        // The site's pages and MAX_URLS posts: more URLs than a file holds.
        let rows: Vec<NewPost> = (0..MAX_URLS)
            .map(|i| NewPost {
                name: format!("Post {i}"),
                slug: format!("p{i}"),
                data: serde_json::Map::new(),
                created_at: vitrine_shared::store::now(),
            })
            .collect();
        t.db.store.insert_posts(CollectionId(table), &rows, u64::MAX).await.unwrap();
        let mut site: Site = basic("<h1>Início</h1>");
        site.collection_pages.insert("blog".into(), live_page("blog", Some(table), "<h1>{{ post.name }}</h1>"));
        t.publish(loja, site).await;
        t.feed_applied().await;
        let host = "loja.localhost";

        let (status, index) = t.text(host, "/sitemap.xml").await;
        assert_eq!(status, 200);
        assert!(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"), "{index}");
        assert_eq!(index.matches("<sitemap><loc>").count(), 2, "{index}");
        assert!(index.contains("/sitemap-1.xml</loc>") && index.contains("/sitemap-2.xml</loc>"), "{index}");
        assert!(!index.contains("<url>"), "{index}");
        let (status, first) = t.text(host, "/sitemap-1.xml").await;
        assert_eq!(status, 200);
        assert_eq!(first.matches("<url>").count(), MAX_URLS);
        let (status, second) = t.text(host, "/sitemap-2.xml").await;
        assert_eq!(status, 200);
        // The rest: the site's pages come first, so the last posts spill into the second.
        let spilled = second.matches("<url>").count();
        assert!((1..10).contains(&spilled), "{second}");
        assert!(second.contains(&format!("/blog/p{}</loc>", MAX_URLS - 1)), "{second}");
        // Together, every page and every post once, in the order of one long list.
        let locs: Vec<&str> = [&first, &second]
            .iter()
            .flat_map(|doc| doc.split("<loc>").skip(1).map(|s| &s[..s.find("</loc>").unwrap()]))
            .collect();
        let distinct: std::collections::BTreeSet<&str> = locs.iter().copied().collect();
        assert_eq!(distinct.len(), MAX_URLS + spilled);
        assert!(locs[0].ends_with("/"), "the home page first: {}", locs[0]);
        for i in [0, 1, MAX_URLS / 2, MAX_URLS - 1] {
            assert!(distinct.iter().any(|l| l.ends_with(&format!("/blog/p{i}"))), "p{i}");
        }
        // No third file, nor a file numbered otherwise.
        for path in ["/sitemap-3.xml", "/sitemap-0.xml", "/sitemap-01.xml"] {
            let (status, _) = t.text(host, path).await;
            assert_eq!(status, 404, "{path}");
        }
        // Each file is built once and then answered from memory: a visitor's share (4 a
        // minute) is spent by the four builds above (the third file's was the site's 404),
        // and repeat requests cost nothing.
        let built = t.metric("vitrine_edge_sitemaps_built_total").await;
        for path in ["/sitemap.xml", "/sitemap-1.xml", "/sitemap-2.xml"] {
            let (status, _) = t.text(host, path).await;
            assert_eq!(status, 200, "{path}");
        }
        assert_eq!(t.metric("vitrine_edge_sitemaps_built_total").await, built);
        // A further file to build is refused past the share, without a read.
        let r = t.get(host, "/sitemap-4.xml").send().await.unwrap();
        assert_eq!(r.status(), 429);
        assert_eq!(t.metric("vitrine_edge_sitemaps_built_total").await, built);
        // A site that fits in one file keeps a plain sitemap and has no numbered files (asked
        // by another visitor: this one's share is spent).
        t.simple_site("outra", "<h1>Outra</h1>").await;
        let other = |path: &'static str| {
            t.get("outra.localhost", path).header("x-forwarded-for", "203.0.113.9").send()
        };
        let r = other("/sitemap.xml").await.unwrap();
        assert_eq!(r.status(), 200);
        let body = r.text().await.unwrap();
        assert!(body.contains("<urlset") && body.contains("<url>"), "{body}");
        assert_eq!(other("/sitemap-1.xml").await.unwrap().status(), 404);
        t.edge.stop().await;
    }
}
