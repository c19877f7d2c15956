//! Import and export of a collection's records as CSV or JSON.
//!
//! Export streams keyset pages of 1,000 posts, so memory stays flat whatever the size. Import
//! reads exactly what export writes (columns `name`, `slug`, `created_at`, then one per field
//! slug; lists as JSON in CSV cells; relations as the target's slug), validates every row
//! with the same rules as the record form, and writes all rows in one transaction or none. By
//! default a row whose slug names a stored record updates it ("upsert by slug", as Webflow's
//! and Directus's imports do), so an export edited in a spreadsheet goes back in; `mode:
//! "insert"` inserts only.
//! Text in a CSV export that starts like a spreadsheet formula (`=`, `+`, `-`, `@`, tab, CR)
//! is marked with a leading `'` (OWASP's defence against CSV injection), and import takes the
//! mark off, so a file goes round unchanged; numbers (currency in cents) are not marked. A CSV
//! export follows each currency field's column (cents) with `<slug>:formatted` ("R$ 42,00", in
//! the field's format), for the people who read the sheet; an import skips that column.
//! CSV is read and written with the `csv` crate (BurntSushi's RFC 4180 reader, the standard
//! choice in Rust: quoting, embedded newlines and ragged rows handled correctly).

use std::{collections::HashMap, sync::Arc};

use axum::{
    body::Body,
    extract::State,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::{
    fields::{FieldType, csv_cell, csv_text, csv_text_read},
    store::Post,
    values::format_value,
};

use crate::{
    authz::{Principal, authorize_collection_records},
    error::Problem,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    records::{Draft, Schema, WriteMode, write_drafts},
    state::AppState,
};

/// Which column of a file a header names.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    Name,
    Slug,
    CreatedAt,
    Field(usize),
    /// A currency field's formatted column (`preco:formatted`, "R$ 42,00"), which a CSV export
    /// writes for people reading the sheet: an import reads the cents and skips it.
    Formatted(usize),
}

/// The suffix of a currency field's formatted column in a CSV export. A field slug cannot hold
/// `:`, so no field's own column ends so.
const FORMATTED: &str = ":formatted";

fn column_of(schema: &Schema, header: &str) -> Option<Column> {
    match header.trim() {
        "name" | "title" | "nome" | "titulo" | "título" => Some(Column::Name),
        "slug" => Some(Column::Slug),
        "created_at" => Some(Column::CreatedAt),
        other => match other.strip_suffix(FORMATTED) {
            Some(base) => schema
                .column(base)
                .filter(|i| schema.fields[*i].kind == FieldType::Currency)
                .map(Column::Formatted),
            None => schema.column(other).map(Column::Field),
        },
    }
}

/// A CSV export's headers: the fixed columns, then each field's slug (a currency field's
/// followed by its formatted column).
fn headers(schema: &Schema) -> Vec<String> {
    let mut h = vec!["name".to_string(), "slug".into(), "created_at".into()];
    for f in &schema.fields {
        h.push(f.slug.clone());
        if f.kind == FieldType::Currency {
            h.push(format!("{}{FORMATTED}", f.slug));
        }
    }
    h
}

/// Everything an export needs besides the posts: the schema, and for relation fields the
/// slugs of their targets' posts (relations are written as slugs so files move between sites).
struct ExportPlan {
    schema: Schema,
    relation_slugs: HashMap<i64, HashMap<i64, String>>,
}

impl ExportPlan {
    async fn load(state: &AppState, table_id: i64) -> Result<ExportPlan> {
        let schema = Schema::load(state, table_id).await?;
        let mut relation_slugs = HashMap::new();
        for f in schema
            .fields
            .iter()
            .filter(|f| f.kind == FieldType::Relation)
        {
            if let Some(target) = f.meta.table
                && !relation_slugs.contains_key(&target)
            {
                let map = state
                    .store
                    .post_slugs(target)
                    .await?
                    .into_iter()
                    .map(|(slug, id)| (id, slug))
                    .collect();
                relation_slugs.insert(target, map);
            }
        }
        Ok(ExportPlan {
            schema,
            relation_slugs,
        })
    }

    /// The post's values in export order, relations as slugs.
    fn values(&self, post: &Post) -> Vec<Value> {
        self.schema
            .fields
            .iter()
            .map(|f| {
                let v = post
                    .data
                    .0
                    .get(&f.id.to_string())
                    .cloned()
                    .unwrap_or(Value::Null);
                match (f.kind, f.meta.table, &v) {
                    (FieldType::Relation, Some(t), Value::Number(n)) => n
                        .as_i64()
                        .and_then(|id| self.relation_slugs.get(&t)?.get(&id))
                        .map(|s| Value::String(s.clone()))
                        .unwrap_or(v),
                    _ => v,
                }
            })
            .collect()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Csv,
    Json,
}

struct Cursor {
    state: AppState,
    plan: Arc<ExportPlan>,
    format: Format,
    after: i64,
    started: bool,
    finished: bool,
    first_row: bool,
    bom: bool,
}

fn csv_line(fields: &[String]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(fields);
    w.into_inner().unwrap_or_default()
}

async fn next_chunk(mut c: Cursor) -> Option<(std::io::Result<Bytes>, Cursor)> {
    if c.finished {
        return None;
    }
    let mut out = Vec::new();
    if !c.started {
        c.started = true;
        match c.format {
            Format::Csv => {
                if c.bom {
                    out.extend_from_slice(b"\xEF\xBB\xBF");
                }
                out.extend(csv_line(&headers(&c.plan.schema)))
            }
            Format::Json => out.push(b'['),
        }
    }
    let posts = match c
        .state
        .store
        .posts_after(c.plan.schema.collection.id, c.after, 1000)
        .await
    {
        Ok(p) => p,
        Err(e) => {
            tracing::error!(error = %e, "export failed midway");
            c.finished = true;
            return Some((Err(std::io::Error::other(e.to_string())), c));
        }
    };
    if posts.is_empty() {
        c.finished = true;
        if c.format == Format::Json {
            out.extend_from_slice(b"]\n");
        }
    }
    for post in &posts {
        c.after = post.id;
        let values = c.plan.values(post);
        match c.format {
            Format::Csv => {
                let mut row = vec![
                    csv_text(&post.name).into_owned(),
                    csv_text(&post.slug).into_owned(),
                    post.created_at.to_rfc3339(),
                ];
                for (f, v) in c.plan.schema.fields.iter().zip(&values) {
                    row.push(csv_cell(v));
                    if f.kind == FieldType::Currency {
                        let shown = format_value(f.kind, &f.meta, v);
                        row.push(shown.as_ref().map(csv_cell).unwrap_or_default());
                    }
                }
                out.extend(csv_line(&row));
            }
            Format::Json => {
                let mut obj = Map::new();
                obj.insert("name".into(), Value::String(post.name.clone()));
                obj.insert("slug".into(), Value::String(post.slug.clone()));
                obj.insert(
                    "created_at".into(),
                    Value::String(post.created_at.to_rfc3339()),
                );
                for (f, v) in c.plan.schema.fields.iter().zip(values) {
                    obj.insert(f.slug.clone(), v);
                }
                if !c.first_row {
                    out.push(b',');
                }
                c.first_row = false;
                out.push(b'\n');
                out.extend(serde_json::to_vec(&Value::Object(obj)).unwrap_or_default());
            }
        }
    }
    Some((Ok(Bytes::from(out)), c))
}

/// The options of a CSV export.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CsvOptions {
    /// Starts the file with a UTF-8 byte order mark, so that Excel reads accents right (its
    /// default for a .csv without one is the system's legacy code page). Import drops it.
    #[serde(default)]
    pub bom: bool,
}

async fn export(
    state: AppState,
    principal: Principal,
    table_id: i64,
    format: Format,
    bom: bool,
) -> Result<Response> {
    authorize_collection_records(&state, &principal, table_id).await?;
    let plan = Arc::new(ExportPlan::load(&state, table_id).await?);
    let filename = format!(
        "{}.{}",
        plan.schema.collection.slug,
        if format == Format::Csv { "csv" } else { "json" }
    );
    let cursor = Cursor {
        state,
        plan,
        format,
        after: 0,
        started: false,
        finished: false,
        first_row: true,
        bom,
    };
    let body = Body::from_stream(futures::stream::unfold(cursor, next_chunk));
    let mut response = body.into_response();
    let h = response.headers_mut();
    let content_type = if format == Format::Csv {
        "text/csv; charset=utf-8"
    } else {
        "application/json"
    };
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

#[utoipa::path(get, path = "/api/tables/{id}/export/csv", tag = "records",
    params(("id" = i64, Path, description = "Collection id"), CsvOptions),
    responses((status = 200, description = "CSV, streamed", content_type = "text/csv"), (status = 404, body = ErrorBody)))]
pub async fn export_csv(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(options): ApiQuery<CsvOptions>,
) -> Result<Response> {
    export(state, principal, id, Format::Csv, options.bom).await
}

#[utoipa::path(get, path = "/api/tables/{id}/export/json", tag = "records",
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, description = "JSON array, streamed", content_type = "application/json"), (status = 404, body = ErrorBody)))]
pub async fn export_json(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<i64>,
) -> Result<Response> {
    export(state, principal, id, Format::Json, false).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ImportRequest {
    /// The file's name; its extension (.csv or .json) decides the format.
    pub name: String,
    /// The file as a data URL.
    pub content: String,
    /// `upsert` (the default): a row whose slug names a stored record updates it, the others
    /// are inserted; `insert`: every row is a new record, and a stored slug is a problem.
    #[serde(default)]
    pub mode: WriteMode,
}

/// One row of a file, before validation.
pub struct RawRow {
    pub row: usize,
    pub name: String,
    pub slug: String,
    pub created_at: Option<String>,
    pub cells: Vec<(usize, Value)>,
}

/// Decodes a data URL into UTF-8 text (a BOM is dropped); the line of the first invalid
/// byte is named otherwise.
pub fn decode_text(content: &str, max: u64) -> Result<String> {
    let bytes = decode_data_url(content, max)?;
    let bytes = bytes
        .strip_prefix(b"\xEF\xBB\xBF")
        .map(<[u8]>::to_vec)
        .unwrap_or(bytes);
    let line_at =
        |bytes: &[u8], end: usize| bytes[..end].iter().filter(|b| **b == b'\n').count() + 1;
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = line_at(e.as_bytes(), e.utf8_error().valid_up_to());
        ApiError::from(vec![Problem::new(
            Some(line),
            None,
            ErrorCode::ImportNotUtf8,
            "The file is not UTF-8 text",
        )])
    })?;
    // Stored text cannot hold a NUL (see `crate::nul`): the whole file is refused.
    if let Some(at) = text.find('\0') {
        return Err(ApiError::from(vec![Problem::new(
            Some(line_at(text.as_bytes(), at)),
            None,
            ErrorCode::ImportNul,
            NUL_IN_FILE,
        )]));
    }
    Ok(text)
}

/// The bytes of a file sent as a data URL (`content`) of at most `max` bytes. A data URL's
/// payload is about 4/3 the size of the file, so one far over the limit is refused before it is
/// decoded.
pub fn decode_data_url(content: &str, max: u64) -> Result<Vec<u8>> {
    if content.len() as u64 > max / 3 * 4 + 1024 {
        return Err(file_too_large(max));
    }
    let url = data_url::DataUrl::process(content).map_err(|_| {
        ApiError::invalid(
            "content",
            ErrorCode::DataUrlInvalid,
            "content must be a data URL",
        )
    })?;
    let (bytes, _) = url.decode_to_vec().map_err(|_| {
        ApiError::invalid(
            "content",
            ErrorCode::Base64Invalid,
            "content is not valid base64",
        )
    })?;
    if bytes.len() as u64 > max {
        return Err(file_too_large(max));
    }
    Ok(bytes)
}

/// A column that matches no field.
fn unknown_column(row: Option<usize>, header: &str) -> Problem {
    Problem::new(
        row,
        Some(header),
        ErrorCode::ImportColumnUnknown,
        format!("Unknown column {header:?}: it matches no field slug or name"),
    )
    .param("column", header)
}

/// A file over the size limit of `max` bytes (imports and uploads).
pub fn file_too_large(max: u64) -> ApiError {
    let mb = max / (1024 * 1024);
    ApiError::too_large(
        ErrorCode::FileTooLarge,
        format!("The file is too large ({mb} MB at most)"),
    )
    .param("mb", mb)
}

/// What an import says about a NUL character in its file.
const NUL_IN_FILE: &str = "The file contains the NUL character (U+0000), which text cannot hold";

/// Maps a header to a column, or reports it.
fn header_columns(schema: &Schema, headers: &[String]) -> Result<Vec<Column>> {
    let mut columns = Vec::new();
    let mut problems = Vec::new();
    for h in headers {
        match column_of(schema, h) {
            Some(c) if columns.contains(&c) => problems.push(
                Problem::new(
                    None,
                    Some(h),
                    ErrorCode::ImportColumnTwice,
                    format!("Column {h:?} appears twice"),
                )
                .param("column", h.clone()),
            ),
            Some(c) => columns.push(c),
            None => problems.push(unknown_column(None, h)),
        }
    }
    if problems.is_empty() {
        Ok(columns)
    } else {
        Err(ApiError::from(problems))
    }
}

fn raw_row(row: usize, columns: &[Column], values: Vec<Value>) -> RawRow {
    let mut r = RawRow {
        row,
        name: String::new(),
        slug: String::new(),
        created_at: None,
        cells: Vec::new(),
    };
    for (c, v) in columns.iter().zip(values) {
        let text = || match &v {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        };
        match c {
            Column::Name => r.name = text(),
            Column::Slug => r.slug = text(),
            Column::CreatedAt => r.created_at = Some(text()).filter(|s| !s.is_empty()),
            Column::Field(i) => r.cells.push((*i, v)),
            Column::Formatted(_) => {}
        }
    }
    r
}

pub fn parse_csv(schema: &Schema, text: &str) -> Result<Vec<RawRow>> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| {
            ApiError::from(vec![
                Problem::new(
                    Some(0),
                    None,
                    ErrorCode::ImportCsvMalformed,
                    format!("Malformed CSV header: {e}"),
                )
                .param("line", 1)
                .param("detail", e.to_string()),
            ])
        })?
        .iter()
        .map(String::from)
        .collect();
    let columns = header_columns(schema, &headers)?;
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| {
            let line = e.position().map(|p| p.line() as usize).unwrap_or(i + 2);
            ApiError::from(vec![
                Problem::new(
                    Some(i + 1),
                    None,
                    ErrorCode::ImportCsvMalformed,
                    format!("Malformed CSV at line {line}: {e}"),
                )
                .param("line", line)
                .param("detail", e.to_string()),
            ])
        })?;
        let values = record
            .iter()
            .map(|s| Value::String(csv_text_read(s).to_string()))
            .collect();
        rows.push(raw_row(i + 1, &columns, values));
    }
    Ok(rows)
}

pub fn parse_json(schema: &Schema, text: &str) -> Result<Vec<RawRow>> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        ApiError::from(vec![
            Problem::new(
                Some(e.line()),
                None,
                ErrorCode::ImportJsonMalformed,
                format!(
                    "Malformed JSON at line {}, column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
            .param("line", e.line())
            .param("column", e.column())
            .param("detail", e.to_string()),
        ])
    })?;
    let items = value.as_array().ok_or_else(|| {
        ApiError::invalid(
            "content",
            ErrorCode::ImportNotList,
            "A JSON import is a list of objects",
        )
    })?;
    let mut rows = Vec::with_capacity(items.len());
    let mut known: HashMap<String, Column> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let obj = item.as_object().ok_or_else(|| {
            ApiError::from(vec![Problem::new(
                Some(i + 1),
                None,
                ErrorCode::ImportRowNotObject,
                "Each row must be an object",
            )])
        })?;
        // JSON writes a NUL as the escape `\u0000`, which decoding the file did not see.
        if let Some(path) = crate::nul::nul_path(item) {
            return Err(ApiError::from(vec![Problem::new(
                Some(i + 1),
                Some(&path),
                ErrorCode::ImportNul,
                NUL_IN_FILE,
            )]));
        }
        let mut columns = Vec::with_capacity(obj.len());
        let mut values = Vec::with_capacity(obj.len());
        for (k, v) in obj {
            let column = match known.get(k) {
                Some(c) => *c,
                None => {
                    let c = column_of(schema, k)
                        .ok_or_else(|| ApiError::from(vec![unknown_column(Some(i + 1), k)]))?;
                    known.insert(k.clone(), c);
                    c
                }
            };
            columns.push(column);
            values.push(v.clone());
        }
        rows.push(raw_row(i + 1, &columns, values));
    }
    Ok(rows)
}

/// Validates every row (CPU only): the drafts with whether each slug was given, or the first
/// problems in row order.
pub fn validate_rows(schema: &Schema, rows: Vec<RawRow>) -> Result<(Vec<Draft>, Vec<bool>)> {
    const MAX_PROBLEMS: usize = 200;
    let mut problems = Vec::new();
    let mut drafts = Vec::with_capacity(rows.len());
    let mut explicit = Vec::with_capacity(rows.len());
    for r in rows {
        if problems.len() >= MAX_PROBLEMS {
            break;
        }
        let created_at = match r.created_at.as_deref().map(DateTime::parse_from_rfc3339) {
            None => None,
            Some(Ok(t)) => Some(t.with_timezone(&Utc)),
            Some(Err(_)) => {
                problems.push(Problem::new(
                    Some(r.row),
                    Some("created_at"),
                    ErrorCode::ImportDateInvalid,
                    "created_at must be an RFC 3339 date",
                ));
                continue;
            }
        };
        let was_explicit = !r.slug.trim().is_empty();
        match schema.draft(Some(r.row), &r.name, &r.slug, r.cells, None) {
            Ok(mut d) => {
                d.created_at = created_at;
                drafts.push(d);
                explicit.push(was_explicit);
            }
            Err(p) => problems.extend(p),
        }
    }
    if problems.is_empty() {
        Ok((drafts, explicit))
    } else {
        Err(ApiError::from(problems))
    }
}

#[utoipa::path(post, path = "/api/tables/{id}/import", tag = "records", request_body = ImportRequest,
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, description = "How many records were written (inserted and updated)", body = u64),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn import(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<impl IntoResponse> {
    authorize_collection_records(&state, &principal, id).await?;
    let schema = Schema::load(&state, id).await?;
    let max_bytes = state.settings.import_max_bytes;
    // Decoding, parsing and validating 100,000 rows is half a second of CPU: it runs on a
    // blocking thread so that it never holds up the runtime's workers.
    let mode = req.mode;
    let (schema, drafts, explicit) = tokio::task::spawn_blocking(move || {
        let text = decode_text(&req.content, max_bytes)?;
        let lower = req.name.to_ascii_lowercase();
        let rows = if lower.ends_with(".json") {
            parse_json(&schema, &text)?
        } else if lower.ends_with(".csv") || lower.ends_with(".txt") {
            parse_csv(&schema, &text)?
        } else {
            return Err(ApiError::invalid(
                "name",
                ErrorCode::ImportFormat,
                "Import a .csv or .json file",
            ));
        };
        if rows.is_empty() {
            return Err(ApiError::invalid(
                "content",
                ErrorCode::ImportEmpty,
                "The file has no rows",
            ));
        }
        let (drafts, explicit) = validate_rows(&schema, rows)?;
        Ok((schema, drafts, explicit))
    })
    .await
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("import task: {e}")))??;
    let written = write_drafts(&state, &schema, drafts, explicit, mode, true).await?;
    Ok(ApiJson((written.inserted + written.updated) as u64))
}
