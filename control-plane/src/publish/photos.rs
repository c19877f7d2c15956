//! A build's photos (issue 44): every `<img>` of a published page whose picture is an upload
//! made into a photo (`crate::photos`) becomes a `<picture>` of its variants, each copied into
//! the site's assets like any upload (`vitrine_shared::photos::markup` says what the markup
//! carries). Found by the `src` the browser reads: the site's copy (`/_assets/…`, after the
//! template's own URLs were pointed there) or the upload's address (`/files/uploads/…`, as a
//! block variable or a record leaves it).

use std::collections::HashMap;

use vitrine_shared::photos::markup::{self, Shown};

use vitrine_shared::uploads::find_uploads;

use super::build::Build;
use crate::error::PublishError;

impl Build<'_> {
    /// `html` (a whole page) with its photos as `<picture>`s.
    pub(super) async fn link_photos(&mut self, html: String) -> Result<String, PublishError> {
        let mut found: HashMap<String, Option<Shown>> = HashMap::new();
        for src in markup::sources(&html) {
            if found.contains_key(&src) {
                continue;
            }
            let shown = match self.upload_named(&src) {
                Some(key) => self.shown(&key).await?,
                None => None,
            };
            found.insert(src, shown);
        }
        if found.values().all(Option::is_none) {
            return Ok(html);
        }
        Ok(markup::pictures(&html, |src| {
            found.get(src).cloned().flatten()
        }))
    }

    /// Lists the variants of the other projects' files the site names (a template's photos its
    /// records show) beside them in the manifest: the edge serves a file of another project
    /// only when the deploy lists it, and its live pages show those photos as `<picture>`s.
    pub(super) async fn note_photo_variants(&mut self) -> Result<(), PublishError> {
        let keys: Vec<String> = self.foreign_uploads.iter().cloned().collect();
        for photo in self.core.store.photos_of(&keys).await?.into_values() {
            self.foreign_uploads
                .extend(photo.variants.into_iter().map(|v| v.key));
        }
        Ok(())
    }

    /// The upload an image's `src` names: the one copied to that asset, or the one at that
    /// address.
    fn upload_named(&self, src: &str) -> Option<String> {
        if src.starts_with("/_assets/") {
            return self
                .uploads
                .iter()
                .find(|(_, url)| url.as_deref() == Some(src))
                .map(|(key, _)| key.clone());
        }
        let found = find_uploads(src, &self.core.settings.public_url);
        match found.as_slice() {
            [(range, key)] if range.start == 0 && range.end == src.len() => Some(key.clone()),
            _ => None,
        }
    }

    /// The photo of the upload `key` with its variants copied into the site, once per build.
    async fn shown(&mut self, key: &str) -> Result<Option<Shown>, PublishError> {
        if let Some(done) = self.photos.get(key) {
            return Ok(done.clone());
        }
        let shown = match self.core.store.photo(key).await? {
            Some(photo) => {
                let mut urls = HashMap::new();
                for v in &photo.variants {
                    if let Some(url) = self.upload(&v.key).await? {
                        urls.insert(v.key.clone(), url);
                    }
                }
                Some(Shown { photo, urls })
            }
            None => None,
        };
        self.photos.insert(key.to_string(), shown.clone());
        Ok(shown)
    }
}
