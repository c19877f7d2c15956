//! Tests of domain names, slugs and what owners paste as a domain.
use super::*;
use serde_json::Value;

fn vectors() -> Value {
    let raw = include_str!("../../testdata/validation.json");
    serde_json::from_str(raw).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn slugify_matches_the_shared_vectors() {
    for pair in vectors()["slug"].as_array().unwrap() {
        let (input, want) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
        assert_eq!(slugify(input), want, "slugify({input:?})");
    }
}

#[test]
fn page_slugs_match_the_shared_vectors() {
    for pair in vectors()["page_slug"].as_array().unwrap() {
        let (input, want) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
        assert_eq!(
            normalize_page_slug(input),
            want,
            "normalize_page_slug({input:?})"
        );
    }
}

#[test]
fn preview_slugs_match_the_shared_vectors() {
    let v = vectors();
    for s in strings(&v["preview_slug"]["valid"]) {
        assert!(PreviewSlug::parse(&s).is_ok(), "{s:?} should be valid");
    }
    for s in strings(&v["preview_slug"]["invalid"]) {
        assert!(PreviewSlug::parse(&s).is_err(), "{s:?} should be invalid");
    }
    assert_eq!(
        PreviewSlug::parse("my site").unwrap_err().message,
        PREVIEW_SLUG_MESSAGE
    );
    assert_eq!(PreviewSlug::parse("A-B").unwrap().as_str(), "a-b");
}

#[test]
fn reserved_slugs_match_the_shared_vectors() {
    let v = vectors();
    let mut listed = strings(&v["preview_slug"]["reserved"]);
    listed.sort();
    let mut ours: Vec<String> = RESERVED_SLUGS.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(ours, listed, "the list here and in validation.json differ");
    for s in listed
        .iter()
        .chain(&strings(&v["preview_slug"]["reserved_shapes"]))
    {
        let err = PreviewSlug::parse(s).unwrap_err();
        assert_eq!(err.code, ErrorCode::SlugReserved, "{s:?}");
        assert_eq!(err.message, RESERVED_SLUG_MESSAGE, "{s:?}");
    }
    assert_eq!(PreviewSlug::from_name("Admin").as_str(), "admin-site");
}

#[test]
fn a_name_and_its_www_twin_are_one_unit() {
    assert_eq!(domain_unit("www.shop.example"), "shop.example");
    assert_eq!(domain_unit("shop.example"), "shop.example");
    assert_eq!(domain_unit("www.www.shop.example"), "www.shop.example");
    for name in ["shop.example", "www.shop.example"] {
        assert_eq!(domain_unit(&www_twin(name)), domain_unit(name), "{name}");
    }
    assert_eq!(
        challenge_name("shop.example"),
        "_vitrine-challenge.shop.example"
    );
    assert_eq!(challenge_value("abc"), "vitrine-verify=abc");
}

#[test]
fn domains_match_the_shared_vectors() {
    let v = vectors();
    for s in strings(&v["domain"]["valid"]) {
        assert!(DomainName::parse(&s).is_ok(), "{s:?} should be valid");
    }
    for s in strings(&v["domain"]["invalid"]) {
        let err = DomainName::parse(&s).unwrap_err();
        assert_eq!(err.message, DOMAIN_MESSAGE, "{s:?}");
    }
    assert_eq!(
        DomainName::parse("Sub.Example.ORG").unwrap().as_str(),
        "sub.example.org"
    );
}

#[test]
fn pasted_domains_are_cleaned_as_the_shared_vectors_say() {
    for pair in vectors()["domain_input"].as_array().unwrap() {
        let (raw, host) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
        assert_eq!(pasted_host(raw), host, "{raw:?}");
    }
    assert_eq!(
        DomainName::from_input(" https://WWW.X.com.br/ ")
            .unwrap()
            .as_str(),
        "www.x.com.br"
    );
    for bad in [
        "",
        "   ",
        "https://",
        "exa mple.com",
        "http://1.2.3.4/",
        "x",
    ] {
        assert!(DomainName::from_input(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn emails_match_the_shared_vectors() {
    let v = vectors();
    for s in strings(&v["email"]["valid"]) {
        assert!(Email::parse(&s).is_ok(), "{s:?} should be valid");
    }
    for s in strings(&v["email"]["invalid"]) {
        assert!(Email::parse(&s).is_err(), "{s:?} should be invalid");
    }
    assert_eq!(
        Email::parse(" Ana@Example.COM ").unwrap().as_str(),
        "ana@example.com"
    );
}

#[test]
fn platform_sub_domains_are_recognised() {
    let d = DomainName::parse("shop.vitrine.site").unwrap();
    assert!(d.is_within("vitrine.site"));
    assert!(
        DomainName::parse("vitrine.site")
            .unwrap()
            .is_within("Vitrine.Site.")
    );
    assert!(
        !DomainName::parse("notvitrine.site")
            .unwrap()
            .is_within("vitrine.site")
    );
}

#[test]
fn preview_slug_from_a_name_is_always_valid() {
    for name in [
        "Minha Loja",
        "!!!",
        "Café & Cia — 2026",
        &"x".repeat(100),
        "a_b",
        "Admin",
        "www",
        "API",
        "Status",
    ] {
        let slug = PreviewSlug::from_name(name);
        assert!(
            PreviewSlug::parse(slug.as_str()).is_ok(),
            "{name:?} -> {slug:?}"
        );
    }
}

#[test]
fn required_text_trims_and_bounds() {
    assert_eq!(
        required_text(
            "name",
            Some("  Loja "),
            10,
            ErrorCode::Required,
            "Project name is required"
        )
        .unwrap(),
        "Loja"
    );
    assert_eq!(
        required_text(
            "name",
            Some("   "),
            10,
            ErrorCode::Required,
            "Project name is required"
        )
        .unwrap_err()
        .message,
        "Project name is required"
    );
    assert!(required_text("name", Some("abcdefghijk"), 10, ErrorCode::Required, "x").is_err());
    assert!(new_password("short").is_err());
    assert!(new_password("long enough").is_ok());
}
