//! The shipped templates' pictures (`control-plane/seed/images/`, drawn by
//! `scripts/draw-template-photos.py`, CC0: see the README there), embedded with `include_dir`
//! like the library. A template names one as `/files/uploads/templates/{name}`; reading the
//! template turns that into the content-addressed key the seed writes the file at,
//! `uploads/templates/{sha256 prefix}/{name}`: a key of no project (`vitrine_shared::uploads`),
//! so a site made from the template shows it through its deploy's manifest, as it shows any
//! template's files, and a changed picture gets a new URL.

use include_dir::{Dir, include_dir};
use sha2::{Digest, Sha256};
use vitrine_shared::{
    account::Account,
    photos::Formats,
    uploads::{DIGEST_LEN, UPLOADS},
};

use crate::base::Core;

static IMAGES: Dir = include_dir!("$CARGO_MANIFEST_DIR/seed/images");

/// How a template names a shipped picture: this, then the file's name.
pub const TEMPLATE_PREFIX: &str = "/files/uploads/templates/";

/// The shipped pictures: (file name, bytes); the README is not one.
pub fn images() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    IMAGES.files().filter_map(|f| {
        let name = f.path().file_name()?.to_str()?;
        let ext = name.rsplit_once('.')?.1;
        ["jpg", "png", "webp"]
            .contains(&ext)
            .then_some((name, f.contents()))
    })
}

/// The object key of a shipped picture.
pub fn image_key(name: &str, bytes: &[u8]) -> String {
    let digest = hex::encode(Sha256::digest(bytes));
    format!("{UPLOADS}templates/{}/{name}", &digest[..DIGEST_LEN])
}

/// `raw` (a template file) with every `"/files/uploads/templates/{name}"` pointed at the
/// picture's key; a name that is not a shipped picture is an error.
pub fn link_images(raw: &str) -> Result<String, String> {
    let mut out = raw.to_string();
    for (name, bytes) in images() {
        out = out.replace(
            &format!("\"{TEMPLATE_PREFIX}{name}\""),
            &format!("\"/files/{}\"", image_key(name, bytes)),
        );
    }
    // What is left unlinked names no shipped picture (a linked one has its digest folder).
    let needle = format!("\"{TEMPLATE_PREFIX}");
    for (i, _) in out.match_indices(&needle) {
        let rest = &out[i + needle.len()..];
        let name = &rest[..rest.find('"').unwrap_or(rest.len())];
        if !name.contains('/') {
            return Err(format!("no shipped picture {name:?} (seed/images)"));
        }
    }
    Ok(out)
}

/// Writes every shipped picture to the object store (unchanged ones stay as they are) and
/// makes each into a photo, as an owner's upload is (`crate::photos`): its variants stored
/// beside it, so the pages of a site made from the template show it as a `<picture>` of
/// small variants, published or rendered by the edge. Made once: a picture that is a photo
/// already is left as it is. In the platform's own share of the photo workers.
pub async fn store_images(core: &Core) -> anyhow::Result<usize> {
    let mut n = 0;
    for (name, bytes) in images() {
        let key = image_key(name, bytes);
        if !core.blobs.exists(&key).await? {
            core.blobs
                .put(&key, bytes::Bytes::from_static(bytes))
                .await?;
        }
        if core.store.photo(&key).await?.is_none() {
            let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
            let made = crate::photos::make(core, Account::Platform, bytes, ext, Formats::All)
                .await
                .map_err(|e| anyhow::anyhow!("the template picture {name}: {e:?}"))?;
            crate::photos::store_variants(core, &key, made, false).await?;
        }
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pictures_are_small_jpegs_with_keys_of_no_project() {
        let all: Vec<_> = images().collect();
        assert!(all.len() >= 5, "{} pictures", all.len());
        for (name, bytes) in all {
            assert!(bytes.starts_with(&[0xff, 0xd8, 0xff]), "{name} is a JPEG");
            assert!(
                (5_000..=120_000).contains(&bytes.len()),
                "{name}: {} bytes",
                bytes.len()
            );
            let key = image_key(name, bytes);
            let parsed = vitrine_shared::uploads::UploadKey::parse(&key).unwrap();
            assert_eq!(parsed.project_id, None, "{key}");
        }
    }

    #[test]
    fn template_links_become_keys_and_unknown_pictures_are_refused() {
        let (name, bytes) = images().next().unwrap();
        let raw = format!("{{\"src\": \"{TEMPLATE_PREFIX}{name}\"}}");
        let linked = link_images(&raw).unwrap();
        assert_eq!(
            linked,
            format!("{{\"src\": \"/files/{}\"}}", image_key(name, bytes))
        );
        let e = link_images(&format!("\"{TEMPLATE_PREFIX}nope.jpg\"")).unwrap_err();
        assert!(e.contains("nope.jpg"), "{e}");
    }
}
