//! A bulk write of posts fed while its rows are still being read: an import validates and
//! plans its file in chunks, and each chunk's new posts go to the database as soon as they
//! are planned, so that on PostgreSQL the server stores the first rows while the control plane
//! validates the next (issue 42: that overlap is what brings a 100,000-row import within 1.5 s).
//!
//! It is all or nothing, as [`Store::write_posts`] is: nothing is visible until the last step
//! ([`PostsStep::Finish`]) commits, and a write whose steps end without it (the import found a
//! refused row, or its request went away) is rolled back.

use sqlx::types::Json;
use tokio::sync::mpsc;

use super::posts::{COPY_POSTS, CopyRows, update_posts};
use super::{NewPost, PostUpdate, add_post_count, records_changed};
use crate::ids::CollectionId;
use crate::store::{
    BeginWrite, Result, Store, StoreError, map_err, now,
    storage::{account_of_collection_sql, reserve_records},
};

/// One step of a streamed write of posts ([`Store::write_posts_streamed`]).
#[derive(Debug)]
pub enum PostsStep {
    /// More posts to insert, in order.
    Insert(Vec<NewPost>),
    /// The updates, after every insert: the write commits with them.
    Finish(Vec<PostUpdate>),
}

impl Store {
    /// Writes posts into `collection_id` as `steps` bring them: the inserts of each
    /// [`PostsStep::Insert`], then, at [`PostsStep::Finish`], the updates, the account's
    /// records cap (`Conflict(RECORDS_FULL)` when the inserts would pass `records_cap`) and
    /// the collection's count, in one transaction. Answers `true` when it committed, `false`
    /// when the steps ended without `Finish` (nothing is written).
    ///
    /// PostgreSQL copies each chunk as it comes (one COPY for the whole write). SQLite keeps
    /// the chunks and writes them at `Finish` ([`Store::write_posts`]): its one writer's lock
    /// is then held only for the write, not while the rows are read.
    #[tracing::instrument(level = "debug", skip(self, steps), err(level = "debug"))]
    pub async fn write_posts_streamed(
        &self,
        collection_id: CollectionId,
        mut steps: mpsc::Receiver<PostsStep>,
        records_cap: u64,
    ) -> Result<bool> {
        let p = match self {
            Store::Postgres(p) => p,
            Store::Sqlite(_) => {
                let mut inserts = Vec::new();
                while let Some(step) = steps.recv().await {
                    match step {
                        PostsStep::Insert(posts) => inserts.extend(posts),
                        PostsStep::Finish(updates) => {
                            self.write_posts(collection_id, &inserts, &updates, records_cap)
                                .await?;
                            return Ok(true);
                        }
                    }
                }
                return Ok(false);
            }
        };
        // The transaction and its one COPY begin with the first step: a file refused before
        // any row is planned opens none.
        let Some(first) = steps.recv().await else {
            return Ok(false);
        };
        let ts = now();
        let mut tx = p.begin_write().await.map_err(map_err)?;
        let mut inserted: i64 = 0;
        let mut step = Some(first);
        let updates = {
            let mut copy = tx.copy_in_raw(COPY_POSTS).await.map_err(map_err)?;
            let mut rows = CopyRows::new(collection_id, ts);
            let updates = loop {
                match step.take() {
                    Some(PostsStep::Insert(posts)) => {
                        rows.send(&mut copy, &posts).await?;
                        inserted += posts.len() as i64;
                    }
                    Some(PostsStep::Finish(updates)) => break Some(updates),
                    None => break None,
                }
                step = steps.recv().await;
            };
            if updates.is_some() {
                rows.finish(&mut copy).await?;
                copy.finish().await.map_err(map_err)?;
            } else {
                // Refused: the server drops what it was given, and the transaction rolls back.
                copy.abort("import refused").await.map_err(map_err)?;
            }
            updates
        };
        let Some(updates) = updates else {
            return Ok(false);
        };
        update_posts!(tx, &updates, ts, collection_id);
        reserve_records!(
            tx,
            &account_of_collection_sql(),
            collection_id,
            inserted,
            records_cap
        )
        .await?;
        add_post_count!(tx, collection_id, inserted)?;
        tx.commit().await.map_err(map_err)?;
        Ok(true)
    }
}
