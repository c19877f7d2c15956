//! Publishing: builds an immutable deploy of a project in the object store and then makes it
//! live in one database transaction (DESIGN.md §3 "Publishing").
//!
//! A build reads the project, its pages, collections and redirects and writes:
//! - every static page as a full HTML document (`vitrine_shared::render::document`, the same
//!   renderer as the editor's preview), content-addressed under
//!   `sites/{project}/pages/{hash}.html`, with the project's shared header and footer
//!   (`vitrine_shared::sections`) around its own blocks unless it opts out (the edge's pages
//!   carry them in the manifest the same way);
//! - content-addressed assets under `sites/{project}/assets/{hash}.{ext}` (served at
//!   `/_assets/…`): each page's block CSS and JS bundle, the fonts stylesheet and font files
//!   (provider fonts fetched once and cached in the object store under `fonts/…`; custom
//!   fonts from the owner's uploads), the favicon, and every uploaded file a page refers to;
//! - `.br` and `.gz` variants of compressible objects (brotli and flate2: the maintained
//!   pure-Rust brotli port used by the Rust HTTP stack, and the standard DEFLATE crate); a
//!   page or asset the live deploy already has is taken from its manifest instead, neither
//!   compressed nor written again (`publish/reuse.rs`), so a republish pays only for what
//!   changed (and a page whose exact render job was seen before is not rendered again:
//!   `publish/renders.rs`);
//! - the manifest (`vitrine_shared::manifest::Manifest`), written last, with the upload keys of
//!   other projects that the pages and the project's records still name by their `/files/…`
//!   address (a template's images, a duplicated project's files): a site's host serves only
//!   those and its own project's uploads.
//!
//! Only then does [`Store::finish_deploy`](vitrine_shared::Store::finish_deploy) point the
//! project at the deploy and append to the change feed. Any failure marks the deploy failed
//! and leaves the live site as it was. Pages with database-fed lists and collection pages are
//! not rendered here: their blocks and document parts go into the manifest and the edge renders
//! them from live records, so record edits need no re-publish.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use bytes::Bytes;
use serde_json::Value;
use sha2::{Digest, Sha256};
use vitrine_shared::{
    Settings,
    blob::BlobError,
    domain::normalize_page_slug,
    fonts::{FontFace, font_face_css, site_fonts},
    manifest::{
        ASSET_PREFIX, DynamicPage, FormSettings, MANIFEST_VERSION, MAX_MANIFEST_BYTES, Manifest,
        StaticFile, asset_key, manifest_key, page_key, page_path,
    },
    render::{Block, DocumentParts, RenderContext, check_blocks, document},
    sandbox::SandboxError,
    sections::{MenuItem, MenuPage, menu},
    store::{Deploy, Page, Project},
    uploads::UploadKey,
};

use crate::{
    error::{ApiError, ErrorCode, Params},
    state::AppState,
};

mod objects;
mod renders;
mod reuse;

pub use renders::Renders;

/// Hex digits of the SHA-256 that name a content-addressed page or asset (64 bits: collisions
/// within one site are not a concern at this length).
const HASH_LEN: usize = 16;

/// First path segments the edge answers itself (assets, the read API, forms): a page there
/// would never be seen.
const RESERVED_SEGMENTS: &[&str] = &["_assets", "_api", "_forms"];

/// The address where a project's site answers: its verified domain over HTTPS, else the
/// preview address.
pub fn live_url(settings: &Settings, project: &Project) -> String {
    match project
        .verified_domain
        .as_deref()
        .or(project.domain.as_deref())
    {
        Some(domain) if project.verified && !domain.is_empty() => format!("https://{domain}"),
        _ => settings.preview_url(&project.slug),
    }
}

/// One step of a build as it happens, for the publish dialog (the events variant of the
/// publish call streams them): the fonts, each page, the assets, then going live.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// The build holds the project's publish lock and starts; `pages` is how many it renders.
    Started { deploy_id: i64, pages: usize },
    /// The fonts are in place: how many font faces the site serves.
    Fonts { faces: usize },
    /// Page `index` of `total` (from 1) is rendered, or prepared for the edge to render.
    Page {
        index: usize,
        total: usize,
        name: String,
    },
    /// Every asset is written: the deploy's files and bytes.
    Assets { files: i64, bytes: i64 },
    /// The build is complete and the deploy is being made live.
    Live,
}

/// Where a build reports its steps; the build never waits for it.
pub type Progress = std::sync::Arc<dyn Fn(Step) + Send + Sync>;

/// Builds and activates a new deploy of `project_id`. On failure the deploy is recorded as
/// failed with the reason and the previous deploy stays live.
///
/// The work runs in its own task: a caller that goes away (a closed browser tab) does not
/// cancel a build half-way and leave its deploy `building` for ever.
pub async fn publish(
    state: &AppState,
    project_id: i64,
    user_id: i64,
) -> Result<Published, ApiError> {
    publish_with_progress(state, project_id, user_id, None).await
}

/// [`publish`], telling `progress` each [`Step`] as it happens.
pub async fn publish_with_progress(
    state: &AppState,
    project_id: i64,
    user_id: i64,
    progress: Option<Progress>,
) -> Result<Published, ApiError> {
    let state = state.clone();
    tokio::spawn(async move {
        let lock = state.publish_lock(project_id);
        let _guard = lock.lock().await;
        let deploy = state.store.create_deploy(project_id, Some(user_id)).await?;
        let result = match build(&state, project_id, deploy.id, progress.clone()).await {
            Ok(built) => {
                if let Some(p) = &progress {
                    p(Step::Live);
                }
                state
                    .store
                    .finish_deploy(deploy.id, &built.manifest_key, built.files, built.bytes)
                    .await
                    .map(|deploy| Published {
                        deploy,
                        warnings: built.warnings,
                    })
                    .map_err(ApiError::from)
            }
            Err(e) => Err(e),
        };
        match &result {
            Ok(_) => crate::screenshot::after_publish(&state, project_id, deploy.id),
            Err(e) => record_failure(&state, project_id, deploy.id, e).await,
        }
        result
    })
    .await
    .map_err(internal)?
}

/// Marks the deploy failed with a reason the owner can read (internal causes are logged).
async fn record_failure(state: &AppState, project_id: i64, deploy_id: i64, e: &ApiError) {
    let reason = match e {
        ApiError::Internal(cause) => {
            tracing::error!(project_id, deploy_id, error = ?cause, "deploy failed");
            "Internal error while building the site".to_string()
        }
        other => other.to_string(),
    };
    let failed = state
        .store
        .fail_deploy(deploy_id, &reason, e.code(), &e.params())
        .await;
    if let Err(fail) = failed {
        tracing::error!(deploy_id, error = ?fail, "could not record the failed deploy");
    }
}

/// Something the owner should know that did not stop a publish: a stable code (the dashboard
/// translates it and shows it in amber), the English text, and the values the text names.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Warning {
    pub code: ErrorCode,
    pub message: String,
    #[serde(skip_serializing_if = "Params::is_empty")]
    #[schema(value_type = Object)]
    pub params: Params,
}

/// What a finished build wrote.
struct Built {
    manifest_key: String,
    files: i64,
    bytes: i64,
    warnings: Vec<Warning>,
}

/// A deploy that went live, and what the owner should know about it (a web font the provider
/// could not deliver, say: the site is published with the fallback font stack instead).
pub struct Published {
    pub deploy: Deploy,
    pub warnings: Vec<Warning>,
}

fn internal(e: impl Into<anyhow::Error>) -> ApiError {
    ApiError::Internal(e.into())
}

fn blob_err(e: BlobError) -> ApiError {
    internal(anyhow::anyhow!("blob store: {e}"))
}

fn hash_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The content hash that names a body's object and is its `ETag`.
fn content_hash(bytes: &[u8]) -> String {
    hash_hex(bytes)[..HASH_LEN].to_string()
}

fn text_of<'a>(meta: &'a Value, key: &str) -> &'a str {
    meta.get(key).and_then(Value::as_str).unwrap_or("").trim()
}

/// Occurrences of our own upload URLs in `text`: (byte range, blob key). Both `/files/uploads/…`
/// and `{public_url}/files/uploads/…` are found; the same path under another host is not ours.
fn find_uploads(text: &str, public_url: &str) -> Vec<(std::ops::Range<usize>, String)> {
    const NEEDLE: &str = "/files/uploads/";
    let public_url = public_url.trim_end_matches('/');
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = text[from..].find(NEEDLE) {
        let start = from + pos;
        let path_end = text[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/')))
            .map(|i| start + i)
            .unwrap_or(text.len());
        from = path_end.max(start + NEEDLE.len());
        let path = text[start..path_end].trim_end_matches('.');
        let end = start + path.len();
        let mut begin = start;
        if !public_url.is_empty() && text[..start].ends_with(public_url) {
            begin = start - public_url.len();
        } else if text[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '/'))
        {
            continue;
        }
        let key = &path["/files/".len()..];
        if key.len() > "uploads/".len() && !key.contains("//") && !key.contains("..") {
            out.push((begin..end, key.to_string()));
        }
    }
    out
}

/// One build: the objects written so far and the manifest's routes.
struct Build<'a> {
    state: &'a AppState,
    project_id: i64,
    routes: BTreeMap<String, StaticFile>,
    /// The live deploy's objects, taken as they are when a body hashes to one of them.
    previous: reuse::Previous,
    /// Upload key → asset URL (or None when the upload is missing), so each is copied once.
    uploads: HashMap<String, Option<String>>,
    /// Upload keys of other projects (or of none) that pages or records still name by their
    /// `/files/…` address: the manifest lists them, the only ones the site's host serves
    /// besides its own project's.
    foreign_uploads: BTreeSet<String>,
    files: i64,
    bytes: i64,
    /// Things the owner should know that did not stop the build.
    warnings: Vec<Warning>,
    progress: Option<Progress>,
}

impl<'a> Build<'a> {
    /// Tells the caller (the publish dialog) that the build got this far.
    fn step(&self, step: Step) {
        if let Some(p) = &self.progress {
            p(step);
        }
    }

    /// Describes the body `data` stored at its content-addressed `key` (`hash` is
    /// [`content_hash`] of `data`), taking the object from the live deploy when it has it and
    /// otherwise writing it ([`objects::write`]). `immutable` is how the edge lets it be cached.
    async fn put(
        &mut self,
        key: String,
        hash: &str,
        data: Bytes,
        content_type: &str,
        immutable: bool,
    ) -> Result<StaticFile, ApiError> {
        let size = data.len() as u64;
        let (br, gzip) = match self.previous.variants(&key) {
            Some(variants) => variants,
            None => objects::write(&self.state.blobs, &key, data, content_type).await?,
        };
        self.files += 1;
        self.bytes += size as i64;
        Ok(StaticFile {
            key,
            content_type: content_type.to_string(),
            etag: format!("\"{hash}\""),
            size,
            br,
            gzip,
            immutable,
        })
    }

    /// Stores a content-addressed asset and returns its URL on the site.
    async fn asset(&mut self, data: Bytes, ext: &str) -> Result<String, ApiError> {
        let hash = content_hash(&data);
        let name = format!("{hash}.{ext}");
        let path = format!("{ASSET_PREFIX}{name}");
        if !self.routes.contains_key(&path) {
            let content_type = mime_guess::from_ext(ext)
                .first_or_octet_stream()
                .essence_str()
                .to_string();
            let content_type = if content_type.starts_with("text/") {
                format!("{content_type}; charset=utf-8")
            } else {
                content_type
            };
            let file = self
                .put(
                    asset_key(self.project_id, &name),
                    &hash,
                    data,
                    &content_type,
                    true,
                )
                .await?;
            self.routes.insert(path.clone(), file);
        }
        Ok(path)
    }

    /// Copies an upload (`uploads/…`) into the site's assets; None when it no longer exists.
    async fn upload(&mut self, key: &str) -> Result<Option<String>, ApiError> {
        if let Some(done) = self.uploads.get(key) {
            return Ok(done.clone());
        }
        let url = match self.state.blobs.get(key).await {
            Ok(data) => {
                let ext: String = key
                    .rsplit_once('.')
                    .map(|(_, e)| e.to_ascii_lowercase())
                    .filter(|e| {
                        !e.is_empty()
                            && e.len() <= 8
                            && e.chars().all(|c| c.is_ascii_alphanumeric())
                    })
                    .unwrap_or_else(|| "bin".into());
                Some(self.asset(data, &ext).await?)
            }
            Err(BlobError::NotFound | BlobError::InvalidKey) => {
                tracing::warn!(
                    project_id = self.project_id,
                    key,
                    "a page refers to a missing upload"
                );
                None
            }
            Err(e) => return Err(blob_err(e)),
        };
        self.uploads.insert(key.to_string(), url.clone());
        Ok(url)
    }

    /// `text` with every reference to one of our uploads pointed at the site's own copy.
    async fn link_uploads(&mut self, text: &str) -> Result<String, ApiError> {
        let found = find_uploads(text, &self.state.settings.public_url);
        if found.is_empty() {
            return Ok(text.to_string());
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (range, key) in found {
            out.push_str(&text[last..range.start]);
            match self.upload(&key).await? {
                Some(url) => out.push_str(&url),
                None => out.push_str(&text[range.clone()]),
            }
            last = range.end;
        }
        out.push_str(&text[last..]);
        Ok(out)
    }

    /// Notes the uploads `text` names that are not this project's own (see `foreign_uploads`).
    fn note_uploads(&mut self, text: &str) {
        for (_, key) in find_uploads(text, &self.state.settings.public_url) {
            let own = UploadKey::parse(&key).and_then(|u| u.project_id) == Some(self.project_id);
            if !own {
                self.foreign_uploads.insert(key);
            }
        }
    }

    /// Notes the uploads the project's records name: collection pages and live lists show
    /// them from the site's host, and records copied from a template or a duplicated project
    /// name that project's files. Read in keyset pages, so memory stays flat.
    async fn note_record_uploads(&mut self, collections: &[i64]) -> Result<(), ApiError> {
        const PAGE: i64 = 1000;
        for &collection in collections {
            let mut after = 0;
            loop {
                let posts = self
                    .state
                    .store
                    .posts_after(collection, after, PAGE)
                    .await?;
                for post in &posts {
                    self.note_uploads(&serde_json::to_string(&post.data.0).map_err(internal)?);
                }
                match posts.last() {
                    Some(last) if posts.len() as i64 == PAGE => after = last.id,
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// One URL setting (favicon, SEO image): an upload becomes an asset, anything else stays.
    async fn link_url(&mut self, url: &str) -> Result<String, ApiError> {
        self.link_uploads(url.trim()).await
    }

    /// A provider font file, from the object-store cache or fetched and cached.
    async fn provider_font(
        &mut self,
        family: &str,
        weight: &str,
        style: &str,
    ) -> Result<Option<Bytes>, ApiError> {
        let file = FontFace::provider_path(family, weight, style);
        let cache_key = format!("fonts/{file}");
        match self.state.blobs.get(&cache_key).await {
            Ok(b) => return Ok(Some(b)),
            Err(BlobError::NotFound) => {}
            Err(e) => return Err(blob_err(e)),
        }
        let url = format!(
            "{}/{file}",
            self.state.settings.fonts_url.trim_end_matches('/')
        );
        // A provider that is down or lacks the font must not keep the site offline: the page
        // falls back to the font stack, and the owner is told in the publish answer.
        let data = match self.state.fetcher.get(&url).await {
            Ok(data) => data,
            Err(e) => {
                let message =
                    format!("The font {family} ({weight} {style}) could not be fetched: {e}");
                tracing::warn!(project_id = self.project_id, "{message}");
                let params = serde_json::json!({
                    "family": family,
                    "weight": weight,
                    "style": style,
                    "detail": e.to_string(),
                });
                self.warnings.push(Warning {
                    code: ErrorCode::FontUnavailable,
                    message,
                    params: params.as_object().cloned().unwrap_or_default(),
                });
                return Ok(None);
            }
        };
        self.state
            .blobs
            .put(&cache_key, data.clone())
            .await
            .map_err(blob_err)?;
        Ok(Some(data))
    }

    /// The fonts stylesheet's URL and the default family, from the project's meta (the faces
    /// are [`site_fonts`]'s, as the editor's canvas loads them), each file copied into the site.
    async fn fonts(&mut self, meta: &Value) -> Result<(Option<String>, Option<String>), ApiError> {
        let wanted = site_fonts(meta);
        let mut faces: Vec<FontFace> = Vec::new();
        for face in wanted.custom {
            let url = self.link_url(&face.url).await?;
            if url.starts_with(ASSET_PREFIX) {
                faces.push(FontFace { url, ..face });
            }
        }
        for face in wanted.provider {
            let Some(data) = self
                .provider_font(&face.family, &face.weight, face.style)
                .await?
            else {
                continue;
            };
            let url = self.asset(data, "woff2").await?;
            faces.push(FontFace { url, ..face });
        }
        self.step(Step::Fonts { faces: faces.len() });
        if faces.is_empty() {
            return Ok((None, wanted.default_family));
        }
        let css = font_face_css(&faces);
        let url = self.asset(Bytes::from(css), "css").await?;
        Ok((Some(url), wanted.default_family))
    }

    /// The page's blocks with upload URLs in their code pointed at the site's copies.
    async fn link_blocks(&mut self, blocks: Vec<Block>) -> Result<Vec<Block>, ApiError> {
        let mut out = Vec::with_capacity(blocks.len());
        for mut b in blocks {
            b.template = self.link_uploads(&b.template).await?;
            b.css = self.link_uploads(&b.css).await?;
            b.js = self.link_uploads(&b.js).await?;
            // API-fed lists are fetched now, once, and published with the page (the edge
            // never fetches on a visitor's behalf); a failed fetch fails the publish.
            for var in &mut b.vars {
                let Some(url) = var
                    .get("source")
                    .and_then(serde_json::Value::as_str)
                    .and_then(|s| s.strip_prefix("api:"))
                    .map(|u| u.trim().to_string())
                    .filter(|u| !u.is_empty())
                else {
                    continue;
                };
                let records = crate::routes::blocks::fetch_records(self.state, &url)
                    .await
                    .map_err(|e| {
                        let block = if b.name.is_empty() { &b.uid } else { &b.name };
                        ApiError::bad_request(
                            ErrorCode::ExternalListUnreadable,
                            format!(
                                "Block \u{201c}{block}\u{201d}: the list from {url} could not be read: {e}"
                            ),
                        )
                        .param("block", block.clone())
                        .param("url", url.to_string())
                        .param("detail", e.to_string())
                    })?;
                if let Some(obj) = var.as_object_mut() {
                    obj.insert("records".into(), serde_json::Value::Array(records));
                }
            }
            out.push(b);
        }
        Ok(out)
    }

    /// The page's block CSS and JS, each bundled into one asset.
    async fn bundles(
        &mut self,
        blocks: &[Block],
    ) -> Result<(Option<String>, Option<String>), ApiError> {
        let join = |parts: Vec<&str>, sep: &str| -> Option<String> {
            let parts: Vec<&str> = parts.into_iter().filter(|p| !p.trim().is_empty()).collect();
            (!parts.is_empty()).then(|| parts.join(sep))
        };
        let css = join(blocks.iter().map(|b| b.css.as_str()).collect(), "\n");
        let js = join(blocks.iter().map(|b| b.js.as_str()).collect(), "\n;\n");
        let css = match css {
            Some(c) => Some(self.asset(Bytes::from(c), "css").await?),
            None => None,
        };
        let js = match js {
            Some(j) => Some(self.asset(Bytes::from(j), "js").await?),
            None => None,
        };
        Ok((css, js))
    }

    /// Stores a rendered page document and routes its path to it.
    async fn page_document(&mut self, slug: &str, html: String) -> Result<(), ApiError> {
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
    fonts_css: Option<String>,
    font_family: Option<String>,
    header: String,
    footer: String,
    pixel_id: Option<String>,
    description: String,
}

fn template_error(page: &Page, e: vitrine_shared::render::RenderError) -> ApiError {
    if let Some(reason) = e.exceeded {
        // Over a budget: its own code, naming the page and the block.
        return ApiError::invalid(
            "blocks",
            ErrorCode::RenderBudget,
            format!(
                "On page \"{}\": Block \"{}\" went over a render budget: {}",
                page.name,
                e.block,
                reason.message()
            ),
        )
        .param("page", page.name.clone())
        .param("block", e.block.clone())
        .param("reason", reason.message());
    }
    ApiError::invalid(
        "blocks",
        ErrorCode::TemplateError,
        format!(
            "Template error on page \"{}\" in block \"{}\": {}",
            page.name, e.block, e.message
        ),
    )
    .param("page", page.name.clone())
    .param("block", e.block.clone())
    .param("detail", e.message.clone())
}

async fn build(
    state: &AppState,
    project_id: i64,
    deploy_id: i64,
    progress: Option<Progress>,
) -> Result<Built, ApiError> {
    let store = &state.store;
    let project = store.project_by_id(project_id).await?;
    let owner = store.user_by_id(project.user_id).await?;
    let pages = store.pages_of_project(project_id).await?;
    let collections = store.project_collections(project_id).await?;
    let redirects = store.project_redirects(project_id).await?;
    let sections = store.global_sections(project_id).await?;
    // Each page as visitors see it: the shared header, its own blocks, the shared footer.
    let page_blocks = |page: &Page| sections.page_blocks(&page.blocks.0, &page.meta.0);
    let menu = site_menu(&pages);
    let meta = &project.meta.0;
    let live = live_url(&state.settings, &project);
    // Every template must compile, and every page have an address of its own, before
    // anything is written.
    for page in &pages {
        let slug = normalize_page_slug(&page.slug);
        if RESERVED_SEGMENTS.contains(&slug.split('/').next().unwrap_or("")) {
            return Err(ApiError::invalid(
                "slug",
                ErrorCode::ReservedPagePath,
                format!(
                    "The page \"{}\" uses the reserved address /{slug}; choose another slug",
                    page.name
                ),
            )
            .param("page", page.name.clone())
            .param("path", format!("/{slug}")));
        }
        check_blocks(&page_blocks(page)).map_err(|e| template_error(page, e))?;
    }

    let mut b = Build {
        state,
        project_id,
        routes: BTreeMap::new(),
        previous: reuse::Previous::load(state, &project).await,
        uploads: HashMap::new(),
        foreign_uploads: BTreeSet::new(),
        files: 0,
        bytes: 0,
        warnings: Vec::new(),
        progress,
    };
    b.step(Step::Started {
        deploy_id,
        pages: pages.len(),
    });

    let (fonts_css, font_family) = b.fonts(meta).await?;
    let favicon = b.link_url(text_of(meta, "favicon")).await?;
    let pixel_id = Some(text_of(meta, "conversionApiPixelId").to_string())
        .filter(|p| !p.is_empty() && meta.get("conversionApiEnabled") != Some(&Value::Bool(false)));
    let site = SiteParts {
        lang: if owner.language.is_empty() {
            "pt-BR".into()
        } else {
            owner.language.clone()
        },
        favicon,
        fonts_css,
        font_family,
        header: b.link_uploads(text_of(meta, "header")).await?,
        footer: b.link_uploads(text_of(meta, "footer")).await?,
        pixel_id,
        description: text_of(meta, "description").to_string(),
    };
    let table_slug: HashMap<i64, &str> = collections
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
        let image = if image.starts_with('/') {
            format!("{}{image}", live.trim_end_matches('/'))
        } else {
            image
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
            title: if slug == "/" {
                project.name.clone()
            } else {
                format!("{} | {}", page.name, project.name)
            },
            description: Some(page.description.trim())
                .filter(|d| !d.is_empty())
                .unwrap_or(&site.description)
                .to_string(),
            image,
            favicon: site.favicon.clone(),
            stylesheets: site.fonts_css.iter().chain(css.iter()).cloned().collect(),
            scripts: js.into_iter().collect(),
            font_family: site.font_family.clone(),
            head_code: [site.header.as_str(), page_head.as_str()]
                .into_iter()
                .filter(|c| !c.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
            footer_code: site.footer.clone(),
            pixel_id: site.pixel_id.clone(),
            effects: blocks.iter().any(Block::has_effect),
        };
        // The blocks as saved, not as rendered: a variable's URL comes out of the template
        // engine HTML-escaped (`&#x2f;files&#x2f;…`), which the browser reads back as a path.
        b.note_uploads(&serde_json::to_string(&(&blocks, &parts)).map_err(internal)?);
        if let Some(table_id) = page.table_id {
            let title_suffix = format!(" | {}", project.name);
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
                    site_name: project.name.clone(),
                    site_slug: project.slug.clone(),
                    page_name: page.name.clone(),
                    page_slug: slug.clone(),
                    lang: site.lang.clone(),
                    pages: Some(page_paths.clone()),
                    menu: Some(menu.clone()),
                    ..RenderContext::default()
                };
                state
                    .renders
                    .page(&state.sandbox, &blocks, &ctx)
                    .await
                    .map_err(|e| match e {
                        SandboxError::Render(e) => template_error(page, e),
                        other => ApiError::render("blocks", other),
                    })?
            };
            let html = document(&parts, &body);
            b.note_uploads(&html);
            b.page_document(&slug, html).await?;
        }
        b.step(Step::Page {
            index: index + 1,
            total: pages.len(),
            name: page.name.clone(),
        });
    }
    let collection_ids: Vec<i64> = collections.iter().map(|c| c.id).collect();
    b.note_record_uploads(&collection_ids).await?;
    b.step(Step::Assets {
        files: b.files,
        bytes: b.bytes,
    });

    let has_route = |b: &Build, path: &str| b.routes.contains_key(path);
    let manifest = Manifest {
        version: MANIFEST_VERSION,
        project_id,
        deploy_id,
        created_at: chrono::Utc::now(),
        site_name: project.name.clone(),
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
            ..form_settings(meta, &owner.email, &project.name, &owner.language)
        },
        uploads: std::mem::take(&mut b.foreign_uploads),
        menu,
    };
    let key = manifest_key(project_id, deploy_id);
    let json = serde_json::to_vec(&manifest).map_err(internal)?;
    if json.len() > MAX_MANIFEST_BYTES {
        return Err(too_large(json.len()));
    }
    state
        .blobs
        .put(&key, Bytes::from(json))
        .await
        .map_err(blob_err)?;
    Ok(Built {
        manifest_key: key,
        files: b.files,
        bytes: b.bytes,
        warnings: b.warnings,
    })
}

/// The refusal of a site whose manifest is `size` bytes, over [`MAX_MANIFEST_BYTES`].
fn too_large(size: usize) -> ApiError {
    let (size_kb, max_kb) = (size.div_ceil(1024), MAX_MANIFEST_BYTES / 1024);
    ApiError::invalid(
        "site",
        ErrorCode::SiteTooLarge,
        format!(
            "The published site is too large: its index of pages, redirects and templates \
             takes {size_kb} KB, and at most {max_kb} KB are allowed"
        ),
    )
    .param("size_kb", size_kb)
    .param("max_kb", max_kb)
}

/// The site menu (`site.menu`) of these pages.
pub fn site_menu(pages: &[Page]) -> Vec<MenuItem> {
    menu(pages.iter().map(|p| MenuPage {
        name: &p.name,
        slug: &p.slug,
        is_collection: p.table_id.is_some(),
        meta: &p.meta.0,
    }))
}

/// Where form notifications go: `meta.formEmail` when set, else the owner; a default subject.
pub fn form_settings(
    meta: &Value,
    owner_email: &str,
    site_name: &str,
    language: &str,
) -> FormSettings {
    let to = Some(text_of(meta, "formEmail"))
        .filter(|e| !e.is_empty())
        .unwrap_or(owner_email)
        .to_string();
    let subject = if language == "en" {
        format!("New form submission on {site_name}")
    } else {
        format!("Novo envio de formulário em {site_name}")
    };
    FormSettings {
        to,
        subject,
        lead_event: crate::conversions::credentials(meta).is_some(),
        ..FormSettings::default()
    }
}

/// The path of the thank-you page the owner picked (`meta.formThankYouPage`, a page id),
/// when it is still a static page of this project; `None` otherwise (the form's own page
/// then shows the confirmation). The settings call checked it when it was saved; a page
/// deleted since is simply not followed.
pub fn thank_you_path(meta: &Value, pages: &[Page]) -> Option<String> {
    let id = meta.get("formThankYouPage").and_then(Value::as_i64)?;
    let page = pages.iter().find(|p| p.id == id && p.table_id.is_none())?;
    Some(match normalize_page_slug(&page.slug).as_str() {
        "/" => "/".to_string(),
        slug => format!("/{slug}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_own_upload_urls_are_found() {
        let text = r#"<img src="/files/uploads/1/2/ab/x.png"> url(http://localhost:8000/files/uploads/1/2/cd/y.jpg) https://cdn.example/files/uploads/1/z.png /files/uploads/../etc"#;
        let found = find_uploads(text, "http://localhost:8000");
        let keys: Vec<&str> = found.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(keys, ["uploads/1/2/ab/x.png", "uploads/1/2/cd/y.jpg"]);
        assert_eq!(
            &text[found[1].0.clone()],
            "http://localhost:8000/files/uploads/1/2/cd/y.jpg"
        );
    }

    #[test]
    fn the_live_address_is_the_verified_domain_else_the_preview() {
        let settings = Settings {
            preview_url_template: Some("https://{slug}.vitrine.test".into()),
            ..Settings::default()
        };
        let now = chrono::Utc::now();
        let mut project = Project {
            id: 1,
            user_id: 1,
            name: "Loja".into(),
            slug: "loja".into(),
            domain: Some("loja.example.com".into()),
            token: String::new(),
            uuid: String::new(),
            is_published: true,
            thumbnail: None,
            thumbnail_timestamp: None,
            meta: vitrine_shared::store::Json(Value::Null),
            verified: false,
            verified_domain: None,
            verified_at: None,
            created_at: now,
            updated_at: now,
            active_deploy_id: None,
        };
        assert_eq!(live_url(&settings, &project), "https://loja.vitrine.test");
        project.verified = true;
        project.verified_domain = Some("loja.example.com".into());
        assert_eq!(live_url(&settings, &project), "https://loja.example.com");
    }

    #[test]
    fn the_thank_you_page_is_the_path_of_a_static_page_still_there() {
        let now = chrono::Utc::now();
        let page = |id: i64, slug: &str, table_id: Option<i64>| Page {
            id,
            project_id: 1,
            name: slug.into(),
            slug: slug.into(),
            description: String::new(),
            image: String::new(),
            meta: vitrine_shared::store::Json(Value::Null),
            output: String::new(),
            blocks: vitrine_shared::store::Json(Value::Null),
            table_id,
            created_at: now,
            updated_at: now,
        };
        let pages = [
            page(1, "/", None),
            page(2, "Obrigado/Volte Sempre", None),
            page(3, "produtos", Some(9)),
        ];
        let chosen =
            |id: Value| thank_you_path(&serde_json::json!({"formThankYouPage": id}), &pages);
        assert_eq!(chosen(Value::from(1)).as_deref(), Some("/"));
        assert_eq!(
            chosen(Value::from(2)).as_deref(),
            Some("/obrigado/volte-sempre")
        );
        assert_eq!(
            chosen(Value::from(3)),
            None,
            "a collection page has no path of its own"
        );
        assert_eq!(chosen(Value::from(4)), None, "a page deleted since");
        assert_eq!(chosen(Value::from("https://evil.example")), None);
        assert_eq!(thank_you_path(&Value::Null, &pages), None);
    }

    #[test]
    fn form_notifications_go_to_the_form_email_when_set() {
        let meta = serde_json::json!({"formEmail": "vendas@loja.example"});
        assert_eq!(
            form_settings(&meta, "dono@x.example", "Loja", "pt-BR").to,
            "vendas@loja.example"
        );
        let meta = serde_json::json!({"formEmail": "  "});
        let f = form_settings(&meta, "dono@x.example", "Loja", "en");
        assert_eq!(f.to, "dono@x.example");
        assert_eq!(f.subject, "New form submission on Loja");
        assert!(!f.lead_event);
    }

    #[test]
    fn the_manifest_asks_for_lead_events_but_never_carries_the_token() {
        let meta = serde_json::json!({"conversionApiEnabled": true,
            "conversionApiAccessToken": "EAAB-secret", "conversionApiPixelId": "1234567890"});
        let f = form_settings(&meta, "dono@x.example", "Loja", "pt-BR");
        assert!(f.lead_event);
        assert!(!serde_json::to_string(&f).unwrap().contains("EAAB-secret"));
        let off = serde_json::json!({"conversionApiEnabled": false,
            "conversionApiAccessToken": "EAAB-secret", "conversionApiPixelId": "1234567890"});
        assert!(!form_settings(&off, "dono@x.example", "Loja", "pt-BR").lead_event);
    }
}
