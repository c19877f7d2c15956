use super::*;

fn file(br: bool, gz: bool) -> StaticFile {
    StaticFile {
        key: "k".into(),
        content_type: "text/html".into(),
        etag: "\"abc\"".into(),
        size: 10,
        br: br.then(|| "k.br".into()),
        gzip: gz.then(|| "k.gz".into()),
        immutable: false,
    }
}

#[test]
fn encodings_prefer_br_then_gzip_and_respect_q_zero() {
    let f = file(true, true);
    assert_eq!(negotiate(Some("gzip, deflate, br"), &f), Coding::Br);
    assert_eq!(negotiate(Some("gzip"), &f), Coding::Gzip);
    assert_eq!(negotiate(Some("br;q=0, gzip;q=0.5"), &f), Coding::Gzip);
    assert_eq!(negotiate(Some("identity"), &f), Coding::Identity);
    assert_eq!(negotiate(None, &f), Coding::Identity);
    assert_eq!(negotiate(Some("*"), &f), Coding::Br);
    assert_eq!(negotiate(Some("br"), &file(false, true)), Coding::Identity);
}

#[test]
fn ranges_parse_one_range_and_refuse_the_unsatisfiable() {
    assert_eq!(parse_range("bytes=0-3", 10), Range::One(0, 3));
    assert_eq!(parse_range("bytes=5-", 10), Range::One(5, 9));
    assert_eq!(parse_range("bytes=-3", 10), Range::One(7, 9));
    assert_eq!(parse_range("bytes=-30", 10), Range::One(0, 9));
    assert_eq!(parse_range("bytes=8-100", 10), Range::One(8, 9));
    assert_eq!(parse_range("bytes=10-", 10), Range::Unsatisfiable);
    assert_eq!(parse_range("bytes=-0", 10), Range::Unsatisfiable);
    assert_eq!(parse_range("bytes=0-0", 0), Range::Unsatisfiable);
    assert_eq!(parse_range("bytes=0-1,3-4", 10), Range::None);
    assert_eq!(parse_range("bytes=5-2", 10), Range::None);
    assert_eq!(parse_range("items=0-1", 10), Range::None);
    assert_eq!(parse_range("bytes=x-1", 10), Range::None);
    assert_eq!(parse_range("bytes=99999999999999999999-", 10), Range::None);
}

#[test]
fn variant_tags_differ_from_the_identity_tag() {
    assert_eq!(variant_etag("\"abc\"", "br"), "\"abc-br\"");
    let mut h = HeaderMap::new();
    h.insert(
        header::IF_NONE_MATCH,
        HeaderValue::from_static("W/\"x\", \"abc-br\""),
    );
    assert!(none_match(&h, &["\"abc\"", "\"abc-br\""]));
    assert!(!none_match(&h, &["\"abc\""]));
}
