//! An import's rows: the file decoded from its data URL, read as CSV or JSON into raw rows
//! by the columns its headers name, and every row validated with the record form's rules.
//! Problems name the row and the column.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::Value;
use vitrine_shared::fields::csv_text_read;

use super::{Column, column_of};
use crate::{
    error::{ApiError, ErrorCode, Problem, Result},
    extract::decode_data_url,
    records::{Draft, Schema},
};

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
