//! The Facebook Conversion API: a server-side `Lead` event for each form submission of a site
//! whose owner turned the integration on (Integrations: access token and pixel id).
//!
//! The edge queues each event, without credentials, in the submission's own transaction
//! (`conversion_events`; the edge never sees the access token). This worker sends the queued
//! events to `{CONVERSION_API_URL}/{pixel id}/events` with the project's current token, as
//! Meta's Graph API takes them (`{"data": [event], "access_token": …}`), and retries like the
//! mail outbox: a network error, a 429 or a 5xx is tried again with back-off; any other refusal
//! (a revoked token, an unknown pixel) and an integration turned off since are given up at once,
//! the reason kept with the event. Each event is sent with the credentials of the project it
//! was queued for, read from the store when it is sent, never from the event.
//!
//! `CONVERSION_API_URL` is a platform setting (Graph API by default; a local stand-in in the
//! tests), never an owner's, so no site owner can point the control plane at another address.
//!
//! [`Conversions`] is the service: given the [`Core`], it owns the HTTP client it sends with.
//! No route calls it; the server starts its worker.

use std::time::Duration;

use serde_json::{Value, json};
use vitrine_shared::store::ConversionEvent;

use crate::{base::Core, projects::meta::credentials};

/// Events claimed per round, and how long a claim holds before another worker may retry it.
const BATCH: i64 = 20;
const LEASE_MINUTES: i64 = 5;

/// The Conversion API service: given the [`Core`], it owns its HTTP client.
#[derive(Clone)]
pub struct Conversions {
    core: Core,
    client: reqwest::Client,
}

impl Conversions {
    /// The service, or why no event can be sent (no HTTP client).
    pub fn new(core: &Core) -> reqwest::Result<Self> {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(15))
            .no_proxy()
            .build()?;
        Ok(Conversions {
            core: core.clone(),
            client,
        })
    }

    /// Runs until `shutdown` resolves: sends due events, then waits 5 s.
    pub async fn run_worker(self, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        loop {
            if let Err(e) = self.deliver_due().await {
                tracing::warn!(error = %e, "conversion event round failed");
            }
            self.core.metrics.worker_round("conversions");
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                _ = &mut shutdown => break,
            }
        }
    }

    /// Sends every due event once; returns how many were accepted.
    pub async fn deliver_due(&self) -> anyhow::Result<usize> {
        deliver_due(&self.core, &self.client).await
    }
}

/// What became of one event.
enum Sent {
    Yes,
    Retry(String),
    GiveUp(String),
}

async fn deliver_due(core: &Core, client: &reqwest::Client) -> anyhow::Result<usize> {
    let batch = core
        .store
        .claim_due_conversions(BATCH, chrono::Duration::minutes(LEASE_MINUTES))
        .await?;
    let mut sent = 0;
    for event in batch {
        match send(core, client, &event).await? {
            Sent::Yes => {
                core.store.mark_conversion_sent(event.id).await?;
                sent += 1;
            }
            Sent::Retry(why) => {
                tracing::warn!(id = event.id, project = event.project_id.get(), error = %why, "conversion event failed; will retry");
                core.store
                    .mark_conversion_failed(event.id, event.attempts, &why)
                    .await?;
            }
            Sent::GiveUp(why) => {
                tracing::info!(id = event.id, project = event.project_id.get(), error = %why, "conversion event given up");
                core.store.give_up_conversion(event.id, &why).await?;
            }
        }
    }
    Ok(sent)
}

async fn send(
    core: &Core,
    client: &reqwest::Client,
    event: &ConversionEvent,
) -> anyhow::Result<Sent> {
    let project = match core.store.project_by_id(event.project_id).await {
        Ok(p) => p,
        Err(vitrine_shared::store::StoreError::NotFound) => {
            return Ok(Sent::GiveUp("the project no longer exists".into()));
        }
        Err(e) => return Err(e.into()),
    };
    let Some((token, pixel)) = credentials(&project.meta.0) else {
        return Ok(Sent::GiveUp(
            "the Conversion API is off for this site".into(),
        ));
    };
    let Ok(data) = serde_json::from_str::<Value>(&event.payload) else {
        return Ok(Sent::GiveUp("the queued event is not JSON".into()));
    };
    let base = core.settings.conversion_api_url.trim_end_matches('/');
    let answer = client
        .post(format!("{base}/{pixel}/events"))
        .json(&json!({ "data": [data], "access_token": token }))
        .send()
        .await;
    let answer = match answer {
        Ok(a) => a,
        Err(e) => return Ok(Sent::Retry(e.without_url().to_string())),
    };
    let status = answer.status();
    if status.is_success() {
        return Ok(Sent::Yes);
    }
    // Meta explains a refusal in `error.message`; keep a bounded copy for the owner.
    let body = answer.text().await.unwrap_or_default();
    let message = serde_json::from_str::<Value>(&body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
        .unwrap_or(body);
    let why = format!(
        "{status}: {}",
        message.chars().take(300).collect::<String>()
    );
    Ok(if status.as_u16() == 429 || status.is_server_error() {
        Sent::Retry(why)
    } else {
        Sent::GiveUp(why)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_integration_is_on_only_with_a_token_a_numeric_pixel_and_not_turned_off() {
        let on = json!({"conversionApiAccessToken": " EAAB ", "conversionApiPixelId": "123"});
        assert_eq!(credentials(&on), Some(("EAAB", "123")));
        let mut off = on.clone();
        off["conversionApiEnabled"] = json!(false);
        assert_eq!(credentials(&off), None);
        assert_eq!(credentials(&json!({"conversionApiPixelId": "123"})), None);
        assert_eq!(
            credentials(
                &json!({"conversionApiAccessToken": "t", "conversionApiPixelId": "12/../x"})
            ),
            None,
            "the pixel id goes into the URL's path: digits only"
        );
    }
}
