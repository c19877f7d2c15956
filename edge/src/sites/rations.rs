//! The render cache ([`Sites::rendered`]), and what one visitor and one page template may cost
//! the render workers beyond the fair queue
//! (`vitrine_shared::sandbox::queue`), which shares the workers between accounts:
//!
//! - **a visitor's uncached renders:** every distinct post slug is a new render key, so one
//!   client walking a tenant's 3,000 posts would cause 3,000 renders. A visitor (an IPv4
//!   address or an IPv6 /64, `client_network`) may cause `EDGE_RENDER_RATE_PER_MINUTE` renders
//!   a minute; more are answered 429 with `Retry-After`. Cached answers cost nothing and are
//!   never counted. The limiter is governor's keyed GCRA limiter, as the form limits use.
//! - **a template that keeps failing its budget:** after [`SHORT_CIRCUIT_AFTER`] budget
//!   failures of one collection page's template in one deploy, its other posts answer the
//!   site's 500 without rendering: the template is the same for every post, so they would
//!   fail the same way, each after spending a worker's whole CPU budget. A new deploy starts
//!   afresh.

use std::{
    net::IpAddr,
    num::NonZeroU32,
    sync::{
        Arc,
        atomic::{AtomicU32, AtomicU64, Ordering},
    },
};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ipnet::IpNet;
use moka::future::Cache;
use vitrine_shared::ids::DeployId;
use vitrine_shared::proxies::client_network;

use super::{RenderKey, Rendered, Sites, Unavailable};
use crate::metrics::CacheName;

/// Budget failures of one collection page's template in one deploy after which its other
/// posts are not rendered.
pub const SHORT_CIRCUIT_AFTER: u32 = 3;

/// How often (in checks) the visitor limiter forgets visitors whose budget is whole again.
const PRUNE_EVERY: u64 = 4096;

pub struct RenderRations {
    visitors: DefaultKeyedRateLimiter<IpNet>,
    checks: AtomicU64,
    /// Budget failures per (deploy, collection page).
    failures: Cache<(DeployId, String), Arc<AtomicU32>>,
}

impl RenderRations {
    pub fn new(per_visitor_per_minute: u32) -> RenderRations {
        RenderRations {
            visitors: RateLimiter::keyed(Quota::per_minute(
                NonZeroU32::new(per_visitor_per_minute.max(1)).expect("at least one"),
            )),
            checks: AtomicU64::new(0),
            failures: Cache::builder().max_capacity(10_000).build(),
        }
    }

    /// Takes one uncached render from `visitor`'s budget: `Err(seconds)` until it may cause
    /// another.
    pub fn visitor(&self, visitor: IpAddr) -> Result<(), u64> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1 {
            self.visitors.retain_recent();
        }
        self.visitors
            .check_key(&client_network(visitor))
            .map_err(|not_until| {
                use governor::clock::{Clock, DefaultClock};
                not_until
                    .wait_time_from(DefaultClock::default().now())
                    .as_secs()
                    .max(1)
            })
    }

    /// Notes a budget failure (measured by the worker) of `page`'s template in `deploy`.
    pub async fn budget_failed(&self, deploy: DeployId, page: &str) {
        self.failures
            .get_with((deploy, page.to_owned()), async { Arc::default() })
            .await
            .fetch_add(1, Ordering::Relaxed);
    }

    /// Whether `page`'s template in `deploy` failed its budget often enough not to be
    /// rendered again.
    pub async fn short_circuited(&self, deploy: DeployId, page: &str) -> bool {
        self.failures
            .get(&(deploy, page.to_owned()))
            .await
            .is_some_and(|n| n.load(Ordering::Relaxed) >= SHORT_CIRCUIT_AFTER)
    }
}

/// The render cache, with a visitor's share of its misses.
impl Sites {
    /// A cached render, or `make` run once (concurrent misses share it) and cached.
    pub async fn rendered<F>(&self, key: RenderKey, make: F) -> Result<Arc<Rendered>, Unavailable>
    where
        F: Future<Output = Result<Rendered, Unavailable>>,
    {
        self.rendered_for(key, None, make).await
    }

    /// [`Sites::rendered`] for a page a visitor asked for: a miss takes one render from
    /// `visitor`'s share first ([`RenderRations::visitor`]), or is [`Unavailable::Throttled`].
    pub async fn rendered_for<F>(
        &self,
        key: RenderKey,
        visitor: Option<std::net::IpAddr>,
        make: F,
    ) -> Result<Arc<Rendered>, Unavailable>
    where
        F: Future<Output = Result<Rendered, Unavailable>>,
    {
        if let Some(visitor) = visitor {
            if let Some(hit) = self.renders.get(&key).await {
                self.metrics.cache(CacheName::render, true);
                return Ok(hit);
            }
            if let Err(wait) = self.rations.visitor(visitor) {
                self.metrics.renders_refused("visitor_rate");
                return Err(Unavailable::Throttled(wait));
            }
        }
        let entry = self
            .renders
            .entry(key)
            .or_try_insert_with(async { make.await.map(Arc::new) })
            .await
            .map_err(|e| (*e).clone())?;
        self.metrics.cache(CacheName::render, !entry.is_fresh());
        Ok(entry.into_value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_visitor_gets_its_renders_a_minute_and_its_network_shares_them() {
        let r = RenderRations::new(3);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        for _ in 0..3 {
            assert!(r.visitor(ip("203.0.113.9")).is_ok());
        }
        let wait = r.visitor(ip("203.0.113.9")).unwrap_err();
        assert!((1..=20).contains(&wait), "{wait}");
        assert!(r.visitor(ip("203.0.113.10")).is_ok(), "another visitor");
        for _ in 0..3 {
            assert!(r.visitor(ip("2001:db8::1")).is_ok());
        }
        assert!(
            r.visitor(ip("2001:db8::ffff")).is_err(),
            "one /64 is one visitor"
        );
    }

    #[tokio::test]
    async fn a_page_is_short_circuited_after_its_budget_failures_in_its_deploy_only() {
        let r = RenderRations::new(60);
        for _ in 0..SHORT_CIRCUIT_AFTER - 1 {
            r.budget_failed(DeployId(7), "produtos").await;
        }
        assert!(!r.short_circuited(DeployId(7), "produtos").await);
        r.budget_failed(DeployId(7), "produtos").await;
        assert!(r.short_circuited(DeployId(7), "produtos").await);
        assert!(
            !r.short_circuited(DeployId(8), "produtos").await,
            "a new deploy starts afresh"
        );
        assert!(
            !r.short_circuited(DeployId(7), "blog").await,
            "another page"
        );
    }
}
