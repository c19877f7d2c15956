//! The rule for outbound fetches (fonts at publish time, the external data proxy): only
//! public unicast addresses on the web's ports (80 and 443) may be reached unless
//! configuration allows private ones (`FETCH_ALLOW_PRIVATE`), so a site owner cannot make the
//! platform read its own internal services or speak to other services (SMTP, Redis, …) of a
//! public host. The HTTP client applies [`is_public`] to every address a name resolves to,
//! right before it connects, so a name that changes answers (DNS rebinding) is caught too.
//!
//! IPv6 addresses that carry an IPv4 address (IPv4-mapped `::ffff:0:0/96`, NAT64
//! `64:ff9b::/96`) are judged by the IPv4 address they reach. Transition ranges whose far end
//! cannot be judged here are refused whole: the local-use NAT64 prefix `64:ff9b:1::/48` (it
//! reaches the operator's own IPv4 networks), 6to4 `2002::/16` and Teredo `2001::/32`
//! (deprecated tunnels to arbitrary IPv4 hosts), and the deprecated IPv4-compatible `::/96`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The ports an outbound fetch may connect to (HTTP and HTTPS).
pub const WEB_PORTS: [u16; 2] = [80, 443];

/// Whether a fetch may connect to `port`.
pub fn is_web_port(port: u16) -> bool {
    WEB_PORTS.contains(&port)
}

/// Whether `ip` is a public unicast address (not loopback, private, link-local, shared,
/// documentation, multicast, broadcast or unspecified; IPv4-mapped IPv6 is judged as IPv4).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped().or_else(|| nat64_target(v6)) {
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

/// The IPv4 address a well-known-prefix NAT64 address (`64:ff9b::/96`, RFC 6052) reaches.
fn nat64_target(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    (s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]).then(|| {
        let [.., a, b, c, d] = ip.octets();
        Ipv4Addr::new(a, b, c, d)
    })
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        // ::/96 IPv4-compatible (deprecated), which some stacks still route to IPv4
        || s[..6] == [0; 6]
        // 64:ff9b:1::/48 local-use NAT64 (RFC 8215): the operator's own IPv4 networks
        || (s[0] == 0x0064 && s[1] == 0xff9b && s[2] == 0x0001)
        // 100::/64 discard-only
        || (s[0] == 0x0100 && s[1..4] == [0, 0, 0])
        // 2001::/32 Teredo and 2002::/16 6to4: tunnels to IPv4 hosts
        || (s[0] == 0x2001 && s[1] == 0)
        || s[0] == 0x2002
        // 2001:db8::/32 documentation
        || (s[0] == 0x2001 && s[1] == 0x0db8)
        // fc00::/7 unique local
        || (s[0] & 0xfe00) == 0xfc00
        // fe80::/10 link-local, fec0::/10 site-local (deprecated)
        || (s[0] & 0xffc0) == 0xfe80
        || (s[0] & 0xffc0) == 0xfec0)
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
            // NAT64 of private and loopback IPv4 addresses
            "64:ff9b::a00:1",
            "64:ff9b::127.0.0.1",
            "64:ff9b::169.254.169.254",
            // local-use NAT64, whatever it embeds
            "64:ff9b:1::808:808",
            "64:ff9b:1:ffff::1",
            // 6to4 and Teredo, whatever they embed
            "2002:a00:1::1",
            "2002:808:808::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            // IPv4-compatible, discard-only, site-local
            "::127.0.0.1",
            "::8.8.8.8",
            "100::1",
            "fec0::1",
        ] {
            assert!(!is_public(s.parse().unwrap()), "{s}");
        }
        for s in [
            "1.1.1.1",
            "151.101.1.229",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            // NAT64 of a public IPv4 address is how IPv6-only hosts reach it
            "64:ff9b::808:808",
            "2001:4860:4860::8888",
        ] {
            assert!(is_public(s.parse().unwrap()), "{s}");
        }
    }

    #[test]
    fn only_the_web_ports_may_be_fetched() {
        assert!(is_web_port(80) && is_web_port(443));
        for port in [0, 22, 25, 6379, 8080, 8443, 9200] {
            assert!(!is_web_port(port), "{port}");
        }
    }
}
