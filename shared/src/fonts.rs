//! A site's fonts, read from the project's meta (`defaultFont`, `fonts`, `customFonts`, and the
//! theme's `headingFont` and `bodyFont`, see `crate::theme`), as
//! both the publisher and the editor's canvas load them: the same faces (families, weights and
//! styles) and the same CSS variables (`--font-body`, `--font-heading`), so that the canvas
//! shows what visitors get. The publisher copies each file into the site; the canvas loads it
//! where it is (the provider, the owner's uploads).
//!
//! A family falls back to the generic family of its category (serif stays serif, a handwriting
//! font becomes cursive; see [`fallback_stack`]), so a font that cannot be fetched reads the
//! same on both. The category comes from the dashboard's font catalogue (the Google Fonts
//! families Fontsource serves, built by `dashboard/scripts/build-fonts-catalogue.mjs`), compiled
//! in (`crate::font_catalogue`); a family it does not list (a custom font) is sans-serif.
//!
//! [`meta_style`] is the theme's `<style>` for a project's meta, with the site's default font as
//! the fallback of an empty theme font.

use serde_json::Value;

pub use crate::font_catalogue::{catalogue_name, css_family, fallback_stack};
use crate::theme::Theme;

/// The default weights of a font chosen without variants (spec 2 §7: 400 and 700).
pub const DEFAULT_WEIGHTS: [&str; 2] = ["regular", "700"];

/// The `<style>` that sets the font variables and the body's font, for a default family.
pub fn font_variables(family: &str) -> String {
    let family = css_family(family);
    let stack = format!("\"{family}\",{}", fallback_stack(&family));
    format!(
        "<style>:root{{--font-body:{stack};--font-heading:{stack}}}body{{font-family:var(--font-body)}}</style>"
    )
}

/// Fontsource's id of a family: `Open Sans` → `open-sans`.
pub fn family_id(family: &str) -> String {
    family
        .trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect()
}

/// `regular` → 400 normal, `italic` → 400 italic, `700` → 700 normal, `700italic` → 700 italic.
pub fn parse_variant(v: &str) -> Option<(String, &'static str)> {
    let v = v.trim();
    let (weight, style) = match v.strip_suffix("italic") {
        Some(w) => (w, "italic"),
        None => (v, "normal"),
    };
    let weight = match weight {
        "" | "regular" => "400",
        w if w.len() == 3 && w.ends_with("00") && ('1'..='9').contains(&w.chars().next()?) => w,
        _ => return None,
    };
    Some((weight.to_string(), style))
}

/// One font face: family, weight, style and where its file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontFace {
    pub family: String,
    pub weight: String,
    pub style: &'static str,
    /// The stored upload URL of a custom font; for a provider font, its path at the provider
    /// (`{family id}/latin-{weight}-{style}.woff2`, see [`FontFace::provider_path`]).
    pub url: String,
}

impl FontFace {
    /// The file's path at a Fontsource-layout provider.
    pub fn provider_path(family: &str, weight: &str, style: &str) -> String {
        format!("{}/latin-{weight}-{style}.woff2", family_id(family))
    }
}

/// The fonts a site loads, from the project's meta.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SiteFonts {
    /// Uploaded fonts (each one weight), `url` their upload URL.
    pub custom: Vec<FontFace>,
    /// Provider fonts, one face per distinct weight and style, `url` their provider path.
    pub provider: Vec<FontFace>,
    /// The family the body and headings use, when the owner chose one.
    pub default_family: Option<String>,
}

fn text_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The faces the project's meta asks for: every custom font, then the default font and the
/// extra fonts from the provider (a family that is also a custom font is the custom one).
pub fn site_fonts(meta: &Value) -> SiteFonts {
    let mut out = SiteFonts::default();
    let mut custom_families: Vec<String> = Vec::new();
    for f in meta
        .get("customFonts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let family = css_family(text_of(f, "family"));
        let file = text_of(f, "filename");
        if family.is_empty() || file.is_empty() {
            continue;
        }
        let variant = f
            .get("variants")
            .and_then(Value::as_array)
            .and_then(|v| v.first())
            .and_then(Value::as_str)
            .unwrap_or("regular");
        let Some((weight, style)) = parse_variant(variant) else {
            continue;
        };
        out.custom.push(FontFace {
            family: family.clone(),
            weight,
            style,
            url: file.to_string(),
        });
        custom_families.push(family.to_lowercase());
    }
    let default = meta.get("defaultFont").filter(|f| f.is_object());
    // The theme's heading and body fonts (`crate::theme`), in their default weights.
    let theme_fonts: Vec<Value> = Theme::stored(meta)
        .map(|t| t.families())
        .unwrap_or_default()
        .into_iter()
        .map(|family| serde_json::json!({ "family": family }))
        .collect();
    let mut wanted: Vec<(String, Vec<String>)> = Vec::new();
    for f in default
        .into_iter()
        .chain(
            meta.get("fonts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten(),
        )
        .chain(theme_fonts.iter())
    {
        let family = css_family(text_of(f, "family"));
        if family.is_empty() || custom_families.contains(&family.to_lowercase()) {
            continue;
        }
        let mut variants: Vec<String> = f
            .get("variants")
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        if variants.is_empty() {
            variants = DEFAULT_WEIGHTS.iter().map(|s| s.to_string()).collect();
        }
        match wanted
            .iter_mut()
            .find(|(f, _)| f.eq_ignore_ascii_case(&family))
        {
            Some((_, vs)) => vs.extend(variants),
            None => wanted.push((family, variants)),
        }
    }
    for (family, variants) in wanted {
        let mut seen = Vec::new();
        for v in variants {
            let Some((weight, style)) = parse_variant(&v) else {
                continue;
            };
            if seen.contains(&(weight.clone(), style)) {
                continue;
            }
            seen.push((weight.clone(), style));
            out.provider.push(FontFace {
                url: FontFace::provider_path(&family, &weight, style),
                family: family.clone(),
                weight,
                style,
            });
        }
    }
    out.default_family = default
        .map(|f| css_family(text_of(f, "family")))
        .filter(|f| !f.is_empty());
    out
}

/// How a face shows while its file loads (CSS `font-display`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontDisplay {
    /// The fallback at once, the face when it arrives: the editor's canvas and the owner's
    /// preview, where the owner must see the font they chose.
    Swap,
    /// The face only if it is there within the first ~100 ms, else the fallback for the page's
    /// life: published pages. A face that arrives late never re-lays the text out, so a slow
    /// first visit has no layout shift (Lighthouse's CLS is 0); with [`preloads`] the files
    /// start loading with the document and usually are there in time, and the next page finds
    /// them in the cache (web.dev, "Optimize web fonts": preload + `optional`).
    Optional,
}

impl FontDisplay {
    fn css(self) -> &'static str {
        match self {
            Self::Swap => "swap",
            Self::Optional => "optional",
        }
    }
}

/// A face whose URL could end the CSS string, the `<style>` element it is inlined in or the
/// attribute it is written into (stored URLs never have one).
fn unsafe_url(url: &str) -> bool {
    url.chars()
        .any(|c| matches!(c, '"' | '\'' | '\\' | '<' | '>' | '(' | ')' | '&') || c.is_whitespace())
}

/// `@font-face` rules for faces whose `url` is final; a face with an unsafe URL is left out.
pub fn font_face_css(faces: &[FontFace], display: FontDisplay) -> String {
    faces
        .iter()
        .filter(|f| !unsafe_url(&f.url))
        .map(|f| {
            format!(
                "@font-face{{font-family:\"{}\";font-style:{};font-weight:{};font-display:{};src:url(\"{}\") format(\"woff2\")}}\n",
                f.family,
                f.style,
                f.weight,
                display.css(),
                f.url
            )
        })
        .collect()
}

/// The most faces a page preloads: each is a file every first visit downloads before it needs
/// it, so only the text faces almost every page uses are named.
pub const MAX_PRELOADS: usize = 3;

/// The largest font file a page preloads. A provider's Latin subset of one face is 15–50 KB; a
/// file several times that (a whole font with every script) would take the first visit's
/// bandwidth from the page's images, and with `font-display: optional` it is better left to
/// load in the background for the next page.
pub const MAX_PRELOAD_BYTES: usize = 100 * 1024;

/// The URLs of the faces a published page preloads (`<link rel="preload" as="font">`), from
/// the faces with their files' sizes: the upright regular (400) and bold (700) faces no larger
/// than [`MAX_PRELOAD_BYTES`], the default family's first, at most [`MAX_PRELOADS`]. Body text
/// is regular and headings bold in nearly every block, so these are the files the first screen
/// waits for; other weights and italics load when used.
pub fn preloads(faces: &[(FontFace, usize)], default_family: Option<&str>) -> Vec<String> {
    let is_default = |f: &&FontFace| {
        default_family.is_some_and(|d| css_family(d).eq_ignore_ascii_case(&css_family(&f.family)))
    };
    let (first, rest): (Vec<&FontFace>, Vec<&FontFace>) = faces
        .iter()
        .filter(|(f, size)| {
            *size <= MAX_PRELOAD_BYTES
                && f.style == "normal"
                && matches!(f.weight.as_str(), "400" | "700")
        })
        .map(|(f, _)| f)
        .partition(is_default);
    let mut urls: Vec<String> = Vec::new();
    for f in first.into_iter().chain(rest) {
        if !unsafe_url(&f.url) && !urls.contains(&f.url) && urls.len() < MAX_PRELOADS {
            urls.push(f.url.clone());
        }
    }
    urls
}

/// The theme's `<style>` for a project's meta: its stored theme (or the default), with the
/// site's default font as the fallback of an empty theme font. The editor's canvas and the
/// owner's preview put it after the base stylesheet, as published pages do.
pub fn meta_style(meta: &Value) -> String {
    let fonts = site_fonts(meta);
    Theme::of_meta(meta).style(fonts.default_family.as_deref())
}

/// What the editor's canvas (and the owner's preview) put in `<head>` for the site's fonts:
/// the faces, loaded from the provider at `fonts_url` and from the owner's uploads, and the
/// variables published pages set ([`font_variables`]).
pub fn canvas_fonts(meta: &Value, fonts_url: &str) -> String {
    let fonts = site_fonts(meta);
    let base = fonts_url.trim_end_matches('/');
    let faces: Vec<FontFace> = fonts
        .custom
        .into_iter()
        .chain(fonts.provider.into_iter().map(|f| FontFace {
            url: format!("{base}/{}", f.url),
            ..f
        }))
        .collect();
    let mut head = String::new();
    if !faces.is_empty() {
        head.push_str("<style>");
        head.push_str(&font_face_css(&faces, FontDisplay::Swap));
        head.push_str("</style>");
    }
    if let Some(family) = &fonts.default_family {
        head.push_str(&font_variables(family));
    }
    head
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_family_falls_back_to_its_categorys_generic_family() {
        assert_eq!(fallback_stack("Lora"), "serif");
        assert_eq!(fallback_stack(" lora "), "serif");
        assert_eq!(fallback_stack("Open Sans"), "system-ui,sans-serif");
        assert_eq!(fallback_stack("Roboto Mono"), "ui-monospace,monospace");
        assert_eq!(fallback_stack("Pacifico"), "cursive");
        assert_eq!(fallback_stack("Minha Fonte"), "system-ui,sans-serif");
        assert_eq!(
            font_variables("Lora</style>"),
            "<style>:root{--font-body:\"Lorastyle\",system-ui,sans-serif;--font-heading:\"Lorastyle\",system-ui,sans-serif}body{font-family:var(--font-body)}</style>"
        );
        assert!(font_variables("Lora").contains("--font-body:\"Lora\",serif;"));
    }

    #[test]
    fn the_themes_fonts_are_loaded_in_their_default_weights() {
        let meta = json!({"theme": {"headingFont": "Playfair Display", "bodyFont": "Lora"},
            "defaultFont": {"family": "Lora", "variants": ["italic"]}});
        let files: Vec<String> = site_fonts(&meta)
            .provider
            .into_iter()
            .map(|f| f.url)
            .collect();
        assert_eq!(
            files,
            [
                "lora/latin-400-italic.woff2",
                "lora/latin-400-normal.woff2",
                "lora/latin-700-normal.woff2",
                "playfair-display/latin-400-normal.woff2",
                "playfair-display/latin-700-normal.woff2",
            ]
        );
        assert_eq!(
            catalogue_name("playfair DISPLAY").as_deref(),
            Some("Playfair Display")
        );
        assert_eq!(catalogue_name("Nada Disso"), None);
    }

    #[test]
    fn published_faces_never_swap_late_and_the_text_faces_are_preloaded() {
        let face = |family: &str, weight: &str, style: &'static str, url: &str| FontFace {
            family: family.into(),
            weight: weight.into(),
            style,
            url: url.into(),
        };
        let faces = [
            face("Playfair Display", "700", "normal", "/_assets/p7.woff2"),
            face("Lora", "400", "italic", "/_assets/li.woff2"),
            face("Lora", "700", "normal", "/_assets/l7.woff2"),
            face("Lora", "300", "normal", "/_assets/l3.woff2"),
            face("Lora", "400", "normal", "/_assets/l4.woff2"),
            face("Playfair Display", "400", "normal", "/_assets/p4.woff2"),
            face("Odd", "400", "normal", "/_assets/x\"><script>.woff2"),
        ];
        let sized: Vec<(FontFace, usize)> = faces.iter().cloned().map(|f| (f, 30_000)).collect();
        // The default family's regular and bold first, then another family's, three at most;
        // italics, other weights and an unsafe URL never.
        assert_eq!(
            preloads(&sized, Some("lora")),
            [
                "/_assets/l7.woff2",
                "/_assets/l4.woff2",
                "/_assets/p7.woff2"
            ]
        );
        assert_eq!(preloads(&sized[..1], None), ["/_assets/p7.woff2"]);
        assert!(preloads(&sized[1..2], Some("Lora")).is_empty());
        // A whole font (every script, hundreds of KB) is left to load in the background.
        let mut big = sized.clone();
        big[2].1 = MAX_PRELOAD_BYTES + 1;
        assert_eq!(
            preloads(&big, Some("lora")),
            [
                "/_assets/l4.woff2",
                "/_assets/p7.woff2",
                "/_assets/p4.woff2"
            ]
        );

        let published = font_face_css(&faces[..1], FontDisplay::Optional);
        assert!(published.contains("font-display:optional;"), "{published}");
        let canvas = font_face_css(&faces[..1], FontDisplay::Swap);
        assert!(canvas.contains("font-display:swap;"), "{canvas}");
    }

    #[test]
    fn variants_parse_to_weight_and_style() {
        assert_eq!(parse_variant("regular"), Some(("400".into(), "normal")));
        assert_eq!(parse_variant("italic"), Some(("400".into(), "italic")));
        assert_eq!(parse_variant("700italic"), Some(("700".into(), "italic")));
        assert_eq!(parse_variant("300italic"), Some(("300".into(), "italic")));
        assert_eq!(parse_variant("950"), None);
        assert_eq!(parse_variant("bold"), None);
        assert_eq!(parse_variant("../x"), None);
        assert_eq!(family_id("Open  Sans!"), "open-sans");
        assert_eq!(family_id(" Roboto  Slab/.."), "roboto-slab");
    }

    #[test]
    fn the_canvas_loads_the_same_faces_the_site_publishes() {
        let meta = json!({
            "defaultFont": {"family": "Lora", "variants": []},
            "fonts": [{"family": "lora", "variants": ["700", "italic"]}, {"family": "Mine", "variants": ["regular"]}],
            "customFonts": [{"family": "Mine", "variants": ["500"], "filename": "/files/uploads/1/2/mine.woff2"}]
        });
        let fonts = site_fonts(&meta);
        assert_eq!(fonts.default_family.as_deref(), Some("Lora"));
        assert_eq!(
            fonts
                .provider
                .iter()
                .map(|f| (f.weight.as_str(), f.style, f.url.as_str()))
                .collect::<Vec<_>>(),
            [
                ("400", "normal", "lora/latin-400-normal.woff2"),
                ("700", "normal", "lora/latin-700-normal.woff2"),
                ("400", "italic", "lora/latin-400-italic.woff2"),
            ]
        );
        assert_eq!(fonts.custom.len(), 1);
        let head = canvas_fonts(&meta, "https://fonts.test/f/");
        assert!(head.starts_with("<style>@font-face{font-family:\"Mine\";font-style:normal;font-weight:500;font-display:swap;src:url(\"/files/uploads/1/2/mine.woff2\") format(\"woff2\")}\n"), "{head}");
        assert!(head.contains("src:url(\"https://fonts.test/f/lora/latin-700-normal.woff2\")"));
        assert!(head.ends_with(&font_variables("Lora")));
        // No fonts chosen: nothing in the head, as published pages carry nothing.
        assert_eq!(canvas_fonts(&json!({}), "https://fonts.test"), "");
        let odd = FontFace {
            family: "X".into(),
            weight: "400".into(),
            style: "normal",
            url: "/files/a\")}</style>".into(),
        };
        assert_eq!(font_face_css(&[odd], FontDisplay::Optional), "");
    }
}
