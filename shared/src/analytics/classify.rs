//! What a page request says about its visitor: a bot or a person, the device class, the
//! language, where they came from (the referrer's domain) and the campaign (`utm_*`).
//!
//! Bots are told by the isbot crate's list (Googlebot, bingbot, facebookexternalhit, curl,
//! python-requests, HeadlessChrome and some 350 more patterns, kept upstream) plus
//! [`EXTRA_BOTS`] and an empty user agent. Device classes follow the user agent's own words
//! (the rules every browser vendor documents: iPad and Android without "Mobile" are tablets).
//! Each value is cut to a bounded length, so what the edge holds per visitor stays small.

use std::sync::LazyLock;

/// Patterns the crate's list lacks (lowercase regular expressions).
pub const EXTRA_BOTS: &[&str] = &["chrome-lighthouse", "pagespeed", "^wget", "^go-http-client"];

static BOTS: LazyLock<isbot::Bots> = LazyLock::new(|| {
    let mut bots = isbot::Bots::default();
    bots.append(EXTRA_BOTS);
    bots
});

/// User agents of the crawlers and tools the issue names, for tests.
#[cfg(any(test, feature = "testing"))]
pub const NAMED_BOTS: [&str; 6] = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "curl/8.5.0",
    "python-requests/2.31.0",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
];

/// The longest value kept for a referrer source, a campaign word or a language.
pub const MAX_VALUE: usize = 64;

/// Whether the user agent is a bot's (an empty one counts as a bot).
pub fn is_bot(user_agent: &str) -> bool {
    user_agent.trim().is_empty() || BOTS.is_bot(user_agent)
}

/// `mobile`, `tablet` or `desktop`.
pub fn device(user_agent: &str) -> &'static str {
    let has = |needle: &str| user_agent.contains(needle);
    if has("iPad") || has("Tablet") || (has("Android") && !has("Mobile")) {
        "tablet"
    } else if has("Mobi") || has("iPhone") || has("Android") {
        "mobile"
    } else {
        "desktop"
    }
}

/// The primary language of `Accept-Language` (its first tag, as written: `pt-BR`), or "".
pub fn language(accept_language: &str) -> String {
    let first = accept_language
        .split(',')
        .next()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim();
    let ok = !first.is_empty()
        && first != "*"
        && first.len() <= 35
        && first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !ok {
        return String::new();
    }
    // BCP 47's usual case: language lower, region upper.
    let mut parts = first.split('-');
    let mut out = parts.next().unwrap_or("").to_ascii_lowercase();
    for p in parts {
        out.push('-');
        if p.len() == 2 {
            out.push_str(&p.to_ascii_uppercase());
        } else {
            out.push_str(p);
        }
    }
    out
}

/// Where a visitor came from: the referrer's host without `www.`, or `direct` when there is
/// no referrer, it is not an http(s) address, or it is the site's own host (`own_host`).
pub fn source(referer: &str, own_host: &str) -> String {
    let host = url::Url::parse(referer.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase));
    let Some(host) = host else {
        return DIRECT.to_string();
    };
    let bare = |h: &str| h.strip_prefix("www.").unwrap_or(h).to_string();
    let host = bare(&host);
    if host == bare(&own_host.to_ascii_lowercase()) || host.len() > MAX_VALUE {
        return DIRECT.to_string();
    }
    host
}

/// The source of visitors who came with no referrer (or from the site itself).
pub const DIRECT: &str = "direct";

/// `utm_source`, `utm_medium`, `utm_campaign` of a query, each cut to [`MAX_VALUE`].
pub fn campaign(query: Option<&str>) -> [String; 3] {
    let mut out: [String; 3] = Default::default();
    let Some(q) = query else { return out };
    if !q.contains("utm_") {
        return out;
    }
    for (k, v) in url::form_urlencoded::parse(q.as_bytes()) {
        let slot = match &*k {
            "utm_source" => 0,
            "utm_medium" => 1,
            "utm_campaign" => 2,
            _ => continue,
        };
        if out[slot].is_empty() {
            out[slot] = v.chars().take(MAX_VALUE).collect::<String>().to_lowercase();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_bots_are_bots_and_browsers_are_not() {
        for ua in NAMED_BOTS.into_iter().chain([""]) {
            assert!(is_bot(ua), "{ua}");
        }
        for ua in [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
        ] {
            assert!(!is_bot(ua), "{ua}");
        }
    }

    #[test]
    fn devices_languages_sources_and_campaigns() {
        assert_eq!(
            device("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148"),
            "mobile"
        );
        assert_eq!(
            device("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)"),
            "tablet"
        );
        assert_eq!(device("Mozilla/5.0 (Linux; Android 14; SM-X710)"), "tablet");
        assert_eq!(
            device("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari"),
            "mobile"
        );
        assert_eq!(
            device("Mozilla/5.0 (Windows NT 10.0; Win64; x64)"),
            "desktop"
        );
        assert_eq!(language("pt-br,pt;q=0.9,en;q=0.8"), "pt-BR");
        assert_eq!(language("en"), "en");
        assert_eq!(language("*"), "");
        assert_eq!(language("<script>"), "");
        assert_eq!(
            source("https://www.google.com/search?q=x", "a.example"),
            "google.com"
        );
        assert_eq!(source("https://a.example/other", "a.example"), DIRECT);
        assert_eq!(source("", "a.example"), DIRECT);
        assert_eq!(source("android-app://com.instagram", "a.example"), DIRECT);
        assert_eq!(
            campaign(Some(
                "utm_source=Instagram&utm_medium=social&utm_campaign=natal&x=1"
            )),
            ["instagram".to_string(), "social".into(), "natal".into()]
        );
        assert_eq!(campaign(None), <[String; 3]>::default());
    }
}
