//! Domains belong to whoever proves them by TXT; a name and its `www.` twin are one unit;
//! preview slugs that look like the platform's own are reserved.
//!
//! Each attack runs against a real control plane whose DNS checks ask a real DNS server
//! (dnsmasq) holding only the records the test sets: the attacker's and the owner's.

use std::time::Duration;

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    store::{DOMAIN_UNIT_TAKEN, StoreError},
    testing::{Backend, DnsRecord},
};

use crate::{
    domains::{DomainApp, PLATFORM_IP, assert_unverified, expect_text},
    helpers::{Session, json_ok, wait_until},
};

/// Asserts a JSON error with `status` and the stable `code`; returns its field and message.
async fn expect_code(res: Response, status: StatusCode, code: &str) -> (Value, String) {
    let got = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(got, status, "body: {text}");
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON: {text}"));
    assert_eq!(body["error"], code, "{text}");
    (
        body["field"].clone(),
        body["message"].as_str().unwrap().to_string(),
    )
}

/// A domain's state as its project's owner sees it, and who the database says holds it.
async fn holder(t: &DomainApp, name: &str) -> Option<i64> {
    t.app
        .store
        .domain_holder(name)
        .await
        .unwrap()
        .map(ProjectId::get)
}

/// Every way the attacker can ask for `name` for `project`: refused with `domain_in_use`
/// before any lookup, even with a TXT proof and an A record of their own for it (a `www`
/// sub-zone delegated to them, say), and at the database too.
async fn assert_refused(t: &DomainApp, attacker: &Session, project: i64, name: &str) {
    t.prove(attacker, project, name).await;
    t.a(name, PLATFORM_IP);
    let (field, message) = expect_code(
        t.verify(attacker, project, name).await,
        StatusCode::CONFLICT,
        "domain_in_use",
    )
    .await;
    assert_eq!(
        (field, message.as_str()),
        (json!("domain"), "domain already in use")
    );
    expect_code(
        t.app
            .post(
                attacker,
                &format!("/api/projects/{project}"),
                json!({"domain": name}),
            )
            .await,
        StatusCode::CONFLICT,
        "domain_in_use",
    )
    .await;
    let err = t
        .app
        .store
        .mark_domain_verified(ProjectId(project), name)
        .await
        .unwrap_err();
    assert!(
        matches!(err, StoreError::Conflict(DOMAIN_UNIT_TAKEN)),
        "{name}: {err:?}"
    );
    let p = t.project(attacker, project).await;
    assert!(p["domain"].is_null(), "{p}");
    assert_unverified(&p);
}

dual_test!(
    async fn claiming_the_www_twin_of_another_projects_verified_domain_is_refused(t: DomainApp) {
        let (owner, site) = t.owner_with_project("apex-owner@example.com").await;
        t.own(&owner, site, "loja.example").await;
        let (attacker, theirs) = t.owner_with_project("twin-thief@example.com").await;

        assert_refused(&t, &attacker, theirs, "www.loja.example").await;
        assert_refused(&t, &attacker, theirs, "loja.example").await;
        assert_eq!(holder(&t, "www.loja.example").await, Some(site));
        assert_eq!(holder(&t, "loja.example").await, Some(site));
    }
);

dual_test!(
    async fn claiming_the_apex_of_another_projects_verified_www_domain_is_refused(t: DomainApp) {
        let (owner, site) = t.owner_with_project("www-owner@example.com").await;
        t.own(&owner, site, "www.loja.example").await;
        let (attacker, theirs) = t.owner_with_project("apex-thief@example.com").await;

        assert_refused(&t, &attacker, theirs, "loja.example").await;
        assert_eq!(holder(&t, "loja.example").await, Some(site));
        assert_eq!(holder(&t, "www.loja.example").await, Some(site));
        // A deeper www is another unit (www.www.loja.example's is www.loja.example), so it
        // cannot reach the owner's either.
        assert_eq!(holder(&t, "www.www.loja.example").await, None);
    }
);

dual_test!(
    async fn a_dangling_or_wildcard_record_without_the_txt_proof_verifies_nothing(t: DomainApp) {
        let (attacker, theirs) = t.owner_with_project("dangler@example.com").await;
        // A name its owner left pointing at the platform, and a zone whose wildcard does.
        t.a("left-behind.example", PLATFORM_IP);
        t.dns.set(
            "wild.example",
            DnsRecord::Wildcard(PLATFORM_IP.parse().unwrap()),
        );
        for name in ["left-behind.example", "shop.wild.example", "wild.example"] {
            let text = expect_text(
                t.verify(&attacker, theirs, name).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert!(
                text.starts_with(&format!("_vitrine-challenge.{name} has no TXT record yet.")),
                "{text}"
            );
            assert!(
                text.contains(&format!("{name} points to {PLATFORM_IP}")),
                "{text}"
            );
            assert_eq!(holder(&t, name).await, None, "{name}");
        }
        // Someone else's token there proves nothing for the attacker either.
        let (owner, site) = t.owner_with_project("real-owner@example.com").await;
        t.prove(&owner, site, "left-behind.example").await;
        let text = expect_text(
            t.verify(&attacker, theirs, "left-behind.example").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(
            text.contains("has no TXT record with this project's token"),
            "{text}"
        );
        // The server's own re-checks do not verify it later.
        vitrine_control::domains::checks::check_due(t.app.app.state())
            .await
            .unwrap();
        t.app
            .store
            .save_domain_claim(ProjectId(theirs), "left-behind.example", chrono::Utc::now())
            .await
            .unwrap();
        assert_eq!(
            vitrine_control::domains::checks::check_due(t.app.app.state())
                .await
                .unwrap(),
            0
        );
        let p = t.project(&attacker, theirs).await;
        assert_eq!(
            p["domain"], "left-behind.example",
            "it waits, holding nothing"
        );
        assert_unverified(&p);
        assert_eq!(holder(&t, "left-behind.example").await, None);
    }
);

dual_test!(
    async fn a_pending_squatter_is_evicted_when_the_real_owner_proves_the_domain(t: DomainApp) {
        let (squatter, first) = t.owner_with_project("squatter@example.com").await;
        let second = t.app.create_project(&squatter, "Outra").await["id"]
            .as_i64()
            .unwrap();
        // The squatter saves both names of the unit as pending before the owner arrives.
        for (project, name) in [(first, "marca.example"), (second, "www.marca.example")] {
            json_ok(
                t.app
                    .post(
                        &squatter,
                        &format!("/api/projects/{project}"),
                        json!({"domain": name}),
                    )
                    .await,
            )
            .await;
        }
        expect_text(
            t.verify(&squatter, first, "marca.example").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;

        // The real owner is not blocked: proven and pointing, the name is theirs.
        let (owner, site) = t.owner_with_project("marca-owner@example.com").await;
        t.own(&owner, site, "marca.example").await;
        assert_eq!(holder(&t, "www.marca.example").await, Some(site));
        for project in [first, second] {
            let p = t.project(&squatter, project).await;
            assert!(
                p["domain"].is_null() && p["domain_check"].is_null(),
                "evicted: {p}"
            );
            assert_unverified(&p);
        }
        // And the squatter cannot come back for it.
        expect_code(
            t.verify(&squatter, first, "www.marca.example").await,
            StatusCode::CONFLICT,
            "domain_in_use",
        )
        .await;
    }
);

/// A control plane that checks pending domains again after 1 s (then 2 s, 4 s…).
struct QuickChecks(DomainApp);

impl QuickChecks {
    async fn new(backend: Backend) -> QuickChecks {
        QuickChecks(DomainApp::with(backend, |s| s.domain_recheck_base_secs = 1).await)
    }
}

/// Polls the project (deadline 60 s, the machine may be busy) until `done` holds.
async fn poll_project(t: &DomainApp, s: &Session, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    wait_until(
        "the project's domain state",
        Duration::from_secs(60),
        async || {
            last = t.project(s, id).await;
            done(&last)
        },
    )
    .await;
    last
}

dual_test!(
    async fn a_pending_domain_is_checked_again_by_the_server_and_verified_once_its_records_appear(
        t: QuickChecks,
    ) {
        let t = &t.0;
        let (s, id) = t.owner_with_project("patient@example.com").await;
        // Saved before any record exists.
        expect_text(
            t.verify(&s, id, "devagar.example").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        // The server checks it again on its own, and backs off.
        let p = poll_project(t, &s, id, |p| {
            p["domain_check"]["checks"].as_i64() >= Some(2)
        })
        .await;
        assert_unverified(&p);
        assert!(
            p["domain_check"]["last_result"]["message"]
                .as_str()
                .unwrap()
                .contains("has no TXT record yet"),
            "{p}"
        );
        // The owner's records propagate: the server verifies it without being asked.
        t.prove(&s, id, "devagar.example").await;
        t.a("devagar.example", PLATFORM_IP);
        let p = poll_project(t, &s, id, |p| p["meta"]["verified"] == true).await;
        assert_eq!(p["meta"]["verifiedDomain"], "devagar.example");
        assert!(p["domain_check"].is_null(), "{p}");
        assert_eq!(holder(t, "www.devagar.example").await, Some(id));
    }
);

dual_test!(
    async fn reserved_preview_slugs_are_refused_with_slug_reserved(t: DomainApp) {
        let s = t.app.register("reserved@example.com").await;
        for slug in [
            "www",
            "Admin",
            "api",
            "mail",
            "login",
            "status",
            "sites",
            "wpad",
            "xn--80ak6aa92e",
            "ab--cd",
        ] {
            let (field, message) = expect_code(
                t.app
                    .post(
                        &s,
                        "/api/projects",
                        json!({"name": "Imitação", "slug": slug}),
                    )
                    .await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "slug_reserved",
            )
            .await;
            assert_eq!(field, "slug", "{slug}");
            assert_eq!(message, "This address is reserved, please choose another");
        }
        let p = t.app.create_project(&s, "Admin").await;
        let id = p["id"].as_i64().unwrap();
        assert_eq!(
            p["slug"], "admin-site",
            "a name never derives a reserved slug"
        );
        expect_code(
            t.app
                .post(
                    &s,
                    &format!("/api/projects/{id}"),
                    json!({"slug": "dashboard"}),
                )
                .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "slug_reserved",
        )
        .await;
        assert_eq!(t.project(&s, id).await["slug"], "admin-site");
    }
);

dual_test!(
    async fn a_freed_slug_cannot_be_taken_by_another_account_while_it_cools_off(t: DomainApp) {
        let ana = t.app.register("ana-cool@example.com").await;
        let bia = t.app.register("bia-cool@example.com").await;
        let create = async |s: &Session, slug: &str| {
            t.app
                .post(s, "/api/projects", json!({"name": "Loja", "slug": slug}))
                .await
        };
        let old = json_ok(create(&ana, "padaria-da-ana").await).await["id"]
            .as_i64()
            .unwrap();
        // Deleted: its visitors' links still say padaria-da-ana.
        json_ok(t.app.delete(&ana, &format!("/api/projects/{old}")).await).await;
        let (field, message) = expect_code(
            create(&bia, "padaria-da-ana").await,
            StatusCode::CONFLICT,
            "slug_held",
        )
        .await;
        assert_eq!(field, "slug");
        assert!(message.contains("held for its previous owner"), "{message}");
        let bias = t.app.create_project(&bia, "Padaria da Ana").await;
        assert_eq!(bias["slug"], "padaria-da-ana-2", "a derived slug skips it");
        let bias = bias["id"].as_i64().unwrap();
        expect_code(
            t.app
                .post(
                    &bia,
                    &format!("/api/projects/{bias}"),
                    json!({"slug": "padaria-da-ana"}),
                )
                .await,
            StatusCode::CONFLICT,
            "slug_held",
        )
        .await;

        // A slug changed is held too; the owner takes either back.
        let renamed = json_ok(create(&ana, "confeitaria").await).await["id"]
            .as_i64()
            .unwrap();
        json_ok(
            t.app
                .post(
                    &ana,
                    &format!("/api/projects/{renamed}"),
                    json!({"slug": "confeitaria-nova"}),
                )
                .await,
        )
        .await;
        expect_code(
            create(&bia, "confeitaria").await,
            StatusCode::CONFLICT,
            "slug_held",
        )
        .await;
        let back = json_ok(create(&ana, "padaria-da-ana").await).await;
        assert_eq!(back["slug"], "padaria-da-ana");
        json_ok(
            t.app
                .post(
                    &ana,
                    &format!("/api/projects/{renamed}"),
                    json!({"slug": "confeitaria"}),
                )
                .await,
        )
        .await;
        assert_eq!(t.app.store.slug_hold("padaria-da-ana").await.unwrap(), None);
    }
);
