//! Where a site's form notifications go (`meta.formEmail`), and the confirmation that keeps
//! the platform from being an open mail relay.
//!
//! An owner can type any address as the notification address, and a visitor decides what the
//! notifications say, so the platform must not mail an address whose mailbox never agreed to
//! it (Formspree and Netlify Forms ask the same). Setting or changing `formEmail` queues a
//! confirmation e-mail to that address with a link carrying a random token (only its hash is
//! stored, and a new request replaces it). Until the link is opened and confirmed, the edge
//! stores that site's submissions in its form history but queues no notification for them
//! (`Store::store_submission`). The owner's own sign-in address is confirmed once for the
//! account (`email_confirmation`): until then no notification goes there either.
//!
//! Confirmation e-mails are rationed so that they cannot be used to spam an address either:
//! at most [`MAX_REQUESTS_PER_ADDRESS`] per address and project, [`RESEND_AFTER`] apart, and
//! [`MAX_REQUESTS_PER_OWNER_PER_DAY`] new addresses a day across an owner's projects.
//!
//! The calls that read, set, resend and confirm the address are `routes::form_email`.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use vitrine_shared::language::Language;
use vitrine_shared::store::{FormRecipient, Project, now};

use super::Mail;
use crate::{
    accounts::auth,
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// Confirmation e-mails one address gets for one project, ever.
pub const MAX_REQUESTS_PER_ADDRESS: i64 = 5;
/// The least time between two confirmation e-mails to one address.
pub const RESEND_AFTER: Duration = Duration::minutes(10);
/// Addresses an owner can ask to confirm per day, across their projects.
pub const MAX_REQUESTS_PER_OWNER_PER_DAY: i64 = 20;
/// How long a confirmation link works.
pub const LINK_VALID_FOR: Duration = Duration::days(7);

/// Whether notifications reach the project's notification address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormEmailStatus {
    /// The owner's own sign-in address, confirmed.
    Owner,
    /// The owner's own address, whose account confirmation link was not opened yet: nothing is
    /// sent to it.
    OwnerUnconfirmed,
    /// Waiting for its mailbox to confirm: nothing is sent to it yet.
    Pending,
    Confirmed,
}

/// Where a project's form notifications go, and whether they are sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct FormEmailView {
    /// `meta.formEmail`; `null`: notifications go to the owner's own address.
    pub email: Option<String>,
    /// The address notifications are for.
    pub recipient: String,
    pub status: FormEmailStatus,
    /// When the last confirmation e-mail was queued (`pending` only; `null`: none could be
    /// sent yet, see `resend`).
    pub requested_at: Option<DateTime<Utc>>,
    pub confirmed_at: Option<DateTime<Utc>>,
}

/// The notification address `meta` names (`formEmail`), trimmed and lower-cased; `None`:
/// the owner's own.
pub fn address(meta: &Value) -> Option<String> {
    meta.get("formEmail")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_lowercase)
}

/// The project's notification address and its state.
pub async fn view(core: &Core, project: &Project) -> Result<FormEmailView> {
    let owner = core.store.user_by_id(project.user_id).await?;
    let email = address(&project.meta.0);
    let recipient = email.clone().unwrap_or_else(|| owner.email.to_lowercase());
    if recipient == owner.email.to_lowercase() {
        return Ok(FormEmailView {
            email,
            recipient,
            status: if owner.email_confirmed_at.is_some() {
                FormEmailStatus::Owner
            } else {
                FormEmailStatus::OwnerUnconfirmed
            },
            requested_at: None,
            confirmed_at: None,
        });
    }
    let row = core.store.form_recipient(project.id, &recipient).await?;
    let (status, requested_at, confirmed_at) = match &row {
        Some(FormRecipient {
            confirmed_at: Some(at),
            ..
        }) => (FormEmailStatus::Confirmed, None, Some(*at)),
        Some(r) => (FormEmailStatus::Pending, Some(r.requested_at), None),
        None => (FormEmailStatus::Pending, None, None),
    };
    Ok(FormEmailView {
        email,
        recipient,
        status,
        requested_at,
        confirmed_at,
    })
}

fn too_many(code: ErrorCode, message: &str, retry_after_secs: i64) -> ApiError {
    ApiError::too_many_requests(code, message, retry_after_secs.max(1) as u64)
}

/// Queues a confirmation e-mail for the project's notification address, unless it is the
/// owner's own or already confirmed. `resend`: also for an address already asked (the owner
/// pressed "resend"); otherwise an address asked before is left to its first e-mail.
pub async fn request_confirmation(mail: &Mail, project: &Project, resend: bool) -> Result<()> {
    let core = &mail.core;
    let view = view(core, project).await?;
    if view.status != FormEmailStatus::Pending {
        return Ok(());
    }
    let email = view.recipient;
    if let Some(row) = core.store.form_recipient(project.id, &email).await? {
        if !resend {
            return Ok(());
        }
        if row.requests >= MAX_REQUESTS_PER_ADDRESS {
            return Err(too_many(
                ErrorCode::FormEmailResendLimit,
                "This address was already sent every confirmation e-mail it can get; ask its owner to look for them (also in spam)",
                LINK_VALID_FOR.num_seconds(),
            ));
        }
        let wait = row.requested_at + RESEND_AFTER - now();
        if wait > Duration::zero() {
            return Err(too_many(
                ErrorCode::FormEmailTooSoon,
                "A confirmation e-mail was sent a moment ago; try again in a few minutes",
                wait.num_seconds(),
            ));
        }
    } else if core
        .store
        .form_recipient_requests_since(project.user_id, now() - Duration::days(1))
        .await?
        >= MAX_REQUESTS_PER_OWNER_PER_DAY
    {
        return Err(too_many(
            ErrorCode::FormEmailDailyLimit,
            "Too many new notification addresses today; try again tomorrow",
            Duration::hours(1).num_seconds(),
        ));
    }
    let owner = core.store.user_by_id(project.user_id).await?;
    let token = auth::new_token();
    core.store
        .request_form_recipient(project.id, &email, &auth::token_hash(&token))
        .await?;
    let link = confirm_link(&core.settings.public_url, &token);
    let (subject, body) = confirm_mail(owner.language, &project.name, &owner.email, &link);
    mail.enqueue(&email, subject, &body).await?;
    Ok(())
}

/// Asks for confirmation after `before` → `after` changed the project's notification
/// address (project create and update). A request the quotas refuse is logged, not an
/// error: the address stays pending and the owner can resend from the form settings.
pub async fn after_change(mail: &Mail, before: Option<&Value>, project: &Project) {
    let was = before.and_then(address);
    let now_set = address(&project.meta.0);
    if now_set.is_none() || was == now_set {
        return;
    }
    if let Err(e) = request_confirmation(mail, project, false).await {
        tracing::warn!(project = project.id.get(), error = %e, "form e-mail confirmation not sent");
    }
}

fn confirm_link(public_url: &str, token: &str) -> String {
    let mut url = url::Url::parse(public_url).expect("PUBLIC_URL is validated at start-up");
    url.set_path("/confirm-form-email");
    url.query_pairs_mut().append_pair("token", token);
    url.to_string()
}

fn confirm_mail(language: Language, site: &str, owner: &str, link: &str) -> (&'static str, String) {
    if language.is_english() {
        (
            "Confirm where a site's form messages go",
            format!(
                "Hello,\n\nThe owner of the site \"{site}\" ({owner}) on Vitrine asked for the messages its visitors send through its forms to be e-mailed to this address.\n\nIf you agree, confirm within 7 days:\n\n{link}\n\nIf you did not expect this, ignore this message: nothing will be sent to you.\n"
            ),
        )
    } else {
        (
            "Confirme para onde vão as mensagens do formulário de um site",
            format!(
                "Olá,\n\nO dono do site \"{site}\" ({owner}) na Vitrine pediu que as mensagens enviadas pelos formulários do site sejam encaminhadas para este endereço.\n\nSe você concorda, confirme em até 7 dias:\n\n{link}\n\nSe você não esperava por isso, ignore esta mensagem: nada será enviado para você.\n"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_notification_address_is_read_trimmed_and_lower_cased() {
        assert_eq!(address(&json!({})), None);
        assert_eq!(address(&json!({"formEmail": "  "})), None);
        assert_eq!(
            address(&json!({"formEmail": " Vendas@Loja.Example "})).as_deref(),
            Some("vendas@loja.example")
        );
    }

    #[test]
    fn the_link_carries_only_the_token() {
        let link = confirm_link("https://app.vitrine.site", "abc_-1");
        assert_eq!(
            link,
            "https://app.vitrine.site/confirm-form-email?token=abc_-1"
        );
    }
}
