//! What an import answers, for its dry run and for the real thing alike: the true counts
//! (inserted, updated, unchanged, refused, with the refused rows' problems), how the file was
//! read (format, encoding, separator), and its first rows as they will be stored, each cell
//! with what the file wrote, the stored value and how the site shows it ("59" → 5900 →
//! "R$ 59,00").

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use vitrine_shared::values::format_value;

use super::import_rows::{Validated, WrittenRow};
use crate::{
    error::Problem,
    records::{Action, Plan, Schema},
};

/// How many first rows the answer shows as they will be stored.
pub const PREVIEW_ROWS: usize = 10;

/// What a row of the file does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RowAction {
    Insert,
    Update,
    Unchanged,
    Refused,
}

impl From<Action> for RowAction {
    fn from(a: Action) -> Self {
        match a {
            Action::Insert => RowAction::Insert,
            Action::Update => RowAction::Update,
            Action::Unchanged => RowAction::Unchanged,
        }
    }
}

/// A field the file's columns fill.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewColumn {
    /// The field's slug.
    pub field: String,
    /// The field's name.
    pub name: String,
    /// The field's type (`currency`, `text`, …).
    #[serde(rename = "type")]
    pub kind: String,
}

/// One cell of a previewed row.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewCell {
    /// The field's slug.
    pub field: String,
    /// What the file wrote ("59").
    pub written: String,
    /// The value as it will be stored (5900 cents), or null for a refused row.
    #[schema(value_type = Object)]
    pub stored: Value,
    /// The stored value as the site shows it ("R$ 59,00").
    pub display: String,
}

/// One of the file's first rows as it will be stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewRow {
    /// The data row's number, from 1.
    pub row: usize,
    pub action: RowAction,
    pub name: String,
    pub slug: String,
    pub cells: Vec<PreviewCell>,
}

/// An import's answer; a dry run's is exactly what the real import would do.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    /// True when nothing was written (a preview).
    pub dry_run: bool,
    pub inserted: usize,
    pub updated: usize,
    /// Rows that name a stored record and change nothing in it (not written).
    pub unchanged: usize,
    /// Rows refused; a real import with any writes nothing and answers 422 instead.
    pub refused: usize,
    /// The refused rows' problems, in row order (the first 200).
    pub problems: Vec<Problem>,
    pub format: Format,
    /// The encoding the file was read in: `UTF-8`, `windows-1252`, `UTF-16LE`…
    pub encoding: &'static str,
    /// Whether the file started with a byte order mark.
    pub bom: bool,
    /// A CSV file's separator: `,` `;` or `tab`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<&'static str>,
    /// The fields the file's columns fill, in the collection's order.
    pub columns: Vec<PreviewColumn>,
    /// The first rows as they will be stored.
    pub preview: Vec<PreviewRow>,
}

/// A file's format: what an import read, and what an export writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Csv,
    Json,
}

/// How the file was read, for the answer.
pub struct FileInfo {
    pub format: Format,
    pub encoding: &'static str,
    pub bom: bool,
    pub separator: Option<&'static str>,
}

/// The problems of the rows refused by validation and by the plan, in row order.
pub fn all_problems(validated: &mut Validated, plan: &mut Plan) -> (Vec<Problem>, usize) {
    let mut refused: BTreeSet<usize> = std::mem::take(&mut validated.refused);
    refused.extend(plan.problems.iter().filter_map(|p| p.row));
    let mut problems = std::mem::take(&mut validated.problems);
    problems.append(&mut plan.problems);
    problems.sort_by_key(|p| p.row);
    problems.truncate(super::import_rows::MAX_PROBLEMS);
    (problems, refused.len())
}

/// A value as text for a preview: its formatted form when its type has one, else its text.
fn display(schema: &Schema, index: usize, stored: &Value, written: &str) -> String {
    let field = &schema.fields[index];
    if let Some(Value::String(s)) = format_value(field.kind, &field.meta, stored) {
        return s;
    }
    match stored {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        // A relation's stored id means less to a person than the slug the file wrote.
        Value::Number(_) if field.kind == vitrine_shared::fields::FieldType::Relation => {
            written.to_string()
        }
        other => other.to_string(),
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The answer: counts, how the file was read, and its first rows as they will be stored.
pub fn summary(
    schema: &Schema,
    info: FileInfo,
    written: Vec<WrittenRow>,
    plan: &Plan,
    problems: Vec<Problem>,
    refused: usize,
    dry_run: bool,
) -> ImportSummary {
    let outcomes: HashMap<usize, _> = plan
        .outcomes
        .iter()
        .filter_map(|o| Some((o.row?, o)))
        .collect();
    let mut used = BTreeSet::new();
    let preview = written
        .into_iter()
        .map(|w| {
            let outcome = outcomes.get(&w.row);
            let cells = w
                .cells
                .iter()
                .map(|(i, v)| {
                    used.insert(*i);
                    let field = &schema.fields[*i];
                    let written = text(v);
                    let stored = outcome
                        .and_then(|o| o.values.get(&field.id.to_string()))
                        .cloned()
                        .unwrap_or(Value::Null);
                    PreviewCell {
                        field: field.slug.clone(),
                        display: if outcome.is_some() {
                            display(schema, *i, &stored, &written)
                        } else {
                            String::new()
                        },
                        written,
                        stored,
                    }
                })
                .collect();
            PreviewRow {
                row: w.row,
                action: outcome.map_or(RowAction::Refused, |o| o.action.into()),
                name: outcome.map_or(w.name, |o| o.name.clone()),
                slug: outcome.map_or(w.slug, |o| o.slug.clone()),
                cells,
            }
        })
        .collect();
    ImportSummary {
        dry_run,
        inserted: plan.inserted(),
        updated: plan.updated(),
        unchanged: plan.unchanged,
        refused,
        problems,
        format: info.format,
        encoding: info.encoding,
        bom: info.bom,
        separator: info.separator,
        columns: used
            .into_iter()
            .map(|i| {
                let f = &schema.fields[i];
                PreviewColumn {
                    field: f.slug.clone(),
                    name: f.name.clone(),
                    kind: f.kind.as_str().to_string(),
                }
            })
            .collect(),
        preview,
    }
}
