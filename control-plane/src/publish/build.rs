//! The build: reads the project, renders every static page into a document (or prepares it
//! for the edge when it has live lists or is a collection page), has the assets and fonts
//! written (`assets`, `fonts`) and writes the manifest last.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use bytes::Bytes;
use serde_json::Value;
use vitrine_shared::ids::{CollectionId, DeployId, ProjectId};
use vitrine_shared::{
    account::Account,
    analytics::{AnalyticsKey, rewrite_taps},
    domain::normalize_page_slug,
    identity::{Identity, page_title},
    manifest::{
        DynamicPage, FormSettings, MANIFEST_VERSION, MAX_MANIFEST_BYTES, Manifest, StaticFile,
        manifest_key, page_key, page_path,
    },
    render::{Block, DocumentParts, RenderContext, check_blocks, document},
    sandbox::{SandboxError, Share},
    seo::{
        card::{CARD_SEGMENT, HEIGHT, WIDTH},
        card_source::{CardSite, upload_key},
    },
    store::Page,
    theme::Theme,
};

use super::{
    Parts, Progress, Step, Warning, form_settings, live_url, objects::content_hash, reuse,
    site_menu, text_of, thank_you_path,
};
use crate::{base::Core, error::PublishError, external_lists::Answers};

/// First path segments the edge answers itself (assets, the read API, forms): a page there
/// would never be seen.
const RESERVED_SEGMENTS: &[&str] = &["_assets", "_api", "_forms", CARD_SEGMENT, "_go"];

/// What the share cards of one publish cost (`super::cards`): how many were drawn and the
/// time they took.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct CardsDrawn {
    pub(super) drawn: u32,
    pub(super) wall: std::time::Duration,
    pub(super) cpu: std::time::Duration,
}

/// What a finished build wrote.
pub(super) struct Built {
    pub(super) manifest_key: String,
    pub(super) files: i64,
    pub(super) bytes: i64,
    pub(super) warnings: Vec<Warning>,
    /// The share cards drawn (`super::cards`).
    pub(super) cards: CardsDrawn,
}

/// One build: the objects written so far and the manifest's routes.
pub(super) struct Build<'a> {
    pub(super) core: &'a Core,
    /// The API-fed lists' answers, for the records a page's lists are published with.
    pub(super) answers: &'a Answers,
    pub(super) project_id: ProjectId,
    /// The owner's account: its renders go first in the fair queue, its fetches are its own.
    pub(super) account: Account,
    pub(super) routes: BTreeMap<String, StaticFile>,
    /// The live deploy's objects, taken as they are when a body hashes to one of them.
    pub(super) previous: reuse::Previous,
    /// Upload key → asset URL (or None when the upload is missing), so each is copied once.
    pub(super) uploads: HashMap<String, Option<String>>,
    /// Upload keys of other projects (or of none) that pages or records still name by their
    /// `/files/…` address: the manifest lists them, the only ones the site's host serves
    /// besides its own project's.
    pub(super) foreign_uploads: BTreeSet<String>,
    /// Upload key → its photo with the site's URLs of its variants (None: not a photo).
    pub(super) photos: HashMap<String, Option<vitrine_shared::photos::markup::Shown>>,
    pub(super) files: i64,
    pub(super) bytes: i64,
    /// Things the owner should know that did not stop the build.
    pub(super) warnings: Vec<Warning>,
    pub(super) progress: Option<Progress>,
    pub(super) cards: CardsDrawn,
    /// The fleet's analytics key when the site counts visitors: its pages' WhatsApp, phone
    /// and e-mail links go through the signed `/_go` (`vitrine_shared::analytics`).
    pub(super) tap_key: Option<AnalyticsKey>,
}

impl Build<'_> {
    /// Tells the caller (the publish dialog) that the build got this far.
    pub(super) fn step(&self, step: Step) {
        if let Some(p) = &self.progress {
            p(step);
        }
    }

    /// Stores a rendered page document and routes its path to it.
    async fn page_document(&mut self, slug: &str, html: String) -> Result<(), PublishError> {
        let html = match self
            .tap_key
            .as_ref()
            .and_then(|k| rewrite_taps(html.as_bytes(), k))
        {
            Some(rewritten) => String::from_utf8(rewritten).unwrap_or(html),
            None => html,
        };
        let path = if slug == "/" {
            "/".to_string()
        } else {
            format!("/{slug}")
        };
        let hash = content_hash(html.as_bytes());
        let key = page_key(self.project_id, &format!("{hash}.html"));
        let file = self
            .put(
                key,
                &hash,
                Bytes::from(html),
                "text/html; charset=utf-8",
                false,
            )
            .await?;
        self.routes.insert(path, file);
        Ok(())
    }
}

/// The project-wide parts of every page's document.
struct SiteParts {
    lang: String,
    favicon: String,
    favicon_type: String,
    fonts_css: Option<String>,
    font_family: Option<String>,
    font_preloads: Vec<String>,
    header: String,
    footer: String,
    pixel_id: Option<String>,
    description: String,
}

/// The analytics key when the site counts visitors (`meta.analytics` not `false`):
/// `ANALYTICS_SECRET`, else the database's.
async fn tap_key(core: &Core, meta: &Value) -> Result<Option<AnalyticsKey>, PublishError> {
    if meta.get("analytics").and_then(Value::as_bool) == Some(false) {
        return Ok(None);
    }
    let secret = match core
        .settings
        .analytics_secret
        .as_ref()
        .filter(|s| !s.is_empty())
    {
        Some(s) => s.expose().to_string(),
        None => core.store.analytics_key().await?,
    };
    Ok(Some(AnalyticsKey::new(&secret)))
}

/// A template of `page` that failed: its own error, or the sandbox's.
fn render_failed(page: &Page, e: SandboxError) -> PublishError {
    match e {
        SandboxError::Render(error) => template_failed(page, error),
        other => PublishError::Sandbox(other),
    }
}

fn template_failed(page: &Page, error: vitrine_shared::render::RenderError) -> PublishError {
    PublishError::Template {
        page: page.name.clone(),
        error,
    }
}

pub(super) async fn build(
    publisher: &Parts,
    project_id: ProjectId,
    deploy_id: DeployId,
    progress: Option<Progress>,
) -> Result<Built, PublishError> {
    let core = &publisher.core;
    let store = &core.store;
    let project = store.project_by_id(project_id).await?;
    let owner = store.user_by_id(project.user_id).await?;
    // The publish's renders go first in the workers' fair queue, in the owner's account.
    let account = Account::of(owner.id, owner.business_id);
    let share = Share::publish(account);
    let pages = store.pages_of_project(project_id).await?;
    let collections = store.project_collections(project_id).await?;
    let redirects = store.project_redirects(project_id).await?;
    let sections = store.global_sections(project_id).await?;
    // Each page as visitors see it: the shared header, its own blocks, the shared footer.
    let page_blocks = |page: &Page| sections.page_blocks(&page.blocks.0, &page.meta.0);
    let menu = site_menu(&pages);
    let meta = &project.meta.0;
    // The site's name, description and theme: its identity's, on every page.
    let identity = Identity::of_meta(meta, &project.name);
    let theme = Theme::of_meta(meta);
    let live = live_url(&core.settings, &project);
    // Every template must compile, and every page have an address of its own, before
    // anything is written.
    for page in &pages {
        let slug = normalize_page_slug(&page.slug);
        if RESERVED_SEGMENTS.contains(&slug.split('/').next().unwrap_or("")) {
            return Err(PublishError::ReservedPath {
                page: page.name.clone(),
                path: format!("/{slug}"),
            });
        }
        check_blocks(&page_blocks(page)).map_err(|e| template_failed(page, e))?;
    }

    let mut b = Build {
        core,
        answers: &publisher.answers,
        project_id,
        account,
        routes: BTreeMap::new(),
        previous: reuse::Previous::load(core, &project).await,
        uploads: HashMap::new(),
        foreign_uploads: BTreeSet::new(),
        photos: HashMap::new(),
        files: 0,
        bytes: 0,
        warnings: Vec::new(),
        progress,
        cards: CardsDrawn::default(),
        tap_key: tap_key(core, meta).await?,
    };
    b.step(Step::Started {
        deploy_id,
        pages: pages.len(),
    });

    let fonts = b.fonts(meta).await?;
    let (favicon, favicon_type) = b
        .site_icon(text_of(meta, "favicon"), &identity, &theme)
        .await?;
    let business = b.business(&identity, &live).await?;
    let card_site = CardSite {
        name: identity.name.clone(),
        theme: theme.clone(),
        logo: upload_key(&identity.logo),
    };
    let pixel_id = Some(text_of(meta, "conversionApiPixelId").to_string())
        .filter(|p| !p.is_empty() && meta.get("conversionApiEnabled") != Some(&Value::Bool(false)));
    let site = SiteParts {
        lang: owner.language.code().to_owned(),
        favicon,
        favicon_type,
        fonts_css: fonts.css,
        font_family: fonts.family,
        font_preloads: fonts.preloads,
        header: b.link_uploads(text_of(meta, "header")).await?,
        footer: b.link_uploads(text_of(meta, "footer")).await?,
        pixel_id,
        description: Some(identity.description.trim())
            .filter(|d| !d.is_empty())
            .unwrap_or(text_of(meta, "description"))
            .to_string(),
    };
    let table_slug: HashMap<CollectionId, &str> = collections
        .iter()
        .map(|c| (c.id, c.slug.as_str()))
        .collect();

    let page_paths: Vec<String> = pages
        .iter()
        .map(|p| page_path(&normalize_page_slug(&p.slug), p.table_id.is_some()))
        .collect();
    let mut dynamic_pages = BTreeMap::new();
    let mut collection_pages = BTreeMap::new();
    for (index, page) in pages.iter().enumerate() {
        let slug = normalize_page_slug(&page.slug);
        let blocks = b.link_blocks(page_blocks(page)).await?;
        let (css, js) = b.bundles(&blocks).await?;
        let image = b.link_url(&page.image).await?;
        let title = page_title(&page.name, slug == "/", &identity.name);
        // The owner's image for the page, else its share card; a collection page's items
        // get theirs at the edge.
        let (image, image_size, image_alt) = if image.starts_with('/') {
            (
                format!("{}{image}", live.trim_end_matches('/')),
                None,
                title.clone(),
            )
        } else if !image.is_empty() || page.table_id.is_some() {
            (image, None, title.clone())
        } else {
            let card_title = if slug == "/" {
                &identity.name
            } else {
                &page.name
            };
            let card = b.page_card(&card_site, card_title, &live).await?;
            (card.url, Some((WIDTH, HEIGHT)), card.alt)
        };
        let page_head = b
            .link_uploads(
                page.meta
                    .0
                    .get("header")
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            )
            .await?;
        let mut parts = DocumentParts {
            lang: site.lang.clone(),
            title,
            description: Some(page.description.trim())
                .filter(|d| !d.is_empty())
                .unwrap_or(&site.description)
                .to_string(),
            image,
            image_size,
            image_alt,
            favicon: site.favicon.clone(),
            stylesheets: site.fonts_css.iter().chain(css.iter()).cloned().collect(),
            scripts: js.into_iter().collect(),
            font_family: site.font_family.clone(),
            font_preloads: site.font_preloads.clone(),
            head_code: [site.header.as_str(), page_head.as_str()]
                .into_iter()
                .filter(|c| !c.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
            footer_code: site.footer.clone(),
            pixel_id: site.pixel_id.clone(),
            effects: blocks.iter().any(Block::has_effect),
            site_name: identity.name.clone(),
            theme: theme.clone(),
            favicon_type: site.favicon_type.clone(),
            ..DocumentParts::default()
        };
        if page.table_id.is_some() {
            // The edge names the item's own address and adds its product and trail.
            parts.json_ld = vec![business.clone()];
        } else {
            let path = page_path(&slug, false);
            Build::page_seo(&mut parts, &live, &path, &page.name, &business);
        }
        // The blocks as saved, not as rendered: a variable's URL comes out of the template
        // engine HTML-escaped (`&#x2f;files&#x2f;…`), which the browser reads back as a path.
        b.note_uploads(
            &serde_json::to_string(&(&blocks, &parts))
                .map_err(|e| PublishError::Internal(e.into()))?,
        );
        if let Some(table_id) = page.table_id {
            let title_suffix = format!(" | {}", identity.name);
            parts.title = String::new();
            collection_pages.insert(
                slug.clone(),
                DynamicPage {
                    page_name: page.name.clone(),
                    page_slug: slug,
                    table_id: Some(table_id),
                    table: table_slug.get(&table_id).map(|s| s.to_string()),
                    blocks,
                    document: parts,
                    title_suffix,
                },
            );
        } else if blocks.iter().any(Block::is_dynamic) {
            dynamic_pages.insert(
                slug.clone(),
                DynamicPage {
                    page_name: page.name.clone(),
                    page_slug: slug,
                    table_id: None,
                    table: None,
                    blocks,
                    document: parts,
                    title_suffix: String::new(),
                },
            );
        } else {
            // A page saved before pages had blocks has only its HTML.
            let only_html =
                Block::list(&page.blocks.0).is_empty() && !page.output.trim().is_empty();
            let body = if only_html || blocks.is_empty() {
                b.link_uploads(&page.output).await?
            } else {
                let ctx = RenderContext {
                    site_slug: project.slug.clone(),
                    page_name: page.name.clone(),
                    page_slug: slug.clone(),
                    lang: site.lang.clone(),
                    pages: Some(page_paths.clone()),
                    menu: Some(menu.clone()),
                    ..RenderContext::for_site(identity.clone(), theme.clone())
                };
                publisher
                    .renders
                    .page(&core.sandbox, share, &blocks, &ctx)
                    .await
                    .map_err(|e| render_failed(page, e))?
            };
            let html = b.link_photos(document(&parts, &body)).await?;
            b.note_uploads(&html);
            b.page_document(&slug, html).await?;
        }
        b.step(Step::Page {
            index: index + 1,
            total: pages.len(),
            name: page.name.clone(),
        });
    }
    let collection_ids: Vec<CollectionId> = collections.iter().map(|c| c.id).collect();
    b.note_record_uploads(&collection_ids).await?;

    let has_route = |b: &Build, path: &str| b.routes.contains_key(path);
    // Without a page of its own at /404, the site's 404 is made here with its header, footer
    // and theme.
    let not_found_file = if has_route(&b, "/404") {
        None
    } else {
        let ctx = RenderContext {
            site_slug: project.slug.clone(),
            page_name: "404".into(),
            page_slug: "404".into(),
            lang: site.lang.clone(),
            pages: Some(page_paths.clone()),
            menu: Some(menu.clone()),
            ..RenderContext::for_site(identity.clone(), theme.clone())
        };
        let parts = DocumentParts {
            lang: site.lang.clone(),
            favicon: site.favicon.clone(),
            favicon_type: site.favicon_type.clone(),
            stylesheets: site.fonts_css.iter().cloned().collect(),
            font_family: site.font_family.clone(),
            head_code: site.header.clone(),
            footer_code: site.footer.clone(),
            pixel_id: site.pixel_id.clone(),
            site_name: identity.name.clone(),
            theme: theme.clone(),
            ..DocumentParts::default()
        };
        let file = b
            .not_found_page(publisher, share, &sections, ctx, parts)
            .await?;
        Some(file)
    };
    b.step(Step::Assets {
        files: b.files,
        bytes: b.bytes,
    });
    b.note_photo_variants().await?;
    let manifest = Manifest {
        version: MANIFEST_VERSION,
        project_id,
        deploy_id,
        created_at: chrono::Utc::now(),
        site_name: identity.name.clone(),
        not_found: has_route(&b, "/404").then(|| "/404".to_string()),
        error_page: has_route(&b, "/500").then(|| "/500".to_string()),
        routes: std::mem::take(&mut b.routes),
        redirects,
        dynamic_pages,
        collection_pages,
        collections: collections.iter().map(|c| (c.slug.clone(), c.id)).collect(),
        forms: FormSettings {
            lang: site.lang.clone(),
            thank_you: thank_you_path(meta, &pages),
            ..form_settings(meta, &owner.email, &identity.name, owner.language)
        },
        uploads: std::mem::take(&mut b.foreign_uploads),
        menu,
        identity: Some(identity),
        theme: Some(theme),
        base_url: live.clone(),
        robots: Some(text_of(meta, "robots").to_string()).filter(|r| !r.is_empty()),
        not_found_file,
    };
    let key = manifest_key(project_id, deploy_id);
    let json = serde_json::to_vec(&manifest).map_err(|e| PublishError::Internal(e.into()))?;
    if json.len() > MAX_MANIFEST_BYTES {
        return Err(PublishError::TooLarge { size: json.len() });
    }
    core.blobs.put(&key, Bytes::from(json)).await?;
    Ok(Built {
        manifest_key: key,
        files: b.files,
        bytes: b.bytes,
        warnings: b.warnings,
        cards: b.cards,
    })
}
