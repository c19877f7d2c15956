//! Building responses: static files from memory with HTTP caching semantics, and the small
//! fixed pages (platform 404, "site not published", default site 404/500, JSON errors).
//!
//! Static bodies are `Bytes` shared with the file cache, so a response costs no copy. What is
//! implemented, and deliberately no more:
//! - strong `ETag`s from the manifest (a precompressed variant gets its own, `"…-br"` /
//!   `"…-gz"`, since it is a different representation) and `If-None-Match` → 304;
//! - `Accept-Encoding` negotiation preferring br, then gzip, with `Vary: Accept-Encoding`;
//! - one byte range (`Range: bytes=…`) → 206, or 416 when it cannot be satisfied; a request
//!   for several ranges gets the whole body (allowed by RFC 9110), and ranges are always cut
//!   from the identity body, so offsets mean what the client thinks they mean;
//! - `Cache-Control`: a year and `immutable` for content-addressed assets, revalidation for
//!   HTML (so a publish shows at once, while a 304 keeps revisits cheap).

use bytes::Bytes;
use http_body_util::Full;
use hyper::{
    HeaderMap, Method, Response, StatusCode,
    header::{self, HeaderValue},
};
use vitrine_shared::site::StaticFile;

use crate::sites::Sites;

pub type Body = Full<Bytes>;
pub type Resp = Response<Body>;

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const REVALIDATE: &str = "public, max-age=0, must-revalidate";
pub const NO_STORE: &str = "no-store";
pub const HTML: &str = "text/html; charset=utf-8";
pub const TEXT: &str = "text/plain; charset=utf-8";
pub const JSON: &str = "application/json";

/// A response with a body, its type and cache policy.
pub fn respond(
    status: StatusCode,
    content_type: &str,
    cache_control: &'static str,
    body: impl Into<Bytes>,
) -> Resp {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(content_type) {
        h.insert(header::CONTENT_TYPE, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    r
}

/// `{"error": code, "message": text}` with a 4xx/5xx status (DESIGN §5).
pub fn json_error(status: StatusCode, code: &str, message: &str) -> Resp {
    let body = serde_json::json!({ "error": code, "message": message }).to_string();
    respond(status, JSON, NO_STORE, body)
}

fn page(title: &str, pt: &str, en: &str) -> String {
    format!(
        "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title><style>body{{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f6f5f2;color:#222}}main{{text-align:center;padding:2rem}}h1{{font-size:1.6rem}}</style></head><body><main><h1>{title}</h1><p>{pt}</p><p lang=\"en\">{en}</p></main></body></html>"
    )
}

/// The platform's page for a host that serves no site.
pub const NOT_FOUND_PAGE: &str = "<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Site não encontrado</title><style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f6f5f2;color:#222}main{text-align:center;padding:2rem}h1{font-size:1.6rem}</style></head><body><main><h1>Site não encontrado</h1><p>Não há nenhum site publicado neste endereço.</p><p lang=\"en\">There is no published site at this address.</p></main></body></html>";

pub fn platform_not_found() -> Resp {
    respond(StatusCode::NOT_FOUND, HTML, NO_STORE, NOT_FOUND_PAGE)
}

/// A known project that is not published (never published, or taken down).
pub fn not_published() -> Resp {
    respond(
        StatusCode::NOT_FOUND,
        HTML,
        NO_STORE,
        page(
            "Site não publicado",
            "Este site existe, mas ainda não foi publicado (ou foi retirado do ar pelo dono).",
            "This site exists but is not published.",
        ),
    )
}

pub fn bad_request(pt: &str, en: &str) -> Resp {
    respond(
        StatusCode::BAD_REQUEST,
        HTML,
        NO_STORE,
        page("Pedido inválido", pt, en),
    )
}

/// The database is unreachable and nothing for this request was cached.
pub fn unavailable() -> Resp {
    let mut r = respond(
        StatusCode::SERVICE_UNAVAILABLE,
        HTML,
        NO_STORE,
        page(
            "Site temporariamente indisponível",
            "Tente de novo em instantes.",
            "Temporarily unavailable, please try again shortly.",
        ),
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    r
}

/// The site's 404 when it published none.
pub fn default_site_not_found() -> String {
    page(
        "Página não encontrada",
        "A página que você procura não existe.",
        "The page you are looking for does not exist.",
    )
}

/// The site's 500 when it published none.
pub fn default_site_error() -> String {
    page(
        "Erro no site",
        "Esta página não pôde ser exibida.",
        "This page could not be shown.",
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Identity,
    Br,
    Gzip,
}

/// Which precompressed variant to send: br, then gzip, when the client accepts it (`q` > 0)
/// and the deploy has it.
fn negotiate(accept: Option<&str>, file: &StaticFile) -> Coding {
    let Some(accept) = accept else {
        return Coding::Identity;
    };
    let accepts = |name: &str| {
        accept.split(',').any(|item| {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (coding.eq_ignore_ascii_case(name) || coding == "*") && q > 0.0
        })
    };
    if file.br.is_some() && accepts("br") {
        Coding::Br
    } else if file.gzip.is_some() && accepts("gzip") {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

fn variant_etag(etag: &str, suffix: &str) -> String {
    match etag.strip_suffix('"') {
        Some(open) => format!("{open}-{suffix}\""),
        None => format!("\"{etag}-{suffix}\""),
    }
}

/// Whether `If-None-Match` names one of the representations' tags (weak comparison).
fn none_match(headers: &HeaderMap, tags: &[&str]) -> bool {
    let Some(inm) = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    inm.split(',').map(str::trim).any(|t| {
        t == "*" || {
            let t = t.strip_prefix("W/").unwrap_or(t);
            tags.contains(&t)
        }
    })
}

/// A single satisfiable range `start..=end` of `len` bytes.
#[derive(Debug, PartialEq, Eq)]
enum Range {
    None,
    One(u64, u64),
    Unsatisfiable,
}

fn parse_range(value: &str, len: u64) -> Range {
    let Some(spec) = value.trim().strip_prefix("bytes=") else {
        return Range::None;
    };
    if spec.contains(',') {
        return Range::None;
    }
    let Some((a, b)) = spec.trim().split_once('-') else {
        return Range::None;
    };
    let (a, b) = (a.trim(), b.trim());
    let parsed = match (a.is_empty(), b.is_empty()) {
        (true, true) => return Range::None,
        (true, false) => match b.parse::<u64>() {
            Ok(0) => return Range::Unsatisfiable,
            Ok(n) => Some((len.saturating_sub(n), len.saturating_sub(1))),
            Err(_) => return Range::None,
        },
        (false, _) => {
            let Ok(start) = a.parse::<u64>() else {
                return Range::None;
            };
            let end = if b.is_empty() {
                Some(len.saturating_sub(1))
            } else {
                b.parse::<u64>().ok().map(|e| e.min(len.saturating_sub(1)))
            };
            match end {
                Some(end) if b.is_empty() || b.parse::<u64>().is_ok_and(|e| e >= start) => {
                    Some((start, end))
                }
                _ => return Range::None,
            }
        }
    };
    match parsed {
        Some((start, end)) if len > 0 && start < len && start <= end => Range::One(start, end),
        _ => Range::Unsatisfiable,
    }
}

/// Why a static file could not be served.
#[derive(Debug, thiserror::Error)]
#[error("object {key}: {message}")]
pub struct FileError {
    pub key: String,
    pub message: String,
}

/// Serves one stored file for a GET or HEAD, honouring the request's validators, range and
/// encodings. `status` is 200 for routes and 404/500 for the site's error pages (which take
/// no ranges and no 304).
pub async fn static_file(
    sites: &Sites,
    method: &Method,
    headers: &HeaderMap,
    file: &StaticFile,
    status: StatusCode,
) -> Result<Resp, FileError> {
    let ok = status == StatusCode::OK;
    let range_header = headers
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .filter(|_| ok)
        .filter(|_| {
            // If-Range: the range applies only to the representation the client holds.
            headers
                .get(header::IF_RANGE)
                .and_then(|v| v.to_str().ok())
                .is_none_or(|t| t.trim() == file.etag)
        });
    let coding = if range_header.is_some() {
        Coding::Identity
    } else {
        negotiate(
            headers
                .get(header::ACCEPT_ENCODING)
                .and_then(|v| v.to_str().ok()),
            file,
        )
    };
    let (key, etag) = match coding {
        Coding::Identity => (file.key.as_str(), file.etag.clone()),
        Coding::Br => (
            file.br.as_deref().unwrap_or(&file.key),
            variant_etag(&file.etag, "br"),
        ),
        Coding::Gzip => (
            file.gzip.as_deref().unwrap_or(&file.key),
            variant_etag(&file.etag, "gz"),
        ),
    };
    let cache_control = if !ok {
        NO_STORE
    } else if file.immutable {
        IMMUTABLE
    } else {
        REVALIDATE
    };
    let varies = file.br.is_some() || file.gzip.is_some();
    let headers_for = |r: &mut Resp| {
        let h = r.headers_mut();
        if ok && let Ok(v) = HeaderValue::from_str(&etag) {
            h.insert(header::ETAG, v);
        }
        if varies {
            h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        if ok {
            h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        }
        match coding {
            Coding::Br => {
                h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
            }
            Coding::Gzip => {
                h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            }
            Coding::Identity => {}
        }
    };
    if ok {
        let br = variant_etag(&file.etag, "br");
        let gz = variant_etag(&file.etag, "gz");
        if none_match(headers, &[file.etag.as_str(), br.as_str(), gz.as_str()]) {
            let mut r = respond(
                StatusCode::NOT_MODIFIED,
                &file.content_type,
                cache_control,
                Bytes::new(),
            );
            r.headers_mut().remove(header::CONTENT_TYPE);
            headers_for(&mut r);
            return Ok(r);
        }
    }
    let body = sites.file(key).await.map_err(|e| FileError {
        key: key.to_string(),
        message: e.to_string(),
    })?;
    let len = body.len() as u64;
    let (status, body, content_range) = match range_header.map(|r| parse_range(r, len)) {
        Some(Range::One(start, end)) => (
            StatusCode::PARTIAL_CONTENT,
            body.slice(start as usize..=end as usize),
            Some(format!("bytes {start}-{end}/{len}")),
        ),
        Some(Range::Unsatisfiable) => {
            let mut r = respond(
                StatusCode::RANGE_NOT_SATISFIABLE,
                TEXT,
                cache_control,
                "Range Not Satisfiable",
            );
            if let Ok(v) = HeaderValue::from_str(&format!("bytes */{len}")) {
                r.headers_mut().insert(header::CONTENT_RANGE, v);
            }
            headers_for(&mut r);
            return Ok(r);
        }
        _ => (status, body, None),
    };
    let mut r = respond(status, &file.content_type, cache_control, body.clone());
    headers_for(&mut r);
    if let Some(cr) = content_range.and_then(|c| HeaderValue::from_str(&c).ok()) {
        r.headers_mut().insert(header::CONTENT_RANGE, cr);
    }
    Ok(head_if(method, r))
}

/// For HEAD: the same headers with the length the body would have, and no body.
pub fn head_if(method: &Method, mut r: Resp) -> Resp {
    if method == Method::HEAD {
        let len = hyper::body::Body::size_hint(r.body()).exact().unwrap_or(0);
        r.headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(len));
        *r.body_mut() = Full::new(Bytes::new());
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(br: bool, gz: bool) -> StaticFile {
        StaticFile {
            key: "k".into(),
            content_type: "text/html".into(),
            etag: "\"abc\"".into(),
            size: 10,
            br: br.then(|| "k.br".into()),
            gzip: gz.then(|| "k.gz".into()),
            immutable: false,
        }
    }

    #[test]
    fn encodings_prefer_br_then_gzip_and_respect_q_zero() {
        let f = file(true, true);
        assert_eq!(negotiate(Some("gzip, deflate, br"), &f), Coding::Br);
        assert_eq!(negotiate(Some("gzip"), &f), Coding::Gzip);
        assert_eq!(negotiate(Some("br;q=0, gzip;q=0.5"), &f), Coding::Gzip);
        assert_eq!(negotiate(Some("identity"), &f), Coding::Identity);
        assert_eq!(negotiate(None, &f), Coding::Identity);
        assert_eq!(negotiate(Some("*"), &f), Coding::Br);
        assert_eq!(negotiate(Some("br"), &file(false, true)), Coding::Identity);
    }

    #[test]
    fn ranges_parse_one_range_and_refuse_the_unsatisfiable() {
        assert_eq!(parse_range("bytes=0-3", 10), Range::One(0, 3));
        assert_eq!(parse_range("bytes=5-", 10), Range::One(5, 9));
        assert_eq!(parse_range("bytes=-3", 10), Range::One(7, 9));
        assert_eq!(parse_range("bytes=-30", 10), Range::One(0, 9));
        assert_eq!(parse_range("bytes=8-100", 10), Range::One(8, 9));
        assert_eq!(parse_range("bytes=10-", 10), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=-0", 10), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=0-0", 0), Range::Unsatisfiable);
        assert_eq!(parse_range("bytes=0-1,3-4", 10), Range::None);
        assert_eq!(parse_range("bytes=5-2", 10), Range::None);
        assert_eq!(parse_range("items=0-1", 10), Range::None);
        assert_eq!(parse_range("bytes=x-1", 10), Range::None);
        assert_eq!(parse_range("bytes=99999999999999999999-", 10), Range::None);
    }

    #[test]
    fn variant_tags_differ_from_the_identity_tag() {
        assert_eq!(variant_etag("\"abc\"", "br"), "\"abc-br\"");
        let mut h = HeaderMap::new();
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("W/\"x\", \"abc-br\""),
        );
        assert!(none_match(&h, &["\"abc\"", "\"abc-br\""]));
        assert!(!none_match(&h, &["\"abc\""]));
    }
}
