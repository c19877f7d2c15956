//! Vitrine's photo codecs (issue 44; the pipeline, its budgets and where photos are shown are
//! described in `vitrine_shared::photos`): decoding within the budgets, turning upright,
//! encoding the original again without metadata, resizing, and encoding the WebP, JPEG or
//! PNG, and AVIF variants ([`codec`]), with the types and limits they use.
//!
//! **Why a crate of its own.** The codec crates' encoders are generic (over pixel types,
//! writers and closures), so their code is generated in the crate that calls them, at that
//! crate's optimisation level. Called from `vitrine-shared`, which a debug build compiles
//! unoptimised, the AVIF encoder ran some 25 times slower than it does here, where the
//! workspace's `Cargo.toml` compiles this crate at `opt-level = 3` in every profile: a
//! template's five pictures took most of every seeding test's 35 s, and an owner's photo the
//! same in a debug build. Everything here is plain functions on bytes and pixels; the worker
//! process that calls them (`vitrine_shared::sandbox::photo`) stays in `vitrine-shared`.

pub mod codec;

use serde::{Deserialize, Serialize};

/// The widths (CSS pixels) variants are made at, never above the photo's own width.
pub const WIDTHS: [u32; 5] = [320, 640, 960, 1280, 1920];

/// The most pixels a photo may have: 50 megapixels (a 48-megapixel phone's 8064×6048 fits).
pub const MAX_PIXELS: u64 = 50_000_000;

/// What the decoders may allocate at most (checked by `image` before it allocates).
pub const MAX_DECODE_BYTES: u64 = 400 * 1024 * 1024;

/// rav1e's speed, 0 (slowest) to 10 (fastest).
pub const AVIF_SPEED: u8 = 10;

/// The widest AVIF variant: every width of [`WIDTHS`]. rav1e is the costliest encoder here by
/// far, so an upload answers before its AVIF variants are made ([`Formats`]). Measured on
/// 2026-11-30 on a 4000×3000 phone photo (the tests' `phone_photo`, made upright to
/// 3000×4000) in a debug build, this crate optimised, two cores otherwise idle: the upload
/// answered in 1.6 s with its original, placeholder, WebP and JPEG variants; its AVIF ones
/// followed 3.9 s later (1.7 s of them without the 1920 one, which is 38 KB against the WebP's
/// 139 KB). Before this crate was compiled optimised the same AVIF variants up to 1280 took
/// 58 s under load and the 1920 one 86 s alone, which is why they once stopped at 1280.
pub const AVIF_MAX_WIDTH: u32 = 1920;

/// Which variants a photo job makes.
///
/// AVIF is most of a photo's cost (see [`AVIF_MAX_WIDTH`]), so an upload answers once its
/// [`Formats::Quick`] ones are made and
/// its AVIF ones follow in the background (`control-plane/src/photos/avif.rs`): pages show
/// WebP until then, AVIF from the next publish or render on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formats {
    /// The original, the placeholder, and WebP with the fallback at every width.
    Quick,
    /// Only AVIF, at every width up to [`AVIF_MAX_WIDTH`], of a photo already upright.
    Avif,
    /// Everything at once.
    All,
}

impl Formats {
    /// How the worker's command line names it.
    pub fn arg(self) -> &'static str {
        match self {
            Formats::Quick => "quick",
            Formats::Avif => "avif",
            Formats::All => "all",
        }
    }

    pub fn parse(s: &str) -> Option<Formats> {
        [Formats::Quick, Formats::Avif, Formats::All]
            .into_iter()
            .find(|f| f.arg() == s)
    }

    /// Whether it makes WebP and the fallback.
    pub fn quick(self) -> bool {
        self != Formats::Avif
    }

    /// Whether it makes AVIF.
    pub fn avif(self) -> bool {
        self != Formats::Quick
    }
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

/// The widths a photo `width` pixels wide is made at: each of [`WIDTHS`] not above it, and its
/// own width when it is narrower than the largest.
pub fn widths_for(width: u32) -> Vec<u32> {
    let mut out: Vec<u32> = WIDTHS.iter().copied().filter(|&w| w <= width).collect();
    if width < WIDTHS[WIDTHS.len() - 1] && !out.contains(&width) {
        out.push(width);
    }
    out
}
