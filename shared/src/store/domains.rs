//! Who holds a custom domain, and who holds a freed preview slug.
//!
//! **Domains** (`docs/design.md#tenant-isolation`): a project's verified domain is in
//! `projects.verified_domain` (and `projects.domain`); its unit, the name without one leading
//! `www.` ([`crate::domain::domain_unit`]), is the generated column `projects.domain_unit`,
//! unique in the database, so one project at most holds a name and its `www.` twin whatever
//! the code above does. A domain not proven yet is a *pending claim* (`domain_claims`, one per
//! project): it reserves nothing, any number of projects may wait for the same name, and the
//! project that proves it ([`Store::mark_domain_verified`]) evicts every pending claim on the
//! unit in the same transaction. The control plane re-checks pending claims on its own:
//! [`Store::claim_due_domain_checks`] hands each due claim to one node only (it moves the
//! claim's `next_check_at` forward with a conditional update, as the mail outbox does).
//!
//! **Slugs**: a preview slug given up (project deleted, slug changed) is held for the user who
//! gave it up (`slug_holds`), so for a cooling-off period nobody else can put a site at an
//! address the old site's visitors and links still use. The holder may take it back.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now, publishing::push_change};
use crate::domain::domain_unit;
use crate::ids::{AccountId, BusinessId, ProjectId};

/// The conflict a slug held for another user gives.
pub const SLUG_HELD: &str = "slug_holds_key";
/// The conflict a domain whose unit another project holds gives.
pub const DOMAIN_UNIT_TAKEN: &str = "projects_domain_unit_key";

/// A pending domain: asked for, not proven yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, ToSchema)]
pub struct DomainClaim {
    #[serde(skip)]
    #[schema(value_type = i64)]
    pub project_id: ProjectId,
    pub domain: String,
    /// How many checks ran since the domain was saved (or last asked for again).
    pub checks: i64,
    /// What the last check found, as the owner is told it: stored as text, shown parsed (the
    /// control plane's `DomainCheckView`).
    #[serde(skip)]
    pub last_result: Option<String>,
    pub checked_at: Option<DateTime<Utc>>,
    /// When the server checks again on its own; null once it stopped (the owner's Verify
    /// starts the checks over).
    pub next_check_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

const CLAIM_COLUMNS: &str =
    "project_id, domain, checks, last_result, checked_at, next_check_at, created_at";

impl Store {
    // ----- verified domains ------------------------------------------------------------------

    /// The project holding the unit of `name` (the name itself or its `www.` twin, verified).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn domain_holder(&self, name: &str) -> Result<Option<ProjectId>> {
        dispatch!(self, p => sqlx::query_scalar::<_, ProjectId>(
            "SELECT id FROM projects WHERE domain_unit = $1")
            .bind(domain_unit(name)).fetch_optional(p).await.map_err(map_err))
    }

    /// Records that `domain` was proven by TXT and points here (server-owned: only the
    /// verification calls this). In one transaction: the project's verified domain becomes
    /// `domain` (refused with [`DOMAIN_UNIT_TAKEN`] when another project holds its unit: the
    /// database's unique index decides, so two projects racing for a name and its twin cannot
    /// both win), certificates of its previous name go, every pending claim on the unit is
    /// evicted, the project's own pending domain (whatever it was) goes, and the edges are told.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mark_domain_verified(&self, project_id: ProjectId, domain: &str) -> Result<()> {
        self.verify_domain(project_id, domain, false)
            .await
            .map(|_| ())
    }

    /// [`Store::mark_domain_verified`] for the background checks: only while the project still
    /// has `domain` as its pending claim (the owner may have changed or removed it while the
    /// check ran). Returns whether the domain was verified.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn verify_domain_claim(&self, project_id: ProjectId, domain: &str) -> Result<bool> {
        self.verify_domain(project_id, domain, true).await
    }

    async fn verify_domain(
        &self,
        project_id: ProjectId,
        domain: &str,
        claimed: bool,
    ) -> Result<bool> {
        let unit = domain_unit(domain);
        let twin = crate::domain::www_twin(domain);
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            if claimed {
                let n = sqlx::query("DELETE FROM domain_claims \
                                     WHERE project_id = $1 AND domain = $2")
                    .bind(project_id).bind(domain)
                    .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
                if n == 0 {
                    return Ok(false);
                }
            }
            let n = sqlx::query(
                "UPDATE projects \
                 SET domain = $1, verified = TRUE, verified_domain = $1, verified_at = $2 \
                 WHERE id = $3")
                .bind(domain).bind(now()).bind(project_id)
                .execute(&mut *tx).await.map_err(map_err).map_err(one_holder)?.rows_affected();
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            // A certificate belongs to the verified name (or its twin) it was ordered for.
            sqlx::query("DELETE FROM certificates \
                         WHERE project_id = $1 AND domain <> $2 AND domain <> $3")
                .bind(project_id).bind(domain).bind(&twin)
                .execute(&mut *tx).await.map_err(map_err)?;
            // Evicts every pending claim on the unit, and the project's own on any name (the
            // owner just chose this one).
            sqlx::query("DELETE FROM domain_claims WHERE unit = $1 OR project_id = $2")
                .bind(unit).bind(project_id).execute(&mut *tx).await.map_err(map_err)?;
            push_change!(tx, project_id, "project", domain)?;
            tx.commit().await.map_err(map_err)?;
            Ok(true)
        })
    }

    /// Removes a project's custom domain: its verification, its certificates and its pending
    /// claim, and tells the edges. The names' ACME back-off stays (`acme_backoff`), so removing
    /// and verifying again never buys a faster retry.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn remove_domain(&self, project_id: ProjectId) -> Result<()> {
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let n = sqlx::query(
                "UPDATE projects SET domain = NULL, verified = FALSE, \
                 verified_domain = NULL, verified_at = NULL, updated_at = $1 \
                 WHERE id = $2")
                .bind(now()).bind(project_id)
                .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            sqlx::query("DELETE FROM certificates WHERE project_id = $1")
                .bind(project_id).execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM domain_claims WHERE project_id = $1")
                .bind(project_id).execute(&mut *tx).await.map_err(map_err)?;
            push_change!(tx, project_id, "project", "")?;
            tx.commit().await.map_err(map_err)
        })
    }

    // ----- pending claims --------------------------------------------------------------------

    /// Saves `domain` as the project's pending domain, replacing an earlier one, with its
    /// checks started over: the first at `next_check_at`. Reserves nothing.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn save_domain_claim(
        &self,
        project_id: ProjectId,
        domain: &str,
        next_check_at: DateTime<Utc>,
    ) -> Result<DomainClaim> {
        let sql = format!(
            "INSERT INTO domain_claims \
             (project_id, domain, unit, checks, next_check_at, created_at) \
             VALUES ($1, $2, $3, 0, $4, $5) \
             ON CONFLICT (project_id) DO UPDATE \
             SET domain = excluded.domain, unit = excluded.unit, \
                 checks = 0, last_result = NULL, checked_at = NULL, \
                 next_check_at = excluded.next_check_at, created_at = excluded.created_at \
             RETURNING {CLAIM_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, DomainClaim>(super::trusted(&sql))
            .bind(project_id).bind(domain).bind(domain_unit(domain)).bind(next_check_at).bind(now())
            .fetch_one(p).await.map_err(map_err))
    }

    /// The project's pending domain, if any.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn domain_claim(&self, project_id: ProjectId) -> Result<Option<DomainClaim>> {
        let sql = format!("SELECT {CLAIM_COLUMNS} FROM domain_claims WHERE project_id = $1");
        dispatch!(self, p => sqlx::query_as::<_, DomainClaim>(super::trusted(&sql))
            .bind(project_id).fetch_optional(p).await.map_err(map_err))
    }

    /// The pending domains of the projects a user might see (the same candidates as
    /// [`Store::projects_candidates`]), for the project list.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn domain_claims_of(
        &self,
        user_id: AccountId,
        business_id: Option<BusinessId>,
    ) -> Result<Vec<DomainClaim>> {
        let sql = format!(
            "SELECT {cols} FROM domain_claims c JOIN projects p ON p.id = c.project_id \
             JOIN users u ON u.id = p.user_id \
             WHERE p.user_id = $1 OR (u.business_id IS NOT NULL AND u.business_id = $2)",
            cols = CLAIM_COLUMNS
                .split(", ")
                .map(|c| format!("c.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        dispatch!(self, p => sqlx::query_as::<_, DomainClaim>(super::trusted(&sql))
            .bind(user_id).bind(business_id).fetch_all(p).await.map_err(map_err))
    }

    /// Drops the project's pending domain (the verified one, if any, stays).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn delete_domain_claim(&self, project_id: ProjectId) -> Result<()> {
        dispatch!(self, p => sqlx::query("DELETE FROM domain_claims WHERE project_id = $1")
            .bind(project_id).execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// Takes up to `limit` pending claims whose check is due, for this caller alone: each is
    /// moved `lease` into the future by a conditional update on the value just read, so of
    /// several control planes asking at once exactly one gets a given claim. A checker that
    /// dies mid-check leaves the claim due again once the lease has passed.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn claim_due_domain_checks(
        &self,
        limit: i64,
        lease: Duration,
    ) -> Result<Vec<DomainClaim>> {
        let at = now();
        let due: Vec<(i64, DateTime<Utc>)> = dispatch!(self, p => sqlx::query_as(
            "SELECT project_id, next_check_at FROM domain_claims \
             WHERE next_check_at IS NOT NULL AND next_check_at <= $1 \
             ORDER BY next_check_at LIMIT $2")
            .bind(at).bind(limit).fetch_all(p).await.map_err(map_err))?;
        let sql = format!(
            "UPDATE domain_claims SET next_check_at = $1 \
             WHERE project_id = $2 AND next_check_at = $3 \
             RETURNING {CLAIM_COLUMNS}"
        );
        let mut taken = Vec::new();
        for (project_id, seen) in due {
            let row: Option<DomainClaim> = dispatch!(self, p => sqlx::query_as(super::trusted(&sql))
                .bind(at + lease).bind(project_id).bind(seen)
                .fetch_optional(p).await.map_err(map_err))?;
            taken.extend(row);
        }
        Ok(taken)
    }

    /// Records a check of the pending `domain` and when the next one is due (`None`: no
    /// more automatic checks). Does nothing if the claim changed meanwhile.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn record_domain_check(
        &self,
        project_id: ProjectId,
        domain: &str,
        result: &str,
        next_check_at: Option<DateTime<Utc>>,
    ) -> Result<()> {
        let result: String = result.chars().take(2000).collect();
        dispatch!(self, p => sqlx::query(
            "UPDATE domain_claims \
             SET checks = checks + 1, last_result = $1, checked_at = $2, next_check_at = $3 \
             WHERE project_id = $4 AND domain = $5")
            .bind(&result).bind(now()).bind(next_check_at).bind(project_id).bind(domain)
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    // ----- slug holds ------------------------------------------------------------------------

    /// Whether `user_id` may take `slug` now: refused with [`SLUG_HELD`] while another user's
    /// hold on it, released after `held_since`, lasts. A hold older than that is dropped.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn slug_available_to(
        &self,
        slug: &str,
        user_id: AccountId,
        held_since: DateTime<Utc>,
    ) -> Result<()> {
        let holder: Option<AccountId> = dispatch!(self, p => {
            sqlx::query("DELETE FROM slug_holds WHERE slug = $1 AND released_at <= $2")
                .bind(slug).bind(held_since).execute(p).await.map_err(map_err)?;
            sqlx::query_scalar("SELECT user_id FROM slug_holds WHERE slug = $1")
                .bind(slug).fetch_optional(p).await.map_err(map_err)
        })?;
        match holder {
            Some(holder) if holder != user_id => Err(StoreError::Conflict(SLUG_HELD)),
            _ => Ok(()),
        }
    }

    /// Drops holds released before `before` (the cooling-off period is over).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn prune_slug_holds(&self, before: DateTime<Utc>) -> Result<u64> {
        dispatch!(self, p => sqlx::query("DELETE FROM slug_holds WHERE released_at <= $1")
            .bind(before).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))
    }

    /// When `slug` was given up and by whom, if it is held.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn slug_hold(&self, slug: &str) -> Result<Option<(AccountId, DateTime<Utc>)>> {
        dispatch!(self, p => sqlx::query_as::<_, (AccountId, DateTime<Utc>)>(
            "SELECT user_id, released_at FROM slug_holds WHERE slug = $1")
            .bind(slug).fetch_optional(p).await.map_err(map_err))
    }
}

/// The same name held elsewhere breaks `projects_domain_key` too, whichever index the
/// database checks first: both say the unit is taken.
fn one_holder(e: StoreError) -> StoreError {
    match e {
        StoreError::Conflict("projects_domain_key") => StoreError::Conflict(DOMAIN_UNIT_TAKEN),
        other => other,
    }
}

/// Inside a transaction that puts a project at `$slug` for `$owner`: the owner's own hold on
/// the slug ends, and anyone else's refuses the write with [`SLUG_HELD`]. Callers that take a
/// slug the user asked for run [`Store::slug_available_to`] first, which drops expired holds;
/// a hold this finds is live (or just made by a concurrent release), so refusing is right.
///
/// `take_slug!(tx, slug, owner)` expands to an `async` block (await it) that runs both
/// statements on `tx` and resolves to `Result<()>`. A macro rather than a function because
/// `tx` is a SQLite or a PostgreSQL transaction depending on the arm of `dispatch!` it expands
/// in (see the store's module doc).
macro_rules! take_slug {
    ($tx:expr, $slug:expr, $owner:expr) => {
        async {
            sqlx::query("DELETE FROM slug_holds WHERE slug = $1 AND user_id = $2")
                .bind::<&str>($slug)
                .bind::<$crate::ids::AccountId>($owner)
                .execute(&mut *$tx)
                .await
                .map_err(map_err)?;
            let held: Option<i64> =
                sqlx::query_scalar("SELECT user_id FROM slug_holds WHERE slug = $1")
                    .bind::<&str>($slug)
                    .fetch_optional(&mut *$tx)
                    .await
                    .map_err(map_err)?;
            match held {
                Some(_) => Err(StoreError::Conflict($crate::store::SLUG_HELD)),
                None => Ok(()),
            }
        }
    };
}
pub(crate) use take_slug;

/// Inside a transaction that gives `$slug` up: hold it for `$owner` from now.
///
/// `release_slug!(tx, slug, owner)` expands to an expression that runs the upsert into
/// `slug_holds` on `tx`, awaits it and evaluates to `Result<()>`. A macro rather than a
/// function because `tx` is a SQLite or a PostgreSQL transaction depending on the arm of
/// `dispatch!` it expands in (see the store's module doc).
macro_rules! release_slug {
    ($tx:expr, $slug:expr, $owner:expr) => {
        sqlx::query(
            "INSERT INTO slug_holds (slug, user_id, released_at) \
             VALUES ($1, $2, $3) ON CONFLICT (slug) DO UPDATE \
             SET user_id = excluded.user_id, released_at = excluded.released_at",
        )
        .bind::<&str>($slug)
        .bind::<$crate::ids::AccountId>($owner)
        .bind(now())
        .execute(&mut *$tx)
        .await
        .map(|_| ())
        .map_err(map_err)
    };
}
pub(crate) use release_slug;
