//! Custom-domain DNS verification: who owns a domain, and does it point at the platform?
//!
//! Two questions, answered separately ([`DnsCheck::verify`] asks both):
//! - **Ownership** ([`Proof`]): `_vitrine-challenge.<domain>` has a TXT record holding the
//!   project's token ([`crate::domain::challenge_value`]), as Vercel and Netlify ask. Only
//!   the domain's owner can put it there. "Points at our address" proves nothing about who
//!   asks: a dangling record left at the platform, or a wildcard `*.example.com` pointing here,
//!   would otherwise hand the name to whoever typed it first.
//! - **Pointing** ([`Verdict`]): the domain has an A/AAAA record for one of the platform's
//!   public addresses (`PUBLIC_IP`, comma-separated for IPv4 and IPv6), or a CNAME (anywhere in
//!   its chain) to the platform's target (`CNAME_TARGET`).
//!
//! A domain is verified when both hold; the edge asks the pointing question again before
//! every certificate order (first issue and renewals).
//!
//! Resolution uses hickory-resolver (the maintained successor of trust-dns), the async,
//! pure-Rust resolver, with the nameservers from `DNS_NAMESERVERS` (so tests use a local DNS
//! server) or the system's. A fresh resolver is built per check so that a record the owner
//! just changed is never answered from an old cache.

use std::{
    net::{IpAddr, SocketAddr},
    time::Duration,
};

use hickory_resolver::{
    TokioResolver,
    config::{ConnectionConfig, NameServerConfig, ResolverConfig},
    net::runtime::TokioRuntimeProvider,
    proto::rr::{RData, RecordType},
};

use crate::Settings;

/// How a domain points at the platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pointing {
    /// An A/AAAA record for this platform address.
    Address(IpAddr),
    /// A CNAME (possibly through other names) to the platform's target.
    Alias(String),
}

/// The outcome of a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Points(Pointing),
    /// The domain resolves, but not to the platform: what it resolves to.
    Elsewhere(Vec<String>),
    /// No A, AAAA or CNAME record exists.
    NoRecords,
    /// The nameservers could not be asked (timeout, refused...).
    Unreachable(String),
}

/// Whether `_vitrine-challenge.<domain>` carries the project's token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// A TXT record there holds the token.
    Proven,
    /// TXT records are there, none with the token: what they hold.
    Wrong(Vec<String>),
    /// No TXT record there.
    Missing,
    /// The nameservers could not be asked.
    Unreachable(String),
}

/// Both answers for one domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    pub proof: Proof,
    pub pointing: Verdict,
}

impl Verification {
    /// Proven by TXT and pointing here: the domain may be the project's.
    pub fn verified(&self) -> bool {
        self.proof == Proof::Proven && matches!(self.pointing, Verdict::Points(_))
    }

    /// Why the nameservers could not be asked, if they could not.
    pub fn unreachable(&self) -> Option<&str> {
        match (&self.proof, &self.pointing) {
            (Proof::Unreachable(e), _) | (_, Verdict::Unreachable(e)) => Some(e),
            _ => None,
        }
    }
}

/// Checks domains against the platform's address and CNAME target.
#[derive(Debug, Clone)]
pub struct DnsCheck {
    addresses: Vec<IpAddr>,
    cname_target: String,
    nameservers: Vec<SocketAddr>,
}

impl DnsCheck {
    pub fn from_settings(settings: &Settings) -> anyhow::Result<DnsCheck> {
        let addresses = settings
            .public_ip
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<IpAddr>()
                    .map_err(|_| anyhow::anyhow!("PUBLIC_IP: {s:?} is not an IP address"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let nameservers = settings
            .dns_nameservers()
            .iter()
            .map(|s| parse_nameserver(s))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(DnsCheck {
            addresses,
            cname_target: normalise(&settings.cname_target()),
            nameservers,
        })
    }

    /// The addresses a domain may point at.
    pub fn addresses(&self) -> &[IpAddr] {
        &self.addresses
    }

    /// The host a domain may CNAME to.
    pub fn cname_target(&self) -> &str {
        &self.cname_target
    }

    fn resolver(&self) -> anyhow::Result<TokioResolver> {
        let mut builder = if self.nameservers.is_empty() {
            TokioResolver::builder_tokio()?
        } else {
            let servers = self
                .nameservers
                .iter()
                .map(|addr| {
                    let mut udp = ConnectionConfig::udp();
                    udp.port = addr.port();
                    let mut tcp = ConnectionConfig::tcp();
                    tcp.port = addr.port();
                    NameServerConfig::new(addr.ip(), true, vec![udp, tcp])
                })
                .collect();
            TokioResolver::builder_with_config(
                ResolverConfig::from_name_servers(servers),
                TokioRuntimeProvider::default(),
            )
        };
        let opts = builder.options_mut();
        opts.timeout = Duration::from_secs(3);
        opts.attempts = 2;
        opts.cache_size = 0;
        opts.preserve_intermediates = true;
        // A domain is absolute; never try it under a search suffix.
        opts.ndots = 0;
        Ok(builder.build()?)
    }

    /// Resolves `domain` and says whether it points at the platform.
    pub async fn check(&self, domain: &str) -> Verdict {
        match self.resolver() {
            Ok(r) => self.pointing(&r, domain).await,
            Err(e) => Verdict::Unreachable(e.to_string()),
        }
    }

    /// Asks both questions: does `_vitrine-challenge.<domain>` hold `token`, and does the
    /// domain point here.
    pub async fn verify(&self, domain: &str, token: &str) -> Verification {
        let resolver = match self.resolver() {
            Ok(r) => r,
            Err(e) => {
                return Verification {
                    proof: Proof::Unreachable(e.to_string()),
                    pointing: Verdict::Unreachable(e.to_string()),
                };
            }
        };
        let (proof, pointing) = tokio::join!(
            self.proof(&resolver, domain, token),
            self.pointing(&resolver, domain)
        );
        Verification { proof, pointing }
    }

    async fn proof(&self, resolver: &TokioResolver, domain: &str, token: &str) -> Proof {
        let name = format!("{}.", crate::domain::challenge_name(&normalise(domain)));
        let lookup = match resolver.lookup(name.as_str(), RecordType::TXT).await {
            Ok(lookup) => lookup,
            Err(e) if e.is_no_records_found() || e.is_nx_domain() => return Proof::Missing,
            Err(e) => return Proof::Unreachable(e.to_string()),
        };
        let mut found = Vec::new();
        for record in lookup.answers() {
            if let RData::TXT(txt) = &record.data {
                // A long value may be split into several character-strings: they join.
                let value: String = txt
                    .txt_data
                    .iter()
                    .map(|part| String::from_utf8_lossy(part))
                    .collect();
                let value = value.trim().trim_matches('"').trim();
                // An empty token would match an empty record: never.
                if !token.is_empty() && value == token {
                    return Proof::Proven;
                }
                push_unique(&mut found, value.chars().take(100).collect());
            }
        }
        if found.is_empty() {
            Proof::Missing
        } else {
            Proof::Wrong(found)
        }
    }

    async fn pointing(&self, resolver: &TokioResolver, domain: &str) -> Verdict {
        let fqdn = format!("{}.", normalise(domain));
        let mut found = Vec::new();
        let mut any_answer = false;
        for kind in [RecordType::A, RecordType::AAAA] {
            match resolver.lookup(fqdn.as_str(), kind).await {
                Ok(lookup) => {
                    for record in lookup.answers() {
                        any_answer = true;
                        match &record.data {
                            RData::CNAME(target) => {
                                let target = normalise(&target.0.to_ascii());
                                if target == self.cname_target {
                                    return Verdict::Points(Pointing::Alias(target));
                                }
                                push_unique(&mut found, target);
                            }
                            RData::A(a) => {
                                let ip = IpAddr::V4(a.0);
                                if self.addresses.contains(&ip) {
                                    return Verdict::Points(Pointing::Address(ip));
                                }
                                push_unique(&mut found, ip.to_string());
                            }
                            RData::AAAA(a) => {
                                let ip = IpAddr::V6(a.0);
                                if self.addresses.contains(&ip) {
                                    return Verdict::Points(Pointing::Address(ip));
                                }
                                push_unique(&mut found, ip.to_string());
                            }
                            _ => {}
                        }
                    }
                }
                Err(e) if e.is_no_records_found() || e.is_nx_domain() => {}
                // An A answer already tells; a server that refuses AAAA does not undo it.
                Err(_) if any_answer => {}
                Err(e) => return Verdict::Unreachable(e.to_string()),
            }
        }
        if any_answer {
            Verdict::Elsewhere(found)
        } else {
            Verdict::NoRecords
        }
    }
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Lower case, no trailing dot.
fn normalise(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// `ip` or `ip:port` (`[v6]:port` for IPv6 with a port); port 53 by default.
fn parse_nameserver(s: &str) -> anyhow::Result<SocketAddr> {
    if let Ok(addr) = s.parse::<SocketAddr>() {
        return Ok(addr);
    }
    s.parse::<IpAddr>()
        .map(|ip| SocketAddr::new(ip, 53))
        .map_err(|_| anyhow::anyhow!("DNS_NAMESERVERS: {s:?} is not ip[:port]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nameservers_take_an_optional_port() {
        assert_eq!(
            parse_nameserver("127.0.0.1").unwrap(),
            "127.0.0.1:53".parse().unwrap()
        );
        assert_eq!(
            parse_nameserver("127.0.0.1:5353").unwrap(),
            "127.0.0.1:5353".parse().unwrap()
        );
        assert_eq!(
            parse_nameserver("[::1]:5353").unwrap(),
            "[::1]:5353".parse().unwrap()
        );
        assert!(parse_nameserver("dns.example").is_err());
    }

    #[test]
    fn names_compare_without_case_or_trailing_dot() {
        assert_eq!(normalise("Sites.Vitrine.Test."), "sites.vitrine.test");
    }
}
