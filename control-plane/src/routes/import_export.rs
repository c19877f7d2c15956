//! Import and export of a collection's records as CSV or JSON.
//!
//! Export streams keyset pages of 1,000 records, so memory stays flat whatever the size. Import
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
//!
//! This module holds the calls and the column layout both directions share; `export_stream`
//! writes files and `import_rows` reads and validates them.

use axum::{
    extract::State,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::fields::FieldType;

use crate::{
    authz::{Principal, authorize_collection_records},
    error::{ApiError, ErrorBody, ErrorCode, FileBodyAnswers, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    records::{Schema, WriteMode, write_drafts},
    state::AppState,
};

mod export_stream;
mod import_rows;

use export_stream::{Format, export};
pub use import_rows::{RawRow, decode_text, parse_csv, parse_json, validate_rows};

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

/// The options of a CSV export.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CsvOptions {
    /// Starts the file with a UTF-8 byte order mark, so that Excel reads accents right (its
    /// default for a .csv without one is the system's legacy code page). Import drops it.
    #[serde(default)]
    pub bom: bool,
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

#[utoipa::path(post, path = "/api/tables/{id}/import", tag = "records", request_body = ImportRequest,
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, description = "How many records were written (inserted and updated)", body = u64),
        FileBodyAnswers))]
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
