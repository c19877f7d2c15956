//! Form history: the list in the owner's chosen order with Laravel-style pages, the order
//! setting, bulk delete limited to the project, HTML cleaned on the way out, and other users.

use chrono::{Duration, TimeZone, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::ids::{ProjectId, SubmissionId};
use vitrine_shared::{dual_test, store::NewSubmission};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

/// Stores `n` submissions a minute apart, as the edge would; returns their ids, oldest first.
async fn submit(app: &TestApp, project: i64, n: usize, data: &str) -> Vec<SubmissionId> {
    let start = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    for i in 0..n {
        store(
            app,
            NewSubmission {
                uid: format!("{project}-{i}"),
                project_id: ProjectId(project),
                url: format!("https://loja.example.com/contato-{i}"),
                submit: "Enviar".into(),
                to: "dono@example.com".into(),
                subject: format!("Contato {i}"),
                data: data.into(),
                created_at: start + Duration::minutes(i as i64),
            },
        )
        .await;
    }
    let (rows, _) = app
        .store
        .list_submissions(ProjectId(project), false, 1000, 0)
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
        // Nothing to change is a mistake the caller hears about.
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
            app.get(
                &stranger,
                &format!("/api/projects/{project}/form-history?q=x&from=2025-01-01"),
            )
            .await,
            app.get(
                &stranger,
                &format!("/api/projects/{project}/form-history/export"),
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

/// Stores one submission received at `at` (RFC 3339) with `subject` and the fields' HTML.
async fn submit_at(app: &TestApp, project: i64, at: &str, subject: &str, data: &str) {
    let created_at = chrono::DateTime::parse_from_rfc3339(at).unwrap();
    store(
        app,
        NewSubmission {
            uid: format!("{project}-{subject}"),
            project_id: ProjectId(project),
            url: "/contato".into(),
            submit: "Enviar".into(),
            to: "dono@example.com".into(),
            subject: subject.into(),
            data: data.into(),
            created_at: created_at.with_timezone(&Utc),
        },
    )
    .await;
}

/// Stores a submission as the edge would (no notification).
async fn store(app: &TestApp, submission: NewSubmission) {
    let stored = app
        .store
        .insert_submission(&submission, None)
        .await
        .unwrap();
    assert!(stored);
}

/// Three submissions on three days, with text worth searching for and a formula in a field.
async fn three_days(app: &TestApp, s: &Session, name: &str) -> i64 {
    let project = app.create_project(s, name).await["id"].as_i64().unwrap();
    submit_at(
        app,
        project,
        "2025-03-01T10:00:00Z",
        "Pedido A",
        "<dl><dt>nome</dt><dd>Ana &amp; Bia</dd><dt>mensagem</dt><dd>Quero um orçamento</dd></dl>",
    )
    .await;
    submit_at(
        app,
        project,
        "2025-03-02T15:00:00Z",
        "Pedido B",
        "<dl><dt>nome</dt><dd>Caio</dd><dt>email</dt><dd>caio@x.com</dd></dl>",
    )
    .await;
    submit_at(
        app,
        project,
        "2025-03-03T09:00:00Z",
        "Pedido C",
        "<dl><dt>nome</dt><dd>=HYPERLINK(\"http://evil\")</dd><dt>mensagem</dt>\
         <dd>100%_off, linha 1<br>linha 2 \"aspas\", vírgula</dd></dl>",
    )
    .await;
    project
}

dual_test!(
    async fn form_history_finds_text_in_any_field_and_filters_by_date_on_the_server(app: TestApp) {
        let s = app.register("fh-search@example.com").await;
        let project = three_days(&app, &s, "Busca").await;
        let found = |query: &'static str| {
            let (app, s) = (&app, &s);
            async move { subjects(&history(app, s, project, query).await) }
        };
        assert_eq!(found("").await, ["Pedido C", "Pedido B", "Pedido A"]);
        // Any field, any case (ASCII), the visitor's own text rather than its escaped HTML.
        assert_eq!(found("?q=caio").await, ["Pedido B"]);
        assert_eq!(found("?q=CAIO%40X").await, ["Pedido B"]);
        assert_eq!(found("?q=Ana+%26+Bia").await, ["Pedido A"]);
        assert_eq!(found("?q=OR%C3%87AMENTO").await, ["Pedido A"]);
        assert_eq!(found("?q=pedido+b").await, ["Pedido B"], "the subject too");
        // LIKE's wildcards are taken literally.
        assert_eq!(found("?q=100%25_").await, ["Pedido C"]);
        assert_eq!(found("?q=%25").await, ["Pedido C"]);
        assert_eq!(found("?q=_").await, ["Pedido C"]);
        assert_eq!(found("?q=nada+disso").await, Vec::<String>::new());
        // Dates: a day is the whole UTC day; an instant is exact.
        assert_eq!(found("?from=2025-03-02").await, ["Pedido C", "Pedido B"]);
        assert_eq!(found("?to=2025-03-02").await, ["Pedido B", "Pedido A"]);
        assert_eq!(found("?from=2025-03-02&to=2025-03-02").await, ["Pedido B"]);
        assert_eq!(
            found("?from=2025-03-02T16%3A00%3A00-03%3A00").await,
            ["Pedido C"]
        );
        assert_eq!(
            found("?q=pedido&from=2025-03-02&to=2025-03-02").await,
            ["Pedido B"]
        );

        // The filter pages on the server, and the page links keep it.
        let h = history(&app, &s, project, "?q=pedido&from=2025-03-01&limit=2").await;
        assert_eq!(h["history"]["total"], 3);
        assert_eq!(subjects(&h), ["Pedido C", "Pedido B"]);
        assert_eq!(
            h["history"]["next_page_url"],
            format!("/api/projects/{project}/form-history?limit=2&q=pedido&from=2025-03-01&page=2")
        );
        let h = history(&app, &s, project, "?q=caio&limit=2").await;
        assert_eq!(h["history"]["total"], 1);

        for bad in ["?from=01%2F03%2F2025", "?to=ontem", "?from=2025-02-30"] {
            let res = app
                .get(&s, &format!("/api/projects/{project}/form-history{bad}"))
                .await;
            let text = res.text().await.unwrap();
            let body: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(body["error"], "date_invalid", "{bad}: {text}");
        }
        let long = "x".repeat(256);
        let res = app
            .get(
                &s,
                &format!("/api/projects/{project}/form-history?q={long}"),
            )
            .await;
        expect_error(res, StatusCode::BAD_REQUEST).await;
    }
);

/// The export's body without its byte-order mark, parsed as CSV.
async fn export(app: &TestApp, s: &Session, project: i64, query: &str) -> Vec<Vec<String>> {
    let res = app
        .get(
            s,
            &format!("/api/projects/{project}/form-history/export{query}"),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/csv; charset=utf-8");
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        disposition.starts_with("attachment; filename=\"form-history-"),
        "{disposition}"
    );
    let body = res.bytes().await.unwrap();
    let text = std::str::from_utf8(&body)
        .unwrap()
        .strip_prefix('\u{feff}')
        .expect("a UTF-8 byte-order mark");
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

dual_test!(
    async fn form_history_exports_every_matching_entry_as_csv_a_spreadsheet_cannot_run(
        app: TestApp,
    ) {
        let s = app.register("fh-export@example.com").await;
        let project = three_days(&app, &s, "Exporta").await;
        // Every entry, whatever the page size asked for; one column per form field.
        let rows = export(&app, &s, project, "?limit=1&page=2").await;
        assert_eq!(
            rows[0],
            [
                "created_at",
                "url",
                "subject",
                "submit",
                "to",
                "nome",
                "mensagem",
                "email"
            ]
        );
        assert_eq!(rows.len(), 4);
        let c = &rows[1];
        assert_eq!(c[0], "2025-03-03T09:00:00+00:00");
        assert_eq!(
            &c[1..5],
            ["/contato", "Pedido C", "Enviar", "dono@example.com"]
        );
        // A formula is marked as text; quotes, commas and line breaks survive the quoting.
        assert_eq!(c[5], "'=HYPERLINK(\"http://evil\")");
        assert_eq!(c[6], "100%_off, linha 1\nlinha 2 \"aspas\", vírgula");
        assert_eq!(c[7], "");
        assert_eq!(&rows[2][5..], ["Caio", "", "caio@x.com"]);
        assert_eq!(&rows[3][5..], ["Ana & Bia", "Quero um orçamento", ""]);

        // The export follows the list's filter.
        let rows = export(&app, &s, project, "?q=caio").await;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][2], "Pedido B");
        assert_eq!(rows[0][5..], ["nome", "email"]);
        let rows = export(&app, &s, project, "?from=2025-03-01&to=2025-03-01").await;
        assert_eq!(
            rows.iter()
                .skip(1)
                .map(|r| r[2].as_str())
                .collect::<Vec<_>>(),
            ["Pedido A"]
        );
        let rows = export(&app, &s, project, "?q=nada").await;
        assert_eq!(rows, [["created_at", "url", "subject", "submit", "to"]]);
        let res = app
            .get(
                &s,
                &format!("/api/projects/{project}/form-history/export?to=ontem"),
            )
            .await;
        expect_error(res, StatusCode::BAD_REQUEST).await;
    }
);

dual_test!(
    async fn the_thank_you_page_must_be_a_static_page_of_the_same_project(app: TestApp) {
        let s = app.register("fh-thanks@example.com").await;
        let other = app.register("fh-thanks-other@example.com").await;
        let project = app.create_project(&s, "Agradece").await["id"]
            .as_i64()
            .unwrap();
        let page = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"project_id": project, "name": "Obrigado"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        let foreign_id = app.create_project(&other, "Alheio").await["id"]
            .as_i64()
            .unwrap();
        let foreign_page = json_ok(
            app.get(&other, &format!("/api/projects/{foreign_id}"))
                .await,
        )
        .await["pages"][0]["id"]
            .as_i64()
            .unwrap();
        let settings = format!("/api/projects/{project}/settings");

        let view = json_ok(
            app.post(&s, &settings, json!({"formThankYouPage": page}))
                .await,
        )
        .await;
        assert_eq!(view["meta"]["formThankYouPage"], page);
        for bad in [foreign_page, 9_999_999] {
            let res = app
                .post(&s, &settings, json!({"formThankYouPage": bad}))
                .await;
            let text = res.text().await.unwrap();
            let body: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(body["error"], "thank_you_page_invalid", "{text}");
            assert_eq!(body["field"], "formThankYouPage", "{text}");
        }
        // The order alone leaves the page; null removes it.
        let view = json_ok(
            app.post(&s, &settings, json!({"formHistoryOrderBy": "created_at"}))
                .await,
        )
        .await;
        assert_eq!(view["meta"]["formThankYouPage"], page);
        let view = json_ok(
            app.post(&s, &settings, json!({"formThankYouPage": null}))
                .await,
        )
        .await;
        assert!(
            view["meta"].get("formThankYouPage").is_none(),
            "{}",
            view["meta"]
        );
        // The other tenant cannot point its project at this one's page either.
        let res = app
            .post(
                &other,
                &format!("/api/projects/{foreign_id}/settings"),
                json!({"formThankYouPage": page}),
            )
            .await;
        expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
);
