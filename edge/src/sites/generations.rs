//! Each project's generations, bumped by the change feed, and what a slow path or a render saw
//! of them: a hot route or a render is good while its project's generation is the one it saw.

use std::sync::{
    Arc,
    atomic::{AtomicU64, Ordering},
};

/// A project's generations, bumped by the change feed. Shared (`Arc`) so that a hot route
/// of a rendered page can check its project's records generation without the map's lock.
#[derive(Debug, Default)]
pub struct Generations {
    pub(super) site: AtomicU64,
    pub(super) records: AtomicU64,
}

/// A project's records generation as a render read it: still current while no record edit
/// of that project has landed since.
#[derive(Debug, Clone)]
pub struct RecordsSeen {
    pub(super) generations: Arc<Generations>,
    pub(super) seen: u64,
}

impl RecordsSeen {
    pub fn current(&self) -> bool {
        self.generations.records.load(Ordering::Acquire) == self.seen
    }
}

/// A project's site generation as a slow path read it: still current while no change that
/// can alter its static answers (a publish, unpublish, rollback, domain, redirect or
/// certificate change) has landed since. One tenant's changes end only its own hot routes.
#[derive(Debug, Clone, Default)]
pub struct SiteSeen {
    pub(super) generations: Arc<Generations>,
    pub(super) seen: u64,
}

impl SiteSeen {
    pub fn current(&self) -> bool {
        self.generations.site.load(Ordering::Acquire) == self.seen
    }
}
