//! `vitrine-control`: parses the command line and dispatches to the library (`startup` for
//! `serve`, `commands` for the others).

use clap::Subcommand;
use vitrine_control::{commands, startup::Application};
use vitrine_shared::{
    Settings,
    lifecycle::{self, shutdown_signal},
};

#[derive(Subcommand)]
enum Command {
    /// Migrate the database and serve the API and the dashboard (the default).
    Serve,
    /// Apply database migrations and exit.
    Migrate,
    /// Create the demo and admin accounts and the templates (idempotent).
    Seed,
    /// Make an existing account the administrator of a new business (admin tooling).
    Business {
        /// The account that will administer the business.
        #[arg(long)]
        email: String,
        /// The business's name.
        #[arg(long)]
        name: String,
        /// basic or agency.
        #[arg(long, default_value = "basic")]
        plan: String,
    },
    /// Post a month's charges (idempotent; the server does this by itself once a month ends).
    Bill {
        /// yyyy-mm; the previous month by default.
        #[arg(long)]
        month: Option<String>,
    },
}

/// mimalloc instead of glibc's malloc, as the edge (`edge/src/main.rs`): an import builds and
/// frees a map of values for each of up to 100,000 records, and glibc spent a fifth of a
/// PostgreSQL import's CPU in its allocator (`unlink_chunk`, `malloc_consolidate`, `_int_free`:
/// `benches/README.md`, issue 42), where mimalloc's per-thread free lists do not consolidate.
/// The render worker this binary also runs as is started with the variable that keeps its
/// address-space limit honest (`vitrine_shared::sandbox`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    lifecycle::main(
        "vitrine-control",
        "Vitrine control plane: the dashboard and its API",
        run,
    )
}

async fn run(command: Option<Command>, settings: Settings) -> anyhow::Result<()> {
    let done = match command.unwrap_or(Command::Serve) {
        Command::Migrate => commands::migrate(&settings).await?,
        Command::Seed => commands::seed(settings).await?,
        Command::Business { email, name, plan } => {
            commands::business(&settings, &email, &name, &plan).await?
        }
        Command::Bill { month } => commands::bill(&settings, month.as_deref()).await?,
        Command::Serve => {
            let app = Application::build(settings).await?;
            let stop = shutdown_signal();
            println!("vitrine-control listening on http://{}", app.addr());
            app.run_until(stop).await?;
            return Ok(());
        }
    };
    println!("{done}");
    Ok(())
}
