//! A deploy as the edge serves it: its manifest, and the redirect rules published with it.

use std::sync::{Arc, OnceLock};

use vitrine_shared::{
    manifest::{MAX_MANIFEST_BYTES, Manifest},
    redirects::Matcher,
};

use super::{Site, Sites, Unavailable};
use crate::metrics::CacheName;

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

impl Sites {
    /// The manifest of a site's live deploy (`None` when it is not published), from memory or
    /// read from the object store once (concurrent misses share the read).
    pub async fn deploy(&self, site: &Site) -> Result<Option<Arc<DeployView>>, Unavailable> {
        let Some(live) = &site.deploy else {
            return Ok(None);
        };
        let key = &live.manifest_key;
        let entry = self
            .deploys
            .entry(live.id)
            .or_try_insert_with(async {
                let bytes = self
                    .blobs
                    .get(key)
                    .await
                    .map_err(|e| Unavailable::Blob(format!("{key}: {e}")))?;
                if bytes.len() > MAX_MANIFEST_BYTES {
                    tracing::warn!(
                        key,
                        bytes = bytes.len(),
                        "manifest over the limit: not served"
                    );
                    return Ok(None);
                }
                let manifest: Manifest = serde_json::from_slice(&bytes)
                    .map_err(|e| Unavailable::Blob(format!("{key}: {e}")))?;
                Ok::<_, Unavailable>(Some(Arc::new(DeployView::weighing(manifest, bytes.len()))))
            })
            .await
            .map_err(|e| (*e).clone())?;
        self.metrics.cache(CacheName::manifest, !entry.is_fresh());
        match entry.into_value() {
            Some(deploy) => Ok(Some(deploy)),
            None => Err(Unavailable::Blob(format!(
                "{key}: over the {MAX_MANIFEST_BYTES} bytes a manifest may have"
            ))),
        }
    }
}
