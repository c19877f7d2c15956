//! Fair shares of storage per account (issue 40, `docs/security.md` "Storage"): the uploads an
//! account keeps (bytes and files) and the records it keeps, each under a quota.
//!
//! An account is the one certificate orders are counted per (`tls::ACCOUNT_OF_USER_ROW`): a
//! business counts as one. Each account's upload totals are one `storage_usage` row. Every
//! check takes that row's lock first (an `UPDATE` of it: PostgreSQL's row lock, SQLite's single
//! writer), then counts and writes in the same transaction, so concurrent writes on any number
//! of control planes are counted one after the other and cannot slip past a quota together.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{
    BeginWrite, Result, Store, StoreError, dispatch, map_err, now,
    tls::{ACCOUNT_OF_USER_ROW, account_of_project},
    trusted,
};
use crate::ids::{AccountId, ProjectId};

/// The conflict of a write that would take its account past [`Store`]'s records cap.
pub const RECORDS_FULL: &str = "records_full";

/// Whose share an upload is charged to: its folder's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadOwner {
    /// A user's own folder (no project).
    User(AccountId),
    /// A project's folder (the editor's, or a client panel's): the project's owner's account.
    Project(ProjectId),
}

impl UploadOwner {
    /// SQL for the account, the user or project id in `$1`.
    fn account_sql(self) -> String {
        match self {
            UploadOwner::User(_) => account_of_user_sql(),
            UploadOwner::Project(_) => format!("SELECT {}", account_of_project("$1")),
        }
    }

    fn id(self) -> i64 {
        match self {
            UploadOwner::User(id) => id.get(),
            UploadOwner::Project(id) => id.get(),
        }
    }
}

/// An account's quota on uploads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageQuota {
    pub bytes: u64,
    pub objects: u64,
}

/// What an account keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StorageUsage {
    /// Bytes of uploads.
    pub bytes: i64,
    /// Uploaded files.
    pub objects: i64,
    /// Records of every collection of every project.
    pub records: i64,
}

/// The answer of [`Store::reserve_upload`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservation {
    /// The upload is charged: write it (and [`Store::release_upload`] it if that fails).
    Charged,
    /// The same key (the same bytes, name and folder) is stored and charged already; its grace
    /// starts again.
    Stored,
    /// The account's bytes would pass the quota.
    OverBytes,
    /// The account's file count would pass the quota.
    OverObjects,
}

/// A quota as SQL compares it (a setting of `u64::MAX` means no quota).
fn cap(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Takes the lock of the account's usage row in the open transaction `$tx` (making the row
/// when it has none): every write counted against an account's share does this first.
macro_rules! lock_account {
    ($tx:expr, $account:expr) => {
        async {
            sqlx::query(
                "INSERT INTO storage_usage (account, bytes, objects) VALUES ($1, 0, 0) \
                 ON CONFLICT (account) DO NOTHING",
            )
            .bind($account)
            .execute(&mut *$tx)
            .await
            .map_err(map_err)?;
            sqlx::query("UPDATE storage_usage SET objects = objects WHERE account = $1")
                .bind($account)
                .execute(&mut *$tx)
                .await
                .map_err(map_err)
                .map(|_| ())
        }
    };
}
pub(crate) use lock_account;

/// SQL for the records account `$1` keeps (every collection's `post_count` of its projects).
pub(crate) fn records_sql() -> String {
    format!(
        "SELECT CAST(COALESCE(SUM(c.post_count), 0) AS BIGINT) FROM collections c \
         JOIN projects pr ON pr.id = c.project_id JOIN users u ON u.id = pr.user_id \
         WHERE {ACCOUNT_OF_USER_ROW} = $1"
    )
}

/// SQL for the account of the collection in `$1`.
pub(crate) fn account_of_collection_sql() -> String {
    format!(
        "SELECT {ACCOUNT_OF_USER_ROW} FROM collections c \
         JOIN projects pr ON pr.id = c.project_id JOIN users u ON u.id = pr.user_id \
         WHERE c.id = $1"
    )
}

/// SQL for the account of the user in `$1`.
pub(crate) fn account_of_user_sql() -> String {
    format!("SELECT {ACCOUNT_OF_USER_ROW} FROM users u WHERE u.id = $1")
}

/// In the open transaction `$tx`: the account of `$owner_sql` (bound to `$id`), locked, with
/// room for `$adding` more records under `$cap`; else returns `Conflict(RECORDS_FULL)` (or
/// `NotFound`) from the function. Every statement that adds records does this first.
macro_rules! reserve_records {
    ($tx:expr, $owner_sql:expr, $id:expr, $adding:expr, $cap:expr) => {
        async {
            // Nothing added (a blank project): no count to take, no lock to hold.
            if $adding == 0 {
                return Ok(());
            }
            let account: String = sqlx::query_scalar($crate::store::trusted($owner_sql))
                .bind($id)
                .fetch_optional(&mut *$tx)
                .await
                .map_err(map_err)?
                .ok_or($crate::store::StoreError::NotFound)?;
            $crate::store::storage::lock_account!($tx, &account).await?;
            let kept: i64 = sqlx::query_scalar($crate::store::trusted(
                &$crate::store::storage::records_sql(),
            ))
            .bind(&account)
            .fetch_one(&mut *$tx)
            .await
            .map_err(map_err)?;
            if kept.saturating_add($adding) > $crate::store::storage::records_cap($cap) {
                return Err($crate::store::StoreError::Conflict(
                    $crate::store::storage::RECORDS_FULL,
                ));
            }
            Ok::<(), $crate::store::StoreError>(())
        }
    };
}
pub(crate) use reserve_records;

/// The records cap as SQL counts compare it.
pub(crate) fn records_cap(n: u64) -> i64 {
    cap(n)
}

/// Where an upload's key may be named, as text: a project's settings, its pages, records and
/// sections, its collections' settings, the libraries and the templates. (`table`, `column`).
const REFERENCES: &[(&str, &str)] = &[
    ("projects", "meta"),
    ("projects", "thumbnail"),
    ("pages", "blocks"),
    ("pages", "meta"),
    ("pages", "image"),
    ("pages", "output"),
    ("posts", "data"),
    ("global_sections", "block"),
    ("collections", "meta"),
    ("fields", "options"),
    ("fields", "meta"),
    ("templates", "snapshot"),
    ("templates", "thumbnail"),
    ("blocks", "image"),
    ("blocks", "template"),
    ("blocks", "css"),
    ("my_blocks", "template"),
    ("my_blocks", "css"),
    ("business_blocks", "image"),
    ("business_blocks", "template"),
    ("business_blocks", "css"),
    ("business_blocks", "js"),
];

/// `key` as a `LIKE … ESCAPE '\\'` pattern matching it anywhere, case kept.
fn contains_pattern(key: &str) -> String {
    format!(
        "%{}%",
        key.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    )
}

impl Store {
    /// The account (`u{user}` or `b{business}`) an upload into `owner`'s folder is charged to.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn upload_account(&self, owner: UploadOwner) -> Result<String> {
        let sql = owner.account_sql();
        dispatch!(self, p => sqlx::query_scalar(trusted(&sql))
            .bind(owner.id())
            .fetch_optional(p).await.map_err(map_err)?
            .ok_or(StoreError::NotFound))
    }

    /// Charges an upload of `bytes` under `key` to `account` when its quota has room, before
    /// anything is written; see [`Reservation`]. The count and the charge are one transaction
    /// under the account's lock.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn reserve_upload(
        &self,
        key: &str,
        account: &str,
        bytes: u64,
        quota: StorageQuota,
    ) -> Result<Reservation> {
        let size = cap(bytes);
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            lock_account!(tx, account).await?;
            let again = sqlx::query("UPDATE uploads SET seen_at = $1 WHERE object_key = $2")
                .bind(ts).bind(key)
                .execute(&mut *tx).await.map_err(map_err)?;
            if again.rows_affected() > 0 {
                tx.commit().await.map_err(map_err)?;
                return Ok(Reservation::Stored);
            }
            let (used, count): (i64, i64) =
                sqlx::query_as("SELECT bytes, objects FROM storage_usage WHERE account = $1")
                    .bind(account)
                    .fetch_one(&mut *tx).await.map_err(map_err)?;
            if used.saturating_add(size) > cap(quota.bytes) {
                return Ok(Reservation::OverBytes);
            }
            if count.saturating_add(1) > cap(quota.objects) {
                return Ok(Reservation::OverObjects);
            }
            sqlx::query(
                "UPDATE storage_usage SET bytes = bytes + $1, objects = objects + 1 \
                 WHERE account = $2")
                .bind(size).bind(account)
                .execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query(
                "INSERT INTO uploads (object_key, account, bytes, seen_at) \
                 VALUES ($1, $2, $3, $4)")
                .bind(key).bind(account).bind(size).bind(ts)
                .execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)?;
            Ok(Reservation::Charged)
        })
    }

    /// Takes `key` out of its account's usage, when it was last seen before `before` (the claim:
    /// of several callers, one gets it). Answers whether this call took it; the caller then
    /// deletes the object.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn release_upload(&self, key: &str, before: DateTime<Utc>) -> Result<bool> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let row: Option<(String, i64)> = sqlx::query_as(
                "DELETE FROM uploads WHERE object_key = $1 AND seen_at < $2 \
                 RETURNING account, bytes")
                .bind(key).bind(before)
                .fetch_optional(&mut *tx).await.map_err(map_err)?;
            let Some((account, bytes)) = row else {
                return Ok(false);
            };
            sqlx::query(
                "UPDATE storage_usage SET bytes = bytes - $1, objects = objects - 1 \
                 WHERE account = $2")
                .bind(bytes).bind(&account)
                .execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)?;
            Ok(true)
        })
    }

    /// What the account of user `user_id` keeps (zero for an account that never uploaded).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn storage_usage(&self, user_id: AccountId) -> Result<StorageUsage> {
        let account_sql = account_of_user_sql();
        let records_sql = records_sql();
        dispatch!(self, p => {
            let account: String = sqlx::query_scalar(trusted(&account_sql))
                .bind(user_id)
                .fetch_optional(p).await.map_err(map_err)?
                .ok_or(StoreError::NotFound)?;
            let (bytes, objects): (i64, i64) = sqlx::query_as(
                "SELECT bytes, objects FROM storage_usage WHERE account = $1")
                .bind(&account)
                .fetch_optional(p).await.map_err(map_err)?
                .unwrap_or((0, 0));
            let records: i64 = sqlx::query_scalar(trusted(&records_sql))
                .bind(&account)
                .fetch_one(p).await.map_err(map_err)?;
            Ok(StorageUsage { bytes, objects, records })
        })
    }

    /// Starts `key`'s grace again from `at` (the collector found it in use).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn renew_upload(&self, key: &str, at: DateTime<Utc>) -> Result<()> {
        dispatch!(self, p => sqlx::query("UPDATE uploads SET seen_at = $1 WHERE object_key = $2")
            .bind(at).bind(key)
            .execute(p).await.map_err(map_err).map(|_| ()))
    }

    /// Up to `limit` upload keys last seen before `before`, longest unseen first: the
    /// collector's candidates.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn uploads_unseen_since(
        &self,
        before: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<String>> {
        dispatch!(self, p => sqlx::query_scalar(
            "SELECT object_key FROM uploads WHERE seen_at < $1 \
             ORDER BY seen_at, object_key LIMIT $2")
            .bind(before).bind(limit)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Whether any project, page, record, section, collection, library block or template
    /// names `key` (live deploys are the caller's to read: their manifests are objects).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn upload_is_named(&self, key: &str) -> Result<bool> {
        let sql = REFERENCES
            .iter()
            .map(|(table, column)| {
                format!("SELECT 1 FROM {table} WHERE CAST({column} AS TEXT) LIKE $1 ESCAPE '\\'")
            })
            .collect::<Vec<_>>()
            .join(" UNION ALL ");
        let sql = format!("SELECT EXISTS ({sql})");
        let pattern = contains_pattern(key);
        dispatch!(self, p => sqlx::query_scalar::<_, bool>(trusted(&sql))
            .bind(&pattern)
            .fetch_one(p).await.map_err(map_err))
    }

    /// The manifest keys of every live deploy.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn live_manifest_keys(&self) -> Result<Vec<String>> {
        dispatch!(self, p => sqlx::query_scalar(
            "SELECT d.manifest_key FROM projects pr JOIN deploys d ON d.id = pr.active_deploy_id \
             WHERE d.manifest_key <> ''")
            .fetch_all(p).await.map_err(map_err))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keys_pattern_matches_it_literally() {
        assert_eq!(contains_pattern("uploads/1/a_b%c"), "%uploads/1/a\\_b\\%c%");
        assert_eq!(cap(u64::MAX), i64::MAX);
    }
}
