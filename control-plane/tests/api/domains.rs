//! Custom domains: the DNS check against a real DNS server (dnsmasq) (the TXT proof and the
//! pointing), the pending state, the server-owned verification flags, removing a domain, the
//! certificate status in the project JSON and the HSTS opt-in. The attacks on domains are in
//! `hostile/domains.rs`, which uses [`DomainApp`] too.

use chrono::{DateTime, Duration, Utc};
use reqwest::{Response, StatusCode};
use serde_json::{Value, json};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    store::now,
    testing::{Backend, DnsRecord, DnsServer},
};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

pub const PLATFORM_IP: &str = "203.0.113.7";
pub const TARGET: &str = "sites.vitrine.test";

/// A control plane whose DNS checks ask a dnsmasq the test controls.
pub struct DomainApp {
    pub app: TestApp,
    pub dns: DnsServer,
}

impl DomainApp {
    pub async fn new(backend: Backend) -> DomainApp {
        Self::with(backend, |_| {}).await
    }

    /// Like `new`, with settings adjusted by `tweak` before start-up.
    pub async fn with(
        backend: Backend,
        tweak: impl FnOnce(&mut vitrine_shared::Settings),
    ) -> DomainApp {
        let dns = DnsServer::start();
        let nameserver = dns.addr.to_string();
        let app = TestApp::with(backend, |s| {
            s.public_ip = PLATFORM_IP.into();
            s.cname_target = Some(TARGET.into());
            s.dns_nameservers = Some(nameserver);
            tweak(s);
        })
        .await;
        DomainApp { app, dns }
    }

    pub fn a(&self, name: &str, ip: &str) {
        self.dns.set(name, DnsRecord::A(ip.parse().unwrap()));
    }

    /// Sets `_vitrine-challenge.<domain>` TXT to the project's token: what only the domain's
    /// owner can do.
    pub async fn prove(&self, s: &Session, project: i64, domain: &str) {
        let token = self.project(s, project).await["domain_token"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(token.starts_with("vitrine-verify="), "{token}");
        self.dns.set(
            &format!("_vitrine-challenge.{domain}"),
            DnsRecord::Txt(token),
        );
    }

    /// Proves `domain` for the project, points it here and verifies it.
    pub async fn own(&self, s: &Session, project: i64, domain: &str) {
        self.prove(s, project, domain).await;
        self.a(domain, PLATFORM_IP);
        expect_text(self.verify(s, project, domain).await, StatusCode::OK).await;
    }

    pub async fn verify(&self, s: &Session, project: i64, domain: &str) -> Response {
        self.app
            .post(
                s,
                "/api/dns-verify",
                json!({"project_id": project, "domain": domain}),
            )
            .await
    }

    pub async fn project(&self, s: &Session, project: i64) -> Value {
        json_ok(self.app.get(s, &format!("/api/projects/{project}")).await).await
    }

    /// A signed-in owner and the id of a new project of theirs.
    pub async fn owner_with_project(&self, email: &str) -> (Session, i64) {
        let s = self.app.register(email).await;
        let id = self.app.create_project(&s, "Loja").await["id"]
            .as_i64()
            .unwrap();
        (s, id)
    }
}

/// Asserts a text/plain answer with `status` and returns its text.
pub async fn expect_text(res: Response, status: StatusCode) -> String {
    let got = res.status();
    let content_type = res.headers()["content-type"].to_str().unwrap().to_string();
    let text = res.text().await.unwrap();
    assert_eq!(got, status, "body: {text}");
    assert!(content_type.starts_with("text/plain"), "{content_type}");
    text
}

pub fn assert_unverified(p: &Value) {
    assert_eq!(p["meta"]["verified"], false, "{p}");
    assert!(p["meta"]["verifiedDomain"].is_null(), "{p}");
    assert!(p["meta"]["verifiedTimestamp"].is_null(), "{p}");
}

dual_test!(
    async fn an_a_record_and_the_txt_proof_verify_the_domain(t: DomainApp) {
        let (s, id) = t.owner_with_project("a-record@example.com").await;
        t.a("shop.example", PLATFORM_IP);
        t.prove(&s, id, "shop.example").await;
        let before = Utc::now();
        let text = expect_text(t.verify(&s, id, " Shop.Example ").await, StatusCode::OK).await;
        assert_eq!(text, "Domain verified: shop.example points to 203.0.113.7");
        let p = t.project(&s, id).await;
        assert_eq!(p["domain"], "shop.example");
        assert_eq!(p["meta"]["verified"], true);
        assert_eq!(p["meta"]["verifiedDomain"], "shop.example");
        assert!(p["domain_check"].is_null(), "nothing waits: {p}");
        let at: DateTime<Utc> = p["meta"]["verifiedTimestamp"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(at >= before - Duration::seconds(1) && at <= Utc::now());
        assert!(p["certificate"].is_null(), "no certificate yet: {p}");
        // The edge now finds the project by this name.
        assert_eq!(
            t.app
                .store
                .verified_project_for("shop.example")
                .await
                .unwrap(),
            Some(ProjectId(id))
        );

        // Only the check writes the flags: a project update can neither clear nor move them.
        let updated = json_ok(
            t.app
                .post(
                    &s,
                    &format!("/api/projects/{id}"),
                    json!({"verified": false, "verifiedDomain": "evil.example",
                           "meta": {"verified": false, "verifiedDomain": "evil.example",
                                    "verifiedTimestamp": "2020-01-01T00:00:00Z", "description": "d"}}),
                )
                .await,
        )
        .await;
        assert_eq!(updated["meta"]["verified"], true);
        assert_eq!(updated["meta"]["verifiedDomain"], "shop.example");
        assert_eq!(
            updated["meta"]["verifiedTimestamp"],
            p["meta"]["verifiedTimestamp"]
        );
        assert_eq!(updated["meta"]["description"], "d");
    }
);

dual_test!(
    async fn a_caller_that_accepts_json_gets_each_finding_as_a_code(t: DomainApp) {
        let (s, id) = t.owner_with_project("coded@example.com").await;
        let ask = |domain: &str| {
            s.client
                .post(t.app.url("/api/dns-verify"))
                .header("accept", "application/json")
                .json(&json!({"project_id": id, "domain": domain}))
                .send()
        };
        // Nothing set yet: the API's error shape, each finding a code with its values.
        let res = ask("shop.example").await.unwrap();
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json")
        );
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "dns_not_ready", "{body}");
        assert_eq!(body["params"]["domain"], "shop.example");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("has no TXT record yet")
        );
        let codes: Vec<&str> = body["details"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(
            codes,
            [
                "dns_txt_missing",
                "dns_no_records",
                "dns_set_txt",
                "dns_set_pointing",
                "dns_proxy_off",
                "dns_pending"
            ]
        );
        assert_eq!(
            body["details"][2]["params"]["record"],
            "_vitrine-challenge.shop.example"
        );
        assert_eq!(body["details"][3]["params"]["address"], PLATFORM_IP);
        // The pending domain keeps the same report for the overview.
        let p = t.project(&s, id).await;
        assert_eq!(p["domain_check"]["last_result"]["code"], "dns_not_ready");
        assert_eq!(p["domain_check"]["last_result"]["details"], body["details"]);

        t.a("shop.example", PLATFORM_IP);
        t.prove(&s, id, "shop.example").await;
        let res = ask("shop.example").await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "dns_verified_address", "{body}");
        assert_eq!(
            body["params"],
            json!({"domain": "shop.example", "ip": PLATFORM_IP})
        );
        assert_eq!(
            body["message"],
            "Domain verified: shop.example points to 203.0.113.7"
        );
    }
);

dual_test!(
    async fn a_cname_to_the_platform_target_and_the_txt_proof_verify_the_domain(t: DomainApp) {
        let (s, id) = t.owner_with_project("cname@example.com").await;
        t.dns
            .set("www.shop.example", DnsRecord::Cname(TARGET.into()));
        t.prove(&s, id, "www.shop.example").await;
        let text = expect_text(t.verify(&s, id, "www.shop.example").await, StatusCode::OK).await;
        assert_eq!(
            text,
            "Domain verified: www.shop.example is an alias of sites.vitrine.test"
        );
        let p = t.project(&s, id).await;
        assert_eq!(p["domain"], "www.shop.example");
        assert_eq!(p["meta"]["verified"], true);
        assert_eq!(p["meta"]["verifiedDomain"], "www.shop.example");
        assert!(p["meta"]["verifiedTimestamp"].is_string());
    }
);

dual_test!(
    async fn a_proven_domain_pointing_elsewhere_waits_as_pending_naming_what_was_found(
        t: DomainApp,
    ) {
        let (s, id) = t.owner_with_project("elsewhere@example.com").await;
        t.a("shop.example", "198.51.100.9");
        t.prove(&s, id, "shop.example").await;
        let text = expect_text(
            t.verify(&s, id, "shop.example").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(
            text,
            "_vitrine-challenge.shop.example holds this project's token. shop.example does not \
             point to 203.0.113.7 (found: 198.51.100.9). Set an A record to 203.0.113.7 or a \
             CNAME to sites.vitrine.test. If a CDN proxy is used it must be off. shop.example is \
             saved as pending: we check it again on our own, and it starts working as soon as \
             both records are in place. DNS changes can take a while to reach every server."
        );
        // Saved as pending: the owner need not type it again.
        let p = t.project(&s, id).await;
        assert_eq!(p["domain"], "shop.example");
        assert_eq!(p["domain_check"]["domain"], "shop.example");
        assert_eq!(p["domain_check"]["checks"], 1);
        assert_eq!(p["domain_check"]["last_result"]["message"], text.as_str());
        assert_eq!(p["domain_check"]["last_result"]["code"], "dns_not_ready");
        assert_eq!(
            p["domain_check"]["last_result"]["details"][1]["code"],
            "dns_points_elsewhere"
        );
        assert!(p["domain_check"]["next_check_at"].is_string(), "{p}");
        assert_unverified(&p);

        // A CNAME to some other host names that host; the pending domain is now this one.
        t.dns.set(
            "blog.example",
            DnsRecord::Cname("other-host.example".into()),
        );
        let text = expect_text(
            t.verify(&s, id, "blog.example").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(text.contains("found: other-host.example"), "{text}");
        let p = t.project(&s, id).await;
        assert_eq!(p["domain"], "blog.example");
        assert_unverified(&p);

        // Once the owner fixes the record, the same call verifies.
        t.a("shop.example", PLATFORM_IP);
        expect_text(t.verify(&s, id, "shop.example").await, StatusCode::OK).await;
        let p = t.project(&s, id).await;
        assert_eq!(p["meta"]["verified"], true);
        assert!(p["domain_check"].is_null(), "{p}");
    }
);

dual_test!(
    async fn a_domain_without_records_is_saved_as_pending_saying_what_to_set(t: DomainApp) {
        let (s, id) = t.owner_with_project("norecords@example.com").await;
        let token = t.project(&s, id).await["domain_token"]
            .as_str()
            .unwrap()
            .to_string();
        let text = expect_text(
            t.verify(&s, id, "nothing-here.example").await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(
            text.starts_with(
                "_vitrine-challenge.nothing-here.example has no TXT record yet. \
                 nothing-here.example has no A, AAAA or CNAME record yet."
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "Set a TXT record _vitrine-challenge.nothing-here.example with the value {token}, \
                 and an A record to 203.0.113.7 or a CNAME to sites.vitrine.test"
            )),
            "{text}"
        );
        let p = t.project(&s, id).await;
        assert_eq!(p["domain"], "nothing-here.example");
        assert_unverified(&p);
    }
);

/// A control plane whose nameserver is a loopback port nobody answers on.
struct UnreachableApp(TestApp);

impl UnreachableApp {
    async fn new(backend: Backend) -> UnreachableApp {
        let port = std::net::UdpSocket::bind("127.0.0.1:0")
            .and_then(|s| s.local_addr())
            .unwrap()
            .port();
        UnreachableApp(
            TestApp::with(backend, |s| {
                s.public_ip = PLATFORM_IP.into();
                s.cname_target = Some(TARGET.into());
                s.dns_nameservers = Some(format!("127.0.0.1:{port}"));
            })
            .await,
        )
    }
}

dual_test!(
    async fn an_unreachable_dns_server_is_a_503_that_verifies_nothing_and_keeps_the_domain_pending(
        t: UnreachableApp,
    ) {
        let app = &t.0;
        let s = app.register("unreachable@example.com").await;
        let id = app.create_project(&s, "Loja").await["id"].as_i64().unwrap();
        let text = expect_text(
            app.post(
                &s,
                "/api/dns-verify",
                json!({"project_id": id, "domain": "shop.example"}),
            )
            .await,
            StatusCode::SERVICE_UNAVAILABLE,
        )
        .await;
        assert_eq!(
            text,
            "The DNS servers could not be reached to check shop.example. shop.example is saved \
             as pending: we check it again on our own, and it starts working as soon as both \
             records are in place. DNS changes can take a while to reach every server. You can \
             also try again in a few minutes."
        );
        let p = json_ok(app.get(&s, &format!("/api/projects/{id}")).await).await;
        assert_eq!(p["domain"], "shop.example");
        assert_unverified(&p);
    }
);

dual_test!(
    async fn an_invalid_domain_is_refused_before_any_lookup(t: DomainApp) {
        let (s, id) = t.owner_with_project("invalid@example.com").await;
        for bad in [
            "",
            "nope",
            "exa mple.com",
            "http://1.2.3.4/",
            "1.2.3.4",
            "-shop.example",
            "shop.localhost",
        ] {
            let msg = expect_error(
                t.verify(&s, id, bad).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert_eq!(msg, "invalid domain", "{bad:?}");
        }
        let p = t.project(&s, id).await;
        assert!(p["domain"].is_null());
        assert_unverified(&p);
    }
);

dual_test!(
    async fn a_pasted_address_is_saved_as_its_host_pending_with_the_next_check_time(t: DomainApp) {
        let (s, id) = t.owner_with_project("pasted@example.com").await;
        let before = Utc::now();
        // Saved with the project (the dashboard saves it as soon as the owner enters it).
        let p = json_ok(
            t.app
                .post(
                    &s,
                    &format!("/api/projects/{id}"),
                    json!({"domain": "  HTTPS://WWW.X.com.br/loja?utm=1  "}),
                )
                .await,
        )
        .await;
        assert_eq!(p["domain"], "www.x.com.br", "{p}");
        let check = &p["domain_check"];
        assert_eq!(check["domain"], "www.x.com.br");
        assert_eq!(check["checks"], 0);
        // The server's schedule: the first background check comes the base interval later.
        let next: DateTime<Utc> = check["next_check_at"].as_str().unwrap().parse().unwrap();
        assert!(next > before, "{next} after {before}");
        assert!(next <= Utc::now() + Duration::hours(1), "{next}");
        // The preview address is where the site answers meanwhile.
        let preview = p["preview_url"].as_str().unwrap();
        assert!(preview.contains(p["slug"].as_str().unwrap()), "{preview}");
        assert_unverified(&p);
        // The list says the same.
        let list = json_ok(t.app.get(&s, "/api/projects").await).await;
        let listed = list
            .as_array()
            .or_else(|| list["data"].as_array())
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .cloned()
            .unwrap();
        assert_eq!(
            listed["domain_check"]["next_check_at"],
            check["next_check_at"]
        );

        // Verify takes the pasted address too, and checks its host.
        let res = t.verify(&s, id, "https://loja.example/").await;
        expect_text(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        let p = t.project(&s, id).await;
        assert_eq!(p["domain"], "loja.example");
        assert_eq!(p["domain_check"]["domain"], "loja.example");
        assert!(p["domain_check"]["next_check_at"].is_string(), "{p}");
    }
);

dual_test!(
    async fn a_domain_another_project_verified_is_in_use_and_a_pending_one_is_not(t: DomainApp) {
        let (s, mine) = t.owner_with_project("holder-a@example.com").await;
        let other = t.app.register("holder-b@example.com").await;
        let theirs = t.app.create_project(&other, "Deles").await["id"]
            .as_i64()
            .unwrap();
        t.own(&other, theirs, "verified.example").await;

        // Another project waits for parked.example: that holds nothing back.
        let parked = t.app.create_project(&other, "Parado").await["id"]
            .as_i64()
            .unwrap();
        let p = json_ok(
            t.app
                .post(
                    &other,
                    &format!("/api/projects/{parked}"),
                    json!({"domain": "Parked.Example"}),
                )
                .await,
        )
        .await;
        assert_eq!(p["domain"], "parked.example");
        assert_eq!(p["domain_check"]["domain"], "parked.example");
        assert_eq!(p["domain_check"]["checks"], 0);
        json_ok(
            t.app
                .post(
                    &s,
                    &format!("/api/projects/{mine}"),
                    json!({"domain": "parked.example"}),
                )
                .await,
        )
        .await;
        assert_eq!(t.project(&s, mine).await["domain"], "parked.example");

        // verified.example and its www twin have no records of this project: the answer
        // comes before any lookup.
        for taken in ["Verified.Example", "www.verified.example"] {
            let msg = expect_error(t.verify(&s, mine, taken).await, StatusCode::CONFLICT).await;
            assert_eq!(msg, "domain already in use", "{taken}");
        }
        let p = t.project(&s, mine).await;
        assert_eq!(p["domain"], "parked.example", "the pending domain stays");
        assert_unverified(&p);

        // A project may check its own domain again.
        expect_text(
            t.verify(&other, theirs, "verified.example").await,
            StatusCode::OK,
        )
        .await;
    }
);

dual_test!(
    async fn another_users_project_is_not_found_and_nothing_changes(t: DomainApp) {
        let (owner, id) = t.owner_with_project("owner-dom@example.com").await;
        let stranger = t.app.register("stranger-dom@example.com").await;
        t.own(&owner, id, "shop.example").await;
        t.a("evil.example", PLATFORM_IP);
        let before = t.project(&owner, id).await;

        expect_error(
            t.verify(&stranger, id, "evil.example").await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            t.app
                .post(&stranger, &format!("/api/remove-domain/{id}"), json!({}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        // The same answer as for a project that does not exist.
        expect_error(
            t.verify(&stranger, 987654, "evil.example").await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(
            t.app
                .post(&stranger, "/api/remove-domain/987654", json!({}))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        assert_eq!(t.project(&owner, id).await, before);
        assert_eq!(
            t.app
                .store
                .verified_project_for("evil.example")
                .await
                .unwrap(),
            None
        );
    }
);

/// Puts a certificate row for `domain` into the `pending` state (an order under way).
async fn claim(app: &TestApp, domain: &str, project: i64) {
    let now = Utc::now();
    assert!(
        app.store
            .claim_order(
                domain,
                Some(ProjectId(project)),
                "node-a",
                now + Duration::minutes(5),
                now + Duration::days(30),
            )
            .await
            .unwrap()
    );
}

dual_test!(
    async fn the_project_json_shows_the_certificate_status(t: DomainApp) {
        let (s, id) = t.owner_with_project("cert@example.com").await;
        t.own(&s, id, "shop.example").await;
        assert!(t.project(&s, id).await["certificate"].is_null());

        claim(&t.app, "shop.example", id).await;
        let cert = t.project(&s, id).await["certificate"].clone();
        assert_eq!(cert["domain"], "shop.example");
        assert_eq!(cert["status"], "pending");
        assert!(cert["expires_at"].is_null());
        assert_eq!(cert["failures"], 0);

        let not_after = now() + Duration::days(90);
        t.app
            .store
            .store_issued("shop.example", "node-a", "CERT PEM", "KEY PEM", not_after)
            .await
            .unwrap();
        let cert = t.project(&s, id).await["certificate"].clone();
        assert_eq!(cert["status"], "issued");
        let expires: DateTime<Utc> = cert["expires_at"].as_str().unwrap().parse().unwrap();
        assert_eq!(expires, not_after);
        assert!(cert["last_error"].is_null());
        assert_eq!(cert["failures"], 0);

        // A renewal that fails: the status says so, and the old certificate's expiry stays.
        let renew_before = now() + Duration::days(120);
        assert!(
            t.app
                .store
                .claim_order(
                    "shop.example",
                    Some(ProjectId(id)),
                    "node-b",
                    now() + Duration::minutes(5),
                    renew_before,
                )
                .await
                .unwrap()
        );
        t.app
            .store
            .store_failure(
                "shop.example",
                "node-b",
                "urn:ietf:params:acme:error:connection: timeout during connect",
                Duration::minutes(1),
                Duration::hours(1),
            )
            .await
            .unwrap();
        let cert = t.project(&s, id).await["certificate"].clone();
        assert_eq!(cert["status"], "failing");
        assert_eq!(
            cert["last_error"],
            "urn:ietf:params:acme:error:connection: timeout during connect"
        );
        assert_eq!(cert["failures"], 1);
        assert!(cert["next_attempt_at"].is_string(), "{cert}");
        let expires: DateTime<Utc> = cert["expires_at"].as_str().unwrap().parse().unwrap();
        assert_eq!(expires, not_after);

        // The list never carries it.
        let list = json_ok(t.app.get(&s, "/api/projects").await).await;
        assert!(list[0].get("certificate").is_none(), "{list}");
    }
);

dual_test!(
    async fn removing_the_domain_clears_it_with_its_verification_and_certificate(t: DomainApp) {
        let (s, id) = t.owner_with_project("remove@example.com").await;
        t.own(&s, id, "shop.example").await;
        claim(&t.app, "shop.example", id).await;
        t.app
            .store
            .store_issued(
                "shop.example",
                "node-a",
                "CERT PEM",
                "KEY PEM",
                now() + Duration::days(90),
            )
            .await
            .unwrap();
        assert_eq!(t.project(&s, id).await["certificate"]["status"], "issued");

        let removed = json_ok(
            t.app
                .post(&s, &format!("/api/remove-domain/{id}"), json!({}))
                .await,
        )
        .await;
        assert_eq!(removed["id"], id);
        assert!(removed["domain"].is_null());
        assert_unverified(&removed);
        assert!(removed["certificate"].is_null());
        assert_eq!(t.project(&s, id).await, removed);
        assert_eq!(t.app.store.certificate("shop.example").await.unwrap(), None);
        assert_eq!(
            t.app
                .store
                .verified_project_for("shop.example")
                .await
                .unwrap(),
            None
        );

        // The name is free again: another project may verify it (with its own proof).
        let (other, theirs) = t.owner_with_project("remove-next@example.com").await;
        t.own(&other, theirs, "shop.example").await;
        // Removing a domain that is not there is harmless.
        let again = json_ok(
            t.app
                .post(&s, &format!("/api/remove-domain/{id}"), json!({}))
                .await,
        )
        .await;
        assert!(again["domain"].is_null());
    }
);

dual_test!(
    async fn a_new_domain_waits_as_pending_while_the_verified_one_keeps_serving(t: DomainApp) {
        let (s, id) = t.owner_with_project("switch@example.com").await;
        t.own(&s, id, "old.example").await;
        let path = format!("/api/projects/{id}");
        let p = json_ok(
            t.app
                .post(&s, &path, json!({"domain": "new.example"}))
                .await,
        )
        .await;
        assert_eq!(p["domain"], "new.example");
        assert_eq!(p["domain_check"]["domain"], "new.example");
        assert_eq!(p["meta"]["verifiedDomain"], "old.example");
        assert_eq!(
            t.app.store.domain_holder("old.example").await.unwrap(),
            Some(ProjectId(id)),
            "the verified domain serves until the new one is proven"
        );
        // Going back to the verified domain drops the pending one.
        let p = json_ok(
            t.app
                .post(&s, &path, json!({"domain": "old.example"}))
                .await,
        )
        .await;
        assert_eq!(p["domain"], "old.example");
        assert!(p["domain_check"].is_null(), "{p}");
        // The new one proven: it replaces the old one.
        t.own(&s, id, "new.example").await;
        assert_eq!(
            t.app.store.domain_holder("old.example").await.unwrap(),
            None
        );
        assert_eq!(
            t.app.store.domain_holder("www.new.example").await.unwrap(),
            Some(ProjectId(id))
        );
        // The list shows the pending domain too.
        json_ok(
            t.app
                .post(&s, &path, json!({"domain": "next.example"}))
                .await,
        )
        .await;
        let list = json_ok(t.app.get(&s, "/api/projects").await).await;
        assert_eq!(list[0]["domain"], "next.example");
        assert_eq!(list[0]["domain_check"]["domain"], "next.example");
        // null removes both the pending and the verified domain.
        let p = json_ok(t.app.post(&s, &path, json!({"domain": null})).await).await;
        assert!(p["domain"].is_null() && p["domain_check"].is_null(), "{p}");
        assert_unverified(&p);
        assert_eq!(
            t.app.store.domain_holder("new.example").await.unwrap(),
            None
        );
    }
);

dual_test!(
    async fn hsts_is_an_owner_opt_in_that_must_be_a_boolean(t: DomainApp) {
        let (s, id) = t.owner_with_project("hsts@example.com").await;
        assert!(t.project(&s, id).await["meta"].get("hsts").is_none());
        let path = format!("/api/projects/{id}");
        let on = json_ok(t.app.post(&s, &path, json!({"meta": {"hsts": true}})).await).await;
        assert_eq!(on["meta"]["hsts"], true);
        assert_eq!(t.project(&s, id).await["meta"]["hsts"], true);
        // Other meta updates leave it alone.
        let other = json_ok(
            t.app
                .post(&s, &path, json!({"meta": {"description": "x"}}))
                .await,
        )
        .await;
        assert_eq!(other["meta"]["hsts"], true);
        for bad in [json!("yes"), json!(1), json!("true"), json!({}), json!([])] {
            let msg = expect_error(
                t.app.post(&s, &path, json!({"meta": {"hsts": bad}})).await,
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
            assert!(
                msg.contains("meta.hsts") && msg.contains("expected a boolean"),
                "{bad}: {msg}"
            );
        }
        assert_eq!(t.project(&s, id).await["meta"]["hsts"], true);
        let off = json_ok(
            t.app
                .post(&s, &path, json!({"meta": {"hsts": false}}))
                .await,
        )
        .await;
        assert_eq!(off["meta"]["hsts"], false);
    }
);
