//! The values a block's variables give its template: typed values (rich text sanitised,
//! lists typed by their sub-definitions), a collection page's post bindings (a `link` bound
//! to a WhatsApp, telephone, e-mail or URL field becomes a working link), the site identity's
//! values for definitions bound with `"identity": key`, and the records of database-fed and
//! outside-API lists.

use std::{collections::BTreeMap, fmt, sync::Arc};

use minijinja::{
    Value,
    value::{Enumerator, Object},
};
use serde_json::Value as Json;

use super::{RenderContext, block::str_of};

/// The value a variable definition gives its block's template, under the definition's name.
pub(super) fn var_value(def: &Json, label: &str, ctx: &RenderContext) -> Option<(String, Value)> {
    let name = str_of(def, "name").or_else(|| str_of(def, "key"))?;
    let kind = def.get("type").and_then(Json::as_str).unwrap_or("text");
    let source = def.get("source").and_then(Json::as_str).unwrap_or("");
    if source.starts_with("db:") {
        let key = format!("{label}:{name}");
        let items = ctx.lists.get(&key).map(Vec::as_slice).unwrap_or_default();
        let subs = sub_defs(def);
        let value = items
            .iter()
            .map(|p| {
                let mut item = p.to_map(ctx.lang());
                for sub in subs {
                    if let (Some(n), Some(field)) = (str_of(sub, "name"), str_of(sub, "dbfield")) {
                        item.insert(n, p.field(&field, ctx.lang()));
                    }
                }
                Value::from_object(item)
            })
            .collect::<Vec<_>>();
        return Some((name, Value::from(value)));
    }
    if source.starts_with("api:") {
        let key = format!("{label}:{name}");
        let map = def.get("sourceMap").and_then(Json::as_object);
        // Fetched for this render (the editor), else as fetched at publish time.
        let items = match ctx.api.get(&key) {
            Some(v) => v.as_slice(),
            None => def
                .get("records")
                .and_then(Json::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default(),
        };
        let value = items
            .iter()
            .take(100)
            .map(|record| {
                let mut item: BTreeMap<String, Value> = match record {
                    Json::Object(o) => o.iter().map(|(k, v)| (k.clone(), json_value(v))).collect(),
                    _ => BTreeMap::new(),
                };
                for (sub, path) in map.into_iter().flatten() {
                    if let Some(path) = path.as_str() {
                        let found = path
                            .split('.')
                            .filter(|p| !p.is_empty())
                            .try_fold(record, |v, p| v.get(p))
                            .cloned()
                            .unwrap_or(Json::Null);
                        item.insert(sub.clone(), json_value(&found));
                    }
                }
                Value::from_object(item)
            })
            .collect::<Vec<_>>();
        return Some((name, Value::from(value)));
    }
    if kind != "list"
        && let (Some(field), Some(post)) = (str_of(def, "postfield"), &ctx.post)
    {
        let value = post.field(&field, ctx.lang());
        if kind == "link" {
            let href = value.as_str().map(str::trim).unwrap_or_default();
            // An empty field falls back to the identity, when the definition is bound to it.
            if href.is_empty()
                && let Some(key) = str_of(def, "identity")
                && value.as_object().is_none()
            {
                return Some((name, identity_value(def, kind, &key, ctx)));
            }
            return Some((
                name,
                link_value(def, value.as_str().map(String::from), &value),
            ));
        }
        return Some((name, value));
    }
    let value = def.get("value").unwrap_or(&Json::Null);
    if let Some(key) = str_of(def, "identity")
        && is_empty(kind, value)
    {
        return Some((name, identity_value(def, kind, &key, ctx)));
    }
    Some((name, typed_value(kind, value, sub_defs(def))))
}

/// Whether a stored value is empty for its type: `""`, `null` or absent, a link without its
/// `href`, an image without its `src`.
fn is_empty(kind: &str, value: &Json) -> bool {
    let blank = |v: Option<&Json>| match v {
        None | Some(Json::Null) => true,
        Some(Json::String(s)) => s.trim().is_empty(),
        Some(_) => false,
    };
    match (kind, value) {
        ("link", Json::Object(o)) => blank(o.get("href")),
        ("image", Json::Object(o)) => blank(o.get("src")),
        _ => blank(Some(value)),
    }
}

/// The value of a definition bound to the site's identity (`"identity": key`) whose own is
/// empty: for a `link`, a link to the identity's value (`https://wa.me/…`, `tel:…`,
/// `mailto:…`, the social URL) with the definition's own label; for an `image`, the logo
/// with the site's name as its text; otherwise the value as text.
fn identity_value(def: &Json, kind: &str, key: &str, ctx: &RenderContext) -> Value {
    let identity = ctx.identity();
    match kind {
        "link" => {
            let href = identity.link(key);
            link_value(def, Some(href), &Value::UNDEFINED)
        }
        "image" => {
            let src = identity.value(key);
            let alt = def
                .get("value")
                .and_then(|v| v.get("alt"))
                .and_then(Json::as_str)
                .filter(|a| !a.trim().is_empty())
                .map(String::from)
                .unwrap_or_else(|| identity.name.clone());
            Value::from_serialize(serde_json::json!({ "src": src, "alt": alt }))
        }
        _ => Value::from(identity.value(key)),
    }
}

/// A `link` variable's `{href, label, target}` leading to `href`, with the label and target
/// of the definition's own value. A bound value that is already a link object is kept (its
/// missing label filled in); one that is no text (an unset field) leads nowhere (`href` ""),
/// so `{% if cta.href is working_link %}` hides it.
fn link_value(def: &Json, href: Option<String>, bound: &Value) -> Value {
    let own = def.get("value").filter(|v| v.is_object());
    let text_of = |key: &str| {
        own.and_then(|v| v.get(key))
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let label = text_of("label");
    let target = Some(text_of("target"))
        .filter(|t| t == "_blank" || t == "_self")
        .unwrap_or_else(|| "_self".into());
    if href.is_none()
        && let Ok(Json::Object(mut o)) = serde_json::to_value(bound)
    {
        o.entry("label").or_insert(Json::String(label));
        o.entry("target").or_insert(Json::String(target));
        return json_value(&Json::Object(o));
    }
    Value::from_object(Link {
        href: href.unwrap_or_default().trim().to_string(),
        label,
        target,
    })
}

/// A link a binding made (`{href, label, target}`). Written on its own (`href="{{ cta }}"`, as
/// templates that bound a link to a URL field did before bindings made links) it is its
/// `href`, so those templates keep working.
#[derive(Debug)]
struct Link {
    href: String,
    label: String,
    target: String,
}

impl Object for Link {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str()? {
            "href" => Some(Value::from(self.href.clone())),
            "label" => Some(Value::from(self.label.clone())),
            "target" => Some(Value::from(self.target.clone())),
            _ => None,
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(&["href", "label", "target"])
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.href)
    }
}

/// A stored JSON value for templates, with `null` (an emptied field) rendering as nothing
/// rather than `none`.
pub(super) fn json_value(v: &Json) -> Value {
    match v {
        Json::Null => Value::UNDEFINED,
        Json::Array(a) => Value::from(a.iter().map(json_value).collect::<Vec<_>>()),
        Json::Object(o) => Value::from_object(
            o.iter()
                .map(|(k, v)| (k.clone(), json_value(v)))
                .collect::<BTreeMap<_, _>>(),
        ),
        other => Value::from_serialize(other),
    }
}

fn sub_defs(def: &Json) -> &[Json] {
    def.get("vars")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// A stored value made ready for templates: rich text sanitised and marked safe, heading tags
/// kept to the allowed ones, list items typed by their sub-definitions.
fn typed_value(kind: &str, value: &Json, subs: &[Json]) -> Value {
    match kind {
        "richtext" => Value::from_safe_string(ammonia::clean(value.as_str().unwrap_or_default())),
        "heading" => Value::from(crate::blocks::heading_tag(value)),
        "list" => {
            let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
            Value::from(
                items
                    .iter()
                    .map(|item| {
                        let mut out: BTreeMap<String, Value> = match item {
                            Json::Object(o) => {
                                o.iter().map(|(k, v)| (k.clone(), json_value(v))).collect()
                            }
                            _ => BTreeMap::new(),
                        };
                        for sub in subs {
                            if let Some(n) = str_of(sub, "name") {
                                let kind = sub.get("type").and_then(Json::as_str).unwrap_or("text");
                                let v = item.get(&n).unwrap_or(&Json::Null);
                                out.insert(n, typed_value(kind, v, sub_defs(sub)));
                            }
                        }
                        Value::from_object(out)
                    })
                    .collect::<Vec<_>>(),
            )
        }
        _ => json_value(value),
    }
}
