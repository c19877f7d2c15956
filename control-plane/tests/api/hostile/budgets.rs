//! Tenant code (templates) renders within budgets in the editor, the preview and the
//! publisher; thumbnails cannot read the server's files.
//!
//! Each expansion of `vitrine_shared::testing::budgets::EXPANSIONS` would build 10 GB or
//! more. The attacker gets a 422 naming the block, within a second, and the server's resident
//! memory never rises 64 MB above what it was (`Rss` resets the kernel's peak, so a spike that
//! came and went is seen too). An honest block renders afterwards: the process is untouched.

use std::time::{Duration, Instant};

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    redirects::MAX_RULES,
    render::{Exceeded, escape},
    testing::{
        Backend,
        budgets::{EXPANSIONS, RSS_GROWTH_LIMIT, Rss, SPIN},
    },
};

use crate::{
    helpers::{Session, TestApp, json_ok},
    publish::new_page,
};

/// What a budget attack may cost at most: an answer within this, and no more memory.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);

fn block(uid: &str, template: &str) -> Value {
    json!({"uid": uid, "name": uid, "template": template, "css": "", "js": "", "vars": []})
}

/// The uid an expansion's block gets (its name, slugged).
fn uid_of(name: &str) -> String {
    format!("bomba-{}", name.replace(' ', "-"))
}

/// The 422 of an over-budget render, as JSON: its code, the block and the reason named.
async fn budget_error(res: Response, uid: &str, reason: Exceeded) -> Value {
    let status = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["error"], "render_budget_exceeded", "{text}");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains(uid), "the block is named: {message}");
    assert!(message.contains(reason.message()), "{reason:?}: {message}");
    body
}

/// Runs `attack` for each expansion and checks the time and the memory it cost.
async fn each_expansion<F, Fut>(mut attack: F)
where
    F: FnMut(&'static str, &'static str, Exceeded) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for (name, template, reason) in EXPANSIONS {
        let rss = Rss::watch();
        let started = Instant::now();
        attack(name, template, *reason).await;
        let took = started.elapsed();
        assert!(took < ANSWER_WITHIN, "{name}: answered after {took:?}");
        let grew = rss.growth();
        assert!(
            grew < RSS_GROWTH_LIMIT,
            "{name}: the server's resident memory rose {} MB",
            grew / (1024 * 1024)
        );
    }
}

async fn home_page(app: &TestApp, s: &Session, project: i64) -> i64 {
    let p = json_ok(app.get(s, &format!("/api/projects/{project}")).await).await;
    p["pages"][0]["id"].as_i64().unwrap()
}

/// A new account's project whose home page has one honest block, published: the session,
/// the project, its home page and the live deploy's id.
async fn live_site(app: &TestApp, email: &str, name: &str) -> (Session, i64, i64, Value) {
    let s = app.register(email).await;
    let project = app.create_project(&s, name).await["id"].as_i64().unwrap();
    let page = home_page(app, &s, project).await;
    set_blocks(app, &s, page, json!([block("honesto", "<p>ok</p>")])).await;
    let publish = format!("/api/publish_v2/{project}");
    let live = json_ok(app.post(&s, &publish, json!({})).await).await["deploy"]["id"].clone();
    assert!(live.is_i64(), "{live}");
    (s, project, page, live)
}

async fn set_blocks(app: &TestApp, s: &Session, page: i64, blocks: Value) {
    json_ok(
        app.post(s, &format!("/api/page/{page}"), json!({"blocks": blocks}))
            .await,
    )
    .await;
}

async fn canvas(app: &TestApp, s: &Session, project: i64, page: i64, blocks: Value) -> Response {
    app.post(
        s,
        &format!("/api/project/{project}/render"),
        json!({"page_id": page, "blocks": blocks}),
    )
    .await
}

/// A control plane that gives a render a second of CPU: the memory and output limits, not the
/// CPU budget, are what stops the expansions that build.
struct SecondOfCpu(TestApp);

impl SecondOfCpu {
    async fn new(backend: Backend) -> SecondOfCpu {
        SecondOfCpu(TestApp::with(backend, |s| s.render_cpu_ms = 1_000).await)
    }
}

dual_test!(
    async fn a_10_gb_template_gets_a_422_in_the_canvas_and_the_server_is_untouched(
        app: SecondOfCpu,
    ) {
        let app = app.0;
        let s = app.register("canvas-bomb@example.com").await;
        let project = app.create_project(&s, "Bomba").await["id"]
            .as_i64()
            .unwrap();
        let page = home_page(&app, &s, project).await;
        each_expansion(|name, template, reason| {
            let (app, s) = (&app, &s);
            async move {
                let uid = uid_of(name);
                let blocks = json!([block("honesto", "<p>ok</p>"), block(&uid, template)]);
                let res = canvas(app, s, project, page, blocks).await;
                budget_error(res, &uid, reason).await;
            }
        })
        .await;
        let out = json_ok(
            canvas(
                &app,
                &s,
                project,
                page,
                json!([block("depois", "<b>{{ site.name }}</b>")]),
            )
            .await,
        )
        .await;
        assert_eq!(out["blocks"][0]["html"], "<b>Bomba</b>");
    }
);

dual_test!(
    async fn a_10_gb_template_gets_a_422_in_the_preview_and_the_server_is_untouched(
        app: SecondOfCpu,
    ) {
        let app = app.0;
        let s = app.register("preview-bomb@example.com").await;
        let project = app.create_project(&s, "Bomba").await["id"]
            .as_i64()
            .unwrap();
        let page = home_page(&app, &s, project).await;
        let preview = format!("/api/project/{project}/page/{page}/preview");
        each_expansion(|name, template, reason| {
            let (app, s, preview) = (&app, &s, &preview);
            async move {
                let uid = uid_of(name);
                set_blocks(
                    app,
                    s,
                    page,
                    json!([block("honesto", "<p>ok</p>"), block(&uid, template)]),
                )
                .await;
                let res = app.get(s, preview).await;
                assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{name}");
                let html = res.text().await.unwrap();
                assert!(
                    html.contains(&format!("\u{201c}{uid}\u{201d}")),
                    "the block is named: {html}"
                );
                assert!(html.contains(&escape(reason.message())), "{name}: {html}");
                assert!(!html.contains("xxxxxxxx"), "{name}: no partial page");
            }
        })
        .await;
        set_blocks(
            &app,
            &s,
            page,
            json!([block("depois", "<b>{{ site.name }}</b>")]),
        )
        .await;
        let res = app.get(&s, &preview).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.text().await.unwrap().contains("<b>Bomba</b>"));
    }
);

dual_test!(
    async fn a_10_gb_template_fails_the_publish_cleanly_and_the_live_deploy_stays(
        app: SecondOfCpu,
    ) {
        let app = app.0;
        let (s, project, page, live) = live_site(&app, "publish-bomb@example.com", "Bomba").await;
        let publish = format!("/api/publish_v2/{project}");
        each_expansion(|name, template, reason| {
            let (app, s, publish) = (&app, &s, &publish);
            async move {
                let uid = uid_of(name);
                set_blocks(
                    app,
                    s,
                    page,
                    json!([block("honesto", "<p>ok</p>"), block(&uid, template)]),
                )
                .await;
                let body = budget_error(app.post(s, publish, json!({})).await, &uid, reason).await;
                assert!(
                    body["message"].as_str().unwrap().contains("Início"),
                    "the page is named: {body}"
                );
            }
        })
        .await;
        // Nothing partial went live: the first deploy is still the active one, and every
        // attempt is recorded as failed.
        let history = json_ok(
            app.get(&s, &format!("/api/projects/{project}/deploys"))
                .await,
        )
        .await;
        assert_eq!(history["active_deploy_id"], live, "{history}");
        let failed = history["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["status"] == "failed")
            .count();
        assert_eq!(failed, EXPANSIONS.len(), "{history}");
    }
);

dual_test!(
    async fn a_template_that_spins_in_one_instruction_is_stopped_at_its_cpu_budget(app: TestApp) {
        let s = app.register("spin@example.com").await;
        let project = app.create_project(&s, "Giro").await["id"].as_i64().unwrap();
        let page = home_page(&app, &s, project).await;
        let started = Instant::now();
        let res = canvas(&app, &s, project, page, json!([block("giro", SPIN)])).await;
        budget_error(res, "giro", Exceeded::Time).await;
        // The CPU budget (`RENDER_CPU_MS`), and the wall-clock deadline (5 s) as the backstop.
        let took = started.elapsed();
        assert!(took < Duration::from_secs(6), "stopped after {took:?}");
        let out =
            json_ok(canvas(&app, &s, project, page, json!([block("depois", "ok")])).await).await;
        assert_eq!(out["blocks"][0]["html"], "ok");
    }
);

/// Red and green pixels of a PNG (RGBA or RGB, 8 bits).
fn colours(png: &[u8]) -> (usize, usize) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    assert!(step >= 3, "{:?}", info.color_type);
    let (mut red, mut green) = (0, 0);
    for px in buf[..info.buffer_size()].chunks(step) {
        match (px[0], px[1], px[2]) {
            (r, g, b) if r > 200 && g < 60 && b < 60 => red += 1,
            (r, g, b) if g > 200 && r < 60 && b < 60 => green += 1,
            _ => {}
        }
    }
    (red, green)
}

/// A solid red PNG, to be served as a file a page must not show.
fn red_png() -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, 64, 64);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer
        .write_image_data(&[255, 0, 0].repeat(64 * 64))
        .unwrap();
    writer.finish().unwrap();
    out
}

dual_test!(
    async fn a_thumbnailed_block_cannot_show_or_read_the_servers_files(app: TestApp) {
        use std::os::unix::fs::PermissionsExt;
        // Files anyone on the machine may read: only the browser's rules can keep them out.
        let secrets = tempfile::tempdir().unwrap();
        let dir = secrets.path();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let page = dir.join("segredo.html");
        std::fs::write(
            &page,
            "<body style=\"margin:0;background:#ff0000;height:3000px\">",
        )
        .unwrap();
        std::fs::write(dir.join("segredo.png"), red_png()).unwrap();
        for f in ["segredo.html", "segredo.png"] {
            std::fs::set_permissions(dir.join(f), std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let file = |name: &str| format!("file://{}/{name}", dir.display());
        let cover = "position:fixed;left:0;top:0;width:100%;height:100%;border:0";
        // A green page that turns red wherever a file got through: framed, as an image, or
        // read by script; /etc/passwd is framed too.
        let template = format!(
            "<div id=\"fundo\" style=\"{cover};background:#00ff00\"></div>\
             <iframe src=\"{page}\" style=\"{cover}\"></iframe>\
             <iframe src=\"file:///etc/passwd\" style=\"position:fixed;left:0;top:0;width:50%;height:50%;border:0;opacity:0\"></iframe>\
             <img src=\"{png}\" style=\"{cover}\">\
             <script>function red(){{document.getElementById('fundo').style.background='#ff0000'}}\
             fetch('{page}').then(red,function(){{}});\
             try{{var x=new XMLHttpRequest();x.open('GET','file:///etc/passwd',false);x.send();if(x.responseText)red()}}catch(e){{}}</script>",
            page = file("segredo.html"),
            png = file("segredo.png"),
        );
        let admin = app.register("thumb-attack@example.com").await;
        app.make_admin(&admin).await;
        let block = json_ok(
            app.post(
                &admin,
                "/erp/block",
                json!({"name": "Espiã", "template": template}),
            )
            .await,
        )
        .await;
        let id = block["id"].as_i64().unwrap();
        let res = app
            .get(
                &admin,
                &format!("/api/block-screenshot/{id}?size=400,300&trim=0"),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let (red, green) = colours(&res.bytes().await.unwrap());
        assert!(
            green > 400 * 300 / 2,
            "the page itself was drawn ({green} green pixels)"
        );
        assert_eq!(red, 0, "a file's content reached the thumbnail");
    }
);

dual_test!(
    async fn a_site_too_large_for_the_edges_shared_manifest_cache_is_refused_at_publish(
        app: TestApp,
    ) {
        // Every edge keeps the manifests of the sites it serves in one cache all tenants share
        // (`EDGE_MANIFEST_CACHE_BYTES`); a manifest near its size would push the others out,
        // or, over it, be read and parsed on every request.
        let (s, project, _, live) = live_site(&app, "manifest-bloat@example.com", "Inchado").await;
        let publish = format!("/api/publish_v2/{project}");

        // Collection pages travel in the manifest with their templates: two of 1.2 MB each.
        let table = json_ok(
            app.post(&s, "/api/tables", json!({"project_id": project, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}}))
                .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        let big = format!("<p>{}</p>", "x".repeat(1_200_000));
        for name in ["Itens A", "Itens B"] {
            let body = json!({"table_id": table, "blocks": [block("grande", &big)]});
            new_page(&app, &s, project, name, body).await;
        }
        let res = app.post(&s, &publish, json!({})).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "site_too_large", "{body}");
        let max_kb = (vitrine_shared::manifest::MAX_MANIFEST_BYTES / 1024) as i64;
        assert_eq!(body["params"]["max_kb"], max_kb, "{body}");
        assert!(
            body["params"]["size_kb"].as_i64().unwrap() > max_kb,
            "{body}"
        );

        // Nothing went live: the first deploy stays, the attempt is recorded as failed.
        let history = json_ok(
            app.get(&s, &format!("/api/projects/{project}/deploys"))
                .await,
        )
        .await;
        assert_eq!(history["active_deploy_id"], live, "{history}");
        assert_eq!(history["data"][0]["status"], "failed", "{history}");
        // The reason is kept with its code and values, for the dashboard's translation.
        assert_eq!(
            history["data"][0]["error_code"], "site_too_large",
            "{history}"
        );
        assert_eq!(
            history["data"][0]["error_params"]["max_kb"], max_kb,
            "{history}"
        );
    }
);

dual_test!(
    async fn a_project_cannot_hold_more_redirects_than_every_edge_loads_whole(app: TestApp) {
        // Every edge loads a project's rules whole, and publishes carry them: their number is
        // capped per project, with a clear 422, and space freed is space to add again.
        let s = app.register("redirect-flood@example.com").await;
        let project = app.create_project(&s, "Enxurrada").await["id"]
            .as_i64()
            .unwrap();
        let store = &app.store;
        for n in 0..MAX_RULES {
            store
                .insert_redirect(ProjectId(project), &format!("/velho-{n}"), "/")
                .await
                .unwrap();
        }
        let add = |from: &'static str| {
            app.post(
                &s,
                "/api/redirects",
                json!({"project_id": project, "from": from, "to": "/"}),
            )
        };
        let res = add("/mais-um").await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "too_many_redirects", "{body}");
        assert_eq!(body["params"]["max"], MAX_RULES, "{body}");
        assert_eq!(
            store
                .project_redirects(ProjectId(project))
                .await
                .unwrap()
                .len() as i64,
            MAX_RULES
        );

        let first = json_ok(
            app.get(&s, &format!("/api/projects/{project}/redirects?limit=1"))
                .await,
        )
        .await["data"][0]["id"]
            .as_i64()
            .unwrap();
        let res = app.delete(&s, &format!("/api/redirects/{first}")).await;
        assert!(res.status().is_success(), "{}", res.status());
        assert_eq!(add("/mais-um").await.status(), StatusCode::CREATED);
    }
);
