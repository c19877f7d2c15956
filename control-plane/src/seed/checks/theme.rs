//! The library's colours come from the site's theme (docs/blocks.md, "Theme and identity in
//! library blocks"): every colour a block's CSS or template writes is the fallback of a theme
//! custom property (`var(--vt-primary,#16a34a)`, alone or inside a `color-mix`), every colour
//! variable's default is empty ("the theme's"), and the blocks that show the business (headers,
//! footers, contact details) read the site's identity through empty `"identity"` definitions.

use serde_json::Value;
use vitrine_shared::blocks::split_x_vars;

use super::{Findings, str_field};
use crate::seed::parse_library;

/// Colours that mean a state rather than a brand, kept as they are on every site: the
/// callout block's info, success, warning and danger kinds.
const SEMANTIC: &[(&str, &[&str])] = &[(
    "text/05-destaque-informativo",
    &[
        "#1d4ed8", "#eff4ff", "#c7d7fe", "#15803d", "#effaf2", "#bfe8cb", "#a16207", "#fffbeb",
        "#fde68a", "#b91c1c", "#fef2f2", "#fecaca",
    ],
)];

/// Named colours a stylesheet could write instead of a hex value.
const NAMED: &[&str] = &[
    "white", "black", "red", "blue", "green", "gray", "grey", "silver", "navy", "orange", "yellow",
    "purple", "pink",
];

/// The colours `text` writes outside a theme property's fallback: hex values (an `&#…;`
/// entity is not one), `rgb()`/`hsl()` calls and named colours after a `:` or `,`.
pub(super) fn bare_colours(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('#') {
        let digits = bytes[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        let ends = bytes
            .get(i + 1 + digits)
            .is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-'));
        if ![3, 4, 6, 8].contains(&digits) || !ends || (i > 0 && bytes[i - 1] == b'&') {
            continue;
        }
        let before = text[..i].trim_end();
        let themed = before
            .strip_suffix(',')
            .and_then(|b| b.rfind("var(--vt-").map(|at| &b[at + 9..]))
            .is_some_and(|name| {
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            });
        if !themed {
            out.push(text[i..i + 1 + digits].to_string());
        }
    }
    let low = text.to_ascii_lowercase();
    for f in ["rgb(", "rgba(", "hsl(", "hsla("] {
        for (i, _) in low.match_indices(f) {
            if !low[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '-') {
                let end = low[i..].find(')').map_or(low.len(), |e| i + e + 1);
                out.push(low[i..end].to_string());
            }
        }
    }
    for name in NAMED {
        for (i, _) in low.match_indices(name) {
            let before = low[..i].trim_end();
            let after = low[i + name.len()..].chars().next();
            if (before.ends_with(':') || before.ends_with(','))
                && after.is_none_or(|c| matches!(c, ';' | '}' | ' ' | ',' | ')' | '!' | '"'))
            {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The definitions whose default is a colour, and the colour they hold.
fn coloured_defaults(defs: &[Value]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in defs {
        let name = str_field(d, "name").unwrap_or_default().to_string();
        match str_field(d, "type") {
            Some("color") => {
                let v = str_field(d, "value").unwrap_or_default();
                if !v.is_empty() {
                    out.push((name, v.to_string()));
                }
            }
            Some("background") if str_field(&d["value"], "type") != Some("image") => {
                for k in ["color", "color2"] {
                    let v = str_field(&d["value"], k).unwrap_or_default();
                    if !v.is_empty() {
                        out.push((format!("{name}.{k}"), v.to_string()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn library_blocks_take_their_colours_and_fonts_from_the_theme() {
    let mut found = Findings::default();
    for b in parse_library().unwrap().iter().flat_map(|c| &c.blocks) {
        let place = b.uid.as_str();
        let (template, defs) = split_x_vars(&b.content.template).unwrap();
        let allowed = SEMANTIC
            .iter()
            .find(|(uid, _)| *uid == place)
            .map(|(_, c)| *c)
            .unwrap_or_default();
        for (part, text) in [("css", &b.content.css), ("template", &template)] {
            for c in bare_colours(text) {
                if !allowed.contains(&c.to_ascii_lowercase().as_str()) {
                    found.add(
                        place,
                        format!("{part} writes {c} outside a var(--vt-…, fallback)"),
                    );
                }
            }
        }
        for (name, colour) in coloured_defaults(&defs) {
            found.add(
                place,
                format!("colour variable {name} defaults to {colour}, not \"\" (the theme's)"),
            );
        }
        if b.content.css.contains("font-family:")
            && !b.content.css.contains("var(--vt-font-body")
            && !b.content.css.contains("var(--vt-font-heading")
        {
            found.add(
                place,
                "fonts do not follow --vt-font-body/--vt-font-heading",
            );
        }
    }
    found.assert_none();
}

#[test]
fn blocks_that_show_the_business_read_the_site_identity() {
    let mut found = Findings::default();
    // (block, the definitions that must come from the identity when left empty)
    let expected: &[(&str, &[(&str, &str)])] = &[
        (
            "header/00-cabecalho-com-menu",
            &[("brand", "name"), ("logo", "logo")],
        ),
        (
            "header/01-cabecalho-centralizado",
            &[("brand", "name"), ("logo", "logo")],
        ),
        (
            "header/03-cabecalho-com-contatos",
            &[
                ("brand", "name"),
                ("logo", "logo"),
                ("phone", "phone"),
                ("email", "email"),
                ("hours", "hours"),
            ],
        ),
        ("footer/00-rodape-simples", &[("brand", "name")]),
        (
            "footer/01-rodape-em-colunas",
            &[
                ("brand", "name"),
                ("logo", "logo"),
                ("about", "description"),
            ],
        ),
        (
            "footer/03-rodape-com-newsletter",
            &[("brand", "name"), ("about", "description")],
        ),
        (
            "contact/01-contato-com-informacoes",
            &[
                ("address", "address"),
                ("phone", "phone"),
                ("email", "email"),
            ],
        ),
    ];
    let library = parse_library().unwrap();
    let blocks: Vec<_> = library.iter().flat_map(|c| &c.blocks).collect();
    for b in &blocks {
        let (_, defs) = split_x_vars(&b.content.template).unwrap();
        for d in &defs {
            if let Some(key) = str_field(d, "identity")
                && !vitrine_shared::identity::BINDING_KEYS.contains(&key)
            {
                found.add(&b.uid, format!("unknown identity key {key:?}"));
            }
        }
    }
    for (uid, pairs) in expected {
        let Some(b) = blocks.iter().find(|b| b.uid == *uid) else {
            found.add(uid, "missing");
            continue;
        };
        let (template, defs) = split_x_vars(&b.content.template).unwrap();
        for (name, key) in *pairs {
            let Some(d) = defs.iter().find(|d| str_field(d, "name") == Some(*name)) else {
                found.add(uid, format!("no definition {name:?}"));
                continue;
            };
            if str_field(d, "identity") != Some(*key) {
                found.add(uid, format!("{name} is not bound to identity.{key}"));
            }
            let empty = match &d["value"] {
                Value::String(s) => s.is_empty(),
                v => str_field(v, "src").is_some_and(str::is_empty),
            };
            if !empty {
                found.add(uid, format!("{name} carries a value of its own"));
            }
        }
        // The copyright is the site's: `© {year} {name}` then the owner's text.
        if uid.starts_with("footer/") && !template.contains("site.year") {
            found.add(uid, "the copyright does not show site.year");
        }
    }
    for uid in ["footer/01-rodape-em-colunas", "footer/02-rodape-minimo"] {
        let b = blocks.iter().find(|b| b.uid == uid).unwrap();
        for key in [
            "site.identity.social.instagram",
            "site.identity.whatsapp_url",
        ] {
            if !b.content.template.contains(key) {
                found.add(uid, format!("social links do not fall back to {key}"));
            }
        }
    }
    found.assert_none();
}

#[test]
fn bare_colours_are_found_and_theme_fallbacks_are_not() {
    let css = ".a{color:#fff;background:var(--vt-surface,#f5f7fa);border:1px solid \
               color-mix(in srgb,var(--vt-text,#111827) 12%,var(--vt-background, #fff))}\
               .b{box-shadow:0 0 4px rgba(0,0,0,.2);outline-color:white}.c{color:var(--x,#abc)}";
    assert_eq!(
        bare_colours(css),
        ["#fff", "#abc", "rgba(0,0,0,.2)", "white"]
    );
    assert!(bare_colours("<a href=\"#top\">&#039;</a> {{ x or '#' }} #section-1").is_empty());
}
