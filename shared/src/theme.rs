//! A site's theme (issue 41 §2): four colours and two fonts, stored in the project's meta
//! (`meta.theme`), checked here, and turned into the CSS custom properties every document
//! carries in its head (`--vt-primary`, `--vt-on-primary`, …) so blocks style themselves with
//! `var(--vt-primary,#16a34a)`.
//!
//! The contrast maths is WCAG 2's (relative luminance of sRGB, ratio `(L1+0.05)/(L2+0.05)`):
//! the theme API reports the ratios and warns under the thresholds, and the renderer picks
//! the same "on" colours ([`on_colour`]), so what the owner is told is what visitors get.
//! It is a dozen lines of arithmetic on three bytes; no colour library is needed for it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::domain::Invalid;
use crate::error_code::ErrorCode;

/// Light text on a dark colour.
pub const ON_LIGHT: &str = "#ffffff";
/// Dark text on a light colour.
pub const ON_DARK: &str = "#111111";

/// Text on the background must reach this ratio (WCAG AA, normal text).
pub const MIN_TEXT: f64 = 4.5;
/// Labels on the primary colour (buttons) must reach this ratio.
pub const MIN_PRIMARY: f64 = 4.5;
/// Labels on the accent colour (large text, badges) must reach this ratio.
pub const MIN_ACCENT: f64 = 3.0;

/// A site's theme as stored (`meta.theme`) and as the API answers it. Colours are `#rrggbb`
/// (lower case); a font is a family of the platform catalogue or `""` for the default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Theme {
    pub primary: String,
    pub accent: String,
    pub background: String,
    pub text: String,
    pub heading_font: String,
    pub body_font: String,
}

impl Default for Theme {
    /// The platform's default theme: a green whose white label passes AA, an amber accent,
    /// dark grey text on white.
    fn default() -> Self {
        Theme {
            primary: "#15803d".into(),
            accent: "#f59e0b".into(),
            background: "#ffffff".into(),
            text: "#1f2937".into(),
            heading_font: String::new(),
            body_font: String::new(),
        }
    }
}

/// A theme as a client writes it: every key optional (an absent key keeps the stored value).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThemeInput {
    pub primary: Option<String>,
    pub accent: Option<String>,
    pub background: Option<String>,
    pub text: Option<String>,
    pub heading_font: Option<String>,
    pub body_font: Option<String>,
}

/// WCAG 2 contrast ratios of a theme's pairs (rounded down to two decimals, so a ratio shown
/// as 4.50 never warns).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Contrast {
    /// Text on the background.
    pub text: f64,
    /// The primary colour against its "on" colour.
    pub primary: f64,
    /// The accent colour against its "on" colour.
    pub accent: f64,
}

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// `#rrggbb` or `#rgb` (any case, surrounding space ignored), else `None`.
pub fn parse_colour(s: &str) -> Option<Rgb> {
    let hex = s.trim().strip_prefix('#')?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let expanded: String = match hex.len() {
        3 => hex.chars().flat_map(|c| [c, c]).collect(),
        6 => hex.to_string(),
        _ => return None,
    };
    let byte = |i: usize| u8::from_str_radix(&expanded[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// `#rrggbb` in lower case.
pub fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// WCAG 2 relative luminance.
pub fn luminance(c: Rgb) -> f64 {
    let channel = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.03928 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])
}

/// WCAG 2 contrast ratio of two colours, 1 to 21.
pub fn contrast_ratio(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// The label colour on `c`: white or near-black, whichever contrasts more.
pub fn on_colour(c: Rgb) -> &'static str {
    let white = contrast_ratio(c, [255, 255, 255]);
    let dark = contrast_ratio(c, [0x11, 0x11, 0x11]);
    if white >= dark { ON_LIGHT } else { ON_DARK }
}

/// `fg` laid over `bg` at `alpha` (0 to 1), channel by channel in sRGB, as CSS blends an
/// opaque-background `rgba()`.
pub fn mix(fg: Rgb, bg: Rgb, alpha: f64) -> Rgb {
    let m = |f: u8, b: u8| {
        let v = f64::from(f) * alpha + f64::from(b) * (1.0 - alpha);
        // In 0..=255 by construction.
        v.round().clamp(0.0, 255.0) as u8
    };
    [m(fg[0], bg[0]), m(fg[1], bg[1]), m(fg[2], bg[2])]
}

fn floor2(x: f64) -> f64 {
    (x * 100.0).floor() / 100.0
}

fn colour_or(s: &str, fallback: &str) -> Rgb {
    parse_colour(s)
        .or_else(|| parse_colour(fallback))
        .unwrap_or([0, 0, 0])
}

impl Theme {
    /// The stored theme of a project's meta, when it has one.
    pub fn stored(meta: &Value) -> Option<Theme> {
        let v = meta.get("theme").filter(|t| t.is_object())?;
        serde_json::from_value(v.clone()).ok()
    }

    /// The project's theme: the stored one, else the platform default.
    pub fn of_meta(meta: &Value) -> Theme {
        Theme::stored(meta).unwrap_or_default()
    }

    /// The four colours (primary, accent, background, text), each the default's when unreadable.
    pub fn rgb(&self) -> [Rgb; 4] {
        let d = Theme::default();
        [
            colour_or(&self.primary, &d.primary),
            colour_or(&self.accent, &d.accent),
            colour_or(&self.background, &d.background),
            colour_or(&self.text, &d.text),
        ]
    }

    /// The WCAG ratios of the theme's pairs.
    pub fn contrast(&self) -> Contrast {
        let [primary, accent, background, text] = self.rgb();
        let on = |c: Rgb| contrast_ratio(c, parse_colour(on_colour(c)).unwrap_or([0, 0, 0]));
        Contrast {
            text: floor2(contrast_ratio(text, background)),
            primary: floor2(on(primary)),
            accent: floor2(on(accent)),
        }
    }

    /// A code per pair under its threshold: `low_contrast_text`, `low_contrast_primary`,
    /// `low_contrast_accent`. Warnings never refuse a save.
    pub fn warnings(&self) -> Vec<&'static str> {
        let c = self.contrast();
        [
            (c.text < MIN_TEXT, "low_contrast_text"),
            (c.primary < MIN_PRIMARY, "low_contrast_primary"),
            (c.accent < MIN_ACCENT, "low_contrast_accent"),
        ]
        .into_iter()
        .filter_map(|(low, code)| low.then_some(code))
        .collect()
    }

    /// `input` checked and merged over `self` (the stored theme or the default).
    pub fn merge(&self, input: ThemeInput) -> Result<Theme, Invalid> {
        let mut out = self.clone();
        let colours = [
            ("primary", input.primary, &mut out.primary),
            ("accent", input.accent, &mut out.accent),
            ("background", input.background, &mut out.background),
            ("text", input.text, &mut out.text),
        ];
        for (field, value, slot) in colours {
            if let Some(v) = value {
                let c = parse_colour(&v).ok_or_else(|| {
                    Invalid::new(
                        field,
                        ErrorCode::ThemeColourInvalid,
                        "A colour must be written #rrggbb or #rgb",
                    )
                    .param("field", field)
                })?;
                *slot = hex(c);
            }
        }
        let fonts = [
            ("headingFont", input.heading_font, &mut out.heading_font),
            ("bodyFont", input.body_font, &mut out.body_font),
        ];
        for (field, value, slot) in fonts {
            if let Some(v) = value {
                *slot = catalogue_family(&v).ok_or_else(|| {
                    Invalid::new(
                        field,
                        ErrorCode::ThemeFontUnknown,
                        format!("{v:?} is not a font of the catalogue"),
                    )
                    .param("family", v.trim())
                })?;
            }
        }
        Ok(out)
    }

    /// The families the theme loads (the provider's), besides the site's own fonts.
    pub fn families(&self) -> Vec<String> {
        [&self.heading_font, &self.body_font]
            .into_iter()
            .filter(|f| !f.is_empty())
            .map(|f| crate::font_catalogue::css_family(f))
            .collect()
    }

    /// The theme's custom properties as a `<style>` for a document's head, after the base
    /// stylesheet. `default_family` is the site's default font (`meta.defaultFont`), which a
    /// theme font left empty falls back to before the system stack.
    pub fn style(&self, default_family: Option<&str>) -> String {
        let [primary, accent, background, text] = self.rgb();
        let stack = |family: &str| {
            let family = crate::font_catalogue::css_family(family);
            if family.is_empty() {
                match default_family.map(crate::font_catalogue::css_family) {
                    Some(d) if !d.is_empty() => {
                        format!("\"{d}\",{}", crate::font_catalogue::fallback_stack(&d))
                    }
                    _ => "system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif".to_string(),
                }
            } else {
                format!(
                    "\"{family}\",{}",
                    crate::font_catalogue::fallback_stack(&family)
                )
            }
        };
        let mut css = format!(
            "<style>:root{{--vt-primary:{};--vt-on-primary:{};--vt-accent:{};--vt-on-accent:{};\
             --vt-background:{};--vt-text:{};--vt-muted:{};--vt-surface:{};\
             --vt-font-heading:{};--vt-font-body:{}}}",
            hex(primary),
            on_colour(primary),
            hex(accent),
            on_colour(accent),
            hex(background),
            hex(text),
            hex(mix(text, background, 0.7)),
            hex(mix(text, background, 0.04)),
            stack(&self.heading_font),
            stack(&self.body_font),
        );
        // A chosen font applies to the page at once; blocks' own rules (later in the head)
        // still win.
        if !self.body_font.is_empty() {
            css.push_str("body{font-family:var(--vt-font-body)}");
        }
        if !self.heading_font.is_empty() {
            css.push_str("h1,h2,h3,h4,h5,h6{font-family:var(--vt-font-heading)}");
        }
        css.push_str("</style>");
        css
    }
}

/// The catalogue's spelling of `family` (`""` stays `""`: the default), or `None` when the
/// catalogue does not list it.
fn catalogue_family(family: &str) -> Option<String> {
    let family = family.trim();
    if family.is_empty() {
        return Some(String::new());
    }
    crate::font_catalogue::catalogue_name(family)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn colours_parse_short_and_long_and_store_lower_case() {
        assert_eq!(parse_colour("#B45309"), Some([0xb4, 0x53, 0x09]));
        assert_eq!(parse_colour(" #fa0 "), Some([0xff, 0xaa, 0x00]));
        assert_eq!(parse_colour("b45309"), None);
        assert_eq!(parse_colour("#b4530"), None);
        assert_eq!(parse_colour("#gggggg"), None);
        assert_eq!(parse_colour("#ééé"), None);
        assert_eq!(hex([0xb4, 0x53, 0x09]), "#b45309");
    }

    #[test]
    fn contrast_ratios_are_wcags() {
        let white = [255, 255, 255];
        let black = [0, 0, 0];
        assert!((contrast_ratio(white, black) - 21.0).abs() < 1e-9);
        assert!((contrast_ratio(white, white) - 1.0).abs() < 1e-9);
        // Reference values from the WCAG contrast checker.
        assert!((contrast_ratio(parse_colour("#767676").unwrap(), white) - 4.54).abs() < 0.01);
        assert!((contrast_ratio(parse_colour("#1f2937").unwrap(), white) - 14.68).abs() < 0.01);
        assert_eq!(
            contrast_ratio(parse_colour("#b45309").unwrap(), white),
            contrast_ratio(white, parse_colour("#b45309").unwrap()),
            "symmetric"
        );
    }

    #[test]
    fn the_on_colour_is_the_one_that_contrasts_more() {
        assert_eq!(on_colour(parse_colour("#15803d").unwrap()), ON_LIGHT);
        assert_eq!(on_colour(parse_colour("#f59e0b").unwrap()), ON_DARK);
        assert_eq!(on_colour(parse_colour("#fffbeb").unwrap()), ON_DARK);
        assert_eq!(on_colour([0, 0, 0]), ON_LIGHT);
    }

    #[test]
    fn mixing_blends_channel_by_channel() {
        assert_eq!(mix([0, 0, 0], [255, 255, 255], 0.7), [77, 77, 77]);
        assert_eq!(mix([0, 0, 0], [255, 255, 255], 0.04), [245, 245, 245]);
        assert_eq!(mix([10, 20, 30], [10, 20, 30], 0.5), [10, 20, 30]);
    }

    #[test]
    fn the_default_theme_passes_and_a_pale_one_warns() {
        let d = Theme::default();
        assert!(d.warnings().is_empty(), "{:?}", d.contrast());
        let pale = d
            .merge(ThemeInput {
                text: Some("#CCC".into()),
                primary: Some("#777777".into()),
                ..ThemeInput::default()
            })
            .unwrap();
        assert_eq!(pale.text, "#cccccc");
        assert_eq!(
            pale.warnings(),
            ["low_contrast_text", "low_contrast_primary"]
        );
        // With white and near-black to choose from, every colour keeps a label above 4.3:1,
        // so the accent's 3:1 always holds.
        for grey in 0..=255u8 {
            let c = [grey, grey, grey];
            let on = parse_colour(on_colour(c)).unwrap();
            assert!(contrast_ratio(c, on) > 4.3, "{grey}");
        }
        let c = pale.contrast();
        assert!(c.text < 2.0 && c.text > 1.0, "{c:?}");
        assert_eq!(c.text, floor2(c.text));
    }

    #[test]
    fn bad_colours_and_unknown_fonts_are_refused_with_their_field() {
        let d = Theme::default();
        let err = d
            .merge(ThemeInput {
                accent: Some("red".into()),
                ..ThemeInput::default()
            })
            .unwrap_err();
        assert_eq!(
            (err.field, err.code),
            ("accent", ErrorCode::ThemeColourInvalid)
        );
        let err = d
            .merge(ThemeInput {
                body_font: Some("Comic Sans Forever".into()),
                ..ThemeInput::default()
            })
            .unwrap_err();
        assert_eq!(
            (err.field, err.code),
            ("bodyFont", ErrorCode::ThemeFontUnknown)
        );
        let ok = d
            .merge(ThemeInput {
                heading_font: Some(" playfair display ".into()),
                body_font: Some(String::new()),
                ..ThemeInput::default()
            })
            .unwrap();
        assert_eq!(ok.heading_font, "Playfair Display");
        assert_eq!(ok.body_font, "");
    }

    #[test]
    fn the_style_sets_every_custom_property() {
        let theme = Theme {
            heading_font: "Playfair Display".into(),
            ..Theme::default()
        };
        let css = theme.style(None);
        for var in [
            "--vt-primary:#15803d;",
            "--vt-on-primary:#ffffff;",
            "--vt-accent:#f59e0b;",
            "--vt-on-accent:#111111;",
            "--vt-background:#ffffff;",
            "--vt-text:#1f2937;",
            "--vt-muted:",
            "--vt-surface:",
            "--vt-font-heading:\"Playfair Display\",serif;",
            "--vt-font-body:system-ui",
        ] {
            assert!(css.contains(var), "{var} in {css}");
        }
        assert!(css.contains("h1,h2,h3,h4,h5,h6{font-family:var(--vt-font-heading)}"));
        assert!(!css.contains("body{font-family"));
        assert!(
            Theme::default()
                .style(Some("Lora"))
                .contains("--vt-font-body:\"Lora\",serif}")
        );
    }

    #[test]
    fn a_project_without_a_stored_theme_has_the_default() {
        assert_eq!(Theme::stored(&json!({})), None);
        assert_eq!(Theme::of_meta(&json!({"theme": "x"})), Theme::default());
        let stored = json!({"theme": {"primary": "#b45309", "accent": "#f59e0b",
            "background": "#fffbeb", "text": "#1f2937", "headingFont": "", "bodyFont": "Inter"}});
        assert_eq!(Theme::of_meta(&stored).body_font, "Inter");
    }
}
