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

/// `@font-face` rules for faces whose `url` is final. A URL that could end the CSS string or
/// the `<style>` element it is inlined in is left out (stored URLs never have one).
pub fn font_face_css(faces: &[FontFace]) -> String {
    faces
        .iter()
        .filter(|f| {
            !f.url
                .chars()
                .any(|c| matches!(c, '"' | '\'' | '\\' | '<' | '>' | '(' | ')') || c.is_whitespace())
        })
        .map(|f| {
            format!(
                "@font-face{{font-family:\"{}\";font-style:{};font-weight:{};font-display:swap;src:url(\"{}\") format(\"woff2\")}}\n",
                f.family, f.style, f.weight, f.url
            )
        })
        .collect()
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
        head.push_str(&font_face_css(&faces));
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
        assert_eq!(font_face_css(&[odd]), "");
    }
}
