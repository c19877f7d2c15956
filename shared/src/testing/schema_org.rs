//! A small checker of the schema.org JSON-LD the site's pages carry (`crate::seo::jsonld`):
//! for each type used, the properties it must have, the ones it may have, and each property's
//! value type, as schema.org defines them (and Google's rich-result rules ask for: a `Product`
//! has a name and an offer, an `Offer` a price and its currency). Unknown properties are
//! errors, so a misspelt one cannot pass. Tests of publishing and of the edge run every
//! JSON-LD element of a page through [`check`].

use serde_json::Value;

/// What a property's value must be.
#[derive(Clone, Copy)]
enum Kind {
    Text,
    /// An absolute http(s) URL.
    Url,
    /// A whole number.
    Integer,
    /// A decimal number written as text (`"12.50"`), as schema.org's `price` advises.
    DecimalText,
    /// One of schema.org's enumeration members (`https://schema.org/InStock`).
    Enum(&'static [&'static str]),
    /// A nested item of this type.
    Item(&'static str),
    /// A list of these.
    List(&'static Kind),
    /// A URL or a nested item of this type (`item` of a `ListItem`, `logo`).
    UrlOr(&'static str),
}

/// (type, required, optional) properties with their kinds.
type Spec = (
    &'static str,
    &'static [(&'static str, Kind)],
    &'static [(&'static str, Kind)],
);

const AVAILABILITY: &[&str] = &[
    "https://schema.org/InStock",
    "https://schema.org/OutOfStock",
    "https://schema.org/PreOrder",
];

const SPECS: &[Spec] = &[
    (
        "LocalBusiness",
        &[("name", Kind::Text), ("url", Kind::Url)],
        &[
            ("description", Kind::Text),
            ("logo", Kind::UrlOr("ImageObject")),
            ("image", Kind::Url),
            ("telephone", Kind::Text),
            ("email", Kind::Text),
            ("address", Kind::Item("PostalAddress")),
            ("openingHours", Kind::Text),
            ("sameAs", Kind::List(&Kind::Url)),
        ],
    ),
    ("PostalAddress", &[("streetAddress", Kind::Text)], &[]),
    (
        "Product",
        &[("name", Kind::Text), ("offers", Kind::Item("Offer"))],
        &[
            ("url", Kind::Url),
            ("image", Kind::Url),
            ("description", Kind::Text),
        ],
    ),
    (
        "Offer",
        &[("price", Kind::DecimalText), ("priceCurrency", Kind::Text)],
        &[
            ("url", Kind::Url),
            ("availability", Kind::Enum(AVAILABILITY)),
        ],
    ),
    (
        "BreadcrumbList",
        &[("itemListElement", Kind::List(&Kind::Item("ListItem")))],
        &[],
    ),
    (
        "ListItem",
        &[
            ("position", Kind::Integer),
            ("name", Kind::Text),
            ("item", Kind::UrlOr("Thing")),
        ],
        &[],
    ),
];

fn kind_ok(v: &Value, kind: Kind, at: &str) -> Result<(), String> {
    let bad = || Err(format!("{at}: unexpected value {v}"));
    match kind {
        Kind::Text => match v.as_str() {
            Some(s) if !s.trim().is_empty() => Ok(()),
            _ => bad(),
        },
        Kind::Url => match v.as_str() {
            Some(s)
                if (s.starts_with("https://") || s.starts_with("http://"))
                    && !s.contains(char::is_whitespace) =>
            {
                Ok(())
            }
            _ => bad(),
        },
        Kind::Integer => match v.as_i64() {
            Some(n) if n >= 1 => Ok(()),
            _ => bad(),
        },
        Kind::DecimalText => match v.as_str() {
            Some(s) if s.parse::<f64>().is_ok() && !s.contains(',') => Ok(()),
            _ => bad(),
        },
        Kind::Enum(members) => match v.as_str() {
            Some(s) if members.contains(&s) => Ok(()),
            _ => bad(),
        },
        Kind::Item(ty) => item(v, Some(ty), at, false),
        Kind::List(inner) => match v.as_array() {
            Some(items) if !items.is_empty() => items
                .iter()
                .enumerate()
                .try_for_each(|(i, x)| kind_ok(x, *inner, &format!("{at}[{i}]"))),
            _ => bad(),
        },
        Kind::UrlOr(ty) => {
            if v.is_string() {
                kind_ok(v, Kind::Url, at)
            } else if ty == "Thing" {
                bad()
            } else {
                item(v, Some(ty), at, false)
            }
        }
    }
}

fn item(v: &Value, want: Option<&str>, at: &str, top: bool) -> Result<(), String> {
    let obj = v.as_object().ok_or(format!("{at}: not an object"))?;
    if top && obj.get("@context").and_then(Value::as_str) != Some("https://schema.org") {
        return Err(format!("{at}: @context must be https://schema.org"));
    }
    let ty = obj
        .get("@type")
        .and_then(Value::as_str)
        .ok_or(format!("{at}: no @type"))?;
    if want.is_some_and(|w| w != ty) {
        return Err(format!("{at}: @type {ty}, wanted {want:?}"));
    }
    let (_, required, optional) = SPECS
        .iter()
        .find(|(name, _, _)| *name == ty)
        .ok_or(format!("{at}: type {ty} is not one the checker knows"))?;
    for (name, kind) in *required {
        let value = obj.get(*name).ok_or(format!("{at}: {ty} has no {name}"))?;
        kind_ok(value, *kind, &format!("{at}.{name}"))?;
    }
    for (name, value) in obj {
        if name == "@type" || name == "@context" || required.iter().any(|(n, _)| n == name) {
            continue;
        }
        let (_, kind) = optional
            .iter()
            .find(|(n, _)| n == name)
            .ok_or(format!("{at}: {ty} has no property {name} in schema.org"))?;
        kind_ok(value, *kind, &format!("{at}.{name}"))?;
    }
    Ok(())
}

/// Checks one top-level JSON-LD object; returns its `@type`.
pub fn check(v: &Value) -> Result<String, String> {
    item(v, None, "$", true)?;
    Ok(v["@type"].as_str().unwrap_or_default().to_string())
}

/// Every `<script type="application/ld+json">` of an HTML document, parsed.
pub fn scripts(html: &str) -> Vec<Value> {
    let open = "<script type=\"application/ld+json\">";
    html.split(open)
        .skip(1)
        .map(|rest| {
            let json = rest.split("</script>").next().unwrap_or("");
            serde_json::from_str(json).unwrap_or_else(|e| panic!("bad JSON-LD {json}: {e}"))
        })
        .collect()
}
