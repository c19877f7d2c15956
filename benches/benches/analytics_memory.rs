//! What the edge's visitor counts hold in memory between two flushes (issue 45: "memory is
//! bounded per active site; at 100,000 sites the edge stays within its 512 MB").
//!
//! The edge's own `Analytics` (`edge/src/analytics.rs`) counts synthetic page views in one
//! visitor thread's shard, as the edge's hot path calls it, with no flush in between (the
//! worst case: a whole `ANALYTICS_FLUSH_MS` interval of traffic). dhat's heap statistics measure the heap those counts really take, beside what the edge reckons them
//! at (`Analytics::held`, which its `ANALYTICS_MEMORY_MB` budget is kept against) and how many
//! visitor details the budget left out. Each shape runs twice: with the default budget
//! (16 MB) and with the budget lifted, to show what an unbounded edge would have held.
//!
//! Run: `cargo bench -p vitrine-benches --bench analytics_memory`. Figures in
//! `benches/README.md` ("Visitor analytics: memory").

use std::net::{IpAddr, Ipv4Addr};

use vitrine_edge::analytics::{Analytics, PageHit, Seen};
use vitrine_shared::{
    Settings, Store,
    account::Account,
    ids::{AccountId, ProjectId},
    secret::Secret,
};

/// dhat (the Rust port of Valgrind's DHAT heap profiler, kept for exactly this: its
/// `HeapStats` give the bytes live at any moment) counts every allocation, with no unsafe
/// code of ours.
#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// The heap bytes live now.
fn live() -> isize {
    dhat::HeapStats::get().curr_bytes as isize
}

const MB: f64 = 1024.0 * 1024.0;

/// One traffic shape: `sites` sites, each visited by `people` people who load `pages` pages.
struct Shape {
    name: &'static str,
    sites: i64,
    people: u32,
    pages: usize,
}

const PATHS: [&str; 4] = ["/", "/cardapio", "/sobre", "/contato-e-endereco-da-loja"];

async fn measure(store: &Store, shape: &Shape, memory_mb: u64) -> (f64, f64, u64) {
    let settings = Settings {
        analytics_secret: Some(Secret::new("bench")),
        analytics_memory_mb: memory_mb,
        ..Settings::default()
    };
    let analytics = Analytics::new(&settings, store.clone());
    let shard = analytics.shard();
    let before = live();
    for site in 1..=shape.sites {
        for person in 0..shape.people {
            let ua = format!(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 P/{person}"
            );
            let ip = IpAddr::V4(Ipv4Addr::from((site as u32) << 8 | person));
            for path in PATHS.iter().take(shape.pages) {
                analytics.page(
                    &shard,
                    &PageHit {
                        project: ProjectId::new(site),
                        account: Account::User(AccountId::new(site)),
                        host: "loja.vitrine.example",
                        path,
                        query: Some("utm_source=instagram&utm_medium=social"),
                        found: true,
                        client: ip,
                        seen: Seen {
                            user_agent: ua.as_bytes(),
                            referer: b"https://www.instagram.com/",
                            accept_language: b"pt-BR,pt;q=0.9",
                        },
                    },
                );
            }
        }
    }
    let held_now = (live() - before) as f64;
    (held_now, analytics.held() as f64, analytics.dropped())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("a.db").display());
    let store = Store::connect(&url).await.unwrap();
    let shapes = [
        Shape {
            name: "100,000 sites, 1 person, 1 page",
            sites: 100_000,
            people: 1,
            pages: 1,
        },
        Shape {
            name: "100,000 sites, 3 people, 2 pages",
            sites: 100_000,
            people: 3,
            pages: 2,
        },
        Shape {
            name: "1,000 sites, 200 people, 4 pages",
            sites: 1_000,
            people: 200,
            pages: 4,
        },
    ];
    println!(
        "| traffic held between two flushes | budget | heap held | reckoned | per site | visitor details left out |"
    );
    println!("|---|---|---|---|---|---|");
    for shape in &shapes {
        for (budget, memory_mb) in [("16 MB (default)", 16), ("none", 1 << 20)] {
            let (live, held, dropped) = measure(&store, shape, memory_mb).await;
            println!(
                "| {} | {budget} | {:.1} MB | {:.1} MB | {:.0} B | {dropped} |",
                shape.name,
                live / MB,
                held / MB,
                live / shape.sites as f64,
            );
        }
    }
}
