//! A deploy as the edge serves it: its manifest, and the redirect rules published with it.

use std::sync::{Arc, OnceLock};

use vitrine_shared::{manifest::Manifest, redirects::Matcher};

/// A deploy as the edge serves it. Its live pages' templates are owners' code, compiled and
/// rendered in the render sandbox only (compiling evaluates constants: `vitrine_shared::sandbox`).
pub struct DeployView {
    pub manifest: Manifest,
    manifest_matcher: OnceLock<Arc<Matcher>>,
    /// What it weighs in the manifest cache: its stored (JSON) size.
    pub(super) weight: u32,
}

impl DeployView {
    pub fn new(manifest: Manifest) -> DeployView {
        DeployView::weighing(manifest, 0)
    }

    pub(super) fn weighing(manifest: Manifest, stored_bytes: usize) -> DeployView {
        DeployView {
            manifest,
            manifest_matcher: OnceLock::new(),
            weight: u32::try_from(stored_bytes).unwrap_or(u32::MAX),
        }
    }

    /// The redirect rules published with the deploy, compiled on first use: what the edge
    /// uses when the live rules cannot be read.
    pub fn manifest_matcher(&self) -> Arc<Matcher> {
        self.manifest_matcher
            .get_or_init(|| {
                Arc::new(Matcher::new(
                    self.manifest
                        .redirects
                        .iter()
                        .map(|(f, t)| (f.as_str(), t.as_str())),
                ))
            })
            .clone()
    }
}
