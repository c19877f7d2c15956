//! What keeps one project's forms from costing the others: the per-project size of its form
//! history (kept by [`Store::store_submission`] and [`Store::delete_submissions`]) and the
//! notification addresses its owner set, with whether each mailbox confirmed it.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::{Result, Store, dispatch, map_err, now};
use crate::ids::{AccountId, ProjectId};

/// A project's form history size, and what the per-project cap removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, sqlx::FromRow, ToSchema)]
pub struct HistoryUsage {
    /// Entries kept.
    pub entries: i64,
    /// Oldest entries deleted so far to stay within the cap.
    pub trimmed: i64,
    /// When the cap last deleted entries.
    pub last_trimmed_at: Option<DateTime<Utc>>,
}

/// A notification address of a project and its confirmation state.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct FormRecipient {
    pub project_id: ProjectId,
    pub email: String,
    /// Confirmation e-mails sent to it for this project.
    pub requests: i64,
    /// When the last confirmation e-mail was queued.
    pub requested_at: DateTime<Utc>,
    pub confirmed_at: Option<DateTime<Utc>>,
}

const RECIPIENT_COLUMNS: &str = "project_id, email, requests, requested_at, confirmed_at";

impl Store {
    /// The project's form history size and trims (zeros before its first submission).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn form_history_usage(&self, project_id: ProjectId) -> Result<HistoryUsage> {
        let row = dispatch!(self, p => sqlx::query_as::<_, HistoryUsage>(
            "SELECT entries, trimmed, last_trimmed_at \
             FROM form_history_usage WHERE project_id = $1")
            .bind(project_id).fetch_optional(p).await.map_err(map_err))?;
        Ok(row.unwrap_or_default())
    }

    /// The address `email` (lower-case) of a project, if its owner ever set it.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn form_recipient(
        &self,
        project_id: ProjectId,
        email: &str,
    ) -> Result<Option<FormRecipient>> {
        let sql = format!(
            "SELECT {RECIPIENT_COLUMNS} FROM form_recipients WHERE project_id = $1 AND email = $2"
        );
        dispatch!(self, p => sqlx::query_as::<_, FormRecipient>(super::trusted(&sql))
            .bind(project_id).bind(email).fetch_optional(p).await.map_err(map_err))
    }

    /// Records that a confirmation e-mail with the token whose hash is `token_hash` is being
    /// sent to `email` for the project: a new pending address, or a new token for a pending
    /// one (the old link stops working). A confirmed address is left as it is.
    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn request_form_recipient(
        &self,
        project_id: ProjectId,
        email: &str,
        token_hash: &str,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO form_recipients (project_id, email, token_hash, requests, requested_at) \
             VALUES ($1, $2, $3, 1, $4) ON CONFLICT (project_id, email) DO UPDATE \
             SET token_hash = $3, requests = form_recipients.requests + 1, requested_at = $4 \
             WHERE form_recipients.confirmed_at IS NULL")
            .bind(project_id).bind(email).bind(token_hash).bind(now())
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Confirmation e-mails queued since `since` for the projects of `user_id` (the per-owner
    /// daily quota).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn form_recipient_requests_since(
        &self,
        user_id: AccountId,
        since: DateTime<Utc>,
    ) -> Result<i64> {
        dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM form_recipients r JOIN projects p ON p.id = r.project_id \
             WHERE p.user_id = $1 AND r.requested_at > $2")
            .bind(user_id).bind(since).fetch_one(p).await.map_err(map_err))
    }

    /// Confirms the address whose pending token hashes to `token_hash`, if it was requested
    /// within `valid_for`. Returns the confirmed address, `None` for an unknown, used or
    /// expired token.
    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn confirm_form_recipient(
        &self,
        token_hash: &str,
        valid_for: Duration,
    ) -> Result<Option<FormRecipient>> {
        let ts = now();
        let sql = format!(
            "UPDATE form_recipients SET confirmed_at = $1 \
             WHERE token_hash = $2 AND confirmed_at IS NULL AND requested_at > $3 \
             RETURNING {RECIPIENT_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, FormRecipient>(super::trusted(&sql))
            .bind(ts).bind(token_hash).bind(ts - valid_for)
            .fetch_optional(p).await.map_err(map_err))
    }
}
