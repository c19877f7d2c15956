//! `vitrine-control`: parses the command line and dispatches to the library (`startup` for
//! `serve`, `commands` for the others).

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use vitrine_control::{commands, startup::Application};
use vitrine_shared::{
    Settings,
    config::settings_help,
    lifecycle::{init_logging, shutdown_signal},
    sandbox, tls,
};

#[derive(Parser)]
#[command(name = "vitrine-control", version, about = "Vitrine control plane: the dashboard and its API", after_help = settings_help())]
struct Cli {
    /// TOML configuration file (also VITRINE_CONFIG).
    #[arg(long, env = "VITRINE_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

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
    let done = match cli.command.unwrap_or(Command::Serve) {
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
