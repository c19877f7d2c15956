//! Throttling of sign-ins and password-reset requests (docs/security.md, "Accounts and
//! sessions"), and of uploads (docs/security.md, "Storage"); and [`AtOnce`], the bound on
//! how many imports one account runs at a time.
//!
//! - **Uploads** count every upload per storage account (a business is one), so one account
//!   cannot keep the object store and the database busy for the others.
//! - **Sign-in** counts *failures* only, per (account, client network) and per client network
//!   across accounts. A flood of wrong passwords against an account from one network uses up
//!   that network's allowance only: the owner signing in from any other network is never
//!   refused. A correct password gives its attempt back, so successes never count.
//! - **Password reset** counts every request per (account, client network) and per network,
//!   as sign-in does, so a flood from one network never refuses the owner's request from
//!   another. The inbox is protected apart: one reset mail per account per 15 minutes
//!   (`routes::session::RESET_MAIL_EVERY`, in the database). It never blocks signing in.
//!
//! The client network is [`vitrine_shared::proxies::client_network`] of the address
//! `CONTROL_TRUSTED_PROXIES` vouches for (`X-Forwarded-For` only from a trusted proxy).
//!
//! An attempt is reserved *before* the password is checked and given back if it succeeds,
//! so a burst of concurrent guesses cannot all pass the check while the first ones are still
//! being verified. Each key has a fixed one-minute window starting with its first attempt;
//! at a window's edge a client can at most double its allowance once.
//!
//! Why not governor (which the edge uses for forms): a GCRA limiter can neither look at a
//! key without spending a cell nor give a cell back (boinkor-net/governor#211 is still open),
//! and both are needed to count failures only. The windows live in a moka cache (the
//! maintained concurrent cache the edge also uses): its per-key `and_compute_with` makes the
//! check-and-count atomic, entries expire on their own, and `max_capacity` bounds memory
//! whatever the number of networks an attacker controls. Per control-plane node: with N
//! nodes a client gets at most N times the allowance.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use ipnet::IpNet;
use moka::{future::Cache, ops::compute::Op};
use std::time::Instant;

use crate::error::{ApiError, ErrorCode};

/// How long one window of a key's allowance lasts.
const WINDOW: Duration = Duration::from_secs(60);
/// Keys kept at most (about 100 bytes each).
const MAX_KEYS: u64 = 200_000;

/// What an allowance is counted against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// One account (its normalised e-mail) from one client network.
    AccountFrom(String, IpNet),
    /// One client network, whatever the account.
    Network(IpNet),
    /// An account's editor renders (the canvas, the preview).
    Renders(vitrine_shared::account::Account),
    /// An account's outbound fetches for API-fed lists.
    Fetches(vitrine_shared::account::Account),
    /// Uploads charged to one storage account (`u{user}` or `b{business}`).
    Uploads(String),
    /// Password-reset requests for one account from one client network (apart from sign-in
    /// failures, so resets never use up a sign-in allowance).
    Reset(String, IpNet),
    /// Password-reset requests from one client network, whatever the account.
    ResetNetwork(IpNet),
    /// Imports running for one account (`u{user}` or `b{business}`).
    Imports(String),
}

#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    used: u32,
}

/// Counted attempts per key, each key with its own allowance per minute.
pub struct Throttle {
    windows: Cache<Key, Window>,
}

/// An attempt refused: the key's allowance renews in `retry_after_secs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    pub retry_after_secs: u64,
}

/// Attempts taken by [`Throttle::take`]; [`Throttle::give_back`] returns them (a sign-in that
/// succeeded). Dropping it keeps them counted.
#[must_use = "an attempt is counted unless given back"]
pub struct Taken {
    keys: Vec<(Key, Instant)>,
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle {
            windows: Cache::builder()
                .max_capacity(MAX_KEYS)
                // Written on every attempt, so an entry outlives its window (which starts at
                // or before the entry's last write).
                .time_to_live(WINDOW)
                .build(),
        }
    }
}

impl Throttle {
    /// Counts one attempt against every `(key, allowance per minute)`, or none when any key
    /// has used its allowance.
    pub async fn take(&self, limits: &[(Key, u32)]) -> Result<Taken, Refused> {
        self.take_at(limits, Instant::now()).await
    }

    /// [`Throttle::take`] at the time `now` (the tests' clock).
    async fn take_at(&self, limits: &[(Key, u32)], now: Instant) -> Result<Taken, Refused> {
        let mut taken = Taken { keys: Vec::new() };
        for (key, allowance) in limits {
            match self.take_one(key, *allowance, now).await {
                Ok(started) => taken.keys.push((key.clone(), started)),
                Err(wait) => {
                    self.give_back(taken).await;
                    return Err(Refused {
                        retry_after_secs: wait.as_secs_f64().ceil().max(1.0) as u64,
                    });
                }
            }
        }
        Ok(taken)
    }

    /// Gives back attempts taken (a successful sign-in does not count).
    pub async fn give_back(&self, taken: Taken) {
        for (key, started) in taken.keys {
            self.windows
                .entry(key)
                .and_compute_with(|entry| async move {
                    match entry.map(|e| e.into_value()) {
                        // Only within the window it was counted in.
                        Some(w) if w.started == started && w.used > 0 => Op::Put(Window {
                            used: w.used - 1,
                            ..w
                        }),
                        _ => Op::Nop,
                    }
                })
                .await;
        }
    }

    /// Counts one attempt for `key`; `Ok(window start)` or `Err(time until it renews)`.
    async fn take_one(&self, key: &Key, allowance: u32, now: Instant) -> Result<Instant, Duration> {
        use moka::ops::compute::CompResult;
        let result = self
            .windows
            .entry(key.clone())
            .and_compute_with(|entry| async move {
                let current = entry
                    .map(|e| e.into_value())
                    .filter(|w| now.duration_since(w.started) < WINDOW)
                    .unwrap_or(Window {
                        started: now,
                        used: 0,
                    });
                if current.used >= allowance {
                    Op::Nop
                } else {
                    Op::Put(Window {
                        used: current.used + 1,
                        ..current
                    })
                }
            })
            .await;
        match result {
            CompResult::Inserted(e) | CompResult::ReplacedWith(e) => Ok(e.into_value().started),
            CompResult::Unchanged(e) => {
                Err((e.into_value().started + WINDOW).saturating_duration_since(now))
            }
            // Nothing was there and nothing was counted: an allowance of zero.
            CompResult::StillNone(_) | CompResult::Removed(_) => Err(WINDOW),
        }
    }

    /// Runs the cache's pending expiry work (called periodically; it also runs on its own).
    pub async fn prune(&self) {
        self.windows.run_pending_tasks().await;
    }
}

/// The sign-in keys for `account` (already normalised) from `client`.
pub fn sign_in_keys(
    account: Option<&str>,
    client: IpAddr,
    per_account: u32,
    per_network: u32,
) -> Vec<(Key, u32)> {
    let network = vitrine_shared::proxies::client_network(client);
    let mut keys = Vec::with_capacity(2);
    // An e-mail that is not valid cannot be anyone's account: the network alone pays for it.
    if let Some(account) = account {
        keys.push((Key::AccountFrom(account.to_string(), network), per_account));
    }
    keys.push((Key::Network(network), per_network));
    keys
}

/// The password-reset keys for `account` from `client`.
pub fn reset_keys(
    account: &str,
    client: IpAddr,
    per_account: u32,
    per_network: u32,
) -> Vec<(Key, u32)> {
    let network = vitrine_shared::proxies::client_network(client);
    vec![
        (Key::Reset(account.to_string(), network), per_account),
        (Key::ResetNetwork(network), per_network),
    ]
}

/// Work that only so many may run of at once per key (an account's imports): a count per
/// key, taken for the work's length and given back when its [`Running`] guard drops, however
/// the work ends (answered, failed, or its request gone). Unlike [`Throttle`], which counts
/// attempts per minute, this bounds what one account holds at a time of what all share (an
/// import holds a blocking thread, its file in memory and a database connection).
#[derive(Clone, Default)]
pub struct AtOnce(Arc<Mutex<HashMap<Key, u32>>>);

/// One piece of work counted by [`AtOnce::start`]; dropping it gives its place back.
#[must_use = "the place is given back when this drops"]
pub struct Running {
    at_once: AtOnce,
    key: Key,
}

impl AtOnce {
    /// Counts one more for `key`, or answers `None` when `at_most` already run.
    pub fn start(&self, key: Key, at_most: u32) -> Option<Running> {
        let mut running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = running.entry(key.clone()).or_insert(0);
        if *count >= at_most {
            return None;
        }
        *count += 1;
        Some(Running {
            at_once: self.clone(),
            key,
        })
    }

    /// How many run for `key`.
    pub fn running(&self, key: &Key) -> u32 {
        let running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        running.get(key).copied().unwrap_or(0)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut running = self.at_once.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = running.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                running.remove(&self.key);
            }
        }
    }
}

/// The 429 of a throttled sign-in or reset request.
pub fn too_many(refused: Refused, code: ErrorCode, what: &str) -> ApiError {
    let wait = refused.retry_after_secs;
    ApiError::too_many_requests(
        code,
        format!("Too many {what}. Please try again in {wait} seconds."),
        wait,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[tokio::test]
    async fn failures_are_counted_per_account_and_network_and_renew_after_a_minute() {
        let t = Throttle::default();
        let start = Instant::now();
        let from_x = sign_in_keys(Some("ana@example.com"), ip("203.0.113.7"), 3, 100);
        for _ in 0..3 {
            let _ = t.take_at(&from_x, start).await.unwrap();
        }
        let refused = t.take_at(&from_x, start + Duration::from_secs(20)).await;
        assert_eq!(
            refused.err(),
            Some(Refused {
                retry_after_secs: 40
            }),
            "the fourth failure"
        );
        // The same account from another network, and another account from X, are untouched.
        let from_y = sign_in_keys(Some("ana@example.com"), ip("198.51.100.9"), 3, 100);
        let _ = t.take_at(&from_y, start).await.unwrap();
        let other = sign_in_keys(Some("bia@example.com"), ip("203.0.113.7"), 3, 100);
        let _ = t.take_at(&other, start).await.unwrap();
        let _ = t.take_at(&from_x, start + WINDOW).await.unwrap();
    }

    #[tokio::test]
    async fn attempts_given_back_do_not_count() {
        let t = Throttle::default();
        let keys = sign_in_keys(Some("ana@example.com"), ip("2001:db8::1"), 2, 2);
        for _ in 0..10 {
            let taken = t.take(&keys).await.unwrap();
            t.give_back(taken).await;
        }
        let _ = t.take(&keys).await.unwrap();
        let _ = t.take(&keys).await.unwrap();
        assert!(t.take(&keys).await.is_err());
    }

    #[tokio::test]
    async fn a_refused_attempt_takes_nothing_from_the_other_keys() {
        let t = Throttle::default();
        // The network's allowance is the smaller one here.
        let a = sign_in_keys(Some("a@example.com"), ip("203.0.113.7"), 5, 2);
        let b = sign_in_keys(Some("b@example.com"), ip("203.0.113.7"), 5, 2);
        let _ = t.take(&a).await.unwrap();
        let _ = t.take(&a).await.unwrap();
        assert!(t.take(&b).await.is_err());
        // The network refused b's attempt, so b's own key was given back: all of it is left.
        let net = vitrine_shared::proxies::client_network(ip("203.0.113.7"));
        let b_only = [(Key::AccountFrom("b@example.com".into(), net), 1)];
        let _ = t.take(&b_only).await.unwrap();
    }

    #[test]
    fn at_once_counts_per_key_and_gives_back_on_drop() {
        let at_once = AtOnce::default();
        let (a, b) = (Key::Imports("u1".into()), Key::Imports("u2".into()));
        let first = at_once.start(a.clone(), 2).unwrap();
        let second = at_once.start(a.clone(), 2).unwrap();
        assert!(
            at_once.start(a.clone(), 2).is_none(),
            "a third for the same key"
        );
        // Another key has its own places.
        let other = at_once.start(b.clone(), 2).unwrap();
        assert_eq!((at_once.running(&a), at_once.running(&b)), (2, 1));
        drop(first);
        let third = at_once.start(a.clone(), 2).unwrap();
        drop((second, third, other));
        assert_eq!((at_once.running(&a), at_once.running(&b)), (0, 0));
        assert!(
            at_once.0.lock().unwrap().is_empty(),
            "no key is kept at zero"
        );
    }
}
