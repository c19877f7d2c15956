//! The command-line commands besides `serve`: what `vitrine-control migrate`, `seed`,
//! `business` and `bill` do. `main.rs` parses the command line and calls these; each returns
//! the text to print.

use vitrine_shared::{
    Settings, Store,
    billing::{Month, Plan},
    blob::BlobStore,
};

use crate::{seed, state::AppState};

/// The store, connected and migrated.
async fn migrated_store(settings: &Settings) -> anyhow::Result<Store> {
    let store = Store::connect(&settings.database_url()).await?;
    store.migrate().await?;
    Ok(store)
}

/// `migrate`: applies the database migrations.
pub async fn migrate(settings: &Settings) -> anyhow::Result<String> {
    let store = migrated_store(settings).await?;
    Ok(format!("migrations applied ({})", store.backend_name()))
}

/// `seed`: the demo and admin accounts, the templates and the block library (idempotent).
pub async fn seed(settings: Settings) -> anyhow::Result<String> {
    let store = migrated_store(&settings).await?;
    let blobs = BlobStore::from_settings(&settings)?;
    let state = AppState::new(settings, store, blobs).await?;
    let report = seed::run(&state).await?;
    let mut out = vec![
        format!("templates: {}", report.templates),
        format!("library blocks: {}", report.blocks),
    ];
    if let Some((email, password)) = report.demo {
        out.push(format!("demo account: {email} / {password}"));
    }
    out.push(match report.admin {
        (email, Some(password)) => format!("admin account created: {email} / {password}"),
        (email, None) => format!("admin account: {email} (already existed; password unchanged)"),
    });
    Ok(out.join("\n"))
}

/// `business`: makes the existing account `email` the administrator of a new business
/// `name` on `plan` (basic or agency).
pub async fn business(
    settings: &Settings,
    email: &str,
    name: &str,
    plan: &str,
) -> anyhow::Result<String> {
    let plan: Plan = plan
        .parse()
        .map_err(|_| anyhow::anyhow!("--plan must be basic or agency"))?;
    let store = migrated_store(settings).await?;
    let user = store
        .user_by_email(&email.trim().to_lowercase())
        .await?
        .ok_or_else(|| anyhow::anyhow!("no account {email}"))?;
    anyhow::ensure!(
        user.business_id.is_none(),
        "{email} already belongs to a business"
    );
    let business = store.insert_business(name).await?;
    store.set_business_plan(business, plan).await?;
    store
        .set_user_business(user.id, Some(business), true, &Default::default())
        .await?;
    Ok(format!(
        "business {business} ({name}, {plan}) administered by {email}"
    ))
}

/// `bill`: posts the charges of `month` (`yyyy-mm`; the previous month by default).
/// Idempotent; the server does this by itself once a month ends.
pub async fn bill(settings: &Settings, month: Option<&str>) -> anyhow::Result<String> {
    let month = match month {
        Some(m) => Month::parse(m).ok_or_else(|| anyhow::anyhow!("--month must be yyyy-mm"))?,
        None => Month::of(chrono::Utc::now()).previous(),
    };
    let store = migrated_store(settings).await?;
    let posted = store.run_billing(month, chrono::Utc::now()).await?;
    Ok(format!("{month}: {posted} charges posted"))
}
