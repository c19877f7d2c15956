use super::*;

#[test]
fn an_ipv6_visitor_is_its_slash_64_and_a_mapped_ipv4_is_itself() {
    let key = |s: &str| visitor_key(s.parse().unwrap());
    assert_eq!(
        key("2001:db8:1:2::1"),
        key("2001:db8:1:2:ffff:ffff:ffff:ffff")
    );
    assert_eq!(
        key("2001:db8:1:2::1"),
        "2001:db8:1:2::".parse::<IpAddr>().unwrap()
    );
    assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
    assert_eq!(key("::ffff:203.0.113.9"), key("203.0.113.9"));
    assert_ne!(key("203.0.113.9"), key("203.0.113.10"));
}
