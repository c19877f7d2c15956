//! `POST /_forms` on a site's own host.

use serde_json::Value;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{Site, TestEdge, basic, html};
use vitrine_shared::manifest::FormSettings;

const CONTACT: &str = "<!doctype html><html lang=\"pt-BR\"><head><title>Contato</title></head>\
    <body class=\"site\"><h1>Fale conosco</h1><form method=\"post\" action=\"/_forms\">\
    <input name=\"nome\"><button>Enviar</button></form></body></html>";

/// The basic site with a contact page and the given form settings.
fn contact_site(forms: Option<FormSettings>) -> Site {
    let mut site = basic("<h1>Início</h1>");
    site.files.push(html("/contato", CONTACT));
    site.files
        .push(html("/obrigado", "<h1>Obrigado pela visita</h1>"));
    site.forms = forms;
    site
}

fn forms(lang: &str, thank_you: Option<&str>) -> Option<FormSettings> {
    Some(FormSettings {
        to: "dona@example.com".into(),
        subject: "Contato".into(),
        lang: lang.into(),
        thank_you: thank_you.map(str::to_string),
        lead_event: false,
    })
}

/// A browser's post of the contact form (no JavaScript) to `loja.localhost`, from `referer`.
fn browser_post(t: &TestEdge, referer: &str) -> reqwest::RequestBuilder {
    post_to(t, "loja.localhost", referer)
}

fn post_to(t: &TestEdge, host: &str, referer: &str) -> reqwest::RequestBuilder {
    t.client
        .post(t.url("/_forms"))
        .header("host", host)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("referer", referer)
        .body("nome=Ana")
}

/// The same post from a script asking for JSON.
async fn json_post(t: &TestEdge) -> Value {
    let r = browser_post(t, "http://loja.localhost/contato")
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

dual_test! {
    async fn a_form_sent_without_javascript_lands_on_its_page_with_a_visible_confirmation(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        t.publish(loja, contact_site(None)).await;
        let host = "loja.localhost";

        let r = browser_post(&t, "http://loja.localhost/contato").send().await.unwrap();
        assert_eq!(r.status(), 303);
        let location = r.headers()["location"].to_str().unwrap().to_string();
        assert_eq!(location, "/contato?enviado=1");

        // The page it lands on is the contact page itself, with an announced confirmation
        // at the top of its body, and it is not cached.
        let r = t.get(host, &location).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["cache-control"], "no-store");
        let page = r.text().await.unwrap();
        assert!(page.contains("<body class=\"site\"><div role=\"status\""), "{page}");
        assert!(page.contains("Obrigado! Sua mensagem foi enviada."), "{page}");
        assert!(page.contains("<h1>Fale conosco</h1>"), "{page}");

        // The page as published has no confirmation, also once it is a hot route; the flag
        // still brings the confirmation after that.
        for _ in 0..3 {
            let (status, plain) = t.text(host, "/contato").await;
            assert_eq!(status, 200);
            assert!(!plain.contains("role=\"status\""), "{plain}");
        }
        let (_, again) = t.text(host, "/contato?enviado=1").await;
        assert!(again.contains("Obrigado! Sua mensagem foi enviada."), "{again}");

        // A page without a <body> element gets a confirmation page of its own.
        let (status, own) = t.text(host, "/sobre?enviado=1").await;
        assert_eq!(status, 200);
        assert!(own.contains("role=\"status\"") && own.contains("href=\"/sobre\""), "{own}");

        // A script gets JSON, with no redirect when the owner picked no thank-you page.
        let v = json_post(&t).await;
        assert_eq!(v["ok"], true);
        assert_eq!(v["message"], "Obrigado! Sua mensagem foi enviada.");
        assert_eq!(v["redirect"], Value::Null);
        let (_, total) = t.db.store.list_submissions(ProjectId(loja), false, 10, 0).await.unwrap();
        assert_eq!(total, 2);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_thank_you_page_receives_the_visitor_and_a_script_is_told_where_it_is(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        t.publish(loja, contact_site(forms("en", Some("/obrigado")))).await;

        let r = browser_post(&t, "http://loja.localhost/contato").send().await.unwrap();
        assert_eq!(r.status(), 303);
        assert_eq!(r.headers()["location"], "/obrigado");
        let (status, page) = t.text("loja.localhost", "/obrigado").await;
        assert_eq!((status, page.as_str()), (200, "<h1>Obrigado pela visita</h1>"));

        let v = json_post(&t).await;
        assert_eq!(v["ok"], true);
        assert_eq!(v["redirect"], "/obrigado");
        assert_eq!(v["message"], "Thank you! Your message was sent.");
        // The site's language also picks the confirmation's.
        let (_, page) = t.text("loja.localhost", "/contato?enviado=1").await;
        assert!(page.contains("Thank you! Your message was sent."), "{page}");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_form_never_redirects_to_another_site(db: TestDb) {
        let t = TestEdge::start(db).await;
        // A thank-you page that is not a path of this site (a manifest written by hand or an
        // older control plane) is not followed, whatever its spelling.
        for (i, foreign) in ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "evil.example"]
            .into_iter()
            .enumerate()
        {
            let slug = format!("fora{i}");
            let project = t.project(&slug).await;
            t.publish(project, contact_site(forms("pt-BR", Some(foreign)))).await;
            let host = format!("{slug}.localhost");
            let r = post_to(&t, &host, &format!("http://{host}/contato"))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 303);
            assert_eq!(r.headers()["location"], "/contato?enviado=1", "{foreign}");
        }
        // A Referer naming another host, or not a URL, brings the visitor to this site's home.
        let loja = t.project("loja").await;
        t.publish(loja, contact_site(None)).await;
        for referer in ["https://evil.example/contato", "//evil.example/contato", "javascript:alert(1)"] {
            let r = browser_post(&t, referer).send().await.unwrap();
            assert_eq!(r.status(), 303);
            assert_eq!(r.headers()["location"], "/?enviado=1", "{referer}");
        }
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
        let (_, total) = t.db.store.list_submissions(ProjectId(loja), false, 10, 0).await.unwrap();
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

dual_test! {
    async fn a_site_with_the_conversion_api_queues_a_hashed_lead_with_each_submission(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let mut settings = forms("pt-BR", None);
        settings.as_mut().unwrap().lead_event = true;
        t.publish(loja, contact_site(settings)).await;
        let outra = t.project("outra").await;
        t.publish(outra, contact_site(forms("pt-BR", None))).await;

        let r = t
            .client
            .post(t.url("/_forms"))
            .header("host", "loja.localhost")
            .header("content-type", "application/x-www-form-urlencoded")
            .header("referer", "http://loja.localhost/contato")
            .header("user-agent", "Mozilla/5.0 (X11; Linux x86_64)")
            .body("nome=Ana&email=Ana%40Example.com&telefone=%2B55+11+98765-4321")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 303);
        // A site without the integration queues nothing.
        assert_eq!(post_to(&t, "outra.localhost", "http://outra.localhost/contato").send().await.unwrap().status(), 303);

        let queued = t.db.store.conversions_of(ProjectId(loja)).await.unwrap();
        assert_eq!(queued.len(), 1);
        let event: Value = serde_json::from_str(&queued[0].0).unwrap();
        assert_eq!(event["event_name"], "Lead");
        assert_eq!(event["event_source_url"], "https://loja.localhost/contato");
        // The submission's uid, so that a replayed spool line is deduplicated by Meta.
        assert!(uuid::Uuid::parse_str(event["event_id"].as_str().unwrap()).is_ok(), "{event}");
        let user = &event["user_data"];
        assert_eq!(user["client_user_agent"], "Mozilla/5.0 (X11; Linux x86_64)");
        assert_eq!(user["em"][0].as_str().unwrap().len(), 64);
        assert_eq!(user["ph"][0].as_str().unwrap().len(), 64);
        assert!(!queued[0].0.contains("Example.com") && !queued[0].0.contains("98765"));
        assert!(t.db.store.conversions_of(ProjectId(outra)).await.unwrap().is_empty());
        t.edge.stop().await;
    }
}
