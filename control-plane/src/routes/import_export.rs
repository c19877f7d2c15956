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
//! mark off, so a file goes round unchanged; amounts are not marked.
//!
//! Files are read as spreadsheets save them: the encoding (UTF-8 with or without a byte order
//! mark, UTF-16 with one, else the legacy encoding chardetng guesses, Windows-1252 for what
//! Brazilian Excel saves) and the separator (`,` `;` tab) are detected (see
//! `vitrine_shared::fields::csv`). A CSV export writes a currency field's amounts as people
//! write them in the field's format, without the symbol (`1.234,56` in a `9.999,99` field),
//! and an import reads that column the same way (`59` is 59,00; `59,90`; `R$ 1.234,56`;
//! `1234.56`; rules at `vitrine_shared::fields::parse_amount`), so a price edited in the
//! spreadsheet is the price stored. JSON carries amounts as cents (numbers); text there is
//! read like a CSV cell. Exports made before wrote cents in the field's column followed by
//! `<slug>:formatted` ("R$ 42,00"): when a file has both, the formatted column is the amount
//! when filled, and the other is read as cents.
//!
//! An import is planned before it is written: `dryRun` answers what it would do (the counts of
//! inserted, updated, unchanged and refused rows, with each refused row's problems, the
//! detected encoding and separator, and the first rows as they will be stored) and writes
//! nothing; the real import answers the same, and writes nothing at all when a row is refused.
//! CSV is read and written with the `csv` crate (BurntSushi's RFC 4180 reader, the standard
//! choice in Rust: quoting, embedded newlines and ragged rows handled correctly).
//!
//! This module holds the calls and the column layout both directions share; `export_stream`
//! writes files and `import_rows` reads and validates them.

use std::sync::Arc;

use axum::{
    extract::State,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use tokio::sync::mpsc;
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::{
    fields::{FieldType, separator_name},
    ids::CollectionId,
    store::PostsStep,
};

use crate::{
    accounts::authz::{Principal, authorize_collection_records},
    error::{ApiError, ErrorBody, ErrorCode, FileBodyAnswers, Result},
    extract::{ApiJson, ApiPath, ApiQuery},
    records::{Planner, Schema, WriteMode},
    state::AppState,
    throttle::Key,
};

mod export_stream;
mod import_rows;
mod summary;

use export_stream::export;
use import_rows::{Validated, decode_text, parse_csv, parse_json, validate_chunks};
use summary::{FileInfo, Format, ImportSummary, PREVIEW_ROWS, all_problems, summary};

/// Which column of a file a header names.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Column {
    Name,
    Slug,
    CreatedAt,
    Field(usize),
    /// A currency field's formatted column (`preco:formatted`, "R$ 42,00"), which CSV exports
    /// wrote beside the cents before amounts were written readably: when filled, it is the
    /// amount.
    Formatted(usize),
}

/// The suffix of a currency field's formatted column in older CSV exports. A field slug cannot
/// hold `:`, so no field's own column ends so.
const FORMATTED: &str = ":formatted";

/// The column a header names: the title (`name`, `Nome`, `Título`… in any case), the slug,
/// the creation date, or a field by slug or name.
fn column_of(schema: &Schema, header: &str) -> Option<Column> {
    match header.trim().to_lowercase().as_str() {
        "name" | "title" | "nome" | "titulo" | "título" => return Some(Column::Name),
        "slug" => return Some(Column::Slug),
        "created_at" => return Some(Column::CreatedAt),
        _ => {}
    }
    let header = header.trim();
    match header.strip_suffix(FORMATTED) {
        Some(base) => schema
            .column(base)
            .filter(|i| schema.fields[*i].kind == FieldType::Currency)
            .map(Column::Formatted),
        None => schema.column(header).map(Column::Field),
    }
}

/// A CSV export's headers: the fixed columns, then each field's slug.
fn headers(schema: &Schema) -> Vec<String> {
    let mut h = vec!["name".to_string(), "slug".into(), "created_at".into()];
    h.extend(schema.fields.iter().map(|f| f.slug.clone()));
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
    ApiPath(id): ApiPath<CollectionId>,
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
    ApiPath(id): ApiPath<CollectionId>,
) -> Result<Response> {
    export(state, principal, id, Format::Json, false).await
}

/// How many imports one account (a business is one) runs at once. Each holds a blocking
/// thread, its file (up to `IMPORT_MAX_BYTES`) in memory and, while it writes, a database
/// connection, all shared with every other account: a third import waits its turn (429).
pub const IMPORTS_AT_ONCE: u32 = 2;
/// The wait an import refused for [`IMPORTS_AT_ONCE`] is told (`Retry-After`): about what a
/// 100,000-row import takes.
const IMPORTS_RETRY_SECS: u64 = 5;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportRequest {
    /// The file's name; its extension (.csv or .json) decides the format.
    pub name: String,
    /// The file as a data URL.
    pub content: String,
    /// `upsert` (the default): a row whose slug names a stored record updates it, the others
    /// are inserted; `insert`: every row is a new record, and a stored slug is a problem.
    #[serde(default)]
    pub mode: WriteMode,
    /// Reads, validates and plans the file and answers what the import would do, writing
    /// nothing: a preview. Refused rows are then counted and listed instead of refusing the
    /// file.
    #[serde(default)]
    pub dry_run: bool,
}

#[utoipa::path(post, path = "/api/tables/{id}/import", tag = "records", request_body = ImportRequest,
    params(("id" = i64, Path, description = "Collection id")),
    responses((status = 200, description = "What the import wrote, or with `dryRun` would write: the counts, how the file was read, and its first rows as they will be stored", body = ImportSummary),
        (status = 429, body = ErrorBody, description = "The account already runs `IMPORTS_AT_ONCE` (2) imports (`imports_running`, with `Retry-After`)"),
        FileBodyAnswers))]
pub async fn import(
    State(state): State<AppState>,
    principal: Principal,
    ApiPath(id): ApiPath<CollectionId>,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<impl IntoResponse> {
    let project_id = authorize_collection_records(&state, &principal, id).await?;
    let account = state
        .store
        .project_account(project_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let _running = state
        .at_once
        .start(Key::Imports(account), IMPORTS_AT_ONCE)
        .ok_or_else(|| {
            ApiError::too_many_requests(
                ErrorCode::ImportsRunning,
                format!(
                    "Your account is already running {IMPORTS_AT_ONCE} imports. Please try \
                     again in {IMPORTS_RETRY_SECS} seconds, when one has finished."
                ),
                IMPORTS_RETRY_SECS,
            )
            .param("count", IMPORTS_AT_ONCE)
        })?;
    let schema = Arc::new(Schema::load(&state, id).await?);
    let max_bytes = state.settings.import_max_bytes;
    let (mode, dry_run) = (req.mode, req.dry_run);
    // Three things run at once, each on its own: the file is decoded, parsed and validated
    // on a blocking thread (CPU only, half a second for 100,000 rows, never on the runtime's
    // workers), which hands its rows over in chunks; each chunk is planned here as it comes;
    // and its new posts go to the database's write while the next chunk is validated. Any
    // refused row stops the writing, and the write rolls back (all or nothing).
    let (chunks_in, mut chunks) = mpsc::channel::<Validated>(2);
    let reader = {
        let schema = schema.clone();
        tokio::task::spawn_blocking(move || read_file(&schema, req, chunks_in, max_bytes))
    };
    let (steps, steps_out) = mpsc::channel::<PostsStep>(2);
    let write = async {
        match dry_run {
            true => Ok(false),
            false => {
                state
                    .store
                    .write_posts_streamed(id, steps_out, state.settings.records_per_account)
                    .await
            }
        }
    };
    let planning = async {
        let mut planner = Planner::new(&state, &schema, mode, true, PREVIEW_ROWS).await?;
        let mut validated = Validated::default();
        while let Some(mut part) = chunks.recv().await {
            let drafts = std::mem::take(&mut part.drafts);
            let explicit = std::mem::take(&mut part.explicit);
            validated.absorb(part);
            let inserts = planner.plan(drafts, explicit).await?;
            let refused = !validated.refused.is_empty() || planner.refused_any();
            if !dry_run && !refused && !inserts.is_empty() {
                // A write that has stopped answers its own error below.
                let _ = steps.send(PostsStep::Insert(inserts)).await;
            }
        }
        let info = reader
            .await
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("import task: {e}")))??;
        let mut plan = planner.finish().await?;
        let (problems, refused) = all_problems(&mut validated, &mut plan);
        if !dry_run && !problems.is_empty() {
            // All or nothing: a file with a refused row writes nothing (dropping the steps
            // rolls the write back).
            return Err(ApiError::from(problems));
        }
        // A file that changes nothing writes nothing (not even a change for the edge).
        let writes = !dry_run && (plan.inserted() > 0 || plan.updated() > 0);
        let written = std::mem::take(&mut validated.written);
        let answer = summary(&schema, info, written, &plan, problems, refused, dry_run);
        if writes {
            let _ = steps.send(PostsStep::Finish(plan.take_updates())).await;
        }
        drop(steps);
        Ok((answer, writes))
    };
    let (wrote, planned) = tokio::join!(write, planning);
    let (answer, writes) = planned?;
    if writes && !wrote? {
        return Err(ApiError::Internal(anyhow::anyhow!(
            "import write ended unfinished"
        )));
    }
    Ok(ApiJson(answer))
}

/// Reads an import's file: decodes it, parses it by its name's format, and validates its rows
/// in chunks as they are read, sent to `chunks` in row order (see [`validate_chunks`]).
/// Answers how the file was read, or why it cannot be: a bad file before any chunk, a
/// malformed row after the chunks before it (the import then writes nothing).
fn read_file(
    schema: &Schema,
    req: ImportRequest,
    chunks: mpsc::Sender<Validated>,
    max_bytes: u64,
) -> Result<FileInfo> {
    let file = decode_text(&req.content, max_bytes)?;
    drop(req.content);
    let lower = req.name.to_ascii_lowercase();
    let (rows, format, separator): (Box<dyn Iterator<Item = Result<_>>>, _, _) =
        if lower.ends_with(".json") {
            let rows = parse_json(schema, &file.text)?;
            (Box::new(rows.into_iter().map(Ok)), Format::Json, None)
        } else if lower.ends_with(".csv") || lower.ends_with(".txt") {
            let (rows, sep) = parse_csv(schema, &file.text)?;
            (Box::new(rows), Format::Csv, Some(separator_name(sep)))
        } else {
            return Err(ApiError::invalid(
                "name",
                ErrorCode::ImportFormat,
                "Import a .csv or .json file",
            ));
        };
    // A send fails only when the import has stopped listening (it failed, or its request
    // went away): the reading stops too.
    validate_chunks(schema, rows, PREVIEW_ROWS, |part| {
        chunks.blocking_send(part).is_ok()
    })?;
    Ok(FileInfo {
        format,
        encoding: file.encoding,
        bom: file.bom,
        separator,
    })
}
