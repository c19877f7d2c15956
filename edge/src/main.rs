//! `vitrine-edge`: parses the command line and runs the edge (see the library).

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use vitrine_edge::Edge;
use vitrine_shared::{
    Settings, Store,
    config::settings_help,
    lifecycle::{init_logging, shutdown_signal},
    sandbox, tls,
};

#[derive(Parser)]
#[command(name = "vitrine-edge", version, about = "Vitrine edge: serves published sites to visitors", after_help = settings_help())]
struct Cli {
    /// TOML configuration file (also VITRINE_CONFIG).
    #[arg(long, env = "VITRINE_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve visitors (the default).
    Serve,
    /// Apply database migrations and exit.
    Migrate,
}

/// mimalloc instead of glibc's malloc: each request's allocations (hyper's header maps and
/// buffers, the service future) are made and freed on one visitor thread, which mimalloc's
/// thread-local free lists serve without locks. Measured on the load bench's hot page
/// (`benches/README.md`): 0.1–0.8 µs less user time and 4–8 % more requests/s than glibc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    // A render worker (`vitrine_shared::sandbox`) before anything else: no runtime, no
    // settings, no threads.
    if std::env::args_os().nth(1).as_deref() == Some(sandbox::WORKER_ARG.as_ref()) {
        sandbox::worker_main();
    }
    tls::install_crypto_provider();
    serve()
}

#[tokio::main]
async fn serve() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let settings = Settings::load(cli.config.as_deref())?;
    init_logging(&settings.log_format);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            let store = Store::connect(&settings.database_url()).await?;
            store.migrate().await?;
            println!("migrations applied ({})", store.backend_name());
        }
        Command::Serve => {
            let edge = Edge::build(&settings).await?;
            let stop = shutdown_signal();
            println!(
                "vitrine-edge listening on http://{} (admin http://{}) (https {})",
                edge.http_addr, edge.admin_addr, edge.https_addr
            );
            stop.await;
            edge.stop().await;
        }
    }
    Ok(())
}
