//! The site's identity and theme (issue 41): the calls and their checks, a template used under
//! a name, copies, and what every document shows: published pages, the pages the edge renders
//! (their manifest), the editor's canvas and the owner's preview, the form mail subject.

use chrono::Datelike;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::{dual_test, ids::TemplateId};

use crate::helpers::{Session, TestApp, json_ok};
use crate::publish::{PublishApp, home_page_id, manifest, new_page, page_html, publish};

async fn put(app: &TestApp, s: &Session, path: &str, body: Value) -> reqwest::Response {
    app.call(s, Method::PUT, path, Some(body)).await
}

/// The error code of a refusal with `status`.
async fn refused(res: reqwest::Response, status: StatusCode) -> (String, String) {
    assert_eq!(res.status(), status);
    let body: Value = res.json().await.unwrap();
    (
        body["error"].as_str().unwrap_or_default().to_string(),
        body["field"].as_str().unwrap_or_default().to_string(),
    )
}

const BRUNA: &str = "Doces da Bruna";

fn bruna() -> Value {
    json!({
        "name": BRUNA,
        "description": "Bolos e doces por encomenda",
        "whatsapp": "(11) 98765-4321",
        "phone": "+55 11 3333-4444",
        "email": "Contato@DocesDaBruna.com.br",
        "address": "Rua das Flores, 120 – São Paulo, SP",
        "hours": "Seg a sex, 8h–18h\nSáb, 8h–12h",
        "social": {"instagram": "https://instagram.com/docesdabruna"}
    })
}

dual_test!(
    async fn identity_and_theme_answer_defaults_and_save_checked_values(app: TestApp) {
        let s = app.register("ana@example.com").await;
        let pid = app.create_project(&s, "Loja da Ana").await["id"]
            .as_i64()
            .unwrap();
        let identity = format!("/api/projects/{pid}/identity");
        let theme = format!("/api/projects/{pid}/theme");

        // Nothing stored: the project's name, every other key empty; the platform's theme.
        let got = json_ok(app.get(&s, &identity).await).await;
        assert_eq!(got["name"], "Loja da Ana");
        assert_eq!(got["whatsapp"], "");
        assert_eq!(got["social"]["x"], "");
        let got = json_ok(app.get(&s, &theme).await).await;
        assert_eq!(got["default"], true);
        assert_eq!(got["theme"]["background"], "#ffffff");
        assert_eq!(got["warnings"], json!([]));
        assert!(got["contrast"]["text"].as_f64().unwrap() >= 4.5);

        let saved = json_ok(put(&app, &s, &identity, bruna()).await).await;
        assert_eq!(saved["whatsapp"], "5511987654321");
        assert_eq!(saved["email"], "contato@docesdabruna.com.br");
        let got = json_ok(app.get(&s, &identity).await).await;
        assert_eq!(got, saved);
        // An absent key keeps its value; "" clears it.
        let got =
            json_ok(put(&app, &s, &identity, json!({"name": BRUNA, "phone": ""})).await).await;
        assert_eq!(
            (got["phone"].as_str(), got["whatsapp"].as_str()),
            (Some(""), Some("5511987654321"))
        );

        for (body, code, field) in [
            (
                json!({"description": "sem nome"}),
                "identity_name_required",
                "name",
            ),
            (json!({"name": "  "}), "identity_name_required", "name"),
            (json!({"name": "x".repeat(101)}), "too_long", "name"),
            (
                json!({"name": "a", "whatsapp": "zap"}),
                "identity_whatsapp_invalid",
                "whatsapp",
            ),
            (
                json!({"name": "a", "email": "nada"}),
                "email_invalid",
                "email",
            ),
            (
                json!({"name": "a", "phone": "ligue"}),
                "identity_phone_invalid",
                "phone",
            ),
            (
                json!({"name": "a", "social": {"instagram": "javascript:alert(1)"}}),
                "identity_link_invalid",
                "instagram",
            ),
            (
                json!({"name": "a", "logo": "https://evil.example/logo.png"}),
                "not_an_upload",
                "logo",
            ),
            // Another project's upload is not this site's logo.
            (
                json!({"name": "a", "logo": "/files/uploads/1/999999/0123456789abcdef0123/x.png"}),
                "not_an_upload",
                "logo",
            ),
        ] {
            let got = refused(
                put(&app, &s, &identity, body.clone()).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert_eq!(got, (code.to_string(), field.to_string()), "{body}");
        }
        let res = put(&app, &s, &identity, json!({"name": "a", "dono": "x"})).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        // An upload of this project is a logo.
        let logo = format!(
            "/files/uploads/{}/{pid}/0123456789abcdef0123/logo.png",
            s.id()
        );
        let got =
            json_ok(put(&app, &s, &identity, json!({"name": BRUNA, "logo": logo})).await).await;
        assert_eq!(got["logo"], logo.as_str());

        let got = json_ok(put(&app, &s, &theme, json!({"primary": "#B45309", "accent": "#f59e0b",
            "background": "#FFFBEB", "text": "#1f2937", "headingFont": "playfair display", "bodyFont": "Inter"})).await).await;
        assert_eq!(got["theme"]["primary"], "#b45309");
        assert_eq!(got["theme"]["background"], "#fffbeb");
        assert_eq!(got["theme"]["headingFont"], "Playfair Display");
        assert!(got.get("default").is_none());
        assert_eq!(got["warnings"], json!([]));
        // Low contrast is warned of, and saved all the same.
        let got =
            json_ok(put(&app, &s, &theme, json!({"text": "#eee", "primary": "#777"})).await).await;
        assert_eq!(got["theme"]["text"], "#eeeeee");
        assert_eq!(
            got["warnings"],
            json!(["low_contrast_text", "low_contrast_primary"])
        );
        assert!(got["contrast"]["text"].as_f64().unwrap() < 1.5);
        assert_eq!(
            json_ok(app.get(&s, &theme).await).await["theme"]["text"],
            "#eeeeee"
        );
        for (body, code, field) in [
            (
                json!({"primary": "vermelho"}),
                "theme_colour_invalid",
                "primary",
            ),
            (
                json!({"background": "#12345"}),
                "theme_colour_invalid",
                "background",
            ),
            (
                json!({"bodyFont": "Fonte Inventada"}),
                "theme_font_unknown",
                "bodyFont",
            ),
        ] {
            let got = refused(
                put(&app, &s, &theme, body.clone()).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert_eq!(got, (code.to_string(), field.to_string()), "{body}");
        }

        // The project's update call writes neither.
        json_ok(
            app.post(
                &s,
                &format!("/api/projects/{pid}"),
                json!({"name": "Outro nome",
            "meta": {"identity": {"name": "Invasor"}, "theme": {"primary": "#000000"}}}),
            )
            .await,
        )
        .await;
        assert_eq!(json_ok(app.get(&s, &identity).await).await["name"], BRUNA);
        assert_eq!(
            json_ok(app.get(&s, &theme).await).await["theme"]["primary"],
            "#777777"
        );

        // Another owner's project is not found, read or written.
        let other = app.register("outro@example.com").await;
        for (path, body) in [
            (&identity, json!({"name": "x"})),
            (&theme, json!({"primary": "#000000"})),
        ] {
            assert_eq!(app.get(&other, path).await.status(), StatusCode::NOT_FOUND);
            assert_eq!(
                put(&app, &other, path, body).await.status(),
                StatusCode::NOT_FOUND
            );
        }
        assert_eq!(json_ok(app.get(&s, &identity).await).await["name"], BRUNA);
    }
);

dual_test!(
    async fn a_template_used_under_a_name_is_that_site_and_copies_keep_identity_and_theme(
        app: TestApp,
    ) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("bruna@example.com").await;
        let list = json_ok(app.get(&s, "/api/templates").await).await;
        let business = list
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "Padaria Grão Dourado" || t["category"] == "business")
            .unwrap_or(&list[0])
            .clone();
        let p = json_ok(
            app.post(
                &s,
                &format!("/api/templates/use/{}", business["id"]),
                json!({"name": BRUNA}),
            )
            .await,
        )
        .await;
        let pid = p["id"].as_i64().unwrap();
        let identity = json_ok(app.get(&s, &format!("/api/projects/{pid}/identity")).await).await;
        assert_eq!(identity["name"], BRUNA);

        // A blank project is called by its name.
        let blank = app.create_project(&s, "Em branco").await["id"]
            .as_i64()
            .unwrap();
        assert_eq!(
            json_ok(
                app.get(&s, &format!("/api/projects/{blank}/identity"))
                    .await
            )
            .await["name"],
            "Em branco"
        );

        // A copy is the same site: the same identity and theme, though the project is "(cópia)".
        json_ok(put(&app, &s, &format!("/api/projects/{pid}/identity"), bruna()).await).await;
        json_ok(
            put(
                &app,
                &s,
                &format!("/api/projects/{pid}/theme"),
                json!({"primary": "#b45309"}),
            )
            .await,
        )
        .await;
        let copy = json_ok(
            app.post(&s, &format!("/api/projects/{pid}/duplicate"), json!({}))
                .await,
        )
        .await;
        let cid = copy["id"].as_i64().unwrap();
        assert!(copy["name"].as_str().unwrap().contains("cópia"));
        let got = json_ok(app.get(&s, &format!("/api/projects/{cid}/identity")).await).await;
        assert_eq!(got["name"], BRUNA);
        assert_eq!(got["whatsapp"], "5511987654321");
        assert_eq!(
            json_ok(app.get(&s, &format!("/api/projects/{cid}/theme")).await).await["theme"]["primary"],
            "#b45309"
        );

        // Saved as a template, the snapshot carries both; used under another name, only the
        // name changes.
        app.make_admin(&s).await;
        let t = json_ok(
            app.post(
                &s,
                "/api/templates",
                json!({"project_id": pid, "name": "Confeitaria"}),
            )
            .await,
        )
        .await;
        let snapshot = app
            .app
            .state()
            .store
            .template_snapshot(TemplateId(t["id"].as_i64().unwrap()))
            .await
            .unwrap();
        assert_eq!(snapshot.project_meta["identity"]["name"], BRUNA);
        assert_eq!(snapshot.project_meta["theme"]["primary"], "#b45309");
        let p = json_ok(
            app.post(
                &s,
                &format!("/api/templates/use/{}", t["id"]),
                json!({"name": "Bolos do Rui"}),
            )
            .await,
        )
        .await;
        let got = json_ok(
            app.get(&s, &format!("/api/projects/{}/identity", p["id"]))
                .await,
        )
        .await;
        assert_eq!(got["name"], "Bolos do Rui");
        assert_eq!(got["address"], "Rua das Flores, 120 – São Paulo, SP");
    }
);

/// A block that prints what the identity and theme give templates.
fn site_block() -> Value {
    json!({"uid": "site", "template": "<footer>[{{ site.name }}|{{ site.identity.description }}|{{ site.identity.whatsapp_url }}|{{ site.theme.primary }}|© {{ site.year }}|{{ zap.href }}|{{ zap.label }}]</footer>",
        "vars": [{"name": "zap", "type": "link", "identity": "whatsapp_url", "value": {"href": "", "label": "Fale conosco", "target": "_blank"}}]})
}

/// A products collection with a WhatsApp field, one product, and its collection page whose
/// button is bound to the field. Returns the collection page's id.
async fn products(app: &TestApp, s: &Session, pid: i64) -> i64 {
    let table = json_ok(
        app.post(
            s,
            "/api/tables",
            json!({"project_id": pid, "name": "Produtos", "slug": "produtos",
        "meta": {"plural": "Produtos", "singular": "Produto"}}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let zap = json_ok(
        app.post(
            s,
            "/api/fields",
            json!({"table_id": table, "name": "WhatsApp", "slug": "zap", "type": "whatsapp_link"}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    json_ok(
        app.post(
            s,
            "/api/posts",
            json!({"table_id": table, "name": "Bolo de cenoura", "slug": "bolo",
        "fields": [{"field_id": zap, "value": "31 99999-8888"}]}),
        )
        .await,
    )
    .await;
    new_page(app, s, pid, "Produto", json!({"slug": "produto", "table_id": table, "blocks": [{"uid": "btn",
        "template": "{% if cta.href is working_link %}<a class=\"btn\" href=\"{{ cta.href }}\" target=\"{{ cta.target }}\">{{ cta.label }}</a>{% endif %}",
        "vars": [{"name": "cta", "type": "link", "postfield": "zap", "value": {"href": "#", "label": "Pedir pelo WhatsApp", "target": "_blank"}}]}]})).await
}

dual_test!(
    async fn every_document_names_the_site_by_its_identity_and_carries_its_theme(app: PublishApp) {
        let s = app.register("loja@example.com").await;
        let pid = app.create_project(&s, "Loja 1").await["id"]
            .as_i64()
            .unwrap();
        json_ok(put(&app, &s, &format!("/api/projects/{pid}/identity"), bruna()).await).await;
        json_ok(
            put(
                &app,
                &s,
                &format!("/api/projects/{pid}/theme"),
                json!({"primary": "#b45309", "headingFont": "Lora"}),
            )
            .await,
        )
        .await;
        let home = home_page_id(&app, &s, pid).await;
        json_ok(
            app.post(
                &s,
                &format!("/api/page/{home}"),
                json!({"blocks": [site_block()]}),
            )
            .await,
        )
        .await;
        new_page(
            &app,
            &s,
            pid,
            "Sobre",
            json!({"blocks": [{"uid": "p", "template": "<p>sobre</p>"}]}),
        )
        .await;
        let product_page = products(&app, &s, pid).await;

        let deploy = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let m = manifest(&app, pid, deploy).await;
        let year = chrono::Utc::now().year();
        let html = page_html(&app, &m, "/").await;
        assert!(html.contains("<title>Doces da Bruna</title>"), "{html}");
        assert!(html.contains("<meta property=\"og:title\" content=\"Doces da Bruna\">"));
        assert!(html.contains("<meta property=\"og:site_name\" content=\"Doces da Bruna\">"));
        assert!(
            html.contains("<meta name=\"description\" content=\"Bolos e doces por encomenda\">"),
            "{html}"
        );
        assert!(html.contains(
            "<meta property=\"og:description\" content=\"Bolos e doces por encomenda\">"
        ));
        assert!(
            html.contains(":root{--vt-primary:#b45309;--vt-on-primary:#ffffff;"),
            "{html}"
        );
        assert!(html.contains("--vt-font-heading:\"Lora\",serif;"), "{html}");
        assert!(html.contains(&format!(
            "[Doces da Bruna|Bolos e doces por encomenda|https:&#x2f;&#x2f;wa.me&#x2f;5511987654321|#b45309|© {year}|https:&#x2f;&#x2f;wa.me&#x2f;5511987654321|Fale conosco]"
        )), "{html}");
        let about = page_html(&app, &m, "/sobre").await;
        assert!(
            about.contains("<title>Sobre | Doces da Bruna</title>"),
            "{about}"
        );
        assert!(
            !html.contains("Loja 1") && !about.contains("Loja 1"),
            "the project's name is not the site's"
        );

        // What the edge renders from: the site's identity and theme, each page's document.
        assert_eq!(m.site_name, BRUNA);
        assert_eq!(m.identity.as_ref().unwrap().whatsapp, "5511987654321");
        assert_eq!(m.theme.as_ref().unwrap().primary, "#b45309");
        let page = &m.collection_pages["produto"];
        assert_eq!(page.title_suffix, " | Doces da Bruna");
        assert_eq!(page.document.site_name, BRUNA);
        assert_eq!(page.document.theme.primary, "#b45309");
        assert!(m.forms.subject.contains(BRUNA), "{}", m.forms.subject);

        // The canvas shows the button bound to the product's WhatsApp, and the theme.
        let canvas = json_ok(app.post(&s, &format!("/api/project/{pid}/render"), json!({"page_id": product_page, "post": "bolo",
            "blocks": [{"uid": "btn", "template": "{% if cta.href is working_link %}<a href=\"{{ cta.href }}\">{{ cta.label }}</a>{% endif %}",
                "vars": [{"name": "cta", "type": "link", "postfield": "zap", "value": {"href": "", "label": "Pedir", "target": "_self"}}]}]})).await).await;
        assert_eq!(
            canvas["blocks"][0]["html"],
            "<a href=\"https:&#x2f;&#x2f;wa.me&#x2f;5531999998888\">Pedir</a>"
        );
        assert!(
            canvas["head"]
                .as_str()
                .unwrap()
                .contains("--vt-primary:#b45309;")
        );

        // An identity change shows in the next canvas render and on every page at the next
        // publish.
        json_ok(
            put(
                &app,
                &s,
                &format!("/api/projects/{pid}/identity"),
                json!({"name": "Bruna Doces Finos", "whatsapp": ""}),
            )
            .await,
        )
        .await;
        json_ok(
            put(
                &app,
                &s,
                &format!("/api/projects/{pid}/theme"),
                json!({"primary": "#1d4ed8"}),
            )
            .await,
        )
        .await;
        let canvas = json_ok(
            app.post(
                &s,
                &format!("/api/project/{pid}/render"),
                json!({"page_id": home, "blocks": [site_block()]}),
            )
            .await,
        )
        .await;
        let block = canvas["blocks"][0]["html"].as_str().unwrap();
        assert!(
            block.starts_with("<footer>[Bruna Doces Finos|Bolos e doces por encomenda||#1d4ed8|"),
            "{block}"
        );
        assert!(
            block.ends_with("||Fale conosco]</footer>"),
            "no WhatsApp, no link: {block}"
        );
        assert!(
            canvas["head"]
                .as_str()
                .unwrap()
                .contains("--vt-primary:#1d4ed8;")
        );
        let preview = app
            .get(&s, &format!("/api/project/{pid}/page/{home}/preview"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            preview.contains("<title>Bruna Doces Finos</title>")
                && preview.contains("--vt-primary:#1d4ed8;"),
            "{preview}"
        );
        let deploy = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let m = manifest(&app, pid, deploy).await;
        for path in ["/", "/sobre"] {
            let html = page_html(&app, &m, path).await;
            assert!(
                html.contains("Bruna Doces Finos</title>") && !html.contains(BRUNA),
                "{path}: {html}"
            );
            assert!(html.contains("--vt-primary:#1d4ed8;"), "{path}");
        }
        assert_eq!(
            m.collection_pages["produto"].title_suffix,
            " | Bruna Doces Finos"
        );
    }
);
