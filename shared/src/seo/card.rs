//! Share cards (issue 44): the 1200×630 picture a link preview (WhatsApp, Facebook, X,
//! LinkedIn, Slack…) shows for every page and every collection item, made by the platform from
//! what the page is: its title, the site's name and theme colours, the site's logo when it has
//! one, and for an item its photo and price.
//!
//! **How it is drawn.** [`layout`] writes the card as an SVG document (rectangles, the text
//! already broken into lines, the logo and the photo as `data:` images), and [`render`] turns
//! it into a PNG with `resvg`. Text is laid out with the two faces bundled beside this file
//! (DejaVu Sans and DejaVu Sans Bold, cut down to Latin with `pyftsubset`; their licence is
//! `fonts/LICENSE`), so a card looks the same on every machine and needs no system font and no
//! network: Portuguese accents (ç, ã, é, õ) and the currency signs are in them. A title is
//! broken into at most [`TITLE_LINES`] lines at word boundaries (a word wider than a line is
//! cut), and what does not fit ends in an ellipsis; the text is measured with `skrifa` from the
//! same font files, and no title longer than [`MAX_TITLE_CHARS`] is even looked at.
//!
//! **Why resvg.** It is the SVG renderer the Rust ecosystem keeps (linebender; used by Typst,
//! Tauri's icon tool and many others): pure Rust, no system libraries (no Cairo, no Skia build,
//! no Chromium), with text shaping (`harfrust`) and font loading from memory (`fontdb`), and
//! raster images (PNG, JPEG, WebP) decoded by the same pure-Rust decoders the photos use.
//! Laying the card out as SVG keeps the drawing declarative (clip paths, `preserveAspectRatio`
//! for a photo cropped to cover its box, a logo fitted into its box) instead of hand-written
//! pixel code. `skrifa` (Google's fontations, which usvg itself reads fonts with) measures
//! the text for the line breaks.
//!
//! **Budgets.** A card is drawn in a render-sandbox worker (`crate::sandbox::card`): at most
//! [`WORKER_MEMORY_BYTES`] of memory, [`WORKER_CPU_MS`] of CPU and [`WORKER_DEADLINE`] of wall
//! clock, in the site's account's fair share of the workers. Its inputs are bounded before
//! they reach it: the title by [`MAX_TITLE_CHARS`], each image by [`MAX_IMAGE_BYTES`] (a
//! photo's small variant, not its original), and a crafted image can only take down its worker.
//!
//! **Its address.** A card is named by the hash of everything drawn on it ([`CardInputs::hash`],
//! with [`CARD_VERSION`]), so it changes exactly when what it shows changes (a title, a price,
//! a photo, the theme, the logo), and an address once served never changes: browsers and
//! crawlers may keep it for a year (`docs/design.md` § Share cards).

use std::sync::{Arc, OnceLock};

use base64::Engine;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use skrifa::{FontRef, MetadataProvider, instance::LocationRef, instance::Size};

use crate::render::escape;
use crate::theme::{Theme, mix, on_colour};

/// The card's size: what Facebook and WhatsApp ask for (1.91:1).
pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

/// The first path segment of share cards on a site (`/_og/…`).
pub const CARD_SEGMENT: &str = "_og";

/// Bumped when the drawing changes, so every card gets a new address.
pub const CARD_VERSION: u32 = 1;

/// The most lines a title takes; the last ends in "…" when the title is longer.
pub const TITLE_LINES: usize = 3;

/// The most characters of a title (or of the site's name, or of a price) looked at.
pub const MAX_TITLE_CHARS: usize = 300;

/// The most bytes of one image (the logo, the photo) handed to the worker.
pub const MAX_IMAGE_BYTES: usize = 4 * 1024 * 1024;

/// The card worker's memory limit: a 1200×630 canvas is 3 MB; decoding a photo's small
/// variant and the logo takes a few times that.
pub const WORKER_MEMORY_BYTES: u64 = 256 * 1024 * 1024;

/// The card worker's CPU budget (a card takes tens of milliseconds, see docs/design.md).
pub const WORKER_CPU_MS: u64 = 5_000;

/// The card worker's wall-clock limit from its start.
pub const WORKER_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// The bundled faces.
const REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");
const FAMILY: &str = "DejaVu Sans";

/// What a card shows, as the page knows it (images by their object keys): the hash of this is
/// the card's name. The images' bytes travel apart ([`CardJob`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInputs {
    pub title: String,
    /// The site's name, at the foot of the card.
    pub site_name: String,
    /// A product's price as visitors read it (`R$ 12,50`), or empty.
    #[serde(default)]
    pub price: String,
    pub theme: Theme,
    /// The object key of the logo's image (the site's identity), if any.
    #[serde(default)]
    pub logo: Option<String>,
    /// The object key of the item's photo (its small variant), if any.
    #[serde(default)]
    pub photo: Option<String>,
}

impl CardInputs {
    /// The card's name: a hex digest of everything drawn on it and of [`CARD_VERSION`].
    pub fn hash(&self) -> String {
        let json = serde_json::to_vec(&(CARD_VERSION, self)).unwrap_or_default();
        hex::encode(&Sha256::digest(&json)[..12])
    }

    /// The card's alternative text (`og:image:alt`).
    pub fn alt(&self) -> String {
        let title = clip(&self.title, MAX_TITLE_CHARS);
        match (title.trim(), self.site_name.trim()) {
            (t, s) if s.is_empty() || t == s => t.to_string(),
            (t, s) => format!("{t} | {s}"),
        }
    }
}

/// One image for the card: its bytes and media type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardImage {
    pub mime: String,
    #[serde(with = "b64")]
    pub bytes: Vec<u8>,
}

/// What the worker is handed: the inputs and the images' bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardJob {
    pub inputs: CardInputs,
    pub logo: Option<CardImage>,
    pub photo: Option<CardImage>,
}

mod b64 {
    use base64::Engine;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(serde::de::Error::custom)
    }
}

/// The media type of an image's bytes, by their magic, when it is one a card can show.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if bytes.starts_with(b"GIF8") {
        Some("image/gif")
    } else {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).to_lowercase();
        (head.contains("<svg") || head.starts_with("<?xml")).then_some("image/svg+xml")
    }
}

/// `text`'s first `max` characters.
fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// A face's advance widths at a size.
struct Measure {
    font: FontRef<'static>,
}

impl Measure {
    fn bold() -> &'static Measure {
        static BOLD_FACE: OnceLock<Measure> = OnceLock::new();
        BOLD_FACE.get_or_init(|| Measure {
            font: FontRef::new(BOLD).expect("the bundled bold face reads"),
        })
    }

    /// The width of `text` at `px` (no kerning: a line is at most a few pixels narrower).
    fn width(&self, text: &str, px: f32) -> f32 {
        let metrics = self
            .font
            .glyph_metrics(Size::new(px), LocationRef::default());
        let charmap = self.font.charmap();
        text.chars()
            .map(|c| {
                let gid = charmap.map(c).unwrap_or_default();
                metrics.advance_width(gid).unwrap_or(px * 0.6)
            })
            .sum()
    }
}

/// `text` broken into at most `lines` lines no wider than `width` at `px`: at spaces, a word
/// wider than a line cut where it must; the last line ends in "…" when text is left over.
pub fn wrap(text: &str, px: f32, width: f32, lines: usize) -> Vec<String> {
    let m = Measure::bold();
    let fits = |s: &str| m.width(s, px) <= width;
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut rest_left = false;
    'words: for (i, word) in words.iter().enumerate() {
        let joined = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if fits(&joined) {
            current = joined;
            continue;
        }
        if !current.is_empty() {
            out.push(std::mem::take(&mut current));
            if out.len() == lines {
                rest_left = true;
                break;
            }
        }
        // The word alone on its line, cut into pieces as wide as a line.
        let mut piece = String::new();
        for c in word.chars() {
            piece.push(c);
            if !fits(&piece) {
                piece.pop();
                out.push(std::mem::take(&mut piece));
                piece.push(c);
                if out.len() == lines {
                    rest_left = true;
                    break 'words;
                }
            }
        }
        current = piece;
        if i + 1 == words.len() {
            break;
        }
    }
    if !current.is_empty() {
        if out.len() == lines {
            rest_left = true;
        } else {
            out.push(current);
        }
    }
    if rest_left && let Some(last) = out.last_mut() {
        let mut s = last.trim_end().to_string();
        while !s.is_empty() && !fits(&format!("{s}…")) {
            s.pop();
        }
        *last = format!("{}…", s.trim_end());
    }
    out
}

fn data_uri(image: &CardImage) -> String {
    format!(
        "data:{};base64,{}",
        image.mime,
        base64::engine::general_purpose::STANDARD.encode(&image.bytes)
    )
}

/// The card as an SVG document (see the module docs).
pub fn layout(job: &CardJob) -> String {
    let i = &job.inputs;
    let [primary, accent, background, text] = i.theme.rgb();
    let muted = mix(text, background, 0.65);
    let colour = crate::theme::hex;
    let margin = 72.0;
    let photo_box = job.photo.as_ref().map(|_| (690.0, 0.0, 510.0, 630.0));
    let text_right = photo_box.map_or(WIDTH as f32 - margin, |(x, ..)| x - 56.0);
    let text_width = text_right - margin;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"{FAMILY}\">\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"{}\"/>\
         <rect width=\"16\" height=\"{HEIGHT}\" fill=\"{}\"/>",
        colour(background),
        colour(primary),
    );
    if let (Some(photo), Some((x, y, w, h))) = (&job.photo, photo_box) {
        svg.push_str(&format!(
            "<image x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" preserveAspectRatio=\"xMidYMid slice\" xlink:href=\"{}\"/>\
             <rect x=\"{x}\" y=\"{y}\" width=\"8\" height=\"{h}\" fill=\"{}\"/>",
            data_uri(photo),
            colour(accent),
        ));
    }
    // The head: the logo fitted into its box, else the site's name in the primary colour.
    let site = clip(i.site_name.trim(), MAX_TITLE_CHARS);
    let head_bottom = if let Some(logo) = &job.logo {
        svg.push_str(&format!(
            "<image x=\"{margin}\" y=\"56\" width=\"{}\" height=\"96\" preserveAspectRatio=\"xMinYMid meet\" xlink:href=\"{}\"/>",
            text_width.min(360.0),
            data_uri(logo),
        ));
        152.0
    } else {
        let name = wrap(&site, 34.0, text_width, 1);
        if let Some(line) = name.first() {
            svg.push_str(&format!(
                "<text x=\"{margin}\" y=\"104\" font-size=\"34\" font-weight=\"bold\" fill=\"{}\">{}</text>",
                colour(primary),
                escape(line)
            ));
        }
        120.0
    };
    // The title: as large as fits, in at most TITLE_LINES lines.
    let title = clip(i.title.trim(), MAX_TITLE_CHARS);
    let (px, lines) = [68.0, 58.0, 50.0]
        .into_iter()
        .map(|px| (px, wrap(&title, px, text_width, TITLE_LINES)))
        .find(|(_, l)| !l.last().is_some_and(|s| s.ends_with('…')))
        .unwrap_or_else(|| (50.0, wrap(&title, 50.0, text_width, TITLE_LINES)));
    let line_height = px * 1.18;
    let price = clip(i.price.trim(), 40);
    let block = lines.len() as f32 * line_height + if price.is_empty() { 0.0 } else { 96.0 };
    let top = head_bottom + ((HEIGHT as f32 - 120.0 - head_bottom) - block).max(0.0) / 2.0;
    for (n, line) in lines.iter().enumerate() {
        svg.push_str(&format!(
            "<text x=\"{margin}\" y=\"{:.1}\" font-size=\"{px}\" font-weight=\"bold\" fill=\"{}\">{}</text>",
            top + px + n as f32 * line_height,
            colour(text),
            escape(line)
        ));
    }
    if !price.is_empty() {
        let m = Measure::bold();
        let w = m.width(&price, 36.0).min(text_width - 48.0) + 48.0;
        let y = top + lines.len() as f32 * line_height + 28.0;
        svg.push_str(&format!(
            "<rect x=\"{margin}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"64\" rx=\"32\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"36\" font-weight=\"bold\" fill=\"{}\">{}</text>",
            colour(accent),
            margin + 24.0,
            y + 45.0,
            on_colour(accent),
            escape(&price)
        ));
    }
    // Under a logo, the foot: a rule and the site's name (without one, the name heads it).
    let foot = job.logo.as_ref().map(|_| wrap(&site, 30.0, text_width, 1));
    if let Some(line) = foot.as_ref().and_then(|l| l.first()) {
        svg.push_str(&format!(
            "<rect x=\"{margin}\" y=\"{}\" width=\"72\" height=\"6\" rx=\"3\" fill=\"{}\"/>",
            HEIGHT - 118,
            colour(primary)
        ));
        svg.push_str(&format!(
            "<text x=\"{margin}\" y=\"{}\" font-size=\"30\" fill=\"{}\">{}</text>",
            HEIGHT - 62,
            colour(muted),
            escape(line)
        ));
    }
    svg.push_str("</svg>");
    svg
}

/// The fonts' database: the bundled faces only.
fn fonts() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family(FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Why no card was drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the card could not be drawn: {0}")]
pub struct CardError(pub String);

/// Draws `job` as a 1200×630 PNG (see the module docs). Run it in a worker
/// (`crate::sandbox::card`): an image is decoded here.
pub fn render(job: &CardJob) -> Result<Vec<u8>, CardError> {
    let svg = layout(job);
    let options = resvg::usvg::Options {
        font_family: FAMILY.into(),
        fontdb: fonts(),
        // Only the `data:` images the layout wrote; never a file named by a string.
        image_href_resolver: resvg::usvg::ImageHrefResolver {
            resolve_data: resvg::usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(&svg, &options).map_err(|e| CardError(e.to_string()))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(WIDTH, HEIGHT)
        .ok_or_else(|| CardError("no canvas".into()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| CardError(e.to_string()))
}

#[cfg(test)]
#[path = "card_tests.rs"]
mod tests;
