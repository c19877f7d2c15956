//! Share cards (issue 44, `vitrine_shared::seo::card`) over real sockets on both databases: a
//! published page and a collection item name a 1200×630 PNG in their Open Graph and Twitter
//! tags, on the site's canonical address; the edge serves it as an immutable file (an item's
//! drawn on first request); an item whose title or photo changes names a new card; a made-up
//! card is a 404; a huge title still makes a bounded card; a site without a logo has cards,
//! and adding one changes them.

use std::time::Instant;

use base64::Engine as _;
use reqwest::header::HeaderMap;
use serde_json::{Value, json};

mod seo_stack;
use seo_stack::Stack;

/// The content of `<meta {attr}="{key}" content="…">` in `html`.
fn meta(html: &str, attr: &str, key: &str) -> Option<String> {
    let start = html.find(&format!("<meta {attr}=\"{key}\" content=\""))?;
    let rest = &html[start..];
    let value = &rest[rest.find("content=\"")? + "content=\"".len()..];
    Some(value[..value.find('"')?].replace("&amp;", "&"))
}

/// The card a page names, checked: absolute on `base`, the same for Twitter, 1200×630 with
/// its alternative text. Answers its path on the site.
fn card_of(html: &str, base: &str) -> String {
    let og = meta(html, "property", "og:image").unwrap_or_else(|| panic!("no og:image: {html}"));
    assert!(og.starts_with(&format!("{base}/_og/")), "{og}");
    assert!(og.ends_with(".png"), "{og}");
    assert_eq!(meta(html, "name", "twitter:image").as_deref(), Some(&*og));
    assert_eq!(
        meta(html, "name", "twitter:card").as_deref(),
        Some("summary_large_image")
    );
    assert_eq!(
        meta(html, "property", "og:image:width").as_deref(),
        Some("1200")
    );
    assert_eq!(
        meta(html, "property", "og:image:height").as_deref(),
        Some("630")
    );
    assert!(meta(html, "property", "og:image:alt").is_some_and(|a| !a.is_empty()));
    og[base.len()..].to_string()
}

impl Stack {
    /// Fetches the card at `path` on `host`: a PNG of 1200×630, cached as immutable.
    async fn card(&self, host: &str, path: &str) -> (Vec<u8>, HeaderMap) {
        let res = self
            .visitor
            .get(format!("{}{path}", self.edge))
            .header("host", host)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let headers = res.headers().clone();
        assert_eq!(headers["content-type"], "image/png");
        assert!(
            headers["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
        let bytes = res.bytes().await.unwrap().to_vec();
        let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
            .expect("a valid PNG");
        assert_eq!((img.width(), img.height()), (1200, 630), "{path}");
        (bytes, headers)
    }

    async fn upload(&self, prefix: Value, name: &str, mime: &str, bytes: &[u8]) -> String {
        let res = self
            .owner
            .post(format!("{}/api/upload", self.base))
            .json(&json!({"name": name, "prefix": prefix, "content": format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))}))
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success(), "{}", res.status());
        res.text().await.unwrap().trim_matches('"').to_string()
    }
}

vitrine_shared::dual_test!(
    async fn pages_and_items_have_share_cards(s: Stack) {
        let owner_id = s.send(reqwest::Method::GET, "/api/user", json!({})).await.1["id"]
            .as_i64()
            .unwrap();
        let project = s
            .post("/api/projects", json!({"name": "Doceria Conceição"}))
            .await;
        let id = project["id"].as_i64().unwrap();
        let slug = project["slug"].as_str().unwrap().to_string();
        let host = format!("{slug}.localhost");
        let base = format!("https://{slug}.vitrine.test");
        let home = project["pages"][0]["id"].as_i64().unwrap();
        s.send(
            reqwest::Method::PUT,
            &format!("/api/projects/{id}/theme"),
            json!({"primary": "#9a3412", "accent": "#fbbf24"}),
        )
        .await;
        s.post(
            &format!("/api/page/{home}"),
            json!({"blocks": [{"uid": "h", "name": "Hero",
            "template": "<h1>Doces finos</h1>", "css": "", "js": ""}]}),
        )
        .await;
        let (table, price) = s.products(id).await;
        let photo = s
            .post(
                "/api/fields",
                json!({"table_id": table, "name": "Foto", "type": "image"}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        // A real photo: uploads are decoded and made into variants; the card shows a small one.
        let jpeg = vitrine_shared::testing::photos::phone_photo(800, 600, 1);
        let src = s
            .upload(
                json!([owner_id, id, table]),
                "brigadeiro.jpg",
                "image/jpeg",
                &jpeg,
            )
            .await;
        let post = s
            .post(
                "/api/posts",
                json!({"table_id": table, "name": "Brigadeiro de açaí", "slug": "brigadeiro",
                "fields": [{"field_id": price, "value": 450}, {"field_id": photo, "value": src}]}),
            )
            .await;
        let post_id = post["id"]
            .as_i64()
            .or_else(|| post["post"]["id"].as_i64())
            .unwrap();
        let item_page = s
            .post("/api/pages", json!({"project_id": id, "name": "Produto"}))
            .await["id"]
            .as_i64()
            .unwrap();
        s.post(&format!("/api/page/{item_page}"), json!({"slug": "produtos", "table_id": table,
            "blocks": [{"uid": "p", "name": "Produto", "template": "<h1>{{ post.name }}</h1>", "css": "", "js": ""}]}))
            .await;
        let started = Instant::now();
        s.publish(id).await;
        println!("publish with 1 page card: {:?}", started.elapsed());
        let html = s
            .until(&host, "/", |st, b| st == 200 && b.contains("Doces finos"))
            .await;

        // The home page's card: drawn at publish, no logo on this site.
        let home_card = card_of(&html, &base);
        assert!(home_card.starts_with("/_og/") && home_card.matches('/').count() == 2);
        let (first, headers) = s.card(&host, &home_card).await;
        assert!(headers.get("etag").is_some());

        // The item's card: named by the page, drawn on its first request, then a plain file.
        let html = s
            .until(&host, "/produtos/brigadeiro", |st, _| st == 200)
            .await;
        let item_card = card_of(&html, &base);
        assert!(
            item_card.starts_with("/_og/produtos/brigadeiro/"),
            "{item_card}"
        );
        assert_eq!(
            meta(&html, "property", "og:image:alt").as_deref(),
            Some("Brigadeiro de açaí | Doceria Conceição")
        );
        let started = Instant::now();
        let (drawn, _) = s.card(&host, &item_card).await;
        println!("item card drawn on first request: {:?}", started.elapsed());
        let started = Instant::now();
        let (again, _) = s.card(&host, &item_card).await;
        println!("item card served again: {:?}", started.elapsed());
        assert_eq!(drawn, again);
        assert_ne!(drawn, first);

        // A made-up or malformed card is the site's 404 and draws nothing.
        let fake = item_card
            .replace(".png", "")
            .chars()
            .rev()
            .skip(24)
            .collect::<String>();
        let fake: String = fake.chars().rev().collect();
        for path in [
            format!("{fake}{}.png", "0".repeat(24)),
            "/_og/produtos/nao-existe/000000000000000000000000.png".into(),
            "/_og/000000000000000000000000.png".into(),
            "/_og/../../manifest.png".into(),
            "/_og/produtos/brigadeiro/xyz.png".into(),
        ] {
            let (status, _, _) = s.visit(&host, &path).await;
            assert!(status == 404 || status == 400, "{path}: {status}");
        }

        // The title changes: the page names a new card, with other pixels.
        s.post(
            &format!("/api/posts/{post_id}"),
            json!({"table_id": table, "name": "Brigadeiro gourmet", "slug": "brigadeiro",
            "fields": [{"field_id": price, "value": 450}, {"field_id": photo, "value": src}]}),
        )
        .await;
        let html = s
            .until(&host, "/produtos/brigadeiro", |st, b| {
                st == 200 && b.contains("Brigadeiro gourmet")
            })
            .await;
        let renamed = card_of(&html, &base);
        assert_ne!(renamed, item_card);
        let (bytes, _) = s.card(&host, &renamed).await;
        assert_ne!(bytes, drawn);
        // The photo goes: another card again.
        s.post(
            &format!("/api/posts/{post_id}"),
            json!({"table_id": table, "name": "Brigadeiro gourmet", "slug": "brigadeiro",
            "fields": [{"field_id": price, "value": 450}, {"field_id": photo, "value": ""}]}),
        )
        .await;
        let html = s
            .until(&host, "/produtos/brigadeiro", |st, b| {
                st == 200 && !b.contains(&renamed)
            })
            .await;
        let no_photo = card_of(&html, &base);
        assert_ne!(no_photo, renamed);
        s.card(&host, &no_photo).await;

        // A huge title still makes a bounded card.
        let huge = "Torta de limão com merengue suíço ".repeat(300);
        s.post(
            "/api/posts",
            json!({"table_id": table, "name": huge.trim(), "slug": "torta",
            "fields": [{"field_id": price, "value": 9900}]}),
        )
        .await;
        let html = s.until(&host, "/produtos/torta", |st, _| st == 200).await;
        s.card(&host, &card_of(&html, &base)).await;

        // A logo: the pages' cards change at the next publish.
        let png = vitrine_shared::testing::photos::phone_photo(400, 120, 1);
        let logo = s
            .upload(json!([owner_id, id]), "logo.jpg", "image/jpeg", &png)
            .await;
        let (status, body) = s
            .send(
                reqwest::Method::PUT,
                &format!("/api/projects/{id}/identity"),
                json!({"name": "Doceria Conceição", "logo": logo}),
            )
            .await;
        assert!(status.is_success(), "{status} {body}");
        s.publish(id).await;
        let html = s
            .until(&host, "/", |st, b| st == 200 && !b.contains(&home_card))
            .await;
        let with_logo = card_of(&html, &base);
        let (bytes, _) = s.card(&host, &with_logo).await;
        assert_ne!(bytes, first);
        // A publish that changes nothing draws nothing and names the same card.
        s.publish(id).await;
        let (_, html, _) = s.visit(&host, "/").await;
        assert_eq!(card_of(&html, &base), with_logo);
    }
);
