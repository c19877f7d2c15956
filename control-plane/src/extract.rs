//! The request extractors every handler uses: JSON bodies, path parameters and query strings
//! whose rejections are [`ApiError`]s, so a bad request gets the API's JSON error shape; the
//! client's address as the rate limits count it ([`ClientIp`]); and the decoding of what those
//! bodies carry (an absent-or-null field, a file sent as a data URL for an upload or an import,
//! the ids of a bulk deletion).

use std::net::{IpAddr, SocketAddr};

use axum::{
    Json,
    body::Bytes,
    extract::{
        ConnectInfo, FromRef, FromRequest, FromRequestParts, Request, rejection::JsonRejection,
    },
    http::{HeaderMap, header, request::Parts},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// JSON extractor whose rejections are [`ApiError`]s, so bad bodies get the JSON error shape.
/// It also refuses a NUL character anywhere in the body's strings and keys
/// ([`crate::nul::refuse_in_json`]) before the body becomes `T`, so no handler ever sees one.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self> {
        if !is_json(req.headers()) {
            return Err(ApiError::not_json());
        }
        let body = Bytes::from_request(req, state)
            .await
            .map_err(JsonRejection::from)?;
        crate::nul::refuse_in_json(&body)?;
        let Json(value) = Json::from_bytes(&body)?;
        Ok(ApiJson(value))
    }
}

/// Whether the request says its body is JSON: `application/json` or `application/…+json`
/// (the types `axum::Json` accepts).
pub fn is_json(headers: &HeaderMap) -> bool {
    let Some(content_type) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = vitrine_shared::media_type::essence(content_type);
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub.ends_with("+json"))
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

/// Path extractor whose rejections are 404s.
#[derive(Debug, Clone, Copy, axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct ApiPath<T>(pub T);

/// Query extractor whose rejections are 400s with a JSON body.
#[derive(Debug, Clone, axum::extract::FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct ApiQuery<T>(pub T);

/// The client of a request, as the rate limits count it: the peer itself, or behind a trusted
/// proxy (`CONTROL_TRUSTED_PROXIES`) the address its `X-Forwarded-For` vouches for (see
/// [`vitrine_shared::proxies`]).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp
where
    Core: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
        Ok(ClientIp(
            Core::from_ref(state).trusted_proxies.client_ip(
                peer.ip(),
                parts
                    .headers
                    .get_all("x-forwarded-for")
                    .iter()
                    // A value that is not text ends the walk at the peer, as garbage does.
                    .map(|v| v.to_str().unwrap_or("\u{fffd}")),
            ),
        ))
    }
}

/// The body of a bulk deletion (posts, form history): the ids selected.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct BulkDelete {
    pub selected: Vec<i64>,
}

impl BulkDelete {
    /// The most ids one request may select.
    pub const MAX: usize = 10_000;

    /// The selected ids, at most [`Self::MAX`] of them; `what` names them in the refusal
    /// ("records", "entries").
    pub fn selected(&self, what: &str) -> Result<&[i64]> {
        if self.selected.len() > Self::MAX {
            return Err(ApiError::invalid(
                "selected",
                ErrorCode::TooManySelected,
                format!("Select at most 10,000 {what} at a time"),
            )
            .param("max", Self::MAX));
        }
        Ok(&self.selected)
    }
}

/// Distinguishes an absent key (`None`) from an explicit `null` (`Some(None)`), with
/// `#[serde(default, deserialize_with = "double_option")]`.
pub fn double_option<'de, T: Deserialize<'de>, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// The bytes of a file sent as a data URL (`content`) of at most `max` bytes. A data URL's
/// payload is about 4/3 the size of the file, so one far over the limit is refused before it is
/// decoded.
pub fn decode_data_url(content: &str, max: u64) -> Result<Vec<u8>> {
    if content.len() as u64 > max / 3 * 4 + 1024 {
        return Err(file_too_large(max));
    }
    let url = data_url::DataUrl::process(content).map_err(|_| {
        ApiError::invalid(
            "content",
            ErrorCode::DataUrlInvalid,
            "content must be a data URL",
        )
    })?;
    let (bytes, _) = url.decode_to_vec().map_err(|_| {
        ApiError::invalid(
            "content",
            ErrorCode::Base64Invalid,
            "content is not valid base64",
        )
    })?;
    if bytes.len() as u64 > max {
        return Err(file_too_large(max));
    }
    Ok(bytes)
}

/// A file over the size limit of `max` bytes (imports and uploads).
pub fn file_too_large(max: u64) -> ApiError {
    let mb = max / (1024 * 1024);
    ApiError::too_large(
        ErrorCode::FileTooLarge,
        format!("The file is too large ({mb} MB at most)"),
    )
    .param("mb", mb)
}
