//! Collections as readers see them: the collection's ordering settings, list queries (filter,
//! order, limit, offset) by field slug, and records keyed by field slug. One code path serves
//! the editor's database-fed lists (`/api/project/{id}/db/{table}/data`), the published site's
//! read API (`/_api/collections/{slug}` at the edge) and the lists a page renders.

use chrono::{DateTime, Datelike, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

pub use crate::list_query::{DbRecord, ListQuery, MAX_LIST_LIMIT};
use crate::store::{
    Collection, Field, FilterOp, LIST_QUERY_TIMEOUT, OrderKey, Post, PostFilter, Store, StoreError,
};

/// A collection's settings (spec 1 §3 Table.meta), with the spec's defaults.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionMeta {
    #[serde(default)]
    pub plural: String,
    #[serde(default)]
    pub singular: String,
    #[serde(default = "yes")]
    pub has_singular: bool,
    #[serde(default = "yes")]
    pub include_date: bool,
    #[serde(default = "yes")]
    pub include_title: bool,
    #[serde(default = "created_at")]
    pub order_field: String,
    #[serde(default = "desc")]
    pub order_dir: String,
    #[serde(default)]
    pub order_field2: Option<String>,
    #[serde(default)]
    pub order_dir2: Option<String>,
}

fn yes() -> bool {
    true
}
fn created_at() -> String {
    "created_at".into()
}
fn desc() -> String {
    "desc".into()
}

impl CollectionMeta {
    pub fn of(c: &Collection) -> CollectionMeta {
        serde_json::from_value(c.meta.0.clone()).unwrap_or_else(|_| {
            serde_json::from_value(Value::Object(Map::new())).expect("defaults")
        })
    }

    /// The collection's default order: its order key and, optionally, a second one.
    pub fn order(&self) -> Vec<(OrderKey, bool)> {
        let mut out = vec![(
            OrderKey::parse(&self.order_field).unwrap_or(OrderKey::CreatedAt),
            self.order_dir != "asc",
        )];
        if let Some(f2) = self.order_field2.as_deref().and_then(OrderKey::parse) {
            out.push((f2, self.order_dir2.as_deref() != Some("asc")));
        }
        out
    }
}

/// Why a list query was refused (the caller answers 400 with this text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct QueryError(pub String);

#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error(transparent)]
    Query(#[from] QueryError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn key_of(fields: &[Field], name: &str) -> Option<OrderKey> {
    match name {
        "created_at" | "updated_at" | "name" | "slug" | "id" => OrderKey::parse(name),
        other => fields
            .iter()
            .find(|f| f.slug == other)
            .map(|f| OrderKey::Field(f.id)),
    }
}

/// A list query checked against a collection's fields.
#[derive(Debug, Clone)]
pub struct PlannedQuery {
    pub filter: Option<PostFilter>,
    pub order: Vec<(OrderKey, bool)>,
    pub limit: i64,
    pub offset: i64,
}

impl ListQuery {
    /// Checks the query against the collection's fields and settings.
    pub fn plan(
        &self,
        collection: &Collection,
        fields: &[Field],
    ) -> Result<PlannedQuery, QueryError> {
        let limit = self.limit.unwrap_or(MAX_LIST_LIMIT);
        let offset = self.offset.unwrap_or(0);
        if !(1..=MAX_LIST_LIMIT).contains(&limit) || offset < 0 {
            return Err(QueryError(
                "limit is between 1 and 100 and offset is not negative".into(),
            ));
        }
        let filter = match (&self.filter_field, &self.filter_op, &self.filter_value) {
            (Some(f), op, Some(v)) if !f.is_empty() => {
                let key = key_of(fields, f)
                    .ok_or_else(|| QueryError(format!("Unknown filter field {f:?}")))?;
                let op = FilterOp::parse(op.as_deref().unwrap_or("="))
                    .ok_or_else(|| QueryError("Unknown filter operator".into()))?;
                let misfit = || QueryError("The filter value does not fit the field".into());
                let value = match key {
                    OrderKey::Id => {
                        v.parse::<i64>().map_err(|_| misfit())?;
                        v.clone()
                    }
                    OrderKey::CreatedAt | OrderKey::UpdatedAt if op != FilterOp::Contains => {
                        filter_date(v).ok_or_else(misfit)?
                    }
                    _ => v.clone(),
                };
                Some(PostFilter { key, op, value })
            }
            _ => None,
        };
        let order = match &self.order_field {
            Some(f) if !f.is_empty() => {
                let key = key_of(fields, f)
                    .ok_or_else(|| QueryError(format!("Unknown order field {f:?}")))?;
                vec![(key, self.order_dir.as_deref() != Some("asc"))]
            }
            _ => CollectionMeta::of(collection).order(),
        };
        Ok(PlannedQuery {
            filter,
            order,
            limit,
            offset,
        })
    }
}

/// A date filter value as both databases can compare it: RFC 3339, within the years every
/// database can hold (PostgreSQL has no year 0 and refuses offsets past ±15:59, which chrono
/// reads), given in UTC the way the store writes timestamps.
fn filter_date(value: &str) -> Option<String> {
    let date = DateTime::parse_from_rfc3339(value)
        .ok()?
        .with_timezone(&Utc);
    (1..=9999)
        .contains(&date.year())
        .then(|| date.to_rfc3339_opts(SecondsFormat::AutoSi, false))
}

/// A stored post with its values re-keyed from field id to field slug.
pub fn record(post: Post, fields: &[Field]) -> DbRecord {
    let slug_of: std::collections::HashMap<String, &str> = fields
        .iter()
        .map(|f| (f.id.to_string(), f.slug.as_str()))
        .collect();
    let values: Map<String, Value> = post
        .data
        .0
        .iter()
        .filter_map(|(k, v)| Some((slug_of.get(k)?.to_string(), v.clone())))
        .collect();
    DbRecord {
        formatted: crate::values::formatted_fields(
            fields
                .iter()
                .map(|f| (f.slug.as_str(), f.kind.as_str(), &f.meta.0)),
            &values,
        ),
        url: None,
        fields: values,
        id: post.id,
        name: post.name,
        slug: post.slug,
        created_at: post.created_at,
    }
}

impl Store {
    /// Runs a list query on a collection whose fields the caller already loaded, within
    /// [`crate::store::LIST_QUERY_TIMEOUT`].
    pub async fn list_records(
        &self,
        collection: &Collection,
        fields: &[Field],
        q: &ListQuery,
    ) -> Result<Vec<DbRecord>, ListError> {
        self.list_records_within(collection, fields, q, LIST_QUERY_TIMEOUT)
            .await
    }

    /// [`Store::list_records`] with the statement time limit `within` (see
    /// [`Store::query_posts`]).
    pub async fn list_records_within(
        &self,
        collection: &Collection,
        fields: &[Field],
        q: &ListQuery,
        within: std::time::Duration,
    ) -> Result<Vec<DbRecord>, ListError> {
        let plan = q.plan(collection, fields)?;
        let posts = self
            .query_posts(
                collection.id,
                plan.filter.as_ref(),
                &plan.order,
                plan.limit,
                plan.offset,
                within,
            )
            .await?;
        Ok(posts.into_iter().map(|p| record(p, fields)).collect())
    }

    /// One record of a collection by its slug, keyed by field slug.
    pub async fn record_by_slug(
        &self,
        collection: &Collection,
        fields: &[Field],
        slug: &str,
    ) -> Result<Option<DbRecord>, StoreError> {
        let q = ListQuery {
            filter_field: Some("slug".into()),
            filter_value: Some(slug.into()),
            limit: Some(1),
            ..ListQuery::default()
        };
        match self.list_records(collection, fields, &q).await {
            Ok(mut v) => Ok(v.pop()),
            Err(ListError::Store(e)) => Err(e),
            Err(ListError::Query(_)) => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_filters_fit_every_database_or_are_refused() {
        assert_eq!(
            filter_date("2025-03-01T12:00:00-03:00").as_deref(),
            Some("2025-03-01T15:00:00+00:00")
        );
        // Offsets chrono reads but PostgreSQL refuses are moved to UTC.
        assert_eq!(
            filter_date("2025-03-01T23:00:00+23:59").as_deref(),
            Some("2025-02-28T23:01:00+00:00")
        );
        for impossible in [
            "0000-01-01T00:00:00Z",
            "0000-12-31T21:00:00-02:00",
            "9999-12-31T23:00:00-02:00",
            "2025-02-30T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "yesterday",
            "",
        ] {
            assert_eq!(filter_date(impossible), None, "{impossible}");
        }
    }
}
