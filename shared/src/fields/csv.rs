//! Values as CSV cells (exports and spreadsheet links), with text that a spreadsheet would
//! run as a formula marked, and read back.

use serde_json::Value;

/// What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Text as it goes into a CSV cell, safe to open in a spreadsheet: text that starts like a
/// formula gets a leading `'` (which spreadsheets read as "this is text"). Text that already
/// starts with quotes and then such a character gets one more quote, so [`csv_text_read`]
/// gives back exactly what was written. Only text is marked: numbers (currency in cents,
/// negative ones included) are written as numbers, which no spreadsheet runs.
pub fn csv_text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.trim_start_matches('\'').starts_with(FORMULA_START) {
        std::borrow::Cow::Owned(format!("'{s}"))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// A CSV cell read back: the mark [`csv_text`] added, if any, is taken off.
pub fn csv_text_read(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.trim_start_matches('\'').starts_with(FORMULA_START) => rest,
        _ => cell,
    }
}

/// The value as it goes into a CSV cell: text through [`csv_text`], lists and objects as
/// JSON.
pub fn csv_cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => csv_text(s).into_owned(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if *b { "1" } else { "0" }.into(),
        other => other.to_string(),
    }
}
