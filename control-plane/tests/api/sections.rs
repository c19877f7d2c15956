//! Shared sections (issue 22, "The owner's journey"): a template's header and footer are the
//! project's global sections, edited once for every published page (static pages, pages the
//! edge renders and collection pages), with per-page opt-out; a menu built from the page list
//! shows a new page without an edit; and nobody reaches another account's sections.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::{dual_test, manifest::Manifest};

use crate::{
    helpers::{Session, TestApp, expect_error, json_ok},
    hostile::files::publish,
    publish::PublishApp,
};

/// What a published page shows: a static page's HTML, or the blocks (as JSON) of a page the
/// edge renders, which carry the sections the same way.
async fn published(app: &TestApp, m: &Manifest, slug: &str) -> String {
    let path = if slug == "/" {
        "/".to_string()
    } else {
        format!("/{slug}")
    };
    if let Some(file) = m.routes.get(&path) {
        let raw = app.app.state().blobs.get(&file.key).await.unwrap();
        return String::from_utf8(raw.to_vec()).unwrap();
    }
    let page = m
        .dynamic_pages
        .get(slug)
        .or_else(|| m.collection_pages.get(slug))
        .unwrap_or_else(|| panic!("no page {slug} in the deploy"));
    serde_json::to_string(&page.blocks).unwrap()
}

async fn sections(app: &TestApp, s: &Session, pid: i64) -> Value {
    json_ok(app.get(s, &format!("/api/project/{pid}/sections")).await).await
}

async fn put_section(
    app: &TestApp,
    s: &Session,
    pid: i64,
    kind: &str,
    block: Value,
) -> reqwest::Response {
    app.post(
        s,
        &format!("/api/project/{pid}/sections/{kind}"),
        json!({ "block": block }),
    )
    .await
}

fn set_var(block: &mut Value, name: &str, value: Value) {
    let def = block["vars"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("no variable {name}"));
    def["value"] = value;
}

fn page_id(project: &Value, slug: &str) -> i64 {
    project["pages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["slug"] == slug)
        .unwrap_or_else(|| panic!("no page {slug}"))["id"]
        .as_i64()
        .unwrap()
}

dual_test!(
    async fn a_template_header_is_edited_once_for_every_published_page(app: PublishApp) {
        let app: &TestApp = &app;
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("padaria@example.com").await;
        let templates = json_ok(app.get(&s, "/api/templates").await).await;
        let bakery = templates
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "Padaria Grão Dourado")
            .unwrap()["id"]
            .clone();
        let project = json_ok(
            app.post(
                &s,
                &format!("/api/templates/use/{bakery}"),
                json!({"name": "Padaria da Ana"}),
            )
            .await,
        )
        .await;
        let pid = project["id"].as_i64().unwrap();

        // The template's header and footer became the project's shared sections; the pages
        // no longer carry their own copies.
        let shared = sections(app, &s, pid).await;
        let mut header = shared["header"].clone();
        assert_eq!(header["uid"], "global-header");
        assert_eq!(shared["footer"]["uid"], "global-footer");
        let home = page_id(&project, "/");
        let page = json_ok(
            app.get(&s, &format!("/api/project/{pid}/page/{home}"))
                .await,
        )
        .await;
        assert!(
            page["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .all(|b| b["template"] != header["template"]),
            "the home page has no header of its own"
        );

        // Rename the business once, in the shared header.
        set_var(&mut header, "brand", json!("Forno da Ana"));
        let saved = json_ok(put_section(app, &s, pid, "header", header).await).await;
        assert_eq!(saved["header"]["uid"], "global-header");
        // The contact page opts out of the header; a new page is added, with no edit to the
        // header's menu.
        let contato = page_id(&project, "contato");
        json_ok(
            app.post(
                &s,
                &format!("/api/page/{contato}"),
                json!({"meta": {"hideHeader": true}}),
            )
            .await,
        )
        .await;
        json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"project_id": pid, "name": "Encomendas"}),
            )
            .await,
        )
        .await;

        let m = publish(app, &s, pid).await;
        for slug in ["/", "produtos", "sobre", "encomendas", "produto"] {
            let shown = published(app, &m, slug).await;
            assert!(shown.contains("Forno da Ana"), "{slug} shows the new name");
        }
        let contact = published(app, &m, "contato").await;
        assert!(
            !contact.contains("Forno da Ana"),
            "the opted-out page has no header"
        );
        assert!(
            contact.contains("vt-ft") || contact.contains("<footer"),
            "it keeps the footer"
        );
        // The menu is the page list: the new page is in it on a static page's header, and in
        // the menu the edge gives the pages it renders.
        let about = published(app, &m, "sobre").await;
        assert!(
            about.contains("href=\"&#x2f;encomendas\">Encomendas</a>"),
            "{about}"
        );
        assert!(about.contains("href=\"&#x2f;sobre\" aria-current=\"page\">Sobre</a>"));
        let menu: Vec<&str> = m.menu.iter().map(|i| i.url.as_str()).collect();
        assert_eq!(
            menu,
            ["/", "/produtos", "/sobre", "/contato", "/encomendas"]
        );
        // A collection page the edge renders carries the shared header first.
        let product = &m.collection_pages["produto"];
        assert_eq!(product.blocks[0].uid, "global-header");
        assert_eq!(product.blocks.last().unwrap().uid, "global-footer");

        // The owner's preview shows the sections too, and the opted-out page does not.
        let preview = |page: i64| {
            let s = &s;
            async move {
                app.get(s, &format!("/api/project/{pid}/page/{page}/preview"))
                    .await
                    .text()
                    .await
                    .unwrap()
            }
        };
        assert!(
            preview(page_id(&project, "sobre"))
                .await
                .contains("Forno da Ana")
        );
        assert!(!preview(contato).await.contains("Forno da Ana"));

        // Duplicating the project, and saving it as a template, keep the sections.
        let copy = json_ok(
            app.post(&s, &format!("/api/projects/{pid}/duplicate"), json!({}))
                .await,
        )
        .await;
        let copied = sections(app, &s, copy["id"].as_i64().unwrap()).await;
        assert_eq!(copied["header"], saved["header"]);
        assert!(copied["footer"].is_object());
    }
);

/// A page with a header block copy and a content block.
async fn page_with(app: &TestApp, s: &Session, pid: i64, name: &str, blocks: Value) -> i64 {
    let page = json_ok(
        app.post(s, "/api/pages", json!({"project_id": pid, "name": name}))
            .await,
    )
    .await;
    let id = page["id"].as_i64().unwrap();
    json_ok(
        app.post(s, &format!("/api/page/{id}"), json!({"blocks": blocks}))
            .await,
    )
    .await;
    id
}

fn header_block(uid: &str) -> Value {
    json!({"uid": uid, "name": "Topo", "template": "<header class=\"topo\">{{ brand }}</header>",
        "vars": [{"name": "brand", "type": "text", "value": "Loja da Bia"}]})
}

dual_test!(
    async fn a_page_block_made_global_and_nobody_else_reaches_it(app: TestApp) {
        let app = &app;
        let owner = app.register("bia@example.com").await;
        let pid = app.create_project(&owner, "Loja da Bia").await["id"]
            .as_i64()
            .unwrap();
        let content = json!({"uid": "c1", "template": "<p>Conteúdo</p>"});
        let first = page_with(
            app,
            &owner,
            pid,
            "Ofertas",
            json!([header_block("h1"), content]),
        )
        .await;
        let second = page_with(
            app,
            &owner,
            pid,
            "Sobre",
            json!([header_block("h9"), content]),
        )
        .await;

        // Bad input: a block the page does not have, a kind that does not exist.
        let path = format!("/api/project/{pid}/page/{first}/sections/header");
        let res = app.post(&owner, &path, json!({"uid": "nope"})).await;
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "block_not_on_page");
        expect_error(
            app.post(
                &owner,
                &format!("/api/project/{pid}/page/{first}/sections/sidebar"),
                json!({"uid": "h1"}),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(sections(app, &owner, pid).await, json!({}));

        // The owner marks the block as the site's header: it leaves both pages.
        let made = json_ok(app.post(&owner, &path, json!({"uid": "h1"})).await).await;
        assert_eq!(made["page"]["blocks"], json!([content]));
        assert_eq!(made["sections"]["header"]["uid"], "global-header");
        let other = json_ok(
            app.get(&owner, &format!("/api/project/{pid}/page/{second}"))
                .await,
        )
        .await;
        assert_eq!(
            other["blocks"],
            json!([content]),
            "the copy on another page goes too"
        );
        let preview = app
            .get(&owner, &format!("/api/project/{pid}/page/{second}/preview"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            preview.contains("<header class=\"topo\">Loja da Bia</header>"),
            "{preview}"
        );

        // Saving a block that is not one, or whose template does not parse, is refused.
        for (block, code) in [
            (json!("texto"), "block_unreadable"),
            (json!({"template": "{% if %}"}), "template_error"),
            (
                json!({"template": "<p></p>", "vars": [{"name": "1x"}]}),
                "x_vars_invalid",
            ),
        ] {
            let res = put_section(app, &owner, pid, "footer", block).await;
            assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
            let body: Value = res.json().await.unwrap();
            assert_eq!(body["error"], code);
        }
        let big = json!({"template": "x".repeat(600 * 1024)});
        let res = put_section(app, &owner, pid, "footer", big).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);

        // Another account: every call on the owner's sections is a 404, and a page of the
        // owner's cannot be made a section of the attacker's own project.
        let attacker = app.register("mal@example.com").await;
        let theirs = app.create_project(&attacker, "Golpe").await["id"]
            .as_i64()
            .unwrap();
        let evil = json!({"template": "<header>roubado</header>"});
        for res in [
            app.get(&attacker, &format!("/api/project/{pid}/sections"))
                .await,
            put_section(app, &attacker, pid, "header", evil.clone()).await,
            app.delete(&attacker, &format!("/api/project/{pid}/sections/header"))
                .await,
            app.post(&attacker, &path, json!({"uid": "c1"})).await,
            app.post(
                &attacker,
                &format!("/api/project/{theirs}/page/{first}/sections/footer"),
                json!({"uid": "c1"}),
            )
            .await,
        ] {
            expect_error(res, StatusCode::NOT_FOUND).await;
        }
        let after = json_ok(
            app.get(&owner, &format!("/api/project/{pid}/page/{first}"))
                .await,
        )
        .await;
        assert_eq!(
            after["blocks"],
            json!([content]),
            "the owner's page is untouched"
        );
        assert_eq!(sections(app, &owner, pid).await, made["sections"]);
        assert_eq!(sections(app, &attacker, theirs).await, json!({}));

        // Removing the site's header for good (again: nothing left to remove, still done).
        for _ in 0..2 {
            let res = app
                .delete(&owner, &format!("/api/project/{pid}/sections/header"))
                .await;
            assert_eq!(res.status(), StatusCode::NO_CONTENT);
            assert_eq!(sections(app, &owner, pid).await, json!({}));
        }
    }
);
