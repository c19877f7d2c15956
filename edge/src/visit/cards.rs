//! `/_og/…`: a site's share cards (`vitrine_shared::seo::card`). They come before the
//! redirects, as the read API and forms do, so a whole-site redirect cannot hide a link
//! preview's picture.
//!
//! - `/_og/{hash}.png`: a page's card, drawn at publish;
//! - `/_og/{page}/{post}/{hash}.png`: a collection item's, drawn the first time it is asked
//!   for ([`crate::live::item_card`]).
//!
//! Either is an immutable object once made (`sites/{project}/og/{hash}.png`): served from the
//! edge's file cache with a year's `Cache-Control` and `immutable`, its hash as its tag.

use hyper::StatusCode;
use vitrine_shared::{manifest::StaticFile, seo::card_source::card_key};

use super::Visits;
use crate::{
    live,
    request::Visit,
    serve::{self, Prepared, Resp},
};

impl Visits {
    /// The card at `/_og/{rest}` (see the module docs).
    pub(super) async fn card(&self, v: &Visit<'_>, rest: &str) -> Resp {
        let segments: Vec<&str> = rest.split('/').collect();
        let (item, file) = match segments.as_slice() {
            [file] => (None, *file),
            [page, post, file] if !page.is_empty() && !post.is_empty() => {
                (Some((*page, *post)), *file)
            }
            _ => return self.site_not_found(v).await,
        };
        let Some(hash) = file.strip_suffix(".png").filter(|h| live::is_card_hash(h)) else {
            return self.site_not_found(v).await;
        };
        let file = Prepared::new(StaticFile {
            key: card_key(v.site.project_id, hash),
            content_type: "image/png".into(),
            etag: format!("\"{hash}\""),
            size: 0,
            br: None,
            gzip: None,
            immutable: true,
        });
        let ok = StatusCode::OK;
        if let Ok(r) = serve::static_file(&self.sites, v.method, v.headers, &file, ok).await {
            return r;
        }
        // Not made yet: a page's card is made at publish, only an item's here.
        let Some((page, post)) = item else {
            return self.site_not_found(v).await;
        };
        let visitor = v.client(&self.trusted_proxies);
        let (sites, site, deploy) = (&self.sites, v.site, v.deploy);
        let made = Box::pin(live::item_card(
            sites,
            site,
            deploy,
            (page, post, hash),
            visitor,
        ))
        .await;
        match made {
            Ok(r) if r.status == ok => {
                match serve::static_file(sites, v.method, v.headers, &file, ok).await {
                    Ok(r) => r,
                    Err(_) => self.site_error(v).await,
                }
            }
            other => self.answer(v, other).await,
        }
    }
}
