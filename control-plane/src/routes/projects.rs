//! Projects (spec 1 §2–§7): list, create, read, update, delete, duplicate.
//!
//! Clients write only the fields in [`ProjectMetaInput`]; server-owned values (token,
//! is_published, verified, verifiedDomain, verifiedTimestamp) are never read from a request.
//! The settings an owner writes, and their checks, are the `meta` module's.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use vitrine_shared::{
    domain::{DOMAIN_MESSAGE, DomainName, Invalid, PreviewSlug, required_text},
    store::{NewProject, Project, ProjectChanges},
};

use crate::{
    auth::{self, CurrentUser},
    authz::{authorize_project, visible_projects},
    domain_checks::first_recheck,
    error::{ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    responses::ProjectView,
    routes::domains::refuse_if_held_elsewhere,
    routes::form_email,
    state::AppState,
};

mod meta;

pub use meta::{CustomFont, Font, ProjectMetaInput};

pub const NAME_REQUIRED: &str = "Project name is required";

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateProject {
    pub name: Option<String>,
    pub slug: Option<String>,
    #[serde(default)]
    pub meta: Option<ProjectMetaInput>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateProject {
    pub name: Option<String>,
    pub slug: Option<String>,
    /// A domain, saved as pending until it is proven (see `POST /api/dns-verify`; a verified
    /// domain keeps serving meanwhile), or null / "" to remove the domain.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    pub domain: Option<Option<String>>,
    #[serde(default)]
    pub meta: Option<ProjectMetaInput>,
}

/// Distinguishes an absent key (`None`) from an explicit `null` (`Some(None)`).
fn double_option<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// Parses a requested domain: validated, and never the platform's own.
pub fn parse_domain(state: &AppState, raw: &str) -> Result<DomainName, Invalid> {
    let domain = DomainName::parse(raw)?;
    if domain.is_within(&state.settings.platform_domain()) {
        return Err(Invalid::new(
            "domain",
            ErrorCode::DomainInvalid,
            DOMAIN_MESSAGE,
        ));
    }
    Ok(domain)
}

/// A fresh token and uuid for a new project.
pub fn new_identity() -> (String, String) {
    (auth::new_token(), uuid::Uuid::new_v4().to_string())
}

/// The instant before which a released slug's hold has ended (`SLUG_COOLING_OFF_DAYS`).
pub fn slugs_held_since(state: &AppState) -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now() - chrono::Duration::days(i64::from(state.settings.slug_cooling_off_days))
}

/// The slug a new project gets: the one asked for (which must be free), or one derived
/// from the name with a numeric suffix if needed.
pub async fn choose_slug(state: &AppState, requested: Option<&str>, name: &str) -> Result<String> {
    match requested.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Ok(PreviewSlug::parse(s)?.into_string()),
        None => Ok(state
            .store
            .free_project_slug(PreviewSlug::from_name(name).as_str())
            .await?),
    }
}

/// Creates a project owned by `user_id` holding `snapshot`'s content (duplicates and
/// projects made from templates) and answers 201 with its full view.
pub async fn create_from_snapshot(
    state: &AppState,
    user_id: i64,
    name: &str,
    slug: &str,
    snapshot: &vitrine_shared::snapshot::Snapshot,
) -> Result<(StatusCode, ApiJson<ProjectView>)> {
    let (token, uuid) = new_identity();
    let new = NewProject {
        user_id,
        name,
        slug,
        token: &token,
        uuid: &uuid,
        meta: Value::Null,
    };
    let project = state
        .store
        .insert_project_from_snapshot(&new, snapshot)
        .await?;
    Ok((
        StatusCode::CREATED,
        ApiJson(full_view(state, &project).await?),
    ))
}

/// One project with its pages, collections and certificate status (the list shows none of these).
pub(crate) async fn full_view(state: &AppState, project: &Project) -> Result<ProjectView> {
    let pages = state.store.project_pages(project.id).await?;
    let tables = state.store.project_collections(project.id).await?;
    let certificate = state.store.certificate_status(project.id).await?;
    let claim = state.store.domain_claim(project.id).await?;
    Ok(ProjectView::new(project, &state.settings)
        .with_content(pages, tables)
        .with_certificate(certificate)
        .with_domain_claim(claim))
}

#[utoipa::path(get, path = "/api/projects", tag = "projects",
    responses((status = 200, body = Vec<ProjectView>), (status = 401, body = ErrorBody)))]
pub async fn list_projects(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<Vec<ProjectView>>> {
    let projects = visible_projects(&state, &user).await?;
    let mut claims: std::collections::HashMap<i64, _> = state
        .store
        .domain_claims_of(user.id, user.business_id)
        .await?
        .into_iter()
        .map(|c| (c.project_id, c))
        .collect();
    Ok(ApiJson(
        projects
            .iter()
            .map(|p| ProjectView::new(p, &state.settings).with_domain_claim(claims.remove(&p.id)))
            .collect(),
    ))
}

#[utoipa::path(post, path = "/api/projects", tag = "projects", request_body = CreateProject,
    responses((status = 201, body = ProjectView), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<CreateProject>,
) -> Result<impl IntoResponse> {
    let name = required_text(
        "name",
        req.name.as_deref(),
        200,
        ErrorCode::ProjectNameRequired,
        NAME_REQUIRED,
    )?;
    let meta = req
        .meta
        .unwrap_or_default()
        .merge_into(&Value::Object(Map::new()))?;
    let slug = choose_slug(&state, req.slug.as_deref(), &name).await?;
    if req.slug.is_some() {
        state
            .store
            .slug_available_to(&slug, user.id, slugs_held_since(&state))
            .await?;
    }
    let (token, uuid) = new_identity();
    let home = if user.language == "en" {
        "Home"
    } else {
        "Início"
    };
    let project = state
        .store
        .insert_project(
            &NewProject {
                user_id: user.id,
                name: &name,
                slug: &slug,
                token: &token,
                uuid: &uuid,
                meta,
            },
            home,
        )
        .await?;
    form_email::after_change(&state, None, &project).await;
    Ok((
        StatusCode::CREATED,
        ApiJson(full_view(&state, &project).await?),
    ))
}

#[utoipa::path(get, path = "/api/projects/{id}", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody)))]
pub async fn get_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, id).await?;
    let project = state.store.project_by_id(id).await?;
    Ok(ApiJson(full_view(&state, &project).await?))
}

#[utoipa::path(post, path = "/api/projects/{id}", tag = "projects", request_body = UpdateProject,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<UpdateProject>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, id).await?;
    let current = state.store.project_by_id(id).await?;
    let mut changes = ProjectChanges::default();
    if let Some(name) = req.name {
        changes.name = Some(required_text(
            "name",
            Some(&name),
            200,
            ErrorCode::ProjectNameRequired,
            NAME_REQUIRED,
        )?);
    }
    // The slug it has is its own, even one reserved since it was taken.
    if let Some(slug) = req
        .slug
        .filter(|s| !s.trim().eq_ignore_ascii_case(&current.slug))
    {
        let slug = PreviewSlug::parse(&slug)?.into_string();
        state
            .store
            .slug_available_to(&slug, current.user_id, slugs_held_since(&state))
            .await?;
        changes.slug = Some(slug);
    }
    // Some(None): remove the domain; Some(Some(d)): save d as pending.
    let domain = match req.domain {
        None => None,
        Some(d) => Some(match d.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(d) => {
                let d = parse_domain(&state, d)?.into_string();
                refuse_if_held_elsewhere(&state, &d, id).await?;
                Some(d)
            }
        }),
    };
    if let Some(meta) = req.meta {
        changes.meta = Some(meta.merge_into(&current.meta.0)?);
    }
    let mut project = state.store.update_project(id, &changes).await?;
    match domain {
        None => {}
        Some(None) => {
            state.store.remove_domain(id).await?;
            project = state.store.project_by_id(id).await?;
        }
        // Back to the verified domain: nothing waits any more.
        Some(Some(d)) if project.verified_domain.as_deref() == Some(d.as_str()) => {
            state.store.delete_domain_claim(id).await?;
        }
        Some(Some(d)) => {
            state
                .store
                .save_domain_claim(id, &d, first_recheck(&state.settings))
                .await?;
        }
    }
    form_email::after_change(&state, Some(&current.meta.0), &project).await;
    Ok(ApiJson(full_view(&state, &project).await?))
}

#[utoipa::path(delete, path = "/api/projects/{id}", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode> {
    authorize_project(&state, &user, id).await?;
    state.store.delete_project(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Copies pages, collections with fields and records, and redirects, in one transaction.
/// The copy belongs to the caller, is unpublished and never has the domain.
#[utoipa::path(post, path = "/api/projects/{id}/duplicate", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 201, body = ProjectView), (status = 404, body = ErrorBody)))]
pub async fn duplicate_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<i64>,
) -> Result<impl IntoResponse> {
    authorize_project(&state, &user, id).await?;
    let source = state.store.project_by_id(id).await?;
    let snapshot = state.store.export_snapshot(id).await?;
    let suffix = if user.language == "en" {
        "copy"
    } else {
        "cópia"
    };
    let name: String = format!("{} ({suffix})", source.name)
        .chars()
        .take(200)
        .collect();
    let slug = state
        .store
        .free_project_slug(&copy_slug(&source.slug))
        .await?;
    create_from_snapshot(&state, user.id, &name, &slug, &snapshot).await
}

/// `{slug}-copy`, shortened so the result (plus a suffix) stays a valid DNS label.
fn copy_slug(slug: &str) -> String {
    let base: String = slug.chars().take(50).collect();
    format!("{}-copy", base.trim_end_matches('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_slugs_stay_valid_labels() {
        assert_eq!(copy_slug("loja"), "loja-copy");
        let long = "a".repeat(63);
        assert!(PreviewSlug::parse(&format!("{}-99", copy_slug(&long))).is_ok());
    }
}
