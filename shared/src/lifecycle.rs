//! Process lifecycle shared by both binaries: logging set-up and the shutdown signal.

/// Logs with tracing to stderr: human-readable by default, JSON lines with
/// `VITRINE_LOG_FORMAT=json` (the `log_format` setting).
/// `RUST_LOG` sets the filter (default `info`).
pub fn init_logging(format: &str) {
    use tracing_subscriber::{EnvFilter, fmt};
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = if format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C): the moment to stop accepting and drain.
///
/// The handlers are installed when this is called, not when the future is first polled, so a
/// caller that announces readiness after calling it cannot be killed by a signal sent in between
/// (the default action of SIGTERM ends the process with no drain).
pub fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let term = signal(SignalKind::terminate()).ok();
    let int = signal(SignalKind::interrupt()).ok();
    async move {
        let wait = |s: Option<tokio::signal::unix::Signal>| async move {
            match s {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = wait(term) => {}
            _ = wait(int) => {}
        }
        tracing::info!("shutting down");
    }
}
