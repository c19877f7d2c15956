//! Storing a build's bodies: each at its content-addressed key with its `.br` and `.gz`
//! variants (brotli and flate2: the maintained pure-Rust brotli port used by the Rust HTTP
//! stack, and the standard DEFLATE crate), written only when the key is not there yet.
//!
//! Compression is most of a build's CPU (brotli at quality 11), which is why a body already
//! stored is never compressed again: [`write`] checks the object store, and a build first asks
//! the live deploy's manifest (`super::reuse`), which spares even that check.

use std::io::Write;

use bytes::Bytes;
use vitrine_shared::blob::BlobStore;

use crate::error::PublishError;

/// Bodies smaller than this are not worth a compressed variant.
const MIN_COMPRESS: usize = 256;

/// Whether a body of this type shrinks under general-purpose compression.
fn compressible(content_type: &str) -> bool {
    let base = content_type.split(';').next().unwrap_or("").trim();
    base.starts_with("text/")
        || matches!(
            base,
            "application/javascript"
                | "application/json"
                | "application/xml"
                | "application/manifest+json"
                | "image/svg+xml"
                | "image/x-icon"
                | "image/vnd.microsoft.icon"
                | "font/ttf"
                | "font/otf"
                | "application/vnd.ms-fontobject"
        )
}

/// The `.br` and `.gz` variants worth keeping (each must save at least a tenth).
fn compress(data: &[u8]) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let worth = |v: Vec<u8>| (v.len() * 10 < data.len() * 9).then_some(v);
    // Quality 11 is slow on large bodies; pages and bundles are small, uploads can be large.
    let quality = if data.len() < 1024 * 1024 { 11 } else { 7 };
    let mut br = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, quality, 22);
        if w.write_all(data).is_err() {
            return (None, None);
        }
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let gz = gz.write_all(data).and_then(|_| gz.finish()).ok();
    (worth(br), gz.and_then(worth))
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
        tokio::task::spawn_blocking(move || compress(&body))
            .await
            .map_err(|e| PublishError::Internal(e.into()))?
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

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::*;

    #[test]
    fn compression_keeps_only_variants_that_help() {
        let text = "<p>olá</p>".repeat(200);
        let (br, gz) = compress(text.as_bytes());
        assert!(br.unwrap().len() < text.len() / 5);
        assert!(gz.unwrap().len() < text.len() / 5);
        // Hash output does not compress (like images and woff2 files).
        let noise: Vec<u8> = (0..128u32)
            .flat_map(|i| Sha256::digest(i.to_le_bytes()))
            .collect();
        let (br, gz) = compress(&noise);
        assert!(br.is_none() && gz.is_none());
        assert!(compressible("text/html; charset=utf-8"));
        assert!(!compressible("font/woff2"));
    }
}
