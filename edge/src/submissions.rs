//! Form submissions posted to `/_forms` on a published site's own host.
//!
//! A submission is checked (body size, honeypot, a per-visitor and a per-site rate limit),
//! cleaned (NUL and every other control character removed from names and values; values keep
//! their tabs and line breaks), turned into sanitised HTML, and stored in the form history
//! together with its notification e-mail in one transaction (the control plane's outbox worker
//! sends it). The recipient is the one the owner published in the deploy's form settings, never
//! anything the visitor sends, and the store queues the mail only for the owner's own address
//! or one whose mailbox confirmed it, so the endpoint is no open relay. The project's history
//! is kept to `FORM_HISTORY_MAX_ENTRIES` by trimming its oldest entries.
//!
//! **No submission is lost to an outage:** when the database cannot be reached (or does not
//! answer within [`DB_WAIT`]) the submission is appended to a local spool file and `fsync`ed
//! before the visitor gets an answer, and a background task replays the spool once the database
//! is back. Until then later submissions go straight to the spool, so an outage costs one
//! visitor a wait, not every visitor. Each submission carries a unique id and the store ignores
//! a second insert of the same id, so a replay that is cut short and repeated never duplicates.
//!
//! **One site's bad input never stops the others' forms.** Only an outage (connection, pool,
//! I/O, a timeout: [`vitrine_shared::store::Failure`]) sends submissions to the spool. A
//! submission the database refuses for any other reason is answered 422, written to the
//! dead-letter file beside the spool (for an operator), logged and counted; the edge stays in
//! its normal mode. The replay never stops at a bad line either: a line that cannot be read or
//! that the database refuses moves to the dead-letter file and the lines behind it go on. Both
//! files are capped (`EDGE_SPOOL_MAX_BYTES` each); with a full spool visitors get 503.
//!
//! The rate limiters are governor's keyed GCRA limiters (the maintained Rust rate-limiting
//! library); an IPv6 visitor is keyed by its /64, the block one subscriber gets, so a host that
//! can pick any address of its network cannot step around its budget. Form bodies are parsed
//! with `url::form_urlencoded` and `serde_json`, and the stored HTML is passed through ammonia's
//! allow-list sanitiser as a second line of defence after escaping.

use std::{
    collections::HashMap,
    hash::Hash,
    net::IpAddr,
    num::NonZeroU32,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::Mutex;
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{
    Settings,
    manifest::FormSettings,
    store::{Failure, NewSubmission, Notification, Store, StoreError, now},
};

use crate::metrics::Metrics;

mod fields;
mod spool;

pub use fields::{clean_name, clean_value, parse_fields};
pub use spool::Spooled;

use fields::{Lead, as_html, as_text, lead_event, mail_html, one_line};
use spool::{Capped, cleaned};

/// Largest form body accepted.
pub const MAX_FORM_BYTES: usize = 64 * 1024;
/// Fields the visitor fills; more than this is refused.
pub const MAX_FIELDS: usize = 100;
/// The honeypot: a field hidden from people that only bots fill in.
pub const HONEYPOT: &str = "_gotcha";
/// The spool's file name in `EDGE_SPOOL_DIR`.
pub const SPOOL_FILE: &str = "forms.jsonl";
/// The dead-letter file's name in `EDGE_SPOOL_DIR`: one JSON object per refused submission
/// (`failed_at`, `error`, and the spool `line` as it was).
pub const DEAD_LETTER_FILE: &str = "forms.dead.jsonl";
/// How often a spool line may fail like an outage while the lines after it go in before it is
/// dead-lettered anyway, so that no line can hold up the spool for ever.
const STRIKES: u32 = 3;

/// What became of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Stored in the database.
    Stored,
    /// The database was unreachable; kept in the spool for replay.
    Spooled,
    /// The honeypot was filled: answered like a success, nothing kept.
    Ignored,
}

/// Why a submission was refused (answered 4xx or 503 with this text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("O formulário é grande demais (no máximo 64 KB).")]
    TooLarge,
    #[error("Muitos envios deste endereço. Tente de novo em {0} segundos.")]
    RateLimited(u64),
    /// The site's own budget for all its visitors is spent.
    #[error("Este site recebeu envios demais agora. Tente de novo em {0} segundos.")]
    SiteRateLimited(u64),
    #[error("Formato de formulário não suportado: {0}")]
    Unsupported(String),
    #[error("O formulário está vazio ou malformado.")]
    Malformed,
    #[error("O formulário tem campos demais.")]
    TooManyFields,
    /// The database refused this submission (not an outage): kept in the dead-letter file.
    #[error("O envio foi recusado. Confira os campos e tente de novo.")]
    Rejected,
    /// The database is down and the spool has reached `EDGE_SPOOL_MAX_BYTES` (answered 503).
    #[error("O envio não pôde ser registrado agora. Tente de novo mais tarde.")]
    SpoolFull,
    /// Neither the database nor the local spool could take the submission (answered 503).
    #[error("O envio não pôde ser registrado agora. Tente de novo em instantes.")]
    Unavailable,
}

impl Refused {
    /// The stable code of the JSON answer (and the metric's `reason` label).
    pub fn code(&self) -> &'static str {
        match self {
            Refused::TooLarge => "too_large",
            Refused::RateLimited(_) => "rate_limited",
            Refused::SiteRateLimited(_) => "site_rate_limited",
            Refused::Unsupported(_) => "unsupported_media_type",
            Refused::Malformed | Refused::TooManyFields => "invalid_form",
            Refused::Rejected => "rejected",
            Refused::SpoolFull => "spool_full",
            Refused::Unavailable => "unavailable",
        }
    }
}

/// The limits that keep one site's forms from costing the others (see [`Settings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormLimits {
    /// `EDGE_FORM_RATE_PER_MINUTE`: per visitor (an IPv6 visitor is its /64).
    pub per_visitor_per_minute: u32,
    /// `EDGE_FORM_SITE_RATE_PER_MINUTE`: per site, all its visitors together.
    pub per_site_per_minute: u32,
    /// `EDGE_SPOOL_MAX_BYTES`: the spool's size on disk, and the dead-letter file's.
    pub spool_max_bytes: u64,
    /// `FORM_HISTORY_MAX_ENTRIES`: entries kept per project.
    pub history_max_entries: i64,
    /// `FORM_NOTIFICATIONS_PER_RECIPIENT_PER_HOUR`: notifications one address is sent per
    /// hour, over every project.
    pub notifications_per_recipient_per_hour: i64,
}

impl FormLimits {
    pub fn from_settings(s: &Settings) -> FormLimits {
        FormLimits {
            per_visitor_per_minute: s.edge_form_rate_per_minute,
            per_site_per_minute: s.edge_form_site_rate_per_minute,
            spool_max_bytes: s.edge_spool_max_bytes,
            history_max_entries: i64::try_from(s.form_history_max_entries).unwrap_or(i64::MAX),
            notifications_per_recipient_per_hour: i64::try_from(
                s.form_notifications_per_recipient_per_hour,
            )
            .unwrap_or(i64::MAX),
        }
    }
}

impl Default for FormLimits {
    fn default() -> Self {
        FormLimits::from_settings(&Settings::default())
    }
}

/// A submission as the visitor sent it, before it is stored.
#[derive(Debug, Clone)]
pub struct Incoming<'a> {
    pub project_id: ProjectId,
    pub settings: &'a FormSettings,
    /// The page the form was on (same-site path).
    pub page_url: String,
    pub content_type: Option<&'a str>,
    pub body: Bytes,
    /// The visitor's address: the TCP peer, or from `X-Forwarded-For` when the peer is a
    /// trusted proxy (see `vitrine_shared::proxies`). The rate limit is keyed on it.
    pub client: IpAddr,
    /// The site's host name and the visitor's `User-Agent`: the conversion event's source.
    pub host: &'a str,
    pub user_agent: Option<&'a str>,
}

pub struct Forms {
    store: Store,
    limits: FormLimits,
    metrics: Arc<Metrics>,
    /// Per visitor: an IPv4 address, or an IPv6 /64 (`client_network`).
    visitors: DefaultKeyedRateLimiter<ipnet::IpNet>,
    sites: DefaultKeyedRateLimiter<ProjectId>,
    spool: Mutex<Capped>,
    dead: Mutex<Capped>,
    /// Held by the one replay running; its map counts the strikes of spool lines (by uid)
    /// that failed like an outage while the database answered.
    replaying: Mutex<HashMap<String, u32>>,
    /// Set when a write to the database failed like an outage or took longer than
    /// [`DB_WAIT`], cleared when a replay reaches the database: while set, submissions go
    /// straight to the spool, so during an outage only the first visitor waits (the replayer
    /// probes the database). Nothing a visitor sends can set it.
    db_down: AtomicBool,
}

/// How long a submission waits for the database before it is spooled instead. The pool's own
/// acquire timeout is longer (5 s), and a database that is stopped (its name no longer
/// resolves) or partitioned away makes every connection attempt wait for it.
pub const DB_WAIT: Duration = Duration::from_secs(2);

/// A keyed per-minute limiter; at least one a minute.
fn per_minute<K: Hash + Eq + Clone>(n: u32) -> DefaultKeyedRateLimiter<K> {
    RateLimiter::keyed(Quota::per_minute(
        NonZeroU32::new(n.max(1)).expect("at least one"),
    ))
}

/// Seconds until a refused key may try again (at least 1).
fn retry_after(not_until: governor::NotUntil<governor::clock::QuantaInstant>) -> u64 {
    use governor::clock::{Clock, DefaultClock};
    not_until
        .wait_time_from(DefaultClock::default().now())
        .as_secs()
        .max(1)
}

impl Forms {
    /// `spool_dir` is created if missing.
    pub fn new(
        store: Store,
        spool_dir: &Path,
        limits: FormLimits,
        metrics: Arc<Metrics>,
    ) -> std::io::Result<Arc<Forms>> {
        std::fs::create_dir_all(spool_dir)?;
        let spool = Capped::open(spool_dir.join(SPOOL_FILE), limits.spool_max_bytes);
        metrics
            .spool_bytes
            .set(i64::try_from(spool.bytes).unwrap_or(i64::MAX));
        Ok(Arc::new(Forms {
            store,
            visitors: per_minute(limits.per_visitor_per_minute),
            sites: per_minute(limits.per_site_per_minute),
            spool: Mutex::new(spool),
            dead: Mutex::new(Capped::open(
                spool_dir.join(DEAD_LETTER_FILE),
                limits.spool_max_bytes,
            )),
            replaying: Mutex::new(HashMap::new()),
            db_down: AtomicBool::new(false),
            limits,
            metrics,
        }))
    }

    /// Checks, stores (or spools) one submission. Every refusal is counted by its code.
    pub async fn submit(&self, s: Incoming<'_>) -> Result<Outcome, Refused> {
        let outcome = self.check_and_store(s).await;
        match &outcome {
            Ok(Outcome::Spooled) => {
                self.metrics.spooled_submissions.inc();
            }
            Err(refused) => self.metrics.form_refused(refused.code()),
            Ok(_) => {}
        }
        outcome
    }

    async fn check_and_store(&self, s: Incoming<'_>) -> Result<Outcome, Refused> {
        if s.body.len() > MAX_FORM_BYTES {
            return Err(Refused::TooLarge);
        }
        let fields = parse_fields(s.content_type, &s.body)?;
        if fields
            .iter()
            .any(|(k, v)| k == HONEYPOT && !v.trim().is_empty())
        {
            return Ok(Outcome::Ignored);
        }
        // The visitor's budget first, so one visitor's flood is refused before it spends the
        // budget the site shares with its other visitors.
        self.visitors
            .check_key(&vitrine_shared::proxies::client_network(s.client))
            .map_err(|n| Refused::RateLimited(retry_after(n)))?;
        self.sites
            .check_key(&s.project_id)
            .map_err(|n| Refused::SiteRateLimited(retry_after(n)))?;
        let pick = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| one_line(v).trim().chars().take(255).collect::<String>())
                .filter(|v| !v.is_empty())
        };
        let subject = pick("_subject").unwrap_or_else(|| s.settings.subject.clone());
        let submit = pick("_submit")
            .or_else(|| pick("submit"))
            .unwrap_or_default();
        let visible: Vec<&(String, String)> =
            fields.iter().filter(|(k, _)| !k.starts_with('_')).collect();
        if visible.is_empty() {
            return Err(Refused::Malformed);
        }
        let url: String = s.page_url.chars().take(2048).collect();
        let uid = uuid::Uuid::new_v4().to_string();
        let created_at = now();
        let spooled = Spooled {
            body: as_text(&url, &visible),
            html: mail_html(&url, &visible),
            lead: s.settings.lead_event.then(|| {
                lead_event(&Lead {
                    uid: &uid,
                    at: created_at,
                    url: &format!("https://{}{url}", s.host),
                    client: s.client,
                    user_agent: s.user_agent,
                    fields: &visible,
                })
            }),
            sub: NewSubmission {
                uid,
                project_id: s.project_id,
                url,
                submit,
                to: s.settings.to.clone(),
                subject,
                data: as_html(&visible),
                created_at,
            },
        };
        self.store_or_spool(spooled).await
    }

    /// One insert into the form history, within [`DB_WAIT`].
    async fn insert(&self, s: &Spooled) -> Result<(), Failed> {
        let insert = self.store.store_submission_with_lead(
            &s.sub,
            Some(Notification {
                subject: &s.sub.subject,
                text: &s.body,
                html: &s.html,
                per_recipient_per_hour: self.limits.notifications_per_recipient_per_hour,
            }),
            s.lead.as_deref(),
            self.limits.history_max_entries,
        );
        // A timed-out insert may still have committed; the replay skips it (same uid).
        match tokio::time::timeout(DB_WAIT, insert).await {
            Ok(Ok(stored)) => {
                if stored.trimmed > 0 {
                    tracing::info!(
                        project = s.sub.project_id.get(),
                        trimmed = stored.trimmed,
                        "form history at its cap: oldest entries deleted"
                    );
                }
                if stored.capped {
                    self.metrics.capped_notifications.inc();
                    tracing::warn!(
                        project = s.sub.project_id.get(),
                        "form notification not sent: its recipient had its hourly share (FORM_NOTIFICATIONS_PER_RECIPIENT_PER_HOUR); the submission is in the form history"
                    );
                }
                Ok(())
            }
            Ok(Err(e)) => Err(Failed::Store(e)),
            Err(_) => Err(Failed::TimedOut),
        }
    }

    async fn store_or_spool(&self, s: Spooled) -> Result<Outcome, Refused> {
        if !self.db_down.load(Ordering::Acquire) {
            match self.insert(&s).await {
                Ok(()) => return Ok(Outcome::Stored),
                Err(f) if f.is_outage() => {
                    tracing::warn!(error = %f, project = s.sub.project_id.get(), "form submission spooled: database unavailable");
                    self.db_down.store(true, Ordering::Release);
                }
                Err(f) => {
                    // Refused by the database for what it carries: that submission's problem
                    // alone. Kept for an operator; the edge stays in its normal mode.
                    tracing::warn!(error = %f, project = s.sub.project_id.get(), "form submission refused by the database; dead-lettered");
                    self.dead_letter(&s.to_line(), &f.to_string()).await;
                    return Err(Refused::Rejected);
                }
            }
        }
        let mut spool = self.spool.lock().await;
        match spool.append(&s.to_line()) {
            Ok(true) => {
                self.metrics
                    .spool_bytes
                    .set(i64::try_from(spool.bytes).unwrap_or(i64::MAX));
                Ok(Outcome::Spooled)
            }
            Ok(false) => {
                tracing::error!(
                    bytes = spool.bytes,
                    "form spool full (EDGE_SPOOL_MAX_BYTES): submission refused"
                );
                Err(Refused::SpoolFull)
            }
            Err(io) => {
                // Neither the database nor the disk took it: say so rather than lose it.
                tracing::error!(error = %io, "form spool write failed");
                Err(Refused::Unavailable)
            }
        }
    }

    /// Appends `line` (a spool line) with its error to the dead-letter file, and counts it.
    async fn dead_letter(&self, line: &[u8], error: &str) {
        let entry = serde_json::json!({
            "failed_at": now(),
            "error": error,
            "line": String::from_utf8_lossy(line).trim_end(),
        });
        let mut text = entry.to_string().into_bytes();
        text.push(b'\n');
        let written = self.dead.lock().await.append(&text);
        let result = match written {
            Ok(true) => "written",
            Ok(false) => {
                tracing::error!("form dead-letter file full (EDGE_SPOOL_MAX_BYTES): entry dropped");
                "dropped"
            }
            Err(io) => {
                tracing::error!(error = %io, "form dead-letter write failed: entry dropped");
                "dropped"
            }
        };
        self.metrics.dead_letter(result);
    }

    /// Replays the spool into the database. Returns how many submissions were stored.
    ///
    /// A line that cannot be read, or that the database refuses, moves to the dead-letter file
    /// and the replay goes on with the next. On an outage the replay stops: the lines not yet
    /// stored stay in the spool (replays are idempotent) and the error is returned.
    ///
    /// A line that fails like an outage while the database still answers is a suspect: if the
    /// line after it is taken, the suspect is to blame (a strike; it goes to the end of the
    /// spool, and to the dead letters at its [`STRIKES`]th); if that line fails too, it is the
    /// database, and nobody is blamed.
    pub async fn replay(&self) -> Result<usize, StoreError> {
        let io = |e| StoreError::Db(sqlx::Error::Io(e));
        let mut strikes = self.replaying.lock().await;
        let text = self.spool.lock().await.read().map_err(io)?;
        let (mut keep, mut requeue): (Vec<u8>, Vec<u8>) = (Vec::new(), Vec::new());
        let mut stored = 0;
        let mut outage = None;
        let mut suspect: Option<(&[u8], String, Failed)> = None;
        let mut lines = text.split_inclusive(|b| *b == b'\n');
        while let Some(line) = lines.next() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let spooled = match serde_json::from_slice::<Spooled>(line) {
                Ok(s) => cleaned(s),
                Err(e) => {
                    tracing::error!(error = %e, "unreadable spool line dead-lettered");
                    self.dead_letter(line, &format!("unreadable: {e}")).await;
                    continue;
                }
            };
            let result = self.insert(&spooled).await;
            let database_works = match result {
                Ok(()) => {
                    stored += 1;
                    true
                }
                Err(f) if f.is_outage() => {
                    if suspect.is_none() && self.database_answers().await {
                        suspect = Some((line, spooled.sub.uid, f));
                        continue;
                    }
                    // It is the database: this line, a suspect and the rest stay.
                    keep.extend(suspect.take().map(|(l, ..)| l).unwrap_or_default());
                    keep.extend(line);
                    lines.by_ref().for_each(|rest| keep.extend(rest));
                    outage = Some(f);
                    break;
                }
                Err(f) => {
                    tracing::error!(error = %f, project = spooled.sub.project_id.get(), "spool line refused by the database: dead-lettered");
                    self.dead_letter(line, &f.to_string()).await;
                    true
                }
            };
            if let (true, Some((bad, uid, f))) = (database_works, suspect.take()) {
                let strike = strikes.entry(uid.clone()).or_default();
                *strike += 1;
                if *strike >= STRIKES {
                    tracing::error!(error = %f, "spool line failed {STRIKES} times while others went in: dead-lettered");
                    strikes.remove(&uid);
                    self.dead_letter(bad, &f.to_string()).await;
                } else {
                    requeue.extend(bad);
                }
            }
        }
        // A suspect with nothing after it to tell: it stays, and so does the outage mode, so
        // the next submissions come after it and tell.
        if let Some((bad, _, f)) = suspect {
            keep.extend(bad);
            outage = Some(f);
        }
        {
            // Appends only add to the end and only this replay rewrites: what was appended
            // since the read follows what stays.
            let mut spool = self.spool.lock().await;
            let now_text = spool.read().map_err(io)?;
            keep.extend(requeue);
            keep.extend(now_text.get(text.len()..).unwrap_or_default());
            if keep != now_text {
                spool.replace(&keep).map_err(io)?;
            }
            self.metrics
                .spool_bytes
                .set(i64::try_from(spool.bytes).unwrap_or(i64::MAX));
        }
        if let Some(f) = outage {
            return Err(f.into_store_error());
        }
        // Every line this replay read is in the database or the dead letters: the next
        // submission tries the database again.
        self.db_down.store(false, Ordering::Release);
        Ok(stored)
    }

    /// The database answers a ping within [`DB_WAIT`].
    async fn database_answers(&self) -> bool {
        matches!(
            tokio::time::timeout(DB_WAIT, self.store.ping()).await,
            Ok(Ok(()))
        )
    }

    /// Submissions waiting in the spool.
    pub async fn spooled(&self) -> usize {
        let spool = self.spool.lock().await;
        spool.read().map_or(0, |t| {
            t.split(|b| *b == b'\n')
                .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
                .count()
        })
    }

    /// Replays the spool every `every` until `stop` turns true, then once more.
    pub async fn run_replayer(
        self: Arc<Self>,
        every: Duration,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = stop.wait_for(|s| *s) => break,
            }
            if let Err(e) = self.replay().await {
                tracing::debug!(error = %e, "spool replay postponed");
            }
            self.visitors.retain_recent();
            self.sites.retain_recent();
        }
        let _ = self.replay().await;
    }
}

/// Why an insert did not go through.
#[derive(Debug, thiserror::Error)]
enum Failed {
    #[error(transparent)]
    Store(StoreError),
    #[error("the database did not answer within {DB_WAIT:?}")]
    TimedOut,
}

impl Failed {
    /// Worth spooling: the database is unreachable or did not answer in time.
    fn is_outage(&self) -> bool {
        match self {
            Failed::TimedOut => true,
            Failed::Store(e) => matches!(e.failure(), Failure::Outage | Failure::SlowQuery),
        }
    }

    fn into_store_error(self) -> StoreError {
        match self {
            Failed::Store(e) => e,
            Failed::TimedOut => StoreError::Db(sqlx::Error::PoolTimedOut),
        }
    }
}
