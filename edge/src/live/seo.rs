//! What the edge adds for search engines to what it makes from live records (issue 44,
//! `vitrine_shared::seo`): a collection item's canonical URL, description, `Product`, breadcrumb trail and
//! share card's address ([`super::cards`]), and the site's `sitemap.xml` (with more URLs than
//! one file holds, a sitemap index of `/sitemap-{n}.xml` files: `vitrine_shared::seo::sitemap`).
//!
//! **The sitemap's cost is bounded.** It is made once per records generation and deploy and
//! kept in the render cache like a live page, so repeat requests (however many, from however
//! many visitors) cost no database round trip; a record edit makes the next request build it
//! again, with the item's new `lastmod`, no re-publish. Each file of an index is cached the
//! same way, on its own. Building one counts each collection page's posts and reads only the
//! slugs and update times of its own window, at most [`MAX_URLS`] rows in all, in one of the
//! site's account's list slots and under the list queries' statement time limit
//! ([`crate::sites`]), so a huge collection fails alone (503) and never holds the shared pool.
//! A miss takes one render from the visitor's ration ([`crate::sites::RenderRations`]):
//! concurrent misses share one build, and a visitor who forces rebuilds is answered 429.

use std::{net::IpAddr, sync::Arc};

use bytes::Bytes;
use hyper::StatusCode;
use vitrine_shared::{
    compress::{Effort, variants},
    list_query::DbRecord,
    manifest::DynamicPage,
    render::DocumentParts,
    seo::{
        absolute, card, item_description, jsonld,
        sitemap::{Entry, MAX_URLS, file_path, files_for, index_xml, item_path, xml},
    },
    store::Field,
};

use super::etag_of;
use crate::sites::{DB_TIMEOUT, DeployView, Rendered, Site, Sites, Unavailable};

/// The sitemap's media type.
pub const XML: &str = "application/xml; charset=utf-8";

/// A collection item's canonical URL (on the site's address now: a domain verified since the
/// publish is named at once), its `Product` when the collection has a price, and the trail
/// home → the collection's listing → the item. The listing is the first page whose lists
/// read the item's collection (such pages are rendered at the edge, so the deploy holds their
/// blocks), else a page at `/{page_slug}`; without either the trail is home → item.
pub(super) fn item_parts(
    parts: &mut DocumentParts,
    site: &Site,
    deploy: &DeployView,
    page_slug: &str,
    (record, fields): (&DbRecord, &[Field]),
) {
    let base = &site.base_url;
    let path = item_path(page_slug, &record.slug);
    parts.canonical = absolute(base, &path);
    // Its own words in search results and link previews, else the page's.
    let description = item_description(record, fields);
    if !description.is_empty() {
        parts.description = description;
    }
    let home = if parts.lang == "en" {
        "Home"
    } else {
        "Início"
    };
    let mut trail = vec![(home.to_string(), absolute(base, "/"))];
    let m = &deploy.manifest;
    let table = m
        .collection_pages
        .get(page_slug)
        .and_then(|p| p.table.as_deref());
    let lists_it = |p: &&DynamicPage| {
        p.blocks
            .iter()
            .any(|b| b.db_lists().iter().any(|l| Some(l.table.as_str()) == table))
    };
    let listing = m.dynamic_pages.values().find(lists_it).map(|p| {
        let path = vitrine_shared::manifest::page_path(&p.page_slug, false);
        (p.page_name.clone(), path)
    });
    let same_slug = format!("/{}", page_slug.trim_matches('/'));
    let listing = listing.or_else(|| {
        let item = m.menu.iter().find(|i| i.url == same_slug)?;
        Some((item.name.clone(), same_slug))
    });
    if let Some((name, path)) = listing {
        trail.push((name, absolute(base, &path)));
    }
    trail.push((record.name.clone(), parts.canonical.clone()));
    if let Some(product) = jsonld::product(record, fields, base, &path) {
        parts.json_ld.push(product);
        parts.og_type = "product".into();
    } else {
        parts.og_type = "article".into();
    }
    parts.json_ld.push(jsonld::breadcrumbs(&trail));
    // Its share card: named here by the hash of what it shows, drawn when first asked for.
    let card = super::cards::item_inputs(site, deploy, (record, fields));
    let card_path = super::cards::card_path(page_slug, &record.slug, &card.hash());
    parts.image = absolute(base, &card_path);
    parts.image_size = Some((card::WIDTH, card::HEIGHT));
    parts.image_alt = card.alt();
}

/// `/sitemap.xml` (`file` `None`) or the index's `/sitemap-{n}.xml` (`Some(n)`) for `visitor`
/// (see the module docs); a file the site does not have is the site's 404.
pub async fn sitemap(
    sites: &Sites,
    site: &Site,
    deploy: &Arc<DeployView>,
    file: Option<usize>,
    visitor: IpAddr,
) -> Result<Arc<Rendered>, Unavailable> {
    let key = (
        site.project_id,
        sites.records_generation(site.project_id),
        deploy.manifest.deploy_id,
        format!("sitemap:{}:{}", file.unwrap_or(0), site.base_url),
    );
    sites
        .rendered_for(key, Some(visitor), async {
            let m = &deploy.manifest;
            let base = &site.base_url;
            let pages: Vec<Entry> = m
                .sitemap_paths()
                .iter()
                .map(|p| Entry {
                    loc: absolute(base, p),
                    lastmod: m.created_at,
                })
                .collect();
            let _slot = if m.collection_pages.is_empty() {
                None
            } else {
                Some(sites.list_slot(site.account).await?)
            };
            let within = sites.query_timeout();
            let mut tables = Vec::new();
            for (slug, page) in &m.collection_pages {
                let Some(table) = page.table_id else {
                    continue;
                };
                let count = sites
                    .store
                    .sitemap_post_count(table, site.project_id, within);
                let count = sites.db_within(within + DB_TIMEOUT, count).await?;
                tables.push((slug, table, usize::try_from(count).unwrap_or(0)));
            }
            let total = pages.len() + tables.iter().map(|t| t.2).sum::<usize>();
            let files = files_for(total);
            sites.metrics().sitemaps_built.inc();
            let n = match file {
                None if files > 1 => {
                    let locs: Vec<String> =
                        (1..=files).map(|n| absolute(base, &file_path(n))).collect();
                    return Ok(compressed(index_xml(&locs)).await);
                }
                None => 1,
                Some(n) if files > 1 && n <= files => n,
                Some(_) => return Ok(super::not_found()),
            };
            // This file's window of the site's URLs: pages first, then each table's posts.
            let window = (n - 1) * MAX_URLS..n * MAX_URLS;
            let mut entries: Vec<Entry> = pages
                .into_iter()
                .enumerate()
                .filter(|(i, _)| window.contains(i))
                .map(|(_, e)| e)
                .collect();
            let mut at = total - tables.iter().map(|t| t.2).sum::<usize>();
            for (slug, table, count) in tables {
                let (from, to) = (at.max(window.start), (at + count).min(window.end));
                if from < to {
                    let span = (i64::try_from(to - from), i64::try_from(from - at));
                    let (Ok(limit), Ok(offset)) = span else {
                        break;
                    };
                    let read =
                        sites
                            .store
                            .sitemap_posts(table, site.project_id, (limit, offset), within);
                    let rows = sites.db_within(within + DB_TIMEOUT, read).await?;
                    entries.extend(rows.into_iter().map(|(post, at)| Entry {
                        loc: absolute(base, &item_path(slug, &post)),
                        lastmod: at,
                    }));
                }
                at += count;
            }
            Ok(compressed(xml(&entries)).await)
        })
        .await
}

/// A sitemap document with its compressed variants, counted as built.
async fn compressed(doc: String) -> Rendered {
    let body = Bytes::from(doc);
    let for_variants = body.clone();
    let made = tokio::task::spawn_blocking(move || variants(&for_variants, Effort::Quick)).await;
    let (br, gzip) = match made {
        Ok(v) => (v.br.map(Bytes::from), v.gzip.map(Bytes::from)),
        Err(_) => (None, None),
    };
    Rendered {
        status: StatusCode::OK,
        content_type: XML,
        etag: Some(etag_of(&body)),
        body,
        br,
        gzip,
    }
}
