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
