//! An import's rows: the file decoded from its data URL (its encoding detected), read as CSV
//! (its separator detected) or JSON into raw rows by the columns its headers name, and every
//! row validated with the record form's rules, amounts read as people write them. Problems
//! name the row and the column.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};
use serde_json::Value;
use vitrine_shared::fields::{csv_text_read, decode_spreadsheet, detect_separator, file_cell};

use super::{Column, column_of};
use crate::{
    error::{ApiError, ErrorCode, Problem, Result},
    extract::decode_data_url,
    records::{Draft, Schema, value_problem},
};

/// One row of a file, before validation.
pub struct RawRow {
    pub row: usize,
    pub name: String,
    pub slug: String,
    pub created_at: Option<String>,
    pub cells: Vec<(usize, Value)>,
}

/// A file's text, and the encoding it was read in.
pub struct FileText {
    pub text: String,
    /// The encoding's name (`UTF-8`, `windows-1252`, `UTF-16LE`).
    pub encoding: &'static str,
    pub bom: bool,
}

/// Decodes a data URL into text: UTF-8 with or without a byte order mark, UTF-16 with one,
/// or the legacy encoding the file's bytes point to (Windows-1252 for Brazilian Excel's
/// CSV); see [`decode_spreadsheet`]. A file whose byte order mark promises what its bytes
/// are not is refused naming the line of the first bad byte.
pub fn decode_text(content: &str, max: u64) -> Result<FileText> {
    let bytes = decode_data_url(content, max)?;
    let line_at =
        |bytes: &[u8], end: usize| bytes[..end].iter().filter(|b| **b == b'\n').count() + 1;
    let decoded = decode_spreadsheet(&bytes).map_err(|e| {
        ApiError::from(vec![Problem::new(
            Some(line_at(&bytes, e.offset.min(bytes.len()))),
            None,
            ErrorCode::ImportNotUtf8,
            "The file is not text in the encoding its byte order mark names",
        )])
    })?;
    let text = decoded.text;
    // Stored text cannot hold a NUL (see `crate::nul`): the whole file is refused.
    if let Some(at) = text.find('\0') {
        return Err(ApiError::from(vec![Problem::new(
            Some(line_at(text.as_bytes(), at)),
            None,
            ErrorCode::ImportNul,
            NUL_IN_FILE,
        )]));
    }
    Ok(FileText {
        text,
        encoding: decoded.encoding,
        bom: decoded.bom,
    })
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

/// A row of values by column. A currency field's formatted column (`preco:formatted`, which
/// CSV exports wrote before amounts were written readably in the field's own column) is the
/// amount when it is not empty, and its field's column beside it then is the old export's
/// cents (`legacy` lists those fields): an edited readable price wins, and a file with only
/// the cents column filled still reads them as cents.
fn raw_row(row: usize, columns: &[Column], values: Vec<Value>, legacy: &[usize]) -> RawRow {
    let mut r = RawRow {
        row,
        name: String::new(),
        slug: String::new(),
        created_at: None,
        cells: Vec::new(),
    };
    let mut readable = Vec::new();
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
            Column::Field(i) if legacy.contains(i) => {
                let cents = v.as_str().and_then(|s| s.trim().parse::<i64>().ok());
                r.cells.push((*i, cents.map(Value::from).unwrap_or(v)));
            }
            Column::Field(i) => r.cells.push((*i, v)),
            Column::Formatted(i) => {
                if !text().trim().is_empty() {
                    readable.push((*i, v));
                }
            }
        }
    }
    r.cells
        .retain(|(i, _)| !readable.iter().any(|(j, _)| j == i));
    r.cells.extend(readable);
    r
}

/// Reads a CSV text in its separator ([`detect_separator`]); answers its rows, read one at a
/// time as they are taken (so the first rows are validated and written while the rest are
/// still to read), and the separator. A malformed header is refused at once; a malformed row
/// ends the rows with its error.
pub fn parse_csv<'t>(
    schema: &Schema,
    text: &'t str,
) -> Result<(impl Iterator<Item = Result<RawRow>> + 't, u8)> {
    let separator = detect_separator(text);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator)
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
    let legacy: Vec<usize> = columns
        .iter()
        .filter_map(|c| match c {
            Column::Formatted(i) if columns.contains(&Column::Field(*i)) => Some(*i),
            _ => None,
        })
        .collect();
    let rows = reader.into_records().enumerate().map(move |(i, record)| {
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
        Ok(raw_row(i + 1, &columns, values, &legacy))
    });
    Ok((rows, separator))
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
        rows.push(raw_row(i + 1, &columns, values, &[]));
    }
    Ok(rows)
}

/// A row as the file wrote it, for a preview.
pub struct WrittenRow {
    pub row: usize,
    pub name: String,
    pub slug: String,
    pub cells: Vec<(usize, Value)>,
}

/// Every row validated: the drafts with whether each slug was given, and the rows refused with
/// the first problems in row order.
#[derive(Default)]
pub struct Validated {
    pub drafts: Vec<Draft>,
    pub explicit: Vec<bool>,
    pub problems: Vec<Problem>,
    pub refused: BTreeSet<usize>,
    /// The first rows as written, up to the `keep` given to [`validate_chunks`].
    pub written: Vec<WrittenRow>,
}

/// The most problems an answer lists (every refused row is counted).
pub const MAX_PROBLEMS: usize = 200;

/// How many rows are validated at a time: an import plans and writes each chunk while the
/// next is validated (see the import's handler).
pub const CHUNK_ROWS: usize = 2_048;

impl Validated {
    /// Adds the next chunk's answer (rows after every row added so far): the problems stay in
    /// row order and capped as one list.
    pub fn absorb(&mut self, part: Validated) {
        self.drafts.extend(part.drafts);
        self.explicit.extend(part.explicit);
        let room = MAX_PROBLEMS.saturating_sub(self.problems.len());
        self.problems.extend(part.problems.into_iter().take(room));
        self.refused.extend(part.refused);
        self.written.extend(part.written);
    }
}

/// Validates every row (CPU only), [`CHUNK_ROWS`] at a time as `rows` yields them, handing
/// each chunk's answer to `each` in row order; stops early when `each` answers `false` (its
/// receiver is gone). A currency cell's text is read as people write amounts ([`file_cell`])
/// before the record form's rules apply. Absorbed in order ([`Validated::absorb`]), the chunks
/// answer what one pass over the file would. A row that cannot be read ends the rows with its
/// error; a file without rows is refused.
pub fn validate_chunks(
    schema: &Schema,
    rows: impl Iterator<Item = Result<RawRow>>,
    keep: usize,
    mut each: impl FnMut(Validated) -> bool,
) -> Result<()> {
    let mut rows = rows.peekable();
    if rows.peek().is_none() {
        return Err(ApiError::invalid(
            "content",
            ErrorCode::ImportEmpty,
            "The file has no rows",
        ));
    }
    loop {
        let chunk = rows
            .by_ref()
            .take(CHUNK_ROWS)
            .collect::<Result<Vec<RawRow>>>()?;
        if chunk.is_empty() || !each(validate_part(schema, chunk, keep)) {
            return Ok(());
        }
    }
}

/// Validates one run of consecutive rows.
fn validate_part(schema: &Schema, rows: Vec<RawRow>, keep: usize) -> Validated {
    let mut out = Validated::default();
    let refuse = |out: &mut Validated, row: usize, problems: Vec<Problem>| {
        out.refused.insert(row);
        let room = MAX_PROBLEMS.saturating_sub(out.problems.len());
        out.problems.extend(problems.into_iter().take(room));
    };
    for r in rows {
        if r.row <= keep {
            out.written.push(WrittenRow {
                row: r.row,
                name: r.name.clone(),
                slug: r.slug.clone(),
                cells: r.cells.clone(),
            });
        }
        let created_at = match r.created_at.as_deref().map(DateTime::parse_from_rfc3339) {
            None => None,
            Some(Ok(t)) => Some(t.with_timezone(&Utc)),
            Some(Err(_)) => {
                let problem = Problem::new(
                    Some(r.row),
                    Some("created_at"),
                    ErrorCode::ImportDateInvalid,
                    "created_at must be an RFC 3339 date",
                );
                refuse(&mut out, r.row, vec![problem]);
                continue;
            }
        };
        let mut cells = Vec::with_capacity(r.cells.len());
        let mut problems = Vec::new();
        for (i, v) in r.cells {
            match file_cell(&schema.fields[i], v) {
                Ok(v) => cells.push((i, v)),
                Err(e) => problems.push(value_problem(Some(r.row), &schema.fields[i], e)),
            }
        }
        if !problems.is_empty() {
            refuse(&mut out, r.row, problems);
            continue;
        }
        let was_explicit = !r.slug.trim().is_empty();
        match schema.draft(Some(r.row), &r.name, &r.slug, cells, None) {
            Ok(mut d) => {
                d.created_at = created_at;
                out.drafts.push(d);
                out.explicit.push(was_explicit);
            }
            Err(p) => refuse(&mut out, r.row, p),
        }
    }
    out
}
