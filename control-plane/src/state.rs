//! Shared application state, cloned cheaply into every handler.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::Notify;
use vitrine_shared::{Settings, Store, blob::BlobStore, proxies::TrustedProxies, sandbox::Sandbox};

use crate::{outbound::Fetcher, throttle::Throttle};

/// Largest body an outbound fetch may return (a web font file is well under this).
const FETCH_MAX_BYTES: usize = 8 * 1024 * 1024;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub settings: Settings,
    pub store: Store,
    pub blobs: BlobStore,
    /// Failed sign-ins and password-reset requests (see [`crate::throttle`]).
    pub throttle: Throttle,
    /// `CONTROL_TRUSTED_PROXIES`: whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
    /// Wakes the mail worker when something is queued.
    pub mail_wake: Notify,
    /// Outbound HTTP with the private-address rule applied.
    pub fetcher: Fetcher,
    /// One publish at a time per project on this node (see [`AppState::publish_lock`]).
    publish_locks: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
    /// Prometheus metrics for the admin listener's `/metrics`.
    pub metrics: Arc<crate::metrics::Metrics>,
    /// Where owners' templates are rendered: worker processes within budgets.
    pub sandbox: Sandbox,
    /// The page renders publishing has seen, so a republish starts no worker for them.
    pub renders: crate::publish::Renders,
    /// The background passes that picture the library (see [`crate::thumbnails`]).
    pub thumbnails: crate::thumbnails::Thumbnails,
    /// API-fed lists' recent answers (see [`crate::external_lists`]).
    pub external_answers: crate::external_lists::Answers,
    /// The queue of site pictures, shared fairly between accounts (see [`crate::pictures`]).
    pub pictures: crate::pictures::Pictures,
    /// What bounds each Chromium (see [`crate::confine`]).
    pub confiner: crate::confine::Confiner,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// The state for validated `settings` (`CONTROL_TRUSTED_PROXIES` must parse); finds (and
    /// logs) how Chromium is confined.
    pub async fn new(settings: Settings, store: Store, blobs: BlobStore) -> anyhow::Result<Self> {
        let trusted_proxies = settings.control_trusted_proxies()?;
        let fetcher = Fetcher::new(settings.fetch_allow_private, FETCH_MAX_BYTES);
        let sandbox = Sandbox::from_settings(&settings);
        let confiner = crate::confine::Confiner::detect(crate::confine::Limits {
            memory_bytes: settings.chromium_memory_mb.max(64) * 1024 * 1024,
            cpu_quota_us: 100_000,
            pids: crate::screenshot::PIDS,
            cpu_secs: crate::screenshot::TIMEOUT.as_secs(),
        })
        .await;
        Ok(AppState(Arc::new(Inner {
            settings,
            store,
            blobs,
            throttle: Throttle::default(),
            trusted_proxies,
            mail_wake: Notify::new(),
            fetcher,
            publish_locks: Mutex::new(HashMap::new()),
            metrics: Default::default(),
            sandbox,
            renders: Default::default(),
            thumbnails: Default::default(),
            external_answers: Default::default(),
            pictures: Default::default(),
            confiner,
        })))
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
