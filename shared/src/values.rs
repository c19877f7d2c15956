//! Record values as visitors read them: the formatted form of a stored value, which templates
//! print and the read API (`/_api/collections`) sends beside the raw one.
//!
//! - **Currency** (stored as integer cents): the field's own format and symbol
//!   ([`crate::fields::format_currency`], `4200` with `R$` and `(symbol) 9.999,99` is
//!   `R$ 42,00`). The four formats are the field's setting (spec 1 §3), not the visitor's or
//!   the site's locale, so a locale library (ICU4X, `num-format`) would only get in the way:
//!   the formatter is a dozen lines with its test vectors beside it.
//! - **WhatsApp, telephone, e-mail**: the link's URL (`https://wa.me/5511…`, `tel:…`,
//!   `mailto:…`). A URL is what a template can use safely both as `href="{{ v }}"` and as text
//!   (the engine escapes it); an HTML `<a>` would break inside an attribute. The URL is built
//!   again from the value's digits (or its checked address), so whatever was stored, the
//!   formatted form can never be `javascript:` or carry markup; a value that does not fit has
//!   no formatted form (empty).
//! - **Dates** (a post's `created_at`): in the site's language with chrono's locale data
//!   (`unstable-locales`, the glibc locale tables shipped as the `pure-rust-locales` crate):
//!   `04/03/2026` in pt-BR (the spec's dd/mm/yyyy), `03/04/2026` in English, and a long form
//!   (`4 de março de 2026`, `March 4, 2026`).
//!
//! Every other type has no formatted form: templates and the API read the raw value (lists,
//! rich text, options, flags).

use chrono::{DateTime, Locale, Utc};
use serde_json::{Map, Value};

use crate::domain::Email;
use crate::fields::{FieldMeta, FieldType, format_currency};

/// A site's language, as the owner's account setting gives it (`pt-BR` or `en`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    PtBr,
    En,
}

impl Lang {
    /// `en` (and `en-…`) is English; anything else is the default, pt-BR.
    pub fn parse(tag: &str) -> Lang {
        let tag = tag.trim().to_ascii_lowercase();
        if tag == "en" || tag.starts_with("en-") {
            Lang::En
        } else {
            Lang::PtBr
        }
    }

    fn locale(self) -> Locale {
        match self {
            Lang::PtBr => Locale::pt_BR,
            Lang::En => Locale::en_US,
        }
    }
}

/// A date as the site's language writes it in short: `04/03/2026` (pt-BR), `03/04/2026` (en).
pub fn format_date(at: DateTime<Utc>, lang: Lang) -> String {
    at.format_localized("%x", lang.locale()).to_string()
}

/// A date written out: `4 de março de 2026` (pt-BR), `March 4, 2026` (en).
pub fn format_long_date(at: DateTime<Utc>, lang: Lang) -> String {
    let pattern = match lang {
        Lang::PtBr => "%-d de %B de %Y",
        Lang::En => "%B %-d, %Y",
    };
    at.format_localized(pattern, lang.locale()).to_string()
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// The WhatsApp link of a stored value (`https://wa.me/{digits}`), when it has digits.
pub fn whatsapp_url(stored: &str) -> Option<String> {
    let d = digits(stored.trim().trim_start_matches("https://wa.me/"));
    (!d.is_empty()).then(|| format!("https://wa.me/{d}"))
}

/// The telephone link of a stored value (`tel:{digits}`), when it has digits.
pub fn telephone_url(stored: &str) -> Option<String> {
    let d = digits(stored);
    (!d.is_empty()).then(|| format!("tel:{d}"))
}

/// The e-mail link of a stored value (`mailto:{address}`), when it is a valid address.
pub fn email_url(stored: &str) -> Option<String> {
    let address = stored.trim().trim_start_matches("mailto:");
    Email::parse(address)
        .ok()
        .map(|e| format!("mailto:{}", e.as_str()))
}

/// The formatted form of one stored value of a field of type `kind`, or `None` when the type
/// has none (the raw value is then what templates read). A value of the wrong shape for its
/// type formats as empty text.
pub fn format_value(kind: FieldType, meta: &FieldMeta, stored: &Value) -> Option<Value> {
    let text = || stored.as_str().unwrap_or_default();
    let link = |url: Option<String>| Some(Value::String(url.unwrap_or_default()));
    match kind {
        FieldType::Currency => Some(Value::String(match stored.as_i64() {
            Some(cents) => format_currency(
                cents,
                meta.symbol.as_deref().unwrap_or("").trim(),
                meta.format.as_deref().unwrap_or(""),
            ),
            None => String::new(),
        })),
        FieldType::WhatsappLink => link(whatsapp_url(text())),
        FieldType::TelephoneLink => link(telephone_url(text())),
        FieldType::EmailLink => link(email_url(text())),
        _ => None,
    }
}

/// The formatted values of a record, keyed by field slug, for the fields that have a
/// formatted form. `fields` gives each field's slug, type name and stored `meta`; `values`
/// are the record's raw values keyed by field slug.
pub fn formatted_fields<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a str, &'a Value)>,
    values: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (slug, kind, meta) in fields {
        let (Some(kind), Some(stored)) = (FieldType::parse(kind), values.get(slug)) else {
            continue;
        };
        if stored.is_null() {
            continue;
        }
        let meta: FieldMeta = serde_json::from_value(meta.clone()).unwrap_or_default();
        if let Some(v) = format_value(kind, &meta, stored) {
            out.insert(slug.to_string(), v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::CURRENCY_FORMATS;
    use chrono::TimeZone;
    use serde_json::json;

    fn currency(cents: Value, symbol: &str, format: &str) -> Value {
        let meta = FieldMeta {
            symbol: Some(symbol.into()),
            format: Some(format.into()),
            ..FieldMeta::default()
        };
        format_value(FieldType::Currency, &meta, &cents).unwrap()
    }

    #[test]
    fn currency_follows_the_fields_format_and_symbol() {
        let brl = CURRENCY_FORMATS[0];
        assert_eq!(currency(json!(4200), "R$", brl), "R$ 42,00");
        assert_eq!(currency(json!(0), "R$", brl), "R$ 0,00");
        assert_eq!(currency(json!(-4250), "R$", brl), "R$ -42,50");
        assert_eq!(
            currency(json!(123_456_789_012_i64), "R$", brl),
            "R$ 1.234.567.890,12"
        );
        assert_eq!(
            currency(json!(i64::MIN), "", brl),
            "-92.233.720.368.547.758,08"
        );
        assert_eq!(
            currency(json!(4200), "US$", CURRENCY_FORMATS[1]),
            "US$ 42.00"
        );
        assert_eq!(
            currency(json!(123456), "€", CURRENCY_FORMATS[2]),
            "1.234,56 €"
        );
        assert_eq!(
            currency(json!(123456), "kr", CURRENCY_FORMATS[3]),
            "1,234.56 kr"
        );
        // No symbol, no format: the first format, without a symbol.
        assert_eq!(
            format_value(FieldType::Currency, &FieldMeta::default(), &json!(990)),
            Some(json!("9,90"))
        );
        // A value that is not cents has no amount to show.
        assert_eq!(currency(json!("abc"), "R$", brl), "");
        assert_eq!(currency(json!(12.5), "R$", brl), "");
    }

    #[test]
    fn contact_fields_format_as_links_built_from_their_digits() {
        let none = FieldMeta::default();
        let f = |kind, v: Value| format_value(kind, &none, &v).unwrap();
        assert_eq!(
            f(
                FieldType::WhatsappLink,
                json!("https://wa.me/5511987654321")
            ),
            "https://wa.me/5511987654321"
        );
        assert_eq!(
            f(FieldType::TelephoneLink, json!("tel:551133334444")),
            "tel:551133334444"
        );
        assert_eq!(
            f(FieldType::EmailLink, json!("mailto:ana@example.com")),
            "mailto:ana@example.com"
        );
        // Hostile stored values never become a script link or markup.
        for hostile in [
            "\"><script>alert(1)</script>",
            "javascript:alert(1)",
            "https://wa.me/\"><img src=x onerror=alert(1)>",
        ] {
            for kind in [
                FieldType::WhatsappLink,
                FieldType::TelephoneLink,
                FieldType::EmailLink,
            ] {
                let out = f(kind, json!(hostile));
                let s = out.as_str().unwrap();
                assert!(
                    !s.contains(['<', '>', '"']) && !s.contains("javascript"),
                    "{kind:?} {hostile:?} -> {s}"
                );
            }
        }
        assert_eq!(
            f(
                FieldType::WhatsappLink,
                json!("\"><script>alert(1)</script>")
            ),
            "https://wa.me/1"
        );
        assert_eq!(f(FieldType::EmailLink, json!("\"><script>")), "");
        assert_eq!(f(FieldType::TelephoneLink, json!("")), "");
        // Types without a formatted form read the raw value.
        assert_eq!(format_value(FieldType::Text, &none, &json!("x")), None);
        assert_eq!(format_value(FieldType::Checkbox, &none, &json!(1)), None);
    }

    #[test]
    fn dates_follow_the_sites_language() {
        let at = Utc.with_ymd_and_hms(2026, 3, 4, 10, 0, 0).unwrap();
        assert_eq!(format_date(at, Lang::PtBr), "04/03/2026");
        assert_eq!(format_date(at, Lang::En), "03/04/2026");
        assert_eq!(format_long_date(at, Lang::PtBr), "4 de março de 2026");
        assert_eq!(format_long_date(at, Lang::En), "March 4, 2026");
        assert_eq!(Lang::parse("en"), Lang::En);
        assert_eq!(Lang::parse("EN-us"), Lang::En);
        assert_eq!(Lang::parse("pt-BR"), Lang::PtBr);
        assert_eq!(Lang::parse(""), Lang::PtBr);
    }

    #[test]
    fn a_records_formatted_values_cover_the_fields_that_have_one() {
        let meta = json!({"symbol": "R$", "format": "(symbol) 9.999,99"});
        let empty = json!({});
        let fields = [
            ("preco", "currency", &meta),
            ("zap", "whatsapp_link", &empty),
            ("nome", "text", &empty),
            ("vazio", "currency", &meta),
            ("sumiu", "email_link", &empty),
        ];
        let values = json!({"preco": 4200, "zap": "https://wa.me/5531999990000", "nome": "Pão", "vazio": null})
            .as_object()
            .unwrap()
            .clone();
        assert_eq!(
            Value::Object(formatted_fields(fields, &values)),
            json!({"preco": "R$ 42,00", "zap": "https://wa.me/5531999990000"})
        );
    }
}
