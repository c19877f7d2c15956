//! The rows a site's sitemap lists for one collection: each post's slug and when it last
//! changed, and nothing else (no values), a window of at most as many as a sitemap file has
//! room for, in the order of the `(collection_id, id)` index; and how many there are (a site
//! with more URLs than one file holds gets a sitemap index). Both under a statement time limit
//! like the list queries' (`query.rs`): one tenant's large collection fails alone as
//! [`crate::store::Failure::SlowQuery`] and holds its connection no longer than `within`.

use chrono::{DateTime, Utc};

use super::query::fetch_all_within;
use crate::ids::{CollectionId, ProjectId};
use crate::store::{Result, Store};

const SQL: &str = "SELECT p.slug, p.updated_at FROM posts p \
     JOIN collections c ON c.id = p.collection_id \
     WHERE p.collection_id = $1 AND c.project_id = $2 ORDER BY p.id LIMIT $3 OFFSET $4";

const COUNT: &str = "SELECT COUNT(*) FROM posts p \
     JOIN collections c ON c.id = p.collection_id \
     WHERE p.collection_id = $1 AND c.project_id = $2";

impl Store {
    /// Up to `limit` `(slug, updated_at)` of the posts of `collection_id`, when it is
    /// `project_id`'s, by id, the first `offset` of them passed over.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn sitemap_posts(
        &self,
        collection_id: CollectionId,
        project_id: ProjectId,
        (limit, offset): (i64, i64),
        within: std::time::Duration,
    ) -> Result<Vec<(String, DateTime<Utc>)>> {
        macro_rules! query {
            () => {
                sqlx::query_as::<_, (String, DateTime<Utc>)>(SQL)
                    .bind(collection_id)
                    .bind(project_id)
                    .bind(limit)
                    .bind(offset)
            };
        }
        fetch_all_within!(self, within, query)
    }

    /// How many posts `collection_id` has, when it is `project_id`'s (else 0).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn sitemap_post_count(
        &self,
        collection_id: CollectionId,
        project_id: ProjectId,
        within: std::time::Duration,
    ) -> Result<i64> {
        macro_rules! query {
            () => {
                sqlx::query_as::<_, (i64,)>(COUNT)
                    .bind(collection_id)
                    .bind(project_id)
            };
        }
        let rows: Vec<(i64,)> = fetch_all_within!(self, within, query)?;
        Ok(rows.first().map_or(0, |r| r.0))
    }
}
