//! A collection item's share card (`vitrine_shared::seo::card`, `docs/design.md` § Share
//! cards), made at the edge the first time it is asked for, never on the item page's path.
//!
//! **The page names it; the card request makes it.** Rendering an item's page computes only
//! the hash of what its card shows (its name, price and photo's key, the published name,
//! theme and logo): no image is read and nothing is drawn there. The page names the card
//! `/_og/{page}/{post}/{hash}.png`. A request for that address is answered from the object
//! store (`sites/{project}/og/{hash}.png`) when the card was made before, like any immutable
//! file; otherwise the item is read again, and only if its card's hash is still the one asked
//! for is the card drawn: in a render-sandbox worker of the site's account's share
//! (`Share::visitor`), from the visitor's ration of uncached renders, then stored for every
//! edge. An old or made-up hash is the site's 404 and draws nothing. A record edit that
//! changes what the card shows changes the hash, so the page names a new card and the old one
//! simply stops being named; an edit that changes nothing on it keeps the same card.
//!
//! Only files of the site's own project (or ones its deploy lists) are drawn on a card, as the
//! edge serves only those under `/files/` (`crate::visit`).

use std::{net::IpAddr, sync::Arc};

use bytes::Bytes;
use hyper::StatusCode;
use vitrine_shared::{
    list_query::DbRecord,
    sandbox::Share,
    seo::{
        card::CardInputs,
        card_source::{self, CardSite, SourceError, card_key, upload_key},
    },
    store::Field,
    uploads::UploadKey,
};

use super::{collection, not_found};
use crate::sites::{DeployView, Rendered, Site, Sites, Unavailable};

/// Whether the upload `key` may be drawn on the site's cards.
fn ours(site: &Site, deploy: &DeployView, key: &str) -> bool {
    UploadKey::parse(key).is_some_and(|u| {
        u.project_id == Some(site.project_id) || deploy.manifest.uploads.contains(key)
    })
}

/// The site's part of its cards, as published.
fn card_site(site: &Site, deploy: &DeployView) -> CardSite {
    let m = &deploy.manifest;
    let identity = m.identity.as_ref();
    CardSite {
        name: identity
            .map(|i| i.name.clone())
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| m.site_name.clone()),
        theme: m.theme.clone().unwrap_or_default(),
        logo: identity
            .and_then(|i| upload_key(&i.logo))
            .filter(|k| ours(site, deploy, k)),
    }
}

/// What the card of `record` shows.
pub(super) fn item_inputs(
    site: &Site,
    deploy: &DeployView,
    (record, fields): (&DbRecord, &[Field]),
) -> CardInputs {
    let mut inputs = card_site(site, deploy).item(record, fields);
    inputs.photo = inputs.photo.filter(|k| ours(site, deploy, k));
    inputs
}

/// The card's address on the site.
pub(super) fn card_path(page_slug: &str, post_slug: &str, hash: &str) -> String {
    format!("/_og/{page_slug}/{post_slug}/{hash}.png")
}

/// Whether `hash` has the shape of a card's name (so nothing else reaches the object store).
pub fn is_card_hash(hash: &str) -> bool {
    hash.len() == 24 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Makes the card `hash` of the post `post_slug` of the collection page `page_slug` and stores
/// it, for `visitor` (see the module docs): a `200` with no body once it is in the object
/// store, else the site's 404 for a post or hash that is not (or no longer) the card's.
pub async fn item_card(
    sites: &Sites,
    site: &Site,
    deploy: &Arc<DeployView>,
    (page_slug, post_slug, hash): (&str, &str, &str),
    visitor: IpAddr,
) -> Result<Arc<Rendered>, Unavailable> {
    let key = (
        site.project_id,
        sites.records_generation(site.project_id),
        deploy.manifest.deploy_id,
        format!("og:{page_slug}/{post_slug}/{hash}"),
    );
    sites
        .rendered_for(key, Some(visitor), async {
            let page = deploy.manifest.collection_pages.get(page_slug);
            let Some(table_id) = page.and_then(|p| p.table_id) else {
                return Ok(not_found());
            };
            let Some((c, fields)) = collection(sites, site, table_id).await? else {
                return Ok(not_found());
            };
            let record = sites
                .db(sites.store.record_by_slug(&c, &fields, post_slug))
                .await?;
            let Some(record) = record else {
                return Ok(not_found());
            };
            let inputs = item_inputs(site, deploy, (&record, &fields));
            if inputs.hash() != hash {
                return Ok(not_found());
            }
            let job = card_source::job(&sites.store, &sites.blobs, inputs)
                .await
                .map_err(|e| match e {
                    SourceError::Store(e) => Unavailable::Database(e.to_string()),
                    SourceError::Blob(e) => Unavailable::Blob(e.to_string()),
                })?;
            let card = sites
                .sandbox
                .card(Share::visitor(site.account), job)
                .await
                .map_err(|e| Unavailable::Renderer(e.to_string()))?;
            tracing::debug!(
                project = site.project_id.get(),
                cpu_ms = card.cpu.as_millis() as u64,
                "share card drawn"
            );
            sites
                .blobs
                .put(&card_key(site.project_id, hash), Bytes::from(card.png))
                .await
                .map_err(|e| Unavailable::Blob(e.to_string()))?;
            Ok(Rendered {
                status: StatusCode::OK,
                content_type: "image/png",
                body: Bytes::new(),
                etag: None,
                br: None,
                gzip: None,
            })
        })
        .await
}
