//! The redirect matcher at 100 and at 100,000 rules: a lookup should cost the same, and
//! compiling 100,000 rules (once per deploy) should take at most 200 ms.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use vitrine_shared::redirects::Matcher;

fn rules(n: usize) -> Vec<(String, String)> {
    (0..n)
        .map(|i| {
            if i % 10 == 0 {
                (format!("/categoria-{i}/*"), format!("/c/{i}/*"))
            } else {
                (format!("/produto-antigo-{i}"), format!("/produtos/{i}"))
            }
        })
        .collect()
}

fn matcher(n: usize) -> Matcher {
    let rules = rules(n);
    Matcher::new(rules.iter().map(|(a, b)| (a.as_str(), b.as_str())))
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("redirect lookup");
    for n in [100usize, 100_000] {
        let m = matcher(n);
        let exact = format!("/produto-antigo-{}", n - 1);
        let wild = format!("/categoria-{}/sapatos/masculino", (n / 2 / 10) * 10);
        group.bench_with_input(BenchmarkId::new("exact", n), &n, |b, _| {
            b.iter(|| m.lookup(black_box(&exact), None))
        });
        group.bench_with_input(BenchmarkId::new("wildcard", n), &n, |b, _| {
            b.iter(|| m.lookup(black_box(&wild), Some("a=1")))
        });
        group.bench_with_input(BenchmarkId::new("miss", n), &n, |b, _| {
            b.iter(|| m.lookup(black_box("/nada/aqui"), None))
        });
    }
    group.finish();

    // Compiling a site's rules happens once per deploy at the edge; target ≤ 200 ms at 100,000.
    let mut group = c.benchmark_group("redirect compile");
    group.sample_size(10);
    for n in [100usize, 100_000] {
        let rules = rules(n);
        group.bench_with_input(BenchmarkId::new("compile", n), &n, |b, _| {
            b.iter(|| Matcher::new(rules.iter().map(|(a, b)| (a.as_str(), b.as_str()))))
        });
    }
    group.finish();
}

criterion_group!(redirects, benches);
criterion_main!(redirects);
