//! `POST /_forms` on a site's own host.

use serde_json::Value;
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::TestEdge;

dual_test! {
    async fn forms_store_submissions_and_refuse_bots_floods_and_oversized_posts(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_form_rate_per_minute = 3).await;
        let loja = t.simple_site("loja", "<h1>Início</h1>").await;
        let host = "loja.localhost";
        let post = |body: &'static str| {
            t.client
                .post(t.url("/_forms"))
                .header("host", host)
                .header("content-type", "application/x-www-form-urlencoded")
                .header("referer", "http://loja.localhost/contato?x=1")
                .body(body)
        };

        // A browser post goes back to the page it came from.
        let r = post("nome=Ana&mensagem=Ol%C3%A1&to=evil%40spam.com").send().await.unwrap();
        assert_eq!(r.status(), 303);
        assert_eq!(r.headers()["location"], "/contato?x=1");
        // A script asking for JSON gets JSON.
        let r = post("nome=Bia").header("accept", "application/json").send().await.unwrap();
        assert_eq!(r.status(), 200);
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["ok"], true);
        // The honeypot is answered like a success and nothing is kept.
        let r = post("nome=bot&_gotcha=http%3A%2F%2Fspam").send().await.unwrap();
        assert_eq!(r.status(), 303);

        let big = "a=".to_string() + &"x".repeat(70 * 1024);
        let r = t.client.post(t.url("/_forms")).header("host", host)
            .header("accept", "application/json").body(big).send().await.unwrap();
        assert_eq!(r.status(), 413);
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"], "too_large");

        // The third accepted post from this address is the last one this minute.
        let r = post("nome=Caio").send().await.unwrap();
        assert_eq!(r.status(), 303);
        let r = post("nome=Duda").header("accept", "application/json").send().await.unwrap();
        assert_eq!(r.status(), 429);
        assert!(r.headers().contains_key("retry-after"));
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"], "rate_limited");

        let r = t.get(host, "/_forms").send().await.unwrap();
        assert_eq!(r.status(), 405);

        let (rows, total) = t.db.store.list_submissions(loja, false, 10, 0).await.unwrap();
        assert_eq!(total, 3, "the bot, the oversized and the refused posts are not stored");
        assert_eq!(rows[0].url, "/contato?x=1");
        assert!(rows.iter().all(|r| r.to == "dona@example.com"), "the recipient is the owner's");
        assert!(rows[0].data.contains("<dt>nome</dt><dd>Ana</dd>"), "{}", rows[0].data);
        t.edge.stop().await;
    }
}

/// Posts a one-field form to `loja.localhost` with the given `X-Forwarded-For` headers and
/// returns the status.
async fn post_from(t: &TestEdge, forwarded_for: &[&str]) -> u16 {
    let mut r = t
        .client
        .post(t.url("/_forms"))
        .header("host", "loja.localhost")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json");
    for xff in forwarded_for {
        r = r.header("x-forwarded-for", *xff);
    }
    r.body("nome=Ana").send().await.unwrap().status().as_u16()
}

dual_test! {
    async fn an_untrusted_peer_cannot_escape_the_rate_limit_with_x_forwarded_for(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_form_rate_per_minute = 2).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        // The test client is 127.0.0.1, which nobody trusts here: every forged address is
        // the same visitor.
        assert_eq!(post_from(&t, &["203.0.113.1"]).await, 200);
        assert_eq!(post_from(&t, &["203.0.113.2"]).await, 200);
        assert_eq!(post_from(&t, &["203.0.113.3"]).await, 429);
        assert_eq!(post_from(&t, &[]).await, 429);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_form_rate_per_minute = 2;
            s.edge_trusted_proxies = "127.0.0.1/8".into();
        })
        .await;
        let loja = t.simple_site("loja", "<h1>Início</h1>").await;
        // Two visitors behind the balancer: two separate budgets.
        assert_eq!(post_from(&t, &["203.0.113.1"]).await, 200);
        assert_eq!(post_from(&t, &["203.0.113.1"]).await, 200);
        assert_eq!(post_from(&t, &["203.0.113.1"]).await, 429);
        assert_eq!(post_from(&t, &["198.51.100.7"]).await, 200);
        // A chain through a second trusted proxy still names the first visitor, whose budget
        // is spent; a forged entry left of the visitor changes nothing.
        assert_eq!(post_from(&t, &["203.0.113.1, 127.0.0.2"]).await, 429);
        assert_eq!(post_from(&t, &["1.2.3.4, 203.0.113.1, 127.0.0.2"]).await, 429);
        // The same chain split over two headers.
        assert_eq!(post_from(&t, &["203.0.113.1", "127.0.0.2"]).await, 429);
        // ... while the second visitor through the same chain still has one post left.
        assert_eq!(post_from(&t, &["198.51.100.7, 127.0.0.2"]).await, 200);
        assert_eq!(post_from(&t, &["198.51.100.7"]).await, 429);
        let (_, total) = t.db.store.list_submissions(loja, false, 10, 0).await.unwrap();
        assert_eq!(total, 4);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_garbled_forwarded_for_from_a_trusted_proxy_counts_against_the_proxy(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| {
            s.edge_form_rate_per_minute = 2;
            s.edge_trusted_proxies = "127.0.0.1/8".into();
        })
        .await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        assert_eq!(post_from(&t, &["not-an-address"]).await, 200);
        assert_eq!(post_from(&t, &["203.0.113.1, ???"]).await, 200);
        // Both fell back to the peer 127.0.0.1, whose budget is now spent: a post with no
        // header (the peer itself) and another garbled one are refused ...
        assert_eq!(post_from(&t, &[]).await, 429);
        assert_eq!(post_from(&t, &["unknown"]).await, 429);
        // ... while a well-formed visitor is untouched.
        assert_eq!(post_from(&t, &["203.0.113.1"]).await, 200);
        t.edge.stop().await;
    }
}
