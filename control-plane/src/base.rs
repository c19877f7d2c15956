//! The bottom of the control plane: [`Core`], what every service and route needs (settings,
//! the store, the object store, outbound fetches, the render sandbox, Chromium's bounds, the
//! rate limiter, the metrics and whose forwarded addresses are believed). It imports none of
//! the services; they take a `Core` (or are given one) and own their own state beside it, and
//! [`crate::state::AppState`] composes them for the routes.

use std::sync::Arc;

use vitrine_shared::{Settings, Store, blob::BlobStore, proxies::TrustedProxies, sandbox::Sandbox};

use crate::{
    confine::Confiner,
    metrics::Metrics,
    outbound::Fetcher,
    throttle::{AtOnce, Throttle},
};

/// Largest body an outbound fetch may return (a web font file is well under this).
const FETCH_MAX_BYTES: usize = 8 * 1024 * 1024;

/// What every service needs, cloned cheaply (one `Arc`).
#[derive(Clone)]
pub struct Core(Arc<Inner>);

pub struct Inner {
    pub settings: Settings,
    pub store: Store,
    pub blobs: BlobStore,
    /// Outbound HTTP with the private-address rule applied.
    pub fetcher: Fetcher,
    /// Where owners' templates are rendered: worker processes within budgets.
    pub sandbox: Sandbox,
    /// What bounds each Chromium (see [`crate::confine`]).
    pub confiner: Confiner,
    /// Failed sign-ins, password-reset requests and each account's share of renders and
    /// fetches (see [`crate::throttle`]).
    pub throttle: Throttle,
    /// What each account runs at once of the shared pools' heavy work (its imports).
    pub at_once: AtOnce,
    /// Prometheus metrics for the admin listener's `/metrics`.
    pub metrics: Arc<Metrics>,
    /// `CONTROL_TRUSTED_PROXIES`: whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
}

impl std::ops::Deref for Core {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Core {
    /// The core for validated `settings` (`CONTROL_TRUSTED_PROXIES` must parse), with
    /// Chromium bounded as `confiner` found.
    pub fn new(
        settings: Settings,
        store: Store,
        blobs: BlobStore,
        confiner: Confiner,
    ) -> anyhow::Result<Self> {
        let trusted_proxies = settings.control_trusted_proxies()?;
        let fetcher = Fetcher::new(settings.fetch_allow_private, FETCH_MAX_BYTES);
        let sandbox = Sandbox::from_settings(&settings);
        Ok(Core(Arc::new(Inner {
            settings,
            store,
            blobs,
            fetcher,
            sandbox,
            confiner,
            throttle: Throttle::default(),
            at_once: AtOnce::default(),
            metrics: Default::default(),
            trusted_proxies,
        })))
    }
}
