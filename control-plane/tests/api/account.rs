//! The own account (settings, plans, balance and history) and the administrator's users
//! screen with 'login as' and the way back.

use reqwest::StatusCode;
use serde_json::json;
use vitrine_shared::{billing::Month, dual_test};

use crate::helpers::{TestApp, expect_error, json_ok};

dual_test!(
    async fn the_account_shows_its_plan_balance_and_history_by_month_and_day(app: TestApp) {
        let ana = app.register("ana@example.com").await;
        let me = json_ok(app.get(&ana, "/api/user").await).await;
        assert_eq!(
            (me["plan"].as_str(), me["has_card"].as_bool()),
            (Some("basic"), Some(false))
        );
        assert_eq!(me["currency"], "BRL");

        // Settings: bad values are refused with the reason, nothing changes.
        for (body, field) in [
            (json!({"name": "  "}), "Name is required"),
            (json!({"language": "fr"}), "Language must be pt-BR or en"),
            (json!({"currency": "EUR"}), "Currency must be BRL or USD"),
        ] {
            let msg = expect_error(
                app.post(&ana, "/api/user", body).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert_eq!(msg, field);
        }
        let me = json_ok(
            app.post(
                &ana,
                "/api/user",
                json!({"name": "Ana Lima", "language": "en", "currency": "USD"}),
            )
            .await,
        )
        .await;
        assert_eq!(
            (
                me["name"].as_str(),
                me["language"].as_str(),
                me["currency"].as_str()
            ),
            (Some("Ana Lima"), Some("en"), Some("USD"))
        );
        json_ok(
            app.post(&ana, "/api/user", json!({"currency": "BRL"}))
                .await,
        )
        .await;

        // A published site is charged when the month is billed.
        let p = app.create_project(&ana, "Loja").await;
        json_ok(
            app.post(
                &ana,
                &format!("/api/publish_v2/{}", p["id"]),
                json!({"project_id": p["id"], "token": "x"}),
            )
            .await,
        )
        .await;
        let at = chrono::Utc::now();
        let month = Month::of(at);
        assert_eq!(app.store.run_billing(month, at).await.unwrap(), 1);
        let balance = json_ok(app.get(&ana, "/api/transactions/balance").await).await;
        assert_eq!(balance, json!({"amount": -3000, "currency": "BRL"}));
        let history = json_ok(app.get(&ana, &format!("/api/transactions/{month}")).await).await;
        let day = at.format("%Y-%m-%d").to_string();
        assert_eq!(history["total"], -3000);
        assert_eq!(
            history["days"],
            json!([{"date": day, "total": -3000, "count": 1}])
        );
        let rows = json_ok(
            app.get(
                &ana,
                &format!("/api/transactions/{month}/{}", at.format("%d")),
            )
            .await,
        )
        .await;
        assert_eq!(rows.as_array().unwrap().len(), 1);
        assert_eq!(rows[0]["description"], format!("Site Loja — {month}"));
        assert_eq!(
            (rows[0]["amount"].as_i64(), rows[0]["currency"].as_str()),
            (Some(-3000), Some("BRL"))
        );
        let empty = json_ok(
            app.get(&ana, &format!("/api/transactions/{}", month.previous()))
                .await,
        )
        .await;
        assert_eq!(empty["days"], json!([]));

        // Once billed, the currency is fixed.
        let msg = expect_error(
            app.post(&ana, "/api/user", json!({"currency": "USD"}))
                .await,
            StatusCode::CONFLICT,
        )
        .await;
        assert_eq!(
            msg,
            "The currency cannot change once the account has transactions"
        );

        // Another account sees only its own ledger.
        let bob = app.register("bob@example.com").await;
        let theirs = json_ok(app.get(&bob, "/api/transactions/balance").await).await;
        assert_eq!(theirs["amount"], 0);
        let rows = json_ok(
            app.get(
                &bob,
                &format!("/api/transactions/{month}/{}", at.format("%d")),
            )
            .await,
        )
        .await;
        assert_eq!(rows, json!([]));

        for bad in [
            "/api/transactions/2026-13",
            "/api/transactions/nope",
            "/api/transactions/2026-02/30",
            "/api/transactions/2026-02/1",
        ] {
            expect_error(app.get(&ana, bad).await, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
        let plans = json_ok(app.get(&ana, "/api/plans").await).await;
        let agency_brl = plans
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["plan"] == "agency" && p["currency"] == "BRL")
            .unwrap();
        assert_eq!(
            (
                agency_brl["monthly_fee"].as_i64(),
                agency_brl["per_site"].as_i64()
            ),
            (Some(37000), Some(2000))
        );
    }
);

dual_test!(
    async fn administrators_sign_in_as_a_user_and_back_and_it_is_audited(app: TestApp) {
        let admin = app.register("adm@example.com").await;
        app.make_admin(&admin).await;
        let ana = app.register("ana@example.com").await;
        let p = app.create_project(&ana, "Da Ana").await;

        // Not for users.
        let msg = expect_error(app.get(&ana, "/api/users").await, StatusCode::FORBIDDEN).await;
        assert_eq!(msg, "Administrators only");
        expect_error(
            app.post(&ana, &format!("/api/loginWith/{}", admin.id()), json!({}))
                .await,
            StatusCode::FORBIDDEN,
        )
        .await;
        expect_error(
            app.post(&ana, "/api/loginBack", json!({})).await,
            StatusCode::FORBIDDEN,
        )
        .await;

        let users = json_ok(app.get(&admin, "/api/users").await).await;
        let emails: Vec<&str> = users
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["email"].as_str().unwrap())
            .collect();
        assert_eq!(emails, ["adm@example.com", "ana@example.com"]);
        assert!(users[0]["created_at"].is_string() && users[0]["id"].is_i64());
        expect_error(
            app.post(&admin, "/api/loginWith/999999", json!({})).await,
            StatusCode::NOT_FOUND,
        )
        .await;

        // Signed in as Ana: her projects, her account, a banner's worth of information.
        let me = json_ok(
            app.post(&admin, &format!("/api/loginWith/{}", ana.id()), json!({}))
                .await,
        )
        .await;
        assert_eq!(
            (me["email"].as_str(), me["impersonator_id"].as_i64()),
            (Some("ana@example.com"), Some(admin.id()))
        );
        let me = json_ok(app.get(&admin, "/api/user").await).await;
        assert_eq!(me["email"], "ana@example.com");
        assert_eq!(me["is_admin"], false);
        let projects = json_ok(app.get(&admin, "/api/projects").await).await;
        assert!(
            projects
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["id"] == p["id"])
        );
        expect_error(app.get(&admin, "/api/users").await, StatusCode::FORBIDDEN).await;

        // And back.
        let me = json_ok(app.post(&admin, "/api/loginBack", json!({})).await).await;
        assert_eq!(me["email"], "adm@example.com");
        assert!(me.get("impersonator_id").is_none());
        json_ok(app.get(&admin, "/api/users").await).await;
        expect_error(
            app.post(&admin, "/api/loginBack", json!({})).await,
            StatusCode::FORBIDDEN,
        )
        .await;

        let log = app.store.audit_log(10).await.unwrap();
        let actions: Vec<(i64, &str, Option<i64>)> = log
            .iter()
            .map(|(a, act, s, _)| (*a, act.as_str(), *s))
            .collect();
        assert_eq!(
            actions,
            [
                (admin.id(), "login_back", Some(ana.id())),
                (admin.id(), "login_as", Some(ana.id()))
            ]
        );
    }
);
