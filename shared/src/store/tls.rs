//! Certificates, the ordering lease, HTTP-01 answers and the ACME account: everything the edge
//! nodes share about TLS lives in the database so that any node can serve any host, answer any
//! challenge, and exactly one node orders a given name at a time.
//!
//! Back-off after failed orders is kept per host name in `acme_backoff` as well, apart from
//! the certificate row, so that removing a domain (which drops its certificates) and verifying
//! it again starts where the back-off left off instead of with a fresh, immediate attempt.
//! Orders are counted per project and per account (`acme_orders`), for the quotas that keep
//! one tenant from using up the platform's share of the CA's rate limits.
//!
//! The lease is the `certificates` row itself: [`Store::claim_order`] is one conditional upsert,
//! so two nodes racing for a name cannot both win on either database (PostgreSQL re-checks the
//! `WHERE` of `ON CONFLICT DO UPDATE` against the locked row; SQLite serialises writers).

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now, publishing::push_change};
use crate::ids::ProjectId;

/// A stored certificate as the edge loads it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StoredCert {
    pub domain: String,
    pub project_id: Option<ProjectId>,
    pub status: String,
    pub cert_pem: Option<String>,
    pub key_pem: Option<String>,
    pub not_after: Option<DateTime<Utc>>,
    pub failures: i64,
    pub next_attempt_at: Option<DateTime<Utc>>,
}

/// Where a domain's certificate is: `pending` (being ordered), `issued`, or `failing` (the last
/// attempt failed; an older certificate may still be served until it expires).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CertState {
    Pending,
    Issued,
    Failing,
}

crate::text_code::text_code!(CertState, "certificate status", [
    Pending => "pending",
    Issued => "issued",
    Failing => "failing",
]);

/// What the project page shows about a project's certificate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, ToSchema)]
pub struct CertificateStatus {
    pub domain: String,
    /// An older certificate may still be served while `failing`, until `expires_at`.
    pub status: CertState,
    #[sqlx(rename = "not_after")]
    pub expires_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub failures: i64,
    pub next_attempt_at: Option<DateTime<Utc>>,
}

/// SQL for the account the user row `u` counts against: `b{business}` when it belongs to a
/// business, else `u{user}`. The one notion of an account that fair shares are counted per
/// (certificate orders here, storage and records in `storage.rs`).
pub(super) const ACCOUNT_OF_USER_ROW: &str =
    "CASE WHEN u.business_id IS NULL THEN 'u' || u.id ELSE 'b' || u.business_id END";

/// SQL for the account the project in parameter `param` (`$3`) counts against: `b{business}`
/// when its owner belongs to a business, else `u{owner}`.
pub(super) fn account_of_project(param: &str) -> String {
    format!(
        "(SELECT {ACCOUNT_OF_USER_ROW} \
         FROM projects pr JOIN users u ON u.id = pr.user_id WHERE pr.id = {param})"
    )
}

/// SQL for [`OrderCounts`] since `$1`, for the project in `$2`.
fn order_counts_sql() -> String {
    format!(
        "SELECT COUNT(*) AS total, \
             COALESCE(SUM(CASE WHEN project_id = $2 THEN 1 ELSE 0 END), 0) AS project, \
             COALESCE(SUM(CASE WHEN account = {account} THEN 1 ELSE 0 END), 0) AS account \
         FROM acme_orders WHERE created_at >= $1",
        account = account_of_project("$2")
    )
}

/// The advisory lock (PostgreSQL) that [`Store::reserve_acme_order`] holds while it counts and
/// records: the bytes of "VITRINEA".
const ACME_ORDERS_LOCK: i64 = 0x5649_5452_494e_4541;

/// Which cap an order would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    Platform,
    Project,
    Account,
}

/// The caps on orders in a window: in total, per project and per account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderCaps {
    pub total: i64,
    pub project: i64,
    pub account: i64,
}

impl OrderCaps {
    /// The cap one more order would break, given what was placed. The tenant's own caps come
    /// first (they apply to a name with a project), so a tenant at its limit is told so.
    pub fn broken_by(&self, placed: &OrderCounts, has_project: bool) -> Option<Cap> {
        if has_project && placed.project >= self.project {
            Some(Cap::Project)
        } else if has_project && placed.account >= self.account {
            Some(Cap::Account)
        } else if placed.total >= self.total {
            Some(Cap::Platform)
        } else {
            None
        }
    }
}

/// ACME orders placed in a window, for the caps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct OrderCounts {
    pub total: i64,
    pub project: i64,
    pub account: i64,
}

/// A name whose certificate should be renewed.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RenewalDue {
    pub domain: String,
    pub project_id: Option<ProjectId>,
}

impl Store {
    /// The account a project counts against: `b{business}` when its owner belongs to a
    /// business, else `u{owner}`; `None` when there is no such project.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn project_account(&self, project_id: ProjectId) -> Result<Option<String>> {
        let sql = format!("SELECT {} AS account", account_of_project("$1"));
        dispatch!(self, p => sqlx::query_scalar::<_, Option<String>>(super::trusted(&sql))
            .bind(project_id)
            .fetch_one(p).await.map_err(map_err))
    }

    /// The certificate row for a host name, if any.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn certificate(&self, domain: &str) -> Result<Option<StoredCert>> {
        dispatch!(self, p => sqlx::query_as::<_, StoredCert>(
            "SELECT domain, project_id, status, cert_pem, \
             key_pem, not_after, failures, next_attempt_at FROM certificates \
             WHERE domain = $1")
            .bind(domain).fetch_optional(p).await.map_err(map_err))
    }

    /// The certificate status of a project's verified domain (`None`: no certificate yet).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn certificate_status(
        &self,
        project_id: ProjectId,
    ) -> Result<Option<CertificateStatus>> {
        dispatch!(self, p => sqlx::query_as::<_, CertificateStatus>(
            "SELECT c.domain, c.status, c.not_after, c.last_error, c.failures, c.next_attempt_at \
             FROM certificates c JOIN projects pr ON pr.verified_domain = c.domain \
             WHERE pr.id = $1 AND pr.verified")
            .bind(project_id).fetch_optional(p).await.map_err(map_err))
    }

    /// The project whose *verified* custom domain is `domain`. Only such names are ever ordered.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn verified_project_for(&self, domain: &str) -> Result<Option<ProjectId>> {
        dispatch!(self, p => sqlx::query_scalar::<_, ProjectId>(
            "SELECT id FROM projects WHERE verified AND verified_domain = $1")
            .bind(domain).fetch_optional(p).await.map_err(map_err))
    }

    /// The project that answers for `name`: the holder of its unit, whose verified custom
    /// domain is `name` or its `www.` twin (a site answers for both, so both may get a
    /// certificate). The unit is unique, so a twin never answers for anyone else.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn verified_project_for_host(&self, name: &str) -> Result<Option<ProjectId>> {
        self.domain_holder(name).await
    }

    /// Takes the ordering lease for `domain` until `lease_until`, if nobody else holds it, no
    /// back-off is running, and the name has no certificate outside its renewal window
    /// (`renew_before`: a certificate expiring after it is left alone). Returns whether this
    /// caller now holds the lease.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn claim_order(
        &self,
        domain: &str,
        project_id: Option<ProjectId>,
        owner: &str,
        lease_until: DateTime<Utc>,
        renew_before: DateTime<Utc>,
    ) -> Result<bool> {
        let at = now();
        // The name's own back-off first: it outlives a certificate row dropped with the domain.
        type Backoff = (i64, DateTime<Utc>, Option<String>);
        let backoff: Option<Backoff> = dispatch!(self, p => sqlx::query_as(
            "SELECT failures, next_attempt_at, last_error FROM acme_backoff WHERE domain = $1")
            .bind(domain).fetch_optional(p).await.map_err(map_err))?;
        if let Some((failures, next, error)) = backoff
            && next > at
        {
            // A row made anew (the domain was removed and verified again) shows it, too.
            dispatch!(self, p => sqlx::query(
                "INSERT INTO certificates \
                 (domain, project_id, status, last_error, failures, next_attempt_at, created_at, \
                 updated_at) VALUES ($1, $2, 'failing', $3, $4, $5, $6, $6) \
                 ON CONFLICT (domain) DO NOTHING")
                .bind(domain).bind(project_id).bind(error).bind(failures).bind(next).bind(at)
                .execute(p).await.map(|_| ()).map_err(map_err))?;
            return Ok(false);
        }
        let n = dispatch!(self, p => sqlx::query(
            "INSERT INTO certificates \
             (domain, project_id, status, lease_owner, lease_until, created_at, updated_at) \
             VALUES ($1, $2, 'pending', $3, $4, $5, $5) \
             ON CONFLICT (domain) DO UPDATE SET lease_owner = excluded.lease_owner, \
                 lease_until = excluded.lease_until, project_id = excluded.project_id, \
                 updated_at = excluded.updated_at \
             WHERE (certificates.lease_until IS NULL OR certificates.lease_until < $5) \
               AND (certificates.next_attempt_at IS NULL OR certificates.next_attempt_at <= $5) \
               AND (certificates.not_after IS NULL OR certificates.not_after < $6)")
            .bind(domain).bind(project_id).bind(owner).bind(lease_until).bind(at).bind(renew_before)
            .execute(p).await.map_err(map_err)?.rows_affected());
        Ok(n == 1)
    }

    /// Stores an issued certificate and releases the lease (only if `owner` still holds it).
    #[tracing::instrument(level = "debug", skip(self, cert_pem, key_pem), err(level = "debug"))]
    pub async fn store_issued(
        &self,
        domain: &str,
        owner: &str,
        cert_pem: &str,
        key_pem: &str,
        not_after: DateTime<Utc>,
    ) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let project: Option<Option<ProjectId>> = sqlx::query_scalar(
                "UPDATE certificates \
                 SET status = 'issued', cert_pem = $1, key_pem = $2, \
                 not_after = $3, last_error = NULL, failures = 0, \
                 next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = $4 \
                 WHERE domain = $5 AND lease_owner = $6 RETURNING project_id")
                .bind(cert_pem).bind(key_pem).bind(not_after).bind(now()).bind(domain).bind(owner)
                .fetch_optional(&mut *tx).await.map_err(map_err)?;
            let Some(project) = project else {
                return Err(StoreError::NotFound);
            };
            sqlx::query("DELETE FROM acme_backoff WHERE domain = $1")
                .bind(domain).execute(&mut *tx).await.map_err(map_err)?;
            push_change!(tx, project.unwrap_or(ProjectId(0)), "certificate", domain)?;
            tx.commit().await.map_err(map_err)
        })
    }

    /// Gives the lease up without an attempt (a cap stopped the order): no back-off, no
    /// failure counted.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn release_order_lease(&self, domain: &str, owner: &str) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "UPDATE certificates SET lease_owner = NULL, lease_until = NULL \
             WHERE domain = $1 AND lease_owner = $2")
            .bind(domain).bind(owner).execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Records a failed attempt: the back-off doubles from `base` per consecutive failure
    /// (counted on the certificate row and in `acme_backoff`, whichever saw more), up to `max`.
    /// Releases the lease. Returns when the next attempt may start.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn store_failure(
        &self,
        domain: &str,
        owner: &str,
        error: &str,
        base: Duration,
        max: Duration,
    ) -> Result<DateTime<Utc>> {
        let error: String = error.chars().take(1000).collect();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let failures: Option<i64> = sqlx::query_scalar(
                "SELECT failures FROM certificates WHERE domain = $1 AND lease_owner = $2")
                .bind(domain).bind(owner).fetch_optional(&mut *tx).await.map_err(map_err)?;
            let Some(failures) = failures else {
                return Err(StoreError::NotFound);
            };
            let before: Option<i64> = sqlx::query_scalar(
                "SELECT failures FROM acme_backoff WHERE domain = $1")
                .bind(domain).fetch_optional(&mut *tx).await.map_err(map_err)?;
            let failures = failures.max(before.unwrap_or(0));
            let next = now() + backoff(failures, base, max);
            let project: Option<ProjectId> = sqlx::query_scalar(
                "UPDATE certificates \
                 SET status = 'failing', last_error = $1, failures = $2, \
                 next_attempt_at = $3, lease_owner = NULL, lease_until = NULL, updated_at = $4 \
                 WHERE domain = $5 RETURNING project_id")
                .bind(&error).bind(failures + 1).bind(next).bind(now()).bind(domain)
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            sqlx::query(
                "INSERT INTO acme_backoff \
                 (domain, failures, next_attempt_at, last_error, updated_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (domain) DO UPDATE \
                 SET failures = excluded.failures, next_attempt_at = excluded.next_attempt_at, \
                 last_error = excluded.last_error, updated_at = excluded.updated_at")
                .bind(domain).bind(failures + 1).bind(next).bind(&error).bind(now())
                .execute(&mut *tx).await.map_err(map_err)?;
            push_change!(tx, project.unwrap_or(ProjectId(0)), "certificate", domain)?;
            tx.commit().await.map_err(map_err)?;
            Ok(next)
        })
    }

    /// Names with a certificate that expires before `before` and no back-off running.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn renewals_due(&self, before: DateTime<Utc>, limit: i64) -> Result<Vec<RenewalDue>> {
        dispatch!(self, p => sqlx::query_as::<_, RenewalDue>(
            "SELECT domain, project_id FROM certificates \
             WHERE not_after IS NOT NULL AND not_after < $1 AND \
             (next_attempt_at IS NULL OR next_attempt_at <= $2) \
             ORDER BY not_after LIMIT $3")
            .bind(before).bind(now()).bind(limit).fetch_all(p).await.map_err(map_err))
    }

    /// How many certificates hold a certificate (for the metrics).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn count_certificates(&self) -> Result<i64> {
        dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM certificates WHERE cert_pem IS NOT NULL")
            .fetch_one(p).await.map_err(map_err))
    }

    // ----- HTTP-01 -------------------------------------------------------------------------

    #[tracing::instrument(
        level = "debug",
        skip(self, token, key_authorization),
        err(level = "debug")
    )]
    pub async fn put_challenge(
        &self,
        token: &str,
        key_authorization: &str,
        domain: &str,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO acme_challenges (token, key_authorization, domain, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (token) DO UPDATE \
             SET key_authorization = excluded.key_authorization")
            .bind(token).bind(key_authorization).bind(domain).bind(now())
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// The key authorization for a token, if the token belongs to `domain`.
    #[tracing::instrument(level = "debug", skip(self, token), err(level = "debug"))]
    pub async fn challenge(&self, token: &str, domain: &str) -> Result<Option<String>> {
        dispatch!(self, p => sqlx::query_scalar::<_, String>(
            "SELECT key_authorization FROM acme_challenges WHERE token = $1 AND domain = $2")
            .bind(token).bind(domain).fetch_optional(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn delete_challenge(&self, token: &str) -> Result<()> {
        dispatch!(self, p => sqlx::query("DELETE FROM acme_challenges WHERE token = $1")
            .bind(token).execute(p).await.map(|_| ()).map_err(map_err))
    }

    // ----- account and the order cap ------------------------------------------------------

    /// The stored ACME account credentials (JSON) for a directory.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn acme_account(&self, directory_url: &str) -> Result<Option<String>> {
        dispatch!(self, p => sqlx::query_scalar::<_, String>(
            "SELECT credentials FROM acme_accounts WHERE directory_url = $1")
            .bind(directory_url).fetch_optional(p).await.map_err(map_err))
    }

    /// Stores account credentials unless another node stored some first; returns the ones
    /// that are stored, so every node ends up using the same account.
    #[tracing::instrument(level = "debug", skip(self, credentials), err(level = "debug"))]
    pub async fn save_acme_account(
        &self,
        directory_url: &str,
        credentials: &str,
    ) -> Result<String> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO acme_accounts (directory_url, credentials, created_at) \
             VALUES ($1, $2, $3) ON CONFLICT (directory_url) DO NOTHING")
            .bind(directory_url).bind(credentials).bind(now())
            .execute(p).await.map(|_| ()).map_err(map_err))?;
        self.acme_account(directory_url)
            .await?
            .ok_or(StoreError::NotFound)
    }

    /// Orders placed since `since`, by every node.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn acme_orders_since(&self, since: DateTime<Utc>) -> Result<i64> {
        dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM acme_orders WHERE created_at >= $1")
            .bind(since).fetch_one(p).await.map_err(map_err))
    }

    /// Records an order for `domain` (of `project_id`) unless it would break a cap on the
    /// orders placed since `since`: returns `None` when the order is recorded (the caller may
    /// place it), else the cap it would break. Checking and recording are one step for every
    /// node: the transaction holds the orders' write lock (an advisory lock on PostgreSQL,
    /// SQLite's single writer), so a flood of handshakes for many names at once, on one node or
    /// many, cannot slip past a cap between the count and the insert.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn reserve_acme_order(
        &self,
        domain: &str,
        node: &str,
        project_id: Option<ProjectId>,
        since: DateTime<Utc>,
        caps: OrderCaps,
    ) -> Result<Option<Cap>> {
        let count_sql = order_counts_sql();
        let insert_sql = format!(
            "INSERT INTO acme_orders (domain, node, project_id, account, created_at) \
             VALUES ($1, $2, $3, {account}, $4)",
            account = account_of_project("$3")
        );
        // Orders older than a day are never counted again.
        let prune = "DELETE FROM acme_orders WHERE created_at < $1";
        let old = now() - Duration::days(1);
        // Inside the transaction, once it holds the lock (PostgreSQL) or to take it (SQLite):
        // the prune is a write, which takes SQLite's write lock before anything is counted.
        /// `reserve!(tx)` expands to a block that prunes, counts, inserts and commits `tx`,
        /// returning from the function early with the cap a new order would break. A macro,
        /// not a function, so each arm below expands it for its own database's transaction
        /// (see the store's module doc).
        macro_rules! reserve {
            ($tx:expr) => {{
                sqlx::query(prune)
                    .bind(old)
                    .execute(&mut *$tx)
                    .await
                    .map_err(map_err)?;
                let counts: OrderCounts = sqlx::query_as(super::trusted(&count_sql))
                    .bind(since)
                    .bind(project_id)
                    .fetch_one(&mut *$tx)
                    .await
                    .map_err(map_err)?;
                if let Some(cap) = caps.broken_by(&counts, project_id.is_some()) {
                    return Ok(Some(cap));
                }
                sqlx::query(super::trusted(&insert_sql))
                    .bind(domain)
                    .bind(node)
                    .bind(project_id)
                    .bind(now())
                    .execute(&mut *$tx)
                    .await
                    .map_err(map_err)?;
                $tx.commit().await.map_err(map_err)?;
                Ok(None)
            }};
        }
        match self {
            Store::Postgres(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(ACME_ORDERS_LOCK)
                    .execute(&mut *tx)
                    .await
                    .map_err(map_err)?;
                reserve!(tx)
            }
            Store::Sqlite(p) => {
                let mut tx = p.begin_write().await.map_err(map_err)?;
                reserve!(tx)
            }
        }
    }

    /// Orders placed since `since`: in total, for `project_id`, and for its account.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn acme_order_counts(
        &self,
        since: DateTime<Utc>,
        project_id: Option<ProjectId>,
    ) -> Result<OrderCounts> {
        let sql = order_counts_sql();
        dispatch!(self, p => sqlx::query_as::<_, OrderCounts>(super::trusted(&sql))
            .bind(since).bind(project_id).fetch_one(p).await.map_err(map_err))
    }
}

/// `base · 2^failures`, capped at `max`.
pub fn backoff(failures: i64, base: Duration, max: Duration) -> Duration {
    let factor = 1i64 << failures.clamp(0, 30);
    base.checked_mul(factor.min(i32::MAX as i64) as i32)
        .filter(|d| *d <= max)
        .unwrap_or(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_per_failure_up_to_the_cap() {
        let (base, day) = (Duration::seconds(60), Duration::days(1));
        let waits: Vec<i64> = (0..6)
            .map(|f| backoff(f, base, day).num_seconds())
            .collect();
        assert_eq!(waits, [60, 120, 240, 480, 960, 1920]);
        assert_eq!(backoff(11, base, day), day, "60 s · 2^11 is past a day");
        assert_eq!(backoff(500, base, day), day, "no overflow");
        assert_eq!(backoff(-3, base, day), base);
    }
}
