//! What a [`super::Prepared`] keeps of a representation's body once loaded.
//!
//! A small body is held outright: the plain front writes it from the hot route without
//! touching a reference count another thread also moves. A large one is only *named*: the
//! hot route keeps a weak reference to the file cache's entry and answers from it while the
//! file cache holds it. So a large page is in memory once, in the file cache, rather than
//! once there and once in each visitor thread's hot routes, and those hot routes, weighed by
//! what they hold ([`crate::hot`]), can name many more large pages than their budget holds
//! bytes of. With pages of 97.7 KB on 1,000 sites, the hot routes' 24 MiB a thread held about
//! a quarter of them and most requests took the slow path (`benches/README.md`). When the
//! file cache lets a body go, the route stops answering with it and the next request goes
//! the full path, which loads the body again.

use std::sync::{Arc, Weak};

use bytes::Bytes;

/// Bodies of this many bytes or more are named, not held. The two reference counts a named
/// body's answer moves cost a fraction of a microsecond, against tens spent writing 32 KiB.
pub const NAMED_FROM: usize = 32 * 1024;

#[derive(Clone)]
pub enum Held {
    /// Held here: small bodies, and pages rendered from records (the file cache has none).
    Own(Bytes),
    /// The file cache's entry, while it lasts.
    Named(Weak<Bytes>),
}

impl Held {
    /// What to keep of a body read from the file cache.
    pub fn from_cache(body: &Arc<Bytes>) -> Held {
        if body.len() >= NAMED_FROM {
            Held::Named(Arc::downgrade(body))
        } else {
            Held::Own(Bytes::clone(body))
        }
    }

    /// The body, while it is there.
    pub fn get(&self) -> Option<Bytes> {
        match self {
            Held::Own(b) => Some(b.clone()),
            Held::Named(w) => w.upgrade().map(|b| Bytes::clone(&b)),
        }
    }

    /// The body held outright, if it is.
    pub fn own(&self) -> Option<&Bytes> {
        match self {
            Held::Own(b) => Some(b),
            Held::Named(_) => None,
        }
    }

    /// Whether an answer can still be made from it.
    pub fn alive(&self) -> bool {
        match self {
            Held::Own(_) => true,
            Held::Named(w) => w.strong_count() > 0,
        }
    }

    /// Bytes held outright (a named body is the file cache's to count).
    pub fn own_len(&self) -> usize {
        self.own().map_or(0, Bytes::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_bodies_are_held_and_large_ones_named_while_the_cache_keeps_them() {
        let small = Arc::new(Bytes::from(vec![b'a'; NAMED_FROM - 1]));
        let held = Held::from_cache(&small);
        drop(small);
        assert!(held.alive());
        assert_eq!(held.own_len(), NAMED_FROM - 1);
        assert_eq!(held.get().unwrap().len(), NAMED_FROM - 1);

        let large = Arc::new(Bytes::from(vec![b'b'; NAMED_FROM]));
        let named = Held::from_cache(&large);
        assert_eq!(named.own_len(), 0);
        assert!(named.own().is_none());
        assert_eq!(named.get().unwrap(), *large);
        // The cache lets it go: the route has nothing left to answer with.
        drop(large);
        assert!(!named.alive());
        assert!(named.get().is_none());
    }
}
