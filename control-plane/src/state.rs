//! Shared application state, cloned cheaply into every handler.

use std::{
    collections::HashMap,
    num::NonZeroU32,
    sync::{Arc, Mutex},
};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::Notify;
use vitrine_shared::{Settings, Store, blob::BlobStore, sandbox::Sandbox};

use crate::{error::ApiError, outbound::Fetcher};

/// Largest body an outbound fetch may return (a web font file is well under this).
const FETCH_MAX_BYTES: usize = 8 * 1024 * 1024;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub settings: Settings,
    pub store: Store,
    pub blobs: BlobStore,
    pub login_limiter: LoginLimiter,
    /// Wakes the mail worker when something is queued.
    pub mail_wake: Notify,
    /// Outbound HTTP with the private-address rule applied.
    pub fetcher: Fetcher,
    /// One publish at a time per project on this node (see [`AppState::publish_lock`]).
    publish_locks: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
    /// Prometheus metrics for the admin listener's `/metrics`.
    pub metrics: crate::metrics::Metrics,
    /// Where owners' templates are rendered: worker processes within budgets.
    pub sandbox: Sandbox,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    pub fn new(settings: Settings, store: Store, blobs: BlobStore) -> Self {
        let login_limiter = LoginLimiter::new(settings.login_attempts_per_minute);
        let fetcher = Fetcher::new(settings.fetch_allow_private, FETCH_MAX_BYTES);
        let sandbox = Sandbox::from_settings(&settings);
        AppState(Arc::new(Inner {
            settings,
            store,
            blobs,
            login_limiter,
            mail_wake: Notify::new(),
            fetcher,
            publish_locks: Mutex::new(HashMap::new()),
            metrics: crate::metrics::Metrics::default(),
            sandbox,
        }))
    }

    /// The lock that serialises publishing, unpublishing and rollback of one project on this
    /// node, so a later publish never finishes before an earlier one and the project's state
    /// changes in the order the owner asked. Across nodes each deploy still writes only under
    /// its own prefix and [`vitrine_shared::Store::finish_deploy`] switches atomically.
    pub fn publish_lock(&self, project_id: i64) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.publish_locks.lock().expect("publish locks poisoned");
        // Forget locks nobody holds or waits for, so the map stays small.
        locks.retain(|_, l| Arc::strong_count(l) > 1);
        locks.entry(project_id).or_default().clone()
    }
}

/// Sign-in attempts per account and per client address, with governor's GCRA limiter (the
/// maintained Rust rate-limiting library; keyed limiters need no hand-written bookkeeping).
/// In-memory per control-plane node: with N nodes an attacker gets at most N times the quota.
pub struct LoginLimiter {
    by_key: DefaultKeyedRateLimiter<String>,
}

impl LoginLimiter {
    pub fn new(per_minute: u32) -> Self {
        let n = NonZeroU32::new(per_minute.max(1)).expect("at least one");
        Self {
            by_key: RateLimiter::keyed(Quota::per_minute(n)),
        }
    }

    /// Counts an attempt for the account and the address; refuses once either is over quota.
    pub fn check(&self, account: &str, address: &str) -> Result<(), ApiError> {
        use governor::clock::{Clock, DefaultClock};
        for key in [format!("acct:{account}"), format!("addr:{address}")] {
            if let Err(not_until) = self.by_key.check_key(&key) {
                let wait = not_until
                    .wait_time_from(DefaultClock::default().now())
                    .as_secs()
                    .max(1);
                return Err(ApiError::TooManyRequests {
                    message: format!(
                        "Too many sign-in attempts. Please try again in {wait} seconds."
                    ),
                    retry_after_secs: wait,
                });
            }
        }
        Ok(())
    }

    /// Forgets entries that have fully recovered (called periodically to bound memory).
    pub fn prune(&self) {
        self.by_key.retain_recent();
    }
}
