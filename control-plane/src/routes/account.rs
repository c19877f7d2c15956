//! The signed-in user's own account (spec 2 §2 "Account screen", §7 "Billing"): settings,
//! plans, balance and transaction history; and the administrator's users screen with
//! 'login as' (spec 2 §7 "Administrator"), recorded in the audit log.
//!
//! Money is `Money`, integer minor units with its currency, written to the API as the minor
//! units beside the currency code. An account's currency is fixed once it has transactions,
//! so its balance is always in one currency.

use axum::{extract::State, response::IntoResponse};
use axum_extra::extract::CookieJar;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use vitrine_shared::ids::AccountId;
use vitrine_shared::{
    billing::{Month, PLANS, PlanPrice},
    domain::{new_password, required_text},
    language::Language,
    money::{Currency, Money, serialize_minor},
    store::PasswordChange,
};

use crate::{
    accounts::auth::{self, Admin, CurrentUser},
    base::Core,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath, ClientIp},
    mail::email_confirmation,
    responses::{MessageView, TransactionView, UserView, user_view},
    state::AppState,
    throttle::{self, too_many},
};

/// `POST /api/user`: any of the account's own settings.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AccountUpdate {
    pub name: Option<String>,
    /// `pt-BR` or `en`. Read as text, so that another value gets the coded
    /// `language_invalid` answer rather than a parse error (and `currency_invalid` below).
    #[schema(value_type = Option<Language>)]
    pub language: Option<String>,
    /// `BRL` or `USD`; fixed once the account has transactions.
    #[schema(value_type = Option<Currency>)]
    pub currency: Option<String>,
}

#[utoipa::path(post, path = "/api/user", tag = "account", request_body = AccountUpdate,
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn update_account(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(req): ApiJson<AccountUpdate>,
) -> Result<ApiJson<UserView>> {
    let name = match &req.name {
        Some(n) => required_text(
            "name",
            Some(n),
            200,
            ErrorCode::Required,
            "Name is required",
        )?,
        None => user.name.clone(),
    };
    let language = match req.language.as_deref() {
        None => user.language,
        Some(tag) => tag.parse::<Language>().map_err(|_| {
            ApiError::invalid(
                "language",
                ErrorCode::LanguageInvalid,
                "Language must be pt-BR or en",
            )
        })?,
    };
    let currency = match req.currency.as_deref() {
        None => user.currency,
        Some(code) => code.parse::<Currency>().map_err(|_| {
            ApiError::invalid(
                "currency",
                ErrorCode::CurrencyInvalid,
                "Currency must be BRL or USD",
            )
        })?,
    };
    if currency != user.currency && state.store.has_transactions(user.id).await? {
        return Err(ApiError::conflict(
            "currency",
            ErrorCode::CurrencyLocked,
            "The currency cannot change once the account has transactions",
        ));
    }
    let updated = state
        .store
        .update_account(user.id, &name, language, currency)
        .await?;
    let current = CurrentUser {
        user: updated,
        impersonator_id: user.impersonator_id,
    };
    Ok(ApiJson(user_view(&state, &current).await?))
}

/// `POST /api/user/password`: the signed-in user's own password change.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PasswordChangeRequest {
    pub current_password: String,
    pub new_password: String,
}

/// Changes the password when the current one is right, and ends every other session of the
/// account (the one that asked stays signed in), as GitHub and Google do. Wrong current
/// passwords count against the sign-in limiter, so a stolen session cannot guess it at leisure.
/// An administrator signed in as the user ("login as") cannot change it.
#[utoipa::path(post, path = "/api/user/password", tag = "account", request_body = PasswordChangeRequest,
    responses((status = 200, body = MessageView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    jar: CookieJar,
    user: CurrentUser,
    ClientIp(client): ClientIp,
    ApiJson(req): ApiJson<PasswordChangeRequest>,
) -> Result<ApiJson<MessageView>> {
    if user.impersonator_id.is_some() {
        return Err(ApiError::forbidden(
            ErrorCode::PasswordChangeImpersonated,
            "An administrator signed in as this user cannot change their password",
        ));
    }
    let s = &state.settings;
    let attempt = state
        .throttle
        .take(&throttle::sign_in_keys(
            Some(&user.email),
            client,
            s.login_attempts_per_minute,
            s.login_failures_per_network_per_minute,
        ))
        .await
        .map_err(|r| too_many(r, ErrorCode::SignInRateLimited, "sign-in attempts"))?;
    if !auth::verify_password(req.current_password, user.password_hash.clone()).await? {
        return Err(ApiError::invalid(
            "current_password",
            ErrorCode::CurrentPasswordWrong,
            "The current password is not right",
        ));
    }
    state.throttle.give_back(attempt).await;
    let password = new_password(&req.new_password).map_err(|mut e| {
        e.field = "new_password";
        ApiError::from(e)
    })?;
    let keep = auth::session_hash(&jar).ok_or(ApiError::Unauthorized)?;
    let hash = auth::hash_password(password).await?;
    state
        .store
        .update_user_identity(
            user.id,
            &user.name,
            &user.email,
            Some(PasswordChange {
                hash: &hash,
                keep_session: Some(&keep),
            }),
        )
        .await?;
    Ok(ApiJson(MessageView::new("Password changed")))
}

#[utoipa::path(get, path = "/api/plans", tag = "account",
    responses((status = 200, body = Vec<PlanPrice>)))]
pub async fn plans() -> ApiJson<&'static [PlanPrice]> {
    ApiJson(PLANS)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Balance {
    /// Minor units; negative when the account owes.
    pub amount: i64,
    pub currency: Currency,
}

#[utoipa::path(get, path = "/api/transactions/balance", tag = "account",
    responses((status = 200, body = Balance), (status = 401, body = ErrorBody)))]
pub async fn balance(State(state): State<AppState>, user: CurrentUser) -> Result<ApiJson<Balance>> {
    let amount = state.store.balance(user.id, user.currency).await?.minor();
    Ok(ApiJson(Balance {
        amount,
        currency: user.currency,
    }))
}

/// `GET /api/user/storage`: what the account keeps against its fair share (docs/security.md,
/// "Storage"). The account is the business for its members, who share one quota.
#[derive(Debug, Serialize, ToSchema)]
pub struct StorageView {
    /// Bytes of uploaded files the account keeps.
    pub bytes: i64,
    /// `STORAGE_QUOTA_BYTES`.
    pub max_bytes: u64,
    /// Uploaded files the account keeps.
    pub files: i64,
    /// `STORAGE_QUOTA_OBJECTS`.
    pub max_files: u64,
    /// Records of every collection of the account's projects.
    pub records: i64,
    /// `RECORDS_PER_ACCOUNT`.
    pub max_records: u64,
    /// `UPLOADS_PER_MINUTE`.
    pub uploads_per_minute: u32,
    /// Whether the account is a business's, shared by its members.
    pub business: bool,
}

#[utoipa::path(get, path = "/api/user/storage", tag = "account",
    responses((status = 200, body = StorageView), (status = 401, body = ErrorBody)))]
pub async fn storage(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<StorageView>> {
    let usage = state.store.storage_usage(user.id).await?;
    let s = &state.settings;
    Ok(ApiJson(StorageView {
        bytes: usage.bytes,
        max_bytes: s.storage_quota_bytes,
        files: usage.objects,
        max_files: s.storage_quota_objects,
        records: usage.records,
        max_records: s.records_per_account,
        uploads_per_minute: s.uploads_per_minute,
        business: user.business_id.is_some(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DayTotal {
    /// `yyyy-mm-dd` (UTC).
    pub date: String,
    #[serde(serialize_with = "serialize_minor")]
    #[schema(value_type = i64)]
    pub total: Money,
    pub count: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MonthHistory {
    pub month: String,
    pub currency: Currency,
    pub total: i64,
    /// Only days with transactions, in order.
    pub days: Vec<DayTotal>,
}

fn month_of(raw: &str) -> Result<Month> {
    Month::parse(raw).ok_or_else(|| {
        ApiError::invalid(
            "month",
            ErrorCode::MonthInvalid,
            "The month must be yyyy-mm",
        )
    })
}

#[utoipa::path(get, path = "/api/transactions/{month}", tag = "account",
    params(("month" = String, Path, description = "yyyy-mm")),
    responses((status = 200, body = MonthHistory), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn month_history(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(month): ApiPath<String>,
) -> Result<ApiJson<MonthHistory>> {
    let month = month_of(&month)?;
    let rows = state
        .store
        .transactions_between(user.id, month.start(), month.end())
        .await?;
    let currency = user.currency;
    let mut days: Vec<DayTotal> = Vec::new();
    for t in rows.iter().filter(|t| t.amount.currency() == currency) {
        let date = t.created_at.format("%Y-%m-%d").to_string();
        match days.last_mut() {
            Some(d) if d.date == date => {
                d.total = d.total.checked_add(t.amount).map_err(anyhow::Error::from)?;
                d.count += 1;
            }
            _ => days.push(DayTotal {
                date,
                total: t.amount,
                count: 1,
            }),
        }
    }
    let total = Money::sum(currency, days.iter().map(|d| d.total))
        .map_err(anyhow::Error::from)?
        .minor();
    Ok(ApiJson(MonthHistory {
        month: month.to_string(),
        currency,
        total,
        days,
    }))
}

#[utoipa::path(get, path = "/api/transactions/{month}/{day}", tag = "account",
    params(("month" = String, Path, description = "yyyy-mm"), ("day" = String, Path, description = "dd")),
    responses((status = 200, body = Vec<TransactionView>), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn day_history(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((month, day)): ApiPath<(String, String)>,
) -> Result<ApiJson<Vec<TransactionView>>> {
    let (from, to) = month_of(&month)?.day(&day).ok_or_else(|| {
        ApiError::invalid(
            "day",
            ErrorCode::DayInvalid,
            "The day must be dd, within the month",
        )
    })?;
    let rows = state.store.transactions_between(user.id, from, to).await?;
    Ok(ApiJson(rows.iter().map(TransactionView::from).collect()))
}

/// One row of the administrator's users screen.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserRow {
    #[schema(value_type = i64)]
    pub id: AccountId,
    pub created_at: DateTime<Utc>,
    pub name: String,
    pub email: String,
}

#[utoipa::path(get, path = "/api/users", tag = "admin",
    responses((status = 200, body = Vec<UserRow>), (status = 403, body = ErrorBody)))]
pub async fn list_users(
    State(state): State<AppState>,
    _admin: Admin,
) -> Result<ApiJson<Vec<UserRow>>> {
    Ok(ApiJson(
        state
            .store
            .list_users()
            .await?
            .into_iter()
            .map(|u| UserRow {
                id: u.id,
                created_at: u.created_at,
                name: u.name,
                email: u.email,
            })
            .collect(),
    ))
}

/// 'Login as': the administrator's session becomes the user's, remembering who they are so
/// `POST /api/loginBack` returns them to their own. Both are recorded in the audit log.
#[utoipa::path(post, path = "/api/loginWith/{id}", tag = "admin",
    params(("id" = i64, Path, description = "User id")),
    responses((status = 200, body = UserView), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn login_with(
    State(state): State<AppState>,
    Admin(admin): Admin,
    jar: CookieJar,
    ApiPath(id): ApiPath<AccountId>,
) -> Result<impl IntoResponse> {
    // While signed in as someone, the administrator acts as that user (not an admin).
    let target = state.store.user_by_id(id).await?;
    state
        .store
        .audit(admin.id, "login_as", Some(target.id.get()), &target.email)
        .await?;
    let jar = auth::end_session(&state, jar).await?;
    let jar = auth::start_session(&state, jar, target.id, Some(admin.id)).await?;
    let current = CurrentUser {
        user: target,
        impersonator_id: Some(admin.id),
    };
    Ok((jar, ApiJson(user_view(&state, &current).await?)))
}

#[utoipa::path(post, path = "/api/loginBack", tag = "admin",
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn login_back(
    State(state): State<AppState>,
    user: CurrentUser,
    jar: CookieJar,
) -> Result<impl IntoResponse> {
    let Some(admin_id) = user.impersonator_id else {
        return Err(ApiError::forbidden(
            ErrorCode::NotImpersonating,
            "You are not signed in as another user",
        ));
    };
    let admin = state.store.user_by_id(admin_id).await?;
    if !admin.is_admin {
        return Err(ApiError::forbidden(
            ErrorCode::AdminOnly,
            "Administrators only",
        ));
    }
    state
        .store
        .audit(admin.id, "login_back", Some(user.id.get()), &user.email)
        .await?;
    let jar = auth::end_session(&state, jar).await?;
    let jar = auth::start_session(&state, jar, admin.id, None).await?;
    let current = CurrentUser {
        user: admin,
        impersonator_id: None,
    };
    Ok((jar, ApiJson(user_view(&state, &current).await?)))
}

/// Sends the signed-in account's sign-in address its confirmation link again (no
/// notification mail goes to it before it is confirmed). Already confirmed: nothing is sent.
#[utoipa::path(post, path = "/api/user/email-confirmation", tag = "account",
    responses((status = 200, body = UserView), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn resend_email_confirmation(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<ApiJson<UserView>> {
    email_confirmation::request(&state.mail, &user, true).await?;
    Ok(ApiJson(user_view(&state, &user).await?))
}

/// `POST /api/confirm-email`: the token of the link in the confirmation e-mail.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmEmailRequest {
    pub token: String,
}

/// Confirms a sign-in address from the link in its confirmation e-mail. Public: whoever reads
/// that mailbox holds the token, and only they can agree.
#[utoipa::path(post, path = "/api/confirm-email", tag = "account", request_body = ConfirmEmailRequest,
    responses((status = 200, body = MessageView), (status = 422, body = ErrorBody)))]
pub async fn confirm_email(
    State(core): State<Core>,
    ApiJson(req): ApiJson<ConfirmEmailRequest>,
) -> Result<ApiJson<MessageView>> {
    email_confirmation::confirm(&core, &req.token).await?;
    Ok(ApiJson(MessageView::new("E-mail address confirmed")))
}
