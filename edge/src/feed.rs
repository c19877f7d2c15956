//! The change feed reader: keeps this edge's caches in step with the database.
//!
//! The `changes` table is the truth (DESIGN §3). This task reads `id > last` every
//! `EDGE_CHANGE_POLL_MS`; on PostgreSQL it also `LISTEN`s on [`CHANGES_CHANNEL`] (sqlx's
//! `PgListener`, which reconnects by itself) and reads at once when a notification arrives, so
//! a change usually lands in milliseconds and never later than one poll. A missed notification
//! costs nothing but that delay.
//!
//! PostgreSQL hands out sequence ids before commit, so a transaction holding id 10 can commit
//! after one holding id 11. The reader therefore always looks [`LOOKBACK`] ids behind the
//! newest it has seen and remembers which of those it already applied: a late commit is
//! still picked up, and nothing is applied twice.

use std::{collections::BTreeSet, sync::Arc, time::Duration};

use tokio::sync::{Notify, watch};
use vitrine_shared::{Store, store::CHANGES_CHANNEL};

use crate::{sites::Sites, tls::Certs};

/// How far behind the newest id the reader looks for late commits.
pub const LOOKBACK: i64 = 100;
const BATCH: i64 = 1000;

/// Runs until `stop` turns true.
pub async fn run(
    sites: Arc<Sites>,
    certs: Arc<Certs>,
    poll: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let wake = Arc::new(Notify::new());
    let listener = match &sites.store {
        Store::Postgres(pool) => Some(tokio::spawn(listen(
            pool.clone(),
            wake.clone(),
            stop.clone(),
        ))),
        Store::Sqlite(_) => None,
    };
    let mut reader = Reader {
        newest: None,
        seen: BTreeSet::new(),
    };
    loop {
        reader.read(&sites, &certs).await;
        tokio::select! {
            _ = tokio::time::sleep(poll) => {}
            _ = wake.notified() => {}
            _ = stop.wait_for(|s| *s) => break,
        }
    }
    if let Some(l) = listener {
        l.abort();
    }
}

struct Reader {
    /// The newest id applied; `None` until the feed's position is known.
    newest: Option<i64>,
    /// Ids applied within the look-back window.
    seen: BTreeSet<i64>,
}

impl Reader {
    async fn read(&mut self, sites: &Sites, certs: &Certs) {
        let store = &sites.store;
        let Some(newest) = self.newest else {
            // A starting edge has nothing cached: it begins at the feed's end.
            if let Ok(Ok(id)) =
                tokio::time::timeout(Duration::from_secs(2), store.last_change_id()).await
            {
                self.newest = Some(id);
                sites.metrics().feed_caught_up();
            }
            return;
        };
        let mut from = (newest - LOOKBACK).max(0);
        loop {
            let batch = match tokio::time::timeout(
                Duration::from_secs(2),
                store.changes_since(from, BATCH),
            )
            .await
            {
                Ok(Ok(b)) => b,
                Ok(Err(e)) => {
                    tracing::debug!(error = %e, "change feed unreadable; caches kept");
                    return;
                }
                Err(_) => return,
            };
            let full = batch.len() as i64 == BATCH;
            for change in &batch {
                from = change.id;
                if self.seen.insert(change.id) {
                    // Certificates first: applying to the sites moves the hot routes' epoch,
                    // after which nothing stale may be read.
                    certs.apply(change).await;
                    sites.apply(change);
                    self.newest = Some(self.newest.unwrap_or(0).max(change.id));
                }
            }
            if !full {
                break;
            }
        }
        sites.metrics().feed_caught_up();
        let floor = self.newest.unwrap_or(0) - LOOKBACK;
        self.seen = self.seen.split_off(&floor);
    }
}

/// Wakes the reader whenever PostgreSQL announces a change; reconnects after failures.
async fn listen(pool: sqlx::PgPool, wake: Arc<Notify>, mut stop: watch::Receiver<bool>) {
    loop {
        let attempt = async {
            let mut listener = sqlx::postgres::PgListener::connect_with(&pool).await?;
            listener.listen(CHANGES_CHANNEL).await?;
            // Anything committed while we were connecting is read by this first wake-up.
            wake.notify_one();
            loop {
                listener.recv().await?;
                wake.notify_one();
            }
            #[allow(unreachable_code)]
            Ok::<(), sqlx::Error>(())
        };
        tokio::select! {
            r = attempt => {
                if let Err(e) = r {
                    tracing::debug!(error = %e, "change feed LISTEN lost; polling until it is back");
                }
            }
            _ = stop.wait_for(|s| *s) => return,
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = stop.wait_for(|s| *s) => return,
        }
    }
}
