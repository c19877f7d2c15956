//! Domains at the edge: a `www.` twin never overrides the owner of its apex, and one tenant's
//! certificate orders cannot starve the others'.
//!
//! The certificate attacks run against the real ACME server (Pebble) and a real DNS server
//! (dnsmasq), as `tls.rs` does.

use std::time::Duration;

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    dual_test,
    store::{DOMAIN_UNIT_TAKEN, NewUser, StoreError},
    testing::{DnsRecord, TestDb},
};

use crate::{
    pebble::fetch,
    support::{TestEdge, basic},
    tls::{LOCALHOST, NINETY_DAYS, Rig, orders, verify},
};

/// A published site of its own account (a user of its own, not the edge's default one).
async fn site_of_new_account(t: &TestEdge, email: &str, slug: &str, home: &str) -> i64 {
    let store = &t.db.store;
    let user = store
        .insert_user(&NewUser {
            name: "Outra",
            email,
            password_hash: "x",
            language: vitrine_shared::language::Language::PtBr,
            is_admin: false,
        })
        .await
        .unwrap();
    let project = t.project_of(user.id.get(), slug).await;
    t.publish(project, basic(home)).await;
    project
}

dual_test! {
    async fn a_www_twin_never_overrides_the_owner_of_its_apex_at_the_edge(db: TestDb) {
        let t = TestEdge::start(db).await;
        let owner = t.simple_site("dona", "<h1>Loja da dona</h1>").await;
        let attacker = site_of_new_account(&t, "intrusa@example.com", "intrusa", "<h1>Golpe</h1>").await;
        let within = Duration::from_secs(5);

        // The attacker's host names are looked up (and remembered as nobody's) first.
        for host in ["marca.test", "www.marca.test", "www.www.marca.test"] {
            assert_eq!(t.text(host, "/").await.0, 404, "{host}");
        }
        t.db.store.mark_domain_verified(ProjectId(owner), "marca.test").await.unwrap();
        // The attacker waits for the twin and tries to take it at the store.
        t.db.store
            .save_domain_claim(ProjectId(attacker), "www.marca.test", chrono::Utc::now())
            .await
            .unwrap();
        let err = t.db.store.mark_domain_verified(ProjectId(attacker), "www.marca.test").await.unwrap_err();
        assert!(matches!(err, StoreError::Conflict(DOMAIN_UNIT_TAKEN)), "{err:?}");
        for host in ["marca.test", "www.marca.test", "WWW.Marca.Test."] {
            t.until(host, "/", 200, "Loja da dona", within).await;
        }
        // A deeper www is its own unit: the attacker may hold it, and it never reaches the owner's.
        t.db.store.mark_domain_verified(ProjectId(attacker), "www.www.marca.test").await.unwrap();
        t.until("www.www.marca.test", "/", 200, "Golpe", within).await;
        t.until("www.marca.test", "/", 200, "Loja da dona", within).await;

        // The reverse: the owner holds a www name, the attacker asks for its apex.
        t.db.store.mark_domain_verified(ProjectId(owner), "www.outra.test").await.unwrap();
        let err = t.db.store.mark_domain_verified(ProjectId(attacker), "outra.test").await.unwrap_err();
        assert!(matches!(err, StoreError::Conflict(DOMAIN_UNIT_TAKEN)), "{err:?}");
        for host in ["outra.test", "www.outra.test"] {
            t.until(host, "/", 200, "Loja da dona", within).await;
        }
    }
}

dual_test! {
    async fn one_account_flooding_orders_cannot_starve_another_accounts_first_certificate(db: TestDb) {
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| {
            rig.tweak(s);
            s.acme_orders_per_hour = 5;
            s.acme_orders_per_account_per_hour = 3;
            s.acme_orders_per_project_per_hour = 1;
        })
        .await;
        rig.pebble.start(t.edge.http_addr.port(), rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;

        // The flooding account: four sites, each with a verified domain (and a www twin).
        let mut names = Vec::new();
        for i in 1..=4 {
            let p = t.simple_site(&format!("flood{i}"), "<h1>Flood</h1>").await;
            let name = format!("flood{i}.test");
            verify(&t, &rig, p, &name).await;
            rig.dns.set(&format!("www.{name}"), DnsRecord::A(LOCALHOST.parse().unwrap()));
            names.push(name);
        }
        // It asks for every name and twin at once, again and again.
        for _ in 0..2 {
            let handshakes = names
                .iter()
                .flat_map(|n| [n.clone(), format!("www.{n}")])
                .map(|n| {
                    let (root, addr) = (root.clone(), t.edge.https_addr);
                    async move { fetch(&root, &n, addr).await.is_ok() }
                });
            futures::future::join_all(handshakes).await;
        }
        assert_eq!(orders(&t).await, 3, "its account's cap: 3 orders, of the platform's 5");
        assert!(t.metric("vitrine_edge_acme_total{result=\"account_cap_reached\"}").await >= 1);
        assert!(t.metric("vitrine_edge_acme_total{result=\"project_cap_reached\"}").await >= 1);

        // Another account's first certificate is still ordered and served.
        let victim = site_of_new_account(&t, "vitima@example.com", "vitima", "<h1>Vítima</h1>").await;
        verify(&t, &rig, victim, "vitima.test").await;
        let (status, body, _) = fetch(&root, "vitima.test", t.edge.https_addr)
            .await
            .unwrap_or_else(|e| panic!("{e:?}\n{}", rig.pebble.log()));
        assert_eq!((status, body.as_str()), (200, "<h1>Vítima</h1>"));
        assert_eq!(orders(&t).await, 4);
    }
}

dual_test! {
    async fn the_acme_back_off_survives_removing_and_verifying_the_domain_again(db: TestDb) {
        // Pebble validates HTTP-01 on a port where nothing answers: every order fails.
        let mut rig = Rig::new();
        let t = TestEdge::start_with(db, None, |s| {
            rig.tweak(s);
            s.acme_backoff_base_secs = 3600;
            s.acme_issue_wait_ms = 20_000;
        })
        .await;
        let nobody = crate::pebble::free_port();
        rig.pebble.start(nobody, rig.dns.addr, NINETY_DAYS).await;
        let root = rig.pebble.issuing_root().await;
        let loja = t.simple_site("teimosa", "<h1>Teimosa</h1>").await;
        verify(&t, &rig, loja, "teimosa.test").await;
        assert!(fetch(&root, "teimosa.test", t.edge.https_addr).await.is_err());
        let failing = t.db.store.certificate_status(ProjectId(loja)).await.unwrap().unwrap();
        assert_eq!((failing.status.code(), failing.failures), ("failing", 1), "{failing:?}");
        assert_eq!(orders(&t).await, 1);

        // Remove the domain and verify it again; then delete the project and verify the name
        // from a new one. Neither buys a new attempt before the back-off ends.
        t.db.store.remove_domain(ProjectId(loja)).await.unwrap();
        verify(&t, &rig, loja, "teimosa.test").await;
        assert!(fetch(&root, "teimosa.test", t.edge.https_addr).await.is_err());
        t.db.store.delete_project(ProjectId(loja)).await.unwrap();
        let again = t.simple_site("teimosa-2", "<h1>De novo</h1>").await;
        verify(&t, &rig, again, "teimosa.test").await;
        for _ in 0..3 {
            assert!(fetch(&root, "teimosa.test", t.edge.https_addr).await.is_err());
        }
        assert_eq!(orders(&t).await, 1, "no order while the back-off runs\n{}", rig.pebble.log());
        // The new project's owner sees the back-off that is running, not a fresh start.
        let status = t.db.store.certificate_status(ProjectId(again)).await.unwrap().unwrap();
        assert_eq!((status.status.code(), status.failures), ("failing", 1), "{status:?}");
        assert!(status.next_attempt_at.unwrap() > chrono::Utc::now() + chrono::Duration::minutes(50));
        assert!(status.last_error.is_some());
    }
}
