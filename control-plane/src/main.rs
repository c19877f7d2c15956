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
    sandbox,
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
        Command::Seed => {
            let store = Store::connect(&settings.database_url()).await?;
            store.migrate().await?;
            let blobs = BlobStore::from_settings(&settings)?;
            let report = seed::run(&AppState::new(settings, store, blobs)?).await?;
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
        Command::Business { email, name, plan } => {
            anyhow::ensure!(
                matches!(plan.as_str(), "basic" | "agency"),
                "--plan must be basic or agency"
            );
            let store = Store::connect(&settings.database_url()).await?;
            store.migrate().await?;
            let user = store
                .user_by_email(&email.trim().to_lowercase())
                .await?
                .ok_or_else(|| anyhow::anyhow!("no account {email}"))?;
            anyhow::ensure!(
                user.business_id.is_none(),
                "{email} already belongs to a business"
            );
            let business = store.insert_business(&name).await?;
            store.set_business_plan(business, &plan).await?;
            store
                .set_user_business(user.id, Some(business), true, &Default::default())
                .await?;
            println!("business {business} ({name}, {plan}) administered by {email}");
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
