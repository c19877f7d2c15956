//! The card on file (spec 2 §7 "Billing"), through the payment provider's HTTP API (Stripe's:
//! form-encoded requests with the secret key as a bearer token). The provider's API and the
//! card form's script are configuration (`stripe_api_url`, `stripe_js_url`), so tests run
//! against a local stand-in. Without keys, every call answers 503 'Card payments are not
//! configured' and the account screen says so.
//!
//! The card itself never reaches this server: the dashboard's card form (the provider's
//! script) confirms a setup intent with the provider directly, and then names the resulting
//! payment method here. The account's customer at the provider is created with its first card,
//! and its id (`external_id`) means a card is on file.

use axum::{extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    accounts::auth::CurrentUser,
    error::{ApiError, ErrorBody, ErrorCode, Result},
    extract::{ApiJson, ApiPath},
    state::AppState,
};
use vitrine_shared::ids::AccountId;

pub const NOT_CONFIGURED: &str = "Card payments are not configured";

#[derive(Debug, Serialize, ToSchema)]
pub struct StripeConfig {
    #[serde(rename = "publicKey")]
    pub public_key: String,
    /// Where the dashboard loads the card form's script from.
    #[serde(rename = "jsUrl")]
    pub js_url: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SetupIntent {
    pub client_secret: String,
}

/// The provider's error body: `{"error": {"message": …}}`.
#[derive(Deserialize)]
struct ProviderError {
    error: ProviderMessage,
}

#[derive(Deserialize)]
struct ProviderMessage {
    message: String,
}

struct Provider {
    api: String,
    secret: String,
}

fn provider(state: &AppState) -> Result<Provider> {
    let s = &state.settings;
    match (&s.stripe_public_key, &s.stripe_secret_key) {
        (Some(_), Some(secret)) => Ok(Provider {
            api: s.stripe_api_url.trim_end_matches('/').to_string(),
            secret: secret.expose().to_string(),
        }),
        _ => Err(ApiError::unavailable(
            ErrorCode::PaymentsNotConfigured,
            NOT_CONFIGURED,
        )),
    }
}

impl Provider {
    /// POSTs a form to the provider; its 4xx answers become 422 with its message, anything
    /// else (unreachable, 5xx) a 503.
    async fn post(&self, path: &str, form: &[(&str, &str)]) -> Result<serde_json::Value> {
        let client = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(15))
            .build()
            .map_err(|e| ApiError::Internal(e.into()))?;
        let res = client
            .post(format!("{}{path}", self.api))
            .bearer_auth(&self.secret)
            .form(form)
            .send()
            .await
            .map_err(unreachable)?;
        let status = res.status();
        let body = res.bytes().await.map_err(unreachable)?;
        if status.is_success() {
            return serde_json::from_slice(&body).map_err(|_| unexpected());
        }
        let message = serde_json::from_slice::<ProviderError>(&body)
            .map(|e| e.error.message)
            .unwrap_or_else(|_| format!("The payment provider answered {status}"));
        if status.is_client_error() {
            Err(ApiError::invalid(
                "payment_method",
                ErrorCode::PaymentMethodRefused,
                message.clone(),
            )
            .param("detail", message))
        } else {
            Err(
                ApiError::unavailable(ErrorCode::PaymentProviderError, message.clone())
                    .param("detail", message),
            )
        }
    }
}

/// The calls name the user in the path (as the spec has them); only the signed-in user's own
/// id is accepted.
fn own(user: &CurrentUser, user_id: AccountId) -> Result<()> {
    if user.id == user_id {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

#[utoipa::path(get, path = "/api/stripe-config", tag = "account",
    responses((status = 200, body = StripeConfig), (status = 503, body = ErrorBody)))]
pub async fn config(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> Result<ApiJson<StripeConfig>> {
    provider(&state)?;
    let s = &state.settings;
    Ok(ApiJson(StripeConfig {
        public_key: s.stripe_public_key.clone().unwrap_or_default(),
        js_url: s.stripe_js_url.clone(),
    }))
}

#[utoipa::path(get, path = "/api/stripe-setup-intent/{user_id}", tag = "account",
    params(("user_id" = i64, Path, description = "The signed-in user's id")),
    responses((status = 200, body = SetupIntent), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn setup_intent(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(user_id): ApiPath<AccountId>,
) -> Result<ApiJson<SetupIntent>> {
    own(&user, user_id)?;
    let provider = provider(&state)?;
    let uid = user.id.to_string();
    let intent = provider
        .post(
            "/v1/setup_intents",
            &[
                ("usage", "off_session"),
                ("payment_method_types[]", "card"),
                ("metadata[user_id]", &uid),
            ],
        )
        .await?;
    match intent["client_secret"].as_str() {
        Some(secret) => Ok(ApiJson(SetupIntent {
            client_secret: secret.to_string(),
        })),
        None => Err(unexpected()),
    }
}

#[utoipa::path(post, path = "/api/stripe-set-default-payment-method/{user_id}/{payment_method}", tag = "account",
    params(("user_id" = i64, Path, description = "The signed-in user's id"), ("payment_method" = String, Path, description = "The provider's payment method id")),
    responses((status = 204), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn set_default_payment_method(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath((user_id, payment_method)): ApiPath<(AccountId, String)>,
) -> Result<StatusCode> {
    own(&user, user_id)?;
    let provider = provider(&state)?;
    if payment_method.is_empty()
        || payment_method.len() > 255
        || !payment_method
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(ApiError::invalid(
            "payment_method",
            ErrorCode::PaymentMethodInvalid,
            "Invalid payment method",
        ));
    }
    let pm = payment_method.as_str();
    match &user.external_id {
        // The first card: a customer holding it as the default.
        None => {
            let uid = user.id.to_string();
            let created = provider
                .post(
                    "/v1/customers",
                    &[
                        ("email", &user.email),
                        ("name", &user.name),
                        ("metadata[user_id]", &uid),
                        ("payment_method", pm),
                        ("invoice_settings[default_payment_method]", pm),
                    ],
                )
                .await?;
            match created["id"].as_str() {
                Some(id) if !id.is_empty() => state.store.set_external_id(user.id, id).await?,
                _ => {
                    return Err(unexpected());
                }
            }
        }
        // A new card for a known customer.
        Some(customer) => {
            provider
                .post(
                    &format!("/v1/payment_methods/{pm}/attach"),
                    &[("customer", customer)],
                )
                .await?;
            provider
                .post(
                    &format!("/v1/customers/{customer}"),
                    &[("invoice_settings[default_payment_method]", pm)],
                )
                .await?;
        }
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The provider did not answer.
fn unreachable(e: reqwest::Error) -> ApiError {
    ApiError::unavailable(
        ErrorCode::PaymentProviderUnreachable,
        format!("The payment provider could not be reached: {e}"),
    )
}

/// The provider answered something this code cannot read.
fn unexpected() -> ApiError {
    ApiError::unavailable(
        ErrorCode::PaymentProviderUnexpected,
        "The payment provider answered something unexpected",
    )
}
