//! Collections (spec 1 §7 "tables") and their fields.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;
use vitrine_shared::ids::{CollectionId, FieldId, ProjectId};
use vitrine_shared::{
    domain::{Invalid, slugify},
    fields::{CURRENCY_FORMATS, FieldMeta, FieldOption, FieldType},
    store::{Collection, Field, FieldInput, OrderKey},
};

use crate::{
    accounts::auth::CurrentUser,
    accounts::authz::{
        Principal, authorize_collection, authorize_collection_records, authorize_project,
    },
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    records::CollectionMeta,
    responses::{FieldView, TableView},
    state::AppState,
};

#[derive(Debug, Deserialize, ToSchema)]
pub struct TableInput {
    #[schema(value_type = Option<i64>)]
    pub project_id: Option<ProjectId>,
    pub name: Option<String>,
    pub slug: Option<String>,
    #[schema(value_type = Option<Object>)]
    pub meta: Option<Value>,
}

fn required(field: &'static str, v: Option<&str>, message: &str) -> Result<String, Invalid> {
    vitrine_shared::domain::required_text(field, v, 200, ErrorCode::Required, message)
}

/// Validates collection settings against the collection's own fields.
fn parse_meta(
    raw: Option<Value>,
    current: Option<&CollectionMeta>,
    fields: &[Field],
) -> Result<CollectionMeta> {
    let mut merged = current
        .map(|m| serde_json::to_value(m).expect("serialisable"))
        .unwrap_or_else(|| json!({}));
    if let Some(Value::Object(changes)) = raw {
        merged.as_object_mut().expect("object").extend(changes);
    } else if raw.is_some() {
        return Err(Invalid::new("meta", ErrorCode::MustBeObject, "meta must be an object").into());
    }
    let meta: CollectionMeta = serde_json::from_value(merged).map_err(|e| {
        ApiError::invalid(
            "meta",
            ErrorCode::CollectionSettingsInvalid,
            format!("Invalid collection settings: {e}"),
        )
        .param("detail", e.to_string())
    })?;
    let plural = required("plural", Some(&meta.plural), "Plural is required")?;
    let singular = required("singular", Some(&meta.singular), "Singular is required")?;
    let key_ok = |k: &str| match OrderKey::parse(k) {
        Some(OrderKey::Field(id)) => fields.iter().any(|f| f.id == id),
        Some(_) => true,
        None => false,
    };
    let dir_ok = |d: &str| d == "asc" || d == "desc";
    if !key_ok(&meta.order_field) || !dir_ok(&meta.order_dir) {
        return Err(ApiError::invalid(
            "orderField",
            ErrorCode::CollectionOrderInvalid,
            "Order by created_at, updated_at, name, slug or one of the fields, asc or desc",
        ));
    }
    let order_field2 = meta.order_field2.clone().filter(|s| !s.is_empty());
    if let Some(f2) = &order_field2
        && (!key_ok(f2) || !dir_ok(meta.order_dir2.as_deref().unwrap_or("desc")))
    {
        return Err(ApiError::invalid(
            "orderField2",
            ErrorCode::CollectionOrderInvalid,
            "Invalid second order key",
        ));
    }
    Ok(CollectionMeta {
        plural,
        singular,
        order_field2,
        ..meta
    })
}

async fn table_view(state: &AppState, c: &Collection) -> Result<TableView> {
    Ok(TableView::new(
        c,
        &state.store.collection_fields(c.id).await?,
    ))
}

async fn collection_slug(
    state: &AppState,
    project_id: ProjectId,
    raw: Option<&str>,
    name: &str,
    except: Option<CollectionId>,
) -> Result<String> {
    let slug = slugify(raw.filter(|s| !s.trim().is_empty()).unwrap_or(name));
    if slug.is_empty() {
        return Err(Invalid::new("slug", ErrorCode::Required, "Slug is required").into());
    }
    if raw.is_some_and(|s| !s.trim().is_empty()) {
        Ok(slug)
    } else {
        Ok(state
            .store
            .free_collection_slug(project_id, &slug, except)
            .await?)
    }
}

/// 409 `collection_name_taken` when a collection of the project other than `except` is called
/// `name` already (ignoring case and surrounding spaces): the owner tells collections apart by
/// name in every list and picker.
async fn ensure_name_free(
    state: &AppState,
    project_id: ProjectId,
    name: &str,
    except: Option<CollectionId>,
) -> Result<()> {
    let wanted = name.trim().to_lowercase();
    let taken = state
        .store
        .project_collections(project_id)
        .await?
        .iter()
        .any(|c| Some(c.id) != except && c.name.trim().to_lowercase() == wanted);
    if taken {
        return Err(ApiError::conflict(
            "name",
            ErrorCode::CollectionNameTaken,
            "Another collection of this project already has this name",
        ));
    }
    Ok(())
}

#[utoipa::path(get, path = "/api/tables/{id}", tag = "collections",
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, body = TableView), (status = 404, body = ErrorBody)))]
pub async fn get_table(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<CollectionId>,
) -> Result<ApiJson<TableView>> {
    authorize_collection_records(&state, &principal, id).await?;
    let c = state.store.collection_by_id(id).await?;
    Ok(ApiJson(table_view(&state, &c).await?))
}

#[utoipa::path(post, path = "/api/tables", tag = "collections", request_body = TableInput,
    responses((status = 201, body = TableView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_table(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<TableInput>,
) -> Result<impl IntoResponse> {
    let project_id = req.project_id.ok_or_else(|| {
        ApiError::invalid("project_id", ErrorCode::Required, "project_id is required")
    })?;
    authorize_project(&state, &user, project_id).await?;
    let name = required("name", req.name.as_deref(), "Name is required")?;
    ensure_name_free(&state, project_id, &name, None).await?;
    let meta = parse_meta(req.meta, None, &[])?;
    let slug = collection_slug(&state, project_id, req.slug.as_deref(), &name, None).await?;
    let c = state
        .store
        .insert_collection(
            project_id,
            &name,
            &slug,
            &serde_json::to_value(&meta).expect("meta"),
        )
        .await?;
    Ok((StatusCode::CREATED, ApiJson(table_view(&state, &c).await?)))
}

#[utoipa::path(post, path = "/api/tables/{id}", tag = "collections", request_body = TableInput,
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, body = TableView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_table(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CollectionId>,
    ApiJson(req): ApiJson<TableInput>,
) -> Result<ApiJson<TableView>> {
    let project_id = authorize_collection(&state, &user, id).await?;
    let current = state.store.collection_by_id(id).await?;
    let fields = state.store.collection_fields(id).await?;
    let name = match req.name {
        Some(n) => required("name", Some(&n), "Name is required")?,
        None => current.name.clone(),
    };
    ensure_name_free(&state, project_id, &name, Some(id)).await?;
    let slug = match req.slug {
        Some(s) => collection_slug(&state, project_id, Some(&s), &name, Some(id)).await?,
        None => current.slug.clone(),
    };
    let meta = parse_meta(req.meta, Some(&CollectionMeta::of(&current)), &fields)?;
    let c = state
        .store
        .update_collection(
            id,
            &name,
            &slug,
            &serde_json::to_value(&meta).expect("meta"),
        )
        .await?;
    Ok(ApiJson(TableView::new(&c, &fields)))
}

#[utoipa::path(delete, path = "/api/tables/{id}", tag = "collections",
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_table(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<CollectionId>,
) -> Result<StatusCode> {
    authorize_collection(&state, &user, id).await?;
    state.store.delete_collection(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---- fields -------------------------------------------------------------------------------

#[derive(Debug, Deserialize, ToSchema)]
pub struct FieldRequest {
    #[schema(value_type = Option<i64>)]
    pub table_id: Option<CollectionId>,
    pub name: Option<String>,
    pub slug: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// '1' (or true) when required.
    #[schema(value_type = Option<String>)]
    pub required: Option<Value>,
    #[schema(value_type = Option<Vec<Object>>)]
    pub options: Option<Value>,
    #[schema(value_type = Option<Object>)]
    pub meta: Option<Value>,
}

fn flag(v: &Option<Value>) -> Result<bool> {
    Ok(match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if s == "1" || s == "true" => true,
        Some(Value::String(s)) if s == "0" || s == "false" || s.is_empty() => false,
        Some(Value::Number(n)) if n.as_i64() == Some(1) => true,
        Some(Value::Number(n)) if n.as_i64() == Some(0) => false,
        _ => {
            return Err(ApiError::invalid(
                "required",
                ErrorCode::NotAFlag,
                "required must be '1' or '0'",
            ));
        }
    })
}

/// Validates a field definition; relation targets must be collections of the same project.
async fn field_input(
    state: &AppState,
    project_id: ProjectId,
    req: FieldRequest,
) -> Result<(FieldInput, Option<String>)> {
    let name = required("name", req.name.as_deref(), "Name is required")?;
    let kind_raw = req
        .kind
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::invalid("type", ErrorCode::Required, "Type is required"))?;
    let kind = FieldType::parse(kind_raw).ok_or_else(|| {
        ApiError::invalid(
            "type",
            ErrorCode::FieldTypeUnknown,
            format!("Unknown field type {kind_raw:?}"),
        )
        .param("type", kind_raw)
    })?;
    let options: Vec<FieldOption> = match req.options {
        None | Some(Value::Null) => vec![],
        Some(v) => serde_json::from_value(v).map_err(|_| {
            ApiError::invalid(
                "options",
                ErrorCode::OptionsInvalid,
                "options must be a list of {name, image?}",
            )
        })?,
    };
    let mut seen = std::collections::HashSet::new();
    for o in &options {
        if o.name.trim().is_empty() || o.name.len() > 200 {
            return Err(ApiError::invalid(
                "options",
                ErrorCode::OptionNameRequired,
                "Every option needs a name",
            ));
        }
        if !seen.insert(o.name.as_str()) {
            return Err(ApiError::invalid(
                "options",
                ErrorCode::OptionRepeated,
                format!("Option {:?} is repeated", o.name),
            )
            .param("option", o.name.clone()));
        }
    }
    if kind.has_options() && options.is_empty() {
        return Err(ApiError::invalid(
            "options",
            ErrorCode::OptionsEmpty,
            "Add at least one option",
        ));
    }
    let meta: FieldMeta = match req.meta {
        None | Some(Value::Null) => FieldMeta::default(),
        Some(v) => serde_json::from_value(v).map_err(|e| {
            ApiError::invalid(
                "meta",
                ErrorCode::FieldSettingsInvalid,
                format!("Invalid field settings: {e}"),
            )
            .param("detail", e.to_string())
        })?,
    };
    if kind == FieldType::Relation {
        let target = meta.table.ok_or_else(|| {
            ApiError::invalid(
                "meta.table",
                ErrorCode::RelationRequired,
                "The relation collection is required",
            )
        })?;
        match state.store.collection_project_id(target).await {
            Ok(p) if p == project_id => {}
            _ => {
                return Err(ApiError::invalid(
                    "meta.table",
                    ErrorCode::RelationRequired,
                    "The relation collection is required",
                ));
            }
        }
    }
    if let Some(f) = &meta.format
        && !CURRENCY_FORMATS.contains(&f.as_str())
    {
        return Err(ApiError::invalid(
            "meta.format",
            ErrorCode::CurrencyFormatUnknown,
            "Unknown currency format",
        ));
    }
    if meta
        .symbol
        .as_deref()
        .is_some_and(|s| s.chars().count() > 8)
        || meta
            .delimiter
            .as_deref()
            .is_some_and(|d| d.chars().count() != 1)
    {
        return Err(ApiError::invalid(
            "meta",
            ErrorCode::CurrencySymbolInvalid,
            "The currency symbol has at most 8 characters and the delimiter is one character",
        ));
    }
    let input = FieldInput {
        name,
        slug: String::new(),
        kind: kind.as_str().to_string(),
        required: flag(&req.required)?,
        options: serde_json::to_value(options).expect("options"),
        meta: serde_json::to_value(meta).expect("meta"),
    };
    Ok((input, req.slug))
}

async fn field_slug(
    state: &AppState,
    collection_id: CollectionId,
    requested: Option<&str>,
    name: &str,
    except: Option<FieldId>,
) -> Result<String> {
    let explicit = requested.is_some_and(|s| !s.trim().is_empty());
    // The spec's slug normalisation, as for records and pages.
    let slug = slugify(if explicit {
        requested.unwrap_or_default()
    } else {
        name
    });
    if slug.is_empty()
        || ["name", "slug", "created_at", "updated_at", "id"].contains(&slug.as_str())
    {
        return Err(ApiError::invalid(
            "slug",
            ErrorCode::SlugReserved,
            "Choose another slug: this one is empty or reserved",
        ));
    }
    if explicit {
        Ok(slug)
    } else {
        Ok(state
            .store
            .free_field_slug(collection_id, &slug, except)
            .await?)
    }
}

#[utoipa::path(post, path = "/api/fields", tag = "collections", request_body = FieldRequest,
    responses((status = 201, body = FieldView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_field(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<FieldRequest>,
) -> Result<impl IntoResponse> {
    let table_id = req.table_id.ok_or_else(|| {
        ApiError::invalid("table_id", ErrorCode::Required, "table_id is required")
    })?;
    let project_id = authorize_collection(&state, &user, table_id).await?;
    let (mut input, slug) = field_input(&state, project_id, req).await?;
    input.slug = field_slug(&state, table_id, slug.as_deref(), &input.name, None).await?;
    let field = state.store.insert_field(table_id, &input).await?;
    Ok((StatusCode::CREATED, ApiJson(FieldView::from(&field))))
}

#[utoipa::path(post, path = "/api/fields/{id}", tag = "collections", request_body = FieldRequest,
    params(("id" = i64, Path, description = "Field id")),
    responses((status = 200, body = FieldView), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_field(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<FieldId>,
    ApiJson(req): ApiJson<FieldRequest>,
) -> Result<ApiJson<FieldView>> {
    let current = state.store.field_by_id(id).await?;
    let project_id = authorize_collection(&state, &user, current.collection_id).await?;
    let (mut input, slug) = field_input(&state, project_id, req).await?;
    input.slug = match slug.filter(|s| !s.trim().is_empty()) {
        Some(s) => {
            field_slug(
                &state,
                current.collection_id,
                Some(&s),
                &input.name,
                Some(id),
            )
            .await?
        }
        None => current.slug.clone(),
    };
    Ok(ApiJson(FieldView::from(
        &state.store.update_field(id, &input).await?,
    )))
}

#[utoipa::path(delete, path = "/api/fields/{id}", tag = "collections",
    params(("id" = i64, Path, description = "Field id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_field(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<FieldId>,
) -> Result<StatusCode> {
    let current = state.store.field_by_id(id).await?;
    authorize_collection(&state, &user, current.collection_id).await?;
    state.store.delete_field(id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReorderRequest {
    /// Field ids in their new order (or objects with an `id`).
    #[schema(value_type = Vec<i64>)]
    pub fields: Vec<Value>,
}

#[utoipa::path(post, path = "/api/fields/reorder", tag = "collections", request_body = ReorderRequest,
    responses((status = 204), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn reorder_fields(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<ReorderRequest>,
) -> Result<StatusCode> {
    let ids: Vec<FieldId> = req
        .fields
        .iter()
        .map(|v| {
            v.as_i64()
                .or_else(|| v.get("id").and_then(Value::as_i64))
                .map(FieldId)
        })
        .collect::<Option<_>>()
        .ok_or_else(|| {
            ApiError::invalid(
                "fields",
                ErrorCode::MustBeList,
                "fields must be a list of field ids",
            )
        })?;
    let first = *ids.first().ok_or_else(|| {
        ApiError::invalid("fields", ErrorCode::FieldsEmpty, "fields must not be empty")
    })?;
    let collection_id = state.store.field_by_id(first).await?.collection_id;
    authorize_collection(&state, &user, collection_id).await?;
    if ids.iter().collect::<std::collections::HashSet<_>>().len() != ids.len() {
        return Err(ApiError::invalid(
            "fields",
            ErrorCode::FieldRepeated,
            "A field appears twice",
        ));
    }
    // Every id must belong to the same collection; the store refuses (404) otherwise.
    state.store.reorder_fields(collection_id, &ids).await?;
    Ok(StatusCode::NO_CONTENT)
}
