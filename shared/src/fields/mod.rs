//! Collection field types and their values: parsing of field definitions, validation and
//! normalisation of every submitted value (API, import, spreadsheet link), the required rule,
//! and currency formatting. The server decides what is stored; the dashboard's checks are only
//! a convenience.
//!
//! Rich text is cleaned with ammonia, an allow-list HTML sanitiser built on html5ever (the
//! browsers' parsing algorithm), so what is stored cannot carry scripts or event handlers.
//!
//! This module holds the field types and definitions, the required rule and what a type
//! change does to stored values; the validation of one value is in [`normalize`], rich text
//! and stored HTML in [`html`], currency formatting in [`currency`] and CSV cells in
//! [`csv`].

mod csv;
mod currency;
mod html;
mod normalize;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ids::{CollectionId, FieldId, PostId};

pub use self::csv::{
    DecodedText, NotText, SEPARATORS, csv_cell, csv_text, csv_text_read, decode_spreadsheet,
    detect_separator, separator_name,
};
pub use currency::{AmountError, CURRENCY_FORMATS, amount_example, format_currency, parse_amount};
pub use html::{html_to_text, sanitize_html, submission_fields};
pub use normalize::{ValueError, file_cell, normalize, whatsapp_digits};

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
    pub table: Option<CollectionId>,
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
    pub id: FieldId,
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
    RelationId(PostId),
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod sheet_tests;

#[cfg(test)]
mod currency_vectors;
