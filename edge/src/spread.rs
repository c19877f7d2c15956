//! Spread expiries. Entries made together (a node's first second of traffic, a burst after a
//! deploy) would all reach the end of `EDGE_SITE_TTL_MS` in the same instant and be refilled in
//! one wave: hundreds of host lookups and slow paths at once, which is a latency spike every
//! TTL for every visitor of the node. Each key's lifetime is instead cut by its own share of
//! the last quarter of the TTL, so refills are spread over a quarter of it. The share comes
//! from the key's hash, not a random draw: no generator on the hot path, and a key keeps its
//! offset from one refill to the next, so refills stay spread.
//!
//! Only the safety net moves: what the change feed makes stale is dropped at once, whatever
//! the TTL (see [`crate::sites`]).
//!
//! **Reloaded ahead of their end** (stale-while-revalidate): an entry that answers from the
//! database ([`Timed`]: a host's site, whether a name has a certificate) is, from half-way
//! through its life, reloaded in the background by the first read, which is answered from the
//! entry. A key read at least once per half TTL is never loaded while a visitor waits, and
//! what is served is never older than its lifetime. A change that lands during a reload must
//! discard it: owners keep an epoch, bumped before they invalidate, which the reload reads
//! before it starts and checks after its insert ([`Timed::stale_under`]).

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

/// How many steps the last quarter of the TTL is cut into.
const STEPS: u32 = 1024;

/// `ttl` less `key`'s share of its last quarter: between 3/4 of `ttl` and all of it.
pub fn lifetime(ttl: Duration, key: &(impl Hash + ?Sized)) -> Duration {
    // `DefaultHasher::new()` has fixed keys: the same key gets the same share in every process.
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    let step = (h.finish() % u64::from(STEPS)) as u32;
    ttl - ttl / 4 * step / STEPS
}

/// A cached answer from the database, with its spread end and its reload point.
pub struct Timed<T> {
    pub value: T,
    /// The owner's change epoch the load began under.
    epoch: u64,
    /// Its end: [`lifetime`] after it was made.
    ends: Instant,
    /// Half-way to its end: a read from then on reloads it in the background.
    reload_from: Instant,
    /// Set by the read that started the reload, so one read starts it.
    reloading: AtomicBool,
}

impl<T> Timed<T> {
    /// An entry for `key`, loaded under `epoch`, made now.
    pub fn new(value: T, epoch: u64, ttl: Duration, key: &str) -> Arc<Timed<T>> {
        let now = Instant::now();
        let life = lifetime(ttl, key);
        Arc::new(Timed {
            value,
            epoch,
            ends: now + life,
            reload_from: now + life / 2,
            reloading: AtomicBool::new(false),
        })
    }

    /// True for the one read, past half the entry's life, that is to reload it.
    pub fn claim_reload(&self) -> bool {
        Instant::now() >= self.reload_from && !self.reloading.swap(true, Ordering::AcqRel)
    }

    /// Whether a change landed since its load began (the owner's epoch is now `epoch`): then
    /// the owner's invalidation may have run before this entry was stored, and it must go.
    pub fn stale_under(&self, epoch: u64) -> bool {
        self.epoch != epoch
    }
}

/// The moka expiry of [`Timed`] entries: each ends at its own end, a reloaded one too (moka
/// keeps the replaced entry's expiry on an update unless told otherwise).
pub struct UntilEnd;

impl<K, T> moka::Expiry<K, Arc<Timed<T>>> for UntilEnd {
    fn expire_after_create(&self, _: &K, v: &Arc<Timed<T>>, now: Instant) -> Option<Duration> {
        Some(v.ends.saturating_duration_since(now))
    }

    fn expire_after_update(
        &self,
        _: &K,
        v: &Arc<Timed<T>>,
        now: Instant,
        _: Option<Duration>,
    ) -> Option<Duration> {
        Some(v.ends.saturating_duration_since(now))
    }
}

/// A tiny deterministic generator for the unit tests' input sweeps (here, at the bottom of the
/// request path, so any module's tests may use it).
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifetimes_fall_in_the_last_quarter_and_are_spread_across_it() {
        let ttl = Duration::from_secs(10);
        let lives: Vec<Duration> = (0..1000)
            .map(|i| lifetime(ttl, &format!("s{i}.localhost")))
            .collect();
        assert!(lives.iter().all(|l| *l <= ttl && *l >= ttl * 3 / 4));
        // In each tenth of that quarter some keys end, none holds a quarter of them.
        for tenth in 0..10u32 {
            let from = ttl * 3 / 4 + ttl / 40 * tenth;
            let n = lives
                .iter()
                .filter(|l| **l >= from && **l < from + ttl / 40)
                .count();
            assert!((40..250).contains(&n), "tenth {tenth}: {n} of 1000");
        }
        // A key keeps its share.
        assert_eq!(lifetime(ttl, "s1.localhost"), lifetime(ttl, "s1.localhost"));
    }

    #[test]
    fn an_entry_is_reloaded_by_one_read_from_half_its_life() {
        let ttl = Duration::from_millis(400);
        let e = Timed::new(true, 3, ttl, "s1.localhost");
        assert!(!e.claim_reload(), "young");
        std::thread::sleep(lifetime(ttl, "s1.localhost") / 2);
        assert!(e.claim_reload(), "the first read past half its life");
        assert!(!e.claim_reload(), "only the first");
        assert!(!e.stale_under(3));
        assert!(e.stale_under(4));
    }
}
