//! The rows a site's `sitemap.xml` lists for one collection: each post's slug and when it
//! last changed, and nothing else (no values), at most as many as the sitemap has room for,
//! in the order of the `(collection_id, id)` index, under a statement time limit like the list
//! queries' (`query.rs`): one tenant's large collection fails alone as
//! [`crate::store::Failure::SlowQuery`] and holds its connection no longer than `within`.

use chrono::{DateTime, Utc};

use super::query::{Disarm, SQLITE_PROGRESS_OPS};
use crate::ids::{CollectionId, ProjectId};
use crate::store::{BeginWrite, Result, Store, map_err};

const SQL: &str = "SELECT p.slug, p.updated_at FROM posts p \
     JOIN collections c ON c.id = p.collection_id \
     WHERE p.collection_id = $1 AND c.project_id = $2 ORDER BY p.id LIMIT $3";

impl Store {
    /// Up to `limit` `(slug, updated_at)` of the posts of `collection_id`, when it is
    /// `project_id`'s, by id.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn sitemap_posts(
        &self,
        collection_id: CollectionId,
        project_id: ProjectId,
        limit: i64,
        within: std::time::Duration,
    ) -> Result<Vec<(String, DateTime<Utc>)>> {
        let millis = i64::try_from(within.as_millis()).unwrap_or(i64::MAX).max(1);
        macro_rules! query {
            () => {
                sqlx::query_as::<_, (String, DateTime<Utc>)>(SQL)
                    .bind(collection_id)
                    .bind(project_id)
                    .bind(limit)
            };
        }
        match self {
            Store::Postgres(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                sqlx::query("SELECT set_config('statement_timeout', $1, true)")
                    .bind(millis.to_string())
                    .execute(&mut *tx)
                    .await
                    .map_err(map_err)?;
                let rows = query!().fetch_all(&mut *tx).await.map_err(map_err)?;
                tx.commit().await.map_err(map_err)?;
                Ok(rows)
            }
            Store::Sqlite(p) => {
                let mut conn = p.acquire().await.map_err(map_err)?;
                let deadline = std::time::Instant::now() + within;
                // As in `query_posts`: disarmed when this call ends, however it ends.
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
                let rows = query!().fetch_all(&mut *conn).await.map_err(map_err);
                drop(armed);
                conn.lock_handle()
                    .await
                    .map_err(map_err)?
                    .remove_progress_handler();
                rows
            }
        }
    }
}
