//! Publishing: builds an immutable deploy of a project in the object store and then makes it
//! live in one database transaction (`docs/design.md#publishing`).
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
//!
//! The work is split by concern: `build` (the pages and the manifest), `assets` (content-
//! addressed bodies, uploads, bundles), `fonts`, `objects` (writing a body with its compressed
//! variants), `reuse` (what the live deploy already has) and `renders` (the memo of page
//! renders). Failures are [`PublishError`]s; the deploy records the [`ApiError`] each becomes.
//!
//! [`Publisher`] is the service: it is given the [`Core`], the API-fed lists' answers and what
//! runs after a deploy goes live ([`AfterPublish`]: the site's picture), and owns the memo of
//! renders and the per-project locks, so publishing imports neither the pictures nor any other
//! service above it.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::extract::FromRef;
use serde_json::Value;
use vitrine_shared::ids::{AccountId, DeployId, PageId, ProjectId};
use vitrine_shared::{
    Settings,
    domain::normalize_page_slug,
    language::Language,
    manifest::FormSettings,
    sections::{MenuItem, MenuPage, menu},
    store::{Deploy, Page, Project},
};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Params, PublishError},
    external_lists::Answers,
    projects::meta::credentials,
};

mod assets;
mod build;
mod cards;
mod fonts;
mod objects;
mod photos;
mod renders;
mod reuse;
mod seo;

pub use renders::Renders;

/// What runs after a deploy went live, given the project and the deploy (the site's picture,
/// see [`crate::state`]); it must not wait: the publish answers without waiting for it.
pub type AfterPublish = Arc<dyn Fn(ProjectId, DeployId) + Send + Sync>;

/// The publishing service: given the [`Core`], the API-fed lists' answers and what runs after
/// a publish, it owns the memo of page renders and the per-project locks. Clones share them.
#[derive(Clone)]
pub struct Publisher(Arc<Parts>);

struct Parts {
    core: Core,
    answers: Answers,
    /// The page renders publishing has seen, so a republish starts no worker for them.
    renders: Renders,
    /// One publish at a time per project on this node (see [`Publisher::lock`]).
    locks: Mutex<HashMap<ProjectId, Arc<tokio::sync::Mutex<()>>>>,
    after_publish: AfterPublish,
}

impl Publisher {
    pub fn new(core: Core, answers: Answers, after_publish: AfterPublish) -> Self {
        Publisher(Arc::new(Parts {
            core,
            answers,
            renders: Renders::default(),
            locks: Mutex::new(HashMap::new()),
            after_publish,
        }))
    }

    /// The lock that serialises publishing, unpublishing and rollback of one project on this
    /// node, so a later publish never finishes before an earlier one and the project's state
    /// changes in the order the owner asked. Across nodes each deploy still writes only under
    /// its own prefix and [`vitrine_shared::Store::finish_deploy`] switches atomically.
    pub fn lock(&self, project_id: ProjectId) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.0.locks.lock().expect("publish locks poisoned");
        // Forget locks nobody holds or waits for, so the map stays small.
        locks.retain(|_, l| Arc::strong_count(l) > 1);
        locks.entry(project_id).or_default().clone()
    }
}

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
    Started {
        #[schema(value_type = i64)]
        deploy_id: DeployId,
        pages: usize,
    },
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
pub async fn publish<S>(
    state: &S,
    project_id: ProjectId,
    user_id: AccountId,
) -> Result<Published, ApiError>
where
    Publisher: FromRef<S>,
{
    publish_with_progress(state, project_id, user_id, None).await
}

/// [`publish`], telling `progress` each [`Step`] as it happens.
pub async fn publish_with_progress<S>(
    state: &S,
    project_id: ProjectId,
    user_id: AccountId,
    progress: Option<Progress>,
) -> Result<Published, ApiError>
where
    Publisher: FromRef<S>,
{
    let publisher = Publisher::from_ref(state);
    tokio::spawn(async move {
        let lock = publisher.lock(project_id);
        let _guard = lock.lock().await;
        let parts = &*publisher.0;
        let core = &parts.core;
        let deploy = core.store.create_deploy(project_id, Some(user_id)).await?;
        let result = match build::build(parts, project_id, deploy.id, progress.clone()).await {
            Ok(built) => {
                let cards = built.cards;
                tracing::info!(
                    project_id = project_id.get(),
                    drawn = cards.drawn,
                    wall_ms = cards.wall.as_millis() as u64,
                    cpu_ms = cards.cpu.as_millis() as u64,
                    "share cards drawn"
                );
                if let Some(p) = &progress {
                    p(Step::Live);
                }
                core.store
                    .finish_deploy(deploy.id, &built.manifest_key, built.files, built.bytes)
                    .await
                    .map(|deploy| Published {
                        deploy,
                        warnings: built.warnings,
                    })
                    .map_err(ApiError::from)
            }
            Err(e) => Err(ApiError::from(e)),
        };
        match &result {
            Ok(_) => (parts.after_publish)(project_id, deploy.id),
            Err(e) => record_failure(core, project_id, deploy.id, e).await,
        }
        result
    })
    .await
    .map_err(|e| PublishError::Internal(e.into()))?
}

/// Marks the deploy failed with a reason the owner can read (internal causes are logged).
async fn record_failure(core: &Core, project_id: ProjectId, deploy_id: DeployId, e: &ApiError) {
    let reason = match e {
        ApiError::Internal(cause) => {
            tracing::error!(project_id = project_id.get(), deploy_id = deploy_id.get(), error = ?cause, "deploy failed");
            "Internal error while building the site".to_string()
        }
        other => other.to_string(),
    };
    let failed = core
        .store
        .fail_deploy(deploy_id, &reason, e.code(), &e.params())
        .await;
    if let Err(fail) = failed {
        tracing::error!(deploy_id = deploy_id.get(), error = ?fail, "could not record the failed deploy");
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

/// A deploy that went live, and what the owner should know about it (a web font the provider
/// could not deliver, say: the site is published with the fallback font stack instead).
pub struct Published {
    pub deploy: Deploy,
    pub warnings: Vec<Warning>,
}

fn text_of<'a>(meta: &'a Value, key: &str) -> &'a str {
    meta.get(key).and_then(Value::as_str).unwrap_or("").trim()
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
    language: Language,
) -> FormSettings {
    let to = Some(text_of(meta, "formEmail"))
        .filter(|e| !e.is_empty())
        .unwrap_or(owner_email)
        .to_string();
    let subject = if language.is_english() {
        format!("New form submission on {site_name}")
    } else {
        format!("Novo envio de formulário em {site_name}")
    };
    FormSettings {
        to,
        subject,
        lead_event: credentials(meta).is_some(),
        ..FormSettings::default()
    }
}

/// The path of the thank-you page the owner picked (`meta.formThankYouPage`, a page id),
/// when it is still a static page of this project; `None` otherwise (the form's own page
/// then shows the confirmation). The settings call checked it when it was saved; a page
/// deleted since is simply not followed.
pub fn thank_you_path(meta: &Value, pages: &[Page]) -> Option<String> {
    let id = PageId(meta.get("formThankYouPage").and_then(Value::as_i64)?);
    let page = pages.iter().find(|p| p.id == id && p.table_id.is_none())?;
    Some(match normalize_page_slug(&page.slug).as_str() {
        "/" => "/".to_string(),
        slug => format!("/{slug}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::ids::CollectionId;

    #[test]
    fn the_live_address_is_the_verified_domain_else_the_preview() {
        let settings = Settings {
            preview_url_template: Some("https://{slug}.vitrine.test".into()),
            ..Settings::default()
        };
        let now = chrono::Utc::now();
        let mut project = Project {
            id: ProjectId(1),
            user_id: AccountId(1),
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
        let page = |id: PageId, slug: &str, table_id: Option<CollectionId>| Page {
            id,
            project_id: ProjectId(1),
            name: slug.into(),
            slug: slug.into(),
            description: String::new(),
            image: String::new(),
            meta: vitrine_shared::store::Json(Value::Null),
            output: String::new(),
            blocks: vitrine_shared::store::Json(Value::Null),
            table_id,
            is_home: slug == "/",
            created_at: now,
            updated_at: now,
        };
        let pages = [
            page(PageId(1), "/", None),
            page(PageId(2), "Obrigado/Volte Sempre", None),
            page(PageId(3), "produtos", Some(CollectionId(9))),
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
            form_settings(&meta, "dono@x.example", "Loja", Language::PtBr).to,
            "vendas@loja.example"
        );
        let meta = serde_json::json!({"formEmail": "  "});
        let f = form_settings(&meta, "dono@x.example", "Loja", Language::En);
        assert_eq!(f.to, "dono@x.example");
        assert_eq!(f.subject, "New form submission on Loja");
        assert!(!f.lead_event);
    }

    #[test]
    fn the_manifest_asks_for_lead_events_but_never_carries_the_token() {
        let meta = serde_json::json!({"conversionApiEnabled": true,
            "conversionApiAccessToken": "EAAB-secret", "conversionApiPixelId": "1234567890"});
        let f = form_settings(&meta, "dono@x.example", "Loja", Language::PtBr);
        assert!(f.lead_event);
        assert!(!serde_json::to_string(&f).unwrap().contains("EAAB-secret"));
        let off = serde_json::json!({"conversionApiEnabled": false,
            "conversionApiAccessToken": "EAAB-secret", "conversionApiPixelId": "1234567890"});
        assert!(!form_settings(&off, "dono@x.example", "Loja", Language::PtBr).lead_event);
    }
}
