//! Publish time against site size (issue 23): sites of 1, 10 and 50 static pages, each page
//! with a ~10 KB body and a block CSS and JS bundle of its own, published three ways:
//!
//! - `first`: the first publish of a new site, every page and asset new;
//! - `new_assets`: a republish after every page's CSS and JS changed, so every page and every
//!   bundle is new (the pages link the new bundles);
//! - `no_change`: a republish with nothing changed, the case issue 23 wants under 20 ms.
//!
//! **Server time** is the duration of `vitrine_control::publish::publish` called in this
//! process on the running control plane's state: it holds everything the publish endpoint
//! does after authorization and input checks (the build, the object-store writes, the
//! manifest, making the deploy live in the database), and nothing of HTTP. The sites are built
//! through the control plane's HTTP API (a real `Application` on port 0, SQLite in a temporary
//! folder, the local object store), and that building is never timed: each sample's set-up
//! (a new site, or every page edited) runs outside the measured span (`iter_custom`). Site
//! pictures are off: they are taken in the background after a publish, not by it.
//!
//! Run: `cargo bench -p vitrine-benches --bench publish` (about two minutes); the medians are
//! in `target/criterion/publish/*/*/new/estimates.json`, and benches/README.md's `publish`
//! section reports them.

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode};
use serde_json::{Value, json};
use tokio::runtime::Runtime;
use vitrine_benches::sized_block;
use vitrine_control::{publish::publish, startup::Application};
use vitrine_shared::ids::{AccountId, ProjectId};
use vitrine_shared::testing::TestDb;

/// Site sizes, in static pages.
const SIZES: [usize; 3] = [1, 10, 50];

/// The running control plane and its signed-in owner.
struct Stack {
    app: Application,
    base: String,
    client: reqwest::Client,
    owner: i64,
    sites: usize,
    _db: TestDb,
    _dir: tempfile::TempDir,
}

/// Page `page`'s one block at revision `rev`: a ~10 KB body, and CSS and JS that name both,
/// so that each page's bundles are assets of their own and a new revision makes new ones.
fn page_blocks(page: usize, rev: usize) -> Value {
    let mut blocks = sized_block(page, 10_000);
    let rules: String = (0..24)
        .map(|i| {
            format!(
                ".p{page}-r{rev}-{i}{{margin:{i}px auto;padding:{rev}px;color:#{:06x}}}\n",
                page * 31 + i
            )
        })
        .collect();
    let script: String = (0..16)
        .map(|i| format!("document.querySelectorAll('.p{page}-r{rev}-{i}').forEach(function(e){{e.dataset.n={i};}});\n"))
        .collect();
    blocks[0]["css"] = json!(rules);
    blocks[0]["js"] = json!(script);
    blocks
}

impl Stack {
    async fn start() -> Stack {
        let vitrine_benches::Stack {
            app,
            base,
            client,
            db,
            dir,
            ..
        } = vitrine_benches::Stack::start().await;
        let mut stack = Stack {
            app,
            base,
            client,
            owner: 0,
            sites: 0,
            _db: db,
            _dir: dir,
        };
        let me = stack
            .call(stack.client.get(format!("{}/api/user", stack.base)))
            .await;
        stack.owner = me["id"].as_i64().expect("the owner's id");
        stack
    }

    /// A request's JSON answer, which must be a success.
    async fn call(&self, request: reqwest::RequestBuilder) -> Value {
        let res = request.send().await.unwrap();
        let (status, url) = (res.status(), res.url().clone());
        let text = res.text().await.unwrap();
        assert!(status.is_success(), "{url}: {status} {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        let url = format!("{}{path}", self.base);
        self.call(self.client.post(url).json(&body)).await
    }

    /// A new, unpublished site of `pages` static pages at revision 0; its project id and
    /// page ids (the home page first).
    async fn site(&mut self, pages: usize) -> (i64, Vec<i64>) {
        self.sites += 1;
        let p = self
            .post(
                "/api/projects",
                json!({"name": format!("site{}", self.sites)}),
            )
            .await;
        let project = p["id"].as_i64().unwrap();
        let mut ids = vec![p["pages"][0]["id"].as_i64().expect("home page")];
        for n in 1..pages {
            let page = self
                .post(
                    "/api/pages",
                    json!({"project_id": project, "name": format!("Página {n}")}),
                )
                .await;
            ids.push(page["id"].as_i64().unwrap());
        }
        for (n, &id) in ids.iter().enumerate() {
            let mut body = json!({"blocks": page_blocks(n, 0)});
            if n > 0 {
                body["slug"] = json!(format!("pagina-{n}"));
            }
            self.post(&format!("/api/page/{id}"), body).await;
        }
        (project, ids)
    }

    /// Gives every page of a site revision `rev` (new CSS and JS).
    async fn revise(&self, pages: &[i64], rev: usize) {
        for (n, &id) in pages.iter().enumerate() {
            self.post(
                &format!("/api/page/{id}"),
                json!({"blocks": page_blocks(n, rev)}),
            )
            .await;
        }
    }

    /// One publish, timed: the server time.
    async fn publish(&self, project: i64) -> Duration {
        let started = Instant::now();
        let published = publish(self.app.state(), ProjectId(project), AccountId(self.owner))
            .await
            .unwrap_or_else(|e| panic!("publish of {project} failed: {e}"));
        let took = started.elapsed();
        assert_eq!(published.deploy.status.code(), "ready");
        took
    }
}

fn bench(c: &mut Criterion) {
    let rt = Runtime::new().unwrap();
    let mut stack = rt.block_on(Stack::start());
    let mut group = c.benchmark_group("publish");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for pages in SIZES {
        group.bench_function(BenchmarkId::new("first", pages), |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let (project, _) = stack.site(pages).await;
                        total += stack.publish(project).await;
                    }
                    total
                })
            })
        });
        let (project, ids) = rt.block_on(stack.site(pages));
        rt.block_on(stack.publish(project));
        let mut rev = 0;
        group.bench_function(BenchmarkId::new("new_assets", pages), |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        rev += 1;
                        stack.revise(&ids, rev).await;
                        total += stack.publish(project).await;
                    }
                    total
                })
            })
        });
        group.bench_function(BenchmarkId::new("no_change", pages), |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        total += stack.publish(project).await;
                    }
                    total
                })
            })
        });
    }
    group.finish();
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
