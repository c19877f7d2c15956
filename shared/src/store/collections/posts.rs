//! A collection's posts (records): single reads and writes, and the bulk writes of imports
//! and spreadsheet links. Every write that adds or removes posts keeps the collection's
//! `post_count` in the same transaction (`add_post_count`).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use sqlx::types::Json;

use super::{add_post_count, records_changed};
use crate::ids::{CollectionId, PostId, ProjectId};
use crate::store::{
    BeginWrite, Result, Store, StoreError, dispatch, map_err, now,
    storage::{account_of_collection_sql, reserve_records},
    trusted,
};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Post {
    pub id: PostId,
    pub collection_id: CollectionId,
    pub name: String,
    pub slug: String,
    pub data: Json<Map<String, Value>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
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
    pub id: PostId,
    pub name: String,
    pub data: Map<String, Value>,
}

pub(super) const POST_COLUMNS: &str = "id, collection_id, name, slug, data, created_at, updated_at";

/// The statement every bulk insert of posts copies into (PostgreSQL).
pub(super) const COPY_POSTS: &str =
    "COPY posts (collection_id, name, slug, data, created_at, updated_at) FROM STDIN";

/// The updates of a bulk write, in the open transaction `$tx`: `update_posts!(tx, updates,
/// ts, collection_id)` expands to the loop of `UPDATE`s, returning `NotFound` from the
/// function for a post not in the collection. A macro, not a function, so each database's arm
/// expands it for its own transaction (see the store's module doc).
macro_rules! update_posts {
    ($tx:expr, $updates:expr, $ts:expr, $collection:expr) => {
        for u in $updates {
            let done = sqlx::query(
                "UPDATE posts SET name = $1, data = $2, updated_at = $3 \
                 WHERE id = $4 AND collection_id = $5",
            )
            .bind(&u.name)
            .bind(Json(&u.data))
            .bind($ts)
            .bind(u.id)
            .bind($collection)
            .execute(&mut *$tx)
            .await
            .map_err(map_err)?;
            if done.rows_affected() == 0 {
                return Err(StoreError::NotFound);
            }
        }
    };
}
pub(super) use update_posts;

impl Store {
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn post_by_id(&self, id: PostId) -> Result<Post> {
        let sql = format!("SELECT {POST_COLUMNS} FROM posts WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, Post>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// `post id → project id` for the given posts (those that exist).
    #[tracing::instrument(level = "debug", skip_all, fields(ids = ids.len()), err(level = "debug"))]
    pub async fn posts_projects(&self, ids: &[PostId]) -> Result<Vec<(PostId, ProjectId)>> {
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(500) {
            let placeholders: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT po.id, c.project_id FROM posts po \
                 JOIN collections c ON c.id = po.collection_id \
                 WHERE po.id IN ({})",
                placeholders.join(", ")
            );
            let rows: Vec<(PostId, ProjectId)> = dispatch!(self, p => {
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

    /// Adds a post, when its account keeps fewer than `records_cap` records (else
    /// `Conflict(RECORDS_FULL)`, counted under the account's lock: see `storage.rs`).
    #[tracing::instrument(level = "debug", skip(self, post), fields(slug = post.slug.as_str()), err(level = "debug"))]
    pub async fn insert_post(
        &self,
        collection_id: CollectionId,
        post: &NewPost,
        records_cap: u64,
    ) -> Result<Post> {
        let sql = format!(
            "INSERT INTO posts (collection_id, name, slug, data, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {POST_COLUMNS}"
        );
        let account_sql = account_of_collection_sql();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            reserve_records!(tx, &account_sql, collection_id, 1, records_cap).await?;
            let post = sqlx::query_as::<_, Post>(trusted(&sql))
                .bind(collection_id).bind(&post.name).bind(&post.slug)
                .bind(Json(&post.data)).bind(post.created_at).bind(now())
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            add_post_count!(tx, collection_id, 1)?;
            tx.commit().await.map_err(map_err)?;
            Ok(post)
        })
    }

    #[tracing::instrument(level = "debug", skip(self, data), err(level = "debug"))]
    pub async fn update_post(
        &self,
        id: PostId,
        name: &str,
        slug: &str,
        data: &Map<String, Value>,
    ) -> Result<Post> {
        let sql = format!(
            "UPDATE posts \
             SET name = $1, slug = $2, data = $3, updated_at = $4 \
             WHERE id = $5 RETURNING {POST_COLUMNS}"
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
    #[tracing::instrument(level = "debug", skip_all, fields(ids = ids.len()), err(level = "debug"))]
    pub async fn delete_posts(&self, ids: &[PostId]) -> Result<u64> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let mut removed: HashMap<CollectionId, i64> = HashMap::new();
            for chunk in ids.chunks(500) {
                let placeholders: Vec<String> =
                    (1..=chunk.len()).map(|i| format!("${i}")).collect();
                let sql = format!(
                    "DELETE FROM posts WHERE id IN ({}) RETURNING collection_id",
                    placeholders.join(", ")
                );
                let mut q = sqlx::query_scalar::<_, CollectionId>(trusted(&sql));
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
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn post_slugs(&self, collection_id: CollectionId) -> Result<HashMap<String, PostId>> {
        let rows: Vec<(String, PostId)> = dispatch!(self, p => sqlx::query_as(
            "SELECT slug, id FROM posts WHERE collection_id = $1")
            .bind(collection_id).fetch_all(p).await.map_err(map_err))?;
        Ok(rows.into_iter().collect())
    }

    /// Which of `ids` are posts of `collection_id`.
    #[tracing::instrument(level = "debug", skip(self, ids), fields(ids = ids.len()), err(level = "debug"))]
    pub async fn existing_post_ids(
        &self,
        collection_id: CollectionId,
        ids: &HashSet<PostId>,
    ) -> Result<HashSet<PostId>> {
        let ids: Vec<PostId> = ids.iter().copied().collect();
        let mut found = HashSet::new();
        for chunk in ids.chunks(500) {
            let placeholders: Vec<String> = (2..chunk.len() + 2).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT id FROM posts WHERE collection_id = $1 AND id IN ({})",
                placeholders.join(", ")
            );
            let rows: Vec<PostId> = dispatch!(self, p => {
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

    /// Up to `limit` posts with id greater than `after`, by id (keyset pages for streaming export).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn posts_after(
        &self,
        collection_id: CollectionId,
        after: PostId,
        limit: i64,
    ) -> Result<Vec<Post>> {
        let sql = format!(
            "SELECT {POST_COLUMNS} FROM posts \
             WHERE collection_id = $1 AND id > $2 ORDER BY id LIMIT $3"
        );
        dispatch!(self, p => sqlx::query_as::<_, Post>(trusted(&sql))
            .bind(collection_id).bind(after).bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Inserts many posts in one transaction. All or nothing (see [`Store::write_posts`]).
    #[tracing::instrument(level = "debug", skip(self, posts), fields(posts = posts.len()), err(level = "debug"))]
    pub async fn insert_posts(
        &self,
        collection_id: CollectionId,
        posts: &[NewPost],
        records_cap: u64,
    ) -> Result<u64> {
        self.write_posts(collection_id, posts, &[], records_cap)
            .await?;
        Ok(posts.len() as u64)
    }

    /// Updates `updates` (posts of `collection_id`, by id: new name and values) and inserts
    /// `inserts`, in one transaction: an import or a spreadsheet upsert is all or nothing. An
    /// update of a post that is not in the collection (deleted meanwhile, or another's) fails
    /// the whole write with `NotFound`. PostgreSQL gets the new rows by COPY (its bulk-load
    /// path, several times faster than INSERT); SQLite by multi-row INSERTs. An account that
    /// would keep more than `records_cap` records with the inserts gets
    /// `Conflict(RECORDS_FULL)` and nothing is written.
    #[tracing::instrument(level = "debug", skip(self, inserts, updates), fields(inserts = inserts.len(), updates = updates.len()), err(level = "debug"))]
    pub async fn write_posts(
        &self,
        collection_id: CollectionId,
        inserts: &[NewPost],
        updates: &[PostUpdate],
        records_cap: u64,
    ) -> Result<()> {
        let account_sql = account_of_collection_sql();
        // 6 bound values per row; stay well under SQLite's parameter limit.
        const ROWS_PER_STATEMENT: usize = 2_000;
        let ts = now();
        let n = inserts.len() as i64;
        match self {
            Store::Sqlite(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                reserve_records!(tx, &account_sql, collection_id, n, records_cap).await?;
                update_posts!(tx, updates, ts, collection_id);
                for chunk in inserts.chunks(ROWS_PER_STATEMENT) {
                    let mut qb = sqlx::QueryBuilder::new(
                        "INSERT INTO posts \
                         (collection_id, name, slug, data, created_at, updated_at) ",
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
                reserve_records!(tx, &account_sql, collection_id, n, records_cap).await?;
                update_posts!(tx, updates, ts, collection_id);
                if !inserts.is_empty() {
                    let mut copy = tx.copy_in_raw(COPY_POSTS).await.map_err(map_err)?;
                    let mut rows = CopyRows::new(collection_id, ts);
                    rows.send(&mut copy, inserts).await?;
                    rows.finish(&mut copy).await?;
                    copy.finish().await.map_err(map_err)?;
                }
                add_post_count!(tx, collection_id, n)?;
                tx.commit().await.map_err(map_err)?;
            }
        }
        Ok(())
    }
}

/// The rows of a COPY of posts, in its text format, sent in chunks of about a megabyte: big
/// enough that each send is one write, small enough that the client writes the next chunk
/// while the server parses this one.
pub(super) struct CopyRows {
    collection_id: CollectionId,
    updated: String,
    buf: Vec<u8>,
}

impl CopyRows {
    const CHUNK: usize = 1 << 20;

    pub(super) fn new(collection_id: CollectionId, updated: DateTime<Utc>) -> Self {
        CopyRows {
            collection_id,
            updated: updated.to_rfc3339(),
            buf: Vec::with_capacity(Self::CHUNK),
        }
    }

    /// Appends `posts`, sending each full chunk.
    pub(super) async fn send(
        &mut self,
        copy: &mut sqlx::postgres::PgCopyIn<&mut sqlx::PgConnection>,
        posts: &[NewPost],
    ) -> Result<()> {
        for post in posts {
            copy_row(&mut self.buf, self.collection_id, post, &self.updated);
            if self.buf.len() >= Self::CHUNK {
                let full = std::mem::replace(&mut self.buf, Vec::with_capacity(Self::CHUNK));
                copy.send(full).await.map_err(map_err)?;
            }
        }
        Ok(())
    }

    /// Sends what is left.
    pub(super) async fn finish(
        self,
        copy: &mut sqlx::postgres::PgCopyIn<&mut sqlx::PgConnection>,
    ) -> Result<()> {
        if !self.buf.is_empty() {
            copy.send(self.buf).await.map_err(map_err)?;
        }
        Ok(())
    }
}

/// Appends one row of PostgreSQL's COPY text format: tab-separated, with backslash,
/// tab, newline and carriage return escaped. The values' JSON is written straight into the
/// row through [`CopyText`], with no string of its own per row.
fn copy_row(buf: &mut Vec<u8>, collection_id: CollectionId, post: &NewPost, updated: &str) {
    buf.extend_from_slice(collection_id.to_string().as_bytes());
    buf.push(b'\t');
    copy_field(buf, post.name.as_bytes());
    buf.push(b'\t');
    copy_field(buf, post.slug.as_bytes());
    buf.push(b'\t');
    // A map of JSON values always serialises, and this writer never fails.
    let _ = serde_json::to_writer(CopyText(buf), &post.data);
    buf.push(b'\t');
    buf.extend_from_slice(post.created_at.to_rfc3339().as_bytes());
    buf.push(b'\t');
    buf.extend_from_slice(updated.as_bytes());
    buf.push(b'\n');
}

/// Appends `text` escaped for COPY's text format, copying the runs between the bytes that
/// need an escape whole.
fn copy_field(buf: &mut Vec<u8>, text: &[u8]) {
    let mut rest = text;
    while let Some(at) = rest
        .iter()
        .position(|b| matches!(b, b'\\' | b'\t' | b'\n' | b'\r'))
    {
        buf.extend_from_slice(&rest[..at]);
        buf.extend_from_slice(match rest[at] {
            b'\\' => b"\\\\",
            b'\t' => b"\\t",
            b'\n' => b"\\n",
            _ => b"\\r",
        });
        rest = &rest[at + 1..];
    }
    buf.extend_from_slice(rest);
}

/// A writer that appends what it is given to a COPY row, escaped ([`copy_field`]).
struct CopyText<'a>(&'a mut Vec<u8>);

impl std::io::Write for CopyText<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        copy_field(self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
