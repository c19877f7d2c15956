//! Which address a request really came from when the edge sits behind load balancers.
//!
//! The TCP peer is the only address a visitor cannot forge. `X-Forwarded-For` is believed
//! only when that peer is one of the configured trusted proxies (`EDGE_TRUSTED_PROXIES`),
//! and then only as far as the chain is vouched for: it is read right to left (each proxy
//! appends the address it received the request from) and the first address that is not a
//! trusted proxy is the client. A malformed entry ends the walk and the peer is used, so a
//! garbled header never lets anything through that the peer itself would not.
//!
//! Rate limits that must not let one client lock out another key clients by their *network*
//! ([`client_network`]): an IPv4 address, or the /64 an IPv6 address belongs to.
//!
//! CIDR ranges are parsed with `ipnet` (the small, maintained crate that reqwest and hyper-util
//! already bring in; prefix arithmetic for both address families is easy to get subtly wrong).

use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed; empty trusts nobody.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Parses a comma-separated list of addresses (`10.0.0.7`, `::1`) and CIDR ranges
    /// (`10.0.0.0/8`, `fd00::/8`). Blank entries are skipped; anything else is an error
    /// naming the entry.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map(|n| n.trunc())
                    .map_err(|_| format!("{entry:?} is not an IP address or CIDR range"))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` is one of the trusted proxies (IPv4-mapped IPv6 counts as IPv4).
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|n| n.contains(&ip))
    }

    /// The client address of a request from `peer` carrying these `X-Forwarded-For` header
    /// values (in the order received; several headers read as one list). Entries may carry a
    /// port (`1.2.3.4:5678`, `[::1]:80`), which is dropped.
    pub fn client_ip<'a>(
        &self,
        peer: IpAddr,
        forwarded_for: impl IntoIterator<Item = &'a str>,
    ) -> IpAddr {
        let peer = peer.to_canonical();
        if !self.trusts(peer) {
            return peer;
        }
        let entries: Vec<&str> = forwarded_for
            .into_iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect();
        let mut client = peer;
        for entry in entries.iter().rev() {
            let Some(ip) = parse_entry(entry) else {
                return peer;
            };
            client = ip;
            if !self.trusts(ip) {
                return ip;
            }
        }
        // Every hop was a trusted proxy: the leftmost is as far back as anyone vouches for.
        client
    }
}

/// The network a client address stands for in rate limits: an IPv4 address on its own (/32),
/// an IPv6 address's /64. IPv4 addresses are scarce, so one usually is one subscriber (or one
/// NAT), and its neighbours in a /24 are often unrelated customers of the same provider; an
/// IPv6 subscriber gets at least a /64 (RFC 6177) and can pick any address inside it, so
/// keying by the full address would hand each client 2^64 fresh keys. IPv4-mapped IPv6 counts
/// as IPv4.
pub fn client_network(ip: IpAddr) -> IpNet {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpNet::from(IpAddr::V4(v4)),
        IpAddr::V6(v6) => ipnet::Ipv6Net::new(v6, 64)
            .expect("64 is a valid IPv6 prefix length")
            .trunc()
            .into(),
    }
}

fn parse_entry(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn lists_of_addresses_and_ranges_parse_and_garbage_is_named() {
        let t = TrustedProxies::parse(" 10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1,").unwrap();
        assert!(t.trusts(ip("10.200.3.4")));
        assert!(t.trusts(ip("192.168.1.7")));
        assert!(!t.trusts(ip("192.168.1.8")));
        assert!(t.trusts(ip("fd12::1")));
        assert!(t.trusts(ip("::1")));
        assert!(
            t.trusts(ip("::ffff:10.1.1.1")),
            "IPv4-mapped counts as IPv4"
        );
        assert!(!t.trusts(ip("11.0.0.1")));
        assert!(TrustedProxies::parse("").unwrap().is_empty());
        assert!(TrustedProxies::parse(" , ").unwrap().is_empty());
        // A host address inside a range is the range.
        assert!(
            TrustedProxies::parse("10.1.2.3/16")
                .unwrap()
                .trusts(ip("10.1.99.1"))
        );
        for bad in [
            "10.0.0.0/33",
            "proxy.local",
            "10.0.0",
            "1.2.3.4/",
            "::1/200",
        ] {
            let err = TrustedProxies::parse(&format!("127.0.0.1,{bad}")).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn forwarded_for_is_ignored_unless_the_peer_is_trusted() {
        let none = TrustedProxies::default();
        assert_eq!(
            none.client_ip(ip("127.0.0.1"), ["203.0.113.9"]),
            ip("127.0.0.1")
        );
        let t = TrustedProxies::parse("10.0.0.0/8").unwrap();
        assert_eq!(
            t.client_ip(ip("198.51.100.1"), ["203.0.113.9"]),
            ip("198.51.100.1")
        );
    }

    #[test]
    fn the_chain_is_walked_right_to_left_to_the_first_untrusted_hop() {
        let t = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let peer = ip("10.0.0.1");
        assert_eq!(t.client_ip(peer, ["203.0.113.9"]), ip("203.0.113.9"));
        assert_eq!(
            t.client_ip(peer, ["203.0.113.9, 10.0.0.2"]),
            ip("203.0.113.9")
        );
        // A visitor's own forged entries sit left of the first untrusted hop: never reached.
        assert_eq!(
            t.client_ip(peer, ["1.1.1.1, 203.0.113.9, 10.0.0.2"]),
            ip("203.0.113.9")
        );
        // Several headers are one list, in order.
        assert_eq!(
            t.client_ip(peer, ["1.1.1.1", "203.0.113.9"]),
            ip("203.0.113.9")
        );
        // Ports and IPv6 forms.
        assert_eq!(t.client_ip(peer, ["203.0.113.9:4711"]), ip("203.0.113.9"));
        assert_eq!(t.client_ip(peer, ["[2001:db8::1]:80"]), ip("2001:db8::1"));
        assert_eq!(t.client_ip(peer, ["2001:db8::1"]), ip("2001:db8::1"));
        // All hops trusted: the leftmost.
        assert_eq!(t.client_ip(peer, ["10.9.9.9, 10.0.0.2"]), ip("10.9.9.9"));
        // No header: the peer.
        assert_eq!(t.client_ip(peer, []), peer);
    }

    #[test]
    fn networks_are_an_ipv4_address_or_an_ipv6_slash_64() {
        let net = |s: &str| client_network(ip(s)).to_string();
        assert_eq!(net("203.0.113.9"), "203.0.113.9/32");
        assert_ne!(net("203.0.113.9"), net("203.0.113.10"));
        assert_eq!(net("::ffff:203.0.113.9"), "203.0.113.9/32");
        assert_eq!(net("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(net("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
        assert_ne!(net("2001:db8:1:2::1"), net("2001:db8:1:3::1"));
    }

    #[test]
    fn a_malformed_entry_stops_the_walk_at_the_peer() {
        let t = TrustedProxies::parse("10.0.0.0/8").unwrap();
        let peer = ip("10.0.0.1");
        for bad in [
            "garbage",
            "203.0.113.9, nonsense",
            "",
            "1.2.3.4, ,10.0.0.2",
            "unknown",
        ] {
            assert_eq!(t.client_ip(peer, [bad]), peer, "{bad:?}");
        }
        // Garbage left of the client is never looked at.
        assert_eq!(
            t.client_ip(peer, ["garbage, 203.0.113.9"]),
            ip("203.0.113.9")
        );
    }
}
