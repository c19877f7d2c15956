//! Benchmarks live in `benches/`; see README.md. This library holds what the load benches
//! share: a free port, nginx as the reference server started from a configuration text, the
//! settings of a bench stack and the control plane it starts ([`Stack`]), the 1,000 seeded sites (built and published through the control
//! plane's HTTP API), the release edge binary as a child process and wrk with a random-`Host`
//! script. Its modules: [`https`] (the HTTPS and load-shape benches' PKI, nginx root and
//! configuration, bare reference and h2load), [`template`] (a shop made from the bakery
//! template and published, its pages copied and measured), [`cpu`] (CPU time per request) and
//! [`scale`] (the scale bench's generated sites).

use std::{
    io::{BufRead, BufReader, Write},
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use vitrine_control::startup::Application;
use vitrine_shared::{
    Settings,
    testing::{Backend, TestDb},
};

pub mod counting;
pub mod cpu;
pub mod https;
pub mod scale;
pub mod template;

/// A loopback port nobody listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

/// nginx, killed when dropped.
pub struct Nginx {
    pub addr: SocketAddr,
    child: Child,
}

impl Nginx {
    /// Writes `config` to `dir/nginx.conf` (its prefix is `dir`) and starts nginx in the
    /// foreground, returning once `127.0.0.1:{port}` accepts connections.
    pub fn start(dir: &Path, port: u16, config: &str) -> Nginx {
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, config).expect("write nginx.conf");
        let child = Command::new("nginx")
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx must be installed (apt-get install nginx-light)");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "nginx did not start on {addr}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Nginx { addr, child }
    }

    /// The master process (its workers are its children).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The release `vitrine-edge` binary: the one `var` names, else the one beside the bench's own
/// executable (`target/release/deps/{bench}-…` → `target/release/vitrine-edge`), which
/// `cargo build --release -p vitrine-edge` makes (the bench scripts do).
pub fn edge_bin(var: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("the bench's executable");
        exe.parent()
            .and_then(Path::parent)
            .expect("target/release")
            .join("vitrine-edge")
    })
}

/// The edge binary as a child process, killed when dropped. Load benches run the edge as its
/// own process, as it runs in production: built with the release profile, on its own runtime,
/// not sharing one with the control plane that seeded the sites, and with its own memory.
pub struct EdgeProc {
    pub child: Child,
    pub addr: SocketAddr,
    /// The HTTPS listener's address.
    pub https: SocketAddr,
    /// The admin listener's address (`/metrics`).
    pub admin: SocketAddr,
    log: PathBuf,
}

impl EdgeProc {
    /// Starts `bin serve` on the database and local object store of a bench stack (sites at
    /// `{slug}.localhost`, every listener on a free loopback port, default settings otherwise)
    /// and returns once it prints its address. Its log goes to `data_dir/edge.log`.
    pub fn start(bin: &Path, database_url: &str, data_dir: &Path) -> EdgeProc {
        EdgeProc::start_with(bin, database_url, data_dir, &[])
    }

    /// [`EdgeProc::start`] with more `VITRINE_*` settings (they win over the defaults).
    pub fn start_with(
        bin: &Path,
        database_url: &str,
        data_dir: &Path,
        extra: &[(&str, String)],
    ) -> EdgeProc {
        let log = data_dir.join("edge.log");
        assert!(
            bin.exists(),
            "{} is missing: cargo build --release -p vitrine-edge (the bench scripts do)",
            bin.display()
        );
        let base = [
            ("VITRINE_DATABASE_URL", database_url.to_string()),
            ("VITRINE_DATA_DIR", data_dir.display().to_string()),
            ("VITRINE_PLATFORM_DOMAIN", "localhost".into()),
            ("VITRINE_EDGE_HTTP_LISTEN", "127.0.0.1:0".into()),
            ("VITRINE_EDGE_HTTPS_LISTEN", "127.0.0.1:0".into()),
            ("VITRINE_EDGE_ADMIN_LISTEN", "127.0.0.1:0".into()),
        ];
        let mut child = Command::new(bin)
            .arg("serve")
            .envs(base.iter().chain(extra).map(|(k, v)| (*k, v.as_str())))
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("edge log"))
            .spawn()
            .expect("start the edge");
        // "vitrine-edge listening on http://A (admin http://B) (https C)"
        let line = BufReader::new(child.stdout.take().expect("edge stdout"))
            .lines()
            .map_while(Result::ok)
            .find(|l| l.contains("listening on"))
            .unwrap_or_else(|| {
                panic!(
                    "the edge did not start:\n{}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            });
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://")?.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let https = line
            .rsplit_once("(https ")
            .and_then(|(_, rest)| rest.trim_end_matches(')').parse().ok())
            .unwrap_or_else(|| panic!("no HTTPS address in {line:?}"));
        let admin = line
            .split_once("(admin http://")
            .and_then(|(_, rest)| rest.split(')').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no admin address in {line:?}"));
        EdgeProc {
            child,
            addr,
            https,
            admin,
            log,
        }
    }

    /// Resident memory in KiB (`VmRSS`).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_else(|e| {
                panic!(
                    "the edge is gone ({e}):\n{}",
                    std::fs::read_to_string(&self.log).unwrap_or_default()
                )
            });
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/<pid>/status")
    }
}

impl Drop for EdgeProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one wrk run measured.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    pub rps: f64,
    pub p99_ms: f64,
}

/// The one block of site `i`'s home page: ~15 KB of ordinary page HTML.
pub fn page_block(i: usize) -> Value {
    sized_block(i, 15_000)
}

/// One block of ordinary page HTML of at least `bytes` bytes, for site `i`.
pub fn sized_block(i: usize, bytes: usize) -> Value {
    let mut html = format!(
        "<header><h1>Site {i}</h1><nav><a href=\"/\">Início</a> <a href=\"/blog/ola\">Blog</a></nav></header><main>"
    );
    let mut n = 0;
    while html.len() < bytes {
        html.push_str(&format!(
            "<section><h2>Seção {n}</h2><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p></section>"
        ));
        n += 1;
    }
    html.push_str("</main>");
    json!([{ "uid": "conteudo", "name": "Conteúdo", "template": html, "css": "main{max-width:60rem;margin:auto}", "js": "" }])
}

/// POSTs `body` to `{base}{path}` as `client` and answers the reply's JSON (`null` for none);
/// panics, with the reply, when the call fails.
pub async fn post_json(client: &reqwest::Client, base: &str, path: &str, body: Value) -> Value {
    let res = client
        .post(format!("{base}{path}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    assert!(status.is_success(), "{path}: {status}: {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Publishes `project` as `client`.
pub async fn publish(client: &reqwest::Client, base: &str, project: i64) {
    let path = format!("/api/publish_v2/{project}");
    post_json(client, base, &path, json!({"project_id": project})).await;
}

/// Creates site `i`'s project (`site{i}.localhost`) as `client`: its id and its home page's.
pub async fn new_site(client: &reqwest::Client, base: &str, i: usize) -> (i64, i64) {
    let p = post_json(
        client,
        base,
        "/api/projects",
        json!({"name": format!("site{i}")}),
    )
    .await;
    let home = p["pages"][0]["id"].as_i64().expect("home page");
    (p["id"].as_i64().unwrap(), home)
}

/// Builds site `i` (`site{i}.localhost`) through the API as `client` (signed in) and publishes
/// it: a ~15 KB home page and a collection page (`/blog/ola`) bound to a one-post collection.
/// Returns the project's id and its home page's id.
pub async fn seed_site(client: &reqwest::Client, base: &str, i: usize) -> (i64, i64) {
    let (project, home) = new_site(client, base, i).await;
    let path = format!("/api/page/{home}");
    post_json(client, base, &path, json!({"blocks": page_block(i)})).await;
    let t = post_json(client, base, "/api/tables", json!({"project_id": project, "name": "Posts", "slug": "posts", "meta": {"plural": "Posts", "singular": "Post"}})).await;
    let table = t["id"].as_i64().unwrap();
    let f = post_json(
        client,
        base,
        "/api/fields",
        json!({"table_id": table, "name": "Corpo", "type": "wysiwyg"}),
    )
    .await;
    let field = f["id"].as_i64().unwrap();
    let body = format!("<p>{}</p>", "Texto do post. ".repeat(900));
    post_json(client, base, "/api/posts", json!({"table_id": table, "name": "Olá", "slug": "ola", "fields": [{"field_id": field, "value": body}]})).await;
    let pg = post_json(
        client,
        base,
        "/api/pages",
        json!({"project_id": project, "name": "Blog"}),
    )
    .await;
    let page = pg["id"].as_i64().unwrap();
    post_json(client, base, &format!("/api/page/{page}"), json!({"slug": "blog", "table_id": table, "blocks": [{
            "uid": "post", "name": "Post",
            "template": "<article><h1>{{ post.name }}</h1><time>{{ post.date }}</time>{{ post.fields.corpo }}</article>",
            "css": "article{max-width:40rem}", "js": ""}]})).await;
    publish(client, base, project).await;
    (project, home)
}

/// `wrk -t2 -c64 -d{secs}s --latency -s {script}` against `http://{addr}{path}`; panics on a
/// failed run or any non-2xx/3xx answer.
pub fn wrk(addr: SocketAddr, path: &str, secs: u64, script: &Path) -> Load {
    wrk_shape(addr, path, secs, script, 2, 64, &[])
}

/// [`wrk`] with `threads` threads, `conns` connections and extra request `headers`.
pub fn wrk_shape(
    addr: SocketAddr,
    path: &str,
    secs: u64,
    script: &Path,
    threads: usize,
    conns: usize,
    headers: &[&str],
) -> Load {
    let mut cmd = Command::new("wrk");
    cmd.args([
        format!("-t{threads}"),
        format!("-c{conns}"),
        format!("-d{secs}s"),
    ]);
    for h in headers {
        cmd.args(["-H", h]);
    }
    let out = cmd
        .args(["--latency", "-s"])
        .arg(script)
        .arg(format!("http://{addr}{path}"))
        .output()
        .expect("wrk must be installed (apt-get install wrk)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "wrk failed: {text}");
    assert!(!text.contains("Non-2xx"), "errors under load:\n{text}");
    let rps = text
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no Requests/sec in:\n{text}"));
    let p99 = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("99%"))
        .map(|v| parse_latency(v.trim()))
        .unwrap_or_else(|| panic!("no 99% latency in:\n{text}"));
    Load { rps, p99_ms: p99 }
}

/// wrk's latency figure (`812.00us`, `2.43ms`, `1.2s`) in milliseconds.
pub fn parse_latency(v: &str) -> f64 {
    let (num, unit) = v.split_at(v.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(v.len()));
    let n: f64 = num.trim().parse().unwrap_or(f64::NAN);
    match unit {
        "us" => n / 1000.0,
        "ms" => n,
        "s" => n * 1000.0,
        "m" => n * 60_000.0,
        _ => f64::NAN,
    }
}

/// The settings of a bench stack: `database_url`, everything under `data_dir` (the local object
/// store included), every listener on a free loopback port, sites at `{slug}.localhost`.
pub fn settings(database_url: &str, data_dir: PathBuf) -> Settings {
    Settings {
        database_url: Some(vitrine_shared::secret::Secret::new(
            database_url.to_string(),
        )),
        data_dir,
        control_listen: "127.0.0.1:0".into(),
        control_admin_listen: "127.0.0.1:0".into(),
        edge_http_listen: "127.0.0.1:0".into(),
        edge_https_listen: "127.0.0.1:0".into(),
        edge_admin_listen: "127.0.0.1:0".into(),
        platform_domain: "localhost".into(),
        render_worker: Some(render_worker()),
        // Screenshots and thumbnails start Chromium in the background after each publish: a
        // bench that publishes a thousand sites would still be taking them while it measures.
        site_screenshots: false,
        library_thumbnails: false,
        ..Settings::default()
    }
}

/// The render sandbox's worker (this package's `vitrine-render-worker`), beside the bench or
/// test binary's `deps/` folder: cargo builds a package's binaries with its benches and tests.
pub fn render_worker() -> PathBuf {
    let exe = std::env::current_exe().expect("the running binary");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/{profile}/deps");
    dir.join("vitrine-render-worker")
}

/// A control plane on a fresh SQLite database, its data (the local object store included) in
/// a temporary directory, with the bench's owner signed in: where the benches build their
/// sites, before they start an edge on the same database and data.
pub struct Stack {
    pub app: Application,
    /// `http://{the control plane's address}`.
    pub base: String,
    /// The owner's signed-in client.
    pub client: reqwest::Client,
    pub data_dir: PathBuf,
    pub db: TestDb,
    /// Holds `data_dir`, and room for the bench's own files.
    pub dir: tempfile::TempDir,
}

impl Stack {
    pub async fn start() -> Stack {
        let db = TestDb::new(Backend::Sqlite).await;
        let dir = tempfile::tempdir().unwrap();
        let data_dir = dir.path().join("data");
        let app = Application::build(settings(&db.url, data_dir.clone()))
            .await
            .unwrap();
        let base = format!("http://{}", app.addr());
        let client = register(&base).await;
        Stack {
            app,
            base,
            client,
            data_dir,
            db,
            dir,
        }
    }
}

/// The median of a bench's per-round figures (the mean of the middle two for an even count):
/// the figure the load benches report, so one slow or lucky round does not move it.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
}

/// The value of the environment variable `name` as a number, or `default`.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Registers the bench's owner at the control plane `base`; the returned client is signed in.
pub async fn register(base: &str) -> reqwest::Client {
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .unwrap();
    let res = client
        .post(format!("{base}/api/register"))
        .json(&json!({"name": "Load", "email": "load@example.com", "password": "load-password"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    client
}

/// A wrk Lua script in `dir` that sends each request with a random `Host: site{0..sites}.localhost`.
pub fn random_host_script(dir: &Path, sites: usize) -> PathBuf {
    random_host_script_named(dir, "site", sites)
}

/// A wrk Lua script in `dir` that sends each request with a random
/// `Host: {prefix}{0..sites}.localhost`.
pub fn random_host_script_named(dir: &Path, prefix: &str, sites: usize) -> PathBuf {
    let script = dir.join(format!("random-host-{prefix}-{sites}.lua"));
    let mut f = std::fs::File::create(&script).unwrap();
    writeln!(
        f,
        "math.randomseed(os.time())\nrequest = function()\n  wrk.headers[\"Host\"] = \"{prefix}\" .. math.random(0, {}) .. \".localhost\"\n  return wrk.format(nil)\nend",
        sites - 1
    )
    .unwrap();
    script
}
