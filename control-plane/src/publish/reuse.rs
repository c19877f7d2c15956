//! What a build takes from the project's live deploy instead of doing it again, so that a
//! republish costs little when little changed (issue 23: a no-change republish under 20 ms of
//! server time).
//!
//! A build still renders every page and hashes every body; nothing is skipped on the strength
//! of a fingerprint of its inputs, so a republish can never serve stale content. What it saves
//! is the writing: pages and assets are content-addressed (`manifest::page_key`,
//! `manifest::asset_key`), so a body that hashes to a key the live manifest already names is that
//! very object, already written with its `.br`/`.gz` variants. The build then takes the
//! manifest's entry for it (its variants included) and neither compresses (brotli at quality
//! 11 is most of a build's CPU) nor writes nor asks the object store whether it exists.
//!
//! This is safe because objects under `sites/{project}/` are never deleted while a manifest
//! may name them (the invariant in `vitrine_shared::manifest`'s layout doc): the live manifest's
//! entries, and therefore the new manifest's, keep pointing at objects that exist. Only entries
//! under the project's own `sites/{project}/` prefix are taken; pages of deploys written before
//! pages were content-addressed live under their deploy's prefix and are simply written anew.

use std::collections::{BTreeMap, HashMap};

use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    blob::BlobError,
    manifest::{Manifest, StaticFile, manifest_key},
    store::Project,
};

use crate::base::Core;

/// The content-addressed files of the project's live deploy, by object key.
#[derive(Default)]
pub(super) struct Previous {
    files: HashMap<String, StaticFile>,
}

impl Previous {
    /// The live deploy's files; none when the project has no live deploy or its manifest
    /// cannot be read (the build then writes everything, as a first publish does).
    pub(super) async fn load(core: &Core, project: &Project) -> Previous {
        let Some(deploy_id) = project.active_deploy_id else {
            return Previous::default();
        };
        let key = manifest_key(project.id, deploy_id);
        let manifest: Manifest = match core.blobs.get(&key).await {
            Ok(raw) => match serde_json::from_slice(&raw) {
                Ok(m) => m,
                Err(e) => {
                    tracing::warn!(project_id = project.id.get(), key, error = %e, "unreadable live manifest: nothing reused");
                    return Previous::default();
                }
            },
            Err(BlobError::NotFound) => return Previous::default(),
            Err(e) => {
                tracing::warn!(project_id = project.id.get(), key, error = %e, "live manifest unavailable: nothing reused");
                return Previous::default();
            }
        };
        Previous::of(project.id, manifest.routes)
    }

    /// The files among a manifest's `routes` that are `project_id`'s content-addressed objects.
    fn of(project_id: ProjectId, routes: BTreeMap<String, StaticFile>) -> Previous {
        let shared = format!("sites/{project_id}/");
        let files = routes
            .into_values()
            .filter(|f| f.key.starts_with(&shared))
            .map(|f| (f.key.clone(), f))
            .collect();
        Previous { files }
    }

    /// The `.br` and `.gz` keys the live deploy lists for the object at `key`, when it names
    /// that object: the object and those variants exist, and the content is the same (the
    /// key is the content's hash).
    pub(super) fn variants(&self, key: &str) -> Option<(Option<String>, Option<String>)> {
        self.files.get(key).map(|f| (f.br.clone(), f.gzip.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(key: &str) -> StaticFile {
        StaticFile {
            key: key.into(),
            content_type: "text/html; charset=utf-8".into(),
            etag: "\"x\"".into(),
            size: 1,
            br: Some(format!("{key}.br")),
            gzip: None,
            immutable: false,
        }
    }

    #[test]
    fn only_the_projects_content_addressed_objects_are_reused() {
        let mut routes = BTreeMap::new();
        for (path, key) in [
            ("/", "sites/7/pages/aa.html"),
            ("/old", "deploys/7/2/pages/old/index.html"),
            ("/_assets/bb.css", "sites/7/assets/bb.css"),
            ("/_assets/cc.css", "sites/70/assets/cc.css"),
        ] {
            routes.insert(path.to_string(), file(key));
        }
        let previous = Previous::of(ProjectId(7), routes);
        let br = |k: &str| Some(format!("{k}.br"));
        assert_eq!(
            previous.variants("sites/7/pages/aa.html"),
            Some((br("sites/7/pages/aa.html"), None))
        );
        assert!(previous.variants("sites/7/assets/bb.css").is_some());
        assert_eq!(previous.variants("deploys/7/2/pages/old/index.html"), None);
        assert_eq!(previous.variants("sites/70/assets/cc.css"), None);
        assert_eq!(previous.variants("sites/7/pages/dd.html"), None);
    }
}
