//! Photos for tests: a phone's JPEG (gradients and sensor-like noise, EXIF orientation and a GPS
//! position), and a decompression bomb's PNG header.

use image::{ImageEncoder, codecs::jpeg::JpegEncoder};

/// The text in the phone photo's GPS tags (`GPSMapDatum`): no stored file may contain it.
pub const GPS_MARK: &[u8] = b"VITRINE-HOME-GPS";

/// A `width`×`height` JPEG as a phone makes it: the sensor's landscape pixels, an EXIF
/// orientation of `orientation` (6: turn 90° clockwise to show it, a portrait photo) and GPS
/// tags with a latitude and [`GPS_MARK`]. At 4000×3000 it is about 4 MB.
pub fn phone_photo(width: u32, height: u32, orientation: u16) -> Vec<u8> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut pixels = Vec::with_capacity((width * height * 3) as usize);
    for y in 0..height {
        for x in 0..width {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let noise = (seed % 25) as i32 - 12;
            // A sky over a warm ground, and a darker left edge: which side is up shows.
            let (r, g, b) = if y < height / 2 {
                (90 + (x * 60 / width) as i32, 140, 220)
            } else {
                (170, 120 + (y * 40 / height) as i32, 70)
            };
            let edge = if x < width / 10 { -60 } else { 0 };
            for c in [r, g, b] {
                pixels.push((c + noise + edge).clamp(0, 255) as u8);
            }
        }
    }
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, 93)
        .write_image(&pixels, width, height, image::ExtendedColorType::Rgb8)
        .expect("encode the test photo");
    let exif = exif(orientation);
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xff, 0xe1]);
    out.extend_from_slice(&(exif.len() as u16 + 2).to_be_bytes());
    out.extend_from_slice(&exif);
    out.extend_from_slice(&jpeg[2..]);
    out
}

/// An EXIF APP1 body: IFD0 with the orientation and a GPS IFD pointer, the GPS IFD with a
/// latitude and a map datum.
fn exif(orientation: u16) -> Vec<u8> {
    let mut t = b"Exif\0\0MM\0\x2a\0\0\0\x08".to_vec();
    let entry = |t: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: u32| {
        t.extend_from_slice(&tag.to_be_bytes());
        t.extend_from_slice(&kind.to_be_bytes());
        t.extend_from_slice(&count.to_be_bytes());
        t.extend_from_slice(&value.to_be_bytes());
    };
    // IFD0 at 8 (offsets count from the TIFF header, 6 bytes in).
    t.extend_from_slice(&2u16.to_be_bytes());
    entry(&mut t, 0x0112, 3, 1, u32::from(orientation) << 16);
    entry(&mut t, 0x8825, 4, 1, 38);
    t.extend_from_slice(&0u32.to_be_bytes());
    // GPS IFD at 38: latitude ref, latitude (at 80), map datum (at 104).
    t.extend_from_slice(&3u16.to_be_bytes());
    entry(&mut t, 0x0001, 2, 2, u32::from_be_bytes(*b"S\0\0\0"));
    entry(&mut t, 0x0002, 5, 3, 80);
    entry(&mut t, 0x0012, 2, GPS_MARK.len() as u32 + 1, 104);
    t.extend_from_slice(&0u32.to_be_bytes());
    for (n, d) in [(23u32, 1u32), (33, 1), (1234, 100)] {
        t.extend_from_slice(&n.to_be_bytes());
        t.extend_from_slice(&d.to_be_bytes());
    }
    t.extend_from_slice(GPS_MARK);
    t.push(0);
    t
}

/// A PNG that declares `width`×`height` pixels in its header, a few dozen bytes in all: a
/// decompression bomb's first step.
pub fn bomb_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    out.extend_from_slice(&13u32.to_be_bytes());
    out.extend_from_slice(&ihdr);
    out.extend_from_slice(&crc32(&ihdr).to_be_bytes());
    // The first megabyte of its rows (zeros: a real bomb's 7.5 GB compresses the same way),
    // compressed to about a kilobyte; the header is all a decoder should read.
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut z, &vec![0u8; 1 << 20]).expect("compress");
    let mut idat = b"IDAT".to_vec();
    idat.extend_from_slice(&z.finish().expect("compress"));
    out.extend_from_slice(&(idat.len() as u32 - 4).to_be_bytes());
    out.extend_from_slice(&idat);
    out.extend_from_slice(&crc32(&idat).to_be_bytes());
    out.extend_from_slice(&0u32.to_be_bytes());
    out.extend_from_slice(b"IEND");
    out.extend_from_slice(&crc32(b"IEND").to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Whether `bytes` carry EXIF or the phone photo's GPS tags anywhere.
pub fn has_metadata(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    has(b"Exif\0\0") || has(GPS_MARK)
}
