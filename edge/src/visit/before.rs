//! What the edge answers before a request reaches a site: ACME HTTP-01 challenges (for any
//! host, from the database) and, on plain HTTP, the 301 to HTTPS for a host with a certificate.

use bytes::Bytes;
use hyper::{
    StatusCode, Uri,
    header::{self, HeaderValue},
};

use super::Visits;
use crate::{
    pages,
    serve::{self, HTML, NO_STORE, Resp, respond},
};

impl Visits {
    pub(super) async fn challenge(&self, host: &str, token: &str) -> Resp {
        let valid = !token.is_empty()
            && token.len() <= 256
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid {
            return respond(StatusCode::NOT_FOUND, serve::TEXT, NO_STORE, "not found");
        }
        match self.sites.store.challenge(token, host).await {
            Ok(Some(answer)) => respond(StatusCode::OK, serve::TEXT, NO_STORE, answer),
            Ok(None) => respond(StatusCode::NOT_FOUND, serve::TEXT, NO_STORE, "not found"),
            Err(e) => {
                tracing::warn!(host, error = %e, "challenge lookup failed");
                pages::unavailable()
            }
        }
    }

    pub(super) fn to_https(&self, host: &str, uri: &Uri) -> Resp {
        let port = match self.https_port {
            443 => String::new(),
            p => format!(":{p}"),
        };
        let target = uri.path_and_query().map(|pq| pq.as_str()).unwrap_or("/");
        let mut r = respond(StatusCode::MOVED_PERMANENTLY, HTML, NO_STORE, Bytes::new());
        if let Ok(v) = HeaderValue::from_str(&format!("https://{host}{port}{target}")) {
            r.headers_mut().insert(header::LOCATION, v);
            return r;
        }
        pages::bad_request("O caminho pedido é inválido.", "Malformed request path.")
    }
}
