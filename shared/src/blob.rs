//! Files (uploads, deploys, cached fonts, thumbnails) go through object_store: a local directory
//! by default, an S3-compatible bucket when `VITRINE_OBJECT_STORE_URL` is set. object_store is
//! the Apache Arrow project's maintained abstraction over exactly these two, with the same API
//! for both.

use std::sync::Arc;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures::{StreamExt, TryStreamExt};
use object_store::{
    ObjectStore, ObjectStoreExt, PutPayload, aws::AmazonS3Builder, local::LocalFileSystem,
    path::Path as ObjectPath,
};

use crate::Settings;

#[derive(Clone, Debug)]
pub struct BlobStore {
    inner: Arc<dyn ObjectStore>,
}

#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    #[error("not found")]
    NotFound,
    #[error("invalid key")]
    InvalidKey,
    #[error(transparent)]
    Store(#[from] object_store::Error),
    #[error("blob store: {0}")]
    Setup(String),
}

impl BlobStore {
    /// The store the settings describe. The local directory is created here, at start-up,
    /// not while loading configuration.
    pub fn from_settings(settings: &Settings) -> Result<Self, BlobError> {
        match &settings.object_store_url {
            Some(url) if !url.is_empty() => {
                let s3 = AmazonS3Builder::from_env()
                    .with_url(url)
                    .build()
                    .map_err(|e| BlobError::Setup(e.to_string()))?;
                Ok(Self {
                    inner: Arc::new(s3),
                })
            }
            _ => Self::local(&settings.data_dir.join("objects")),
        }
    }

    pub fn local(dir: &std::path::Path) -> Result<Self, BlobError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| BlobError::Setup(format!("{}: {e}", dir.display())))?;
        let fs =
            LocalFileSystem::new_with_prefix(dir).map_err(|e| BlobError::Setup(e.to_string()))?;
        Ok(Self {
            inner: Arc::new(fs),
        })
    }

    fn path(key: &str) -> Result<ObjectPath, BlobError> {
        if key.is_empty()
            || key
                .split('/')
                .any(|s| s.is_empty() || s == "." || s == "..")
        {
            return Err(BlobError::InvalidKey);
        }
        ObjectPath::parse(key).map_err(|_| BlobError::InvalidKey)
    }

    pub async fn put(&self, key: &str, bytes: Bytes) -> Result<(), BlobError> {
        self.inner
            .put(&Self::path(key)?, PutPayload::from(bytes))
            .await?;
        Ok(())
    }

    pub async fn get(&self, key: &str) -> Result<Bytes, BlobError> {
        match self.inner.get(&Self::path(key)?).await {
            Ok(r) => Ok(r.bytes().await?),
            Err(object_store::Error::NotFound { .. }) => Err(BlobError::NotFound),
            Err(e) => Err(e.into()),
        }
    }

    pub async fn exists(&self, key: &str) -> Result<bool, BlobError> {
        match self.inner.head(&Self::path(key)?).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The object's size in bytes, or `None` when there is no such object.
    pub async fn size(&self, key: &str) -> Result<Option<u64>, BlobError> {
        match self.inner.head(&Self::path(key)?).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Every object under `prefix` (a folder such as `deploys/1/2/`), with when it was
    /// last written. Matching is by whole path segments, so `deploys/1/2/` never lists
    /// `deploys/1/20/`.
    pub async fn list(&self, prefix: &str) -> Result<Vec<(String, DateTime<Utc>)>, BlobError> {
        let prefix = Self::path(prefix.trim_end_matches('/'))?;
        self.inner
            .list(Some(&prefix))
            .map_ok(|m| (m.location.to_string(), m.last_modified))
            .try_collect()
            .await
            .map_err(BlobError::from)
    }

    /// Deletes one object; deleting one that is already gone is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), BlobError> {
        match self.inner.delete(&Self::path(key)?).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }

    /// Deletes every object under `prefix` (object_store's list, then its batched
    /// `delete_stream`, which S3 turns into multi-object deletes). Returns how many went.
    pub async fn delete_prefix(&self, prefix: &str) -> Result<usize, BlobError> {
        let prefix = Self::path(prefix.trim_end_matches('/'))?;
        let locations = self
            .inner
            .list(Some(&prefix))
            .map_ok(|m| m.location)
            .boxed();
        let mut deleted = 0;
        let mut stream = self.inner.delete_stream(locations);
        while let Some(r) = stream.next().await {
            match r {
                Ok(_) => deleted += 1,
                Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(deleted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_prefix_lists_and_deletes_only_its_own_folder() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::local(dir.path()).unwrap();
        for key in [
            "deploys/1/2/a.html",
            "deploys/1/2/x/b.css",
            "deploys/1/20/a.html",
        ] {
            store.put(key, Bytes::from_static(b"x")).await.unwrap();
        }
        let mut listed: Vec<String> = store
            .list("deploys/1/2/")
            .await
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        listed.sort();
        assert_eq!(listed, ["deploys/1/2/a.html", "deploys/1/2/x/b.css"]);
        assert_eq!(store.delete_prefix("deploys/1/2/").await.unwrap(), 2);
        assert!(!store.exists("deploys/1/2/a.html").await.unwrap());
        assert!(store.exists("deploys/1/20/a.html").await.unwrap());
        assert_eq!(store.delete_prefix("deploys/9/9/").await.unwrap(), 0);
        store.delete("deploys/1/20/a.html").await.unwrap();
        store.delete("deploys/1/20/a.html").await.unwrap();
        assert!(!store.exists("deploys/1/20/a.html").await.unwrap());
        assert!(store.delete_prefix("../x").await.is_err());
    }

    #[tokio::test]
    async fn local_store_round_trips_and_refuses_traversal() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::local(dir.path()).unwrap();
        store
            .put("uploads/1/a.txt", Bytes::from_static(b"hi"))
            .await
            .unwrap();
        assert_eq!(
            store.get("uploads/1/a.txt").await.unwrap(),
            Bytes::from_static(b"hi")
        );
        assert!(store.exists("uploads/1/a.txt").await.unwrap());
        assert!(matches!(
            store.get("uploads/1/missing").await,
            Err(BlobError::NotFound)
        ));
        assert!(matches!(
            store.get("../etc/passwd").await,
            Err(BlobError::InvalidKey)
        ));
        assert!(matches!(
            store.put("a//b", Bytes::new()).await,
            Err(BlobError::InvalidKey)
        ));
    }
}
