//! Form history: the submissions the edge records, each stored with its notification e-mail
//! (and, for conversion tracking, its lead event) in one transaction and within the
//! project's cap, and the owner's listing, search and deletion of them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, like_pattern, map_err, now, trusted};
use crate::ids::{ProjectId, SubmissionId};

/// A form submission as the edge records it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, Serialize)]
pub struct NewSubmission {
    /// Unique per submission (chosen by the edge), so replaying a spool never duplicates.
    pub uid: String,
    pub project_id: ProjectId,
    pub url: String,
    pub submit: String,
    pub to: String,
    pub subject: String,
    /// Sanitised HTML.
    pub data: String,
    pub created_at: DateTime<Utc>,
}

/// What [`Store::store_submission`] did with a submission.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StoredSubmission {
    /// False when a submission with the same uid was already stored (a replay).
    pub new: bool,
    /// Its notification e-mail was queued (see [`Store::store_submission`]).
    pub notified: bool,
    /// Oldest entries of the project deleted to keep its history within the cap.
    pub trimmed: i64,
    /// Its notification was not queued because its recipient had already been sent
    /// [`Notification::per_recipient_per_hour`] notifications in the last hour.
    pub capped: bool,
}

/// A form submission's notification e-mail: its subject, its text, and the same as HTML
/// (empty for text only).
#[derive(Debug, Clone, Copy)]
pub struct Notification<'a> {
    pub subject: &'a str,
    pub text: &'a str,
    pub html: &'a str,
    /// Notifications one recipient is sent per hour at most, counted in the outbox over every
    /// project, edge and control plane (`FORM_NOTIFICATIONS_PER_RECIPIENT_PER_HOUR`).
    pub per_recipient_per_hour: i64,
}

/// Which submissions the form history shows and exports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubmissionFilter {
    /// Text anywhere in the url, subject, button, recipient or fields (case-insensitive for
    /// ASCII letters on SQLite, whose `lower` knows no others).
    pub text: Option<String>,
    /// Received at or after.
    pub from: Option<DateTime<Utc>>,
    /// Received before.
    pub until: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Submission {
    #[schema(value_type = i64)]
    pub id: SubmissionId,
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub url: String,
    pub submit: String,
    #[sqlx(rename = "to_addr")]
    pub to: String,
    pub subject: String,
    pub data: String,
    pub created_at: DateTime<Utc>,
}

impl Store {
    /// Stores a submission and queues its notification e-mail in one transaction, with no cap
    /// on the project's history. Returns false when a submission with the same uid was already
    /// stored (a replay).
    #[tracing::instrument(level = "debug", skip_all, fields(project_id = s.project_id.get()), err(level = "debug"))]
    pub async fn insert_submission(
        &self,
        s: &NewSubmission,
        mail: Option<Notification<'_>>,
    ) -> Result<bool> {
        Ok(self.store_submission(s, mail, i64::MAX).await?.new)
    }

    /// Stores a submission, in one transaction with the rest:
    /// - the project's history is kept to `max_entries` by deleting its oldest entries (what
    ///   was trimmed is counted for the owner's notice, see [`Store::form_history_usage`]);
    /// - its notification e-mail (`mail`) is queued only when the recipient is the project
    ///   owner's own sign-in address, confirmed (`users.email_confirmed_at`), or one its
    ///   mailbox confirmed for this project (`form_recipients`): the platform never mails an
    ///   address that did not agree to it;
    /// - and only while the recipient got fewer than `mail.per_recipient_per_hour`
    ///   notifications in the last hour, whatever the project (`capped` says it did not).
    ///
    /// A second insert of the same uid (a replay) changes nothing.
    #[tracing::instrument(level = "debug", skip(self, s, mail), fields(project_id = s.project_id.get()), err(level = "debug"))]
    pub async fn store_submission(
        &self,
        s: &NewSubmission,
        mail: Option<Notification<'_>>,
        max_entries: i64,
    ) -> Result<StoredSubmission> {
        self.store_submission_with_lead(s, mail, None, max_entries)
            .await
    }

    /// [`Store::store_submission`], and in the same transaction the site's conversion event
    /// (`lead`, its JSON) queued for the control plane's Conversion API worker.
    #[tracing::instrument(level = "debug", skip(self, s, mail, lead), fields(project_id = s.project_id.get()), err(level = "debug"))]
    pub async fn store_submission_with_lead(
        &self,
        s: &NewSubmission,
        mail: Option<Notification<'_>>,
        lead: Option<&str>,
        max_entries: i64,
    ) -> Result<StoredSubmission> {
        let postgres = matches!(self, Store::Postgres(_));
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let n = sqlx::query(
                "INSERT INTO form_history \
                 (project_id, uid, url, submit, to_addr, subject, data, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (uid) DO NOTHING")
                .bind(s.project_id).bind(&s.uid).bind(&s.url).bind(&s.submit).bind(&s.to)
                .bind(&s.subject).bind(&s.data).bind(s.created_at)
                .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
            let mut stored = StoredSubmission { new: n == 1, ..StoredSubmission::default() };
            if stored.new {
                let entries: i64 = sqlx::query_scalar(
                    "INSERT INTO form_history_usage (project_id, entries) \
                     VALUES ($1, 1) ON CONFLICT (project_id) DO UPDATE \
                     SET entries = form_history_usage.entries + 1 RETURNING entries")
                    .bind(s.project_id).fetch_one(&mut *tx).await.map_err(map_err)?;
                let excess = entries - max_entries.max(1);
                if excess > 0 {
                    stored.trimmed = sqlx::query(
                        "DELETE FROM form_history WHERE id IN (SELECT id FROM form_history \
                         WHERE project_id = $1 ORDER BY created_at, id LIMIT $2)")
                        .bind(s.project_id).bind(excess)
                        .execute(&mut *tx).await.map_err(map_err)?.rows_affected() as i64;
                    sqlx::query(
                        "UPDATE form_history_usage \
                         SET entries = entries - $2, trimmed = trimmed + $2, last_trimmed_at = $3 \
                         WHERE project_id = $1")
                        .bind(s.project_id).bind(stored.trimmed).bind(now())
                        .execute(&mut *tx).await.map_err(map_err)?;
                }
                if !s.to.is_empty() && let Some(mail) = mail {
                    let recipient = s.to.trim().to_lowercase();
                    let allowed: bool = sqlx::query_scalar(
                        "SELECT EXISTS (SELECT 1 FROM form_recipients r \
                           WHERE r.project_id = $1 AND r.email = $2 \
                             AND r.confirmed_at IS NOT NULL) \
                         OR EXISTS (SELECT 1 FROM projects p JOIN users u ON u.id = p.user_id \
                           WHERE p.id = $1 AND lower(u.email) = $2 \
                             AND u.email_confirmed_at IS NOT NULL)")
                        .bind(s.project_id).bind(&recipient)
                        .fetch_one(&mut *tx).await.map_err(map_err)?;
                    if allowed {
                        if postgres {
                            // One writer per recipient at a time on PostgreSQL, so concurrent
                            // submissions on any number of edges cannot slip past the cap
                            // between the count and the insert (SQLite's writer lock is held).
                            sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                                .bind(format!("outbox:{recipient}"))
                                .execute(&mut *tx).await.map_err(map_err)?;
                        }
                        let sent: i64 = sqlx::query_scalar(
                            "SELECT COUNT(*) FROM outbox WHERE recipient = $1 AND created_at > $2")
                            .bind(&recipient).bind(now() - chrono::Duration::hours(1))
                            .fetch_one(&mut *tx).await.map_err(map_err)?;
                        if sent >= mail.per_recipient_per_hour {
                            stored.capped = true;
                        } else {
                            sqlx::query(
                                "INSERT INTO outbox (to_addr, subject, body, html_body, \
                                 created_at, next_attempt_at, recipient) \
                                 VALUES ($1, $2, $3, $4, $5, $5, $6)")
                                .bind(&s.to).bind(mail.subject).bind(mail.text).bind(mail.html)
                                .bind(now()).bind(&recipient)
                                .execute(&mut *tx).await.map_err(map_err)?;
                            stored.notified = true;
                        }
                    }
                }
                if let Some(lead) = lead {
                    sqlx::query(
                        "INSERT INTO conversion_events \
                         (project_id, payload, created_at, next_attempt_at) \
                         VALUES ($1, $2, $3, $3)")
                        .bind(s.project_id).bind(lead).bind(now())
                        .execute(&mut *tx).await.map_err(map_err)?;
                }
            }
            tx.commit().await.map_err(map_err)?;
            Ok(stored)
        })
    }

    /// A project's submissions; `newest_first` follows the project's formHistoryOrderBy.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn list_submissions(
        &self,
        project_id: ProjectId,
        newest_first: bool,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Submission>, i64)> {
        self.search_submissions(
            project_id,
            &SubmissionFilter::default(),
            newest_first,
            limit,
            offset,
        )
        .await
    }

    /// The project's submissions that `filter` keeps, one page of them and how many there are.
    #[tracing::instrument(level = "debug", skip(self, filter), err(level = "debug"))]
    pub async fn search_submissions(
        &self,
        project_id: ProjectId,
        filter: &SubmissionFilter,
        newest_first: bool,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Submission>, i64)> {
        let dir = if newest_first { "DESC" } else { "ASC" };
        // Each condition is off when its parameter is NULL, so one statement serves every
        // combination. `data` holds escaped HTML, so it is searched for the escaped text.
        let conditions = "project_id = $1 \
             AND ($2 IS NULL OR created_at >= $2) AND ($3 IS NULL OR created_at < $3) \
             AND ($4 IS NULL OR lower(url) LIKE $4 ESCAPE '\\' \
                  OR lower(subject) LIKE $4 ESCAPE '\\' \
                  OR lower(submit) LIKE $4 ESCAPE '\\' OR lower(to_addr) LIKE $4 ESCAPE '\\' \
                  OR lower(data) LIKE $5 ESCAPE '\\')";
        let sql = format!(
            "SELECT id, project_id, url, submit, to_addr, subject, data, created_at \
             FROM form_history WHERE {conditions} \
             ORDER BY created_at {dir}, id {dir} LIMIT $6 OFFSET $7"
        );
        let count = format!("SELECT COUNT(*) FROM form_history WHERE {conditions}");
        let text = filter
            .text
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let raw = text.map(like_pattern);
        let escaped = text.map(|t| like_pattern(&crate::render::escape(t)));
        dispatch!(self, p => {
            let rows = sqlx::query_as::<_, Submission>(trusted(&sql))
                .bind(project_id).bind(filter.from).bind(filter.until).bind(&raw).bind(&escaped)
                .bind(limit).bind(offset)
                .fetch_all(p).await.map_err(map_err)?;
            let total = sqlx::query_scalar::<_, i64>(trusted(&count))
                .bind(project_id).bind(filter.from).bind(filter.until).bind(&raw).bind(&escaped)
                .fetch_one(p).await.map_err(map_err)?;
            Ok((rows, total))
        })
    }

    /// Deletes the given submissions of one project; ids of other projects are ignored.
    #[tracing::instrument(level = "debug", skip(self, ids), fields(ids = ids.len()), err(level = "debug"))]
    pub async fn delete_submissions(
        &self,
        project_id: ProjectId,
        ids: &[SubmissionId],
    ) -> Result<u64> {
        let mut deleted = 0;
        for chunk in ids.chunks(500) {
            let placeholders: Vec<String> = (2..chunk.len() + 2).map(|i| format!("${i}")).collect();
            let sql = format!(
                "DELETE FROM form_history WHERE project_id = $1 AND id IN ({})",
                placeholders.join(", ")
            );
            deleted += dispatch!(self, p => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                let mut q = sqlx::query(trusted(&sql)).bind(project_id);
                for id in chunk {
                    q = q.bind(id);
                }
                let n = q.execute(&mut *tx).await.map(|r| r.rows_affected()).map_err(map_err)?;
                sqlx::query(
                    "UPDATE form_history_usage \
                     SET entries = CASE WHEN entries > $2 THEN entries - $2 ELSE 0 END \
                     WHERE project_id = $1")
                    .bind(project_id).bind(n as i64)
                    .execute(&mut *tx).await.map_err(map_err)?;
                tx.commit().await.map_err(map_err)?;
                Ok::<_, StoreError>(n)
            })?;
        }
        Ok(deleted)
    }
}
