//! What a visitor request is to the edge once it is read: [`Visit`], the one context a
//! request carries down [`crate::visit`]'s journey (and into [`crate::forms`]); [`HotAsk`], the
//! few parts a hot-route lookup reads; and the checks that make a raw `Host`, path and query
//! into what the journey may use ([`clean_path`], [`MAX_PATH`], [`MAX_QUERY`]).
//!
//! The context is made once per request, in [`crate::visit`]'s `route`, as soon as the host
//! names a published site, and lent down the journey by reference: every step reads the same
//! normalised host, cleaned path, method, headers, site and deploy, none of them worked out
//! or looked up again on the way. The `Accept-Encoding` choice is not in it: it depends on
//! the file's variants too, so [`crate::serve`] makes it per file from [`Visit::headers`].

use std::{net::IpAddr, sync::Arc};

use bytes::Bytes;
use hyper::{HeaderMap, Method, Uri, body::Incoming, header};
use percent_encoding::percent_decode_str;
use vitrine_shared::proxies::TrustedProxies;

use crate::{
    host,
    sites::{DeployView, Site},
};

/// A visitor request's body: hyper's, or none, for the `GET`s and `HEAD`s the plain front
/// ([`crate::h1`]) parses itself.
pub type VisitBody = http_body_util::Either<Incoming, http_body_util::Empty<Bytes>>;

/// Longest request path (after the host) the edge looks at; longer gets 414.
pub const MAX_PATH: usize = 2048;
/// Longest query string the edge looks at; longer gets 414.
pub const MAX_QUERY: usize = 2048;

/// Which listener a request came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    Visitors,
    VisitorsTls,
    Admin,
}

impl Listener {
    /// Whether its requests come over TLS.
    pub fn tls(self) -> bool {
        self == Listener::VisitorsTls
    }
}

/// One request to a published site, from the moment its host names the site: what every step
/// of the journey reads, lent to each (see the module docs).
#[derive(Clone, Copy)]
pub struct Visit<'a> {
    /// The listener it came in on (one of the visitor listeners).
    pub listener: Listener,
    /// The connection's peer (a load balancer, when one is in front: see
    /// `TrustedProxies::client_ip`).
    pub peer: IpAddr,
    pub method: &'a Method,
    pub headers: &'a HeaderMap,
    /// The host, normalised (lower-case, no port, no trailing dot: [`host::normalize`]).
    pub host: &'a str,
    /// The path, decoded once and checked ([`clean_path`]).
    pub path: &'a str,
    /// The query string as sent, at most [`MAX_QUERY`] bytes.
    pub query: Option<&'a str>,
    pub site: &'a Arc<Site>,
    /// The site's live deploy.
    pub deploy: &'a Arc<DeployView>,
}

impl Visit<'_> {
    /// Whether the request came over HTTPS.
    pub fn secure(&self) -> bool {
        self.listener.tls()
    }

    /// The visitor behind the request, for the rate limits: the peer, or the client a trusted
    /// load balancer names in `X-Forwarded-For` (from anyone else the header is ignored, so a
    /// visitor cannot pick their own bucket).
    pub fn client(&self, proxies: &TrustedProxies) -> IpAddr {
        proxies.client_ip(
            self.peer,
            self.headers
                .get_all("x-forwarded-for")
                .iter()
                .map(|v| v.to_str().unwrap_or("\u{fffd}")),
        )
    }
}

/// What a hot-route lookup reads of a request: its method, raw `Host` (or `:authority`), path
/// and query as sent, and the headers an answer depends on ([`crate::serve::held_file`] reads
/// `Accept-Encoding`, `Range`, `If-Range` and `If-None-Match`).
pub struct HotAsk<'a> {
    pub method: &'a Method,
    pub host: &'a str,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub headers: &'a HeaderMap,
}

/// Why a request path was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadPath {
    TooLong,
    Malformed,
}

/// The request's `Host` header, or its HTTP/2 `:authority`, as sent. `None` also for two
/// `Host` headers, which the journey refuses (RFC 9112 §3.2).
#[inline]
pub(crate) fn raw_host<'a>(headers: &'a HeaderMap, uri: &'a Uri) -> Option<&'a str> {
    let mut hosts = headers.get_all(header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().ok(),
        (None, _) => uri.authority().map(|a| a.as_str()),
        (Some(_), Some(_)) => None,
    }
}

/// Decodes the path once and refuses what no site route can be: invalid UTF-8, control
/// characters, backslashes and dot segments (also when percent-encoded, `%2e%2e`).
pub fn clean_path(raw: &str) -> Result<String, BadPath> {
    if raw.len() > MAX_PATH {
        return Err(BadPath::TooLong);
    }
    let decoded = percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| BadPath::Malformed)?;
    if !decoded.starts_with('/')
        || decoded.contains('\\')
        || decoded.chars().any(char::is_control)
        || decoded.split('/').any(|s| s == ".." || s == ".")
    {
        return Err(BadPath::Malformed);
    }
    Ok(decoded.into_owned())
}

/// The `host` label of the request counter: `platform` for a name under the platform
/// domain, `custom` for any other name, `none` for a missing Host header or an IP address.
/// Byte checks only: it runs on every request.
pub fn host_kind(raw: &str, platform_domain: &str) -> &'static str {
    let name = raw.rsplit_once(':').map_or(raw, |(n, port)| {
        if port.bytes().all(|b| b.is_ascii_digit()) {
            n
        } else {
            raw
        }
    });
    let name = name.strip_suffix('.').unwrap_or(name);
    if name.is_empty() || host::is_ip_literal(raw) {
        return "none";
    }
    let (name, domain) = (name.as_bytes(), platform_domain.as_bytes());
    let under_platform = name.len() > domain.len()
        && name[name.len() - domain.len() - 1] == b'.'
        && name[name.len() - domain.len()..].eq_ignore_ascii_case(domain);
    if under_platform { "platform" } else { "custom" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_kinds_label_platform_custom_and_unusable_hosts() {
        let d = "vitrine.test";
        for (raw, kind) in [
            ("loja.vitrine.test", "platform"),
            ("LOJA.Vitrine.Test:8080", "platform"),
            ("loja.vitrine.test.", "platform"),
            ("vitrine.test", "custom"),
            ("xvitrine.test", "custom"),
            ("www.example.com", "custom"),
            ("café.example", "custom"),
            ("ü.vitrine.test", "platform"),
            ("", "none"),
            ("10.0.0.1:80", "none"),
            ("[::1]:8080", "none"),
        ] {
            assert_eq!(host_kind(raw, d), kind, "{raw}");
        }
    }

    #[test]
    fn paths_are_decoded_once_and_dot_segments_refused() {
        assert_eq!(clean_path("/sobre").unwrap(), "/sobre");
        assert_eq!(clean_path("/caf%C3%A9").unwrap(), "/café");
        assert_eq!(clean_path("/a%2Fb").unwrap(), "/a/b");
        for bad in [
            "/../etc/passwd",
            "/%2e%2e/etc/passwd",
            "/_assets/%2E%2E%2Fmanifest.json",
            "/a/./b",
            "/a/%2e",
            "/a%5cb",
            "/a%00b",
            "/%ff%fe",
            "/a\nb",
        ] {
            assert_eq!(clean_path(bad), Err(BadPath::Malformed), "{bad}");
        }
        assert_eq!(
            clean_path(&format!("/{}", "a".repeat(MAX_PATH))),
            Err(BadPath::TooLong)
        );
    }

    /// Paths assembled from pieces of traversal attempts: whatever is accepted has no dot
    /// segment and no backslash once decoded, however the dots were encoded.
    #[test]
    fn no_encoding_of_dots_gets_a_traversal_through() {
        const PIECES: &[&str] = &[
            "/", ".", "%2e", "%2E", "%2f", "%5c", "a", "%", "%c0%ae", "%ff", "%00", "_assets",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            crate::spread::xorshift(&mut seed);
            let len = (seed % 10) as usize;
            let mut path = String::from("/");
            for i in 0..len {
                path.push_str(PIECES[((seed >> (i * 5)) % PIECES.len() as u64) as usize]);
            }
            if let Ok(clean) = clean_path(&path) {
                assert!(
                    !clean.split('/').any(|s| s == ".." || s == ".") && !clean.contains('\\'),
                    "{path} → {clean}"
                );
            }
        }
    }
}

/// The fuzz target `host`'s path invariant (see `fuzz/`), on generated inputs in every test run:
/// an accepted path has no dot segment however its dots and slashes were encoded.
#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Paths made of dots, slashes and their percent-encodings, plus any text at all.
    fn paths() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::collection::vec(
                prop_oneof![
                    Just("/"),
                    Just("."),
                    Just(".."),
                    Just("%2e"),
                    Just("%2E"),
                    Just("%2f"),
                    Just("%5c"),
                    Just("\\"),
                    Just("a"),
                    Just("%"),
                    Just("%c0%ae"),
                ],
                0..16,
            )
            .prop_map(|parts| parts.concat()),
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn an_accepted_path_has_no_dot_segment(raw in paths()) {
            if let Ok(clean) = clean_path(&raw) {
                prop_assert!(!clean.split('/').any(|s| s == ".." || s == "."), "{raw:?} became {clean:?}");
            }
        }
    }
}
