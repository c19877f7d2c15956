//! A deploy's manifest: the contract between publishing (control plane) and serving (edge).
//!
//! Object layout in the blob store:
//! - `deploys/{project}/{deploy}/manifest.json`: this manifest (and the deploy's
//!   `screenshot.png`): the only objects a deploy owns alone;
//! - `sites/{project}/pages/{sha256-prefix}.html` (+ `.br`/`.gz`): rendered HTML documents,
//!   content-addressed, so a republish finds an unchanged page already written and
//!   compressed and its manifest names the same object again (deploys before this layout
//!   wrote them under `deploys/{project}/{deploy}/pages/…`);
//! - `sites/{project}/assets/{sha256-prefix}.{ext}` (+ `.br`/`.gz`): content-addressed assets
//!   (block CSS and JS, fonts, uploaded files), shared by every deploy of the project, so a
//!   visitor holding an old page still finds its assets after the next deploy.
//!
//! A manifest is immutable: the edge caches it by deploy id and never invalidates it.
//!
//! Invariant: objects under `sites/{project}/` are shared by every deploy that names them and
//! are never deleted while the project exists (a deploy's retention may delete
//! `deploys/{project}/{deploy}/`, never `sites/…`). Publishing relies on it: it reuses an
//! object, and the variants the live manifest lists for it, without writing them again.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::ids::{CollectionId, DeployId, ProjectId};
use crate::render::{Block, DocumentParts};

pub const MANIFEST_VERSION: u32 = 1;

/// The largest manifest a publish writes and an edge reads (its JSON): room for some 8,000
/// pages or tens of thousands of redirect rules. Every edge holds the manifests of the sites it
/// serves in one cache shared by all tenants (`EDGE_MANIFEST_CACHE_BYTES`, several times this),
/// so one site cannot take that cache from the others, nor make an edge read and parse a huge
/// file on every request.
pub const MAX_MANIFEST_BYTES: usize = 2 * 1024 * 1024;

/// URL prefix of content-addressed assets on a published site.
pub const ASSET_PREFIX: &str = "/_assets/";

pub fn manifest_key(project_id: ProjectId, deploy_id: DeployId) -> String {
    format!("deploys/{project_id}/{deploy_id}/manifest.json")
}

pub fn deploy_prefix(project_id: ProjectId, deploy_id: DeployId) -> String {
    format!("deploys/{project_id}/{deploy_id}/")
}

/// Object key of a content-addressed asset (`name` is `{hash}.{ext}`).
pub fn asset_key(project_id: ProjectId, name: &str) -> String {
    format!("sites/{project_id}/assets/{name}")
}

/// Object key of a rendered page document (`name` is `{hash}.html`): content-addressed like
/// an asset, but served as a page (revalidated, never a user file).
pub fn page_key(project_id: ProjectId, name: &str) -> String {
    format!("sites/{project_id}/pages/{name}")
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub project_id: ProjectId,
    pub deploy_id: DeployId,
    pub created_at: DateTime<Utc>,
    pub site_name: String,
    /// Static responses by request path (`/`, `/sobre`, `/_assets/…`).
    pub routes: BTreeMap<String, StaticFile>,
    /// Redirect rules (origin, destination) as saved; the edge compiles them once per deploy.
    pub redirects: Vec<(String, String)>,
    /// Pages rendered at the edge from live records, by page slug without slashes (`/` for
    /// the home page): pages with database-fed lists.
    pub dynamic_pages: BTreeMap<String, DynamicPage>,
    /// Collection pages by page slug: `/{slug}/{post-slug}` renders `post` from `table`.
    pub collection_pages: BTreeMap<String, DynamicPage>,
    /// Collections the read API (`/_api/collections/{slug}`) exposes, slug → id.
    pub collections: BTreeMap<String, CollectionId>,
    /// The site's own 404 and 500 documents (request paths in `routes`), when it has them.
    pub not_found: Option<String>,
    pub error_page: Option<String>,
    pub forms: FormSettings,
    /// Upload keys (`uploads/…`) of other projects, or of none, that the deploy's pages or
    /// the project's records named when it was published: a site serves `/files/{key}` only
    /// for these and for its own project's uploads (see `crate::uploads`).
    #[serde(default)]
    pub uploads: BTreeSet<String>,
    /// The site menu (`crate::sections::menu`) when it was published: pages the edge renders
    /// show it to templates as `site.menu`, as the static pages were.
    #[serde(default)]
    pub menu: Vec<crate::sections::MenuItem>,
    /// The site's identity when it was published (`crate::identity`): pages the edge renders
    /// read it as `site.identity`, as the static pages did. `site_name` is its name.
    #[serde(default)]
    pub identity: Option<crate::identity::Identity>,
    /// The site's theme when it was published: `site.theme` of the pages the edge renders
    /// (their documents carry its custom properties in [`DynamicPage::document`]).
    #[serde(default)]
    pub theme: Option<crate::theme::Theme>,
    /// The site's address when it was published (`crate::seo`): its verified domain over
    /// HTTPS, else its preview address. Static pages' canonical URLs name it.
    #[serde(default)]
    pub base_url: String,
    /// The owner's `robots.txt` (`meta.robots`), when they wrote one (`crate::seo::robots`).
    #[serde(default)]
    pub robots: Option<String>,
    /// The 404 document publishing made with the site's header, footer and theme, served with
    /// status 404 when the site has no page of its own at `/404` ([`Manifest::not_found`]).
    #[serde(default)]
    pub not_found_file: Option<StaticFile>,
}

/// One stored response body with its precompressed variants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticFile {
    pub key: String,
    pub content_type: String,
    /// Strong validator: a quoted content hash.
    pub etag: String,
    pub size: u64,
    #[serde(default)]
    pub br: Option<String>,
    #[serde(default)]
    pub gzip: Option<String>,
    /// Content-addressed (cache forever) rather than HTML (revalidate).
    pub immutable: bool,
}

/// A page's path as [`crate::render::working_link`] reads it: `/` for the home page,
/// `/{slug}` for a page, `/{slug}/*` for a collection page (its posts live under it).
pub fn page_path(slug: &str, collection: bool) -> String {
    let slug = slug.trim_matches('/');
    match (slug.is_empty(), collection) {
        (true, _) => "/".into(),
        (false, false) => format!("/{slug}"),
        (false, true) => format!("/{slug}/*"),
    }
}

impl Manifest {
    /// The site's page paths (see [`page_path`]): the static pages among the routes (assets
    /// live under `/_`), the pages the edge renders and the collection pages.
    pub fn page_paths(&self) -> Vec<String> {
        let statics = self
            .routes
            .keys()
            .filter(|p| !p.starts_with("/_") && p.as_str() != FAVICON_PATH)
            .cloned();
        let dynamic = self.dynamic_pages.keys().map(|s| page_path(s, false));
        let collections = self.collection_pages.keys().map(|s| page_path(s, true));
        statics.chain(dynamic).chain(collections).collect()
    }

    /// The paths a sitemap lists besides collection items: the pages, without the collection
    /// pages' patterns, the favicon and the site's own 404 and 500 pages.
    pub fn sitemap_paths(&self) -> Vec<String> {
        let hidden = [self.not_found.as_deref(), self.error_page.as_deref()];
        self.page_paths()
            .into_iter()
            .filter(|p| !p.ends_with("/*") && !hidden.contains(&Some(p.as_str())))
            .collect()
    }
}

/// Where browsers ask for a site's icon by themselves: publishing always routes it.
pub const FAVICON_PATH: &str = "/favicon.ico";

/// A page the edge renders: its blocks and the document parts resolved at publish time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DynamicPage {
    pub page_name: String,
    pub page_slug: String,
    /// Collection id and slug (collection pages only).
    #[serde(default)]
    pub table_id: Option<CollectionId>,
    #[serde(default)]
    pub table: Option<String>,
    pub blocks: Vec<Block>,
    /// On collection pages the title is the post's name followed by `title_suffix`.
    pub document: DocumentParts,
    #[serde(default)]
    pub title_suffix: String,
}

/// Where the published forms' notifications go: decided by the owner, never by a visitor.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormSettings {
    /// Recipient address (the owner's e-mail unless the project sets `meta.formEmail`).
    pub to: String,
    /// Default subject when the form sends none.
    pub subject: String,
    /// The site's language (`pt-BR`, `en`): the confirmation a visitor sees after sending.
    #[serde(default)]
    pub lang: String,
    /// The thank-you page the owner picked (`meta.formThankYouPage`), as a path on the site
    /// (`/obrigado`); without one the visitor goes back to the form's page, which then shows
    /// the confirmation. The edge follows it only when [`site_path`] accepts it.
    #[serde(default)]
    pub thank_you: Option<String>,
    /// Each submission also queues a server-side `Lead` for the Facebook Conversion API: the
    /// owner turned it on with an access token and pixel id. The token itself is never in a
    /// manifest; the control plane adds it when it sends.
    #[serde(default)]
    pub lead_event: bool,
}

/// `path` when it is a path on the same site (`/…`), never an absolute or scheme-relative URL
/// (`https://…`, `//host`, `/\host`, which browsers read as another host), nor anything with
/// a control character: the only targets a form's 303 may name, so no open redirect.
pub fn site_path(path: &str) -> Option<&str> {
    let ok = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control)
        && path.len() <= 2048;
    ok.then_some(path)
}
