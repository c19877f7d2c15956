//! Server-side conversion events: a `Lead` for the Facebook Conversion API per form submission
//! of a site with the integration on. The edge queues the event in the submission's own
//! transaction ([`Store::store_submission_with_lead`]); the control plane's worker sends it with
//! the project's access token, which only the control plane reads, and retries like the mail
//! outbox ([`super::outbox::Queue`]).

use chrono::Duration;

use super::{Result, Store, dispatch, map_err, outbox::Queue};
use crate::ids::ProjectId;

/// A queued event: the project it belongs to and the event's JSON (without credentials).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ConversionEvent {
    pub id: i64,
    pub project_id: ProjectId,
    pub payload: String,
    pub attempts: i64,
}

impl Store {
    /// Claims up to `limit` due events, pushing their next attempt `lease` into the future.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn claim_due_conversions(
        &self,
        limit: i64,
        lease: Duration,
    ) -> Result<Vec<ConversionEvent>> {
        let sql = "SELECT id, project_id, payload, attempts FROM conversion_events WHERE id = $1";
        let mut claimed = Vec::new();
        for id in self.claim_due(Queue::Conversions, limit, lease).await? {
            claimed.extend(
                dispatch!(self, p => sqlx::query_as::<_, ConversionEvent>(sql)
                .bind(id).fetch_optional(p).await.map_err(map_err))?,
            );
        }
        Ok(claimed)
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mark_conversion_sent(&self, id: i64) -> Result<()> {
        self.mark_sent(Queue::Conversions, id).await
    }

    /// A failed attempt, retried later with back-off.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mark_conversion_failed(
        &self,
        id: i64,
        attempts_before: i64,
        error: &str,
    ) -> Result<()> {
        self.mark_failed(Queue::Conversions, id, attempts_before, error)
            .await
    }

    /// A refusal no retry can mend (a revoked token, an unknown pixel, the integration
    /// turned off): never tried again.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn give_up_conversion(&self, id: i64, error: &str) -> Result<()> {
        self.mark_given_up(Queue::Conversions, id, error).await
    }

    /// A project's events as `(payload, sent, last_error)`, oldest first (tests, support).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn conversions_of(
        &self,
        project_id: ProjectId,
    ) -> Result<Vec<(String, bool, Option<String>)>> {
        dispatch!(self, p => sqlx::query_as::<_, (String, bool, Option<String>)>(
            "SELECT payload, sent_at IS NOT NULL, last_error FROM conversion_events \
             WHERE project_id = $1 ORDER BY id")
            .bind(project_id).fetch_all(p).await.map_err(map_err))
    }
}
