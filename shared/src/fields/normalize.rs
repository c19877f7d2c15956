//! The validation and normalisation of one submitted value for its field (API, import,
//! spreadsheet link), and the refusals it answers with; and a file's cell read as people write
//! it before that.

use serde_json::Value;

use super::{
    AmountError, FieldDef, FieldType, MAX_RICH_TEXT, MAX_TEXT, Normalized, amount_example,
    parse_amount, sanitize_html,
};
use crate::domain::Email;
use crate::error_code::{ErrorCode, Params};
use crate::ids::PostId;

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

/// The digits of a WhatsApp number (`(11) 98765-4321`, `https://wa.me/5511…`), with Brazil's
/// country code added to a short number that lacks it; `""` when there are none. The
/// `whatsapp_link` field type and the site identity's WhatsApp share this rule.
pub fn whatsapp_digits(s: &str) -> String {
    let d = digits(s.trim().trim_start_matches("https://wa.me/"));
    if !d.is_empty() && d.len() < 12 && !d.starts_with("55") {
        format!("55{d}")
    } else {
        d
    }
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
            let d = whatsapp_digits(&text_of(raw)?);
            if d.is_empty() {
                Value::String(String::new())
            } else {
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
                    .map(|id| Normalized::RelationId(PostId(id)))
                    .ok_or_else(not_record),
                Value::String(s) if s.trim().is_empty() => Ok(Normalized::Value(Value::Null)),
                Value::String(s) => Ok(match s.trim().parse::<PostId>() {
                    Ok(id) => Normalized::RelationId(id),
                    Err(_) => Normalized::RelationSlug(s.trim().to_string()),
                }),
                _ => Err(not_record()),
            };
        }
    };
    Ok(Normalized::Value(v))
}

/// A currency cell of an imported file as the record form's rules take it: text is read as
/// people write amounts in the field's format ([`parse_amount`]: `59` is 59,00, `59,90`,
/// `R$ 1.234,56`) and becomes cents; numbers (a JSON export's cents) and empty cells pass
/// unchanged. Other fields' cells pass unchanged.
pub fn file_cell(field: &FieldDef, raw: Value) -> Result<Value, ValueError> {
    let Value::String(s) = &raw else {
        return Ok(raw);
    };
    if field.kind != FieldType::Currency || s.trim().is_empty() {
        return Ok(raw);
    }
    let symbol = field.meta.symbol.as_deref().unwrap_or("");
    let format = field.meta.format.as_deref().unwrap_or("");
    let refusal = |code, message: String| bad(code, message).param("value", s.trim());
    match parse_amount(s, symbol, format) {
        Ok(cents) => Ok(Value::from(cents)),
        Err(AmountError::Unreadable) => {
            let example = amount_example(format);
            Err(refusal(
                ErrorCode::ValueAmountUnreadable,
                format!("must be an amount written like 59 or {example}, not {s:?}"),
            )
            .param("example", example))
        }
        Err(AmountError::TooManyDecimals) => Err(refusal(
            ErrorCode::ValueAmountDecimals,
            format!("has more than two decimal places in {s:?}"),
        )),
        Err(AmountError::TooLarge) => Err(refusal(
            ErrorCode::ValueAmountTooLarge,
            format!("is too large an amount: {s:?}"),
        )),
    }
}
