//! The block library (`seed/blocks/`): names of directories and files, category icons, each
//! block's prefix, scoped CSS, ids and variable definitions, and its three renders by the
//! renderer (see the parent module).

use std::{collections::HashMap, fs, path::Path};

use chrono::{DateTime, TimeZone, Utc};
use serde_json::{Map, Value, json};
use vitrine_shared::{
    blocks::{HEADING_TAGS, VAR_TYPES, split_x_vars},
    ids::PostId,
    record_lists::DbRecord,
    render::{Block, CompiledPage, PostView, RenderContext},
};

use super::{
    Findings, SEED, check_external, check_forms,
    markup::{SVG_ID_OK, css_selectors, first_element, has_attr, html_problems, tags},
    str_field,
};
use crate::seed::{SeedBlock, parse_library};

/// `NN-` followed by `[a-z0-9-]+`.
fn numbered_key(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() > 3
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && b[2] == b'-'
        && b[3..]
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

fn is_number(v: &Value) -> bool {
    v.is_number()
}

/// One variable definition and its default value, as `docs/blocks.md` describes them.
fn check_value(def: &Value, place: &str, in_list: bool, found: &mut Findings) {
    let kind = str_field(def, "type").unwrap_or_default();
    let v = def.get("value").unwrap_or(&Value::Null);
    if !VAR_TYPES.contains(&kind) {
        found.add(place, format!("unknown type {kind:?}"));
        return;
    }
    if str_field(def, "label").is_none_or(|l| l.trim().is_empty()) {
        found.add(place, "missing label");
    }
    if let Some(post_field) = def.get("postfield") {
        if kind == "list" || in_list {
            found.add(place, "postfield only on top-level non-list definitions");
        }
        if post_field.as_str().is_none_or(str::is_empty) {
            found.add(place, "postfield must be a non-empty string");
        }
    }
    if let Some(db_field) = def.get("dbfield")
        && (!in_list || db_field.as_str().is_none_or(str::is_empty))
    {
        found.add(
            place,
            "dbfield only on list sub-definitions, as a non-empty string",
        );
    }
    let mut bad = |message: &str| found.add(place, format!("({kind}) {message}; got {v}"));
    let keys_are_str = |keys: &[&str]| keys.iter().all(|k| v.get(k).is_some_and(Value::is_string));
    match kind {
        "text" | "textarea" | "richtext" if !v.is_string() => bad("value must be a string"),
        "image" if !keys_are_str(&["src", "alt"]) => bad("value must be {src, alt}"),
        "link"
            if !(keys_are_str(&["href", "label"])
                && matches!(str_field(v, "target"), Some("_self" | "_blank"))) =>
        {
            bad("value must be {href, label, target: _self|_blank}")
        }
        "color"
            if !v.as_str().is_some_and(|c| {
                c.is_empty()
                    || (c.len() == 7
                        && c.starts_with('#')
                        && c[1..].chars().all(|d| d.is_ascii_hexdigit()))
            }) =>
        {
            bad("value must be #rrggbb or \"\" (the theme's)")
        }
        "background" => {
            let positions = ["top", "center", "bottom"]
                .iter()
                .flat_map(|a| ["left", "center", "right"].map(|b| format!("{a} {b}")))
                .collect::<Vec<_>>();
            let ok = matches!(str_field(v, "type"), Some("solid" | "gradient" | "image"))
                && v.get("color").is_some_and(Value::is_string)
                && v.get("color2").is_none_or(Value::is_string)
                && v.get("angle")
                    .is_none_or(|a| [90, 180, 45, 135].iter().any(|n| a == n))
                && v.get("image").is_none_or(Value::is_string)
                && v.get("position")
                    .is_none_or(|p| p.as_str().is_some_and(|p| positions.iter().any(|q| q == p)));
            if !ok {
                bad("value must be {type, color, color2, angle, image, position} per the doc");
            }
        }
        "unit"
            if !(v.get("value").is_some_and(|x| x.is_null() || is_number(x))
                && matches!(str_field(v, "unit"), Some("auto" | "px" | "em" | "%"))) =>
        {
            bad("value must be {value: number|null, unit: auto|px|em|%}")
        }
        "heading" if !v.as_str().is_some_and(|h| HEADING_TAGS.contains(&h)) => {
            bad("value must be a heading tag")
        }
        "padding"
            if !["top", "right", "bottom", "left"]
                .iter()
                .all(|k| v.get(k).and_then(Value::as_f64).is_some_and(|n| n >= 0.0)) =>
        {
            bad("value must be {top, right, bottom, left} numbers >= 0")
        }
        "opacity"
            if !v.as_f64().is_some_and(|o| {
                (0.0..=1.0).contains(&o) && (o * 10.0 - (o * 10.0).round()).abs() < 1e-9
            }) =>
        {
            bad("value must be 0..1 in steps of 0.1")
        }
        "number" => {
            if !is_number(v) {
                bad("value must be a number");
            }
            for k in ["min", "max", "step"] {
                if def.get(k).is_some_and(|x| !is_number(x)) {
                    found.add(place, format!("{k} must be a number"));
                }
            }
            let n = v.as_f64();
            if let (Some(n), Some(min)) = (n, def.get("min").and_then(Value::as_f64))
                && n < min
            {
                found.add(place, "value below min");
            }
            if let (Some(n), Some(max)) = (n, def.get("max").and_then(Value::as_f64))
                && n > max
            {
                found.add(place, "value above max");
            }
        }
        "select" => {
            let options = def.get("options").and_then(Value::as_array);
            match options {
                Some(o)
                    if !o.is_empty()
                        && o.iter().all(|x| {
                            x.get("name").is_some_and(Value::is_string)
                                && x.get("value").is_some_and(Value::is_string)
                        }) =>
                {
                    if !o.iter().any(|x| x.get("value") == Some(v)) {
                        bad("value must be one of the options");
                    }
                }
                _ => found.add(place, "select needs options [{name, value}]"),
            }
        }
        "checkbox" if !v.is_boolean() => bad("value must be a boolean"),
        "list" => check_list(def, place, in_list, found),
        "table" => {
            // Columns are checked by split_x_vars; rows may only use their keys.
            let keys: Vec<&str> = def
                .get("columns")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| str_field(c, "key"))
                .collect();
            match v.as_array() {
                Some(rows) if rows.iter().all(Value::is_object) => {
                    for row in rows.iter().filter_map(Value::as_object) {
                        for k in row.keys().filter(|k| !keys.contains(&k.as_str())) {
                            found.add(place, format!("row key {k:?} is not a column"));
                        }
                    }
                }
                _ => bad("value must be a list of row objects"),
            }
        }
        _ => {}
    }
}

/// A list definition: its sub-definitions, its source and each item of its default value.
fn check_list(def: &Value, place: &str, in_list: bool, found: &mut Findings) {
    if in_list {
        found.add(place, "lists cannot be nested");
    }
    let subs = def
        .get("vars")
        .and_then(Value::as_array)
        .filter(|s| !s.is_empty());
    if subs.is_none() {
        found.add(place, "list needs sub-definitions in vars");
    }
    let subs = subs.map(Vec::as_slice).unwrap_or_default();
    for (i, sub) in subs.iter().enumerate() {
        check_value(sub, &format!("{place}.vars[{i}]"), true, found);
    }
    match def
        .get("source")
        .map(Value::as_str)
        .unwrap_or(Some("manual"))
    {
        None => found.add(place, "source must be a string"),
        Some(s) if s.starts_with("db:") => {
            let table = str_field(def, "dbtable").unwrap_or_default();
            if s[3..].trim().is_empty() && table.trim().is_empty() {
                found.add(place, "db: source names no collection");
            }
            let op = str_field(def, "dbfilterquery");
            if def.get("dbfilterquery").is_some()
                && !op.is_some_and(|o| ["", "=", "!=", ">", "<", ">=", "<=", "like"].contains(&o))
            {
                found.add(place, "bad dbfilterquery");
            }
            if def.get("dborderdir").is_some()
                && !matches!(str_field(def, "dborderdir"), Some("asc" | "desc"))
            {
                found.add(place, "bad dborderdir");
            }
            if def
                .get("dblimit")
                .is_some_and(|l| !l.as_i64().is_some_and(|l| (1..=100).contains(&l)))
            {
                found.add(place, "dblimit must be 1..100");
            }
        }
        Some(s) if s.starts_with("api:") => {
            if def.get("sourceMap").is_some_and(|m| !m.is_object()) {
                found.add(place, "sourceMap must be an object");
            }
        }
        Some("manual") => {}
        Some(_) => found.add(place, "source must be manual, db:… or api:…"),
    }
    let items = def.get("value").and_then(Value::as_array);
    match items {
        Some(items) if items.iter().all(Value::is_object) => {
            for (k, item) in items.iter().enumerate() {
                for sub in subs {
                    let Some(name) = str_field(sub, "name") else {
                        continue;
                    };
                    let Some(value) = item.get(name) else {
                        continue;
                    };
                    let mut item_def = sub.clone();
                    item_def["value"] = value.clone();
                    if let Some(obj) = item_def.as_object_mut() {
                        obj.remove("dbfield");
                    }
                    check_value(
                        &item_def,
                        &format!("{place}.value[{k}].{name}"),
                        true,
                        found,
                    );
                }
            }
        }
        _ => found.add(
            place,
            format!(
                "(list) value must be a list of objects; got {}",
                def["value"]
            ),
        ),
    }
}

/// A default value emptied as an owner could leave it: text blank, numbers 0, lists empty;
/// the members of enumerations (`type`, `unit`, `target`, `position`, `angle`) stay valid.
fn emptied(v: &Value) -> Value {
    match v {
        Value::Bool(_) => Value::Bool(false),
        Value::Number(_) => json!(0),
        Value::String(_) => json!(""),
        Value::Array(_) => json!([]),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| {
                    let keep =
                        ["type", "unit", "target", "position", "angle"].contains(&k.as_str());
                    (k.clone(), if keep { x.clone() } else { emptied(x) })
                })
                .collect(),
        ),
        Value::Null => Value::Null,
    }
}

/// The sample record of the renders: a blog post with the fields library blocks bind to.
fn sample_post(n: i64) -> PostView {
    let slug = if n == 0 {
        "como-escolher-o-cafe".to_string()
    } else {
        format!("como-escolher-o-cafe-{n}")
    };
    let fields = json!({
        "content": "<p>Texto do post com <strong>negrito</strong>.</p>",
        "image": "/uploads/cafe.jpg",
        "excerpt": "Um guia rápido para acertar na escolha.",
        "category": "Guias",
        "author": "Marina Duarte",
        "price": 4990,
        "gallery": [{"src": "/uploads/a.jpg", "caption": "Primeira"},
                    {"src": "/uploads/b.jpg", "caption": "Segunda"}],
    });
    let created: DateTime<Utc> = Utc.with_ymd_and_hms(2026, 3, 12, 10, 0, 0).unwrap();
    let permalink = format!("/blog/{slug}");
    PostView {
        record: DbRecord {
            id: PostId(n.max(1) + 6),
            name: "Como escolher o café certo para o seu paladar".into(),
            slug,
            created_at: created,
            fields: fields.as_object().cloned().unwrap_or_default(),
            formatted: Map::from_iter([("price".to_string(), json!("R$ 49,90"))]),
            url: Some(permalink.clone()),
        },
        permalink,
        html_fields: vec!["content".into()],
    }
}

/// The sample site's pages, for the renderer's `working_link` test.
fn sample_pages() -> Vec<String> {
    ["/", "/sobre", "/contato", "/blog", "/blog/*", "/produtos"]
        .map(String::from)
        .to_vec()
}

/// Renders `block` with the renderer as `ctx` sees it; every problem of the HTML is found.
fn render_and_check(block: &Block, ctx: &RenderContext, place: &str, found: &mut Findings) {
    let html = match CompiledPage::compile(std::slice::from_ref(block)).and_then(|c| c.render(ctx))
    {
        Ok(html) => html,
        Err(e) => return found.add(place, format!("render failed: {e}")),
    };
    for p in html_problems(&html).into_iter().take(5) {
        found.add(place, p);
    }
    check_forms(place, &html, found);
    check_external(place, &html, found);
}

/// The three renders of a library block (see the module docs).
fn render_three_ways(b: &SeedBlock, template: String, defs: &[Value], found: &mut Findings) {
    let block = Block {
        uid: "seed".into(),
        name: b.content.name.clone(),
        template,
        vars: defs.to_vec(),
        ..Block::default()
    };
    let base = RenderContext {
        site_name: "Padaria Grão Dourado".into(),
        site_slug: "grao-dourado".into(),
        page_name: "Início".into(),
        page_slug: "/".into(),
        lang: "pt-BR".into(),
        pages: Some(sample_pages()),
        ..RenderContext::default()
    };
    let mut filled = base.clone();
    for list in block.db_lists() {
        filled
            .lists
            .insert(list.key, (1..=3).map(sample_post).collect());
    }
    render_and_check(&block, &filled, &format!("{} (defaults)", b.uid), found);
    let bound = RenderContext {
        post: Some(sample_post(0)),
        ..filled
    };
    render_and_check(&block, &bound, &format!("{} (record)", b.uid), found);
    let empty = Block {
        vars: defs
            .iter()
            .map(|d| {
                let mut d = d.clone();
                if let Some(v) = d.get("value").map(emptied) {
                    d["value"] = v;
                }
                d
            })
            .collect(),
        ..block
    };
    render_and_check(&empty, &base, &format!("{} (empty)", b.uid), found);
}

/// Everything about one library block that parsing it does not check.
fn check_block(b: &SeedBlock, prefixes: &mut HashMap<String, String>, found: &mut Findings) {
    let place = b.uid.as_str();
    for (key, text) in [
        ("name", &b.content.name),
        ("keywords", &b.content.keywords),
        ("template", &b.content.template),
    ] {
        if text.trim().is_empty() {
            found.add(place, format!("'{key}' is empty"));
        }
    }
    for (key, text) in [
        ("name", &b.content.name),
        ("keywords", &b.content.keywords),
        ("template", &b.content.template),
        ("css", &b.content.css),
        ("js", &b.content.js),
    ] {
        check_external(&format!("{place}: {key}"), text, found);
    }
    let (tag, attrs) = match first_element(&b.content.template) {
        Ok(first) => first,
        Err(e) => return found.add(place, e),
    };
    let class = attrs
        .get("class")
        .map(|(_, c)| c.trim_start())
        .unwrap_or("");
    // `vt-` and a run of `[a-z0-9]` that ends the class name (a `{%` may follow).
    let prefix = class.strip_prefix("vt-").and_then(|rest| {
        let short = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
            .unwrap_or(rest.len());
        let ends =
            !rest[short..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        (short > 0 && ends).then(|| &class[..3 + short])
    });
    match prefix {
        None => found.add(
            place,
            "the first element's first class should be the block prefix vt-<short>",
        ),
        Some(prefix) => {
            if let Some(other) = prefixes.insert(prefix.to_string(), b.uid.clone()) {
                found.add(
                    place,
                    format!("class prefix {prefix} already used by {other}"),
                );
            }
            let scope = format!(".{prefix}");
            if let Some(selector) = css_selectors(&b.content.css).into_iter().find(|s| {
                !s.strip_prefix(&scope).is_some_and(|rest| {
                    !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
            }) {
                found.add(
                    place,
                    format!("CSS selector {selector:?} is not scoped under {scope}"),
                );
            }
        }
    }
    match attrs.get("x-vars") {
        None => {
            return found.add(
                place,
                format!("first element <{tag}> has no x-vars attribute"),
            );
        }
        Some((quote, _)) if *quote != '\'' => found.add(place, "x-vars must be single-quoted"),
        Some(_) => {}
    }
    let (template, defs) = match split_x_vars(&b.content.template) {
        Ok(split) => split,
        Err(e) => return found.add(place, e),
    };
    for (i, def) in defs.iter().enumerate() {
        let name = str_field(def, "name").unwrap_or_default();
        check_value(def, &format!("{place}: x-vars[{i}] {name}"), false, found);
    }
    if let Some(t) = tags(&template)
        .into_iter()
        .find(|t| !t.end && has_attr(t.attrs, "id") && !SVG_ID_OK.contains(&t.name.as_str()))
    {
        found.add(
            place,
            format!("<{}> has an id (blocks may repeat on a page)", t.name),
        );
    }
    render_three_ways(b, template, &defs, found);
}

#[test]
fn the_block_library_keeps_the_rules_of_the_blocks_doc() {
    let mut found = Findings::default();
    let dir = Path::new(SEED).join("blocks");
    let mut categories: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    categories.sort();
    for c in &categories {
        let name = c.file_name().unwrap().to_string_lossy().to_string();
        if !numbered_key(&name) {
            found.add(&name, "directory must be named NN-key");
        }
        let category: toml::Table =
            toml::from_str(&fs::read_to_string(c.join("category.toml")).unwrap()).unwrap();
        let icon = category.get("icon").and_then(|i| i.as_str()).unwrap_or("");
        if !icon.trim().starts_with("<svg") || !icon.trim().ends_with("</svg>") {
            found.add(&name, "category.toml: icon must be an inline <svg>");
        }
        check_external(&format!("{name}/category.toml: icon"), icon, &mut found);
        for f in fs::read_dir(c).unwrap() {
            let file = f.unwrap().file_name().to_string_lossy().to_string();
            let stem = file.strip_suffix(".toml");
            if file != "category.toml" && !stem.is_some_and(numbered_key) {
                found.add(&name, format!("{file}: file must be named NN-slug.toml"));
            }
        }
    }
    let mut prefixes = HashMap::new();
    for b in parse_library().unwrap().iter().flat_map(|c| &c.blocks) {
        check_block(b, &mut prefixes, &mut found);
    }
    found.assert_none();
}
