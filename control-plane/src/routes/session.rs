//! Accounts and sessions (spec 1 §7, spec 2 §7 "Session"): who am I, sign in, register,
//! sign out, forgotten password, new password; and the public dashboard configuration.

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use axum_extra::extract::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use vitrine_shared::{
    domain::{EMAIL_MESSAGE, Email, Invalid, new_password, required_text},
    language::Language,
    store::{NewUser, now},
};

use crate::{
    accounts::auth::{self, CurrentUser},
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ClientIp},
    mail::email_confirmation,
    responses::{MessageView, UserView},
    state::AppState,
    throttle::{self, too_many},
};

/// Password-reset mails one account is sent at most: one per this long (while its link is
/// still unused and unexpired).
pub const RESET_MAIL_EVERY: chrono::Duration = chrono::Duration::minutes(15);

/// The message shown for any failed sign-in, whatever was wrong.
pub const LOGIN_FAILED: &str = "invalid e-mail or password";

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RegisterRequest {
    pub name: String,
    pub email: String,
    pub password: String,
    /// Optional interface language, `pt-BR` (default) or `en`. Read as text, so that another
    /// value gets the coded `language_invalid` answer rather than a parse error.
    #[serde(default)]
    #[schema(value_type = Option<Language>)]
    pub language: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ForgotRequest {
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewPasswordRequest {
    pub email: String,
    pub password: String,
    pub token: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DemoCredentials {
    pub email: String,
    pub password: String,
}

/// Public settings the dashboard needs before anyone signs in.
#[derive(Debug, Serialize, ToSchema)]
pub struct PublicConfig {
    pub platform_domain: String,
    /// The preview address with `{slug}` to be replaced.
    pub preview_url_template: String,
    pub public_ip: String,
    pub cname_target: String,
    pub demo: Option<DemoCredentials>,
}

#[utoipa::path(get, path = "/api/config", tag = "session",
    responses((status = 200, body = PublicConfig)))]
pub async fn public_config(State(state): State<AppState>) -> ApiJson<PublicConfig> {
    let s = &state.settings;
    let demo = match (&s.demo_email, &s.demo_password) {
        (Some(email), Some(password)) => Some(DemoCredentials {
            email: email.clone(),
            password: password.expose().to_string(),
        }),
        _ => None,
    };
    ApiJson(PublicConfig {
        platform_domain: s.platform_domain(),
        preview_url_template: s.preview_url("{slug}"),
        public_ip: s.public_ip.clone(),
        cname_target: s.cname_target(),
        demo,
    })
}

#[utoipa::path(get, path = "/api/user", tag = "session",
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody)))]
pub async fn get_user(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<UserView>> {
    Ok(ApiJson(crate::responses::user_view(&state, &user).await?))
}

#[utoipa::path(post, path = "/api/login", tag = "session", request_body = LoginRequest,
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    jar: CookieJar,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<LoginRequest>,
) -> Result<impl IntoResponse> {
    let email = Email::parse(&req.email).ok();
    let s = &state.settings;
    // Taken before the password is checked (so concurrent guesses cannot all slip through)
    // and given back if it was right: only failures count.
    let attempt = state
        .throttle
        .take(&throttle::sign_in_keys(
            email.as_ref().map(Email::as_str),
            client,
            s.login_attempts_per_minute,
            s.login_failures_per_network_per_minute,
        ))
        .await
        .map_err(|r| too_many(r, ErrorCode::SignInRateLimited, "sign-in attempts"))?;
    let user = match &email {
        Some(e) => state.store.user_by_email(e.as_str()).await?,
        None => None,
    };
    // Verify against a dummy hash when there is no such user, so timing does not tell.
    let hash = user
        .as_ref()
        .map(|u| u.password_hash.clone())
        .unwrap_or_else(|| auth::DUMMY_HASH.clone());
    let ok = auth::verify_password(req.password, hash).await?;
    let Some(user) = user.filter(|_| ok) else {
        return Err(ApiError::refused(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::LoginFailed,
            LOGIN_FAILED,
        ));
    };
    state.throttle.give_back(attempt).await;
    let jar = auth::start_session(&state, jar, user.id, None).await?;
    Ok((jar, ApiJson(UserView::new(&user, None))))
}

#[utoipa::path(post, path = "/api/register", tag = "session", request_body = RegisterRequest,
    responses((status = 201, body = UserView), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
    jar: CookieJar,
    ApiJson(req): ApiJson<RegisterRequest>,
) -> Result<impl IntoResponse> {
    let name = required_text(
        "name",
        Some(&req.name),
        120,
        ErrorCode::Required,
        "Name is required",
    )?;
    let email = Email::parse(&req.email)?;
    let password = new_password(&req.password)?;
    let language = match req.language.as_deref() {
        None => Language::default(),
        Some(tag) => tag.parse::<Language>().map_err(|_| {
            Invalid::new(
                "language",
                ErrorCode::LanguageInvalid,
                "Language must be pt-BR or en",
            )
        })?,
    };
    let password_hash = auth::hash_password(password).await?;
    let user = state
        .store
        .insert_user(&NewUser {
            name: &name,
            email: email.as_str(),
            password_hash: &password_hash,
            language,
            is_admin: false,
        })
        .await?;
    // The address is not confirmed yet: no notification mail goes to it until its link is
    // opened (`email_confirmation`).
    email_confirmation::request(&state.mail, &user, false).await?;
    let jar = auth::start_session(&state, jar, user.id, None).await?;
    Ok((
        StatusCode::CREATED,
        jar,
        ApiJson(UserView::new(&user, None)),
    ))
}

#[utoipa::path(get, path = "/api/logout", tag = "session", responses((status = 204)))]
pub async fn logout(State(state): State<AppState>, jar: CookieJar) -> Result<impl IntoResponse> {
    let jar = auth::end_session(&state, jar).await?;
    Ok((StatusCode::NO_CONTENT, jar))
}

/// Always answers the same, whether or not the account exists and whether or not a mail was
/// sent, so it cannot be used to find out who has an account. The link is e-mailed through
/// the outbox, at most once per account per [`RESET_MAIL_EVERY`].
#[utoipa::path(post, path = "/api/forgot", tag = "session", request_body = ForgotRequest,
    responses((status = 200, body = MessageView), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn forgot(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<ForgotRequest>,
) -> Result<ApiJson<MessageView>> {
    let email = Email::parse(&req.email)
        .map_err(|_| Invalid::new("email", ErrorCode::EmailInvalid, EMAIL_MESSAGE))?;
    let s = &state.settings;
    // Keyed per (account, client network) as sign-in is, so a flood from one network never
    // refuses the owner's own request from another; the mail itself is rationed per account
    // below, whatever the network.
    let _counted = state
        .throttle
        .take(&throttle::reset_keys(
            email.as_str(),
            client,
            s.login_attempts_per_minute,
            s.login_failures_per_network_per_minute,
        ))
        .await
        .map_err(|r| too_many(r, ErrorCode::ResetRateLimited, "password-reset requests"))?;
    if let Some(user) = state.store.user_by_email(email.as_str()).await? {
        let token = auth::new_token();
        let ttl = chrono::Duration::seconds(state.settings.reset_token_ttl_secs as i64);
        // At most one mail per account per RESET_MAIL_EVERY: while the last link is unused
        // and unexpired, nothing new is sent (the same answer, so nothing is told).
        if state
            .store
            .insert_password_reset_unless_outstanding(
                &auth::token_hash(&token),
                user.id,
                now() - RESET_MAIL_EVERY,
                now() + ttl,
            )
            .await?
        {
            let link = reset_link(&state.settings.public_url, email.as_str(), &token);
            let (subject, body) = reset_mail(user.language, &user.name, &link);
            state.mail.enqueue(email.as_str(), subject, &body).await?;
        }
    }
    Ok(ApiJson(MessageView::new("mensagem enviada")))
}

fn reset_link(public_url: &str, email: &str, token: &str) -> String {
    let mut url = url::Url::parse(public_url).expect("PUBLIC_URL is validated at start-up");
    url.set_path("/new-password");
    url.query_pairs_mut()
        .append_pair("email", email)
        .append_pair("token", token);
    url.to_string()
}

fn reset_mail(language: Language, name: &str, link: &str) -> (&'static str, String) {
    if language.is_english() {
        (
            "Reset your Vitrine password",
            format!(
                "Hello {name},\n\nSomeone asked to reset your Vitrine password. To choose a new one, open this link within an hour:\n\n{link}\n\nIf it wasn't you, ignore this message; your password stays the same.\n"
            ),
        )
    } else {
        (
            "Redefina sua senha da Vitrine",
            format!(
                "Olá {name},\n\nRecebemos um pedido para redefinir sua senha da Vitrine. Para escolher uma nova, abra este link em até uma hora:\n\n{link}\n\nSe não foi você, ignore esta mensagem; sua senha continua a mesma.\n"
            ),
        )
    }
}

#[utoipa::path(post, path = "/api/new-password", tag = "session", request_body = NewPasswordRequest,
    responses((status = 200, body = MessageView), (status = 422, body = ErrorBody)))]
pub async fn new_password_route(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<NewPasswordRequest>,
) -> Result<ApiJson<MessageView>> {
    let invalid_link = || {
        ApiError::invalid(
            "token",
            ErrorCode::ResetLinkInvalid,
            "This password reset link is invalid or has expired",
        )
    };
    let email = Email::parse(&req.email).map_err(|_| invalid_link())?;
    let password = new_password(&req.password)?;
    let user = state
        .store
        .user_by_email(email.as_str())
        .await?
        .ok_or_else(invalid_link)?;
    let hash = auth::hash_password(password).await?;
    if !state
        .store
        .consume_password_reset(&auth::token_hash(req.token.trim()), user.id, &hash)
        .await?
    {
        return Err(invalid_link());
    }
    Ok(ApiJson(MessageView::new("New password successfully set")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reset_links_carry_email_and_token_escaped() {
        let link = reset_link("https://app.vitrine.site", "a+b@example.com", "tok_en-1");
        assert_eq!(
            link,
            "https://app.vitrine.site/new-password?email=a%2Bb%40example.com&token=tok_en-1"
        );
    }
}
