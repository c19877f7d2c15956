//! What the render-budget attacks of the hostile suites share (the control plane's and the
//! edge's): templates that would expand far past every budget, and the process's resident
//! memory, to show that an attack did not grow it.

use crate::render::Exceeded;

/// `(name, template, the budget it hits)`: each template would build 10 GB or more if nothing
/// stopped it, by a different road.
pub const EXPANSIONS: &[(&str, &str, Exceeded)] = &[
    (
        // 100 MB (MiniJinja's own cap on one repetition), then doubled seven times: 12.8 GB.
        "string repetition",
        "{% set a = 'x' * 100000000 %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}\
         {% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{% set a = a ~ a %}{{ a }}",
        Exceeded::Memory,
    ),
    (
        // 10^10 iterations of 1 MB each, written out.
        "nested loops",
        "{% for a in range(100000) %}{% for b in range(100000) %}{{ 'x' * 1000000 }}\
         {% endfor %}{% endfor %}",
        Exceeded::Output,
    ),
    (
        // The 100 000 numbers of a range joined by 1 MB separators: 100 GB.
        "range",
        "{{ range(100000) | join('x' * 1000000) }}",
        Exceeded::Memory,
    ),
    (
        // 10 000 strings of 1 MB joined: 10 GB.
        "join",
        "{{ (['x' * 1000000] * 10000) | join }}",
        Exceeded::Memory,
    ),
    (
        // A macro that calls itself three times, seven deep, over 10 MB leaves: macro output
        // is captured in memory, outside the output writer (3^7 × 10 MB ≈ 22 GB).
        "recursion via macros",
        "{% macro m(n) %}{% if n > 0 %}{{ m(n - 1) }}{{ m(n - 1) }}{{ m(n - 1) }}\
         {% else %}{{ 'x' * 10000000 }}{% endif %}{% endmacro %}{{ m(7) }}",
        Exceeded::Memory,
    ),
    (
        // A `{% set %}` block captures 100 000 × 100 KB (10 GB) before anything is written.
        "captured block",
        "{% set s %}{% for i in range(100000) %}{{ 'x' * 100000 }}{% endfor %}{% endset %}{{ s }}",
        Exceeded::Memory,
    ),
];

/// A template that walks 10^14 items inside one instruction (no fuel is spent on them): hours
/// of CPU and no memory.
pub const SPIN: &str = "{{ 1 in [0] * 100000000000000 }}";

/// Resident memory the attacks may add to the process at most.
pub const RSS_GROWTH_LIMIT: u64 = 64 * 1024 * 1024;

/// The process's resident memory since [`Rss::watch`]: the kernel's peak ("high-water mark")
/// is reset to the current resident size when watching starts, so a peak that came and went
/// during the attack is seen. Tests run in processes of their own (nextest), so nothing else
/// moves it.
pub struct Rss {
    start: u64,
}

fn status_kb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} missing from /proc/self/status"))
}

impl Rss {
    pub fn watch() -> Rss {
        // "5": reset the peak resident size to the current one (proc(5), clear_refs).
        std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
        Rss {
            start: status_kb("VmRSS:") * 1024,
        }
    }

    /// How far the resident memory's peak rose above its size at the start, in bytes.
    pub fn growth(&self) -> u64 {
        (status_kb("VmHWM:") * 1024).saturating_sub(self.start)
    }
}
