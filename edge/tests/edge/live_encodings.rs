//! Pages rendered from live records (a page with a product grid, a collection page) and the
//! read API are sent compressed as static pages are: the render worker makes their br and gzip
//! variants once per render, and each request picks one by `Accept-Encoding`, with
//! `Vary: Accept-Encoding` and a validator per representation, over HTTP/1.1 and h2, from the
//! full path and from the hot routes alike.

use std::io::Read;

use serde_json::json;
use vitrine_shared::ids::{CollectionId, ProjectId};
use vitrine_shared::{
    dual_test,
    store::{FieldInput, NewPost},
    testing::TestDb,
};

use crate::{
    hot::route_hits,
    live::seeded_product_grid,
    support::{TestEdge, basic, live_page},
};

const HOST: &str = "padaria.localhost";
const PATHS: [&str; 4] = [
    "/",
    "/produto/pao-de-queijo",
    "/_api/collections/produtos",
    "/_api/collections/produtos?order_field=name&order_dir=asc&limit=2",
];

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// A bakery whose home page lists its products, with a page per product and the read API.
/// Returns the collection's id and the price field's.
async fn bakery(t: &TestEdge) -> (i64, i64) {
    let padaria = t.project("padaria").await;
    let store = &t.db.store;
    let c = store
        .insert_collection(ProjectId(padaria), "produtos", "produtos", &json!({}))
        .await
        .unwrap();
    let price = store
        .insert_field(
            c.id,
            &FieldInput {
                name: "Preço".into(),
                slug: "price".into(),
                kind: "currency".into(),
                required: false,
                options: json!([]),
                meta: json!({"symbol": "R$", "format": "(symbol) 9.999,99"}),
            },
        )
        .await
        .unwrap();
    for (slug, name, cents) in [
        ("pao-de-queijo", "Pão de queijo", 4200),
        ("bolo-de-fuba", "Bolo de fubá", 3500),
        ("brigadeiro", "Brigadeiro", 250),
    ] {
        let mut data = serde_json::Map::new();
        data.insert(price.id.to_string(), json!(cents));
        let post = NewPost {
            name: name.into(),
            slug: slug.into(),
            data,
            created_at: vitrine_shared::store::now(),
        };
        store.insert_post(c.id, &post, u64::MAX).await.unwrap();
    }
    let mut home = live_page("/", None, "");
    home.blocks = vec![seeded_product_grid("produtos", "/sobre")];
    let mut site = basic("unused");
    site.files.retain(|f| f.path != "/");
    site.dynamic_pages.insert("/".into(), home);
    let mut product = live_page("produto", Some(c.id.get()), "");
    product.blocks = vec![seeded_product_grid("produtos", "/sobre")];
    product.blocks[0].template = format!(
        "<h1>{{{{ post.name }}}}</h1><p>{{{{ post.fields.price }}}}</p>{}",
        product.blocks[0].template
    );
    site.collection_pages.insert("produto".into(), product);
    site.collections.insert("produtos".into(), c.id);
    t.publish(padaria, site).await;
    (c.id.get(), price.id.get())
}

/// What a client sees of one answer: status, `content-encoding`, `etag`, `vary` and the body
/// as sent.
struct Seen {
    status: u16,
    encoding: Option<String>,
    etag: String,
    vary: Option<String>,
    body: Vec<u8>,
}

async fn seen(r: reqwest::RequestBuilder) -> Seen {
    let r = r.send().await.unwrap();
    let header = |name: &str| {
        r.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    Seen {
        status: r.status().as_u16(),
        encoding: header("content-encoding"),
        etag: header("etag").unwrap_or_default(),
        vary: header("vary"),
        body: r.bytes().await.unwrap().to_vec(),
    }
}

/// Every representation of `path` over `client` (HTTP/1.1 or h2): identity without
/// `Accept-Encoding`, br when offered first, gzip when br is refused; each decodes to the
/// identity body and has its own tag, and each tag revalidates to a 304 of its own coding.
/// Returns the identity body.
async fn negotiates(client: &reqwest::Client, base: &str, path: &str) -> Vec<u8> {
    let get = |ae: Option<&str>| {
        let r = client.get(format!("{base}{path}")).header("host", HOST);
        match ae {
            Some(ae) => r.header("accept-encoding", ae),
            None => r,
        }
    };
    let plain = seen(get(None)).await;
    assert_eq!(plain.status, 200, "{path}");
    assert_eq!(plain.encoding, None, "{path}");
    assert_eq!(plain.vary.as_deref(), Some("Accept-Encoding"), "{path}");
    let br = seen(get(Some("gzip, br"))).await;
    assert_eq!(br.encoding.as_deref(), Some("br"), "{path}");
    assert_eq!(br.vary.as_deref(), Some("Accept-Encoding"), "{path}");
    assert_eq!(unbrotli(&br.body), plain.body, "{path}");
    // Kept only when it saves a tenth; a page of the grid's size saves over half.
    assert!(
        br.body.len() * 10 < plain.body.len() * 9,
        "{path}: br saves little"
    );
    if !path.starts_with("/_api/") {
        assert!(
            br.body.len() * 2 < plain.body.len(),
            "{path}: br saves little"
        );
    }
    let gz = seen(get(Some("br;q=0, gzip"))).await;
    assert_eq!(gz.encoding.as_deref(), Some("gzip"), "{path}");
    assert_eq!(gunzip(&gz.body), plain.body, "{path}");
    let tags = [&plain.etag, &br.etag, &gz.etag];
    assert!(tags.iter().all(|t| t.starts_with('"')), "{path}: {tags:?}");
    assert!(
        plain.etag != br.etag && br.etag != gz.etag && plain.etag != gz.etag,
        "{path}: one tag per representation: {tags:?}"
    );
    for (ae, tag, coding) in [
        (None, &plain.etag, None),
        (Some("br"), &br.etag, Some("br")),
        (Some("gzip"), &gz.etag, Some("gzip")),
    ] {
        let again = seen(get(ae).header("if-none-match", tag.as_str())).await;
        assert_eq!(again.status, 304, "{path} {ae:?}");
        assert_eq!(&again.etag, tag, "{path} {ae:?}");
        assert_eq!(again.encoding.as_deref(), coding, "{path} {ae:?}");
        assert!(again.body.is_empty());
    }
    plain.body
}

dual_test! {
    async fn live_pages_and_the_read_api_negotiate_br_and_gzip_with_a_tag_per_coding(db: TestDb) {
        // One visitor thread, so a repeat request meets the hot routes the first one filled.
        let t = TestEdge::start_with(db, None, |s| s.edge_workers = 1).await;
        let (collection, price) = bakery(&t).await;
        t.feed_applied().await;
        let base = t.url("");
        let h1 = reqwest::Client::builder().http1_only().build().unwrap();
        let h2 = reqwest::Client::builder().http2_prior_knowledge().build().unwrap();
        let mut bodies = Vec::new();
        for path in PATHS {
            let first = negotiates(&h1, &base, path).await;
            // Answered again from the hot routes, and over h2: the same representations.
            let hits = route_hits(&t).await;
            assert_eq!(negotiates(&h1, &base, path).await, first, "{path}");
            assert!(route_hits(&t).await > hits, "{path} was not answered hot");
            assert_eq!(negotiates(&h2, &base, path).await, first, "{path}");
            bodies.push(String::from_utf8(first).unwrap());
        }
        assert!(bodies[0].contains("Pão de queijo") && bodies[0].contains("R$ 42,00"), "{}", bodies[0]);
        assert!(bodies[1].contains("<h1>Pão de queijo</h1>"), "{}", bodies[1]);
        assert!(bodies[2].contains("\"formatted\""), "{}", bodies[2]);
        // The read API's hot routes are kept by path and query: each query its own answer.
        let count = |body: &str| serde_json::from_str::<serde_json::Value>(body).unwrap().as_array().unwrap().len();
        assert_eq!((count(&bodies[2]), count(&bodies[3])), (3, 2));
        assert!(bodies[3].contains("Bolo de fubá") && bodies[3].contains("Brigadeiro"), "{}", bodies[3]);

        // A price edit: every representation of every path follows, under new tags.
        let old = seen(h1.get(format!("{base}/")).header("host", HOST).header("accept-encoding", "br")).await;
        let post = t.db.store.query_posts(CollectionId(collection), None, &[], 10, 0, vitrine_shared::store::LIST_QUERY_TIMEOUT)
            .await.unwrap().into_iter().find(|p| p.slug == "pao-de-queijo").unwrap();
        let mut data = post.data.0.clone();
        data.insert(price.to_string(), json!(4990));
        t.db.store.update_post(post.id, &post.name, &post.slug, &data).await.unwrap();
        t.until(HOST, "/", 200, "R$ 49,90", std::time::Duration::from_secs(1)).await;
        for path in &PATHS[..3] {
            let body = String::from_utf8(negotiates(&h1, &base, path).await).unwrap();
            assert!(body.contains("49,90"), "{path}: {body}");
        }
        let new = seen(h1.get(format!("{base}/")).header("host", HOST).header("accept-encoding", "br")).await;
        assert_ne!(new.etag, old.etag);
        assert!(String::from_utf8(unbrotli(&new.body)).unwrap().contains("R$ 49,90"));
        t.edge.stop().await;
    }
}
