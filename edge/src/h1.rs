//! The HTTP/1.1 front of the visitor listeners (plain connections, and TLS connections that
//! chose `http/1.1` or no protocol by ALPN): it reads a connection's `GET` and `HEAD`
//! requests itself and answers them through the edge's own request handling, hot routes first
//! ([`crate::visit::Visits::hot_ask`]) and then the full path ([`crate::conn::Conn::handle`],
//! the very handler hyper's service calls). The first request it does not take hands the whole
//! connection, with the bytes already read, to hyper ([`crate::conn::drive`]) for the rest of
//! its life.
//!
//! Why: under load, hyper's own work per request (reading and parsing into a `Request` with
//! its header map, the per-request header-read timer, encoding the response head from a
//! header map) was most of the edge's user time, and `benches/edge-load.sh` showed that this
//! work decides the throughput against nginx on these two cores. A hot route's answer needs
//! none of it: the request is parsed in place, the answer is the hot route's, and it is
//! written with one `writev`. A request no hot route holds gets a `Request` built as hyper
//! builds one and goes the full path, so a connection stays here whatever it asks for.
//!
//! Over TLS the front reads and writes the rustls stream as it does a TCP socket: the head
//! and body go to rustls in one vectored write, which seals them into full-size records (up to
//! 16 KB of plaintext each, not one record per slice), and one flush per answer hands those
//! records to the socket in one `writev`. A site that opted into HSTS gets its header over
//! TLS, where hyper would put it. `EDGE_PLAIN_FRONT=false` turns the front off on both
//! listeners.
//!
//! Parsing is httparse's, the parser hyper itself uses, with the same default configuration;
//! nothing here reads HTTP syntax by hand. Only the plainest requests are taken; everything
//! else goes to hyper, untouched:
//! - HTTP/1.1 `GET` or `HEAD` in origin form, with exactly one `Host`;
//! - no request body or framing headers (`Content-Length`, `Transfer-Encoding`), no
//!   `Expect`, no `Upgrade`, and `Connection` absent, `keep-alive` or `close` (answered with
//!   `connection: close`, then the connection shut, as hyper does);
//! - at most [`MAX_HEADERS`] headers, and a head within `EDGE_MAX_HEADER_BYTES`.
//!
//! The response head is written as hyper writes it: lower-case names in the answer's order,
//! `content-length` from the body unless the answer names one (a `HEAD`), none and no body for
//! `304`, and a `date` formatted once a second. An HTTP/2 preface is not HTTP/1.1 to httparse,
//! so h2c with prior knowledge reaches hyper's protocol sniffing as before. The slow-client
//! rules are kept: the head of each request must be complete within `EDGE_HEADER_TIMEOUT_MS`
//! of the wait for it starting, as with hyper's `header_read_timeout` (which also bounds an
//! idle keep-alive connection), and a shutdown closes an idle connection at once.

use std::{
    io::{self, IoSlice},
    mem::MaybeUninit,
    net::IpAddr,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll, Waker},
    time::Instant,
};

use bytes::{Buf, Bytes, BytesMut};
use http_body_util::Empty;
use hyper::{
    HeaderMap, Method, Request, StatusCode, Uri, Version,
    body::Body as _,
    header::{self, HeaderName, HeaderValue},
};
use hyper_util::{rt::TokioIo, server::graceful::Watcher};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf},
    sync::watch,
};

use crate::{
    analytics::Seen,
    conn::{Alpn, Conn, drive},
    head::{push_date, push_length, push_status, put_headers},
    hot::{HotRoute, Local},
    request::{HotAsk, VisitBody},
    serve::{Coding, HSTS, Resp},
};

/// Headers a request answered here may have; more go to hyper (whose limit is 100).
pub const MAX_HEADERS: usize = 32;
/// The read buffer's first size; it grows up to `EDGE_MAX_HEADER_BYTES` for a long head.
const READ_CHUNK: usize = 4096;
/// The header hyper adds to the answer of a request that asked to close.
const CONNECTION_CLOSE: &[u8] = b"connection: close\r\n";

/// What the front made of the bytes read so far.
enum Step {
    /// A complete request answered: `consumed` bytes of it; the response head is in the
    /// connection's head buffer.
    /// `close`: the request said `Connection: close`, so the head says it too and the
    /// connection is shut after the answer, as hyper does.
    Answer {
        consumed: usize,
        body: Body,
        close: bool,
    },
    /// A complete request no hot route holds, for the full path: `consumed` bytes of it.
    Slow {
        consumed: usize,
        req: Box<Request<VisitBody>>,
        close: bool,
    },
    /// The head is not complete yet.
    Partial,
    /// Not for this front: hyper takes the connection.
    Hyper,
    /// Framed two ways at once (see [`ambiguous`]): answered `400` and the connection closed.
    Refuse,
}

/// The body sent after the head.
enum Body {
    /// A hot route's held body in this representation (most requests), sent as it is held:
    /// no reference count another thread also touches is moved.
    Held {
        route: Arc<HotRoute>,
        coding: Coding,
    },
    /// Any other answer's body (none for `HEAD`), or a large one the route names in the file
    /// cache.
    Made(Bytes),
}

/// Serves a visitor connection that speaks HTTP/1.1, or may: a plain one, or a TLS one that
/// did not choose h2 (`secure`). See the module docs. With `EDGE_PLAIN_FRONT` off, hyper
/// serves it from the start.
pub(crate) async fn serve<S>(
    conn: Arc<Conn>,
    mut stream: S,
    peer: IpAddr,
    watcher: Watcher,
    mut shutdown: watch::Receiver<bool>,
    secure: bool,
    alpn: Option<Alpn>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let Some(local) = conn.local.as_ref().filter(|_| conn.front) else {
        return drive(conn, TokioIo::new(stream), peer, watcher, alpn).await;
    };
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    let mut head = Vec::with_capacity(512);
    // One timer and one shutdown waiter for the connection's life, not one per request: the
    // timer is moved only when it fires early (see below).
    let limit = conn.header_timeout;
    let mut wait_began = tokio::time::Instant::now();
    let timer = tokio::time::sleep_until(wait_began + limit);
    let stop = shutdown.wait_for(|s| *s);
    tokio::pin!(timer, stop);
    // Whether the buffer's first bytes belong to a head already waited for.
    let mut waiting = true;
    loop {
        let (consumed, body, close) = match step(&conn, local, &buf, &mut head, (peer, secure)) {
            Step::Answer {
                consumed,
                body,
                close,
            } => (consumed, body, close),
            Step::Slow {
                consumed,
                req,
                close,
            } => {
                let method = req.method().clone();
                let body = encode(conn.handle(*req, peer).await, &method, close, &mut head);
                (consumed, Body::Made(body), close)
            }
            Step::Hyper => break,
            Step::Refuse => {
                let mut r = crate::pages::bad_request(
                    "O pedido diz o tamanho do corpo de duas maneiras (Content-Length e Transfer-Encoding, ou um deles repetido).",
                    "The request frames its body two ways (Content-Length with Transfer-Encoding, or either repeated).",
                );
                r.headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
                let body = encode(r, &Method::GET, false, &mut head);
                let _ = write(&mut stream, &head, &body).await;
                let _ = stream.shutdown().await;
                return;
            }
            Step::Partial if buf.len() >= conn.max_header_bytes => break,
            Step::Partial => {
                if !waiting {
                    waiting = true;
                    wait_began = tokio::time::Instant::now();
                }
                if buf.capacity() - buf.len() < READ_CHUNK / 4 {
                    buf.reserve(READ_CHUNK);
                }
                // `read_buf` polls the socket first: a request already there costs nothing
                // else. The timer fires at the latest at the head's deadline; if it fires
                // earlier (it was set for an earlier head), it is moved on.
                tokio::select! {
                    biased;
                    read = stream.read_buf(&mut buf) => match read {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    },
                    _ = &mut stop => return,
                    () = &mut timer => {
                        if tokio::time::Instant::now() >= wait_began + limit {
                            return;
                        }
                        timer.as_mut().reset(wait_began + limit);
                    }
                }
                continue;
            }
        };
        // Counted before the answer is written, as the hyper path counts (a client that has
        // read its answer finds it counted).
        local.counts.front_answer();
        let bytes = match &body {
            Body::Held { route, coding } => route.file.plain_parts(*coding).1,
            Body::Made(bytes) => bytes,
        };
        let written = write(&mut stream, &head, bytes).await;
        buf.advance(consumed);
        if written.is_err() {
            return;
        }
        if close {
            // What hyper does after the last answer: the write side shut (over TLS, with a
            // close_notify), then the connection dropped; requests pipelined after it go unread.
            let _ = stream.shutdown().await;
            return;
        }
        waiting = false;
    }
    let io = Rewind {
        prefix: buf.freeze(),
        inner: stream,
    };
    drive(conn, TokioIo::new(io), peer, watcher, alpn).await
}

/// Parses the buffered bytes and answers a hot request, or makes the `Request` of one for the
/// full path (see the module docs).
/// `peer`: the connection's; `secure`: it is TLS.
fn step(
    conn: &Conn,
    local: &Local,
    buf: &[u8],
    head: &mut Vec<u8>,
    (peer, secure): (IpAddr, bool),
) -> Step {
    if buf.is_empty() {
        return Step::Partial;
    }
    let mut slots = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut []);
    let consumed = match req.parse_with_uninit_headers(buf, &mut slots) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Step::Partial,
        Err(_) => return Step::Hyper,
    };
    if ambiguous(req.headers) {
        return Step::Refuse;
    }
    let method = match req.method {
        Some("GET") => Method::GET,
        Some("HEAD") => Method::HEAD,
        _ => return Step::Hyper,
    };
    let (Some(1), Some(target)) = (req.version, req.path) else {
        return Step::Hyper;
    };
    if !target.starts_with('/') {
        return Step::Hyper;
    }
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (target, None),
    };
    let mut host = None;
    // `Accept-Encoding` (the first, as a header map's `get` gives it), and whether a header a
    // conditional or partial answer depends on is there ([`crate::serve::held_file`]).
    let mut accept = None;
    let mut conditional = false;
    // `Connection: close` (any of the headers saying it, as hyper reads them); any token
    // but `close` or `keep-alive` is left to hyper.
    let mut close = false;
    // What the analytics read of a page's visitor (`crate::analytics`).
    let mut seen = Seen::default();
    let mut forwarded = None;
    for h in req.headers.iter() {
        let name = h.name;
        if name.eq_ignore_ascii_case("user-agent") {
            seen.user_agent = h.value;
        } else if name.eq_ignore_ascii_case("referer") {
            seen.referer = h.value;
        } else if name.eq_ignore_ascii_case("accept-language") {
            seen.accept_language = h.value;
        } else if name.eq_ignore_ascii_case("x-forwarded-for") {
            forwarded.get_or_insert(h.value);
        } else if name.eq_ignore_ascii_case("host") {
            match (host, visible(h.value)) {
                (None, Some(v)) => host = Some(v),
                _ => return Step::Hyper,
            }
        } else if name.eq_ignore_ascii_case("connection") {
            if h.value.eq_ignore_ascii_case(b"close") {
                close = true;
            } else if !h.value.eq_ignore_ascii_case(b"keep-alive") {
                return Step::Hyper;
            }
        } else if ["content-length", "transfer-encoding", "expect", "upgrade"]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
        {
            return Step::Hyper;
        } else if name.eq_ignore_ascii_case("accept-encoding") {
            accept.get_or_insert(h.value);
        } else if ["range", "if-range", "if-none-match"]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
        {
            conditional = true;
        }
    }
    let Some(host) = host else {
        return Step::Hyper;
    };
    let visits = &conn.visits;
    let none = HeaderMap::new();
    let ask = HotAsk {
        method: &method,
        host,
        path,
        query,
        headers: &none,
    };
    // Nothing but the encoding to negotiate: the route's whole answer, as held.
    if !conditional {
        let started = Instant::now();
        if let Some(route) = visits.hot_route(&local.hot, &ask, started)
            && let Some((coding, named)) = route.file.plain(accept.and_then(visible))
        {
            head.clear();
            let held = route.file.plain_parts(coding).0;
            let hsts = secure && route.site.hsts;
            // A preview address of a site with a verified domain (`visit::seo`).
            let noindex = route.host_kind == "platform" && route.site.verified_domain.is_some();
            if hsts || close || noindex {
                // Where hyper writes them: HSTS and then `connection` after the headers the
                // service gave, so before the length hyper computes for a `GET`, after the one
                // a `HEAD`'s answer names itself. The held head ends with the length and then
                // `date: ` (see `head::head_until_date`).
                let (headers, rest) = held.split_at(route.file.plain_head_split(coding));
                let (length, date) = rest.split_at(rest.len() - b"date: ".len());
                let head_only = method == Method::HEAD;
                head.extend_from_slice(headers);
                if head_only {
                    head.extend_from_slice(length);
                }
                if hsts {
                    head.extend_from_slice(b"strict-transport-security: ");
                    head.extend_from_slice(HSTS.as_bytes());
                    head.extend_from_slice(b"\r\n");
                }
                if noindex {
                    head.extend_from_slice(b"x-robots-tag: noindex\r\n");
                }
                if close {
                    head.extend_from_slice(CONNECTION_CLOSE);
                }
                if !head_only {
                    head.extend_from_slice(length);
                }
                head.extend_from_slice(date);
            } else {
                head.extend_from_slice(held);
            }
            push_date(head);
            head.extend_from_slice(b"\r\n\r\n");
            if method == Method::GET && route.file.file.content_type.starts_with("text/html") {
                let forwarded = forwarded.and_then(|f| std::str::from_utf8(f).ok());
                let hit = (host, path, query, true);
                visits.count_page(local, &route.site, hit, peer, forwarded, seen);
            }
            local.counts.route_hit();
            local
                .counts
                .request(200, route.host_kind, started.elapsed());
            let body = match (method, named) {
                (Method::HEAD, _) => Body::Made(Bytes::new()),
                (_, Some(named)) => Body::Made(named),
                _ => Body::Held { route, coding },
            };
            return Step::Answer {
                consumed,
                body,
                close,
            };
        }
    }
    // Any other hot answer, from the headers it depends on.
    let mut negotiating = HeaderMap::new();
    for h in req.headers.iter() {
        let known = [
            header::ACCEPT_ENCODING,
            header::RANGE,
            header::IF_RANGE,
            header::IF_NONE_MATCH,
            // Read by the analytics when the answer is a page.
            header::USER_AGENT,
            header::REFERER,
            header::ACCEPT_LANGUAGE,
            header::HeaderName::from_static("x-forwarded-for"),
        ]
        .into_iter()
        .find(|n| h.name.eq_ignore_ascii_case(n.as_str()));
        if let Some(name) = known {
            let Ok(value) = HeaderValue::from_bytes(h.value) else {
                return Step::Hyper;
            };
            negotiating.append(name, value);
        }
    }
    let ask = HotAsk {
        headers: &negotiating,
        ..ask
    };
    match visits.hot_ask(local, &ask, peer, secure) {
        Some(r) => Step::Answer {
            consumed,
            body: Body::Made(encode(r, &method, close, head)),
            close,
        },
        None => full_request(method, target, req.headers).map_or(Step::Hyper, |req| Step::Slow {
            consumed,
            req: Box::new(req),
            close,
        }),
    }
}

/// Whether a request says its body's length two ways: `Content-Length` with
/// `Transfer-Encoding`, or either header more than once. RFC 9112 §6.3 lets a server read such
/// a request by `Transfer-Encoding` and close the connection after it (hyper does), or refuse
/// it; a front proxy that reads the other header would see another request in the same bytes,
/// so the edge refuses it, as nginx does, whatever its method. The plain and TLS listeners
/// both check this (with `EDGE_PLAIN_FRONT` off, hyper's reading applies).
fn ambiguous(headers: &[httparse::Header<'_>]) -> bool {
    let (mut lengths, mut codings) = (0, 0);
    for h in headers {
        if h.name.eq_ignore_ascii_case("content-length") {
            lengths += 1;
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            codings += 1;
        }
    }
    (lengths > 0 && codings > 0) || lengths > 1 || codings > 1
}

/// A header value as `HeaderValue::to_str` reads it: visible ASCII (and tabs), or nothing.
fn visible(value: &[u8]) -> Option<&str> {
    value
        .iter()
        .all(|&b| b == b'\t' || (b' '..=b'~').contains(&b))
        .then(|| std::str::from_utf8(value).ok())
        .flatten()
}

/// The `Request` hyper would have made of these parts (its URI and header types refuse what
/// they refuse for hyper too; such a request is left to hyper, which answers it).
fn full_request(
    method: Method,
    target: &str,
    parsed: &[httparse::Header<'_>],
) -> Option<Request<VisitBody>> {
    let uri = Uri::try_from(target).ok()?;
    let mut headers = HeaderMap::with_capacity(parsed.len());
    for h in parsed {
        headers.append(
            HeaderName::from_bytes(h.name.as_bytes()).ok()?,
            HeaderValue::from_bytes(h.value).ok()?,
        );
    }
    let mut req = Request::new(VisitBody::Right(Empty::new()));
    *req.method_mut() = method;
    *req.uri_mut() = uri;
    *req.version_mut() = Version::HTTP_11;
    *req.headers_mut() = headers;
    Some(req)
}

/// Writes `r`'s head into `head` as hyper would (lower-case names, `content-length` from the
/// body unless given, `date`; neither body nor length for `304`) and returns the body to
/// send: none for `HEAD`. `close`: the request said `Connection: close`, and the head says
/// it after the answer's headers, where hyper adds it (the edge's answers carry no
/// `connection` of their own).
fn encode(r: Resp, method: &Method, close: bool, head: &mut Vec<u8>) -> Bytes {
    let (parts, mut body) = r.into_parts();
    let status = parts.status;
    head.clear();
    push_status(head, status);
    put_headers(&parts.headers, head);
    if close && !parts.headers.contains_key(header::CONNECTION) {
        head.extend_from_slice(CONNECTION_CLOSE);
    }
    // A `Full` body is ready at once, whatever the waker.
    let body = match Pin::new(&mut body).poll_frame(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Some(Ok(frame))) => frame.into_data().unwrap_or_default(),
        _ => Bytes::new(),
    };
    let bodiless = status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    if !bodiless && !parts.headers.contains_key(header::CONTENT_LENGTH) {
        push_length(head, body.len());
    }
    if !parts.headers.contains_key(header::DATE) {
        head.extend_from_slice(b"date: ");
        push_date(head);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
    if bodiless || method == Method::HEAD {
        Bytes::new()
    } else {
        body
    }
}

/// Writes the head and the body with as few `writev` calls as the socket allows, then flushes
/// (over TLS: the records rustls made of them, in one vectored write when the socket takes
/// it; on TCP a flush does nothing).
async fn write<S: AsyncWrite + Unpin>(stream: &mut S, head: &[u8], body: &[u8]) -> io::Result<()> {
    let mut slices = [IoSlice::new(head), IoSlice::new(body)];
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        let n = stream.write_vectored(rest).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut rest, n);
    }
    stream.flush().await
}

/// The connection handed to hyper: the bytes the front read and did not answer come first.
struct Rewind<S> {
    prefix: Bytes,
    inner: S,
}

impl<S: AsyncRead + Unpin> AsyncRead for Rewind<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if !self.prefix.is_empty() {
            let n = self.prefix.len().min(buf.remaining());
            buf.put_slice(&self.prefix[..n]);
            self.prefix.advance(n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Rewind<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests;
