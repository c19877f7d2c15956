//! A site's identity and theme (issue 41): `GET`/`PUT /api/projects/{id}/identity` and
//! `/theme`. Both live in the project's meta (`meta.identity`, `meta.theme`), written only here
//! (the project update call ignores them), checked by `vitrine_shared::identity` and
//! `vitrine_shared::theme`, and read by every render (`site.identity.*`, `site.theme.*`, the
//! `--vt-*` custom properties) at the next publish and the next canvas render.

use axum::extract::State;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    domain::Invalid,
    identity::{Identity, IdentityInput},
    store::{Project, ProjectChanges},
    theme::{Contrast, Theme, ThemeInput},
    uploads::UploadKey,
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::authorized_project,
    error::{ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    state::AppState,
};

/// The identity and theme calls.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_identity, put_identity))
        .routes(routes!(get_theme, put_theme))
}

/// A theme with its WCAG contrast ratios and the warnings of the pairs under their threshold
/// (`low_contrast_text`, `low_contrast_primary`, `low_contrast_accent`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ThemeView {
    pub theme: Theme,
    pub contrast: Contrast,
    pub warnings: Vec<String>,
    /// Present (true) when the project has no theme of its own: this is the platform's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

impl ThemeView {
    fn of(theme: Theme, default: bool) -> ThemeView {
        ThemeView {
            contrast: theme.contrast(),
            warnings: theme.warnings().into_iter().map(String::from).collect(),
            theme,
            default,
        }
    }
}

/// The logo must be a file of this project, or of its owner's account, or the one it has
/// (a template's or the original's, kept by a copy).
fn check_logo(project: &Project, current: &Identity, logo: &str) -> Result<(), Invalid> {
    let key = logo.strip_prefix("/files/").and_then(UploadKey::parse);
    let owner_folder = format!("uploads/{}/", project.user_id);
    let ours = key.is_some_and(|k| match k.project_id {
        Some(p) => p == project.id,
        None => logo
            .strip_prefix("/files/")
            .is_some_and(|k| k.starts_with(&owner_folder)),
    });
    if logo.is_empty() || logo == current.logo || ours {
        Ok(())
    } else {
        Err(Invalid::new(
            "logo",
            ErrorCode::NotAnUpload,
            "Must be a file uploaded to this site",
        ))
    }
}

/// `meta` with `key` set to `value`.
fn with_key(meta: &Value, key: &str, value: Value) -> Value {
    let mut m = match meta {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    m.insert(key.into(), value);
    Value::Object(m)
}

#[utoipa::path(get, path = "/api/projects/{id}/identity", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = Identity), (status = 404, body = ErrorBody)))]
pub async fn get_identity(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<Identity>> {
    let project = authorized_project(&state, &user, id).await?;
    Ok(ApiJson(Identity::of_meta(&project.meta.0, &project.name)))
}

/// Saves the identity (`name` required; an absent key keeps its value, `""` clears it).
#[utoipa::path(put, path = "/api/projects/{id}/identity", tag = "projects", request_body = IdentityInput,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = Identity), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_identity(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
    ApiJson(input): ApiJson<IdentityInput>,
) -> Result<ApiJson<Identity>> {
    let project = authorized_project(&state, &user, id).await?;
    let current = Identity::of_meta(&project.meta.0, &project.name);
    let identity = current.merge(input)?;
    check_logo(&project, &current, &identity.logo)?;
    let value = serde_json::to_value(&identity).map_err(anyhow::Error::from)?;
    let changes = ProjectChanges {
        meta: Some(with_key(&project.meta.0, "identity", value)),
        ..ProjectChanges::default()
    };
    state.store.update_project(id, &changes).await?;
    Ok(ApiJson(identity))
}

#[utoipa::path(get, path = "/api/projects/{id}/theme", tag = "projects",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ThemeView), (status = 404, body = ErrorBody)))]
pub async fn get_theme(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<ThemeView>> {
    let project = authorized_project(&state, &user, id).await?;
    Ok(ApiJson(match Theme::stored(&project.meta.0) {
        Some(theme) => ThemeView::of(theme, false),
        None => ThemeView::of(Theme::default(), true),
    }))
}

/// Saves the theme (an absent key keeps its value); low contrast is warned of, not refused.
#[utoipa::path(put, path = "/api/projects/{id}/theme", tag = "projects", request_body = ThemeInput,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ThemeView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn put_theme(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
    ApiJson(input): ApiJson<ThemeInput>,
) -> Result<ApiJson<ThemeView>> {
    let project = authorized_project(&state, &user, id).await?;
    let theme = Theme::of_meta(&project.meta.0).merge(input)?;
    let value = serde_json::to_value(&theme).map_err(anyhow::Error::from)?;
    let changes = ProjectChanges {
        meta: Some(with_key(&project.meta.0, "theme", value)),
        ..ProjectChanges::default()
    };
    state.store.update_project(id, &changes).await?;
    Ok(ApiJson(ThemeView::of(theme, false)))
}
