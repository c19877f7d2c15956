//! Collections, fields, records, import/export, the client panel and the spreadsheet link.

use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::dual_test;

use crate::helpers::{
    Session, TestApp, expect_error, json_ok, raw_request, records_by_slug, value_of,
};

/// A collection with one field of each of the 18 types, and the related collection its
/// relation field points at (with one post, slug "autora").
pub struct Fixture {
    pub project: i64,
    pub table: i64,
    pub authors: i64,
    pub author_post: i64,
    pub fields: Value,
}

impl Fixture {
    pub fn field(&self, slug: &str) -> i64 {
        self.fields
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["slug"] == slug)
            .unwrap_or_else(|| panic!("{slug}"))["id"]
            .as_i64()
            .unwrap()
    }
}

pub async fn fixture(app: &TestApp, s: &Session) -> Fixture {
    let project = app.create_project(s, "Catálogo").await["id"]
        .as_i64()
        .unwrap();
    let authors = json_ok(app.post(s, "/api/tables", json!({"project_id": project, "name": "Autores", "meta": {"plural": "Autores", "singular": "Autor"}})).await).await;
    let authors = authors["id"].as_i64().unwrap();
    let author_post = json_ok(
        app.post(
            s,
            "/api/posts",
            json!({"table_id": authors, "name": "Autora", "fields": []}),
        )
        .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let res = app.post(s, "/api/tables", json!({"project_id": project, "name": "Produtos", "meta": {"plural": "Produtos", "singular": "Produto"}})).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let table = res.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let opts = json!([{"name": "Azul"}, {"name": "Verde"}]);
    let specs = [
        json!({"name": "Texto", "type": "text", "required": "1"}),
        json!({"name": "Linha", "type": "string"}),
        json!({"name": "Resumo", "type": "textarea"}),
        json!({"name": "Conteúdo", "type": "wysiwyg"}),
        json!({"name": "Foto", "type": "image"}),
        json!({"name": "Galeria", "type": "gallery"}),
        json!({"name": "Arquivo", "type": "file"}),
        json!({"name": "Anexos", "type": "multiple-file"}),
        json!({"name": "Cor", "type": "select", "options": opts}),
        json!({"name": "Cores", "type": "multiselect", "options": opts}),
        json!({"name": "Ativo", "type": "checkbox"}),
        json!({"name": "Preço", "type": "currency", "meta": {"symbol": "R$", "format": "(symbol) 9.999,99"}}),
        json!({"name": "WhatsApp", "type": "whatsapp_link"}),
        json!({"name": "Telefone", "type": "telephone_link"}),
        json!({"name": "E-mail", "type": "email_link", "meta": {"hideAtListing": true}}),
        json!({"name": "Estilo", "type": "image-select", "options": [{"name": "Claro", "image": "/files/uploads/1/a.png"}]}),
        json!({"name": "Autor", "type": "relation", "meta": {"table": authors}}),
        json!({"name": "Tabela", "type": "csvtable", "meta": {"delimiter": ";"}}),
    ];
    for spec in specs {
        let mut body = spec.clone();
        body["table_id"] = json!(table);
        let res = app.post(s, "/api/fields", body).await;
        assert_eq!(res.status(), StatusCode::CREATED, "{spec}");
    }
    let t = json_ok(app.get(s, &format!("/api/tables/{table}")).await).await;
    Fixture {
        project,
        table,
        authors,
        author_post,
        fields: t["fields"].clone(),
    }
}

/// A full record for the fixture.
pub fn full_record(f: &Fixture, name: &str) -> Value {
    json!({"table_id": f.table, "name": name, "slug": "", "fields": [
        {"field_id": f.field("texto"), "value": "Olá"},
        {"field_id": f.field("linha"), "value": "linha"},
        {"field_id": f.field("resumo"), "value": "um\ndois"},
        {"field_id": f.field("conteudo"), "value": "<p>Oi <script>x()</script><b>b</b></p>"},
        {"field_id": f.field("foto"), "value": "/files/uploads/1/foto.png"},
        {"field_id": f.field("galeria"), "value": [{"src": "/files/uploads/1/a.png", "caption": "A"}]},
        {"field_id": f.field("arquivo"), "value": "https://example.com/a.pdf"},
        {"field_id": f.field("anexos"), "value": [{"src": "/files/uploads/1/b.pdf", "caption": ""}]},
        {"field_id": f.field("cor"), "value": "Azul"},
        {"field_id": f.field("cores"), "value": ["Verde", "Azul"]},
        {"field_id": f.field("ativo"), "value": true},
        {"field_id": f.field("preco"), "value": "R$ 1.234,56"},
        {"field_id": f.field("whatsapp"), "value": "(11) 98765-4321"},
        {"field_id": f.field("telefone"), "value": "11 3333-4444"},
        {"field_id": f.field("e-mail"), "value": "Ana@Example.com"},
        {"field_id": f.field("estilo"), "value": "Claro"},
        {"field_id": f.field("autor"), "value": f.author_post},
        {"field_id": f.field("tabela"), "value": "a;b\n1;2"},
    ]})
}

dual_test!(
    async fn collections_are_created_validated_updated_and_deleted_with_their_posts(app: TestApp) {
        let s = app.register("col@example.com").await;
        let p = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        for (body, msg) in [
            (
                json!({"project_id": p, "name": "", "meta": {"plural": "a", "singular": "b"}}),
                "Name is required",
            ),
            (
                json!({"project_id": p, "name": "X", "meta": {"singular": "b"}}),
                "Plural is required",
            ),
            (
                json!({"project_id": p, "name": "X", "meta": {"plural": "a"}}),
                "Singular is required",
            ),
        ] {
            assert_eq!(
                expect_error(
                    app.post(&s, "/api/tables", body).await,
                    StatusCode::UNPROCESSABLE_ENTITY
                )
                .await,
                msg
            );
        }
        let t = json_ok(app.post(&s, "/api/tables", json!({"project_id": p, "name": "Notícias", "meta": {"plural": "Notícias", "singular": "Notícia"}})).await).await;
        assert_eq!(t["slug"], "noticias");
        assert_eq!(t["meta"]["hasSingular"], true);
        assert_eq!(t["meta"]["includeDate"], true);
        assert_eq!(t["meta"]["includeTitle"], true);
        assert_eq!(t["meta"]["orderField"], "created_at");
        assert_eq!(t["meta"]["orderDir"], "desc");
        let id = t["id"].as_i64().unwrap();
        let upd = json_ok(
            app.post(
                &s,
                &format!("/api/tables/{id}"),
                json!({"name": "Blog", "meta": {"orderField": "name", "orderDir": "asc"}}),
            )
            .await,
        )
        .await;
        assert_eq!(upd["name"], "Blog");
        assert_eq!(upd["meta"]["orderField"], "name");
        assert_eq!(upd["meta"]["plural"], "Notícias");
        expect_error(
            app.post(
                &s,
                &format!("/api/tables/{id}"),
                json!({"meta": {"orderField": "nope"}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        let dup = app.post(&s, "/api/tables", json!({"project_id": p, "name": "Outra", "slug": "noticias", "meta": {"plural": "a", "singular": "b"}})).await;
        expect_error(dup, StatusCode::CONFLICT).await;

        let post = json_ok(
            app.post(
                &s,
                "/api/posts",
                json!({"table_id": id, "name": "Primeiro", "fields": []}),
            )
            .await,
        )
        .await;
        assert_eq!(
            app.delete(&s, &format!("/api/tables/{id}")).await.status(),
            StatusCode::NO_CONTENT
        );
        expect_error(
            app.get(&s, &format!("/api/posts/{}", post["id"])).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.get(&s, &format!("/api/tables/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn every_field_type_validates_and_normalises_values(app: TestApp) {
        let s = app.register("types@example.com").await;
        let f = fixture(&app, &s).await;
        assert_eq!(f.fields.as_array().unwrap().len(), 18);
        let post = json_ok(
            app.post(&s, "/api/posts", full_record(&f, "Meu Produto Ação"))
                .await,
        )
        .await;
        assert_eq!(post["slug"], "meu-produto-acao");
        assert_eq!(
            value_of(&post, f.field("whatsapp")),
            json!("https://wa.me/5511987654321")
        );
        assert_eq!(
            value_of(&post, f.field("telefone")),
            json!("tel:1133334444")
        );
        assert_eq!(
            value_of(&post, f.field("e-mail")),
            json!("mailto:ana@example.com")
        );
        assert_eq!(value_of(&post, f.field("preco")), json!(123456));
        assert_eq!(value_of(&post, f.field("ativo")), json!(1));
        assert_eq!(value_of(&post, f.field("cores")), json!(["Verde", "Azul"]));
        assert_eq!(value_of(&post, f.field("autor")), json!(f.author_post));
        let html = value_of(&post, f.field("conteudo"));
        assert!(
            html.as_str().unwrap().contains("<b>b</b>")
                && !html.as_str().unwrap().contains("script")
        );
        let loaded = json_ok(app.get(&s, &format!("/api/posts/{}", post["id"])).await).await;
        assert_eq!(loaded["fields"], post["fields"]);

        // A second record with the same title gets a suffix.
        let again = json_ok(
            app.post(&s, "/api/posts", full_record(&f, "Meu Produto Ação"))
                .await,
        )
        .await;
        assert_eq!(again["slug"], "meu-produto-acao-2");

        let bad = |field: &str, value: Value| {
            let mut body = full_record(&f, "X");
            for item in body["fields"].as_array_mut().unwrap() {
                if item["field_id"] == f.field(field) {
                    item["value"] = value.clone();
                }
            }
            body
        };
        for (field, value) in [
            ("cor", json!("Roxo")),
            ("cores", json!(["Roxo"])),
            ("ativo", json!("talvez")),
            ("preco", json!(1.5)),
            ("e-mail", json!("não é email")),
            ("foto", json!("javascript:alert(1)")),
            ("galeria", json!("not a list")),
            ("autor", json!(999999)),
            ("texto", json!({"a": 1})),
        ] {
            let res = app.post(&s, "/api/posts", bad(field, value.clone())).await;
            let status = res.status();
            let body: Value = res.json().await.unwrap();
            assert_eq!(
                status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{field} {value}: {body}"
            );
            assert!(body["details"][0]["field_id"].is_number(), "{body}");
        }
        // The required rule.
        let msg = expect_error(
            app.post(&s, "/api/posts", bad("texto", json!(""))).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Please fill all required fields: Texto");
        let data = json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await;
        assert_eq!(data["total"], 2, "nothing invalid was written");
    }
);

dual_test!(
    async fn relations_must_point_into_the_same_project(app: TestApp) {
        let s = app.register("rel@example.com").await;
        let f = fixture(&app, &s).await;
        let other = fixture(&app, &s).await;
        let mut body = full_record(&f, "X");
        for item in body["fields"].as_array_mut().unwrap() {
            if item["field_id"] == f.field("autor") {
                item["value"] = json!(other.author_post);
            }
        }
        expect_error(
            app.post(&s, "/api/posts", body).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        // A relation field cannot target another project's collection.
        let res = app.post(&s, "/api/fields", json!({"table_id": f.table, "name": "Fora", "type": "relation", "meta": {"table": other.authors}})).await;
        assert_eq!(
            expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await,
            "The relation collection is required"
        );
        let res = app
            .post(
                &s,
                "/api/fields",
                json!({"table_id": f.table, "name": "Sem alvo", "type": "relation"}),
            )
            .await;
        assert_eq!(
            expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await,
            "The relation collection is required"
        );
    }
);

dual_test!(
    async fn fields_are_reordered_renamed_and_deleted_with_their_values(app: TestApp) {
        let s = app.register("fields@example.com").await;
        let f = fixture(&app, &s).await;
        let post = json_ok(app.post(&s, "/api/posts", full_record(&f, "P")).await).await;
        let mut ids: Vec<i64> = f
            .fields
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_i64().unwrap())
            .collect();
        ids.reverse();
        assert_eq!(
            app.post(&s, "/api/fields/reorder", json!({"fields": ids}))
                .await
                .status(),
            StatusCode::NO_CONTENT
        );
        let t = json_ok(app.get(&s, &format!("/api/tables/{}", f.table)).await).await;
        let now: Vec<i64> = t["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["id"].as_i64().unwrap())
            .collect();
        assert_eq!(now, ids);
        // Fields of another collection cannot be mixed in.
        let res = app
            .post(
                &s,
                "/api/fields/reorder",
                json!({"fields": [ids[0], f.authors * 1000]}),
            )
            .await;
        expect_error(res, StatusCode::NOT_FOUND).await;
        // Slugs are normalised and unique in the collection.
        let a = json_ok(
            app.post(
                &s,
                "/api/fields",
                json!({"table_id": f.table, "name": "Cor Extra", "type": "text"}),
            )
            .await,
        )
        .await;
        assert_eq!(a["slug"], "cor-extra");
        let b = json_ok(
            app.post(
                &s,
                "/api/fields",
                json!({"table_id": f.table, "name": "Cor Extra", "type": "text"}),
            )
            .await,
        )
        .await;
        assert_eq!(b["slug"], "cor-extra-2");
        let msg = expect_error(
            app.post(
                &s,
                "/api/fields",
                json!({"table_id": f.table, "name": "X", "type": "color"}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Unknown field type \"color\"");
        let msg = expect_error(
            app.post(&s, "/api/fields", json!({"table_id": f.table, "name": "X"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Type is required");
        // Deleting a field removes its value from every post.
        let texto = f.field("linha");
        assert_eq!(
            app.delete(&s, &format!("/api/fields/{texto}"))
                .await
                .status(),
            StatusCode::NO_CONTENT
        );
        let loaded = json_ok(app.get(&s, &format!("/api/posts/{}", post["id"])).await).await;
        assert!(
            loaded["fields"]
                .as_array()
                .unwrap()
                .iter()
                .all(|v| v["field_id"] != texto)
        );
    }
);

dual_test!(
    async fn listings_follow_the_collection_order_and_paginate(app: TestApp) {
        let s = app.register("list@example.com").await;
        let p = app.create_project(&s, "S").await["id"].as_i64().unwrap();
        let t = json_ok(app.post(&s, "/api/tables", json!({"project_id": p, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}})).await).await;
        let id = t["id"].as_i64().unwrap();
        let price = json_ok(
            app.post(
                &s,
                "/api/fields",
                json!({"table_id": id, "name": "Preço", "type": "currency"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        for (name, cents) in [("B", 300), ("A", 100), ("C", 200)] {
            json_ok(app.post(&s, "/api/posts", json!({"table_id": id, "name": name, "fields": [{"field_id": price, "value": cents}]})).await).await;
        }
        let names = |v: &Value| -> Vec<String> {
            v["posts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap().to_string())
                .collect()
        };
        let default = json_ok(app.get(&s, &format!("/api/data/{id}")).await).await;
        assert_eq!(names(&default), ["C", "A", "B"], "created_at desc");
        assert_eq!(default["total"], 3);
        json_ok(
            app.post(
                &s,
                &format!("/api/tables/{id}"),
                json!({"meta": {"orderField": price.to_string(), "orderDir": "asc"}}),
            )
            .await,
        )
        .await;
        let by_price = json_ok(app.get(&s, &format!("/api/data/{id}")).await).await;
        assert_eq!(names(&by_price), ["A", "C", "B"]);
        let page2 = json_ok(app.get(&s, &format!("/api/data/{id}?page=2&limit=2")).await).await;
        assert_eq!(names(&page2), ["B"]);
        assert_eq!(page2["total"], 3);
        expect_error(
            app.get(&s, &format!("/api/data/{id}?limit=0")).await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        expect_error(
            app.get(&s, &format!("/api/data/{id}?page=abc")).await,
            StatusCode::BAD_REQUEST,
        )
        .await;

        // The editor's database-fed lists: filter, order, limit, offset.
        let base = format!("/api/project/{p}/db/itens/data");
        let db = |q: &str| {
            let path = format!("{base}{q}");
            let (app, s) = (&app, &s);
            async move { app.get(s, &path).await }
        };
        let cheap = json_ok(db("?filter_field=preco&filter_op=%3C%3D&filter_value=200&order_field=preco&order_dir=asc").await).await;
        let cheap_names: Vec<&str> = cheap
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(cheap_names, ["A", "C"]);
        assert_eq!(cheap[0]["fields"]["preco"], 100);
        let named = json_ok(db("?filter_field=name&filter_op=contains&filter_value=b").await).await;
        assert_eq!(named.as_array().unwrap().len(), 1);
        let paged = json_ok(db("?order_field=name&order_dir=asc&limit=1&offset=1").await).await;
        assert_eq!(paged[0]["name"], "B");
        expect_error(db("?limit=101").await, StatusCode::BAD_REQUEST).await;
        expect_error(
            db("?filter_field=nope&filter_value=1").await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        expect_error(
            db("?filter_field=id&filter_value=abc").await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        expect_error(
            app.get(&s, &format!("/api/project/{p}/db/missing/data"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn bulk_delete_removes_only_posts_the_caller_may_edit(app: TestApp) {
        let a = app.register("bulk-a@example.com").await;
        let b = app.register("bulk-b@example.com").await;
        let fa = fixture(&app, &a).await;
        let fb = fixture(&app, &b).await;
        let pa = json_ok(app.post(&a, "/api/posts", full_record(&fa, "A1")).await).await["id"]
            .as_i64()
            .unwrap();
        let pb = json_ok(app.post(&b, "/api/posts", full_record(&fb, "B1")).await).await["id"]
            .as_i64()
            .unwrap();
        let res = json_ok(
            app.call(
                &a,
                Method::DELETE,
                "/api/posts",
                Some(json!({"selected": [pa, pb, 999999]})),
            )
            .await,
        )
        .await;
        assert_eq!(res["deleted"], 1);
        expect_error(
            app.get(&a, &format!("/api/posts/{pa}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(
            app.get(&b, &format!("/api/posts/{pb}")).await.status(),
            StatusCode::OK
        );
        // And another user's records answer 404 everywhere.
        expect_error(
            app.get(&a, &format!("/api/posts/{pb}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.get(&a, &format!("/api/data/{}", fb.table)).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.get(&a, &format!("/api/tables/{}/export/csv", fb.table))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.post(&a, &format!("/api/posts/{pb}"), json!({"name": "x"}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.delete(&a, &format!("/api/tables/{}", fb.table)).await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

pub fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

pub async fn import(
    app: &TestApp,
    s: &Session,
    table: i64,
    name: &str,
    bytes: &[u8],
) -> reqwest::Response {
    app.post(
        s,
        &format!("/api/tables/{table}/import"),
        json!({"name": name, "content": data_url("text/plain", bytes)}),
    )
    .await
}

pub async fn export(app: &TestApp, s: &Session, table: i64, format: &str) -> String {
    let res = app
        .get(s, &format!("/api/tables/{table}/export/{format}"))
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    res.text().await.unwrap()
}

dual_test!(
    async fn export_then_import_round_trips_losslessly(app: TestApp) {
        let s = app.register("rt@example.com").await;
        let f = fixture(&app, &s).await;
        for i in 0..5 {
            json_ok(
                app.post(
                    &s,
                    "/api/posts",
                    full_record(&f, &format!("Produto \"{i}\", com vírgula")),
                )
                .await,
            )
            .await;
        }
        let csv = export(&app, &s, f.table, "csv").await;
        let json_text = export(&app, &s, f.table, "json").await;
        assert!(csv.starts_with("name,slug,created_at,texto,"), "{csv}");
        let exported: Value = serde_json::from_str(&json_text).unwrap();
        assert_eq!(exported.as_array().unwrap().len(), 5);

        for (format, text) in [("csv", &csv), ("json", &json_text)] {
            // Empty the collection, then import the export back.
            let ids: Vec<i64> = json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await
                ["posts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_i64().unwrap())
                .collect();
            json_ok(
                app.call(
                    &s,
                    Method::DELETE,
                    "/api/posts",
                    Some(json!({"selected": ids})),
                )
                .await,
            )
            .await;
            let res = import(
                &app,
                &s,
                f.table,
                &format!("produtos.{format}"),
                text.as_bytes(),
            )
            .await;
            assert_eq!(json_ok(res).await["inserted"], json!(5), "{format}");
            assert_eq!(
                &export(&app, &s, f.table, format).await,
                text,
                "{format} round trip"
            );
        }
        // With a byte-order mark too.
        let ids: Vec<i64> =
            json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await["posts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_i64().unwrap())
                .collect();
        json_ok(
            app.call(
                &s,
                Method::DELETE,
                "/api/posts",
                Some(json!({"selected": ids})),
            )
            .await,
        )
        .await;
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend(csv.as_bytes());
        let done = json_ok(import(&app, &s, f.table, "p.csv", &bom).await).await;
        assert_eq!(
            (done["inserted"].clone(), done["bom"].clone()),
            (json!(5), json!(true))
        );
    }
);

dual_test!(
    async fn importing_an_edited_export_updates_its_records_by_slug(app: TestApp) {
        let s = app.register("upsert@example.com").await;
        let f = fixture(&app, &s).await;
        for name in ["Bolo", "Pão", "Torta"] {
            json_ok(app.post(&s, "/api/posts", full_record(&f, name)).await).await;
        }
        let posts = || records_by_slug(&app, &s, f.table);
        let before = posts().await;
        let csv = export(&app, &s, f.table, "csv").await;
        // Excel's export option: the same file after a UTF-8 byte order mark.
        let excel = app
            .get(&s, &format!("/api/tables/{}/export/csv?bom=true", f.table))
            .await
            .bytes()
            .await
            .unwrap();
        assert_eq!(&excel[..3], b"\xEF\xBB\xBF");
        assert_eq!(&excel[3..], csv.as_bytes());

        // The owner renames one record and adds one in a spreadsheet, and imports it back.
        let mut reader = csv::Reader::from_reader(&excel[3..]);
        let mut writer = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
        let header = reader.headers().unwrap().clone();
        writer.write_record(&header).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        // Currency as people write it in the field's format, in the field's own column.
        let price = header.iter().position(|h| h == "preco").unwrap();
        assert_eq!(rows[0].get(price), Some("1.234,56"));
        assert!(
            !header.iter().any(|h| h.ends_with(":formatted")),
            "{header:?}"
        );
        for row in &rows {
            let mut cells: Vec<String> = row.iter().map(String::from).collect();
            if cells[1] == "pao" {
                cells[0] = "Pão de queijo".into();
            }
            writer.write_record(&cells).unwrap();
        }
        let mut quiche: Vec<String> = rows[2].iter().map(String::from).collect();
        (quiche[0], quiche[1]) = ("Quiche".into(), "quiche".into());
        writer.write_record(&quiche).unwrap();
        let edited = writer.into_inner().unwrap();
        let done = json_ok(import(&app, &s, f.table, "produtos.csv", &edited).await).await;
        assert_eq!(
            [
                &done["inserted"],
                &done["updated"],
                &done["unchanged"],
                &done["refused"]
            ],
            [1, 1, 2, 0],
            "1 renamed, 2 as they were and 1 new: {done}"
        );
        let after = posts().await;
        assert_eq!(after.len(), 4, "{after:?}");
        let by_slug = |slug: &str| after.iter().find(|p| p.0 == slug).cloned().unwrap();
        let old = |slug: &str| before.iter().find(|p| p.0 == slug).cloned().unwrap();
        assert_eq!(by_slug("pao").1, "Pão de queijo");
        assert_eq!(by_slug("pao").2, old("pao").2, "updated in place");
        assert_eq!(by_slug("bolo"), old("bolo"));
        assert_eq!(by_slug("quiche").1, "Quiche");

        // Inserting only: the stored slugs are problems at their rows, and nothing is written.
        let res = app
            .post(
                &s,
                &format!("/api/tables/{}/import", f.table),
                json!({"name": "p.csv", "content": data_url("text/csv", csv.as_bytes()), "mode": "insert"}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "record_slug_repeated", "{body}");
        assert_eq!(body["details"][0]["row"], 1);
        assert_eq!(posts().await, after);

        // All or nothing: a file that updates a record and has one bad row changes nothing.
        let bad = "name,slug,texto,preco\nBolo novo,bolo,t,10\nErrado,errado,t,abc\n";
        expect_error(
            import(&app, &s, f.table, "p.csv", bad.as_bytes()).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(posts().await, after);

        // A mode the server does not know is refused before anything is read.
        let res = app
            .post(
                &s,
                &format!("/api/tables/{}/import", f.table),
                json!({"name": "p.csv", "content": data_url("text/csv", csv.as_bytes()), "mode": "merge"}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
);

dual_test!(
    async fn bad_imports_name_the_row_and_column_and_write_nothing(app: TestApp) {
        let s = app.register("badimp@example.com").await;
        let f = fixture(&app, &s).await;
        let count = || async {
            json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await["total"]
                .as_i64()
                .unwrap()
        };
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            (
                "a.csv",
                b"name,texto\n\"unterminated,x\nb,c,d\n".to_vec(),
                "Malformed CSV",
            ),
            ("a.json", b"[{\"name\": \"x\",}]".to_vec(), "Malformed JSON"),
            (
                "a.csv",
                b"\xEF\xBB\xBFname,texto\nok,fine\nbad,\xff\xfe\n".to_vec(),
                "Row 3: The file is not text in the encoding its byte order mark names",
            ),
            (
                "a.csv",
                b"name,texto,mystery\nx,y,z\n".to_vec(),
                "Unknown column \"mystery\"",
            ),
            (
                "a.csv",
                b"name,slug,texto\nA,same,1\nB,same,2\n".to_vec(),
                "Row 2, column slug: duplicate slug",
            ),
            (
                "a.csv",
                b"name,texto,preco\nA,t,12.5x\nB,t,abc\n".to_vec(),
                "Row 1, column preco: Preço must be an amount written like 59 or 1.234,56, not \"12.5x\" (and 1 more problems)",
            ),
            (
                "a.json",
                br#"[{"name": "A", "texto": "t", "ativo": "talvez"}]"#.to_vec(),
                "Row 1, column ativo",
            ),
            (
                "a.csv",
                b"name,texto,autor\nA,t,no-such-author\n".to_vec(),
                "Row 1, column autor",
            ),
            (
                "a.csv",
                b"name,texto\nA,\n".to_vec(),
                "Row 1, column texto: Please fill all required fields: Texto",
            ),
            ("a.xlsx", b"x".to_vec(), "Import a .csv or .json file"),
        ];
        for (name, bytes, want) in cases {
            let res = import(&app, &s, f.table, name, &bytes).await;
            let msg = expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            assert!(
                msg.contains(want),
                "{name}: {msg:?} should contain {want:?}"
            );
            assert_eq!(count().await, 0, "{name} wrote nothing");
        }
        // A relation to another project's post is refused by id too.
        let other = fixture(&app, &s).await;
        let text = format!("name,texto,autor\nA,t,{}\n", other.author_post);
        let msg = expect_error(
            import(&app, &s, f.table, "a.csv", text.as_bytes()).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.contains("column autor"), "{msg}");
        // A 50 MB file.
        let big = vec![b'a'; 50 * 1024 * 1024];
        let body =
            serde_json::to_vec(&json!({"name": "big.csv", "content": data_url("text/csv", &big)}))
                .unwrap();
        let (status, body) = raw_request(
            &app.base,
            "POST",
            &format!("/api/tables/{}/import", f.table),
            &s.cookie,
            "application/json",
            body,
        )
        .await;
        assert_eq!(status, 413, "{body}");
        assert_eq!(count().await, 0);
        // Relations by slug import fine; the response counts what was written.
        let ok = import(
            &app,
            &s,
            f.table,
            "a.csv",
            b"name,texto,autor\nA,t,autora\n",
        )
        .await;
        assert_eq!(json_ok(ok).await["inserted"], json!(1));
    }
);

dual_test!(
    async fn a_thousand_rows_import_in_one_go(app: TestApp) {
        let s = app.register("k@example.com").await;
        let f = fixture(&app, &s).await;
        // Columns match by field slug or by field name.
        let mut csv = String::from("name,Texto,Preço,cores\n");
        for i in 0..1000 {
            csv.push_str(&format!("Item {i},texto {i},{},\"Azul,Verde\"\n", i * 10));
        }
        assert_eq!(
            json_ok(import(&app, &s, f.table, "mil.csv", csv.as_bytes()).await).await["inserted"],
            json!(1000)
        );
        let data = json_ok(app.get(&s, &format!("/api/data/{}?limit=1", f.table)).await).await;
        assert_eq!(data["total"], 1000);
    }
);

dual_test!(
    async fn the_client_panel_token_reaches_only_its_projects_records(app: TestApp) {
        let s = app.register("client@example.com").await;
        let f = fixture(&app, &s).await;
        let other = fixture(&app, &s).await;
        let project = json_ok(app.get(&s, &format!("/api/projects/{}", f.project)).await).await;
        let token = project["token"].as_str().unwrap().to_string();
        let c = reqwest::Client::new();
        let with =
            |m: Method, path: &str| c.request(m, app.url(path)).header("x-client-token", &token);

        let ctx: Value = with(Method::GET, "/api/client/project")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(ctx["project"]["id"], f.project);
        assert_eq!(ctx["tables"].as_array().unwrap().len(), 2);
        let created = with(Method::POST, "/api/posts")
            .json(&full_record(&f, "Do cliente"))
            .send()
            .await
            .unwrap();
        assert_eq!(created.status(), StatusCode::CREATED);
        let post: Value = created.json().await.unwrap();
        let res = with(Method::POST, &format!("/api/posts/{}", post["id"]))
            .json(&json!({"name": "Editado"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(
            with(Method::GET, &format!("/api/data/{}", f.table))
                .send()
                .await
                .unwrap()
                .status(),
            StatusCode::OK
        );
        let csv = with(Method::GET, &format!("/api/tables/{}/export/csv", f.table))
            .send()
            .await
            .unwrap();
        assert_eq!(csv.status(), StatusCode::OK);
        // Nothing of another project, and nothing but records.
        expect_error(
            with(Method::GET, &format!("/api/data/{}", other.table))
                .send()
                .await
                .unwrap(),
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            with(Method::GET, &format!("/api/projects/{}", f.project))
                .send()
                .await
                .unwrap(),
            StatusCode::UNAUTHORIZED,
        )
        .await;
        expect_error(
            with(Method::DELETE, &format!("/api/tables/{}", f.table))
                .send()
                .await
                .unwrap(),
            StatusCode::UNAUTHORIZED,
        )
        .await;
        expect_error(
            with(Method::POST, "/api/fields")
                .json(&json!({"table_id": f.table, "name": "x", "type": "text"}))
                .send()
                .await
                .unwrap(),
            StatusCode::UNAUTHORIZED,
        )
        .await;
        // A wrong token answers 404.
        let wrong = c
            .get(app.url("/api/client/project"))
            .header("x-client-token", "wrong")
            .send()
            .await
            .unwrap();
        expect_error(wrong, StatusCode::NOT_FOUND).await;
        // Regenerating the token ends the old link at once.
        let renewed = json_ok(
            app.post(&s, &format!("/api/projects/{}/token", f.project), json!({}))
                .await,
        )
        .await;
        assert_ne!(renewed["token"], json!(token));
        expect_error(
            with(Method::GET, "/api/client/project")
                .send()
                .await
                .unwrap(),
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn the_spreadsheet_link_upserts_rows(app: TestApp) {
        let s = app.register("sheet@example.com").await;
        let f = fixture(&app, &s).await;
        let token = json_ok(
            app.post(
                &s,
                &format!("/api/projects/{}/sheet-token", f.project),
                json!({}),
            )
            .await,
        )
        .await["token"]
            .as_str()
            .unwrap()
            .to_string();
        let c = reqwest::Client::new();
        let push = |q: &str, body: Value| {
            c.post(app.url(&format!("/google-sheets/{}/{token}{q}", f.project)))
                .json(&body)
                .send()
        };
        let rows = json!({"table": "produtos", "rows": [
            {"name": "Lead 1", "slug": "lead-1", "texto": "oi", "whatsapp": "(11) 98765-4321", "utm_source": "google", "Coluna Solta": "x"},
            {"name": "Lead 2", "texto": "olá", "telefone": 1133334444_i64}
        ]});
        let first: Value = push("?phone=1", rows.clone())
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(first["inserted"], 2, "{first}");
        assert_eq!(first["updated"], 0);
        assert_eq!(first["ignored_columns"], json!(["Coluna Solta"]));
        let again: Value = push("?phone=1", json!({"table": "produtos", "rows": [{"name": "Lead 1 novo", "slug": "lead-1", "texto": "mudou"}]})).await.unwrap().json().await.unwrap();
        assert_eq!(again["updated"], 1);
        assert_eq!(again["inserted"], 0);
        let data = json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await;
        assert_eq!(data["total"], 2);
        let lead1 = data["posts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["slug"] == "lead-1")
            .unwrap();
        assert_eq!(lead1["name"], "Lead 1 novo");
        assert_eq!(value_of(lead1, f.field("texto")), json!("mudou"));
        assert_eq!(
            value_of(lead1, f.field("whatsapp")),
            json!("https://wa.me/5511987654321")
        );
        // Tracking columns are kept with gtags=1 when a field matches them.
        let utm = json_ok(
            app.post(
                &s,
                "/api/fields",
                json!({"table_id": f.table, "name": "utm_source", "type": "text"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        push("", json!({"table": "produtos", "rows": [{"name": "Lead 3", "texto": "t", "utm_source": "ads"}]})).await.unwrap();
        push("?gtags=1", json!({"table": "produtos", "rows": [{"name": "Lead 4", "texto": "t", "utm_source": "ads"}]})).await.unwrap();
        let data = json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await;
        let by = |slug: &str| {
            data["posts"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["slug"] == slug)
                .unwrap()
                .clone()
        };
        assert_eq!(value_of(&by("lead-3"), utm), Value::Null);
        assert_eq!(value_of(&by("lead-4"), utm), json!("ads"));
        // A wrong token answers 404 and writes nothing.
        let wrong = c
            .post(app.url(&format!("/google-sheets/{}/nope", f.project)))
            .json(&rows)
            .send()
            .await
            .unwrap();
        expect_error(wrong, StatusCode::NOT_FOUND).await;
        let bad = push(
            "",
            json!({"table": "produtos", "rows": [{"name": "X", "ativo": "talvez", "texto": "t"}]}),
        )
        .await
        .unwrap();
        expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(
            json_ok(app.get(&s, &format!("/api/data/{}", f.table)).await).await["total"],
            4
        );
    }
);

dual_test!(
    async fn two_collections_of_a_project_cannot_share_a_name(app: TestApp) {
        let s = app.register("names@example.com").await;
        let pid = app.create_project(&s, "Loja").await["id"].as_i64().unwrap();
        let table = |project: i64, name: &str| {
            json!({"project_id": project, "name": name,
                "meta": {"plural": "Itens", "singular": "Item"}})
        };
        let taken = |res: reqwest::Response| async move {
            let status = res.status();
            let body: Value = res.json().await.unwrap();
            assert_eq!(status, StatusCode::CONFLICT, "{body}");
            assert_eq!(body["error"], "collection_name_taken");
            assert_eq!(body["field"], "name");
        };
        let first = json_ok(app.post(&s, "/api/tables", table(pid, "Produtos")).await).await;
        // The same name, whatever its case and spaces: 409 with the code.
        taken(app.post(&s, "/api/tables", table(pid, "  produtos ")).await).await;
        // Renaming onto another collection's name: 409 as well.
        let second = json_ok(app.post(&s, "/api/tables", table(pid, "Serviços")).await).await;
        let rename = format!("/api/tables/{}", second["id"]);
        taken(app.post(&s, &rename, json!({"name": "PRODUTOS"})).await).await;
        assert_eq!(
            json_ok(app.get(&s, &rename).await).await["name"],
            "Serviços",
            "nothing changed"
        );
        // A collection keeps its own name (in another case), and another project may use it.
        let own = format!("/api/tables/{}", first["id"]);
        let kept = json_ok(app.post(&s, &own, json!({"name": "produtos"})).await).await;
        assert_eq!(kept["name"], "produtos");
        let other = app.create_project(&s, "Outra").await["id"]
            .as_i64()
            .unwrap();
        json_ok(app.post(&s, "/api/tables", table(other, "Produtos")).await).await;
    }
);
