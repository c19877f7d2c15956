//! One visitor request, in the order `docs/design.md#a-visit` gives: host → site, then
//! redirects, static routes, content-addressed assets, collection pages, pages with live lists,
//! and the site's 404. `/_forms` ([`crate::forms`]) and `/_api/collections/…` are the two
//! non-page paths a site has; they come before the redirects, so a whole-site redirect (`*`)
//! cannot break the site's forms or API.
//!
//! Two things come before the site: ACME HTTP-01 challenges (answered from the database for
//! any host), and, on plain HTTP, a 301 to HTTPS for a host that has a certificate. HTTPS
//! responses of a site that opted in carry HSTS.
//!
//! Once the host names a published site, the request is one [`Visit`] (see
//! [`crate::request`]), made once and lent to every step below, so each step reads the same
//! host, path, method, headers, site and deploy.
//!
//! Every refusal here is a 4xx with a clear page or JSON body: a malformed host or path, a
//! method a page does not take, a query the read API does not understand. A template that
//! fails gets the site's 500 page; a database outage with nothing cached gets 503. Nothing a
//! visitor sends can make this function panic.

use std::{net::IpAddr, sync::Arc, time::Instant};

use bytes::Bytes;
use hyper::{
    Method, Request, StatusCode,
    header::{self, HeaderValue},
    http::request::Parts,
};
use vitrine_shared::{
    form_sent,
    manifest::{ASSET_PREFIX, StaticFile},
    proxies::TrustedProxies,
    uploads::UPLOADS,
};

use crate::{
    analytics::Analytics,
    forms, host,
    hot::{HotRoute, HotRoutes, Local, READ_API, hot_path},
    live,
    metrics::Metrics,
    pages,
    request::{
        BadPath, HotAsk, Listener, MAX_QUERY, Visit, VisitBody, clean_path, host_kind, raw_host,
    },
    serve::{self, HSTS, HTML, NO_STORE, Prepared, Resp, respond},
    sites::{RecordsSeen, Rendered, Site, Sites, Unavailable},
    submissions::Forms,
    tls::Certs,
};

mod before;
mod cards;
mod count;
mod objects;
mod seo;

/// What every visitor request needs.
pub struct Visits {
    pub platform_domain: String,
    pub sites: Arc<Sites>,
    pub forms: Arc<Forms>,
    pub metrics: Arc<Metrics>,
    pub analytics: Arc<Analytics>,
    pub certs: Arc<Certs>,
    /// The HTTPS listener's port, for HTTP → HTTPS redirects (omitted from the URL when 443).
    pub https_port: u16,
    /// Load balancers whose `X-Forwarded-For` names the visitor (for the form rate limit).
    pub trusted_proxies: TrustedProxies,
}

/// Where ACME HTTP-01 challenges are asked for (RFC 8555 §8.3).
const ACME_CHALLENGE: &str = "/.well-known/acme-challenge/";

/// What the slow path found for a static route, for the visitor thread's hot routes.
struct HotFill {
    site: Arc<Site>,
    file: Prepared,
    records: Option<RecordsSeen>,
}

impl Visits {
    /// The answer from the visitor thread's hot routes, when they hold this request: the
    /// whole of a repeat `GET`/`HEAD` of a static route, synchronous (see [`crate::hot`]).
    /// `secure`: the request came over HTTPS.
    pub fn hot<B>(
        &self,
        local: &Local,
        req: &Request<B>,
        peer: IpAddr,
        secure: bool,
    ) -> Option<Resp> {
        let ask = HotAsk {
            method: req.method(),
            host: raw_host(req.headers(), req.uri())?,
            path: req.uri().path(),
            query: req.uri().query(),
            headers: req.headers(),
        };
        self.hot_ask(local, &ask, peer, secure)
    }

    /// [`Visits::hot`] from the parts of a request it reads, for the plain HTTP/1.1 front
    /// ([`crate::h1`]), which parses requests itself and answers hot ones without hyper.
    /// `peer`: the connection's (the visitor, or a trusted proxy naming them).
    pub fn hot_ask(
        &self,
        local: &Local,
        ask: &HotAsk<'_>,
        peer: IpAddr,
        secure: bool,
    ) -> Option<Resp> {
        let started = Instant::now();
        let (r, host_kind, route) = self.hot_answer(&local.hot, ask, secure, started)?;
        let answer = (&r, route.file.file.content_type.as_str());
        self.count_hot(local, ask, answer, &route.site, peer);
        local.counts.route_hit();
        local
            .counts
            .request(r.status().as_u16(), host_kind, started.elapsed());
        Some(r)
    }

    /// Every request the hot routes did not answer, from `peer` on `listener` (a visitor
    /// listener). `local`: the visitor thread's own state: its counts, and its hot routes,
    /// filled when this serves a static route.
    pub async fn handle(
        &self,
        req: Request<VisitBody>,
        peer: IpAddr,
        listener: Listener,
        local: &Local,
    ) -> Resp {
        let started = Instant::now();
        // The head stays here, for the metrics and the error ring; the journey borrows it.
        let (head, body) = req.into_parts();
        let (epoch, changing) = (self.sites.hot_epoch(), self.sites.changing());
        let mut fill = None;
        let mut served = None;
        let r = self
            .route(
                &head,
                body,
                peer,
                listener,
                (&mut fill, &mut served, &local.analytics),
            )
            .await;
        let status = r.status().as_u16();
        if let Some(site) = served {
            self.count_slow(local, &head, &r, &site, peer);
        }
        let host = head
            .headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| head.uri.authority().map(|a| a.as_str()))
            .unwrap_or("");
        let kind = host_kind(host, &self.platform_domain);
        let path = &*hot_path(head.uri.path(), head.uri.query());
        if let Some(fill) = fill
            && let wanted = fill.file.coding_for(&head.headers, true)
            && let held = local.hot.held(host, path)
            && let Ok(file) = fill
                .file
                .load(&self.sites, wanted, held.as_deref().map(|r| &r.file))
                .await
        {
            // Read after the slow path, then checked: no change was half-applied meanwhile.
            let site_seen = self.sites.site_seen(fill.site.project_id);
            if self.sites.unchanged_since(changing) {
                let route = HotRoute {
                    epoch,
                    site_seen,
                    made: started,
                    host_kind: kind,
                    site: fill.site,
                    file,
                    records: fill.records,
                };
                local.hot.insert(host, path, route);
            }
        }
        local.counts.request(status, kind, started.elapsed());
        if status >= 500 {
            self.metrics.server_error(status, host, head.uri.path());
        }
        r
    }

    /// The hot route's answer, the host's kind (for the request counter) and the route.
    fn hot_answer(
        &self,
        hot: &HotRoutes,
        ask: &HotAsk<'_>,
        secure: bool,
        now: Instant,
    ) -> Option<(Resp, &'static str, Arc<HotRoute>)> {
        let route = self.hot_route(hot, ask, now)?;
        let mut r = serve::held_file(ask.method, ask.headers, &route.file, StatusCode::OK)?;
        seo::noindex(&mut r, route.host_kind == "platform", &route.site);
        if secure && route.site.hsts {
            r.headers_mut().insert(
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static(HSTS),
            );
        }
        let kind = route.host_kind;
        Some((r, kind, route))
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
        hot.get(
            ask.host,
            &hot_path(ask.path, ask.query),
            self.sites.hot_epoch(),
            now,
        )
    }

    /// From the request's head to its site, then the site's answer (see the module docs).
    /// `fill`: where to leave a static route's answer for the hot routes; `served`: the
    /// site that answered, when the host named one (for the analytics).
    async fn route(
        &self,
        head: &Parts,
        body: VisitBody,
        peer: IpAddr,
        listener: Listener,
        (fill, served, shard): (
            &mut Option<HotFill>,
            &mut Option<Arc<Site>>,
            &crate::analytics::Shard,
        ),
    ) -> Resp {
        let (headers, uri) = (&head.headers, &head.uri);
        if headers.get_all(header::HOST).iter().nth(1).is_some() {
            return pages::bad_request(
                "O pedido tem mais de um cabeçalho Host.",
                "The request has more than one Host header.",
            );
        }
        let Some(raw_host) = raw_host(headers, uri) else {
            return pages::bad_request(
                "O pedido não diz para qual site é (falta o cabeçalho Host).",
                "The request has no Host header.",
            );
        };
        if host::is_ip_literal(raw_host) {
            return pages::platform_not_found();
        }
        let Ok(host) = host::normalize(raw_host) else {
            return pages::bad_request(
                "O endereço do site (cabeçalho Host) é inválido.",
                "Malformed Host header.",
            );
        };
        let path = match clean_path(uri.path()) {
            Ok(p) => p,
            Err(BadPath::TooLong) => return pages::uri_too_long(),
            Err(BadPath::Malformed) => {
                return pages::bad_request(
                    "O caminho pedido é inválido.",
                    "Malformed request path.",
                );
            }
        };
        let query = uri.query();
        if query.is_some_and(|q| q.len() > MAX_QUERY) {
            return pages::uri_too_long();
        }
        // Challenges are answered for any host, by any node, before anything else.
        if let Some(token) = path.strip_prefix(ACME_CHALLENGE) {
            return self.challenge(&host, token).await;
        }
        if !listener.tls() && self.certs.has_certificate(&host).await {
            return self.to_https(&host, uri);
        }
        let site_host = host::classify(&host, &self.platform_domain);
        let preview = matches!(site_host, host::SiteHost::Slug(_));
        let site = match self.sites.resolve(&site_host).await {
            Ok(Some(site)) => site,
            Ok(None) => return pages::platform_not_found(),
            Err(e) => {
                tracing::warn!(host, error = %e, "site lookup failed and nothing cached");
                return pages::unavailable();
            }
        };
        let deploy = match self.sites.deploy(&site).await {
            Ok(Some(deploy)) => deploy,
            Ok(None) => return pages::not_published(),
            Err(e) => {
                tracing::warn!(host, error = %e, "the site's manifest could not be read");
                return pages::unavailable();
            }
        };
        let v = Visit {
            listener,
            peer,
            method: &head.method,
            headers,
            host: &host,
            path: &path,
            query,
            site: &site,
            deploy: &deploy,
        };
        if v.path == vitrine_shared::analytics::GO_PATH {
            let counted = site.analytics.then_some(site.project_id);
            return self.analytics.go(shard, counted, query);
        }
        *served = Some(site.clone());
        let mut r = if v.path == "/_forms" {
            forms::post(&self.forms, &self.trusted_proxies, &v, body).await
        } else {
            self.serve_site(&v, fill).await
        };
        seo::noindex(&mut r, preview, &site);
        if v.secure() && site.hsts {
            r.headers_mut().insert(
                header::STRICT_TRANSPORT_SECURITY,
                HeaderValue::from_static(HSTS),
            );
        }
        r
    }

    /// A site's answer to a request that is not a form: its read API, its redirects, its
    /// routes, older deploys' assets, uploads, collection and live pages, else its 404.
    async fn serve_site(&self, v: &Visit<'_>, fill: &mut Option<HotFill>) -> Resp {
        if v.method != Method::GET && v.method != Method::HEAD {
            return pages::method_not_allowed("GET, HEAD");
        }
        if let Some(slug) = v.path.strip_prefix(READ_API) {
            return self.read_api(v, slug, fill).await;
        }
        if let Some(rest) = v.path.strip_prefix("/_og/") {
            return self.card(v, rest).await;
        }
        let matcher = self.sites.matcher(v.site, v.deploy).await;
        if let Some(to) = matcher.lookup(v.path, v.query) {
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
        if let Some(r) = self.seo_file(v, fill).await {
            return r;
        }
        let routes = &v.deploy.manifest.routes;
        let trimmed = if v.path.len() > 1 {
            v.path.trim_end_matches('/')
        } else {
            v.path
        };
        if let Some(file) = routes.get(v.path).or_else(|| routes.get(trimmed)) {
            if form_sent::is_sent(v.query) && file.content_type.starts_with("text/html") {
                return match self.sites.file(&file.key).await {
                    Ok(body) => forms::sent_page(v, &body, trimmed),
                    Err(e) => {
                        tracing::error!(project = v.site.project_id.get(), error = %e, "deploy object missing");
                        self.site_error(v).await
                    }
                };
            }
            let file = Prepared::new(file.clone());
            let r = self.file(v, &file, StatusCode::OK).await;
            // Only a route that answered as a route (not the 500 page of a missing object),
            // and only while the database answers: with it down, the redirects came from the
            // deploy rather than the live rules.
            if r.status() != StatusCode::INTERNAL_SERVER_ERROR && !self.sites.degraded() {
                *fill = Some(HotFill {
                    site: v.site.clone(),
                    file,
                    records: None,
                });
            }
            return r;
        }
        if let Some(name) = v.path.strip_prefix(ASSET_PREFIX) {
            return self.old_asset(v, name).await;
        }
        if let Some(key) = v.path.strip_prefix("/files/")
            && key.starts_with(UPLOADS)
        {
            return self.upload(v, key).await;
        }
        let segments: Vec<&str> = trimmed.trim_start_matches('/').split('/').collect();
        // Read before rendering: an edit landing meanwhile leaves a hot route already stale.
        let records = self.sites.records_seen(v.site.project_id);
        let (sites, site, deploy) = (&self.sites, v.site, v.deploy);
        // Whose share of uncached renders this request uses.
        let visitor = v.client(&self.trusted_proxies);
        // A counting site's tap links go through its signed `/_go` (`crate::analytics`).
        let taps = self.analytics.key().filter(|_| site.analytics);
        let visitor = (visitor, taps);
        // Boxed: a render's future is large, a visitor thread's stack is not.
        let rendered = match segments.as_slice() {
            [page, post] if !page.is_empty() && !post.is_empty() => {
                Box::pin(live::collection_page(
                    sites,
                    site,
                    deploy,
                    (page, post),
                    visitor,
                ))
                .await
            }
            [""] => Box::pin(live::dynamic_page(sites, site, deploy, "/", visitor)).await,
            [slug] => Box::pin(live::dynamic_page(sites, site, deploy, slug, visitor)).await,
            _ => None,
        };
        match rendered {
            Some(Ok(page)) if page.status == StatusCode::OK && form_sent::is_sent(v.query) => {
                forms::sent_page(v, &page.body, trimmed)
            }
            Some(Ok(page)) if page.status == StatusCode::OK => {
                self.live_file(v, &page, records, fill).await
            }
            Some(r) => self.answer(v, r).await,
            None => self.site_not_found(v).await,
        }
    }

    /// A file of the deploy, or one made like one, as `status` (the site's 404 and 500 pages
    /// are files too); a missing object is the site's 500 page, or the default one.
    async fn file(&self, v: &Visit<'_>, file: &Prepared, status: StatusCode) -> Resp {
        match serve::static_file(&self.sites, v.method, v.headers, file, status).await {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(project = v.site.project_id.get(), deploy = v.deploy.manifest.deploy_id.get(), error = %e, "deploy object missing");
                if status == StatusCode::OK {
                    Box::pin(self.site_error(v)).await
                } else {
                    respond(
                        status,
                        HTML,
                        NO_STORE,
                        pages::default_site_page(status, &v.deploy.manifest.site_name),
                    )
                }
            }
        }
    }

    /// A `200` made from live records (a page, a read-API answer) sent as a static file, and
    /// left for the hot routes under the records generation read before it was made.
    async fn live_file(
        &self,
        v: &Visit<'_>,
        r: &Rendered,
        records: RecordsSeen,
        fill: &mut Option<HotFill>,
    ) -> Resp {
        let file = Prepared::rendered(r);
        let answer = self.file(v, &file, StatusCode::OK).await;
        if !self.sites.degraded() {
            *fill = Some(HotFill {
                site: v.site.clone(),
                file,
                records: Some(records),
            });
        }
        answer
    }

    /// A page rendered from live records that is not a plain `200`: the site's 404 or 500
    /// page for those outcomes, else the rendered answer; 429 when the visitor has caused
    /// their share of renders, 503 when it could not be rendered.
    async fn answer(&self, v: &Visit<'_>, rendered: Result<Arc<Rendered>, Unavailable>) -> Resp {
        let rendered = match rendered {
            Ok(r) => r,
            Err(Unavailable::Throttled(wait)) => return pages::too_many_renders(wait),
            Err(e) => {
                tracing::warn!(project = v.site.project_id.get(), error = %e, "live page unavailable");
                return pages::unavailable();
            }
        };
        match rendered.status {
            StatusCode::NOT_FOUND => self.site_not_found(v).await,
            StatusCode::INTERNAL_SERVER_ERROR => self.site_error(v).await,
            status => serve::head_if(
                v.method,
                live::cached_response(status, &rendered, v.headers),
            ),
        }
    }

    /// The site's own page (its 404 or 500 page), as `status`, else the default one.
    async fn site_page(
        &self,
        v: &Visit<'_>,
        file: Option<&StaticFile>,
        status: StatusCode,
    ) -> Resp {
        match file {
            Some(file) => {
                // An error page is whole and has no validator: the request's range and
                // validators are for the page it asked for.
                let mut h = v.headers.clone();
                h.remove(header::RANGE);
                h.remove(header::IF_NONE_MATCH);
                let file = Prepared::new(file.clone());
                self.file(&Visit { headers: &h, ..*v }, &file, status).await
            }
            None => serve::head_if(
                v.method,
                respond(
                    status,
                    HTML,
                    NO_STORE,
                    pages::default_site_page(status, &v.deploy.manifest.site_name),
                ),
            ),
        }
    }

    /// The site's 404: its own page at `/404`, else the one publishing made with its header,
    /// footer and theme, else the default one.
    async fn site_not_found(&self, v: &Visit<'_>) -> Resp {
        let m = &v.deploy.manifest;
        let own = m.not_found.as_ref().and_then(|p| m.routes.get(p));
        let file = own.or(m.not_found_file.as_ref());
        self.site_page(v, file, StatusCode::NOT_FOUND).await
    }

    async fn site_error(&self, v: &Visit<'_>) -> Resp {
        let m = &v.deploy.manifest;
        let file = m.error_page.as_ref().and_then(|p| m.routes.get(p));
        self.site_page(v, file, StatusCode::INTERNAL_SERVER_ERROR)
            .await
    }

    /// `/_api/collections/{slug}`: a collection's records, read-only (`docs/design.md#a-visit`).
    /// A `200` leaves as a live page does: through the static files' path, with its variants, and
    /// into the hot routes under its path and query ([`crate::hot::hot_path`]) until the records change.
    async fn read_api(&self, v: &Visit<'_>, slug: &str, fill: &mut Option<HotFill>) -> Resp {
        let q = match live::parse_list_query(v.query) {
            Ok(q) => q,
            Err(e) => return pages::json_error(StatusCode::BAD_REQUEST, "invalid_query", &e.0),
        };
        let raw_query = v.query.unwrap_or("");
        let records = self.sites.records_seen(v.site.project_id);
        let read = live::read_api(&self.sites, v.site, v.deploy, slug, &q, raw_query);
        match Box::pin(read).await {
            None => pages::json_error(StatusCode::NOT_FOUND, "not_found", "Unknown collection"),
            Some(Err(e)) => {
                tracing::warn!(project = v.site.project_id.get(), error = %e, "read API unavailable");
                live::api_unavailable(&e)
            }
            Some(Ok(r)) if r.status == StatusCode::OK => self.live_file(v, &r, records, fill).await,
            Some(Ok(r)) => serve::head_if(v.method, live::cached_response(r.status, &r, v.headers)),
        }
    }
}
