//! The analytics' memory budget: what many sites visited between two flushes hold.

use std::net::{IpAddr, Ipv4Addr};

use vitrine_shared::{
    Settings, Store,
    ids::{AccountId, ProjectId},
    secret::Secret,
};

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

/// Person `i` on site `site` (of an account of its own) loads `path`.
fn visit(a: &Analytics, shard: &Shard, site: i64, i: u32, path: &str) {
    visit_as(a, shard, (site, site), i, path);
}

/// Person `i` on site `site` of account `account` loads `path`.
fn visit_as(a: &Analytics, shard: &Shard, (account, site): (i64, i64), i: u32, path: &str) {
    let ua = format!("Mozilla/5.0 (iPhone) Person/{i}");
    a.page(
        shard,
        &PageHit {
            project: ProjectId::new(site),
            account: Account::User(AccountId::new(account)),
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

/// What a shard's table of accounts takes.
fn accounts_table(shard: &Shard) -> usize {
    memory::table::<(Account, usize)>(shard.inner.lock().unwrap().accounts.capacity())
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
    let accounts = accounts_table(&shard);
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
    assert_eq!(bytes, counters + details + accounts);
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
    } + accounts_table(&shard);
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

/// The attack: one tenant sends a flood of made-up people (new addresses, new user agents) to
/// its two sites to fill the edge's analytics memory, so that other sites lose who visited
/// them until the flush. It gets its share and no more; the others keep every visitor.
#[tokio::test]
async fn one_account_flooding_made_up_people_holds_its_share_and_others_keep_theirs() {
    let (a, _dir) = analytics(4).await;
    let shard = a.shard();
    let _other_thread = a.shard();
    // 4 MiB, an eighth of it split over two visitor threads.
    assert_eq!(a.account_share(), 4 * 1024 * 1024 / ACCOUNT_SHARE / 2);
    let attacker = Account::User(AccountId::new(1));
    for i in 0..20_000 {
        visit_as(&a, &shard, (1, 10 + i64::from(i % 2)), i, "/");
    }
    let holds = shard.inner.lock().unwrap().accounts[&attacker];
    assert!(holds <= a.account_share(), "{holds}");
    assert!(holds > a.account_share() / 2, "{holds}");
    let left_out = a.dropped();
    assert!(left_out > 10_000, "{left_out}");
    // The attacker's views all counted; the share asked for an early flush.
    tokio::time::timeout(Duration::from_millis(10), a.early.notified())
        .await
        .expect("the flusher was not woken");
    // Fifty accounts' real visitors after the flood: every one kept.
    for site in 100..150 {
        for person in 0..20 {
            visit(&a, &shard, site, person, "/");
            visit(&a, &shard, site, person, "/cardapio");
        }
    }
    assert_eq!(a.dropped(), left_out, "another account lost a visitor");
    let (days, _) = a.take();
    let kept = |site: i64| {
        let d = days[&(ProjectId::new(site), Utc::now().date_naive())]
            .detail
            .as_ref()
            .unwrap();
        (d.visitors.len(), d.pages.len(), d.page_visitors.len())
    };
    for site in 100..150 {
        assert_eq!(kept(site), (20, 2, 40), "site {site}");
    }
    assert_eq!(views(&days), 20_000 + 50 * 40);
    // Taken for the flush, the share is free again: the attacker's next person is kept.
    visit_as(&a, &shard, (1, 10), 99_999, "/");
    assert_eq!(a.dropped(), left_out);
    let holds = shard.inner.lock().unwrap().accounts[&attacker];
    assert!(holds < a.account_share() / 8, "{holds}");
}
