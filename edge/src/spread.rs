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

use std::{
    hash::{DefaultHasher, Hash, Hasher},
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

/// The moka expiry of entries that live [`lifetime`]: the TTL, spread by key.
pub struct Spread(pub Duration);

impl<K: Hash, V> moka::Expiry<K, V> for Spread {
    fn expire_after_create(&self, key: &K, _: &V, _: Instant) -> Option<Duration> {
        Some(lifetime(self.0, key))
    }
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
}
