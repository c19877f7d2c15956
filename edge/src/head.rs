//! HTTP/1.1 response heads as hyper writes them: the status line, lower-case `name: value`
//! lines in the answer's order, `content-length`, and a `date` formatted once a second per
//! thread (as hyper caches its own).
//!
//! Two writers use these: [`crate::serve::Prepared`], which writes each held answer's head
//! once when its bodies are loaded, and [`crate::h1`]'s front, which writes any other answer's
//! head per request and appends the date to a held one. Nothing here knows a response type,
//! so the layers that build responses can use it without reaching back to the front. The
//! small writers are `#[inline]`: the front calls them for every answer, and until they moved
//! here they sat beside it, so the move must not cost a call.

use std::{
    cell::RefCell,
    time::{SystemTime, UNIX_EPOCH},
};

use hyper::{HeaderMap, StatusCode};

/// `name: value` lines, as hyper writes them (lower-case names, in the map's order).
#[inline]
pub(crate) fn put_headers(headers: &HeaderMap, out: &mut Vec<u8>) {
    for (name, value) in headers {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
}

/// A `200` answer's head with these headers and a body of `len` bytes, up to the `date`
/// header's value, which the front appends per answer with the blank line; and where the
/// headers end (a header added per answer, HSTS over TLS, goes there, as hyper puts it).
pub(crate) fn head_until_date(headers: &HeaderMap, len: usize) -> (Vec<u8>, usize) {
    let mut head = Vec::new();
    push_status(&mut head, StatusCode::OK);
    put_headers(headers, &mut head);
    let split = head.len();
    push_length(&mut head, len);
    head.extend_from_slice(b"date: ");
    (head, split)
}

/// `HTTP/1.1 {code} {reason}` and its line end.
#[inline]
pub(crate) fn push_status(head: &mut Vec<u8>, status: StatusCode) {
    head.extend_from_slice(b"HTTP/1.1 ");
    head.extend_from_slice(status.as_str().as_bytes());
    head.push(b' ');
    head.extend_from_slice(status.canonical_reason().unwrap_or("").as_bytes());
    head.extend_from_slice(b"\r\n");
}

#[inline]
pub(crate) fn push_length(head: &mut Vec<u8>, len: usize) {
    head.extend_from_slice(b"content-length: ");
    head.extend_from_slice(itoa::Buffer::new().format(len).as_bytes());
    head.extend_from_slice(b"\r\n");
}

/// The current `date` value (see [`Date`]).
#[inline]
pub(crate) fn push_date(head: &mut Vec<u8>) {
    DATE.with_borrow_mut(|d| head.extend_from_slice(d.now()));
}

/// The `Date` header's value, formatted once a second per thread (as hyper caches its own).
struct Date {
    second: u64,
    text: [u8; 29],
}

impl Date {
    fn now(&mut self) -> &[u8] {
        let now = SystemTime::now();
        let second = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        if second != self.second {
            let text = httpdate::fmt_http_date(now);
            if text.len() == self.text.len() {
                self.text.copy_from_slice(text.as_bytes());
                self.second = second;
            }
        }
        &self.text
    }
}

thread_local! {
    static DATE: RefCell<Date> = const {
        RefCell::new(Date { second: 0, text: *b"Thu, 01 Jan 1970 00:00:00 GMT" })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_date_is_now_in_http_form() {
        let text = DATE.with_borrow_mut(|d| d.now().to_vec());
        let date = httpdate::parse_http_date(std::str::from_utf8(&text).unwrap()).unwrap();
        let off = SystemTime::now().duration_since(date).unwrap();
        assert!(off < std::time::Duration::from_secs(2), "{off:?}");
    }
}
