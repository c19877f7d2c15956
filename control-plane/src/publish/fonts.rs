//! A build's fonts: the faces the site uses ([`site_fonts`], as the editor's canvas loads them),
//! provider fonts fetched once and cached in the object store under `fonts/…`, custom fonts
//! from the owner's uploads, each copied into the site's assets with one stylesheet for them
//! (`font-display: optional`) and the provider's small text faces named for preloading
//! ([`SiteFonts`]).
//! A provider that cannot deliver a font does not stop the publish: the owner gets a warning
//! and the page falls back to the font stack.

use bytes::Bytes;
use serde_json::Value;
use vitrine_shared::{
    blob::BlobError,
    fonts::{FontDisplay, FontFace, font_face_css, preloads, site_fonts},
    manifest::ASSET_PREFIX,
};

use super::{Step, Warning, build::Build};
use crate::error::{ErrorCode, PublishError};

/// What a build's pages carry for the site's fonts.
#[derive(Debug, Default)]
pub(super) struct SiteFonts {
    /// The stylesheet of the faces (an asset URL), when there is any face.
    pub css: Option<String>,
    /// The default family, for the font variables.
    pub family: Option<String>,
    /// The faces' files every page preloads.
    pub preloads: Vec<String>,
}

impl Build<'_> {
    /// A provider font file, from the object-store cache or fetched and cached.
    async fn provider_font(
        &mut self,
        family: &str,
        weight: &str,
        style: &str,
    ) -> Result<Option<Bytes>, PublishError> {
        let file = FontFace::provider_path(family, weight, style);
        let cache_key = format!("fonts/{file}");
        match self.core.blobs.get(&cache_key).await {
            Ok(b) => return Ok(Some(b)),
            Err(BlobError::NotFound) => {}
            Err(e) => return Err(e.into()),
        }
        let url = format!(
            "{}/{file}",
            self.core.settings.fonts_url.trim_end_matches('/')
        );
        // A provider that is down or lacks the font must not keep the site offline: the page
        // falls back to the font stack, and the owner is told in the publish answer.
        let data = match self.core.fetcher.get(&url).await {
            Ok(data) => data,
            Err(e) => {
                let message =
                    format!("The font {family} ({weight} {style}) could not be fetched: {e}");
                tracing::warn!(project_id = self.project_id.get(), "{message}");
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
        self.core.blobs.put(&cache_key, data.clone()).await?;
        Ok(Some(data))
    }

    /// are [`site_fonts`]'s, as the editor's canvas loads them), each file copied into the site.
    pub(super) async fn fonts(&mut self, meta: &Value) -> Result<SiteFonts, PublishError> {
        let wanted = site_fonts(meta);
        let mut faces: Vec<FontFace> = Vec::new();
        // The provider's faces with their files' sizes, the ones a page may preload (a custom
        // font's size is not at hand, and an owner's whole font is seldom a small subset).
        let mut sized: Vec<(FontFace, usize)> = Vec::new();
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
            let size = data.len();
            let url = self.asset(data, "woff2").await?;
            let face = FontFace { url, ..face };
            sized.push((face.clone(), size));
            faces.push(face);
        }
        self.step(Step::Fonts { faces: faces.len() });
        if faces.is_empty() {
            return Ok(SiteFonts {
                family: wanted.default_family,
                ..SiteFonts::default()
            });
        }
        let css = font_face_css(&faces, FontDisplay::Optional);
        let url = self.asset(Bytes::from(css), "css").await?;
        Ok(SiteFonts {
            css: Some(url),
            preloads: preloads(&sized, wanted.default_family.as_deref()),
            family: wanted.default_family,
        })
    }
}
