//! Collection field types and their values: parsing of field definitions, validation and
//! normalisation of every submitted value (API, import, spreadsheet link), the required rule,
//! and currency formatting. The server decides what is stored; the dashboard's checks are only
//! a convenience.
//!
//! Rich text is cleaned with ammonia, an allow-list HTML sanitiser built on html5ever (the
//! browsers' parsing algorithm), so what is stored cannot carry scripts or event handlers.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::domain::Email;
use crate::error_code::{ErrorCode, Params};

/// The 18 field types of spec 1 §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldType {
    Text,
    String,
    Textarea,
    Wysiwyg,
    Image,
    Gallery,
    File,
    MultipleFile,
    Select,
    Multiselect,
    Checkbox,
    Currency,
    #[serde(rename = "whatsapp_link")]
    WhatsappLink,
    #[serde(rename = "telephone_link")]
    TelephoneLink,
    #[serde(rename = "email_link")]
    EmailLink,
    ImageSelect,
    Relation,
    Csvtable,
}

pub const ALL_TYPES: [FieldType; 18] = [
    FieldType::Text,
    FieldType::String,
    FieldType::Textarea,
    FieldType::Wysiwyg,
    FieldType::Image,
    FieldType::Gallery,
    FieldType::File,
    FieldType::MultipleFile,
    FieldType::Select,
    FieldType::Multiselect,
    FieldType::Checkbox,
    FieldType::Currency,
    FieldType::WhatsappLink,
    FieldType::TelephoneLink,
    FieldType::EmailLink,
    FieldType::ImageSelect,
    FieldType::Relation,
    FieldType::Csvtable,
];

impl FieldType {
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::String => "string",
            FieldType::Textarea => "textarea",
            FieldType::Wysiwyg => "wysiwyg",
            FieldType::Image => "image",
            FieldType::Gallery => "gallery",
            FieldType::File => "file",
            FieldType::MultipleFile => "multiple-file",
            FieldType::Select => "select",
            FieldType::Multiselect => "multiselect",
            FieldType::Checkbox => "checkbox",
            FieldType::Currency => "currency",
            FieldType::WhatsappLink => "whatsapp_link",
            FieldType::TelephoneLink => "telephone_link",
            FieldType::EmailLink => "email_link",
            FieldType::ImageSelect => "image-select",
            FieldType::Relation => "relation",
            FieldType::Csvtable => "csvtable",
        }
    }

    pub fn parse(s: &str) -> Option<FieldType> {
        ALL_TYPES.iter().copied().find(|t| t.as_str() == s)
    }

    /// Types whose value is one of the field's options.
    pub fn has_options(self) -> bool {
        matches!(
            self,
            FieldType::Select | FieldType::Multiselect | FieldType::ImageSelect
        )
    }
}

/// The four currency formats of spec 1 §3, with `(symbol)` standing for the symbol.
pub const CURRENCY_FORMATS: [&str; 4] = [
    "(symbol) 9.999,99",
    "(symbol) 9,999.99",
    "9.999,99 (symbol)",
    "9,999.99 (symbol)",
];

/// Formats integer cents in one of [`CURRENCY_FORMATS`] (unknown formats use the first).
pub fn format_currency(cents: i64, symbol: &str, format: &str) -> String {
    let (thousands, decimal, symbol_first) = match format {
        "(symbol) 9,999.99" => (',', '.', true),
        "9.999,99 (symbol)" => ('.', ',', false),
        "9,999.99 (symbol)" => (',', '.', false),
        _ => ('.', ',', true),
    };
    let negative = cents < 0;
    let abs = cents.unsigned_abs();
    let units = (abs / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in units.chars().enumerate() {
        if i > 0 && (units.len() - i).is_multiple_of(3) {
            grouped.push(thousands);
        }
        grouped.push(c);
    }
    let number = format!(
        "{}{grouped}{decimal}{:02}",
        if negative { "-" } else { "" },
        abs % 100
    );
    match (symbol.is_empty(), symbol_first) {
        (true, _) => number,
        (false, true) => format!("{symbol} {number}"),
        (false, false) => format!("{number} {symbol}"),
    }
}

/// One option of a select, multiselect or image-select field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldOption {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// Type-specific settings of a field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldMeta {
    /// Relation target: the id of a collection of the same project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<i64>,
    /// csvtable column delimiter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delimiter: Option<String>,
    /// Currency symbol, e.g. "R$".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// One of [`CURRENCY_FORMATS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hide_at_listing: bool,
}

/// A field as validation needs it.
#[derive(Debug, Clone)]
pub struct FieldDef {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub kind: FieldType,
    pub required: bool,
    pub options: Vec<FieldOption>,
    pub meta: FieldMeta,
}

/// Largest text value (characters) and rich-text value (bytes) accepted.
pub const MAX_TEXT: usize = 65_535;
pub const MAX_RICH_TEXT: usize = 1024 * 1024;

/// A normalised value, or (for relations) a reference still to be resolved against the
/// target collection: an id to check, or a slug to look up.
#[derive(Debug, Clone, PartialEq)]
pub enum Normalized {
    Value(Value),
    RelationId(i64),
    RelationSlug(String),
}

/// True for the values the required rule treats as empty: null, "", [].
pub fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

fn text_of(v: &Value) -> Result<String, ValueError> {
    match v {
        Value::Null => Ok(String::new()),
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(bad(ErrorCode::ValueNotText, "must be text")),
    }
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// A link to a file: an upload of this platform (`/files/…`) or an http(s) URL.
fn check_url(s: &str) -> Result<String, ValueError> {
    let s = s.trim();
    if s.is_empty() || (s.starts_with("/files/") && !s.contains("..")) {
        return Ok(s.to_string());
    }
    match url::Url::parse(s) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(s.to_string()),
        _ => Err(bad(
            ErrorCode::ValueNotLink,
            "must be an uploaded file or an http(s) link",
        )),
    }
}

/// A list of `{src, caption}`; accepts a JSON list (or its text, as CSV carries it) of
/// objects or of plain links.
fn media_list(v: &Value) -> Result<Value, ValueError> {
    let parsed;
    let items = match v {
        Value::Null => return Ok(Value::Array(vec![])),
        Value::String(s) if s.trim().is_empty() => return Ok(Value::Array(vec![])),
        Value::String(s) => {
            parsed = serde_json::from_str::<Value>(s).map_err(|_| not_files())?;
            parsed.as_array().ok_or_else(not_files)?
        }
        Value::Array(a) => a,
        _ => return Err(not_files()),
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let (src, caption) = match item {
            Value::String(s) => (s.as_str(), ""),
            Value::Object(o) => (
                o.get("src")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad(ErrorCode::ValueFileSrc, "each file needs a src"))?,
                o.get("caption").and_then(Value::as_str).unwrap_or(""),
            ),
            _ => return Err(not_files()),
        };
        if src.trim().is_empty() {
            continue;
        }
        out.push(serde_json::json!({"src": check_url(src)?, "caption": caption.chars().take(1000).collect::<String>()}));
    }
    Ok(Value::Array(out))
}

fn option_name<'a>(field: &'a FieldDef, wanted: &str) -> Result<&'a str, ValueError> {
    field
        .options
        .iter()
        .find(|o| o.name == wanted)
        .map(|o| o.name.as_str())
        .ok_or_else(|| {
            bad(
                ErrorCode::ValueNotOption,
                format!("{wanted:?} is not one of the options"),
            )
            .param("option", wanted)
        })
}

/// Untrusted HTML (rich text, form submissions) reduced to ammonia's allow-list: no scripts,
/// event handlers, styles or `javascript:` links survive.
pub fn sanitize_html(html: &str) -> String {
    ammonia::clean(html)
}

/// The text of rich text: markup gone, paragraphs and line breaks as new lines, entities as
/// the characters they stand for (`a &amp; b` is `a & b`).
///
/// ammonia parses the HTML as browsers do and writes it back with only the block tags kept,
/// bare (no attributes), and only `&`, `<`, `>` and no-break spaces escaped; that normal form
/// is what makes the tags and the four escapes safe to take apart by plain replacement.
pub fn html_to_text(html: &str) -> String {
    const BLOCKS: [&str; 11] = [
        "p",
        "div",
        "li",
        "tr",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
    ];
    let normal = ammonia::Builder::empty()
        .tags(BLOCKS.iter().copied().chain(["br"]).collect())
        .clean_content_tags(["script", "style"].into_iter().collect())
        .clean(html)
        .to_string();
    let mut text = normal.replace("<br>", "\n");
    for tag in BLOCKS {
        text = text
            .replace(&format!("<{tag}>"), "")
            .replace(&format!("</{tag}>"), "\n");
    }
    unescape_normal(text.trim_end_matches('\n'))
}

/// Text of ammonia's normal form with its only escapes (`&lt;`, `&gt;`, no-break spaces,
/// `&amp;`, the last one last) turned back into characters.
fn unescape_normal(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The fields of a stored form submission (`<dl><dt>name</dt><dd>value</dd>…</dl>`, as the
/// edge writes it) as (name, value) text in order, line breaks in values kept. The same
/// method as [`html_to_text`]: ammonia's normal form first (only `dt`, `dd` and `br`, bare),
/// which makes splitting by those tags safe; a name or value that contained a tag's text
/// holds it escaped.
pub fn submission_fields(html: &str) -> Vec<(String, String)> {
    let normal = ammonia::Builder::empty()
        .tags(["dt", "dd", "br"].into_iter().collect())
        .clean_content_tags(["script", "style"].into_iter().collect())
        .clean(html)
        .to_string();
    normal
        .split("<dt>")
        .skip(1)
        .filter_map(|part| {
            let (name, rest) = part.split_once("</dt>")?;
            let value = rest
                .split_once("<dd>")
                .and_then(|(_, v)| v.split_once("</dd>"))
                .map_or("", |(v, _)| v);
            Some((
                unescape_normal(name),
                unescape_normal(&value.replace("<br>", "\n")),
            ))
        })
        .collect()
}

/// A stored value made fit for `to` after its field's type changed from `from`, as if it had
/// been entered for the new type: text that becomes rich text goes through the sanitiser,
/// rich text that becomes plain text loses its markup, and a value the new type cannot hold
/// is cleared (a relation cannot be resolved here, so a value turned into one is cleared).
/// Without this a value would keep what it was allowed to be: text with `<script>` in it,
/// written safely as text, would be shown as trusted HTML once the field became rich text.
pub fn retype(from: FieldType, to: &FieldDef, value: &Value) -> Value {
    use FieldType as T;
    if from == to.kind || value.is_null() {
        return value.clone();
    }
    let value = match (from, to.kind) {
        (T::Wysiwyg, T::Text | T::String | T::Textarea | T::Csvtable) => {
            Value::String(html_to_text(value.as_str().unwrap_or_default()))
        }
        _ => value.clone(),
    };
    match normalize(to, &value) {
        Ok(Normalized::Value(v)) => v,
        Ok(Normalized::RelationId(_) | Normalized::RelationSlug(_)) | Err(_) => Value::Null,
    }
}

/// A value refused for its field: a stable code, a short English phrase ("must be …") that
/// callers prefix with the field's name (and the row number for imports), and the values the
/// phrase names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    pub code: ErrorCode,
    pub message: String,
    pub params: Params,
}

impl ValueError {
    /// The same refusal with a value its message names.
    pub fn param(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.params.insert(name.to_string(), value.into());
        self
    }
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn bad(code: ErrorCode, message: impl Into<String>) -> ValueError {
    ValueError {
        code,
        message: message.into(),
        params: Params::new(),
    }
}

fn not_files() -> ValueError {
    bad(ErrorCode::ValueNotFiles, "must be a list of files")
}

fn not_options() -> ValueError {
    bad(ErrorCode::ValueNotOptions, "must be a list of options")
}

fn not_flag() -> ValueError {
    bad(ErrorCode::ValueNotFlag, "must be 1 or 0")
}

fn not_amount() -> ValueError {
    bad(ErrorCode::ValueNotAmount, "must be an amount")
}

fn not_record() -> ValueError {
    bad(ErrorCode::ValueNotRecord, "must be a record")
}

/// Validates and normalises `raw` for `field`; see [`ValueError`] for its refusals.
pub fn normalize(field: &FieldDef, raw: &Value) -> Result<Normalized, ValueError> {
    use FieldType as T;
    let v = match field.kind {
        T::Text | T::String | T::Textarea | T::Csvtable => {
            let s = text_of(raw)?;
            if s.chars().count() > MAX_TEXT {
                return Err(bad(
                    ErrorCode::ValueTooLong,
                    format!("must be at most {MAX_TEXT} characters"),
                )
                .param("max", MAX_TEXT));
            }
            Value::String(s)
        }
        T::Wysiwyg => {
            let s = text_of(raw)?;
            if s.len() > MAX_RICH_TEXT {
                return Err(bad(
                    ErrorCode::ValueRichTooLong,
                    "is too long (1 MB at most)",
                ));
            }
            Value::String(sanitize_html(&s))
        }
        T::Image | T::File => Value::String(check_url(&text_of(raw)?)?),
        T::Gallery | T::MultipleFile => media_list(raw)?,
        T::Select | T::ImageSelect => {
            let s = text_of(raw)?;
            if s.is_empty() {
                Value::String(s)
            } else {
                Value::String(option_name(field, &s)?.to_string())
            }
        }
        T::Multiselect => {
            let items: Vec<String> = match raw {
                Value::Null => vec![],
                Value::Array(a) => a.iter().map(text_of).collect::<Result<_, _>>()?,
                Value::String(s) if s.trim().starts_with('[') => {
                    serde_json::from_str::<Vec<String>>(s).map_err(|_| not_options())?
                }
                Value::String(s) => s
                    .split(',')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect(),
                _ => return Err(not_options()),
            };
            let mut out: Vec<Value> = Vec::new();
            for item in items {
                let name = Value::String(option_name(field, &item)?.to_string());
                if !out.contains(&name) {
                    out.push(name);
                }
            }
            Value::Array(out)
        }
        T::Checkbox => {
            let on = match raw {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) if n.as_i64() == Some(1) => true,
                Value::Number(n) if n.as_i64() == Some(0) => false,
                Value::String(s) => match s.trim().to_lowercase().as_str() {
                    "1" | "true" | "yes" | "sim" | "on" => true,
                    "0" | "false" | "no" | "não" | "nao" | "off" | "" => false,
                    _ => return Err(not_flag()),
                },
                _ => return Err(not_flag()),
            };
            Value::from(if on { 1 } else { 0 })
        }
        T::Currency => {
            match raw {
                Value::Null => Value::Null,
                Value::Number(n) => Value::from(n.as_i64().ok_or_else(|| {
                    bad(ErrorCode::ValueNotCents, "must be a whole number of cents")
                })?),
                Value::String(s) if s.trim().is_empty() => Value::Null,
                Value::String(s) => {
                    let d = digits(s);
                    if d.is_empty() || d.len() > 15 {
                        return Err(not_amount());
                    }
                    let cents: i64 = d.parse().map_err(|_| not_amount())?;
                    Value::from(if s.trim_start().starts_with('-') {
                        -cents
                    } else {
                        cents
                    })
                }
                _ => return Err(not_amount()),
            }
        }
        T::WhatsappLink => {
            let s = text_of(raw)?;
            let d = digits(s.trim().trim_start_matches("https://wa.me/"));
            if d.is_empty() {
                Value::String(String::new())
            } else {
                let d = if d.len() < 12 && !d.starts_with("55") {
                    format!("55{d}")
                } else {
                    d
                };
                Value::String(format!("https://wa.me/{d}"))
            }
        }
        T::TelephoneLink => {
            let d = digits(&text_of(raw)?);
            Value::String(if d.is_empty() { d } else { format!("tel:{d}") })
        }
        T::EmailLink => {
            let s = text_of(raw)?;
            let s = s.trim().trim_start_matches("mailto:");
            if s.is_empty() {
                Value::String(String::new())
            } else {
                let email = Email::parse(s)
                    .map_err(|_| bad(ErrorCode::ValueNotEmail, "must be a valid e-mail address"))?;
                Value::String(format!("mailto:{}", email.as_str()))
            }
        }
        T::Relation => {
            return match raw {
                Value::Null => Ok(Normalized::Value(Value::Null)),
                Value::Number(n) => n
                    .as_i64()
                    .map(Normalized::RelationId)
                    .ok_or_else(not_record),
                Value::String(s) if s.trim().is_empty() => Ok(Normalized::Value(Value::Null)),
                Value::String(s) => Ok(match s.trim().parse::<i64>() {
                    Ok(id) => Normalized::RelationId(id),
                    Err(_) => Normalized::RelationSlug(s.trim().to_string()),
                }),
                _ => Err(not_record()),
            };
        }
    };
    Ok(Normalized::Value(v))
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_submission_comes_back_as_its_fields() {
        let stored = "<dl><dt>nome</dt><dd>Ana &amp; Bia</dd><dt>msg&lt;dt&gt;</dt>\
                      <dd>linha 1<br>=1+1 &lt;b&gt;</dd><dt>vazio</dt><dd></dd></dl>";
        assert_eq!(
            submission_fields(stored),
            vec![
                ("nome".to_string(), "Ana & Bia".to_string()),
                ("msg<dt>".to_string(), "linha 1\n=1+1 <b>".to_string()),
                ("vazio".to_string(), String::new()),
            ]
        );
        assert!(submission_fields("<p>old row</p>").is_empty());
    }

    fn field(kind: FieldType) -> FieldDef {
        FieldDef {
            id: 1,
            name: "Campo".into(),
            slug: "campo".into(),
            kind,
            required: false,
            options: vec![
                FieldOption {
                    name: "Azul".into(),
                    image: None,
                },
                FieldOption {
                    name: "Verde".into(),
                    image: None,
                },
            ],
            meta: FieldMeta::default(),
        }
    }

    fn ok(kind: FieldType, raw: Value) -> Value {
        match normalize(&field(kind), &raw).unwrap() {
            Normalized::Value(v) => v,
            other => panic!("{other:?}"),
        }
    }

    fn bad(kind: FieldType, raw: Value) -> String {
        normalize(&field(kind), &raw).unwrap_err().message
    }

    #[test]
    fn refusals_carry_their_code_and_values() {
        let e = normalize(&field(FieldType::Select), &json!("Roxo")).unwrap_err();
        assert_eq!(e.code, ErrorCode::ValueNotOption);
        assert_eq!(e.params["option"], "Roxo");
        let e = normalize(&field(FieldType::Checkbox), &json!("talvez")).unwrap_err();
        assert_eq!(e.code, ErrorCode::ValueNotFlag);
    }

    #[test]
    fn type_names_round_trip_and_unknown_names_are_refused() {
        for t in ALL_TYPES {
            assert_eq!(FieldType::parse(t.as_str()), Some(t));
            assert_eq!(serde_json::to_value(t).unwrap(), json!(t.as_str()));
        }
        assert_eq!(FieldType::parse("color"), None);
    }

    #[test]
    fn whatsapp_keeps_digits_and_applies_the_55_rule() {
        assert_eq!(
            ok(FieldType::WhatsappLink, json!("(11) 98765-4321")),
            json!("https://wa.me/5511987654321")
        );
        assert_eq!(
            ok(FieldType::WhatsappLink, json!("5511987654321")),
            json!("https://wa.me/5511987654321")
        );
        assert_eq!(
            ok(FieldType::WhatsappLink, json!("551187654321")),
            json!("https://wa.me/551187654321")
        );
        assert_eq!(
            ok(
                FieldType::WhatsappLink,
                json!("https://wa.me/5511987654321")
            ),
            json!("https://wa.me/5511987654321")
        );
        assert_eq!(
            ok(FieldType::WhatsappLink, json!("+1 415 555 2671")),
            json!("https://wa.me/5514155552671")
        );
        assert_eq!(ok(FieldType::WhatsappLink, json!("")), json!(""));
    }

    #[test]
    fn telephone_email_and_checkbox_are_normalised() {
        assert_eq!(
            ok(FieldType::TelephoneLink, json!("+55 (11) 3333-4444")),
            json!("tel:551133334444")
        );
        assert_eq!(
            ok(FieldType::TelephoneLink, json!("tel:1133334444")),
            json!("tel:1133334444")
        );
        assert_eq!(
            ok(FieldType::EmailLink, json!("Ana@Example.com")),
            json!("mailto:ana@example.com")
        );
        assert_eq!(
            ok(FieldType::EmailLink, json!("mailto:ana@example.com")),
            json!("mailto:ana@example.com")
        );
        assert!(bad(FieldType::EmailLink, json!("not an email")).contains("e-mail"));
        assert_eq!(ok(FieldType::Checkbox, json!(true)), json!(1));
        assert_eq!(ok(FieldType::Checkbox, json!("0")), json!(0));
        assert_eq!(ok(FieldType::Checkbox, json!("sim")), json!(1));
        assert!(bad(FieldType::Checkbox, json!("talvez")).contains("1 or 0"));
    }

    #[test]
    fn currency_reads_digits_as_cents_and_formats_four_ways() {
        assert_eq!(ok(FieldType::Currency, json!("R$ 1.234,56")), json!(123456));
        assert_eq!(ok(FieldType::Currency, json!(990)), json!(990));
        assert_eq!(ok(FieldType::Currency, json!("")), Value::Null);
        assert!(bad(FieldType::Currency, json!(12.5)).contains("cents"));
        assert!(bad(FieldType::Currency, json!("abc")).contains("amount"));
        assert_eq!(
            format_currency(123456, "R$", CURRENCY_FORMATS[0]),
            "R$ 1.234,56"
        );
        assert_eq!(
            format_currency(123456, "$", CURRENCY_FORMATS[1]),
            "$ 1,234.56"
        );
        assert_eq!(
            format_currency(123456, "€", CURRENCY_FORMATS[2]),
            "1.234,56 €"
        );
        assert_eq!(
            format_currency(123456, "US$", CURRENCY_FORMATS[3]),
            "1,234.56 US$"
        );
        assert_eq!(format_currency(5, "R$", CURRENCY_FORMATS[0]), "R$ 0,05");
        assert_eq!(
            format_currency(100_000_000, "R$", CURRENCY_FORMATS[0]),
            "R$ 1.000.000,00"
        );
        assert_eq!(format_currency(-150, "", CURRENCY_FORMATS[0]), "-1,50");
    }

    #[test]
    fn options_must_be_among_the_fields_options() {
        assert_eq!(ok(FieldType::Select, json!("Azul")), json!("Azul"));
        assert!(bad(FieldType::Select, json!("Roxo")).contains("not one of the options"));
        assert_eq!(
            ok(FieldType::Multiselect, json!(["Verde", "Azul", "Verde"])),
            json!(["Verde", "Azul"])
        );
        assert_eq!(
            ok(FieldType::Multiselect, json!("Azul, Verde")),
            json!(["Azul", "Verde"])
        );
        assert_eq!(
            ok(FieldType::Multiselect, json!("[\"Azul\"]")),
            json!(["Azul"])
        );
        assert!(bad(FieldType::Multiselect, json!(["Roxo"])).contains("not one of the options"));
        assert_eq!(ok(FieldType::ImageSelect, json!("Verde")), json!("Verde"));
    }

    #[test]
    fn media_lists_hold_src_and_caption() {
        assert_eq!(
            ok(
                FieldType::Gallery,
                json!([{"src": "/files/uploads/1/a.png", "caption": "A"}, "/files/uploads/1/b.png"])
            ),
            json!([{"src": "/files/uploads/1/a.png", "caption": "A"}, {"src": "/files/uploads/1/b.png", "caption": ""}])
        );
        assert_eq!(
            ok(
                FieldType::MultipleFile,
                json!("[{\"src\":\"https://x.example/a.pdf\"}]")
            ),
            json!([{"src": "https://x.example/a.pdf", "caption": ""}])
        );
        assert!(bad(FieldType::Gallery, json!([{"src": "javascript:alert(1)"}])).contains("link"));
        assert!(bad(FieldType::Image, json!("javascript:alert(1)")).contains("link"));
        assert!(bad(FieldType::Gallery, json!(5)).contains("list"));
    }

    #[test]
    fn rich_text_is_sanitised_with_an_allow_list() {
        let v = ok(
            FieldType::Wysiwyg,
            json!(
                "<p onclick=\"x()\">Oi <b>mundo</b><script>alert(1)</script><a href=\"javascript:x\">l</a></p>"
            ),
        );
        let s = v.as_str().unwrap();
        assert!(s.contains("<b>mundo</b>"), "{s}");
        assert!(
            !s.contains("script") && !s.contains("onclick") && !s.contains("javascript"),
            "{s}"
        );
    }

    #[test]
    fn relations_are_ids_or_slugs_to_resolve() {
        assert_eq!(
            normalize(&field(FieldType::Relation), &json!(12)).unwrap(),
            Normalized::RelationId(12)
        );
        assert_eq!(
            normalize(&field(FieldType::Relation), &json!("12")).unwrap(),
            Normalized::RelationId(12)
        );
        assert_eq!(
            normalize(&field(FieldType::Relation), &json!("meu-post")).unwrap(),
            Normalized::RelationSlug("meu-post".into())
        );
        assert_eq!(
            normalize(&field(FieldType::Relation), &json!("")).unwrap(),
            Normalized::Value(Value::Null)
        );
        assert!(normalize(&field(FieldType::Relation), &json!([1])).is_err());
    }

    #[test]
    fn the_required_rule_treats_null_empty_and_empty_lists_as_empty() {
        assert!(is_empty(&Value::Null));
        assert!(is_empty(&json!("  ")));
        assert!(is_empty(&json!([])));
        assert!(!is_empty(&json!(0)));
        assert!(!is_empty(&json!("x")));
        assert!(bad(FieldType::Text, json!({"a": 1})).contains("text"));
    }

    #[test]
    fn csv_text_that_starts_like_a_formula_is_marked_and_read_back_exactly() {
        for (text, cell) in [
            (
                "=HYPERLINK(\"http://evil.example\")",
                "'=HYPERLINK(\"http://evil.example\")",
            ),
            ("+1+1", "'+1+1"),
            ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
            ("@SUM(1)", "'@SUM(1)"),
            ("\t=1", "'\t=1"),
            ("\r=1", "'\r=1"),
            ("'=1", "''=1"),
            ("''+1", "'''+1"),
            ("'citação", "'citação"),
            ("texto = 1", "texto = 1"),
            ("", ""),
        ] {
            assert_eq!(csv_text(text), cell, "{text:?}");
            assert_eq!(csv_text_read(cell), text, "{cell:?}");
            assert_eq!(csv_cell(&json!(text)), cell);
        }
        // Numbers stay numbers, negative ones included.
        assert_eq!(csv_cell(&json!(-1250)), "-1250");
    }

    #[test]
    fn a_changed_type_makes_stored_values_fit_the_new_one() {
        let to = |kind| field(kind);
        // Text with markup becomes sanitised rich text.
        let v = retype(
            FieldType::Text,
            &to(FieldType::Wysiwyg),
            &json!(
                "<p onclick=\"steal()\">oi</p><script>alert(1)</script><img src=x onerror=alert(1)>"
            ),
        );
        assert_eq!(v, json!("<p>oi</p><img src=\"x\">"));
        // Rich text becomes its text.
        let v = retype(
            FieldType::Wysiwyg,
            &to(FieldType::Textarea),
            &json!(
                "<p>Olá &amp; <b>adeus</b></p><p>a&nbsp;b<br>c &lt;x&gt;</p><script>alert(1)</script>"
            ),
        );
        assert_eq!(v, json!("Olá & adeus\na\u{a0}b\nc <x>"));
        // What the new type cannot hold is cleared; what it can, is normalised.
        assert_eq!(
            retype(
                FieldType::Text,
                &to(FieldType::Currency),
                &json!("R$ 12,50")
            ),
            json!(1250)
        );
        assert_eq!(
            retype(FieldType::Text, &to(FieldType::Currency), &json!("caro")),
            Value::Null
        );
        assert_eq!(
            retype(FieldType::Text, &to(FieldType::Select), &json!("Azul")),
            json!("Azul")
        );
        assert_eq!(
            retype(FieldType::Text, &to(FieldType::Select), &json!("Roxo")),
            Value::Null
        );
        assert_eq!(
            retype(
                FieldType::Text,
                &to(FieldType::Image),
                &json!("javascript:alert(1)")
            ),
            Value::Null
        );
        assert_eq!(
            retype(
                FieldType::Text,
                &to(FieldType::Relation),
                &json!("outro-post")
            ),
            Value::Null
        );
        assert_eq!(
            retype(FieldType::Currency, &to(FieldType::Text), &json!(-990)),
            json!("-990")
        );
        // Same type, or nothing stored: untouched.
        assert_eq!(
            retype(FieldType::Text, &to(FieldType::Text), &json!("<b>x</b>")),
            json!("<b>x</b>")
        );
        assert_eq!(
            retype(FieldType::Text, &to(FieldType::Wysiwyg), &Value::Null),
            Value::Null
        );
    }

    #[test]
    fn csv_cells_carry_lists_as_json() {
        assert_eq!(csv_cell(&json!(["a", "b"])), "[\"a\",\"b\"]");
        assert_eq!(csv_cell(&json!(12)), "12");
        assert_eq!(csv_cell(&Value::Null), "");
    }
}
