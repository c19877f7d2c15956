//! A collection page never opens empty: made with its collection (`POST /api/pages` with a
//! `table_id`), it starts with the library's detail block, bound to the collection's own fields.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::dual_test;

use crate::helpers::{Session, TestApp, expect_error, json_ok};

/// A shop collection in a new project: its id and the project's.
async fn shop(app: &TestApp, s: &Session) -> (i64, i64) {
    let pid = app.create_project(s, "Loja").await["id"].as_i64().unwrap();
    let table = json_ok(
        app.post(
            s,
            "/api/tables",
            json!({"project_id": pid, "name": "Produtos",
        "meta": {"plural": "Produtos", "singular": "Produto"}}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    for spec in [
        json!({"name": "Foto", "type": "image"}),
        json!({"name": "Preço", "type": "currency", "meta": {"symbol": "R$", "format": "(symbol) 9.999,99"}}),
        json!({"name": "Descrição", "type": "wysiwyg"}),
        json!({"name": "WhatsApp", "type": "whatsapp_link"}),
    ] {
        let mut body = spec;
        body["table_id"] = json!(table);
        assert_eq!(
            app.post(s, "/api/fields", body).await.status(),
            StatusCode::CREATED
        );
    }
    (pid, table)
}

/// Each variable's post binding, by name.
fn bindings(page: &Value) -> Vec<(String, Option<String>)> {
    page["blocks"][0]["vars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["name"].as_str().unwrap().to_string(),
                v["postfield"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn binding(page: &Value, name: &str) -> Option<String> {
    bindings(page)
        .into_iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, b)| b)
}

dual_test!(
    async fn a_collection_page_starts_with_the_detail_bound_to_the_collections_fields(
        app: TestApp,
    ) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("loja@example.com").await;
        let (pid, table) = shop(&app, &s).await;
        let res = app
            .post(
                &s,
                "/api/pages",
                json!({"name": "Produto", "project_id": pid, "table_id": table}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let page = res.json::<Value>().await.unwrap();
        assert_eq!(page["table_id"], table);
        assert_eq!(page["blocks"][0]["name"], "Detalhe do produto");
        assert!(page["blocks"][0]["block_id"].is_i64());
        // The x-vars moved into the block, as the editor does on insert.
        assert!(
            !page["blocks"][0]["template"]
                .as_str()
                .unwrap()
                .contains("x-vars")
        );
        assert_eq!(binding(&page, "photo").as_deref(), Some("foto"));
        assert_eq!(binding(&page, "name").as_deref(), Some("name"));
        assert_eq!(binding(&page, "price").as_deref(), Some("preco"));
        assert_eq!(binding(&page, "description").as_deref(), Some("descricao"));
        // What reads it from the server gets the same page.
        let read = json_ok(
            app.get(&s, &format!("/api/project/{pid}/page/{}", page["id"]))
                .await,
        )
        .await;
        assert_eq!(read["blocks"], page["blocks"]);
    }
);

dual_test!(
    async fn binding_an_existing_page_keeps_its_blocks(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("bind@example.com").await;
        let (pid, table) = shop(&app, &s).await;
        let empty = json_ok(
            app.post(&s, "/api/pages", json!({"name": "Item", "project_id": pid}))
                .await,
        )
        .await;
        assert_eq!(empty["blocks"], json!([]));
        // Bound later from the Page tab, a page keeps what it has: nothing is added behind the owner.
        let bound = json_ok(
            app.post(
                &s,
                &format!("/api/page/{}", empty["id"]),
                json!({"table_id": table}),
            )
            .await,
        )
        .await;
        assert_eq!(bound["table_id"], table);
        assert_eq!(bound["blocks"], json!([]));
    }
);

dual_test!(
    async fn a_post_collection_page_starts_with_the_post_header_and_content(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("blog@example.com").await;
        let pid = app.create_project(&s, "Blog").await["id"].as_i64().unwrap();
        let table = json_ok(
            app.post(
                &s,
                "/api/tables",
                json!({"project_id": pid, "name": "Posts",
            "meta": {"plural": "Posts", "singular": "Post"}}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        let body = json!({"name": "Corpo", "type": "wysiwyg", "table_id": table});
        assert_eq!(
            app.post(&s, "/api/fields", body).await.status(),
            StatusCode::CREATED
        );
        let page = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"name": "Post", "project_id": pid, "table_id": table}),
            )
            .await,
        )
        .await;
        let names: Vec<&str> = page["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Cabeçalho do post", "Conteúdo do post"]);
        let content = &page["blocks"][1]["vars"][0];
        assert_eq!(content["name"], "body");
        assert_eq!(content["postfield"], "corpo");
    }
);

dual_test!(
    async fn a_page_of_another_projects_collection_is_refused(app: TestApp) {
        let s = app.register("owner@example.com").await;
        let (_, table) = shop(&app, &s).await;
        let other = app.create_project(&s, "Outro").await["id"]
            .as_i64()
            .unwrap();
        let msg = expect_error(
            app.post(
                &s,
                "/api/pages",
                json!({"name": "X", "project_id": other, "table_id": table}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Unknown collection");
        let project = json_ok(app.get(&s, &format!("/api/projects/{other}")).await).await;
        assert!(
            project["pages"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["name"] != "X")
        );
    }
);
