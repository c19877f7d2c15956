//! What counting one page costs the edge's visitor thread (issue 45: "on the edge's hot path,
//! at most 3 % fewer req/s with analytics on than off").
//!
//! `Analytics::page` as the hot routes call it, on one shard with the key known:
//! - a returning person (the common case: a phone loading a second page);
//! - a person with a user agent the shard has not seen (its verdict made, then kept);
//! - a crawler;
//! - for scale, the parts it is made of: isbot's verdict on a user agent (what every page
//!   cost before the shard kept verdicts) and the day salt's visitor hash.
//!
//! Run: `cargo bench -p vitrine-benches --bench analytics_page`. Figures in
//! `benches/README.md` ("Visitor analytics: what a page costs").

use std::hint::black_box;
use std::net::{IpAddr, Ipv4Addr};

use chrono::Utc;
use criterion::{Criterion, criterion_group, criterion_main};
use vitrine_edge::analytics::{Analytics, PageHit, Seen};
use vitrine_shared::{
    Settings, Store,
    account::Account,
    analytics::{AnalyticsKey, classify},
    ids::{AccountId, ProjectId},
    secret::Secret,
};

const PHONE: &str = "Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.58 Mobile Safari/537.36";
const BOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

fn hit<'a>(ua: &'a [u8], client: IpAddr) -> PageHit<'a> {
    PageHit {
        project: ProjectId::new(7),
        account: Account::User(AccountId::new(7)),
        host: "padaria.vitrine.example",
        path: "/produtos/pao-de-queijo",
        query: None,
        found: true,
        client,
        seen: Seen {
            user_agent: ua,
            referer: b"https://padaria.vitrine.example/",
            accept_language: b"pt-BR,pt;q=0.9",
        },
    }
}

fn benches(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("a.db").display());
    let store = rt.block_on(Store::connect(&url)).unwrap();
    let settings = Settings {
        analytics_secret: Some(Secret::new("bench")),
        ..Settings::default()
    };
    let analytics = Analytics::new(&settings, store);
    let shard = analytics.shard();
    let person = IpAddr::V4(Ipv4Addr::new(203, 0, 113, 7));

    let mut g = c.benchmark_group("counting a page");
    g.bench_function("a returning person", |b| {
        let h = hit(PHONE.as_bytes(), person);
        b.iter(|| analytics.page(&shard, black_box(&h)))
    });
    g.bench_function("a person with a new user agent", |b| {
        // Past the shard's kept verdicts, so each one is made: the flood case.
        let agents: Vec<String> = (0..4096).map(|i| format!("{PHONE} v/{i}")).collect();
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % agents.len();
            analytics.page(&shard, black_box(&hit(agents[i].as_bytes(), person)))
        })
    });
    g.bench_function("a crawler", |b| {
        let h = hit(BOT.as_bytes(), IpAddr::V4(Ipv4Addr::new(66, 249, 66, 1)));
        b.iter(|| analytics.page(&shard, black_box(&h)))
    });
    g.bench_function("isbot's verdict alone", |b| {
        b.iter(|| classify::is_bot(black_box(PHONE)))
    });
    let salt = AnalyticsKey::new("bench").salt(Utc::now().date_naive());
    g.bench_function("the visitor hash alone", |b| {
        b.iter(|| salt.visitor(ProjectId::new(7), black_box(person), PHONE.as_bytes()))
    });
    g.finish();
}

criterion_group!(counting, benches);
criterion_main!(counting);
