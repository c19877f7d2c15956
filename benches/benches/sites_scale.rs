//! 100,000 sites on one edge node (issue 23): what the number of sites a node knows costs it.
//!
//! Two stacks (SQLite and a local object store each, as the embedded default) are filled by
//! the generator (`vitrine_benches::scale`, straight through the store and the object store):
//! one with 1,000 sites, one with `SCALE_SITES` (100,000 by default), five pages each. The
//! release edge binary serves them in its own process with its default settings. Measured:
//!
//! 1. **Start-up:** from spawning the process to its "listening" line, and to the first page
//!    answered (a cold site), on both stacks, `SCALE_ROUNDS` times each, alternating. Target:
//!    < 1 s, and no growth with the number of sites.
//! 2. **A cold site's first request** (host lookup in the database, manifest and page from the
//!    object store): `SCALE_COLD` sites never asked for before, spread over the whole range,
//!    one after another on one keep-alive connection. Target: p99 ≤ 10 ms. Then as many
//!    others 16 at once (reported: sixteen cold loads share two cores, so each waits on the
//!    others).
//! 3. **Memory:** every site of the large stack asked for once (all known), then 1,000 of them
//!    hot under wrk; resident memory (`VmRSS`) after each, and bytes per known site. Target:
//!    ≤ 512 MB with the default caches.
//! 4. **The hot path:** wrk (`-t2 -c64`, a random one of the first 1,000 hosts per request) on
//!    the edge that knows 100,000 sites and on the one that knows 1,000, in alternating order,
//!    `SCALE_ROUNDS` rounds of `SCALE_SECS`. Target: the medians within 5 %.
//! 5. **From S3:** `SCALE_S3_SITES` sites (2,000 by default: moto is a Python server and
//!    stores every object in memory) generated into moto's S3 server
//!    (`VITRINE_TEST_MOTO_SERVER`, which `benches/edge-load.sh --scale` installs), and the
//!    cold first request measured as in 2. Reported, with no target.
//!
//! Run: `bash benches/edge-load.sh --scale`. The run prints PASS/MISS per target and exits
//! non-zero on a miss. `SCALE_PARTS` (`startup,cold,memory,hot,s3`) picks parts,
//! `SCALE_EDGE_ENV` (`VITRINE_X=1,…`) gives the edges more settings, and `SCALE_DIR` keeps the
//! generated local sites there for the next run.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use futures::{StreamExt, stream};
use vitrine_benches::{
    EdgeProc, edge_bin, free_port, random_host_script_named,
    scale::{self, Generated},
    wrk,
};
use vitrine_shared::{Store, blob::BlobStore, store::NewUser};

/// The hot sites: the first this many of each stack.
const HOT: usize = 1_000;
const MB: f64 = 1024.0 * 1024.0;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// One database and object store filled with generated sites.
struct Stack {
    url: String,
    dir: PathBuf,
    generated: Generated,
    _temp: Option<tempfile::TempDir>,
}

impl Stack {
    /// `sites` generated sites in a new temporary directory, or under `SCALE_DIR/{name}` when
    /// that is set, where a complete earlier run's sites are used again (generating 100,000
    /// takes minutes; trying settings against them should not).
    async fn generate(name: &str, sites: usize, blobs: Option<BlobStore>) -> Stack {
        // Objects in moto live as long as its process: those sites are made anew each run.
        let kept = std::env::var_os("SCALE_DIR").filter(|_| blobs.is_none());
        let (dir, temp) = match kept {
            Some(root) => (PathBuf::from(root).join(name), None),
            None => {
                let temp = tempfile::tempdir().unwrap();
                (temp.path().to_path_buf(), Some(temp))
            }
        };
        let url = format!("sqlite://{}?mode=rwc", dir.join("vitrine.db").display());
        let complete = dir.join("complete");
        if let Ok(done) = std::fs::read_to_string(&complete) {
            let n: Vec<f64> = done
                .split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect();
            println!(
                "  {name}: {sites} sites generated earlier in {}",
                dir.display()
            );
            let generated = Generated {
                sites,
                objects: n[0] as u64,
                bytes: n[1] as u64,
                secs: n[2],
            };
            return Stack {
                url,
                dir,
                generated,
                _temp: temp,
            };
        }
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        let owner = store
            .insert_user(&NewUser {
                name: "Scale",
                email: "scale@example.com",
                password_hash: "x",
                language: vitrine_shared::language::Language::PtBr,
                is_admin: false,
            })
            .await
            .unwrap();
        let blobs = blobs.unwrap_or_else(|| BlobStore::local(&dir.join("objects")).unwrap());
        let generated = scale::generate(&store, &blobs, owner.id, 0..sites).await;
        store.close().await;
        println!(
            "  {name}: generated {} sites: {} objects, {:.0} MB, in {:.1} s",
            generated.sites,
            generated.objects,
            generated.bytes as f64 / MB,
            generated.secs
        );
        let record = format!(
            "{} {} {}",
            generated.objects, generated.bytes, generated.secs
        );
        std::fs::write(&complete, record).unwrap();
        Stack {
            url,
            dir,
            generated,
            _temp: temp,
        }
    }

    /// The edge on this stack, with `SCALE_EDGE_ENV` (`NAME=value,…`) and `extra` settings.
    fn edge(&self, bin: &Path, extra: &[(&str, String)]) -> EdgeProc {
        let from_env = std::env::var("SCALE_EDGE_ENV").unwrap_or_default();
        let mut settings: Vec<(&str, String)> = from_env
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k, v.to_string()))
            .collect();
        settings.extend(extra.iter().cloned());
        EdgeProc::start_with(bin, &self.url, &self.dir, &settings)
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap()
}

/// One `GET http://{edge}/` as site `i`: its latency in ms, after checking it is that site.
async fn visit(client: &reqwest::Client, edge: SocketAddr, i: usize) -> f64 {
    let started = Instant::now();
    let res = client
        .get(format!("http://{edge}/"))
        .header("host", scale::host(i))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    let status = res.status();
    let body = res.bytes().await.unwrap();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(status, 200, "site {i}");
    assert!(body.len() > 500, "site {i}: {} bytes", body.len());
    ms
}

/// Latencies of visiting each of `sites`, `at_once` at a time.
async fn visit_all(edge: SocketAddr, sites: Vec<usize>, at_once: usize) -> Vec<f64> {
    let client = client();
    let client = &client;
    stream::iter(sites)
        .map(|i| visit(client, edge, i))
        .buffer_unordered(at_once)
        .collect()
        .await
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len());
    sorted[at - 1]
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// "p50 a ms, p99 b ms, max c ms" of `ms`; returns p99.
fn summary(what: &str, mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    let p99 = percentile(&ms, 0.99);
    println!(
        "  {what}: {} requests, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms.len(),
        percentile(&ms, 0.5),
        p99,
        ms[ms.len() - 1]
    );
    p99
}

/// Sites never asked for before: `n` of `0..sites`, spread over the range, offset by `seed`.
fn spread(sites: usize, n: usize, seed: usize) -> Vec<usize> {
    let step = (sites / n).max(1);
    (0..n.min(sites))
        .map(|k| (k * step + seed) % sites)
        .collect()
}

/// Milliseconds from spawning the edge to its "listening" line, and to site 0's first page.
async fn start_up(stack: &Stack, bin: &Path) -> (f64, f64) {
    let started = Instant::now();
    let edge = stack.edge(bin, &[]);
    let listening = started.elapsed().as_secs_f64() * 1000.0;
    visit(&client(), edge.addr, 0).await;
    (listening, started.elapsed().as_secs_f64() * 1000.0)
}

struct Verdicts(Vec<(String, bool)>);

impl Verdicts {
    fn check(&mut self, what: String, ok: bool) {
        println!("  {} {what}", if ok { "PASS" } else { "MISS" });
        self.0.push((what, ok));
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    // No `TestDb` here to install the TLS provider that reqwest and the S3 client need.
    vitrine_shared::tls::install_crypto_provider();
    // moto's S3 server for part 5, and the settings the bench's own S3 client reads (as the
    // edge's does: `AmazonS3Builder::from_env`), set before any thread starts.
    let moto = Moto::start();
    for (k, v) in moto.env() {
        // SAFETY: no other thread exists yet.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(k, v);
        }
    }
    let met = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(&moto));
    // moto stops here (its drop), before a miss ends the process.
    drop(moto);
    if !met {
        std::process::exit(1);
    }
}

/// The run's sizes, from the environment.
struct Sizes {
    sites: usize,
    rounds: usize,
    secs: u64,
    cold: usize,
    s3_sites: usize,
}

/// Runs the parts asked for; false when a target was missed.
async fn run(moto: &Moto) -> bool {
    let n = Sizes {
        sites: env("SCALE_SITES", 100_000).max(HOT + 1),
        rounds: env("SCALE_ROUNDS", 5).max(1),
        secs: env("SCALE_SECS", 6) as u64,
        cold: env("SCALE_COLD", 2_000),
        s3_sites: env("SCALE_S3_SITES", 2_000).max(2),
    };
    let bin = edge_bin("EDGE_LOAD_EDGE_BIN");
    let parts =
        std::env::var("SCALE_PARTS").unwrap_or_else(|_| "startup,cold,memory,hot,s3".into());
    let part = |name: &str| parts.split(',').any(|p| p == name);
    let mut verdicts = Verdicts(Vec::new());

    println!("sites scale: {HOT} and {} sites…", n.sites);
    let small = Stack::generate(&format!("local-{HOT}"), HOT, None).await;
    let large = Stack::generate(&format!("local-{}", n.sites), n.sites, None).await;
    let per_site = large.generated.bytes as f64 / large.generated.sites as f64;
    println!("  {per_site:.0} bytes of objects per site");

    if part("startup") {
        start_ups(&n, &small, &large, &bin, &mut verdicts).await;
    }
    let edge = large.edge(&bin, &[]);
    if part("cold") {
        let title = format!("local object store, {} sites in the database", n.sites);
        let p99 = cold_requests(&title, &edge, n.sites, n.cold.min(n.sites / 2)).await;
        verdicts.check(
            format!("a cold site's first request, p99 {p99:.2} ms ≤ 10 ms"),
            p99 <= 10.0,
        );
    }
    let script = random_host_script_named(&large.dir, "s", HOT);
    if part("memory") {
        memory(&n, &edge, &script, &mut verdicts).await;
    }
    if part("hot") {
        hot_path(&n, &edge, &script, &small, &bin, &mut verdicts).await;
    }
    drop(edge);
    if part("s3") {
        let settings = vitrine_shared::Settings {
            object_store_url: Some(moto.url()),
            ..Default::default()
        };
        let s3_blobs = BlobStore::from_settings(&settings).unwrap();
        let s3 = Stack::generate(&format!("s3-{}", n.s3_sites), n.s3_sites, Some(s3_blobs)).await;
        let edge = s3.edge(&bin, &moto.edge_env());
        let title = format!("S3 (moto), {} sites", n.s3_sites);
        cold_requests(&title, &edge, n.s3_sites, (n.s3_sites / 2).min(n.cold)).await;
    }

    let missed: Vec<&String> = verdicts.0.iter().filter(|v| !v.1).map(|v| &v.0).collect();
    if !missed.is_empty() {
        eprintln!("\nmissed: {missed:#?}");
    }
    missed.is_empty()
}

/// Part 1: start-up on both stacks, alternating.
async fn start_ups(n: &Sizes, small: &Stack, large: &Stack, bin: &Path, verdicts: &mut Verdicts) {
    println!("\n1. start-up ({} rounds, alternating)", n.rounds);
    let (mut small_up, mut large_up) = (Vec::new(), Vec::new());
    for round in 0..n.rounds {
        for first_small in [round % 2 == 0, round % 2 != 0] {
            if first_small {
                small_up.push(start_up(small, bin).await);
            } else {
                large_up.push(start_up(large, bin).await);
            }
        }
    }
    let mut firsts = Vec::new();
    for (sites, ups) in [(HOT, &small_up), (n.sites, &large_up)] {
        let listening: Vec<String> = ups.iter().map(|u| format!("{:.0}", u.0)).collect();
        let first: Vec<f64> = ups.iter().map(|u| u.1).collect();
        println!(
            "  {sites} sites: listening after {} ms, first page after {} ms (median {:.0} ms)",
            listening.join(", "),
            first
                .iter()
                .map(|v| format!("{v:.0}"))
                .collect::<Vec<_>>()
                .join(", "),
            median(&first)
        );
        firsts.push(median(&first));
    }
    let (small_first, large_first) = (firsts[0], firsts[1]);
    verdicts.check(
        format!(
            "start-up to the first page with {} sites: {large_first:.0} ms < 1000 ms",
            n.sites
        ),
        large_first < 1000.0,
    );
    verdicts.check(
        format!(
            "start-up independent of the number of sites: {large_first:.0} ms with {}, {small_first:.0} ms with {HOT} (within 100 ms)",
            n.sites
        ),
        (large_first - small_first).abs() < 100.0,
    );
}

/// Parts 2 and 5: `cold` sites never asked for before, one at a time, then as many others 16
/// at once, then the first ones again (warm). Returns the one-at-a-time p99.
async fn cold_requests(title: &str, edge: &EdgeProc, sites: usize, cold: usize) -> f64 {
    println!("\n{title}: a cold site's first request");
    // Two sets with no site in common (`cold` is at most half the sites: a step of 2 or more).
    let step = (sites / cold.max(1)).max(2);
    let (first, second) = (spread(sites, cold, 1), spread(sites, cold, 1 + step / 2));
    let one = summary(
        "one at a time",
        visit_all(edge.addr, first.clone(), 1).await,
    );
    summary("16 at once", visit_all(edge.addr, second, 16).await);
    summary(
        "the first ones again (warm), one at a time",
        visit_all(edge.addr, first, 1).await,
    );
    one
}

/// Part 3: every site known, then the hot ones under load; resident memory after each.
async fn memory(n: &Sizes, edge: &EdgeProc, script: &Path, verdicts: &mut Verdicts) {
    println!("\n3. memory: all {} sites known, then {HOT} hot", n.sites);
    let rss_start = edge.rss_kib();
    let started = Instant::now();
    visit_all(edge.addr, (0..n.sites).collect(), 32).await;
    let rss_known = edge.rss_kib();
    println!(
        "  every site asked for once in {:.1} s; VmRSS {:.0} MB before, {:.0} MB with all known",
        started.elapsed().as_secs_f64(),
        rss_start as f64 / 1024.0,
        rss_known as f64 / 1024.0
    );
    let load = wrk(edge.addr, "/", n.secs, script);
    let rss_hot = edge.rss_kib();
    let per_known = (rss_known.saturating_sub(rss_start) as f64 * 1024.0) / n.sites as f64;
    println!(
        "  {HOT} hot under wrk ({:.0} req/s): VmRSS {:.0} MB; {per_known:.0} bytes per known site",
        load.rps,
        rss_hot as f64 / 1024.0
    );
    let peak = rss_known.max(rss_hot) as f64 / 1024.0;
    verdicts.check(
        format!(
            "resident memory with {} known and {HOT} hot: {peak:.0} MB ≤ 512 MB",
            n.sites
        ),
        peak <= 512.0,
    );
}

/// Part 4: the hot sites on the large stack's edge against the small stack's, alternating.
async fn hot_path(
    n: &Sizes,
    edge: &EdgeProc,
    script: &Path,
    small: &Stack,
    bin: &Path,
    verdicts: &mut Verdicts,
) {
    println!(
        "\n4. the hot path: {HOT} hot sites, {} known against {HOT} known ({} rounds of {} s)",
        n.sites, n.rounds, n.secs
    );
    let small_edge = small.edge(bin, &[]);
    visit_all(edge.addr, (0..HOT).collect(), 16).await;
    visit_all(small_edge.addr, (0..HOT).collect(), 16).await;
    let small_script = random_host_script_named(&small.dir, "s", HOT);
    let mut ratios = Vec::new();
    for round in 0..n.rounds {
        let run_large = || wrk(edge.addr, "/", n.secs, script);
        let run_small = || wrk(small_edge.addr, "/", n.secs, &small_script);
        let (l, s) = if round % 2 == 0 {
            let l = run_large();
            (l, run_small())
        } else {
            let s = run_small();
            (run_large(), s)
        };
        println!(
            "  round {}: {} known {:.0} req/s (p99 {:.2} ms), {HOT} known {:.0} req/s (p99 {:.2} ms): {:.3}",
            round + 1,
            n.sites,
            l.rps,
            l.p99_ms,
            s.rps,
            s.p99_ms,
            l.rps / s.rps
        );
        ratios.push(l.rps / s.rps);
    }
    let ratio = median(&ratios);
    verdicts.check(
        format!(
            "hot path with {} known / with {HOT} known: median {ratio:.3} ≥ 0.95",
            n.sites
        ),
        ratio >= 0.95,
    );
}

/// moto's S3 server on a free port, with the bucket `scale` made; stopped when dropped.
struct Moto {
    child: std::process::Child,
    endpoint: String,
}

impl Moto {
    fn start() -> Moto {
        let bin: PathBuf = std::env::var_os("VITRINE_TEST_MOTO_SERVER")
            .map(PathBuf::from)
            .unwrap_or_else(|| "moto_server".into());
        let port = free_port();
        let child = Command::new(&bin)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("moto's S3 server is required ({}: {e}); benches/edge-load.sh --scale installs it", bin.display())
            });
        let endpoint = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(30);
        // Path-style bucket creation; moto does not check signatures.
        let make_bucket = || -> std::io::Result<bool> {
            use std::io::{Read, Write};
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port))?;
            s.write_all(b"PUT /scale HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")?;
            let mut answer = String::new();
            s.read_to_string(&mut answer)?;
            Ok(answer.starts_with("HTTP/1.1 200"))
        };
        while !make_bucket().unwrap_or(false) {
            assert!(Instant::now() < deadline, "moto did not start");
            std::thread::sleep(Duration::from_millis(200));
        }
        Moto { child, endpoint }
    }

    fn url(&self) -> String {
        "s3://scale".into()
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", "test".into()),
            ("AWS_SECRET_ACCESS_KEY", "test".into()),
            ("AWS_DEFAULT_REGION", "us-east-1".into()),
        ]
    }

    fn edge_env(&self) -> Vec<(&'static str, String)> {
        let mut env = self.env();
        env.push(("VITRINE_OBJECT_STORE_URL", self.url()));
        env
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
