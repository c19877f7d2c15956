//! Delivers the outbox over SMTP with lettre (the maintained Rust mail library; async on tokio,
//! rustls for `smtps://` and STARTTLS). With no `SMTP_URL`, a mail is written to the log, so a
//! local user can still follow a password-reset link.
//!
//! The mail it sends is grouped here: confirming an account's own address
//! ([`email_confirmation`]) and a site's form-notification address ([`form_recipients`]).
//!
//! [`Mail`] is the service: given the [`Core`], it owns the wake-up of its worker, so whoever
//! queues a mail through it ([`Mail::enqueue`]) has it sent at once rather than at the next
//! round. Delivering needs only the core ([`deliver_due`]).

pub mod email_confirmation;
pub mod form_recipients;

use std::{sync::Arc, time::Duration};

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{MultiPart, header::ContentType},
};
use tokio::sync::Notify;
use vitrine_shared::store::{OutboxMail, Result};

use crate::base::Core;

/// The mail service: given the [`Core`], it owns its worker's wake-up. Clones share it.
#[derive(Clone)]
pub struct Mail {
    core: Core,
    /// Wakes the worker when something is queued.
    wake: Arc<Notify>,
}

impl Mail {
    pub fn new(core: &Core) -> Self {
        Mail {
            core: core.clone(),
            wake: Arc::new(Notify::new()),
        }
    }

    /// Queues a mail in the outbox and wakes the worker to send it.
    pub async fn enqueue(&self, to: &str, subject: &str, body: &str) -> Result<()> {
        self.core.store.enqueue_mail(to, subject, body).await?;
        self.wake();
        Ok(())
    }

    /// Has the worker look at the outbox now (mail queued by someone else: the edge).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Runs until `shutdown` resolves: delivers due mail, then waits for a wake-up or 5 s.
    pub async fn run_worker(self, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        loop {
            if let Err(e) = deliver_due(&self.core).await {
                tracing::warn!(error = %e, "mail delivery round failed");
            }
            self.core.metrics.worker_round("mail");
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                _ = &mut shutdown => break,
            }
        }
    }
}

/// Sends every due mail once; returns how many were sent.
pub async fn deliver_due(core: &Core) -> anyhow::Result<usize> {
    let batch = core
        .store
        .claim_due_mail(20, chrono::Duration::minutes(5))
        .await?;
    if batch.is_empty() {
        return Ok(0);
    }
    let transport = match &core.settings.smtp_url {
        Some(url) if !url.is_empty() => Some(
            AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())?
                .timeout(Some(Duration::from_secs(15)))
                .build(),
        ),
        _ => None,
    };
    let mut sent = 0;
    for mail in batch {
        let result = match &transport {
            Some(t) => send(t, &core.settings.mail_from, &mail).await,
            None => {
                tracing::info!(to = %mail.to_addr, subject = %mail.subject, body = %mail.body,
                    "e-mail not sent: no SMTP server configured (VITRINE_SMTP_URL); its text follows");
                Ok(())
            }
        };
        match result {
            Ok(()) => {
                core.store.mark_mail_sent(mail.id).await?;
                sent += 1;
            }
            Err(e) => {
                tracing::warn!(id = mail.id, attempt = mail.attempts + 1, error = %e, "mail delivery failed; will retry");
                core.store
                    .mark_mail_failed(mail.id, mail.attempts, &e.to_string())
                    .await?;
            }
        }
    }
    Ok(sent)
}

async fn send(
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    from: &str,
    mail: &OutboxMail,
) -> anyhow::Result<()> {
    let builder = Message::builder()
        .from(from.parse()?)
        .to(mail.to_addr.parse()?)
        .subject(mail.subject.clone());
    // With an HTML version, multipart/alternative: mail clients show the HTML, and the text
    // part stays for those that show only text.
    let message = if mail.html_body.is_empty() {
        builder
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body.clone())?
    } else {
        builder.multipart(MultiPart::alternative_plain_html(
            mail.body.clone(),
            mail.html_body.clone(),
        ))?
    };
    transport.send(message).await?;
    Ok(())
}
