//! The photo codecs' tests (`vitrine_photo_codec::codec`), here beside the test photos
//! (`crate::testing::photos`) they use.

use image::{ImageEncoder, codecs::png::PngEncoder};

use super::{Formats, PhotoError, PhotoFormat, codec::*};

fn png_of(width: u32, height: u32, alpha: u8) -> Vec<u8> {
    let pixels: Vec<u8> = (0..width * height)
        .flat_map(|i| [(i % 251) as u8, (i / 7 % 256) as u8, 90, alpha])
        .collect();
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(&pixels, width, height, image::ExtendedColorType::Rgba8)
        .unwrap();
    out
}

#[test]
fn a_decompression_bomb_is_refused_from_its_header() {
    let bomb = crate::testing::photos::bomb_png(50_000, 50_000);
    assert_eq!(
        decode(&bomb, "png").err(),
        Some(PhotoError::TooManyPixels {
            width: 50_000,
            height: 50_000
        })
    );
}

#[test]
fn a_small_transparent_png_keeps_its_alpha_and_its_width() {
    let photo = decode(&png_of(100, 50, 128), "png").unwrap();
    assert!(photo.alpha);
    let made = variants(&photo, Formats::All).unwrap();
    let formats: Vec<(PhotoFormat, u32, u32)> =
        made.iter().map(|v| (v.format, v.width, v.height)).collect();
    assert_eq!(
        formats,
        vec![
            (PhotoFormat::Avif, 100, 50),
            (PhotoFormat::Png, 100, 50),
            (PhotoFormat::Webp, 100, 50)
        ]
    );
    assert!(
        placeholder(&photo)
            .unwrap()
            .starts_with("data:image/webp;base64,")
    );
    // An opaque PNG is a photo without alpha.
    assert!(!decode(&png_of(10, 10, 255), "png").unwrap().alpha);
}

#[test]
fn the_quick_and_the_avif_variants_together_are_all_of_them() {
    // Wider than the widest width, and small and flat: quick to encode at every width.
    let mut flat = Vec::new();
    PngEncoder::new(&mut flat)
        .write_image(
            &[200u8, 120, 40].repeat(2000 * 60),
            2000,
            60,
            image::ExtendedColorType::Rgb8,
        )
        .unwrap();
    let photo = decode(&flat, "png").unwrap();
    let shape = |formats| {
        let mut v: Vec<(PhotoFormat, u32, u32)> = variants(&photo, formats)
            .unwrap()
            .iter()
            .map(|v| (v.format, v.width, v.height))
            .collect();
        v.sort_by_key(|(f, w, _)| (f.ext(), *w));
        v
    };
    let (quick, avif) = (shape(Formats::Quick), shape(Formats::Avif));
    assert!(quick.iter().all(|(f, _, _)| *f != PhotoFormat::Avif));
    assert!(avif.iter().all(|(f, _, _)| *f == PhotoFormat::Avif));
    assert_eq!(
        avif.iter().map(|(_, w, _)| *w).collect::<Vec<_>>(),
        [320, 640, 960, 1280, 1920]
    );
    let mut both = [quick, avif].concat();
    both.sort_by_key(|(f, w, _)| (f.ext(), *w));
    assert_eq!(both, shape(Formats::All));
    for f in [Formats::Quick, Formats::Avif, Formats::All] {
        assert_eq!(Formats::parse(f.arg()), Some(f));
    }
}

#[test]
fn a_phone_photo_is_turned_upright_and_loses_its_exif() {
    use crate::testing::photos::{has_metadata, phone_photo};
    let sent = phone_photo(400, 300, 6);
    assert!(has_metadata(&sent));
    let photo = decode(&sent, "jpg").unwrap();
    assert_eq!((photo.width, photo.height), (300, 400));
    // The sensor's dark left edge is at the top once turned 90° clockwise.
    let top = photo.pixels[..300 * 3]
        .iter()
        .map(|&p| u32::from(p))
        .sum::<u32>();
    let bottom = photo.pixels[photo.pixels.len() - 300 * 3..]
        .iter()
        .map(|&p| u32::from(p))
        .sum::<u32>();
    assert!(top < bottom, "top {top} bottom {bottom}");
    let original = original(&photo, "jpg").unwrap();
    assert!(!has_metadata(&original));
    for v in variants(&photo, Formats::All).unwrap() {
        assert!(!has_metadata(&v.bytes), "{:?} {}", v.format, v.width);
        assert!(v.width <= 300);
    }
}

#[test]
fn bytes_after_a_pngs_end_are_dropped() {
    let mut sent = png_of(2, 2, 255);
    sent.extend_from_slice(b"capa");
    let photo = decode(&sent, "png").unwrap();
    assert_eq!((photo.width, photo.height), (2, 2));
}

#[test]
fn garbage_is_unreadable_not_a_panic() {
    assert!(matches!(
        decode(b"\x89PNG\r\n\x1a\nnonsense", "png"),
        Err(PhotoError::Unreadable(_))
    ));
    assert!(matches!(
        decode(b"\xff\xd8\xff\xe0garbage", "jpg"),
        Err(PhotoError::Unreadable(_))
    ));
}
