//! Pages.

use reqwest::StatusCode;
use serde_json::json;
use vitrine_shared::dual_test;

use crate::helpers::{TestApp, expect_error, json_ok};

dual_test!(
    async fn pages_are_created_with_normalised_unique_slugs(app: TestApp) {
        let s = app.register("pages@example.com").await;
        let pid = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        let res = app
            .post(
                &s,
                "/api/pages",
                json!({"name": "Serviços & Preços", "project_id": pid}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let page = res.json::<serde_json::Value>().await.unwrap();
        assert_eq!(page["slug"], "servicos-precos");
        assert_eq!(page["is_home"], false);
        let again = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"name": "Serviços & Preços", "project_id": pid}),
            )
            .await,
        )
        .await;
        assert_eq!(again["slug"], "servicos-precos-2");
        let msg = expect_error(
            app.post(&s, "/api/pages", json!({"name": " ", "project_id": pid}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Page name is required");
        let project = json_ok(app.get(&s, &format!("/api/projects/{pid}")).await).await;
        assert_eq!(project["pages"].as_array().unwrap().len(), 3);
    }
);

dual_test!(
    async fn pages_are_read_and_saved(app: TestApp) {
        let s = app.register("edit@example.com").await;
        let pid = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        let page = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"name": "Sobre", "project_id": pid}),
            )
            .await,
        )
        .await;
        let id = page["id"].as_i64().unwrap();
        let saved = json_ok(app.post(&s, &format!("/api/page/{id}"), json!({
            "name": "Quem somos", "slug": "/Quem Somos/", "description": "SEO", "output": "<section>Oi</section>",
            "blocks": [{"uid": "a", "template": "<section>Oi</section>"}], "meta": {"header": "<meta name=x>"}
        })).await).await;
        assert_eq!(saved["slug"], "quem-somos");
        assert_eq!(saved["output"], "<section>Oi</section>");
        let got = json_ok(app.get(&s, &format!("/api/project/{pid}/page/{id}")).await).await;
        assert_eq!(got["name"], "Quem somos");
        assert_eq!(got["meta"]["header"], "<meta name=x>");
        // A slug another page has is a conflict.
        let other = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"name": "Contato", "project_id": pid}),
            )
            .await,
        )
        .await;
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/page/{}", other["id"]),
                json!({"slug": "quem-somos"}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(msg, "A page with this slug already exists");
        // The page must belong to the project in the URL.
        let pid2 = app.create_project(&s, "Outro").await["id"]
            .as_i64()
            .unwrap();
        expect_error(
            app.get(&s, &format!("/api/project/{pid2}/page/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn the_home_page_cannot_be_deleted_or_moved(app: TestApp) {
        let s = app.register("home@example.com").await;
        let p = app.create_project(&s, "Site").await;
        let home = p["pages"][0]["id"].as_i64().unwrap();
        let msg = expect_error(
            app.delete(&s, &format!("/api/page/{home}")).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "The home page cannot be deleted");
        let msg = expect_error(
            app.post(&s, &format!("/api/page/{home}"), json!({"slug": "inicio"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "The home page's slug cannot be changed");
        let other = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"name": "Sobre", "project_id": p["id"]}),
            )
            .await,
        )
        .await;
        assert_eq!(
            app.delete(&s, &format!("/api/page/{}", other["id"]))
                .await
                .status(),
            StatusCode::NO_CONTENT
        );
        expect_error(
            app.get(
                &s,
                &format!("/api/project/{}/page/{}", p["id"], other["id"]),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn another_users_pages_answer_not_found(app: TestApp) {
        let a = app.register("pa@example.com").await;
        let b = app.register("pb@example.com").await;
        let p = app.create_project(&a, "A").await;
        let home = p["pages"][0]["id"].as_i64().unwrap();
        let pid = p["id"].as_i64().unwrap();
        expect_error(
            app.get(&b, &format!("/api/project/{pid}/page/{home}"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.post(&b, &format!("/api/page/{home}"), json!({"name": "x"}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.post(&b, "/api/pages", json!({"name": "x", "project_id": pid}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let extra = json_ok(
            app.post(
                &a,
                "/api/pages",
                json!({"name": "Extra", "project_id": pid}),
            )
            .await,
        )
        .await;
        expect_error(
            app.delete(&b, &format!("/api/page/{}", extra["id"])).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(
            json_ok(
                app.get(&a, &format!("/api/project/{pid}/page/{home}"))
                    .await
            )
            .await["name"],
            "Início"
        );
    }
);

dual_test!(
    async fn the_owners_preview_renders_live_records_and_shows_template_errors(app: TestApp) {
        let s = app.register("preview@example.com").await;
        let other = app.register("preview-other@example.com").await;
        let project = app.create_project(&s, "Receitas").await;
        let pid = project["id"].as_i64().unwrap();
        let home = project["pages"][0]["id"].as_i64().unwrap();
        let table = json_ok(app.post(&s, "/api/tables", json!({"project_id": pid, "name": "Pratos", "slug": "pratos", "meta": {"plural": "Pratos", "singular": "Prato"}})).await).await["id"].as_i64().unwrap();
        for name in ["Broa", "Cuscuz"] {
            json_ok(
                app.post(
                    &s,
                    "/api/posts",
                    json!({"table_id": table, "name": name, "fields": []}),
                )
                .await,
            )
            .await;
        }
        let list_block = json!([{"uid": "lista", "name": "Lista",
            "template": "<ul>{% for p in pratos %}<li>{{ p.name }}</li>{% endfor %}</ul><p>{{ site.name }}</p>{% for p in pratos %}<a href=\"{{ p.permalink }}\"></a>{% endfor %}",
            "css": "ul{color:red}", "js": "",
            "vars": [{"name": "pratos", "source": "db:pratos", "dborderfield": "name", "dborderdir": "asc"}]}]);
        json_ok(
            app.post(
                &s,
                &format!("/api/page/{home}"),
                json!({"blocks": list_block}),
            )
            .await,
        )
        .await;
        let preview = format!("/api/project/{pid}/page/{home}/preview");
        let res = app.get(&s, &preview).await;
        assert_eq!(res.status(), StatusCode::OK);
        let csp = res.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            csp.contains("sandbox allow-scripts") && !csp.contains("allow-same-origin"),
            "{csp}"
        );
        let html = res.text().await.unwrap();
        assert!(
            html.contains("<ul><li>Broa</li><li>Cuscuz</li></ul><p>Receitas</p>"),
            "{html}"
        );
        assert!(html.contains("ul{color:red}"), "{html}");

        // A collection page previews the post asked for, or the collection's first.
        let page = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"project_id": pid, "name": "Prato"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        json_ok(app.post(&s, &format!("/api/page/{page}"), json!({"table_id": table, "blocks": [{"uid": "p", "name": "Prato", "template": "<h1>{{ post.name }}</h1>", "css": "", "js": ""}]})).await).await;
        // Now that the collection has a page, list items link to their post there, as on the
        // published site (`/prato/broa`, its slashes escaped by the template).
        let html = app.get(&s, &preview).await.text().await.unwrap();
        assert!(
            html.contains(
                r#"<a href="&#x2f;prato&#x2f;broa"></a><a href="&#x2f;prato&#x2f;cuscuz"></a>"#
            ),
            "{html}"
        );
        let html = app
            .get(
                &s,
                &format!("/api/project/{pid}/page/{page}/preview?post=cuscuz"),
            )
            .await
            .text()
            .await
            .unwrap();
        assert!(html.contains("<h1>Cuscuz</h1>"), "{html}");

        // A template error is shown to the owner, naming the block.
        json_ok(app.post(&s, &format!("/api/page/{home}"), json!({"blocks": [{"uid": "quebrado", "name": "Quebrado", "template": "{% for x in %}", "css": "", "js": ""}]})).await).await;
        let res = app.get(&s, &preview).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let html = res.text().await.unwrap();
        assert!(
            html.contains("Erro no template do bloco")
                && html.contains("quebrado")
                && html.contains("syntax error"),
            "{html}"
        );
        // A runaway loop stops at the fuel limit and is shown the same way.
        json_ok(app.post(&s, &format!("/api/page/{home}"), json!({"blocks": [{"uid": "laco", "name": "Laço", "template": "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}", "css": "", "js": ""}]})).await).await;
        assert_eq!(
            app.get(&s, &preview).await.status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );

        // Someone else's page answers 404, like one that does not exist.
        expect_error(app.get(&other, &preview).await, StatusCode::NOT_FOUND).await;
        expect_error(
            app.get(&s, &format!("/api/project/{pid}/page/999999/preview"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn the_editor_binds_a_collection_and_renders_a_posts_formatted_values(app: TestApp) {
        let s = app.register("bind@example.com").await;
        let eve = app.register("bind-eve@example.com").await;
        let pid = app.create_project(&s, "Loja").await["id"].as_i64().unwrap();
        let table = json_ok(app.post(&s, "/api/tables", json!({"project_id": pid, "name": "Produtos", "meta": {"plural": "Produtos", "singular": "Produto"}})).await).await["id"].as_i64().unwrap();
        let field = |name: &'static str, kind: &'static str, meta: serde_json::Value| {
            let app = &app;
            let s = &s;
            async move {
                json_ok(
                    app.post(
                        s,
                        "/api/fields",
                        json!({"table_id": table, "name": name, "type": kind, "meta": meta}),
                    )
                    .await,
                )
                .await["id"]
                    .as_i64()
                    .unwrap()
            }
        };
        let price = field(
            "Preço",
            "currency",
            json!({"symbol": "R$", "format": "(symbol) 9.999,99"}),
        )
        .await;
        let whats = field("Whats", "whatsapp_link", json!({})).await;
        let body = field("Corpo", "wysiwyg", json!({})).await;
        let photo = field("Foto", "image", json!({})).await;
        for (name, cents) in [("Bolo", 4200), ("Torta", 150)] {
            json_ok(
                app.post(
                    &s,
                    "/api/posts",
                    json!({"table_id": table, "name": name, "fields": [
                        {"field_id": price, "value": cents},
                        {"field_id": whats, "value": "(27) 99999-0000"},
                        {"field_id": body, "value": "<p>Macio<script>alert(1)</script></p>"},
                        {"field_id": photo, "value": "/files/bolo.png"}
                    ]}),
                )
                .await,
            )
            .await;
        }
        let page = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"project_id": pid, "name": "Produto"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();

        // Another owner's collection, or one that does not exist, cannot be bound: 422.
        let eves = app.create_project(&eve, "Alheio").await["id"]
            .as_i64()
            .unwrap();
        let foreign = json_ok(app.post(&eve, "/api/tables", json!({"project_id": eves, "name": "Segredos", "meta": {"plural": "Segredos", "singular": "Segredo"}})).await).await["id"].as_i64().unwrap();
        for bad in [foreign, 999_999] {
            let res = app
                .post(&s, &format!("/api/page/{page}"), json!({"table_id": bad}))
                .await;
            assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
            let err: serde_json::Value = res.json().await.unwrap();
            assert_eq!(err["error"], "unknown_collection", "{err}");
        }
        // The home page stays the site's `/`: it cannot become a collection page.
        let home =
            json_ok(app.get(&s, &format!("/api/projects/{pid}")).await).await["pages"][0]["id"]
                .as_i64()
                .unwrap();
        let res = app
            .post(&s, &format!("/api/page/{home}"), json!({"table_id": table}))
            .await;
        let err: serde_json::Value = res.json().await.unwrap();
        assert_eq!(err["error"], "home_page_static", "{err}");
        // Nor can another owner bind (or unbind) this page, even to their own collection: 404.
        for table_id in [json!(foreign), json!(null)] {
            expect_error(
                app.post(
                    &eve,
                    &format!("/api/page/{page}"),
                    json!({"table_id": table_id}),
                )
                .await,
                StatusCode::NOT_FOUND,
            )
            .await;
        }
        let unbound = json_ok(
            app.get(&s, &format!("/api/project/{pid}/page/{page}"))
                .await,
        )
        .await;
        assert_eq!(unbound["table_id"], serde_json::Value::Null);

        // The owner binds it; the canvas renders the post asked for, its fields formatted as
        // visitors read them, bound to the block's fields.
        let bound = json_ok(
            app.post(&s, &format!("/api/page/{page}"), json!({"table_id": table}))
                .await,
        )
        .await;
        assert_eq!(bound["table_id"], table);
        let block = json!({"uid": "p", "name": "Produto", "css": "", "js": "",
        "template": "<h1>{{ t }}</h1><b>{{ preco }}</b><a href=\"{{ w }}\"></a><img src=\"{{ f }}\">{{ c }}",
        "vars": [
            {"name": "t", "type": "text", "value": "Título", "postfield": "name"},
            {"name": "preco", "type": "text", "postfield": "preco"},
            {"name": "w", "type": "link", "postfield": "whats"},
            {"name": "f", "type": "image", "postfield": "foto"},
            {"name": "c", "type": "richtext", "postfield": "corpo"}
        ]});
        let render = |post: Option<&str>| {
            let mut body = json!({"page_id": page, "blocks": [block.clone()]});
            if let Some(post) = post {
                body["post"] = json!(post);
            }
            let app = &app;
            let s = &s;
            async move {
                json_ok(
                    app.post(s, &format!("/api/project/{pid}/render"), body)
                        .await,
                )
                .await["blocks"][0]["html"]
                    .as_str()
                    .unwrap()
                    .to_string()
            }
        };
        let torta = render(Some("torta")).await;
        assert_eq!(
            torta,
            "<h1>Torta</h1><b>R$ 1,50</b><a href=\"https:&#x2f;&#x2f;wa.me&#x2f;5527999990000\"></a><img src=\"&#x2f;files&#x2f;bolo.png\"><p>Macio</p>"
        );
        assert!(
            render(Some("bolo"))
                .await
                .starts_with("<h1>Bolo</h1><b>R$ 42,00</b>")
        );
        // Without a post asked for, the collection's first, the one the editor's picker shows first.
        let listed = json_ok(
            app.get(&s, &format!("/api/data/{table}?page=1&limit=100"))
                .await,
        )
        .await;
        let first = listed["posts"][0]["slug"].as_str().unwrap().to_string();
        assert_eq!(render(None).await, render(Some(&first)).await);

        // Unbound again, the page is a simple page: the fields show their own values.
        let simple = json_ok(
            app.post(&s, &format!("/api/page/{page}"), json!({"table_id": null}))
                .await,
        )
        .await;
        assert_eq!(simple["table_id"], serde_json::Value::Null);
        assert!(
            render(Some("torta"))
                .await
                .starts_with("<h1>Título</h1><b></b>")
        );
    }
);

dual_test!(
    async fn rich_text_typed_in_the_editor_is_saved_without_script(app: TestApp) {
        let s = app.register("rich@example.com").await;
        let project = app.create_project(&s, "Site").await;
        let pid = project["id"].as_i64().unwrap();
        let home = project["pages"][0]["id"].as_i64().unwrap();
        // What an inline edit of a rich-text field could send: markup with script in it.
        let hostile = "<p onmouseover=\"steal()\">Oi<script>fetch('//evil.test')</script></p><img src=x onerror=alert(1)>";
        let saved = json_ok(app.post(&s, &format!("/api/page/{home}"), json!({"blocks": [{
            "uid": "r", "name": "Texto", "template": "<div>{{ c }}</div>", "css": "", "js": "",
            "vars": [
                {"name": "c", "type": "richtext", "value": hostile},
                {"name": "t", "type": "text", "value": "<b>literal</b>"}
            ]
        }]})).await).await;
        let expected = "<p>Oi</p><img src=\"x\">";
        assert_eq!(saved["blocks"][0]["vars"][0]["value"], expected);
        let read = json_ok(
            app.get(&s, &format!("/api/project/{pid}/page/{home}"))
                .await,
        )
        .await;
        assert_eq!(read["blocks"][0]["vars"][0]["value"], expected);
        // A text field is text: escaped when rendered, so kept as typed.
        assert_eq!(read["blocks"][0]["vars"][1]["value"], "<b>literal</b>");
    }
);
