//! Form notifications go only to confirmed addresses (no open mail relay); form history is
//! capped per project.
//!
//! The edge's part is played by the store call the edge makes for each submission
//! (`Store::store_submission`, with the recipient the published manifest names: the
//! project's `formEmail`); the mail goes out through the control plane's real outbox worker
//! to a real SMTP server on loopback.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    store::{NewSubmission, Notification, now},
    testing::Backend,
};

use crate::{
    helpers::{TestApp, expect_error, json_ok},
    smtp::{self, SmtpSink},
};

/// A control plane whose outbox goes to an SMTP server the test reads.
struct MailApp {
    app: TestApp,
    sink: SmtpSink,
}

impl MailApp {
    async fn new(backend: Backend) -> MailApp {
        let sink = smtp::start().await;
        let url = sink.url.clone();
        let app = TestApp::with(backend, |s| {
            s.smtp_url = Some(vitrine_shared::secret::Secret::new(url));
        })
        .await;
        MailApp { app, sink }
    }

    /// The next message the SMTP server receives (within 20 s), past the accounts' own
    /// sign-in address confirmations (registering sends one; `hostile::mail` tests those).
    async fn next_mail(&mut self) -> String {
        loop {
            let raw = tokio::time::timeout(Duration::from_secs(20), self.sink.messages.recv())
                .await
                .expect("a mail arrives")
                .expect("the SMTP server runs");
            let mail = plain(&raw);
            if !mail.contains("/confirm-email?token=") {
                return mail;
            }
        }
    }
}

/// A submission to `project` as the edge records it, for the recipient `to` the published
/// form settings name; `n` orders them in time.
fn submission(project: i64, n: i64, to: &str, text: &str) -> NewSubmission {
    NewSubmission {
        uid: format!("{project}-{n}-{text}"),
        project_id: ProjectId(project),
        url: "/contato".into(),
        submit: String::new(),
        to: to.into(),
        subject: format!("Contato {n}"),
        data: format!("<dl><dt>mensagem</dt><dd>{text}</dd></dl>"),
        created_at: now() + chrono::Duration::seconds(n),
    }
}

/// What the edge does with a visitor's submission: stores it and, if allowed, queues its
/// notification. Returns whether the notification was queued.
async fn visitor_submits(app: &TestApp, project: i64, to: &str, text: &str) -> bool {
    let stored = app
        .store
        .store_submission(
            &submission(project, 0, to, text),
            Some(Notification {
                subject: "Novo contato",
                text: &format!("mensagem: {text}\n"),
                html: &format!("<table><tr><th>mensagem</th><td>{text}</td></tr></table>"),
                per_recipient_per_hour: app
                    .app
                    .state()
                    .settings
                    .form_notifications_per_recipient_per_hour
                    as i64,
            }),
            10_000,
        )
        .await
        .unwrap();
    assert!(stored.new);
    app.app.state().mail.wake();
    stored.notified
}

/// A received message with its quoted-printable soft breaks and `=` undone.
fn plain(mail: &str) -> String {
    mail.replace("=\n", "").replace("=3D", "=")
}

/// The token of the confirmation link in `mail`.
fn token_in(mail: &str) -> String {
    let start = mail
        .find("/confirm-form-email?token=")
        .unwrap_or_else(|| panic!("no confirmation link in {mail}"));
    mail[start + "/confirm-form-email?token=".len()..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

async fn confirm(app: &TestApp, token: &str) -> reqwest::Response {
    TestApp::client()
        .post(app.url("/api/form-email/confirm"))
        .json(&json!({ "token": token }))
        .send()
        .await
        .unwrap()
}

dual_test! {
    async fn an_unconfirmed_form_email_gets_no_notification_and_a_confirmed_one_does(m: MailApp) {
        let mut m = m;
        let owner = m.app.register("dona-forms@example.com").await;
        let project = m.app.create_project(&owner, "Loja da Dona").await["id"]
            .as_i64()
            .unwrap();
        let path = format!("/api/projects/{project}/form-email");
        // The owner types somebody else's address.
        let v = json_ok(
            m.app
                .post(&owner, &path, json!({"email": "Vendas@Loja.Example"}))
                .await,
        )
        .await;
        assert_eq!(
            (v["status"].as_str(), v["recipient"].as_str()),
            (Some("pending"), Some("vendas@loja.example"))
        );
        assert!(v["requested_at"].is_string(), "{v}");
        // That address gets a confirmation e-mail with a link, nothing else.
        let mail = m.next_mail().await;
        assert!(mail.contains("vendas@loja.example"), "{mail}");
        assert!(mail.contains("Loja da Dona"), "{mail}");
        let token = token_in(&mail);

        // A visitor's submission meanwhile: in the history, but no notification is queued.
        assert!(!visitor_submits(&m.app, project, "vendas@loja.example", "antes").await);
        let queued = m.app.store.mail_to("vendas@loja.example").await.unwrap();
        assert_eq!(queued.len(), 1, "only the confirmation e-mail");
        assert!(!queued[0].body.contains("antes"));
        let h = json_ok(
            m.app
                .get(&owner, &format!("/api/projects/{project}/form-history"))
                .await,
        )
        .await;
        assert_eq!(h["history"]["total"], 1);

        // Nobody but the mailbox can confirm: a guessed token, and another account, get nothing.
        expect_error(
            confirm(&m.app, "guessed-token").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        let other = m.app.register("intrusa-forms@example.com").await;
        expect_error(m.app.get(&other, &path).await, StatusCode::NOT_FOUND).await;
        expect_error(
            m.app
                .post(&other, &format!("{path}/resend"), json!({}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        let seen = m
            .app
            .get(&owner, &format!("/api/projects/{project}"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            !seen.contains(&token),
            "the token is never shown to the owner"
        );
        assert_eq!(
            json_ok(m.app.get(&owner, &path).await).await["status"],
            "pending"
        );

        // The mailbox confirms from its link; from then on notifications are sent.
        let done = json_ok(confirm(&m.app, &token).await).await;
        assert_eq!(
            done,
            json!({"email": "vendas@loja.example", "site": "Loja da Dona"})
        );
        expect_error(
            confirm(&m.app, &token).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(
            json_ok(m.app.get(&owner, &path).await).await["status"],
            "confirmed"
        );
        assert!(visitor_submits(&m.app, project, "vendas@loja.example", "depois").await);
        let mail = m.next_mail().await;
        assert!(
            mail.contains("vendas@loja.example") && mail.contains("depois"),
            "{mail}"
        );
        assert!(
            !mail.contains("antes"),
            "what came before the confirmation is not sent: {mail}"
        );
        // Text and HTML alternatives, the fields as a table in the HTML one.
        assert!(mail.contains("multipart/alternative"), "{mail}");
        assert!(mail.contains("Content-Type: text/plain"), "{mail}");
        assert!(mail.contains("Content-Type: text/html"), "{mail}");
        assert!(
            mail.contains("<table><tr><th>mensagem</th><td>depois</td></tr></table>"),
            "{mail}"
        );

        // Confirmed for this project only: another project of the same owner asks again.
        let second = m.app.create_project(&owner, "Outra Loja").await["id"]
            .as_i64()
            .unwrap();
        assert!(!visitor_submits(&m.app, second, "vendas@loja.example", "outra").await);
    }
}

dual_test! {
    async fn confirmation_emails_cannot_be_used_to_flood_an_address(app: TestApp) {
        let owner = app.register("dono-flood@example.com").await;
        let project = app.create_project(&owner, "Loja").await["id"]
            .as_i64()
            .unwrap();
        let path = format!("/api/projects/{project}/form-email");
        json_ok(
            app.post(&owner, &path, json!({"email": "alvo@vitima.example"}))
                .await,
        )
        .await;
        // Resending at once is refused, and nothing more is queued.
        let res = app.post(&owner, &format!("{path}/resend"), json!({})).await;
        assert!(res.headers().contains_key("retry-after"));
        expect_error(res, StatusCode::TOO_MANY_REQUESTS).await;
        // Setting the same address again (or the project form's formEmail) sends nothing new.
        json_ok(
            app.post(&owner, &path, json!({"email": "alvo@vitima.example"}))
                .await,
        )
        .await;
        json_ok(
            app.post(
                &owner,
                &format!("/api/projects/{project}"),
                json!({"meta": {"formEmail": "alvo@vitima.example"}}),
            )
            .await,
        )
        .await;
        assert_eq!(
            app.store
                .mail_to("alvo@vitima.example")
                .await
                .unwrap()
                .len(),
            1
        );
        // The project form asks a new address too.
        json_ok(
            app.post(
                &owner,
                &format!("/api/projects/{project}"),
                json!({"meta": {"formEmail": "novo@loja.example"}}),
            )
            .await,
        )
        .await;
        assert_eq!(
            app.store.mail_to("novo@loja.example").await.unwrap().len(),
            1
        );
        // One new address after another: the owner's daily quota runs out, and the address
        // that would pass it is neither saved nor mailed.
        let mut refused = None;
        for i in 0..30 {
            let res = app
                .post(
                    &owner,
                    &path,
                    json!({"email": format!("alvo{i}@vitima.example")}),
                )
                .await;
            if res.status() == StatusCode::TOO_MANY_REQUESTS {
                refused = Some(i);
                break;
            }
            json_ok(res).await;
        }
        let refused = refused.expect("the quota ends the flood");
        assert_eq!(refused, 18, "20 addresses a day, two of them asked above");
        assert!(
            app.store
                .mail_to(&format!("alvo{refused}@vitima.example"))
                .await
                .unwrap()
                .is_empty()
        );
        let v = json_ok(app.get(&owner, &path).await).await;
        assert_eq!(v["email"], format!("alvo{}@vitima.example", refused - 1));
        // The owner's own address is the account's: it waits for the account's own
        // confirmation link (issue 40), not for a form-email one.
        let v = json_ok(app.post(&owner, &path, json!({"email": ""})).await).await;
        assert_eq!(
            (v["status"].as_str(), v["recipient"].as_str()),
            (Some("owner_unconfirmed"), Some("dono-flood@example.com"))
        );
        let bad = app
            .post(&owner, &path, json!({"email": "not an address"}))
            .await;
        expect_error(bad, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
}

async fn fill(app: &TestApp, project: i64, n: usize, cap: i64) {
    for i in 0..n as i64 {
        let s = submission(project, i, "", "texto");
        app.store.store_submission(&s, None, cap).await.unwrap();
    }
}

/// A control plane whose projects keep 10 form history entries each.
struct CappedApp(TestApp);

impl CappedApp {
    async fn new(backend: Backend) -> CappedApp {
        CappedApp(TestApp::with(backend, |s| s.form_history_max_entries = 10).await)
    }
}

dual_test! {
    async fn a_form_history_flooded_past_its_cap_keeps_the_newest_and_warns_the_owner(app: CappedApp) {
        let app = app.0;
        let small = app.app.state().settings.form_history_max_entries as usize;
        let owner = app.register("cap-forms@example.com").await;
        let flooded = app.create_project(&owner, "Inundada").await["id"]
            .as_i64()
            .unwrap();
        let calm = app.create_project(&owner, "Calma").await["id"]
            .as_i64()
            .unwrap();
        let nearly = app.create_project(&owner, "Quase").await["id"]
            .as_i64()
            .unwrap();
        // The edge stores each submission with the cap FORM_HISTORY_MAX_ENTRIES.
        let cap = small as i64;
        fill(&app, flooded, small + 4, cap).await;
        fill(&app, calm, 2, cap).await;
        fill(&app, nearly, small - 1, cap).await;
        let get = |p: i64| {
            let (app, owner) = (&app, &owner);
            async move {
                json_ok(
                    app.get(owner, &format!("/api/projects/{p}/form-history"))
                        .await,
                )
                .await
            }
        };
        let h: Value = get(flooded).await;
        assert_eq!(h["history"]["total"], small);
        assert_eq!(
            h["history"]["data"][0]["subject"],
            format!("Contato {}", small + 3),
            "newest kept"
        );
        let limit = &h["limit"];
        assert_eq!(
            (limit["trimmed"].as_i64(), limit["warning"].as_str()),
            (Some(4), Some("trimmed"))
        );
        assert!(limit["last_trimmed_at"].is_string());
        assert_eq!(
            limit["max_entries"].as_i64(),
            Some(cap),
            "the setting the edge uses"
        );
        assert_eq!(get(calm).await["limit"]["warning"], Value::Null);
        assert_eq!(get(nearly).await["limit"]["warning"], "near", "90 % full");
        assert_eq!(
            get(calm).await["history"]["total"],
            2,
            "the other project is untouched"
        );
        // Deleting entries frees room without hiding what was trimmed.
        let ids: Vec<i64> = h["history"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .take(2)
            .map(|e| e["id"].as_i64().unwrap())
            .collect();
        let path = format!("/api/projects/{flooded}/form-history");
        json_ok(
            app.call(
                &owner,
                reqwest::Method::DELETE,
                &path,
                Some(json!({"selected": ids})),
            )
            .await,
        )
        .await;
        assert_eq!(
            app.store.form_history_usage(ProjectId(flooded)).await.unwrap().entries,
            cap - 2
        );
        assert_eq!(get(flooded).await["limit"]["trimmed"], 4);
    }
}
