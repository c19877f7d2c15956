//! Certificates by ACME (RFC 8555) with HTTP-01 challenges, through instant-acme: the
//! maintained async, pure-Rust ACME client on rustls (no OpenSSL), whose `rcgen` feature makes
//! the key and CSR for us.
//!
//! Every edge node may order, but the database decides who does
//! (`docs/design.md#custom-domains-and-certificates`):
//! - the **lease** is the `certificates` row ([`Store::claim_order`]), so one node orders a
//!   given name at a time, and a name in back-off or with a certificate outside its renewal
//!   window is never ordered;
//! - **HTTP-01 answers** are stored in `acme_challenges`, so whichever node the ACME server
//!   reaches on port 80 answers ([`crate::visit`] serves `/.well-known/acme-challenge/`);
//! - the **account** is stored once per directory and shared by every node;
//! - **caps** on orders per hour count `acme_orders`: across the platform, and per project and
//!   per account (the owner's business, else the owner), so one tenant ordering for many names
//!   never uses up the platform's share and starves the others' first certificates.
//!
//! Before each order of a custom domain (first issue and every renewal) the domain's DNS is
//! checked again: a domain that no longer points here fails with a clear error and backs off.
//! Failures back off exponentially (`ACME_BACKOFF_BASE_SECS`, doubled per consecutive failure,
//! at most a day), so an ACME server that is down is not hammered. The back-off belongs to the
//! host name and outlives its certificate row, so removing a domain and verifying it again does
//! not buy a fresh attempt.

use std::{
    collections::HashMap,
    path::PathBuf,
    sync::{Arc, Mutex},
    time::Duration,
};

use chrono::Utc;
use instant_acme::{
    Account, AccountCredentials, AuthorizationStatus, ChallengeType, Identifier, NewAccount,
    NewOrder, OrderStatus, RetryPolicy,
};
use tokio::sync::watch;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    Settings, Store,
    dns::{DnsCheck, Verdict},
    store::{Cap, OrderCaps},
};

use crate::metrics::Metrics;

/// The longest back-off after repeated failures.
const MAX_BACKOFF: chrono::Duration = chrono::Duration::days(1);
/// How long a node may hold an order's lease before others may take over.
const LEASE: chrono::Duration = chrono::Duration::minutes(10);

/// What one issuance attempt came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Issued,
    /// Another node holds the lease, the name is backing off, or its certificate is not due.
    NotNow,
    /// A cap on orders per hour is reached: the platform's, the project's or the account's.
    CapReached,
    Failed(String),
}

pub struct Acme {
    store: Store,
    directory_url: String,
    ca_bundle: Option<PathBuf>,
    contact: Option<String>,
    /// This node's lease-owner name.
    pub node: String,
    renew_before: chrono::Duration,
    backoff_base: chrono::Duration,
    /// Orders per hour: in total, per project, per account.
    caps: OrderCaps,
    dns: Option<DnsCheck>,
    platform_domain: String,
    account: tokio::sync::Mutex<Option<Arc<Account>>>,
    /// One running attempt per name on this node; waiters watch its outcome.
    inflight: Mutex<HashMap<String, watch::Receiver<Option<Outcome>>>>,
    metrics: Arc<Metrics>,
}

impl Acme {
    /// `None` when no ACME directory is configured.
    pub fn from_settings(
        settings: &Settings,
        store: Store,
        metrics: Arc<Metrics>,
    ) -> anyhow::Result<Option<Arc<Acme>>> {
        let Some(directory_url) = settings.acme_directory_url.clone() else {
            return Ok(None);
        };
        Ok(Some(Arc::new(Acme {
            store,
            directory_url,
            ca_bundle: settings.acme_ca_bundle.clone(),
            contact: settings.acme_contact.clone(),
            node: format!("edge-{}", uuid::Uuid::new_v4().simple()),
            renew_before: chrono::Duration::seconds(settings.acme_renew_before_secs as i64),
            backoff_base: chrono::Duration::seconds(settings.acme_backoff_base_secs.max(1) as i64),
            caps: OrderCaps {
                total: i64::from(settings.acme_orders_per_hour),
                project: i64::from(settings.acme_orders_per_project_per_hour),
                account: i64::from(settings.acme_orders_per_account_per_hour),
            },
            dns: Some(DnsCheck::from_settings(settings)?),
            platform_domain: settings.platform_domain(),
            account: tokio::sync::Mutex::new(None),
            inflight: Mutex::new(HashMap::new()),
            metrics,
        })))
    }

    /// The renewal window: a certificate expiring before this is due.
    pub fn renew_before(&self) -> chrono::DateTime<Utc> {
        Utc::now() + self.renew_before
    }

    /// Starts an attempt for `domain` unless one is already running on this node, and returns
    /// a receiver that turns `Some(outcome)` when it ends. `check_dns`: custom domains are
    /// re-checked; preview hosts under the platform domain are ours and are not.
    pub fn start(
        self: &Arc<Self>,
        domain: &str,
        project_id: Option<ProjectId>,
        check_dns: bool,
    ) -> watch::Receiver<Option<Outcome>> {
        let mut inflight = self.inflight.lock().expect("inflight lock");
        if let Some(rx) = inflight.get(domain) {
            return rx.clone();
        }
        let (tx, rx) = watch::channel(None);
        inflight.insert(domain.to_string(), rx.clone());
        let (me, domain) = (self.clone(), domain.to_string());
        tokio::spawn(async move {
            let outcome = me.issue(&domain, project_id, check_dns).await;
            me.inflight.lock().expect("inflight lock").remove(&domain);
            let _ = tx.send(Some(outcome));
        });
        rx
    }

    /// One attempt: caps, lease, DNS re-check, order, store. Never panics; every failure is
    /// recorded with its back-off.
    pub async fn issue(
        &self,
        domain: &str,
        project_id: Option<ProjectId>,
        check_dns: bool,
    ) -> Outcome {
        // A cheap look first, so a tenant at its cap does not even take leases; the
        // reservation below is what holds against a flood.
        let hour_ago = Utc::now() - chrono::Duration::hours(1);
        match self.store.acme_order_counts(hour_ago, project_id).await {
            Ok(counts) => {
                if let Some(cap) = self.caps.broken_by(&counts, project_id.is_some()) {
                    return self.cap_reached(domain, project_id, cap);
                }
            }
            Err(e) => return Outcome::Failed(format!("database: {e}")),
        }
        let lease_until = Utc::now() + LEASE;
        match self
            .store
            .claim_order(
                domain,
                project_id,
                &self.node,
                lease_until,
                self.renew_before(),
            )
            .await
        {
            Ok(true) => {}
            Ok(false) => return Outcome::NotNow,
            Err(e) => return Outcome::Failed(format!("database: {e}")),
        }
        let result = match self.dns_still_points(domain, check_dns).await {
            Ok(()) => {
                let hour_ago = Utc::now() - chrono::Duration::hours(1);
                match self
                    .store
                    .reserve_acme_order(domain, &self.node, project_id, hour_ago, self.caps)
                    .await
                {
                    Ok(None) => {}
                    Ok(Some(cap)) => {
                        let _ = self.store.release_order_lease(domain, &self.node).await;
                        return self.cap_reached(domain, project_id, cap);
                    }
                    Err(e) => {
                        let _ = self.store.release_order_lease(domain, &self.node).await;
                        return Outcome::Failed(format!("database: {e}"));
                    }
                }
                self.metrics.acme("ordered");
                self.order(domain).await
            }
            Err(e) => Err(e),
        };
        match result {
            Ok((chain, key, not_after)) => {
                match self
                    .store
                    .store_issued(domain, &self.node, &chain, &key, not_after)
                    .await
                {
                    Ok(()) => {
                        self.metrics.acme("issued");
                        tracing::info!(domain, %not_after, "certificate issued");
                        Outcome::Issued
                    }
                    Err(e) => Outcome::Failed(format!("storing the certificate: {e}")),
                }
            }
            Err(e) => {
                self.metrics.acme("failed");
                let message = e.to_string();
                let next = self
                    .store
                    .store_failure(domain, &self.node, &message, self.backoff_base, MAX_BACKOFF)
                    .await;
                tracing::warn!(domain, error = %message, next_attempt = ?next.ok(), "certificate order failed");
                Outcome::Failed(message)
            }
        }
    }

    /// Counts and logs an order a cap stopped.
    fn cap_reached(&self, domain: &str, project_id: Option<ProjectId>, cap: Cap) -> Outcome {
        let (label, value) = match cap {
            Cap::Platform => ("cap_reached", self.caps.total),
            Cap::Project => ("project_cap_reached", self.caps.project),
            Cap::Account => ("account_cap_reached", self.caps.account),
        };
        self.metrics.acme(label);
        tracing::warn!(
            domain,
            project_id = project_id.map(ProjectId::get),
            ?cap,
            value,
            "ACME order cap reached; not ordering"
        );
        Outcome::CapReached
    }

    async fn dns_still_points(&self, domain: &str, check: bool) -> anyhow::Result<()> {
        let (true, Some(dns)) = (check, &self.dns) else {
            return Ok(());
        };
        match dns.check(domain).await {
            Verdict::Points(_) => Ok(()),
            Verdict::Elsewhere(found) => anyhow::bail!(
                "DNS for {domain} no longer points at the platform (found: {})",
                found.join(", ")
            ),
            Verdict::NoRecords => anyhow::bail!("DNS for {domain} has no A, AAAA or CNAME record"),
            Verdict::Unreachable(e) => anyhow::bail!("DNS for {domain} could not be checked: {e}"),
        }
    }

    /// The shared account: from the database, or created once and stored (if two nodes create
    /// one at the same time, both end up with the one stored first).
    async fn account(&self) -> anyhow::Result<Arc<Account>> {
        let mut slot = self.account.lock().await;
        if let Some(a) = slot.as_ref() {
            return Ok(a.clone());
        }
        let builder = || match &self.ca_bundle {
            Some(path) => Account::builder_with_root(path),
            None => Account::builder(),
        };
        let account = match self.store.acme_account(&self.directory_url).await? {
            Some(stored) => {
                let creds: AccountCredentials = serde_json::from_str(&stored)?;
                builder()?.from_credentials(creds).await?
            }
            None => {
                let contact: Vec<String> =
                    self.contact.iter().map(|c| format!("mailto:{c}")).collect();
                let contact: Vec<&str> = contact.iter().map(String::as_str).collect();
                let (account, creds) = builder()?
                    .create(
                        &NewAccount {
                            contact: &contact,
                            terms_of_service_agreed: true,
                            only_return_existing: false,
                        },
                        self.directory_url.clone(),
                        None,
                    )
                    .await?;
                let ours = serde_json::to_string(&creds)?;
                let stored = self
                    .store
                    .save_acme_account(&self.directory_url, &ours)
                    .await?;
                if stored == ours {
                    account
                } else {
                    let creds: AccountCredentials = serde_json::from_str(&stored)?;
                    builder()?.from_credentials(creds).await?
                }
            }
        };
        let account = Arc::new(account);
        *slot = Some(account.clone());
        Ok(account)
    }

    /// Places the order and returns the chain PEM, the key PEM and the expiry.
    async fn order(&self, domain: &str) -> anyhow::Result<(String, String, chrono::DateTime<Utc>)> {
        let account = self.account().await?;
        let identifiers = [Identifier::Dns(domain.to_string())];
        let mut order = account.new_order(&NewOrder::new(&identifiers)).await?;
        let mut tokens = Vec::new();
        let result = async {
            let mut authorizations = order.authorizations();
            while let Some(authz) = authorizations.next().await {
                let mut authz = authz?;
                match authz.status {
                    AuthorizationStatus::Pending => {}
                    AuthorizationStatus::Valid => continue,
                    other => anyhow::bail!("authorization is {other:?}"),
                }
                let mut challenge = authz.challenge(ChallengeType::Http01).ok_or_else(|| {
                    anyhow::anyhow!("the ACME server offered no http-01 challenge")
                })?;
                let token = challenge.token.clone();
                let answer = challenge.key_authorization().as_str().to_string();
                self.store.put_challenge(&token, &answer, domain).await?;
                tokens.push(token);
                challenge.set_ready().await?;
            }
            let retries = RetryPolicy::default().timeout(Duration::from_secs(60));
            let status = order.poll_ready(&retries).await?;
            if status != OrderStatus::Ready {
                let detail = order
                    .state()
                    .error
                    .as_ref()
                    .map(|p| format!(": {}", p.detail.clone().unwrap_or_default()))
                    .unwrap_or_default();
                anyhow::bail!("the order is {status:?}{detail}");
            }
            let key = order.finalize().await?;
            let chain = order.poll_certificate(&retries).await?;
            let not_after = not_after(&chain)?;
            Ok((chain, key, not_after))
        }
        .await;
        for token in tokens {
            let _ = self.store.delete_challenge(&token).await;
        }
        result
    }

    /// Renews what is due, every `every`, until `stop`.
    pub async fn run_renewals(self: Arc<Self>, every: Duration, mut stop: watch::Receiver<bool>) {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
            let due = match self.store.renewals_due(self.renew_before(), 100).await {
                Ok(d) => d,
                Err(e) => {
                    tracing::debug!(error = %e, "renewal check failed");
                    continue;
                }
            };
            for d in due {
                let preview = self.is_preview(&d.domain);
                // Only verified domains are ever ordered, renewals included.
                if !preview
                    && !matches!(
                        self.store.verified_project_for_host(&d.domain).await,
                        Ok(Some(_))
                    )
                {
                    continue;
                }
                let mut rx = self.start(&d.domain, d.project_id, !preview);
                tokio::select! {
                    _ = rx.wait_for(Option::is_some) => {}
                    _ = stop.wait_for(|s| *s) => return,
                }
            }
        }
    }

    /// A preview host `{slug}.{platform domain}`.
    pub fn is_preview(&self, domain: &str) -> bool {
        matches!(
            crate::host::classify(domain, &self.platform_domain),
            crate::host::SiteHost::Slug(_)
        )
    }
}

/// The expiry of the first certificate of a PEM chain.
pub fn not_after(chain_pem: &str) -> anyhow::Result<chrono::DateTime<Utc>> {
    use rustls::pki_types::{CertificateDer, pem::PemObject};
    let first = CertificateDer::pem_slice_iter(chain_pem.as_bytes())
        .next()
        .ok_or_else(|| anyhow::anyhow!("the certificate chain is empty"))??;
    let (_, cert) = x509_parser::parse_x509_certificate(&first)
        .map_err(|e| anyhow::anyhow!("unreadable certificate: {e}"))?;
    chrono::DateTime::from_timestamp(cert.validity().not_after.timestamp(), 0)
        .ok_or_else(|| anyhow::anyhow!("certificate expiry out of range"))
}
