//! The AVIF variants of uploaded photos, made after the upload has answered (issue 44).
//!
//! AVIF is most of what a photo costs: 58 of a 4000×3000 phone photo's 61 s under load
//! (`vitrine_shared::photos::AVIF_MAX_WIDTH`). So an upload makes its original, placeholder,
//! WebP and fallback variants ([`Formats::Quick`]), stores them with the photo flagged
//! `avif_pending`, answers, and wakes this pass, which makes the AVIF ones from the stored
//! upright original and adds them to the photo. Until then a page shows the WebP ones; the
//! next publish (or, at the edge, the next render of a page with records) offers AVIF too.
//!
//! **Fair.** Each round takes at most one pending photo per account, oldest key first, and
//! makes them side by side, each in its own account's share of the workers (the sandbox's
//! fair queue): an account that uploads a hundred photos has one made per round, and another
//! account's single photo goes in the same round as the first of them.
//!
//! **Durable.** The flag is in the database: a photo whose AVIF was not made before a restart
//! (or while every worker was busy) is made by the next pass, which runs at start, on every
//! upload and every [`RETRY`] while any is pending. A photo the worker refuses (over its
//! budget) keeps its other formats and is not tried again. The AVIF bytes are added to the
//! upload's charge without a quota check, as the conversion of older uploads does: the
//! account keeps the upload already, and AVIF variants are smaller than the WebP ones it was
//! charged for.

use std::{future::Future, sync::Arc, time::Duration};

use tokio::sync::Notify;
use vitrine_shared::{account::Account, photos::PhotoFormat, sandbox::PhotoFailure};

use super::{account_of, put_variants};
use crate::base::Core;

/// The most pending photos (so accounts) a round takes.
const PER_ROUND: i64 = 8;

/// How long the pass waits before trying again while photos are pending and the workers were
/// busy or the store failed.
pub const RETRY: Duration = Duration::from_secs(10);

/// What became of one photo's AVIF.
enum Outcome {
    Done,
    /// No worker came free, or the worker or the store failed: tried again later.
    Later,
}

/// The pass's wake-up (cheap to clone: shared).
#[derive(Clone, Default)]
pub struct AvifPass(Arc<Notify>);

impl AvifPass {
    /// Asks the pass to look for pending photos now.
    pub fn wake(&self) {
        self.0.notify_one();
    }

    /// Makes pending AVIF variants until `stop` resolves: at start, when woken, and every
    /// [`RETRY`] after a round that left photos for later.
    pub async fn run(self, core: Core, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        loop {
            let wait = tokio::select! {
                _ = &mut stop => return,
                finished = drain(&core) => if finished { None } else { Some(RETRY) },
            };
            tokio::select! {
                _ = &mut stop => return,
                _ = self.0.notified() => {}
                _ = tokio::time::sleep(wait.unwrap_or(Duration::MAX / 4)) => {}
            }
        }
    }
}

/// Makes every pending photo's AVIF, round by round; `false` when some were left for later.
pub async fn drain(core: &Core) -> bool {
    loop {
        let pending = match core.store.photos_awaiting_avif(PER_ROUND).await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e, "pending AVIF variants cannot be listed");
                return false;
            }
        };
        if pending.is_empty() {
            return true;
        }
        let round = pending.iter().map(|(key, account)| {
            let account = account.as_deref().map_or(Account::Platform, account_of);
            make_one(core, key, account)
        });
        let outcomes = futures::future::join_all(round).await;
        if outcomes.iter().any(|o| matches!(o, Outcome::Later)) {
            return false;
        }
    }
}

/// Makes, stores and adds the AVIF variants of the photo `key` in `account`'s share.
async fn make_one(core: &Core, key: &str, account: Account) -> Outcome {
    match try_make(core, key, account).await {
        Ok(outcome) => outcome,
        Err(e) => {
            tracing::warn!(key, error = %e, "AVIF variants not made; tried again later");
            Outcome::Later
        }
    }
}

async fn try_make(core: &Core, key: &str, account: Account) -> anyhow::Result<Outcome> {
    let ext = key.rsplit_once('.').map_or("", |(_, e)| e);
    let original = match core.blobs.get(key).await {
        Ok(b) => b,
        Err(vitrine_shared::blob::BlobError::NotFound) => {
            core.store.avif_given_up(key).await?;
            return Ok(Outcome::Done);
        }
        Err(e) => return Err(e.into()),
    };
    let (made, cpu) = match core.sandbox.photo_avif(account, &original, ext).await {
        Ok(made) => made,
        Err(e @ (PhotoFailure::Refused(_) | PhotoFailure::Exceeded(_))) => {
            tracing::info!(key, reason = %e, "no AVIF variants for this photo");
            core.store.avif_given_up(key).await?;
            return Ok(Outcome::Done);
        }
        Err(PhotoFailure::Busy(why)) => {
            tracing::debug!(key, why, "AVIF variants wait for a worker");
            return Ok(Outcome::Later);
        }
        Err(PhotoFailure::Broken(why)) => anyhow::bail!("{why}"),
    };
    let made = made
        .into_iter()
        .filter(|v| v.format == PhotoFormat::Avif)
        .collect();
    let variants = put_variants(core, key, made).await?;
    if core.store.add_avif(key, &variants).await? {
        let bytes = variants.iter().map(|v| v.bytes).sum();
        core.store.add_upload_bytes(key, bytes).await?;
        tracing::info!(
            key,
            variants = variants.len(),
            cpu_ms = cpu.as_millis() as u64,
            "made a photo's AVIF variants"
        );
    } else if core.store.photo(key).await?.is_none() {
        // The upload was deleted meanwhile: nothing names these files. (When another process
        // added its own, they are the same keys, and stay.)
        for v in &variants {
            core.blobs.delete(&v.key).await?;
        }
    }
    Ok(Outcome::Done)
}
