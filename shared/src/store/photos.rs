//! Photos (issue 44, [`crate::photos`]): what each uploaded photo was made into, by its upload
//! key, and the background conversion's queue and progress.

use std::collections::HashMap;

use sqlx::types::Json;

use super::{Result, Store, dispatch, map_err, now};
use crate::photos::{Photo, PhotoFormat, Variant};

/// The upload keys that are photos (by the extension uploads store them under), as SQL.
const IS_PHOTO: &str = "(u.object_key LIKE '%.jpg' OR u.object_key LIKE '%.png' \
     OR u.object_key LIKE '%.webp')";

/// How far the conversion of uploads into photos has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct PhotoProgress {
    /// Photo uploads made into photos (or refused).
    pub done: i64,
    /// Photo uploads in all.
    pub total: i64,
    /// Of `done`, those the photo worker refused.
    pub failed: i64,
}

impl Store {
    /// Saves what the upload `key` was made into (again, when it was already);
    /// `avif_pending`: its AVIF variants are still to be made ([`Store::add_avif`]).
    #[tracing::instrument(level = "debug", skip(self, photo), err(level = "debug"))]
    pub async fn save_photo(&self, key: &str, photo: &Photo, avif_pending: bool) -> Result<()> {
        let ts = now();
        dispatch!(self, p => sqlx::query(
            "INSERT INTO photos (object_key, width, height, placeholder, variants, failed, made_at, \
             avif_pending) VALUES ($1, $2, $3, $4, $5, NULL, $6, $7) \
             ON CONFLICT (object_key) DO UPDATE SET width = excluded.width, \
             height = excluded.height, placeholder = excluded.placeholder, \
             variants = excluded.variants, failed = NULL, made_at = excluded.made_at, \
             avif_pending = excluded.avif_pending")
            .bind(key)
            .bind(i64::from(photo.width))
            .bind(i64::from(photo.height))
            .bind(&photo.placeholder)
            .bind(Json(&photo.variants))
            .bind(ts)
            .bind(avif_pending)
            .execute(p).await.map_err(map_err).map(|_| ()))
    }

    /// Up to `limit` photos whose AVIF variants are still to be made, one per account (its
    /// first by key), each with its account as the store spells it (`None`: the platform's
    /// own pictures, which are no upload).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn photos_awaiting_avif(&self, limit: i64) -> Result<Vec<(String, Option<String>)>> {
        dispatch!(self, p => sqlx::query_as(
            "SELECT MIN(ph.object_key), u.account FROM photos ph \
             LEFT JOIN uploads u ON u.object_key = ph.object_key \
             WHERE ph.avif_pending = $1 GROUP BY u.account ORDER BY 1 LIMIT $2")
            .bind(true)
            .bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Adds the AVIF `variants` to the photo `key` and clears its flag; `false` (nothing
    /// changed) when the photo is gone or its AVIF variants were added already, by another
    /// process: the caller then deletes the files it wrote. One conditional update, so two
    /// processes never both add theirs.
    #[tracing::instrument(level = "debug", skip(self, variants), err(level = "debug"))]
    pub async fn add_avif(&self, key: &str, variants: &[Variant]) -> Result<bool> {
        let Some(photo) = self.photo(key).await? else {
            return Ok(false);
        };
        let mut all: Vec<Variant> = photo
            .variants
            .into_iter()
            .filter(|v| v.format != PhotoFormat::Avif)
            .collect();
        all.extend_from_slice(variants);
        let done = dispatch!(self, p => sqlx::query(
            "UPDATE photos SET variants = $2, avif_pending = $3 \
             WHERE object_key = $1 AND avif_pending = $4")
            .bind(key)
            .bind(Json(&all))
            .bind(false)
            .bind(true)
            .execute(p).await.map_err(map_err)?.rows_affected());
        Ok(done == 1)
    }

    /// Clears the photo `key`'s flag without AVIF variants: the worker refused to make them,
    /// and the photo is shown in its other formats.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn avif_given_up(&self, key: &str) -> Result<()> {
        dispatch!(self, p => sqlx::query("UPDATE photos SET avif_pending = $2 WHERE object_key = $1")
            .bind(key)
            .bind(false)
            .execute(p).await.map_err(map_err).map(|_| ()))
    }

    /// Notes that the upload `key` could not be made into a photo, and why.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn photo_failed(&self, key: &str, why: &str) -> Result<()> {
        let ts = now();
        let empty: Vec<Variant> = Vec::new();
        dispatch!(self, p => sqlx::query(
            "INSERT INTO photos (object_key, width, height, placeholder, variants, failed, made_at) \
             VALUES ($1, 0, 0, '', $2, $3, $4) ON CONFLICT (object_key) DO NOTHING")
            .bind(key)
            .bind(Json(&empty))
            .bind(why)
            .bind(ts)
            .execute(p).await.map_err(map_err).map(|_| ()))
    }

    /// What the upload `key` was made into, if it is a photo that was.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn photo(&self, key: &str) -> Result<Option<Photo>> {
        Ok(self.photos_of(&[key.to_string()]).await?.remove(key))
    }

    /// The photos of those of `keys` that were made into one, by key: one query per hundred
    /// keys (a page of records names at most a few hundred files).
    #[tracing::instrument(level = "debug", skip(self, keys), err(level = "debug"))]
    pub async fn photos_of(&self, keys: &[String]) -> Result<HashMap<String, Photo>> {
        type Row = (String, i64, i64, String, Json<Vec<Variant>>);
        let mut out = HashMap::new();
        for chunk in keys.chunks(100) {
            let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT object_key, width, height, placeholder, variants FROM photos \
                 WHERE failed IS NULL AND object_key IN ({})",
                marks.join(", ")
            );
            let rows: Vec<Row> = dispatch!(self, p => {
                let mut q = sqlx::query_as(super::trusted(&sql));
                for key in chunk {
                    q = q.bind(key);
                }
                q.fetch_all(p).await.map_err(map_err)?
            });
            for (key, width, height, placeholder, variants) in rows {
                let photo = Photo {
                    width: u32::try_from(width).unwrap_or(0),
                    height: u32::try_from(height).unwrap_or(0),
                    placeholder,
                    variants: variants.0,
                };
                out.insert(key, photo);
            }
        }
        Ok(out)
    }

    /// Forgets the photo of the upload `key` (the collector deleted the upload), answering the
    /// variants' keys for the caller to delete.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_photo(&self, key: &str) -> Result<Vec<String>> {
        let variants: Option<Json<Vec<Variant>>> = dispatch!(self, p => sqlx::query_scalar(
            "DELETE FROM photos WHERE object_key = $1 RETURNING variants")
            .bind(key)
            .fetch_optional(p).await.map_err(map_err)?);
        Ok(variants
            .map(|v| v.0.into_iter().map(|v| v.key).collect())
            .unwrap_or_default())
    }

    /// Up to `limit` photo uploads not yet made into photos (nor refused), oldest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn photos_to_convert(&self, limit: i64) -> Result<Vec<(String, String)>> {
        let sql = format!(
            "SELECT u.object_key, u.account FROM uploads u \
             LEFT JOIN photos ph ON ph.object_key = u.object_key \
             WHERE ph.object_key IS NULL AND {IS_PHOTO} ORDER BY u.object_key LIMIT $1"
        );
        dispatch!(self, p => sqlx::query_as(super::trusted(&sql))
            .bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    /// How far the conversion has come ([`PhotoProgress`]).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn photo_progress(&self) -> Result<PhotoProgress> {
        let sql = format!(
            "SELECT COUNT(*), COUNT(ph.object_key), \
             COUNT(CASE WHEN ph.failed IS NOT NULL THEN 1 END) FROM uploads u \
             LEFT JOIN photos ph ON ph.object_key = u.object_key WHERE {IS_PHOTO}"
        );
        let (total, done, failed): (i64, i64, i64) = dispatch!(self, p => sqlx::query_as(super::trusted(&sql))
                .fetch_one(p).await.map_err(map_err)?);
        Ok(PhotoProgress {
            done,
            total,
            failed,
        })
    }

    /// Adds `bytes` to the upload `key`'s charge and its account's usage, without a quota
    /// check: the variants the background conversion made of an upload the account already
    /// keeps.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn add_upload_bytes(&self, key: &str, bytes: u64) -> Result<()> {
        let size = i64::try_from(bytes).unwrap_or(i64::MAX / 2);
        dispatch!(self, p => {
            let mut tx = super::BeginWrite::begin_write(p).await.map_err(map_err)?;
            let account: Option<String> = sqlx::query_scalar(
                "UPDATE uploads SET bytes = bytes + $1 WHERE object_key = $2 RETURNING account")
                .bind(size).bind(key)
                .fetch_optional(&mut *tx).await.map_err(map_err)?;
            if let Some(account) = account {
                sqlx::query("UPDATE storage_usage SET bytes = bytes + $1 WHERE account = $2")
                    .bind(size).bind(&account)
                    .execute(&mut *tx).await.map_err(map_err)?;
            }
            tx.commit().await.map_err(map_err)?;
            Ok(())
        })
    }
}
