//! The rows a site's `sitemap.xml` lists for one collection: each post's slug and when it
//! last changed, and nothing else (no values), at most as many as the sitemap has room for,
//! in the order of the `(collection_id, id)` index, under a statement time limit like the list
//! queries' (`query.rs`): one tenant's large collection fails alone as
//! [`crate::store::Failure::SlowQuery`] and holds its connection no longer than `within`.

use chrono::{DateTime, Utc};

use super::query::fetch_all_within;
use crate::ids::{CollectionId, ProjectId};
use crate::store::{Result, Store};

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
        macro_rules! query {
            () => {
                sqlx::query_as::<_, (String, DateTime<Utc>)>(SQL)
                    .bind(collection_id)
                    .bind(project_id)
                    .bind(limit)
            };
        }
        fetch_all_within!(self, within, query)
    }
}
