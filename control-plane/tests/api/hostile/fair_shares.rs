//! The control plane's render workers are shared by every account's editor, preview and
//! publishes (`docs/security.md`, "Fair shares"): one account's editor traffic must not fail
//! another's canvas or anyone's publish, and a render that only waited is never reported as
//! the caller's block going over a budget.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::{dual_test, testing::Backend};

use crate::helpers::{Session, TestApp, json_ok};

/// Burns a few hundred milliseconds of CPU per render and finishes within its budget.
const BURN: &str = "<p>giro</p>{{ 1 in [0] * 3000000 }}";

fn block(uid: &str, template: &str) -> Value {
    json!({"uid": uid, "name": uid, "template": template, "css": "", "js": "", "vars": []})
}

async fn home_page(app: &TestApp, s: &Session, project: i64) -> i64 {
    let p = json_ok(app.get(s, &format!("/api/projects/{project}")).await).await;
    p["pages"][0]["id"].as_i64().unwrap()
}

/// A new account with a project: its session, project and home page.
async fn tenant(app: &TestApp, email: &str, name: &str) -> (Session, i64, i64) {
    let s = app.register(email).await;
    let project = app.create_project(&s, name).await["id"].as_i64().unwrap();
    let page = home_page(app, &s, project).await;
    (s, project, page)
}

async fn canvas(app: &TestApp, s: &Session, project: i64, page: i64, blocks: Value) -> Response {
    app.post(
        s,
        &format!("/api/project/{project}/render"),
        json!({"page_id": page, "blocks": blocks}),
    )
    .await
}

/// A control plane with two render workers, a generous CPU budget (the attacker's renders
/// stay within it) and the editor's per-account allowance lifted, so that only the fair queue
/// stands between the accounts.
struct Shared(TestApp);

impl Shared {
    async fn new(backend: Backend) -> Shared {
        Shared(
            TestApp::with(backend, |s| {
                s.render_workers = 2;
                s.render_cpu_ms = 5_000;
                s.canvas_renders_per_minute = 1_000_000;
            })
            .await,
        )
    }
}

/// `n` loops of canvas renders of [`BURN`] by `s` until `stop`; counts answers by class.
fn flood(
    app: &TestApp,
    s: &Session,
    (project, page): (i64, i64),
    n: usize,
    stop: &Arc<AtomicBool>,
) -> Vec<tokio::task::JoinHandle<[u64; 6]>> {
    (0..n)
        .map(|_| {
            let (client, url, stop) = (
                s.client.clone(),
                app.url(&format!("/api/project/{project}/render")),
                stop.clone(),
            );
            tokio::spawn(async move {
                let mut classes = [0u64; 6];
                while !stop.load(Ordering::Relaxed) {
                    let status = client
                        .post(&url)
                        .json(&json!({"page_id": page, "blocks": [block("giro", BURN)]}))
                        .send()
                        .await
                        .map(|r| r.status().as_u16())
                        .unwrap_or(0);
                    classes[usize::from(status / 100)] += 1;
                }
                classes
            })
        })
        .collect()
}

async fn total(handles: Vec<tokio::task::JoinHandle<[u64; 6]>>) -> [u64; 6] {
    let mut classes = [0u64; 6];
    for h in handles {
        for (all, one) in classes.iter_mut().zip(h.await.unwrap()) {
            *all += one;
        }
    }
    classes
}

dual_test! {
    async fn one_accounts_editor_flood_neither_slows_another_canvas_nor_fails_a_publish(app: Shared) {
        let app = &app.0;
        let (attacker, a_project, a_page) = tenant(app, "flood@example.com", "Enchente").await;
        let (victim, v_project, v_page) = tenant(app, "vitima@example.com", "Vitima").await;
        json_ok(
            app.post(&victim, &format!("/api/page/{v_page}"), json!({"blocks": [block("ola", "<p>olá</p>")]}))
                .await,
        )
        .await;
        let stop = Arc::new(AtomicBool::new(false));
        let attack = flood(app, &attacker, (a_project, a_page), 16, &stop);
        let started = Instant::now();
        while app.app.state().sandbox.load().0 == 0 {
            assert!(started.elapsed() < Duration::from_secs(10), "the flood never rendered");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;

        // The victim's canvas, again and again, during the flood.
        let mut took = Vec::new();
        for i in 0..10 {
            let started = Instant::now();
            let res = canvas(app, &victim, v_project, v_page, json!([block("ola", &format!("<p>{i}</p>"))])).await;
            took.push(started.elapsed());
            let out = json_ok(res).await;
            assert_eq!(out["blocks"][0]["html"], format!("<p>{i}</p>"), "{out}");
        }
        // And a publish of the victim's site.
        let publish = json_ok(app.post(&victim, &format!("/api/publish_v2/{v_project}"), json!({})).await).await;
        assert!(publish["deploy"]["id"].is_i64(), "{publish}");
        stop.store(true, Ordering::Relaxed);
        let classes = total(attack).await;
        took.sort();
        let median = took[took.len() / 2];
        println!("victim canvas: median {median:?}, slowest {:?}; attacker answers by class {classes:?}", took.last().unwrap());
        assert!(median <= Duration::from_millis(500), "victim canvas median {median:?}");
        assert!(classes[2] > 0, "{classes:?}");
    }
}

/// One render worker, and a render waits for it at most 50 ms.
struct OneWorker(TestApp);

impl OneWorker {
    async fn new(backend: Backend) -> OneWorker {
        OneWorker(
            TestApp::with(backend, |s| {
                s.render_workers = 1;
                s.render_cpu_ms = 5_000;
                s.render_queue_ms = 50;
            })
            .await,
        )
    }
}

dual_test! {
    async fn a_canvas_that_only_waited_is_told_the_renderers_are_busy_not_that_its_block_failed(app: OneWorker) {
        let app = &app.0;
        let (attacker, a_project, a_page) = tenant(app, "hog@example.com", "Porco").await;
        let (victim, v_project, v_page) = tenant(app, "espera@example.com", "Espera").await;
        let stop = Arc::new(AtomicBool::new(false));
        let attack = flood(app, &attacker, (a_project, a_page), 1, &stop);
        let started = Instant::now();
        while app.app.state().sandbox.load().0 == 0 {
            assert!(started.elapsed() < Duration::from_secs(10));
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let res = canvas(app, &victim, v_project, v_page, json!([block("ola", "<p>olá</p>")])).await;
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(res.headers().get("retry-after").is_some(), "503 without Retry-After");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "renderer_busy", "{body}");
        assert!(!body.to_string().contains("ola"), "the victim's block is not named: {body}");
        stop.store(true, Ordering::Relaxed);
        total(attack).await;
        let out = json_ok(canvas(app, &victim, v_project, v_page, json!([block("ola", "<p>olá</p>")])).await).await;
        assert_eq!(out["blocks"][0]["html"], "<p>olá</p>");
    }
}

/// An editor may draw 5 canvases a minute.
struct FewRenders(TestApp);

impl FewRenders {
    async fn new(backend: Backend) -> FewRenders {
        FewRenders(TestApp::with(backend, |s| s.canvas_renders_per_minute = 5).await)
    }
}

dual_test! {
    async fn an_accounts_editor_renders_are_rationed_and_another_accounts_are_not(app: FewRenders) {
        let app = &app.0;
        let (a, a_project, a_page) = tenant(app, "rapido@example.com", "Rapido").await;
        let (b, b_project, b_page) = tenant(app, "calmo@example.com", "Calmo").await;
        for _ in 0..5 {
            json_ok(canvas(app, &a, a_project, a_page, json!([block("x", "x")])).await).await;
        }
        // The preview draws from the same allowance.
        let res = app.get(&a, &format!("/api/project/{a_project}/page/{a_page}/preview")).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        let res = canvas(app, &a, a_project, a_page, json!([block("x", "x")])).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        let wait: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "renders_rate_limited", "{body}");
        assert_eq!(body["params"]["max"], 5, "{body}");
        // Another account draws as usual.
        json_ok(canvas(app, &b, b_project, b_page, json!([block("y", "y")])).await).await;
    }
}

/// Renders of each shipped template page the budget test measures.
const ROUNDS: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cpu_budget_holds_every_shipped_templates_pages_with_a_margin() {
    // The default budget, measured where sites are made from: the shipped templates' pages
    // with their records, in the real sandbox (one worker at a time, so nothing else shares
    // the core). Every render must stay within half of it.
    let settings = vitrine_shared::Settings {
        render_worker: Some(env!("CARGO_BIN_EXE_vitrine-control").into()),
        render_workers: 1,
        ..Default::default()
    };
    let budget = Duration::from_millis(settings.render_cpu_ms);
    let sandbox = vitrine_shared::sandbox::Sandbox::from_settings(&settings);
    let share = vitrine_shared::sandbox::Share::publish(vitrine_shared::account::Account::Platform);
    let pages = vitrine_control::seed::template_pages().unwrap();
    assert!(pages.len() >= 9, "{} pages", pages.len());
    let mut cpu = Vec::new();
    for p in &pages {
        for _ in 0..ROUNDS {
            let (html, used) = sandbox
                .page_measured(share, &p.blocks, &p.ctx)
                .await
                .unwrap();
            assert!(!html.is_empty(), "{} {}", p.template, p.page);
            assert!(
                used * 2 <= budget,
                "{} {}: {used:?} of CPU, more than half the budget ({budget:?})",
                p.template,
                p.page
            );
            cpu.push(used);
        }
    }
    cpu.sort();
    let at = |q: f64| cpu[((cpu.len() - 1) as f64 * q).round() as usize];
    println!(
        "shipped template pages: {} renders; CPU p50 {:?}, p99 {:?}, max {:?}; budget {budget:?}",
        cpu.len(),
        at(0.5),
        at(0.99),
        cpu.last().unwrap()
    );
}

/// A JSON API on loopback that counts the requests it answers.
async fn counting_api() -> (
    String,
    Arc<std::sync::atomic::AtomicU64>,
    tokio::task::JoinHandle<()>,
) {
    let hits = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counted = hits.clone();
    let router = axum::Router::new().route(
        "/list",
        axum::routing::get(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            async { axum::Json(json!([{"title": "um"}])) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/list", listener.local_addr().unwrap());
    let task = tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, hits, task)
}

fn api_block(uid: &str, url: &str) -> Value {
    json!({"uid": uid, "template": "{{ items | length }}",
           "vars": [{"name": "items", "type": "list", "source": format!("api:{url}")}]})
}

/// Loopback fetches allowed (the stand-in API), and 15 fetches per account a minute.
struct FewFetches(TestApp);

impl FewFetches {
    async fn new(backend: Backend) -> FewFetches {
        FewFetches(
            TestApp::with(backend, |s| {
                s.fetch_allow_private = true;
                s.fetches_per_account_per_minute = 15;
            })
            .await,
        )
    }
}

dual_test! {
    async fn one_canvas_naming_thousands_of_addresses_makes_a_few_fetches_and_an_account_its_share(app: FewFetches) {
        let app = &app.0;
        let (s, project, page) = tenant(app, "feeds@example.com", "Feeds").await;
        let (url, hits, task) = counting_api().await;
        // 500 blocks (the most one render takes), each naming its own address: 10 are fetched,
        // the rest are empty lists.
        let blocks: Vec<Value> = (0..500)
            .map(|i| api_block(&format!("b{i}"), &format!("{url}?n={i}")))
            .collect();
        let out = json_ok(canvas(app, &s, project, page, Value::Array(blocks)).await).await;
        assert_eq!(hits.load(Ordering::SeqCst), 10, "distinct addresses fetched per render");
        let filled = out["blocks"].as_array().unwrap().iter().filter(|b| b["html"] == "1").count();
        assert_eq!(filled, 10);
        // 500 blocks naming one address: one fetch, and a moment later none (the short cache).
        let same: Vec<Value> = (0..500).map(|i| api_block(&format!("s{i}"), &format!("{url}?same"))).collect();
        let out = json_ok(canvas(app, &s, project, page, Value::Array(same.clone())).await).await;
        assert!(out["blocks"].as_array().unwrap().iter().all(|b| b["html"] == "1"), "{out}");
        assert_eq!(hits.load(Ordering::SeqCst), 11);
        json_ok(canvas(app, &s, project, page, Value::Array(same)).await).await;
        assert_eq!(hits.load(Ordering::SeqCst), 11, "answered from the short cache");
        // The account has used 11 of its 15 a minute: four more addresses, then 429.
        for i in 0..4 {
            json_ok(app.get(&s, &format!("/api/fetch?url={url}%3Fmore={i}")).await).await;
        }
        let res = app.get(&s, &format!("/api/fetch?url={url}%3Fmore=4")).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "fetch_rate_limited", "{body}");
        assert_eq!(hits.load(Ordering::SeqCst), 15);
        // Another account fetches as usual.
        let (other, _, _) = tenant(app, "outra@example.com", "Outra").await;
        json_ok(app.get(&other, &format!("/api/fetch?url={url}%3Fother")).await).await;
        assert_eq!(hits.load(Ordering::SeqCst), 16);
        task.abort();
    }
}
