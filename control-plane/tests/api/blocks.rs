//! The block library: the seeded library, My Blocks, the admin calls under /erp, the
//! editor's render call and the fetch proxy for API-fed lists.

use std::time::Duration;

use axum::{Router, routing::get};
use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::{dual_test, testing::Backend};

use crate::helpers::{Session, TestApp, expect_error, json_ok, wait_until};

const HERO: &str = r#"<section class="h" x-vars='[{"name":"title","type":"text","value":"Olá"}]'><h1>{{ title }}</h1></section>"#;

async fn library(app: &TestApp, s: &Session) -> Value {
    json_ok(app.get(s, "/api/blocks").await).await
}

fn block_count(lib: &Value) -> usize {
    lib["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["blocks"].as_array().unwrap().len())
        .sum()
}

dual_test!(
    async fn the_seeded_library_lists_categories_with_their_blocks(app: TestApp) {
        let s = app.register("lib@example.com").await;
        assert_eq!(block_count(&library(&app, &s).await), 0);
        let report = vitrine_control::seed::run(app.app.state()).await.unwrap();
        assert!(report.blocks >= 40, "{report:?}");
        let lib = library(&app, &s).await;
        let categories = lib["categories"].as_array().unwrap();
        assert!(categories.len() >= 8);
        assert_eq!(categories[0]["key"], "elements");
        assert!(categories[0]["icon"].as_str().unwrap().starts_with("<svg"));
        assert_eq!(block_count(&lib), report.blocks);
        let first = &categories[0]["blocks"][0];
        for key in [
            "id",
            "uid",
            "name",
            "keywords",
            "template",
            "css",
            "js",
            "order",
            "category_id",
        ] {
            assert!(!first[key].is_null(), "{key} in {first}");
        }
        assert_eq!(first["category_id"], categories[0]["id"]);
        assert_eq!(lib["my_blocks"], json!([]));
        // Seeding again updates in place.
        let again = vitrine_control::seed::run(app.app.state()).await.unwrap();
        assert_eq!(again.blocks, report.blocks);
        assert_eq!(block_count(&library(&app, &s).await), report.blocks);
    }
);

dual_test!(
    async fn my_blocks_are_checked_and_private(app: TestApp) {
        let ana = app.register("ana@example.com").await;
        let bia = app.register("bia@example.com").await;
        for (body, needle) in [
            (
                json!({"name": " ", "template": HERO}),
                "Block Name is required",
            ),
            (json!({"template": HERO}), "Block Name is required"),
            (
                json!({"name": "X", "template": "<div x-vars='[{\"name\":'></div>"}),
                "x-vars error:",
            ),
            (
                json!({"name": "X", "template": "<div x-vars='[{\"name\":\"site\"}]'></div>"}),
                "reserved",
            ),
            (
                json!({"name": "X", "template": "{% if %}"}),
                "template error:",
            ),
            (json!({"name": "X", "template": ""}), "empty"),
            (
                json!({"name": "X", "template": HERO, "css": "a".repeat(300 * 1024)}),
                "too large",
            ),
        ] {
            let msg = expect_error(
                app.post(&ana, "/api/newMyBlock", body.clone()).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert!(msg.contains(needle), "{body}: {msg}");
        }
        let res = app
            .post(
                &ana,
                "/api/newMyBlock",
                json!({"name": "Meu hero", "template": HERO, "css": ".h{}"}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let mine: Value = res.json().await.unwrap();
        let id = mine["id"].as_i64().unwrap();
        let res = app
            .post(
                &ana,
                "/api/newMyBlock",
                json!({"id": id, "name": "Meu hero 2", "template": HERO}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(
            library(&app, &ana).await["my_blocks"][0]["name"],
            "Meu hero 2"
        );
        // Another user can neither see, overwrite nor delete it.
        assert_eq!(library(&app, &bia).await["my_blocks"], json!([]));
        expect_error(
            app.post(
                &bia,
                "/api/newMyBlock",
                json!({"id": id, "name": "Roubado", "template": HERO}),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.delete(&bia, &format!("/api/block/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(
            library(&app, &ana).await["my_blocks"][0]["name"],
            "Meu hero 2"
        );
        let res = app.delete(&ana, &format!("/api/block/{id}")).await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        assert_eq!(library(&app, &ana).await["my_blocks"], json!([]));
    }
);

dual_test!(
    async fn the_global_library_is_for_administrators_with_unique_names(app: TestApp) {
        let user = app.register("user@example.com").await;
        let admin = app.register("admin@example.com").await;
        app.make_admin(&admin).await;
        let msg = expect_error(
            app.post(
                &user,
                "/api/newBlock",
                json!({"name": "Hero", "template": HERO}),
            )
            .await,
            StatusCode::FORBIDDEN,
        )
        .await;
        assert!(msg.contains("administrators"), "{msg}");
        expect_error(
            app.post(&user, "/erp/category", json!({"name": "Heróis"}))
                .await,
            StatusCode::FORBIDDEN,
        )
        .await;
        expect_error(
            app.get(&user, "/erp/export-blocks").await,
            StatusCode::FORBIDDEN,
        )
        .await;

        let res = app
            .post(
                &admin,
                "/erp/category",
                json!({"name": "Heróis", "order": 2}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let heroes = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
        let other = json_ok(
            app.post(
                &admin,
                "/erp/category",
                json!({"name": "Outros", "order": 1}),
            )
            .await,
        )
        .await;
        let other = other["id"].as_i64().unwrap();
        expect_error(
            app.post(&admin, "/erp/category", json!({"name": ""})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;

        let res = app
            .post(&admin, "/api/newBlock", json!({"name": "Hero Azul", "category_id": heroes, "template": HERO, "keywords": "banner, topo"}))
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let block = res.json::<Value>().await.unwrap();
        let block_id = block["id"].as_i64().unwrap();
        assert_eq!(block["order"], 99);
        let msg = expect_error(
            app.post(
                &admin,
                "/api/newBlock",
                json!({"name": "hero azul ", "category_id": heroes, "template": HERO}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(msg, "Block Name already exists");
        expect_error(
            app.post(
                &admin,
                "/api/newBlock",
                json!({"name": "Sem categoria", "category_id": 999_999, "template": HERO}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;

        // Move, order, search.
        let moved = json_ok(
            app.post(
                &admin,
                &format!("/erp/block/{block_id}"),
                json!({"category_id": other}),
            )
            .await,
        )
        .await;
        assert_eq!(moved["category_id"], other);
        assert_eq!(moved["template"], HERO);
        let res = app
            .post(
                &admin,
                &format!("/erp/reorder-block/{block_id}"),
                json!({"order": 3}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        expect_error(
            app.post(
                &admin,
                &format!("/erp/reorder-block/{block_id}"),
                json!({"order": -1}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        let res = app
            .post(
                &admin,
                &format!("/erp/reorder-category/{other}"),
                json!({"order": 5}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        let found = json_ok(
            app.post(&admin, "/erp/searchBlocks", json!({"term": "TOPO"}))
                .await,
        )
        .await;
        assert_eq!(found.as_array().unwrap().len(), 1);
        let none = json_ok(
            app.post(&admin, "/erp/searchBlocks", json!({"term": "%"}))
                .await,
        )
        .await;
        assert_eq!(none, json!([]));
        let lib = library(&app, &user).await;
        assert_eq!(lib["categories"][0]["name"], "Heróis");
        assert_eq!(lib["categories"][1]["blocks"][0]["order"], 3);

        // A category is deleted only when empty.
        let msg = expect_error(
            app.post(&admin, &format!("/erp/delete-category/{other}"), json!({}))
                .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert!(msg.contains("still has blocks"), "{msg}");
        let res = app
            .post(&admin, &format!("/erp/delete-category/{heroes}"), json!({}))
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);

        // Export, truncate, import the export's text back.
        let one = json_ok(
            app.get(&admin, &format!("/erp/export-block/{block_id}"))
                .await,
        )
        .await;
        assert_eq!(one["category"], "Outros");
        let categories = json_ok(app.get(&admin, "/erp/export-categories").await).await;
        let blocks = json_ok(app.get(&admin, "/erp/export-blocks").await).await;
        assert_eq!(blocks.as_array().unwrap().len(), 1);
        let res = app.post(&admin, "/erp/truncate", json!({})).await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        assert_eq!(library(&app, &user).await["categories"], json!([]));

        // An import with one bad block writes nothing.
        let mut bad = blocks.as_array().unwrap().clone();
        bad.push(json!({"name": "Quebrado", "template": "{% for %}"}));
        let msg = expect_error(
            app.post(&admin, "/erp/import-blocks", json!({"blocks": bad}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.starts_with("Block 2: template error"), "{msg}");
        expect_error(
            app.post(&admin, "/erp/import-blocks", json!({"blocks": "not json"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(block_count(&library(&app, &user).await), 0);

        let imported = json_ok(
            app.post(
                &admin,
                "/erp/import-categories",
                json!({"categories": categories.to_string()}),
            )
            .await,
        )
        .await;
        assert_eq!(imported["imported"], 1);
        let imported = json_ok(
            app.post(
                &admin,
                "/erp/import-blocks",
                json!({"blocks": blocks.to_string()}),
            )
            .await,
        )
        .await;
        assert_eq!(imported["imported"], 1);
        let lib = library(&app, &user).await;
        assert_eq!(lib["categories"][0]["name"], "Outros");
        assert_eq!(lib["categories"][0]["blocks"][0]["uid"], one["uid"]);
        // Importing again updates instead of duplicating.
        json_ok(
            app.post(&admin, "/erp/import-blocks", json!({"blocks": blocks}))
                .await,
        )
        .await;
        assert_eq!(block_count(&library(&app, &user).await), 1);
        let res = app
            .post(
                &admin,
                &format!(
                    "/erp/delete-block/{}",
                    lib["categories"][0]["blocks"][0]["id"]
                ),
                json!({}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        assert_eq!(block_count(&library(&app, &user).await), 0);
    }
);

/// A JSON API on loopback with 150 records.
async fn json_api() -> (String, tokio::task::JoinHandle<()>) {
    let records: Vec<Value> = (1..=150)
        .map(|i| json!({"id": i, "attributes": {"title": format!("Item {i}")}}))
        .collect();
    let router = Router::new()
        .route(
            "/list",
            get(move || {
                let records = records.clone();
                async move { axum::Json(json!({"data": records})) }
            }),
        )
        .route("/text", get(|| async { "not json" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        axum::serve(listener, router).await.unwrap();
    });
    (url, task)
}

async fn home_page(app: &TestApp, s: &Session, project: i64) -> i64 {
    let p = json_ok(app.get(s, &format!("/api/projects/{project}")).await).await;
    p["pages"][0]["id"].as_i64().unwrap()
}

dual_test!(
    async fn the_editor_renders_blocks_with_the_shared_renderer(app: TestApp) {
        let s = app.register("ed@example.com").await;
        let project = app.create_project(&s, "Loja").await["id"].as_i64().unwrap();
        let page = home_page(&app, &s, project).await;
        let blocks = json!([
            {"uid": "a", "template": "<h1>{{ title }}</h1><p>{{ site.name }}</p>",
             "vars": [{"name": "title", "type": "text", "value": "<Olá>"}], "effect": "zoom-in"},
            {"uid": "b", "template": "{% if %}"},
            {"uid": "c", "template": "{{ body }}", "vars": [{"name": "body", "type": "richtext", "value": "<p>ok<script>x()</script></p>"}]}
        ]);
        let out = json_ok(
            app.post(
                &s,
                &format!("/api/project/{project}/render"),
                json!({"page_id": page, "blocks": blocks}),
            )
            .await,
        )
        .await;
        assert!(
            out["head"]
                .as_str()
                .unwrap()
                .contains("IntersectionObserver")
        );
        // The canvas starts from the base stylesheet published pages carry.
        assert!(out["head"].as_str().unwrap().starts_with(&format!(
            "<style>{}</style>",
            vitrine_shared::render::BASE_CSS
        )));
        assert_eq!(
            out["blocks"][0]["html"],
            "<div class=\"vt-fx\" data-effect=\"zoom-in\"><h1>&lt;Olá&gt;</h1><p>Loja</p></div>"
        );
        assert_eq!(out["blocks"][1]["uid"], "b");
        assert!(
            out["blocks"][1]["error"]
                .as_str()
                .unwrap()
                .contains("block \"b\""),
            "{out}"
        );
        assert_eq!(out["blocks"][2]["html"], "<p>ok</p>");

        // Another user's project, a page of another project, and unreadable blocks.
        let eve = app.register("eve@example.com").await;
        expect_error(
            app.post(
                &eve,
                &format!("/api/project/{project}/render"),
                json!({"page_id": page, "blocks": []}),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let eves = app.create_project(&eve, "Outra").await["id"]
            .as_i64()
            .unwrap();
        expect_error(
            app.post(
                &eve,
                &format!("/api/project/{eves}/render"),
                json!({"page_id": page, "blocks": []}),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/project/{project}/render"),
                json!({"page_id": page, "blocks": [{"uid": 5}]}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.starts_with("Block 1 cannot be read"), "{msg}");
    }
);

dual_test!(
    async fn the_fetch_proxy_refuses_private_addresses(app: TestApp) {
        let s = app.register("fx@example.com").await;
        let (url, task) = json_api().await;
        let msg = expect_error(
            app.get(&s, &format!("/api/fetch?url={url}/list")).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.contains("private or local"), "{msg}");
        expect_error(
            app.get(&s, "/api/fetch?url=file:///etc/passwd").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        task.abort();
    }
);

/// A control plane allowed to fetch from loopback (the local stand-in API).
struct LocalFetchApp(TestApp);

impl LocalFetchApp {
    async fn new(backend: Backend) -> LocalFetchApp {
        LocalFetchApp(TestApp::with(backend, |s| s.fetch_allow_private = true).await)
    }
}

dual_test!(
    async fn api_fed_lists_keep_at_most_100_records(app: LocalFetchApp) {
        let app = app.0;
        let s = app.register("api@example.com").await;
        let (url, task) = json_api().await;
        let records = json_ok(app.get(&s, &format!("/api/fetch?url={url}/list")).await).await;
        assert_eq!(records.as_array().unwrap().len(), 100);
        assert_eq!(records[99]["id"], 100);
        let msg = expect_error(
            app.get(&s, &format!("/api/fetch?url={url}/text")).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert!(msg.contains("not JSON"), "{msg}");

        let project = app.create_project(&s, "Feed").await["id"].as_i64().unwrap();
        let page = home_page(&app, &s, project).await;
        let blocks = json!([{
            "uid": "feed",
            "template": "{{ items | length }}:{{ items[0].title }}",
            "vars": [{"name": "items", "type": "list", "source": format!("api:{url}/list"), "sourceMap": {"title": "attributes.title"}}]
        }]);
        let out = json_ok(
            app.post(
                &s,
                &format!("/api/project/{project}/render"),
                json!({"page_id": page, "blocks": blocks}),
            )
            .await,
        )
        .await;
        assert_eq!(out["blocks"][0]["html"], "100:Item 1");
        task.abort();
    }
);

/// Width and height from a PNG's header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let n = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (n(16), n(20))
}

dual_test!(
    async fn thumbnails_are_taken_by_headless_chromium(app: TestApp) {
        let user = app.register("thumb-user@example.com").await;
        let admin = app.register("thumb@example.com").await;
        app.make_admin(&admin).await;
        let template = r#"<div class="t" x-vars='[{"name":"label","value":"Olá"}]' style="height:140px;background:#1d4ed8;color:#fff">{{ label }}</div>"#;
        let block = json_ok(
            app.post(
                &admin,
                "/erp/block",
                json!({"name": "Faixa", "template": template}),
            )
            .await,
        )
        .await;
        let id = block["id"].as_i64().unwrap();
        expect_error(
            app.get(&user, &format!("/api/block-screenshot/{id}")).await,
            StatusCode::FORBIDDEN,
        )
        .await;
        expect_error(
            app.get(&admin, &format!("/api/block-screenshot/{id}?size=abc"))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;

        // Trimmed (the default for blocks): as wide as asked, only as tall as the content.
        let res = app
            .get(
                &admin,
                &format!("/api/block-screenshot/{id}?size=1280,600&trim=1"),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "image/png");
        let (w, h) = png_size(&res.bytes().await.unwrap());
        assert_eq!(w, 1280);
        assert!((140..600).contains(&h), "trimmed height {h}");
        // Untrimmed: exactly the size asked.
        let res = app
            .get(
                &admin,
                &format!("/api/block-screenshot/{id}?size=800,300&trim=0"),
            )
            .await;
        assert_eq!(png_size(&res.bytes().await.unwrap()), (800, 300));
        // The block's image is the stored thumbnail.
        let lib = json_ok(app.get(&admin, "/api/blocks").await).await;
        let image = lib["categories"][0]["blocks"][0]["image"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            image.starts_with(&format!("/files/uploads/thumbnails/block-{id}-")),
            "{image}"
        );
        let stored = app.get(&admin, &image).await;
        assert_eq!(stored.status(), StatusCode::OK);
        assert_eq!(png_size(&stored.bytes().await.unwrap()), (800, 300));

        // Templates: 1280×1280, untrimmed, by default.
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let templates = json_ok(app.get(&admin, "/api/templates").await).await;
        let tid = templates[0]["id"].as_i64().unwrap();
        let res = app
            .get(&admin, &format!("/api/template-screenshot/{tid}"))
            .await;
        assert_eq!(png_size(&res.bytes().await.unwrap()), (1280, 1280));
        let templates = json_ok(app.get(&admin, "/api/templates").await).await;
        assert!(
            templates[0]["thumbnail"]
                .as_str()
                .unwrap()
                .contains(&format!("template-{tid}-"))
        );
    }
);

/// A control plane whose Chromium is missing.
struct NoBrowserApp(TestApp);

impl NoBrowserApp {
    async fn new(backend: Backend) -> NoBrowserApp {
        NoBrowserApp(
            TestApp::with(backend, |s| {
                s.chromium_path = Some("/nonexistent/chromium".into())
            })
            .await,
        )
    }
}

dual_test!(
    async fn without_chromium_a_thumbnail_is_a_clear_error(app: NoBrowserApp) {
        let app = app.0;
        let admin = app.register("nb@example.com").await;
        app.make_admin(&admin).await;
        let block = json_ok(
            app.post(
                &admin,
                "/erp/block",
                json!({"name": "B", "template": "<p>b</p>"}),
            )
            .await,
        )
        .await;
        let msg = expect_error(
            app.get(&admin, &format!("/api/block-screenshot/{}", block["id"]))
                .await,
            StatusCode::SERVICE_UNAVAILABLE,
        )
        .await;
        assert!(msg.contains("Screenshots need Chromium"), "{msg}");
    }
);

/// Waits for the library's thumbnail pass to finish and answers its last progress. Each item
/// is a Chromium run of its own, confined to one core (`crate::confine`), up to 10 s each.
async fn thumbnail_pass(app: &TestApp, admin: &Session) -> Value {
    wait_until("the thumbnail pass", Duration::from_secs(30), async || {
        json_ok(app.get(admin, "/erp/thumbnails").await).await["running"] == false
    })
    .await;
    json_ok(app.get(admin, "/erp/thumbnails").await).await
}

/// The image of the library block `id`, as the library listing gives it.
async fn listed_image(app: &TestApp, s: &Session, id: i64) -> String {
    let lib = library(app, s).await;
    lib["categories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["blocks"].as_array().unwrap())
        .find(|b| b["id"] == id)
        .unwrap()["image"]
        .as_str()
        .unwrap()
        .to_string()
}

dual_test!(
    async fn the_library_is_pictured_in_the_background_and_cached_by_its_source(app: TestApp) {
        let user = app.register("lib-thumb-user@example.com").await;
        let admin = app.register("lib-thumb@example.com").await;
        app.make_admin(&admin).await;
        for res in [
            app.get(&user, "/erp/thumbnails").await,
            app.post(&user, "/erp/thumbnails", json!({})).await,
        ] {
            expect_error(res, StatusCode::FORBIDDEN).await;
        }
        let faixa = r#"<div style="height:140px;background:#1d4ed8;color:#fff">Faixa</div>"#;
        let new_block = |name: &str, template: &str, image: &str| json!({"name": name, "template": template, "image": image});
        let pictured = json_ok(
            app.post(&admin, "/erp/block", new_block("Faixa", faixa, ""))
                .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        let chosen = "https://cdn.example/escolhida.png";
        let by_hand = json_ok(
            app.post(
                &admin,
                "/erp/block",
                new_block("Manual", "<p>m</p>", chosen),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();

        let site = app.create_project(&admin, "Modelo").await;
        let theme = json!({"project_id": site["id"], "name": "Tema Azul"});
        json_ok(app.post(&admin, "/api/templates", theme).await).await;

        // "Regenerate all": answered at once, then the progress to the end.
        let res = app.post(&admin, "/erp/thumbnails", json!({})).await;
        assert_eq!(res.status(), StatusCode::ACCEPTED);
        assert_eq!(res.json::<Value>().await.unwrap()["running"], true);
        let progress = thumbnail_pass(&app, &admin).await;
        assert_eq!(progress["total"], 2, "{progress}");
        assert_eq!(progress["done"], 2, "{progress}");
        assert_eq!(progress["failed"], 0, "{progress}");

        // The listing names the picture (anyone signed in sees it); a hand-picked image stays.
        let image = listed_image(&app, &user, pictured).await;
        assert!(
            image.starts_with("/files/uploads/thumbnails/block-src-"),
            "{image}"
        );
        assert_eq!(listed_image(&app, &user, by_hand).await, chosen);
        let templates = json_ok(app.get(&user, "/api/templates").await).await;
        let thumb = templates[0]["thumbnail"].as_str().unwrap().to_string();
        assert!(
            thumb.starts_with("/files/uploads/thumbnails/template-src-"),
            "{thumb}"
        );
        let png = app.get(&user, &thumb).await.bytes().await.unwrap();
        assert_eq!(png_size(&png), (1280, 1280));
        let png = app.get(&user, &image).await.bytes().await.unwrap();
        let (w, h) = png_size(&png);
        assert_eq!(w, 1280);
        assert!((140..600).contains(&h), "trimmed to the block: {h}");

        // Cached by source: a pass for an unchanged block takes no new picture.
        let key = image.trim_start_matches("/files/");
        let blobs = &app.app.state().blobs;
        blobs
            .put(key, bytes::Bytes::from_static(b"cached"))
            .await
            .unwrap();
        vitrine_control::pictures::thumbnails::start(app.app.state(), false);
        thumbnail_pass(&app, &admin).await;
        assert_eq!(listed_image(&app, &user, pictured).await, image);
        assert_eq!(&blobs.get(key).await.unwrap()[..], b"cached");

        // A changed block gets a new picture under its new source's name.
        json_ok(
            app.post(
                &admin,
                &format!("/erp/block/{pictured}"),
                new_block("Faixa", &faixa.replace("Faixa", "Nova"), ""),
            )
            .await,
        )
        .await;
        vitrine_control::pictures::thumbnails::start(app.app.state(), false);
        thumbnail_pass(&app, &admin).await;
        let changed = listed_image(&app, &user, pictured).await;
        assert_ne!(changed, image);
        assert!(changed.starts_with("/files/uploads/thumbnails/block-src-"));
        let png = app.get(&user, &changed).await.bytes().await.unwrap();
        assert_eq!(png_size(&png).0, 1280);
    }
);
