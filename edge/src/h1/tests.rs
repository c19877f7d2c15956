use http_body_util::Full;
use hyper::Response;

use super::*;
use crate::head::head_until_date;

fn answer(status: StatusCode, headers: &[(&'static str, &'static str)], body: &str) -> Resp {
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
    *r.status_mut() = status;
    for (name, value) in headers {
        r.headers_mut()
            .append(*name, HeaderValue::from_static(value));
    }
    r
}

fn lines(head: &[u8]) -> Vec<String> {
    let text = std::str::from_utf8(head).unwrap();
    assert!(text.ends_with("\r\n\r\n"), "{text:?}");
    text.trim_end().split("\r\n").map(str::to_string).collect()
}

#[test]
fn heads_are_written_as_hyper_writes_them() {
    let mut head = Vec::new();
    let page = answer(
        StatusCode::OK,
        &[("etag", "\"a\""), ("vary", "Accept-Encoding")],
        "olá",
    );
    let body = encode(page, &Method::GET, false, &mut head);
    assert_eq!(&body[..], "olá".as_bytes());
    let l = lines(&head);
    assert_eq!(
        l[..4],
        [
            "HTTP/1.1 200 OK",
            "etag: \"a\"",
            "vary: Accept-Encoding",
            "content-length: 4"
        ]
    );
    assert!(
        l[4].starts_with("date: ") && l[4].ends_with(" GMT") && l[4].len() == 35,
        "{l:?}"
    );
    assert_eq!(l.len(), 5);

    // 304: neither length nor body.
    let not_modified = answer(StatusCode::NOT_MODIFIED, &[("etag", "\"a\"")], "");
    assert!(encode(not_modified, &Method::GET, false, &mut head).is_empty());
    let l = lines(&head);
    assert_eq!(l[..2], ["HTTP/1.1 304 Not Modified", "etag: \"a\""]);
    assert!(!l.iter().any(|l| l.starts_with("content-length")), "{l:?}");

    // HEAD: the length the answer names, once, and no body.
    let head_answer = answer(StatusCode::OK, &[("content-length", "1234")], "");
    assert!(encode(head_answer, &Method::HEAD, false, &mut head).is_empty());
    let l = lines(&head);
    assert_eq!(
        l.iter().filter(|l| l.starts_with("content-length")).count(),
        1
    );
    assert!(l.contains(&"content-length: 1234".to_string()));

    // A status hyper names; the body of a 206 is sent as given.
    let range = answer(
        StatusCode::PARTIAL_CONTENT,
        &[("content-range", "bytes 0-1/4")],
        "ol",
    );
    assert_eq!(&encode(range, &Method::GET, false, &mut head)[..], b"ol");
    assert_eq!(
        lines(&head)[..3],
        [
            "HTTP/1.1 206 Partial Content",
            "content-range: bytes 0-1/4",
            "content-length: 2"
        ]
    );
}

#[test]
fn a_held_head_is_the_head_encode_writes_for_the_same_answer() {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=0"),
    );
    headers.insert(header::ETAG, HeaderValue::from_static("\"abc-br\""));
    headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("br"));
    let body = "x".repeat(15_000);
    let (mut held, split) = head_until_date(&headers, body.len());
    assert!(held[..split].ends_with(b"content-encoding: br\r\n"));
    push_date(&mut held);
    held.extend_from_slice(b"\r\n\r\n");

    let mut r = Response::new(Full::new(Bytes::from(body.clone())));
    *r.headers_mut() = headers;
    let mut written = Vec::new();
    assert_eq!(
        encode(r, &Method::GET, false, &mut written).len(),
        body.len()
    );
    // The same second, or the dates would differ.
    let date = |h: &[u8]| lines(h).into_iter().find(|l| l.starts_with("date: "));
    if date(&held) == date(&written) {
        assert_eq!(held, written);
    } else {
        assert_eq!(lines(&held).len(), lines(&written).len());
    }
}
