use std::net::IpAddr;

use super::*;

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn tomorrows_salt_does_not_match_todays_visitors() {
    let key = AnalyticsKey::new("fleet secret");
    let ip: IpAddr = "203.0.113.7".parse().unwrap();
    let ua = b"Mozilla/5.0 (iPhone)";
    let p = ProjectId::new(7);
    let today = key.salt(day("2026-11-01")).visitor(p, ip, ua);
    assert_eq!(today, key.salt(day("2026-11-01")).visitor(p, ip, ua));
    // Another edge with the same key agrees; a new day does not.
    assert_eq!(
        today,
        AnalyticsKey::new("fleet secret")
            .salt(day("2026-11-01"))
            .visitor(p, ip, ua)
    );
    assert_ne!(today, key.salt(day("2026-11-02")).visitor(p, ip, ua));
    // Another site, network or browser is another visitor; one /64 is one network.
    assert_ne!(
        today,
        key.salt(day("2026-11-01"))
            .visitor(ProjectId::new(8), ip, ua)
    );
    let salt = key.salt(day("2026-11-01"));
    let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
    let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
    let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
    assert_eq!(salt.visitor(p, a, ua), salt.visitor(p, b, ua));
    assert_ne!(salt.visitor(p, a, ua), salt.visitor(p, c, ua));
}

/// The keyed state the salt holds gives the hash the module docs define, byte for byte: an
/// edge of this version and one of the last (which keyed a fresh HMAC per page) count one
/// person once.
#[test]
fn a_visitor_is_the_documented_hmac_of_the_days_salt() {
    let key = AnalyticsKey::new("fleet secret");
    let ua = b"Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari";
    let p = ProjectId::new(42);
    let mut m = mac(b"fleet secret");
    m.update(b"vitrine-analytics-salt:2026-11-01");
    let salt = m.finalize().into_bytes();
    for (ip, network) in [
        ("203.0.113.7", vec![203, 0, 113, 7]),
        ("::ffff:203.0.113.7", vec![203, 0, 113, 7]),
        ("2001:db8:1:2::1", vec![0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2]),
    ] {
        let mut m = mac(&salt);
        m.update(&42i64.to_le_bytes());
        m.update(&network);
        m.update(b"\0");
        m.update(ua);
        let want = i64::from_le_bytes(m.finalize().into_bytes()[..8].try_into().unwrap());
        let ip: IpAddr = ip.parse().unwrap();
        assert_eq!(key.salt(day("2026-11-01")).visitor(p, ip, ua), want, "{ip}");
    }
}

#[test]
fn only_signed_tap_targets_of_the_four_kinds_verify() {
    let key = AnalyticsKey::new("k");
    let url = "https://wa.me/5511999999999?text=oi";
    let sig = key.sign(url);
    assert!(key.verify(url, &sig));
    assert!(!key.verify("https://wa.me/5511000000000", &sig));
    assert!(!AnalyticsKey::new("other").verify(url, &sig));
    assert!(!key.verify(url, "zz"));
    assert_eq!(tap_of(url), Some(Tap::WhatsApp));
    assert_eq!(tap_of("tel:+5511999999999"), Some(Tap::Phone));
    assert_eq!(tap_of("MAILTO:a@b.example"), Some(Tap::Email));
    assert_eq!(tap_of("https://evil.example/"), None);
    assert_eq!(tap_of("javascript:alert(1)"), None);
    assert_eq!(tap_of("https://wa.me.evil.example/"), None);
}

/// Every `href` of `html`, decoded as a browser reads it.
fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| {
            let raw = &rest[..rest.find('"').expect("closing quote")];
            html_escape::decode_html_entities(raw).into_owned()
        })
        .collect()
}

#[test]
fn tap_links_are_rewritten_and_others_are_left() {
    let key = AnalyticsKey::new("k");
    let html = br#"<p><a href="https://wa.me/55119">Zap</a> <a href="/about">About</a> <a href=" tel:+551199 ">Call</a> <a href="MAILTO:a@b.example">Mail</a></p>"#;
    let out = String::from_utf8(rewrite_taps(html, &key).unwrap()).unwrap();
    assert_eq!(
        hrefs(&out),
        [
            key.go_href("https://wa.me/55119"),
            "/about".to_string(),
            key.go_href("tel:+551199"),
            key.go_href("MAILTO:a@b.example"),
        ],
        "{out}"
    );
    assert!(rewrite_taps(b"<a href=\"/x\">x</a>", &key).is_none());
    assert!(rewrite_taps(b"<a href=\"https://wa.me.evil.example/\">x</a>", &key).is_none());
}

/// The site's templates escape `/` in attributes: the identity's WhatsApp button is written
/// `https:&#x2f;&#x2f;wa.me&#x2f;…` (`render::site_tests`), and must be counted all the same.
#[test]
fn escaped_tap_links_are_read_as_the_browser_reads_them() {
    let key = AnalyticsKey::new("k");
    let html = br#"<a href="https:&#x2f;&#x2f;wa.me&#x2f;5511987654321" target="_blank">Zap</a><a href="https:&#47;&#47;api.whatsapp.com&sol;send?phone=55&amp;text=oi">Z</a><a href="&#x2f;contato">Fale</a>"#;
    let out = String::from_utf8(rewrite_taps(html, &key).unwrap()).unwrap();
    assert_eq!(
        hrefs(&out),
        [
            key.go_href("https://wa.me/5511987654321"),
            key.go_href("https://api.whatsapp.com/send?phone=55&text=oi"),
            "/contato".to_string(),
        ],
        "{out}"
    );
}
