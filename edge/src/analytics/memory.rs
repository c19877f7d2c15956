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

/// What inserting one entry more into a table of `T` holding `len` at `capacity` adds to
/// [`table`]: nothing while it has room, else its growth (hashbrown sizes a full table for one
/// entry more than it holds). Known before the insert, so a share is never overshot.
pub(super) fn growth<T>(len: usize, capacity: usize) -> usize {
    if len < capacity {
        return 0;
    }
    // hashbrown's `capacity_to_buckets` for `capacity + 1` entries.
    let wanted = capacity + 1;
    let buckets = match wanted {
        0..4 => 4,
        4..8 => 8,
        _ => (wanted * 8 / 7).next_power_of_two(),
    };
    buckets * (size_of::<T>() + 1) + 16 - table::<T>(capacity)
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

    /// What one more visitor, page or page-visitor pair adds to [`Detail::tables`].
    pub fn visitor_growth(&self) -> usize {
        growth::<(i64, VisitorSeen)>(self.visitors.len(), self.visitors.capacity())
    }

    pub fn page_growth(&self) -> usize {
        growth::<((CompactString, bool), i64)>(self.pages.len(), self.pages.capacity())
    }

    pub fn pair_growth(&self) -> usize {
        growth::<(CompactString, i64)>(self.page_visitors.len(), self.page_visitors.capacity())
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

    #[test]
    fn a_tables_growth_is_known_before_the_insert() {
        let mut m: HashMap<i64, [u8; 40]> = HashMap::new();
        let mut grew = 0;
        for i in 0..5000 {
            let predicted = growth::<(i64, [u8; 40])>(m.len(), m.capacity());
            let before = table::<(i64, [u8; 40])>(m.capacity());
            m.insert(i, [0; 40]);
            let after = table::<(i64, [u8; 40])>(m.capacity());
            assert_eq!(predicted, after - before, "insert {i}");
            grew += usize::from(predicted > 0);
        }
        assert!(grew > 8, "{grew}");
    }
}
