//! Where a site's form notifications go (`meta.formEmail`), and the confirmation that keeps
//! the platform from being an open mail relay.
//!
//! An owner can type any address as the notification address, and a visitor decides what the
//! notifications say, so the platform must not mail an address whose mailbox never agreed to
//! it (Formspree and Netlify Forms ask the same). Setting or changing `formEmail` queues a
//! confirmation e-mail to that address with a link carrying a random token (only its hash is
//! stored, and a new request replaces it). Until the link is opened and confirmed, the edge
//! stores that site's submissions in its form history but queues no notification for them
//! (`Store::store_submission`). The owner's own sign-in address needs no confirmation.
//!
//! Confirmation e-mails are rationed so that they cannot be used to spam an address either:
//! at most [`MAX_REQUESTS_PER_ADDRESS`] per address and project, [`RESEND_AFTER`] apart, and
//! [`MAX_REQUESTS_PER_OWNER_PER_DAY`] new addresses a day across an owner's projects.

use axum::extract::State;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use vitrine_shared::store::{FormRecipient, Project, ProjectChanges, now};

use crate::{
    auth::{self, CurrentUser},
    authz::authorize_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    routes::projects::ProjectMetaInput,
    state::AppState,
};

/// Confirmation e-mails one address gets for one project, ever.
pub const MAX_REQUESTS_PER_ADDRESS: i64 = 5;
/// The least time between two confirmation e-mails to one address.
pub const RESEND_AFTER: Duration = Duration::minutes(10);
/// Addresses an owner can ask to confirm per day, across their projects.
pub const MAX_REQUESTS_PER_OWNER_PER_DAY: i64 = 20;
/// How long a confirmation link works.
pub const LINK_VALID_FOR: Duration = Duration::days(7);

/// Where a project's form notifications go, and whether they are sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct FormEmailView {
    /// `meta.formEmail`; `null`: notifications go to the owner's own address.
    pub email: Option<String>,
    /// The address notifications are for.
    pub recipient: String,
    /// `owner` (the owner's own address, always sent), `pending` (waiting for its mailbox to
    /// confirm: nothing is sent to it yet) or `confirmed`.
    pub status: &'static str,
    /// When the last confirmation e-mail was queued (`pending` only; `null`: none could be
    /// sent yet, see `resend`).
    pub requested_at: Option<DateTime<Utc>>,
    pub confirmed_at: Option<DateTime<Utc>>,
}

/// The body of `POST /api/projects/{id}/form-email`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SetFormEmail {
    /// The address; empty: the owner's own address.
    pub email: String,
}

/// The body of `POST /api/form-email/confirm`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmFormEmail {
    /// The token from the confirmation link.
    pub token: String,
}

/// What was confirmed.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConfirmedFormEmail {
    pub email: String,
    /// The site whose form notifications now go to it.
    pub site: String,
}

fn form_email(meta: &Value) -> Option<String> {
    meta.get("formEmail")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_lowercase)
}

/// The project's notification address and its state.
pub async fn view(state: &AppState, project: &Project) -> Result<FormEmailView> {
    let owner = state.store.user_by_id(project.user_id).await?;
    let email = form_email(&project.meta.0);
    let recipient = email.clone().unwrap_or_else(|| owner.email.to_lowercase());
    if recipient == owner.email.to_lowercase() {
        return Ok(FormEmailView {
            email,
            recipient,
            status: "owner",
            requested_at: None,
            confirmed_at: None,
        });
    }
    let row = state.store.form_recipient(project.id, &recipient).await?;
    let (status, requested_at, confirmed_at) = match &row {
        Some(FormRecipient {
            confirmed_at: Some(at),
            ..
        }) => ("confirmed", None, Some(*at)),
        Some(r) => ("pending", Some(r.requested_at), None),
        None => ("pending", None, None),
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
pub async fn request_confirmation(state: &AppState, project: &Project, resend: bool) -> Result<()> {
    let view = view(state, project).await?;
    if view.status != "pending" {
        return Ok(());
    }
    let email = view.recipient;
    if let Some(row) = state.store.form_recipient(project.id, &email).await? {
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
    } else if state
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
    let owner = state.store.user_by_id(project.user_id).await?;
    let token = auth::new_token();
    state
        .store
        .request_form_recipient(project.id, &email, &auth::token_hash(&token))
        .await?;
    let link = confirm_link(&state.settings.public_url, &token);
    let (subject, body) = confirm_mail(&owner.language, &project.name, &owner.email, &link);
    state.store.enqueue_mail(&email, subject, &body).await?;
    state.mail_wake.notify_one();
    Ok(())
}

/// Asks for confirmation after `before` → `after` changed the project's notification
/// address (project create and update). A request the quotas refuse is logged, not an
/// error: the address stays pending and the owner can resend from the form settings.
pub async fn after_change(state: &AppState, before: Option<&Value>, project: &Project) {
    let was = before.and_then(form_email);
    let now_set = form_email(&project.meta.0);
    if now_set.is_none() || was == now_set {
        return;
    }
    if let Err(e) = request_confirmation(state, project, false).await {
        tracing::warn!(project = project.id, error = %e, "form e-mail confirmation not sent");
    }
}

fn confirm_link(public_url: &str, token: &str) -> String {
    let mut url = url::Url::parse(public_url).expect("PUBLIC_URL is validated at start-up");
    url.set_path("/confirm-form-email");
    url.query_pairs_mut().append_pair("token", token);
    url.to_string()
}

fn confirm_mail(language: &str, site: &str, owner: &str, link: &str) -> (&'static str, String) {
    if language == "en" {
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

#[utoipa::path(get, path = "/api/projects/{id}/form-email", tag = "form history",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = FormEmailView), (status = 404, body = ErrorBody)))]
pub async fn get_form_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
) -> Result<ApiJson<FormEmailView>> {
    authorize_project(&state, &user, project_id).await?;
    let project = state.store.project_by_id(project_id).await?;
    Ok(ApiJson(view(&state, &project).await?))
}

/// Sets the notification address (empty: the owner's own) and sends it a confirmation
/// e-mail. Nothing is saved when the confirmation quota is spent.
#[utoipa::path(post, path = "/api/projects/{id}/form-email", tag = "form history", request_body = SetFormEmail,
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = FormEmailView), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn set_form_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
    ApiJson(req): ApiJson<SetFormEmail>,
) -> Result<ApiJson<FormEmailView>> {
    authorize_project(&state, &user, project_id).await?;
    let current = state.store.project_by_id(project_id).await?;
    let meta = ProjectMetaInput {
        form_email: Some(req.email),
        ..ProjectMetaInput::default()
    }
    .merge_into(&current.meta.0)?;
    let mut next = current.clone();
    next.meta.0 = meta.clone();
    let changed = form_email(&current.meta.0) != form_email(&meta);
    if changed {
        // Checked before anything is saved, so a refusal changes nothing.
        request_confirmation(&state, &next, false).await?;
    }
    let project = state
        .store
        .update_project(
            project_id,
            &ProjectChanges {
                meta: Some(meta),
                ..ProjectChanges::default()
            },
        )
        .await?;
    Ok(ApiJson(view(&state, &project).await?))
}

/// Sends the confirmation e-mail again (a new link; the old one stops working).
#[utoipa::path(post, path = "/api/projects/{id}/form-email/resend", tag = "form history",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = FormEmailView), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn resend_form_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<i64>,
) -> Result<ApiJson<FormEmailView>> {
    authorize_project(&state, &user, project_id).await?;
    let project = state.store.project_by_id(project_id).await?;
    request_confirmation(&state, &project, true).await?;
    Ok(ApiJson(view(&state, &project).await?))
}

/// Confirms a notification address from the link in its confirmation e-mail. Public: whoever
/// reads that mailbox holds the token, and only they can agree.
#[utoipa::path(post, path = "/api/form-email/confirm", tag = "form history", request_body = ConfirmFormEmail,
    responses((status = 200, body = ConfirmedFormEmail), (status = 422, body = ErrorBody)))]
pub async fn confirm_form_email(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ConfirmFormEmail>,
) -> Result<ApiJson<ConfirmedFormEmail>> {
    let invalid = || {
        ApiError::invalid(
            "token",
            ErrorCode::FormEmailLinkInvalid,
            "This confirmation link is invalid, was replaced by a newer one or has expired",
        )
    };
    let token = req.token.trim();
    if token.is_empty() || token.len() > 200 {
        return Err(invalid());
    }
    let confirmed = state
        .store
        .confirm_form_recipient(&auth::token_hash(token), LINK_VALID_FOR)
        .await?
        .ok_or_else(invalid)?;
    let project = state.store.project_by_id(confirmed.project_id).await?;
    Ok(ApiJson(ConfirmedFormEmail {
        email: confirmed.email,
        site: project.name,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_notification_address_is_read_trimmed_and_lower_cased() {
        assert_eq!(form_email(&json!({})), None);
        assert_eq!(form_email(&json!({"formEmail": "  "})), None);
        assert_eq!(
            form_email(&json!({"formEmail": " Vendas@Loja.Example "})).as_deref(),
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
