//! Which site a request is for: the `Host` header (or the HTTP/2 `:authority`) normalised and
//! classified.
//!
//! Normalising is lower-casing, dropping the port and one trailing dot, so `Loja.Example.com.:80`
//! and `loja.example.com` are the same site. Anything that is not a plausible DNS name after
//! that (empty, too long, characters outside letters, digits, dashes and dots, empty labels) is
//! refused with 400 before any cache or database is consulted, so hostile hosts never reach the
//! store or grow the caches. IP literals are refused too: no site is served at an address.

/// A normalised host, and how to look its site up.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SiteHost {
    /// `{slug}.{platform domain}`: the project's preview address.
    Slug(String),
    /// Any other name: a verified custom domain (or its `www.` twin).
    Domain(String),
}

impl SiteHost {
    /// The cache key: the host as normalised.
    pub fn key(&self) -> String {
        match self {
            SiteHost::Slug(s) => format!("slug:{s}"),
            SiteHost::Domain(d) => format!("domain:{d}"),
        }
    }
}

/// Why a Host header was refused (answered 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed Host header")]
pub struct BadHost;

/// Lower-cases, strips the port and one trailing dot, and checks the result is a DNS name.
pub fn normalize(raw: &str) -> Result<String, BadHost> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > 300 || raw.starts_with('[') {
        return Err(BadHost);
    }
    let name = match raw.rsplit_once(':') {
        Some((name, port)) => {
            if !port.bytes().all(|b| b.is_ascii_digit()) || port.parse::<u16>().is_err() {
                return Err(BadHost);
            }
            name
        }
        None => raw,
    };
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    if name.is_empty() || name.len() > 253 {
        return Err(BadHost);
    }
    for label in name.split('.') {
        let ok = !label.is_empty()
            && label.len() <= 63
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !ok {
            return Err(BadHost);
        }
    }
    if name.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(BadHost);
    }
    Ok(name)
}

/// Whether the Host is an IP address (with or without a port): a visitor who typed the
/// server's address. No site is served there, but the host is not malformed either.
pub fn is_ip_literal(raw: &str) -> bool {
    let raw = raw.trim();
    if let Some(rest) = raw.strip_prefix('[') {
        return rest
            .split_once(']')
            .is_some_and(|(ip, _)| ip.parse::<std::net::Ipv6Addr>().is_ok());
    }
    let ip = raw.rsplit_once(':').map_or(raw, |(ip, _)| ip);
    ip.parse::<std::net::Ipv4Addr>().is_ok()
}

/// Classifies a normalised host against the (normalised) platform domain. The platform domain
/// itself and deeper sub-domains (`a.b.{platform}`) are no site's preview address, but they
/// are still looked up as domains (and found by none, since no customer may claim them).
pub fn classify(host: &str, platform_domain: &str) -> SiteHost {
    if let Some(sub) = host
        .strip_suffix(platform_domain)
        .and_then(|s| s.strip_suffix('.'))
        && !sub.is_empty()
        && !sub.contains('.')
    {
        return SiteHost::Slug(sub.to_string());
    }
    SiteHost::Domain(host.to_string())
}

pub use vitrine_shared::domain::www_twin;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_lower_cased_without_port_or_trailing_dot() {
        assert_eq!(normalize("Loja.Example.COM").unwrap(), "loja.example.com");
        assert_eq!(normalize("loja.localhost:8080").unwrap(), "loja.localhost");
        assert_eq!(normalize("example.com.").unwrap(), "example.com");
        assert_eq!(normalize("example.com.:443").unwrap(), "example.com");
        assert_eq!(normalize("localhost").unwrap(), "localhost");
    }

    #[test]
    fn malformed_hosts_are_refused() {
        for bad in [
            "",
            " ",
            "a..b",
            ".example.com",
            "exa mple.com",
            "example.com:",
            "example.com:http",
            "example.com:123456",
            "example.com:99999",
            "ex/ample.com",
            "ex%2eample.com",
            "[::1]:80",
            "127.0.0.1",
            "user@example.com",
            "exa\u{0}mple.com",
            "ação.com",
            &"a".repeat(64),
            &format!("{}.com", "a.".repeat(200)),
        ] {
            assert_eq!(normalize(bad), Err(BadHost), "{bad:?}");
        }
    }

    #[test]
    fn preview_hosts_are_slugs_and_the_rest_are_domains() {
        assert_eq!(
            classify("loja.localhost", "localhost"),
            SiteHost::Slug("loja".into())
        );
        assert_eq!(
            classify("localhost", "localhost"),
            SiteHost::Domain("localhost".into())
        );
        assert_eq!(
            classify("a.loja.localhost", "localhost"),
            SiteHost::Domain("a.loja.localhost".into())
        );
        assert_eq!(
            classify("notlocalhost", "localhost"),
            SiteHost::Domain("notlocalhost".into())
        );
        assert_eq!(
            classify("www.example.com", "vitrine.site"),
            SiteHost::Domain("www.example.com".into())
        );
    }

    /// Every string over a hostile alphabet (a small, deterministic stand-in for the fuzzer):
    /// no panic, and whatever is accepted is a lower-case DNS name that normalises to itself.
    #[test]
    fn normalising_never_panics_and_accepted_hosts_are_fixed_points() {
        const ALPHABET: &[&str] = &[
            "a", "Z", "0", "-", "_", ".", ":", "8", "[", "]", "@", "%", " ", "é", "\u{0}", "/",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            crate::spread::xorshift(&mut seed);
            let len = (seed % 12) as usize;
            let s: String = (0..len)
                .map(|i| ALPHABET[((seed >> (i * 4)) % ALPHABET.len() as u64) as usize])
                .collect();
            let _ = is_ip_literal(&s);
            if let Ok(name) = normalize(&s) {
                assert_eq!(normalize(&name).as_deref(), Ok(name.as_str()), "{s:?}");
                assert!(
                    name.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b"-_.".contains(&b)),
                    "{s:?} → {name:?}"
                );
                let _ = classify(&name, "localhost");
            }
        }
    }

    #[test]
    fn ip_literals_are_recognised() {
        for ip in ["127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:80"] {
            assert!(is_ip_literal(ip), "{ip}");
        }
        for not in ["loja.localhost", "[::1", "1.2.3", "[loja]"] {
            assert!(!is_ip_literal(not), "{not}");
        }
    }

    #[test]
    fn www_twins_pair_both_ways() {
        assert_eq!(www_twin("www.example.com"), "example.com");
        assert_eq!(www_twin("example.com"), "www.example.com");
    }
}

/// The fuzz target `host`'s invariants (see `fuzz/`), on generated inputs in every test run:
/// no input panics, and an accepted host is a fixed point of normalising (its path invariant is
/// [`crate::request`]'s).
#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Hosts built from the characters the parser treats specially, plus any text at all.
    fn hosts() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-zA-Z0-9.:\\[\\]%@_ -]{0,40}",
            "(www\\.)?[a-z0-9-]{1,12}(\\.[a-z0-9-]{1,12}){0,3}\\.?(:[0-9]{0,6})?",
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn an_accepted_host_is_a_fixed_point(raw in hosts()) {
            let _ = is_ip_literal(&raw);
            if let Ok(name) = normalize(&raw) {
                let again = normalize(&name);
                prop_assert_eq!(again.as_deref(), Ok(name.as_str()));
                let _ = classify(&name, "localhost");
                let _ = www_twin(&name);
            }
        }
    }
}
