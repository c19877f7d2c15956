//! What a shard's counts take in memory, reckoned as they grow (`super`'s "Bounded memory").
//!
//! A hash table's bytes follow from its capacity: hashbrown (std's `HashMap`) keeps a power of
//! two of buckets with at most 7/8 of them full, one control byte per bucket and 16 more; each
//! bucket holds one entry. So after an insert, the table's growth is the difference of
//! [`table`] at its capacity before and after: reckoned from the real tables, not an average.
//! Strings count their heap capacity. Checked against dhat's heap statistics in
//! `benches/benches/analytics_memory.rs`.

use std::collections::{HashMap, HashSet};
use std::mem::size_of;

use compact_str::CompactString;
use vitrine_shared::store::VisitorSeen;

/// Who came and which pages they saw, for one site and day: made with the day's first
/// detail kept, so a site-day past the budget costs its counters only.
#[derive(Default)]
pub(super) struct Detail {
    pub visitors: HashMap<i64, VisitorSeen>,
    pub pages: HashMap<(CompactString, bool), i64>,
    pub page_visitors: HashSet<(CompactString, i64)>,
}

/// The bytes of a hash table of `T` entries holding up to `capacity`.
pub(super) fn table<T>(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    buckets * (size_of::<T>() + 1) + 16
}

/// The heap a path takes past [`CompactString`]'s 24 inline bytes.
pub(super) fn spilled(path: &CompactString) -> usize {
    if path.is_heap_allocated() {
        path.capacity()
    } else {
        0
    }
}

/// The heap bytes of a visitor's strings.
pub(super) fn strings(v: &VisitorSeen) -> usize {
    [
        &v.source,
        &v.utm_source,
        &v.utm_medium,
        &v.utm_campaign,
        &v.device,
        &v.language,
    ]
    .iter()
    .map(|s| s.capacity())
    .sum()
}

impl Detail {
    /// The bytes of its three tables (without the strings).
    pub fn tables(&self) -> usize {
        table::<(i64, VisitorSeen)>(self.visitors.capacity())
            + table::<((CompactString, bool), i64)>(self.pages.capacity())
            + table::<(CompactString, i64)>(self.page_visitors.capacity())
    }

    /// Everything it holds: its box, tables and strings.
    pub fn bytes(&self) -> usize {
        size_of::<Detail>()
            + self.tables()
            + self
                .visitors
                .values()
                .map(strings)
                .chain(self.pages.keys().map(|(p, _)| spilled(p)))
                .chain(self.page_visitors.iter().map(|(p, _)| spilled(p)))
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_grow_by_powers_of_two_at_seven_eighths() {
        let mut m: HashMap<i64, i64> = HashMap::new();
        assert_eq!(table::<(i64, i64)>(m.capacity()), 0);
        for i in 0..1000 {
            m.insert(i, i);
            let buckets = (table::<(i64, i64)>(m.capacity()) - 16) / 17;
            assert!(buckets.is_power_of_two(), "{buckets}");
            assert!(
                buckets * 7 / 8 >= m.len() || buckets <= 8,
                "{buckets} {}",
                m.len()
            );
            assert!(m.capacity() < buckets, "{} {buckets}", m.capacity());
        }
    }
}
