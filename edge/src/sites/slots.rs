//! The list-query slots: how many of the queries whose cost grows with a tenant's collection
//! run at once, per project and per edge.

use std::{sync::Arc, time::Duration};

use moka::future::Cache;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::Unavailable;

/// How many list queries (the read API, live lists: the queries whose cost grows with a
/// tenant's collection) run at once. Each holds a database connection for up to the query
/// time limit, so the edge as a whole keeps at most half its pool for them (the other half
/// always free for host lookups, which every site needs) and one project at most
/// [`LIST_SLOTS_PER_PROJECT`] of those: one tenant's slow collection cannot take the
/// connections the other tenants' requests wait for, which would trip the breaker for all.
pub struct ListSlots {
    all: Arc<Semaphore>,
    projects: Cache<i64, Arc<Semaphore>>,
}

/// List queries of one project that run at once.
pub const LIST_SLOTS_PER_PROJECT: usize = 2;

/// A taken list-query slot, given back when dropped.
pub struct ListSlot {
    _project: OwnedSemaphorePermit,
    _all: OwnedSemaphorePermit,
}

impl ListSlots {
    pub fn new(pool_size: u32) -> ListSlots {
        ListSlots {
            all: Arc::new(Semaphore::new((pool_size as usize / 2).max(1))),
            projects: Cache::builder()
                .max_capacity(100_000)
                .time_to_idle(Duration::from_secs(60))
                .build(),
        }
    }

    /// Waits up to `within` for a slot of `project` and one of the edge.
    pub async fn acquire(&self, project: i64, within: Duration) -> Result<ListSlot, Unavailable> {
        let mine = self
            .projects
            .get_with(project, async {
                Arc::new(Semaphore::new(LIST_SLOTS_PER_PROJECT))
            })
            .await;
        let both = async {
            let project = mine.acquire_owned().await.ok()?;
            let all = self.all.clone().acquire_owned().await.ok()?;
            Some(ListSlot {
                _project: project,
                _all: all,
            })
        };
        match tokio::time::timeout(within, both).await {
            Ok(Some(slot)) => Ok(slot),
            _ => Err(Unavailable::Busy),
        }
    }
}
