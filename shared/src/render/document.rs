//! The HTML document around a page's rendered blocks: title, SEO tags, fonts, favicon, the
//! owner's header and footer code, the conversion pixel and the effects runtime, assembled as
//! plain text (never as a template), so nothing an owner types into a setting is evaluated.

use serde::{Deserialize, Serialize};

/// Everything around the blocks of one page, resolved to final URLs by the caller.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentParts {
    pub lang: String,
    pub title: String,
    pub description: String,
    /// SEO image URL (absolute): the owner's image for the page, else its share card
    /// (`crate::seo::card`).
    pub image: String,
    /// The image's size in pixels (`og:image:width`, `og:image:height`), when known: a share
    /// card's is 1200×630.
    #[serde(default)]
    pub image_size: Option<(u32, u32)>,
    /// The image's alternative text (`og:image:alt`, `twitter:image:alt`).
    #[serde(default)]
    pub image_alt: String,
    pub favicon: String,
    /// Stylesheets (fonts first, then the page's blocks).
    pub stylesheets: Vec<String>,
    pub scripts: Vec<String>,
    /// The default family: CSS custom properties for the fonts (`--font-body`,
    /// `--font-heading`, see [`crate::fonts::font_variables`]).
    pub font_family: Option<String>,
    /// Owner code for `<head>`: the project header, then the page's header/meta.
    pub head_code: String,
    /// Owner code at the end of `<body>`: the project footer.
    pub footer_code: String,
    /// Facebook pixel id (the conversion pixel), when configured.
    pub pixel_id: Option<String>,
    /// Whether a block plays an animation effect (the document then carries their runtime).
    #[serde(default)]
    pub effects: bool,
    /// The site's name (its identity's), for `og:site_name`.
    #[serde(default)]
    pub site_name: String,
    /// The site's theme: its custom properties (`--vt-primary`, …) follow the base
    /// stylesheet (`crate::theme::Theme::style`).
    #[serde(default)]
    pub theme: crate::theme::Theme,
    /// Font files the page preloads (`crate::fonts::preloads`): published pages show a face
    /// only if it is there at first render (`font-display: optional`), so the files the first
    /// screen needs start loading with the document.
    #[serde(default)]
    pub font_preloads: Vec<String>,
    /// The page's absolute canonical URL (`<link rel="canonical">`, `og:url`): on the site's
    /// verified domain when it has one (`crate::seo` says which).
    #[serde(default)]
    pub canonical: String,
    /// `og:type`: `website` unless set (`product` on a product's page).
    #[serde(default)]
    pub og_type: String,
    /// The favicon's media type (`image/svg+xml`), for its `<link>`.
    #[serde(default)]
    pub favicon_type: String,
    /// JSON-LD objects for the head (`crate::seo::jsonld` makes them), written by
    /// [`json_ld_script`].
    #[serde(default)]
    pub json_ld: Vec<serde_json::Value>,
}

/// The base stylesheet of every page a visitor or the owner sees (published pages, pages the
/// edge renders, the editor's canvas and the owner's preview): no browser-default margin
/// around the page (an 8 px white frame otherwise) and a few sane defaults. It comes before
/// the blocks' own CSS, so a block can set anything it resets.
///
/// It stays small on purpose: owners' own blocks were laid out without it, so it resets only
/// what no layout wants (the body margin, text inflation on phones, media wider than the
/// screen) and leaves box sizing, line height and fonts to the blocks.
pub const BASE_CSS: &str = "html{-webkit-text-size-adjust:100%;text-size-adjust:100%}\
body{margin:0}img,video{max-width:100%;height:auto}";

/// The first script of every document's head: marks `<html>` with `vt-js` before anything is
/// painted, so a block's stylesheet can lay out its scripted form from the first frame
/// (`.vt-hd:is(.vt-js *) .vt-hd-nav{display:none}`: the header's menu is folded
/// behind its button on a phone). A block that waited for its own deferred script to fold it
/// would move everything below once that ran: a layout shift on every page (Lighthouse's CLS
/// 0.10 on the templates). Without scripts the class is never set and the menu stays open.
pub const JS_CLASS: &str = "<script>document.documentElement.classList.add('vt-js')</script>";

/// [`BASE_CSS`] as a `<style>` element for a document's head.
pub fn base_style() -> String {
    format!("<style>{BASE_CSS}</style>")
}

/// The stylesheet and script that play block effects when a block scrolls into view; a
/// visitor who prefers reduced motion sees the blocks at once.
pub const EFFECTS_RUNTIME: &str = "<style>.vt-fx{transition:opacity .7s ease,transform .7s ease}\
.vt-fx.vt-fx-wait[data-effect~=fade-in]{opacity:0}\
.vt-fx.vt-fx-wait[data-effect~=enter-left]{transform:translateX(-48px)}\
.vt-fx.vt-fx-wait[data-effect~=enter-right]{transform:translateX(48px)}\
.vt-fx.vt-fx-wait[data-effect~=enter-top]{transform:translateY(-48px)}\
.vt-fx.vt-fx-wait[data-effect~=enter-bottom]{transform:translateY(48px)}\
.vt-fx.vt-fx-wait[data-effect~=zoom-in]{transform:scale(.85)}\
.vt-fx.vt-fx-wait[data-effect~=rotate-left]{transform:rotate(-8deg)}\
.vt-fx.vt-fx-wait[data-effect~=rotate-right]{transform:rotate(8deg)}\
@media (prefers-reduced-motion:reduce){.vt-fx{transition:none}.vt-fx.vt-fx-wait{opacity:1;transform:none}}</style>\
<script>(function(){if(!('IntersectionObserver' in window))return;var o=new IntersectionObserver(function(es){es.forEach(function(e){if(e.isIntersecting){e.target.classList.remove('vt-fx-wait');o.unobserve(e.target)}})},{threshold:.15});\
function go(){document.querySelectorAll('.vt-fx').forEach(function(el){el.classList.add('vt-fx-wait');o.observe(el)})}\
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',go);else go()})()</script>";

/// HTML-escapes text for element content and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The search and link-preview tags: canonical URL, description, Open Graph, the Twitter
/// card, the favicon and the JSON-LD data.
fn seo_head(h: &mut String, parts: &DocumentParts, lang: &str) {
    let mut meta = |attr: &str, key: &str, value: &str| {
        h.push_str(&format!(
            "<meta {attr}=\"{key}\" content=\"{}\">\n",
            escape(value)
        ));
    };
    if !parts.description.is_empty() {
        meta("name", "description", &parts.description);
    }
    meta("property", "og:title", &parts.title);
    let og_type = if parts.og_type.is_empty() {
        "website"
    } else {
        &parts.og_type
    };
    meta("property", "og:type", og_type);
    meta("property", "og:locale", &og_locale(lang));
    if !parts.site_name.is_empty() {
        meta("property", "og:site_name", &parts.site_name);
    }
    if !parts.canonical.is_empty() {
        meta("property", "og:url", &parts.canonical);
    }
    if !parts.description.is_empty() {
        meta("property", "og:description", &parts.description);
    }
    let card = if parts.image.is_empty() {
        "summary"
    } else {
        meta("property", "og:image", &parts.image);
        if let Some((w, h)) = parts.image_size {
            meta("property", "og:image:width", &w.to_string());
            meta("property", "og:image:height", &h.to_string());
        }
        if !parts.image_alt.is_empty() {
            meta("property", "og:image:alt", &parts.image_alt);
        }
        "summary_large_image"
    };
    meta("name", "twitter:card", card);
    meta("name", "twitter:title", &parts.title);
    if !parts.description.is_empty() {
        meta("name", "twitter:description", &parts.description);
    }
    if !parts.image.is_empty() {
        meta("name", "twitter:image", &parts.image);
        if !parts.image_alt.is_empty() {
            meta("name", "twitter:image:alt", &parts.image_alt);
        }
    }
    if !parts.canonical.is_empty() {
        h.push_str(&format!(
            "<link rel=\"canonical\" href=\"{}\">\n",
            escape(&parts.canonical)
        ));
    }
    if !parts.favicon.is_empty() {
        let ty = if parts.favicon_type.is_empty() {
            String::new()
        } else {
            format!(" type=\"{}\"", escape(&parts.favicon_type))
        };
        h.push_str(&format!(
            "<link rel=\"icon\" href=\"{}\"{ty}>\n",
            escape(&parts.favicon)
        ));
    }
    h.push_str(&json_ld_script(&parts.json_ld));
}

/// The Open Graph locale of a site's language (`pt-BR` → `pt_BR`; `en` → `en_US`).
pub fn og_locale(lang: &str) -> String {
    match lang {
        "" | "pt" | "pt-BR" => "pt_BR".into(),
        "en" => "en_US".into(),
        other => other.replace('-', "_"),
    }
}

/// The `<script type="application/ld+json">` elements of `values`. `<`, `>` and `&` (and the
/// two line separators JavaScript reads as line ends) are written as `\u` escapes: they can
/// only occur inside JSON strings, where the escape means the same character, so the data is
/// unchanged and nothing in it can end the element.
pub fn json_ld_script(values: &[serde_json::Value]) -> String {
    let mut out = String::new();
    for v in values {
        let json = serde_json::to_string(v).unwrap_or_default();
        out.push_str("<script type=\"application/ld+json\">");
        for c in json.chars() {
            match c {
                '<' => out.push_str("\\u003c"),
                '>' => out.push_str("\\u003e"),
                '&' => out.push_str("\\u0026"),
                '\u{2028}' => out.push_str("\\u2028"),
                '\u{2029}' => out.push_str("\\u2029"),
                c => out.push(c),
            }
        }
        out.push_str("</script>\n");
    }
    out
}

/// Assembles the full HTML document around a rendered body.
pub fn document(parts: &DocumentParts, body: &str) -> String {
    let mut h = String::with_capacity(body.len() + 2048);
    let lang = if parts.lang.is_empty() {
        "pt-BR"
    } else {
        &parts.lang
    };
    h.push_str(&format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n{JS_CLASS}\n{}\n{}\n",
        escape(lang),
        escape(&parts.title),
        base_style(),
        parts.theme.style(parts.font_family.as_deref()),
    ));
    seo_head(&mut h, parts, lang);
    for href in &parts.font_preloads {
        h.push_str(&format!(
            "<link rel=\"preload\" href=\"{}\" as=\"font\" type=\"font/woff2\" crossorigin>\n",
            escape(href)
        ));
    }
    for href in &parts.stylesheets {
        h.push_str(&format!(
            "<link rel=\"stylesheet\" href=\"{}\">\n",
            escape(href)
        ));
    }
    if let Some(family) = &parts.font_family {
        h.push_str(&crate::fonts::font_variables(family));
        h.push('\n');
    }
    if let Some(pixel) = parts
        .pixel_id
        .as_deref()
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        h.push_str(&format!(
            "<script>!function(f,b,e,v,n,t,s){{if(f.fbq)return;n=f.fbq=function(){{n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)}};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init','{pixel}');fbq('track','PageView');</script>\n"
        ));
    }
    if parts.effects {
        h.push_str(EFFECTS_RUNTIME);
        h.push('\n');
    }
    if !parts.head_code.is_empty() {
        h.push_str(&parts.head_code);
        h.push('\n');
    }
    h.push_str("</head>\n<body>\n");
    h.push_str(body);
    h.push('\n');
    if !parts.footer_code.is_empty() {
        h.push_str(&parts.footer_code);
        h.push('\n');
    }
    for src in &parts.scripts {
        h.push_str(&format!(
            "<script src=\"{}\" defer></script>\n",
            escape(src)
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}
