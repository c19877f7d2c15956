//! Fair shares of mail and the spreadsheet link (issue 40): each test performs the attack
//! and asserts the bound.
//!
//! - Someone registers (or a business administrator creates or re-addresses a member) with
//!   an address that is not theirs, so that visitors' form messages land in a stranger's
//!   mailbox: nothing is sent there until the mailbox opens its confirmation link.
//! - A flood of form submissions, over many projects, fills one recipient's mailbox: at most
//!   `FORM_NOTIFICATIONS_PER_RECIPIENT_PER_HOUR` notifications an hour reach it.
//! - Password-reset requests flood an inbox or lock the owner out: one mail per account per
//!   15 minutes, the same 200 every time, keyed per (account, network).
//! - The spreadsheet link and the client panel shared one token: each has its own now, opens
//!   only its own door, is replaced on its own, and the client panel's never travels in a URL.
//!
//! Client networks are real, as in `accounts.rs`: clients bind to different loopback
//! addresses.

use std::net::IpAddr;

use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::{AccountId, ProjectId};
use vitrine_shared::{
    dual_test,
    store::{NewSubmission, Notification, now},
    testing::Backend,
};

use crate::collections::fixture;
use crate::helpers::{Session, TestApp, expect_error, json_ok, records_by_slug};

const PASSWORD: &str = "senha-segura-1";

fn client_from(source: &str) -> Client {
    Client::builder()
        .cookie_store(true)
        .local_address(source.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

/// What the edge does with a visitor's submission to `project` for `to` (the published form
/// settings' recipient): stores it and, when allowed, queues its notification. Returns
/// whether the notification was queued.
async fn visitor_submits(app: &TestApp, project: i64, to: &str, n: i64) -> bool {
    let stored = app
        .store
        .store_submission(
            &NewSubmission {
                uid: format!("{project}-{to}-{n}-{}", uuid()),
                project_id: ProjectId(project),
                url: "/contato".into(),
                submit: String::new(),
                to: to.into(),
                subject: format!("Contato {n}"),
                data: "<dl><dt>mensagem</dt><dd>oi</dd></dl>".into(),
                created_at: now(),
            },
            Some(Notification {
                subject: "Novo contato",
                text: "mensagem: oi\n",
                html: "",
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
    assert!(
        !(stored.notified && stored.capped),
        "a capped notification is not queued"
    );
    stored.notified
}

fn uuid() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed).to_string()
}

/// Form notifications queued for `to` (the outbox rows that are not a confirmation or reset).
async fn notifications_to(app: &TestApp, to: &str) -> usize {
    app.store
        .mail_to(to)
        .await
        .unwrap()
        .iter()
        .filter(|m| m.subject == "Novo contato")
        .count()
}

/// The token of the newest sign-in address confirmation link mailed to `to`.
async fn confirmation_token(app: &TestApp, to: &str) -> String {
    let mails = app.store.mail_to(to).await.unwrap();
    let body = mails
        .iter()
        .rev()
        .map(|m| m.body.as_str())
        .find(|b| b.contains("/confirm-email?token="))
        .unwrap_or_else(|| panic!("no confirmation link mailed to {to}"));
    let start = body.find("/confirm-email?token=").unwrap() + "/confirm-email?token=".len();
    body[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

async fn confirm_email(app: &TestApp, token: &str) -> reqwest::Response {
    TestApp::client()
        .post(app.url("/api/confirm-email"))
        .json(&json!({ "token": token }))
        .send()
        .await
        .unwrap()
}

async fn error_code(res: reqwest::Response, status: StatusCode) -> String {
    assert_eq!(res.status(), status);
    res.json::<Value>().await.unwrap()["error"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

dual_test! {
    async fn an_unconfirmed_sign_in_address_gets_no_form_notification_until_its_link_is_opened(app: TestApp) {
        // Someone registers with an address that is not theirs.
        let owner = app.register("dono-mail@example.com").await;
        assert_eq!(owner.user["email_confirmed"], false);
        let project = app.create_project(&owner, "Loja").await["id"].as_i64().unwrap();
        let view = json_ok(app.get(&owner, &format!("/api/projects/{project}/form-email")).await).await;
        assert_eq!(view["status"], "owner_unconfirmed");

        // Visitors' messages are stored, and nothing is mailed to the address.
        for n in 0..3 {
            assert!(!visitor_submits(&app, project, "dono-mail@example.com", n).await);
        }
        assert_eq!(notifications_to(&app, "dono-mail@example.com").await, 0);
        let history = json_ok(app.get(&owner, &format!("/api/projects/{project}/form-history")).await).await;
        assert_eq!(history["history"]["total"], 3);
        // The mailbox got one mail: the confirmation the account asked for by registering.
        assert_eq!(app.store.mail_to("dono-mail@example.com").await.unwrap().len(), 1);

        // A guessed link confirms nothing; a resend right away is refused, and sends nothing.
        assert_eq!(
            error_code(confirm_email(&app, "guessed").await, StatusCode::UNPROCESSABLE_ENTITY).await,
            "email_link_invalid"
        );
        assert_eq!(
            error_code(
                app.post(&owner, "/api/user/email-confirmation", json!({})).await,
                StatusCode::TOO_MANY_REQUESTS
            )
            .await,
            "email_too_soon"
        );
        assert_eq!(app.store.mail_to("dono-mail@example.com").await.unwrap().len(), 1);

        // The mailbox opens its link: from then on notifications go out.
        let token = confirmation_token(&app, "dono-mail@example.com").await;
        assert_eq!(confirm_email(&app, &token).await.status(), StatusCode::OK);
        assert_eq!(
            error_code(confirm_email(&app, &token).await, StatusCode::UNPROCESSABLE_ENTITY).await,
            "email_link_invalid",
            "a link works once"
        );
        assert_eq!(json_ok(app.get(&owner, "/api/user").await).await["email_confirmed"], true);
        let view = json_ok(app.get(&owner, &format!("/api/projects/{project}/form-email")).await).await;
        assert_eq!(view["status"], "owner");
        assert!(visitor_submits(&app, project, "dono-mail@example.com", 10).await);
        assert_eq!(notifications_to(&app, "dono-mail@example.com").await, 1);
        // Confirmed: a resend sends nothing more.
        json_ok(app.post(&owner, "/api/user/email-confirmation", json!({})).await).await;
        assert_eq!(app.store.mail_to("dono-mail@example.com").await.unwrap().len(), 2);
    }
}

dual_test! {
    async fn a_member_a_business_admin_creates_or_readdresses_gets_no_notification_until_confirmed(app: TestApp) {
        let business = app.store.insert_business("Agência").await.unwrap();
        let admin = app.register("chefe-mail@example.com").await;
        app.store
            .set_user_business(AccountId(admin.id()), Some(business), true, &Default::default())
            .await
            .unwrap();
        // The administrator creates a member with a stranger's address.
        let member = json_ok(
            app.post(
                &admin,
                "/api/business/users",
                json!({"name": "Membro", "email": "estranho@vitima.example", "password": PASSWORD,
                    "permissions": {"all_projects": true}}),
            )
            .await,
        )
        .await;
        assert_eq!(member["email_confirmed"], false);
        let member_id = member["id"].as_i64().unwrap();
        let m = app.sign_in("estranho@vitima.example", PASSWORD).await;
        let project = app.create_project(&m, "Loja do Membro").await["id"].as_i64().unwrap();
        assert!(!visitor_submits(&app, project, "estranho@vitima.example", 0).await);
        assert_eq!(notifications_to(&app, "estranho@vitima.example").await, 0);

        // The mailbox confirms: notifications go out.
        let token = confirmation_token(&app, "estranho@vitima.example").await;
        assert_eq!(confirm_email(&app, &token).await.status(), StatusCode::OK);
        assert!(visitor_submits(&app, project, "estranho@vitima.example", 1).await);

        // The administrator moves the member to another stranger's address: unconfirmed
        // again, whatever the old one was.
        let edited = json_ok(
            app.post(
                &admin,
                &format!("/api/business/users/{member_id}"),
                json!({"name": "Membro", "email": "outro@vitima.example",
                    "permissions": {"all_projects": true}}),
            )
            .await,
        )
        .await;
        assert_eq!(edited["email_confirmed"], false);
        assert!(!visitor_submits(&app, project, "outro@vitima.example", 2).await);
        assert_eq!(notifications_to(&app, "outro@vitima.example").await, 0);
        // The old address's link does not confirm the new one.
        assert_eq!(
            confirm_email(&app, &token).await.status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        let token = confirmation_token(&app, "outro@vitima.example").await;
        assert_eq!(confirm_email(&app, &token).await.status(), StatusCode::OK);
        assert!(visitor_submits(&app, project, "outro@vitima.example", 3).await);
    }
}

/// A TestApp whose recipients get at most 5 notifications an hour.
struct CappedApp(TestApp);

const CAP: usize = 5;

impl CappedApp {
    async fn new(backend: Backend) -> CappedApp {
        CappedApp(
            TestApp::with(backend, |s| {
                s.form_notifications_per_recipient_per_hour = CAP as u64
            })
            .await,
        )
    }
}

dual_test! {
    async fn a_flood_of_submissions_to_one_recipient_sends_at_most_the_hourly_cap(c: CappedApp) {
        let app = &c.0;
        let owner = app.register("alvo-mail@example.com").await;
        app.store.mark_email_confirmed(AccountId(owner.id())).await.unwrap();
        let other = app.register("vizinho-mail@example.com").await;
        app.store.mark_email_confirmed(AccountId(other.id())).await.unwrap();
        // The flood comes through three projects of the owner: the cap is the recipient's.
        let mut projects = Vec::new();
        for name in ["A", "B", "C"] {
            projects.push(app.create_project(&owner, name).await["id"].as_i64().unwrap());
        }
        let mut sent = 0;
        for n in 0..10 {
            for p in &projects {
                sent += usize::from(visitor_submits(app, *p, "alvo-mail@example.com", n).await);
            }
        }
        assert_eq!(sent, CAP, "30 submissions, the cap's worth of mail");
        assert_eq!(notifications_to(app, "alvo-mail@example.com").await, CAP);
        // Every submission stays in its form history.
        let mut kept = 0;
        for p in &projects {
            let h = json_ok(app.get(&owner, &format!("/api/projects/{p}/form-history")).await).await;
            kept += h["history"]["total"].as_i64().unwrap();
        }
        assert_eq!(kept, 30);
        // Another recipient keeps its whole share.
        let theirs = app.create_project(&other, "Vizinha").await["id"].as_i64().unwrap();
        assert!(visitor_submits(app, theirs, "vizinho-mail@example.com", 0).await);

        // Simultaneous submissions (many edges at once) cannot slip past the cap either.
        let crowd = app.register("multidao-mail@example.com").await;
        app.store.mark_email_confirmed(AccountId(crowd.id())).await.unwrap();
        let p = app.create_project(&crowd, "Multidão").await["id"].as_i64().unwrap();
        let mut tasks = Vec::new();
        for n in 0..20 {
            let store = app.store.clone();
            tasks.push(tokio::spawn(async move {
                store
                    .store_submission(
                        &NewSubmission {
                            uid: format!("crowd-{n}"),
                            project_id: ProjectId(p),
                            url: "/".into(),
                            submit: String::new(),
                            to: "multidao-mail@example.com".into(),
                            subject: "Oi".into(),
                            data: String::new(),
                            created_at: now(),
                        },
                        Some(Notification {
                            subject: "Novo contato",
                            text: "oi",
                            html: "",
                            per_recipient_per_hour: CAP as i64,
                        }),
                        10_000,
                    )
                    .await
                    .unwrap()
            }));
        }
        let mut notified = 0;
        let mut capped = 0;
        for t in tasks {
            let stored = t.await.unwrap();
            notified += usize::from(stored.notified);
            capped += usize::from(stored.capped);
        }
        assert_eq!((notified, capped), (CAP, 20 - CAP));
        assert_eq!(notifications_to(app, "multidao-mail@example.com").await, CAP);
    }
}

/// Reset mails queued for `to`.
async fn reset_mails(app: &TestApp, to: &str) -> usize {
    app.store
        .mail_to(to)
        .await
        .unwrap()
        .iter()
        .filter(|m| m.body.contains("/new-password?"))
        .count()
}

async fn forgot(app: &TestApp, client: &Client, email: &str) -> (StatusCode, String) {
    let res = client
        .post(app.url("/api/forgot"))
        .json(&json!({ "email": email }))
        .send()
        .await
        .unwrap();
    (res.status(), res.text().await.unwrap())
}

dual_test! {
    async fn ten_reset_requests_send_one_mail_and_answer_the_same_200_even_for_an_unknown_address(app: TestApp) {
        app.register("reset-mail@example.com").await;
        let c = client_from("127.0.0.2");
        let (status, first) = forgot(&app, &c, "reset-mail@example.com").await;
        assert_eq!(status, StatusCode::OK);
        for _ in 1..10 {
            assert_eq!(
                forgot(&app, &c, "reset-mail@example.com").await,
                (StatusCode::OK, first.clone())
            );
        }
        assert_eq!(reset_mails(&app, "reset-mail@example.com").await, 1, "one mail for ten requests");
        // From another network too: the mail's ration is the account's.
        let other = client_from("127.0.0.3");
        assert_eq!(
            forgot(&app, &other, "reset-mail@example.com").await,
            (StatusCode::OK, first.clone())
        );
        assert_eq!(reset_mails(&app, "reset-mail@example.com").await, 1);
        // An address with no account answers exactly the same, and nothing is sent.
        for _ in 0..10 {
            assert_eq!(
                forgot(&app, &other, "ninguem-mail@example.com").await,
                (StatusCode::OK, first.clone())
            );
        }
        assert_eq!(reset_mails(&app, "ninguem-mail@example.com").await, 0);
        // A link used up is no longer outstanding: the next request sends a new one.
        let body = app
            .store
            .mail_to("reset-mail@example.com")
            .await
            .unwrap()
            .into_iter()
            .find(|m| m.body.contains("/new-password?"))
            .unwrap()
            .body
            .replace("=\n", "");
        let start = body.find("token=").unwrap() + "token=".len();
        let token: String = body[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        let res = TestApp::client()
            .post(app.url("/api/new-password"))
            .json(&json!({"email": "reset-mail@example.com", "password": "outra-senha-2", "token": token}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let (status, _) = forgot(&app, &other, "reset-mail@example.com").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(reset_mails(&app, "reset-mail@example.com").await, 2);
    }
}

dual_test! {
    async fn reset_requests_are_keyed_per_account_and_network(app: TestApp) {
        app.register("vitima-reset@example.com").await;
        let attacker = client_from("127.0.0.4");
        let mut refused = None;
        for i in 0..12 {
            let (status, _) = forgot(&app, &attacker, "vitima-reset@example.com").await;
            if status == StatusCode::TOO_MANY_REQUESTS {
                refused = Some(i);
                break;
            }
            assert_eq!(status, StatusCode::OK);
        }
        assert_eq!(refused, Some(10), "the flooding network has its own allowance of 10");
        // The owner, on another network, is not refused.
        let owner = client_from("127.0.0.5");
        assert_eq!(forgot(&app, &owner, "vitima-reset@example.com").await.0, StatusCode::OK);
        // Nor are sign-ins: resets never use a sign-in allowance.
        let res = attacker
            .post(app.url("/api/login"))
            .json(&json!({"email": "vitima-reset@example.com", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        // And all of it was one mail.
        assert_eq!(reset_mails(&app, "vitima-reset@example.com").await, 1);
    }
}

/// A project with a collection (`produtos`), its client-panel token and a spreadsheet token.
struct Tokens {
    project: i64,
    table: i64,
    client: String,
    sheet: String,
}

async fn tokens(app: &TestApp, s: &Session) -> Tokens {
    let f = fixture(app, s).await;
    let client = json_ok(app.get(s, &format!("/api/projects/{}", f.project)).await).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    // No spreadsheet link until the owner makes one.
    let none = json_ok(
        app.get(s, &format!("/api/projects/{}/sheet-token", f.project))
            .await,
    )
    .await;
    assert_eq!(none["token"], Value::Null);
    let sheet = rotate_sheet(app, s, f.project).await;
    Tokens {
        project: f.project,
        table: f.table,
        client,
        sheet,
    }
}

async fn rotate_sheet(app: &TestApp, s: &Session, project: i64) -> String {
    json_ok(
        app.post(
            s,
            &format!("/api/projects/{project}/sheet-token"),
            json!({}),
        )
        .await,
    )
    .await["token"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn push(app: &TestApp, project: i64, token: &str, slug: &str) -> StatusCode {
    TestApp::client()
        .post(app.url(&format!("/google-sheets/{project}/{token}")))
        .json(&json!({"table": "produtos", "rows": [{"name": slug, "slug": slug, "texto": "oi"}]}))
        .send()
        .await
        .unwrap()
        .status()
}

/// A records call with `token` in the `X-Client-Token` header.
async fn as_client(app: &TestApp, token: &str, method: Method, path: &str) -> StatusCode {
    TestApp::client()
        .request(method, app.url(path))
        .header("x-client-token", token)
        .send()
        .await
        .unwrap()
        .status()
}

dual_test! {
    async fn the_client_panel_token_cannot_use_the_spreadsheet_link_and_the_sheet_token_opens_nothing_else(app: TestApp) {
        let s = app.register("planilha-mail@example.com").await;
        let t = tokens(&app, &s).await;
        assert_ne!(t.client, t.sheet);
        // The client panel's token on the spreadsheet link: not found, nothing written.
        assert_eq!(push(&app, t.project, &t.client, "pelo-painel").await, StatusCode::NOT_FOUND);
        assert_eq!(push(&app, t.project, "adivinhado", "adivinhado").await, StatusCode::NOT_FOUND);
        // The spreadsheet token pushes rows.
        assert_eq!(push(&app, t.project, &t.sheet, "pela-planilha").await, StatusCode::OK);
        let data = json_ok(app.get(&s, &format!("/api/data/{}", t.table)).await).await.to_string();
        assert!(data.contains("pela-planilha") && !data.contains("pelo-painel"), "{data}");
        // The spreadsheet token is no client panel: it reads, edits and deletes nothing.
        let post = records_by_slug(&app, &s, t.table)
            .await
            .into_iter()
            .find(|(slug, _, _)| slug == "pela-planilha")
            .unwrap()
            .2;
        for (method, path) in [
            (Method::GET, "/api/client/project".to_string()),
            (Method::GET, format!("/api/data/{}", t.table)),
            (Method::GET, format!("/api/tables/{}/export/csv", t.table)),
            (Method::GET, format!("/api/posts/{post}")),
            (Method::DELETE, format!("/api/posts/{post}")),
        ] {
            assert_eq!(
                as_client(&app, &t.sheet, method.clone(), &path).await,
                StatusCode::NOT_FOUND,
                "{method} {path} with the spreadsheet token"
            );
        }
        assert_eq!(
            as_client(&app, &t.client, Method::GET, &format!("/api/posts/{post}")).await,
            StatusCode::OK
        );
        // Another owner cannot read or rotate this project's spreadsheet token.
        let stranger = app.register("estranha-planilha@example.com").await;
        let path = format!("/api/projects/{}/sheet-token", t.project);
        expect_error(app.get(&stranger, &path).await, StatusCode::NOT_FOUND).await;
        expect_error(app.post(&stranger, &path, json!({})).await, StatusCode::NOT_FOUND).await;
        assert_eq!(push(&app, t.project, &t.sheet, "ainda").await, StatusCode::OK);
    }
}

dual_test! {
    async fn a_client_token_in_the_query_string_is_refused_where_the_header_carries_it(app: TestApp) {
        let s = app.register("consulta-mail@example.com").await;
        let t = tokens(&app, &s).await;
        for path in [
            format!("/api/tables/{}/export/csv?client_token={}", t.table, t.client),
            format!("/api/client/project?client_token={}", t.client),
            format!("/api/data/{}?client_token={}", t.table, t.client),
        ] {
            let res = TestApp::client().get(app.url(&path)).send().await.unwrap();
            assert_eq!(error_code(res, StatusCode::BAD_REQUEST).await, "token_in_query", "{path}");
        }
        // Also next to the header: the address must not carry it at all.
        let res = TestApp::client()
            .get(app.url(&format!("/api/client/project?client_token={}", t.client)))
            .header("x-client-token", &t.client)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        // The header works.
        assert_eq!(
            as_client(&app, &t.client, Method::GET, &format!("/api/tables/{}/export/csv", t.table)).await,
            StatusCode::OK
        );
    }
}

dual_test! {
    async fn rotating_one_token_leaves_the_other_working(app: TestApp) {
        let s = app.register("rotacao-mail@example.com").await;
        let t = tokens(&app, &s).await;
        // A new spreadsheet link: the old one stops, the client panel goes on.
        let sheet = rotate_sheet(&app, &s, t.project).await;
        assert_ne!(sheet, t.sheet);
        assert_eq!(push(&app, t.project, &t.sheet, "velho").await, StatusCode::NOT_FOUND);
        assert_eq!(push(&app, t.project, &sheet, "novo").await, StatusCode::OK);
        assert_eq!(
            as_client(&app, &t.client, Method::GET, "/api/client/project").await,
            StatusCode::OK
        );
        // A new client-panel token: the old one stops, the spreadsheet link goes on.
        let p = json_ok(app.post(&s, &format!("/api/projects/{}/token", t.project), json!({})).await).await;
        let client = p["token"].as_str().unwrap().to_string();
        assert_ne!(client, t.client);
        assert_eq!(
            as_client(&app, &t.client, Method::GET, "/api/client/project").await,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            as_client(&app, &client, Method::GET, "/api/client/project").await,
            StatusCode::OK
        );
        assert_eq!(push(&app, t.project, &sheet, "depois").await, StatusCode::OK);
        assert_eq!(
            json_ok(app.get(&s, &format!("/api/projects/{}/sheet-token", t.project)).await).await["token"],
            sheet
        );
    }
}
