//! Thumbnails of the library's blocks and templates, pictured by headless Chromium
//! ([`super::screenshot`]) in the background: after start-up (so a freshly seeded library
//! gets them), whenever an administrator saves a block, and on demand from `/erp/blocks`
//! ("regenerate all thumbnails", with progress).
//!
//! Each picture is cached in the object store under a hash of what it shows
//! (`uploads/thumbnails/block-src-{hash}.png`: the block's template, CSS and JS;
//! `template-src-{hash}.png`: the template's snapshot), so an unchanged block is never pictured
//! twice and a changed one gets a new picture on the next pass. A block or template whose
//! image an administrator set by hand (anything but one of these pictures) keeps it.
//!
//! One pass at a time per process, [`AT_ONCE`] pictures at once; a request for a pass while
//! one runs is remembered and runs right after. Nothing here blocks start-up or a request.
//!
//! An administrator may also picture one block or template at once
//! (`/api/block-screenshot/{id}`, `/api/template-screenshot/{id}`): [`ScreenshotQuery`],
//! [`shoot`] and [`png_response`] are what those two calls share.

use std::sync::{Arc, Mutex};

use axum::{
    extract::FromRef,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};
use vitrine_shared::{account::Account, sandbox::Share};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Result},
    pictures::screenshot,
};

/// Pictures taken at once (each is a Chromium).
pub const AT_ONCE: usize = 2;

/// Where generated thumbnails live; an image under this address is ours to replace.
const PREFIX: &str = "uploads/thumbnails/";

/// How far the current (or last) pass got.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct ThumbnailProgress {
    /// A pass is running.
    pub running: bool,
    /// Blocks and templates looked at so far in this pass.
    pub done: usize,
    /// Blocks and templates in this pass.
    pub total: usize,
    /// How many could not be pictured (Chromium missing or failing, a template error).
    pub failed: usize,
    /// Why the last failure happened, for the administrator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// The state of the passes of one process.
#[derive(Default)]
struct Passes {
    progress: Mutex<ThumbnailProgress>,
    /// Another pass was asked for while one ran (`Some(force)`).
    again: Mutex<Option<bool>>,
}

/// The library's thumbnails: a service given the [`Core`] that owns the state of its passes;
/// clones share it.
#[derive(Clone)]
pub struct Thumbnailer {
    core: Core,
    passes: Arc<Passes>,
}

impl Thumbnailer {
    pub fn new(core: Core) -> Self {
        Thumbnailer {
            core,
            passes: Default::default(),
        }
    }

    pub fn progress(&self) -> ThumbnailProgress {
        self.passes
            .progress
            .lock()
            .expect("thumbnails poisoned")
            .clone()
    }

    fn update(&self, f: impl FnOnce(&mut ThumbnailProgress)) {
        f(&mut self.passes.progress.lock().expect("thumbnails poisoned"));
    }
}

/// A pass that pictures what has no up-to-date picture, when library thumbnails are on.
pub fn refresh<S>(state: &S)
where
    Thumbnailer: FromRef<S>,
{
    let thumbnailer = Thumbnailer::from_ref(state);
    if thumbnailer.core.settings.library_thumbnails {
        start::<Thumbnailer>(&thumbnailer, false);
    }
}

/// Starts a pass (`force`: picture everything again, cache or not); when one is running, it
/// runs again after. Answers the progress as it stands.
pub fn start<S>(state: &S, force: bool) -> ThumbnailProgress
where
    Thumbnailer: FromRef<S>,
{
    let thumbnailer = Thumbnailer::from_ref(state);
    {
        let mut p = thumbnailer
            .passes
            .progress
            .lock()
            .expect("thumbnails poisoned");
        if p.running {
            let mut again = thumbnailer
                .passes
                .again
                .lock()
                .expect("thumbnails poisoned");
            *again = Some(again.unwrap_or(false) || force);
            return p.clone();
        }
        *p = ThumbnailProgress {
            running: true,
            ..ThumbnailProgress::default()
        };
    }
    let progress = thumbnailer.progress();
    tokio::spawn(async move {
        let mut force = force;
        loop {
            if let Err(e) = pass(&thumbnailer, force).await {
                tracing::warn!(error = %e, "thumbnail pass failed");
                thumbnailer.update(|p| p.last_error = Some(e.to_string()));
            }
            // Under the progress lock, as `start` looks: a pass asked for now is not lost.
            let again = {
                let mut p = thumbnailer
                    .passes
                    .progress
                    .lock()
                    .expect("thumbnails poisoned");
                let again = thumbnailer
                    .passes
                    .again
                    .lock()
                    .expect("thumbnails poisoned")
                    .take();
                match again {
                    Some(_) => {
                        *p = ThumbnailProgress {
                            running: true,
                            ..ThumbnailProgress::default()
                        }
                    }
                    None => p.running = false,
                }
                again
            };
            match again {
                Some(f) => force = f,
                None => break,
            }
        }
    });
    progress
}

/// Something to picture: its document, the key of its picture, and how to record it.
enum Item {
    Block(vitrine_shared::store::LibraryBlock),
    Template(vitrine_shared::store::Template),
}

fn source_hash(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex::encode(&h.finalize()[..8])
}

/// Whether `image` may be replaced by a generated picture: empty, or one of ours.
fn replaceable(image: &str) -> bool {
    let image = image.trim();
    image.is_empty() || image.starts_with(&format!("/files/{PREFIX}"))
}

async fn pass(thumbnailer: &Thumbnailer, force: bool) -> anyhow::Result<()> {
    let core = &thumbnailer.core;
    let mut items: Vec<Item> = Vec::new();
    for b in core.store.library_blocks().await? {
        if replaceable(&b.content.image) {
            items.push(Item::Block(b));
        }
    }
    for t in core.store.list_templates(true).await? {
        if replaceable(t.thumbnail.as_deref().unwrap_or("")) {
            items.push(Item::Template(t));
        }
    }
    thumbnailer.update(|p| p.total = items.len());
    futures::stream::iter(items)
        .map(|item| async move {
            let outcome = one(core, item, force).await;
            thumbnailer.update(|p| {
                p.done += 1;
                if let Err(e) = outcome {
                    p.failed += 1;
                    p.last_error = Some(e);
                }
            });
        })
        .buffer_unordered(AT_ONCE)
        .collect::<Vec<()>>()
        .await;
    Ok(())
}

/// Pictures one block or template unless its cached picture is up to date.
async fn one(core: &Core, item: Item, force: bool) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let snapshot = match &item {
        Item::Template(t) => Some(
            core.store
                .template_snapshot(t.id)
                .await
                .map_err(|e| text(&e))?,
        ),
        Item::Block(_) => None,
    };
    let (key, current) = match (&item, &snapshot) {
        (Item::Block(b), _) => {
            let c = &b.content;
            (
                format!(
                    "{PREFIX}block-src-{}.png",
                    source_hash(&[c.template.as_bytes(), c.css.as_bytes(), c.js.as_bytes()])
                ),
                c.image.clone(),
            )
        }
        (Item::Template(t), snapshot) => {
            let json = serde_json::to_vec(snapshot).map_err(|e| text(&e))?;
            (
                format!("{PREFIX}template-src-{}.png", source_hash(&[&json])),
                t.thumbnail.clone().unwrap_or_default(),
            )
        }
    };
    let url = format!("/files/{key}");
    let cached = core.blobs.exists(&key).await.map_err(|e| text(&e))?;
    if !force && cached && current == url {
        return Ok(());
    }
    if force || !cached {
        let (document, size, trim) = match &item {
            Item::Block(b) => (
                crate::rendering::block_document(core, Share::editor(Account::Platform), b)
                    .await
                    .map_err(|e| text(&e))?,
                (1280, 600),
                true,
            ),
            Item::Template(_) => {
                let snapshot = snapshot.as_ref().ok_or("no snapshot")?;
                let doc = crate::rendering::template_document(
                    core,
                    Share::editor(Account::Platform),
                    snapshot,
                    "/",
                )
                .await
                .map_err(|e| text(&e))?;
                (doc, (1280, 1280), false)
            }
        };
        let png = screenshot::take(core, &document, size, trim)
            .await
            .map_err(|e| text(&e))?;
        core.blobs
            .put(&key, bytes::Bytes::from(png))
            .await
            .map_err(|e| text(&e))?;
    }
    match &item {
        Item::Block(b) => core.store.set_block_image(b.id, &url).await,
        Item::Template(t) => core.store.set_template_thumbnail(t.id, &url).await,
    }
    .map_err(|e| text(&e))
}

/// The query of a picture an administrator asks for.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ScreenshotQuery {
    /// `width,height` (blocks: 1280,600; templates: 1280,1280).
    pub size: Option<String>,
    /// `1` crops the picture to the content's height (blocks: on; templates: off).
    pub trim: Option<String>,
}

impl ScreenshotQuery {
    /// The asked size, `default` when none is asked.
    pub fn size(&self, default: (u32, u32)) -> Result<(u32, u32)> {
        screenshot::parse_size(self.size.as_deref(), default)
            .map_err(|e| ApiError::invalid("size", ErrorCode::SizeInvalid, e))
    }

    /// Whether to crop, `default` when the query does not say.
    pub fn trim(&self, default: bool) -> bool {
        match self.trim.as_deref().map(str::trim) {
            None | Some("") => default,
            Some(t) => matches!(t, "1" | "true" | "on"),
        }
    }
}

/// Takes the picture and stores it with the uploads; returns the PNG and the address that
/// names it (`uploads/thumbnails/{name}-{hash}.png`), for the caller to record.
pub async fn shoot(
    core: &Core,
    document: String,
    size: (u32, u32),
    trim: bool,
    name: &str,
) -> Result<(Vec<u8>, String)> {
    let png = screenshot::take(core, &document, size, trim).await?;
    let hash = hex::encode(&Sha256::digest(&png)[..8]);
    let key = format!("{PREFIX}{name}-{hash}.png");
    core.blobs
        .put(&key, bytes::Bytes::from(png.clone()))
        .await?;
    Ok((png, format!("/files/{key}")))
}

/// A picture as the answer: PNG, never cached (the next one may differ).
pub fn png_response(png: Vec<u8>) -> Response {
    let mut r = png.into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_generated_or_missing_images_are_replaced() {
        assert!(replaceable(""));
        assert!(replaceable("/files/uploads/thumbnails/block-src-ab.png"));
        assert!(!replaceable("https://cdn.example/hero.png"));
        assert!(!replaceable("/files/uploads/1/2/mine.png"));
    }

    #[test]
    fn the_source_hash_changes_with_any_part() {
        let a = source_hash(&[b"<p>", b"p{}", b""]);
        assert_eq!(a, source_hash(&[b"<p>", b"p{}", b""]));
        assert_ne!(a, source_hash(&[b"<p>", b"", b"p{}"]));
        assert_ne!(a, source_hash(&[b"<p>!", b"p{}", b""]));
    }
}
