//! `vitrine-edge`: parses the command line and runs the edge (see the library).

use clap::Subcommand;
use vitrine_edge::Edge;
use vitrine_shared::{
    Settings, Store,
    lifecycle::{self, shutdown_signal},
};

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
    lifecycle::main(
        "vitrine-edge",
        "Vitrine edge: serves published sites to visitors",
        run,
    )
}

async fn run(command: Option<Command>, settings: Settings) -> anyhow::Result<()> {
    match command.unwrap_or(Command::Serve) {
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
