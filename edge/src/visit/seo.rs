//! A site's files for search engines (issue 44, `vitrine_shared::seo`): `/robots.txt` (the
//! owner's, else one that lets crawlers in, naming the sitemap) and `/sitemap.xml` (made from
//! the deploy and the live records, cached: [`crate::live::sitemap`]; a sitemap index of
//! `/sitemap-{n}.xml` files for a site with more than 50,000 URLs); and `noindex` on a
//! preview address whose project has a verified domain (its pages are the domain's), on every
//! response there, hot routes included (and the HTTP/1.1 front's held answers, `crate::h1`).

use hyper::{
    StatusCode,
    header::{HeaderName, HeaderValue},
};
use vitrine_shared::seo::{NOINDEX_ROBOTS, robots, sitemap};

use super::{HotFill, Visits};
use crate::{
    live,
    request::Visit,
    serve::{self, REVALIDATE, Resp, TEXT, respond},
    sites::Site,
};

const X_ROBOTS_TAG: HeaderName = HeaderName::from_static("x-robots-tag");

/// Marks `r` `noindex` when it answers a preview address (`preview`) of a site that has a
/// verified custom domain.
pub(super) fn noindex(r: &mut Resp, preview: bool, site: &Site) {
    if preview && site.verified_domain.is_some() {
        r.headers_mut()
            .insert(X_ROBOTS_TAG, HeaderValue::from_static("noindex"));
    }
}

impl Visits {
    /// `/robots.txt`, `/sitemap.xml` and a sitemap index's `/sitemap-{n}.xml`, else `None`.
    pub(super) async fn seo_file(&self, v: &Visit<'_>, fill: &mut Option<HotFill>) -> Option<Resp> {
        match v.path {
            "/robots.txt" => {
                let preview =
                    crate::request::host_kind(v.host, &self.platform_domain) == "platform";
                let body = if preview && v.site.verified_domain.is_some() {
                    NOINDEX_ROBOTS.to_string()
                } else {
                    robots(v.deploy.manifest.robots.as_deref(), &v.site.base_url)
                };
                Some(serve::head_if(
                    v.method,
                    respond(StatusCode::OK, TEXT, REVALIDATE, body),
                ))
            }
            path if path == "/sitemap.xml" || sitemap::file_number(path).is_some() => {
                let file = sitemap::file_number(path);
                let records = self.sites.records_seen(v.site.project_id);
                let visitor = v.client(&self.trusted_proxies);
                let made =
                    Box::pin(live::sitemap(&self.sites, v.site, v.deploy, file, visitor)).await;
                Some(match made {
                    // A numbered file the site does not have: the site's 404.
                    Ok(r) if r.status == StatusCode::NOT_FOUND => self.answer(v, Ok(r)).await,
                    Ok(r) => self.live_file(v, &r, records, fill).await,
                    Err(e) => self.answer(v, Err(e)).await,
                })
            }
            _ => None,
        }
    }
}
