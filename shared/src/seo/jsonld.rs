//! JSON-LD structured data (schema.org) in a page's `<head>`: the business
//! ([`local_business`], on every page), a collection item's product ([`product`], on items of
//! collections that have a price) and the way to the page ([`breadcrumbs`]).
//!
//! Empty values are left out rather than written empty: a `"telephone": ""` is an error to a
//! validator, an absent one is not. Everything an owner or a record wrote goes through
//! [`script`], which makes the JSON safe inside `<script>`: no `</script>` or `<!--` can close
//! or change the element, whatever the text.

use serde_json::{Map, Value, json};

use super::absolute;
use crate::identity::Identity;
use crate::list_query::DbRecord;
use crate::store::Field;

const CONTEXT: &str = "https://schema.org";

/// Inserts `key` when `value` is not empty.
fn put(obj: &mut Map<String, Value>, key: &str, value: &str) {
    let value = value.trim();
    if !value.is_empty() {
        obj.insert(key.into(), Value::String(value.to_string()));
    }
}

/// An upload or asset path made absolute on the site (`base`); `""` stays empty.
fn url_on(base: &str, path: &str) -> String {
    let path = path.trim();
    if path.is_empty() {
        String::new()
    } else {
        absolute(base, path)
    }
}

/// `LocalBusiness` from the site's identity: name, url, description, logo, telephone (the
/// phone, else the WhatsApp number), e-mail, address, opening hours and `sameAs` (the social
/// links). `logo` is the logo's address on the site (publishing copies the upload).
pub fn local_business(identity: &Identity, base: &str, logo: &str) -> Value {
    let mut o = Map::new();
    o.insert("@context".into(), CONTEXT.into());
    o.insert("@type".into(), "LocalBusiness".into());
    put(&mut o, "name", &identity.name);
    o.insert("url".into(), absolute(base, "/").into());
    put(&mut o, "description", &identity.description);
    put(&mut o, "logo", &url_on(base, logo));
    put(&mut o, "image", &url_on(base, logo));
    let phone = if identity.phone.trim().is_empty() && !identity.whatsapp.is_empty() {
        format!("+{}", identity.whatsapp)
    } else {
        identity.phone.clone()
    };
    put(&mut o, "telephone", &phone);
    put(&mut o, "email", &identity.email);
    if !identity.address.trim().is_empty() {
        o.insert(
            "address".into(),
            json!({"@type": "PostalAddress", "streetAddress": identity.address.trim()}),
        );
    }
    put(&mut o, "openingHours", &identity.hours);
    let s = &identity.social;
    let same_as: Vec<Value> = [
        &s.instagram,
        &s.facebook,
        &s.tiktok,
        &s.youtube,
        &s.linkedin,
        &s.x,
    ]
    .into_iter()
    .map(|u| u.trim())
    .filter(|u| !u.is_empty())
    .map(Value::from)
    .collect();
    if !same_as.is_empty() {
        o.insert("sameAs".into(), Value::Array(same_as));
    }
    Value::Object(o)
}

/// `BreadcrumbList` of `(name, absolute url)` from the home page to this page.
pub fn breadcrumbs(trail: &[(String, String)]) -> Value {
    let items: Vec<Value> = trail
        .iter()
        .enumerate()
        .map(|(i, (name, url))| {
            json!({"@type": "ListItem", "position": i + 1, "name": name, "item": url})
        })
        .collect();
    json!({"@context": CONTEXT, "@type": "BreadcrumbList", "itemListElement": items})
}

/// Field slugs read as "in stock" (a checkbox, or a number above zero).
const STOCK_SLUGS: [&str; 7] = [
    "estoque",
    "em_estoque",
    "em-estoque",
    "disponivel",
    "stock",
    "in_stock",
    "available",
];

/// `Product` with its `Offer` for a collection item whose collection has a price (a currency
/// field: "product-like"), else `None`. The price is the first currency field's cents in BRL
/// (a collection's currency field is cents with a symbol, not a currency code: the platform's
/// sites sell in reais); the image is the first image field's; availability is known when a
/// stock field ([`STOCK_SLUGS`]) is a checkbox or a number.
pub fn product(record: &DbRecord, fields: &[Field], base: &str, path: &str) -> Option<Value> {
    let price_field = fields.iter().find(|f| f.kind == "currency")?;
    let url = absolute(base, path);
    let mut offer = Map::new();
    offer.insert("@type".into(), "Offer".into());
    offer.insert("url".into(), url.clone().into());
    offer.insert("priceCurrency".into(), "BRL".into());
    if let Some(cents) = record.fields.get(&price_field.slug).and_then(Value::as_i64) {
        let sign = if cents < 0 { "-" } else { "" };
        let abs = cents.unsigned_abs();
        offer.insert(
            "price".into(),
            format!("{sign}{}.{:02}", abs / 100, abs % 100).into(),
        );
    }
    let stock = fields
        .iter()
        .find(|f| STOCK_SLUGS.contains(&f.slug.as_str()))
        .and_then(|f| match record.fields.get(&f.slug)? {
            Value::Bool(b) => Some(*b),
            Value::Number(n) => n.as_f64().map(|n| n > 0.0),
            _ => None,
        });
    if let Some(in_stock) = stock {
        let a = if in_stock { "InStock" } else { "OutOfStock" };
        offer.insert("availability".into(), format!("{CONTEXT}/{a}").into());
    }
    let mut p = Map::new();
    p.insert("@context".into(), CONTEXT.into());
    p.insert("@type".into(), "Product".into());
    put(&mut p, "name", &record.name);
    p.insert("url".into(), url.into());
    let text = |kinds: &[&str]| {
        fields
            .iter()
            .filter(|f| kinds.contains(&f.kind.as_str()))
            .find_map(|f| record.fields.get(&f.slug)?.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    put(&mut p, "image", &url_on(base, &text(&["image"])));
    let description = text(&["textarea", "text"]);
    put(
        &mut p,
        "description",
        &description.chars().take(300).collect::<String>(),
    );
    p.insert("offers".into(), Value::Object(offer));
    Some(Value::Object(p))
}

/// The `<script type="application/ld+json">` elements of `values` (the document's, which
/// the head of every page writes: `crate::render::json_ld_script`).
pub use crate::render::json_ld_script as script;

#[cfg(test)]
#[path = "jsonld_tests.rs"]
mod tests;
