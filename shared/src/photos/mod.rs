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
//!   [`AVIF_MAX_WIDTH`] (an upload answers once the others are made; its AVIF variants
//!   follow in the background: [`Formats`]);
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
//! The codecs themselves are in their own crate, `vitrine-photo-codec` (`photo-codec/`, whose
//! items this module re-exports), which every build compiles optimised, together with the
//! codec crates: their generic encoders are compiled where they are called, and called from
//! this crate unoptimised they ran some 25 times slower.

use serde::{Deserialize, Serialize};
use std::time::Duration;

pub mod markup;

// The codecs and what they make, compiled in their own crate (see its docs for why).
pub use vitrine_photo_codec::{
    AVIF_MAX_WIDTH, AVIF_SPEED, Encoded, Formats, MAX_DECODE_BYTES, MAX_PIXELS, PhotoError,
    PhotoFormat, WIDTHS, codec, widths_for,
};

/// The photo worker's memory limit: the decoded photo (at most [`MAX_PIXELS`] × 4 bytes), its
/// upright copy, and the encoders' buffers.
pub const WORKER_MEMORY_BYTES: u64 = 1024 * 1024 * 1024;

/// The photo worker's CPU budget. A 12-megapixel photo takes a few seconds (docs/security.md).
pub const WORKER_CPU_MS: u64 = 60_000;

/// The photo worker's wall-clock limit from its start.
pub const WORKER_DEADLINE: Duration = Duration::from_secs(120);

/// How long an upload's photo may wait for a worker (they take seconds, not milliseconds).
pub const WORKER_WAIT: Duration = Duration::from_secs(30);

/// The file kinds made into photos, by the extension uploads store them under.
pub fn is_photo(ext: &str) -> bool {
    matches!(ext, "jpg" | "png" | "webp")
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

#[cfg(test)]
mod codec_tests;
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
