//! Passwords, sessions and the signed-in user.
//!
//! - Passwords are hashed with argon2id (the RustCrypto `argon2` crate, the reference pure-Rust
//!   implementation) with its default parameters, on the blocking pool.
//! - Sessions live in the database. The cookie holds a random 256-bit token; the database holds
//!   only its SHA-256, so a leaked database row cannot be replayed as a cookie.
//! - The cookie is `__Host-vitrine_session`: HttpOnly, SameSite=Lax, Secure, `Path=/` and no
//!   `Domain`. The `__Host-` prefix makes browsers refuse the name from anything but exactly
//!   that: a page on a sibling host (a tenant's site under the same registrable domain) cannot
//!   set or shadow it, and it is never sent to another host. Browsers accept Secure cookies
//!   over HTTPS and from loopback hosts (`localhost`, `127.0.0.1`), so a plain-http dashboard
//!   works on a developer's machine and nowhere else (start-up warns about such a
//!   `PUBLIC_URL`).

use argon2::{
    Argon2, PasswordHash, PasswordHasher, PasswordVerifier,
    password_hash::{SaltString, rand_core::OsRng},
};
use axum::{
    extract::{FromRef, FromRequestParts},
    http::request::Parts,
};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use base64::Engine;
use rand::Rng;
use sha2::{Digest, Sha256};
use vitrine_shared::ids::AccountId;
use vitrine_shared::store::{SessionUser, User};

use crate::{
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// The session cookie's name; the `__Host-` prefix binds it to the dashboard's own host.
pub const SESSION_COOKIE: &str = "__Host-vitrine_session";

/// Hashes a password with argon2id and a random salt.
pub async fn hash_password(password: String) -> Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing password: {e}"))
    })
    .await
    .map_err(|e| anyhow::anyhow!(e))?
    .map_err(ApiError::Internal)
}

/// Checks a password against a stored hash. A malformed hash counts as a mismatch.
pub async fn verify_password(password: String, hash: String) -> Result<bool> {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))
}

/// A dummy hash verified when the account does not exist, so that a wrong e-mail and a
/// wrong password take the same time.
pub static DUMMY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(b"not-a-real-password", &salt)
        .expect("hash")
        .to_string()
});

/// A new random token (256 bits, URL-safe base64) for sessions and reset links.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database stores for a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Starts a session for `user_id` and returns the cookie jar that carries it.
pub async fn start_session(
    core: &Core,
    jar: CookieJar,
    user_id: AccountId,
    impersonator_id: Option<AccountId>,
) -> Result<CookieJar> {
    let token = new_token();
    let ttl = chrono::Duration::hours(core.settings.session_ttl_hours as i64);
    core.store
        .insert_session(
            &token_hash(&token),
            user_id,
            impersonator_id,
            vitrine_shared::store::now() + ttl,
        )
        .await?;
    let mut cookie = session_cookie(token);
    cookie.set_max_age(time_duration(ttl));
    Ok(jar.add(cookie))
}

/// The attributes the `__Host-` prefix requires (Secure, `Path=/`, no `Domain`), on the
/// session cookie and on its removal alike: browsers refuse either without them.
fn session_cookie(value: String) -> Cookie<'static> {
    Cookie::build((SESSION_COOKIE, value))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(true)
        .build()
}

fn time_duration(d: chrono::Duration) -> time::Duration {
    time::Duration::seconds(d.num_seconds())
}

/// The stored hash of the session in `jar`'s cookie, if there is one.
pub fn session_hash(jar: &CookieJar) -> Option<String> {
    jar.get(SESSION_COOKIE).map(|c| token_hash(c.value()))
}

/// Ends the session in the cookie, if any, and clears the cookie.
pub async fn end_session(core: &Core, jar: CookieJar) -> Result<CookieJar> {
    if let Some(hash) = session_hash(&jar) {
        core.store.delete_session(&hash).await?;
    }
    Ok(jar.remove(session_cookie(String::new())))
}

/// The signed-in user; extracting it answers 401 when there is none.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user: User,
    pub impersonator_id: Option<AccountId>,
}

impl std::ops::Deref for CurrentUser {
    type Target = User;
    fn deref(&self) -> &User {
        &self.user
    }
}

impl<S: Send + Sync> FromRequestParts<S> for CurrentUser
where
    Core: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let jar = CookieJar::from_headers(&parts.headers);
        let token = jar.get(SESSION_COOKIE).ok_or(ApiError::Unauthorized)?;
        match Core::from_ref(state)
            .store
            .session_user(&token_hash(token.value()))
            .await?
        {
            Some(SessionUser {
                user,
                impersonator_id,
            }) => Ok(CurrentUser {
                user,
                impersonator_id,
            }),
            None => Err(ApiError::Unauthorized),
        }
    }
}

/// An administrator; others get 403.
#[derive(Debug, Clone)]
pub struct Admin(pub CurrentUser);

impl<S: Send + Sync> FromRequestParts<S> for Admin
where
    Core: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self> {
        let user = CurrentUser::from_request_parts(parts, state).await?;
        if user.is_admin {
            Ok(Admin(user))
        } else {
            Err(ApiError::forbidden(
                ErrorCode::AdminOnly,
                "Administrators only",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn argon2id_hashes_verify_and_reject() {
        let h = hash_password("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(
            verify_password("correct horse".into(), h.clone())
                .await
                .unwrap()
        );
        assert!(!verify_password("wrong".into(), h).await.unwrap());
        assert!(
            !verify_password("x".into(), "not a hash".into())
                .await
                .unwrap()
        );
    }

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }
}
