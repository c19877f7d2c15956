//! Projects (spec 1 §2–§7): list, create, read, update, delete, duplicate.
//!
//! Clients write only the fields in [`ProjectMetaInput`]; server-owned values (token,
//! is_published, verified, verifiedDomain, verifiedTimestamp, and the identity and theme,
//! which have calls of their own: `routes::identity`) are never read from a request.
//! What other routes share with these (names, slugs, the settings an owner writes and their
//! checks, the full view) is [`crate::projects`]'s.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    domain::PreviewSlug,
    identity::Identity,
    store::{NewProject, ProjectChanges},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::{authorize_project, authorized_project, visible_projects},
    domains::{checks::first_recheck, custom::domain_for},
    error::{ErrorBody, Result},
    extract::{ApiJson, ApiPath, double_option},
    mail::form_recipients,
    projects::{
        ProjectMetaInput, choose_slug, create_from_snapshot, full_view, new_identity, parse_name,
        slugs_held_since,
    },
    responses::ProjectView,
    state::AppState,
};

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

#[utoipa::path(get, path = "/api/projects", tag = "projects",
    responses((status = 200, body = Vec<ProjectView>), (status = 401, body = ErrorBody)))]
pub async fn list_projects(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<Vec<ProjectView>>> {
    let projects = visible_projects(&state, &user).await?;
    let mut claims: std::collections::HashMap<ProjectId, _> = state
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
    let name = parse_name(req.name.as_deref())?;
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
    let home = if user.language.is_english() {
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
    form_recipients::after_change(&state.mail, None, &project).await;
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
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<ProjectView>> {
    let project = authorized_project(&state, &user, id).await?;
    Ok(ApiJson(full_view(&state, &project).await?))
}

#[utoipa::path(post, path = "/api/projects/{id}", tag = "projects", request_body = UpdateProject,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
    ApiJson(req): ApiJson<UpdateProject>,
) -> Result<ApiJson<ProjectView>> {
    let current = authorized_project(&state, &user, id).await?;
    let mut changes = ProjectChanges::default();
    if let Some(name) = req.name {
        changes.name = Some(parse_name(Some(&name))?);
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
            Some(d) => Some(domain_for(&state, id, d).await?.into_string()),
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
    form_recipients::after_change(&state.mail, Some(&current.meta.0), &project).await;
    Ok(ApiJson(full_view(&state, &project).await?))
}

#[utoipa::path(delete, path = "/api/projects/{id}", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_project(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
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
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<impl IntoResponse> {
    let source = authorized_project(&state, &user, id).await?;
    let snapshot = state.store.export_snapshot(id).await?;
    let suffix = if user.language.is_english() {
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
    // The copy is the same site: the original's name, not "(copy)".
    let site_name = Identity::of_meta(&source.meta.0, &source.name).name;
    create_from_snapshot(&state, user.id, (&name, &site_name), &slug, &snapshot).await
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
