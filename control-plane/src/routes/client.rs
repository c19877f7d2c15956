//! The client admin panel (`/admin?token=…`: a project's records, nothing else), regenerating
//! its token, and the spreadsheet import link that upserts rows pushed by a spreadsheet script.
//!
//! The two carry different tokens (issue 40): the client panel's (`projects.token`, sent in
//! the `X-Client-Token` header) opens the project's records, to read, edit and delete; the
//! spreadsheet link's (`projects.sheet_token`, in the link's path as the spec shows it) only
//! adds and updates rows through `/google-sheets/…`, and opens nothing else. Each is replaced
//! on its own; neither works where the other does. A project has no spreadsheet link until
//! its owner makes one in Integrations (links made before carried the client-panel token and
//! stop working).

use axum::extract::State;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::ids::{CollectionId, ProjectId};
use vitrine_shared::{fields::FieldType, store::CollectionSummary};

use crate::{
    accounts::auth::{self, CurrentUser},
    accounts::authz::{Principal, authorize_project},
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    records::{Schema, WriteMode, write_drafts},
    responses::ProjectView,
    state::AppState,
};

#[derive(Debug, Serialize, ToSchema)]
pub struct ClientProject {
    #[schema(value_type = i64)]
    pub id: ProjectId,
    pub name: String,
    pub slug: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClientContext {
    pub project: ClientProject,
    pub tables: Vec<CollectionSummary>,
}

/// What a client-panel token opens. Only for client tokens (header `X-Client-Token`).
#[utoipa::path(get, path = "/api/client/project", tag = "client panel",
    responses((status = 200, body = ClientContext), (status = 404, body = ErrorBody)))]
pub async fn client_project(
    State(state): State<AppState>,
    principal: Principal,
) -> Result<ApiJson<ClientContext>> {
    let Principal::Client { project_id } = principal else {
        return Err(ApiError::NotFound);
    };
    let p = state.store.project_by_id(project_id).await?;
    Ok(ApiJson(ClientContext {
        project: ClientProject {
            id: p.id,
            name: p.name,
            slug: p.slug,
        },
        tables: state.store.project_collections(project_id).await?,
    }))
}

/// Issues a new client-panel token; the old link stops working at once.
#[utoipa::path(post, path = "/api/projects/{id}/token", tag = "client panel",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = ProjectView), (status = 404, body = ErrorBody)))]
pub async fn regenerate_token(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<ProjectView>> {
    authorize_project(&state, &user, id).await?;
    state
        .store
        .set_project_token(id, &auth::new_token())
        .await?;
    let project = state.store.project_by_id(id).await?;
    Ok(ApiJson(ProjectView::new(&project, &state.settings)))
}

/// A project's spreadsheet import link's token.
#[derive(Debug, Serialize, ToSchema)]
pub struct SheetLink {
    /// `null`: no link was made yet.
    pub token: Option<String>,
}

/// The spreadsheet import link's token (Integrations).
#[utoipa::path(get, path = "/api/projects/{id}/sheet-token", tag = "client panel",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = SheetLink), (status = 404, body = ErrorBody)))]
pub async fn get_sheet_link(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<SheetLink>> {
    authorize_project(&state, &user, id).await?;
    Ok(ApiJson(SheetLink {
        token: state.store.project_sheet_token(id).await?,
    }))
}

/// Makes a new spreadsheet link token; the old link stops working at once, and the client
/// panel's token is untouched.
#[utoipa::path(post, path = "/api/projects/{id}/sheet-token", tag = "client panel",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = SheetLink), (status = 404, body = ErrorBody)))]
pub async fn regenerate_sheet_token(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<ProjectId>,
) -> Result<ApiJson<SheetLink>> {
    authorize_project(&state, &user, id).await?;
    let token = auth::new_token();
    state.store.set_project_sheet_token(id, &token).await?;
    Ok(ApiJson(SheetLink { token: Some(token) }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SheetFlags {
    /// 1: normalise phone-like columns to digits (with the 55 country prefix rule).
    pub phone: Option<u8>,
    /// 1: keep tracking columns (utm_*, gclid, fbclid, …) instead of dropping them.
    pub gtags: Option<u8>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SheetPush {
    /// The collection: its id or slug.
    #[schema(value_type = String)]
    pub table: Value,
    /// Rows as objects keyed by column header.
    #[schema(value_type = Vec<Object>)]
    pub rows: Vec<Map<String, Value>>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SheetResult {
    pub inserted: usize,
    pub updated: usize,
    /// Columns that matched no field and were skipped.
    pub ignored_columns: Vec<String>,
}

fn is_tracking(column: &str) -> bool {
    let c = column.trim().to_ascii_lowercase();
    c.starts_with("utm_")
        || [
            "gclid", "fbclid", "gbraid", "wbraid", "msclkid", "_ga", "_gid", "gtag",
        ]
        .iter()
        .any(|t| c == *t || c.starts_with(&format!("{t}_")))
}

fn is_phone(column: &str) -> bool {
    let c = column.to_lowercase();
    ["phone", "telefone", "fone", "celular", "whatsapp", "tel"]
        .iter()
        .any(|w| c.contains(w))
}

/// Digits with Brazil's country code added to national numbers (the spec's 55 rule).
fn phone_digits(v: &Value) -> Value {
    let raw = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => return other.clone(),
    };
    let d: String = raw.chars().filter(char::is_ascii_digit).collect();
    if d.is_empty() {
        return Value::String(String::new());
    }
    Value::String(if d.len() < 12 && !d.starts_with("55") {
        format!("55{d}")
    } else {
        d
    })
}

/// Upserts rows by slug (given in a `slug` column, or derived from the title). Only the
/// spreadsheet link's token opens it; the client panel's answers 404 here.
#[utoipa::path(post, path = "/google-sheets/{project_id}/{token}", tag = "client panel", request_body = SheetPush,
    params(("project_id" = i64, Path, description = "Project id"), ("token" = String, Path, description = "The spreadsheet link's token"), SheetFlags),
    responses((status = 200, body = SheetResult), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn google_sheets(
    State(state): State<AppState>,
    ApiPath((project_id, token)): ApiPath<(ProjectId, String)>,
    ApiQuery(flags): ApiQuery<SheetFlags>,
    ApiJson(push): ApiJson<SheetPush>,
) -> Result<ApiJson<SheetResult>> {
    if token.is_empty() || state.store.project_id_by_sheet_token(&token).await? != Some(project_id)
    {
        return Err(ApiError::NotFound);
    }
    if push.rows.len() > 10_000 {
        return Err(ApiError::invalid(
            "rows",
            ErrorCode::TooManyRows,
            "Send at most 10,000 rows at a time",
        )
        .param("max", 10_000));
    }
    let collection = match &push.table {
        Value::Number(n) => {
            state
                .store
                .collection_by_id(CollectionId(n.as_i64().unwrap_or(0)))
                .await?
        }
        Value::String(s) => state.store.collection_by_slug(project_id, s).await?,
        _ => {
            return Err(ApiError::invalid(
                "table",
                ErrorCode::TableRefInvalid,
                "table is the collection's id or slug",
            ));
        }
    };
    if collection.project_id != project_id {
        return Err(ApiError::NotFound);
    }
    let schema = Schema::load(&state, collection.id).await?;
    let keep_tracking = flags.gtags == Some(1);
    let mut ignored: Vec<String> = Vec::new();
    let mut drafts = Vec::new();
    let mut explicit = Vec::new();
    let mut problems = Vec::new();
    for (i, row) in push.rows.into_iter().enumerate() {
        let (mut name, mut slug, mut cells) = (String::new(), String::new(), Vec::new());
        for (column, mut value) in row {
            if is_tracking(&column) && !keep_tracking {
                continue;
            }
            if flags.phone == Some(1) && is_phone(&column) {
                value = phone_digits(&value);
            }
            let text = || match &value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            match column.trim() {
                "name" | "title" | "nome" => name = text(),
                "slug" => slug = text(),
                other => match schema.column(other) {
                    Some(index) => {
                        // Spreadsheets send phone numbers as numbers; fields of link types take text.
                        if matches!(
                            schema.fields[index].kind,
                            FieldType::WhatsappLink | FieldType::TelephoneLink
                        ) {
                            value = Value::String(text());
                        }
                        cells.push((index, value));
                    }
                    None if !ignored.contains(&column) => ignored.push(column),
                    None => {}
                },
            }
        }
        explicit.push(!slug.trim().is_empty());
        match schema.draft(Some(i + 1), &name, &slug, cells, None) {
            Ok(d) => drafts.push(d),
            Err(p) => problems.extend(p),
        }
    }
    if !problems.is_empty() {
        return Err(ApiError::from(problems));
    }
    // Rows whose slug exists are updates; the rest are inserted with unique slugs.
    let written = write_drafts(&state, &schema, drafts, explicit, WriteMode::Upsert, false).await?;
    Ok(ApiJson(SheetResult {
        inserted: written.inserted,
        // Rows that matched a stored record, changed or not (a sheet pushes every row each time).
        updated: written.updated + written.unchanged,
        ignored_columns: ignored,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tracking_and_phone_columns_are_recognised() {
        for c in ["utm_source", "UTM_campaign", "gclid", "fbclid", "_ga"] {
            assert!(is_tracking(c), "{c}");
        }
        assert!(!is_tracking("email"));
        assert!(is_phone("Telefone") && is_phone("whatsapp") && is_phone("Celular"));
        assert_eq!(
            phone_digits(&json!("(11) 98765-4321")),
            json!("5511987654321")
        );
        assert_eq!(
            phone_digits(&json!(11987654321_i64)),
            json!("5511987654321")
        );
    }
}
