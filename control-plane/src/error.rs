//! The one error type of the API. Every handler returns [`Result`]; [`ApiError`] turns into a
//! JSON body `{"error": code, "message": text, "field"?: name}` with a 4xx status for anything
//! the caller got wrong. 5xx causes are logged and never shown to the client.

use axum::{
    Json,
    body::Bytes,
    extract::{
        FromRequest, Request,
        rejection::{JsonRejection, PathRejection, QueryRejection},
    },
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Serialize, de::DeserializeOwned};
use utoipa::ToSchema;
use vitrine_shared::{
    domain::Invalid,
    render::RenderError,
    sandbox::SandboxError,
    store::{Failure, StoreError},
};

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
    /// A block's template went over a render budget (output, memory or time).
    #[error("{message}")]
    RenderBudget { message: String },
    /// Something the server needs is missing (a browser for thumbnails).
    #[error("{message}")]
    Unavailable { message: String },
    /// Text holding the NUL character (U+0000), in a JSON string or key, a query value or a
    /// path segment (see [`crate::nul`]). `field` names where, when that is known.
    #[error("Text may not contain the NUL character (U+0000)")]
    Nul { field: Option<String> },
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
    /// The field the error is about: a name (`slug`), or a path into the body
    /// (`fields[0].value`) or the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
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

    /// A body that does not say it is JSON.
    pub fn not_json() -> Self {
        ApiError::UnsupportedMediaType {
            message: "Expected a JSON body (Content-Type: application/json)".into(),
        }
    }

    fn parts(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::Invalid { .. } | ApiError::Details { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "invalid")
            }
            ApiError::Nul { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "nul_character"),
            ApiError::Conflict { .. } => (StatusCode::CONFLICT, "conflict"),
            ApiError::BadRequest { .. } => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::TooManyRequests { .. } => {
                (StatusCode::TOO_MANY_REQUESTS, "too_many_requests")
            }
            ApiError::UnsupportedMediaType { .. } => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::RenderBudget { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, "render_budget_exceeded")
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
            ApiError::Invalid { field, .. } => field.map(String::from),
            ApiError::Conflict { field, .. } => Some(field.to_string()),
            ApiError::Nul { field } => field.clone(),
            ApiError::RenderBudget { .. } => Some("blocks".to_string()),
            ApiError::Refused { field, .. } => Some(field.to_string()),
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

impl ApiError {
    /// A render that failed: over a budget, a 422 naming the block; a template error, a 422 on
    /// `field`; busy workers, 503; a sandbox that could not run, 500.
    pub fn render(field: &'static str, e: SandboxError) -> ApiError {
        match e {
            SandboxError::Render(e) => ApiError::from_render(field, e),
            SandboxError::Busy => ApiError::Unavailable {
                message: "Every renderer is busy; please try again in a moment".into(),
            },
            SandboxError::Broken(cause) => ApiError::Internal(anyhow::anyhow!(cause)),
        }
    }

    /// A block's render error (see [`ApiError::render`]).
    pub fn from_render(field: &'static str, e: RenderError) -> ApiError {
        match e.exceeded {
            Some(reason) => ApiError::RenderBudget {
                message: format!(
                    "Block \"{}\" went over a render budget: {}",
                    e.block,
                    reason.message()
                ),
            },
            None => ApiError::invalid(field, e.to_string()),
        }
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

/// A store error as the caller meets it. Only what is the server's own fault is a 500: a
/// value the database refuses (an impossible date, a value out of range) is the caller's
/// 422, and a database that is unreachable or a statement past its time limit is a 503 the
/// caller may retry (the classification is the store's, [`StoreError::failure`], the same the
/// edge's breaker uses).
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::NotFound,
            StoreError::Conflict(name) => conflict(name),
            other => match other.failure() {
                Failure::Input => {
                    tracing::warn!(error = %other, "the database refused a value");
                    ApiError::Invalid {
                        field: None,
                        message: "A value was refused by the database; check the data sent".into(),
                    }
                }
                Failure::Outage | Failure::SlowQuery => {
                    tracing::error!(error = %other, "database unavailable");
                    ApiError::Unavailable {
                        message:
                            "The database is not answering right now; please try again in a moment"
                                .into(),
                    }
                }
                Failure::Other => ApiError::Internal(other.into()),
            },
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::MissingJsonContentType(_) => ApiError::not_json(),
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
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
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
