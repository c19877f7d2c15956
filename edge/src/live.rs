//! What the edge makes from live records: collection pages (`/{page}/{post}`), pages with
//! database-fed lists, and the read API (`/_api/collections/{slug}`).
//!
//! All three use `vitrine_shared::record_lists` (the same query planning as the editor's preview and
//! the control plane's API); pages render in `vitrine_shared::sandbox` (a worker process per
//! render, within memory, CPU and output budgets, which the visitor thread only awaits), and
//! all three are cached in the render cache under the project's records generation (see
//! [`crate::sites`]), so a cached answer costs no database round trip and a record edit is
//! visible as soon as the change feed brings it.
//!
//! Outcomes are cached too: an unknown post (the site's 404) and a template that fails at
//! render or goes over a budget its worker measured (CPU, memory, output: the site's 500,
//! counted in `/metrics`) stay what they are until the records change. A render that could not
//! run in time (no worker came free within `RENDER_QUEUE_MS`, or the worker was starved of CPU)
//! is the platform's doing, not the template's: 503 with `Retry-After`, never cached.
//!
//! The render workers are shared fairly per account (`vitrine_shared::sandbox::queue`), a
//! visitor may cause `EDGE_RENDER_RATE_PER_MINUTE` uncached renders a minute, and a collection
//! page whose template failed its budget [`crate::sites::SHORT_CIRCUIT_AFTER`] times in a deploy answers its
//! other posts with the site's 500 without rendering them ([`crate::sites::RenderRations`]).

use std::{net::IpAddr, sync::Arc};

use bytes::Bytes;
use hyper::{
    HeaderMap, StatusCode,
    header::{self, HeaderValue},
};
use sha2::{Digest, Sha256};
use vitrine_shared::ids::CollectionId;
use vitrine_shared::{
    analytics::{AnalyticsKey, rewrite_taps},
    compress::{Effort, variants},
    identity::Identity,
    manifest::DynamicPage,
    record_lists::{DbRecord, ListError, ListQuery, QueryError},
    render::{Block, DocumentParts, PostView, RenderContext, RenderError},
    sandbox::{Document, SandboxError, Share},
    store::{Collection, Field, StoreError},
};

mod api;
mod cards;
mod photos;
mod seo;
pub use api::{BadQuery, api_unavailable, parse_list_query, read_api};
pub use cards::{is_card_hash, item_card};
pub use seo::{XML, sitemap};

use crate::{
    serve::{self, HTML, Resp, respond},
    sites::{DB_TIMEOUT, DeployView, Rendered, Site, Sites, Unavailable},
};

fn found<T>(r: Result<T, StoreError>) -> Result<Option<T>, StoreError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(StoreError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A strong validator for a body made at the edge.
pub fn etag_of(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    format!("\"{}\"", hex::encode(&digest[..16]))
}

/// A page the render worker made whole, with its variants. With `taps` (the site counts its
/// visitors), its WhatsApp, phone and e-mail links go through the site's signed `/_go`
/// (`vitrine_shared::analytics::rewrite_taps`, as publishing does for the static pages), and
/// a page that had any is compressed again, on a blocking thread, once per render.
async fn html(doc: Document, taps: Option<&AnalyticsKey>) -> Rendered {
    let Some(key) = taps.cloned() else {
        return whole(doc);
    };
    let made = tokio::task::spawn_blocking(move || match rewrite_taps(doc.html.as_bytes(), &key) {
        Some(rewritten) => {
            let v = variants(&rewritten, Effort::Quick);
            Document {
                html: String::from_utf8(rewritten).unwrap_or(doc.html),
                br: v.br,
                gzip: v.gzip,
            }
        }
        None => doc,
    });
    match made.await {
        Ok(doc) => whole(doc),
        Err(_) => server_error(),
    }
}

/// [`html`]'s answer for a finished document.
fn whole(doc: Document) -> Rendered {
    let body = Bytes::from(doc.html);
    Rendered {
        status: StatusCode::OK,
        content_type: HTML,
        etag: Some(etag_of(&body)),
        body,
        br: doc.br.map(Bytes::from),
        gzip: doc.gzip.map(Bytes::from),
    }
}

/// An answer with no body of its own (`status` tells the caller which site page to send).
fn marker(status: StatusCode) -> Rendered {
    Rendered {
        status,
        content_type: HTML,
        body: Bytes::new(),
        etag: None,
        br: None,
        gzip: None,
    }
}

/// A marker the caller answers with the site's 404 page.
fn not_found() -> Rendered {
    marker(StatusCode::NOT_FOUND)
}

/// A marker the caller answers with the site's 500 page.
fn server_error() -> Rendered {
    marker(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The site's 500 for a template that failed (an error, or a budget its worker measured).
fn render_failed(sites: &Sites, site: &Site, page: &str, e: &RenderError) -> Rendered {
    sites.metrics().render_errors.inc();
    if let Some(reason) = e.exceeded {
        sites.metrics().render_budget_exceeded(reason.as_str());
    }
    tracing::warn!(project = site.project_id.get(), page, error = %e, "template error at render");
    server_error()
}

/// The page's document (`parts` around its blocks) with its compressed variants, made in the
/// sandbox in the site's account's share of the workers, or the answer for a page that cannot
/// be. `Ok(Err(e))`: the template failed; its caller makes the marker.
async fn render(
    sites: &Sites,
    site: &Site,
    page: &str,
    (blocks, parts, deploy): (&[Block], &DocumentParts, &DeployView),
    ctx: &RenderContext,
) -> Result<Result<Document, RenderError>, Unavailable> {
    let photos = photos::of(sites, site, deploy, ctx).await?;
    match sites
        .sandbox
        .document(Share::visitor(site.account), blocks, ctx, parts, &photos)
        .await
    {
        Ok(doc) => Ok(Ok(doc)),
        Err(SandboxError::Render(e)) => Ok(Err(e)),
        Err(SandboxError::Busy(why)) => {
            sites.metrics().renders_refused("busy");
            tracing::debug!(
                project = site.project_id.get(),
                page,
                why,
                "no render worker in time"
            );
            Err(Unavailable::Renderer(why.into()))
        }
        Err(SandboxError::Broken(cause)) => {
            tracing::error!(project = site.project_id.get(), page, %cause, "render sandbox failed");
            Err(Unavailable::Renderer(cause))
        }
    }
}

async fn collection(
    sites: &Sites,
    site: &Site,
    id: CollectionId,
) -> Result<Option<(Collection, Vec<Field>)>, Unavailable> {
    let Some(c) = sites
        .db(async { found(sites.store.collection_by_id(id).await) })
        .await?
    else {
        return Ok(None);
    };
    if c.project_id != site.project_id {
        return Ok(None);
    }
    let fields = sites.db(sites.store.collection_fields(c.id)).await?;
    Ok(Some((c, fields)))
}

/// A list query: its cost grows with the tenant's collection, so it runs in one of the
/// site's account's list slots and with its own statement time limit (see
/// [`crate::sites`]). A query refused before or by the database is `Ok(Err(..))`: the
/// caller's 400.
async fn list(
    sites: &Sites,
    site: &Site,
    c: &Collection,
    fields: &[Field],
    q: &ListQuery,
) -> Result<Result<Vec<DbRecord>, QueryError>, Unavailable> {
    let _slot = sites.list_slot(site.account).await?;
    list_in_slot(sites, c, fields, q).await
}

/// [`list`], for a caller that holds one of the account's list slots.
async fn list_in_slot(
    sites: &Sites,
    c: &Collection,
    fields: &[Field],
    q: &ListQuery,
) -> Result<Result<Vec<DbRecord>, QueryError>, Unavailable> {
    let within = sites.query_timeout();
    let listed = sites
        .db_within(within + DB_TIMEOUT, async {
            match sites.store.list_records_within(c, fields, q, within).await {
                Ok(v) => Ok(Ok(v)),
                Err(ListError::Query(e)) => Ok(Err(e)),
                Err(ListError::Store(e)) => Err(e),
            }
        })
        .await;
    match listed {
        Err(Unavailable::Refused(why)) => {
            tracing::debug!(
                collection = c.id.get(),
                error = why,
                "list query refused by the database"
            );
            Ok(Err(QueryError(
                "The database cannot compare a value of this query".into(),
            )))
        }
        other => other,
    }
}

fn html_fields(fields: &[Field]) -> Vec<String> {
    fields
        .iter()
        .filter(|f| f.kind == "wysiwyg")
        .map(|f| f.slug.clone())
        .collect()
}

fn permalink(deploy: &DeployView, collection_id: CollectionId, post_slug: &str) -> String {
    deploy
        .manifest
        .collection_pages
        .iter()
        .find(|(_, p)| p.table_id == Some(collection_id))
        .map(|(slug, _)| format!("/{slug}/{post_slug}"))
        .unwrap_or_default()
}

/// The database-fed lists the page's blocks declare, with their records.
async fn lists(
    sites: &Sites,
    site: &Site,
    deploy: &DeployView,
    blocks: &[Block],
) -> Result<std::collections::BTreeMap<String, Vec<PostView>>, Unavailable> {
    let mut out = std::collections::BTreeMap::new();
    for list_def in blocks.iter().flat_map(Block::db_lists) {
        let c = sites
            .db(async {
                found(
                    sites
                        .store
                        .collection_by_slug(site.project_id, &list_def.table)
                        .await,
                )
            })
            .await?;
        let items = match c {
            None => Vec::new(),
            Some(c) => {
                let fields = sites.db(sites.store.collection_fields(c.id)).await?;
                let html = html_fields(&fields);
                match list(sites, site, &c, &fields, &list_def.query).await? {
                    Ok(records) => records
                        .into_iter()
                        .map(|record| PostView {
                            permalink: permalink(deploy, c.id, &record.slug),
                            record,
                            html_fields: html.clone(),
                        })
                        .collect(),
                    Err(e) => {
                        tracing::debug!(list = list_def.name, error = %e, "list query refused");
                        Vec::new()
                    }
                }
            }
        };
        out.insert(list_def.key, items);
    }
    Ok(out)
}

/// What the page's blocks see: the site as published (its identity, theme and menu), the
/// year now.
fn context(site: &Site, deploy: &DeployView, page: &DynamicPage) -> RenderContext {
    let manifest = &deploy.manifest;
    let identity = manifest.identity.clone().unwrap_or_else(|| Identity {
        name: manifest.site_name.clone(),
        ..Identity::default()
    });
    let theme = manifest.theme.clone().unwrap_or_default();
    RenderContext {
        site_slug: site.slug.clone(),
        page_name: page.page_name.clone(),
        page_slug: page.page_slug.clone(),
        lang: page.document.lang.clone(),
        pages: Some(deploy.manifest.page_paths()),
        menu: Some(deploy.manifest.menu.clone()),
        ..RenderContext::for_site(identity, theme)
    }
}

/// `/{page_slug}/{post_slug}` when the deploy has that collection page, for `visitor`.
pub async fn collection_page(
    sites: &Sites,
    site: &Site,
    deploy: &Arc<DeployView>,
    (page_slug, post_slug): (&str, &str),
    (visitor, taps): (IpAddr, Option<&AnalyticsKey>),
) -> Option<Result<Arc<Rendered>, Unavailable>> {
    let page = deploy.manifest.collection_pages.get(page_slug)?;
    let key = (
        site.project_id,
        sites.records_generation(site.project_id),
        deploy.manifest.deploy_id,
        format!("c:{page_slug}/{post_slug}"),
    );
    let deploy_id = deploy.manifest.deploy_id;
    Some(
        sites
            .rendered_for(key, Some(visitor), async {
                let Some(table_id) = page.table_id else {
                    return Ok(not_found());
                };
                // The template is the same for every post: after failing its budget
                // SHORT_CIRCUIT_AFTER times here, it would fail again for this one.
                if sites.rations.short_circuited(deploy_id, page_slug).await {
                    sites.metrics().renders_refused("short_circuit");
                    return Ok(server_error());
                }
                let Some((c, fields)) = collection(sites, site, table_id).await? else {
                    return Ok(not_found());
                };
                let record = sites
                    .db(sites.store.record_by_slug(&c, &fields, post_slug))
                    .await?;
                let Some(record) = record else {
                    return Ok(not_found());
                };
                let mut ctx = context(site, deploy, page);
                ctx.lists = lists(sites, site, deploy, &page.blocks).await?;
                let title = format!("{}{}", record.name, page.title_suffix);
                let mut parts = page.document.clone();
                seo::item_parts(&mut parts, site, deploy, page_slug, (&record, &fields));
                ctx.post = Some(PostView {
                    permalink: format!("/{page_slug}/{}", record.slug),
                    record,
                    html_fields: html_fields(&fields),
                });
                parts.title = title;
                Ok(
                    match render(sites, site, page_slug, (&page.blocks, &parts, deploy), &ctx)
                        .await?
                    {
                        Ok(doc) => html(doc, taps).await,
                        Err(e) => {
                            if e.exceeded.is_some() {
                                sites.rations.budget_failed(deploy_id, page_slug).await;
                            }
                            render_failed(sites, site, page_slug, &e)
                        }
                    },
                )
            })
            .await,
    )
}

/// A page with database-fed lists (`slug` without slashes, `/` for the home page), for
/// `visitor`.
pub async fn dynamic_page(
    sites: &Sites,
    site: &Site,
    deploy: &Arc<DeployView>,
    slug: &str,
    (visitor, taps): (IpAddr, Option<&AnalyticsKey>),
) -> Option<Result<Arc<Rendered>, Unavailable>> {
    let page = deploy.manifest.dynamic_pages.get(slug)?;
    let key = (
        site.project_id,
        sites.records_generation(site.project_id),
        deploy.manifest.deploy_id,
        format!("d:{slug}"),
    );
    Some(
        sites
            .rendered_for(key, Some(visitor), async {
                let mut ctx = context(site, deploy, page);
                ctx.lists = lists(sites, site, deploy, &page.blocks).await?;
                let blocks = (&page.blocks[..], &page.document, &**deploy);
                Ok(match render(sites, site, slug, blocks, &ctx).await? {
                    Ok(doc) => html(doc, taps).await,
                    Err(e) => render_failed(sites, site, slug, &e),
                })
            })
            .await,
    )
}

/// A rendered page or API answer, with its validator and 304 when the client has it.
pub fn cached_response(status: StatusCode, r: &Rendered, headers: &HeaderMap) -> Resp {
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
