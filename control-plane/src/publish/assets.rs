//! A build's assets: bodies stored content-addressed under `sites/{project}/assets/` (served at
//! `/_assets/…`), uploads a page names copied into the site, the pages' block CSS and JS
//! bundles, and the upload keys of other projects the site still names (the manifest lists
//! them). Each body is taken from the live deploy when it has it, else written with its
//! compressed variants (`objects`).

use bytes::Bytes;
use vitrine_shared::ids::{CollectionId, PostId};
use vitrine_shared::{
    blob::BlobError,
    manifest::{ASSET_PREFIX, StaticFile, asset_key},
    render::Block,
    uploads::{UploadKey, find_uploads},
};

use super::{
    build::Build,
    objects::{self, content_hash},
};
use crate::error::PublishError;

impl Build<'_> {
    /// otherwise writing it ([`objects::write`]). `immutable` is how the edge lets it be cached.
    pub(super) async fn put(
        &mut self,
        key: String,
        hash: &str,
        data: Bytes,
        content_type: &str,
        immutable: bool,
    ) -> Result<StaticFile, PublishError> {
        let size = data.len() as u64;
        let (br, gzip) = match self.previous.variants(&key) {
            Some(variants) => variants,
            None => objects::write(&self.core.blobs, &key, data, content_type).await?,
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
    pub(super) async fn asset(&mut self, data: Bytes, ext: &str) -> Result<String, PublishError> {
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
    pub(super) async fn upload(&mut self, key: &str) -> Result<Option<String>, PublishError> {
        if let Some(done) = self.uploads.get(key) {
            return Ok(done.clone());
        }
        let url = match self.core.blobs.get(key).await {
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
                    project_id = self.project_id.get(),
                    key,
                    "a page refers to a missing upload"
                );
                None
            }
            Err(e) => return Err(e.into()),
        };
        self.uploads.insert(key.to_string(), url.clone());
        Ok(url)
    }

    /// `text` with every reference to one of our uploads pointed at the site's own copy.
    pub(super) async fn link_uploads(&mut self, text: &str) -> Result<String, PublishError> {
        let found = find_uploads(text, &self.core.settings.public_url);
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
    pub(super) fn note_uploads(&mut self, text: &str) {
        for (_, key) in find_uploads(text, &self.core.settings.public_url) {
            let own = UploadKey::parse(&key).and_then(|u| u.project_id) == Some(self.project_id);
            if !own {
                self.foreign_uploads.insert(key);
            }
        }
    }

    /// name that project's files. Read in keyset pages, so memory stays flat.
    pub(super) async fn note_record_uploads(
        &mut self,
        collections: &[CollectionId],
    ) -> Result<(), PublishError> {
        const PAGE: i64 = 1000;
        for &collection in collections {
            let mut after = PostId(0);
            loop {
                let posts = self.core.store.posts_after(collection, after, PAGE).await?;
                for post in &posts {
                    self.note_uploads(
                        &serde_json::to_string(&post.data.0)
                            .map_err(|e| PublishError::Internal(e.into()))?,
                    );
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
    pub(super) async fn link_url(&mut self, url: &str) -> Result<String, PublishError> {
        self.link_uploads(url.trim()).await
    }

    /// The page's blocks with upload URLs in their code pointed at the site's copies.
    pub(super) async fn link_blocks(
        &mut self,
        blocks: Vec<Block>,
    ) -> Result<Vec<Block>, PublishError> {
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
                let records = crate::external_lists::fetch_records(
                    self.core,
                    self.answers,
                    self.account,
                    &url,
                )
                .await
                .map_err(|e| PublishError::ExternalList {
                    block: if b.name.is_empty() { &b.uid } else { &b.name }.clone(),
                    url: url.clone(),
                    detail: e.to_string(),
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
    pub(super) async fn bundles(
        &mut self,
        blocks: &[Block],
    ) -> Result<(Option<String>, Option<String>), PublishError> {
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
}
