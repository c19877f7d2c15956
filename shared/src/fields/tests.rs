//! Field values: validation and normalisation by type, refusals, retyping, currency, CSV
//! cells and stored HTML.

use super::*;
use crate::error_code::ErrorCode;
use crate::testing::fields::field;
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
        Normalized::RelationId(PostId(12))
    );
    assert_eq!(
        normalize(&field(FieldType::Relation), &json!("12")).unwrap(),
        Normalized::RelationId(PostId(12))
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
