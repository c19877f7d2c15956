//! Records (posts): read, create, update, delete, bulk delete, the paginated listing behind
//! the records screen and relation pickers, and the filtered query behind the editor's
//! database-fed lists.

use std::collections::HashSet;

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::ids::{CollectionId, FieldId, PostId, ProjectId};
use vitrine_shared::{
    record_lists::{DbRecord, ListQuery},
    store::{Post, now},
};

use crate::{
    accounts::authz::{Principal, authorize_collection_records, authorize_records},
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery, BulkDelete},
    records::{Schema, assign_slugs, resolve_relations},
    responses::{Deleted, FieldView, TableView},
    state::AppState,
};

#[derive(Debug, Serialize, ToSchema)]
pub struct FieldValue {
    #[schema(value_type = i64)]
    pub field_id: FieldId,
    /// Text, a number, a list or an object, as the field's type has it.
    pub value: Value,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PostView {
    #[schema(value_type = i64)]
    pub id: PostId,
    #[schema(value_type = i64)]
    pub table_id: CollectionId,
    pub name: String,
    pub slug: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// One entry per field, in the spec's `{field_id, value}` form.
    pub fields: Vec<FieldValue>,
}

impl PostView {
    pub fn new(p: &Post) -> Self {
        let mut fields: Vec<FieldValue> = p
            .data
            .0
            .iter()
            .filter_map(|(k, v)| {
                Some(FieldValue {
                    field_id: k.parse().ok()?,
                    value: v.clone(),
                })
            })
            .collect();
        fields.sort_by_key(|f| f.field_id);
        PostView {
            id: p.id,
            table_id: p.collection_id,
            name: p.name.clone(),
            slug: p.slug.clone(),
            created_at: p.created_at,
            updated_at: p.updated_at,
            fields,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PostRequest {
    #[schema(value_type = Option<i64>)]
    pub table_id: Option<CollectionId>,
    pub name: Option<String>,
    pub slug: Option<String>,
    /// `[{field_id, value}]`, or an object keyed by field id.
    #[schema(value_type = Option<Object>)]
    pub fields: Option<Value>,
}

/// `(field index, value)` cells from either accepted shape of `fields`.
fn cells(schema: &Schema, fields: Option<Value>) -> Result<Vec<(usize, Value)>> {
    let pairs: Vec<(FieldId, Value)> = match fields {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|item| {
                let id = item
                    .get("field_id")
                    .and_then(|v| v.as_i64().map(FieldId).or_else(|| v.as_str()?.parse().ok()));
                id.map(|id| (id, item.get("value").cloned().unwrap_or(Value::Null)))
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                ApiError::invalid(
                    "fields",
                    ErrorCode::MustBeList,
                    "fields must be a list of {field_id, value}",
                )
            })?,
        Some(Value::Object(map)) => map
            .into_iter()
            .map(|(k, v)| k.parse().ok().map(|id| (id, v)))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                ApiError::invalid(
                    "fields",
                    ErrorCode::MustBeList,
                    "fields must be keyed by field id",
                )
            })?,
        Some(_) => {
            return Err(ApiError::invalid(
                "fields",
                ErrorCode::MustBeList,
                "fields must be a list of {field_id, value}",
            ));
        }
    };
    pairs
        .into_iter()
        .map(|(id, v)| {
            schema
                .fields
                .iter()
                .position(|f| f.id == id)
                .map(|i| (i, v))
                .ok_or_else(|| {
                    ApiError::invalid(
                        "fields",
                        ErrorCode::FieldUnknown,
                        format!("Unknown field {id}"),
                    )
                    .param("id", id.get())
                })
        })
        .collect()
}

/// Validates, resolves relations and settles the slug of one record (create or update).
async fn prepare(
    state: &AppState,
    schema: &Schema,
    req: PostRequest,
    existing: Option<&Post>,
) -> Result<(String, String, Map<String, Value>)> {
    let cells = cells(schema, req.fields)?;
    let name = req
        .name
        .or_else(|| existing.map(|p| p.name.clone()))
        .unwrap_or_default();
    let slug = req
        .slug
        .or_else(|| existing.map(|p| p.slug.clone()))
        .unwrap_or_default();
    let explicit = !slug.trim().is_empty();
    let mut drafts = vec![
        schema
            .draft(None, &name, &slug, cells, existing.map(|p| &p.data.0))
            .map_err(ApiError::from)?,
    ];
    let problems = resolve_relations(state, schema, &mut drafts).await?;
    if !problems.is_empty() {
        return Err(ApiError::from(problems));
    }
    let mut taken: HashSet<String> = state
        .store
        .post_slugs(schema.collection.id)
        .await?
        .into_keys()
        .collect();
    if let Some(p) = existing {
        taken.remove(&p.slug);
    }
    // A slug collision on a single record gets a suffix (spec: unique per table).
    assign_slugs(&mut drafts, &mut taken, &[explicit], false);
    let d = drafts.pop().expect("one draft");
    Ok((d.name, d.slug, d.values))
}

#[utoipa::path(get, path = "/api/posts/{id}", tag = "records",
    params(("id" = i64, Path, description = "Record id")),
    responses((status = 200, body = PostView), (status = 404, body = ErrorBody)))]
pub async fn get_post(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<PostId>,
) -> Result<ApiJson<PostView>> {
    let post = state.store.post_by_id(id).await?;
    authorize_collection_records(&state, &principal, post.collection_id).await?;
    Ok(ApiJson(PostView::new(&post)))
}

#[utoipa::path(post, path = "/api/posts", tag = "records", request_body = PostRequest,
    responses((status = 201, body = PostView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_post(
    State(state): State<AppState>,
    principal: Principal,
    ApiJson(req): ApiJson<PostRequest>,
) -> Result<impl IntoResponse> {
    let table_id = req.table_id.ok_or_else(|| {
        ApiError::invalid("table_id", ErrorCode::Required, "table_id is required")
    })?;
    authorize_collection_records(&state, &principal, table_id).await?;
    let schema = Schema::load(&state, table_id).await?;
    let (name, slug, data) = prepare(&state, &schema, req, None).await?;
    let post = state
        .store
        .insert_post(
            table_id,
            &vitrine_shared::store::NewPost {
                name,
                slug,
                data,
                created_at: now(),
            },
            state.settings.records_per_account,
        )
        .await?;
    Ok((StatusCode::CREATED, ApiJson(PostView::new(&post))))
}

#[utoipa::path(post, path = "/api/posts/{id}", tag = "records", request_body = PostRequest,
    params(("id" = i64, Path, description = "Record id")),
    responses((status = 200, body = PostView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_post(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<PostId>,
    ApiJson(req): ApiJson<PostRequest>,
) -> Result<ApiJson<PostView>> {
    let existing = state.store.post_by_id(id).await?;
    authorize_collection_records(&state, &principal, existing.collection_id).await?;
    let schema = Schema::load(&state, existing.collection_id).await?;
    let (name, slug, data) = prepare(&state, &schema, req, Some(&existing)).await?;
    Ok(ApiJson(PostView::new(
        &state.store.update_post(id, &name, &slug, &data).await?,
    )))
}

#[utoipa::path(delete, path = "/api/posts/{id}", tag = "records",
    params(("id" = i64, Path, description = "Record id")),
    responses((status = 204), (status = 404, body = ErrorBody)))]
pub async fn delete_post(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<PostId>,
) -> Result<StatusCode> {
    let post = state.store.post_by_id(id).await?;
    authorize_collection_records(&state, &principal, post.collection_id).await?;
    state.store.delete_posts(&[id]).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes the selected posts the caller may edit; others are left alone.
#[utoipa::path(delete, path = "/api/posts", tag = "records", request_body = BulkDelete,
    responses((status = 200, body = Deleted), (status = 422, body = ErrorBody)))]
pub async fn delete_posts(
    State(state): State<AppState>,
    principal: Principal,
    ApiJson(req): ApiJson<BulkDelete>,
) -> Result<ApiJson<Deleted>> {
    let selected = req.selected("records")?;
    let mut allowed = Vec::new();
    let selected: Vec<PostId> = selected.iter().copied().map(PostId).collect();
    let mut checked: std::collections::HashMap<ProjectId, bool> = std::collections::HashMap::new();
    for (post_id, project_id) in state.store.posts_projects(&selected).await? {
        let ok = match checked.get(&project_id) {
            Some(ok) => *ok,
            None => {
                let ok = authorize_records(&state, &principal, project_id)
                    .await
                    .is_ok();
                checked.insert(project_id, ok);
                ok
            }
        };
        if ok {
            allowed.push(post_id);
        }
    }
    Ok(ApiJson(Deleted {
        deleted: state.store.delete_posts(&allowed).await?,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Page number from 1.
    pub page: Option<i64>,
    /// Posts per page (default 100, at most 1000).
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DataView {
    pub table: TableView,
    pub fields: Vec<FieldView>,
    pub posts: Vec<PostView>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

#[utoipa::path(get, path = "/api/data/{table_id}", tag = "records",
    params(("table_id" = i64, Path, description = "Collection id"), PageQuery),
    responses((status = 200, body = DataView), (status = 404, body = ErrorBody)))]
pub async fn table_data(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(table_id): ApiPath<CollectionId>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<ApiJson<DataView>> {
    authorize_collection_records(&state, &principal, table_id).await?;
    let page = q.page.unwrap_or(1);
    let limit = q.limit.unwrap_or(100);
    if page < 1 || !(1..=1000).contains(&limit) {
        return Err(ApiError::bad_request(
            ErrorCode::PageOutOfRange,
            "page starts at 1 and limit is between 1 and 1000",
        ));
    }
    let schema = Schema::load(&state, table_id).await?;
    let stored_fields = state.store.collection_fields(table_id).await?;
    let (posts, total) = state
        .store
        .posts_page(table_id, &schema.meta.order(), limit, (page - 1) * limit)
        .await?;
    let table = TableView::new(&schema.collection, &stored_fields);
    Ok(ApiJson(DataView {
        fields: stored_fields.iter().map(FieldView::from).collect(),
        table,
        posts: posts.iter().map(PostView::new).collect(),
        total,
        page,
        limit,
    }))
}

#[utoipa::path(get, path = "/api/project/{id}/db/{table}/data", tag = "records",
    params(("id" = i64, Path, description = "Project id"), ("table" = String, Path, description = "Collection id or slug"), ListQuery),
    responses((status = 200, body = Vec<DbRecord>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn db_data(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath((project_id, table)): ApiPath<(ProjectId, String)>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<ApiJson<Vec<DbRecord>>> {
    authorize_records(&state, &principal, project_id).await?;
    let collection = match table.parse::<CollectionId>() {
        Ok(id) => state.store.collection_by_id(id).await?,
        Err(_) => state.store.collection_by_slug(project_id, &table).await?,
    };
    if collection.project_id != project_id {
        return Err(ApiError::NotFound);
    }
    let fields = state.store.collection_fields(collection.id).await?;
    let records = state.store.list_records(&collection, &fields, &q).await?;
    Ok(ApiJson(records))
}
