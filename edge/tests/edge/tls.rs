//! HTTPS at the edge with real components on loopback: Pebble as the ACME server, dnsmasq as
//! the DNS server, rustls on both ends.

use std::time::Duration;

use vitrine_edge::Edge;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    Settings,
    dns::{DnsCheck, Pointing, Proof, Verdict},
    dual_test,
    testing::{DnsRecord, DnsServer, TestDb},
};

use crate::{
    pebble::{Pebble, client, fetch},
    support::{TestEdge, settings},
};

pub const LOCALHOST: &str = "127.0.0.1";
/// What Let's Encrypt issues; anything shorter than the 30-day renewal window renews at once.
pub const NINETY_DAYS: u64 = 90 * 24 * 3600;

/// DNS, Pebble and the settings an edge needs to use them.
pub struct Rig {
    pub dns: DnsServer,
    pub pebble: Pebble,
}

impl Rig {
    pub fn new() -> Rig {
        Rig {
            dns: DnsServer::start(),
            pebble: Pebble::prepare(),
        }
    }

    pub fn tweak(&self, s: &mut Settings) {
        s.acme_directory_url = Some(self.pebble.directory_url.clone());
        s.acme_ca_bundle = Some(self.pebble.ca_file.clone());
        s.dns_nameservers = Some(self.dns.addr.to_string());
        s.public_ip = LOCALHOST.into();
        s.acme_backoff_base_secs = 1;
        s.acme_issue_wait_ms = 60_000;
    }
}

/// What the owner's "verify" does: the TXT proof and the A record set, the DNS check of
/// both, then the server-owned flag.
pub async fn verify(t: &TestEdge, rig: &Rig, project: i64, domain: &str) {
    rig.dns
        .set(domain, DnsRecord::A(LOCALHOST.parse().unwrap()));
    let uuid =
        t.db.store
            .project_by_id(ProjectId(project))
            .await
            .unwrap()
            .uuid;
    let token = vitrine_shared::domain::challenge_value(&uuid);
    rig.dns.set(
        &vitrine_shared::domain::challenge_name(domain),
        DnsRecord::Txt(token.clone()),
    );
    let s = Settings {
        public_ip: LOCALHOST.into(),
        dns_nameservers: Some(rig.dns.addr.to_string()),
        ..Settings::default()
    };
    let check = DnsCheck::from_settings(&s).unwrap();
    let mut outcome = check.verify(domain, &token).await;
    // The local DNS server is a process of its own: on a machine loaded by the whole suite a
    // query may time out (3 s, twice). That is not what these tests are about, so a check
    // that could not reach it is asked again, as an owner would press "verify" again.
    for _ in 0..3 {
        if outcome.unreachable().is_none() {
            break;
        }
        outcome = check.verify(domain, &token).await;
    }
    assert_eq!(
        (outcome.proof, outcome.pointing),
        (
            Proof::Proven,
            Verdict::Points(Pointing::Address(LOCALHOST.parse().unwrap()))
        )
    );
    t.db.store
        .mark_domain_verified(ProjectId(project), domain)
        .await
        .unwrap();
}

pub async fn orders(t: &TestEdge) -> i64 {
    t.db.store
        .acme_orders_since(chrono::Utc::now() - chrono::Duration::hours(1))
        .await
        .unwrap()
}

async fn second_edge(t: &TestEdge, rig: &Rig, spool: &std::path::Path) -> Edge {
    let mut s = settings(spool);
    rig.tweak(&mut s);
    Edge::build_with(&s, t.db.store.clone(), t.blobs.clone())
        .await
        .unwrap()
}

dual_test! {
    async fn a_verified_domain_gets_a_pebble_certificate_that_survives_a_restart(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| rig.tweak(s)).await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        let loja = t.simple_site("loja", "<h1>Loja segura</h1>").await;
        verify(&t, &rig, loja, "loja.test").await;

        // The first handshake orders, waits for Pebble, and is served the new certificate.
        let (status, body, serial) = fetch(&root, "loja.test", t.edge.https_addr)
            .await
            .unwrap_or_else(|e| panic!("{e:?}\n{}", rig.pebble.log()));
        assert_eq!((status, body.as_str()), (200, "<h1>Loja segura</h1>"));
        assert_eq!(orders(&t).await, 1);
        let stored = t.db.store.certificate("loja.test").await.unwrap().unwrap();
        assert_eq!(stored.status, "issued");
        assert!(stored.cert_pem.is_some() && stored.key_pem.is_some());
        assert!(stored.not_after.unwrap() > chrono::Utc::now() + chrono::Duration::minutes(50));
        let status = t.db.store.certificate_status(ProjectId(loja)).await.unwrap().unwrap();
        assert_eq!(status.status.code(), "issued");

        // HTTP now redirects to HTTPS, except for ACME challenges.
        let r = t.get("loja.test", "/sobre?x=1").send().await.unwrap();
        assert_eq!(r.status(), 301);
        assert_eq!(
            r.headers()["location"],
            format!("https://loja.test:{}/sobre?x=1", t.edge.https_addr.port()).as_str()
        );
        let r = t.get("loja.test", "/.well-known/acme-challenge/unknown-token").send().await.unwrap();
        assert_eq!(r.status(), 404);

        // The ACME account is stored once, for every node and restart.
        let account_before = t.db.store.acme_account(&rig.pebble.directory_url).await.unwrap();
        assert!(account_before.as_deref().is_some_and(|a| a.contains("key_pkcs8")), "{account_before:?}");

        // A restarted edge (nothing in memory) serves the stored certificate without ordering.
        let spool = tempfile::tempdir().unwrap();
        let again = second_edge(&t, &rig, spool.path()).await;
        let (status, _, serial_again) = fetch(&root, "loja.test", again.https_addr).await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(serial_again, serial);
        assert_eq!(orders(&t).await, 1, "no new order after a restart");
        assert_eq!(
            t.db.store.acme_account(&rig.pebble.directory_url).await.unwrap(),
            account_before,
            "the same account"
        );
        again.stop().await;
    }
}

dual_test! {
    async fn the_www_twin_of_a_verified_domain_gets_its_own_certificate_and_strangers_none(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| rig.tweak(s)).await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        let loja = t.simple_site("loja", "<h1>Loja gêmea</h1>").await;
        verify(&t, &rig, loja, "gemea.test").await;
        rig.dns.set("www.gemea.test", DnsRecord::A(LOCALHOST.parse().unwrap()));

        let (status, body, www) = fetch(&root, "www.gemea.test", t.edge.https_addr)
            .await
            .unwrap_or_else(|e| panic!("{e:?}\n{}", rig.pebble.log()));
        assert_eq!((status, body.as_str()), (200, "<h1>Loja gêmea</h1>"));
        let (status, _, bare) = fetch(&root, "gemea.test", t.edge.https_addr).await.unwrap();
        assert_eq!(status, 200);
        assert_ne!(www, bare, "one certificate per name");
        assert_eq!(orders(&t).await, 2);
        assert!(t.db.store.certificate("www.gemea.test").await.unwrap().is_some());

        // A www name whose bare twin is nobody's verified domain is refused, never ordered.
        rig.dns.set("www.alheio.test", DnsRecord::A(LOCALHOST.parse().unwrap()));
        assert!(fetch(&root, "www.alheio.test", t.edge.https_addr).await.is_err());
        assert_eq!(orders(&t).await, 2);
    }
}

dual_test! {
    async fn two_edges_sharing_a_database_order_a_domain_once(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| rig.tweak(s)).await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        let loja = t.simple_site("loja", "<h1>Loja</h1>").await;
        verify(&t, &rig, loja, "duas.test").await;
        let spool = tempfile::tempdir().unwrap();
        let other = second_edge(&t, &rig, spool.path()).await;

        // Both nodes get their first handshake for the name at the same time.
        let (a, b) = tokio::join!(
            fetch(&root, "duas.test", t.edge.https_addr),
            fetch(&root, "duas.test", other.https_addr),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!((a.0, b.0), (200, 200));
        assert_eq!(a.2, b.2, "both nodes serve the one certificate");
        assert_eq!(orders(&t).await, 1, "one order for two nodes");
        other.stop().await;
    }
}

dual_test! {
    async fn an_unverified_domain_never_triggers_an_order(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| rig.tweak(s)).await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        t.simple_site("loja", "<h1>Loja</h1>").await;
        // It points here, but nobody verified it for a project.
        rig.dns.set("nao-verificado.test", DnsRecord::A(LOCALHOST.parse().unwrap()));
        for _ in 0..3 {
            assert!(fetch(&root, "nao-verificado.test", t.edge.https_addr).await.is_err());
        }
        assert_eq!(orders(&t).await, 0);
        assert!(t.db.store.certificate("nao-verificado.test").await.unwrap().is_none());
        let metrics = t.client.get(format!("http://{}/metrics", t.edge.admin_addr))
            .send().await.unwrap().text().await.unwrap();
        assert!(
            metrics.contains("vitrine_edge_tls_handshakes_total{result=\"unknown_name\"}"),
            "{metrics}"
        );
    }
}

dual_test! {
    async fn a_short_lived_certificate_is_renewed_and_a_domain_moved_away_is_not(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| {
            rig.tweak(s);
            // Pebble issues 40 s certificates; renew in the last 30 s, checking every second.
            s.acme_renew_before_secs = 30;
            s.acme_renew_check_secs = 1;
        })
        .await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, 40).await;
        let root = rig.pebble.issuing_root().await;
        let loja = t.simple_site("loja", "<h1>Loja</h1>").await;
        verify(&t, &rig, loja, "curta.test").await;
        let (_, _, first) = fetch(&root, "curta.test", t.edge.https_addr).await.unwrap();
        let first_expiry = t.db.store.certificate("curta.test").await.unwrap().unwrap().not_after;

        // Within ~10 s the certificate enters its renewal window and is renewed.
        let deadline = std::time::Instant::now() + Duration::from_secs(40);
        loop {
            let c = t.db.store.certificate("curta.test").await.unwrap().unwrap();
            if c.not_after > first_expiry && c.status == "issued" {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "not renewed: {c:?}\n{}", rig.pebble.log());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(orders(&t).await >= 2);
        // The edge hears of the new certificate through the change feed and serves it.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        loop {
            let (_, _, serial) = fetch(&root, "curta.test", t.edge.https_addr).await.unwrap();
            if serial != first {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "still serving the old certificate");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        // The owner points the domain elsewhere: the next renewal re-checks DNS and refuses.
        rig.dns.set("curta.test", DnsRecord::A("198.51.100.7".parse().unwrap()));
        let before = orders(&t).await;
        let deadline = std::time::Instant::now() + Duration::from_secs(40);
        let failing = loop {
            let c = t.db.store.certificate_status(ProjectId(loja)).await.unwrap().unwrap();
            if c.status.code() == "failing" {
                break c;
            }
            assert!(std::time::Instant::now() < deadline, "renewal was not refused: {c:?}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let error = failing.last_error.unwrap();
        assert!(error.contains("no longer points") && error.contains("198.51.100.7"), "{error}");
        assert_eq!(orders(&t).await, before, "no order for a domain that moved away");
        // The still-valid certificate keeps being served meanwhile.
        let (status, _, _) = fetch(&root, "curta.test", t.edge.https_addr).await.unwrap();
        assert_eq!(status, 200);
    }
}

dual_test! {
    async fn an_acme_server_that_is_down_means_back_off_not_a_busy_loop(db: TestDb) {
        let rig = Rig::new();
        let closed = crate::pebble::free_port();
        let t = TestEdge::start_with(db, None, |s| {
            rig.tweak(s);
            s.acme_directory_url = Some(format!("https://127.0.0.1:{closed}/dir"));
            s.acme_issue_wait_ms = 2_000;
        })
        .await;
        let loja = t.simple_site("loja", "<h1>Loja</h1>").await;
        verify(&t, &rig, loja, "fora.test").await;
        let any_root = std::fs::read_to_string(&rig.pebble.ca_file).unwrap();

        // Thirty handshakes over about four seconds.
        let start = std::time::Instant::now();
        for _ in 0..30 {
            assert!(fetch(&any_root, "fora.test", t.edge.https_addr).await.is_err());
            tokio::time::sleep(Duration::from_millis(120)).await;
        }
        let elapsed = start.elapsed();
        let c = t.db.store.certificate_status(ProjectId(loja)).await.unwrap().unwrap();
        assert_eq!(c.status.code(), "failing");
        // Back-off of 1 s, 2 s, 4 s…: at most four attempts fit, not thirty.
        assert!(
            (1..=4).contains(&c.failures),
            "{} attempts in {elapsed:?}: {c:?}",
            c.failures
        );
        assert!(c.next_attempt_at.unwrap() > chrono::Utc::now());
        assert!(c.last_error.is_some());
        assert_eq!(orders(&t).await, c.failures, "every attempt is counted for the cap");
    }
}

/// Stores a self-signed certificate for `name` as if it had been issued; returns its PEM.
pub async fn stored_certificate(t: &TestEdge, project: i64, name: &str) -> String {
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec![name.to_string()])
        .unwrap()
        .self_signed(&key)
        .unwrap();
    vitrine_shared::testing::store_certificate(
        &t.db.store,
        ProjectId(project),
        name,
        &cert.pem(),
        &key.serialize_pem(),
        chrono::Utc::now() + chrono::Duration::days(80),
    )
    .await;
    cert.pem()
}

dual_test! {
    async fn a_stored_certificate_serves_h2_and_tls_1_2_and_hsts_is_opt_in(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.simple_site("loja", "<h1>Loja</h1>").await;
        t.db.store.mark_domain_verified(ProjectId(loja), "seguro.test").await.unwrap();
        let pem = stored_certificate(&t, loja, "seguro.test").await;
        assert_eq!(t.edge.certs.cached(), 0, "nothing is loaded before the first handshake");

        let url = format!("https://seguro.test:{}/", t.edge.https_addr.port());
        let r = client(&pem, "seguro.test", t.edge.https_addr).get(&url).send().await.unwrap();
        assert_eq!(r.version(), reqwest::Version::HTTP_2, "ALPN picks h2");
        assert!(r.headers().get("strict-transport-security").is_none(), "HSTS is opt-in");
        assert_eq!(r.text().await.unwrap(), "<h1>Loja</h1>");

        let tls12 = reqwest::Client::builder()
            .tls_certs_only([reqwest::Certificate::from_pem(pem.as_bytes()).unwrap()])
            .resolve("seguro.test", t.edge.https_addr)
            .max_tls_version(reqwest::tls::Version::TLS_1_2)
            .http1_only()
            .build()
            .unwrap();
        let r = tls12.get(&url).send().await.unwrap();
        assert_eq!((r.status().as_u16(), r.version()), (200, reqwest::Version::HTTP_11));

        // The owner opts in to HSTS; the edge hears of it through the change feed.
        let mut meta = t.db.store.project_by_id(ProjectId(loja)).await.unwrap().meta.0;
        meta["hsts"] = serde_json::json!(true);
        t.db.store
            .update_project(ProjectId(loja), &vitrine_shared::store::ProjectChanges {
                meta: Some(meta),
                ..Default::default()
            })
            .await
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        loop {
            let r = client(&pem, "seguro.test", t.edge.https_addr).get(&url).send().await.unwrap();
            if let Some(v) = r.headers().get("strict-transport-security") {
                assert_eq!(v, "max-age=31536000");
                break;
            }
            assert!(std::time::Instant::now() < deadline, "no HSTS after opting in");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Plain HTTP never carries HSTS; it redirects.
        let r = t.get("seguro.test", "/").send().await.unwrap();
        assert_eq!(r.status(), 301);
        assert!(r.headers().get("strict-transport-security").is_none());
    }
}

dual_test! {
    async fn no_sni_garbage_and_a_flood_of_unknown_names_do_not_stop_other_hosts(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.simple_site("loja", "<h1>Loja</h1>").await;
        t.db.store.mark_domain_verified(ProjectId(loja), "firme.test").await.unwrap();
        let pem = stored_certificate(&t, loja, "firme.test").await;
        let addr = t.edge.https_addr;

        // No SNI (an IP address is never sent as a server name).
        let no_sni = reqwest::Client::builder()
            .tls_certs_only([reqwest::Certificate::from_pem(pem.as_bytes()).unwrap()])
            .build()
            .unwrap();
        assert!(no_sni.get(format!("https://{addr}/")).send().await.is_err());
        // Not TLS at all.
        {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let mut raw = tokio::net::TcpStream::connect(addr).await.unwrap();
            raw.write_all(b"\x16\x03\x01\x00\x05garbagegarbage").await.unwrap();
            let mut buf = [0u8; 64];
            let n = tokio::time::timeout(Duration::from_secs(5), raw.read(&mut buf))
                .await
                .expect("the edge closes a garbage handshake")
                .unwrap_or(0);
            assert!(n == 0 || buf[0] == 0x15, "closed or an alert, got {:?}", &buf[..n]);
        }

        // A flood of handshakes for names nobody verified, while a real visitor is served.
        let flood = (0..200).map(|i| {
            let pem = pem.clone();
            async move {
                let name = format!("x{i}.inundacao.test");
                fetch(&pem, &name, addr).await.is_err()
            }
        });
        let visitor = async {
            let mut served = 0;
            for _ in 0..20 {
                let (status, body, _) = fetch(&pem, "firme.test", addr).await.unwrap();
                assert_eq!((status, body.as_str()), (200, "<h1>Loja</h1>"));
                served += 1;
            }
            served
        };
        let (refused, served) = tokio::join!(futures::future::join_all(flood), visitor);
        assert!(refused.iter().all(|r| *r), "every unknown name is refused");
        assert_eq!(served, 20);
        assert_eq!(orders(&t).await, 0);
        let metrics = t.client.get(format!("http://{}/metrics", t.edge.admin_addr))
            .send().await.unwrap().text().await.unwrap();
        assert!(metrics.contains("vitrine_edge_tls_handshakes_total{result=\"no_sni\"} 1"), "{metrics}");
        assert!(metrics.contains("vitrine_edge_tls_handshakes_total{result=\"unknown_name\"} 200"), "{metrics}");
        // One certificate in memory (the change feed may have made the edge reload it once).
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        loop {
            fetch(&pem, "firme.test", addr).await.unwrap();
            let metrics = t.client.get(format!("http://{}/metrics", t.edge.admin_addr))
                .send().await.unwrap().text().await.unwrap();
            if metrics.contains("vitrine_edge_certificates_held 1") {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "{metrics}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

dual_test! {
    async fn the_hourly_order_cap_holds_across_names(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| {
            rig.tweak(s);
            s.acme_orders_per_hour = 1;
        })
        .await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        let a = t.simple_site("a", "<h1>A</h1>").await;
        let b = t.simple_site("b", "<h1>B</h1>").await;
        verify(&t, &rig, a, "primeiro.test").await;
        verify(&t, &rig, b, "segundo.test").await;
        assert_eq!(fetch(&root, "primeiro.test", t.edge.https_addr).await.unwrap().0, 200);
        assert!(fetch(&root, "segundo.test", t.edge.https_addr).await.is_err());
        assert_eq!(orders(&t).await, 1, "the cap allows one order per hour");
        assert!(t.db.store.certificate("segundo.test").await.unwrap().is_none());
        let metrics = t.client.get(format!("http://{}/metrics", t.edge.admin_addr))
            .send().await.unwrap().text().await.unwrap();
        assert!(metrics.contains("vitrine_edge_acme_total{result=\"cap_reached\"}"), "{metrics}");
        assert!(metrics.contains("vitrine_edge_acme_total{result=\"issued\"} 1"), "{metrics}");
    }
}

dual_test! {
    async fn preview_hosts_use_the_wildcard_certificate_from_files(db: TestDb) {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec!["*.vitrine.test".to_string()])
            .unwrap()
            .self_signed(&key)
            .unwrap();
        let files = tempfile::tempdir().unwrap();
        let (cert_file, key_file) = (files.path().join("c.pem"), files.path().join("k.pem"));
        std::fs::write(&cert_file, cert.pem()).unwrap();
        std::fs::write(&key_file, key.serialize_pem()).unwrap();
        let t = TestEdge::start_with(db, None, |s| {
            s.preview_cert_file = Some(cert_file.clone());
            s.preview_key_file = Some(key_file.clone());
            s.platform_domain = "vitrine.test".into();
        })
        .await;
        t.simple_site("loja", "<h1>Prévia</h1>").await;
        let (status, body, _) = fetch(&cert.pem(), "loja.vitrine.test", t.edge.https_addr).await.unwrap();
        assert_eq!((status, body.as_str()), (200, "<h1>Prévia</h1>"));
        // Plain HTTP on a preview host goes to HTTPS too.
        let r = t.get("loja.vitrine.test", "/").send().await.unwrap();
        assert_eq!(r.status(), 301);
        // A name two labels deep is not covered by the wildcard and is not ours.
        assert!(fetch(&cert.pem(), "a.b.vitrine.test", t.edge.https_addr).await.is_err());
    }
}

dual_test! {
    async fn preview_hosts_are_ordered_on_demand_when_configured(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| {
            rig.tweak(s);
            s.platform_domain = "vitrine.test".into();
            s.acme_preview_hosts = true;
        })
        .await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        t.simple_site("loja", "<h1>Prévia segura</h1>").await;
        for name in ["loja.vitrine.test", "nada.vitrine.test"] {
            rig.dns.set(name, DnsRecord::A(LOCALHOST.parse().unwrap()));
        }
        let (status, body, _) = fetch(&root, "loja.vitrine.test", t.edge.https_addr)
            .await
            .unwrap_or_else(|e| panic!("{e:?}\n{}", rig.pebble.log()));
        assert_eq!((status, body.as_str()), (200, "<h1>Prévia segura</h1>"));
        // A slug no project has is not ours: no order.
        assert!(fetch(&root, "nada.vitrine.test", t.edge.https_addr).await.is_err());
        assert_eq!(orders(&t).await, 1);
    }
}
