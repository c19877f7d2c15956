//! Objects a site serves besides its deploy's routes: earlier deploys' content-addressed
//! assets and the owner's uploads, each cached as immutable under its digest.

use hyper::StatusCode;
use vitrine_shared::{
    manifest::{StaticFile, asset_key},
    uploads::UploadKey,
};

use super::Visits;
use crate::{
    request::Visit,
    serve::{self, Prepared, Resp},
};

impl Visits {
    /// An earlier deploy's content-addressed asset, not in this deploy's manifest, which stays
    /// reachable (`docs/design.md#a-visit`). The name is `{hash}.{ext}`: the hash is its tag.
    pub(super) async fn old_asset(&self, v: &Visit<'_>, name: &str) -> Resp {
        let valid = !name.is_empty()
            && name.len() <= 200
            && !name.starts_with('.')
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
        if !valid {
            return self.site_not_found(v).await;
        }
        let hash = name.split('.').next().unwrap_or(name);
        let key = asset_key(v.site.project_id, name);
        self.immutable_object(v, &key, hash).await
    }

    /// Serves an object whose key holds its content digest (`tag`), so it never changes: cached
    /// for a year as immutable; a missing one is the site's 404.
    async fn immutable_object(&self, v: &Visit<'_>, key: &str, tag: &str) -> Resp {
        let file = StaticFile {
            key: key.to_string(),
            content_type: mime_guess::from_path(key)
                .first_or_octet_stream()
                .essence_str()
                .to_string(),
            etag: format!("\"{tag}\""),
            size: 0,
            br: None,
            gzip: None,
            immutable: true,
        };
        let file = Prepared::new(file);
        match serve::static_file(&self.sites, v.method, v.headers, &file, StatusCode::OK).await {
            Ok(r) => r,
            Err(_) => self.site_not_found(v).await,
        }
    }

    /// A file uploaded through the dashboard (`/files/uploads/…`), as record values and block
    /// variables name it: collection pages render live records, so their files are not copied
    /// into the deploy. Served on a site's host only when it is the site's: the key's folder
    /// names the site's project, or the live deploy lists the key (a template's or a duplicated
    /// project's file that its pages or records name); any other key, another tenant's
    /// included, is the site's 404. Neither check awaits anything: the key says its project
    /// (`vitrine_shared::uploads`) and the deploy is in memory. Keys hold a content digest, so
    /// files are cached as immutable with the digest as their tag.
    pub(super) async fn upload(&self, v: &Visit<'_>, key: &str) -> Resp {
        let ours = UploadKey::parse(key).filter(|upload| {
            upload.project_id == Some(v.site.project_id) || v.deploy.manifest.uploads.contains(key)
        });
        let Some(upload) = ours else {
            return self.site_not_found(v).await;
        };
        self.immutable_object(v, key, &upload.tag).await
    }
}
