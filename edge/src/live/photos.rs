//! The photos a page rendered from live records shows (issue 44): every file its records name
//! (`/files/uploads/…` in a value) that the site may serve and that was made into a photo
//! (`vitrine_shared::photos`) is handed to the render worker, which turns the page's `<img>`s
//! of it into `<picture>`s with `srcset`, `sizes`, `width`, `height`, lazy loading below the
//! first and `fetchpriority="high"` on the first (`vitrine_shared::photos::markup`, the same
//! rewriting publishing applies to static pages) before it compresses the page. The variants
//! are served beside their original at `/files/…`, under the same rule (the key's project is
//! the site's, or the deploy lists the key: publishing lists a listed file's variants too).
//!
//! One database query per hundred files, made only when the page is rendered: the answer is
//! cached with the page until the records change.

use vitrine_shared::{
    photos::markup::Shown,
    render::RenderContext,
    sandbox::Photos,
    uploads::{UploadKey, find_uploads},
};

use crate::sites::{DeployView, Site, Sites, Unavailable};

/// The upload keys (and the URL text naming each) in `ctx`'s records that `site` may serve.
fn named(site: &Site, deploy: &DeployView, ctx: &RenderContext) -> Vec<(String, String)> {
    let mut text = serde_json::to_string(&ctx.post).unwrap_or_default();
    text.push_str(&serde_json::to_string(&ctx.lists).unwrap_or_default());
    let mut out: Vec<(String, String)> = find_uploads(&text, "")
        .into_iter()
        .filter(|(_, key)| {
            UploadKey::parse(key).is_some_and(|u| u.project_id == Some(site.project_id))
                || deploy.manifest.uploads.contains(key)
        })
        .map(|(range, key)| (text[range].to_string(), key))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The photos `ctx`'s records name, by the URL they name each with (see the module docs).
pub async fn of(
    sites: &Sites,
    site: &Site,
    deploy: &DeployView,
    ctx: &RenderContext,
) -> Result<Photos, Unavailable> {
    let named = named(site, deploy, ctx);
    if named.is_empty() {
        return Ok(Photos::new());
    }
    let keys: Vec<String> = named.iter().map(|(_, key)| key.clone()).collect();
    let found = sites.db(sites.store.photos_of(&keys)).await?;
    Ok(named
        .into_iter()
        .filter_map(|(url, key)| {
            let photo = found.get(&key)?.clone();
            let urls = photo
                .variants
                .iter()
                .map(|v| (v.key.clone(), format!("/files/{}", v.key)))
                .collect();
            Some((url, Shown { photo, urls }))
        })
        .collect())
}
