//! What a shard's counts take in memory, reckoned as they grow (`super`'s "Bounded memory").
//!
//! A hash table's bytes follow from its capacity: hashbrown (std's `HashMap`) keeps a power of
//! two of buckets with at most 7/8 of them full, one control byte per bucket and 16 more; each
//! bucket holds one entry. So after an insert, the table's growth is the difference of
//! [`table`] at its capacity before and after: reckoned from the real tables, not an average.
//! Strings count their heap capacity. Checked against dhat's heap statistics in
//! `benches/benches/analytics_memory.rs`.
//!
//! The tables are hashbrown's own, with foldhash (what std's `HashMap` is built on, with the
//! hasher hashbrown itself defaults to): a counted page looks up its site-day, path, visitor
//! and page-visitor pair, and std's SipHash made those lookups a third of what counting cost.
//! hashbrown also finds a path by `&str` ([`PageRef`], [`PairRef`]), so a returning page
//! never copies its path. Every key an outsider chooses is bounded (at most [`super::MAX_PATHS`]
//! paths per site-day; visitors are HMACs nobody can aim), so colliding keys cost little.

use std::hash::{Hash, Hasher};
use std::mem::size_of;

use compact_str::CompactString;
use hashbrown::Equivalent;
use vitrine_shared::store::VisitorSeen;

/// The analytics' hash tables (see the module docs).
pub(super) type Map<K, V> = hashbrown::HashMap<K, V, foldhash::fast::RandomState>;
pub(super) type Set<K> = hashbrown::HashSet<K, foldhash::fast::RandomState>;

/// Who came and which pages they saw, for one site and day: made with the day's first
/// detail kept, so a site-day past the budget costs its counters only.
#[derive(Default)]
pub(super) struct Detail {
    pub visitors: Map<i64, VisitorSeen>,
    pub pages: Map<Page, i64>,
    pub page_visitors: Set<Pair>,
}

/// A path, and whether the site had it (`false`: its 404 was answered).
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Page {
    pub path: CompactString,
    pub found: bool,
}

/// A [`Page`] looked up by its path as sent.
#[derive(Clone, Copy, Hash)]
pub(super) struct PageRef<'a> {
    pub path: &'a str,
    pub found: bool,
}

/// A found page and one visitor who saw it.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Pair {
    pub path: CompactString,
    pub visitor: i64,
}

/// A [`Pair`] looked up by its path as sent.
#[derive(Clone, Copy, Hash)]
pub(super) struct PairRef<'a> {
    pub path: &'a str,
    pub visitor: i64,
}

// A key hashes as its borrowed form does, so either finds it.
impl Hash for Page {
    fn hash<H: Hasher>(&self, state: &mut H) {
        PageRef::from(self).hash(state);
    }
}

impl Hash for Pair {
    fn hash<H: Hasher>(&self, state: &mut H) {
        PairRef::from(self).hash(state);
    }
}

impl<'a> From<&'a Page> for PageRef<'a> {
    fn from(p: &'a Page) -> Self {
        PageRef {
            path: &p.path,
            found: p.found,
        }
    }
}

impl<'a> From<&'a Pair> for PairRef<'a> {
    fn from(p: &'a Pair) -> Self {
        PairRef {
            path: &p.path,
            visitor: p.visitor,
        }
    }
}

impl Equivalent<Page> for PageRef<'_> {
    fn equivalent(&self, key: &Page) -> bool {
        self.found == key.found && self.path == key.path
    }
}

impl Equivalent<Pair> for PairRef<'_> {
    fn equivalent(&self, key: &Pair) -> bool {
        self.visitor == key.visitor && self.path == key.path
    }
}

impl PageRef<'_> {
    pub fn owned(self) -> Page {
        Page {
            path: self.path.into(),
            found: self.found,
        }
    }
}

impl PairRef<'_> {
    pub fn owned(self) -> Pair {
        Pair {
            path: self.path.into(),
            visitor: self.visitor,
        }
    }
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
            + table::<(Page, i64)>(self.pages.capacity())
            + table::<Pair>(self.page_visitors.capacity())
    }

    /// What one more visitor, page or page-visitor pair adds to [`Detail::tables`].
    pub fn visitor_growth(&self) -> usize {
        growth::<(i64, VisitorSeen)>(self.visitors.len(), self.visitors.capacity())
    }

    pub fn page_growth(&self) -> usize {
        growth::<(Page, i64)>(self.pages.len(), self.pages.capacity())
    }

    pub fn pair_growth(&self) -> usize {
        growth::<Pair>(self.page_visitors.len(), self.page_visitors.capacity())
    }

    /// Everything it holds: its box, tables and strings.
    pub fn bytes(&self) -> usize {
        size_of::<Detail>()
            + self.tables()
            + self
                .visitors
                .values()
                .map(strings)
                .chain(self.pages.keys().map(|p| spilled(&p.path)))
                .chain(self.page_visitors.iter().map(|p| spilled(&p.path)))
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_grow_by_powers_of_two_at_seven_eighths() {
        let mut m: Map<i64, i64> = Map::default();
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
        let mut m: Map<i64, [u8; 40]> = Map::default();
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

    #[test]
    fn a_key_is_found_by_its_borrowed_form_and_only_by_its_own() {
        let mut pages: Map<Page, i64> = Map::default();
        let mut pairs: Set<Pair> = Set::default();
        let long = "/produtos/pao-de-queijo-mineiro-tradicional";
        for path in ["/", long] {
            for found in [true, false] {
                pages.insert(PageRef { path, found }.owned(), i64::from(found));
            }
            pairs.insert(PairRef { path, visitor: 7 }.owned());
        }
        for path in ["/", long] {
            for found in [true, false] {
                assert_eq!(pages.get(&PageRef { path, found }), Some(&i64::from(found)));
            }
            assert!(pairs.contains(&PairRef { path, visitor: 7 }));
            assert!(!pairs.contains(&PairRef { path, visitor: 8 }));
        }
        assert_eq!(
            pages.get(&PageRef {
                path: "/x",
                found: true
            }),
            None
        );
        assert!(!pairs.contains(&PairRef {
            path: "/x",
            visitor: 7
        }));
    }
}
