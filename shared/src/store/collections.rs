//! Collections (tables), their fields and their posts (records). Post values are one JSON
//! object per post, keyed by field id.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use sqlx::types::Json;

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now, projects::first_free, trusted};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Collection {
    pub id: i64,
    pub project_id: i64,
    pub name: String,
    pub slug: String,
    pub meta: Json<Value>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Field {
    pub id: i64,
    pub collection_id: i64,
    pub name: String,
    pub slug: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub required: bool,
    pub position: i64,
    pub options: Json<Value>,
    pub meta: Json<Value>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Post {
    pub id: i64,
    pub collection_id: i64,
    pub name: String,
    pub slug: String,
    pub data: Json<Map<String, Value>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A field being created or changed, already validated.
#[derive(Debug, Clone)]
pub struct FieldInput {
    pub name: String,
    pub slug: String,
    pub kind: String,
    pub required: bool,
    pub options: Value,
    pub meta: Value,
}

/// A post to insert (import, spreadsheet link, API).
#[derive(Debug, Clone)]
pub struct NewPost {
    pub name: String,
    pub slug: String,
    pub data: Map<String, Value>,
    pub created_at: DateTime<Utc>,
}

/// A stored post's new name and values (the update half of an upsert).
#[derive(Debug, Clone)]
pub struct PostUpdate {
    pub id: i64,
    pub name: String,
    pub data: Map<String, Value>,
}

/// What a list of posts is ordered by. Field keys order by the field's JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderKey {
    CreatedAt,
    UpdatedAt,
    Name,
    Slug,
    Id,
    Field(i64),
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

    fn sql(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "<>",
            FilterOp::Contains => "LIKE",
            FilterOp::Gt => ">",
            FilterOp::Gte => ">=",
            FilterOp::Lt => "<",
            FilterOp::Lte => "<=",
        }
    }
}

/// A filter on one key.
#[derive(Debug, Clone)]
pub struct PostFilter {
    pub key: OrderKey,
    pub op: FilterOp,
    pub value: String,
}

/// Keeps `collections.post_count` exact: every statement that adds or removes posts runs this
/// in the same transaction, so listings never have to count 100,000 rows. (A macro, because it
/// expands inside each database's arm of the store.)
macro_rules! add_post_count {
    ($tx:expr, $collection:expr, $delta:expr) => {
        match sqlx::query("UPDATE collections SET post_count = post_count + $1 WHERE id = $2")
            .bind::<i64>($delta)
            .bind($collection)
            .execute(&mut *$tx)
            .await
            .map_err(map_err)
        {
            Ok(_) => records_changed!($tx, $collection),
            Err(e) => Err(e),
        }
    };
}

/// Appends a `records` change for a collection, in the transaction that changed its posts or
/// schema, so the edge re-renders what shows them.
macro_rules! records_changed {
    ($tx:expr, $collection:expr) => {
        sqlx::query(
            "INSERT INTO changes (project_id, kind, key, created_at) \
             SELECT project_id, 'records', CAST(id AS TEXT), $2 FROM collections WHERE id = $1",
        )
        .bind::<i64>($collection)
        .bind(now())
        .execute(&mut *$tx)
        .await
        .map_err(map_err)
    };
}

/// The time limit of [`Store::query_posts`]: a list query over a huge collection is stopped
/// by the database rather than holding a pooled connection for as long as it likes.
pub const LIST_QUERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// SQLite virtual-machine steps between two looks at a statement's deadline.
const SQLITE_PROGRESS_OPS: i32 = 1000;

/// Clears a SQLite statement deadline's "armed" flag when dropped.
struct Disarm(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for Disarm {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Release);
    }
}

const COLLECTION_COLUMNS: &str = "id, project_id, name, slug, meta, created_at, updated_at";
const FIELD_COLUMNS: &str =
    "id, collection_id, name, slug, type, required, position, options, meta";
const POST_COLUMNS: &str = "id, collection_id, name, slug, data, created_at, updated_at";

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

    // ---- collections --------------------------------------------------------------------

    pub async fn insert_collection(
        &self,
        project_id: i64,
        name: &str,
        slug: &str,
        meta: &Value,
    ) -> Result<Collection> {
        let sql = format!(
            "INSERT INTO collections (project_id, name, slug, meta, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) \
             RETURNING {COLLECTION_COLUMNS}"
        );
        let c = dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let c = sqlx::query_as::<_, Collection>(trusted(&sql))
                .bind(project_id).bind(name).bind(slug).bind(Json(meta)).bind(now())
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, c.id)?;
            tx.commit().await.map_err(map_err)?;
            Ok::<_, StoreError>(c)
        })?;
        self.touch_project(project_id).await?;
        Ok(c)
    }

    pub async fn collection_by_id(&self, id: i64) -> Result<Collection> {
        let sql = format!("SELECT {COLLECTION_COLUMNS} FROM collections WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Collection>(trusted(&sql)).bind(id).fetch_optional(p).await.map_err(map_err))?
            .ok_or(StoreError::NotFound)
    }

    /// A project's collection by slug.
    pub async fn collection_by_slug(&self, project_id: i64, slug: &str) -> Result<Collection> {
        let sql = format!(
            "SELECT {COLLECTION_COLUMNS} FROM collections WHERE project_id = $1 AND slug = $2"
        );
        dispatch!(self, p => sqlx::query_as::<_, Collection>(trusted(&sql)).bind(project_id).bind(slug)
            .fetch_optional(p).await.map_err(map_err))?
            .ok_or(StoreError::NotFound)
    }

    pub async fn update_collection(
        &self,
        id: i64,
        name: &str,
        slug: &str,
        meta: &Value,
    ) -> Result<Collection> {
        let sql = format!(
            "UPDATE collections SET name = $1, slug = $2, meta = $3, updated_at = $4 WHERE id = $5 RETURNING {COLLECTION_COLUMNS}"
        );
        // The slug names the read API's path and the meta its order: the edge must hear.
        let c = dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let c = sqlx::query_as::<_, Collection>(trusted(&sql))
                .bind(name).bind(slug).bind(Json(meta)).bind(now()).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            records_changed!(tx, id)?;
            tx.commit().await.map_err(map_err)?;
            Ok::<_, StoreError>(c)
        })?;
        self.touch_project(c.project_id).await?;
        Ok(c)
    }

    /// Deletes a collection with its fields and posts in one transaction; collection pages
    /// bound to it become static pages. Relation fields elsewhere pointing at it lose their
    /// target (their values are left for the owner to fix).
    pub async fn delete_collection(&self, id: i64) -> Result<()> {
        let c = self.collection_by_id(id).await?;
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            sqlx::query("DELETE FROM posts WHERE collection_id = $1").bind(id).execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM fields WHERE collection_id = $1").bind(id).execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("UPDATE pages SET table_id = NULL WHERE table_id = $1").bind(id).execute(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, id)?;
            sqlx::query("DELETE FROM collections WHERE id = $1").bind(id).execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)
        })?;
        self.touch_project(c.project_id).await
    }

    /// A free collection slug in a project.
    pub async fn free_collection_slug(
        &self,
        project_id: i64,
        base: &str,
        except: Option<i64>,
    ) -> Result<String> {
        let taken: Vec<String> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT slug FROM collections WHERE project_id = $1 AND (slug = $2 OR slug LIKE $3) AND id <> $4")
            .bind(project_id).bind(base).bind(format!("{base}-%")).bind(except.unwrap_or(0))
            .fetch_all(p).await.map_err(map_err))?;
        Ok(first_free(base, &taken))
    }

    // ---- fields -------------------------------------------------------------------------

    pub async fn collection_fields(&self, collection_id: i64) -> Result<Vec<Field>> {
        let sql = format!(
            "SELECT {FIELD_COLUMNS} FROM fields WHERE collection_id = $1 ORDER BY position, id"
        );
        dispatch!(self, p => sqlx::query_as::<_, Field>(trusted(&sql)).bind(collection_id).fetch_all(p).await.map_err(map_err))
    }

    pub async fn field_by_id(&self, id: i64) -> Result<Field> {
        let sql = format!("SELECT {FIELD_COLUMNS} FROM fields WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Field>(trusted(&sql)).bind(id).fetch_optional(p).await.map_err(map_err))?
            .ok_or(StoreError::NotFound)
    }

    /// A free field slug within a collection.
    pub async fn free_field_slug(
        &self,
        collection_id: i64,
        base: &str,
        except: Option<i64>,
    ) -> Result<String> {
        let taken: Vec<String> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT slug FROM fields WHERE collection_id = $1 AND slug LIKE $2 AND id <> $3")
            .bind(collection_id).bind(format!("{base}%")).bind(except.unwrap_or(0))
            .fetch_all(p).await.map_err(map_err))?;
        Ok(first_free(base, &taken))
    }

    /// Adds a field at the end of the collection's order.
    pub async fn insert_field(&self, collection_id: i64, f: &FieldInput) -> Result<Field> {
        let sql = format!(
            "INSERT INTO fields (collection_id, name, slug, type, required, position, options, meta) \
             VALUES ($1, $2, $3, $4, $5, (SELECT COALESCE(MAX(position), -1) + 1 FROM fields WHERE collection_id = $1), $6, $7) \
             RETURNING {FIELD_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let field = sqlx::query_as::<_, Field>(trusted(&sql))
                .bind(collection_id).bind(&f.name).bind(&f.slug).bind(&f.kind).bind(f.required)
                .bind(Json(&f.options)).bind(Json(&f.meta))
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, collection_id)?;
            tx.commit().await.map_err(map_err)?;
            Ok(field)
        })
    }

    /// Changes a field. When its type changes, every stored value of the field is made fit
    /// for the new type ([`crate::fields::retype`]: rich text sanitised, markup stripped,
    /// what cannot be held cleared) in the same transaction, so no value outlives the rules
    /// it was accepted under.
    pub async fn update_field(&self, id: i64, f: &FieldInput) -> Result<Field> {
        let sql = format!(
            "UPDATE fields SET name = $1, slug = $2, type = $3, required = $4, options = $5, meta = $6 WHERE id = $7 \
             RETURNING {FIELD_COLUMNS}"
        );
        let new_def =
            crate::fields::FieldType::parse(&f.kind).map(|kind| crate::fields::FieldDef {
                id,
                name: f.name.clone(),
                slug: f.slug.clone(),
                kind,
                required: f.required,
                options: serde_json::from_value(f.options.clone()).unwrap_or_default(),
                meta: serde_json::from_value(f.meta.clone()).unwrap_or_default(),
            });
        let key = id.to_string();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let old: Option<String> = sqlx::query_scalar("SELECT type FROM fields WHERE id = $1")
                .bind(id).fetch_optional(&mut *tx).await.map_err(map_err)?;
            let old = old.ok_or(StoreError::NotFound)?;
            let field = sqlx::query_as::<_, Field>(trusted(&sql))
                .bind(&f.name).bind(&f.slug).bind(&f.kind).bind(f.required).bind(Json(&f.options)).bind(Json(&f.meta)).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            if let (Some(from), Some(to)) = (crate::fields::FieldType::parse(&old), &new_def)
                && from != to.kind
            {
                let (mut after, ts) = (0_i64, now());
                loop {
                    let page: Vec<(i64, Json<Map<String, Value>>)> = sqlx::query_as(
                        "SELECT id, data FROM posts WHERE collection_id = $1 AND id > $2 ORDER BY id LIMIT 500")
                        .bind(field.collection_id).bind(after)
                        .fetch_all(&mut *tx).await.map_err(map_err)?;
                    let Some(last) = page.last() else { break };
                    after = last.0;
                    for (post_id, Json(mut data)) in page {
                        let Some(value) = data.get(&key) else { continue };
                        let fitted = crate::fields::retype(from, to, value);
                        if &fitted == value {
                            continue;
                        }
                        data.insert(key.clone(), fitted);
                        sqlx::query("UPDATE posts SET data = $1, updated_at = $2 WHERE id = $3")
                            .bind(Json(&data)).bind(ts).bind(post_id)
                            .execute(&mut *tx).await.map_err(map_err)?;
                    }
                }
            }
            records_changed!(tx, field.collection_id)?;
            tx.commit().await.map_err(map_err)?;
            Ok(field)
        })
    }

    /// Deletes a field and removes its value from every post, in one transaction.
    pub async fn delete_field(&self, id: i64) -> Result<()> {
        let field = self.field_by_id(id).await?;
        // Only the statement that drops the key differs between the dialects.
        let (strip, key) = match self {
            Store::Sqlite(_) => (
                "UPDATE posts SET data = json_remove(data, $1) WHERE collection_id = $2",
                format!("$.\"{id}\""),
            ),
            Store::Postgres(_) => (
                "UPDATE posts SET data = (data::jsonb - $1)::json WHERE collection_id = $2",
                id.to_string(),
            ),
        };
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            sqlx::query(strip).bind(&key).bind(field.collection_id).execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM fields WHERE id = $1").bind(id).execute(&mut *tx).await.map_err(map_err)?;
            records_changed!(tx, field.collection_id)?;
            tx.commit().await.map_err(map_err)
        })
    }

    /// Sets the order of a collection's fields to `ids` (which must all belong to it).
    pub async fn reorder_fields(&self, collection_id: i64, ids: &[i64]) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            for (position, id) in ids.iter().enumerate() {
                let n = sqlx::query("UPDATE fields SET position = $1 WHERE id = $2 AND collection_id = $3")
                    .bind(position as i64).bind(id).bind(collection_id)
                    .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
                if n != 1 {
                    return Err(StoreError::NotFound);
                }
            }
            records_changed!(tx, collection_id)?;
            tx.commit().await.map_err(map_err)
        })
    }

    // ---- posts --------------------------------------------------------------------------

    pub async fn post_by_id(&self, id: i64) -> Result<Post> {
        let sql = format!("SELECT {POST_COLUMNS} FROM posts WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Post>(trusted(&sql)).bind(id).fetch_optional(p).await.map_err(map_err))?
            .ok_or(StoreError::NotFound)
    }

    /// `post id → project id` for the given posts (those that exist).
    pub async fn posts_projects(&self, ids: &[i64]) -> Result<Vec<(i64, i64)>> {
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(500) {
            let placeholders: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT po.id, c.project_id FROM posts po JOIN collections c ON c.id = po.collection_id WHERE po.id IN ({})",
                placeholders.join(", ")
            );
            let rows: Vec<(i64, i64)> = dispatch!(self, p => {
                let mut q = sqlx::query_as(trusted(&sql));
                for id in chunk {
                    q = q.bind(id);
                }
                q.fetch_all(p).await.map_err(map_err)
            })?;
            out.extend(rows);
        }
        Ok(out)
    }

    pub async fn insert_post(&self, collection_id: i64, post: &NewPost) -> Result<Post> {
        let sql = format!(
            "INSERT INTO posts (collection_id, name, slug, data, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) \
             RETURNING {POST_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let post = sqlx::query_as::<_, Post>(trusted(&sql))
                .bind(collection_id).bind(&post.name).bind(&post.slug).bind(Json(&post.data)).bind(post.created_at).bind(now())
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            add_post_count!(tx, collection_id, 1)?;
            tx.commit().await.map_err(map_err)?;
            Ok(post)
        })
    }

    pub async fn update_post(
        &self,
        id: i64,
        name: &str,
        slug: &str,
        data: &Map<String, Value>,
    ) -> Result<Post> {
        let sql = format!(
            "UPDATE posts SET name = $1, slug = $2, data = $3, updated_at = $4 WHERE id = $5 RETURNING {POST_COLUMNS}"
        );
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let post = sqlx::query_as::<_, Post>(trusted(&sql))
                .bind(name).bind(slug).bind(Json(data)).bind(now()).bind(id)
                .fetch_optional(&mut *tx).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            records_changed!(tx, post.collection_id)?;
            tx.commit().await.map_err(map_err)?;
            Ok(post)
        })
    }

    /// Deletes posts by id; returns how many were deleted.
    pub async fn delete_posts(&self, ids: &[i64]) -> Result<u64> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let mut removed: HashMap<i64, i64> = HashMap::new();
            for chunk in ids.chunks(500) {
                let placeholders: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
                let sql = format!("DELETE FROM posts WHERE id IN ({}) RETURNING collection_id", placeholders.join(", "));
                let mut q = sqlx::query_scalar::<_, i64>(trusted(&sql));
                for id in chunk {
                    q = q.bind(id);
                }
                for collection in q.fetch_all(&mut *tx).await.map_err(map_err)? {
                    *removed.entry(collection).or_default() += 1;
                }
            }
            for (collection, n) in &removed {
                add_post_count!(tx, *collection, -n)?;
            }
            tx.commit().await.map_err(map_err)?;
            Ok(removed.values().sum::<i64>() as u64)
        })
    }

    /// Every slug of a collection with its post id.
    pub async fn post_slugs(&self, collection_id: i64) -> Result<HashMap<String, i64>> {
        let rows: Vec<(String, i64)> = dispatch!(self, p => sqlx::query_as("SELECT slug, id FROM posts WHERE collection_id = $1")
            .bind(collection_id).fetch_all(p).await.map_err(map_err))?;
        Ok(rows.into_iter().collect())
    }

    /// Which of `ids` are posts of `collection_id`.
    pub async fn existing_post_ids(
        &self,
        collection_id: i64,
        ids: &HashSet<i64>,
    ) -> Result<HashSet<i64>> {
        let ids: Vec<i64> = ids.iter().copied().collect();
        let mut found = HashSet::new();
        for chunk in ids.chunks(500) {
            let placeholders: Vec<String> = (2..chunk.len() + 2).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT id FROM posts WHERE collection_id = $1 AND id IN ({})",
                placeholders.join(", ")
            );
            let rows: Vec<i64> = dispatch!(self, p => {
                let mut q = sqlx::query_scalar(trusted(&sql)).bind(collection_id);
                for id in chunk {
                    q = q.bind(id);
                }
                q.fetch_all(p).await.map_err(map_err)
            })?;
            found.extend(rows);
        }
        Ok(found)
    }

    /// A page of a collection's posts in the given order, and the total count.
    pub async fn posts_page(
        &self,
        collection_id: i64,
        order: &[(OrderKey, bool)],
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Post>, i64)> {
        let order_sql = self.order_sql(order);
        let sql = format!(
            "SELECT {POST_COLUMNS} FROM posts WHERE collection_id = $1 ORDER BY {order_sql} LIMIT $2 OFFSET $3"
        );
        let posts = dispatch!(self, p => sqlx::query_as::<_, Post>(trusted(&sql))
            .bind(collection_id).bind(limit).bind(offset)
            .fetch_all(p).await.map_err(map_err))?;
        // Kept exact by every write (see `add_post_count`), so no 100,000-row count here.
        let total: i64 = dispatch!(self, p => sqlx::query_scalar("SELECT post_count FROM collections WHERE id = $1")
            .bind(collection_id).fetch_one(p).await.map_err(map_err))?;
        Ok((posts, total))
    }

    /// `ORDER BY` text for `(key, descending)` pairs, always ending with the id so pages are stable.
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

    /// Posts with an optional filter, for database-fed lists, within [`LIST_QUERY_TIMEOUT`].
    pub async fn query_posts(
        &self,
        collection_id: i64,
        filter: Option<&PostFilter>,
        order: &[(OrderKey, bool)],
        limit: i64,
        offset: i64,
    ) -> Result<Vec<Post>> {
        self.query_posts_within(
            collection_id,
            filter,
            order,
            limit,
            offset,
            LIST_QUERY_TIMEOUT,
        )
        .await
    }

    /// [`Store::query_posts`] with its own statement-level time limit: a filter or an order
    /// over one tenant's large collection that runs longer is stopped by the database itself
    /// (PostgreSQL's `statement_timeout` for this transaction; on SQLite a progress handler
    /// interrupts the statement at the deadline) and fails alone as
    /// [`super::Failure::SlowQuery`], holding its connection no longer than `within`.
    pub async fn query_posts_within(
        &self,
        collection_id: i64,
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
            "SELECT {POST_COLUMNS} FROM posts WHERE collection_id = $1{where_sql} ORDER BY {order_sql} LIMIT $2 OFFSET $3"
        );
        let millis = i64::try_from(within.as_millis()).unwrap_or(i64::MAX).max(1);
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
        match self {
            Store::Postgres(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                sqlx::query("SELECT set_config('statement_timeout', $1, true)")
                    .bind(millis.to_string())
                    .execute(&mut *tx)
                    .await
                    .map_err(map_err)?;
                let posts = query!().fetch_all(&mut *tx).await.map_err(map_err)?;
                tx.commit().await.map_err(map_err)?;
                Ok(posts)
            }
            Store::Sqlite(p) => {
                let mut conn = p.acquire().await.map_err(map_err)?;
                let deadline = std::time::Instant::now() + within;
                // Disarmed when this call ends, however it ends (even dropped midway): the
                // handler stays on the pooled connection until the next query replaces it,
                // and must never interrupt another statement there.
                let armed = Disarm(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
                    true,
                )));
                let flag = armed.0.clone();
                conn.lock_handle()
                    .await
                    .map_err(map_err)?
                    .set_progress_handler(SQLITE_PROGRESS_OPS, move || {
                        !flag.load(std::sync::atomic::Ordering::Acquire)
                            || std::time::Instant::now() < deadline
                    });
                let posts = query!().fetch_all(&mut *conn).await.map_err(map_err);
                drop(armed);
                conn.lock_handle()
                    .await
                    .map_err(map_err)?
                    .remove_progress_handler();
                posts
            }
        }
    }

    /// The condition (using `$4`) and the value to bind for a filter. The query plan
    /// (`record_lists::ListQuery::plan`) has already checked that ids are integers and dates are
    /// RFC 3339 in range; whatever else the database refuses fails as
    /// [`super::Failure::Input`].
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
                    "(CASE WHEN json_typeof(data->'{id}') = 'number' THEN (data->>'{id}')::numeric END)"
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
        (format!("{key} {} {value}", f.op.sql()), f.value.clone())
    }

    /// Up to `limit` posts with id greater than `after`, by id (keyset pages for streaming export).
    pub async fn posts_after(
        &self,
        collection_id: i64,
        after: i64,
        limit: i64,
    ) -> Result<Vec<Post>> {
        let sql = format!(
            "SELECT {POST_COLUMNS} FROM posts WHERE collection_id = $1 AND id > $2 ORDER BY id LIMIT $3"
        );
        dispatch!(self, p => sqlx::query_as::<_, Post>(trusted(&sql))
            .bind(collection_id).bind(after).bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Inserts many posts in one transaction. All or nothing (see [`Store::write_posts`]).
    pub async fn insert_posts(&self, collection_id: i64, posts: &[NewPost]) -> Result<u64> {
        self.write_posts(collection_id, posts, &[]).await?;
        Ok(posts.len() as u64)
    }

    /// Updates `updates` (posts of `collection_id`, by id: new name and values) and inserts
    /// `inserts`, in one transaction: an import or a spreadsheet upsert is all or nothing. An
    /// update of a post that is not in the collection (deleted meanwhile, or another's) fails
    /// the whole write with `NotFound`. PostgreSQL gets the new rows by COPY (its bulk-load
    /// path, several times faster than INSERT); SQLite by multi-row INSERTs.
    pub async fn write_posts(
        &self,
        collection_id: i64,
        inserts: &[NewPost],
        updates: &[PostUpdate],
    ) -> Result<()> {
        // 6 bound values per row; stay well under SQLite's parameter limit.
        const ROWS_PER_STATEMENT: usize = 2_000;
        let ts = now();
        let n = inserts.len() as i64;
        /// The updates, in the open transaction `$tx`.
        macro_rules! update_posts {
            ($tx:expr) => {
                for u in updates {
                    let done = sqlx::query(
                        "UPDATE posts SET name = $1, data = $2, updated_at = $3 \
                         WHERE id = $4 AND collection_id = $5",
                    )
                    .bind(&u.name)
                    .bind(Json(&u.data))
                    .bind(ts)
                    .bind(u.id)
                    .bind(collection_id)
                    .execute(&mut *$tx)
                    .await
                    .map_err(map_err)?;
                    if done.rows_affected() == 0 {
                        return Err(StoreError::NotFound);
                    }
                }
            };
        }
        match self {
            Store::Sqlite(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                update_posts!(tx);
                for chunk in inserts.chunks(ROWS_PER_STATEMENT) {
                    let mut qb = sqlx::QueryBuilder::new(
                        "INSERT INTO posts (collection_id, name, slug, data, created_at, updated_at) ",
                    );
                    qb.push_values(chunk, |mut b, post| {
                        b.push_bind(collection_id)
                            .push_bind(&post.name)
                            .push_bind(&post.slug)
                            .push_bind(Json(&post.data))
                            .push_bind(post.created_at)
                            .push_bind(ts);
                    });
                    qb.build().execute(&mut *tx).await.map_err(map_err)?;
                }
                add_post_count!(tx, collection_id, n)?;
                tx.commit().await.map_err(map_err)?;
            }
            Store::Postgres(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                update_posts!(tx);
                if !inserts.is_empty() {
                    let mut copy = tx
                        .copy_in_raw("COPY posts (collection_id, name, slug, data, created_at, updated_at) FROM STDIN")
                        .await
                        .map_err(map_err)?;
                    let updated = ts.to_rfc3339();
                    let mut buf = Vec::with_capacity(1 << 20);
                    for post in inserts {
                        copy_row(&mut buf, collection_id, post, &updated);
                        if buf.len() >= 1 << 20 {
                            copy.send(std::mem::take(&mut buf)).await.map_err(map_err)?;
                        }
                    }
                    if !buf.is_empty() {
                        copy.send(buf).await.map_err(map_err)?;
                    }
                    copy.finish().await.map_err(map_err)?;
                }
                add_post_count!(tx, collection_id, n)?;
                tx.commit().await.map_err(map_err)?;
            }
        }
        Ok(())
    }

    /// Project id of a collection (authorization before anything else is read).
    pub async fn collection_project_id(&self, id: i64) -> Result<i64> {
        dispatch!(self, p => sqlx::query_scalar::<_, i64>("SELECT project_id FROM collections WHERE id = $1")
            .bind(id).fetch_optional(p).await.map_err(map_err))?
            .ok_or(StoreError::NotFound)
    }

    /// Regenerates a project's client-panel token; the old one stops working at once.
    pub async fn set_project_token(&self, project_id: i64, token: &str) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query("UPDATE projects SET token = $1, updated_at = $2 WHERE id = $3")
            .bind(token).bind(now()).bind(project_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        if n == 0 {
            Err(StoreError::NotFound)
        } else {
            Ok(())
        }
    }

    /// The project a client-panel token opens.
    pub async fn project_id_by_token(&self, token: &str) -> Result<Option<i64>> {
        dispatch!(self, p => sqlx::query_scalar::<_, i64>("SELECT id FROM projects WHERE token = $1")
            .bind(token).fetch_optional(p).await.map_err(map_err))
    }
}

/// Appends one row of PostgreSQL's COPY text format: tab-separated, with backslash,
/// tab, newline and carriage return escaped.
fn copy_row(buf: &mut Vec<u8>, collection_id: i64, post: &NewPost, updated: &str) {
    fn field(buf: &mut Vec<u8>, text: &str) {
        for b in text.bytes() {
            match b {
                b'\\' => buf.extend_from_slice(b"\\\\"),
                b'\t' => buf.extend_from_slice(b"\\t"),
                b'\n' => buf.extend_from_slice(b"\\n"),
                b'\r' => buf.extend_from_slice(b"\\r"),
                other => buf.push(other),
            }
        }
    }
    buf.extend_from_slice(collection_id.to_string().as_bytes());
    buf.push(b'\t');
    field(buf, &post.name);
    buf.push(b'\t');
    field(buf, &post.slug);
    buf.push(b'\t');
    field(
        buf,
        &serde_json::to_string(&post.data).unwrap_or_else(|_| "{}".into()),
    );
    buf.push(b'\t');
    buf.extend_from_slice(post.created_at.to_rfc3339().as_bytes());
    buf.push(b'\t');
    buf.extend_from_slice(updated.as_bytes());
    buf.push(b'\n');
}
