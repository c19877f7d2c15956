//! The one error type of the API. Every handler returns [`Result`]; [`ApiError`] turns into a
//! JSON body `{"error": code, "message": text, "field"?: name}` with a 4xx status for anything
//! the caller got wrong. 5xx causes are logged and never shown to the client.

use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;
use vitrine_shared::{domain::Invalid, store::StoreError};

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("not found")]
    NotFound,
    #[error("not signed in")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    #[error("{message}")]
    Invalid {
        field: Option<&'static str>,
        message: String,
    },
    #[error("{message}")]
    Conflict {
        field: &'static str,
        message: String,
    },
    #[error("{message}")]
    BadRequest { message: String },
    /// Invalid input with one entry per problem (rows and columns of an import, fields of a record).
    #[error("{message}")]
    Details {
        message: String,
        details: Vec<crate::records::Problem>,
    },
    #[error("{message}")]
    TooLarge { message: String },
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    #[error("{message}")]
    UnsupportedMediaType { message: String },
    /// Something the server needs is missing (a browser for thumbnails).
    #[error("{message}")]
    Unavailable { message: String },
    /// A refusal with a stable code of its own, for the cases the dashboard tells apart from
    /// a plain `invalid` or `conflict` (`slug_reserved`, `slug_held`, `domain_in_use`).
    #[error("{message}")]
    Refused {
        status: StatusCode,
        code: &'static str,
        field: &'static str,
        message: String,
    },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The JSON body of every error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A stable code: not_found, unauthorized, forbidden, invalid, conflict, bad_request, …,
    /// and the refusals the dashboard tells apart: slug_reserved, slug_held, domain_in_use.
    pub error: &'static str,
    /// The text the dashboard shows.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// Where each problem is: row, column, field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Vec<crate::records::Problem>>,
}

impl ApiError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        ApiError::Invalid {
            field: Some(field),
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest {
            message: message.into(),
        }
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::Forbidden(message.into())
    }

    fn parts(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::Invalid { .. } | ApiError::Details { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid")
            }
            ApiError::Conflict { .. } => (StatusCode::CONFLICT, "conflict"),
            ApiError::BadRequest { .. } => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::TooManyRequests { .. } => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_requests")
            }
            ApiError::UnsupportedMediaType { .. } => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::Unavailable { .. } => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            ApiError::Refused { status, code, .. } => (*status, code),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.parts();
        let message = match &self {
            ApiError::NotFound => "Not found".to_string(),
            ApiError::Unauthorized => "Please sign in".to_string(),
            ApiError::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                "Something went wrong on our side. Please try again.".to_string()
            }
            other => other.to_string(),
        };
        let field = match &self {
            ApiError::Invalid { field, .. } => *field,
            ApiError::Conflict { field, .. } | ApiError::Refused { field, .. } => Some(*field),
            _ => None,
        };
        let details = match &self {
            ApiError::Details { details, .. } => Some(details.clone()),
            _ => None,
        };
        let body = ErrorBody {
            error: code,
            message,
            field,
            details,
        };
        let mut response = (status, Json(body)).into_response();
        if let ApiError::TooManyRequests {
            retry_after_secs, ..
        } = self
        {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        response
    }
}

impl From<Invalid> for ApiError {
    fn from(e: Invalid) -> Self {
        match e.code {
            Some(code) => ApiError::Refused {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                code,
                field: e.field,
                message: e.message,
            },
            None => ApiError::Invalid {
                field: Some(e.field),
                message: e.message,
            },
        }
    }
}

/// The message of a domain whose unit (the name or its `www.` twin) another project holds.
pub const DOMAIN_IN_USE: &str = "domain already in use";
/// The message of a slug that is cooling off for another user.
pub const SLUG_HELD_MESSAGE: &str = "This address was in use until recently and is still held for its previous owner; please choose another";

/// Unique-constraint names mapped to the field and the spec's message.
fn conflict(constraint: &'static str) -> ApiError {
    let refused = |code, field, message: &str| ApiError::Refused {
        status: StatusCode::CONFLICT,
        code,
        field,
        message: message.to_string(),
    };
    match constraint {
        "projects_domain_key" | vitrine_shared::store::DOMAIN_UNIT_TAKEN => {
            return refused("domain_in_use", "domain", DOMAIN_IN_USE);
        }
        vitrine_shared::store::SLUG_HELD => return refused("slug_held", "slug", SLUG_HELD_MESSAGE),
        _ => {}
    }
    let (field, message) = match constraint {
        "projects_slug_key" => ("slug", "slug already in use"),
        "users_email_key" => ("email", "email already in use"),
        "pages_slug_key" => ("slug", "A page with this slug already exists"),
        "collections_slug_key" => ("slug", "A collection with this slug already exists"),
        "fields_slug_key" => ("slug", "A field with this slug already exists"),
        "posts_slug_key" => ("slug", "A record with this slug already exists"),
        "redirects_from_key" => (
            "from",
            "Já existe um redirecionamento para esta url de origem.",
        ),
        "templates_name_key" => ("name", "A template with this name already exists"),
        _ => ("id", "Conflicting change, please reload and try again"),
    };
    ApiError::Conflict {
        field,
        message: message.to_string(),
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::NotFound,
            StoreError::Conflict(name) => conflict(name),
            other => ApiError::Internal(other.into()),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType {
                message: "Expected a JSON body (Content-Type: application/json)".into(),
            },
            JsonRejection::JsonSyntaxError(e) => {
                ApiError::bad_request(format!("Malformed JSON: {}", e.body_text()))
            }
            JsonRejection::JsonDataError(e) => ApiError::Invalid {
                field: None,
                message: json_data_message(&e.body_text()),
            },
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::TooLarge {
                    message: "Request body is too large".into(),
                }
            }
            other => ApiError::bad_request(other.body_text()),
        }
    }
}

/// serde's messages name the field and the expected type; keep them, minus the prefix.
fn json_data_message(raw: &str) -> String {
    let text = raw
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .unwrap_or(raw);
    format!("Invalid request: {text}")
}

impl From<PathRejection> for ApiError {
    fn from(_: PathRejection) -> Self {
        // A malformed id cannot name anything that exists.
        ApiError::NotFound
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::bad_request(format!("Invalid query string: {}", r.body_text()))
    }
}

/// JSON extractor whose rejections are [`ApiError`]s, so bad bodies get the JSON error shape.
#[derive(Debug, Clone, Copy, Default, axum::extract::FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct ApiJson<T>(pub T);

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
