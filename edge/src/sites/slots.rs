//! The list-query slots: how many of the queries whose cost grows with a tenant's collection
//! run at once, per account (a business counts as one) and per edge.

use std::{sync::Arc, time::Duration};

use moka::future::Cache;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use vitrine_shared::account::Account;

use super::Unavailable;

/// How many list queries (the read API, live lists: the queries whose cost grows with a
/// tenant's collection) run at once. Each holds a database connection for up to the query
/// time limit, so the edge as a whole keeps at most half its pool for them (the other half
/// always free for host lookups, which every site needs) and one account at most
/// [`LIST_SLOTS_PER_ACCOUNT`] of those, however many projects it has: one tenant's slow
/// collections cannot take the connections the other tenants' requests wait for, which would
/// trip the breaker for all.
pub struct ListSlots {
    all: Arc<Semaphore>,
    accounts: Cache<Account, Arc<Semaphore>>,
}

/// List queries of one account's projects that run at once.
pub const LIST_SLOTS_PER_ACCOUNT: usize = 2;

/// A taken list-query slot, given back when dropped.
pub struct ListSlot {
    _account: OwnedSemaphorePermit,
    _all: OwnedSemaphorePermit,
}

impl ListSlots {
    pub fn new(pool_size: u32) -> ListSlots {
        ListSlots {
            all: Arc::new(Semaphore::new((pool_size as usize / 2).max(1))),
            accounts: Cache::builder()
                .max_capacity(100_000)
                .time_to_idle(Duration::from_secs(60))
                .build(),
        }
    }

    /// Waits up to `within` for a slot of `account` and one of the edge.
    pub async fn acquire(
        &self,
        account: Account,
        within: Duration,
    ) -> Result<ListSlot, Unavailable> {
        let mine = self
            .accounts
            .get_with(account, async {
                Arc::new(Semaphore::new(LIST_SLOTS_PER_ACCOUNT))
            })
            .await;
        let both = async {
            let account = mine.acquire_owned().await.ok()?;
            let all = self.all.clone().acquire_owned().await.ok()?;
            Some(ListSlot {
                _account: account,
                _all: all,
            })
        };
        match tokio::time::timeout(within, both).await {
            Ok(Some(slot)) => Ok(slot),
            _ => Err(Unavailable::Busy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::ids::{AccountId, BusinessId};

    #[tokio::test]
    async fn three_projects_of_one_account_share_its_slots_and_leave_the_others_theirs() {
        // A pool of 16: 8 list slots for the edge.
        let slots = ListSlots::new(16);
        let tenant = Account::User(AccountId(1));
        let soon = Duration::from_millis(50);
        // Its projects' queries, however many projects it spreads them over, hold its two.
        let held = [
            slots.acquire(tenant, soon).await.unwrap(),
            slots.acquire(tenant, soon).await.unwrap(),
        ];
        assert!(matches!(
            slots.acquire(tenant, soon).await,
            Err(Unavailable::Busy)
        ));
        // A business is one account whichever member owns the project.
        let business = Account::Business(BusinessId(7));
        let _b = [
            slots.acquire(business, soon).await.unwrap(),
            slots.acquire(business, soon).await.unwrap(),
        ];
        assert!(slots.acquire(business, soon).await.is_err());
        // Another account still gets its own.
        assert!(
            slots
                .acquire(Account::User(AccountId(2)), soon)
                .await
                .is_ok()
        );
        drop(held);
        assert!(slots.acquire(tenant, soon).await.is_ok());
    }
}
