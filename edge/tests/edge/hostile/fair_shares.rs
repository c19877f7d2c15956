//! The render workers are a pool every tenant shares: one account's collection page over
//! thousands of posts, requested on 32 connections, must not slow another account's pages,
//! nor make them fail, nor leave a failure cached behind it (`docs/security.md`, "Fair
//! shares").
//!
//! The attacker's template burns CPU without going over its budget (a lazy sequence walked
//! inside one instruction, for a few hundred milliseconds per post), so neither the budget
//! nor the short circuit stops it: only the fair queue stands between it and the victim.

use std::{
    net::{IpAddr, Ipv4Addr},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use serde_json::Map;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    store::NewPost,
    testing::{TestDb, budgets::SPIN},
};

use crate::support::{Site, TestEdge, basic, live_page};

/// Burns about a third of a second of CPU per render on this machine kind, well within the
/// tests' CPU budget (a render that stays within its budget is the attack the fair queue
/// alone must hold).
const BURN: &str = "<h1>{{ post.name }}</h1>{{ 1 in [0] * 3000000 }}";

/// Posts of the attacker's collection.
const ATTACKER_POSTS: usize = 3000;
/// Connections the attacker requests them on.
const CONNECTIONS: usize = 32;

/// A collection of `n` posts (`p0`…), written in one statement.
async fn many_posts(t: &TestEdge, project: i64, n: usize) -> i64 {
    let store = &t.db.store;
    let c = store
        .insert_collection(ProjectId(project), "posts", "posts", &serde_json::json!({}))
        .await
        .unwrap();
    let posts: Vec<NewPost> = (0..n)
        .map(|i| NewPost {
            name: format!("Post {i}"),
            slug: format!("p{i}"),
            data: Map::new(),
            created_at: vitrine_shared::store::now(),
        })
        .collect();
    store.insert_posts(c.id, &posts, u64::MAX).await.unwrap();
    c.id.get()
}

/// A client whose connections leave from `ip` (any 127/8 address reaches the edge on
/// 127.0.0.1): another visitor, as the edge's per-visitor limits see it.
fn client_from(ip: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(ip))
        .pool_max_idle_per_host(CONNECTIONS)
        .build()
        .unwrap()
}

/// The attacker's site (account A) and the victim's (account B, another owner), each with a
/// collection page; returns the victim's post count.
async fn two_tenants(t: &TestEdge, victim_template: &str) -> usize {
    let attacker = t.project("ataque").await;
    let table = many_posts(t, attacker, ATTACKER_POSTS).await;
    let mut site: Site = basic("<h1>Ataque</h1>");
    site.collection_pages
        .insert("giro".into(), live_page("giro", Some(table), BURN));
    t.publish(attacker, site).await;

    let victim_owner = t.user("Vítima", "vitima@example.com").await;
    let victim = t.project_of(victim_owner, "vitima").await;
    let posts = 40;
    let table = many_posts(t, victim, posts).await;
    let mut site: Site = basic("<h1>Vítima</h1>");
    site.collection_pages.insert(
        "loja".into(),
        live_page("loja", Some(table), victim_template),
    );
    t.publish(victim, site).await;
    posts
}

/// Requests the attacker's posts on [`CONNECTIONS`] connections until `stop`; counts answers
/// by class.
fn attack(t: &TestEdge, stop: Arc<AtomicBool>) -> Vec<tokio::task::JoinHandle<[u64; 6]>> {
    let client = client_from(Ipv4Addr::LOCALHOST);
    (0..CONNECTIONS)
        .map(|c| {
            let (client, url, stop) = (client.clone(), t.url(""), stop.clone());
            tokio::spawn(async move {
                let mut classes = [0u64; 6];
                let mut post = c;
                while !stop.load(Ordering::Relaxed) && post < ATTACKER_POSTS {
                    let status = client
                        .get(format!("{url}/giro/p{post}"))
                        .header("host", "ataque.localhost")
                        .send()
                        .await
                        .map(|r| r.status().as_u16())
                        .unwrap_or(0);
                    classes[usize::from(status / 100)] += 1;
                    post += CONNECTIONS;
                }
                classes
            })
        })
        .collect()
}

dual_test! {
    async fn a_tenant_burning_cpu_on_thousands_of_posts_does_not_slow_another_tenants_pages(db: TestDb) {
        // Many clients' worth of requests (the per-visitor limit lifted, as a botnet would
        // lift it), a CPU budget the attacker's renders stay within, two workers.
        let t = TestEdge::start_with(db, None, |s| {
            s.render_workers = 2;
            s.render_cpu_ms = 5_000;
            s.edge_render_rate_per_minute = 1_000_000;
        })
        .await;
        let victim_posts = two_tenants(&t, "<h1>{{ post.name }}</h1>").await;
        let stop = Arc::new(AtomicBool::new(false));
        let attackers = attack(&t, stop.clone());
        // The attack is under way: the attacker holds its share of the workers.
        let busy = Instant::now();
        while t.edge.sites.sandbox.load().0 == 0 {
            assert!(busy.elapsed() < Duration::from_secs(10), "the attack never rendered");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;

        // The victim's uncached pages, one after another, from another visitor.
        let victim = client_from(Ipv4Addr::new(127, 0, 0, 2));
        let mut took = Vec::new();
        for i in 0..20 {
            let started = Instant::now();
            let r = victim
                .get(t.url(&format!("/loja/p{i}")))
                .header("host", "vitima.localhost")
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            let body = r.text().await.unwrap();
            took.push(started.elapsed());
            assert_eq!(status, 200, "victim page {i} during the attack: {body:.200}");
            assert!(body.contains(&format!("<h1>Post {i}</h1>")), "{body:.200}");
        }
        let (running, waiting) = t.edge.sites.sandbox.load();
        stop.store(true, Ordering::Relaxed);
        let mut classes = [0u64; 6];
        for a in attackers {
            for (all, one) in classes.iter_mut().zip(a.await.unwrap()) {
                *all += one;
            }
        }
        took.sort();
        let median = took[took.len() / 2];
        println!(
            "victim: median {median:?}, slowest {:?}; attacker answers by class {classes:?}; \
             renders running {running}, waiting {waiting} at the end",
            took.last().unwrap()
        );
        assert!(median <= Duration::from_millis(500), "victim median {median:?}");
        assert!(classes[2] > 0, "the attacker's own pages rendered too: {classes:?}");

        // After the attack every victim page answers, the cached ones and the rest.
        for i in 0..victim_posts {
            let (status, body) = t.text("vitima.localhost", &format!("/loja/p{i}")).await;
            assert_eq!(status, 200, "victim page {i} after the attack: {body:.200}");
        }
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_render_that_waited_too_long_is_a_503_never_cached_nor_blamed_on_its_template(db: TestDb) {
        // One worker; the victim may wait 50 ms for it while the attacker's render takes it.
        let t = TestEdge::start_with(db, None, |s| {
            s.render_workers = 1;
            s.render_cpu_ms = 5_000;
            s.render_queue_ms = 50;
        })
        .await;
        two_tenants(&t, "<h1>{{ post.name }}</h1>").await;
        let hog = t.get("ataque.localhost", "/giro/p0");
        let hog = tokio::spawn(async move { hog.send().await.unwrap().status().as_u16() });
        let started = Instant::now();
        while t.edge.sites.sandbox.load().0 == 0 {
            assert!(started.elapsed() < Duration::from_secs(10));
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let r = t.get("vitima.localhost", "/loja/p1").send().await.unwrap();
        assert_eq!(r.status(), 503);
        assert!(r.headers().get("retry-after").is_some(), "503 without Retry-After");
        assert_eq!(hog.await.unwrap(), 200);
        // Not cached: the same page renders once a worker is free.
        let (status, body) = t.text("vitima.localhost", "/loja/p1").await;
        assert_eq!((status, body.contains("<h1>Post 1</h1>")), (200, true), "{body:.200}");
        // And never counted as the template's failure.
        assert_eq!(t.metric("vitrine_edge_render_errors_total").await, 0);
        assert_eq!(
            t.metric("vitrine_edge_renders_refused_total{reason=\"busy\"}").await,
            1
        );
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_worker_starved_past_its_wall_clock_deadline_is_a_503_not_a_cached_500(db: TestDb) {
        // A deadline far shorter than the CPU budget: the worker is killed by the clock, which
        // says nothing about its template.
        let t = TestEdge::start_with(db, None, |s| {
            s.render_cpu_ms = 5_000;
            s.render_deadline_ms = 100;
        })
        .await;
        two_tenants(&t, "<h1>{{ post.name }}</h1>").await;
        let r = t.get("ataque.localhost", "/giro/p0").send().await.unwrap();
        assert_eq!(r.status(), 503);
        assert!(r.headers().get("retry-after").is_some());
        let r = t.get("ataque.localhost", "/giro/p0").send().await.unwrap();
        assert_eq!(r.status(), 503, "rendered again, not a cached failure");
        assert_eq!(t.metric("vitrine_edge_render_errors_total").await, 0);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_template_that_keeps_failing_its_budget_is_not_rendered_for_every_post(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.render_cpu_ms = 100;
            s.render_workers = 1;
        })
        .await;
        let loja = t.project("loja").await;
        let table = many_posts(&t, loja, 10).await;
        let mut site: Site = basic("<h1>Loja</h1>");
        site.collection_pages.insert("giro".into(), live_page("giro", Some(table), SPIN));
        site.dynamic_pages.insert("viva".into(), live_page("viva", None, "<p>viva</p>"));
        t.publish(loja, site).await;
        let started = Instant::now();
        for i in 0..10 {
            let (status, _) = t.text("loja.localhost", &format!("/giro/p{i}")).await;
            assert_eq!(status, 500, "post {i}");
        }
        let spent = t.metric("vitrine_edge_render_budget_exceeded_total{reason=\"time\"}").await;
        let skipped = t
            .metric("vitrine_edge_renders_refused_total{reason=\"short_circuit\"}")
            .await;
        assert_eq!((spent, skipped), (3, 7), "three renders spent their budget, then none");
        println!("ten posts of a failing template answered in {:?}", started.elapsed());
        // The site's other pages render as before.
        assert_eq!(t.text("loja.localhost", "/viva").await.0, 200);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn one_visitor_cannot_cause_more_than_its_share_of_uncached_renders(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_render_rate_per_minute = 5).await;
        let loja = t.project("loja").await;
        let table = many_posts(&t, loja, 20).await;
        let mut site: Site = basic("<h1>Loja</h1>");
        site.collection_pages
            .insert("p".into(), live_page("p", Some(table), "<h1>{{ post.name }}</h1>"));
        t.publish(loja, site).await;
        let crawler = client_from(Ipv4Addr::LOCALHOST);
        let get = |client: &reqwest::Client, path: String| {
            client.get(t.url(&path)).header("host", "loja.localhost").send()
        };
        for i in 0..5 {
            let r = get(&crawler, format!("/p/p{i}")).await.unwrap();
            assert_eq!(r.status(), 200, "post {i}");
        }
        let r = get(&crawler, "/p/p5".into()).await.unwrap();
        assert_eq!(r.status(), 429);
        let wait: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&wait), "Retry-After {wait}");
        // What is cached costs nothing and is still served to it.
        assert_eq!(get(&crawler, "/p/p0".into()).await.unwrap().status(), 200);
        // Another visitor is not held by it.
        let other = client_from(Ipv4Addr::new(127, 0, 0, 3));
        assert_eq!(get(&other, "/p/p5".into()).await.unwrap().status(), 200);
        assert_eq!(
            t.metric("vitrine_edge_renders_refused_total{reason=\"visitor_rate\"}").await,
            1
        );
        t.edge.stop().await;
    }
}

/// The path of the share card an item page names (its `og:image`, on the site's address).
fn card_named(html: &str) -> Option<String> {
    let start = html.find("<meta property=\"og:image\" content=\"")?;
    let rest = &html[start..];
    let url = &rest[rest.find("content=\"")? + "content=\"".len()..];
    let url = &url[..url.find('"')?];
    Some(url[url.find("/_og/")?..].to_string())
}

/// The attacker's visitors: each connection reads an item page and draws its card, post after
/// post, until `stop`; `drawn` counts the cards drawn.
fn card_flood(
    t: &TestEdge,
    stop: Arc<AtomicBool>,
    drawn: Arc<AtomicU64>,
) -> Vec<tokio::task::JoinHandle<()>> {
    let client = client_from(Ipv4Addr::LOCALHOST);
    (0..CONNECTIONS)
        .map(|c| {
            let (client, url, stop, drawn) =
                (client.clone(), t.url(""), stop.clone(), drawn.clone());
            tokio::spawn(async move {
                let get = |path: String| {
                    client
                        .get(format!("{url}{path}"))
                        .header("host", "ataque.localhost")
                        .send()
                };
                let mut post = c;
                while !stop.load(Ordering::Relaxed) && post < ATTACKER_POSTS {
                    let page = match get(format!("/giro/p{post}")).await {
                        Ok(r) => r.text().await.unwrap_or_default(),
                        Err(_) => String::new(),
                    };
                    if let Some(card) = card_named(&page)
                        && get(card).await.is_ok_and(|r| r.status() == 200)
                    {
                        drawn.fetch_add(1, Ordering::Relaxed);
                    }
                    post += CONNECTIONS;
                }
            })
        })
        .collect()
}

dual_test! {
    async fn a_tenant_drawing_thousands_of_share_cards_does_not_hold_up_another_tenants_cards(db: TestDb) {
        // The attack the card path must hold: one account's visitors ask for the share card of
        // each of its thousands of items (each first request draws one in a render worker),
        // from many addresses (the per-visitor ration lifted, as a botnet lifts it). Another
        // account's new cards must come as fast as when the edge is quiet.
        let t = TestEdge::start_with(db, None, |s| {
            s.render_workers = 2;
            s.edge_render_rate_per_minute = 1_000_000;
        })
        .await;
        let attacker = t.project("ataque").await;
        let table = many_posts(&t, attacker, ATTACKER_POSTS).await;
        let mut site: Site = basic("<h1>Ataque</h1>");
        site.collection_pages
            .insert("giro".into(), live_page("giro", Some(table), "<h1>{{ post.name }}</h1>"));
        t.publish(attacker, site).await;
        let owner = t.user("Vítima", "vitima@example.com").await;
        let victim_site = t.project_of(owner, "vitima").await;
        let table = many_posts(&t, victim_site, 40).await;
        let mut site: Site = basic("<h1>Vítima</h1>");
        site.collection_pages
            .insert("loja".into(), live_page("loja", Some(table), "<h1>{{ post.name }}</h1>"));
        t.publish(victim_site, site).await;

        let victim = client_from(Ipv4Addr::new(127, 0, 0, 2));
        // One of the victim's cards: its item page, then the card it names, drawn.
        let card = |i: usize| {
            let victim = victim.clone();
            let url = t.url("");
            async move {
                let get = |path: String| victim.get(format!("{url}{path}")).header("host", "vitima.localhost").send();
                let page = get(format!("/loja/p{i}")).await.unwrap().text().await.unwrap();
                let path = card_named(&page).unwrap_or_else(|| panic!("no og:image: {page:.300}"));
                let started = Instant::now();
                let r = get(path.clone()).await.unwrap();
                assert_eq!(r.status(), 200, "{path}");
                assert_eq!(r.headers()["content-type"], "image/png");
                let png = r.bytes().await.unwrap();
                assert!(png.starts_with(b"\x89PNG"), "{path}");
                started.elapsed()
            }
        };
        let median = |mut took: Vec<Duration>| {
            took.sort();
            took[took.len() / 2]
        };
        // Quiet: five of the victim's cards.
        let mut quiet = Vec::new();
        for i in 0..5 {
            quiet.push(card(i).await);
        }
        let quiet = median(quiet);

        let (stop, drawn) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)));
        let flood = card_flood(&t, stop.clone(), drawn.clone());
        let busy = Instant::now();
        while drawn.load(Ordering::Relaxed) < 10 {
            assert!(busy.elapsed() < Duration::from_secs(30), "the flood never drew");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // Under the flood: twenty more of the victim's cards, each drawn for the first time.
        let mut flooded = Vec::new();
        for i in 5..25 {
            flooded.push(card(i).await);
        }
        let (running, waiting) = t.edge.sites.sandbox.load();
        let during = drawn.load(Ordering::Relaxed);
        stop.store(true, Ordering::Relaxed);
        for f in flood {
            f.await.unwrap();
        }
        let flooded = median(flooded);
        println!(
            "victim's new card: median {quiet:?} quiet, {flooded:?} under the flood; the \
             attacker had drawn {during} cards; renders running {running}, waiting {waiting} \
             as the victim's last card came"
        );
        assert!(waiting > 0, "the attacker's visitors were not waiting for workers");
        // The victim waits for no attacker's card: it gets its own share of the workers. What
        // is left is the machine's two cores shared with the attacker's drawing.
        assert!(
            flooded <= quiet * 3 + Duration::from_millis(150),
            "victim card median {flooded:?} under the flood, {quiet:?} quiet"
        );
        t.edge.stop().await;
    }
}
