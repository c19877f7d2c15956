//! The collector of unreferenced uploads (issue 40, docs/security.md "Storage"): an upload no
//! project, page, record, section, collection, library block, template or live deploy names is
//! deleted once `UPLOAD_GRACE_SECS` have passed since it was uploaded (or last found in use),
//! and its bytes and file count go back to its account's share.
//!
//! Every control plane runs it. The store hands each upload to one node only: the claim is a
//! conditional `DELETE` of the upload's row that still requires it to be past its grace
//! ([`vitrine_shared::Store::release_upload`]), so two nodes never both give back its share,
//! and an upload made again meanwhile (its grace starts over) is never taken. An upload found
//! in use starts its grace again, so each round looks at the uploads unseen the longest.

use std::time::Duration;

use chrono::Utc;

use crate::base::Core;

/// Uploads looked at per round.
const BATCH: i64 = 100;

/// Collects every `UPLOAD_COLLECT_INTERVAL_SECS` until `shutdown`.
pub async fn run(core: Core, shutdown: impl std::future::Future<Output = ()>) {
    tokio::pin!(shutdown);
    let every = Duration::from_secs(core.settings.upload_collect_interval_secs.max(1));
    loop {
        match collect(&core).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(uploads = n, "deleted unreferenced uploads"),
            Err(e) => tracing::warn!(error = %e, "collecting unreferenced uploads failed"),
        }
        core.metrics.worker_round("uploads_collector");
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = &mut shutdown => break,
        }
    }
}

/// One round: deletes up to [`BATCH`] unreferenced uploads past their grace and answers how
/// many.
pub async fn collect(core: &Core) -> anyhow::Result<usize> {
    let now = Utc::now();
    let grace = chrono::Duration::seconds(
        i64::try_from(core.settings.upload_grace_secs).unwrap_or(i64::MAX / 1000),
    );
    let cutoff = now - grace;
    let candidates = core.store.uploads_unseen_since(cutoff, BATCH).await?;
    if candidates.is_empty() {
        return Ok(0);
    }
    // The live deploys' manifests (their `uploads` list and the templates of their live pages
    // name upload keys), read once per round and only when a candidate is named nowhere else.
    let mut live: Option<Vec<String>> = None;
    let mut deleted = 0;
    for key in candidates {
        let in_use = core.store.upload_is_named(&key).await? || {
            if live.is_none() {
                live = Some(live_manifests(core).await?);
            }
            live.iter().flatten().any(|m| m.contains(key.as_str()))
        };
        if in_use {
            core.store.renew_upload(&key, now).await?;
        } else if core.store.release_upload(&key, cutoff).await? {
            core.blobs.delete(&key).await?;
            // A photo's variants go with it (they were charged with it).
            for variant in core.store.delete_photo(&key).await? {
                core.blobs.delete(&variant).await?;
            }
            deleted += 1;
        }
    }
    Ok(deleted)
}

/// The text of every live deploy's manifest.
async fn live_manifests(core: &Core) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for key in core.store.live_manifest_keys().await? {
        let bytes = core.blobs.get(&key).await?;
        out.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    Ok(out)
}
