//! criterion micro-benchmarks of the per-value work an import does for every cell.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use vitrine_shared::{
    domain::slugify,
    fields::{FieldType, format_currency, normalize},
    testing::fields::field,
};

fn benches(c: &mut Criterion) {
    let text = field(FieldType::Text);
    let currency = field(FieldType::Currency);
    let multi = field(FieldType::Multiselect);
    let rich = field(FieldType::Wysiwyg);
    let whatsapp = field(FieldType::WhatsappLink);
    c.bench_function("normalize text", |b| {
        b.iter(|| normalize(&text, black_box(&json!("Um texto qualquer"))))
    });
    c.bench_function("normalize currency", |b| {
        b.iter(|| normalize(&currency, black_box(&json!("R$ 1.234,56"))))
    });
    c.bench_function("normalize multiselect", |b| {
        b.iter(|| normalize(&multi, black_box(&json!("Azul,Verde"))))
    });
    c.bench_function("normalize whatsapp", |b| {
        b.iter(|| normalize(&whatsapp, black_box(&json!("(11) 98765-4321"))))
    });
    c.bench_function("sanitise rich text (1 KB)", |b| {
        let html =
            json!("<p>Olá <b>mundo</b> <a href=\"https://x.example\">link</a></p>".repeat(16));
        b.iter(|| normalize(&rich, black_box(&html)))
    });
    c.bench_function("slugify title", |b| {
        b.iter(|| slugify(black_box("Ação & Reação: o guia definitivo 2026")))
    });
    c.bench_function("format currency", |b| {
        b.iter(|| format_currency(black_box(123_456_789), "R$", "(symbol) 9.999,99"))
    });
}

criterion_group!(fields, benches);
criterion_main!(fields);
