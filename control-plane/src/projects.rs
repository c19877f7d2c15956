//! What making and showing a project takes, shared by every route that makes or changes one
//! (projects, templates, domains, form settings) and by the seed: the project's name and
//! slug rules, a new project's identity, a project made from a snapshot (a duplicate, a
//! template), the full view the API answers with, and the settings an owner writes
//! ([`meta`]).

use axum::http::StatusCode;
use vitrine_shared::ids::AccountId;
use vitrine_shared::{
    domain::{Invalid, PreviewSlug, required_text},
    identity::Identity,
    snapshot::Snapshot,
    store::{NewProject, Project},
};

use crate::{
    accounts::auth,
    base::Core,
    error::{ErrorCode, Result},
    extract::ApiJson,
    responses::ProjectView,
};

pub mod meta;

pub use meta::{CustomFont, Font, FormOrder, ProjectMetaInput};

pub const NAME_REQUIRED: &str = "Project name is required";

/// A project's (or template's) name: required, at most 200 characters, trimmed.
pub fn parse_name(raw: Option<&str>) -> Result<String, Invalid> {
    required_text(
        "name",
        raw,
        200,
        ErrorCode::ProjectNameRequired,
        NAME_REQUIRED,
    )
}

/// A fresh token and uuid for a new project.
pub fn new_identity() -> (String, String) {
    (auth::new_token(), uuid::Uuid::new_v4().to_string())
}

/// The instant before which a released slug's hold has ended (`SLUG_COOLING_OFF_DAYS`).
pub fn slugs_held_since(core: &Core) -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now() - chrono::Duration::days(i64::from(core.settings.slug_cooling_off_days))
}

/// The slug a new project gets: the one asked for (which must be free), or one derived
/// from the name with a numeric suffix if needed.
pub async fn choose_slug(core: &Core, requested: Option<&str>, name: &str) -> Result<String> {
    match requested.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Ok(PreviewSlug::parse(s)?.into_string()),
        None => Ok(core
            .store
            .free_project_slug(PreviewSlug::from_name(name).as_str())
            .await?),
    }
}

/// Creates a project owned by `user_id` holding `snapshot`'s content (duplicates and
/// projects made from templates) and answers 201 with its full view. The site is called
/// `site_name`: the snapshot's identity is kept (a template's contacts as sample data) but
/// for its name.
pub async fn create_from_snapshot(
    core: &Core,
    user_id: AccountId,
    (name, site_name): (&str, &str),
    slug: &str,
    snapshot: &Snapshot,
) -> Result<(StatusCode, ApiJson<ProjectView>)> {
    let (token, uuid) = new_identity();
    let mut identity = Identity::stored(&snapshot.project_meta);
    identity.name = site_name
        .chars()
        .take(vitrine_shared::identity::MAX_NAME)
        .collect();
    let identity = serde_json::to_value(identity).map_err(anyhow::Error::from)?;
    let new = NewProject {
        user_id,
        name,
        slug,
        token: &token,
        uuid: &uuid,
        meta: serde_json::json!({ "identity": identity }),
    };
    let project = core
        .store
        .insert_project_from_snapshot(&new, snapshot, core.settings.records_per_account)
        .await?;
    Ok((
        StatusCode::CREATED,
        ApiJson(full_view(core, &project).await?),
    ))
}

/// One project with its pages, collections and certificate status (the list shows none of these).
pub async fn full_view(core: &Core, project: &Project) -> Result<ProjectView> {
    let pages = core.store.project_pages(project.id).await?;
    let tables = core.store.project_collections(project.id).await?;
    let certificate = core.store.certificate_status(project.id).await?;
    let claim = core.store.domain_claim(project.id).await?;
    Ok(ProjectView::new(project, &core.settings)
        .with_content(pages, tables)
        .with_certificate(certificate)
        .with_domain_claim(claim))
}
