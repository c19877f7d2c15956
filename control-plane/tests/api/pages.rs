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
