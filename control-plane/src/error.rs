//! The one error type of the API. Every handler returns [`Result`]; [`ApiError`] turns into a
//! JSON body `{"error": code, "message": text, "field"?: name, "params"?: {…}, "details"?: […]}`
//! with a 4xx status for anything the caller got wrong. `error` is one of the stable
//! [`ErrorCode`]s, which the dashboard translates (the English `message` is for API clients
//! and logs). 5xx causes are logged and never shown to the client.
//!
//! Every conversion of another error into an [`ApiError`] is a `From` here, so handlers use
//! `?` and the mapping to statuses and codes is in one place. That is why [`PublishError`],
//! publishing's own error, and [`FetchError`] and [`ShotError`] are declared here too (in the
//! `publish` and `blocks` submodules): this module depends on nothing of the app (only
//! external crates and `vitrine_shared`), so it can sit under every other module.

use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
pub use vitrine_shared::error_code::{ErrorCode, Params};
use vitrine_shared::ids::FieldId;
use vitrine_shared::{
    blob::BlobError,
    domain::Invalid,
    record_lists::ListError,
    render::RenderError,
    sandbox::SandboxError,
    store::{Failure, StoreError},
};

pub use answers::{FileBodyAnswers, LibraryWriteAnswers, ScreenshotAnswers};
pub use blocks::{BLOCK_NAME_TAKEN, FetchError, ShotError};
pub use publish::PublishError;

mod answers;
mod blocks;
mod publish;

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("not found")]
    NotFound,
    #[error("not signed in")]
    Unauthorized,
    /// A refusal: its status, code, message, and where and what it is about.
    #[error("{}", .0.message)]
    Refused(Box<Refusal>),
    /// Text holding the NUL character (U+0000), in a JSON string or key, a query value or a
    /// path segment (see the `nul` module). `field` names where, when that is known.
    #[error("Text may not contain the NUL character (U+0000)")]
    Nul { field: Option<String> },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// A refusal the caller can act on.
#[derive(Debug)]
pub struct Refusal {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    pub field: Option<String>,
    pub params: Params,
    pub details: Vec<Problem>,
    pub retry_after_secs: Option<u64>,
}

/// Something wrong with a value; row numbers count data rows from 1.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>)]
    pub field_id: Option<FieldId>,
    /// The problem's stable code, which the dashboard translates with `params`.
    pub code: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Object)]
    pub params: Params,
}

impl Problem {
    /// A problem at `row` and `column` (either may be unknown).
    pub fn new(
        row: Option<usize>,
        column: Option<&str>,
        code: ErrorCode,
        message: impl Into<String>,
    ) -> Self {
        Problem {
            row,
            column: column.map(String::from),
            field_id: None,
            code,
            message: message.into(),
            params: Params::new(),
        }
    }

    /// The same problem with a value its message names.
    pub fn param(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.params.insert(name.to_string(), value.into());
        self
    }
}

/// The JSON body of every error.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The stable code (see the enum): the dashboard shows `errors.<code>` from its catalogue.
    pub error: ErrorCode,
    /// The English text, for API clients and logs (the spec's own words where it gives them).
    pub message: String,
    /// The field the error is about: a name (`slug`), or a path into the body
    /// (`fields[0].value`) or the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The values the message names (`{"max": 200}`), for the translation.
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Object)]
    pub params: Params,
    /// Where each problem is: row, column, field, each with its own code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Vec<Problem>>,
}

impl ApiError {
    /// A refusal with this status, code and message.
    pub fn refused(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError::Refused(Box::new(Refusal {
            status,
            code,
            message: message.into(),
            field: None,
            params: Params::new(),
            details: Vec::new(),
            retry_after_secs: None,
        }))
    }

    /// 422: a value of `field` is refused.
    pub fn invalid(field: &str, code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::UNPROCESSABLE_ENTITY, code, message).at(field)
    }

    /// 400: the request cannot be understood.
    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::BAD_REQUEST, code, message)
    }

    /// 403: signed in, but not allowed.
    pub fn forbidden(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::FORBIDDEN, code, message)
    }

    /// 409: the change conflicts with what is stored (`field` says which value).
    pub fn conflict(field: &str, code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::CONFLICT, code, message).at(field)
    }

    /// 413.
    pub fn too_large(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::PAYLOAD_TOO_LARGE, code, message)
    }

    /// 415.
    pub fn unsupported_media(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::UNSUPPORTED_MEDIA_TYPE, code, message)
    }

    /// 503: something the server needs is not answering; the caller may retry.
    pub fn unavailable(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::refused(StatusCode::SERVICE_UNAVAILABLE, code, message)
    }

    /// 429 with `Retry-After` (also in `params.seconds`).
    pub fn too_many_requests(
        code: ErrorCode,
        message: impl Into<String>,
        retry_after_secs: u64,
    ) -> Self {
        let mut e = Self::refused(StatusCode::TOO_MANY_REQUESTS, code, message)
            .param("seconds", retry_after_secs);
        if let ApiError::Refused(r) = &mut e {
            r.retry_after_secs = Some(retry_after_secs);
        }
        e
    }

    /// 422 with one entry per problem (rows and columns of an import, fields of a record).
    pub fn details(code: ErrorCode, message: impl Into<String>, details: Vec<Problem>) -> Self {
        let mut e = Self::refused(StatusCode::UNPROCESSABLE_ENTITY, code, message);
        if let ApiError::Refused(r) = &mut e {
            r.details = details;
        }
        e
    }

    /// The same refusal about `field`.
    pub fn at(mut self, field: &str) -> Self {
        if let ApiError::Refused(r) = &mut self {
            r.field = Some(field.to_string());
        }
        self
    }

    /// The same refusal with a value its message names.
    pub fn param(mut self, name: &str, value: impl Into<serde_json::Value>) -> Self {
        if let ApiError::Refused(r) = &mut self {
            r.params.insert(name.to_string(), value.into());
        }
        self
    }

    /// The same refusal said of the item at `index` (from 1) of the list in `field`, as
    /// `"{label} {index}: {message}"` with `params.index`; other errors are left as they are.
    pub fn of_item(self, field: &str, label: &str, index: usize) -> Self {
        match self {
            ApiError::Refused(mut r) => {
                r.message = format!("{label} {index}: {}", r.message);
                r.field = Some(field.to_string());
                r.params.insert("index".into(), index.into());
                ApiError::Refused(r)
            }
            other => other,
        }
    }

    /// A body that does not say it is JSON.
    pub fn not_json() -> Self {
        Self::unsupported_media(
            ErrorCode::NotJson,
            "Expected a JSON body (Content-Type: application/json)",
        )
    }

    /// The refusal's code, for the callers that tell refusals apart.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::NotFound => ErrorCode::NotFound,
            ApiError::Unauthorized => ErrorCode::Unauthorized,
            ApiError::Refused(r) => r.code,
            ApiError::Nul { .. } => ErrorCode::NulCharacter,
            ApiError::Internal(_) => ErrorCode::Internal,
        }
    }

    /// The values the refusal's message names (none for the other errors).
    pub fn params(&self) -> Params {
        match self {
            ApiError::Refused(r) => r.params.clone(),
            _ => Params::new(),
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Refused(r) => r.status,
            ApiError::Nul { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl ApiError {
    /// The status, the JSON body and the `Retry-After` seconds this error answers with; the
    /// body is what [`IntoResponse`] sends and what a stream's `error` event carries.
    pub fn into_parts(self) -> (StatusCode, ErrorBody, Option<u64>) {
        let status = self.status();
        let code = self.code();
        let message = match &self {
            ApiError::NotFound => "Not found".to_string(),
            ApiError::Unauthorized => "Please sign in".to_string(),
            ApiError::Internal(cause) => {
                tracing::error!(error = ?cause, "internal error");
                "Something went wrong on our side. Please try again.".to_string()
            }
            other => other.to_string(),
        };
        let (field, params, details, retry_after) = match self {
            ApiError::Nul { field } => (field, Params::new(), None, None),
            ApiError::Refused(r) => {
                let Refusal {
                    field,
                    params,
                    details,
                    retry_after_secs,
                    ..
                } = *r;
                let details = (!details.is_empty()).then_some(details);
                (field, params, details, retry_after_secs)
            }
            _ => (None, Params::new(), None, None),
        };
        let body = ErrorBody {
            error: code,
            message,
            field,
            params,
            details,
        };
        (status, body, retry_after)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body, retry_after) = self.into_parts();
        let mut response = (status, Json(body)).into_response();
        if let Some(secs) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// The `Retry-After` of a render that found no worker in time.
const RENDERER_RETRY_SECS: u64 = 2;

impl ApiError {
    /// A render that failed: over a budget, a 422 naming the block; a template error, a 422 on
    /// `field`; busy workers, 503 with `Retry-After`; a sandbox that could not run, 500.
    pub fn render(field: &'static str, e: SandboxError) -> ApiError {
        match e {
            SandboxError::Render(e) => ApiError::from_render(field, e),
            // Waiting, never the caller's own block: no budget is named.
            SandboxError::Busy(why) => {
                tracing::debug!(why, "no render worker in time");
                let mut e = ApiError::unavailable(
                    ErrorCode::RendererBusy,
                    "Every renderer is busy; please try again in a moment",
                );
                if let ApiError::Refused(r) = &mut e {
                    r.retry_after_secs = Some(RENDERER_RETRY_SECS);
                }
                e
            }
            SandboxError::Broken(cause) => ApiError::Internal(anyhow::anyhow!(cause)),
        }
    }

    /// A block's render error (see [`ApiError::render`]).
    pub fn from_render(field: &'static str, e: RenderError) -> ApiError {
        match e.exceeded {
            Some(reason) => ApiError::invalid(
                "blocks",
                ErrorCode::RenderBudget,
                format!(
                    "Block \"{}\" went over a render budget: {}",
                    e.block,
                    reason.message()
                ),
            )
            .param("block", e.block.clone())
            .param("reason", reason.message()),
            None => ApiError::invalid(field, ErrorCode::TemplateError, e.to_string())
                .param("block", e.block.clone())
                .param("detail", e.message.clone()),
        }
    }
}

impl From<Invalid> for ApiError {
    fn from(e: Invalid) -> Self {
        let mut error = ApiError::invalid(e.field, e.code, e.message);
        if let ApiError::Refused(r) = &mut error {
            r.params = e.params;
        }
        error
    }
}

/// The message of a domain whose unit (the name or its `www.` twin) another project holds.
pub const DOMAIN_IN_USE: &str = "domain already in use";
/// The message of a slug that is cooling off for another user.
pub const SLUG_HELD_MESSAGE: &str = "This address was in use until recently and is still held for its previous owner; please choose another";

/// Unique-constraint names mapped to the field, the code and the spec's message.
fn conflict(constraint: &'static str) -> ApiError {
    use vitrine_shared::{
        redirects::MAX_RULES,
        store::{DOMAIN_UNIT_TAKEN, RECORDS_FULL, REDIRECTS_FULL, SLUG_HELD},
    };
    if constraint == RECORDS_FULL {
        return ApiError::conflict(
            "records",
            ErrorCode::TooManyRecords,
            "The account keeps as many records as it may (RECORDS_PER_ACCOUNT); nothing was written",
        );
    }
    if constraint == REDIRECTS_FULL {
        return ApiError::invalid(
            "from",
            ErrorCode::TooManyRedirects,
            format!("A site may have at most {MAX_RULES} redirects"),
        )
        .param("max", MAX_RULES);
    }
    let (field, code, message) = match constraint {
        "projects_domain_key" | DOMAIN_UNIT_TAKEN => {
            ("domain", ErrorCode::DomainInUse, DOMAIN_IN_USE)
        }
        SLUG_HELD => ("slug", ErrorCode::SlugHeld, SLUG_HELD_MESSAGE),
        "projects_slug_key" => ("slug", ErrorCode::SlugTaken, "slug already in use"),
        "users_email_key" => ("email", ErrorCode::EmailTaken, "email already in use"),
        "pages_slug_key" => (
            "slug",
            ErrorCode::PageSlugTaken,
            "A page with this slug already exists",
        ),
        "collections_slug_key" => (
            "slug",
            ErrorCode::CollectionSlugTaken,
            "A collection with this slug already exists",
        ),
        "fields_slug_key" => (
            "slug",
            ErrorCode::FieldSlugTaken,
            "A field with this slug already exists",
        ),
        "posts_slug_key" => (
            "slug",
            ErrorCode::RecordSlugTaken,
            "A record with this slug already exists",
        ),
        "redirects_from_key" => (
            "from",
            ErrorCode::RedirectFromTaken,
            "Já existe um redirecionamento para esta url de origem.",
        ),
        "templates_name_key" => (
            "name",
            ErrorCode::TemplateNameTaken,
            "A template with this name already exists",
        ),
        _ => (
            "id",
            ErrorCode::Conflict,
            "Conflicting change, please reload and try again",
        ),
    };
    ApiError::conflict(field, code, message)
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
                    ApiError::refused(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        ErrorCode::DatabaseRefused,
                        "A value was refused by the database; check the data sent",
                    )
                }
                Failure::Outage | Failure::SlowQuery => {
                    tracing::error!(error = %other, "database unavailable");
                    ApiError::unavailable(
                        ErrorCode::DatabaseUnavailable,
                        "The database is not answering right now; please try again in a moment",
                    )
                }
                Failure::Other => ApiError::Internal(other.into()),
            },
        }
    }
}

/// A list query the store refused (a filter on an unknown field, a bad date) is the caller's
/// 400 `invalid_query`; the store's own failures are as above.
impl From<ListError> for ApiError {
    fn from(e: ListError) -> Self {
        match e {
            ListError::Query(q) => {
                ApiError::bad_request(ErrorCode::InvalidQuery, q.0.clone()).param("detail", q.0)
            }
            ListError::Store(e) => e.into(),
        }
    }
}

/// An object the caller asked for by its key: one that is not there (or that no key could
/// name) is a 404; any other failure of the object store is ours.
impl From<BlobError> for ApiError {
    fn from(e: BlobError) -> Self {
        match e {
            BlobError::NotFound | BlobError::InvalidKey => ApiError::NotFound,
            other => ApiError::Internal(other.into()),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::MissingJsonContentType(_) => ApiError::not_json(),
            JsonRejection::JsonSyntaxError(e) => malformed_json(&e.body_text()),
            JsonRejection::JsonDataError(e) => invalid_body(&e.body_text()),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::too_large(ErrorCode::BodyTooLarge, "Request body is too large")
            }
            other => ApiError::bad_request(ErrorCode::MalformedJson, other.body_text()),
        }
    }
}

/// A body that is not JSON at all (serde's words in `params.detail`).
pub fn malformed_json(detail: &str) -> ApiError {
    ApiError::bad_request(
        ErrorCode::MalformedJson,
        format!("Malformed JSON: {detail}"),
    )
    .param("detail", detail)
}

/// JSON of the wrong shape. serde's messages name the field and the expected type; keep them,
/// minus the prefix, in the message and in `params.detail`.
pub fn invalid_body(raw: &str) -> ApiError {
    let text = raw
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .unwrap_or(raw);
    ApiError::refused(
        StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::InvalidBody,
        format!("Invalid request: {text}"),
    )
    .param("detail", text)
}

impl From<PathRejection> for ApiError {
    fn from(_: PathRejection) -> Self {
        // A malformed id cannot name anything that exists.
        ApiError::NotFound
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        let detail = r.body_text();
        ApiError::bad_request(
            ErrorCode::InvalidQuery,
            format!("Invalid query string: {detail}"),
        )
        .param("detail", detail)
    }
}

/// A 422 listing the first problems (row and column where there is one); `details` has
/// each of them. There is at least one problem: callers refuse only when they found one.
impl From<Vec<Problem>> for ApiError {
    fn from(mut problems: Vec<Problem>) -> Self {
        let total = problems.len();
        problems.truncate(20);
        let first = &problems[0];
        let mut message = match (first.row, &first.column) {
            (Some(r), Some(c)) => format!("Row {r}, column {c}: {}", first.message),
            (Some(r), None) => format!("Row {r}: {}", first.message),
            _ => first.message.clone(),
        };
        if total > 1 {
            message.push_str(&format!(" (and {} more problems)", total - 1));
        }
        // The code and values are the first problem's, with where it is and how many follow, so a
        // single line can say it all; `details` lists each problem with its own.
        let (code, mut params) = (first.code, first.params.clone());
        if let Some(row) = first.row {
            params.insert("row".into(), Value::from(row));
        }
        if total > 1 {
            params.insert("more".into(), Value::from(total - 1));
        }
        let mut error = ApiError::details(code, message, problems);
        if let ApiError::Refused(r) = &mut error {
            r.params = params;
        }
        error
    }
}
