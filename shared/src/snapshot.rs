//! The portable form of a site: pages, collections (fields and posts) and redirects, with
//! every cross-reference by slug instead of id. Templates are stored as snapshots, "save as
//! template" exports one, and duplicating a project is export followed by import, so the three
//! share one code path. A snapshot never carries a domain, a token or publish state.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Snapshot {
    #[serde(default)]
    pub project_meta: Value,
    pub pages: Vec<SnapPage>,
    #[serde(default)]
    pub tables: Vec<SnapTable>,
    #[serde(default)]
    pub redirects: Vec<SnapRedirect>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SnapPage {
    pub name: String,
    pub slug: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub image: String,
    #[serde(default = "empty_object")]
    pub meta: Value,
    #[serde(default)]
    pub output: String,
    #[serde(default = "empty_array")]
    pub blocks: Value,
    /// Slug of the collection a collection page is bound to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SnapTable {
    pub name: String,
    pub slug: String,
    #[serde(default = "empty_object")]
    pub meta: Value,
    #[serde(default)]
    pub fields: Vec<SnapField>,
    #[serde(default)]
    pub posts: Vec<SnapPost>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SnapField {
    pub name: String,
    pub slug: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// `"1"` when required, as the spec writes it.
    #[serde(default, deserialize_with = "flag")]
    pub required: String,
    #[serde(default = "empty_array")]
    pub options: Value,
    /// For relation fields `meta.table` holds the target collection's slug.
    #[serde(default = "empty_object")]
    pub meta: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SnapPost {
    #[serde(default)]
    pub name: String,
    pub slug: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<Utc>>,
    /// Values keyed by field slug; relation values are the target post's slug.
    #[serde(default)]
    pub fields: Map<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SnapRedirect {
    pub from: String,
    pub to: String,
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn empty_array() -> Value {
    Value::Array(Vec::new())
}

/// Accepts `"1"`, `"0"`, `1`, `0`, `true`, `false`; stores `"1"` or `"0"`.
fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let v = Value::deserialize(d)?;
    let on = match v {
        Value::Bool(b) => b,
        Value::Number(n) => n.as_i64() == Some(1),
        Value::String(s) => s == "1" || s == "true",
        _ => false,
    };
    Ok(if on { "1" } else { "0" }.to_string())
}

impl Snapshot {
    /// A new site: one empty home page.
    pub fn blank(home_name: &str) -> Self {
        Snapshot {
            project_meta: empty_object(),
            pages: vec![SnapPage {
                name: home_name.to_string(),
                slug: "/".into(),
                description: String::new(),
                image: String::new(),
                meta: empty_object(),
                output: String::new(),
                blocks: empty_array(),
                table: None,
            }],
            tables: vec![],
            redirects: vec![],
        }
    }

    /// Checks internal consistency before anything is written: unique slugs, references that
    /// resolve, a home page. Errors name what is wrong.
    pub fn check(&self) -> Result<(), String> {
        use std::collections::HashSet;
        let mut page_slugs = HashSet::new();
        for p in &self.pages {
            if !page_slugs.insert(p.slug.as_str()) {
                return Err(format!("duplicate page slug {:?}", p.slug));
            }
        }
        if !page_slugs.contains("/") {
            return Err("a site needs a home page (slug \"/\")".into());
        }
        let table_slugs: HashSet<&str> = self.tables.iter().map(|t| t.slug.as_str()).collect();
        if table_slugs.len() != self.tables.len() {
            return Err("duplicate collection slug".into());
        }
        for p in &self.pages {
            if let Some(t) = &p.table
                && !table_slugs.contains(t.as_str())
            {
                return Err(format!(
                    "page {:?} is bound to unknown collection {t:?}",
                    p.slug
                ));
            }
        }
        for t in &self.tables {
            let mut fs = HashSet::new();
            for f in &t.fields {
                if !fs.insert(f.slug.as_str()) {
                    return Err(format!("duplicate field slug {:?} in {:?}", f.slug, t.slug));
                }
                if f.kind == "relation" {
                    match f.meta.get("table").and_then(Value::as_str) {
                        Some(target) if table_slugs.contains(target) => {}
                        _ => {
                            return Err(format!("relation field {:?} has no valid target", f.slug));
                        }
                    }
                }
            }
            let mut ps = HashSet::new();
            for post in &t.posts {
                if !ps.insert(post.slug.as_str()) {
                    return Err(format!(
                        "duplicate post slug {:?} in {:?}",
                        post.slug, t.slug
                    ));
                }
            }
        }
        let mut froms = HashSet::new();
        for r in &self.redirects {
            if !froms.insert(r.from.as_str()) {
                return Err(format!("duplicate redirect origin {:?}", r.from));
            }
        }
        Ok(())
    }
}

/// A template file as shipped in `control-plane/seed/templates/`.
#[derive(Debug, Clone, Deserialize)]
pub struct TemplateFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub category: String,
    #[serde(default = "default_order")]
    pub order: i64,
    #[serde(flatten)]
    pub snapshot: Snapshot,
}

fn default_order() -> i64 {
    99
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_snapshot_is_consistent() {
        assert!(Snapshot::blank("Início").check().is_ok());
    }

    #[test]
    fn dangling_references_are_refused() {
        let mut s = Snapshot::blank("Home");
        s.pages.push(SnapPage {
            table: Some("nope".into()),
            slug: "blog".into(),
            ..s.pages[0].clone()
        });
        assert!(s.check().unwrap_err().contains("unknown collection"));

        let mut s = Snapshot::blank("Home");
        s.pages.push(s.pages[0].clone());
        assert!(s.check().unwrap_err().contains("duplicate page slug"));

        let s = Snapshot {
            pages: vec![],
            ..Snapshot::default()
        };
        assert!(s.check().is_err());
    }

    #[test]
    fn required_flag_accepts_the_forms_seen_in_the_wild() {
        for (raw, want) in [
            ("\"1\"", "1"),
            ("1", "1"),
            ("true", "1"),
            ("\"0\"", "0"),
            ("false", "0"),
        ] {
            let f: SnapField = serde_json::from_str(&format!(
                r#"{{"name":"A","slug":"a","type":"text","required":{raw}}}"#
            ))
            .unwrap();
            assert_eq!(f.required, want, "{raw}");
        }
    }
}
