//! The portable form of a site: pages, collections (fields and posts), redirects and the shared
//! header and footer, with every cross-reference by slug instead of id. Templates are stored as
//! snapshots, "save as template" exports one, and duplicating a project is export followed by
//! import, so the three share one code path. A snapshot never carries a domain, a token or
//! publish state.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::ids::PostId;
use crate::sections::Sections;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Snapshot {
    #[serde(default)]
    pub project_meta: Value,
    pub pages: Vec<SnapPage>,
    #[serde(default)]
    pub tables: Vec<SnapTable>,
    #[serde(default)]
    pub redirects: Vec<SnapRedirect>,
    /// The shared header and footer (`crate::sections`): a template's, and a duplicate's.
    #[serde(default, skip_serializing_if = "Sections::is_empty")]
    pub sections: Sections,
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
            sections: Sections::default(),
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
        if self.redirects.len() as i64 > crate::redirects::MAX_RULES {
            return Err(format!(
                "{} redirect rules; a site may have {} at most",
                self.redirects.len(),
                crate::redirects::MAX_RULES
            ));
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

/// A value of a snapshot post under a list key (`name`, `slug`, `created_at` or a field slug),
/// as text for comparing: numbers compare as numbers when both sides are numbers.
fn post_key(post: &SnapPost, key: &str) -> String {
    match key {
        "name" => post.name.clone(),
        "slug" => post.slug.clone(),
        "created_at" | "updated_at" => post.created_at.map(|d| d.to_rfc3339()).unwrap_or_default(),
        field => match post.fields.get(field) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        },
    }
}

fn compare_text(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.total_cmp(&y),
        _ => a.cmp(b),
    }
}

impl SnapTable {
    /// The table's posts as a list query over the live collection would return them (filter,
    /// order, limit and offset), for previews of a template, which has no database rows.
    /// Posts without a date keep the file's order, newest first. A query the table cannot
    /// answer returns nothing, as on a published site.
    pub fn query(&self, q: &crate::list_query::ListQuery) -> Vec<crate::list_query::DbRecord> {
        use crate::list_query::FilterOp;
        use std::cmp::Ordering;
        let known = |k: &str| {
            matches!(k, "name" | "slug" | "created_at" | "updated_at")
                || self.fields.iter().any(|f| f.slug == k)
        };
        let limit = q.limit.unwrap_or(crate::list_query::MAX_LIST_LIMIT);
        let offset = q.offset.unwrap_or(0);
        if !(1..=crate::list_query::MAX_LIST_LIMIT).contains(&limit) || offset < 0 {
            return Vec::new();
        }
        // Synthetic dates: the file's first post is the newest.
        let base = DateTime::<Utc>::from_timestamp(1_767_225_600, 0).unwrap_or_default();
        let dated: Vec<SnapPost> = self
            .posts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut p = p.clone();
                p.created_at = p
                    .created_at
                    .or(Some(base - chrono::Duration::hours(i as i64)));
                p
            })
            .collect();
        let mut posts: Vec<&SnapPost> = dated.iter().collect();
        if let (Some(field), Some(value)) = (q.filter_field.as_deref(), q.filter_value.as_deref())
            && !field.is_empty()
        {
            let Some(op) = FilterOp::parse(q.filter_op.as_deref().unwrap_or("=")) else {
                return Vec::new();
            };
            if !known(field) {
                return Vec::new();
            }
            posts.retain(|p| {
                let v = post_key(p, field);
                let ord = compare_text(&v, value);
                match op {
                    FilterOp::Eq => v == value,
                    FilterOp::Ne => v != value,
                    FilterOp::Contains => v.to_lowercase().contains(&value.to_lowercase()),
                    FilterOp::Gt => ord == Ordering::Greater,
                    FilterOp::Gte => ord != Ordering::Less,
                    FilterOp::Lt => ord == Ordering::Less,
                    FilterOp::Lte => ord != Ordering::Greater,
                }
            });
        }
        let meta = |k: &str| self.meta.get(k).and_then(Value::as_str).map(str::to_string);
        let (order_field, desc) = match q.order_field.as_deref() {
            Some(f) if !f.is_empty() => (f.to_string(), q.order_dir.as_deref() != Some("asc")),
            _ => (
                meta("orderField").unwrap_or_else(|| "created_at".into()),
                meta("orderDir").as_deref() != Some("asc"),
            ),
        };
        if !known(&order_field) {
            return Vec::new();
        }
        posts.sort_by(|a, b| {
            let o = compare_text(&post_key(a, &order_field), &post_key(b, &order_field));
            if desc { o.reverse() } else { o }
        });
        posts
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
            .enumerate()
            .map(|(i, p)| crate::list_query::DbRecord {
                id: PostId(i as i64 + 1),
                name: p.name.clone(),
                slug: p.slug.clone(),
                created_at: p.created_at.unwrap_or(base),
                formatted: crate::values::formatted_fields(
                    self.fields
                        .iter()
                        .map(|f| (f.slug.as_str(), f.kind.as_str(), &f.meta)),
                    &p.fields,
                ),
                url: None,
                fields: p.fields.clone(),
            })
            .collect()
    }
}

fn default_order() -> i64 {
    99
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipes() -> SnapTable {
        serde_json::from_value(serde_json::json!({
            "name": "Receitas", "slug": "receitas", "meta": {"orderField": "created_at", "orderDir": "desc"},
            "fields": [{"name": "Tempo", "slug": "tempo", "type": "number"}, {"name": "Tipo", "slug": "tipo", "type": "text"}],
            "posts": [
                {"name": "Moqueca", "slug": "moqueca", "fields": {"tempo": 90, "tipo": "peixe"}},
                {"name": "Bobó", "slug": "bobo", "fields": {"tempo": 60, "tipo": "camarão"}},
                {"name": "Acarajé", "slug": "acaraje", "fields": {"tempo": 120, "tipo": "feijão"}}
            ]
        }))
        .unwrap()
    }

    fn slugs(records: Vec<crate::list_query::DbRecord>) -> Vec<String> {
        records.into_iter().map(|r| r.slug).collect()
    }

    #[test]
    fn a_snapshot_with_more_redirects_than_a_site_may_have_is_refused() {
        let mut site = Snapshot::blank("Início");
        let rule = |n: i64| SnapRedirect {
            from: format!("/velho-{n}"),
            to: "/".into(),
        };
        site.redirects = (0..crate::redirects::MAX_RULES).map(rule).collect();
        assert_eq!(site.check(), Ok(()));
        site.redirects.push(rule(crate::redirects::MAX_RULES));
        let e = site.check().unwrap_err();
        assert!(e.contains("redirect rules"), "{e}");
    }

    #[test]
    fn template_tables_answer_list_queries_in_memory() {
        use crate::list_query::ListQuery;
        let t = recipes();
        // Default order: the collection's (newest first), undated posts in file order.
        assert_eq!(
            slugs(t.query(&ListQuery::default())),
            ["moqueca", "bobo", "acaraje"]
        );
        let by_time = ListQuery {
            order_field: Some("tempo".into()),
            order_dir: Some("asc".into()),
            ..Default::default()
        };
        assert_eq!(slugs(t.query(&by_time)), ["bobo", "moqueca", "acaraje"]);
        let long = ListQuery {
            filter_field: Some("tempo".into()),
            filter_op: Some(">=".into()),
            filter_value: Some("90".into()),
            ..Default::default()
        };
        assert_eq!(slugs(t.query(&long)), ["moqueca", "acaraje"]);
        let named = ListQuery {
            filter_field: Some("name".into()),
            filter_op: Some("like".into()),
            filter_value: Some("BO".into()),
            ..Default::default()
        };
        assert_eq!(slugs(t.query(&named)), ["bobo"]);
        let page = ListQuery {
            limit: Some(1),
            offset: Some(1),
            ..Default::default()
        };
        assert_eq!(slugs(t.query(&page)), ["bobo"]);
        // What a live collection would refuse returns nothing.
        for bad in [
            ListQuery {
                order_field: Some("nope".into()),
                ..Default::default()
            },
            ListQuery {
                filter_field: Some("nope".into()),
                filter_value: Some("x".into()),
                ..Default::default()
            },
            ListQuery {
                limit: Some(101),
                ..Default::default()
            },
            ListQuery {
                filter_field: Some("tipo".into()),
                filter_op: Some("~".into()),
                filter_value: Some("x".into()),
                ..Default::default()
            },
        ] {
            assert!(t.query(&bad).is_empty(), "{bad:?}");
        }
    }

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
