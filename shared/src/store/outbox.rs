//! The mail outbox. Mail is written here in the same request that decides to send it, and a
//! worker delivers it with retries, so a slow or failing SMTP server never fails a request and
//! no mail is lost across restarts. Claiming a row pushes its next attempt forward, so two
//! control planes never send the same row at the same moment.

use chrono::{DateTime, Duration, Utc};

use super::{Result, Store, dispatch, map_err, now};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxMail {
    pub id: i64,
    pub to_addr: String,
    pub subject: String,
    pub body: String,
    pub attempts: i64,
}

/// After this many failed attempts a mail is left for an operator to look at.
pub const MAX_ATTEMPTS: i64 = 10;

impl Store {
    pub async fn enqueue_mail(&self, to: &str, subject: &str, body: &str) -> Result<i64> {
        let ts = now();
        dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "INSERT INTO outbox (to_addr, subject, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $4) RETURNING id")
            .bind(to).bind(subject).bind(body).bind(ts)
            .fetch_one(p).await.map_err(map_err))
    }

    /// Claims up to `limit` due mails, pushing their next attempt `lease` into the future.
    pub async fn claim_due_mail(&self, limit: i64, lease: Duration) -> Result<Vec<OutboxMail>> {
        let ts = now();
        let due: Vec<(i64, DateTime<Utc>)> = dispatch!(self, p => sqlx::query_as(
            "SELECT id, next_attempt_at FROM outbox WHERE sent_at IS NULL AND attempts < $1 AND next_attempt_at <= $2 \
             ORDER BY id LIMIT $3")
            .bind(MAX_ATTEMPTS).bind(ts).bind(limit)
            .fetch_all(p).await.map_err(map_err))?;
        let mut claimed = Vec::new();
        for (id, seen) in due {
            let row: Option<OutboxMail> = dispatch!(self, p => sqlx::query_as(
                "UPDATE outbox SET next_attempt_at = $1 WHERE id = $2 AND next_attempt_at = $3 AND sent_at IS NULL \
                 RETURNING id, to_addr, subject, body, attempts")
                .bind(ts + lease).bind(id).bind(seen)
                .fetch_optional(p).await.map_err(map_err))?;
            claimed.extend(row);
        }
        Ok(claimed)
    }

    pub async fn mark_mail_sent(&self, id: i64) -> Result<()> {
        dispatch!(self, p => sqlx::query("UPDATE outbox SET sent_at = $1, last_error = NULL WHERE id = $2")
            .bind(now()).bind(id).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Records a failed attempt and schedules the next one with exponential back-off
    /// (30 s, 1 min, 2 min, … capped at 6 h).
    pub async fn mark_mail_failed(&self, id: i64, attempts_before: i64, error: &str) -> Result<()> {
        let backoff = Duration::seconds((30_i64 << attempts_before.clamp(0, 10)).min(6 * 3600));
        dispatch!(self, p => sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 WHERE id = $3")
            .bind(error).bind(now() + backoff).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Every mail addressed to `to`, oldest first (support tooling and tests).
    pub async fn mail_to(&self, to: &str) -> Result<Vec<OutboxMail>> {
        dispatch!(self, p => sqlx::query_as::<_, OutboxMail>(
            "SELECT id, to_addr, subject, body, attempts FROM outbox WHERE to_addr = $1 ORDER BY id")
            .bind(to).fetch_all(p).await.map_err(map_err))
    }

    /// `(pending, sent)` counts, for tests and metrics.
    pub async fn outbox_counts(&self) -> Result<(i64, i64)> {
        dispatch!(self, p => sqlx::query_as::<_, (i64, i64)>(
            "SELECT COALESCE(SUM(CASE WHEN sent_at IS NULL THEN 1 ELSE 0 END), 0), \
                    COALESCE(SUM(CASE WHEN sent_at IS NULL THEN 0 ELSE 1 END), 0) FROM outbox")
            .fetch_one(p).await.map_err(map_err))
    }
}
