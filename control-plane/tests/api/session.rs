//! Accounts and sessions.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use vitrine_shared::{dual_test, testing::Backend};

use crate::{
    helpers::{TestApp, expect_error, json_ok},
    smtp,
};

dual_test!(
    async fn registering_signs_the_user_in(app: TestApp) {
        let s = app.register("Ana@Example.com").await;
        assert_eq!(s.user["email"], "ana@example.com");
        assert_eq!(s.user["language"], "pt-BR");
        assert_eq!(s.user["is_admin"], false);
        let me = json_ok(app.get(&s, "/api/user").await).await;
        assert_eq!(me["id"], s.user["id"]);
    }
);

dual_test!(
    async fn emails_are_unique_whatever_their_case(app: TestApp) {
        app.register("maria@example.com").await;
        let res = TestApp::client()
            .post(app.url("/api/register"))
            .json(&json!({"name": "M", "email": "MARIA@example.com", "password": "outra-senha-1"}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            expect_error(res, StatusCode::CONFLICT).await,
            "email already in use"
        );
    }
);

dual_test!(
    async fn registration_is_validated(app: TestApp) {
        let c = TestApp::client();
        for (body, field_message) in [
            (
                json!({"name": "", "email": "a@example.com", "password": "12345678"}),
                "Name is required",
            ),
            (
                json!({"name": "A", "email": "not-an-email", "password": "12345678"}),
                "invalid e-mail",
            ),
            (
                json!({"name": "A", "email": "a@example.com", "password": "short"}),
                "Password must be at least 8 characters",
            ),
        ] {
            let res = c
                .post(app.url("/api/register"))
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(
                expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await,
                field_message
            );
        }
        assert!(
            app.store
                .user_by_email("a@example.com")
                .await
                .unwrap()
                .is_none()
        );
    }
);

dual_test!(
    async fn sign_in_checks_the_password_and_sign_out_ends_the_session(app: TestApp) {
        app.register("joao@example.com").await;
        let c = TestApp::client();
        let bad = c
            .post(app.url("/api/login"))
            .json(&json!({"email": "joao@example.com", "password": "wrong-password"}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY).await,
            "invalid e-mail or password"
        );
        let nobody = c
            .post(app.url("/api/login"))
            .json(&json!({"email": "nobody@example.com", "password": "senha-segura-1"}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            expect_error(nobody, StatusCode::UNPROCESSABLE_ENTITY).await,
            "invalid e-mail or password"
        );

        let ok = c
            .post(app.url("/api/login"))
            .json(&json!({"email": "JOAO@example.com", "password": "senha-segura-1"}))
            .send()
            .await
            .unwrap();
        assert_eq!(ok.status(), StatusCode::OK);
        let cookie = ok.headers()["set-cookie"].to_str().unwrap().to_string();
        assert!(cookie.starts_with("__Host-vitrine_session="), "{cookie}");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        assert!(cookie.contains("SameSite=Lax"), "{cookie}");
        assert_eq!(
            c.get(app.url("/api/user")).send().await.unwrap().status(),
            StatusCode::OK
        );

        assert_eq!(
            c.get(app.url("/api/logout")).send().await.unwrap().status(),
            StatusCode::NO_CONTENT
        );
        let res = c.get(app.url("/api/user")).send().await.unwrap();
        expect_error(res, StatusCode::UNAUTHORIZED).await;
    }
);

dual_test!(
    async fn sign_in_attempts_are_rate_limited_per_account(app: TestApp) {
        app.register("limit@example.com").await;
        let c = TestApp::client();
        let attempt = || {
            c.post(app.url("/api/login"))
                .json(&json!({"email": "limit@example.com", "password": "nope-nope"}))
                .send()
        };
        for _ in 0..10 {
            assert_eq!(
                attempt().await.unwrap().status(),
                StatusCode::UNPROCESSABLE_ENTITY
            );
        }
        let res = attempt().await.unwrap();
        assert!(res.headers().contains_key("retry-after"));
        let message = expect_error(res, StatusCode::TOO_MANY_REQUESTS).await;
        assert!(
            message.starts_with("Too many sign-in attempts"),
            "{message}"
        );
    }
);

dual_test!(
    async fn state_changing_calls_from_another_origin_are_refused(app: TestApp) {
        let s = app.register("csrf@example.com").await;
        let res = s
            .client
            .post(app.url("/api/projects"))
            .header("origin", "https://evil.example")
            .json(&json!({"name": "Pwned"}))
            .send()
            .await
            .unwrap();
        assert_eq!(
            expect_error(res, StatusCode::FORBIDDEN).await,
            "Cross-origin request refused"
        );
        let res = s
            .client
            .get(app.url("/api/logout"))
            .header("sec-fetch-site", "cross-site")
            .send()
            .await
            .unwrap();
        expect_error(res, StatusCode::FORBIDDEN).await;
        // Still signed in, and nothing was created.
        let list = json_ok(app.get(&s, "/api/projects").await).await;
        assert_eq!(list.as_array().unwrap().len(), 0);
        // The same call from the dashboard's own origin works.
        let res = s
            .client
            .post(app.url("/api/projects"))
            .header("origin", &app.base)
            .json(&json!({"name": "Ok"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
    }
);

dual_test!(
    async fn trust_flags_cannot_be_set_by_the_user(app: TestApp) {
        let res = TestApp::client()
            .post(app.url("/api/register"))
            .json(&json!({"name": "E", "email": "e@example.com", "password": "senha-segura-1",
                          "is_admin": true, "is_business_admin": true, "business_id": 7, "permissions": {"all_projects": true}}))
            .send()
            .await
            .unwrap();
        let user = json_ok(res).await;
        assert_eq!(user["is_admin"], false);
        assert_eq!(user["is_business_admin"], false);
        assert!(user["business_id"].is_null());
        assert_eq!(user["permissions"], json!({}));
    }
);

/// The next mail past the sign-in address confirmation that registering sends.
async fn wait_for_mail(sink: &mut smtp::SmtpSink) -> String {
    loop {
        let mail = tokio::time::timeout(Duration::from_secs(20), sink.messages.recv())
            .await
            .expect("mail arrives")
            .expect("open");
        if !mail.replace("=\n", "").contains("/confirm-email?token=") {
            return mail;
        }
    }
}

fn link_in(mail: &str) -> (String, String) {
    // Undo quoted-printable soft breaks so the link is whole.
    let text = mail.replace("=\n", "").replace("=3D", "=");
    let start = text.find("/new-password?").expect("reset link in mail");
    let link: String = text[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    let url = url::Url::parse(&format!("http://x{link}")).unwrap();
    let q: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    (q["email"].clone(), q["token"].clone())
}

#[tokio::test]
async fn password_reset_mails_a_single_use_link_over_smtp_sqlite() {
    password_reset_flow(Backend::Sqlite).await
}

#[tokio::test]
async fn password_reset_mails_a_single_use_link_over_smtp_postgres() {
    password_reset_flow(Backend::Postgres).await
}

async fn password_reset_flow(backend: Backend) {
    let mut sink = smtp::start().await;
    let smtp_url = sink.url.clone();
    let app = TestApp::with(backend, |s| {
        s.smtp_url = Some(vitrine_shared::secret::Secret::new(smtp_url))
    })
    .await;
    app.register("reset@example.com").await;
    let c = TestApp::client();
    let res = c
        .post(app.url("/api/forgot"))
        .json(&json!({"email": "reset@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(json_ok(res).await["message"], "mensagem enviada");
    let mail = wait_for_mail(&mut sink).await;
    assert!(mail.contains("reset@example.com"));
    let (email, token) = link_in(&mail);
    assert_eq!(email, "reset@example.com");

    let body = json!({"email": email, "password": "nova-senha-123", "token": token});
    let res = c
        .post(app.url("/api/new-password"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_ok(res).await["message"],
        "New password successfully set"
    );
    // Single use.
    let res = c
        .post(app.url("/api/new-password"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(
        expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await,
        "This password reset link is invalid or has expired"
    );
    // The new password works, the old one does not.
    let ok = c
        .post(app.url("/api/login"))
        .json(&json!({"email": "reset@example.com", "password": "nova-senha-123"}))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    let old = c
        .post(app.url("/api/login"))
        .json(&json!({"email": "reset@example.com", "password": "senha-segura-1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // The reset and the address's confirmation, both delivered.
    crate::helpers::eventually(|| async { app.store.outbox_counts().await.unwrap() == (0, 2) })
        .await;
}

dual_test!(
    async fn forgot_answers_the_same_for_unknown_accounts_and_sends_nothing(app: TestApp) {
        let res = TestApp::client()
            .post(app.url("/api/forgot"))
            .json(&json!({"email": "ghost@example.com"}))
            .send()
            .await
            .unwrap();
        assert_eq!(json_ok(res).await["message"], "mensagem enviada");
        assert_eq!(app.store.outbox_counts().await.unwrap(), (0, 0));
    }
);

#[tokio::test]
async fn expired_reset_links_are_refused() {
    let app = TestApp::with(Backend::Sqlite, |s| s.reset_token_ttl_secs = 0).await;
    app.register("late@example.com").await;
    let c = TestApp::client();
    c.post(app.url("/api/forgot"))
        .json(&json!({"email": "late@example.com"}))
        .send()
        .await
        .unwrap();
    // Without SMTP the mail goes to the log; read the link from the outbox.
    let mail = app
        .store
        .mail_to("late@example.com")
        .await
        .unwrap()
        .pop()
        .unwrap();
    let (email, token) = link_in(&mail.body);
    let res = c
        .post(app.url("/api/new-password"))
        .json(&json!({"email": email, "password": "nova-senha-123", "token": token}))
        .send()
        .await
        .unwrap();
    expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
}

dual_test!(
    async fn without_smtp_mail_is_written_to_the_log_and_marked_sent(app: TestApp) {
        app.register("log@example.com").await;
        TestApp::client()
            .post(app.url("/api/forgot"))
            .json(&json!({"email": "log@example.com"}))
            .send()
            .await
            .unwrap();
        // The worker wakes on enqueue and delivers to the log: the address's confirmation
        // (sent at registration) and the reset.
        crate::helpers::eventually(|| async { app.store.outbox_counts().await.unwrap() == (0, 2) })
            .await;
    }
);

#[tokio::test]
async fn mail_that_cannot_be_delivered_stays_queued_for_a_retry() {
    // A loopback port with nothing listening: every attempt fails.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let app = TestApp::with(Backend::Sqlite, |s| {
        s.smtp_url = Some(vitrine_shared::secret::Secret::new(format!(
            "smtp://{closed}"
        )))
    })
    .await;
    app.register("retry@example.com").await;
    TestApp::client()
        .post(app.url("/api/forgot"))
        .json(&json!({"email": "retry@example.com"}))
        .send()
        .await
        .unwrap();
    // The address's confirmation (sent at registration) and the reset.
    crate::helpers::eventually(|| async {
        let mails = app.store.mail_to("retry@example.com").await.unwrap();
        mails.len() == 2 && mails.iter().all(|m| m.attempts == 1)
    })
    .await;
    // Still pending, scheduled for later rather than dropped.
    assert_eq!(app.store.outbox_counts().await.unwrap(), (2, 0));
    assert_eq!(
        vitrine_control::mail::deliver_due(app.app.state())
            .await
            .unwrap(),
        0
    );
}

dual_test!(
    async fn changing_the_password_needs_the_current_one_and_ends_the_other_sessions(app: TestApp) {
        let here = app.register("troca@example.com").await;
        let laptop = app.sign_in("troca@example.com", "senha-segura-1").await;
        let change = |current: &str, new: &str| {
            app.post(
                &here,
                "/api/user/password",
                json!({"current_password": current, "new_password": new}),
            )
        };

        // A wrong current password, a too-short new one: nothing changes, nobody is signed out.
        let res = change("not-my-password", "nova-senha-123").await;
        assert_eq!(
            expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await,
            "The current password is not right"
        );
        let res = change("senha-segura-1", "curta").await;
        let body: serde_json::Value = res.json().await.unwrap();
        assert_eq!(
            (body["error"].as_str(), body["field"].as_str()),
            (Some("password_too_short"), Some("new_password"))
        );
        assert_eq!(app.get(&laptop, "/api/user").await.status(), StatusCode::OK);

        json_ok(change("senha-segura-1", "nova-senha-123").await).await;
        // This session stays; the laptop's ends; the old password no longer signs in.
        assert_eq!(app.get(&here, "/api/user").await.status(), StatusCode::OK);
        expect_error(
            app.get(&laptop, "/api/user").await,
            StatusCode::UNAUTHORIZED,
        )
        .await;
        let old = TestApp::client()
            .post(app.url("/api/login"))
            .json(&json!({"email": "troca@example.com", "password": "senha-segura-1"}))
            .send()
            .await
            .unwrap();
        expect_error(old, StatusCode::UNPROCESSABLE_ENTITY).await;
        app.sign_in("troca@example.com", "nova-senha-123").await;
    }
);

dual_test!(
    async fn a_stolen_session_cannot_guess_the_current_password_at_leisure(app: TestApp) {
        let thief = app.register("vitima@example.com").await;
        for _ in 0..10 {
            let res = app
                .post(
                    &thief,
                    "/api/user/password",
                    json!({"current_password": "palpite-errado", "new_password": "tomada-123"}),
                )
                .await;
            assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        }
        let res = app
            .post(
                &thief,
                "/api/user/password",
                json!({"current_password": "senha-segura-1", "new_password": "tomada-123"}),
            )
            .await;
        // Even the right guess is refused once the limiter has tripped.
        expect_error(res, StatusCode::TOO_MANY_REQUESTS).await;
    }
);

dual_test!(
    async fn an_administrator_signed_in_as_a_user_cannot_change_their_password(app: TestApp) {
        let admin = app.register("adm-senha@example.com").await;
        app.make_admin(&admin).await;
        let ana = app.register("ana-senha@example.com").await;
        json_ok(
            app.post(&admin, &format!("/api/loginWith/{}", ana.id()), json!({}))
                .await,
        )
        .await;
        let res = app
            .post(
                &admin,
                "/api/user/password",
                json!({"current_password": "senha-segura-1", "new_password": "do-admin-123"}),
            )
            .await;
        expect_error(res, StatusCode::FORBIDDEN).await;
        app.sign_in("ana-senha@example.com", "senha-segura-1").await;
    }
);
