//! A page's `<img>` of an uploaded photo, as a `<picture>`: AVIF and WebP `<source>`s and the
//! fallback `<img>`, each with a `srcset` of every width and `sizes`, the photo's `width` and
//! `height` (the browser reserves its box: no layout shift), its placeholder as the box's
//! background while it loads, and how it loads: the first photo of a page (the one most likely
//! at the top, and the largest there) with `fetchpriority="high"`, every other one
//! `loading="lazy"`; all `decoding="async"`. What the template says itself (`sizes`, `loading`,
//! `width`…) is kept.
//!
//! The rewriting is lol_html's (Cloudflare's streaming HTML rewriter, already used for forms),
//! in two passes: [`sources`] lists the `src` of every `<img>` so the caller can look each up,
//! then [`pictures`] rewrites those it found.

use std::collections::HashMap;

use lol_html::{RewriteStrSettings, element, html_content::ContentType, rewrite_str};

use super::{Photo, PhotoFormat};

/// One photo as a page shows it: the photo, and the URL of each of its variants by key.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shown {
    pub photo: Photo,
    pub urls: HashMap<String, String>,
}

/// Lets the photos' own height follow their width: a `height` attribute would otherwise fix
/// it where a template sets only a width (`width:100%`). Specificity 0 (`:where`), so any rule
/// of the template's wins over it.
pub const STYLE: &str = "<style>:where(img[data-photo]){height:auto}</style>";

/// An attribute's value as the browser reads it: the few character references a template
/// engine writes into URLs decoded.
pub fn attribute_text(raw: &str) -> String {
    if !raw.contains('&') {
        return raw.to_string();
    }
    raw.replace("&#x2f;", "/")
        .replace("&#x2F;", "/")
        .replace("&#47;", "/")
        .replace("&#x3a;", ":")
        .replace("&#x3A;", ":")
        .replace("&#58;", ":")
        .replace("&amp;", "&")
}

/// The `src` of every `<img>` in `html`, as the browser reads them, in order.
pub fn sources(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let _ = rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: vec![element!("img[src]", |el| {
                if let Some(src) = el.get_attribute("src") {
                    out.push(attribute_text(&src));
                }
                Ok(())
            })],
            ..RewriteStrSettings::new()
        },
    );
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `srcset` of the photo's variants in `format` (widest last).
fn srcset(shown: &Shown, format: PhotoFormat) -> Option<String> {
    let mut parts: Vec<(u32, &str)> = shown
        .photo
        .variants
        .iter()
        .filter(|v| v.format == format)
        .filter_map(|v| shown.urls.get(&v.key).map(|u| (v.width, u.as_str())))
        .collect();
    parts.sort_unstable();
    (!parts.is_empty()).then(|| {
        parts
            .iter()
            .map(|(w, u)| format!("{u} {w}w"))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// The `sizes` of a photo shown at most `width` CSS pixels wide: the viewport's width below
/// that.
fn sizes_for(width: u32) -> String {
    format!("(max-width: {width}px) 100vw, {width}px")
}

/// The fallback's format and its widest variant's URL.
fn fallback(shown: &Shown) -> Option<(PhotoFormat, String)> {
    [PhotoFormat::Jpeg, PhotoFormat::Png]
        .into_iter()
        .find_map(|f| {
            let widest = shown
                .photo
                .variants
                .iter()
                .filter(|v| v.format == f)
                .max_by_key(|v| v.width)?;
            Some((f, shown.urls.get(&widest.key)?.clone()))
        })
}

/// `html` with every `<img>` whose `src` `find` knows turned into a `<picture>` (see the
/// module docs), and [`STYLE`] at the end of the `<head>` when there was one. Untouched when
/// no image is known.
pub fn pictures(html: &str, find: impl Fn(&str) -> Option<Shown>) -> String {
    let mut seen = 0usize;
    let mut changed = false;
    let rewritten = rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: vec![
                element!("img[src]", |el| {
                    let Some(src) = el.get_attribute("src") else {
                        return Ok(());
                    };
                    let Some(shown) = find(&attribute_text(&src)) else {
                        return Ok(());
                    };
                    let Some((fallback_format, fallback_src)) = fallback(&shown) else {
                        return Ok(());
                    };
                    let photo = &shown.photo;
                    let shown_width = el
                        .get_attribute("width")
                        .and_then(|w| w.trim().parse::<u32>().ok())
                        .filter(|&w| w > 0)
                        .unwrap_or(photo.width);
                    let sizes = el
                        .get_attribute("sizes")
                        .unwrap_or_else(|| sizes_for(shown_width.min(photo.width)));
                    let mut open = String::from("<picture>");
                    for format in [PhotoFormat::Avif, PhotoFormat::Webp] {
                        if let Some(set) = srcset(&shown, format) {
                            open.push_str(&format!(
                                r#"<source type="{}" srcset="{}" sizes="{}">"#,
                                format.mime(),
                                escape(&set),
                                escape(&sizes)
                            ));
                        }
                    }
                    el.before(&open, ContentType::Html);
                    el.after("</picture>", ContentType::Html);
                    el.set_attribute("src", &fallback_src)?;
                    if let Some(set) = srcset(&shown, fallback_format) {
                        el.set_attribute("srcset", &set)?;
                    }
                    el.set_attribute("sizes", &sizes)?;
                    if el.get_attribute("width").is_none() && el.get_attribute("height").is_none() {
                        el.set_attribute("width", &photo.width.to_string())?;
                        el.set_attribute("height", &photo.height.to_string())?;
                    }
                    el.set_attribute("data-photo", "")?;
                    if el.get_attribute("loading").is_none()
                        && el.get_attribute("fetchpriority").is_none()
                    {
                        if seen == 0 {
                            el.set_attribute("fetchpriority", "high")?;
                        } else {
                            el.set_attribute("loading", "lazy")?;
                        }
                    }
                    if el.get_attribute("decoding").is_none() {
                        el.set_attribute("decoding", "async")?;
                    }
                    // The placeholder shows through transparency: only behind opaque photos.
                    if fallback_format == PhotoFormat::Jpeg && !photo.placeholder.is_empty() {
                        let style = el.get_attribute("style").unwrap_or_default();
                        let sep = if style.trim().is_empty() || style.trim_end().ends_with(';') {
                            ""
                        } else {
                            ";"
                        };
                        el.set_attribute(
                            "style",
                            &format!(
                                "{style}{sep}background:url({}) center/cover no-repeat",
                                photo.placeholder
                            ),
                        )?;
                    }
                    seen += 1;
                    changed = true;
                    Ok(())
                }),
                element!("head", |el| {
                    el.append(STYLE, ContentType::Html);
                    Ok(())
                }),
            ],
            ..RewriteStrSettings::new()
        },
    );
    match rewritten {
        Ok(out) if changed => out,
        _ => html.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::photos::Variant;

    fn shown() -> Shown {
        let mut variants = Vec::new();
        let mut urls = HashMap::new();
        for format in [PhotoFormat::Avif, PhotoFormat::Webp, PhotoFormat::Jpeg] {
            for (w, h) in [(320, 427), (640, 853)] {
                let key = format!("uploads/1/2/d/f.{w}w.{}", format.ext());
                urls.insert(key.clone(), format!("/_assets/{w}.{}", format.ext()));
                variants.push(Variant {
                    format,
                    width: w,
                    height: h,
                    key,
                    bytes: 1,
                });
            }
        }
        Shown {
            photo: Photo {
                width: 640,
                height: 853,
                placeholder: "data:image/webp;base64,AA".into(),
                variants,
            },
            urls,
        }
    }

    #[test]
    fn a_known_img_becomes_a_picture_and_the_first_goes_first() {
        let html = r#"<html><head></head><body><img src="&#x2f;files&#x2f;a.jpg" alt="x"><img src="/other.png"><img src="/files/a.jpg" class="c"></body></html>"#;
        assert_eq!(
            sources(html),
            ["/files/a.jpg", "/other.png", "/files/a.jpg"]
        );
        let out = pictures(html, |src| (src == "/files/a.jpg").then(shown));
        assert!(out.contains(STYLE), "{out}");
        assert_eq!(out.matches("<picture>").count(), 2, "{out}");
        assert!(out.contains(r#"<source type="image/avif" srcset="/_assets/320.avif 320w, /_assets/640.avif 640w" sizes="(max-width: 640px) 100vw, 640px">"#), "{out}");
        assert!(out.contains(r#"<img src="/_assets/640.jpg" alt="x" srcset="/_assets/320.jpg 320w, /_assets/640.jpg 640w" sizes="(max-width: 640px) 100vw, 640px" width="640" height="853" data-photo="" fetchpriority="high" decoding="async" style="background:url(data:image/webp;base64,AA) center/cover no-repeat"></picture>"#), "{out}");
        assert!(out.contains(r#"class="c" srcset="#), "{out}");
        assert!(out.contains(r#"loading="lazy""#), "{out}");
        assert!(out.contains(r#"<img src="/other.png">"#), "{out}");
        // Nothing known: the page as it was.
        assert_eq!(pictures(html, |_| None), html);
    }
}
