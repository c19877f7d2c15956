//! Where a visit meets the analytics ([`crate::analytics`]): which answers are pages to count,
//! and what of the request is read for them, on the hot routes and on the full path alike.

use std::net::IpAddr;

use hyper::{
    HeaderMap,
    header::{self, HeaderName, HeaderValue},
    http::request::Parts,
};

use super::Visits;
use crate::{
    analytics::{self, PageHit, Seen},
    hot::{Local, READ_API},
    request::{HotAsk, raw_host},
    serve::Resp,
    sites::Site,
};

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// What the analytics read of a request's headers, and its `X-Forwarded-For` values: looked
/// up only when read, which is only when the peer is a trusted proxy.
fn seen(headers: &HeaderMap) -> (Seen<'_>, impl Iterator<Item = &str>) {
    let h = |name: HeaderName| headers.get(name).map_or(&b""[..], HeaderValue::as_bytes);
    let seen = Seen {
        user_agent: h(header::USER_AGENT),
        referer: h(header::REFERER),
        accept_language: h(header::ACCEPT_LANGUAGE),
    };
    let forwarded = std::iter::once(headers).flat_map(|h| h.get_all(X_FORWARDED_FOR).iter());
    (seen, forwarded.map(|v| v.to_str().unwrap_or("\u{fffd}")))
}

impl Visits {
    /// A hot route's answer `r` to `ask` (the route's file is of `content_type`): counted
    /// when it is a page.
    pub(super) fn count_hot(
        &self,
        local: &Local,
        ask: &HotAsk<'_>,
        (r, content_type): (&Resp, &str),
        site: &Site,
        peer: IpAddr,
    ) {
        if analytics::counted(ask.method, r.status(), Some(content_type.as_bytes())) {
            let (seen, forwarded) = seen(ask.headers);
            let hit = (ask.host, ask.path, ask.query, true);
            self.count_page(local, site, hit, peer, forwarded, seen);
        }
    }

    /// The full path's answer `r` to `head` from `site`: counted when it is a page or the
    /// site's 404 (not `/_forms`, not the read API).
    pub(super) fn count_slow(
        &self,
        local: &Local,
        head: &Parts,
        r: &Resp,
        site: &Site,
        peer: IpAddr,
    ) {
        let path = head.uri.path();
        let status = r.status();
        // A 304 names no type: a page's path is neither an asset's nor an upload's, and its
        // last segment has no extension.
        let page_like = !path.starts_with("/_assets/")
            && !path.starts_with("/files/")
            && !path.rsplit('/').next().unwrap_or("").contains('.');
        let html = r
            .headers()
            .get(header::CONTENT_TYPE)
            .map(HeaderValue::as_bytes)
            .or(Some(&b"text/html"[..]).filter(|_| status == 304 && page_like));
        if path == "/_forms"
            || path.starts_with(READ_API)
            || !analytics::counted(&head.method, status, html)
        {
            return;
        }
        let (seen, forwarded) = seen(&head.headers);
        let host = raw_host(&head.headers, &head.uri).unwrap_or("");
        let hit = (host, path, head.uri.query(), status != 404);
        self.count_page(local, site, hit, peer, forwarded, seen);
    }

    /// Counts a page answered to a visitor ([`crate::analytics`]) when its site counts them:
    /// `hit` is the host as sent, the path, the query and whether the page was found.
    pub fn count_page<'a>(
        &self,
        local: &Local,
        site: &Site,
        hit: (&str, &str, Option<&str>, bool),
        peer: IpAddr,
        forwarded: impl IntoIterator<Item = &'a str>,
        seen: Seen<'_>,
    ) {
        if !site.analytics {
            return;
        }
        let (host, path, query, found) = hit;
        let hit = PageHit {
            project: site.project_id,
            account: site.account,
            host,
            path,
            query,
            found,
            client: self.trusted_proxies.client_ip(peer, forwarded),
            seen,
        };
        self.analytics.page(&local.analytics, &hit);
    }
}
