//! Process lifecycle shared by both binaries: their `main` ([`main`]: the render worker's
//! check, the command line's common part, logging set-up, the runtime) and the shutdown
//! signal.

use std::path::PathBuf;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::{Settings, config::settings_help, sandbox};

/// A binary's `main`: a render worker when the first argument asks for one
/// ([`sandbox::worker_if_asked`], before anything else: no runtime, no settings, no threads);
/// otherwise ring installed as rustls's provider ([`crate::tls::install_crypto_provider`]), the
/// command line parsed and the settings loaded ([`Cli::start`]), then `run` on
/// a multi-threaded runtime.
pub fn main<C: Subcommand, F: Future<Output = anyhow::Result<()>>>(
    name: &'static str,
    about: &'static str,
    run: impl FnOnce(Option<C>, Settings) -> F,
) -> anyhow::Result<()> {
    sandbox::worker_if_asked();
    crate::tls::install_crypto_provider();
    let (command, settings) = Cli::<C>::start(name, about)?;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(run(command, settings))
}

/// The command line both binaries share: the configuration file, and a subcommand of the
/// binary's own (`C`).
#[derive(Parser)]
#[command(version)]
pub struct Cli<C: Subcommand> {
    /// TOML configuration file (also VITRINE_CONFIG).
    #[arg(long, env = "VITRINE_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<C>,
}

impl<C: Subcommand> Cli<C> {
    /// Parses the command line of the binary `name` (`about` says what it is in `--help`, which
    /// also lists every setting), loads the settings (defaults, then `--config`, then the
    /// environment) and starts logging. Answers the subcommand (`None`: the binary's default)
    /// with the settings.
    pub fn start(name: &'static str, about: &'static str) -> anyhow::Result<(Option<C>, Settings)> {
        let matches = Self::command()
            .name(name)
            .bin_name(name)
            .about(about)
            .after_help(settings_help())
            .get_matches();
        let cli = Self::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        let settings = Settings::load(cli.config.as_deref())?;
        init_logging(&settings.log_format);
        Ok((cli.command, settings))
    }
}

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
