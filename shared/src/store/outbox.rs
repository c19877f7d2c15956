//! The mail outbox. Mail is written here in the same request that decides to send it, and a
//! worker delivers it with retries, so a slow or failing SMTP server never fails a request and
//! no mail is lost across restarts. Claiming a row pushes its next attempt forward, so two
//! control planes never send the same row at the same moment. The conversion events
//! (`conversions.rs`) are delivered the same way, through [`Queue`].

use chrono::{DateTime, Duration, Utc};

use super::{Result, Store, dispatch, map_err, now, trusted};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxMail {
    pub id: i64,
    pub to_addr: String,
    pub subject: String,
    pub body: String,
    /// The HTML alternative; empty for text-only mail.
    pub html_body: String,
    pub attempts: i64,
}

/// After this many failed attempts a mail (or conversion event) is left for an operator to look
/// at.
pub const MAX_ATTEMPTS: i64 = 10;

/// The tables delivered by a worker with leases and retries: the same columns for the queue's
/// bookkeeping (`attempts`, `next_attempt_at`, `sent_at`, `last_error`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Queue {
    Mail,
    Conversions,
}

impl Queue {
    fn table(self) -> &'static str {
        match self {
            Queue::Mail => "outbox",
            Queue::Conversions => "conversion_events",
        }
    }
}

impl Store {
    #[tracing::instrument(level = "debug", skip(self, body), err(level = "debug"))]
    pub async fn enqueue_mail(&self, to: &str, subject: &str, body: &str) -> Result<i64> {
        let ts = now();
        dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "INSERT INTO outbox (to_addr, subject, body, next_attempt_at, created_at) \
             VALUES ($1, $2, $3, $4, $4) RETURNING id")
            .bind(to).bind(subject).bind(body).bind(ts)
            .fetch_one(p).await.map_err(map_err))
    }

    /// Claims up to `limit` due mails, pushing their next attempt `lease` into the future.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn claim_due_mail(&self, limit: i64, lease: Duration) -> Result<Vec<OutboxMail>> {
        let sql =
            "SELECT id, to_addr, subject, body, html_body, attempts FROM outbox WHERE id = $1";
        let mut claimed = Vec::new();
        for id in self.claim_due(Queue::Mail, limit, lease).await? {
            claimed.extend(dispatch!(self, p => sqlx::query_as::<_, OutboxMail>(sql)
                .bind(id).fetch_optional(p).await.map_err(map_err))?);
        }
        Ok(claimed)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mark_mail_sent(&self, id: i64) -> Result<()> {
        self.mark_sent(Queue::Mail, id).await
    }

    /// Records a failed attempt and schedules the next one with exponential back-off
    /// (30 s, 1 min, 2 min, … capped at 6 h).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mark_mail_failed(&self, id: i64, attempts_before: i64, error: &str) -> Result<()> {
        self.mark_failed(Queue::Mail, id, attempts_before, error)
            .await
    }

    /// Claims up to `limit` due rows of `queue`: each claim pushes the row's next attempt
    /// `lease` into the future, guarded by the value it read, so two workers (two control
    /// planes) never take the same row at the same moment.
    pub(crate) async fn claim_due(
        &self,
        queue: Queue,
        limit: i64,
        lease: Duration,
    ) -> Result<Vec<i64>> {
        let table = queue.table();
        let ts = now();
        let select = format!(
            "SELECT id, next_attempt_at FROM {table} WHERE sent_at IS NULL AND attempts < $1 \
             AND next_attempt_at <= $2 ORDER BY id LIMIT $3"
        );
        let due: Vec<(i64, DateTime<Utc>)> = dispatch!(self, p => sqlx::query_as(trusted(&select))
            .bind(MAX_ATTEMPTS).bind(ts).bind(limit)
            .fetch_all(p).await.map_err(map_err))?;
        let update = format!(
            "UPDATE {table} SET next_attempt_at = $1 \
             WHERE id = $2 AND next_attempt_at = $3 AND sent_at IS NULL"
        );
        let mut claimed = Vec::new();
        for (id, seen) in due {
            let n = dispatch!(self, p => sqlx::query(trusted(&update))
                .bind(ts + lease).bind(id).bind(seen)
                .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
            if n == 1 {
                claimed.push(id);
            }
        }
        Ok(claimed)
    }

    pub(crate) async fn mark_sent(&self, queue: Queue, id: i64) -> Result<()> {
        let sql = format!(
            "UPDATE {} SET sent_at = $1, last_error = NULL WHERE id = $2",
            queue.table()
        );
        dispatch!(self, p => sqlx::query(trusted(&sql))
            .bind(now()).bind(id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// A failed attempt: the next one after an exponential back-off (30 s, 1 min, 2 min, …
    /// capped at 6 h).
    pub(crate) async fn mark_failed(
        &self,
        queue: Queue,
        id: i64,
        attempts_before: i64,
        error: &str,
    ) -> Result<()> {
        let backoff = Duration::seconds((30_i64 << attempts_before.clamp(0, 10)).min(6 * 3600));
        let sql = format!(
            "UPDATE {} \
             SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 \
             WHERE id = $3",
            queue.table()
        );
        dispatch!(self, p => sqlx::query(trusted(&sql))
            .bind(error).bind(now() + backoff).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// A failure that no retry can mend (the receiver refused the request itself): no more
    /// attempts, the reason kept for the owner and operators.
    pub(crate) async fn mark_given_up(&self, queue: Queue, id: i64, error: &str) -> Result<()> {
        let sql = format!(
            "UPDATE {} SET attempts = $1, last_error = $2 WHERE id = $3",
            queue.table()
        );
        dispatch!(self, p => sqlx::query(trusted(&sql))
            .bind(MAX_ATTEMPTS).bind(error).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Every mail addressed to `to`, oldest first (support tooling and tests).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mail_to(&self, to: &str) -> Result<Vec<OutboxMail>> {
        dispatch!(self, p => sqlx::query_as::<_, OutboxMail>(
            "SELECT id, to_addr, subject, body, html_body, attempts \
             FROM outbox WHERE to_addr = $1 ORDER BY id")
            .bind(to).fetch_all(p).await.map_err(map_err))
    }

    /// `(pending, sent)` counts, for tests and metrics.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn outbox_counts(&self) -> Result<(i64, i64)> {
        dispatch!(self, p => sqlx::query_as::<_, (i64, i64)>(
            "SELECT COALESCE(SUM(CASE WHEN sent_at IS NULL THEN 1 ELSE 0 END), 0), \
                    COALESCE(SUM(CASE WHEN sent_at IS NULL THEN 0 ELSE 1 END), 0) FROM outbox")
            .fetch_one(p).await.map_err(map_err))
    }
}
