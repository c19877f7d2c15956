//! Business users: a business administrator manages the members of their own business and
//! their access level, which the server enforces on every project call.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::ids::AccountId;
use vitrine_shared::{dual_test, store::Permissions};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

async fn business_admin(app: &TestApp, email: &str, business: &str) -> Session {
    let s = app.register(email).await;
    let b = app.store.insert_business(business).await.unwrap();
    app.store
        .set_user_business(AccountId(s.id()), Some(b), true, &Permissions::default())
        .await
        .unwrap();
    s
}

async fn project_ids(app: &TestApp, s: &Session) -> Vec<i64> {
    let list = json_ok(app.get(s, "/api/projects").await).await;
    let mut ids: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    ids
}

dual_test!(
    async fn business_admins_manage_members_whose_access_level_the_server_enforces(app: TestApp) {
        let carla = business_admin(&app, "carla@example.com", "Agência X").await;
        let p1 = app.create_project(&carla, "Cliente 1").await["id"]
            .as_i64()
            .unwrap();
        let p2 = app.create_project(&carla, "Cliente 2").await["id"]
            .as_i64()
            .unwrap();
        let outsider = app.register("out@example.com").await;
        let foreign = app.create_project(&outsider, "Alheio").await["id"]
            .as_i64()
            .unwrap();

        // Bad input: the reason, and nothing created.
        let user = |extra: Value| {
            let mut body =
                json!({"name": "Dan", "email": "dan@example.com", "password": "senha-do-dan-1"});
            body.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            body
        };
        for (body, status, message) in [
            (
                user(json!({"password": ""})),
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
            ),
            (
                user(json!({"name": " ", "permissions": {"all_projects": true}})),
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Name is required"),
            ),
            (
                user(json!({"email": "nope", "permissions": {"all_projects": true}})),
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("invalid e-mail"),
            ),
            (
                user(json!({"permissions": {}})),
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
            ),
            (
                user(json!({"permissions": {"all_projects": true, "projects_whitelist": [p1]}})),
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
            ),
            (
                user(json!({"permissions": {"projects_whitelist": [foreign]}})),
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(&*Box::leak(
                    format!("Project {foreign} is not one of the business's projects")
                        .into_boxed_str(),
                )),
            ),
            (
                user(json!({"email": "out@example.com", "permissions": {"all_projects": true}})),
                StatusCode::CONFLICT,
                Some("email already in use"),
            ),
        ] {
            let msg =
                expect_error(app.post(&carla, "/api/business/users", body).await, status).await;
            if let Some(m) = message {
                assert_eq!(msg, m);
            }
        }
        assert_eq!(
            json_ok(app.get(&carla, "/api/business/users").await)
                .await
                .as_array()
                .unwrap()
                .len(),
            1
        );

        // A whitelist member sees only the listed project, everywhere.
        let res = app
            .post(
                &carla,
                "/api/business/users",
                user(json!({"permissions": {"projects_whitelist": [p1, p1]}})),
            )
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        let dan_view: Value = res.json().await.unwrap();
        assert_eq!(dan_view["permissions"], json!({"projects_whitelist": [p1]}));
        assert_eq!(dan_view["is_business_admin"], false);
        let dan_id = dan_view["id"].as_i64().unwrap();
        let dan = app.sign_in("dan@example.com", "senha-do-dan-1").await;
        assert_eq!(project_ids(&app, &dan).await, [p1]);
        json_ok(app.get(&dan, &format!("/api/projects/{p1}")).await).await;
        expect_error(
            app.get(&dan, &format!("/api/projects/{p2}")).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            app.get(&dan, &format!("/api/projects/{p2}/redirects"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        json_ok(
            app.get(&dan, &format!("/api/projects/{p1}/redirects"))
                .await,
        )
        .await;
        let msg = expect_error(
            app.get(&dan, "/api/business/users").await,
            StatusCode::FORBIDDEN,
        )
        .await;
        assert_eq!(msg, "Business administrators only");

        // Edited to a blacklist, password kept: the other project instead.
        let edited = json_ok(
            app.post(&carla, &format!("/api/business/users/{dan_id}"),
                json!({"name": "Dan Souza", "email": "dan@example.com", "password": "", "permissions": {"projects_blacklist": [p1]}}))
                .await,
        )
        .await;
        assert_eq!(
            (edited["name"].as_str(), &edited["permissions"]),
            (Some("Dan Souza"), &json!({"projects_blacklist": [p1]}))
        );
        let dan = app.sign_in("dan@example.com", "senha-do-dan-1").await;
        assert_eq!(project_ids(&app, &dan).await, [p2]);
        let loaded = json_ok(
            app.get(&carla, &format!("/api/business/users/{dan_id}"))
                .await,
        )
        .await;
        assert_eq!(loaded["email"], "dan@example.com");

        // All projects; then business administrator.
        json_ok(app.post(&carla, &format!("/api/business/users/{dan_id}"),
            json!({"name": "Dan", "email": "dan@example.com", "permissions": {"all_projects": true}})).await).await;
        assert_eq!(project_ids(&app, &dan).await, [p1, p2]);
        let admin = json_ok(app.post(&carla, &format!("/api/business/users/{dan_id}"),
            json!({"name": "Dan", "email": "dan@example.com", "is_business_admin": true, "permissions": {"all_projects": true}})).await).await;
        assert_eq!(
            (admin["is_business_admin"].as_bool(), &admin["permissions"]),
            (Some(true), &json!({}))
        );

        // Nobody reaches another business's members; nobody demotes themselves.
        let other = business_admin(&app, "eva@example.com", "Outra").await;
        expect_error(
            app.get(&other, &format!("/api/business/users/{dan_id}"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(app.post(&other, &format!("/api/business/users/{dan_id}"),
            json!({"name": "x", "email": "dan@example.com", "permissions": {"all_projects": true}})).await, StatusCode::NOT_FOUND).await;
        assert_eq!(
            json_ok(app.get(&other, "/api/business/users").await)
                .await
                .as_array()
                .unwrap()
                .len(),
            1
        );
        let msg = expect_error(app.post(&carla, &format!("/api/business/users/{}", carla.id()),
            json!({"name": "Carla", "email": "carla@example.com", "permissions": {"all_projects": true}})).await, StatusCode::CONFLICT).await;
        assert_eq!(msg, "You cannot remove your own administrator access");
        expect_error(
            app.get(&outsider, "/api/business/users").await,
            StatusCode::FORBIDDEN,
        )
        .await;
    }
);
