//! Users, sessions and password-reset tokens. Session and reset tokens are stored only as
//! SHA-256 hashes, so a copy of the database does not let anyone sign in.

use chrono::{DateTime, Utc};
use sqlx::types::Json;

use super::BeginWrite;
use super::{
    NewUser, PasswordChange, Permissions, Result, SessionUser, Store, StoreError, User, dispatch,
    map_err, now, trusted,
};
use crate::ids::{AccountId, BusinessId, ProjectId};
use crate::language::Language;
use crate::money::Currency;

const USER_COLUMNS: &str = "id, name, email, password_hash, language, currency, business_id, \
     is_admin, is_business_admin, permissions, plan, external_id, created_at, updated_at, \
     email_confirmed_at";

impl Store {
    #[tracing::instrument(level = "debug", skip_all, fields(email = new.email), err(level = "debug"))]
    pub async fn insert_user(&self, new: &NewUser<'_>) -> Result<User> {
        self.insert_user_row(new, None, false, &Permissions::default())
            .await
    }

    /// Inserts a member of a business with their role and access level in one statement, so
    /// an account never exists outside its business or without its restrictions.
    #[tracing::instrument(level = "debug", skip(self, new, permissions), fields(email = new.email), err(level = "debug"))]
    pub async fn insert_business_member(
        &self,
        new: &NewUser<'_>,
        business_id: BusinessId,
        is_business_admin: bool,
        permissions: &Permissions,
    ) -> Result<User> {
        self.insert_user_row(new, Some(business_id), is_business_admin, permissions)
            .await
    }

    async fn insert_user_row(
        &self,
        new: &NewUser<'_>,
        business_id: Option<BusinessId>,
        is_business_admin: bool,
        permissions: &Permissions,
    ) -> Result<User> {
        let ts = now();
        let sql = format!(
            "INSERT INTO users \
             (name, email, password_hash, language, is_admin, permissions, business_id, \
             is_business_admin, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) \
             RETURNING {USER_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, User>(trusted(&sql))
            .bind(new.name)
            .bind(new.email)
            .bind(new.password_hash)
            .bind(new.language)
            .bind(new.is_admin)
            .bind(Json(permissions))
            .bind(business_id)
            .bind(is_business_admin)
            .bind(ts)
            .fetch_one(p)
            .await
            .map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn user_by_email(&self, email: &str) -> Result<Option<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE email = $1");
        dispatch!(self, p => sqlx::query_as::<_, User>(trusted(&sql)).bind(email)
            .fetch_optional(p).await.map_err(map_err))
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn user_by_id(&self, id: AccountId) -> Result<User> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        dispatch!(self, p => sqlx::query_as::<_, User>(trusted(&sql)).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Every account, oldest first (the administrator's users screen).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn list_users(&self) -> Result<Vec<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY id");
        dispatch!(self, p => sqlx::query_as::<_, User>(trusted(&sql))
            .fetch_all(p).await.map_err(map_err))
    }

    /// The plan a user is billed on: their business's when they belong to one, else their own.
    #[tracing::instrument(level = "debug", skip_all, fields(user_id = user.id.get()), err(level = "debug"))]
    pub async fn plan_of(&self, user: &User) -> Result<crate::billing::Plan> {
        let Some(business) = user.business_id else {
            return Ok(user.plan);
        };
        let plan: Option<crate::billing::Plan> = dispatch!(self, p => sqlx::query_scalar(
            "SELECT plan FROM businesses WHERE id = $1")
            .bind(business).fetch_optional(p).await.map_err(map_err))?;
        Ok(plan.unwrap_or(user.plan))
    }

    /// The members of a business, oldest first.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn business_users(&self, business_id: BusinessId) -> Result<Vec<User>> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE business_id = $1 ORDER BY id");
        dispatch!(self, p => sqlx::query_as::<_, User>(trusted(&sql)).bind(business_id)
            .fetch_all(p).await.map_err(map_err))
    }

    /// Ids of the projects owned by members of a business.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn business_project_ids(&self, business_id: BusinessId) -> Result<Vec<ProjectId>> {
        dispatch!(self, p => sqlx::query_scalar(
            "SELECT p.id FROM projects p JOIN users u ON u.id = p.user_id \
             WHERE u.business_id = $1 ORDER BY p.id")
            .bind(business_id).fetch_all(p).await.map_err(map_err))
    }

    /// A business member's name, e-mail and, when given, password. A new password ends every
    /// session of the account but `password.keep_session` (the one making the change, when
    /// someone changes their own), in the same transaction: whoever knew the old password is
    /// signed out the moment it stops working.
    #[tracing::instrument(level = "debug", skip(self, password), err(level = "debug"))]
    pub async fn update_user_identity(
        &self,
        id: AccountId,
        name: &str,
        email: &str,
        password: Option<PasswordChange<'_>>,
    ) -> Result<()> {
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            // A new address starts unconfirmed, with no confirmation e-mail sent yet (the
            // right-hand sides read the row as it was, so `email = $2` is the old address).
            let n = sqlx::query(
                "UPDATE users SET name = $1, email = $2, \
                 password_hash = COALESCE($3, password_hash), updated_at = $4, \
                 email_confirmed_at = CASE WHEN email = $2 THEN email_confirmed_at END, \
                 email_token_hash = CASE WHEN email = $2 THEN email_token_hash END, \
                 email_token_sent_at = CASE WHEN email = $2 THEN email_token_sent_at END, \
                 email_token_sends = CASE WHEN email = $2 THEN email_token_sends ELSE 0 END \
                 WHERE id = $5")
                .bind(name).bind(email).bind(password.map(|p| p.hash)).bind(ts).bind(id)
                .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
            super::touched(n)?;
            if let Some(change) = password {
                // A stored session id is a 64-digit hex hash, never "".
                sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
                    .bind(id).bind(change.keep_session.unwrap_or(""))
                    .execute(&mut *tx).await.map_err(map_err)?;
            }
            tx.commit().await.map_err(map_err)
        })
    }

    /// Records the payment provider's customer id for an account (a card is then on file
    /// once a default payment method is set).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_external_id(&self, id: AccountId, external_id: &str) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query(
            "UPDATE users SET external_id = $1, updated_at = $2 WHERE id = $3")
            .bind(external_id).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        super::touched(n)
    }

    /// Sets a business's plan; admin tooling only.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_business_plan(
        &self,
        business_id: BusinessId,
        plan: crate::billing::Plan,
    ) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query("UPDATE businesses SET plan = $1 WHERE id = $2")
            .bind(plan).bind(business_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        super::touched(n)
    }

    /// A user's own account settings: name, language and currency.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn update_account(
        &self,
        id: AccountId,
        name: &str,
        language: Language,
        currency: Currency,
    ) -> Result<User> {
        let sql = format!(
            "UPDATE users \
             SET name = $1, language = $2, currency = $3, updated_at = $4 \
             WHERE id = $5 RETURNING {USER_COLUMNS}"
        );
        dispatch!(self, p => sqlx::query_as::<_, User>(trusted(&sql))
            .bind(name).bind(language).bind(currency).bind(now()).bind(id)
            .fetch_optional(p).await.map_err(map_err))?
        .ok_or(StoreError::NotFound)
    }

    /// Sets a user's language and currency (their own preferences, not trust flags).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_user_preferences(
        &self,
        id: AccountId,
        language: Language,
        currency: Currency,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "UPDATE users SET language = $1, currency = $2, updated_at = $3 WHERE id = $4")
            .bind(language).bind(currency).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Server-owned flags; only the seed and admin tooling call this.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn set_user_flags(
        &self,
        id: AccountId,
        is_admin: bool,
        is_business_admin: bool,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "UPDATE users SET is_admin = $1, is_business_admin = $2, updated_at = $3 WHERE id = $4")
            .bind(is_admin).bind(is_business_admin).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Puts a user in a business with an access level (business-user management).
    #[tracing::instrument(level = "debug", skip(self, permissions), err(level = "debug"))]
    pub async fn set_user_business(
        &self,
        id: AccountId,
        business_id: Option<BusinessId>,
        is_business_admin: bool,
        permissions: &Permissions,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "UPDATE users \
             SET business_id = $1, is_business_admin = $2, permissions = $3, updated_at = $4 \
             WHERE id = $5")
            .bind(business_id).bind(is_business_admin).bind(Json(permissions)).bind(now()).bind(id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn insert_business(&self, name: &str) -> Result<BusinessId> {
        dispatch!(self, p => sqlx::query_scalar::<_, BusinessId>(
            "INSERT INTO businesses (name, created_at) VALUES ($1, $2) RETURNING id")
            .bind(name).bind(now()).fetch_one(p).await.map_err(map_err))
    }

    // ---- sessions ----------------------------------------------------------------------

    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn insert_session(
        &self,
        token_hash: &str,
        user_id: AccountId,
        impersonator_id: Option<AccountId>,
        expires_at: DateTime<Utc>,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO sessions (id, user_id, impersonator_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)")
            .bind(token_hash).bind(user_id).bind(impersonator_id).bind(now()).bind(expires_at)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// The user behind an unexpired session.
    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn session_user(&self, token_hash: &str) -> Result<Option<SessionUser>> {
        let sql = "SELECT user_id, impersonator_id FROM sessions WHERE id = $1 AND expires_at > $2";
        let row: Option<(AccountId, Option<AccountId>)> = dispatch!(self, p => sqlx::query_as(sql)
            .bind(token_hash).bind(now()).fetch_optional(p).await.map_err(map_err))?;
        let Some((user_id, impersonator_id)) = row else {
            return Ok(None);
        };
        match self.user_by_id(user_id).await {
            Ok(user) => Ok(Some(SessionUser {
                user,
                impersonator_id,
            })),
            Err(StoreError::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }

    #[tracing::instrument(level = "debug", skip_all, err(level = "debug"))]
    pub async fn delete_session(&self, token_hash: &str) -> Result<()> {
        dispatch!(self, p => sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(token_hash).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Drops expired sessions and reset tokens; run periodically.
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn prune_expired(&self) -> Result<u64> {
        let ts = now();
        let a = dispatch!(self, p => sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(ts).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        let b = dispatch!(self, p => sqlx::query(
            "DELETE FROM password_resets WHERE expires_at <= $1")
            .bind(ts).execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(a + b)
    }

    // ---- sign-in address confirmation --------------------------------------------------

    /// Where an account's confirmation e-mails stand: when the last went out and how many
    /// went to its current address (`None`: the account is gone).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn email_confirmation_state(
        &self,
        user_id: AccountId,
    ) -> Result<Option<(Option<DateTime<Utc>>, i64)>> {
        dispatch!(self, p => sqlx::query_as::<_, (Option<DateTime<Utc>>, i64)>(
            "SELECT email_token_sent_at, email_token_sends FROM users WHERE id = $1")
            .bind(user_id).fetch_optional(p).await.map_err(map_err))
    }

    /// Records a new confirmation e-mail for the account's current address (its token's hash
    /// replaces the one before). False, and nothing written, when the address is confirmed.
    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn request_email_confirmation(
        &self,
        user_id: AccountId,
        token_hash: &str,
    ) -> Result<bool> {
        let n = dispatch!(self, p => sqlx::query(
            "UPDATE users SET email_token_hash = $1, email_token_sent_at = $2, \
             email_token_sends = email_token_sends + 1 \
             WHERE id = $3 AND email_confirmed_at IS NULL")
            .bind(token_hash).bind(now()).bind(user_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(n == 1)
    }

    /// Confirms the sign-in address whose link carried the token hashed as `token_hash`, if it
    /// was sent after `sent_after`; the token then stops working. Returns the account.
    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn confirm_email(
        &self,
        token_hash: &str,
        sent_after: DateTime<Utc>,
    ) -> Result<Option<i64>> {
        dispatch!(self, p => sqlx::query_scalar::<_, i64>(
            "UPDATE users SET email_confirmed_at = $1, email_token_hash = NULL \
             WHERE email_token_hash = $2 AND email_token_sent_at > $3 \
             AND email_confirmed_at IS NULL RETURNING id")
            .bind(now()).bind(token_hash).bind(sent_after)
            .fetch_optional(p).await.map_err(map_err))
    }

    /// Marks an account's sign-in address confirmed without a link (the seeded accounts,
    /// whose addresses the operator chose).
    #[tracing::instrument(level = "debug", skip(self), err(level = "debug"))]
    pub async fn mark_email_confirmed(&self, user_id: AccountId) -> Result<()> {
        let n = dispatch!(self, p => sqlx::query(
            "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $1), \
             email_token_hash = NULL WHERE id = $2")
            .bind(now()).bind(user_id)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        super::touched(n)
    }

    // ---- password reset ----------------------------------------------------------------

    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn insert_password_reset(
        &self,
        token_hash: &str,
        user_id: AccountId,
        expires_at: DateTime<Utc>,
    ) -> Result<()> {
        dispatch!(self, p => sqlx::query(
            "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)")
            .bind(token_hash).bind(user_id).bind(now()).bind(expires_at)
            .execute(p).await.map(|r| r.rows_affected()).map_err(map_err))?;
        Ok(())
    }

    /// Records a reset token for `user_id` unless one was issued after `since` and is still
    /// unused and unexpired (its link, already mailed, still works): true when recorded, and
    /// the caller mails the new link. Counting and inserting are one step (the transaction
    /// locks the account's row), so concurrent requests record one token at most.
    #[tracing::instrument(level = "debug", skip(self, token_hash), err(level = "debug"))]
    pub async fn insert_password_reset_unless_outstanding(
        &self,
        token_hash: &str,
        user_id: AccountId,
        since: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool> {
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            // Takes the account's row lock on PostgreSQL (SQLite's writer lock is already held).
            sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
                .bind(user_id).execute(&mut *tx).await.map_err(map_err)?;
            let outstanding: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM password_resets WHERE user_id = $1 AND created_at > $2 \
                 AND used_at IS NULL AND expires_at > $3")
                .bind(user_id).bind(since).bind(ts)
                .fetch_one(&mut *tx).await.map_err(map_err)?;
            if outstanding > 0 {
                return Ok(false);
            }
            sqlx::query(
                "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4)")
                .bind(token_hash).bind(user_id).bind(ts).bind(expires_at)
                .execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)?;
            Ok(true)
        })
    }

    /// Uses a reset token: in one transaction, checks it is unused, unexpired and belongs to
    /// `user_id`, marks it used, sets the new password hash and ends every session of the user.
    /// Returns false (and changes nothing) when the token is not valid.
    #[tracing::instrument(
        level = "debug",
        skip(self, token_hash, password_hash),
        err(level = "debug")
    )]
    pub async fn consume_password_reset(
        &self,
        token_hash: &str,
        user_id: AccountId,
        password_hash: &str,
    ) -> Result<bool> {
        let ts = now();
        dispatch!(self, p => {
            let mut tx = p.begin_write().await.map_err(map_err)?;
            let used = sqlx::query(
                "UPDATE password_resets SET used_at = $1 \
                 WHERE token_hash = $2 AND user_id = $3 AND used_at IS NULL AND expires_at > $1")
                .bind(ts).bind(token_hash).bind(user_id)
                .execute(&mut *tx).await.map_err(map_err)?.rows_affected();
            if used != 1 {
                return Ok(false);
            }
            sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
                .bind(password_hash).bind(ts).bind(user_id)
                .execute(&mut *tx).await.map_err(map_err)?;
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(user_id).execute(&mut *tx).await.map_err(map_err)?;
            tx.commit().await.map_err(map_err)?;
            Ok(true)
        })
    }
}
