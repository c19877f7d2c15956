//! Visitor analytics' shared parts (`docs/analytics.md`): the fleet's key, the day's salt and
//! the visitor hash, the signed tap links (`/_go`), and what a request says about its visitor
//! ([`classify`]). The edge counts ([`crate::store`] keeps the aggregates); the control plane
//! signs tap links at publish and answers the owner's report.
//!
//! **The salt.** Every edge of a fleet must give one person the same hash on one day, yet the
//! salt must never be written anywhere. It is therefore derived, never stored:
//! `salt(day) = HMAC-SHA-256(key, "vitrine-analytics-salt:" ‖ YYYY-MM-DD)`, where `key` is
//! `ANALYTICS_SECRET` (the same on every edge), or when that is unset, a random key kept in
//! the database's `analytics_key` row (then anyone who can read the database could re-derive a
//! day's salt: set `ANALYTICS_SECRET` to keep the key out of it). A new day gives a new salt,
//! so one person's hashes on two days do not match, and a hash cannot be joined across days.
//!
//! **The visitor.** `HMAC-SHA-256(salt, project ‖ network ‖ user agent)`, its first 8 bytes as
//! an `i64`; the network is the IPv4 address, or an IPv6 address's /64 (a household's prefix:
//! privacy addresses rotate within it).
//!
//! **Tap links.** `wa.me`, `api.whatsapp.com`, `tel:` and `mailto:` links are rewritten to
//! `/_go?u=<url>&s=<signature>` with `signature = HMAC-SHA-256(key, "vitrine-go:" ‖ url)`
//! (first 16 bytes, hex). The edge redirects only to a target whose signature matches and
//! whose scheme is one of those four: never an open redirect.
//!
//! RustCrypto's `hmac` and `sha2` do the hashing, lol_html the rewriting (as elsewhere in
//! the renderer), rather than code of our own.

pub mod classify;
pub mod hll;

use std::net::IpAddr;

use chrono::NaiveDate;
use hmac::{KeyInit, Mac};

use crate::ids::ProjectId;

type HmacSha256 = hmac::Hmac<sha2_11::Sha256>;

/// Where tap links go through on a site.
pub const GO_PATH: &str = "/_go";

/// The fleet's analytics key (see the module docs).
#[derive(Clone)]
pub struct AnalyticsKey(Vec<u8>);

impl std::fmt::Debug for AnalyticsKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AnalyticsKey(…)")
    }
}

fn mac(key: &[u8]) -> HmacSha256 {
    <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any length")
}

impl AnalyticsKey {
    pub fn new(secret: &str) -> AnalyticsKey {
        AnalyticsKey(secret.as_bytes().to_vec())
    }

    /// The day's salt: derived from the key and the date, held in memory only.
    pub fn salt(&self, day: NaiveDate) -> Salt {
        let mut m = mac(&self.0);
        m.update(b"vitrine-analytics-salt:");
        m.update(day.format("%Y-%m-%d").to_string().as_bytes());
        let salt: [u8; 32] = m.finalize().into_bytes().into();
        Salt(mac(&salt))
    }

    /// The signature of a tap link's target.
    pub fn sign(&self, url: &str) -> String {
        let mut m = mac(&self.0);
        m.update(b"vitrine-go:");
        m.update(url.as_bytes());
        hex::encode(&m.finalize().into_bytes()[..16])
    }

    /// Whether `signature` is `url`'s (compared in constant time).
    pub fn verify(&self, url: &str, signature: &str) -> bool {
        let Ok(sig) = hex::decode(signature) else {
            return false;
        };
        let mut m = mac(&self.0);
        m.update(b"vitrine-go:");
        m.update(url.as_bytes());
        sig.len() == 16 && m.verify_truncated_left(&sig).is_ok()
    }

    /// The same-site address a tap on `url` goes through.
    pub fn go_href(&self, url: &str) -> String {
        let encoded: String = form_urlencoded_value(url);
        format!("{GO_PATH}?u={encoded}&s={}", self.sign(url))
    }
}

fn form_urlencoded_value(v: &str) -> String {
    percent_encoding::utf8_percent_encode(v, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// A day's salt (see the module docs), held as the HMAC already keyed with it: each visitor's
/// hash then starts from a copy of that state instead of hashing the key's two pads again
/// (two of a hash's six SHA-256 blocks). Never written anywhere.
#[derive(Clone)]
pub struct Salt(HmacSha256);

impl Salt {
    /// The visitor's hash for this day (see the module docs).
    pub fn visitor(&self, project: ProjectId, ip: IpAddr, user_agent: &[u8]) -> i64 {
        let mut m = self.0.clone();
        m.update(&project.get().to_le_bytes());
        match ip {
            IpAddr::V4(v4) => m.update(&v4.octets()),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => m.update(&v4.octets()),
                None => m.update(&v6.octets()[..8]),
            },
        }
        m.update(b"\0");
        m.update(user_agent);
        let out = m.finalize().into_bytes();
        i64::from_le_bytes(out[..8].try_into().expect("8 bytes"))
    }
}

/// What a tap link is to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tap {
    WhatsApp,
    Phone,
    Email,
}

/// The tap a target is, when it is one the edge redirects to: `https://wa.me/…`,
/// `https://api.whatsapp.com/…`, `tel:…` or `mailto:…`; anything else is refused.
pub fn tap_of(url: &str) -> Option<Tap> {
    let lower = url.get(..url.len().min(32))?.to_ascii_lowercase();
    if url.chars().any(|c| c.is_control()) {
        return None;
    }
    if lower.starts_with("tel:") {
        Some(Tap::Phone)
    } else if lower.starts_with("mailto:") {
        Some(Tap::Email)
    } else if lower.starts_with("https://wa.me/")
        || lower.starts_with("https://api.whatsapp.com/")
        || lower.starts_with("http://wa.me/")
        || lower.starts_with("http://api.whatsapp.com/")
    {
        Some(Tap::WhatsApp)
    } else {
        None
    }
}

/// `html` with every tap link (`<a href>` to WhatsApp, a phone or an e-mail address) going
/// through the site's signed `/_go`; `None` when there is none (the page is left as it is).
/// Published pages are rewritten at publish, pages rendered from live records at the edge.
///
/// The `href` is read through `html-escape`'s decoder (the full HTML5 entity table, kept by
/// the crate made for it), since lol_html hands over attribute values as written.
pub fn rewrite_taps(html: &[u8], key: &AnalyticsKey) -> Option<Vec<u8>> {
    use lol_html::{RewriteStrSettings, element};
    let text = std::str::from_utf8(html).ok()?;
    // No slash in the needles: rendered attributes escape `/` as `&#x2f;`.
    let lower = text.to_ascii_lowercase();
    if !["wa.me", "whatsapp.com", "tel:", "mailto:"]
        .iter()
        .any(|n| lower.contains(n))
    {
        return None;
    }
    let changed = std::cell::Cell::new(false);
    let out = lol_html::rewrite_str(
        text,
        RewriteStrSettings {
            element_content_handlers: vec![element!("a[href]", |el| {
                // The attribute as written: the site's templates escape `/` as `&#x2f;`
                // (`https:&#x2f;&#x2f;wa.me&#x2f;…`), an owner's HTML may use any entity.
                if let Some(raw) = el.get_attribute("href") {
                    let href = html_escape::decode_html_entities(raw.trim());
                    let href = href.trim();
                    if tap_of(href).is_some() {
                        el.set_attribute("href", &key.go_href(href))?;
                        changed.set(true);
                    }
                }
                Ok(())
            })],
            ..RewriteStrSettings::new()
        },
    )
    .ok()?;
    changed.get().then(|| out.into_bytes())
}

#[cfg(test)]
mod tests;
