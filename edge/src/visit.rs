//! One visitor request, in the order DESIGN §3 gives: host → site, then redirects, static
//! routes, content-addressed assets, collection pages, pages with live lists, and the site's
//! 404. `/_forms` and `/_api/collections/…` are the two non-page paths a site has; they come
//! before the redirects, so a whole-site redirect (`*`) cannot break the site's forms or API.
//!
//! Two things come before the site: ACME HTTP-01 challenges (answered from the database for
//! any host), and, on plain HTTP, a 301 to HTTPS for a host that has a certificate. HTTPS
//! responses of a site that opted in carry HSTS.
//!
//! Every refusal here is a 4xx with a clear page or JSON body: a malformed host or path, a
//! method a page does not take, a query the read API does not understand. A template that
//! fails gets the site's 500 page; a database outage with nothing cached gets 503. Nothing a
//! visitor sends can make this function panic.

use std::{net::IpAddr, sync::Arc, time::Instant};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::{
    HeaderMap, Method, Request, StatusCode,
    body::Incoming,
    header::{self, HeaderValue},
};
use percent_encoding::percent_decode_str;
use vitrine_shared::{
    form_sent,
    proxies::TrustedProxies,
    site::{ASSET_PREFIX, StaticFile, asset_key, site_path},
    uploads::{UPLOADS, UploadKey},
};

use crate::{
    Local, host,
    hot::{HotRoute, HotRoutes},
    live,
    metrics::Metrics,
    serve::{self, HTML, JSON, NO_STORE, Prepared, Resp, TEXT, respond},
    sites::{DeployView, RecordsSeen, Rendered, Site, Sites, Unavailable},
    submissions::{self, Forms, Refused},
    tls::Certs,
};

/// A visitor request's body: hyper's, or none, for the `GET`s and `HEAD`s the plain front
/// ([`crate::h1`]) parses itself.
pub type VisitBody = http_body_util::Either<Incoming, http_body_util::Empty<Bytes>>;

/// Longest request path (after the host) the edge looks at; longer gets 414.
pub const MAX_PATH: usize = 2048;
/// Longest query string the edge looks at; longer gets 414.
pub const MAX_QUERY: usize = 2048;

/// What every visitor request needs.
pub struct Visits {
    pub platform_domain: String,
    pub sites: Arc<Sites>,
    pub forms: Arc<Forms>,
    pub metrics: Arc<Metrics>,
    pub certs: Arc<Certs>,
    /// The HTTPS listener's port, for HTTP → HTTPS redirects (omitted from the URL when 443).
    pub https_port: u16,
    /// Load balancers whose `X-Forwarded-For` names the visitor (for the form rate limit).
    pub trusted_proxies: TrustedProxies,
}

/// Where ACME HTTP-01 challenges are asked for (RFC 8555 §8.3).
const ACME_CHALLENGE: &str = "/.well-known/acme-challenge/";
/// The HSTS policy sent to opted-in sites: one year.
pub(crate) const HSTS: &str = "max-age=31536000";

/// Why a request path was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadPath {
    TooLong,
    Malformed,
}

/// The request's `Host` header, or its HTTP/2 `:authority`, as sent. `None` also for two
/// `Host` headers, which [`Visits::route`] refuses (RFC 9112 §3.2).
fn raw_host<B>(req: &Request<B>) -> Option<&str> {
    let mut hosts = req.headers().get_all(header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().ok(),
        (None, _) => req.uri().authority().map(|a| a.as_str()),
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

/// What a hot-route lookup reads of a request: its method, raw `Host` (or `:authority`), path
/// and query as sent, and the headers an answer depends on ([`serve::held_file`] reads
/// `Accept-Encoding`, `Range`, `If-Range` and `If-None-Match`).
pub struct HotAsk<'a> {
    pub method: &'a Method,
    pub host: &'a str,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub headers: &'a HeaderMap,
}

/// What the slow path found for a static route, for the visitor thread's hot routes.
struct HotFill {
    site: Arc<Site>,
    deploy: Arc<DeployView>,
    file: Prepared,
    records: Option<RecordsSeen>,
}

impl Visits {
    /// The answer from the visitor thread's hot routes, when they hold this request: the
    /// whole of a repeat `GET`/`HEAD` of a static route, synchronous (see [`crate::hot`]).
    /// `secure`: the request came over HTTPS.
    pub fn hot<B>(&self, local: &Local, req: &Request<B>, secure: bool) -> Option<Resp> {
        let ask = HotAsk {
            method: req.method(),
            host: raw_host(req)?,
            path: req.uri().path(),
            query: req.uri().query(),
            headers: req.headers(),
        };
        self.hot_ask(local, &ask, secure)
    }

    /// [`Visits::hot`] from the parts of a request it reads, for the plain HTTP/1.1 front
    /// ([`crate::h1`]), which parses requests itself and answers hot ones without hyper.
    pub fn hot_ask(&self, local: &Local, ask: &HotAsk<'_>, secure: bool) -> Option<Resp> {
        let started = Instant::now();
        let (r, host_kind) = self.hot_answer(&local.hot, ask, secure, started)?;
        local.counts.route_hit();
        local
            .counts
            .request(r.status().as_u16(), host_kind, started.elapsed());
        Some(r)
    }

    /// Every request the hot routes did not answer. `secure`: the request came over HTTPS.
    /// `local`: the visitor thread's own state: its counts, and its hot routes, filled when
    /// this serves a static route.
    pub async fn handle(
        &self,
        req: Request<VisitBody>,
        peer: IpAddr,
        secure: bool,
        local: &Local,
    ) -> Resp {
        let started = Instant::now();
        // Cheap clones (reference-counted bytes), kept for the metrics and the error ring.
        let host = req.headers().get(header::HOST).cloned();
        let uri = req.uri().clone();
        let epoch = self.sites.hot_epoch();
        let mut fill = None;
        let r = self.route(req, peer, secure, &mut fill).await;
        let status = r.status().as_u16();
        let host = host
            .as_ref()
            .and_then(|h| h.to_str().ok())
            .or_else(|| uri.authority().map(|a| a.as_str()))
            .unwrap_or("");
        let kind = host_kind(host, &self.platform_domain);
        if let Some(fill) = fill
            && let Ok(file) = fill.file.load(&self.sites).await
        {
            let route = HotRoute {
                epoch,
                made: started,
                host_kind: kind,
                site: fill.site,
                deploy: fill.deploy,
                file,
                records: fill.records,
            };
            local.hot.insert(host, uri.path(), route);
        }
        local.counts.request(status, kind, started.elapsed());
        if status >= 500 {
            self.metrics.server_error(status, host, uri.path());
        }
        r
    }

    /// The hot route's answer and the host's kind (for the request counter).
    fn hot_answer(
        &self,
        hot: &HotRoutes,
        ask: &HotAsk<'_>,
        secure: bool,
        now: Instant,
    ) -> Option<(Resp, &'static str)> {
        let route = self.hot_route(hot, ask, now)?;
        let mut r = serve::held_file(ask.method, ask.headers, &route.file, StatusCode::OK)?;
        if secure && route.site.hsts {
            r.headers_mut().insert(
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static(HSTS),
            );
        }
        Some((r, route.host_kind))
    }

    /// The hot route that holds the answer to `ask`, if any: `GET` and `HEAD` only, with a
    /// query the edge looks at, and not a page landed on after a form was sent (that one
    /// carries the confirmation, see [`form_sent`]).
    pub fn hot_route(
        &self,
        hot: &HotRoutes,
        ask: &HotAsk<'_>,
        now: Instant,
    ) -> Option<Arc<HotRoute>> {
        if ask.method != Method::GET && ask.method != Method::HEAD {
            return None;
        }
        if ask.query.is_some_and(|q| q.len() > MAX_QUERY) || form_sent::is_sent(ask.query) {
            return None;
        }
        hot.get(ask.host, ask.path, self.sites.hot_epoch(), now)
    }

    /// `fill`: where to leave a static route's answer for the hot routes.
    async fn route(
        &self,
        req: Request<VisitBody>,
        peer: IpAddr,
        secure: bool,
        fill: &mut Option<HotFill>,
    ) -> Resp {
        if req.headers().get_all(header::HOST).iter().nth(1).is_some() {
            return serve::bad_request(
                "O pedido tem mais de um cabeçalho Host.",
                "The request has more than one Host header.",
            );
        }
        let Some(raw_host) = raw_host(&req) else {
            return serve::bad_request(
                "O pedido não diz para qual site é (falta o cabeçalho Host).",
                "The request has no Host header.",
            );
        };
        if host::is_ip_literal(raw_host) {
            return serve::platform_not_found();
        }
        let Ok(host) = host::normalize(raw_host) else {
            return serve::bad_request(
                "O endereço do site (cabeçalho Host) é inválido.",
                "Malformed Host header.",
            );
        };
        let path = match clean_path(req.uri().path()) {
            Ok(p) => p,
            Err(BadPath::TooLong) => {
                return respond(StatusCode::URI_TOO_LONG, HTML, NO_STORE, "URI Too Long");
            }
            Err(BadPath::Malformed) => {
                return serve::bad_request(
                    "O caminho pedido é inválido.",
                    "Malformed request path.",
                );
            }
        };
        if req.uri().query().is_some_and(|q| q.len() > MAX_QUERY) {
            return respond(StatusCode::URI_TOO_LONG, HTML, NO_STORE, "URI Too Long");
        }
        // Challenges are answered for any host, by any node, before anything else.
        if let Some(token) = path.strip_prefix(ACME_CHALLENGE) {
            return self.challenge(&host, token).await;
        }
        if !secure && self.certs.has_certificate(&host).await {
            return self.to_https(&host, &req);
        }
        let site_host = host::classify(&host, &self.platform_domain);
        let site = match self.sites.resolve(&site_host).await {
            Ok(Some(site)) => site,
            Ok(None) => return serve::platform_not_found(),
            Err(e) => {
                tracing::warn!(host, error = %e, "site lookup failed and nothing cached");
                return serve::unavailable();
            }
        };
        let Some(deploy) = site.deploy.clone() else {
            return serve::not_published();
        };
        let mut r = self
            .serve_site(&site, &deploy, req, &host, path, peer, fill)
            .await;
        if secure && site.hsts {
            r.headers_mut().insert(
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static(HSTS),
            );
        }
        r
    }

    async fn challenge(&self, host: &str, token: &str) -> Resp {
        let valid = !token.is_empty()
            && token.len() <= 256
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid {
            return respond(StatusCode::NOT_FOUND, TEXT, NO_STORE, "not found");
        }
        match self.sites.store.challenge(token, host).await {
            Ok(Some(answer)) => respond(StatusCode::OK, TEXT, NO_STORE, answer),
            Ok(None) => respond(StatusCode::NOT_FOUND, TEXT, NO_STORE, "not found"),
            Err(e) => {
                tracing::warn!(host, error = %e, "challenge lookup failed");
                serve::unavailable()
            }
        }
    }

    fn to_https(&self, host: &str, req: &Request<VisitBody>) -> Resp {
        let port = match self.https_port {
            443 => String::new(),
            p => format!(":{p}"),
        };
        let target = req
            .uri()
            .path_and_query()
            .map(|pq| pq.as_str())
            .unwrap_or("/");
        let mut r = respond(StatusCode::MOVED_PERMANENTLY, HTML, NO_STORE, Bytes::new());
        if let Ok(v) = HeaderValue::from_str(&format!("https://{host}{port}{target}")) {
            r.headers_mut().insert(header::LOCATION, v);
            return r;
        }
        serve::bad_request("O caminho pedido é inválido.", "Malformed request path.")
    }

    #[allow(clippy::too_many_arguments)]
    async fn serve_site(
        &self,
        site: &Arc<Site>,
        deploy: &Arc<DeployView>,
        req: Request<VisitBody>,
        host: &str,
        path: String,
        peer: IpAddr,
        fill: &mut Option<HotFill>,
    ) -> Resp {
        let (site, deploy) = (site.clone(), deploy.clone());
        if path == "/_forms" {
            return self.form(&site, &deploy, req, host, peer).await;
        }
        let method = req.method().clone();
        if method != Method::GET && method != Method::HEAD {
            return method_not_allowed("GET, HEAD");
        }
        let headers = req.headers();
        let query = req.uri().query();
        if let Some(slug) = path.strip_prefix("/_api/collections/") {
            return self
                .read_api(&site, &deploy, slug, query, &method, headers)
                .await;
        }
        let matcher = self.sites.matcher(&site, &deploy).await;
        if let Some(to) = matcher.lookup(&path, query) {
            let mut r = respond(
                StatusCode::from_u16(to.status).unwrap_or(StatusCode::MOVED_PERMANENTLY),
                HTML,
                NO_STORE,
                Bytes::new(),
            );
            match HeaderValue::from_str(&to.location) {
                Ok(v) => {
                    r.headers_mut().insert(header::LOCATION, v);
                    return r;
                }
                Err(_) => tracing::warn!(location = to.location, "unusable redirect target"),
            }
        }
        let routes = &deploy.manifest.routes;
        let trimmed = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            &path
        };
        if let Some(file) = routes.get(path.as_str()).or_else(|| routes.get(trimmed)) {
            if form_sent::is_sent(query) && file.content_type.starts_with("text/html") {
                return match self.sites.file(&file.key).await {
                    Ok(body) => sent_page(&deploy, &method, &body, trimmed),
                    Err(e) => {
                        tracing::error!(project = site.project_id, error = %e, "deploy object missing");
                        self.site_error(&site, &deploy, &method, headers).await
                    }
                };
            }
            let file = Prepared::new(file.clone());
            let r = self
                .file(&site, &deploy, &method, headers, &file, StatusCode::OK)
                .await;
            // Only a route that answered as a route (not the 500 page of a missing object),
            // and only while the database answers: with it down, the redirects came from the
            // deploy rather than the live rules.
            if r.status() != StatusCode::INTERNAL_SERVER_ERROR && !self.sites.degraded() {
                *fill = Some(HotFill {
                    site,
                    deploy,
                    file,
                    records: None,
                });
            }
            return r;
        }
        if let Some(name) = path.strip_prefix(ASSET_PREFIX) {
            return self.old_asset(&site, &deploy, &method, headers, name).await;
        }
        if let Some(key) = path.strip_prefix("/files/")
            && key.starts_with(UPLOADS)
        {
            return self.upload(&site, &deploy, &method, headers, key).await;
        }
        let segments: Vec<&str> = trimmed.trim_start_matches('/').split('/').collect();
        // Read before rendering: an edit landing meanwhile leaves a hot route already stale.
        let records = self.sites.records_seen(site.project_id);
        let rendered = match segments.as_slice() {
            [page, post] if !page.is_empty() && !post.is_empty() => {
                live::collection_page(&self.sites, &site, &deploy, page, post).await
            }
            [""] => live::dynamic_page(&self.sites, &site, &deploy, "/").await,
            [slug] => live::dynamic_page(&self.sites, &site, &deploy, slug).await,
            _ => None,
        };
        match rendered {
            Some(Ok(page)) if page.status == StatusCode::OK && form_sent::is_sent(query) => {
                sent_page(&deploy, &method, &page.body, trimmed)
            }
            Some(Ok(page)) if page.status == StatusCode::OK => {
                let file = Prepared::rendered(&page);
                let r = self
                    .file(&site, &deploy, &method, headers, &file, StatusCode::OK)
                    .await;
                if !self.sites.degraded() {
                    *fill = Some(HotFill {
                        site,
                        deploy,
                        file,
                        records: Some(records),
                    });
                }
                r
            }
            Some(r) => self.answer(&site, &deploy, &method, headers, r).await,
            None => self.site_not_found(&site, &deploy, &method, headers).await,
        }
    }

    async fn file(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
        file: &Prepared,
        status: StatusCode,
    ) -> Resp {
        match serve::static_file(&self.sites, method, headers, file, status).await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(project = site.project_id, deploy = deploy.manifest.deploy_id, error = %e, "deploy object missing");
                if status == StatusCode::OK {
                    Box::pin(self.site_error(site, deploy, method, headers)).await
                } else {
                    respond(status, HTML, NO_STORE, fallback_page(status))
                }
            }
        }
    }

    /// A content-addressed asset that is not in this deploy's manifest: an earlier deploy's,
    /// which stays reachable (DESIGN §3). The name is `{hash}.{ext}`, so the hash is its tag.
    async fn old_asset(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
        name: &str,
    ) -> Resp {
        let valid = !name.is_empty()
            && name.len() <= 200
            && !name.starts_with('.')
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
        if !valid {
            return self.site_not_found(site, deploy, method, headers).await;
        }
        let hash = name.split('.').next().unwrap_or(name);
        let key = asset_key(site.project_id, name);
        self.immutable_object(site, deploy, method, headers, &key, hash)
            .await
    }

    /// Serves an object whose key holds its content digest (`tag`), so it never changes: cached
    /// for a year as immutable; a missing one is the site's 404.
    async fn immutable_object(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
        key: &str,
        tag: &str,
    ) -> Resp {
        let file = StaticFile {
            key: key.to_string(),
            content_type: mime_guess::from_path(key)
                .first_or_octet_stream()
                .essence_str()
                .to_string(),
            etag: format!("\"{tag}\""),
            size: 0,
            br: None,
            gzip: None,
            immutable: true,
        };
        let file = Prepared::new(file);
        match serve::static_file(&self.sites, method, headers, &file, StatusCode::OK).await {
            Ok(r) => r,
            Err(_) => self.site_not_found(site, deploy, method, headers).await,
        }
    }

    /// A file uploaded through the dashboard (`/files/uploads/…`), as record values and block
    /// variables name it: collection pages render live records, so their files are not copied
    /// into the deploy. Served on a site's host only when it is the site's: the key's folder
    /// names the site's project, or the live deploy lists the key (a template's or a duplicated
    /// project's file that its pages or records name); any other key, another tenant's
    /// included, is the site's 404. Neither check awaits anything: the key says its project
    /// (`vitrine_shared::uploads`) and the deploy is in memory. Keys hold a content digest, so
    /// files are cached as immutable with the digest as their tag.
    async fn upload(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
        key: &str,
    ) -> Resp {
        let ours = UploadKey::parse(key).filter(|upload| {
            upload.project_id == Some(site.project_id) || deploy.manifest.uploads.contains(key)
        });
        let Some(upload) = ours else {
            return self.site_not_found(site, deploy, method, headers).await;
        };
        self.immutable_object(site, deploy, method, headers, key, &upload.tag)
            .await
    }

    async fn answer(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
        rendered: Result<Arc<Rendered>, Unavailable>,
    ) -> Resp {
        let rendered = match rendered {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(project = site.project_id, error = %e, "live page unavailable");
                return serve::unavailable();
            }
        };
        match rendered.status {
            StatusCode::NOT_FOUND => self.site_not_found(site, deploy, method, headers).await,
            StatusCode::INTERNAL_SERVER_ERROR => {
                self.site_error(site, deploy, method, headers).await
            }
            status => serve::head_if(method, cached_response(status, &rendered, headers)),
        }
    }

    async fn site_page(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
        path: Option<&String>,
        status: StatusCode,
    ) -> Resp {
        let file = path.and_then(|p| deploy.manifest.routes.get(p));
        match file {
            Some(file) => {
                let mut h = headers.clone();
                h.remove(header::RANGE);
                h.remove(header::IF_NONE_MATCH);
                let file = Prepared::new(file.clone());
                self.file(site, deploy, method, &h, &file, status).await
            }
            None => serve::head_if(
                method,
                respond(status, HTML, NO_STORE, fallback_page(status)),
            ),
        }
    }

    async fn site_not_found(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
    ) -> Resp {
        let p = deploy.manifest.not_found.as_ref();
        self.site_page(site, deploy, method, headers, p, StatusCode::NOT_FOUND)
            .await
    }

    async fn site_error(
        &self,
        site: &Site,
        deploy: &DeployView,
        method: &Method,
        headers: &HeaderMap,
    ) -> Resp {
        let p = deploy.manifest.error_page.as_ref();
        self.site_page(
            site,
            deploy,
            method,
            headers,
            p,
            StatusCode::INTERNAL_SERVER_ERROR,
        )
        .await
    }

    async fn read_api(
        &self,
        site: &Site,
        deploy: &Arc<DeployView>,
        slug: &str,
        query: Option<&str>,
        method: &Method,
        headers: &HeaderMap,
    ) -> Resp {
        let q = match live::parse_list_query(query) {
            Ok(q) => q,
            Err(e) => return serve::json_error(StatusCode::BAD_REQUEST, "invalid_query", &e.0),
        };
        match live::read_api(&self.sites, site, deploy, slug, &q, query.unwrap_or("")).await {
            None => serve::json_error(StatusCode::NOT_FOUND, "not_found", "Unknown collection"),
            Some(Err(e)) => {
                tracing::warn!(project = site.project_id, error = %e, "read API unavailable");
                let (status, code, message) = match e {
                    Unavailable::Refused(_) => (
                        StatusCode::BAD_REQUEST,
                        "invalid_query",
                        "The database cannot compare a value of this query",
                    ),
                    // This query alone: the site and the others are served as usual.
                    Unavailable::SlowQuery(_) | Unavailable::Busy => (
                        StatusCode::SERVICE_UNAVAILABLE,
                        "query_timeout",
                        "The query took too long; narrow it down or try again",
                    ),
                    _ => (
                        StatusCode::SERVICE_UNAVAILABLE,
                        "unavailable",
                        "The collection cannot be read right now",
                    ),
                };
                serve::json_error(status, code, message)
            }
            Some(Ok(r)) => serve::head_if(method, cached_response(r.status, &r, headers)),
        }
    }

    async fn form(
        &self,
        site: &Site,
        deploy: &DeployView,
        req: Request<VisitBody>,
        host: &str,
        peer: IpAddr,
    ) -> Resp {
        let headers = req.headers();
        let wants_json = headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains(JSON));
        if req.method() != Method::POST {
            return method_not_allowed("POST");
        }
        let page_url = referer_path(headers, host);
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        // Behind a trusted load balancer the visitor is in X-Forwarded-For; from anyone else
        // the header is ignored, so a visitor cannot pick their own rate-limit bucket.
        let client = self.trusted_proxies.client_ip(
            peer,
            headers
                .get_all("x-forwarded-for")
                .iter()
                .map(|v| v.to_str().unwrap_or("\u{fffd}")),
        );
        let user_agent = headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = read_form_body(req.into_body()).await;
        let outcome = match body {
            Ok(body) => {
                self.forms
                    .submit(submissions::Incoming {
                        project_id: site.project_id,
                        settings: &deploy.manifest.forms,
                        page_url: page_url.clone(),
                        content_type: content_type.as_deref(),
                        body,
                        client,
                        host,
                        user_agent: user_agent.as_deref(),
                    })
                    .await
            }
            Err(e) => Err(e),
        };
        let forms = &deploy.manifest.forms;
        let thank_you = forms.thank_you.as_deref().and_then(site_path);
        match outcome {
            Ok(_) if wants_json => respond(
                StatusCode::OK,
                JSON,
                NO_STORE,
                serde_json::json!({
                    "ok": true,
                    "message": form_sent::message(&forms.lang),
                    "redirect": thank_you,
                })
                .to_string(),
            ),
            Ok(_) => {
                // The owner's thank-you page, else the form's own page with the confirmation;
                // both same-site paths, so the answer cannot send the visitor elsewhere.
                let to = thank_you
                    .map(str::to_string)
                    .unwrap_or_else(|| form_sent::sent_location(&page_url));
                let mut r = respond(StatusCode::SEE_OTHER, HTML, NO_STORE, Bytes::new());
                if let Ok(v) = HeaderValue::from_str(&to) {
                    r.headers_mut().insert(header::LOCATION, v);
                }
                r
            }
            Err(refused) => {
                let status = match &refused {
                    Refused::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
                    Refused::RateLimited(_) | Refused::SiteRateLimited(_) => {
                        StatusCode::TOO_MANY_REQUESTS
                    }
                    Refused::Unsupported(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    Refused::Malformed | Refused::TooManyFields => StatusCode::BAD_REQUEST,
                    Refused::Rejected => StatusCode::UNPROCESSABLE_ENTITY,
                    Refused::SpoolFull | Refused::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
                };
                let code = refused.code();
                let message = refused.to_string();
                let mut r = if wants_json {
                    serve::json_error(status, code, &message)
                } else {
                    respond(
                        status,
                        HTML,
                        NO_STORE,
                        format!(
                            "<!doctype html><html lang=\"pt-BR\"><meta charset=\"utf-8\"><title>Formulário</title><p>{}</p></html>",
                            vitrine_shared::render::escape(&message)
                        ),
                    )
                };
                let retry_after = match refused {
                    Refused::RateLimited(secs) | Refused::SiteRateLimited(secs) => Some(secs),
                    Refused::SpoolFull => Some(60),
                    _ => None,
                };
                if let Some(secs) = retry_after {
                    r.headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
                }
                r
            }
        }
    }
}

/// A page landed on after its form was sent: its own document with the confirmation injected,
/// or a small confirmation page when the document has no `<body>` (see [`form_sent`]). Never
/// cached: the same path without the flag is the page as published.
fn sent_page(deploy: &DeployView, method: &Method, body: &[u8], path: &str) -> Resp {
    let lang = &deploy.manifest.forms.lang;
    let html = std::str::from_utf8(body)
        .ok()
        .and_then(|h| form_sent::inject(h, lang))
        .unwrap_or_else(|| form_sent::page(lang, path));
    serve::head_if(method, respond(StatusCode::OK, HTML, NO_STORE, html))
}

/// The page a form was posted from, as a path on this host (so the 303 can never send the
/// visitor elsewhere); `/` when the Referer is missing or names another host.
fn referer_path(headers: &HeaderMap, host: &str) -> String {
    headers
        .get(header::REFERER)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| url::Url::parse(r).ok())
        .filter(|u| u.host_str().is_some_and(|h| h.eq_ignore_ascii_case(host)))
        .map(|u| {
            let mut p = u.path().to_string();
            if let Some(q) = u.query() {
                p.push('?');
                p.push_str(q);
            }
            p
        })
        .filter(|p| site_path(p).is_some())
        .unwrap_or_else(|| "/".to_string())
}

/// Reads a form body of at most [`submissions::MAX_FORM_BYTES`]. A larger one is read on (and
/// dropped) up to [`DRAIN_LIMIT`] so the client, still sending, can read the 413 instead of
/// meeting a reset connection; past that the connection is simply closed.
async fn read_form_body(mut body: VisitBody) -> Result<Bytes, Refused> {
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let drain = async {
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else {
                return Err(Refused::Malformed);
            };
            if let Ok(data) = frame.into_data() {
                seen += data.len();
                if seen <= submissions::MAX_FORM_BYTES {
                    kept.extend_from_slice(&data);
                } else if seen > DRAIN_LIMIT {
                    break;
                }
            }
        }
        Ok(())
    };
    match tokio::time::timeout(DRAIN_TIME, drain).await {
        Ok(Ok(())) if seen <= submissions::MAX_FORM_BYTES => Ok(Bytes::from(kept)),
        Ok(Ok(())) => Err(Refused::TooLarge),
        Ok(Err(e)) => Err(e),
        Err(_elapsed) => Err(Refused::Malformed),
    }
}

/// How much of an oversized form body is read before answering 413.
const DRAIN_LIMIT: usize = 1024 * 1024;
/// How long a form body may take to arrive.
const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(10);

fn method_not_allowed(allow: &'static str) -> Resp {
    let mut r = respond(
        StatusCode::METHOD_NOT_ALLOWED,
        serve::TEXT,
        NO_STORE,
        "Method Not Allowed",
    );
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    r
}

fn fallback_page(status: StatusCode) -> String {
    if status == StatusCode::NOT_FOUND {
        serve::default_site_not_found()
    } else {
        serve::default_site_error()
    }
}

/// A rendered page or API answer, with its validator and 304 when the client has it.
fn cached_response(status: StatusCode, r: &Rendered, headers: &HeaderMap) -> Resp {
    let etag = r
        .etag
        .as_deref()
        .and_then(|e| HeaderValue::from_str(e).ok());
    let matches = etag.as_ref().is_some_and(|tag| {
        headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|inm| {
                inm.split(',')
                    .any(|t| t.trim().trim_start_matches("W/") == tag.to_str().unwrap_or(""))
            })
    });
    let mut resp = if matches && status == StatusCode::OK {
        let mut x = respond(
            StatusCode::NOT_MODIFIED,
            r.content_type,
            serve::REVALIDATE,
            Bytes::new(),
        );
        x.headers_mut().remove(header::CONTENT_TYPE);
        x
    } else {
        respond(status, r.content_type, serve::REVALIDATE, r.body.clone())
    };
    if let Some(tag) = etag {
        resp.headers_mut().insert(header::ETAG, tag);
    }
    resp
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
            crate::xorshift(&mut seed);
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

    #[test]
    fn the_form_redirect_stays_on_the_site() {
        let mut h = HeaderMap::new();
        assert_eq!(referer_path(&h, "loja.localhost"), "/");
        h.insert(
            header::REFERER,
            HeaderValue::from_static("http://loja.localhost:8080/contato?x=1"),
        );
        assert_eq!(referer_path(&h, "loja.localhost"), "/contato?x=1");
        h.insert(
            header::REFERER,
            HeaderValue::from_static("http://evil.example/contato"),
        );
        assert_eq!(referer_path(&h, "loja.localhost"), "/");
    }
}
