//! What a share card is made from ([`super::card`]), read where the card is asked for: the
//! inputs of a page's card (at publish) and of a collection item's (at the edge), and the
//! images' bytes from the object store: a photo's small variant (never the original when a
//! variant exists, so a 12-megapixel photo is not decoded for a 510-pixel box), else an upload
//! small enough to hand over as it is.

use crate::blob::{BlobError, BlobStore};
use crate::list_query::DbRecord;
use crate::photos::{Photo, PhotoFormat, Variant};
use crate::store::{Field, Store, StoreError};
use crate::theme::Theme;
use crate::uploads::UploadKey;

use super::card::{CardImage, CardInputs, CardJob, MAX_IMAGE_BYTES, sniff};

/// The widths (pixels) wanted of the photo's and the logo's variants.
pub const PHOTO_WIDTH: u32 = 640;
pub const LOGO_WIDTH: u32 = 320;

/// Why a card's images could not be read (the platform's fault: no card is stored).
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Blob(#[from] BlobError),
}

/// The upload key an upload's URL names (`/files/uploads/…`, possibly after the platform's
/// public address), or `None` for any other URL: a card never fetches from elsewhere.
pub fn upload_key(url: &str) -> Option<String> {
    let (_, key) = url.trim().split_once("/files/")?;
    let key = key.split(['?', '#']).next().unwrap_or(key);
    UploadKey::parse(key).map(|_| key.to_string())
}

/// The site's part of every card: its name, theme and logo.
#[derive(Debug, Clone, Default)]
pub struct CardSite {
    pub name: String,
    pub theme: Theme,
    /// The logo's upload key ([`upload_key`] of the identity's logo).
    pub logo: Option<String>,
}

impl CardSite {
    /// A page's card: its title.
    pub fn page(&self, title: &str) -> CardInputs {
        CardInputs {
            title: title.to_string(),
            site_name: self.name.clone(),
            price: String::new(),
            theme: self.theme.clone(),
            logo: self.logo.clone(),
            photo: None,
        }
    }

    /// A collection item's card: its name, its price as visitors read it (the first currency
    /// field), and its photo (the first image field that names an upload).
    pub fn item(&self, record: &DbRecord, fields: &[Field]) -> CardInputs {
        let price = fields
            .iter()
            .filter(|f| f.kind == "currency")
            .find_map(|f| record.formatted.get(&f.slug)?.as_str())
            .unwrap_or_default();
        let photo = fields
            .iter()
            .filter(|f| f.kind == "image")
            .find_map(|f| upload_key(record.fields.get(&f.slug)?.as_str()?));
        CardInputs {
            price: price.to_string(),
            photo,
            ..self.page(&record.name)
        }
    }
}

/// The variant of `photo` a card shows: the narrowest at least `width` wide, else the widest,
/// in a format the card's renderer reads (not AVIF).
pub fn pick_variant(photo: &Photo, width: u32) -> Option<&Variant> {
    let readable = photo
        .variants
        .iter()
        .filter(|v| v.format != PhotoFormat::Avif && v.bytes <= MAX_IMAGE_BYTES as u64);
    let wide_enough = readable
        .clone()
        .filter(|v| v.width >= width)
        .min_by_key(|v| (v.width, v.format != PhotoFormat::Webp));
    wide_enough.or_else(|| readable.max_by_key(|v| (v.width, v.format == PhotoFormat::Webp)))
}

/// The image of the upload `key` for a card, `width` pixels wide or so (see the module docs);
/// `None` when it is missing or not an image a card shows.
pub async fn image(
    store: &Store,
    blobs: &BlobStore,
    key: &str,
    width: u32,
) -> Result<Option<CardImage>, SourceError> {
    let photo = store.photo(key).await?;
    let chosen = photo
        .as_ref()
        .and_then(|p| pick_variant(p, width))
        .map_or(key, |v| v.key.as_str());
    let bytes = match blobs.get(chosen).await {
        Ok(bytes) => bytes,
        Err(BlobError::NotFound) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    if bytes.len() > MAX_IMAGE_BYTES {
        return Ok(None);
    }
    Ok(sniff(&bytes).map(|mime| CardImage {
        mime: mime.to_string(),
        bytes: bytes.to_vec(),
    }))
}

/// The job for `inputs`: the inputs and their images' bytes.
pub async fn job(
    store: &Store,
    blobs: &BlobStore,
    inputs: CardInputs,
) -> Result<CardJob, SourceError> {
    let logo = match &inputs.logo {
        Some(key) => image(store, blobs, key, LOGO_WIDTH).await?,
        None => None,
    };
    let photo = match &inputs.photo {
        Some(key) => image(store, blobs, key, PHOTO_WIDTH).await?,
        None => None,
    };
    Ok(CardJob {
        inputs,
        logo,
        photo,
    })
}

/// Where a card of the project is kept in the object store, by its hash.
pub fn card_key(project: crate::ids::ProjectId, hash: &str) -> String {
    format!("sites/{}/og/{hash}.png", project.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_upload_urls_name_a_card_image() {
        let key = "uploads/1/2/abcdef0123456789abcdef0123456789/foto.jpg";
        assert_eq!(
            upload_key(&format!("/files/{key}")),
            UploadKey::parse(key).map(|_| key.into())
        );
        assert_eq!(upload_key("https://evil.example/x.png"), None);
        assert_eq!(upload_key("/files/../../etc/passwd"), None);
    }

    #[test]
    fn the_small_readable_variant_is_picked() {
        let v = |format, width| Variant {
            format,
            width,
            height: width,
            key: format!("k{width}.{}", PhotoFormat::ext(format)),
            bytes: 1000,
        };
        let photo = Photo {
            width: 1920,
            height: 1920,
            placeholder: String::new(),
            variants: vec![
                v(PhotoFormat::Avif, 640),
                v(PhotoFormat::Jpeg, 640),
                v(PhotoFormat::Webp, 640),
                v(PhotoFormat::Webp, 320),
                v(PhotoFormat::Webp, 1920),
            ],
        };
        let picked = pick_variant(&photo, 640).unwrap();
        assert_eq!((picked.width, picked.format), (640, PhotoFormat::Webp));
        let picked = pick_variant(&photo, 4000).unwrap();
        assert_eq!(picked.width, 1920);
    }
}
