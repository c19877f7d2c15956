//! Custom-domain DNS verification: does a domain point at the platform?
//!
//! A domain points here when it has an A/AAAA record for one of the platform's public
//! addresses (`PUBLIC_IP`, comma-separated for IPv4 and IPv6), or a CNAME (anywhere in its
//! chain) to the platform's target (`CNAME_TARGET`). The control plane asks this when an owner
//! verifies a domain, and the edge asks it again before every renewal.
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
        let resolver = match self.resolver() {
            Ok(r) => r,
            Err(e) => return Verdict::Unreachable(e.to_string()),
        };
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
