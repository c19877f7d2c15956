//! Templates.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::dual_test;

use crate::helpers::{Session, TestApp, expect_error, json_ok};

dual_test!(
    async fn seeded_templates_create_real_sites(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        // Seeding twice changes nothing.
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("t@example.com").await;
        let list = json_ok(app.get(&s, "/api/templates").await).await;
        let list = list.as_array().unwrap();
        assert_eq!(list.len(), 3);
        assert!(list.iter().all(|t| t["is_published"] == "1"));
        let t = &list[0];
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/templates/use/{}", t["id"]),
                json!({"name": ""}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Project name is required");
        let res = app
            .post(
                &s,
                &format!("/api/templates/use/{}", t["id"]),
                json!({"name": "Padaria da Ana"}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let p: serde_json::Value = res.json().await.unwrap();
        assert_eq!(p["slug"], "padaria-da-ana");
        assert!(p["pages"].as_array().unwrap().len() >= 2);
        let home = p["pages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|pg| pg["slug"] == "/")
            .unwrap();
        let page = json_ok(
            app.get(&s, &format!("/api/project/{}/page/{}", p["id"], home["id"]))
                .await,
        )
        .await;
        assert!(
            page["output"].as_str().unwrap().len() > 1000,
            "a real page, not a placeholder"
        );
        expect_error(
            app.post(&s, "/api/templates/use/999999", json!({"name": "x"}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn only_admins_save_projects_as_templates(app: TestApp) {
        let user = app.register("u@example.com").await;
        let p = app.create_project(&user, "Meu Site").await;
        let msg = expect_error(
            app.post(
                &user,
                "/api/templates",
                json!({"project_id": p["id"], "name": "Tema"}),
            )
            .await,
            StatusCode::FORBIDDEN,
        )
        .await;
        assert_eq!(msg, "Administrators only");

        let admin = app.register("adm@example.com").await;
        app.make_admin(&admin).await;
        let own = app.create_project(&admin, "Base").await;
        json_ok(
            app.post(
                &admin,
                "/api/pages",
                json!({"name": "Sobre", "project_id": own["id"]}),
            )
            .await,
        )
        .await;
        let res = app
            .post(
                &admin,
                "/api/templates",
                json!({"project_id": own["id"], "name": "Tema Novo"}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let t: serde_json::Value = res.json().await.unwrap();
        let listed = json_ok(app.get(&user, "/api/templates").await).await;
        assert!(
            listed
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["name"] == "Tema Novo")
        );
        let made = json_ok(
            app.post(
                &user,
                &format!("/api/templates/use/{}", t["id"]),
                json!({"name": "Do Tema"}),
            )
            .await,
        )
        .await;
        assert_eq!(made["pages"].as_array().unwrap().len(), 2);
        let msg = expect_error(
            app.post(
                &admin,
                "/api/templates",
                json!({"project_id": own["id"], "name": "Tema Novo"}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(msg, "A template with this name already exists");
    }
);

/// `POST /api/templates`: saves `project` as the template `name`, in place of `replace`.
async fn save_as_template(
    app: &TestApp,
    s: &Session,
    project: &Value,
    name: &str,
    replace: Option<&Value>,
) -> reqwest::Response {
    let mut body = json!({"project_id": project["id"], "name": name});
    if let Some(t) = replace {
        body["template_id"] = t["id"].clone();
    }
    app.post(s, "/api/templates", body).await
}

/// The names of the pages of a new project made from template `t`.
async fn pages_made_from(app: &TestApp, s: &Session, t: &Value) -> Vec<String> {
    let path = format!("/api/templates/use/{}", t["id"]);
    let made = json_ok(app.post(s, &path, json!({"name": "Do Tema"})).await).await;
    made["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str().map(String::from))
        .collect()
}

dual_test!(
    async fn an_admin_updates_an_existing_template_in_place_and_no_one_else_can(app: TestApp) {
        let admin = app.register("adm-upd@example.com").await;
        app.make_admin(&admin).await;
        let base = app.create_project(&admin, "Base").await;
        let first = json_ok(save_as_template(&app, &admin, &base, "Tema Loja", None).await).await;
        let other = json_ok(save_as_template(&app, &admin, &base, "Tema Café", None).await).await;
        // The project grows a page; updating the template takes it along, under a new name.
        let page = json!({"name": "Cardápio", "project_id": base["id"]});
        json_ok(app.post(&admin, "/api/pages", page).await).await;
        let res = save_as_template(&app, &admin, &base, "Tema Loja 2", Some(&first)).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let updated: Value = res.json().await.unwrap();
        assert_eq!(updated["id"], first["id"]);
        assert_eq!(updated["name"], "Tema Loja 2");
        let user = app.register("u-upd@example.com").await;
        let names = pages_made_from(&app, &user, &first).await;
        assert!(names.iter().any(|n| n == "Cardápio"), "{names:?}");
        let list = json_ok(app.get(&admin, "/api/templates").await).await;
        assert_eq!(list.as_array().unwrap().len(), 2, "updated, not added");

        // Keeping its own name is fine; taking the other template's is not.
        let keep = save_as_template(&app, &admin, &base, "Tema Loja 2", Some(&first)).await;
        assert_eq!(keep.status(), StatusCode::CREATED);
        let taken = save_as_template(&app, &admin, &base, "Tema Café", Some(&first)).await;
        let msg = expect_error(taken, StatusCode::CONFLICT).await;
        assert_eq!(msg, "A template with this name already exists");
        // A template that does not exist is a 404, not a new one.
        let ghost = json!({"id": 999999});
        let res = save_as_template(&app, &admin, &base, "Fantasma", Some(&ghost)).await;
        expect_error(res, StatusCode::NOT_FOUND).await;

        // An owner who is not an administrator cannot overwrite the platform's template with
        // their own site, and it stays as it was.
        let mine = app.create_project(&user, "Meu").await;
        let res = save_as_template(&app, &user, &mine, "Tema Café", Some(&other)).await;
        assert_eq!(
            expect_error(res, StatusCode::FORBIDDEN).await,
            "Administrators only"
        );
        assert_eq!(pages_made_from(&app, &user, &other).await.len(), 1);
    }
);

dual_test!(
    async fn administrators_edit_order_unpublish_and_delete_templates(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let user = app.register("tpl-user@example.com").await;
        let admin = app.register("tpl-admin@example.com").await;
        app.make_admin(&admin).await;
        expect_error(
            app.get(&user, "/erp/templateList").await,
            StatusCode::FORBIDDEN,
        )
        .await;
        let list = json_ok(app.get(&admin, "/erp/templateList").await).await;
        let n = list.as_array().unwrap().len();
        assert!(n >= 3);
        let first = list[0]["id"].as_i64().unwrap();
        let last = list[n - 1]["id"].as_i64().unwrap();

        let edited = json_ok(
            app.post(
                &admin,
                &format!("/erp/template/{first}"),
                json!({"name": "Tema Novo", "is_published": "0", "category": "Loja"}),
            )
            .await,
        )
        .await;
        assert_eq!(edited["name"], "Tema Novo");
        assert_eq!(edited["is_published"], "0");
        assert_eq!(edited["category"], "Loja");
        for body in [
            json!({"is_published": "yes"}),
            json!({"name": " "}),
            json!({"order": -3}),
        ] {
            expect_error(
                app.post(&admin, &format!("/erp/template/{first}"), body)
                    .await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
        // Unpublished: gone from users' list, still in the admin's.
        let users = json_ok(app.get(&user, "/api/templates").await).await;
        assert_eq!(users.as_array().unwrap().len(), n - 1);
        assert!(users.as_array().unwrap().iter().all(|t| t["id"] != first));

        let res = app
            .post(
                &admin,
                &format!("/erp/reorder-template/{last}"),
                json!({"order": 0}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        let list = json_ok(app.get(&admin, "/erp/templateList").await).await;
        assert_eq!(list[0]["id"], last);

        let res = app
            .post(&admin, &format!("/erp/delete-template/{last}"), json!({}))
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        expect_error(
            app.post(&admin, &format!("/erp/delete-template/{last}"), json!({}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let list = json_ok(app.get(&admin, "/erp/templateList").await).await;
        assert_eq!(list.as_array().unwrap().len(), n - 1);
    }
);

dual_test!(
    async fn theme_previews_render_each_page_with_the_templates_records(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let user = app.register("leitor@example.com").await;
        let list = json_ok(app.get(&user, "/api/templates").await).await;
        let blog = list
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["category"] == "Blog")
            .unwrap()
            .clone();
        let detail = json_ok(
            app.get(&user, &format!("/api/templates/{}", blog["id"]))
                .await,
        )
        .await;
        assert_eq!(detail["name"], blog["name"]);
        let slugs: Vec<&str> = detail["pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["slug"].as_str().unwrap())
            .collect();
        assert_eq!(slugs, ["/", "sobre", "blog"], "the home page first");

        let preview = |page: &str| {
            let path = format!("/api/templates/{}/preview?page={page}", blog["id"]);
            let (app, user) = (&app, &user);
            async move { app.get(user, &path).await }
        };
        // The collection page shows the newest post; the home page lists posts from the
        // template's own table.
        let res = preview("blog").await;
        assert_eq!(res.status(), StatusCode::OK);
        let csp = res.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(csp.starts_with("sandbox;"), "{csp}");
        assert!(!csp.contains("allow-scripts"), "{csp}");
        let body = res.text().await.unwrap();
        assert!(
            body.contains("Moqueca capixaba na panela de barro"),
            "{body}"
        );
        let home = preview("%2F").await.text().await.unwrap();
        let listed = [
            "Três dias em Tiradentes",
            "O que aprendi cozinhando na casa da minha avó",
            "Pão de queijo de frigideira em 15 minutos",
        ];
        assert!(listed.iter().all(|name| home.contains(name)), "{home}");
        assert!(!home.contains("<script"), "block scripts are left out");
        assert_eq!(preview("nope").await.status(), StatusCode::NOT_FOUND);

        // A site made from the template is edited field by field: its blocks came from the
        // library with their fields.
        let site = json_ok(
            app.post(
                &user,
                &format!("/api/templates/use/{}", blog["id"]),
                json!({"name": "Meu Blog"}),
            )
            .await,
        )
        .await;
        let home_id = site["pages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["slug"] == "/")
            .unwrap()["id"]
            .clone();
        let page = json_ok(
            app.get(
                &user,
                &format!("/api/project/{}/page/{home_id}", site["id"]),
            )
            .await,
        )
        .await;
        let blocks = page["blocks"].as_array().unwrap();
        assert!(
            blocks
                .iter()
                .all(|b| b["block_id"].is_i64() && !b["vars"].as_array().unwrap().is_empty())
        );

        // Unpublished: hidden from users, still previewed by administrators.
        let admin = app.register("adm@example.com").await;
        app.make_admin(&admin).await;
        json_ok(
            app.post(
                &admin,
                &format!("/erp/template/{}", blog["id"]),
                json!({"is_published": "0"}),
            )
            .await,
        )
        .await;
        for path in [
            format!("/api/templates/{}", blog["id"]),
            format!("/api/templates/{}/preview", blog["id"]),
        ] {
            expect_error(app.get(&user, &path).await, StatusCode::NOT_FOUND).await;
            assert_eq!(app.get(&admin, &path).await.status(), StatusCode::OK);
        }
        expect_error(
            app.get(&user, "/api/templates/999999").await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn owners_preview_published_templates_read_only_and_never_unpublished_ones(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let owner = app.register("dona@example.com").await;
        let admin = app.register("adm-preview@example.com").await;
        app.make_admin(&admin).await;
        let list = json_ok(app.get(&owner, "/api/templates").await).await;
        let ids: Vec<i64> = list
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect();
        let (shown, hidden) = (ids[0], ids[1]);

        // Any signed-in owner opens a published template's full preview: its pages, each page.
        let detail = json_ok(app.get(&owner, &format!("/api/templates/{shown}")).await).await;
        assert_eq!(detail["is_published"], "1");
        for page in detail["pages"].as_array().unwrap() {
            let slug = page["slug"].as_str().unwrap().replace('/', "%2F");
            let res = app
                .get(
                    &owner,
                    &format!("/api/templates/{shown}/preview?page={slug}"),
                )
                .await;
            assert_eq!(res.status(), StatusCode::OK, "{slug}");
            assert!(
                res.headers()["content-type"]
                    .to_str()
                    .unwrap()
                    .starts_with("text/html")
            );
        }
        // Read-only: the preview takes no writes, and the template's own calls stay the
        // administrators'.
        let res = app
            .post(
                &owner,
                &format!("/api/templates/{shown}/preview"),
                json!({}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
        expect_error(
            app.post(
                &owner,
                &format!("/erp/template/{shown}"),
                json!({"name": "Meu"}),
            )
            .await,
            StatusCode::FORBIDDEN,
        )
        .await;
        expect_error(
            app.get(&owner, &format!("/api/template-screenshot/{shown}"))
                .await,
            StatusCode::FORBIDDEN,
        )
        .await;

        // An unpublished template is nobody's to see but the administrators': 404, like one
        // that does not exist, for its details, its preview and its use.
        json_ok(
            app.post(
                &admin,
                &format!("/erp/template/{hidden}"),
                json!({"is_published": "0"}),
            )
            .await,
        )
        .await;
        for path in [
            format!("/api/templates/{hidden}"),
            format!("/api/templates/{hidden}/preview"),
        ] {
            expect_error(app.get(&owner, &path).await, StatusCode::NOT_FOUND).await;
            assert_eq!(app.get(&admin, &path).await.status(), StatusCode::OK);
        }
        expect_error(
            app.post(
                &owner,
                &format!("/api/templates/use/{hidden}"),
                json!({"name": "X"}),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);
