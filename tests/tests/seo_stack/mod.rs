//! A control plane and an edge over real sockets with an owner signed in, for the tests of
//! what search engines and link previews read (`seo.rs`, `share_cards.rs`).

#![allow(dead_code)]

use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode, redirect::Policy};
use serde_json::{Value, json};
use vitrine_control::startup::Application;
use vitrine_edge::Edge;
use vitrine_shared::{
    Settings,
    testing::{Backend, TestDb, schema_org},
};

pub struct Stack {
    pub base: String,
    pub owner: Client,
    pub visitor: Client,
    pub edge: String,
    pub db: TestDb,
    pub _app: Application,
    pub _edge: Edge,
    pub _dir: tempfile::TempDir,
}

impl Stack {
    pub async fn new(backend: Backend) -> Stack {
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
            preview_url_template: Some("https://{slug}.vitrine.test".into()),
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
            db,
            _app: app,
            _edge: edge,
            _dir: dir,
        }
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
    ) -> (StatusCode, Value) {
        let res = self
            .owner
            .request(method, format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, v) = self.send(reqwest::Method::POST, path, body).await;
        assert!(status.is_success(), "{path}: {status} {v}");
        v
    }

    pub async fn visit(
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

    /// Polls the edge until `check` holds for `host` + `path`, for at most five seconds.
    pub async fn until(
        &self,
        host: &str,
        path: &str,
        check: impl Fn(StatusCode, &str) -> bool,
    ) -> String {
        let start = Instant::now();
        loop {
            let (status, body, _) = self.visit(host, path).await;
            if check(status, &body) {
                return body;
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{host}{path} still answers {status}: {}",
                &body[..body.len().min(400)]
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// A collection "Produtos" in project `id` with a price field: their ids.
    pub async fn products(&self, id: i64) -> (i64, i64) {
        let table = self
            .post(
                "/api/tables",
                json!({"project_id": id, "name": "Produtos", "slug": "produtos",
                "meta": {"plural": "Produtos", "singular": "Produto"}}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let price = self
            .post(
                "/api/fields",
                json!({"table_id": table, "name": "Preço", "type": "currency",
                "meta": {"symbol": "R$", "format": "(symbol) 9.999,99"}}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        (table, price)
    }

    pub async fn publish(&self, id: i64) {
        self.post(&format!("/api/publish_v2/{id}"), json!({"project_id": id}))
            .await;
    }
}

/// The `<lastmod>` of `loc` in a sitemap.
pub fn lastmod<'a>(sitemap: &'a str, loc: &str) -> Option<&'a str> {
    let at = sitemap.find(&format!("<loc>{loc}</loc><lastmod>"))?;
    let rest = &sitemap[at..];
    let start = rest.find("<lastmod>")? + "<lastmod>".len();
    Some(&rest[start..start + rest[start..].find('<')?])
}

/// Every JSON-LD object of a page, each accepted by the schema.org checker, by type.
pub fn json_ld(html: &str) -> Vec<(String, Value)> {
    schema_org::scripts(html)
        .into_iter()
        .map(|v| {
            (
                schema_org::check(&v).unwrap_or_else(|e| panic!("{e}: {v}")),
                v,
            )
        })
        .collect()
}
