//! The form e-mail calls of the form history's settings: read and set where a site's form
//! notifications go, resend the confirmation, and confirm an address from its link. The
//! rules, and the rations on confirmation e-mails, are [`crate::mail::form_recipients`]'s.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::store::ProjectChanges;

use crate::{
    accounts::auth::{self, CurrentUser},
    accounts::authz::authorized_project,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    mail::form_recipients::{FormEmailView, LINK_VALID_FOR, address, request_confirmation, view},
    projects::ProjectMetaInput,
    state::AppState,
};

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

#[utoipa::path(get, path = "/api/projects/{id}/form-email", tag = "form history",
    params(("id" = i64, Path, description = "Project id")),
    responses((status = 200, body = FormEmailView), (status = 404, body = ErrorBody)))]
pub async fn get_form_email(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(project_id): ApiPath<ProjectId>,
) -> Result<ApiJson<FormEmailView>> {
    let project = authorized_project(&state, &user, project_id).await?;
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
    ApiPath(project_id): ApiPath<ProjectId>,
    ApiJson(req): ApiJson<SetFormEmail>,
) -> Result<ApiJson<FormEmailView>> {
    let current = authorized_project(&state, &user, project_id).await?;
    let meta = ProjectMetaInput {
        form_email: Some(req.email),
        ..ProjectMetaInput::default()
    }
    .merge_into(&current.meta.0)?;
    let mut next = current.clone();
    next.meta.0 = meta.clone();
    let changed = address(&current.meta.0) != address(&meta);
    if changed {
        // Checked before anything is saved, so a refusal changes nothing.
        request_confirmation(&state.mail, &next, false).await?;
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
    ApiPath(project_id): ApiPath<ProjectId>,
) -> Result<ApiJson<FormEmailView>> {
    let project = authorized_project(&state, &user, project_id).await?;
    request_confirmation(&state.mail, &project, true).await?;
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
