//! Photos in the control plane (issue 44; the pipeline and its budgets are
//! `vitrine_shared::photos`): an upload's photo made in the sandbox's worker and its variants
//! stored beside it (`routes/uploads.rs` calls [`make`] and [`store_variants`]), its AVIF
//! variants made after the upload has answered ([`avif`]), and the background conversion of
//! the uploads made before photos existed, with its progress on the administrators'
//! `/erp/photos`.
//!
//! **Converting what was uploaded before.** One pass at a time per process, a photo at a time,
//! in the upload's own account's share of the workers (so a platform-wide pass never takes
//! more than any tenant could). Each old upload's original is replaced, under the same key, by
//! the upright copy without metadata (the digest in the key then names the bytes as sent, not
//! as kept: the only exception to content addressing, made for the owners' privacy; the
//! pictures look the same, since browsers honour the EXIF orientation the old file had). Its
//! variants are added to its account's usage without a quota check: the account keeps the
//! upload already. A file the worker refuses is noted (`photos.failed`) and passed by.

pub mod avif;

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use serde::Serialize;
use utoipa::ToSchema;
use vitrine_shared::{
    account::Account,
    ids::{AccountId, BusinessId},
    photos::{
        Encoded, Formats, MAX_PIXELS, Made, Photo, PhotoError, Variant, is_photo, variant_key,
    },
    sandbox::PhotoFailure,
    store::PhotoProgress,
};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// Seconds a caller is told to wait when every worker is busy.
const BUSY_RETRY_SECS: u64 = 5;

/// The fair-share account of an upload's account as the store spells it (`u{id}`, `b{id}`).
pub fn account_of(spelled: &str) -> Account {
    let id = |s: &str| s.parse::<i64>().unwrap_or(0);
    match spelled.split_at_checked(1) {
        Some(("b", n)) => Account::Business(BusinessId::new(id(n))),
        Some(("u", n)) => Account::User(AccountId::new(id(n))),
        _ => Account::Platform,
    }
}

/// The API's answer to a photo that was not made.
pub fn refusal(e: PhotoFailure) -> ApiError {
    let too_large = || {
        ApiError::invalid(
            "content",
            ErrorCode::ImageTooLarge,
            format!("The image is too large to process (at most {MAX_PIXELS} pixels)"),
        )
        .param("max_megapixels", MAX_PIXELS / 1_000_000)
    };
    match e {
        PhotoFailure::Refused(PhotoError::TooManyPixels { width, height }) => {
            too_large().param("width", width).param("height", height)
        }
        PhotoFailure::Exceeded(_) => too_large(),
        PhotoFailure::Refused(PhotoError::Unreadable(why)) => ApiError::invalid(
            "content",
            ErrorCode::ImageUnreadable,
            format!("The image cannot be read: {why}"),
        ),
        PhotoFailure::Busy(why) => {
            tracing::debug!(why, "no photo worker in time");
            ApiError::too_many_requests(
                ErrorCode::RendererBusy,
                "Every worker is busy; please try again in a moment",
                BUSY_RETRY_SECS,
            )
        }
        PhotoFailure::Broken(cause) => ApiError::Internal(anyhow::anyhow!(cause)),
    }
}

/// Makes `bytes` (an upload of kind `ext`) into its photo in `account`'s share of the
/// workers, with the variants of `formats`.
pub async fn make(
    core: &Core,
    account: Account,
    bytes: &[u8],
    ext: &str,
    formats: Formats,
) -> Result<Made> {
    let made = core
        .sandbox
        .photo(account, bytes, ext, formats)
        .await
        .map_err(refusal)?;
    tracing::info!(
        width = made.width,
        height = made.height,
        variants = made.variants.len(),
        cpu_ms = made.cpu.as_millis() as u64,
        "made a photo"
    );
    Ok(made)
}

/// The bytes of everything [`store_variants`] will write for `made`, original included.
pub fn stored_bytes(made: &Made) -> u64 {
    made.original.len() as u64
        + made
            .variants
            .iter()
            .map(|v| v.bytes.len() as u64)
            .sum::<u64>()
}

/// Writes `made` beside the upload `key`, answering what was written.
pub async fn put_variants(
    core: &Core,
    key: &str,
    made: Vec<Encoded>,
) -> anyhow::Result<Vec<Variant>> {
    let mut variants = Vec::with_capacity(made.len());
    for v in made {
        let variant = Variant {
            format: v.format,
            width: v.width,
            height: v.height,
            key: variant_key(key, v.width, v.format),
            bytes: v.bytes.len() as u64,
        };
        core.blobs.put(&variant.key, Bytes::from(v.bytes)).await?;
        variants.push(variant);
    }
    Ok(variants)
}

/// Writes the variants of the upload `key` beside it and the photo's row, answering the photo;
/// `avif_pending`: its AVIF variants are to be made in the background ([`avif`]).
pub async fn store_variants(
    core: &Core,
    key: &str,
    made: Made,
    avif_pending: bool,
) -> anyhow::Result<Photo> {
    let variants = put_variants(core, key, made.variants).await?;
    let photo = Photo {
        width: made.width,
        height: made.height,
        placeholder: made.placeholder,
        variants,
    };
    core.store.save_photo(key, &photo, avif_pending).await?;
    Ok(photo)
}

/// The conversion's state in this process, for `/erp/photos`.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Conversion {
    /// A pass is running in this process.
    pub running: bool,
    /// Photo uploads converted (or refused) and in all, across the platform.
    pub done: i64,
    pub total: i64,
    /// Of `done`, the uploads the worker refused.
    pub failed: i64,
    /// The last failure of this process's passes, for the administrator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// One process's passes (cheap to clone: shared state).
#[derive(Clone, Default)]
pub struct Conversions(Arc<Mutex<Conversion>>);

impl Conversions {
    /// The progress now: the store's counts and this process's pass.
    pub async fn progress(&self, core: &Core) -> Result<Conversion> {
        let PhotoProgress {
            done,
            total,
            failed,
        } = core.store.photo_progress().await?;
        let mine = self.0.lock().map(|c| c.clone()).unwrap_or_default();
        Ok(Conversion {
            done,
            total,
            failed,
            ..mine
        })
    }

    /// Starts a pass in the background unless one runs; answers whether it started.
    pub fn start(&self, core: &Core) -> bool {
        {
            let Ok(mut state) = self.0.lock() else {
                return false;
            };
            if state.running {
                return false;
            }
            state.running = true;
        }
        let (this, core) = (self.clone(), core.clone());
        tokio::spawn(async move {
            let result = convert_all(&core).await;
            if let Ok(mut state) = this.0.lock() {
                state.running = false;
                if let Err(e) = result {
                    state.last_error = Some(e.to_string());
                }
            }
        });
        true
    }
}

/// Converts every photo upload not yet converted; answers how many were looked at.
pub async fn convert_all(core: &Core) -> anyhow::Result<usize> {
    const BATCH: i64 = 20;
    let mut seen = 0;
    loop {
        let batch = core.store.photos_to_convert(BATCH).await?;
        if batch.is_empty() {
            return Ok(seen);
        }
        for (key, account) in batch {
            convert_one(core, &key, &account).await?;
            seen += 1;
        }
    }
}

/// Converts one old upload (see the module docs). Busy workers end the pass (tried again on
/// the next); the file's own faults are noted and passed by.
async fn convert_one(core: &Core, key: &str, account: &str) -> anyhow::Result<()> {
    let ext = key.rsplit_once('.').map_or("", |(_, e)| e);
    if !is_photo(ext) {
        return core
            .store
            .photo_failed(key, "not a photo")
            .await
            .map_err(Into::into);
    }
    let bytes = match core.blobs.get(key).await {
        Ok(b) => b,
        Err(vitrine_shared::blob::BlobError::NotFound) => {
            return Ok(core
                .store
                .photo_failed(key, "the upload is missing")
                .await?);
        }
        Err(e) => return Err(e.into()),
    };
    let made = match core
        .sandbox
        .photo(account_of(account), &bytes, ext, Formats::All)
        .await
    {
        Ok(made) => made,
        Err(e @ (PhotoFailure::Refused(_) | PhotoFailure::Exceeded(_))) => {
            return Ok(core.store.photo_failed(key, &e.to_string()).await?);
        }
        Err(e) => anyhow::bail!("{key}: {e}"),
    };
    let variant_bytes = stored_bytes(&made) - made.original.len() as u64;
    core.blobs
        .put(key, Bytes::from(made.original.clone()))
        .await?;
    store_variants(core, key, made, false).await?;
    core.store.add_upload_bytes(key, variant_bytes).await?;
    Ok(())
}
