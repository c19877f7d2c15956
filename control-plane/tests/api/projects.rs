//! Projects: CRUD, validation with the spec's messages, server-owned fields, duplication
//! and the authorization policy.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::ids::{AccountId, ProjectId};
use vitrine_shared::{dual_test, store::Permissions, testing::Backend};

use crate::helpers::{TestApp, expect_error, json_ok};

dual_test!(
    async fn a_project_is_created_listed_read_updated_and_deleted(app: TestApp) {
        let s = app.register("owner@example.com").await;
        let p = app.create_project(&s, "Minha Loja").await;
        assert_eq!(p["slug"], "minha-loja");
        assert_eq!(p["is_published"], false);
        assert_eq!(p["preview_url"], "http://minha-loja.localhost:8080");
        assert_eq!(p["pages"][0]["slug"], "/");
        assert_eq!(p["meta"]["verified"], false);
        let id = p["id"].as_i64().unwrap();

        let list = json_ok(app.get(&s, "/api/projects").await).await;
        assert_eq!(list.as_array().unwrap().len(), 1);

        let updated = json_ok(app.post(&s, &format!("/api/projects/{id}"), json!({
            "name": "Loja Nova", "slug": "loja-nova", "meta": {"description": "Pães e doces", "defaultFont": {"family": "Lora", "variants": ["regular"]}}
        })).await).await;
        assert_eq!(updated["name"], "Loja Nova");
        assert_eq!(updated["slug"], "loja-nova");
        assert_eq!(updated["meta"]["description"], "Pães e doces");
        assert_eq!(updated["meta"]["defaultFont"]["family"], "Lora");

        let got = json_ok(app.get(&s, &format!("/api/projects/{id}")).await).await;
        assert_eq!(got["meta"]["description"], "Pães e doces");

        assert_eq!(
            app.delete(&s, &format!("/api/projects/{id}"))
                .await
                .status(),
            StatusCode::NO_CONTENT
        );
        expect_error(
            app.get(&s, &format!("/api/projects/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn project_input_is_validated_with_the_spec_messages(app: TestApp) {
        let s = app.register("v@example.com").await;
        let msg = expect_error(
            app.post(&s, "/api/projects", json!({"name": "  "})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Project name is required");
        let msg = expect_error(
            app.post(&s, "/api/projects", json!({"name": "X", "slug": "my site"}))
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Slug must contain only letters, numbers and dashes");

        let a = app.create_project(&s, "A").await;
        let b = app.create_project(&s, "B").await;
        let b_id = b["id"].as_i64().unwrap();
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/projects/{b_id}"),
                json!({"slug": a["slug"]}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(msg, "slug already in use");

        for bad in [
            "nope",
            "exa mple.com",
            "http://",
            "app.localhost",
            "1.2.3.4",
        ] {
            let msg = expect_error(
                app.post(&s, &format!("/api/projects/{b_id}"), json!({"domain": bad}))
                    .await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert_eq!(msg, "invalid domain", "{bad}");
        }
        let a_id = a["id"].as_i64().unwrap();
        let ok = json_ok(
            app.post(
                &s,
                &format!("/api/projects/{a_id}"),
                json!({"domain": "Loja.Example.com"}),
            )
            .await,
        )
        .await;
        assert_eq!(ok["domain"], "loja.example.com");
        let other = app.register("other@example.com").await;
        let c = app.create_project(&other, "C").await;
        // A pending domain reserves nothing; a verified one (and its www twin) is in use.
        let theirs = json_ok(
            app.post(
                &other,
                &format!("/api/projects/{}", c["id"]),
                json!({"domain": "www.loja.example.com"}),
            )
            .await,
        )
        .await;
        assert_eq!(theirs["domain"], "www.loja.example.com");
        app.store
            .mark_domain_verified(ProjectId(a_id), "loja.example.com")
            .await
            .unwrap();
        let msg = expect_error(
            app.post(
                &other,
                &format!("/api/projects/{}", c["id"]),
                json!({"domain": "loja.example.com"}),
            )
            .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(msg, "domain already in use");
        // Removing the domain.
        let removed = json_ok(
            app.post(
                &s,
                &format!("/api/projects/{a_id}"),
                json!({"domain": null}),
            )
            .await,
        )
        .await;
        assert!(removed["domain"].is_null());
        // A failed update changed nothing.
        let b_now = json_ok(app.get(&s, &format!("/api/projects/{b_id}")).await).await;
        assert_eq!(b_now["slug"], b["slug"]);
        assert_eq!(b_now["name"], "B");
    }
);

dual_test!(
    async fn clients_cannot_write_server_owned_fields(app: TestApp) {
        let s = app.register("owned@example.com").await;
        let p = app.create_project(&s, "Site").await;
        let id = p["id"].as_i64().unwrap();
        let res = json_ok(app.post(&s, &format!("/api/projects/{id}"), json!({
            "token": "mine", "is_published": true, "uuid": "x", "verifiedDomain": "evil.com",
            "meta": {"verified": true, "verifiedDomain": "evil.com", "verifiedTimestamp": "2020-01-01", "description": "d"}
        })).await).await;
        assert_eq!(res["token"], p["token"]);
        assert_eq!(res["uuid"], p["uuid"]);
        assert_eq!(res["is_published"], false);
        assert_eq!(res["meta"]["verified"], false);
        assert!(res["meta"]["verifiedDomain"].is_null());
        assert!(res["meta"]["verifiedTimestamp"].is_null());
        assert_eq!(res["meta"]["description"], "d");
    }
);

dual_test!(
    async fn integrations_need_token_and_pixel_when_enabled(app: TestApp) {
        let s = app.register("int@example.com").await;
        let id = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/projects/{id}"),
                json!({"meta": {"conversionApiEnabled": true}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Conversion API access token is required");
        let ok = json_ok(app.post(&s, &format!("/api/projects/{id}"), json!({"meta": {
            "conversionApiEnabled": true, "conversionApiAccessToken": "EAAB", "conversionApiPixelId": "1234567890"}})).await).await;
        assert_eq!(ok["meta"]["conversionApiPixelId"], "1234567890");
    }
);

dual_test!(
    async fn duplicating_copies_content_but_never_the_domain(app: TestApp) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("dup@example.com").await;
        let templates = json_ok(app.get(&s, "/api/templates").await).await;
        let blog = templates
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["category"] == "Blog")
            .unwrap()
            .clone();
        let p = json_ok(
            app.post(
                &s,
                &format!("/api/templates/use/{}", blog["id"]),
                json!({"name": "Meu Blog"}),
            )
            .await,
        )
        .await;
        let id = p["id"].as_i64().unwrap();
        json_ok(
            app.post(
                &s,
                &format!("/api/projects/{id}"),
                json!({"domain": "meublog.com.br"}),
            )
            .await,
        )
        .await;

        let copy = json_ok(
            app.post(&s, &format!("/api/projects/{id}/duplicate"), json!({}))
                .await,
        )
        .await;
        assert_ne!(copy["id"], p["id"]);
        assert_eq!(copy["name"], "Meu Blog (cópia)");
        assert!(copy["domain"].is_null());
        assert_eq!(copy["is_published"], false);
        assert_ne!(copy["token"], p["token"]);
        assert_eq!(
            copy["pages"].as_array().unwrap().len(),
            p["pages"].as_array().unwrap().len()
        );
        assert_eq!(
            copy["tables"].as_array().unwrap().len(),
            p["tables"].as_array().unwrap().len()
        );
        // Records were copied too: compare the exported content of both.
        let a = app.store.export_snapshot(ProjectId(id)).await.unwrap();
        let b = app
            .store
            .export_snapshot(ProjectId(copy["id"].as_i64().unwrap()))
            .await
            .unwrap();
        assert_eq!(a.tables, b.tables);
        assert_eq!(a.pages, b.pages);
        assert!(!b.tables[0].posts.is_empty());
        // A collection page stays bound to the copied collection.
        let bound = copy["pages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| !p["table_id"].is_null())
            .unwrap();
        let copied_table_ids: Vec<&Value> = copy["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["id"])
            .collect();
        assert!(copied_table_ids.contains(&&bound["table_id"]));
    }
);

dual_test!(
    async fn another_users_project_answers_not_found(app: TestApp) {
        let a = app.register("a@example.com").await;
        let b = app.register("b@example.com").await;
        let p = app.create_project(&a, "Privado").await;
        let id = p["id"].as_i64().unwrap();
        expect_error(
            app.get(&b, &format!("/api/projects/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.post(&b, &format!("/api/projects/{id}"), json!({"name": "x"}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.post(&b, &format!("/api/projects/{id}/duplicate"), json!({}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.delete(&b, &format!("/api/projects/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        // Identical to a project that does not exist.
        let missing = expect_error(
            app.get(&b, "/api/projects/999999").await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let hidden = expect_error(
            app.get(&b, &format!("/api/projects/{id}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(missing, hidden);
        assert_eq!(
            json_ok(app.get(&b, "/api/projects").await)
                .await
                .as_array()
                .unwrap()
                .len(),
            0
        );
        assert_eq!(
            json_ok(app.get(&a, &format!("/api/projects/{id}")).await).await["name"],
            "Privado"
        );
    }
);

dual_test!(
    async fn business_access_levels_decide_what_members_see(app: TestApp) {
        let owner = app.register("dona@example.com").await;
        let white = app.register("white@example.com").await;
        let black = app.register("black@example.com").await;
        let admin = app.register("gerente@example.com").await;
        let outsider = app.register("fora@example.com").await;
        let p1 = app.create_project(&owner, "Um").await["id"]
            .as_i64()
            .unwrap();
        let p2 = app.create_project(&owner, "Dois").await["id"]
            .as_i64()
            .unwrap();
        let biz = app.store.insert_business("Agência").await.unwrap();
        app.store
            .set_user_business(
                AccountId(owner.id()),
                Some(biz),
                false,
                &Permissions {
                    all_projects: Some(true),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        app.store
            .set_user_business(
                AccountId(white.id()),
                Some(biz),
                false,
                &Permissions {
                    projects_whitelist: Some(vec![ProjectId(p1)]),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        app.store
            .set_user_business(
                AccountId(black.id()),
                Some(biz),
                false,
                &Permissions {
                    projects_blacklist: Some(vec![ProjectId(p1)]),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        app.store
            .set_user_business(
                AccountId(admin.id()),
                Some(biz),
                true,
                &Permissions::default(),
            )
            .await
            .unwrap();

        let ids = |v: Value| -> Vec<i64> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_i64().unwrap())
                .collect()
        };
        assert_eq!(
            ids(json_ok(app.get(&white, "/api/projects").await).await),
            vec![p1]
        );
        assert_eq!(
            ids(json_ok(app.get(&black, "/api/projects").await).await),
            vec![p2]
        );
        let mut all = ids(json_ok(app.get(&admin, "/api/projects").await).await);
        all.sort();
        assert_eq!(all, vec![p1, p2]);
        assert!(ids(json_ok(app.get(&outsider, "/api/projects").await).await).is_empty());

        assert_eq!(
            app.get(&white, &format!("/api/projects/{p1}"))
                .await
                .status(),
            StatusCode::OK
        );
        expect_error(
            app.get(&white, &format!("/api/projects/{p2}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.get(&black, &format!("/api/projects/{p1}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.get(&outsider, &format!("/api/projects/{p1}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        // A platform admin reaches any project directly.
        let root = app.register("root@example.com").await;
        app.make_admin(&root).await;
        assert_eq!(
            app.get(&root, &format!("/api/projects/{p2}"))
                .await
                .status(),
            StatusCode::OK
        );
    }
);

#[tokio::test]
async fn project_slugs_derived_from_names_never_collide() {
    let app = TestApp::new(Backend::Sqlite).await;
    let s = app.register("slugs@example.com").await;
    let a = app.create_project(&s, "Café").await;
    let b = app.create_project(&s, "Cafe").await;
    assert_eq!(a["slug"], "cafe");
    assert_eq!(b["slug"], "cafe-2");
}
