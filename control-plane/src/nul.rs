//! The NUL character (U+0000) is refused where requests come in, once for every handler.
//!
//! PostgreSQL's `text` cannot hold U+0000: a NUL that reaches a query is a database error (a
//! 500) on PostgreSQL, while SQLite stores it. No text the platform keeps has a use for it, so
//! it is a 422 `nul_character` on both databases, before any handler runs:
//!
//! - in the URI (a path segment or a query key or value, `%00`), by [`refuse_in_uri`], a
//!   middleware over every route, whatever extractor the handler uses;
//! - in a JSON body (any string or key, at any depth), by [`crate::extract::ApiJson`] and the
//!   handlers that read an optional JSON body themselves, through [`refuse_in_json`];
//! - in an imported file, by the import ([`crate::routes::import_export`]), which names the row.
//!
//! Header values cannot carry a NUL (the HTTP parser refuses it), so cookies and tokens in
//! headers need no check here.

use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::{IntoResponse, Response},
};
use serde_json::Value;

use crate::error::{ApiError, Result};

/// Refuses a request whose path or query string holds a percent-encoded NUL (`%00`), naming
/// the query key or the path parameter.
pub async fn refuse_in_uri(request: Request, next: Next) -> Response {
    match check_uri(&request) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

fn check_uri(request: &Request) -> Result<()> {
    let uri = request.uri();
    if let Some(query) = uri.query().filter(|q| has_encoded_nul(q)) {
        let field = url::form_urlencoded::parse(query.as_bytes())
            .find(|(k, v)| k.contains('\0') || v.contains('\0'))
            .map(|(k, _)| printable(&k));
        return Err(ApiError::Nul { field });
    }
    if has_encoded_nul(uri.path()) {
        let field = request
            .extensions()
            .get::<MatchedPath>()
            .and_then(|route| path_parameter(route.as_str(), uri.path()));
        return Err(ApiError::Nul { field });
    }
    Ok(())
}

/// Whether percent-decoding `raw` yields a NUL. Decoding is one pass in which a `%` is never
/// part of an earlier escape, so every `%00` in the raw text decodes to a NUL, and a NUL
/// cannot be written otherwise (the HTTP parser refuses raw control bytes in the URI).
fn has_encoded_nul(raw: &str) -> bool {
    raw.contains("%00")
}

/// The name of the route parameter whose segment holds the NUL (`id` for `/api/page/{id}`);
/// a catch-all parameter (`{*key}`) takes every segment from its own on.
fn path_parameter(route: &str, path: &str) -> Option<String> {
    let index = path.split('/').position(has_encoded_nul)?;
    let mut last = None;
    for (i, segment) in route.split('/').enumerate() {
        let name = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
        if let Some(wildcard) = name.and_then(|n| n.strip_prefix('*')) {
            last = Some(wildcard);
        }
        if i == index {
            return name.map(|n| n.trim_start_matches('*').to_string());
        }
    }
    last.map(String::from)
}

/// Refuses a JSON body with a NUL in any string or key, naming where (`fields[0].value`).
/// Malformed JSON passes: the parser that follows reports it as such.
pub fn refuse_in_json(body: &[u8]) -> Result<()> {
    // In valid JSON a NUL can only be written as the escape `\u0000` (a raw control byte in a
    // string is a syntax error), so one pass over the bytes clears almost every body; only a
    // body with the escape is parsed to say where it is.
    if !has_nul_escape(body) {
        return Ok(());
    }
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Ok(());
    };
    match nul_path(&value) {
        Some(path) => Err(ApiError::Nul {
            field: Some(path).filter(|p| !p.is_empty()),
        }),
        None => Ok(()),
    }
}

/// Whether the bytes hold the escape `\u0000` (a backslash that is itself escaped, `\\u0000`,
/// is text, not a NUL).
fn has_nul_escape(body: &[u8]) -> bool {
    let mut rest = body;
    while let Some(i) = rest.iter().position(|b| *b == b'\\') {
        if rest[i + 1..].starts_with(b"u0000") {
            return true;
        }
        // Skip the escaped character, which may itself be a backslash.
        rest = rest.get(i + 2..).unwrap_or_default();
    }
    false
}

/// Where the first NUL of a JSON value is, as a path (`meta.title`, `fields[2].value`; empty
/// for the value itself), or None.
pub fn nul_path(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => s.contains('\0').then(String::new),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| nul_path(item).map(|rest| format!("[{i}]{}", dotted(&rest)))),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            if key.contains('\0') {
                return Some(printable(key));
            }
            nul_path(item).map(|rest| format!("{key}{}", dotted(&rest)))
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => None,
    }
}

/// The rest of a path after a key or an index: `.name` or `[0]`, as written.
fn dotted(rest: &str) -> String {
    if rest.is_empty() || rest.starts_with('[') {
        rest.to_string()
    } else {
        format!(".{rest}")
    }
}

/// A name that holds a NUL, shown with the escape instead.
fn printable(name: &str) -> String {
    name.replace('\0', "\\u0000")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(body: &str) -> Option<Option<String>> {
        match refuse_in_json(body.as_bytes()) {
            Ok(()) => None,
            Err(ApiError::Nul { field }) => Some(field),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_nul_anywhere_in_a_json_body_is_found_and_named() {
        assert_eq!(field(r#"{"name": "a\u0000b"}"#), Some(Some("name".into())));
        assert_eq!(
            field(r#"{"fields": [{"field_id": 1, "value": "x"}, {"value": ["\u0000"]}]}"#),
            Some(Some("fields[1].value[0]".into()))
        );
        assert_eq!(
            field(r#"{"meta": {"a\u0000": 1}}"#),
            Some(Some("meta.a\\u0000".into()))
        );
        assert_eq!(field(r#"[[1], ["\u0000"]]"#), Some(Some("[1][0]".into())));
        assert_eq!(field(r#""\u0000""#), Some(None));
    }

    #[test]
    fn text_that_only_looks_like_a_nul_passes() {
        // An escaped backslash followed by `u0000` is the six characters `\u0000`.
        assert_eq!(field(r#"{"name": "a\\u0000b"}"#), None);
        assert_eq!(field(r#"{"name": "a\\\\u0000b"}"#), None);
        assert_eq!(
            field(r#"{"name": "\u0001 \u00000"}"#),
            Some(Some("name".into()))
        );
        assert_eq!(field(r#"{"name": "plain", "n": 0}"#), None);
        assert_eq!(field("{\"name\": \"ends with a backslash\\\\\"}"), None);
        // Malformed JSON is left to the parser, which says it is malformed.
        assert_eq!(field(r#"{"name": "\u0000"#), None);
    }

    #[test]
    fn the_uri_check_names_the_query_key_or_the_path_parameter() {
        assert!(has_encoded_nul("a=%00") && has_encoded_nul("%%00"));
        assert!(!has_encoded_nul("a=%2500") && !has_encoded_nul("a=%0"));
        assert_eq!(
            path_parameter(
                "/api/project/{id}/page/{page_id}",
                "/api/project/1/page/2%00"
            ),
            Some("page_id".into())
        );
        assert_eq!(
            path_parameter("/files/{*key}", "/files/a/b%00/c"),
            Some("key".into())
        );
        assert_eq!(path_parameter("/api/x", "/api/x%00"), None);
    }
}
