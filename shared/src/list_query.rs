//! What a list query and its records are, below the store and the renderer: the query a
//! page's database-fed list or the read API asks ([`ListQuery`], its comparisons
//! [`FilterOp`]) and the records it answers ([`DbRecord`]). `crate::record_lists` runs them
//! over the store; a template's sample records answer them in `crate::snapshot`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};

use crate::ids::PostId;

/// A comparison for the database-fed lists of the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterOp {
    Eq,
    Ne,
    Contains,
    Gt,
    Gte,
    Lt,
    Lte,
}

impl FilterOp {
    pub fn parse(s: &str) -> Option<FilterOp> {
        Some(match s {
            "=" | "eq" | "==" => FilterOp::Eq,
            "!=" | "ne" | "<>" => FilterOp::Ne,
            "contains" | "like" => FilterOp::Contains,
            ">" | "gt" => FilterOp::Gt,
            ">=" | "gte" => FilterOp::Gte,
            "<" | "lt" => FilterOp::Lt,
            "<=" | "lte" => FilterOp::Lte,
            _ => return None,
        })
    }
}

/// A list query over one collection, by field slug.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Filter key: created_at, name, slug, id, or a field slug.
    pub filter_field: Option<String>,
    /// =, !=, contains, >, >=, <, <= (or eq, ne, gt, gte, lt, lte).
    pub filter_op: Option<String>,
    pub filter_value: Option<String>,
    /// Order key: created_at, updated_at, name, slug, or a field slug (default: the collection's order).
    pub order_field: Option<String>,
    /// asc or desc.
    pub order_dir: Option<String>,
    /// At most 100 (default 100).
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// The largest page a list query returns.
pub const MAX_LIST_LIMIT: i64 = 100;

/// A record as templates and the read API see it: values keyed by field slug.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DbRecord {
    #[schema(value_type = i64)]
    pub id: PostId,
    pub name: String,
    pub slug: String,
    pub created_at: DateTime<Utc>,
    /// The stored (raw) values: currency in cents, links as stored.
    #[schema(value_type = Object)]
    pub fields: Map<String, Value>,
    /// The values as visitors read them, for the fields that have a formatted form
    /// (currency, WhatsApp, telephone, e-mail; see [`crate::values`]), keyed by field slug.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub formatted: Map<String, Value>,
    /// The post's page (`/{page}/{post}`) on the published site, when its collection has a
    /// collection page there (the read API fills it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}
