//! Redirects: the form's calls with the spec's messages (shared vectors), one origin per
//! project, the list's pages, search and order, the change feed, and other users' rules.

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{dual_test, store::Change};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../../shared/testdata/validation.json")).unwrap()
}

/// Asserts an error status and returns the body's `(field, message)`.
async fn field_error(res: Response, status: StatusCode) -> (String, String) {
    let got = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(got, status, "{body}");
    (
        body["field"].as_str().unwrap_or_default().to_string(),
        body["message"].as_str().unwrap().to_string(),
    )
}

async fn project_id(app: &TestApp, s: &Session, name: &str) -> i64 {
    app.create_project(s, name).await["id"].as_i64().unwrap()
}

async fn create(app: &TestApp, s: &Session, project: i64, from: &str, to: &str) -> Value {
    let res = app
        .post(
            s,
            "/api/redirects",
            json!({"project_id": project, "from": from, "to": to}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED, "{from} → {to}");
    res.json().await.unwrap()
}

async fn list(app: &TestApp, s: &Session, project: i64, query: &str) -> Value {
    json_ok(
        app.get(s, &format!("/api/projects/{project}/redirects{query}"))
            .await,
    )
    .await
}

fn froms(page: &Value) -> Vec<String> {
    page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["from"].as_str().unwrap().to_string())
        .collect()
}

async fn redirect_changes(app: &TestApp, project: i64) -> Vec<Change> {
    app.store
        .changes_since(0, 1000)
        .await
        .unwrap()
        .into_iter()
        .filter(|c| c.project_id == ProjectId(project) && c.kind == "redirects")
        .collect()
}

dual_test!(
    async fn a_redirect_is_saved_read_and_deleted_and_each_write_is_a_change(app: TestApp) {
        let s = app.register("redir-crud@example.com").await;
        let project = project_id(&app, &s, "Redirs").await;
        let r = create(&app, &s, project, "antigo/", "/novo").await;
        let id = r["id"].as_i64().unwrap();
        assert_eq!(r["from"], "/antigo");
        assert_eq!(r["to"], "/novo");
        assert_eq!(r["project_id"], project);
        assert!(r["created_at"].is_string());
        assert!(r.get("warning").is_none(), "{r}");

        let got = json_ok(app.get(&s, &format!("/api/redirects/{id}")).await).await;
        assert_eq!(got["from"], "/antigo");

        let updated = json_ok(
            app.post(
                &s,
                &format!("/api/redirects/{id}"),
                json!({"project_id": project, "from": "/velho", "to": "https://novo.example.com/"}),
            )
            .await,
        )
        .await;
        assert_eq!(updated["from"], "/velho");
        assert_eq!(updated["to"], "https://novo.example.com/");
        assert_eq!(updated["created_at"], r["created_at"]);
        // An absent key keeps its value.
        let partial = json_ok(
            app.post(&s, &format!("/api/redirects/{id}"), json!({"to": "/outro"}))
                .await,
        )
        .await;
        assert_eq!(
            (&partial["from"], &partial["to"]),
            (&json!("/velho"), &json!("/outro"))
        );

        assert_eq!(
            app.delete(&s, &format!("/api/redirects/{id}"))
                .await
                .status(),
            StatusCode::NO_CONTENT
        );
        expect_error(
            app.get(&s, &format!("/api/redirects/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.delete(&s, &format!("/api/redirects/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;

        let changes = redirect_changes(&app, project).await;
        assert_eq!(changes.len(), 4, "create, two updates, delete: {changes:?}");
        assert!(changes.iter().all(|c| c.key == id.to_string()));
    }
);

dual_test!(
    async fn redirect_input_is_validated_with_the_spec_messages(app: TestApp) {
        let s = app.register("redir-valid@example.com").await;
        let project = project_id(&app, &s, "Regras").await;
        let v = vectors();
        for case in v["redirect_rule"]["invalid"].as_array().unwrap() {
            let res = app
                .post(
                    &s,
                    "/api/redirects",
                    json!({"project_id": project, "from": case[0], "to": case[1]}),
                )
                .await;
            let (field, message) = field_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            assert_eq!(field, case[2].as_str().unwrap(), "{case}");
            assert_eq!(message, case[3].as_str().unwrap(), "{case}");
        }
        // Missing keys read as empty, with the same messages.
        let (field, message) = field_error(
            app.post(
                &s,
                "/api/redirects",
                json!({"project_id": project, "to": "/x"}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(
            (field.as_str(), message.as_str()),
            ("from", "A url de origem é obrigatória.")
        );
        let (field, _) = field_error(
            app.post(&s, "/api/redirects", json!({"from": "/a", "to": "/b"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(field, "project_id");
        assert_eq!(
            list(&app, &s, project, "").await["total"],
            0,
            "nothing stored"
        );

        for case in v["redirect_rule"]["valid"].as_array().unwrap() {
            let r = create(
                &app,
                &s,
                project,
                case[0].as_str().unwrap(),
                case[1].as_str().unwrap(),
            )
            .await;
            assert_eq!(r["from"], case[2], "{case}");
            assert_eq!(r["to"], case[3], "{case}");
            assert_eq!(
                r.get("warning").cloned().unwrap_or(Value::Null),
                case[4],
                "{case}"
            );
        }

        // Updates are checked the same way, against the rule's current values.
        let id = create(&app, &s, project, "/origem", "/destino").await["id"]
            .as_i64()
            .unwrap();
        let (field, message) = field_error(
            app.post(
                &s,
                &format!("/api/redirects/{id}"),
                json!({"to": "/origem/"}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(field, "to");
        assert_eq!(message, "URL destino deve ser diferente da url de origem");
        let (field, message) = field_error(
            app.post(&s, &format!("/api/redirects/{id}"), json!({"from": "/a b"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(
            (field.as_str(), message.as_str()),
            ("from", "A url não pode ter espaços.")
        );
        let other = project_id(&app, &s, "Outro").await;
        let (field, _) = field_error(
            app.post(
                &s,
                &format!("/api/redirects/{id}"),
                json!({"project_id": other}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(field, "project_id");
        let got = json_ok(app.get(&s, &format!("/api/redirects/{id}")).await).await;
        assert_eq!(
            (&got["from"], &got["to"], &got["project_id"]),
            (&json!("/origem"), &json!("/destino"), &json!(project))
        );
    }
);

dual_test!(
    async fn an_origin_is_redirected_once_per_project(app: TestApp) {
        let s = app.register("redir-unique@example.com").await;
        let project = project_id(&app, &s, "Única").await;
        let other = project_id(&app, &s, "Outra").await;
        create(&app, &s, project, "/antigo", "/novo").await;
        // The same origin, written differently, is the same rule.
        for from in ["/antigo", "antigo/", "//antigo"] {
            let (field, message) = field_error(
                app.post(
                    &s,
                    "/api/redirects",
                    json!({"project_id": project, "from": from, "to": "/outro"}),
                )
                .await,
                StatusCode::CONFLICT,
            )
            .await;
            assert_eq!(field, "from");
            assert_eq!(
                message,
                "Já existe um redirecionamento para esta url de origem."
            );
        }
        // Another project may redirect the same path.
        create(&app, &s, other, "/antigo", "/novo").await;
        // Renaming a rule onto an existing origin conflicts too; keeping its own origin does not.
        let second = create(&app, &s, project, "/segundo", "/novo").await["id"]
            .as_i64()
            .unwrap();
        field_error(
            app.post(
                &s,
                &format!("/api/redirects/{second}"),
                json!({"from": "/antigo"}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        json_ok(
            app.post(
                &s,
                &format!("/api/redirects/{second}"),
                json!({"from": "/segundo", "to": "/x"}),
            )
            .await,
        )
        .await;
        assert_eq!(list(&app, &s, project, "").await["total"], 2);
    }
);

dual_test!(
    async fn the_list_pages_searches_and_orders_like_the_dashboard_expects(app: TestApp) {
        let s = app.register("redir-list@example.com").await;
        let project = project_id(&app, &s, "Lista").await;
        // Created in this order: /r-00 … /r-24 (oldest first).
        for i in 0..25 {
            create(
                &app,
                &s,
                project,
                &format!("/r-{i:02}"),
                &format!("/destino-{i}"),
            )
            .await;
        }

        let first = list(&app, &s, project, "").await;
        assert_eq!(first["total"], 25);
        assert_eq!((&first["from"], &first["to"]), (&json!(1), &json!(25)));
        assert_eq!(first["per_page"], 100);
        assert_eq!(first["prev_page_url"], Value::Null);
        assert_eq!(first["next_page_url"], Value::Null);
        assert_eq!(froms(&first)[0], "/r-24", "newest first by default");
        let keys: Vec<&String> = first["data"][0].as_object().unwrap().keys().collect();
        assert_eq!(
            keys.len(),
            5,
            "id, from, to, created_at, project_id: {keys:?}"
        );

        let page2 = list(&app, &s, project, "?page=2&limit=10&order=from").await;
        assert_eq!(page2["total"], 25);
        assert_eq!((&page2["from"], &page2["to"]), (&json!(11), &json!(20)));
        assert_eq!(
            (&page2["current_page"], &page2["last_page"]),
            (&json!(2), &json!(3))
        );
        assert_eq!(
            froms(&page2),
            (10..20).map(|i| format!("/r-{i:02}")).collect::<Vec<_>>()
        );
        assert_eq!(
            page2["prev_page_url"],
            format!("/api/projects/{project}/redirects?order=from&limit=10&page=1")
        );
        assert_eq!(
            page2["next_page_url"],
            format!("/api/projects/{project}/redirects?order=from&limit=10&page=3")
        );
        // The next page URL is a call that works.
        let page3 = json_ok(app.get(&s, page2["next_page_url"].as_str().unwrap()).await).await;
        assert_eq!((&page3["from"], &page3["to"]), (&json!(21), &json!(25)));
        assert_eq!(page3["next_page_url"], Value::Null);
        let beyond = list(&app, &s, project, "?page=9&limit=10").await;
        assert_eq!(
            (&beyond["from"], &beyond["to"]),
            (&Value::Null, &Value::Null)
        );
        assert_eq!(beyond["data"], json!([]));

        let all = list(&app, &s, project, "?limit=-1&order=created_at").await;
        assert_eq!(froms(&all).len(), 25);
        assert_eq!(
            (&all["from"], &all["to"], &all["per_page"]),
            (&json!(1), &json!(25), &json!(-1))
        );
        assert_eq!(froms(&all)[0], "/r-00", "oldest first");
        let desc = list(&app, &s, project, "?limit=3&order=-from").await;
        assert_eq!(froms(&desc), ["/r-24", "/r-23", "/r-22"]);

        // Search: origin or destination, any case, with LIKE's wildcards taken literally.
        create(&app, &s, project, "/a_b", "https://Loja.Example.COM/Promo").await;
        create(&app, &s, project, "/axb", "/c").await;
        let found = list(&app, &s, project, "?term=a_b").await;
        assert_eq!(froms(&found), ["/a_b"]);
        assert_eq!(found["total"], 1);
        let found = list(&app, &s, project, "?term=loja.example.com%2Fpromo").await;
        assert_eq!(froms(&found), ["/a_b"]);
        let found = list(&app, &s, project, "?term=%25").await;
        assert_eq!(found["total"], 0, "% is not a wildcard");
        let found = list(&app, &s, project, "?term=DESTINO-2&limit=2").await;
        assert_eq!(found["total"], 6, "destino-2 and destino-20 … 24");
        assert_eq!(
            found["next_page_url"],
            format!("/api/projects/{project}/redirects?term=DESTINO-2&limit=2&page=2")
        );
    }
);

dual_test!(
    async fn bad_list_parameters_answer_400_with_a_message(app: TestApp) {
        let s = app.register("redir-params@example.com").await;
        let project = project_id(&app, &s, "Params").await;
        for query in [
            "?page=0",
            "?page=-1",
            "?page=abc",
            "?limit=0",
            "?limit=-2",
            "?limit=1001",
            "?limit=ten",
            "?order=to",
            "?order=created_at;DROP",
        ] {
            let res = app
                .get(&s, &format!("/api/projects/{project}/redirects{query}"))
                .await;
            let message = expect_error(res, StatusCode::BAD_REQUEST).await;
            assert!(!message.is_empty(), "{query}");
        }
        let message = expect_error(
            app.get(&s, &format!("/api/projects/{project}/redirects?order=to"))
                .await,
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(
            message,
            "order must be -created_at, created_at, from or -from"
        );
    }
);

dual_test!(
    async fn another_users_project_and_redirects_are_not_found(app: TestApp) {
        let owner = app.register("redir-owner@example.com").await;
        let stranger = app.register("redir-stranger@example.com").await;
        let project = project_id(&app, &owner, "Privado").await;
        let id = create(&app, &owner, project, "/meu", "/seu").await["id"]
            .as_i64()
            .unwrap();
        for res in [
            app.get(&stranger, &format!("/api/projects/{project}/redirects"))
                .await,
            app.get(&stranger, &format!("/api/redirects/{id}")).await,
            app.post(
                &stranger,
                &format!("/api/redirects/{id}"),
                json!({"from": "/teu"}),
            )
            .await,
            app.delete(&stranger, &format!("/api/redirects/{id}")).await,
            app.post(
                &stranger,
                "/api/redirects",
                json!({"project_id": project, "from": "/x", "to": "/y"}),
            )
            .await,
        ] {
            expect_error(res, StatusCode::NOT_FOUND).await;
        }
        let page = list(&app, &owner, project, "").await;
        assert_eq!(froms(&page), ["/meu"]);
        assert_eq!(page["data"][0]["to"], "/seu");
        assert_eq!(
            redirect_changes(&app, project).await.len(),
            1,
            "only the owner's create"
        );
    }
);

/// The codes of a saved page's or rule's warnings (none: empty).
fn warning_codes(saved: &Value) -> Vec<String> {
    saved["warnings"]
        .as_array()
        .map(|w| {
            w.iter()
                .map(|w| w["code"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn new_page(app: &TestApp, s: &Session, project: i64, name: &str) -> Value {
    json_ok(
        app.post(
            s,
            "/api/pages",
            json!({"project_id": project, "name": name}),
        )
        .await,
    )
    .await
}

dual_test!(
    async fn a_redirect_that_hides_a_page_is_saved_with_a_warning(app: TestApp) {
        let s = app.register("hides@example.com").await;
        let pid = project_id(&app, &s, "Loja").await;
        let about = new_page(&app, &s, pid, "Sobre").await;
        assert!(warning_codes(&about).is_empty(), "{about}");

        // The rule takes the page's address: saved, and the answer names the page.
        let r = create(&app, &s, pid, "/sobre/", "/contato").await;
        assert_eq!(r["from"], "/sobre");
        assert_eq!(warning_codes(&r), ["redirect_hides_page"]);
        assert_eq!(r["warnings"][0]["params"]["page"], "Sobre");
        assert_eq!(r["warnings"][0]["params"]["path"], "/sobre");
        assert!(
            r["warnings"][0]["message"]
                .as_str()
                .unwrap()
                .contains("Sobre")
        );
        // A rule beside the pages hides nothing.
        let old = create(&app, &s, pid, "/antigo", "/sobre").await;
        assert!(warning_codes(&old).is_empty(), "{old}");
        // Edited onto the home page: the update says so too.
        let moved = json_ok(
            app.post(
                &s,
                &format!("/api/redirects/{}", old["id"]),
                json!({"from": "/"}),
            )
            .await,
        )
        .await;
        assert_eq!(warning_codes(&moved), ["redirect_hides_page"]);
        assert_eq!(moved["warnings"][0]["params"]["path"], "/");
        // The whole site hides every page.
        let pages = app.get(&s, &format!("/api/projects/{pid}")).await;
        let count = json_ok(pages).await["pages"].as_array().unwrap().len();
        let all = create(&app, &s, pid, "*", "https://outro.example/*").await;
        assert_eq!(warning_codes(&all), ["redirect_hides_pages"]);
        assert_eq!(all["warnings"][0]["params"]["count"], count);
        // The list shows rules as stored, without warnings.
        let list = json_ok(app.get(&s, &format!("/api/projects/{pid}/redirects")).await).await;
        assert!(
            list["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r.get("warnings").is_none()),
            "{list}"
        );
    }
);

dual_test!(
    async fn a_page_created_or_moved_under_a_redirect_is_saved_with_a_warning(app: TestApp) {
        let s = app.register("under@example.com").await;
        let pid = project_id(&app, &s, "Loja").await;
        create(&app, &s, pid, "/promo/*", "/ofertas").await;
        create(&app, &s, pid, "/loja-antiga", "/loja").await;

        let promo = new_page(&app, &s, pid, "Promo").await;
        assert_eq!(promo["slug"], "promo", "the page itself: {promo}");
        assert_eq!(warning_codes(&promo), ["page_under_redirect"]);
        let params = &promo["warnings"][0]["params"];
        assert_eq!(params["from"], "/promo/*");
        assert_eq!(params["to"], "/ofertas");
        assert_eq!(params["path"], "/promo");

        // A page elsewhere: no warning; moved to a redirected address: the warning.
        let page = new_page(&app, &s, pid, "Nova").await;
        assert!(warning_codes(&page).is_empty(), "{page}");
        let moved = json_ok(
            app.post(
                &s,
                &format!("/api/page/{}", page["id"]),
                json!({"slug": "Loja Antiga"}),
            )
            .await,
        )
        .await;
        assert_eq!(moved["slug"], "loja-antiga");
        assert_eq!(warning_codes(&moved), ["page_under_redirect"]);
        assert_eq!(moved["warnings"][0]["params"]["from"], "/loja-antiga");
        // Saving its blocks moves nothing: no warning again.
        let saved = json_ok(
            app.post(
                &s,
                &format!("/api/page/{}", page["id"]),
                json!({"blocks": []}),
            )
            .await,
        )
        .await;
        assert!(warning_codes(&saved).is_empty(), "{saved}");
    }
);
