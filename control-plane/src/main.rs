//! `vitrine-control`: parses the command line and runs the control plane (see the library).

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use vitrine_control::{seed, startup::Application, state::AppState};
use vitrine_shared::{
    Settings, Store,
    billing::Month,
    blob::BlobStore,
    config::settings_help,
    lifecycle::{init_logging, shutdown_signal},
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
    /// Post a month's charges (idempotent; the server does this by itself once a month ends).
    Bill {
        /// yyyy-mm; the previous month by default.
        #[arg(long)]
        month: Option<String>,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let settings = Settings::load(cli.config.as_deref())?;
    init_logging(&settings.log_format);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            let store = Store::connect(&settings.database_url()).await?;
            store.migrate().await?;
            println!("migrations applied ({})", store.backend_name());
        }
        Command::Seed => {
            let store = Store::connect(&settings.database_url()).await?;
            store.migrate().await?;
            let blobs = BlobStore::from_settings(&settings)?;
            let report = seed::run(&AppState::new(settings, store, blobs)).await?;
            println!("templates: {}", report.templates);
            println!("library blocks: {}", report.blocks);
            if let Some((email, password)) = report.demo {
                println!("demo account: {email} / {password}");
            }
            match report.admin {
                (email, Some(password)) => println!("admin account created: {email} / {password}"),
                (email, None) => {
                    println!("admin account: {email} (already existed; password unchanged)")
                }
            }
        }
        Command::Bill { month } => {
            let month = match month {
                Some(m) => {
                    Month::parse(&m).ok_or_else(|| anyhow::anyhow!("--month must be yyyy-mm"))?
                }
                None => Month::of(chrono::Utc::now()).previous(),
            };
            let store = Store::connect(&settings.database_url()).await?;
            store.migrate().await?;
            let posted = store.run_billing(month, chrono::Utc::now()).await?;
            println!("{month}: {posted} charges posted");
        }
        Command::Serve => {
            let app = Application::build(settings).await?;
            let stop = shutdown_signal();
            println!("vitrine-control listening on http://{}", app.addr());
            app.run_until(stop).await?;
        }
    }
    Ok(())
}
