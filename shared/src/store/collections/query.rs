//! The list queries over a collection's posts: the editor's pages of posts and the
//! database-fed lists of published pages, ordered and filtered by a post's columns or its
//! fields' values, each under a statement time limit.

pub use crate::list_query::FilterOp;

use super::posts::{POST_COLUMNS, Post};
use crate::ids::{CollectionId, FieldId};
use crate::store::{Result, Store, dispatch, map_err, trusted};

/// What a list of posts is ordered by. Field keys order by the field's JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderKey {
    CreatedAt,
    UpdatedAt,
    Name,
    Slug,
    Id,
    Field(FieldId),
}

impl OrderKey {
    /// `created_at`, `updated_at`, `name`, `slug`, `id`, or a field id.
    pub fn parse(s: &str) -> Option<OrderKey> {
        Some(match s {
            "created_at" => OrderKey::CreatedAt,
            "updated_at" => OrderKey::UpdatedAt,
            "name" => OrderKey::Name,
            "slug" => OrderKey::Slug,
            "id" => OrderKey::Id,
            other => OrderKey::Field(other.parse().ok()?),
        })
    }
}

/// The SQL operator of a comparison.
fn sql(op: FilterOp) -> &'static str {
    match op {
        FilterOp::Eq => "=",
        FilterOp::Ne => "<>",
        FilterOp::Contains => "LIKE",
        FilterOp::Gt => ">",
        FilterOp::Gte => ">=",
        FilterOp::Lt => "<",
        FilterOp::Lte => "<=",
    }
}

/// A filter on one key.
#[derive(Debug, Clone)]
pub struct PostFilter {
    pub key: OrderKey,
    pub op: FilterOp,
    pub value: String,
}

/// The time limit lists give [`Store::query_posts`]: a list query over a huge collection is stopped
/// by the database rather than holding a pooled connection for as long as it likes.
pub const LIST_QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// SQLite virtual-machine steps between two looks at a statement's deadline.
pub(super) const SQLITE_PROGRESS_OPS: i32 = 1000;

/// Clears a SQLite statement deadline's "armed" flag when dropped.
pub(super) struct Disarm(pub(super) std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Disarm {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Release);
    }
}

/// Fetches every row of `$query!()` on `$store` under a statement time limit of `$within` (a
/// `Duration`): PostgreSQL's `statement_timeout` for a transaction of its own; on SQLite a
/// progress handler that interrupts the statement at the deadline, disarmed when this ends,
/// however it ends (even dropped midway: the handler stays on the pooled connection until the
/// next query replaces it, and must never interrupt another statement there). Either way a
/// statement past the limit fails alone as [`crate::store::Failure::SlowQuery`] and holds its
/// connection no longer than `$within`.
///
/// `$query` names a macro of the caller's that builds the query with its values bound: it
/// expands once in each database's arm, because a query's type names its database.
macro_rules! fetch_all_within {
    ($store:expr, $within:expr, $query:ident) => {{
        let within: std::time::Duration = $within;
        let millis = i64::try_from(within.as_millis()).unwrap_or(i64::MAX).max(1);
        match $store {
            $crate::store::Store::Postgres(p) => {
                let mut tx = $crate::store::BeginWrite::begin_write(p)
                    .await
                    .map_err($crate::store::map_err)?;
                sqlx::query("SELECT set_config('statement_timeout', $1, true)")
                    .bind(millis.to_string())
                    .execute(&mut *tx)
                    .await
                    .map_err($crate::store::map_err)?;
                let rows = $query!()
                    .fetch_all(&mut *tx)
                    .await
                    .map_err($crate::store::map_err)?;
                tx.commit().await.map_err($crate::store::map_err)?;
                Ok(rows)
            }
            $crate::store::Store::Sqlite(p) => {
                let mut conn = p.acquire().await.map_err($crate::store::map_err)?;
                let deadline = std::time::Instant::now() + within;
                let armed = $crate::store::collections::query::Disarm(std::sync::Arc::new(
                    std::sync::atomic::AtomicBool::new(true),
                ));
                let flag = armed.0.clone();
                conn.lock_handle()
                    .await
                    .map_err($crate::store::map_err)?
                    .set_progress_handler(
                        $crate::store::collections::query::SQLITE_PROGRESS_OPS,
                        move || {
                            !flag.load(std::sync::atomic::Ordering::Acquire)
                                || std::time::Instant::now() < deadline
                        },
                    );
                let rows = $query!()
                    .fetch_all(&mut *conn)
                    .await
                    .map_err($crate::store::map_err);
                drop(armed);
                conn.lock_handle()
                    .await
                    .map_err($crate::store::map_err)?
                    .remove_progress_handler();
                rows
            }
        }
    }};
}
pub(super) use fetch_all_within;

impl Store {
    /// The SQL expression for an order or filter key. Field ids are integers, so inlining
    /// them is safe.
    fn key_sql(&self, key: OrderKey, as_text: bool) -> String {
        match key {
            OrderKey::CreatedAt => "created_at".into(),
            OrderKey::UpdatedAt => "updated_at".into(),
            OrderKey::Name => "name".into(),
            OrderKey::Slug => "slug".into(),
            OrderKey::Id => "id".into(),
            OrderKey::Field(id) => match (self, as_text) {
                (Store::Sqlite(_), _) => format!("json_extract(data, '$.\"{id}\"')"),
                (Store::Postgres(_), true) => format!("(data->>'{id}')"),
                // posts.data is json, which has no ordering; jsonb orders JSON values.
                (Store::Postgres(_), false) => format!("(data->'{id}')::jsonb"),
            },
        }
    }

    /// A page of a collection's posts in the given order, and the total count.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn posts_page(
        &self,
        collection_id: CollectionId,
        order: &[(OrderKey, bool)],
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Post>, i64)> {
        let sql = self.posts_page_sql(order);
        let posts = dispatch!(self, p => sqlx::query_as::<_, Post>(trusted(&sql))
            .bind(collection_id).bind(limit).bind(offset)
            .fetch_all(p).await.map_err(map_err))?;
        // Kept exact by every write (see `add_post_count`), so no 100,000-row count here.
        let total: i64 = dispatch!(self, p => sqlx::query_scalar(
            "SELECT post_count FROM collections WHERE id = $1")
            .bind(collection_id).fetch_one(p).await.map_err(map_err))?;
        Ok((posts, total))
    }

    /// The query of [`Store::posts_page`] (`$1` the collection, `$2` the limit, `$3` the
    /// offset). In the default order (newest first) it reads the first page from the
    /// `(collection_id, created_at, id)` index with no sort, whatever the collection's size:
    /// the store's tests hold both databases' plans to that.
    pub(crate) fn posts_page_sql(&self, order: &[(OrderKey, bool)]) -> String {
        let order_sql = self.order_sql(order);
        format!(
            "SELECT {POST_COLUMNS} FROM posts WHERE collection_id = $1 \
             ORDER BY {order_sql} LIMIT $2 OFFSET $3"
        )
    }

    /// `ORDER BY` text for `(key, descending)` pairs, always ending with the id so pages are
    /// stable.
    fn order_sql(&self, order: &[(OrderKey, bool)]) -> String {
        let mut parts: Vec<String> = order
            .iter()
            .map(|(k, desc)| {
                format!(
                    "{} {}",
                    self.key_sql(*k, false),
                    if *desc { "DESC" } else { "ASC" }
                )
            })
            .collect();
        let last_desc = order.first().map(|(_, d)| *d).unwrap_or(true);
        parts.push(format!("id {}", if last_desc { "DESC" } else { "ASC" }));
        parts.join(", ")
    }

    /// Posts with an optional filter, for database-fed lists, with a statement-level time
    /// limit (lists take [`LIST_QUERY_TIMEOUT`]): a filter or an order over one tenant's large
    /// collection that runs longer is stopped by the database itself (PostgreSQL's
    /// `statement_timeout` for this transaction; on SQLite a progress handler interrupts the
    /// statement at the deadline) and fails alone as [`crate::store::Failure::SlowQuery`],
    /// holding its connection no longer than `within`.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn query_posts(
        &self,
        collection_id: CollectionId,
        filter: Option<&PostFilter>,
        order: &[(OrderKey, bool)],
        limit: i64,
        offset: i64,
        within: std::time::Duration,
    ) -> Result<Vec<Post>> {
        let order_sql = self.order_sql(order);
        let (where_sql, bind) = match filter {
            None => (String::new(), None),
            Some(f) => {
                let (sql, bound) = self.filter_sql(f);
                (format!(" AND {sql}"), Some(bound))
            }
        };
        let sql = format!(
            "SELECT {POST_COLUMNS} FROM posts \
             WHERE collection_id = $1{where_sql} ORDER BY {order_sql} \
             LIMIT $2 OFFSET $3"
        );
        /// `query!()` expands to the list query with its values bound, built in each arm below
        /// for that arm's database (a query's type names its database).
        macro_rules! query {
            () => {{
                let mut q = sqlx::query_as::<_, Post>(trusted(&sql))
                    .bind(collection_id)
                    .bind(limit)
                    .bind(offset);
                if let Some(b) = &bind {
                    q = q.bind(b.clone());
                }
                q
            }};
        }
        fetch_all_within!(self, within, query)
    }

    /// The condition (using `$4`) and the value to bind for a filter. The query plan
    /// (`record_lists::ListQuery::plan`) has already checked that ids are integers and dates are
    /// RFC 3339 in range; whatever else the database refuses fails as
    /// [`crate::store::Failure::Input`].
    fn filter_sql(&self, f: &PostFilter) -> (String, String) {
        let pg = matches!(self, Store::Postgres(_));
        if f.op == FilterOp::Contains {
            let key = self.key_sql(f.key, true);
            return (
                format!("lower(CAST({key} AS TEXT)) LIKE lower($4)"),
                format!("%{}%", f.value),
            );
        }
        // Finite numbers only: "NaN" and "inf" read as f64 but are compared as text.
        let numeric = f.value.trim().parse::<f64>().is_ok_and(f64::is_finite);
        let (key, value) = match f.key {
            OrderKey::Field(id) if numeric && pg => (
                format!(
                    "(CASE WHEN json_typeof(data->'{id}') = 'number' \
                     THEN (data->>'{id}')::numeric END)"
                ),
                "CAST($4 AS numeric)",
            ),
            OrderKey::Field(_) if numeric => (self.key_sql(f.key, true), "CAST($4 AS REAL)"),
            OrderKey::Id if pg => ("id".into(), "CAST($4 AS bigint)"),
            OrderKey::Id => ("id".into(), "CAST($4 AS INTEGER)"),
            OrderKey::CreatedAt | OrderKey::UpdatedAt if pg => {
                (self.key_sql(f.key, true), "CAST($4 AS timestamptz)")
            }
            k => (self.key_sql(k, true), "$4"),
        };
        (format!("{key} {} {value}", sql(f.op)), f.value.clone())
    }
}
