//! The analytics' memory budget: what many sites visited between two flushes hold.

use std::net::{IpAddr, Ipv4Addr};

use vitrine_shared::{Settings, Store, ids::ProjectId, secret::Secret};

use super::*;

async fn analytics(memory_mb: u64) -> (Arc<Analytics>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("a.db").display());
    let store = Store::connect(&url).await.unwrap();
    let settings = Settings {
        analytics_secret: Some(Secret::new("k")),
        analytics_memory_mb: memory_mb,
        ..Settings::default()
    };
    (Analytics::new(&settings, store), dir)
}

/// Person `i` on site `site` loads `path`.
fn visit(a: &Analytics, shard: &Shard, site: i64, i: u32, path: &str) {
    let ua = format!("Mozilla/5.0 (iPhone) Person/{i}");
    a.page(
        shard,
        &PageHit {
            project: ProjectId::new(site),
            host: "s.example",
            path,
            query: None,
            found: true,
            client: IpAddr::V4(Ipv4Addr::from(i)),
            seen: Seen {
                user_agent: ua.as_bytes(),
                referer: b"https://www.google.com/",
                accept_language: b"pt-BR",
            },
        },
    );
}

fn views(days: &Days_) -> i64 {
    days.values().map(|d| d.views).sum()
}

#[tokio::test]
async fn a_hundred_thousand_sites_hold_the_budget_and_wake_the_flusher() {
    let (a, _dir) = analytics(1).await;
    let shard = a.shard();
    let sites = 100_000;
    for site in 1..=sites {
        visit(
            &a,
            &shard,
            site,
            site as u32,
            "/um-caminho-bem-mais-longo-que-24",
        );
    }
    // Every site's counters are kept; visitors, pairs and paths only within the 1 MiB budget
    // (plus the last table's growth).
    let counters = days_table(shard.inner.lock().unwrap().days.capacity());
    assert!(
        a.held() <= counters + 1024 * 1024 + 64 * 1024,
        "{}",
        a.held()
    );
    assert!(a.dropped() > 0);
    // Half the budget was passed: the flusher was woken.
    tokio::time::timeout(Duration::from_millis(10), a.early.notified())
        .await
        .expect("the flusher was not woken");
    let (days, bytes) = a.take();
    assert_eq!(views(&days), sites);
    assert_eq!(days.len(), sites as usize);
    let kept: usize = days
        .values()
        .filter_map(|d| d.detail.as_ref())
        .map(|d| d.visitors.len())
        .sum();
    assert!(kept > 100 && kept < 10_000, "{kept}");
    // What was taken is what was reckoned, and counts until the flush has written it.
    assert_eq!(a.held(), bytes);
    let details: usize = days
        .values()
        .filter_map(|d| d.detail.as_ref())
        .map(|d| d.bytes())
        .sum();
    assert_eq!(bytes, counters + details);
}

#[tokio::test]
async fn within_the_budget_nothing_is_left_out_and_a_flush_frees_it_all() {
    let (a, _dir) = analytics(32).await;
    let shard = a.shard();
    for site in 1..=200 {
        for person in 0..5 {
            visit(&a, &shard, site, person, "/");
            visit(&a, &shard, site, person, "/sobre");
        }
    }
    assert_eq!(a.dropped(), 0);
    // Reckoned as it grew: the same as reckoning the tables as they are.
    let reckoned = {
        let inner = shard.inner.lock().unwrap();
        let details: usize = inner
            .days
            .values()
            .filter_map(|d| d.detail.as_ref())
            .map(|d| d.bytes())
            .sum();
        days_table(inner.days.capacity()) + details
    };
    assert_eq!(a.held(), reckoned);
    assert!(
        tokio::time::timeout(Duration::from_millis(10), a.early.notified())
            .await
            .is_err(),
        "woken below half the budget"
    );
    // Written or refused (these sites are in no database), nothing is held after a flush.
    a.flush().await;
    assert_eq!(a.held(), 0);
    assert!(shard.inner.lock().unwrap().days.is_empty());
}
