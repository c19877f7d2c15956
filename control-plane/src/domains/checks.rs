//! The background job that checks pending custom domains again, so an owner who saved a
//! domain before its DNS records propagated never has to come back and retype it.
//!
//! Every control plane runs it; the store hands each due check to one node only
//! ([`vitrine_shared::Store::claim_due_domain_checks`], a conditional update as the mail
//! outbox uses), so several nodes share the work without checking a claim twice. A check that
//! proves the domain (TXT token and pointing, [`vitrine_shared::dns::Verification::verified`])
//! verifies it, which evicts every other pending claim on it; otherwise the next check comes
//! later: `VITRINE_DOMAIN_RECHECK_BASE_SECS` after the domain was saved, then twice as long
//! after each check, at most [`MAX_INTERVAL`] apart, and none after [`GIVE_UP_AFTER`] (the
//! owner's Verify starts them over).

use std::time::Duration;

use chrono::Utc;
use vitrine_shared::{
    Settings,
    dns::DnsCheck,
    domain::challenge_value,
    store::{DomainClaim, StoreError, backoff},
};

use crate::{
    base::Core,
    domains::report::{DnsReport, report},
};

/// The longest wait between two checks of one pending domain.
pub const MAX_INTERVAL: chrono::Duration = chrono::Duration::hours(6);
/// How long after it was saved a pending domain is still checked on its own.
pub const GIVE_UP_AFTER: chrono::Duration = chrono::Duration::days(30);
/// How long a node may take over one check before another may take it over.
const LEASE: chrono::Duration = chrono::Duration::minutes(2);
/// Checks taken per round.
const BATCH: i64 = 20;

/// The first background check of a domain saved now.
pub fn first_recheck(settings: &Settings) -> chrono::DateTime<Utc> {
    Utc::now() + base(settings)
}

fn base(settings: &Settings) -> chrono::Duration {
    chrono::Duration::seconds(settings.domain_recheck_base_secs.max(1) as i64)
}

/// Checks due pending domains every `DOMAIN_RECHECK_BASE_SECS` (at most every minute) until
/// `shutdown`.
pub async fn run(core: Core, shutdown: impl std::future::Future<Output = ()>) {
    tokio::pin!(shutdown);
    let every = Duration::from_secs(core.settings.domain_recheck_base_secs.clamp(1, 60));
    loop {
        if let Err(e) = check_due(&core).await {
            tracing::warn!(error = %e, "checking pending domains failed");
        }
        core.metrics.worker_round("domain_checks");
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = &mut shutdown => break,
        }
    }
}

/// One round: checks every pending domain that is due (in batches) and returns how many were
/// verified.
pub async fn check_due(core: &Core) -> anyhow::Result<usize> {
    let dns = DnsCheck::from_settings(&core.settings)?;
    let mut verified = 0;
    loop {
        let batch = core.store.claim_due_domain_checks(BATCH, LEASE).await?;
        let full = batch.len() as i64 == BATCH;
        for claim in batch {
            if check_one(core, &dns, &claim).await? {
                verified += 1;
            }
        }
        if !full {
            return Ok(verified);
        }
    }
}

/// Checks one claim; returns whether it verified the domain.
async fn check_one(core: &Core, dns: &DnsCheck, claim: &DomainClaim) -> anyhow::Result<bool> {
    let project = match core.store.project_by_id(claim.project_id).await {
        Ok(p) => p,
        // Deleted meanwhile: its claim went with it.
        Err(StoreError::NotFound) => return Ok(false),
        Err(e) => return Err(e.into()),
    };
    let token = challenge_value(&project.uuid);
    let outcome = dns.verify(&claim.domain, &token).await;
    if outcome.verified() {
        match core
            .store
            .verify_domain_claim(claim.project_id, &claim.domain)
            .await
        {
            Ok(true) => {
                tracing::info!(project = claim.project_id.get(), domain = %claim.domain, "pending domain verified");
                return Ok(true);
            }
            // The owner changed or removed it while it was checked.
            Ok(false) => return Ok(false),
            // Another project proved the name first: this claim waits on (it may yet win if
            // that project lets the name go) and says why.
            Err(StoreError::Conflict(_)) => {
                let next = next_check(&core.settings, claim);
                let text = DnsReport::in_use(&claim.domain).stored();
                core.store
                    .record_domain_check(claim.project_id, &claim.domain, &text, next)
                    .await?;
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        }
    }
    let (_, found) = report(dns, &claim.domain, &token, &outcome, false);
    core.store
        .record_domain_check(
            claim.project_id,
            &claim.domain,
            &found.stored(),
            next_check(&core.settings, claim),
        )
        .await?;
    Ok(false)
}

/// When to check `claim` next, after the check now: the base interval doubled per check so
/// far, at most [`MAX_INTERVAL`]; `None` once the claim is older than [`GIVE_UP_AFTER`].
fn next_check(settings: &Settings, claim: &DomainClaim) -> Option<chrono::DateTime<Utc>> {
    let now = Utc::now();
    if now - claim.created_at > GIVE_UP_AFTER {
        return None;
    }
    Some(now + backoff(claim.checks, base(settings), MAX_INTERVAL))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_shared::ids::ProjectId;

    fn claim(checks: i64, age: chrono::Duration) -> DomainClaim {
        DomainClaim {
            project_id: ProjectId(1),
            domain: "shop.example".into(),
            checks,
            last_result: None,
            checked_at: None,
            next_check_at: None,
            created_at: Utc::now() - age,
        }
    }

    #[test]
    fn checks_back_off_to_six_hours_and_stop_after_thirty_days() {
        let settings = Settings {
            domain_recheck_base_secs: 60,
            ..Settings::default()
        };
        let wait = |checks, age| {
            next_check(&settings, &claim(checks, age)).map(|t| (t - Utc::now()).num_seconds())
        };
        let hour = chrono::Duration::hours(1);
        // The owner's Verify was check 1: the job's first check is 2 min later, then 4, 8…
        for (checks, expected) in [(1, 120), (2, 240), (3, 480), (9, 6 * 3600), (40, 6 * 3600)] {
            let got = wait(checks, hour).unwrap();
            assert!((expected - 2..=expected).contains(&got), "{checks}: {got}");
        }
        assert_eq!(wait(3, chrono::Duration::days(31)), None);
    }
}
