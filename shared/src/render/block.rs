//! A block as a page stores it: its template, code and variables, and the lists it declares
//! (database-fed or read from an outside JSON API).

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::list_query::ListQuery;

/// A block as the page stores it (the parts rendering needs); whatever it leaves out is empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Block {
    pub uid: String,
    pub name: String,
    pub template: String,
    pub css: String,
    pub js: String,
    /// Variable definitions with their values (`docs/blocks.md`); lists whose `source` starts
    /// with `db:` are database-fed, with `api:` fetched from an outside JSON API.
    pub vars: Vec<Json>,
    /// Animation effects, space-separated (`fade-in enter-left`).
    pub effect: String,
}

/// A database-fed list a block declares: `{name, source: "db:{table}" | dbtable, dbfilterfield,
/// dbfiltervalue, dbfilterquery (operator), dborderfield, dborderdir, dblimit, dboffset}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbList {
    /// The name the block's template reads the list under.
    pub name: String,
    /// Where the caller puts the records in
    /// [`RenderContext::lists`](super::RenderContext::lists): the block and the name, so two
    /// blocks may both call their list `items`.
    pub key: String,
    /// Collection slug.
    pub table: String,
    pub query: ListQuery,
}

pub(super) fn str_of(v: &Json, key: &str) -> Option<String> {
    match v.get(key)? {
        Json::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Json::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn int_of(v: &Json, key: &str) -> Option<i64> {
    match v.get(key)? {
        Json::Number(n) => n.as_i64(),
        Json::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

impl Block {
    /// Parses a page's `blocks` JSON; entries that are not objects are skipped.
    pub fn list(blocks: &Json) -> Vec<Block> {
        blocks
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|b| serde_json::from_value(b.clone()).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The database-fed lists this block declares.
    pub fn db_lists(&self) -> Vec<DbList> {
        self.vars
            .iter()
            .filter_map(|v| {
                let source = v.get("source")?.as_str()?;
                let rest = source.strip_prefix("db:")?;
                let name = str_of(v, "name").or_else(|| str_of(v, "key"))?;
                let table = str_of(v, "dbtable").unwrap_or_else(|| rest.trim().to_string());
                if table.is_empty() {
                    return None;
                }
                Some(DbList {
                    key: list_key(self, &name),
                    name,
                    table,
                    query: ListQuery {
                        filter_field: str_of(v, "dbfilterfield"),
                        filter_op: str_of(v, "dbfilterquery"),
                        filter_value: str_of(v, "dbfiltervalue"),
                        order_field: str_of(v, "dborderfield"),
                        order_dir: str_of(v, "dborderdir"),
                        limit: int_of(v, "dblimit").map(|l| l.clamp(1, 100)),
                        offset: int_of(v, "dboffset").map(|o| o.max(0)),
                    },
                })
            })
            .collect()
    }

    /// The outside JSON APIs this block's lists read (`source = "api:{url}"`), as
    /// `(key in RenderContext::api, url)`.
    pub fn api_lists(&self) -> Vec<(String, String)> {
        self.vars
            .iter()
            .filter_map(|v| {
                let url = v.get("source")?.as_str()?.strip_prefix("api:")?.trim();
                let name = str_of(v, "name")?;
                (!url.is_empty()).then(|| (list_key(self, &name), url.to_string()))
            })
            .collect()
    }

    /// What errors call the block: its uid, else its name.
    pub fn label(&self) -> String {
        block_label(self)
    }

    /// Whether rendering this block needs anything beyond the publish-time context.
    pub fn is_dynamic(&self) -> bool {
        !self.db_lists().is_empty()
    }

    /// Whether the block plays an animation effect.
    pub fn has_effect(&self) -> bool {
        !crate::blocks::effects(&self.effect).is_empty()
    }
}

fn list_key(block: &Block, name: &str) -> String {
    format!("{}:{name}", block_label(block))
}

pub(super) fn block_label(b: &Block) -> String {
    if b.uid.is_empty() {
        b.name.clone()
    } else {
        b.uid.clone()
    }
}
