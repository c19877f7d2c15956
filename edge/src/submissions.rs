//! Form submissions posted to `/_forms` on a published site's own host.
//!
//! A submission is checked (body size, honeypot, a per-visitor-address rate limit), turned into
//! sanitised HTML, and stored in the form history together with its notification e-mail in
//! one transaction (the control plane's outbox worker sends it). The recipient is the one the
//! owner published in the deploy's form settings, never anything the visitor sends, so the
//! endpoint is no open relay.
//!
//! **No submission is ever lost:** when the database cannot be reached (or does not answer
//! within [`DB_WAIT`]) the submission is appended to a local spool file and `fsync`ed before the
//! visitor gets an answer, and a background task replays the spool once the database is back.
//! Until then later submissions go straight to the spool, so an outage costs one visitor a
//! wait, not every visitor. Each submission carries a
//! unique id and the store ignores a second insert of the same id, so a replay that is cut
//! short and repeated never duplicates anything.
//!
//! The rate limiter is governor's keyed GCRA limiter (the maintained Rust rate-limiting
//! library); form bodies are parsed with `url::form_urlencoded` and `serde_json`, and the
//! stored HTML is passed through ammonia's allow-list sanitiser as a second line of defence
//! after escaping.

use std::{
    io::Write,
    net::IpAddr,
    num::NonZeroU32,
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::Value;
use tokio::sync::Mutex;
use vitrine_shared::{
    render::escape,
    site::FormSettings,
    store::{NewSubmission, Store, StoreError, now},
};

/// Largest form body accepted.
pub const MAX_FORM_BYTES: usize = 64 * 1024;
/// Fields the visitor fills; more than this is refused.
pub const MAX_FIELDS: usize = 100;
/// The honeypot: a field hidden from people that only bots fill in.
pub const HONEYPOT: &str = "_gotcha";

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

/// Why a submission was refused (answered 4xx with this text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("O formulário é grande demais (no máximo 64 KB).")]
    TooLarge,
    #[error("Muitos envios deste endereço. Tente de novo em {0} segundos.")]
    RateLimited(u64),
    #[error("Formato de formulário não suportado: {0}")]
    Unsupported(String),
    #[error("O formulário está vazio ou malformado.")]
    Malformed,
    #[error("O formulário tem campos demais.")]
    TooManyFields,
    /// Neither the database nor the local spool could take the submission (answered 503).
    #[error("O envio não pôde ser registrado agora. Tente de novo em instantes.")]
    Unavailable,
}

/// A submission as the visitor sent it, before it is stored.
#[derive(Debug, Clone)]
pub struct Incoming<'a> {
    pub project_id: i64,
    pub settings: &'a FormSettings,
    /// The page the form was on (same-site path).
    pub page_url: String,
    pub content_type: Option<&'a str>,
    pub body: Bytes,
    /// The visitor's address: the TCP peer, or from `X-Forwarded-For` when the peer is a
    /// trusted proxy (see `vitrine_shared::proxies`). The rate limit is keyed on it.
    pub client: IpAddr,
}

pub struct Forms {
    store: Store,
    spool: Mutex<PathBuf>,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Set when a write to the database failed or took longer than [`DB_WAIT`], cleared when
    /// a replay reaches the database: while set, submissions go straight to the spool, so
    /// during an outage only the first visitor waits (the replayer probes the database).
    db_down: AtomicBool,
}

/// How long a submission waits for the database before it is spooled instead. The pool's own
/// acquire timeout is longer (5 s), and a database that is stopped (its name no longer
/// resolves) or partitioned away makes every connection attempt wait for it.
pub const DB_WAIT: Duration = Duration::from_secs(2);

impl Forms {
    /// `spool_dir` is created if missing; `per_minute` is the per-address quota.
    pub fn new(store: Store, spool_dir: &Path, per_minute: u32) -> std::io::Result<Arc<Forms>> {
        std::fs::create_dir_all(spool_dir)?;
        let n = NonZeroU32::new(per_minute.max(1)).expect("at least one");
        Ok(Arc::new(Forms {
            store,
            spool: Mutex::new(spool_dir.join("forms.jsonl")),
            limiter: RateLimiter::keyed(Quota::per_minute(n)),
            db_down: AtomicBool::new(false),
        }))
    }

    /// Checks, stores (or spools) one submission.
    pub async fn submit(&self, s: Incoming<'_>) -> Result<Outcome, Refused> {
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
        if let Err(not_until) = self.limiter.check_key(&s.client) {
            use governor::clock::{Clock, DefaultClock};
            let wait = not_until
                .wait_time_from(DefaultClock::default().now())
                .as_secs()
                .max(1);
            return Err(Refused::RateLimited(wait));
        }
        let pick = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.trim().chars().take(255).collect::<String>())
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
        let sub = NewSubmission {
            uid: uuid::Uuid::new_v4().to_string(),
            project_id: s.project_id,
            url: s.page_url.chars().take(2048).collect(),
            submit,
            to: s.settings.to.clone(),
            subject: subject.clone(),
            data: as_html(&visible),
            created_at: now(),
        };
        self.store_or_spool(sub, &visible).await
    }

    async fn store_or_spool(
        &self,
        sub: NewSubmission,
        visible: &[&(String, String)],
    ) -> Result<Outcome, Refused> {
        let body = as_text(&sub.url, visible);
        if !self.db_down.load(Ordering::Acquire) {
            let insert = self
                .store
                .insert_submission(&sub, Some((&sub.subject, &body)));
            // A timed-out insert may still have committed; the replay skips it (same uid).
            match tokio::time::timeout(DB_WAIT, insert).await {
                Ok(Ok(_)) => return Ok(Outcome::Stored),
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, project = sub.project_id, "form submission spooled: database unavailable");
                }
                Err(_) => {
                    tracing::warn!(
                        project = sub.project_id,
                        wait_ms = DB_WAIT.as_millis() as u64,
                        "form submission spooled: database did not answer in time"
                    );
                }
            }
            self.db_down.store(true, Ordering::Release);
        }
        let spooled = Spooled { sub, body };
        let path = self.spool.lock().await;
        append_synced(&path, &spooled).map_err(|io| {
            // Neither the database nor the disk took it: say so rather than lose it.
            tracing::error!(error = %io, "form spool write failed");
            Refused::Unavailable
        })?;
        Ok(Outcome::Spooled)
    }

    /// Replays the spool into the database. Returns how many submissions were replayed; on a
    /// database error the spool is kept whole (replays are idempotent) and the error returned.
    pub async fn replay(&self) -> Result<usize, StoreError> {
        let path = self.spool.lock().await;
        let Ok(text) = std::fs::read_to_string(&*path) else {
            self.db_down.store(false, Ordering::Release);
            return Ok(0);
        };
        let mut n = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(s) = serde_json::from_str::<Spooled>(line) else {
                tracing::error!("skipping an unreadable spool line");
                continue;
            };
            self.store
                .insert_submission(&s.sub, Some((&s.sub.subject, &s.body)))
                .await?;
            n += 1;
        }
        let f = std::fs::OpenOptions::new().write(true).open(&*path);
        if let Ok(f) = f {
            let _ = f.set_len(0);
            let _ = f.sync_all();
        }
        // The spool is empty: either the database took all of it, or nothing was spooled (a
        // failed spool write); both let the next submission try the database again.
        self.db_down.store(false, Ordering::Release);
        Ok(n)
    }

    /// Submissions waiting in the spool.
    pub async fn spooled(&self) -> usize {
        let path = self.spool.lock().await;
        std::fs::read_to_string(&*path)
            .map(|t| t.lines().filter(|l| !l.trim().is_empty()).count())
            .unwrap_or(0)
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
            self.limiter.retain_recent();
        }
        let _ = self.replay().await;
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Spooled {
    sub: NewSubmission,
    body: String,
}

fn append_synced(path: &Path, s: &Spooled) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(s)?;
    line.push(b'\n');
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(&line)?;
    f.sync_data()
}

/// Reads url-encoded or JSON form bodies into (name, value) pairs, in order.
pub fn parse_fields(
    content_type: Option<&str>,
    body: &[u8],
) -> Result<Vec<(String, String)>, Refused> {
    let mime = content_type
        .unwrap_or("application/x-www-form-urlencoded")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let fields: Vec<(String, String)> = match mime.as_str() {
        "application/x-www-form-urlencoded" | "" => {
            if std::str::from_utf8(body).is_err() {
                return Err(Refused::Malformed);
            }
            url::form_urlencoded::parse(body)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        }
        "application/json" => {
            let v: Value = serde_json::from_slice(body).map_err(|_| Refused::Malformed)?;
            let Value::Object(map) = v else {
                return Err(Refused::Malformed);
            };
            map.into_iter()
                .map(|(k, v)| {
                    let text = match v {
                        Value::String(s) => s,
                        Value::Null => String::new(),
                        Value::Array(items) => items
                            .iter()
                            .map(|i| {
                                i.as_str()
                                    .map(str::to_string)
                                    .unwrap_or_else(|| i.to_string())
                            })
                            .collect::<Vec<_>>()
                            .join(", "),
                        other => other.to_string(),
                    };
                    (k, text)
                })
                .collect()
        }
        other => return Err(Refused::Unsupported(other.to_string())),
    };
    if fields.len() > MAX_FIELDS {
        return Err(Refused::TooManyFields);
    }
    Ok(fields
        .into_iter()
        .map(|(k, v)| (k.chars().take(100).collect(), v))
        .collect())
}

/// The visible fields as a definition list of escaped text, then through ammonia.
fn as_html(fields: &[&(String, String)]) -> String {
    let mut html = String::from("<dl>");
    for (k, v) in fields {
        html.push_str(&format!(
            "<dt>{}</dt><dd>{}</dd>",
            escape(k),
            escape(v).replace('\n', "<br>")
        ));
    }
    html.push_str("</dl>");
    ammonia::clean(&html)
}

fn as_text(url: &str, fields: &[&(String, String)]) -> String {
    let mut t = format!("Nova mensagem enviada pelo formulário em {url}\n\n");
    for (k, v) in fields {
        t.push_str(&format!("{k}: {v}\n"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_parse_as_urlencoded_or_json() {
        let f = parse_fields(None, b"nome=Ana+Lima&email=ana%40x.com").unwrap();
        assert_eq!(f[0], ("nome".into(), "Ana Lima".into()));
        assert_eq!(f[1], ("email".into(), "ana@x.com".into()));
        let f = parse_fields(
            Some("application/json"),
            br#"{"a":"1","b":["x","y"],"c":2}"#,
        )
        .unwrap();
        assert_eq!(f.len(), 3);
        assert!(f.contains(&("b".into(), "x, y".into())));
        assert_eq!(
            parse_fields(Some("application/json"), b"[1]"),
            Err(Refused::Malformed)
        );
        assert_eq!(parse_fields(None, b"\xff\xfe=1"), Err(Refused::Malformed));
        assert!(matches!(
            parse_fields(Some("text/xml"), b"<a/>"),
            Err(Refused::Unsupported(_))
        ));
        let many: String = (0..200).map(|i| format!("f{i}=1&")).collect();
        assert_eq!(
            parse_fields(None, many.as_bytes()),
            Err(Refused::TooManyFields)
        );
    }

    #[test]
    fn stored_html_is_escaped_and_sanitised() {
        let a = (
            "nome<script>".to_string(),
            "<img src=x onerror=alert(1)>\nlinha".to_string(),
        );
        let html = as_html(&[&a]);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;img"), "{html}");
        assert!(html.contains("<br>linha"), "{html}");
    }
}
