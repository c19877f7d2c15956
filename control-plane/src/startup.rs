//! One way to build and run the control plane: [`Application::build`] binds the listener
//! (port 0 allowed), starts the background jobs and reports the address. `main` and the tests
//! both use it.

use std::{net::SocketAddr, time::Duration};

use tokio::{net::TcpListener, sync::watch, task::JoinHandle};
use vitrine_shared::{Settings, Store, billing::Month, blob::BlobStore};

use crate::{collector, conversions::Conversions, domains, routes, state::AppState};

pub struct Application {
    addr: SocketAddr,
    admin_addr: Option<SocketAddr>,
    state: AppState,
    shutdown: watch::Sender<bool>,
    server: JoinHandle<std::io::Result<()>>,
    jobs: Vec<JoinHandle<()>>,
}

impl Application {
    /// Connects and migrates the database, opens the blob store and binds the listener.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let store = Store::connect(&settings.database_url()).await?;
        store.migrate().await?;
        let blobs = BlobStore::from_settings(&settings)?;
        let listener = TcpListener::bind(&settings.control_listen).await?;
        let addr = listener.local_addr()?;
        if !settings.public_url_keeps_secure_cookies() {
            tracing::warn!(
                public_url = settings.public_url,
                "PUBLIC_URL is plain http on a host that is not loopback: browsers refuse the \
                 Secure session cookie there, so nobody can sign in; serve the dashboard over https"
            );
        }
        let state = AppState::new(settings, store, blobs).await?;
        state.metrics.confinement(state.confiner.describe());
        let (shutdown, rx) = watch::channel(false);

        let app = routes::router(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
        let server = tokio::spawn({
            let rx = rx.clone();
            async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(wait_for(rx))
                    .await
            }
        });
        // The admin listener (`/metrics`, `/healthz`), when one is configured.
        let mut admin_addr = None;
        let mut jobs = Vec::new();
        if !state.settings.control_admin_listen.trim().is_empty() {
            let admin = TcpListener::bind(state.settings.control_admin_listen.trim()).await?;
            admin_addr = Some(admin.local_addr()?);
            let app = routes::admin_router(state.clone());
            let stop = wait_for(rx.clone());
            jobs.push(tokio::spawn(async move {
                if let Err(e) = axum::serve(admin, app).with_graceful_shutdown(stop).await {
                    tracing::error!(error = %e, "admin listener failed");
                }
            }));
        }
        // The library's thumbnails, in the background (a seeded library has none yet).
        crate::pictures::thumbnails::refresh(&state);
        match Conversions::new(&state.core) {
            Ok(conversions) => {
                jobs.push(tokio::spawn(conversions.run_worker(wait_for(rx.clone()))))
            }
            Err(e) => {
                tracing::error!(error = %e, "conversion events cannot be sent: no HTTP client")
            }
        }
        jobs.extend([
            tokio::spawn(state.mail.clone().run_worker(wait_for(rx.clone()))),
            tokio::spawn(domains::checks::run(
                state.core.clone(),
                wait_for(rx.clone()),
            )),
            tokio::spawn(collector::run(state.core.clone(), wait_for(rx.clone()))),
            tokio::spawn(
                state
                    .avif
                    .clone()
                    .run(state.core.clone(), wait_for(rx.clone())),
            ),
            tokio::spawn(housekeeping(state.clone(), wait_for(rx))),
        ]);
        Ok(Application {
            addr,
            admin_addr,
            state,
            shutdown,
            server,
            jobs,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The admin listener's address (`/metrics`), when `CONTROL_ADMIN_LISTEN` is set.
    pub fn admin_addr(&self) -> Option<SocketAddr> {
        self.admin_addr
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `signal` resolves, then stops accepting, finishes in-flight requests and
    /// stops the background jobs.
    pub async fn run_until(
        self,
        signal: impl std::future::Future<Output = ()>,
    ) -> anyhow::Result<()> {
        signal.await;
        self.stop().await
    }

    pub async fn stop(self) -> anyhow::Result<()> {
        let _ = self.shutdown.send(true);
        self.server.await??;
        for job in self.jobs {
            let _ = job.await;
        }
        self.state.store.close().await;
        Ok(())
    }
}

async fn wait_for(mut rx: watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}

/// A build still `building` after this long was interrupted (builds take seconds).
const STALE_BUILD: chrono::TimeDelta = chrono::TimeDelta::minutes(30);
/// How long change-feed entries are kept. Edges read the feed every fraction of a second and
/// start from its newest entry, so a day is far more than any edge lags; the newest entry is
/// always kept so the feed's position never goes back.
const CHANGE_RETENTION: chrono::TimeDelta = chrono::TimeDelta::days(1);

/// Prunes expired sessions and reset tokens, change-feed entries older than a day, idle
/// rate-limiter entries and slug holds past their cooling-off period, fails builds a stopped process left behind, and bills the previous
/// month once it has ended, every 10 minutes.
async fn housekeeping(state: AppState, shutdown: impl std::future::Future<Output = ()>) {
    tokio::pin!(shutdown);
    loop {
        if let Err(e) = state.store.prune_expired().await {
            tracing::warn!(error = %e, "pruning expired sessions failed");
        }
        match state
            .store
            .fail_stale_deploys(chrono::Utc::now() - STALE_BUILD)
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::warn!(builds = n, "marked interrupted builds as failed"),
            Err(e) => tracing::warn!(error = %e, "failing interrupted builds failed"),
        }
        if let Err(e) = state
            .store
            .prune_changes(chrono::Utc::now() - CHANGE_RETENTION)
            .await
        {
            tracing::warn!(error = %e, "pruning the change feed failed");
        }
        // Bill the month that ended (idempotent: a month already billed posts nothing).
        let last_month = Month::of(chrono::Utc::now()).previous();
        match state
            .store
            .run_billing(last_month, chrono::Utc::now())
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(month = %last_month, charges = n, "billed the month"),
            Err(e) => tracing::warn!(error = %e, month = %last_month, "billing failed"),
        }
        let cooled = chrono::Utc::now()
            - chrono::Duration::days(i64::from(state.settings.slug_cooling_off_days));
        if let Err(e) = state.store.prune_slug_holds(cooled).await {
            tracing::warn!(error = %e, "pruning slug holds failed");
        }
        state.throttle.prune().await;
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(600)) => {}
            _ = &mut shutdown => break,
        }
    }
}
