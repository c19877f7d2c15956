//! Form history: the list in the owner's chosen order with Laravel-style pages, the order
//! setting, bulk delete limited to the project, HTML cleaned on the way out, and other users.

use chrono::{Duration, TimeZone, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::{dual_test, store::NewSubmission};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

/// Stores `n` submissions a minute apart, as the edge would; returns their ids, oldest first.
async fn submit(app: &TestApp, project: i64, n: usize, data: &str) -> Vec<i64> {
    let start = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    for i in 0..n {
        let stored = app
            .store
            .insert_submission(
                &NewSubmission {
                    uid: format!("{project}-{i}"),
                    project_id: project,
                    url: format!("https://loja.example.com/contato-{i}"),
                    submit: "Enviar".into(),
                    to: "dono@example.com".into(),
                    subject: format!("Contato {i}"),
                    data: data.into(),
                    created_at: start + Duration::minutes(i as i64),
                },
                None,
            )
            .await
            .unwrap();
        assert!(stored);
    }
    let (rows, _) = app
        .store
        .list_submissions(project, false, 1000, 0)
        .await
        .unwrap();
    rows.iter().map(|r| r.id).collect()
}

async fn history(app: &TestApp, s: &Session, project: i64, query: &str) -> Value {
    json_ok(
        app.get(s, &format!("/api/projects/{project}/form-history{query}"))
            .await,
    )
    .await
}

fn subjects(h: &Value) -> Vec<String> {
    h["history"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["subject"].as_str().unwrap().to_string())
        .collect()
}

dual_test!(
    async fn form_history_is_newest_first_until_the_owner_chooses_the_other_order(app: TestApp) {
        let s = app.register("fh-order@example.com").await;
        let project = app.create_project(&s, "Contatos").await["id"]
            .as_i64()
            .unwrap();
        submit(&app, project, 3, "<p>Olá</p>").await;

        let h = history(&app, &s, project, "").await;
        assert_eq!(h["project"]["id"], project);
        assert_eq!(h["history"]["total"], 3);
        assert_eq!(subjects(&h), ["Contato 2", "Contato 1", "Contato 0"]);
        let entry = &h["history"]["data"][0];
        for key in ["id", "created_at", "url", "submit", "to", "subject", "data"] {
            assert!(!entry[key].is_null(), "{key} in {entry}");
        }
        assert_eq!(entry["to"], "dono@example.com");

        let project_view = json_ok(
            app.post(
                &s,
                &format!("/api/projects/{project}/settings"),
                json!({"formHistoryOrderBy": "created_at"}),
            )
            .await,
        )
        .await;
        assert_eq!(project_view["meta"]["formHistoryOrderBy"], "created_at");
        let h = history(&app, &s, project, "").await;
        assert_eq!(subjects(&h), ["Contato 0", "Contato 1", "Contato 2"]);
        assert_eq!(h["project"]["meta"]["formHistoryOrderBy"], "created_at");

        for bad in [
            json!({"formHistoryOrderBy": "name"}),
            json!({"formHistoryOrderBy": ""}),
        ] {
            let res = app
                .post(&s, &format!("/api/projects/{project}/settings"), bad)
                .await;
            let message = expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
            assert_eq!(message, "Order must be created_at or -created_at");
        }
        expect_error(
            app.post(&s, &format!("/api/projects/{project}/settings"), json!({}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        // Server-owned meta keys cannot ride along.
        json_ok(
            app.post(
                &s,
                &format!("/api/projects/{project}/settings"),
                json!({"formHistoryOrderBy": "-created_at", "verified": true, "description": "x"}),
            )
            .await,
        )
        .await;
        let p = json_ok(app.get(&s, &format!("/api/projects/{project}")).await).await;
        assert_eq!(p["meta"]["formHistoryOrderBy"], "-created_at");
        assert_eq!(p["meta"]["verified"], false);
        assert!(p["meta"].get("description").is_none(), "{}", p["meta"]);
    }
);

dual_test!(
    async fn form_history_pages_like_the_redirect_list(app: TestApp) {
        let s = app.register("fh-pages@example.com").await;
        let project = app.create_project(&s, "Páginas").await["id"]
            .as_i64()
            .unwrap();
        submit(&app, project, 5, "<p>x</p>").await;
        let h = history(&app, &s, project, "?page=2&limit=2").await;
        let page = &h["history"];
        assert_eq!(
            (&page["total"], &page["from"], &page["to"]),
            (&json!(5), &json!(3), &json!(4))
        );
        assert_eq!(subjects(&h), ["Contato 2", "Contato 1"]);
        assert_eq!(
            page["prev_page_url"],
            format!("/api/projects/{project}/form-history?limit=2&page=1")
        );
        assert_eq!(
            page["next_page_url"],
            format!("/api/projects/{project}/form-history?limit=2&page=3")
        );
        let all = history(&app, &s, project, "?limit=-1").await;
        assert_eq!(subjects(&all).len(), 5);
        for query in ["?page=0", "?limit=0", "?limit=x"] {
            expect_error(
                app.get(&s, &format!("/api/projects/{project}/form-history{query}"))
                    .await,
                StatusCode::BAD_REQUEST,
            )
            .await;
        }
        let empty = app.create_project(&s, "Vazio").await["id"]
            .as_i64()
            .unwrap();
        let h = history(&app, &s, empty, "").await;
        assert_eq!(h["history"]["total"], 0);
        assert_eq!(
            (&h["history"]["from"], &h["history"]["to"]),
            (&Value::Null, &Value::Null)
        );
    }
);

dual_test!(
    async fn stored_html_is_sanitised_again_on_the_way_out(app: TestApp) {
        let s = app.register("fh-xss@example.com").await;
        let project = app.create_project(&s, "XSS").await["id"].as_i64().unwrap();
        submit(
            &app,
            project,
            1,
            "<p><b>Nome:</b> Ana</p><script>alert(1)</script><img src=x onerror=\"alert(2)\"><a href=\"javascript:alert(3)\">x</a>",
        )
        .await;
        let h = history(&app, &s, project, "").await;
        let data = h["history"]["data"][0]["data"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(data.contains("<p><b>Nome:</b> Ana</p>"), "{data}");
        for bad in ["<script", "alert(1)", "onerror", "javascript:"] {
            assert!(!data.contains(bad), "{bad} in {data}");
        }
    }
);

dual_test!(
    async fn bulk_delete_removes_only_the_projects_own_entries(app: TestApp) {
        let s = app.register("fh-delete@example.com").await;
        let a = app.create_project(&s, "A").await["id"].as_i64().unwrap();
        let b = app.create_project(&s, "B").await["id"].as_i64().unwrap();
        let in_a = submit(&app, a, 3, "<p>a</p>").await;
        let in_b = submit(&app, b, 2, "<p>b</p>").await;
        let res = app
            .call(
                &s,
                reqwest::Method::DELETE,
                &format!("/api/projects/{a}/form-history"),
                Some(json!({"selected": [in_a[0], in_a[2], in_b[0], 987654]})),
            )
            .await;
        assert_eq!(json_ok(res).await, json!({"deleted": 2}));
        assert_eq!(subjects(&history(&app, &s, a, "").await), ["Contato 1"]);
        assert_eq!(history(&app, &s, b, "").await["history"]["total"], 2);
        let res = app
            .call(
                &s,
                reqwest::Method::DELETE,
                &format!("/api/projects/{a}/form-history"),
                Some(json!({"selected": []})),
            )
            .await;
        assert_eq!(json_ok(res).await, json!({"deleted": 0}));
    }
);

dual_test!(
    async fn another_users_form_history_is_not_found(app: TestApp) {
        let owner = app.register("fh-owner@example.com").await;
        let stranger = app.register("fh-stranger@example.com").await;
        let project = app.create_project(&owner, "Meu").await["id"]
            .as_i64()
            .unwrap();
        let ids = submit(&app, project, 1, "<p>x</p>").await;
        for res in [
            app.get(&stranger, &format!("/api/projects/{project}/form-history"))
                .await,
            app.call(
                &stranger,
                reqwest::Method::DELETE,
                &format!("/api/projects/{project}/form-history"),
                Some(json!({"selected": ids})),
            )
            .await,
            app.post(
                &stranger,
                &format!("/api/projects/{project}/settings"),
                json!({"formHistoryOrderBy": "created_at"}),
            )
            .await,
        ] {
            expect_error(res, StatusCode::NOT_FOUND).await;
        }
        let h = history(&app, &owner, project, "").await;
        assert_eq!(h["history"]["total"], 1);
        assert!(h["project"]["meta"].get("formHistoryOrderBy").is_none());
    }
);
