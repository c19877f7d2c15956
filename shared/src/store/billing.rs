//! The ledger and the monthly billing run, and publication periods (opened and closed by
//! publishing, see `publishing.rs`).

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};

use super::BeginWrite;
use super::{Result, Store, StoreError, dispatch, map_err, now};
use crate::billing::{Month, Plan, price};
use crate::ids::{AccountId, BusinessId, ProjectId};
use crate::money::{Currency, Money};

/// One entry of the audit log: (actor, action, subject, created_at).
pub type AuditEntry = (i64, String, Option<i64>, DateTime<Utc>);

/// One ledger entry: charges are negative, payments positive.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Transaction {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub description: String,
    /// The `amount` and `currency` columns.
    #[sqlx(flatten)]
    pub amount: Money,
}

/// A charge the billing run posts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub user_id: AccountId,
    pub key: String,
    pub description: String,
    pub amount: Money,
}

#[derive(sqlx::FromRow)]
struct Account {
    id: AccountId,
    business_id: Option<BusinessId>,
    is_business_admin: bool,
    currency: String,
    plan: Plan,
    business_plan: Option<Plan>,
    created_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
struct Period {
    project_id: ProjectId,
    user_id: AccountId,
    name: String,
}

impl Store {
    /// What `month` costs every account, as the charges to post (none posted yet):
    ///
    /// - who pays: an account on its own pays for itself; a business pays through its first
    ///   business administrator (lowest id), who receives its members' site charges too;
    /// - the plan is the business's when the account belongs to one, else the user's;
    /// - the plan's monthly fee, to every paying account that existed during the month;
    /// - one charge per website on line at any time during the month (a publication period
    ///   overlapping it), however often it was published or unpublished;
    /// - in the paying account's currency.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn month_charges(&self, month: Month) -> Result<Vec<Charge>> {
        let (start, end) = (month.start(), month.end());
        let accounts: Vec<Account> = dispatch!(self, p => sqlx::query_as(
            "SELECT u.id, u.business_id, u.is_business_admin, \
             u.currency, u.plan, b.plan AS business_plan, u.created_at \
             FROM users u LEFT JOIN businesses b ON b.id = u.business_id \
             ORDER BY u.id")
            .fetch_all(p).await.map_err(map_err))?;
        let periods: Vec<Period> = dispatch!(self, p => sqlx::query_as(
            "SELECT project_id, MIN(user_id) AS user_id, MIN(name) AS name FROM publications \
             WHERE started_at < $2 AND (ended_at IS NULL OR ended_at >= $1) \
             GROUP BY project_id ORDER BY project_id")
            .bind(start).bind(end)
            .fetch_all(p).await.map_err(map_err))?;

        let by_id: HashMap<AccountId, &Account> = accounts.iter().map(|a| (a.id, a)).collect();
        // The payer of each business: its first administrator, else its first member.
        let mut business_payer: BTreeMap<BusinessId, AccountId> = BTreeMap::new();
        for a in &accounts {
            if let Some(b) = a.business_id {
                let current = business_payer.get(&b).and_then(|id| by_id.get(id));
                let better = match current {
                    None => true,
                    Some(c) => a.is_business_admin && !c.is_business_admin,
                };
                if better {
                    business_payer.insert(b, a.id);
                }
            }
        }
        let payer_of = |a: &Account| {
            a.business_id
                .and_then(|b| business_payer.get(&b).copied())
                .unwrap_or(a.id)
        };
        // What an account pays by: its business's plan, else its own, in its currency (an
        // account in a currency nothing is priced in pays nothing).
        let price_of =
            |a: &Account| price(a.business_plan.unwrap_or(a.plan), a.currency.parse().ok()?);
        // A debit of `amount` (a price in the payer's currency) to `payer`.
        let debit = |payer: &Account, key: String, description: String, amount: Money| {
            Ok::<_, StoreError>(Charge {
                user_id: payer.id,
                key,
                description,
                amount: amount
                    .checked_neg()
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
            })
        };

        let mut charges = Vec::new();
        for a in &accounts {
            if payer_of(a) != a.id || a.created_at >= end {
                continue;
            }
            let Some(p) = price_of(a) else {
                continue;
            };
            if p.monthly_fee.is_positive() {
                let key = format!("plan:{}:{month}", a.id);
                let description = format!("Plano {} — {month}", p.name);
                charges.push(debit(a, key, description, p.monthly_fee)?);
            }
        }
        for site in &periods {
            // A site whose owner was deleted is billed to nobody.
            let Some(owner) = by_id.get(&site.user_id) else {
                continue;
            };
            let Some(payer) = by_id.get(&payer_of(owner)) else {
                continue;
            };
            let Some(p) = price_of(payer) else {
                continue;
            };
            let key = format!("site:{}:{month}", site.project_id);
            let description = format!("Site {} — {month}", site.name);
            charges.push(debit(payer, key, description, p.per_site)?);
        }
        Ok(charges)
    }

    /// Posts `month`'s charges. Idempotent: a charge already posted (same key) is skipped, so
    /// running a month again posts nothing new. Returns how many were posted.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn run_billing(&self, month: Month, at: DateTime<Utc>) -> Result<u64> {
        let charges = self.month_charges(month).await?;
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let mut posted = 0;
            for c in &charges {
                posted += sqlx::query(
                    "INSERT INTO transactions \
                     (user_id, created_at, description, amount, currency, charge_key) \
                     VALUES ($1, $2, $3, $4, $5, $6) \
                     ON CONFLICT (charge_key) DO NOTHING")
                    .bind(c.user_id).bind(at).bind(&c.description)
                    .bind(c.amount.minor()).bind(c.amount.currency()).bind(&c.key)
                    .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
            }
            tx.commit().await.map_err(map_err)?;
            Ok(posted)
        })
    }

    /// Posts a payment or an adjustment (positive is money in).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn insert_transaction(
        &self,
        user_id: AccountId,
        description: &str,
        amount: Money,
    ) -> Result<Transaction> {
        dispatch!(self, p => sqlx::query_as(
            "INSERT INTO transactions (user_id, created_at, description, amount, currency) \
             VALUES ($1, $2, $3, $4, $5) \
             RETURNING id, created_at, description, amount, currency")
            .bind(user_id).bind(now()).bind(description)
            .bind(amount.minor()).bind(amount.currency())
            .fetch_one(p).await.map_err(map_err))
    }

    /// The sum of the account's transactions in `currency`.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn balance(&self, user_id: AccountId, currency: Currency) -> Result<Money> {
        let sum: Option<i64> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT CAST(SUM(amount) AS BIGINT) FROM transactions \
             WHERE user_id = $1 AND currency = $2")
            .bind(user_id).bind(currency).fetch_one(p).await.map_err(map_err))?;
        Ok(Money::new(sum.unwrap_or(0), currency))
    }

    /// Whether the account has any transaction (its currency is then fixed).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn has_transactions(&self, user_id: AccountId) -> Result<bool> {
        let n: i64 = dispatch!(self, p => sqlx::query_scalar(
            "SELECT COUNT(*) FROM transactions WHERE user_id = $1")
            .bind(user_id).fetch_one(p).await.map_err(map_err))?;
        Ok(n > 0)
    }

    /// The account's transactions in `[from, to)`, oldest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn transactions_between(
        &self,
        user_id: AccountId,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<Transaction>> {
        dispatch!(self, p => sqlx::query_as(
            "SELECT id, created_at, description, amount, currency FROM transactions \
             WHERE user_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, id")
            .bind(user_id).bind(from).bind(to).fetch_all(p).await.map_err(map_err))
    }

    /// Records an action taken on someone else's behalf.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn audit(
        &self,
        actor_id: AccountId,
        action: &str,
        subject_id: Option<i64>,
        detail: &str,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO audit_log (actor_id, action, subject_id, detail, created_at) \
             VALUES ($1, $2, $3, $4, $5)")
            .bind(actor_id).bind(action).bind(subject_id).bind(detail).bind(now())
            .execute(p).await.map(|_| ()).map_err(map_err))
    }

    /// The audit log, newest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn audit_log(&self, limit: i64) -> Result<Vec<AuditEntry>> {
        dispatch!(self, p => sqlx::query_as(
            "SELECT actor_id, action, subject_id, created_at FROM audit_log \
             ORDER BY id DESC LIMIT $1")
            .bind(limit).fetch_all(p).await.map_err(map_err))
    }
}
