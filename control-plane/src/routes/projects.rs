//! Projects (spec 1 §2–§7): list, create, read, update, delete, duplicate.
//!
//! Clients write only the fields in [`ProjectMetaInput`]; server-owned values (token,
//! is_published, verified, verifiedDomain, verifiedTimestamp) are never read from a request.

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

pub const NAME_REQUIRED: &str = "Project name is required";

/// A font the site loads (spec 1 §3 "Font entry").
#[derive(Debug, Clone, Deserialize, serde::Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Font {
    pub family: String,
    #[serde(default)]
    pub variants: Vec<String>,
}

/// A `.woff2` file uploaded by the owner.
#[derive(Debug, Clone, Deserialize, serde::Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CustomFont {
    pub family: String,
    pub variants: Vec<String>,
    /// The upload URL returned by POST /api/upload.
    pub filename: String,
}

/// The meta keys a client may set. Keys not listed here (including the server-owned
/// verification keys) are ignored.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectMetaInput {
    pub description: Option<String>,
    pub default_font: Option<Font>,
    pub fonts: Option<Vec<Font>>,
    pub custom_fonts: Option<Vec<CustomFont>>,
    pub header: Option<String>,
    pub footer: Option<String>,
    pub favicon: Option<String>,
    pub conversion_api_enabled: Option<bool>,
    pub conversion_api_access_token: Option<String>,
    pub conversion_api_pixel_id: Option<String>,
    pub form_history_order_by: Option<String>,
    /// Where the published site's form notifications go; empty means the owner's e-mail.
    pub form_email: Option<String>,
    pub deployv2: Option<bool>,
    /// Whether the published site asks browsers to use HTTPS only (Strict-Transport-Security).
    /// Opt-in: a browser that saw it refuses plain HTTP to the domain for a long time.
    pub hsts: Option<bool>,
}

const FONT_WEIGHTS: &[&str] = &[
    "100", "200", "300", "400", "500", "600", "700", "800", "900", "regular",
];
const MAX_CODE: usize = 100 * 1024;

fn check_family(family: &str) -> Result<(), Invalid> {
    let ok = !family.trim().is_empty()
        && family.len() <= 100
        && family
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if ok {
        Ok(())
    } else {
        Err(Invalid::new(
            "fonts",
            ErrorCode::FontFamilyInvalid,
            format!("Invalid font family {family:?}"),
        )
        .param("family", family))
    }
}

fn check_variants(variants: &[String]) -> Result<(), Invalid> {
    for v in variants {
        let weight = v.trim_end_matches("italic");
        let ok =
            v == "italic" || FONT_WEIGHTS.contains(&weight) || FONT_WEIGHTS.contains(&v.as_str());
        if !ok {
            return Err(Invalid::new(
                "fonts",
                ErrorCode::FontVariantInvalid,
                format!("Invalid font variant {v:?}"),
            )
            .param("variant", v.as_str()));
        }
    }
    Ok(())
}

/// Our own upload URLs only: a site must not be made to load files from elsewhere through
/// fields meant for uploads.
fn check_upload_url(field: &'static str, url: &str) -> Result<(), Invalid> {
    if url.is_empty() || (url.starts_with("/files/uploads/") && !url.contains("..")) {
        Ok(())
    } else {
        Err(Invalid::new(
            field,
            ErrorCode::NotAnUpload,
            "Must be a file uploaded to this site",
        ))
    }
}

impl ProjectMetaInput {
    /// Validates and merges these changes into `current`, returning the new stored meta.
    pub fn merge_into(self, current: &Value) -> Result<Value, Invalid> {
        let mut meta = match current {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        };
        let mut set = |k: &str, v: Value| {
            meta.insert(k.to_string(), v);
        };
        if let Some(d) = self.description {
            if d.chars().count() > 1000 {
                return Err(Invalid::new(
                    "description",
                    ErrorCode::TooLong,
                    "Description must be at most 1000 characters",
                )
                .param("max", 1000));
            }
            set("description", Value::String(d));
        }
        if let Some(f) = self.default_font {
            check_family(&f.family)?;
            check_variants(&f.variants)?;
            set(
                "defaultFont",
                serde_json::to_value(f).expect("serialisable"),
            );
        }
        if let Some(fonts) = self.fonts {
            if fonts.len() > 30 {
                return Err(
                    Invalid::new("fonts", ErrorCode::TooManyFonts, "At most 30 fonts")
                        .param("max", 30),
                );
            }
            for f in &fonts {
                check_family(&f.family)?;
                check_variants(&f.variants)?;
            }
            set("fonts", serde_json::to_value(fonts).expect("serialisable"));
        }
        if let Some(fonts) = self.custom_fonts {
            if fonts.len() > 30 {
                return Err(Invalid::new(
                    "customFonts",
                    ErrorCode::TooManyFonts,
                    "At most 30 custom fonts",
                )
                .param("max", 30));
            }
            for f in &fonts {
                check_family(&f.family).map_err(|e| Invalid {
                    field: "customFonts",
                    ..e
                })?;
                if f.variants.len() != 1 || !FONT_WEIGHTS.contains(&f.variants[0].as_str()) {
                    return Err(Invalid::new(
                        "customFonts",
                        ErrorCode::FontWeightInvalid,
                        "Choose one weight: 100 to 900 or regular",
                    ));
                }
                if !f.filename.ends_with(".woff2") {
                    return Err(Invalid::new(
                        "customFonts",
                        ErrorCode::WoffOnly,
                        "Only .woff2 files are accepted",
                    ));
                }
                check_upload_url("customFonts", &f.filename)?;
            }
            set(
                "customFonts",
                serde_json::to_value(fonts).expect("serialisable"),
            );
        }
        for (key, value) in [("header", self.header), ("footer", self.footer)] {
            if let Some(code) = value {
                if code.len() > MAX_CODE {
                    return Err(Invalid::new(
                        "meta",
                        ErrorCode::CodeTooLarge,
                        format!("{key} code must be at most 100 KB"),
                    )
                    .param("part", key)
                    .param("kb", 100));
                }
                set(key, Value::String(code));
            }
        }
        if let Some(icon) = self.favicon {
            check_upload_url("favicon", &icon)?;
            set("favicon", Value::String(icon));
        }
        if let Some(token) = self.conversion_api_access_token {
            set(
                "conversionApiAccessToken",
                Value::String(token.trim().to_string()),
            );
        }
        if let Some(pixel) = self.conversion_api_pixel_id {
            let pixel = pixel.trim().to_string();
            if !pixel.chars().all(|c| c.is_ascii_digit()) {
                return Err(Invalid::new(
                    "conversionApiPixelId",
                    ErrorCode::PixelIdDigits,
                    "Pixel ID must contain only digits",
                ));
            }
            set("conversionApiPixelId", Value::String(pixel));
        }
        if let Some(enabled) = self.conversion_api_enabled {
            set("conversionApiEnabled", Value::Bool(enabled));
        }
        if let Some(order) = self.form_history_order_by {
            if order != "created_at" && order != "-created_at" {
                return Err(Invalid::new(
                    "formHistoryOrderBy",
                    ErrorCode::FormOrderInvalid,
                    "Order must be created_at or -created_at",
                ));
            }
            set("formHistoryOrderBy", Value::String(order));
        }
        if let Some(v2) = self.deployv2 {
            set("deployv2", Value::Bool(v2));
        }
        if let Some(hsts) = self.hsts {
            set("hsts", Value::Bool(hsts));
        }
        if let Some(email) = self.form_email {
            let email = email.trim();
            if email.is_empty() {
                meta.remove("formEmail");
            } else {
                let email = vitrine_shared::domain::Email::parse(email).map_err(|e| Invalid {
                    field: "formEmail",
                    ..e
                })?;
                meta.insert("formEmail".into(), Value::String(email.as_str().into()));
            }
        }
        // The rule spans fields, so check it on the merged result.
        let text = |k: &str| {
            meta.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        if meta.get("conversionApiEnabled") == Some(&Value::Bool(true)) {
            if text("conversionApiAccessToken").is_empty() {
                return Err(Invalid::new(
                    "conversionApiAccessToken",
                    ErrorCode::AccessTokenRequired,
                    "Conversion API access token is required",
                ));
            }
            if text("conversionApiPixelId").is_empty() {
                return Err(Invalid::new(
                    "conversionApiPixelId",
                    ErrorCode::PixelIdRequired,
                    "Pixel ID is required",
                ));
            }
        }
        Ok(Value::Object(meta))
    }
}

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
    use serde_json::json;

    fn input(v: Value) -> ProjectMetaInput {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn server_owned_meta_keys_are_ignored() {
        let current = json!({"description": "a"});
        let merged =
            input(json!({"verified": true, "verifiedDomain": "x.com", "description": "b"}))
                .merge_into(&current)
                .unwrap();
        assert_eq!(merged, json!({"description": "b"}));
    }

    #[test]
    fn conversion_api_needs_token_and_pixel_when_enabled() {
        let empty = json!({});
        let err = input(json!({"conversionApiEnabled": true}))
            .merge_into(&empty)
            .unwrap_err();
        assert_eq!(err.field, "conversionApiAccessToken");
        let err = input(json!({"conversionApiEnabled": true, "conversionApiAccessToken": "t"}))
            .merge_into(&empty)
            .unwrap_err();
        assert_eq!(err.field, "conversionApiPixelId");
        assert!(input(json!({"conversionApiEnabled": true, "conversionApiAccessToken": "t", "conversionApiPixelId": "123"}))
            .merge_into(&empty)
            .is_ok());
        assert!(
            input(json!({"conversionApiEnabled": false}))
                .merge_into(&empty)
                .is_ok()
        );
    }

    #[test]
    fn fonts_are_checked() {
        let empty = json!({});
        assert!(input(json!({"defaultFont": {"family": "Open Sans", "variants": ["regular", "700", "700italic"]}})).merge_into(&empty).is_ok());
        assert!(
            input(json!({"defaultFont": {"family": "x</style>", "variants": []}}))
                .merge_into(&empty)
                .is_err()
        );
        assert!(input(json!({"customFonts": [{"family": "Mine", "variants": ["950"], "filename": "/files/uploads/1/2/a.woff2"}]})).merge_into(&empty).is_err());
        assert!(input(json!({"customFonts": [{"family": "Mine", "variants": ["300"], "filename": "https://evil.example/a.woff2"}]})).merge_into(&empty).is_err());
        assert!(input(json!({"customFonts": [{"family": "Mine", "variants": ["300"], "filename": "/files/uploads/1/2/a.woff2"}]})).merge_into(&empty).is_ok());
    }

    #[test]
    fn copy_slugs_stay_valid_labels() {
        assert_eq!(copy_slug("loja"), "loja-copy");
        let long = "a".repeat(63);
        assert!(PreviewSlug::parse(&format!("{}-99", copy_slug(&long))).is_ok());
    }
}
