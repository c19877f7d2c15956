//! Each page's share card at publish (`vitrine_shared::seo::card`, `docs/design.md` § Share
//! cards): drawn in the render sandbox in the publish's lane of the owner's account, kept in
//! the object store under the hash of what it shows (`sites/{project}/og/{hash}.png`) and
//! routed at `/_og/{hash}.png`. A card the store already has (an earlier publish drew the
//! same title with the same theme and logo) is not drawn again, so a re-publish that changes
//! nothing draws nothing. The manifest is written after every card, so a publish whose cards
//! could not be drawn fails whole and the live site keeps its own.

use std::time::Instant;

use bytes::Bytes;
use vitrine_shared::{
    manifest::StaticFile,
    sandbox::Share,
    seo::{
        absolute,
        card::CARD_SEGMENT,
        card_source::{self, CardSite, card_key},
    },
};

use super::build::Build;
use crate::error::PublishError;

/// A page's card, as its document names it.
pub(super) struct PageCard {
    /// The card's absolute URL on the site's canonical address.
    pub(super) url: String,
    pub(super) alt: String,
}

impl Build<'_> {
    /// The card of a page titled `title` on `site`, drawn unless the store has it already.
    pub(super) async fn page_card(
        &mut self,
        site: &CardSite,
        title: &str,
        live: &str,
    ) -> Result<PageCard, PublishError> {
        let inputs = site.page(title);
        let hash = inputs.hash();
        let alt = inputs.alt();
        let path = format!("/{CARD_SEGMENT}/{hash}.png");
        if !self.routes.contains_key(&path) {
            let key = card_key(self.project_id, &hash);
            let core = self.core;
            // A card drawn before keeps its entry as it was (its real size), so a republish
            // that changed nothing lists the same files.
            let size = if let Some(size) = core.blobs.size(&key).await? {
                size
            } else {
                let started = Instant::now();
                let job = card_source::job(&core.store, &core.blobs, inputs)
                    .await
                    .map_err(|e| match e {
                        card_source::SourceError::Store(e) => PublishError::Store(e),
                        card_source::SourceError::Blob(e) => PublishError::Blob(e),
                    })?;
                let card = core
                    .sandbox
                    .card(Share::publish(self.account), job)
                    .await
                    .map_err(PublishError::Sandbox)?;
                self.cards.drawn += 1;
                self.cards.wall += started.elapsed();
                self.cards.cpu += card.cpu;
                let size = card.png.len() as u64;
                core.blobs.put(&key, Bytes::from(card.png)).await?;
                size
            };
            self.files += 1;
            self.bytes += size as i64;
            self.routes.insert(
                path.clone(),
                StaticFile {
                    key,
                    content_type: "image/png".into(),
                    etag: format!("\"{hash}\""),
                    size,
                    br: None,
                    gzip: None,
                    immutable: true,
                },
            );
        }
        Ok(PageCard {
            url: absolute(live, &path),
            alt,
        })
    }
}
