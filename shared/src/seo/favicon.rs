//! A published site's icon (`/favicon.ico`, and `<link rel="icon">` on its pages), in order:
//! the owner's favicon setting; else the site's logo; else a letter mark: the first letter of
//! the site's name in the theme's "on" colour on its primary colour ([`letter_mark`]).
//!
//! Browsers ask for `/favicon.ico` by themselves, so a published site always answers it. An
//! ICO file may hold a PNG whole (Windows Vista's format, read by every current browser), so a
//! PNG icon is wrapped as one ([`ico_from_png`]) without decoding it; any other image (the
//! letter mark's SVG, a JPEG logo) is served at `/favicon.ico` as itself, with its own type,
//! which browsers read by the type, not the name. No rasterising, so no image library.

use crate::theme::{Theme, on_colour, parse_colour};

/// The letter mark: an SVG square with rounded corners and the name's first letter.
pub fn letter_mark(name: &str, theme: &Theme) -> String {
    let letter: String = name
        .chars()
        .find(|c| c.is_alphanumeric())
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_else(|| "V".into());
    // A letter or a digit: nothing in it needs escaping in the SVG.
    let bg = parse_colour(&theme.primary)
        .or_else(|| parse_colour(&Theme::default().primary))
        .unwrap_or([21, 128, 61]);
    let fg = on_colour(bg);
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\">\
<rect width=\"64\" height=\"64\" rx=\"12\" fill=\"{}\"/>\
<text x=\"32\" y=\"44\" font-family=\"Arial,Helvetica,sans-serif\" font-size=\"36\" \
font-weight=\"700\" text-anchor=\"middle\" fill=\"{fg}\">{letter}</text></svg>",
        crate::theme::hex(bg)
    )
}

/// The width and height of a PNG, from its header; `None` when `png` is not one.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if png.len() < 24 || &png[..8] != SIGNATURE || &png[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(png[20..24].try_into().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// An ICO file holding `png` whole (one image), or `None` when `png` is not a PNG.
pub fn ico_from_png(png: &[u8]) -> Option<Vec<u8>> {
    let (w, h) = png_size(png)?;
    let size = u32::try_from(png.len()).ok()?;
    // 0 in a dimension byte means 256 (or more).
    let dim = |d: u32| if d >= 256 { 0 } else { d as u8 };
    let mut ico = Vec::with_capacity(22 + png.len());
    ico.extend_from_slice(&[0, 0, 1, 0, 1, 0]); // reserved, type 1 (icon), one image
    ico.extend_from_slice(&[dim(w), dim(h), 0, 0]); // size, no palette, reserved
    ico.extend_from_slice(&1u16.to_le_bytes()); // colour planes
    ico.extend_from_slice(&32u16.to_le_bytes()); // bits per pixel
    ico.extend_from_slice(&size.to_le_bytes());
    ico.extend_from_slice(&22u32.to_le_bytes()); // where the image starts
    ico.extend_from_slice(png);
    Some(ico)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] =
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\x2c\0\0\0\x20\x08\x06\0\0\0\x1f\x15\xc4\x89";

    #[test]
    fn a_png_is_wrapped_in_an_ico_directory_that_points_at_it() {
        assert_eq!(png_size(PNG), Some((300, 32)));
        let ico = ico_from_png(PNG).unwrap();
        assert_eq!(&ico[..6], &[0, 0, 1, 0, 1, 0]);
        assert_eq!(
            (ico[6], ico[7]),
            (0, 32),
            "300 px wide is written 0 (256 or more)"
        );
        assert_eq!(
            u32::from_le_bytes(ico[14..18].try_into().unwrap()),
            PNG.len() as u32
        );
        assert_eq!(u32::from_le_bytes(ico[18..22].try_into().unwrap()), 22);
        assert_eq!(&ico[22..], PNG);
        assert_eq!(ico_from_png(b"GIF89a not a png at all"), None);
    }

    #[test]
    fn the_letter_mark_is_the_names_first_letter_in_the_theme_colours() {
        let theme = Theme {
            primary: "#1d4ed8".into(),
            ..Theme::default()
        };
        let svg = letter_mark("  padaria Central", &theme);
        assert!(svg.contains("fill=\"#1d4ed8\""), "{svg}");
        assert!(svg.contains(">P</text>"), "{svg}");
        assert!(svg.contains(&format!("fill=\"{}\"", on_colour([0x1d, 0x4e, 0xd8]))));
        assert!(letter_mark("<&>", &Theme::default()).contains(">V</text>"));
        assert!(letter_mark("élan", &theme).contains(">É</text>"));
    }
}
