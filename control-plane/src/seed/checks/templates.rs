//! The shipped templates (`seed/templates/*.json`) as files: what the seed would accept but a
//! site made from them should not have. Their pages are rendered by the seed itself
//! (`expand_template`, tested beside it); here: the file's keys, library references and their
//! data sources, each page's header and footer, the records of each collection, internal
//! links, forms and outside resources.

use std::{
    collections::{HashMap, HashSet},
    fs,
    path::Path,
};

use serde_json::Value;
use vitrine_shared::blocks::{EFFECTS, split_x_vars};

use super::{Findings, check_external, check_forms, str_field, template_files};
use crate::seed::parse_library;

/// Largest template file.
const MAX_BYTES: u64 = 150 * 1024;
/// The template gallery's categories.
const CATEGORIES: &[&str] = &["Negócios", "Portfólio", "Blog"];
/// The keys a page block may have: it names a library block and sets some of its values.
const REF_KEYS: &[&str] = &["library", "vars", "sources", "effect"];
/// A record's own values a binding may name (besides its collection's field slugs).
const POST_VALUES: &[&str] = &[
    "name",
    "slug",
    "date",
    "date_long",
    "created_at",
    "permalink",
    "url",
    "id",
];
const FIELD_TYPES: &[&str] = &[
    "text", "textarea", "wysiwyg", "select", "number", "date", "currency", "image", "checkbox",
    "email", "url",
];

/// The definitions of a page block's library block, with the page's values and sources over
/// its defaults.
fn effective_defs(block: &Value, library: &HashMap<String, Vec<Value>>) -> Vec<Value> {
    let Some(mut defs) = str_field(block, "library").and_then(|uid| library.get(uid).cloned())
    else {
        return Vec::new();
    };
    for def in &mut defs {
        let Some(name) = str_field(def, "name").map(String::from) else {
            continue;
        };
        if let Some(v) = block.get("vars").and_then(|v| v.get(&name)) {
            def["value"] = v.clone();
        }
        if let Some(Value::Object(settings)) = block.get("sources").and_then(|s| s.get(&name)) {
            for (k, v) in settings {
                def[k] = v.clone();
            }
        }
    }
    defs
}

/// The internal paths a value links to: link `href`s, `href="/…"` in rich text and the
/// `Label | /path` lines of link-list text areas.
fn internal_hrefs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match x.as_str() {
                    Some(h) if k == "href" && h.starts_with('/') => out.push(h.to_string()),
                    _ => internal_hrefs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| internal_hrefs(x, out)),
        Value::String(s) => {
            for (i, _) in s.match_indices("href=\"/") {
                let rest = &s[i + 6..];
                out.push(rest[..rest.find('"').unwrap_or(rest.len())].to_string());
            }
            for line in s.lines() {
                let parts: Vec<&str> = line.split('|').collect();
                if parts.len() > 1 && parts[parts.len() - 1].trim().starts_with('/') {
                    out.push(parts[parts.len() - 1].trim().to_string());
                }
            }
        }
        _ => {}
    }
}

/// Every string in `v` with its JSON path.
fn strings<'a>(v: &'a Value, path: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::String(s) => out.push((path, s)),
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| strings(x, format!("{path}.{k}"), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| strings(x, format!("{path}[{i}]"), out)),
        _ => {}
    }
}

/// The value a binding names is a record's own or a field of `table`.
fn binding_ok(binding: &str, table: &Value) -> bool {
    let slug = binding.strip_prefix("fields.").unwrap_or(binding);
    POST_VALUES.contains(&binding)
        || table["fields"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|f| str_field(f, "slug") == Some(slug))
}

/// A page block: a library reference whose names exist, with known effects, a form subject,
/// and data bindings that name something its tables hold.
fn check_block(
    b: &Value,
    place: &str,
    library: &HashMap<String, Vec<Value>>,
    templates: &HashMap<String, String>,
    tables: &HashMap<&str, &Value>,
    table: Option<&Value>,
    found: &mut Findings,
) {
    let Some(obj) = b.as_object() else {
        return found.add(place, "a block must be an object");
    };
    let extra: Vec<&String> = obj
        .keys()
        .filter(|k| !REF_KEYS.contains(&k.as_str()))
        .collect();
    if !extra.is_empty() {
        found.add(
            place,
            format!("not a library reference (unexpected keys {extra:?})"),
        );
    }
    let uid = str_field(b, "library").unwrap_or_default();
    let Some(defs) = library.get(uid) else {
        return found.add(place, format!("no library block {uid:?}"));
    };
    let names: HashSet<&str> = defs.iter().filter_map(|d| str_field(d, "name")).collect();
    for key in ["vars", "sources"] {
        match b.get(key) {
            None => {}
            Some(Value::Object(values)) => {
                for (n, v) in values {
                    if !names.contains(n.as_str()) {
                        found.add(place, format!("{uid} has no field {n:?} ({key})"));
                    }
                    if key == "sources" && !v.is_object() {
                        found.add(place, format!("sources.{n} must be an object"));
                    }
                }
            }
            Some(_) => found.add(place, format!("'{key}' must be an object")),
        }
    }
    let effect = b.get("effect").map(Value::as_str).unwrap_or(Some(""));
    if !effect.is_some_and(|e| e.split_whitespace().all(|x| EFFECTS.contains(&x))) {
        found.add(place, format!("unknown effect {:?}", b["effect"]));
    }
    let template = &templates[uid];
    if template.contains("<form") {
        check_forms(&format!("{place} ({uid})"), template, found);
        if names.contains("subject") && b["vars"]["subject"].as_str().is_none_or(str::is_empty) {
            found.add(place, "set the form's 'subject' for this site");
        }
    }
    for d in effective_defs(b, library) {
        let name = str_field(&d, "name").unwrap_or_default();
        if let Some(source) = str_field(&d, "source").and_then(|s| s.strip_prefix("db:")) {
            let Some(t) = tables.get(source) else {
                found.add(place, format!("{name} reads unknown table {source:?}"));
                continue;
            };
            for sub in d["vars"].as_array().into_iter().flatten() {
                let field = str_field(sub, "dbfield").unwrap_or_default().trim();
                if !field.is_empty() && !binding_ok(field, t) {
                    found.add(
                        place,
                        format!(
                            "{name}.{} dbfield {field:?} is not a value of table {source:?}",
                            str_field(sub, "name").unwrap_or_default()
                        ),
                    );
                }
            }
        }
        let field = str_field(&d, "postfield").unwrap_or_default().trim();
        if let Some(t) = table
            && !field.is_empty()
            && str_field(&d, "type") != Some("list")
            && !binding_ok(field, t)
        {
            found.add(
                place,
                format!(
                    "{name} postfield {field:?} is not a value of table {:?}",
                    t["slug"]
                ),
            );
        }
    }
}

/// A collection's fields and records: known types, required records filled, select values
/// among the options, currency in whole cents, values only for its fields.
fn check_table(t: &Value, place: &str, found: &mut Findings) {
    let fields: Vec<&Value> = t["fields"].as_array().into_iter().flatten().collect();
    for f in &fields {
        let kind = str_field(f, "type").unwrap_or_default();
        if !FIELD_TYPES.contains(&kind) {
            found.add(place, format!("field {}: unknown type {kind:?}", f["slug"]));
        }
        if !matches!(str_field(f, "required"), Some("0" | "1")) {
            found.add(
                place,
                format!("field {}: required must be \"0\" or \"1\"", f["slug"]),
            );
        }
    }
    for post in t["posts"].as_array().into_iter().flatten() {
        let at = format!("{place} post {}", post["slug"]);
        let values = post["fields"].as_object().cloned().unwrap_or_default();
        for k in values.keys() {
            if !fields.iter().any(|f| str_field(f, "slug") == Some(k)) {
                found.add(&at, format!("value for unknown field {k:?}"));
            }
        }
        for f in &fields {
            let slug = str_field(f, "slug").unwrap_or_default();
            let v = values.get(slug).unwrap_or(&Value::Null);
            let empty = match v {
                Value::Null => true,
                Value::Bool(b) => !b,
                Value::Number(n) => n.as_f64() == Some(0.0),
                Value::String(s) => s.is_empty(),
                Value::Array(a) => a.is_empty(),
                Value::Object(o) => o.is_empty(),
            };
            if str_field(f, "required") == Some("1") && empty {
                found.add(&at, format!("required field {slug:?} empty"));
            }
            match str_field(f, "type") {
                Some("select") if !empty => {
                    let allowed = f["options"].as_array().into_iter().flatten();
                    if !allowed.clone().any(|o| o.get("name") == Some(v)) {
                        found.add(&at, format!("{slug:?} value {v} not in options"));
                    }
                }
                Some("currency") if !(v.is_null() || v.is_i64() || v.is_u64()) => {
                    found.add(&at, format!("{slug:?} value {v} is not whole cents"));
                }
                _ => {}
            }
        }
    }
}

/// One template file (see the module docs).
fn check_file(
    path: &Path,
    library: &HashMap<String, Vec<Value>>,
    templates: &HashMap<String, String>,
    found: &mut Findings,
) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let size = fs::metadata(path).unwrap().len();
    if size > MAX_BYTES {
        found.add(&name, format!("{size} bytes, over {MAX_BYTES}"));
    }
    let data: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    if !str_field(&data, "category").is_some_and(|c| CATEGORIES.contains(&c)) {
        found.add(&name, format!("category must be one of {CATEGORIES:?}"));
    }
    let meta = &data["project_meta"];
    if !meta["description"].is_string() {
        found.add(&name, "project_meta.description missing");
    }
    let font = &meta["defaultFont"];
    if !(font["family"].is_string() && font["variants"].is_array()) {
        found.add(
            &name,
            "project_meta.defaultFont must have family and variants",
        );
    }
    let tables: HashMap<&str, &Value> = data["tables"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| (str_field(t, "slug").unwrap_or_default(), t))
        .collect();
    for (slug, t) in &tables {
        check_table(t, &format!("{name}: table {slug:?}"), found);
    }
    let pages: Vec<&Value> = data["pages"].as_array().into_iter().flatten().collect();
    let homes: Vec<bool> = pages
        .iter()
        .map(|p| str_field(p, "slug") == Some("/"))
        .collect();
    if homes.iter().filter(|h| **h).count() != 1 {
        found.add(&name, "exactly one page must have slug '/'");
    }
    // Paths a link may name: the static pages, and `/{collection page}/{record}`.
    let mut known = HashSet::new();
    let mut collection_pages = HashMap::new();
    for p in &pages {
        let path = format!(
            "/{}",
            str_field(p, "slug").unwrap_or_default().trim_matches('/')
        );
        match str_field(p, "table") {
            Some(t) => {
                collection_pages.insert(path, t);
            }
            None => {
                known.insert(path);
            }
        }
    }
    for (p, home) in pages.iter().zip(&homes) {
        let place = format!("{name}: page {}", p["slug"]);
        if p["is_home"].as_bool() != Some(*home) {
            found.add(&place, "is_home must be true exactly for slug '/'");
        }
        if p.get("output").is_some() {
            found.add(&place, "drop 'output' (the seed renders it)");
        }
        let table = str_field(p, "table").and_then(|t| tables.get(t).copied());
        let blocks: Vec<&Value> = p["blocks"].as_array().into_iter().flatten().collect();
        for (i, b) in blocks.iter().enumerate() {
            let at = format!("{place} block[{i}]");
            check_block(b, &at, library, templates, &tables, table, found);
        }
        let uids: Vec<&str> = blocks
            .iter()
            .map(|b| str_field(b, "library").unwrap_or_default())
            .collect();
        let first = usize::from(uids.len() > 1 && uids[0] == "header/02-barra-de-aviso");
        if !uids.get(first).is_some_and(|u| u.starts_with("header/")) {
            found.add(&place, "must start with a header/* block");
        }
        if !uids.last().is_some_and(|u| u.starts_with("footer/")) {
            found.add(&place, "must end with a footer/* block");
        }
        let (lo, hi) = if *home { (4, 7) } else { (3, 6) };
        if !(lo..=hi).contains(&blocks.len()) {
            found.add(
                &place,
                format!("{} blocks, expected {lo}-{hi}", blocks.len()),
            );
        }
        for b in &blocks {
            let mut hrefs = Vec::new();
            for d in effective_defs(b, library) {
                internal_hrefs(&d["value"], &mut hrefs);
            }
            for href in hrefs
                .iter()
                .filter(|h| !h.contains("{{") && !h.contains("{%"))
            {
                let path = format!(
                    "/{}",
                    href.split(['#', '?'])
                        .next()
                        .unwrap_or("")
                        .trim_matches('/')
                );
                let (head, tail) = path.rsplit_once('/').unwrap_or(("", ""));
                let record = collection_pages.get(head).is_some_and(|t| {
                    tables.get(t).is_some_and(|t| {
                        t["posts"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .any(|post| str_field(post, "slug") == Some(tail))
                    })
                });
                if !(known.contains(&path) || record) {
                    found.add(
                        &place,
                        format!("({}) links to unknown {href:?}", b["library"]),
                    );
                }
            }
        }
    }
    let mut all = Vec::new();
    strings(&data, "$".into(), &mut all);
    for (at, s) in all {
        check_external(&format!("{name}: {at}"), s, found);
    }
}

#[test]
fn the_shipped_templates_keep_the_rules_of_the_blocks_doc() {
    let mut library = HashMap::new();
    let mut templates = HashMap::new();
    for b in parse_library().unwrap().into_iter().flat_map(|c| c.blocks) {
        let (_, defs) = split_x_vars(&b.content.template).unwrap();
        library.insert(b.uid.clone(), defs);
        templates.insert(b.uid, b.content.template);
    }
    let mut found = Findings::default();
    let files = template_files();
    assert!(!files.is_empty(), "no template files");
    for path in &files {
        check_file(path, &library, &templates, &mut found);
    }
    found.assert_none();
}
