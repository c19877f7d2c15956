//! Storing a build's bodies: each at its content-addressed key ([`content_hash`]) with its
//! `.br` and `.gz` variants (`vitrine_shared::compress`, at its best effort), written only when
//! the key is not there yet.
//!
//! Compression is most of a build's CPU (brotli at quality 11), which is why a body already
//! stored is never compressed again: [`write`] checks the object store, and a build first asks
//! the live deploy's manifest (`super::reuse`), which spares even that check.

use bytes::Bytes;
use sha2::{Digest, Sha256};
use vitrine_shared::{
    blob::BlobStore,
    compress::{Effort, MIN_COMPRESS, Variants, compressible, variants},
};

use crate::error::PublishError;

/// Hex digits of the SHA-256 that name a content-addressed page or asset (64 bits: collisions
/// within one site are not a concern at this length).
const HASH_LEN: usize = 16;

fn hash_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The content hash that names a body's object and is its `ETag`.
pub(super) fn content_hash(bytes: &[u8]) -> String {
    hash_hex(bytes)[..HASH_LEN].to_string()
}

/// Writes `data` and its variants at `key` unless an object is already there (an earlier
/// deploy's: keys are content hashes), and returns the variants' keys. Variants are
/// written before the body, so an existing body implies its variants exist.
pub(super) async fn write(
    blobs: &BlobStore,
    key: &str,
    data: Bytes,
    content_type: &str,
) -> Result<(Option<String>, Option<String>), PublishError> {
    let (br_key, gz_key) = (format!("{key}.br"), format!("{key}.gz"));
    let want_variants = data.len() >= MIN_COMPRESS && compressible(content_type);
    if blobs.exists(key).await? {
        if !want_variants {
            return Ok((None, None));
        }
        let br = blobs.exists(&br_key).await?;
        let gz = blobs.exists(&gz_key).await?;
        return Ok((br.then_some(br_key), gz.then_some(gz_key)));
    }
    let (br, gz) = if want_variants {
        let body = data.clone();
        let Variants { br, gzip } =
            tokio::task::spawn_blocking(move || variants(&body, Effort::Best))
                .await
                .map_err(|e| PublishError::Internal(e.into()))?;
        (br, gzip)
    } else {
        (None, None)
    };
    let mut written = (None, None);
    if let Some(br) = br {
        blobs.put(&br_key, br.into()).await?;
        written.0 = Some(br_key);
    }
    if let Some(gz) = gz {
        blobs.put(&gz_key, gz.into()).await?;
        written.1 = Some(gz_key);
    }
    blobs.put(key, data).await?;
    Ok(written)
}
