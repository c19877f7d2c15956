//! Block variable definitions (`docs/blocks.md`): reading the `x-vars` attribute out of a
//! library template, validating definitions, and the small CSS helpers templates use as
//! filters (`background`, `unit`, `padding`, `lines`).
//!
//! The attribute is read with lol_html, Cloudflare's streaming HTML rewriter, chosen because it
//! rewrites one attribute and leaves every other byte of the template as it was (Jinja tags
//! included, which a tree-building parser would reshape), and because it is well kept and fast.

use std::{cell::RefCell, collections::HashSet};

use serde_json::{Map, Value as Json};

/// Variable types a definition may declare.
pub const VAR_TYPES: &[&str] = &[
    "text",
    "textarea",
    "richtext",
    "image",
    "link",
    "color",
    "background",
    "unit",
    "heading",
    "padding",
    "opacity",
    "number",
    "select",
    "checkbox",
    "list",
    "table",
];

/// Names a variable cannot take: the context's own.
pub const RESERVED: &[&str] = &["site", "page", "post"];

/// Tags a `heading` variable may choose (spec 2 §9); anything else renders as `div`.
pub const HEADING_TAGS: &[&str] = &[
    "h1", "h2", "h3", "h4", "h5", "h6", "div", "p", "strong", "em", "del", "ins",
];

/// Block animation effects (spec 2 §9); a block's `effect` combines them with spaces.
pub const EFFECTS: &[&str] = &[
    "fade-in",
    "enter-left",
    "enter-right",
    "enter-top",
    "enter-bottom",
    "zoom-in",
    "rotate-left",
    "rotate-right",
];

/// The `x-vars` definitions of a template's first element, and the template without them.
/// A template with no attribute has no definitions. Errors read as the editor shows them:
/// `x-vars error: <reason>`.
pub fn split_x_vars(template: &str) -> Result<(String, Vec<Json>), String> {
    let found: RefCell<Option<String>> = RefCell::new(None);
    let seen_first = RefCell::new(false);
    let output = lol_html::rewrite_str(
        template,
        lol_html::RewriteStrSettings {
            element_content_handlers: vec![lol_html::element!("*", |el| {
                if !seen_first.replace(true)
                    && let Some(raw) = el.get_attribute("x-vars")
                {
                    *found.borrow_mut() = Some(raw);
                    el.remove_attribute("x-vars");
                }
                Ok(())
            })],
            ..lol_html::RewriteStrSettings::new()
        },
    )
    .map_err(|e| format!("x-vars error: {e}"))?;
    let Some(raw) = found.into_inner() else {
        return Ok((template.to_string(), Vec::new()));
    };
    let defs: Json = serde_json::from_str(&raw).map_err(|e| format!("x-vars error: {e}"))?;
    let Json::Array(defs) = defs else {
        return Err("x-vars error: the definitions must be a JSON array".into());
    };
    check_vars(&defs)?;
    Ok((output, defs))
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

/// Checks a list of definitions (a block's `vars`): names, types, table columns, list items.
pub fn check_vars(defs: &[Json]) -> Result<(), String> {
    let mut names = HashSet::new();
    for def in defs {
        let Json::Object(def) = def else {
            return Err("x-vars error: each definition must be an object".into());
        };
        let name = def.get("name").and_then(Json::as_str).unwrap_or_default();
        if !valid_name(name) {
            return Err(format!(
                "x-vars error: invalid variable name {name:?} (letters, digits and _, not starting with a digit)"
            ));
        }
        if RESERVED.contains(&name) {
            return Err(format!("x-vars error: {name:?} is a reserved name"));
        }
        if !names.insert(name.to_string()) {
            return Err(format!("x-vars error: variable {name:?} is defined twice"));
        }
        let kind = def.get("type").and_then(Json::as_str).unwrap_or("text");
        if !VAR_TYPES.contains(&kind) {
            return Err(format!(
                "x-vars error: unknown type {kind:?} for variable {name:?}"
            ));
        }
        if kind == "table" {
            check_columns(def.get("columns").unwrap_or(&Json::Null))?;
        }
        if kind == "list"
            && let Some(Json::Array(sub)) = def.get("vars")
        {
            check_vars(sub)?;
        }
    }
    Ok(())
}

/// Table-block columns: key required, `[a-z0-9_]+`, unique; label required (spec 2 §5).
pub fn check_columns(columns: &Json) -> Result<(), String> {
    let Json::Array(columns) = columns else {
        return Err("x-vars error: a table needs a list of columns".into());
    };
    let mut keys = HashSet::new();
    for c in columns {
        let key = c.get("key").and_then(Json::as_str).unwrap_or_default();
        if key.is_empty()
            || !key
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_')
        {
            return Err(format!(
                "x-vars error: column key {key:?} must match [a-z0-9_]+"
            ));
        }
        if c.get("label")
            .and_then(Json::as_str)
            .is_none_or(|l| l.trim().is_empty())
        {
            return Err(format!("x-vars error: column {key:?} needs a label"));
        }
        if !keys.insert(key) {
            return Err(format!("Column ID {key:?} already exists"));
        }
    }
    Ok(())
}

/// The effect classes of a block, keeping only known effects (in their given order).
pub fn effects(effect: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    for word in effect.split_whitespace() {
        if let Some(e) = EFFECTS.iter().find(|e| **e == word)
            && !out.contains(e)
        {
            out.push(*e);
        }
    }
    out
}

fn num(v: Option<&Json>) -> Option<f64> {
    match v? {
        Json::Number(n) => n.as_f64(),
        Json::String(s) => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|f: &f64| f.is_finite())
}

fn fmt_num(f: f64) -> String {
    let r = (f * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn color(v: Option<&Json>) -> Option<String> {
    let s = v?.as_str()?.trim();
    let ok = (s.starts_with('#')
        && (s.len() == 4 || s.len() == 7 || s.len() == 9)
        && s[1..].chars().all(|c| c.is_ascii_hexdigit()))
        || (s.chars().all(|c| c.is_ascii_alphabetic()) && !s.is_empty() && s.len() <= 20);
    ok.then(|| s.to_string())
}

const POSITIONS: &[&str] = &["top", "center", "bottom"];
const SIDES: &[&str] = &["left", "center", "right"];

/// CSS for a `background` value: `background: …` declarations (no trailing semicolon issues).
pub fn css_background(v: &Json) -> String {
    let kind = v.get("type").and_then(Json::as_str).unwrap_or("solid");
    match kind {
        "gradient" => {
            let angle = num(v.get("angle"))
                .map(|a| a as i64)
                .filter(|a| [90, 180, 45, 135].contains(a))
                .unwrap_or(180);
            match (color(v.get("color")), color(v.get("color2"))) {
                (Some(a), Some(b)) => format!("background: linear-gradient({angle}deg, {a}, {b})"),
                (Some(a), None) | (None, Some(a)) => format!("background: {a}"),
                _ => String::new(),
            }
        }
        "image" => {
            let src = v.get("image").and_then(Json::as_str).unwrap_or_default();
            let src = src.replace(['"', '\'', '(', ')', '\\', '<', '>', '\n'], "");
            if src.is_empty() {
                return color(v.get("color"))
                    .map(|c| format!("background: {c}"))
                    .unwrap_or_default();
            }
            let position = v
                .get("position")
                .and_then(Json::as_str)
                .map(str::trim)
                .filter(|p| {
                    let mut w = p.split_whitespace();
                    matches!((w.next(), w.next(), w.next()), (Some(a), Some(b), None) if POSITIONS.contains(&a) && SIDES.contains(&b))
                        || *p == "center"
                })
                .unwrap_or("center center");
            let fallback = color(v.get("color"))
                .map(|c| format!("{c} "))
                .unwrap_or_default();
            format!("background: {fallback}url('{src}') {position} / cover no-repeat")
        }
        _ => color(v.get("color"))
            .or_else(|| color(Some(v)))
            .map(|c| format!("background: {c}"))
            .unwrap_or_default(),
    }
}

/// CSS for a `unit` value: `auto`, or a number with px, em or %.
pub fn css_unit(v: &Json) -> String {
    let unit = v.get("unit").and_then(Json::as_str).unwrap_or("px");
    if unit == "auto" {
        return "auto".into();
    }
    let unit = match unit {
        "em" => "em",
        "%" => "%",
        _ => "px",
    };
    match num(v.get("value")).or_else(|| num(Some(v))) {
        Some(n) => format!("{}{unit}", fmt_num(n)),
        None => "auto".into(),
    }
}

/// CSS for a `padding` value: four lengths in px, each at least 0.
pub fn css_padding(v: &Json) -> String {
    let side = |k: &str| fmt_num(num(v.get(k)).unwrap_or(0.0).max(0.0));
    format!(
        "{}px {}px {}px {}px",
        side("top"),
        side("right"),
        side("bottom"),
        side("left")
    )
}

/// A heading variable's tag, or `div` when it is not one of the allowed tags.
pub fn heading_tag(v: &Json) -> &'static str {
    let tag = v.as_str().unwrap_or_default().trim().to_ascii_lowercase();
    HEADING_TAGS
        .iter()
        .find(|t| **t == tag)
        .copied()
        .unwrap_or("div")
}

/// The value of a definition, or `null`.
pub fn default_value(def: &Map<String, Json>) -> Json {
    def.get("value").cloned().unwrap_or(Json::Null)
}

/// A page's blocks with every rich-text value (a `richtext` variable's, and a `richtext`
/// sub-variable's in each list item, at any depth) reduced to ammonia's allow-list, as saved:
/// the editor's inline editing sends markup typed in the canvas, and nothing of it but clean
/// HTML is kept. Rendering cleans again (`render::typed_value`); clean HTML comes out the same.
pub fn sanitize_rich_text(blocks: &mut Json) {
    for block in blocks.as_array_mut().into_iter().flatten() {
        if let Some(vars) = block.get_mut("vars").and_then(Json::as_array_mut) {
            for def in vars.iter_mut() {
                let Some(def) = def.as_object_mut() else {
                    continue;
                };
                let subs = def.get("vars").cloned().unwrap_or(Json::Null);
                let kind = def.get("type").and_then(Json::as_str).map(str::to_string);
                if let Some(value) = def.get_mut("value") {
                    clean_value(kind.as_deref(), &subs, value);
                }
            }
        }
    }
}

/// One value of a definition of type `kind` (with sub-definitions `subs`), cleaned in place.
fn clean_value(kind: Option<&str>, subs: &Json, value: &mut Json) {
    match (kind, value) {
        (Some("richtext"), Json::String(html)) => *html = crate::fields::sanitize_html(html),
        (Some("list"), Json::Array(items)) => {
            for item in items.iter_mut().filter_map(Json::as_object_mut) {
                for sub in subs.as_array().into_iter().flatten() {
                    let Some(name) = sub.get("name").and_then(Json::as_str) else {
                        continue;
                    };
                    if let Some(v) = item.get_mut(name) {
                        let kind = sub.get("type").and_then(Json::as_str);
                        clean_value(kind, sub.get("vars").unwrap_or(&Json::Null), v);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn x_vars_are_read_from_the_first_element_and_removed() {
        let (t, defs) = split_x_vars(
            "<section class=\"a\" x-vars='[{\"name\":\"title\",\"type\":\"text\",\"value\":\"Olá > mundo\"}]'><h1>{{ title }}</h1><p x-vars='[]'></p></section>",
        )
        .unwrap();
        assert_eq!(
            t,
            "<section class=\"a\"><h1>{{ title }}</h1><p x-vars='[]'></p></section>"
        );
        assert_eq!(defs[0]["value"], "Olá > mundo");
        let (t, defs) = split_x_vars("<div>{% if x %}{{ x }}{% endif %}</div>").unwrap();
        assert_eq!(t, "<div>{% if x %}{{ x }}{% endif %}</div>");
        assert!(defs.is_empty());
    }

    #[test]
    fn bad_definitions_are_refused_with_the_reason() {
        for (template, needle) in [
            ("<div x-vars='[{'></div>", "x-vars error: EOF"),
            ("<div x-vars='{}'></div>", "must be a JSON array"),
            (
                "<div x-vars='[{\"name\":\"1a\"}]'></div>",
                "invalid variable name",
            ),
            ("<div x-vars='[{\"name\":\"post\"}]'></div>", "reserved"),
            (
                "<div x-vars='[{\"name\":\"a\"},{\"name\":\"a\"}]'></div>",
                "defined twice",
            ),
            (
                "<div x-vars='[{\"name\":\"a\",\"type\":\"video\"}]'></div>",
                "unknown type",
            ),
            (
                "<div x-vars='[{\"name\":\"t\",\"type\":\"table\",\"columns\":[{\"key\":\"Preço\",\"label\":\"P\"}]}]'></div>",
                "must match [a-z0-9_]+",
            ),
            (
                "<div x-vars='[{\"name\":\"t\",\"type\":\"table\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"},{\"key\":\"a\",\"label\":\"B\"}]}]'></div>",
                "already exists",
            ),
        ] {
            let e = split_x_vars(template).unwrap_err();
            assert!(e.contains(needle), "{template}: {e}");
        }
    }

    #[test]
    fn css_helpers_build_safe_declarations() {
        let cases = [
            (
                css_background(&json!({"type": "solid", "color": "#123abc"})),
                "background: #123abc",
            ),
            (
                css_background(
                    &json!({"type": "gradient", "color": "#000", "color2": "#fff", "angle": 45}),
                ),
                "background: linear-gradient(45deg, #000, #fff)",
            ),
            (
                css_background(
                    &json!({"type": "gradient", "color": "#000", "color2": "#fff", "angle": 33}),
                ),
                "background: linear-gradient(180deg, #000, #fff)",
            ),
            (
                css_background(
                    &json!({"type": "image", "image": "/files/a.png", "position": "top right"}),
                ),
                "background: url('/files/a.png') top right / cover no-repeat",
            ),
            (
                css_background(
                    &json!({"type": "image", "image": "/x.png');}body{x:y", "position": "evil"}),
                ),
                "background: url('/x.png;}body{x:y') center center / cover no-repeat",
            ),
            (
                css_background(&json!({"type": "solid", "color": "red;}"})),
                "",
            ),
            (css_unit(&json!({"value": 12.5, "unit": "em"})), "12.5em"),
            (css_unit(&json!({"value": 50, "unit": "%"})), "50%"),
            (css_unit(&json!({"value": null, "unit": "px"})), "auto"),
            (css_unit(&json!({"unit": "auto"})), "auto"),
            (
                css_padding(&json!({"top": 10, "right": -4, "bottom": "8", "left": 0})),
                "10px 0px 8px 0px",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
        assert_eq!(heading_tag(&json!("H2")), "h2");
        assert_eq!(heading_tag(&json!("script")), "div");
        assert_eq!(
            effects("zoom-in fade-in bogus zoom-in"),
            ["zoom-in", "fade-in"]
        );
    }

    #[test]
    fn rich_text_is_cleaned_as_saved_at_any_depth_and_nothing_else_changes() {
        let mut blocks = json!([{
            "uid": "a",
            "vars": [
                {"name": "t", "type": "text", "value": "<script>x</script>"},
                {"name": "c", "type": "richtext", "value": "<p onclick=\"x()\">ok<script>alert(1)</script></p>"},
                {"name": "l", "type": "list", "vars": [
                    {"name": "r", "type": "richtext"},
                    {"name": "n", "type": "list", "vars": [{"name": "r", "type": "richtext"}]}
                ], "value": [
                    {"r": "<a href=\"javascript:alert(1)\">a</a>", "n": [{"r": "<img src=x onerror=alert(1)>"}]},
                    "not an item"
                ]},
                {"name": "odd", "type": "richtext", "value": 3}
            ]
        }, "not a block"]);
        sanitize_rich_text(&mut blocks);
        let vars = &blocks[0]["vars"];
        assert_eq!(vars[0]["value"], "<script>x</script>");
        assert_eq!(vars[1]["value"], "<p>ok</p>");
        assert_eq!(
            vars[2]["value"][0]["r"],
            "<a rel=\"noopener noreferrer\">a</a>"
        );
        assert_eq!(vars[2]["value"][0]["n"][0]["r"], "<img src=\"x\">");
        assert_eq!(vars[2]["value"][1], "not an item");
        assert_eq!(vars[3]["value"], 3);
        assert_eq!(blocks[1], "not a block");
    }
}
