//! A body's compressed variants: brotli and gzip (the `brotli` crate, the maintained pure-Rust
//! port of Google's brotli that the Rust HTTP stack uses, and `flate2`, the standard DEFLATE
//! crate). Publishing stores them beside each body (`control-plane/src/publish/objects.rs`);
//! the edge's pages rendered from live records get theirs in the render worker, once per
//! render, within the render's CPU budget (`crate::sandbox`). Either way a visitor's request
//! never compresses anything: it picks a variant made beforehand.

use std::io::Write;

/// Bodies smaller than this are not worth a compressed variant.
pub const MIN_COMPRESS: usize = 256;

/// How hard to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// A publish: brotli at quality 11 (7 past 1 MiB) and gzip at level 9. Compression is
    /// most of a build's CPU, paid once per distinct body (keys are content hashes).
    Best,
    /// A page rendered from live records, paid once per render inside the render's CPU budget:
    /// brotli at quality 6 and gzip at level 6 (on the templates' pages, a millisecond or
    /// two together and within a few percent of the best sizes).
    Quick,
}

/// The `.br` and `.gz` variants worth keeping: each must save at least a tenth.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Variants {
    pub br: Option<Vec<u8>>,
    pub gzip: Option<Vec<u8>>,
}

/// Whether a body of this type shrinks under general-purpose compression.
pub fn compressible(content_type: &str) -> bool {
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

/// The variants of `data` worth keeping, or none for a body under [`MIN_COMPRESS`].
pub fn variants(data: &[u8], effort: Effort) -> Variants {
    if data.len() < MIN_COMPRESS {
        return Variants::default();
    }
    let worth = |v: Vec<u8>| (v.len() * 10 < data.len() * 9).then_some(v);
    let (quality, level) = match effort {
        // Quality 11 is slow on large bodies; pages and bundles are small, uploads can be large.
        Effort::Best if data.len() < 1024 * 1024 => (11, flate2::Compression::best()),
        Effort::Best => (7, flate2::Compression::best()),
        Effort::Quick => (6, flate2::Compression::new(6)),
    };
    let mut br = Vec::with_capacity(data.len() / 4);
    // The writer ends the stream when it is dropped, at the end of this block.
    let written = {
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, quality, 22);
        w.write_all(data).is_ok()
    };
    let br = written.then_some(br);
    let mut gz = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 4), level);
    let gz = gz.write_all(data).and_then(|_| gz.finish()).ok();
    Variants {
        br: br.and_then(worth),
        gzip: gz.and_then(worth),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use sha2::{Digest, Sha256};

    use super::*;

    #[test]
    fn variants_are_kept_only_when_they_help_and_decode_to_the_body() {
        let text = "<p>olá, padaria</p>".repeat(200);
        for effort in [Effort::Best, Effort::Quick] {
            let v = variants(text.as_bytes(), effort);
            let (br, gz) = (v.br.unwrap(), v.gzip.unwrap());
            assert!(br.len() < text.len() / 5 && gz.len() < text.len() / 5);
            let mut back = String::new();
            brotli::Decompressor::new(&br[..], 4096)
                .read_to_string(&mut back)
                .unwrap();
            assert_eq!(back, text);
            back.clear();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_string(&mut back)
                .unwrap();
            assert_eq!(back, text);
        }
        // Hash output does not compress (like images and woff2 files).
        let noise: Vec<u8> = (0..128u32)
            .flat_map(|i| Sha256::digest(i.to_le_bytes()))
            .collect();
        assert_eq!(variants(&noise, Effort::Quick), Variants::default());
        assert_eq!(variants(b"<p>oi</p>", Effort::Best), Variants::default());
        assert!(compressible("text/html; charset=utf-8"));
        assert!(!compressible("font/woff2"));
    }
}
