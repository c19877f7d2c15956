//! `TestApp`: builds the application exactly as `main` does, on port 0, with its own
//! database and data directory.

use std::time::{Duration, Instant};

use reqwest::{Client, Method, Response, StatusCode};
use serde_json::{Value, json};
use vitrine_control::startup::Application;
use vitrine_shared::ids::AccountId;
use vitrine_shared::{
    Settings, Store,
    testing::{Backend, TestDb, metric_value},
};

/// A valid 1×1 RGBA PNG: uploads of images are decoded (and made upright, stripped of their
/// metadata) before they are stored, so a fixture must be a real image.
pub const PNG: &[u8] = b"\x89PNG\x0d\x0a\x1a\x0a\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0dIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";

pub struct TestApp {
    pub base: String,
    pub app: Application,
    pub store: Store,
    _dir: tempfile::TempDir,
    _db: TestDb,
}

/// A signed-in browser-like client (it keeps cookies).
pub struct Session {
    pub client: Client,
    pub user: Value,
    /// `name=value` of the session cookie, for raw-socket requests.
    pub cookie: String,
}

impl Session {
    pub fn id(&self) -> i64 {
        self.user["id"].as_i64().unwrap()
    }
}

impl TestApp {
    pub async fn new(backend: Backend) -> TestApp {
        Self::with(backend, |_| {}).await
    }

    /// Like `new`, with settings adjusted by `tweak` before start-up.
    pub async fn with(backend: Backend, tweak: impl FnOnce(&mut Settings)) -> TestApp {
        let db = TestDb::new(backend).await;
        let dir = tempfile::tempdir().unwrap();
        let mut settings = Settings {
            database_url: Some(vitrine_shared::secret::Secret::new(db.url.clone())),
            data_dir: dir.path().to_path_buf(),
            control_listen: "127.0.0.1:0".into(),
            control_admin_listen: "127.0.0.1:0".into(),
            dashboard_dir: dir.path().join("no-dashboard"),
            // The test binary has no render-worker mode; the control plane's binary does.
            render_worker: Some(env!("CARGO_BIN_EXE_vitrine-control").into()),
            // A Chromium after every publish would slow every test down; the tests of the
            // pictures turn it on.
            site_screenshots: false,
            library_thumbnails: false,
            ..Settings::default()
        };
        tweak(&mut settings);
        let app = Application::build(settings)
            .await
            .expect("application starts");
        let base = format!("http://{}", app.addr());
        let store = app.state().store.clone();
        TestApp {
            base,
            app,
            store,
            _dir: dir,
            _db: db,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn client() -> Client {
        Client::builder().cookie_store(true).build().unwrap()
    }

    /// Registers a fresh account and returns its signed-in session.
    pub async fn register(&self, email: &str) -> Session {
        let client = Self::client();
        let res = client
            .post(self.url("/api/register"))
            .json(&json!({"name": "Ana Teste", "email": email, "password": "senha-segura-1"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::CREATED, "register {email}");
        let cookie = res.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let user = res.json().await.unwrap();
        Session {
            client,
            user,
            cookie,
        }
    }

    /// Signs an existing account in on a fresh client; panics unless it works.
    pub async fn sign_in(&self, email: &str, password: &str) -> Session {
        let client = Self::client();
        let res = client
            .post(self.url("/api/login"))
            .json(&json!({"email": email, "password": password}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "sign in {email}");
        let user = res.json().await.unwrap();
        Session {
            client,
            user,
            cookie: String::new(),
        }
    }

    /// Makes an account an administrator (server-owned flag, set through the store).
    pub async fn make_admin(&self, s: &Session) {
        self.store
            .set_user_flags(AccountId(s.id()), true, false)
            .await
            .unwrap();
    }

    pub async fn call(
        &self,
        s: &Session,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Response {
        let mut req = s.client.request(method, self.url(path));
        if let Some(b) = body {
            req = req.json(&b);
        }
        req.send().await.unwrap()
    }

    pub async fn get(&self, s: &Session, path: &str) -> Response {
        self.call(s, Method::GET, path, None).await
    }

    pub async fn post(&self, s: &Session, path: &str, body: Value) -> Response {
        self.call(s, Method::POST, path, Some(body)).await
    }

    pub async fn delete(&self, s: &Session, path: &str) -> Response {
        self.call(s, Method::DELETE, path, None).await
    }

    pub async fn create_project(&self, s: &Session, name: &str) -> Value {
        let res = self.post(s, "/api/projects", json!({"name": name})).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        res.json().await.unwrap()
    }
}

/// Asserts the status and the JSON error shape, and returns the message.
pub async fn expect_error(res: Response, status: StatusCode) -> String {
    let got = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(got, status, "body: {text}");
    let body: Value =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("error body is JSON: {text}"));
    assert!(body["error"].is_string(), "error code in {text}");
    body["message"].as_str().expect("message").to_string()
}

/// The value of field `field` in a post as the API shows it (null when it has none).
pub fn value_of(post: &Value, field: i64) -> Value {
    post["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["field_id"] == field)
        .map(|v| v["value"].clone())
        .unwrap_or(Value::Null)
}

pub async fn json_ok(res: Response) -> Value {
    let status = res.status();
    let url = res.url().path().to_string();
    let text = res.text().await.unwrap();
    assert!(status.is_success(), "{url}: {status}: {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Waits (up to 10 s, checking every 20 ms) for a condition that background work makes true.
pub async fn eventually<F, Fut>(mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    wait_until("a condition", Duration::from_secs(10), async || {
        check().await
    })
    .await;
}

/// Checks `check` every 20 ms until it holds, and answers how long that took; the test fails,
/// naming `what`, when `limit` passes first. The one way the tests wait: on a condition, never
/// for a fixed time.
pub async fn wait_until(
    what: &str,
    limit: Duration,
    mut check: impl AsyncFnMut() -> bool,
) -> Duration {
    let started = Instant::now();
    loop {
        if check().await {
            return started.elapsed();
        }
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A series of the control plane's `/metrics` on its admin listener (see [`metric_at`]).
pub async fn metric(app: &TestApp, series: &str) -> f64 {
    metric_at(app.app.admin_addr().expect("admin listener"), series).await
}

/// A series of the `/metrics` served at `admin` (`name{labels}`, exactly as exposed), 0 while
/// it has not been counted yet.
pub async fn metric_at(admin: std::net::SocketAddr, series: &str) -> f64 {
    metric_value(&metrics_at(admin).await, series)
}

/// The `/metrics` exposition served at `admin`.
pub async fn metrics_at(admin: std::net::SocketAddr) -> String {
    reqwest::get(format!("http://{admin}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// Sends a request over a plain socket, writing the body while reading the answer, so a
/// server that answers early (413) and closes does not lose its response. Returns the status
/// and the body.
pub async fn raw_request(
    base: &str,
    method: &str,
    path: &str,
    cookie: &str,
    content_type: &str,
    body: Vec<u8>,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let writer = tokio::spawn(async move {
        let _ = write.write_all(head.as_bytes()).await;
        let _ = write.write_all(&body).await;
    });
    let mut raw = Vec::new();
    let _ = read.read_to_end(&mut raw).await;
    writer.abort();
    let text = String::from_utf8_lossy(&raw).to_string();
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body_text = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    // The body may be chunked: take the JSON object inside.
    let json = body_text
        .find('{')
        .and_then(|i| body_text.rfind('}').map(|j| &body_text[i..=j]))
        .unwrap_or("null");
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

/// `(slug, name, id)` of each record of `table`, by slug.
pub async fn records_by_slug(app: &TestApp, s: &Session, table: i64) -> Vec<(String, String, i64)> {
    let data = json_ok(app.get(s, &format!("/api/data/{table}")).await).await;
    let mut out: Vec<(String, String, i64)> = data["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["slug"].as_str().unwrap().to_string(),
                p["name"].as_str().unwrap().to_string(),
                p["id"].as_i64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}
