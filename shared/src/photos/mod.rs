//! Photos (issue 44): every JPEG, PNG or WebP an owner uploads is turned, in a sandbox worker,
//! into what a published page needs, and its original is stored without its metadata.
//!
//! **What is made.** The photo is decoded, turned upright from its EXIF orientation, and then:
//! - the **original** is encoded again at full size in its own format (JPEG at quality 90, PNG
//!   lossless, WebP lossy at 90). Nothing of the file as sent is copied, so no EXIF, XMP, IPTC
//!   or comment survives: a phone photo's GPS position is often the owner's home;
//! - **variants** at [`WIDTHS`] (320 to 1920 CSS pixels, never upscaled: a photo narrower than
//!   1920 adds its own width as the largest), each as WebP and a fallback (JPEG, or PNG for a
//!   photo with transparency) for the browsers without either, and as AVIF up to
//!   [`AVIF_MAX_WIDTH`];
//! - a **placeholder**: the photo 16 pixels wide as a WebP data URI (about 200 bytes), which a
//!   page shows, scaled and so blurred, while the photo loads;
//! - its **intrinsic size**, upright, for `width` and `height` (no layout shift).
//!
//! **Where they are shown.** A published page's `<img>` of a photo becomes a `<picture>` at
//! publish (`control-plane/src/publish/photos.rs`), and so does one on a page the edge renders
//! from records (a collection page, a page with lists: `edge/src/live/photos.rs`, in the render
//! worker), both by [`markup`]. The shipped templates' pictures are made into photos by the
//! seed like any upload (`control-plane/src/seed/images.rs`).
//!
//! **Budgets.** A decoder is handed a photo only after its header has been read and its pixels
//! counted against [`MAX_PIXELS`]: a 50000×50000 PNG of a few kilobytes (a decompression
//! bomb, 10 GB once decoded) is refused before any pixel is decoded ([`PhotoError::TooManyPixels`],
//! the API's 422 `image_too_large`), and the decoders' own allocation limit
//! ([`MAX_DECODE_BYTES`]) stops a file whose header lies. Everything runs in a worker process
//! of the render sandbox (`crate::sandbox::photo`): [`WORKER_MEMORY_BYTES`] of memory,
//! [`WORKER_CPU_MS`] of CPU, [`WORKER_DEADLINE`] of wall clock, in the uploader's account's
//! fair share of the workers. A crafted photo can take down its worker, never a server.
//!
//! **Libraries**, all kept and widely used:
//! - `image` 0.25 (image-rs): the decoders (zune-jpeg, png, image-webp, all pure Rust), with
//!   header-first dimensions, allocation [`image::Limits`], and the EXIF orientation
//!   (`ImageDecoder::orientation`, `DynamicImage::apply_orientation`); its JPEG and PNG
//!   encoders write no metadata at all;
//! - `fast_image_resize` 6: SIMD convolution resizing (Lanczos3), many times `image`'s own
//!   resize, which matters at 12 megapixels within a CPU budget;
//! - `ravif` 0.13 (the `cavif` tool's library, on rav1e): AVIF in pure Rust, without rav1e's
//!   assembly (it would need nasm to build) and without threads (a worker has one core's
//!   budget), at its fastest speed ([`AVIF_SPEED`]);
//! - `webp` 0.3: bindings to Google's libwebp (built from source by libwebp-sys, no system
//!   library), the reference lossy encoder: image-rs's own WebP encoder is lossless only.
//!
//! In debug builds the codecs are built at `opt-level = 3` (the workspace's Cargo.toml), or a
//! test's photo would take minutes.

use serde::{Deserialize, Serialize};
use std::time::Duration;

pub mod codec;
pub mod markup;

/// The widths (CSS pixels) variants are made at, never above the photo's own width.
pub const WIDTHS: [u32; 5] = [320, 640, 960, 1280, 1920];

/// The most pixels a photo may have: 50 megapixels (a 48-megapixel phone's 8064×6048 fits).
pub const MAX_PIXELS: u64 = 50_000_000;

/// What the decoders may allocate at most (checked by `image` before it allocates).
pub const MAX_DECODE_BYTES: u64 = 400 * 1024 * 1024;

/// The photo worker's memory limit: the decoded photo (at most [`MAX_PIXELS`] × 4 bytes), its
/// upright copy, and the encoders' buffers.
pub const WORKER_MEMORY_BYTES: u64 = 1024 * 1024 * 1024;

/// The photo worker's CPU budget. A 12-megapixel photo takes a few seconds (docs/security.md).
pub const WORKER_CPU_MS: u64 = 60_000;

/// The photo worker's wall-clock limit from its start.
pub const WORKER_DEADLINE: Duration = Duration::from_secs(120);

/// How long an upload's photo may wait for a worker (they take seconds, not milliseconds).
pub const WORKER_WAIT: Duration = Duration::from_secs(30);

/// rav1e's speed, 0 (slowest) to 10 (fastest).
pub const AVIF_SPEED: u8 = 10;

/// The widest AVIF variant. rav1e without its assembly is slow (about a second per megapixel
/// at its fastest speed, unloaded): the 1920 variant alone costs more than all the others
/// together. Measured on 2026-11-29 on a 4000×3000 phone photo made upright (3000×4000), on this
/// project's two cores under a load average of 12 (wall clock, debug build with the codecs at
/// `opt-level = 3`): AVIF at 320, 640, 960 and 1280 took 4.0, 9.7, 15.6 and 28.8 s (58 s in
/// all), at 1920 86 s alone; WebP and JPEG at 1920 1.6 and 1.7 s. With the 1920 AVIF a photo
/// would take two and a half times as long and leave [`WORKER_DEADLINE`] no margin on a busy
/// machine, so it is not made. Phones, where bytes matter most, take at most 1280 (390 CSS
/// pixels at DPR 3 need 1170); a wider screen that reads AVIF takes the 1280 one, others the
/// 1920 WebP.
pub const AVIF_MAX_WIDTH: u32 = 1280;

/// The file kinds made into photos, by the extension uploads store them under.
pub fn is_photo(ext: &str) -> bool {
    matches!(ext, "jpg" | "png" | "webp")
}

/// A variant's encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhotoFormat {
    Avif,
    Webp,
    Jpeg,
    Png,
}

impl PhotoFormat {
    pub fn ext(self) -> &'static str {
        match self {
            PhotoFormat::Avif => "avif",
            PhotoFormat::Webp => "webp",
            PhotoFormat::Jpeg => "jpg",
            PhotoFormat::Png => "png",
        }
    }

    pub fn mime(self) -> &'static str {
        match self {
            PhotoFormat::Avif => "image/avif",
            PhotoFormat::Webp => "image/webp",
            PhotoFormat::Jpeg => "image/jpeg",
            PhotoFormat::Png => "image/png",
        }
    }

    pub fn parse(s: &str) -> Option<PhotoFormat> {
        [
            PhotoFormat::Avif,
            PhotoFormat::Webp,
            PhotoFormat::Jpeg,
            PhotoFormat::Png,
        ]
        .into_iter()
        .find(|f| f.ext() == s)
    }
}

/// Why a photo was refused (the owner's file, not the platform).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhotoError {
    #[error("the image is {width}×{height} pixels, more than {MAX_PIXELS}")]
    TooManyPixels { width: u32, height: u32 },
    #[error("the image cannot be read: {0}")]
    Unreadable(String),
}

/// One encoded variant, as the worker made it.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub format: PhotoFormat,
    pub width: u32,
    pub height: u32,
    pub bytes: Vec<u8>,
}

/// Everything made of one photo.
#[derive(Debug, Clone)]
pub struct Made {
    /// The upright original without metadata, in the upload's own format.
    pub original: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// A `data:image/webp;base64,…` URI of the photo 16 pixels wide.
    pub placeholder: String,
    pub variants: Vec<Encoded>,
    /// The CPU time the worker used.
    pub cpu: Duration,
}

/// A stored variant: where it is and what it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    pub format: PhotoFormat,
    pub width: u32,
    pub height: u32,
    /// Its object key, beside the original's (`uploads/…/{digest}/{stem}.{width}w.{ext}`).
    pub key: String,
    pub bytes: u64,
}

/// A stored photo: what a page needs to show an upload as a `<picture>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Photo {
    pub width: u32,
    pub height: u32,
    pub placeholder: String,
    pub variants: Vec<Variant>,
}

/// The object key of a variant of the upload `original` (an upload key ending `{stem}.{ext}`).
pub fn variant_key(original: &str, width: u32, format: PhotoFormat) -> String {
    let stem = original.rsplit_once('.').map_or(original, |(stem, _)| stem);
    format!("{stem}.{width}w.{}", format.ext())
}

/// The widths a photo `width` pixels wide is made at: each of [`WIDTHS`] not above it, and its
/// own width when it is narrower than the largest.
pub fn widths_for(width: u32) -> Vec<u32> {
    let mut out: Vec<u32> = WIDTHS.iter().copied().filter(|&w| w <= width).collect();
    if width < WIDTHS[WIDTHS.len() - 1] && !out.contains(&width) {
        out.push(width);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_never_upscaled() {
        assert_eq!(widths_for(4000), vec![320, 640, 960, 1280, 1920]);
        assert_eq!(widths_for(1000), vec![320, 640, 960, 1000]);
        assert_eq!(widths_for(960), vec![320, 640, 960]);
        assert_eq!(widths_for(100), vec![100]);
    }

    #[test]
    fn variants_sit_beside_their_original() {
        assert_eq!(
            variant_key("uploads/1/2/abc/foto.jpg", 640, PhotoFormat::Avif),
            "uploads/1/2/abc/foto.640w.avif"
        );
        assert!(crate::uploads::UploadKey::parse("uploads/1/2/abc/foto.640w.avif").is_some());
    }
}
