//! The shared currency vectors (`testdata/currency.json`), which the dashboard's
//! `src/lib/currency.test.ts` runs too: amounts written in the four formats, amounts typed as
//! digits, and amounts read from files.

use super::*;
use crate::testing::fields::field;
use serde_json::{Value, json};

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../testdata/currency.json")).unwrap()
}

fn group<'a>(all: &'a Value, name: &str) -> &'a Vec<Value> {
    let list = all[name].as_array().unwrap();
    assert!(!list.is_empty(), "no {name} vectors");
    list
}

#[test]
fn the_formats_are_the_shared_ones() {
    let all = vectors();
    let listed: Vec<&str> = group(&all, "formats")
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(listed, CURRENCY_FORMATS);
}

#[test]
fn cents_are_written_as_the_shared_vectors_say() {
    for v in group(&vectors(), "format") {
        let (cents, symbol, format) = (
            v[0].as_i64().unwrap(),
            v[1].as_str().unwrap(),
            v[2].as_str().unwrap(),
        );
        assert_eq!(format_currency(cents, symbol, format), v[3], "{v}");
    }
}

#[test]
fn typed_amounts_are_read_as_the_shared_vectors_say() {
    let currency = field(FieldType::Currency);
    for v in group(&vectors(), "typed") {
        let got = match normalize(&currency, &v[0]) {
            Ok(Normalized::Value(value)) => value,
            Ok(other) => panic!("{v}: {other:?}"),
            Err(_) => Value::Null,
        };
        assert_eq!(got, v[1], "{v}");
    }
}

#[test]
fn file_amounts_are_read_as_the_shared_vectors_say() {
    for v in group(&vectors(), "read") {
        let (text, symbol, format) = (
            v[0].as_str().unwrap(),
            v[1].as_str().unwrap(),
            v[2].as_str().unwrap(),
        );
        let got = match parse_amount(text, symbol, format) {
            Ok(cents) => json!(cents),
            Err(AmountError::Unreadable) => json!("unreadable"),
            Err(AmountError::TooManyDecimals) => json!("too_many_decimals"),
            Err(AmountError::TooLarge) => json!("too_large"),
        };
        assert_eq!(got, v[3], "{v}");
    }
}
