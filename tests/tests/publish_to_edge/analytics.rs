//! Visitor analytics end to end (`docs/analytics.md`): synthetic traffic to a published site
//! over two edges sharing the database, then the owner's report, figure by figure.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use vitrine_edge::Edge;

use super::Stack;

const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
const WINDOWS: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0";
const IPAD: &str =
    "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)";
use vitrine_shared::analytics::classify::NAMED_BOTS as BOTS;

/// Person `i`'s user agent: 20 phones, 25 desktops, 5 tablets, each its own browser.
fn person(i: usize) -> String {
    let base = match i {
        0..20 => IPHONE,
        20..45 => WINDOWS,
        _ => IPAD,
    };
    format!("{base} Person/{i}")
}

/// A GET to `edge` as person `ua`; no answer may set a cookie.
async fn get(
    s: &Stack,
    edge: &str,
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, String) {
    let mut req = s.visitor.get(format!("{edge}{path}")).header("host", host);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.unwrap();
    assert!(
        res.headers().get("set-cookie").is_none(),
        "{path} set a cookie"
    );
    let status = res.status();
    (status, res.text().await.unwrap())
}

async fn report(s: &Stack, id: i64, query: &str) -> (StatusCode, Value) {
    let res = s
        .owner
        .get(format!("{}/api/projects/{id}/analytics{query}", s.base))
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

vitrine_shared::dual_test!(
    async fn the_owner_sees_exactly_who_visited_over_two_edges(s: Stack) {
        let project = s.post("/api/projects", json!({"name": "Doceria"})).await;
        let id = project["id"].as_i64().unwrap();
        let host = format!("{}.localhost", project["slug"].as_str().unwrap());
        let home = project["pages"][0]["id"].as_i64().unwrap();
        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "hero", "name": "Hero", "template":
                "<h1>Doces</h1><a href=\"https://wa.me/5511999999999\">Zap</a><a href=\"/sobre\">Sobre</a>",
                "css": "", "js": ""}]}),
        )
        .await;
        let about = s
            .post("/api/pages", json!({"project_id": id, "name": "Sobre"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(
            &format!("/api/page/{about}"),
            json!({"slug": "sobre", "blocks": [{"uid": "a", "name": "Sobre", "template": "<h1>Quem somos</h1>", "css": "", "js": ""}]}),
        )
        .await;
        let deploy = s
            .post(&format!("/api/publish_v2/{id}"), json!({"project_id": id}))
            .await["deploy"]["id"]
            .as_i64()
            .unwrap();
        s.until(&host, "/", std::time::Duration::from_secs(5), |st, b| {
            st == 200 && b.contains("Doces")
        })
        .await;
        // Waiting for the site sent pages with no user agent: bots, counted before the traffic.
        s._edge.analytics.flush().await;
        let waited = report(&s, id, "").await.1["bots"].as_i64().unwrap();
        // A second edge on the same database and object store.
        let spool = tempfile::tempdir().unwrap();
        let mut other = s.settings.clone();
        other.edge_spool_dir = Some(spool.path().to_path_buf());
        let edge_b = Edge::build(&other).await.unwrap();
        let edges = [s.edge.clone(), format!("http://{}", edge_b.http_addr)];

        // The WhatsApp link goes through the signed /_go.
        let (_, html) = get(&s, &edges[0], &host, "/", &[("user-agent", BOTS[3])]).await;
        let go = html
            .split('"')
            .find(|p| p.starts_with("/_go?"))
            .unwrap_or_else(|| panic!("no tap link in {html}"))
            .replace("&amp;", "&");
        assert!(!html.contains("href=\"https://wa.me"), "{html}");

        for i in 0..50 {
            let ua = person(i);
            let language = if i < 30 {
                "pt-BR,pt;q=0.9"
            } else {
                "en-US,en;q=0.5"
            };
            let (referer, path) = match i % 5 {
                0 => ("https://www.google.com/", "/"),
                1 => (
                    "https://www.instagram.com/",
                    "/?utm_source=instagram&utm_medium=social&utm_campaign=natal",
                ),
                _ => ("", "/"),
            };
            let mut headers = vec![("user-agent", ua.as_str()), ("accept-language", language)];
            if !referer.is_empty() {
                headers.push(("referer", referer));
            }
            let edge = &edges[i % 2];
            let (status, body) = get(&s, edge, &host, path, &headers).await;
            assert_eq!(status, 200, "{body}");
            let own = format!("http://{host}/");
            let inside = [("user-agent", ua.as_str()), ("referer", own.as_str())];
            if i % 4 == 0 {
                // Again, on the other edge: still one visitor.
                get(&s, &edges[(i + 1) % 2], &host, "/", &inside).await;
            }
            if i % 10 == 0 {
                get(&s, edge, &host, "/sobre", &inside).await;
            }
            if i < 3 {
                let (status, _) = get(&s, edge, &host, "/nao-existe", &inside).await;
                assert_eq!(status, 404);
                let (status, _) = get(&s, edge, &host, &go, &inside).await;
                assert_eq!(status, 302);
            }
        }
        for (i, bot) in BOTS.iter().enumerate() {
            get(&s, &edges[i % 2], &host, "/", &[("user-agent", bot)]).await;
        }
        // Never an open redirect: unsigned, tampered and foreign targets are refused.
        let forged = go.replace("5511999999999", "5511000000000");
        for bad in [
            "/_go?u=https%3A%2F%2Fevil.example%2F".to_string(),
            forged,
            "/_go?u=https%3A%2F%2Fevil.example%2F&s=00000000000000000000000000000000".into(),
        ] {
            let (status, _) = get(&s, &edges[0], &host, &bad, &[]).await;
            assert_eq!(status, 400, "{bad}");
        }
        for n in 0..2 {
            let res = s
                .visitor
                .post(format!("{}/_forms", edges[n % 2]))
                .header("host", &host)
                .header("accept", "application/json")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(format!("nome=Cliente+{n}&mensagem=oi"))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
        }
        s._edge.analytics.flush().await;
        edge_b.analytics.flush().await;

        let today = chrono::Utc::now().date_naive();
        let yesterday = today - chrono::Days::new(1);
        let (status, r) = report(&s, id, &format!("?from={yesterday}&to={today}")).await;
        assert_eq!(status, 200, "{r}");
        // 50 first loads, 13 second loads, 5 about pages; the six bots and the curl that read
        // the tap link are bots.
        assert_eq!(r["views"], 68, "{r}");
        assert_eq!(r["visitors"], 50, "{r}");
        assert_eq!(r["bots"], waited + 7, "{r}");
        assert_eq!(r["now"], 50, "{r}");
        assert_eq!(r["enabled"], true);
        assert_eq!(
            r["days"],
            json!([{"date": yesterday.to_string(), "views": 0, "visitors": 0},
                   {"date": today.to_string(), "views": 68, "visitors": 50}])
        );
        assert_eq!(
            r["pages"],
            json!([{"path": "/", "views": 63, "visitors": 50}, {"path": "/sobre", "views": 5, "visitors": 5}])
        );
        assert_eq!(
            r["referrers"],
            json!([{"source": "direct", "visitors": 30}, {"source": "google.com", "visitors": 10},
                   {"source": "instagram.com", "visitors": 10}])
        );
        assert_eq!(
            r["devices"],
            json!([{"device": "desktop", "visitors": 25}, {"device": "mobile", "visitors": 20},
                   {"device": "tablet", "visitors": 5}])
        );
        assert_eq!(
            r["languages"],
            json!([{"language": "pt-BR", "visitors": 30}, {"language": "en-US", "visitors": 20}])
        );
        assert_eq!(
            r["campaigns"],
            json!([{"source": "instagram", "medium": "social", "campaign": "natal", "visitors": 10}])
        );
        assert_eq!(
            r["conversions"],
            json!({"forms": 2, "whatsapp": 3, "phone": 0, "email": 0})
        );
        assert_eq!(r["not_found"], json!([{"path": "/nao-existe", "views": 3}]));
        assert_eq!(r["deploys"][0]["id"], deploy, "{r}");

        // Bad ranges are coded 400s; another account's project is 404.
        for (query, code) in [
            ("?from=2026-13-01&to=2026-12-01", "analytics_date_invalid"),
            ("?from=2026-12-02&to=2026-12-01", "analytics_range_invalid"),
            ("?from=2020-01-01&to=2026-12-01", "analytics_range_too_long"),
        ] {
            let (status, body) = report(&s, id, query).await;
            assert_eq!(status, 400, "{query}");
            assert_eq!(body["error"], code);
        }
        let stranger = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap();
        let res = stranger
            .post(format!("{}/api/register", s.base))
            .json(&json!({"name": "Outra", "email": "outra@example.com", "password": "senha-segura-2"}))
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success());
        let res = stranger
            .get(format!("{}/api/projects/{id}/analytics", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404);

        // The owner turns counting off: nothing more is counted.
        s.call(
            Method::POST,
            &format!("/api/projects/{id}"),
            Some(json!({"meta": {"analytics": false}})),
        )
        .await;
        let ua = person(99);
        let off = [("user-agent", ua.as_str())];
        let start = std::time::Instant::now();
        loop {
            // Until the edge has seen the change (the feed), visits may still count; then none.
            s._edge.analytics.flush().await;
            let before = report(&s, id, "").await.1["views"].clone();
            get(&s, &edges[0], &host, "/sobre", &off).await;
            s._edge.analytics.flush().await;
            if report(&s, id, "").await.1["views"] == before {
                break;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "still counting"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let (_, r) = report(&s, id, "").await;
        assert_eq!(r["enabled"], false);
        edge_b.stop().await;
    }
);

/// Every `href` of `html` as written (entities left as they are).
fn hrefs(html: &str) -> Vec<&str> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

vitrine_shared::dual_test!(
    async fn tap_links_are_counted_as_the_templates_write_them_and_on_live_pages(s: Stack) {
        let project = s
            .post("/api/projects", json!({"name": "Doces da Bruna"}))
            .await;
        let id = project["id"].as_i64().unwrap();
        let host = format!("{}.localhost", project["slug"].as_str().unwrap());
        let home = project["pages"][0]["id"].as_i64().unwrap();
        s.call(
            Method::PUT,
            &format!("/api/projects/{id}/identity"),
            Some(json!({"name": "Doces da Bruna", "whatsapp": "11 98765-4321"})),
        )
        .await;
        // The identity's WhatsApp address, which the templates write with `&#x2f;` for `/`, on
        // a published page, and a phone link.
        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "hero", "name": "Hero", "template":
                "<a href=\"{{ site.identity.whatsapp_url }}\">Zap</a><a href=\"tel:+551133334444\">Ligue</a>",
                "css": "", "js": ""}]}),
        )
        .await;
        // A collection page: rendered at the edge from the live record.
        let table = s
            .post("/api/tables", json!({"project_id": id, "name": "Bolos", "slug": "bolos", "meta": {"plural": "Bolos", "singular": "Bolo"}}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(
            "/api/posts",
            json!({"table_id": table, "name": "Bolo de cenoura", "slug": "cenoura", "fields": []}),
        )
        .await;
        let page = s
            .post("/api/pages", json!({"project_id": id, "name": "Bolos"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(
            &format!("/api/page/{page}"),
            json!({"slug": "bolos", "table_id": table, "blocks": [{"uid": "b", "name": "Bolo", "template":
                "<h1>{{ post.name }}</h1><a href=\"{{ site.identity.whatsapp_url }}\">Pedir</a><a href=\"mailto:contato@doces.example\">E-mail</a>",
                "css": "", "js": ""}]}),
        )
        .await;
        s.post(&format!("/api/publish_v2/{id}"), json!({"project_id": id}))
            .await;
        s.until(&host, "/", std::time::Duration::from_secs(5), |st, _| {
            st == 200
        })
        .await;

        let bot = [("user-agent", BOTS[3])];
        let mut taps = Vec::new();
        for (path, expected) in [("/", 2), ("/bolos/cenoura", 2)] {
            let (status, html) = get(&s, &s.edge, &host, path, &bot).await;
            assert_eq!(status, 200, "{path}: {html}");
            assert!(html.contains("Zap") || html.contains("Bolo de cenoura"));
            let links = hrefs(&html);
            for href in &links {
                let lower = href.to_ascii_lowercase();
                assert!(
                    !lower.contains("wa.me")
                        && !lower.starts_with("tel:")
                        && !lower.starts_with("mailto:"),
                    "{path}: a tap link not through /_go: {href}"
                );
            }
            let go: Vec<String> = links
                .iter()
                .filter(|h| h.starts_with("/_go?"))
                .map(|h| h.replace("&amp;", "&"))
                .collect();
            assert_eq!(go.len(), expected, "{path}: {links:?}");
            taps.extend(go);
        }
        // Each goes where its link went.
        let mut targets = Vec::new();
        for go in &taps {
            let res = s
                .visitor
                .get(format!("{}{go}", s.edge))
                .header("host", &host)
                .header("user-agent", IPHONE)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 302, "{go}");
            targets.push(res.headers()["location"].to_str().unwrap().to_string());
        }
        assert_eq!(
            targets,
            [
                "https://wa.me/5511987654321",
                "tel:+551133334444",
                "https://wa.me/5511987654321",
                "mailto:contato@doces.example"
            ]
        );
        s._edge.analytics.flush().await;
        let (_, r) = report(&s, id, "").await;
        assert_eq!(
            r["conversions"],
            json!({"forms": 0, "whatsapp": 2, "phone": 1, "email": 1}),
            "{r}"
        );
    }
);
