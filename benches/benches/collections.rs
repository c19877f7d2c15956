//! End-to-end collection benchmarks on SQLite and PostgreSQL (issue 3):
//!
//! 1. Import of 100,000 rows × 10 fields from CSV through the real HTTP API, against the
//!    reference: a raw batched insert of the same, already-normalised rows into the same
//!    database (multi-row INSERTs in one transaction). Reported as the ratio import / raw.
//! 2. The records list: the first page of that 100,000-post collection through the API,
//!    p50 and p99 over 300 sequential requests.
//! 3. Export of the 100,000 posts as CSV: bytes streamed and the peak growth of the
//!    process's resident memory while streaming (constant memory means it stays small and
//!    does not follow the export's size).
//!
//! Run: `cargo bench -p vitrine-benches --bench collections` (PostgreSQL on 127.0.0.1:5432).
//! Targets: import ≤ 2 s on each database, first page p99 ≤ 20 ms; the run prints PASS or
//! MISS next to each and exits non-zero on a miss.

use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::json;
use vitrine_benches::post_json;
use vitrine_control::startup::Application;
use vitrine_shared::{
    Settings,
    store::NewPost,
    testing::{Backend, TestDb},
};

const ROWS: usize = 100_000;

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
    import: Duration,
    raw: Duration,
    p50: Duration,
    p99: Duration,
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
        render_worker: Some(env!("CARGO_BIN_EXE_vitrine-render-worker").into()),
        ..Settings::default()
    };
    let app = Application::build(settings).await.unwrap();
    let base = format!("http://{}", app.addr());
    let client = vitrine_benches::register(&base).await;
    let project = post_json(&client, &base, "/api/projects", json!({"name": "Bench"})).await["id"]
        .as_i64()
        .unwrap();

    // 1. Import through the API.
    let table = setup_table(&client, &base, project, "Import").await;
    let content = format!(
        "data:text/csv;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(csv)
    );
    let body = serde_json::to_vec(&json!({"name": "bench.csv", "content": content})).unwrap();
    let started = Instant::now();
    let res = client
        .post(format!("{base}/api/tables/{table}/import"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    let import = started.elapsed();
    assert!(status.is_success(), "import failed: {status} {text}");
    let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["inserted"], json!(ROWS), "{text}");

    // The reference: the same stored rows, inserted raw in batches into a fresh collection.
    let store = app.state().store.clone();
    let raw_table = setup_table(&client, &base, project, "Raw").await;
    let exported = store.posts_after(table, 0, ROWS as i64).await.unwrap();
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
        .insert_posts(raw_table, &rows, u64::MAX)
        .await
        .unwrap();
    let raw = started.elapsed();
    drop(rows);

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
        p50,
        p99,
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
        "| database | import via API | raw batched insert | ratio import/raw | first page p50 | first page p99 | export streamed | RSS growth while exporting |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (backend, label) in [
        (Backend::Sqlite, "SQLite"),
        (Backend::Postgres, "PostgreSQL"),
    ] {
        let r = run(backend, label, &csv).await;
        let import_ok = r.import <= Duration::from_secs(2);
        let list_ok = r.p99 <= Duration::from_millis(20);
        missed |= !(import_ok && list_ok);
        println!(
            "| {} | {:.0} ms {} | {:.0} ms | {:.2} | {:.1} ms | {:.1} ms {} | {:.1} MB | {:.1} MB |",
            r.backend,
            ms(r.import),
            if import_ok {
                "PASS"
            } else {
                "MISS (target 2 s)"
            },
            ms(r.raw),
            r.import.as_secs_f64() / r.raw.as_secs_f64(),
            ms(r.p50),
            ms(r.p99),
            if list_ok {
                "PASS"
            } else {
                "MISS (target 20 ms)"
            },
            r.export_bytes as f64 / 1e6,
            r.export_rss_growth_kib as f64 / 1024.0,
        );
    }
    if missed {
        std::process::exit(1);
    }
}
