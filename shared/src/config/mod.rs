//! Layered, typed configuration: built-in defaults, then an optional TOML file, then
//! `VITRINE_<NAME>` environment variables. Both binaries load the same [`Settings`].
//!
//! figment does the layering (it is the maintained library made for exactly this merge of
//! defaults, files and environment, with error messages that name the offending key).
//! Loading has no side effects: nothing is created on disk here.
//!
//! The settings' `--help` text, which documents every field, is in [`help`].

mod help;

use std::{net::SocketAddr, path::PathBuf};

use figment::{
    Figment,
    providers::{Env, Format, Serialized, Toml},
};
use serde::{Deserialize, Serialize};

use crate::{proxies::TrustedProxies, secret::Secret};

pub use help::{SETTINGS_HELP, settings_help};

/// Every setting of both binaries. Each field is documented in [`SETTINGS_HELP`], which
/// `--help` prints; a unit test keeps the two in step.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub database_url: Option<Secret>,
    pub data_dir: PathBuf,
    pub object_store_url: Option<String>,
    pub control_listen: String,
    pub edge_http_listen: String,
    pub edge_https_listen: String,
    pub edge_admin_listen: String,
    pub platform_domain: String,
    pub public_url: String,
    pub public_ip: String,
    pub cname_target: Option<String>,
    pub preview_url_template: Option<String>,
    pub smtp_url: Option<Secret>,
    pub mail_from: String,
    pub acme_directory_url: Option<String>,
    pub acme_ca_bundle: Option<PathBuf>,
    pub dns_nameservers: Option<String>,
    pub acme_contact: Option<String>,
    pub acme_preview_hosts: bool,
    pub acme_renew_before_secs: u64,
    pub acme_renew_check_secs: u64,
    pub acme_backoff_base_secs: u64,
    pub acme_orders_per_hour: u32,
    pub acme_orders_per_project_per_hour: u32,
    pub acme_orders_per_account_per_hour: u32,
    pub acme_issue_wait_ms: u64,
    pub domain_recheck_base_secs: u64,
    pub slug_cooling_off_days: u32,
    pub preview_cert_file: Option<PathBuf>,
    pub preview_key_file: Option<PathBuf>,
    pub edge_cert_cache_entries: u64,
    pub fonts_url: String,
    pub fetch_allow_private: bool,
    pub chromium_path: Option<PathBuf>,
    /// `uid:gid` Chromium runs as when the control plane runs as root (it refuses its sandbox
    /// as root).
    pub chromium_user: String,
    /// Picture each published site's home page after a publish, for the project cards.
    pub site_screenshots: bool,
    /// Site pictures one account (a user, or a whole business) may have taken in an hour.
    pub site_screenshots_per_account_per_hour: u32,
    /// Memory of each Chromium, all its processes together (its cgroup's bound).
    pub chromium_memory_mb: u64,
    /// Picture the library's blocks and templates in the background (start-up, block saves).
    pub library_thumbnails: bool,
    /// The binary render workers run (`{binary} __render-worker`); unset: the running binary.
    pub render_worker: Option<PathBuf>,
    /// Renders in flight at once per process; 0: one per core.
    pub render_workers: usize,
    /// Workers one account may hold at once; 0: half the workers, at least one.
    pub render_workers_per_account: usize,
    pub render_memory_mb: u64,
    pub render_cpu_ms: u64,
    /// Wall-clock limit of a render from its worker's start.
    pub render_deadline_ms: u64,
    /// Longest wait for a free worker (a publish's: `sandbox::PUBLISH_WAIT`).
    pub render_queue_ms: u64,
    /// Editor canvas and preview renders per account a minute.
    pub canvas_renders_per_minute: u32,
    /// Outbound fetches of API-fed lists per account a minute.
    pub fetches_per_account_per_minute: u32,
    pub stripe_public_key: Option<String>,
    pub stripe_secret_key: Option<Secret>,
    pub stripe_api_url: String,
    pub stripe_js_url: String,
    pub conversion_api_url: String,
    pub dashboard_dir: PathBuf,
    pub upload_max_bytes: u64,
    /// Bytes of uploads one account (a business counts as one) may keep.
    pub storage_quota_bytes: u64,
    /// Uploaded files one account may keep.
    pub storage_quota_objects: u64,
    /// Uploads one account may make a minute, per control plane.
    pub uploads_per_minute: u32,
    /// How long an upload nothing references is kept before the collector deletes it.
    pub upload_grace_secs: u64,
    /// How often the collector of unreferenced uploads runs.
    pub upload_collect_interval_secs: u64,
    /// Records (posts of every collection) one account may keep.
    pub records_per_account: u64,
    pub import_max_bytes: u64,
    pub json_body_max_bytes: u64,
    pub session_ttl_hours: u64,
    pub reset_token_ttl_secs: u64,
    pub login_attempts_per_minute: u32,
    pub login_failures_per_network_per_minute: u32,
    pub control_trusted_proxies: String,
    pub demo_email: Option<String>,
    pub demo_password: Option<Secret>,
    pub admin_email: String,
    pub admin_password: Option<Secret>,
    pub log_format: String,
    pub edge_spool_dir: Option<PathBuf>,
    pub edge_file_cache_bytes: u64,
    pub edge_manifest_cache_bytes: u64,
    pub edge_site_cache_entries: u64,
    pub edge_site_ttl_ms: u64,
    pub edge_render_cache_entries: u64,
    pub edge_header_timeout_ms: u64,
    pub edge_max_header_bytes: usize,
    pub edge_idle_timeout_ms: u64,
    pub edge_write_timeout_ms: u64,
    /// Threads serving visitors, each with its own runtime and listening socket; 0: one per core.
    pub edge_workers: usize,
    /// Bytes of static answers each visitor thread keeps in its hot routes.
    pub edge_hot_cache_bytes: u64,
    /// Whether the visitor listeners' own HTTP/1.1 front answers `GET`/`HEAD` before hyper
    /// (plain and TLS); off, hyper serves every connection.
    pub edge_plain_front: bool,
    /// Uncached page renders one visitor may cause a minute at an edge.
    pub edge_render_rate_per_minute: u32,
    pub edge_form_rate_per_minute: u32,
    /// Form submissions one site takes per minute, from all its visitors together.
    pub edge_form_site_rate_per_minute: u32,
    /// Bytes the form spool (and, apart, its dead-letter file) may hold on disk.
    pub edge_spool_max_bytes: u64,
    /// Form history entries kept per project; older ones are trimmed.
    pub form_history_max_entries: u64,
    /// Form notifications one recipient is sent per hour at most, over every project.
    pub form_notifications_per_recipient_per_hour: u64,
    /// Statement time limit of one list query at the edge (read API, live lists).
    pub edge_query_timeout_ms: u64,
    pub edge_trusted_proxies: String,
    pub edge_change_poll_ms: u64,
    /// This edge node's name in the fleet (heartbeats); empty: `{hostname}:{http port}`.
    pub edge_node_id: String,
    pub edge_region: String,
    pub edge_heartbeat_secs: u64,
    /// The control plane's admin listener (`/metrics`, `/healthz`); empty: none.
    pub control_admin_listen: String,
    /// Visitor analytics (`docs/analytics.md`): the fleet's key (unset: the database's), the
    /// edges' flush interval, and the visitors kept exactly per site and day.
    pub analytics_secret: Option<Secret>,
    pub analytics_flush_ms: u64,
    pub analytics_exact_visitors: u64,
    /// The most memory an edge's unflushed visitor counts are reckoned to take.
    pub analytics_memory_mb: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            database_url: None,
            data_dir: PathBuf::from("data"),
            object_store_url: None,
            control_listen: "127.0.0.1:8000".into(),
            edge_http_listen: "127.0.0.1:8080".into(),
            edge_https_listen: "127.0.0.1:8443".into(),
            edge_admin_listen: "127.0.0.1:9090".into(),
            platform_domain: "localhost".into(),
            public_url: "http://localhost:8000".into(),
            public_ip: "127.0.0.1".into(),
            cname_target: None,
            preview_url_template: None,
            smtp_url: None,
            mail_from: "Vitrine <no-reply@localhost>".into(),
            acme_directory_url: None,
            acme_ca_bundle: None,
            dns_nameservers: None,
            acme_contact: None,
            acme_preview_hosts: false,
            acme_renew_before_secs: 30 * 24 * 3600,
            acme_renew_check_secs: 3600,
            acme_backoff_base_secs: 60,
            acme_orders_per_hour: 100,
            acme_orders_per_project_per_hour: 10,
            acme_orders_per_account_per_hour: 30,
            acme_issue_wait_ms: 30_000,
            domain_recheck_base_secs: 60,
            slug_cooling_off_days: 30,
            preview_cert_file: None,
            preview_key_file: None,
            edge_cert_cache_entries: 10_000,
            fonts_url: "https://cdn.jsdelivr.net/fontsource/fonts".into(),
            fetch_allow_private: false,
            chromium_path: None,
            chromium_user: "65534:65534".into(),
            site_screenshots: true,
            site_screenshots_per_account_per_hour: 20,
            chromium_memory_mb: 512,
            library_thumbnails: true,
            render_worker: None,
            render_workers: 0,
            render_workers_per_account: 0,
            render_memory_mb: 64,
            render_cpu_ms: 100,
            render_deadline_ms: 5_000,
            render_queue_ms: 2_000,
            canvas_renders_per_minute: 120,
            fetches_per_account_per_minute: 60,
            stripe_public_key: None,
            stripe_secret_key: None,
            stripe_api_url: "https://api.stripe.com".into(),
            stripe_js_url: "https://js.stripe.com/v3/".into(),
            conversion_api_url: "https://graph.facebook.com/v21.0".into(),
            dashboard_dir: PathBuf::from("dashboard/dist"),
            upload_max_bytes: 10 * 1024 * 1024,
            storage_quota_bytes: 1024 * 1024 * 1024,
            storage_quota_objects: 10_000,
            uploads_per_minute: 60,
            upload_grace_secs: 24 * 3600,
            upload_collect_interval_secs: 3600,
            records_per_account: 100_000,
            import_max_bytes: 32 * 1024 * 1024,
            json_body_max_bytes: 4 * 1024 * 1024,
            session_ttl_hours: 24 * 30,
            reset_token_ttl_secs: 3600,
            login_attempts_per_minute: 10,
            login_failures_per_network_per_minute: 50,
            control_trusted_proxies: String::new(),
            demo_email: None,
            demo_password: None,
            admin_email: "admin@vitrine.local".into(),
            admin_password: None,
            log_format: "pretty".into(),
            edge_spool_dir: None,
            edge_file_cache_bytes: 128 * 1024 * 1024,
            edge_manifest_cache_bytes: 16 * 1024 * 1024,
            edge_site_cache_entries: 100_000,
            edge_site_ttl_ms: 10_000,
            edge_render_cache_entries: 50_000,
            edge_header_timeout_ms: 10_000,
            edge_max_header_bytes: 32 * 1024,
            edge_idle_timeout_ms: 60_000,
            edge_write_timeout_ms: 30_000,
            edge_workers: 0,
            edge_hot_cache_bytes: 24 * 1024 * 1024,
            edge_plain_front: true,
            edge_render_rate_per_minute: 60,
            edge_form_rate_per_minute: 10,
            edge_form_site_rate_per_minute: 120,
            edge_spool_max_bytes: 64 * 1024 * 1024,
            form_history_max_entries: 10_000,
            form_notifications_per_recipient_per_hour: 30,
            edge_query_timeout_ms: 1000,
            edge_trusted_proxies: String::new(),
            edge_change_poll_ms: 250,
            edge_node_id: String::new(),
            edge_region: "local".into(),
            edge_heartbeat_secs: 5,
            control_admin_listen: "127.0.0.1:9091".into(),
            analytics_secret: None,
            analytics_flush_ms: 60_000,
            analytics_exact_visitors: 10_000,
            analytics_memory_mb: 16,
        }
    }
}

/// Why configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration: {0}")]
    Load(#[from] Box<figment::Error>),
    #[error("configuration: {key}: {message}")]
    Invalid { key: &'static str, message: String },
}

impl Settings {
    /// Defaults, then `file` (if given and present), then `VITRINE_*` variables.
    pub fn load(file: Option<&std::path::Path>) -> Result<Self, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Settings::default()));
        if let Some(path) = file {
            figment = figment.merge(Toml::file_exact(path));
        }
        let settings: Settings = figment
            .merge(Env::prefixed("VITRINE_").ignore(&["config"]))
            .extract()
            .map_err(Box::new)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Checks what serde cannot: addresses parse, URLs have the right scheme.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (key, value) in [
            ("CONTROL_LISTEN", &self.control_listen),
            ("EDGE_HTTP_LISTEN", &self.edge_http_listen),
            ("EDGE_HTTPS_LISTEN", &self.edge_https_listen),
            ("EDGE_ADMIN_LISTEN", &self.edge_admin_listen),
        ] {
            value
                .parse::<SocketAddr>()
                .map_err(|e| ConfigError::Invalid {
                    key,
                    message: format!("{value:?}: {e}"),
                })?;
        }
        let db = self.database_url();
        if !(db.starts_with("sqlite:")
            || db.starts_with("postgres:")
            || db.starts_with("postgresql:"))
        {
            return Err(ConfigError::Invalid {
                key: "DATABASE_URL",
                message: "must start with sqlite: or postgres:".into(),
            });
        }
        url::Url::parse(&self.public_url).map_err(|e| ConfigError::Invalid {
            key: "PUBLIC_URL",
            message: e.to_string(),
        })?;
        match url::Url::parse(&self.fonts_url) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => {}
            Ok(_) => {
                return Err(ConfigError::Invalid {
                    key: "FONTS_URL",
                    message: "must be an http(s) URL".into(),
                });
            }
            Err(e) => {
                return Err(ConfigError::Invalid {
                    key: "FONTS_URL",
                    message: e.to_string(),
                });
            }
        }
        if self.platform_domain.trim().is_empty() {
            return Err(ConfigError::Invalid {
                key: "PLATFORM_DOMAIN",
                message: "must not be empty".into(),
            });
        }
        if !matches!(self.log_format.as_str(), "pretty" | "json") {
            return Err(ConfigError::Invalid {
                key: "LOG_FORMAT",
                message: "pretty or json".into(),
            });
        }
        self.trusted_proxies()?;
        self.control_trusted_proxies()?;
        if self.edge_max_header_bytes < 8192 {
            return Err(ConfigError::Invalid {
                key: "EDGE_MAX_HEADER_BYTES",
                message: "at least 8192".into(),
            });
        }
        Ok(())
    }

    /// The parsed `EDGE_TRUSTED_PROXIES` (checked by [`Settings::validate`]; an entry that
    /// does not parse is an error here too, never silently dropped).
    pub fn trusted_proxies(&self) -> Result<TrustedProxies, ConfigError> {
        TrustedProxies::parse(&self.edge_trusted_proxies).map_err(|message| ConfigError::Invalid {
            key: "EDGE_TRUSTED_PROXIES",
            message,
        })
    }

    /// The parsed `CONTROL_TRUSTED_PROXIES` (checked by [`Settings::validate`]).
    pub fn control_trusted_proxies(&self) -> Result<TrustedProxies, ConfigError> {
        TrustedProxies::parse(&self.control_trusted_proxies).map_err(|message| {
            ConfigError::Invalid {
                key: "CONTROL_TRUSTED_PROXIES",
                message,
            }
        })
    }

    /// How many visitor threads the edge runs (EDGE_WORKERS, else one per core).
    pub fn edge_workers(&self) -> usize {
        match self.edge_workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// Where the edge spools form submissions (EDGE_SPOOL_DIR, else DATA_DIR/spool).
    pub fn edge_spool_dir(&self) -> PathBuf {
        self.edge_spool_dir
            .clone()
            .unwrap_or_else(|| self.data_dir.join("spool"))
    }

    /// The database URL, defaulting to a SQLite file inside the data directory.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) if !url.is_empty() => url.expose().to_string(),
            _ => format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("vitrine.db").display()
            ),
        }
    }

    /// The platform domain, lower-cased and without a trailing dot.
    pub fn platform_domain(&self) -> String {
        self.platform_domain
            .trim()
            .trim_end_matches('.')
            .to_ascii_lowercase()
    }

    pub fn cname_target(&self) -> String {
        self.cname_target
            .clone()
            .unwrap_or_else(|| format!("sites.{}", self.platform_domain()))
    }

    /// The preview address of a project slug as shown to its owner.
    pub fn preview_url(&self, slug: &str) -> String {
        match &self.preview_url_template {
            Some(template) => template.replace("{slug}", slug),
            None => {
                let port = self
                    .edge_http_listen
                    .parse::<SocketAddr>()
                    .map(|a| a.port())
                    .unwrap_or(80);
                let port = if port == 80 {
                    String::new()
                } else {
                    format!(":{port}")
                };
                format!("http://{slug}.{}{port}", self.platform_domain())
            }
        }
    }

    /// Whether browsers keep the dashboard's session cookie at `PUBLIC_URL`. The cookie is
    /// `__Host-` and so always `Secure`, which browsers accept over HTTPS and from loopback
    /// hosts only (`localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`): a plain-http dashboard
    /// on any other name cannot be signed in to.
    pub fn public_url_keeps_secure_cookies(&self) -> bool {
        let Ok(url) = url::Url::parse(&self.public_url) else {
            return false;
        };
        if url.scheme() == "https" {
            return true;
        }
        match url.host() {
            Some(url::Host::Domain(d)) => {
                let d = d.trim_end_matches('.').to_ascii_lowercase();
                d == "localhost" || d.ends_with(".localhost")
            }
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        }
    }

    /// Nameservers for domain verification, parsed from the comma-separated setting.
    pub fn dns_nameservers(&self) -> Vec<String> {
        self.dns_nameservers
            .as_deref()
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }
}

#[cfg(test)]
// figment::Jail fixes its closures' error type (figment::Error, which is large); not ours to shrink.
#[allow(clippy::result_large_err)]
mod tests;
