//! Templates.

use reqwest::StatusCode;
use serde_json::json;
use vitrine_shared::dual_test;

use crate::helpers::{TestApp, expect_error, json_ok};

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
