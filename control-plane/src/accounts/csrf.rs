//! Refuses state-changing requests that come from another origin.
//!
//! The session cookie is SameSite=Lax, and JSON bodies need `Content-Type: application/json`
//! (which a cross-site form cannot send without a CORS preflight that we never grant). On top
//! of that, this layer checks the `Origin` header (or `Sec-Fetch-Site` when there is none) of
//! every request that is not a safe method, and of `GET /api/logout`, which changes state.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, Method, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode},
};

pub async fn same_origin_only(State(core): State<Core>, request: Request, next: Next) -> Response {
    let changes_state = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) || request.uri().path() == "/api/logout";
    if changes_state && !is_same_origin(request.headers(), &core.settings.public_url) {
        return ApiError::forbidden(ErrorCode::CrossOrigin, "Cross-origin request refused")
            .into_response();
    }
    next.run(request).await
}

/// Same origin when `Origin` matches the request's own host or the configured public URL; with
/// no `Origin`, when the browser does not say the request is cross-site (non-browser clients
/// send neither header and are not exposed to CSRF).
fn is_same_origin(headers: &HeaderMap, public_url: &str) -> bool {
    match headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        Some(origin) => {
            let Ok(origin_url) = url::Url::parse(origin) else {
                return false;
            };
            let origin_host = match (origin_url.host_str(), origin_url.port()) {
                (Some(h), Some(p)) => format!("{h}:{p}"),
                (Some(h), None) => h.to_string(),
                _ => return false,
            };
            let host = headers
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let public = url::Url::parse(public_url).ok();
            origin_host.eq_ignore_ascii_case(host)
                || public.is_some_and(|p| p.origin() == origin_url.origin())
        }
        None => !matches!(
            headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()),
            Some("cross-site" | "same-site")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn origins_are_compared_with_the_host_and_public_url() {
        let public = "https://app.vitrine.site";
        assert!(is_same_origin(
            &headers(&[
                ("origin", "http://127.0.0.1:8000"),
                ("host", "127.0.0.1:8000")
            ]),
            public
        ));
        assert!(is_same_origin(
            &headers(&[
                ("origin", "https://app.vitrine.site"),
                ("host", "internal:8000")
            ]),
            public
        ));
        assert!(!is_same_origin(
            &headers(&[
                ("origin", "https://evil.example"),
                ("host", "127.0.0.1:8000")
            ]),
            public
        ));
        assert!(!is_same_origin(
            &headers(&[("origin", "null"), ("host", "127.0.0.1:8000")]),
            public
        ));
        assert!(is_same_origin(
            &headers(&[("host", "127.0.0.1:8000")]),
            public
        ));
        assert!(is_same_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            public
        ));
        assert!(!is_same_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            public
        ));
    }
}
