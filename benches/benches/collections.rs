//! End-to-end collection benchmarks on SQLite and PostgreSQL (issues 3 and 42):
//!
//! 1. Import of 100,000 rows × 10 fields from CSV through the real HTTP API, against the
//!    reference: a raw batched insert of the same, already-normalised rows into the same
//!    database (multi-row INSERTs in one transaction), right after it, in
//!    `COLLECTIONS_ROUNDS` rounds (3). Reported as the ratio import / raw, the median of the
//!    rounds' ratios.
//! 2. The records list: the first page of that 100,000-post collection through the API,
//!    p50 and p99 over 300 sequential requests, and the store's own call for that page (the
//!    database's share, no HTTP, session or JSON).
//! 3. Export of the 100,000 posts as CSV: bytes streamed and the peak growth of the
//!    process's resident memory while streaming (constant memory means it stays small and
//!    does not follow the export's size).
//!
//! Run: `cargo bench -p vitrine-benches --bench collections` (PostgreSQL on 127.0.0.1:5432;
//! `COLLECTIONS_DB=sqlite` or `postgres` runs one database, for a profiler).
//!
//! Budgets (issue 42), asserted: the run prints PASS or MISS next to each and exits non-zero
//! on a miss.
//! - **First page p50 ≤ 5 ms.** The median, not the p99: on the shared 2-core machines the
//!   p99 of 300 requests is the third-slowest one, which a scheduling hiccup decides (7.9 ms
//!   beside a 2.4 ms p50 in one run of 2026-11-24), while a slower query or handler moves
//!   every request and so the median. Issue 3's p99 ≤ 20 ms stays asserted too.
//! - **Import ≤ 1.5 s**, asserted as a ratio to the raw insert measured in the same run,
//!   because the absolute time follows the machine's load (the same code took 2.5 s and
//!   8.3 s on SQLite on 2026-11-29 as other builds came and went): [`import_ratio_budget`] is 1.5 s over the raw insert's median on a quiet
//!   machine, so an import within it takes at most 1.5 s there.

use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::json;
use vitrine_benches::{median, post_json};
use vitrine_control::startup::Application;
use vitrine_shared::ids::{CollectionId, PostId};
use vitrine_shared::{
    Settings,
    store::{NewPost, OrderKey},
    testing::{Backend, TestDb},
};

const ROWS: usize = 100_000;

/// The control plane binary's allocator (`control-plane/src/main.rs`): the import runs in this
/// process, and is measured as the binary runs it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).map(|l| {
                l.split_whitespace()
                    .nth(1)
                    .unwrap_or("0")
                    .parse()
                    .unwrap_or(0)
            })
        })
        .unwrap_or(0)
}

fn csv_rows() -> String {
    let mut csv =
        String::from("name,slug,texto,resumo,linha,codigo,preco,ativo,cor,cores,email,nota\n");
    for i in 0..ROWS {
        csv.push_str(&format!(
            "Produto {i},produto-{i},Texto do produto {i},\"Um resumo, com vírgula, do item {i}\",linha {i},SKU-{i:06},{},{},{},\"Azul,Verde\",cliente{i}@example.com,nota {i}\n",
            1000 + i,
            i % 2,
            if i % 3 == 0 { "Azul" } else { "Verde" },
        ));
    }
    csv
}

struct Run {
    backend: &'static str,
    /// Medians over the rounds.
    import: Duration,
    raw: Duration,
    /// Import / raw insert, per round.
    ratios: Vec<f64>,
    p50: Duration,
    p99: Duration,
    store_p50: Duration,
    export_bytes: usize,
    export_rss_growth_kib: u64,
}

async fn setup_table(client: &reqwest::Client, base: &str, project: i64, name: &str) -> i64 {
    let body =
        json!({"project_id": project, "name": name, "meta": {"plural": name, "singular": name}});
    let id = post_json(client, base, "/api/tables", body).await["id"]
        .as_i64()
        .unwrap();
    let opts = json!([{"name": "Azul"}, {"name": "Verde"}]);
    for spec in [
        json!({"name": "Texto", "type": "text", "required": "1"}),
        json!({"name": "Resumo", "type": "textarea"}),
        json!({"name": "Linha", "type": "string"}),
        json!({"name": "Código", "type": "string"}),
        json!({"name": "Preço", "type": "currency"}),
        json!({"name": "Ativo", "type": "checkbox"}),
        json!({"name": "Cor", "type": "select", "options": opts}),
        json!({"name": "Cores", "type": "multiselect", "options": opts}),
        json!({"name": "Email", "type": "email_link"}),
        json!({"name": "Nota", "type": "text"}),
    ] {
        let mut body = spec;
        body["table_id"] = json!(id);
        post_json(client, base, "/api/fields", body).await;
    }
    id
}

async fn run(backend: Backend, label: &'static str, csv: &str) -> Run {
    let db = TestDb::new(backend).await;
    let dir = std::env::temp_dir().join(format!("vitrine-bench-{label}-{}", std::process::id()));
    let settings = Settings {
        database_url: Some(vitrine_shared::secret::Secret::new(db.url.clone())),
        data_dir: dir.clone(),
        control_listen: "127.0.0.1:0".into(),
        control_admin_listen: "127.0.0.1:0".into(),
        import_max_bytes: 64 * 1024 * 1024,
        // Each round imports 100,000 more records into the one account.
        records_per_account: u64::MAX,
        render_worker: Some(env!("CARGO_BIN_EXE_vitrine-render-worker").into()),
        ..Settings::default()
    };
    let app = Application::build(settings).await.unwrap();
    let base = format!("http://{}", app.addr());
    let client = vitrine_benches::register(&base).await;
    let project = post_json(&client, &base, "/api/projects", json!({"name": "Bench"})).await["id"]
        .as_i64()
        .unwrap();

    // 1. Import through the API, then the reference: the same stored rows inserted raw in
    // batches into a fresh collection, right after. `COLLECTIONS_ROUNDS` rounds (3), each
    // into new collections; the ratio is taken within each round and the median reported, so
    // a change in the machine's load between two rounds does not decide it.
    let content = format!(
        "data:text/csv;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(csv)
    );
    let body = serde_json::to_vec(&json!({"name": "bench.csv", "content": content})).unwrap();
    drop(content);
    let store = app.state().store.clone();
    let mut rounds = Vec::new();
    let mut table = 0;
    for round in 0..vitrine_benches::env_u64("COLLECTIONS_ROUNDS", 3).max(1) {
        let imported = setup_table(&client, &base, project, &format!("Import {round}")).await;
        let started = Instant::now();
        let res = client
            .post(format!("{base}/api/tables/{imported}/import"))
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        let import = started.elapsed();
        assert!(status.is_success(), "import failed: {status} {text}");
        let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["inserted"], json!(ROWS), "{text}");

        let raw_table = setup_table(&client, &base, project, &format!("Raw {round}")).await;
        let exported = store
            .posts_after(CollectionId(imported), PostId(0), ROWS as i64)
            .await
            .unwrap();
        let rows: Vec<NewPost> = exported
            .into_iter()
            .map(|p| NewPost {
                name: p.name,
                slug: p.slug,
                data: p.data.0,
                created_at: p.created_at,
            })
            .collect();
        let started = Instant::now();
        store
            .insert_posts(CollectionId(raw_table), &rows, u64::MAX)
            .await
            .unwrap();
        rounds.push((import, started.elapsed()));
        if round == 0 {
            table = imported;
        }
    }
    let ratios: Vec<f64> = rounds
        .iter()
        .map(|(import, raw)| import.as_secs_f64() / raw.as_secs_f64())
        .collect();
    let import =
        Duration::from_secs_f64(median(rounds.iter().map(|r| r.0.as_secs_f64()).collect()));
    let raw = Duration::from_secs_f64(median(rounds.iter().map(|r| r.1.as_secs_f64()).collect()));

    // 2. First page of the records list.
    let mut times = Vec::with_capacity(300);
    for i in 0..320 {
        let started = Instant::now();
        let res = client
            .get(format!("{base}/api/data/{table}?page=1&limit=100"))
            .send()
            .await
            .unwrap();
        let bytes = res.bytes().await.unwrap();
        if i >= 20 {
            times.push(started.elapsed());
        }
        assert!(bytes.len() > 1000);
    }
    times.sort();
    let p50 = times[times.len() / 2];
    let p99 = times[times.len() * 99 / 100];
    // The database's share of that page: the store's own call (no HTTP, session or JSON).
    let order = [(OrderKey::CreatedAt, true)];
    let mut store_times = Vec::with_capacity(300);
    for i in 0..320 {
        let started = Instant::now();
        let (posts, total) = store
            .posts_page(CollectionId(table), &order, 100, 0)
            .await
            .unwrap();
        if i >= 20 {
            store_times.push(started.elapsed());
        }
        assert_eq!((posts.len(), total), (100, ROWS as i64));
    }
    store_times.sort();
    let store_p50 = store_times[store_times.len() / 2];

    // 3. Export, streamed: read it chunk by chunk and watch resident memory.
    let before = rss_kib();
    let mut peak = before;
    let mut res = client
        .get(format!("{base}/api/tables/{table}/export/csv"))
        .send()
        .await
        .unwrap();
    let mut export_bytes = 0;
    while let Some(chunk) = res.chunk().await.unwrap() {
        export_bytes += chunk.len();
        peak = peak.max(rss_kib());
    }
    let run = Run {
        backend: label,
        import,
        raw,
        ratios,
        p50,
        p99,
        store_p50,
        export_bytes,
        export_rss_growth_kib: peak.saturating_sub(before),
    };
    app.stop().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
    drop(db);
    run
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The first page's budget: its median over 300 requests (issue 42).
const FIRST_PAGE_P50_BUDGET: Duration = Duration::from_millis(5);
/// Issue 3's target for the first page's p99.
const FIRST_PAGE_P99_TARGET: Duration = Duration::from_millis(20);
/// The import's budget on a quiet machine (issue 42).
const IMPORT_BUDGET: Duration = Duration::from_millis(1500);

/// The raw insert's median on this project's 2-core machine with nothing else running
/// (benches/README.md, runs of 2026-11-24: SQLite 452, 519, 444 ms; PostgreSQL 1118, 1050,
/// 1056 ms).
fn quiet_raw_insert(backend: Backend) -> Duration {
    match backend {
        Backend::Sqlite => Duration::from_millis(452),
        Backend::Postgres => Duration::from_millis(1056),
    }
}

/// The largest import / raw insert ratio within [`IMPORT_BUDGET`]: the budget over the raw
/// insert's quiet time, rounded down to a tenth (SQLite 1500 / 452 = 3.3, PostgreSQL
/// 1500 / 1056 = 1.4). Load slows the import and its reference alike, so the ratio holds
/// where the absolute time does not.
fn import_ratio_budget(backend: Backend) -> f64 {
    let ratio = IMPORT_BUDGET.as_secs_f64() / quiet_raw_insert(backend).as_secs_f64();
    (ratio * 10.0).floor() / 10.0
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would pass nothing useful here.
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let csv = csv_rows();
    println!(
        "collection benchmark: {ROWS} rows x 10 fields, CSV {:.1} MB",
        csv.len() as f64 / 1e6
    );
    let mut missed = false;
    println!(
        "| database | import via API | raw batched insert | ratio import/raw (rounds; budget) | first page p50 (budget 5 ms) | first page p99 (target 20 ms) | store's first page p50 | export streamed | RSS growth while exporting |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let only = std::env::var("COLLECTIONS_DB")
        .unwrap_or_default()
        .to_lowercase();
    for (backend, label) in [
        (Backend::Sqlite, "SQLite"),
        (Backend::Postgres, "PostgreSQL"),
    ] {
        if !label.to_lowercase().starts_with(&only) {
            continue;
        }
        let r = run(backend, label, &csv).await;
        let ratio = median(r.ratios.clone());
        let ratio_budget = import_ratio_budget(backend);
        let import_ok = ratio <= ratio_budget;
        let p50_ok = r.p50 <= FIRST_PAGE_P50_BUDGET;
        let p99_ok = r.p99 <= FIRST_PAGE_P99_TARGET;
        missed |= !(import_ok && p50_ok && p99_ok);
        let verdict = |ok: bool| if ok { "PASS" } else { "MISS" };
        println!(
            "| {} | {:.0} ms | {:.0} ms | {:.2} ({}; ≤ {:.1}) {} | {:.1} ms {} | {:.1} ms {} | {:.2} ms | {:.1} MB | {:.1} MB |",
            r.backend,
            ms(r.import),
            ms(r.raw),
            ratio,
            r.ratios
                .iter()
                .map(|x| format!("{x:.2}"))
                .collect::<Vec<_>>()
                .join(", "),
            ratio_budget,
            verdict(import_ok),
            ms(r.p50),
            verdict(p50_ok),
            ms(r.p99),
            verdict(p99_ok),
            ms(r.store_p50),
            r.export_bytes as f64 / 1e6,
            r.export_rss_growth_kib as f64 / 1024.0,
        );
    }
    if missed {
        std::process::exit(1);
    }
}
