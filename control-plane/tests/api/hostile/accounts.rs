//! Accounts and sessions: the login limiter, the session cookie, what business administrators
//! may change, and the dashboard's own headers.
//!
//! Client networks are real: the test clients bind their sockets to different loopback
//! addresses (127.0.0.2, 127.0.0.3, …), so the control plane sees different peers; behind a
//! trusted proxy the networks come from `X-Forwarded-For`.

use std::net::IpAddr;

use reqwest::{Client, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::AccountId;
use vitrine_shared::{dual_test, store::Permissions, testing::Backend};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

const PASSWORD: &str = "senha-segura-1";

/// A client whose connections come from `source` (a loopback address), with a cookie store.
fn client_from(source: &str) -> Client {
    Client::builder()
        .cookie_store(true)
        .local_address(source.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

async fn sign_in(app: &TestApp, client: &Client, email: &str, password: &str) -> StatusCode {
    sign_in_as(app, client, email, password, None).await
}

/// Signs in with `X-Forwarded-For: forwarded_for` when given.
async fn sign_in_as(
    app: &TestApp,
    client: &Client,
    email: &str,
    password: &str,
    forwarded_for: Option<&str>,
) -> StatusCode {
    let mut req = client
        .post(app.url("/api/login"))
        .json(&json!({"email": email, "password": password}));
    if let Some(xff) = forwarded_for {
        req = req.header("x-forwarded-for", xff);
    }
    req.send().await.unwrap().status()
}

/// The allowance of failed sign-ins per account and network (LOGIN_ATTEMPTS_PER_MINUTE).
const ALLOWANCE: usize = 10;

dual_test! {
    async fn a_password_flood_from_one_network_never_locks_the_owner_out_from_another(app: TestApp) {
        app.register("dona@example.com").await;
        let attacker = client_from("127.0.0.2");
        for i in 0..ALLOWANCE {
            let status = sign_in(&app, &attacker, "dona@example.com", &format!("chute-{i}")).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "guess {i}");
        }
        for _ in 0..20 {
            let res = attacker
                .post(app.url("/api/login"))
                .json(&json!({"email": "dona@example.com", "password": "mais-um-chute"}))
                .send()
                .await
                .unwrap();
            assert!(res.headers().contains_key("retry-after"));
            expect_error(res, StatusCode::TOO_MANY_REQUESTS).await;
        }
        // Even the right password is refused from the flooding network: the limit is no
        // oracle for the attacker.
        assert_eq!(
            sign_in(&app, &attacker, "dona@example.com", PASSWORD).await,
            StatusCode::TOO_MANY_REQUESTS
        );
        // The owner, on another network, signs in at once.
        let owner = client_from("127.0.0.3");
        assert_eq!(sign_in(&app, &owner, "dona@example.com", PASSWORD).await, StatusCode::OK);
        let me = owner.get(app.url("/api/user")).send().await.unwrap();
        assert_eq!(json_ok(me).await["email"], "dona@example.com");
    }
}

dual_test! {
    async fn successful_sign_ins_never_count_towards_the_limit(app: TestApp) {
        app.register("ana@example.com").await;
        let c = client_from("127.0.0.4");
        for i in 0..ALLOWANCE + 5 {
            assert_eq!(
                sign_in(&app, &c, "ana@example.com", PASSWORD).await,
                StatusCode::OK,
                "sign-in {i}"
            );
        }
        // The whole allowance of failures is still there after all those successes.
        for i in 0..ALLOWANCE {
            assert_eq!(
                sign_in(&app, &c, "ana@example.com", "errada-1").await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "failure {i}"
            );
        }
        assert_eq!(
            sign_in(&app, &c, "ana@example.com", "errada-1").await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}

dual_test! {
    async fn a_burst_of_concurrent_guesses_gets_no_more_than_the_allowance(app: TestApp) {
        app.register("bia@example.com").await;
        let attacker = client_from("127.0.0.5");
        let guesses = (0..4 * ALLOWANCE).map(|i| {
            let (attacker, url) = (attacker.clone(), app.url("/api/login"));
            async move {
                attacker
                    .post(url)
                    .json(&json!({"email": "bia@example.com", "password": format!("chute-{i}")}))
                    .send()
                    .await
                    .unwrap()
                    .status()
            }
        });
        let statuses = futures::future::join_all(guesses).await;
        let checked = statuses
            .iter()
            .filter(|s| **s == StatusCode::UNPROCESSABLE_ENTITY)
            .count();
        let refused = statuses
            .iter()
            .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
            .count();
        assert_eq!(checked, ALLOWANCE, "{statuses:?}");
        assert_eq!(refused, 3 * ALLOWANCE, "{statuses:?}");
    }
}

dual_test! {
    async fn a_forged_x_forwarded_for_from_an_untrusted_peer_is_ignored(app: TestApp) {
        app.register("caio@example.com").await;
        let attacker = client_from("127.0.0.6");
        // Each guess claims another network; with no trusted proxy configured the peer is
        // all that counts, so the claims buy nothing.
        for i in 0..ALLOWANCE {
            let xff = format!("203.0.113.{i}");
            let status =
                sign_in_as(&app, &attacker, "caio@example.com", "chute", Some(&xff)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        }
        let status = sign_in_as(&app, &attacker, "caio@example.com", "chute", Some("198.51.100.1")).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        // Nor can the attacker spend the owner's allowance by naming the owner's network.
        let owner = client_from("127.0.0.7");
        assert_eq!(
            sign_in_as(&app, &owner, "caio@example.com", PASSWORD, Some("127.0.0.6")).await,
            StatusCode::OK
        );
    }
}

/// A control plane behind a load balancer on loopback (`CONTROL_TRUSTED_PROXIES`).
struct BehindProxy(TestApp);

impl BehindProxy {
    async fn new(backend: Backend) -> BehindProxy {
        BehindProxy(
            TestApp::with(backend, |s| {
                s.control_trusted_proxies = "127.0.0.0/8".into()
            })
            .await,
        )
    }
}

dual_test! {
    async fn behind_a_trusted_proxy_each_client_network_has_its_own_allowance(app: BehindProxy) {
        let app = &app.0;
        app.register("duda@example.com").await;
        let proxy = client_from("127.0.0.8");
        // One IPv6 /64: every address in it is the same network.
        for i in 0..ALLOWANCE {
            let xff = format!("2001:db8:1:2::{:x}", i + 1);
            let status = sign_in_as(app, &proxy, "duda@example.com", "chute", Some(&xff)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        }
        for xff in ["2001:db8:1:2::ffff", "2001:db8:1:2:abcd::1", "1.1.1.1, 2001:db8:1:2::9"] {
            let status = sign_in_as(app, &proxy, "duda@example.com", PASSWORD, Some(xff)).await;
            assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{xff}");
        }
        // The next /64 and an IPv4 client are other networks: the owner gets in.
        for xff in ["2001:db8:1:3::1", "203.0.113.7"] {
            let status = sign_in_as(app, &proxy, "duda@example.com", PASSWORD, Some(xff)).await;
            assert_eq!(status, StatusCode::OK, "{xff}");
        }
    }
}

/// A control plane whose networks may fail 12 sign-ins a minute, whatever the account.
struct TightNetworks(TestApp);

impl TightNetworks {
    async fn new(backend: Backend) -> TightNetworks {
        TightNetworks(
            TestApp::with(backend, |s| s.login_failures_per_network_per_minute = 12).await,
        )
    }
}

dual_test! {
    async fn one_network_cannot_spray_guesses_over_many_accounts(app: TightNetworks) {
        let app = &app.0;
        let sprayer = client_from("127.0.0.9");
        // Three guesses at each of four accounts: within each account's allowance, but the
        // network's is spent.
        for i in 0..12 {
            let email = format!("conta{}@example.com", i % 4);
            assert_eq!(
                sign_in(app, &sprayer, &email, "123456").await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "guess {i}"
            );
        }
        assert_eq!(
            sign_in(app, &sprayer, "outra@example.com", "123456").await,
            StatusCode::TOO_MANY_REQUESTS
        );
        // Other networks are not affected.
        assert_eq!(
            sign_in(app, &client_from("127.0.0.10"), "outra@example.com", "123456").await,
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
}

/// The `Set-Cookie` value of a response for the session cookie.
fn session_set_cookie(res: &reqwest::Response) -> String {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("__Host-vitrine_session="))
        .unwrap_or_else(|| panic!("no session cookie in {:?}", res.headers()))
}

fn assert_host_only_secure(cookie: &str) {
    let attrs: Vec<String> = cookie
        .split(';')
        .skip(1)
        .map(|a| a.trim().to_ascii_lowercase())
        .collect();
    for wanted in ["secure", "httponly", "samesite=lax", "path=/"] {
        assert!(
            attrs.iter().any(|a| a == wanted),
            "{wanted} missing: {cookie}"
        );
    }
    assert!(
        !attrs.iter().any(|a| a.starts_with("domain")),
        "a Domain would let sibling hosts see it: {cookie}"
    );
}

dual_test! {
    async fn the_session_cookie_is_host_only_and_a_cookie_planted_by_a_sibling_host_is_ignored(app: TestApp) {
        let c = TestApp::client();
        let res = c
            .post(app.url("/api/register"))
            .json(&json!({"name": "Eva", "email": "eva@example.com", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED);
        let cookie = session_set_cookie(&res);
        assert_host_only_secure(&cookie);
        let token = cookie.split(';').next().unwrap().split_once('=').unwrap().1.to_string();

        let res = c
            .post(app.url("/api/login"))
            .json(&json!({"email": "eva@example.com", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_host_only_secure(&session_set_cookie(&res));

        // A tenant's page on a sibling host can set a cookie for the parent domain, but never
        // one named `__Host-…`; a session under any other name is not a session.
        let planted = TestApp::client()
            .get(app.url("/api/user"))
            .header("cookie", format!("vitrine_session={token}"))
            .send()
            .await
            .unwrap();
        expect_error(planted, StatusCode::UNAUTHORIZED).await;

        // Signing out clears the cookie with the same attributes (browsers refuse a
        // `__Host-` removal without them).
        let res = c.get(app.url("/api/logout")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        let removal = session_set_cookie(&res);
        assert_host_only_secure(&removal);
        assert!(removal.to_ascii_lowercase().contains("max-age=0"), "{removal}");
    }
}

/// A business with an administrator (`admin`), a second administrator, a platform
/// administrator and an ordinary member, all of the same business.
struct Business {
    admin: Session,
    other_admin: Session,
    platform_admin: Session,
    member: Session,
}

async fn business(app: &TestApp) -> Business {
    let business = app.store.insert_business("Agência").await.unwrap();
    let join = |s: &Session, admin: bool| {
        let id = s.id();
        let permissions = if admin {
            Permissions::default()
        } else {
            Permissions {
                all_projects: Some(true),
                ..Permissions::default()
            }
        };
        async move {
            app.store
                .set_user_business(AccountId(id), Some(business), admin, &permissions)
                .await
                .unwrap();
        }
    };
    let admin = app.register("chefe@example.com").await;
    join(&admin, true).await;
    let other_admin = app.register("socia@example.com").await;
    join(&other_admin, true).await;
    let platform_admin = app.register("plataforma@example.com").await;
    app.make_admin(&platform_admin).await;
    join(&platform_admin, false).await;
    let member = app.register("membro@example.com").await;
    join(&member, false).await;
    Business {
        admin,
        other_admin,
        platform_admin,
        member,
    }
}

/// The body a business administrator sends to edit `user` with `changes` applied.
fn edit(user: &Value, changes: Value) -> Value {
    let mut body = json!({
        "name": user["name"],
        "email": user["email"],
        "is_business_admin": user["is_business_admin"],
        "permissions": user["permissions"],
    });
    for (k, v) in changes.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

dual_test! {
    async fn a_business_admin_cannot_change_another_administrators_password_email_or_role(app: TestApp) {
        let b = business(&app).await;
        for target in [&b.other_admin, &b.platform_admin] {
            let id = target.id();
            let path = format!("/api/business/users/{id}");
            let view = json_ok(app.get(&b.admin, &path).await).await;
            for changes in [
                json!({"password": "tomada-de-conta-1"}),
                json!({"email": "atacante@example.com"}),
                json!({"is_business_admin": !view["is_business_admin"].as_bool().unwrap(),
                       "permissions": {"all_projects": true}}),
            ] {
                let res = app.post(&b.admin, &path, edit(&view, changes.clone())).await;
                expect_error(res, StatusCode::FORBIDDEN).await;
            }
            // Nothing changed: the target still signs in with its own password and e-mail,
            // the attacker's password opens nothing, and its session is alive.
            let email = view["email"].as_str().unwrap();
            let stored = app.store.user_by_id(AccountId(id)).await.unwrap();
            assert_eq!(stored.email, email);
            assert_eq!(stored.is_business_admin, view["is_business_admin"].as_bool().unwrap());
            assert_eq!(
                sign_in(&app, &TestApp::client(), email, "tomada-de-conta-1").await,
                StatusCode::UNPROCESSABLE_ENTITY
            );
            app.sign_in(email, PASSWORD).await;
            assert_eq!(app.get(target, "/api/user").await.status(), StatusCode::OK);
        }
        // An ordinary member's credentials are the business administrator's to manage.
        let path = format!("/api/business/users/{}", b.member.id());
        let view = json_ok(app.get(&b.admin, &path).await).await;
        let res = app
            .post(&b.admin, &path, edit(&view, json!({"password": "nova-senha-do-membro"})))
            .await;
        json_ok(res).await;
        app.sign_in("membro@example.com", "nova-senha-do-membro").await;
    }
}

dual_test! {
    async fn a_password_set_by_a_business_admin_ends_the_members_sessions(app: TestApp) {
        let b = business(&app).await;
        let laptop = &b.member;
        let phone = app.sign_in("membro@example.com", PASSWORD).await;
        let path = format!("/api/business/users/{}", b.member.id());
        let view = json_ok(app.get(&b.admin, &path).await).await;
        json_ok(app.post(&b.admin, &path, edit(&view, json!({"password": "outra-senha-1"}))).await).await;
        for old in [laptop, &phone] {
            expect_error(app.get(old, "/api/user").await, StatusCode::UNAUTHORIZED).await;
        }
        // A name change sets no password and ends nothing.
        let fresh = app.sign_in("membro@example.com", "outra-senha-1").await;
        json_ok(app.post(&b.admin, &path, edit(&view, json!({"name": "Novo Nome"}))).await).await;
        assert_eq!(app.get(&fresh, "/api/user").await.status(), StatusCode::OK);
    }
}

dual_test! {
    async fn changing_ones_own_password_ends_every_other_session_but_the_one_doing_it(app: TestApp) {
        let b = business(&app).await;
        let elsewhere = app.sign_in("chefe@example.com", PASSWORD).await;
        let path = format!("/api/business/users/{}", b.admin.id());
        let view = json_ok(app.get(&b.admin, &path).await).await;
        json_ok(app.post(&b.admin, &path, edit(&view, json!({"password": "minha-nova-senha"}))).await).await;
        expect_error(app.get(&elsewhere, "/api/user").await, StatusCode::UNAUTHORIZED).await;
        assert_eq!(app.get(&b.admin, "/api/user").await.status(), StatusCode::OK);
    }
}

dual_test! {
    async fn a_password_reset_by_link_ends_every_session_of_the_account(app: TestApp) {
        let victim = app.register("fabi@example.com").await;
        let stolen = app.sign_in("fabi@example.com", PASSWORD).await;
        let token = vitrine_control::accounts::auth::new_token();
        app.store
            .insert_password_reset(
                &vitrine_control::accounts::auth::token_hash(&token),
                AccountId(victim.id()),
                chrono::Utc::now() + chrono::Duration::hours(1),
            )
            .await
            .unwrap();
        let res = TestApp::client()
            .post(app.url("/api/new-password"))
            .json(&json!({"email": "fabi@example.com", "password": "senha-recuperada", "token": token}))
            .send()
            .await
            .unwrap();
        json_ok(res).await;
        for old in [&victim, &stolen] {
            expect_error(app.get(old, "/api/user").await, StatusCode::UNAUTHORIZED).await;
        }
    }
}

/// A control plane serving a built dashboard: an `index.html` and one asset.
struct WithDashboard {
    app: TestApp,
    _dist: tempfile::TempDir,
}

impl WithDashboard {
    async fn new(backend: Backend) -> WithDashboard {
        let dist = tempfile::tempdir().unwrap();
        std::fs::write(
            dist.path().join("index.html"),
            "<!doctype html><div id=\"root\"></div><script src=\"/assets/app.js\"></script>",
        )
        .unwrap();
        std::fs::create_dir(dist.path().join("assets")).unwrap();
        std::fs::write(dist.path().join("assets/app.js"), "console.log('vitrine')").unwrap();
        let path = dist.path().to_path_buf();
        let app = TestApp::with(backend, |s| s.dashboard_dir = path).await;
        WithDashboard { app, _dist: dist }
    }
}

dual_test! {
    async fn no_page_can_frame_the_dashboard_on_any_of_its_routes(app: WithDashboard) {
        let app = &app.app;
        let c = TestApp::client();
        for (path, body) in [
            ("/", "id=\"root\""),
            // A deep route of the single-page app, answered by the fallback.
            ("/project/12/34", "id=\"root\""),
            ("/users", "id=\"root\""),
            ("/assets/app.js", "console.log"),
        ] {
            let res = c.get(app.url(path)).send().await.unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{path}");
            let h = res.headers().clone();
            let header = |name: &str| {
                h.get(name)
                    .unwrap_or_else(|| panic!("{path}: no {name} in {h:?}"))
                    .to_str()
                    .unwrap()
                    .to_string()
            };
            assert_eq!(header("x-frame-options"), "DENY", "{path}");
            let csp = header("content-security-policy");
            assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
            assert_eq!(header("referrer-policy"), "strict-origin-when-cross-origin", "{path}");
            assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
            assert!(res.text().await.unwrap().contains(body), "{path}");
        }
        // The API's own answers carry them too.
        let res = c.get(app.url("/api/config")).send().await.unwrap();
        assert_eq!(res.headers()["x-frame-options"], "DENY");
    }
}
