use serde_json::{Map, Value, json};

use super::*;
use crate::identity::Social;
use crate::ids::{CollectionId, FieldId, PostId};
use crate::store::Json;
use crate::testing::schema_org::{check, scripts};

fn field(id: i64, slug: &str, kind: &str) -> Field {
    Field {
        id: FieldId(id),
        collection_id: CollectionId(1),
        name: slug.into(),
        slug: slug.into(),
        kind: kind.into(),
        required: false,
        position: id,
        options: Json(Value::Null),
        meta: Json(Value::Null),
    }
}

fn record(name: &str, fields: Value) -> DbRecord {
    let fields: Map<String, Value> = serde_json::from_value(fields).unwrap();
    DbRecord {
        id: PostId(1),
        name: name.into(),
        slug: "bolo".into(),
        created_at: chrono::Utc::now(),
        fields,
        formatted: Map::new(),
        url: None,
    }
}

fn identity() -> Identity {
    Identity {
        name: "Padaria Central".into(),
        description: "Pão quentinho".into(),
        logo: "/_assets/abc.png".into(),
        whatsapp: "5511987654321".into(),
        phone: String::new(),
        email: "oi@padaria.example".into(),
        address: "Rua A, 1 - São Paulo".into(),
        hours: "Seg a Sáb, 7h às 19h".into(),
        social: Social {
            instagram: "https://instagram.com/padaria".into(),
            ..Social::default()
        },
    }
}

#[test]
fn local_business_names_the_identity_and_leaves_out_empty_fields() {
    let v = local_business(&identity(), "https://padaria.example", "/_assets/abc.png");
    assert_eq!(check(&v), Ok("LocalBusiness".into()));
    assert_eq!(v["url"], "https://padaria.example/");
    assert_eq!(v["logo"], "https://padaria.example/_assets/abc.png");
    assert_eq!(
        v["telephone"], "+5511987654321",
        "the WhatsApp number without a phone"
    );
    assert_eq!(v["address"]["streetAddress"], "Rua A, 1 - São Paulo");
    assert_eq!(v["openingHours"], "Seg a Sáb, 7h às 19h");
    assert_eq!(v["sameAs"], json!(["https://instagram.com/padaria"]));
    let bare = local_business(
        &Identity {
            name: "Loja".into(),
            ..Identity::default()
        },
        "https://loja.vitrine.test",
        "",
    );
    assert_eq!(check(&bare), Ok("LocalBusiness".into()));
    let keys: Vec<&String> = bare.as_object().unwrap().keys().collect();
    assert_eq!(
        keys.len(),
        4,
        "only @context, @type, name and url: {keys:?}"
    );
}

#[test]
fn a_product_has_its_offer_in_brl_with_availability_when_known() {
    let fields = [
        field(1, "preco", "currency"),
        field(2, "foto", "image"),
        field(3, "estoque", "number"),
        field(4, "resumo", "textarea"),
    ];
    let r = record(
        "Bolo de fubá",
        json!({"preco": 1250, "foto": "/files/uploads/1/2/bolo.png", "estoque": 3, "resumo": "Fofinho"}),
    );
    let v = product(&r, &fields, "https://padaria.example", "/produtos/bolo").unwrap();
    assert_eq!(check(&v), Ok("Product".into()));
    assert_eq!(v["offers"]["price"], "12.50");
    assert_eq!(v["offers"]["priceCurrency"], "BRL");
    assert_eq!(v["offers"]["availability"], "https://schema.org/InStock");
    assert_eq!(
        v["image"],
        "https://padaria.example/files/uploads/1/2/bolo.png"
    );
    assert_eq!(v["url"], "https://padaria.example/produtos/bolo");
    let out = record("Bolo", json!({"preco": 5, "estoque": 0}));
    let v = product(&out, &fields, "https://p.example", "/p/b").unwrap();
    assert_eq!(v["offers"]["price"], "0.05");
    assert_eq!(v["offers"]["availability"], "https://schema.org/OutOfStock");
    assert_eq!(check(&v), Ok("Product".into()));
    // No price field: not product-like, no Product.
    assert_eq!(
        product(&out, &fields[1..], "https://p.example", "/p/b"),
        None
    );
}

#[test]
fn breadcrumbs_count_from_one() {
    let v = breadcrumbs(&[
        ("Início".into(), "https://a.b/".into()),
        ("Produtos".into(), "https://a.b/produtos".into()),
        ("Bolo".into(), "https://a.b/produtos/bolo".into()),
    ]);
    assert_eq!(check(&v), Ok("BreadcrumbList".into()));
    assert_eq!(v["itemListElement"][2]["position"], 3);
}

#[test]
fn the_checker_refuses_what_schema_org_does_not_define() {
    let mut v = local_business(&identity(), "https://a.b", "");
    v["telefone"] = "1".into();
    assert!(check(&v).unwrap_err().contains("telefone"));
    let no_offer = json!({"@context": "https://schema.org", "@type": "Product", "name": "x"});
    assert!(check(&no_offer).unwrap_err().contains("offers"));
    let bad_price = json!({"@context": "https://schema.org", "@type": "Product", "name": "x",
        "offers": {"@type": "Offer", "price": "12,50", "priceCurrency": "BRL"}});
    assert!(check(&bad_price).is_err());
}

#[test]
fn hostile_text_cannot_close_the_script_element() {
    let evil = "</script><script>alert(1)</script>\u{2028}<!-- & x";
    let mut id = identity();
    id.name = evil.into();
    id.address = "</SCRIPT>".into();
    let r = record(evil, json!({"preco": 100}));
    let fields = [field(1, "preco", "currency")];
    let values = vec![
        local_business(&id, "https://a.b", ""),
        product(&r, &fields, "https://a.b", "/p/x").unwrap(),
    ];
    let html = script(&values);
    assert_eq!(html.matches("</script>").count(), 2, "{html}");
    assert!(
        !html.to_ascii_lowercase().contains("</script><script>"),
        "{html}"
    );
    assert!(
        !html.contains("<!--") && !html.contains('\u{2028}'),
        "{html}"
    );
    // Read back, the data is the owner's text exactly.
    let parsed = scripts(&html);
    assert_eq!(parsed[0]["name"], evil);
    assert_eq!(parsed[1]["name"], evil);
    assert_eq!(parsed[0]["address"]["streetAddress"], "</SCRIPT>");
    for v in &parsed {
        check(v).unwrap();
    }
}

#[test]
fn an_items_description_is_its_first_long_text_as_plain_words() {
    let fields = [
        field(1, "sabor", "text"),
        field(2, "descricao", "wysiwyg"),
        field(3, "notas", "textarea"),
    ];
    let r = record(
        "Bolo",
        json!({
            "sabor": "Cenoura",
            "descricao": "<p>Bolo <b>fofinho</b> de cenoura &amp; chocolate,</p><p>feito no dia.</p>",
            "notas": "depois"
        }),
    );
    assert_eq!(
        crate::seo::item_description(&r, &fields),
        "Bolo fofinho de cenoura & chocolate, feito no dia."
    );
    // An empty long text gives way to the next; a short text field is no description.
    let r = record(
        "Bolo",
        json!({"sabor": "Cenoura", "descricao": "<p> </p>", "notas": "Macio"}),
    );
    assert_eq!(crate::seo::item_description(&r, &fields), "Macio");
    assert_eq!(crate::seo::item_description(&r, &fields[..2]), "");
    assert_eq!(
        crate::seo::item_description(&record("Bolo", json!({})), &fields),
        ""
    );
    // Long text is cut at a word, with an ellipsis, within the limit.
    let long = "palavra ".repeat(40);
    let r = record("Bolo", json!({"notas": long}));
    let d = crate::seo::item_description(&r, &fields);
    assert!(d.ends_with("palavra…"), "{d}");
    assert!(d.chars().count() <= crate::seo::DESCRIPTION_CHARS, "{d}");
}
