//! The rule for outbound fetches (fonts at publish time, later the external data proxy and
//! screenshots): only public unicast addresses may be reached unless configuration allows
//! private ones (`FETCH_ALLOW_PRIVATE`), so a site owner cannot make the platform read its own
//! internal services. The HTTP client applies [`is_public`] to every address a name resolves
//! to, right before it connects, so a name that changes answers (DNS rebinding) is caught too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Whether `ip` is a public unicast address (not loopback, private, link-local, shared,
/// documentation, multicast, broadcast or unspecified; IPv4-mapped IPv6 is judged as IPv4).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0
        // 100.64.0.0/10 shared address space (carrier-grade NAT)
        || (a == 100 && (64..128).contains(&b))
        // 192.0.0.0/24 protocol assignments
        || (a == 192 && b == 0 && c == 0)
        // 198.18.0.0/15 benchmarking
        || (a == 198 && (b == 18 || b == 19))
        // 240.0.0.0/4 reserved
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        // fc00::/7 unique local
        || (first & 0xfe00) == 0xfc00
        // fe80::/10 link-local
        || (first & 0xffc0) == 0xfe80
        // 2001:db8::/32 documentation
        || (first == 0x2001 && ip.segments()[1] == 0x0db8)
        // ::ffff:0:0/96 handled above; 64:ff9b::/96 NAT64 may reach anything
        || (first == 0x0064 && ip.segments()[1] == 0xff9b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_special_addresses_are_not_public() {
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(!is_public(s.parse().unwrap()), "{s}");
        }
        for s in [
            "1.1.1.1",
            "151.101.1.229",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(is_public(s.parse().unwrap()), "{s}");
        }
    }
}
