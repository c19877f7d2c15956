//! Tenant code (owner-written templates) renders within an output cap, a time cap and off the
//! visitor threads: an over-budget page fails alone.
//!
//! Each expansion of `vitrine_shared::testing::budgets::EXPANSIONS` would build 10 GB or
//! more. Its visitors get the site's 500 page within a second, `/metrics` counts the budget
//! it went over, the edge's resident memory never rises 64 MB above what it was, and another
//! tenant's pages (static and live) answer as before.

use std::time::{Duration, Instant};

use vitrine_shared::{
    dual_test,
    render::Exceeded,
    testing::{
        TestDb,
        budgets::{EXPANSIONS, RSS_GROWTH_LIMIT, Rss, SPIN},
    },
};

use crate::support::{Site, TestEdge, basic, live_page};

/// The site's own 500 page ([`basic`]).
const SITE_500: &str = "<h1>A Loja tropeçou</h1>";

fn slug_of(name: &str) -> String {
    format!("bomba-{}", name.replace(' ', "-"))
}

/// Another tenant, with a static home and a live page; both must keep answering.
async fn bystander(t: &TestEdge) {
    let other = t.project("vizinha").await;
    let mut site = basic("<h1>Vizinha</h1>");
    site.dynamic_pages.insert(
        "viva".into(),
        live_page("viva", None, "<p>{{ site.name }} ao vivo</p>"),
    );
    t.publish(other, site).await;
}

async fn bystander_answers(t: &TestEdge) {
    assert_eq!(
        t.text("vizinha.localhost", "/").await,
        (200, "<h1>Vizinha</h1>".to_string())
    );
    let (status, body) = t.text("vizinha.localhost", "/viva").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(" ao vivo</p>"), "{body}");
}

/// Visits `path(slug)` for each expansion: the site's 500 page within a second, and no
/// growth of the edge's memory; then the counters by reason. The edges these run on give a
/// render a second of CPU, so that the memory and output limits, not the CPU budget, are what
/// stops the expansions that build.
async fn attack_each(t: &TestEdge, path: impl Fn(&str) -> String) {
    let before = |reason: Exceeded| {
        format!(
            "vitrine_edge_render_budget_exceeded_total{{reason=\"{}\"}}",
            reason.as_str()
        )
    };
    for (name, _, _) in EXPANSIONS {
        let rss = Rss::watch();
        let started = Instant::now();
        let (status, body) = t.text("loja.localhost", &path(&slug_of(name))).await;
        let took = started.elapsed();
        assert_eq!((status, body.as_str()), (500, SITE_500), "{name}");
        assert!(
            took < Duration::from_secs(1),
            "{name}: answered after {took:?}"
        );
        let grew = rss.growth();
        assert!(
            grew < RSS_GROWTH_LIMIT,
            "{name}: the edge's resident memory rose {} MB",
            grew / (1024 * 1024)
        );
    }
    for reason in [Exceeded::Memory, Exceeded::Output] {
        let expected = EXPANSIONS.iter().filter(|(_, _, r)| *r == reason).count() as u64;
        assert_eq!(t.metric(&before(reason)).await, expected, "{reason:?}");
    }
    bystander_answers(t).await;
}

dual_test! {
    async fn a_10_gb_template_on_a_live_page_gets_the_500_page_and_the_edge_is_untouched(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.render_cpu_ms = 1_000).await;
        bystander(&t).await;
        let loja = t.project("loja").await;
        let mut site: Site = basic("<h1>Início</h1>");
        for (name, template, _) in EXPANSIONS {
            let slug = slug_of(name);
            site.dynamic_pages.insert(slug.clone(), live_page(&slug, None, template));
        }
        t.publish(loja, site).await;
        attack_each(&t, |slug| format!("/{slug}")).await;
        assert_eq!(t.text("loja.localhost", "/").await, (200, "<h1>Início</h1>".to_string()));
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_10_gb_template_on_a_collection_page_gets_the_500_page_and_the_edge_is_untouched(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.render_cpu_ms = 1_000).await;
        bystander(&t).await;
        let loja = t.project("loja").await;
        let table = t.collection(loja, "posts", &[("ola", "Olá", "<p>texto</p>")]).await;
        let mut site: Site = basic("<h1>Início</h1>");
        for (name, template, _) in EXPANSIONS {
            let slug = slug_of(name);
            site.collection_pages.insert(slug.clone(), live_page(&slug, Some(table), template));
        }
        site.collection_pages.insert("blog".into(), live_page("blog", Some(table), "<h1>{{ post.name }}</h1>"));
        t.publish(loja, site).await;
        attack_each(&t, |slug| format!("/{slug}/ola")).await;
        let (status, body) = t.text("loja.localhost", "/blog/ola").await;
        assert_eq!(status, 200);
        assert!(body.contains("<h1>Olá</h1>"), "{body}");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn renders_that_spin_never_hold_up_static_pages_on_the_same_visitor_thread(db: TestDb) {
        // One visitor thread serves every connection, and two render workers run at once
        // (both the site's account's); only the CPU limit stops a render (the wall-clock
        // deadline is out of the way).
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_workers = 1;
            s.render_workers = 2;
            s.render_workers_per_account = 2;
            s.render_cpu_ms = 1_000;
            s.render_deadline_ms = 60_000;
            s.render_queue_ms = 60_000;
        })
        .await;
        let loja = t.project("loja").await;
        let posts = [("p1", "1", ""), ("p2", "2", ""), ("p3", "3", ""), ("p4", "4", "")];
        let table = t.collection(loja, "posts", &posts).await;
        let mut site: Site = basic("<h1>Início</h1>");
        site.collection_pages.insert("giro".into(), live_page("giro", Some(table), SPIN));
        t.publish(loja, site).await;

        // Four renders of a second of CPU each (four pages: four cache keys), two at a time.
        let spins: Vec<_> = ["p1", "p2", "p3", "p4"]
            .into_iter()
            .map(|post| {
                let request = t.get("loja.localhost", &format!("/giro/{post}"));
                tokio::spawn(async move { request.send().await.unwrap().status().as_u16() })
            })
            .collect();
        // Meanwhile the same thread answers static pages, each while a render is in flight.
        for i in 0..20 {
            let (status, body) = t.text("loja.localhost", if i % 2 == 0 { "/" } else { "/sobre" }).await;
            assert_eq!(status, 200, "{body}");
            assert!(
                spins.iter().any(|s| !s.is_finished()),
                "static answer {i} came only after every render had ended"
            );
        }
        for spin in spins {
            assert_eq!(spin.await.unwrap(), 500);
        }
        // Each spent its CPU budget, unless its template had failed often enough by the time it
        // began to be short-circuited (`a_template_that_keeps_failing_its_budget_…`).
        let spent = "vitrine_edge_render_budget_exceeded_total{reason=\"time\"}";
        let skipped = "vitrine_edge_renders_refused_total{reason=\"short_circuit\"}";
        assert_eq!(t.metric(spent).await + t.metric(skipped).await, 4);
        assert!(t.metric(spent).await >= 2);
        t.edge.stop().await;
    }
}
