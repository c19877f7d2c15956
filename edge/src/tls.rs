//! HTTPS for visitors: rustls, TLS 1.2 and 1.3 only, ALPN h2 and http/1.1.
//!
//! The handshake is accepted lazily (tokio-rustls' `LazyConfigAcceptor`): the ClientHello is
//! read first, and the server name in it picks the configuration. That lets the lookup be
//! asynchronous, so a certificate is found, in order:
//! 1. in memory (a moka cache of ready `ServerConfig`s, bounded by `EDGE_CERT_CACHE_ENTRIES`);
//! 2. for a preview host, the wildcard certificate from `PREVIEW_CERT_FILE`, if configured;
//! 3. in the database (the `certificates` table), loaded on first handshake only, so start-up
//!    does not grow with the number of certificates stored;
//! 4. by on-demand issuance ([`crate::acme`]) when the name is a verified custom domain or its
//!    `www.` twin (or a preview host and `ACME_PREVIEW_HOSTS` is on); the handshake waits up to
//!    `ACME_ISSUE_WAIT_MS` for it.
//!
//! Anything else — no SNI, a malformed name, a name that is not ours — is refused by closing
//! the connection before a certificate is ever chosen. Refusals are remembered for a short
//! while so a flood of handshakes for unknown names costs one database lookup per name, not
//! one per handshake; other hosts are served as usual meanwhile.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use chrono::Utc;
use moka::future::Cache;
use rustls::{
    ServerConfig,
    crypto::CryptoProvider,
    pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject},
    server::{ProducesTickets, ServerSessionMemoryCache, StoresServerSessions},
    sign::{CertifiedKey, SingleCertAndKey},
};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{Settings, Store};

use crate::{
    acme::{Acme, Outcome},
    host,
    metrics::{CacheName, Metrics},
    spread::{self, Timed},
};

/// How long whether a name has a certificate is believed (spread by name, and reloaded ahead
/// of its end: [`spread::Timed`]).
const HTTPS_KNOWN_TTL: Duration = Duration::from_secs(10);
/// How long a refused name is remembered.
const REFUSED_TTL: Duration = Duration::from_secs(30);
/// How often a handshake waiting for issuance looks at the database.
const ISSUE_POLL: Duration = Duration::from_millis(200);

/// Why a handshake gets no certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NoSni,
    Malformed,
    Unknown,
    /// Ours, but no certificate could be had (yet): issuance failed, is backing off, or the
    /// wait ran out.
    NoCertificate,
}

impl Refusal {
    pub fn label(self) -> &'static str {
        match self {
            Refusal::NoSni => "no_sni",
            Refusal::Malformed => "malformed_sni",
            Refusal::Unknown => "unknown_name",
            Refusal::NoCertificate => "no_certificate",
        }
    }
}

/// The visitor listeners' TLS configuration for one certificate chain and key (PEM): TLS 1.3
/// and 1.2, ALPN h2 then http/1.1, the server's suite order, and resumption by session id
/// (`sessions`) and by ticket (`ticketer`). Public for the load bench's bare reference, which
/// must negotiate exactly what the edge does.
pub fn visitor_config(
    provider: &Arc<CryptoProvider>,
    chain_pem: &str,
    key_pem: &str,
    sessions: Arc<dyn StoresServerSessions>,
    ticketer: Arc<dyn ProducesTickets>,
) -> anyhow::Result<Arc<ServerConfig>> {
    let chain = CertificateDer::pem_slice_iter(chain_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("certificate chain: {e}"))?;
    anyhow::ensure!(!chain.is_empty(), "the certificate chain is empty");
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes())
        .map_err(|e| anyhow::anyhow!("private key: {e}"))?;
    let certified = CertifiedKey::from_der(chain, key, provider)?;
    let mut config = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    // The server's suite order (AEADs, strongest first), not whatever a client prefers.
    config.ignore_client_order = true;
    config.session_storage = sessions;
    config.ticketer = ticketer;
    Ok(Arc::new(config))
}

/// Whether a name has a usable certificate, and the certificate's project, so that a
/// project's change forgets its own names only.
struct HttpsKnown {
    has: bool,
    project: Option<ProjectId>,
}

/// The certificates this edge serves.
pub struct Certs {
    store: Store,
    platform_domain: String,
    provider: Arc<CryptoProvider>,
    sessions: Arc<dyn StoresServerSessions>,
    ticketer: Arc<dyn ProducesTickets>,
    /// Name → (project, configuration).
    configs: Cache<String, (Option<ProjectId>, Arc<ServerConfig>)>,
    refused: Cache<String, ()>,
    /// Name → has a usable certificate, for the HTTP → HTTPS redirect (short-lived, so plain
    /// HTTP requests do not each ask the database, and reloaded before its end, so they do
    /// not wait on it either).
    https_known: Cache<String, Arc<Timed<HttpsKnown>>>,
    /// Bumped before `https_known` is invalidated: a reload that saw it move is dropped.
    epoch: AtomicU64,
    preview: Option<Arc<ServerConfig>>,
    preview_on_demand: bool,
    acme: Option<Arc<Acme>>,
    issue_wait: Duration,
    metrics: Arc<Metrics>,
}

impl Certs {
    pub fn new(
        settings: &Settings,
        store: Store,
        acme: Option<Arc<Acme>>,
        metrics: Arc<Metrics>,
    ) -> anyhow::Result<Certs> {
        // ring: the provider the rest of the workspace already builds with (no C toolchain
        // beyond what ring needs, no cmake), with ECDSA P-256 and the AEAD suites testssl wants.
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut certs = Certs {
            store,
            platform_domain: settings.platform_domain(),
            provider,
            sessions: ServerSessionMemoryCache::new(20_000),
            ticketer: rustls::crypto::ring::Ticketer::new()?,
            configs: Cache::builder()
                .max_capacity(settings.edge_cert_cache_entries.max(1))
                .support_invalidation_closures()
                .build(),
            refused: Cache::builder()
                .max_capacity(100_000)
                .time_to_live(REFUSED_TTL)
                .build(),
            https_known: Cache::builder()
                .max_capacity(100_000)
                .expire_after(spread::UntilEnd)
                .support_invalidation_closures()
                .build(),
            epoch: AtomicU64::new(0),
            preview: None,
            preview_on_demand: settings.acme_preview_hosts,
            acme,
            issue_wait: Duration::from_millis(settings.acme_issue_wait_ms),
            metrics,
        };
        if let (Some(cert), Some(key)) = (&settings.preview_cert_file, &settings.preview_key_file) {
            let chain = std::fs::read_to_string(cert)
                .map_err(|e| anyhow::anyhow!("PREVIEW_CERT_FILE {}: {e}", cert.display()))?;
            let key = std::fs::read_to_string(key)
                .map_err(|e| anyhow::anyhow!("PREVIEW_KEY_FILE {}: {e}", key.display()))?;
            certs.preview = Some(certs.config(&chain, &key)?);
        }
        Ok(certs)
    }

    /// A server configuration serving one certificate chain and key (PEM).
    pub fn config(&self, chain_pem: &str, key_pem: &str) -> anyhow::Result<Arc<ServerConfig>> {
        visitor_config(
            &self.provider,
            chain_pem,
            key_pem,
            self.sessions.clone(),
            self.ticketer.clone(),
        )
    }

    /// Brings the certificates-held gauge up to date (moka counts lazily).
    pub async fn settle(&self) {
        self.configs.run_pending_tasks().await;
        self.metrics
            .certificates_held
            .set(self.configs.entry_count() as i64);
    }

    /// Certificates held in memory right now.
    pub fn cached(&self) -> u64 {
        self.configs.entry_count()
    }

    /// Forgets `name` (its certificate changed).
    pub async fn forget(&self, name: &str) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.configs.invalidate(name).await;
        self.refused.invalidate(name).await;
        self.https_known.invalidate(name).await;
    }

    /// Forgets every certificate of a project (its domain changed or was removed), and every
    /// refusal (a name refused a moment ago may be this project's new domain). What other
    /// projects' names have stays: a name that gains a certificate gets its own change.
    pub fn forget_project(&self, project: ProjectId) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        let configs = self
            .configs
            .invalidate_entries_if(move |_, (p, _)| *p == Some(project));
        let known = self
            .https_known
            .invalidate_entries_if(move |_, k| k.value.project == Some(project));
        if configs.and(known).is_err() {
            // Only possible if the caches were built without closure support: drop everything.
            self.configs.invalidate_all();
            self.https_known.invalidate_all();
        }
        self.refused.invalidate_all();
    }

    /// Whether `name` has a certificate (in memory or stored), for the HTTP → HTTPS redirect.
    pub async fn has_certificate(self: &Arc<Self>, name: &str) -> bool {
        if self.configs.contains_key(name) {
            return true;
        }
        if self.preview.is_some() && self.is_preview(name) {
            return true;
        }
        let known = self.https_known.get(name).await;
        self.metrics.cache(CacheName::https, known.is_some());
        if let Some(known) = known {
            if known.claim_reload() {
                let (certs, name) = (self.clone(), name.to_owned());
                tokio::spawn(async move {
                    if certs.load_has_certificate(&name).await.is_some() {
                        certs.metrics.reloaded(CacheName::https);
                    }
                });
            }
            return known.value.has;
        }
        // A database that does not answer: stay on HTTP this time, ask again next time.
        self.load_has_certificate(name).await.unwrap_or(false)
    }

    /// Asks the database whether `name` has a usable certificate and remembers the answer
    /// (`None`: the database did not answer).
    async fn load_has_certificate(&self, name: &str) -> Option<bool> {
        let epoch = self.epoch.load(Ordering::SeqCst);
        let known = match self.store.certificate(name).await.ok()? {
            Some(c) => HttpsKnown {
                has: c.cert_pem.is_some() && c.not_after.is_some_and(|t| t > Utc::now()),
                project: c.project_id,
            },
            None => HttpsKnown {
                has: false,
                project: None,
            },
        };
        let has = known.has;
        let entry = Timed::new(known, epoch, HTTPS_KNOWN_TTL, name);
        self.https_known
            .insert(name.to_owned(), entry.clone())
            .await;
        if entry.stale_under(self.epoch.load(Ordering::SeqCst)) {
            self.https_known.invalidate(name).await;
        }
        Some(has)
    }

    /// Applies a change-feed entry.
    pub async fn apply(&self, change: &vitrine_shared::store::Change) {
        match change.kind.as_str() {
            "certificate" => self.forget(&change.key).await,
            "project" | "deploy" => self.forget_project(change.project_id),
            _ => {}
        }
    }

    fn is_preview(&self, name: &str) -> bool {
        matches!(
            host::classify(name, &self.platform_domain),
            host::SiteHost::Slug(_)
        )
    }

    /// Counts a handshake that failed before a name could be looked up.
    pub fn handshake_failed(&self, label: &'static str) {
        self.metrics.tls_handshake(label);
    }

    /// The configuration for a ClientHello's server name.
    pub async fn config_for(&self, sni: Option<&str>) -> Result<Arc<ServerConfig>, Refusal> {
        let result = self.lookup(sni).await;
        match &result {
            Ok(_) => self.metrics.tls_handshake("ok"),
            Err(r) => self.metrics.tls_handshake(r.label()),
        }
        result
    }

    async fn lookup(&self, sni: Option<&str>) -> Result<Arc<ServerConfig>, Refusal> {
        let sni = sni.ok_or(Refusal::NoSni)?;
        let name = host::normalize(sni).map_err(|_| Refusal::Malformed)?;
        if host::is_ip_literal(&name) {
            return Err(Refusal::Malformed);
        }
        if let Some((_, config)) = self.configs.get(&name).await {
            return Ok(config);
        }
        if self.refused.contains_key(&name) {
            return Err(Refusal::Unknown);
        }
        let preview = self.is_preview(&name);
        if preview && let Some(config) = &self.preview {
            return Ok(config.clone());
        }
        // Stored?
        let stored = self.store.certificate(&name).await.map_err(|e| {
            tracing::warn!(name, error = %e, "certificate lookup failed");
            Refusal::NoCertificate
        })?;
        if let Some(config) = self.usable(&name, stored.as_ref()).await {
            return Ok(config);
        }
        // Ours, and may be ordered?
        let project = if preview {
            if !self.preview_on_demand {
                return self.refuse(name).await;
            }
            let host::SiteHost::Slug(slug) = host::classify(&name, &self.platform_domain) else {
                return self.refuse(name).await;
            };
            match self.store.site_by_slug(&slug).await {
                Ok(Some(site)) => Some(site.project_id),
                Ok(None) => return self.refuse(name).await,
                Err(_) => return Err(Refusal::NoCertificate),
            }
        } else {
            match self.store.verified_project_for_host(&name).await {
                Ok(Some(p)) => Some(p),
                Ok(None) => return self.refuse(name).await,
                Err(_) => return Err(Refusal::NoCertificate),
            }
        };
        let Some(acme) = &self.acme else {
            return Err(Refusal::NoCertificate);
        };
        self.wait_for_issuance(acme, &name, project, !preview).await
    }

    async fn refuse(&self, name: String) -> Result<Arc<ServerConfig>, Refusal> {
        self.refused.insert(name, ()).await;
        Err(Refusal::Unknown)
    }

    /// A stored certificate that is still valid, loaded into memory. One inside its renewal
    /// window is served while a renewal starts in the background.
    async fn usable(
        &self,
        name: &str,
        stored: Option<&vitrine_shared::store::StoredCert>,
    ) -> Option<Arc<ServerConfig>> {
        let c = stored?;
        let (Some(chain), Some(key), Some(not_after)) = (&c.cert_pem, &c.key_pem, c.not_after)
        else {
            return None;
        };
        if not_after <= Utc::now() {
            return None;
        }
        let config = match self.config(chain, key) {
            Ok(c) => c,
            Err(e) => {
                tracing::error!(name, error = %e, "stored certificate unusable");
                return None;
            }
        };
        self.configs
            .insert(name.to_string(), (c.project_id, config.clone()))
            .await;
        self.metrics
            .certificates_held
            .set(self.configs.entry_count() as i64);
        if let Some(acme) = &self.acme
            && not_after < acme.renew_before()
        {
            acme.start(name, c.project_id, !self.is_preview(name));
        }
        Some(config)
    }

    async fn wait_for_issuance(
        &self,
        acme: &Arc<Acme>,
        name: &str,
        project: Option<ProjectId>,
        check_dns: bool,
    ) -> Result<Arc<ServerConfig>, Refusal> {
        let mut done = acme.start(name, project, check_dns);
        let deadline = tokio::time::Instant::now() + self.issue_wait;
        let mut finished: Option<Outcome> = None;
        loop {
            if finished.is_none() {
                tokio::select! {
                    r = done.wait_for(Option::is_some) => {
                        finished = Some(r.ok().and_then(|o| o.clone()).unwrap_or_else(|| {
                            Outcome::Failed("the issuance task ended without an outcome".into())
                        }));
                    }
                    _ = tokio::time::sleep(ISSUE_POLL) => {}
                    _ = tokio::time::sleep_until(deadline) => {}
                }
            } else {
                tokio::select! {
                    _ = tokio::time::sleep(ISSUE_POLL) => {}
                    _ = tokio::time::sleep_until(deadline) => {}
                }
            }
            if let Ok(stored) = self.store.certificate(name).await
                && let Some(config) = self.usable(name, stored.as_ref()).await
            {
                return Ok(config);
            }
            // Only another node's order is worth waiting for once ours has ended.
            let waiting_on_other_node = matches!(finished, None | Some(Outcome::NotNow));
            if !waiting_on_other_node || tokio::time::Instant::now() >= deadline {
                return Err(Refusal::NoCertificate);
            }
            if matches!(finished, Some(Outcome::NotNow))
                && let Ok(Some(c)) = self.store.certificate(name).await
                && c.next_attempt_at.is_some_and(|t| t > Utc::now())
            {
                // Backing off: nobody is ordering.
                return Err(Refusal::NoCertificate);
            }
        }
    }
}
