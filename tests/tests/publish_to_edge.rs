//! The whole path a site takes, over real sockets: an owner builds a site through the control
//! plane's HTTP API and publishes it; the edge, sharing only the database and the object
//! store, serves it to visitors at `{slug}.localhost`. Record edits, redirect changes,
//! rollbacks and unpublishing reach the edge through the change feed, with no re-publish.
//!
//! It lives in the workspace-level test crate, the one test crate allowed to depend on both
//! the control plane and the edge (neither imports the other). Runs on SQLite and PostgreSQL.

use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode, redirect::Policy};
use serde_json::{Value, json};
use vitrine_control::startup::Application;
use vitrine_edge::Edge;
use vitrine_shared::{
    Settings,
    testing::{Backend, TestDb},
};

#[path = "publish_to_edge/analytics.rs"]
mod analytics;

struct Stack {
    base: String,
    owner: Client,
    visitor: Client,
    edge: String,
    _app: Application,
    _edge: Edge,
    _db: TestDb,
    _dir: tempfile::TempDir,
    /// What the servers were started with (a test can start another edge).
    settings: Settings,
}

impl Stack {
    async fn new(backend: Backend) -> Stack {
        let db = TestDb::new(backend).await;
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings {
            database_url: Some(vitrine_shared::secret::Secret::new(db.url.clone())),
            data_dir: dir.path().to_path_buf(),
            control_listen: "127.0.0.1:0".into(),
            control_admin_listen: "127.0.0.1:0".into(),
            edge_http_listen: "127.0.0.1:0".into(),
            edge_https_listen: "127.0.0.1:0".into(),
            edge_admin_listen: "127.0.0.1:0".into(),
            dashboard_dir: dir.path().join("no-dashboard"),
            platform_domain: "localhost".into(),
            render_worker: Some(env!("CARGO_BIN_EXE_vitrine-system-render-worker").into()),
            ..Settings::default()
        };
        let app = Application::build(settings.clone()).await.unwrap();
        let edge = Edge::build(&settings).await.unwrap();
        let owner = Client::builder().cookie_store(true).build().unwrap();
        let base = format!("http://{}", app.addr());
        let res = owner
            .post(format!("{base}/api/register"))
            .json(
                &json!({"name": "Dona", "email": "dona@example.com", "password": "senha-segura-1"}),
            )
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success());
        Stack {
            base,
            owner,
            visitor: Client::builder().redirect(Policy::none()).build().unwrap(),
            edge: format!("http://{}", edge.http_addr),
            _app: app,
            _edge: edge,
            _db: db,
            _dir: dir,
            settings,
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut req = self.owner.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await.unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        assert!(status.is_success(), "{path}: {status} {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    async fn visit(
        &self,
        host: &str,
        path: &str,
    ) -> (StatusCode, String, reqwest::header::HeaderMap) {
        let res = self
            .visitor
            .get(format!("{}{path}", self.edge))
            .header("host", host)
            .send()
            .await
            .unwrap();
        let (status, headers) = (res.status(), res.headers().clone());
        (status, res.text().await.unwrap(), headers)
    }

    /// Polls the edge until `check` holds for what it answers, for at most `within`.
    async fn until(
        &self,
        host: &str,
        path: &str,
        within: Duration,
        check: impl Fn(StatusCode, &str) -> bool,
    ) -> Duration {
        let start = Instant::now();
        loop {
            let (status, body, _) = self.visit(host, path).await;
            if check(status, &body) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < within,
                "{host}{path} still answers {status} after {within:?}: {}",
                &body[..body.len().min(300)]
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

vitrine_shared::dual_test!(
    async fn a_published_site_is_served_by_the_edge_and_follows_live_changes(s: Stack) {
        let owner_id = s.call(reqwest::Method::GET, "/api/user", None).await["id"]
            .as_i64()
            .unwrap();
        let project = s
            .post("/api/projects", json!({"name": "Padaria Central"}))
            .await;
        let id = project["id"].as_i64().unwrap();
        let slug = project["slug"].as_str().unwrap().to_string();
        let host = format!("{slug}.localhost");
        let home = project["pages"][0]["id"].as_i64().unwrap();

        // Before the first publish the host is known but not published.
        let (status, body, _) = s.visit(&host, "/").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(body.to_lowercase().contains("publicado"), "{body}");

        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "hero", "name": "Hero", "template": "<h1>Pão quentinho</h1>", "css": "h1{color:#a52}", "js": ""}]}),
        )
        .await;
        let table = s
            .post("/api/tables", json!({"project_id": id, "name": "Receitas", "slug": "receitas", "meta": {"plural": "Receitas", "singular": "Receita"}}))
            .await["id"]
            .as_i64()
            .unwrap();
        let field = s
            .post("/api/fields", json!({"table_id": table, "name": "Modo de preparo", "slug": "preparo", "type": "textarea"}))
            .await["id"]
            .as_i64()
            .unwrap();
        let post = s
            .post("/api/posts", json!({"table_id": table, "name": "Broa", "slug": "broa", "fields": [{"field_id": field, "value": "Misture o fubá."}]}))
            .await;
        let post_id = post["id"]
            .as_i64()
            .or_else(|| post["post"]["id"].as_i64())
            .expect("post id");
        let page = s
            .post("/api/pages", json!({"project_id": id, "name": "Receitas"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(
            &format!("/api/page/{page}"),
            json!({"slug": "receitas", "table_id": table, "blocks": [{"uid": "r", "name": "Receita",
                "template": "<article><h1>{{ post.name }}</h1><p>{{ post.fields.preparo }}</p></article>", "css": "", "js": ""}]}),
        )
        .await;
        s.post(
            "/api/redirects",
            json!({"project_id": id, "from": "/antigo/*", "to": "/receitas/*"}),
        )
        .await;

        let published = s
            .post(&format!("/api/publish_v2/{id}"), json!({"project_id": id}))
            .await;
        let first_deploy = published["deploy"]["id"].as_i64().expect("deploy id");
        assert!(
            published["url"].as_str().unwrap().contains(&slug),
            "{published}"
        );

        // The static home page, its content-addressed stylesheet, the collection page and the
        // redirect all come from the edge.
        s.until(&host, "/", Duration::from_secs(2), |st, b| {
            st == 200 && b.contains("Pão quentinho")
        })
        .await;
        let (_, home_html, headers) = s.visit(&host, "/").await;
        assert!(
            headers["cache-control"]
                .to_str()
                .unwrap()
                .contains("must-revalidate")
        );
        let css = home_html
            .split('"')
            .find(|p| p.starts_with("/_assets/") && p.ends_with(".css"))
            .unwrap_or_else(|| panic!("no stylesheet in {home_html}"))
            .to_string();
        let (status, body, headers) = s.visit(&host, &css).await;
        assert_eq!(status, 200);
        assert!(body.contains("#a52"), "{body}");
        assert!(
            headers["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );

        let (status, body, _) = s.visit(&host, "/receitas/broa").await;
        assert_eq!(status, 200, "{body}");
        assert!(
            body.contains("<h1>Broa</h1>") && body.contains("Misture o fubá."),
            "{body}"
        );
        let (status, _, _) = s.visit(&host, "/receitas/nao-existe").await;
        assert_eq!(status, 404);
        let (status, _, headers) = s.visit(&host, "/antigo/broa?x=1").await;
        assert_eq!(status, 301);
        assert_eq!(headers["location"], "/receitas/broa?x=1");

        // A file uploaded for a record (records keep `/files/uploads/…` addresses) is served by
        // the edge on the site's own host, since collection pages render live records. The
        // upload names the project's folder, as the dashboard's record editor does: the edge
        // serves a key on a site's host only when its folder is the site's project (or the
        // live deploy lists it), so it shows without a re-publish.
        // A real image: uploads of images are decoded, made upright and stored without metadata.
        let png: &[u8] = b"\x89PNG\x0d\x0a\x1a\x0a\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0dIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";
        use base64::Engine as _;
        let upload = s
            .owner
            .post(format!("{}/api/upload", s.base))
            .json(&json!({"name": "broa.png", "prefix": [owner_id, id, table], "content": format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(png))}))
            .send()
            .await
            .unwrap();
        assert!(upload.status().is_success());
        let src = upload.text().await.unwrap();
        let src = src.trim_matches('"');
        assert!(src.starts_with("/files/uploads/"), "{src}");
        let image = s
            .visitor
            .get(format!("{}{src}", s.edge))
            .header("host", &host)
            .send()
            .await
            .unwrap();
        assert_eq!(image.status(), 200);
        assert_eq!(image.headers()["content-type"], "image/png");
        assert!(
            image.headers()["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
        // The bytes the control plane stored (a re-encoded PNG of the same pixel), byte for byte.
        let stored = s
            .owner
            .get(format!("{}{src}", s.base))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        assert!(stored.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(image.bytes().await.unwrap(), stored);
        let (status, _, _) = s.visit(&host, "/files/uploads/../../deploys/x").await;
        assert!(status.is_client_error(), "{status}");

        // A record edit shows within a second, with no re-publish.
        s.post(
            &format!("/api/posts/{post_id}"),
            json!({"table_id": table, "name": "Broa de milho", "slug": "broa", "fields": [{"field_id": field, "value": "Misture o fubá e asse."}]}),
        )
        .await;
        let took = s
            .until(&host, "/receitas/broa", Duration::from_secs(1), |st, b| {
                st == 200 && b.contains("Broa de milho")
            })
            .await;
        println!("record edit visible after {took:?}");

        // A second deploy goes live; rolling back restores the first at once.
        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "hero", "name": "Hero", "template": "<h1>Nova fornada</h1>", "css": "h1{color:#0a5}", "js": ""}]}),
        )
        .await;
        s.post(&format!("/api/publish_v2/{id}"), json!({"project_id": id}))
            .await;
        s.until(&host, "/", Duration::from_secs(1), |st, b| {
            st == 200 && b.contains("Nova fornada")
        })
        .await;
        let (status, _, _) = s.visit(&host, &css).await;
        assert_eq!(
            status, 200,
            "the previous deploy's stylesheet stays reachable"
        );
        s.post(
            &format!("/api/projects/{id}/deploys/{first_deploy}/activate"),
            json!({}),
        )
        .await;
        s.until(&host, "/", Duration::from_secs(1), |st, b| {
            st == 200 && b.contains("Pão quentinho")
        })
        .await;

        // Unpublishing takes the site down.
        s.post(&format!("/api/unpublish/{id}"), json!({})).await;
        s.until(&host, "/", Duration::from_secs(1), |st, _| st == 404)
            .await;
        let (status, body, _) = s.visit("nobody.localhost", "/").await;
        assert_eq!(status, 404);
        assert!(body.contains("Site não encontrado"), "{body}");
    }
);

/// The first `slug` in a JSON answer (the read API's records).
fn first_slug(v: &Value) -> Option<String> {
    match v {
        Value::Object(o) => o
            .get("slug")
            .and_then(Value::as_str)
            .map(String::from)
            .or_else(|| o.values().find_map(first_slug)),
        Value::Array(a) => a.iter().find_map(first_slug),
        _ => None,
    }
}

vitrine_shared::dual_test!(
    async fn a_site_made_from_a_template_under_a_name_is_that_name_on_the_edge(s: Stack) {
        vitrine_control::seed::run(s._app.state()).await.unwrap();
        let templates = s.call(reqwest::Method::GET, "/api/templates", None).await;
        let business = templates
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["category"] == "business" || t["name"] == "Padaria Grão Dourado")
            .unwrap_or(&templates[0])
            .clone();
        let project = s
            .post(
                &format!("/api/templates/use/{}", business["id"]),
                json!({"name": "Doces da Bruna"}),
            )
            .await;
        let id = project["id"].as_i64().unwrap();
        let host = format!("{}.localhost", project["slug"].as_str().unwrap());
        s.call(
            reqwest::Method::PUT,
            &format!("/api/projects/{id}/identity"),
            Some(json!({"name": "Doces da Bruna", "description": "Bolos e doces por encomenda", "whatsapp": "11 98765-4321"})),
        )
        .await;
        s.call(
            reqwest::Method::PUT,
            &format!("/api/projects/{id}/theme"),
            Some(json!({"primary": "#b45309"})),
        )
        .await;
        // A block that prints what the site's variables give templates, on the home page.
        let home = project["pages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["slug"] == "/" || p["is_home"] == true)
            .unwrap_or(&project["pages"][0])["id"]
            .as_i64()
            .unwrap();
        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "id", "template": "<p id=\"site\">{{ site.name }}|{{ site.identity.whatsapp_url }}|{{ site.theme.primary }}|{{ site.year }}</p>"}]}),
        )
        .await;
        s.post(&format!("/api/publish_v2/{id}"), json!({"project_id": id}))
            .await;

        s.until(&host, "/", Duration::from_secs(2), |st, _| st == 200)
            .await;
        let (_, home_html, _) = s.visit(&host, "/").await;
        assert!(
            home_html.contains(
                "<p id=\"site\">Doces da Bruna|https:&#x2f;&#x2f;wa.me&#x2f;5511987654321|#b45309|20"
            ),
            "{home_html}"
        );
        for (path, title) in [
            ("/", "<title>Doces da Bruna</title>"),
            ("/sobre", "| Doces da Bruna</title>"),
            ("/contato", "| Doces da Bruna</title>"),
        ] {
            let (status, html, _) = s.visit(&host, path).await;
            assert_eq!(status, 200, "{path}");
            assert!(html.contains(title), "{path}: {html}");
            assert!(
                html.contains("<meta property=\"og:site_name\" content=\"Doces da Bruna\">"),
                "{path}"
            );
            assert!(html.contains("--vt-primary:#b45309;"), "{path}");
            assert!(
                html.contains("<meta name=\"description\" content=\"")
                    && !html.contains("| Padaria Grão Dourado</title>"),
                "{path}"
            );
        }
        // A collection page the edge renders from live records.
        let (_, records, _) = s.visit(&host, "/_api/collections/produtos").await;
        let slug = first_slug(&serde_json::from_str(&records).unwrap()).expect("a product");
        let (status, html, _) = s.visit(&host, &format!("/produto/{slug}")).await;
        assert_eq!(status, 200, "{html}");
        assert!(html.contains(" | Doces da Bruna</title>"), "{html}");
        assert!(html.contains("<meta property=\"og:site_name\" content=\"Doces da Bruna\">"));
        assert!(html.contains("--vt-primary:#b45309;"), "{html}");
        // The platform's 404 names the site.
        let (status, html, _) = s.visit(&host, "/nao-existe").await;
        assert_eq!(status, 404);
        assert!(html.contains("Doces da Bruna"), "{html}");
    }
);
