//! The routes' state: the [`Core`] every service stands on, and the services, each owning
//! its own state, composed here and nowhere below. Cloned cheaply into every handler (each
//! part is an `Arc`); a handler that needs one service takes it with axum's `FromRef`
//! (`State<Publisher>`), or the whole state, which reads as the core (`state.store`).

use std::sync::Arc;

use axum::extract::FromRef;
use vitrine_shared::{Settings, Store, blob::BlobStore};

use crate::{
    base::Core,
    confine::{Confiner, Limits},
    external_lists::Answers,
    mail::Mail,
    photos::{Conversions, avif::AvifPass},
    pictures::{Pictures, screenshot, thumbnails::Thumbnailer},
    publish::Publisher,
};

/// Each service is also a sub-state (`State<Publisher>`), by axum's derived `FromRef`.
#[derive(Clone, FromRef)]
pub struct AppState {
    pub core: Core,
    /// The outbox and its worker's wake-up (see [`crate::mail`]).
    pub mail: Mail,
    /// Publishing: its memo of page renders and its per-project locks.
    pub publisher: Publisher,
    /// The background passes that picture the library (see [`crate::pictures::thumbnails`]).
    pub thumbnails: Thumbnailer,
    /// API-fed lists' recent answers (see [`crate::external_lists`]).
    pub external_answers: Answers,
    /// The queue of site pictures, shared fairly between accounts (see [`crate::pictures`]).
    pub pictures: Pictures,
    /// The background conversion of older uploads into photos (see [`crate::photos`]).
    pub photos: Conversions,
    /// The pass that makes uploads' AVIF variants after they answered
    /// (see [`crate::photos::avif`]).
    pub avif: AvifPass,
}

impl std::ops::Deref for AppState {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl AppState {
    /// The state for validated `settings` (`CONTROL_TRUSTED_PROXIES` must parse); finds (and
    /// logs) how Chromium is confined. The publisher is handed the site pictures' hook, so
    /// each publish that goes live queues its picture.
    pub async fn new(settings: Settings, store: Store, blobs: BlobStore) -> anyhow::Result<Self> {
        let confiner = Confiner::detect(Limits {
            memory_bytes: settings.chromium_memory_mb.max(64) * 1024 * 1024,
            cpu_quota_us: 100_000,
            pids: screenshot::PIDS,
            cpu_secs: screenshot::TIMEOUT.as_secs(),
        })
        .await;
        let core = Core::new(settings, store, blobs, confiner)?;
        let external_answers = Answers::default();
        let pictures = Pictures::new(core.clone(), external_answers.clone());
        let after_publish = {
            let pictures = pictures.clone();
            Arc::new(move |project_id, deploy_id| pictures.after_publish(project_id, deploy_id))
        };
        Ok(AppState {
            publisher: Publisher::new(core.clone(), external_answers.clone(), after_publish),
            thumbnails: Thumbnailer::new(core.clone()),
            mail: Mail::new(&core),
            core,
            external_answers,
            pictures,
            photos: Conversions::default(),
            avif: AvifPass::default(),
        })
    }
}
