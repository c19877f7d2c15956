//! The photo pipeline itself (see `vitrine_shared::photos`): decode within the budgets, turn
//! upright, encode the original again without metadata, resize and encode the variants. It
//! runs inside the sandbox's worker process (`vitrine_shared::sandbox`), never in a server's
//! own. Its tests are in `vitrine-shared` (`shared/src/photos/codec_tests.rs`), beside the
//! test photos they use.

use std::io::Cursor;

use base64::Engine;
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer, images};
use image::{
    DynamicImage, ImageDecoder, ImageEncoder, ImageFormat, ImageReader, Limits,
    codecs::{jpeg::JpegEncoder, png::PngEncoder},
};

use super::{
    AVIF_MAX_WIDTH, AVIF_SPEED, Encoded, Formats, MAX_DECODE_BYTES, MAX_PIXELS, PhotoError,
    PhotoFormat, widths_for,
};

/// JPEG quality of a re-encoded original, and of the fallback variants.
const ORIGINAL_QUALITY: u8 = 90;
const JPEG_QUALITY: u8 = 78;
/// libwebp's quality of the variants, and ravif's of the AVIF ones (AVIF at 60 looks like
/// JPEG at about 80, at half the bytes or less).
const WEBP_QUALITY: f32 = 75.0;
const AVIF_QUALITY: f32 = 60.0;
/// The placeholder's width in pixels, and its WebP quality.
const PLACEHOLDER_WIDTH: u32 = 16;
const PLACEHOLDER_QUALITY: f32 = 40.0;

/// A photo decoded and turned upright: 8-bit RGB or RGBA pixels.
pub struct Upright {
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
    pub pixels: Vec<u8>,
}

fn unreadable(e: impl std::fmt::Display) -> PhotoError {
    PhotoError::Unreadable(e.to_string())
}

fn format_of(ext: &str) -> Result<ImageFormat, PhotoError> {
    match ext {
        "jpg" => Ok(ImageFormat::Jpeg),
        "png" => Ok(ImageFormat::Png),
        "webp" => Ok(ImageFormat::WebP),
        other => Err(PhotoError::Unreadable(format!("not a photo: .{other}"))),
    }
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

/// The photo's size from its header alone, refused past [`MAX_PIXELS`] before anything is
/// decoded.
pub fn check_header(bytes: &[u8], ext: &str) -> Result<(u32, u32), PhotoError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format_of(ext)?);
    reader.limits(limits());
    let (width, height) = reader.into_dimensions().map_err(unreadable)?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PhotoError::TooManyPixels { width, height });
    }
    Ok((width, height))
}

/// A PNG up to the end of its `IEND` chunk: bytes after it, which browsers ignore and the
/// decoder refuses, are dropped (they are never kept: the photo is encoded again).
fn trimmed<'a>(bytes: &'a [u8], ext: &str) -> &'a [u8] {
    if ext == "png"
        && let Some(i) = bytes.windows(4).rposition(|w| w == b"IEND")
    {
        return &bytes[..(i + 8).min(bytes.len())];
    }
    bytes
}

/// Decodes the photo (after [`check_header`]) and turns it upright from its EXIF orientation.
pub fn decode(bytes: &[u8], ext: &str) -> Result<Upright, PhotoError> {
    let bytes = trimmed(bytes, ext);
    check_header(bytes, ext)?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format_of(ext)?);
    reader.limits(limits());
    let mut decoder = reader.into_decoder().map_err(unreadable)?;
    let orientation = decoder.orientation().map_err(unreadable)?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(unreadable)?;
    image.apply_orientation(orientation);
    let (width, height) = (image.width(), image.height());
    // An alpha channel that is opaque everywhere (a photo saved as PNG) is no transparency.
    let alpha = image.color().has_alpha() && {
        let rgba = image.to_rgba8();
        rgba.pixels().any(|p| p.0[3] != 255)
    };
    let pixels = if alpha {
        image.into_rgba8().into_raw()
    } else {
        image.into_rgb8().into_raw()
    };
    Ok(Upright {
        width,
        height,
        alpha,
        pixels,
    })
}

/// `photo` `width` pixels wide (its height in proportion, at least 1).
pub fn resize(photo: &Upright, width: u32) -> Result<Upright, PhotoError> {
    let height = ((u64::from(photo.height) * u64::from(width) + u64::from(photo.width) / 2)
        / u64::from(photo.width.max(1)))
    .max(1) as u32;
    if width == photo.width && height == photo.height {
        return Ok(Upright {
            pixels: photo.pixels.clone(),
            ..*photo
        });
    }
    let kind = if photo.alpha {
        PixelType::U8x4
    } else {
        PixelType::U8x3
    };
    let src = images::ImageRef::new(photo.width, photo.height, &photo.pixels, kind)
        .map_err(unreadable)?;
    let mut dst = images::Image::new(width, height, kind);
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
    Resizer::new()
        .resize(&src, &mut dst, &options)
        .map_err(unreadable)?;
    Ok(Upright {
        width,
        height,
        alpha: photo.alpha,
        pixels: dst.into_vec(),
    })
}

fn color(photo: &Upright) -> image::ExtendedColorType {
    if photo.alpha {
        image::ExtendedColorType::Rgba8
    } else {
        image::ExtendedColorType::Rgb8
    }
}

fn jpeg(photo: &Upright, quality: u8) -> Result<Vec<u8>, PhotoError> {
    let mut out = Vec::new();
    // JPEG has no alpha: a transparent photo's fallback is PNG (never asked here).
    JpegEncoder::new_with_quality(&mut out, quality)
        .encode(&photo.pixels, photo.width, photo.height, color(photo))
        .map_err(unreadable)?;
    Ok(out)
}

fn png(photo: &Upright) -> Result<Vec<u8>, PhotoError> {
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(&photo.pixels, photo.width, photo.height, color(photo))
        .map_err(unreadable)?;
    Ok(out)
}

fn webp(photo: &Upright, quality: f32) -> Result<Vec<u8>, PhotoError> {
    let encoder = if photo.alpha {
        webp::Encoder::from_rgba(&photo.pixels, photo.width, photo.height)
    } else {
        webp::Encoder::from_rgb(&photo.pixels, photo.width, photo.height)
    };
    let out = encoder
        .encode_simple(false, quality)
        .map_err(|e| PhotoError::Unreadable(format!("WebP: {e:?}")))?;
    Ok(out.to_vec())
}

fn avif(photo: &Upright) -> Result<Vec<u8>, PhotoError> {
    let encoder = ravif::Encoder::new()
        .with_quality(AVIF_QUALITY)
        .with_alpha_quality(AVIF_QUALITY)
        .with_speed(AVIF_SPEED)
        .with_num_threads(Some(1));
    let (w, h) = (photo.width as usize, photo.height as usize);
    let encoded = if photo.alpha {
        let pixels: Vec<ravif::RGBA8> = photo
            .pixels
            .chunks_exact(4)
            .map(|p| ravif::RGBA8::new(p[0], p[1], p[2], p[3]))
            .collect();
        encoder.encode_rgba(ravif::Img::new(&pixels[..], w, h))
    } else {
        let pixels: Vec<ravif::RGB8> = photo
            .pixels
            .chunks_exact(3)
            .map(|p| ravif::RGB8::new(p[0], p[1], p[2]))
            .collect();
        encoder.encode_rgb(ravif::Img::new(&pixels[..], w, h))
    };
    Ok(encoded.map_err(unreadable)?.avif_file)
}

/// The upright original in the upload's own format, without any metadata.
pub fn original(photo: &Upright, ext: &str) -> Result<Vec<u8>, PhotoError> {
    match ext {
        "jpg" if !photo.alpha => jpeg(photo, ORIGINAL_QUALITY),
        "webp" => webp(photo, ORIGINAL_QUALITY as f32),
        _ => png(photo),
    }
}

/// The extension the original is stored under: a JPEG stays one unless (never for a JPEG
/// decoder) it had transparency.
pub fn original_ext<'a>(photo: &Upright, ext: &'a str) -> &'a str {
    if ext == "jpg" && photo.alpha {
        "png"
    } else {
        ext
    }
}

/// The placeholder: the photo [`PLACEHOLDER_WIDTH`] pixels wide, as a WebP data URI.
pub fn placeholder(photo: &Upright) -> Result<String, PhotoError> {
    let small = resize(photo, PLACEHOLDER_WIDTH.min(photo.width))?;
    let bytes = webp(&small, PLACEHOLDER_QUALITY)?;
    Ok(format!(
        "data:image/webp;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

/// The variants `formats` names: each width of [`widths_for`] as WebP and the fallback, and
/// as AVIF up to [`AVIF_MAX_WIDTH`]. Each width is
/// resized from the next larger one already made (each step at most halves the width, so
/// Lanczos keeps its quality), which costs a fraction of resizing the whole photo each time.
pub fn variants(photo: &Upright, formats: Formats) -> Result<Vec<Encoded>, PhotoError> {
    let mut out = Vec::new();
    let mut widths = widths_for(photo.width);
    widths.sort_unstable_by(|a, b| b.cmp(a));
    let mut from: Option<Upright> = None;
    for width in widths {
        let small = resize(from.as_ref().unwrap_or(photo), width)?;
        let mut made = Vec::new();
        if formats.quick() {
            made.push((PhotoFormat::Webp, webp(&small, WEBP_QUALITY)?));
            made.push(if small.alpha {
                (PhotoFormat::Png, png(&small)?)
            } else {
                (PhotoFormat::Jpeg, jpeg(&small, JPEG_QUALITY)?)
            });
        }
        if formats.avif() && small.width <= AVIF_MAX_WIDTH {
            made.push((PhotoFormat::Avif, avif(&small)?));
        }
        for (format, bytes) in made {
            out.push(Encoded {
                format,
                width: small.width,
                height: small.height,
                bytes,
            });
        }
        from = Some(small);
    }
    out.sort_by_key(|v| (v.format.ext(), v.width));
    Ok(out)
}
