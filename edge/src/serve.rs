//! Building responses: [`respond`] for any answer, and static files from memory with HTTP
//! caching semantics (the edge's own fixed pages are in [`crate::pages`]).
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
//!   HTML (so a publish shows at once, while a 304 keeps revisits cheap);
//! - on user files (uploads and the deploy's copies of them), `nosniff`, a sandboxing CSP and,
//!   for types that can carry script, `Content-Disposition: attachment`, on every answer
//!   (`vitrine_shared::uploads`): they are part of the [`Prepared`] headers, so a hot route
//!   and the plain front send exactly what the full path sends.

use bytes::Bytes;
use http_body_util::Full;
use hyper::{
    HeaderMap, Method, Response, StatusCode,
    header::{self, HeaderValue},
};
use vitrine_shared::{manifest::StaticFile, uploads};

use crate::{head, sites::Sites};

mod held;
use held::Held;

pub type Body = Full<Bytes>;
pub type Resp = Response<Body>;

pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub const REVALIDATE: &str = "public, max-age=0, must-revalidate";
pub const NO_STORE: &str = "no-store";
pub const HTML: &str = "text/html; charset=utf-8";
pub const TEXT: &str = "text/plain; charset=utf-8";
pub const JSON: &str = "application/json";
/// The HSTS policy sent over HTTPS by sites that opted in: one year.
pub const HSTS: &str = "max-age=31536000";

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

/// A representation; the discriminant indexes [`Prepared`]'s arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coding {
    Identity = 0,
    Br = 1,
    Gzip = 2,
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

/// A static file with what its answers need worked out once: the header values, the tags of
/// its three representations and, once [`Prepared::load`]ed, their bodies. The slow path makes
/// one per request; a visitor thread's hot route keeps a loaded one (see [`crate::hot`]).
pub struct Prepared {
    pub file: StaticFile,
    content_type: Option<HeaderValue>,
    /// For a user file (an upload, or a deploy's copy of one): the headers that keep it inert
    /// (`vitrine_shared::uploads`), sent with every answer, hot or not.
    user_file: &'static [(&'static str, &'static str)],
    /// Identity, br and gzip tags (the variants get their own: a different representation).
    tags: [String; 3],
    tag_values: [Option<HeaderValue>; 3],
    bodies: [Option<Held>; 3],
    /// The headers of each representation's whole `200` answer, built once when the bodies
    /// are loaded: cloning a header map costs a fraction of building one.
    full: [Option<HeaderMap>; 3],
    /// The same answers' HTTP/1.1 heads as the plain front writes them, up to the `date`
    /// header's value ([`crate::h1`]): written as they are, with no header map at all.
    heads: [Option<Vec<u8>>; 3],
    /// Where each head's headers end (see [`head::head_until_date`]).
    head_splits: [usize; 3],
}

impl Prepared {
    pub fn new(file: StaticFile) -> Prepared {
        let tags = [
            file.etag.clone(),
            variant_etag(&file.etag, "br"),
            variant_etag(&file.etag, "gz"),
        ];
        Prepared {
            content_type: HeaderValue::from_str(&file.content_type).ok(),
            user_file: if uploads::is_user_file(&file.key, &file.content_type) {
                uploads::user_file_headers(&file.content_type)
            } else {
                &[]
            },
            // No validator without a tag.
            tag_values: std::array::from_fn(|i| {
                (!file.etag.is_empty())
                    .then(|| HeaderValue::from_str(&tags[i]).ok())
                    .flatten()
            }),
            tags,
            bodies: [None, None, None],
            full: [None, None, None],
            heads: [None, None, None],
            head_splits: [0; 3],
            file,
        }
    }

    /// A file holding its identity body (for tests).
    #[cfg(test)]
    pub(crate) fn holding(file: StaticFile, body: Bytes) -> Prepared {
        let mut p = Prepared::new(file);
        p.bodies[Coding::Identity as usize] = Some(Held::Own(body));
        p
    }

    /// A page rendered from live records (or a read-API answer), answered as a static file
    /// holding its bodies: the same validators, ranges, `HEAD` and `Accept-Encoding`
    /// negotiation as the deploy's own pages, each variant with its own tag. The variants'
    /// keys are empty: their bodies are held, never fetched.
    pub fn rendered(r: &crate::sites::Rendered) -> Prepared {
        let file = StaticFile {
            key: String::new(),
            content_type: r.content_type.to_string(),
            etag: r.etag.clone().unwrap_or_default(),
            size: r.body.len() as u64,
            br: r.br.as_ref().map(|_| String::new()),
            gzip: r.gzip.as_ref().map(|_| String::new()),
            immutable: false,
        };
        let mut p = Prepared::new(file);
        p.bodies[Coding::Identity as usize] = Some(Held::Own(r.body.clone()));
        p.bodies[Coding::Br as usize] = r.br.clone().map(Held::Own);
        p.bodies[Coding::Gzip as usize] = r.gzip.clone().map(Held::Own);
        p
    }

    /// The object key of a representation.
    fn key(&self, coding: Coding) -> &str {
        match coding {
            Coding::Identity => &self.file.key,
            Coding::Br => self.file.br.as_deref().unwrap_or(&self.file.key),
            Coding::Gzip => self.file.gzip.as_deref().unwrap_or(&self.file.key),
        }
    }

    /// Loads the body of the representation a request chose (`wanted`, from the file cache) and
    /// makes its answer's headers and head, so answering it again needs no lookup. The other
    /// representations are loaded when a request asks for them: a hot route holds only what
    /// visitors ask for, so a page nobody asks compressed costs neither the lookups nor the
    /// hot routes' space of its variants. Whatever `held` (the hot route this one replaces)
    /// holds of the same file is taken over as it is.
    pub(crate) async fn load(
        mut self,
        sites: &Sites,
        wanted: Coding,
        held: Option<&Prepared>,
    ) -> Result<Prepared, FileError> {
        // What an earlier hot route of the same file held is the same bytes and headers.
        if let Some(old) = held.filter(|old| old.file == self.file) {
            for i in 0..3 {
                let alive = old.bodies[i].as_ref().is_some_and(Held::alive);
                if self.heads[i].is_none() && old.heads[i].is_some() && alive {
                    self.bodies[i].clone_from(&old.bodies[i]);
                    self.heads[i].clone_from(&old.heads[i]);
                    self.full[i].clone_from(&old.full[i]);
                    self.head_splits[i] = old.head_splits[i];
                }
            }
        }
        let present = match wanted {
            Coding::Identity => true,
            Coding::Br => self.file.br.is_some(),
            Coding::Gzip => self.file.gzip.is_some(),
        };
        let i = wanted as usize;
        let alive = self.bodies[i].as_ref().is_some_and(Held::alive);
        if !present || (self.heads[i].is_some() && alive) {
            return Ok(self);
        }
        let len = match self.bodies[i].as_ref().and_then(Held::own) {
            Some(own) => own.len(),
            None => {
                let body = fetch(sites, self.key(wanted)).await?;
                self.bodies[i] = Some(Held::from_cache(&body));
                body.len()
            }
        };
        let cache_control = self.cache_control(true);
        let mut headers = self.headers(wanted, true, cache_control);
        if let Some(v) = &self.content_type {
            headers.insert(header::CONTENT_TYPE, v.clone());
        }
        let (head, split) = head::head_until_date(&headers, len);
        self.heads[i] = Some(head);
        self.head_splits[i] = split;
        self.full[i] = Some(headers);
        Ok(self)
    }

    /// The representation an answer to a request with `headers` is made from: identity for a
    /// range that applies (offsets are cut from it), else what `Accept-Encoding` picks. `ok`:
    /// the answer is a `200` (only those take ranges).
    pub(crate) fn coding_for(&self, headers: &HeaderMap, ok: bool) -> Coding {
        self.coding_with(headers, self.range(headers, ok).is_some())
    }

    /// [`Prepared::coding_for`], once whether a range applies (`ranged`) is known.
    fn coding_with(&self, headers: &HeaderMap, ranged: bool) -> Coding {
        if ranged {
            Coding::Identity
        } else {
            negotiate(
                headers
                    .get(header::ACCEPT_ENCODING)
                    .and_then(|v| v.to_str().ok()),
                &self.file,
            )
        }
    }

    /// The `Range` header an answer honours: only on a `200` (`ok`), and only while `If-Range`
    /// (when sent) names the representation the client holds.
    fn range<'h>(&self, headers: &'h HeaderMap, ok: bool) -> Option<&'h str> {
        headers
            .get(header::RANGE)
            .and_then(|v| v.to_str().ok())
            .filter(|_| ok)
            .filter(|_| {
                headers
                    .get(header::IF_RANGE)
                    .and_then(|v| v.to_str().ok())
                    .is_none_or(|t| t.trim() == self.file.etag)
            })
    }

    fn cache_control(&self, ok: bool) -> &'static str {
        if !ok {
            NO_STORE
        } else if self.file.immutable {
            IMMUTABLE
        } else {
            REVALIDATE
        }
    }

    /// The headers every answer in `coding` has: its cache policy, validator and encoding.
    /// `ok`: a `200`-family answer (an error page has no validator and takes no ranges).
    fn headers(&self, coding: Coding, ok: bool, cache_control: &'static str) -> HeaderMap {
        let mut h = HeaderMap::with_capacity(8);
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache_control),
        );
        if ok && let Some(v) = &self.tag_values[coding as usize] {
            h.insert(header::ETAG, v.clone());
        }
        if self.file.br.is_some() || self.file.gzip.is_some() {
            h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        if ok {
            h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        }
        for (name, value) in self.user_file {
            h.insert(*name, HeaderValue::from_static(value));
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
        h
    }

    /// The whole `200` answer to a `GET` or `HEAD` without conditions or ranges, for the
    /// plain front: the representation `Accept-Encoding` picks, when its head is made and its
    /// body is there. The same answer [`held_file`] gives such a request. With the coding
    /// comes a named body (see [`held`]), taken from the file cache; a body held outright is
    /// read with [`Prepared::plain_parts`].
    pub(crate) fn plain(&self, accept_encoding: Option<&str>) -> Option<(Coding, Option<Bytes>)> {
        let coding = negotiate(accept_encoding, &self.file);
        let i = coding as usize;
        self.heads[i].as_ref()?;
        match self.bodies[i].as_ref()? {
            Held::Own(_) => Some((coding, None)),
            named => Some((coding, Some(named.get()?))),
        }
    }

    /// The head (up to the date's value) and the body held outright of [`Prepared::plain`]'s
    /// answer.
    pub(crate) fn plain_parts(&self, coding: Coding) -> (&[u8], &[u8]) {
        let i = coding as usize;
        (
            self.heads[i].as_deref().unwrap_or_default(),
            self.bodies[i]
                .as_ref()
                .and_then(Held::own)
                .map_or(&[][..], |b| &b[..]),
        )
    }

    /// Where the headers of [`Prepared::plain_parts`]'s head end.
    pub(crate) fn plain_head_split(&self, coding: Coding) -> usize {
        self.head_splits[coding as usize]
    }

    /// Bytes of the bodies held outright (named ones are the file cache's).
    pub fn body_bytes(&self) -> usize {
        self.bodies.iter().flatten().map(Held::own_len).sum()
    }

    /// Bytes of the bodies held outright and of the heads made.
    pub fn held_bytes(&self) -> usize {
        self.body_bytes() + self.heads.iter().flatten().map(Vec::len).sum::<usize>()
    }
}

async fn fetch(sites: &Sites, key: &str) -> Result<std::sync::Arc<Bytes>, FileError> {
    sites.file(key).await.map_err(|e| FileError {
        key: key.to_string(),
        message: e.to_string(),
    })
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
/// no ranges and no 304). A body the [`Prepared`] file does not hold comes from the file cache.
pub async fn static_file(
    sites: &Sites,
    method: &Method,
    headers: &HeaderMap,
    prepared: &Prepared,
    status: StatusCode,
) -> Result<Resp, FileError> {
    match answer(method, headers, prepared, status, None) {
        Ok(r) => Ok(r),
        Err(coding) => {
            // Boxed: a held body (a hot route) should not carry the cache lookup's future.
            let key = prepared.key(coding);
            let body = Box::pin(fetch(sites, key)).await?;
            answer(method, headers, prepared, status, Some(Bytes::clone(&body))).map_err(|_| {
                FileError {
                    key: key.to_string(),
                    message: "representation changed while it was read".into(),
                }
            })
        }
    }
}

/// [`static_file`] from the bodies `prepared` holds alone: `None` when the answer needs one it
/// does not hold. Synchronous, for the hot routes.
pub fn held_file(
    method: &Method,
    headers: &HeaderMap,
    prepared: &Prepared,
    status: StatusCode,
) -> Option<Resp> {
    answer(method, headers, prepared, status, None).ok()
}

/// The answer, with `fetched` as the body when `prepared` holds none for the chosen coding;
/// `Err(coding)` when neither has it.
fn answer(
    method: &Method,
    headers: &HeaderMap,
    prepared: &Prepared,
    status: StatusCode,
    fetched: Option<Bytes>,
) -> Result<Resp, Coding> {
    let ok = status == StatusCode::OK;
    let range_header = prepared.range(headers, ok);
    let coding = prepared.coding_with(headers, range_header.is_some());
    let cache_control = prepared.cache_control(ok);
    if ok && headers.contains_key(header::IF_NONE_MATCH) {
        let tags = prepared.tags.each_ref().map(String::as_str);
        if none_match(headers, &tags) {
            let mut r = Response::new(Full::new(Bytes::new()));
            *r.status_mut() = StatusCode::NOT_MODIFIED;
            *r.headers_mut() = prepared.headers(coding, ok, cache_control);
            return Ok(r);
        }
    }
    let held = prepared.bodies[coding as usize]
        .as_ref()
        .and_then(Held::get);
    let Some(body) = held.or(fetched) else {
        return Err(coding);
    };
    let len = body.len() as u64;
    let (status, body, content_range) = match range_header.map(|r| parse_range(r, len)) {
        Some(Range::One(start, end)) => (
            StatusCode::PARTIAL_CONTENT,
            body.slice(start as usize..=end as usize),
            Some(format!("bytes {start}-{end}/{len}")),
        ),
        Some(Range::Unsatisfiable) => {
            let mut r = Response::new(Full::new(Bytes::from_static(b"Range Not Satisfiable")));
            *r.status_mut() = StatusCode::RANGE_NOT_SATISFIABLE;
            let h = r.headers_mut();
            *h = prepared.headers(coding, ok, cache_control);
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(TEXT));
            if let Ok(v) = HeaderValue::from_str(&format!("bytes */{len}")) {
                h.insert(header::CONTENT_RANGE, v);
            }
            return Ok(r);
        }
        _ => (status, body, None),
    };
    let mut r = Response::new(Full::new(body));
    *r.status_mut() = status;
    match &prepared.full[coding as usize] {
        Some(full) if ok && content_range.is_none() => *r.headers_mut() = full.clone(),
        _ => {
            let h = r.headers_mut();
            *h = prepared.headers(coding, ok, cache_control);
            if let Some(v) = &prepared.content_type {
                h.insert(header::CONTENT_TYPE, v.clone());
            }
            if let Some(cr) = content_range.and_then(|c| HeaderValue::from_str(&c).ok()) {
                h.insert(header::CONTENT_RANGE, cr);
            }
        }
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
mod tests;
