//! The change feed reader: keeps this edge's caches in step with the database.
//!
//! The `changes` table is the truth (`docs/design.md#the-change-feed`). This task reads
//! `id > last` every `EDGE_CHANGE_POLL_MS`; on PostgreSQL it also `LISTEN`s on
//! [`CHANGES_CHANNEL`] (sqlx's `PgListener`, which reconnects by itself) and reads at once when
//! a notification arrives, so a change usually lands in milliseconds and never later than one
//! poll. A missed notification costs nothing but that delay.
//!
//! PostgreSQL hands out sequence ids before commit, so a transaction holding id 10 can commit
//! after one holding id 11. The reader therefore always looks [`LOOKBACK`] ids behind the
//! newest it has seen and remembers which of those it already applied: a late commit is
//! still picked up, and nothing is applied twice.
//!
//! A starting edge finds the feed's end before it serves ([`Reader::at_end`]) and takes the
//! look-back window as applied: nothing was cached yet for those changes to make stale. Were
//! they applied once the edge serves, a restarted node would drop the hosts it had just
//! loaded, and the copies it keeps for a database outage with them.

use std::{collections::BTreeSet, sync::Arc, time::Duration};

use tokio::sync::{Notify, watch};
use vitrine_shared::{Store, store::CHANGES_CHANNEL};

use crate::{sites::Sites, tls::Certs};

/// How far behind the newest id the reader looks for late commits.
pub const LOOKBACK: i64 = 100;
const BATCH: i64 = 1000;
/// How long a starting edge (or a read) waits for the database.
const STARTUP_WAIT: Duration = Duration::from_secs(2);

/// Runs until `stop` turns true, from where `reader` stands.
pub async fn run(
    sites: Arc<Sites>,
    certs: Arc<Certs>,
    poll: Duration,
    mut reader: Reader,
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

/// Where the reader stands in the feed.
pub struct Reader {
    /// The newest id applied; `None` until the feed's position is known.
    newest: Option<i64>,
    /// Ids applied within the look-back window.
    seen: BTreeSet<i64>,
}

impl Reader {
    /// The feed's end, read before the edge caches anything: the ids in the look-back window
    /// are taken as applied. With the database away (within [`STARTUP_WAIT`]) the position is
    /// found on the first read instead, and that window is then applied (see [`Reader::read`]).
    pub async fn at_end(store: &Store) -> Reader {
        let mut reader = Reader {
            newest: None,
            seen: BTreeSet::new(),
        };
        let window = async {
            let newest = store.last_change_id().await?;
            let window = store
                .changes_since((newest - LOOKBACK).max(0), BATCH)
                .await?;
            Ok::<_, vitrine_shared::store::StoreError>((newest, window))
        };
        if let Ok(Ok((newest, window))) = tokio::time::timeout(STARTUP_WAIT, window).await {
            reader.seen = window.iter().map(|c| c.id).collect();
            reader.newest = Some(reader.seen.last().copied().unwrap_or(0).max(newest));
        }
        reader
    }

    async fn read(&mut self, sites: &Sites, certs: &Certs) {
        let store = &sites.store;
        let Some(newest) = self.newest else {
            // The database was away when the edge started. Hosts cached since may predate the
            // window's late commits, so the next read applies the window.
            if let Ok(Ok(id)) = tokio::time::timeout(STARTUP_WAIT, store.last_change_id()).await {
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
