//! Sites made from the shipped templates under the owner's own name: the template's business
//! name on no page, and the bakery's product photos stored, made into photos (variants),
//! shown and published.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::dual_test;
use vitrine_shared::ids::{DeployId, ProjectId};

use crate::helpers::{TestApp, json_ok};

/// The names a site made from a shipped template must never show: the template's business
/// name (its identity's), HTML-escaped too, and its last two words when it has more (the
/// bakery's header used to say "Grão Dourado").
fn business_names(raw: &str) -> (String, Vec<String>) {
    let file: Value = serde_json::from_str(raw).unwrap();
    let name = file["project_meta"]["identity"]["name"]
        .as_str()
        .expect("a template carries its sample identity")
        .to_string();
    let mut names = vec![name.clone(), name.replace('&', "&amp;")];
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() > 2 {
        names.push(words[words.len() - 2..].join(" "));
    }
    (file["name"].as_str().unwrap().to_string(), names)
}

dual_test!(
    async fn every_page_of_a_site_made_from_a_template_shows_its_own_name_and_never_the_templates(
        app: TestApp,
    ) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("bruna@example.com").await;
        let list = json_ok(app.get(&s, "/api/templates").await).await;
        let mut pages_seen = 0;
        for (_, raw) in vitrine_control::seed::TEMPLATE_FILES {
            let (template_name, forbidden) = business_names(raw);
            let t = list
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["name"] == template_name.as_str())
                .unwrap_or_else(|| panic!("{template_name} is listed"));
            let site = json_ok(
                app.post(
                    &s,
                    &format!("/api/templates/use/{}", t["id"]),
                    json!({"name": "Doces da Bruna"}),
                )
                .await,
            )
            .await;
            for page in site["pages"].as_array().unwrap() {
                let path = format!("/api/project/{}/page/{}/preview", site["id"], page["id"]);
                let res = app.get(&s, &path).await;
                assert_eq!(res.status(), StatusCode::OK, "{template_name} {path}");
                let html = res.text().await.unwrap();
                let at = format!("{template_name}, page {}", page["slug"]);
                for name in &forbidden {
                    assert!(!html.contains(name.as_str()), "{at} shows {name:?}");
                }
                assert!(
                    html.contains("Doces da Bruna"),
                    "{at} lacks the site's name"
                );
                pages_seen += 1;
            }
        }
        assert!(pages_seen >= 11, "{pages_seen} pages");
    }
);

dual_test!(
    async fn the_bakery_templates_products_show_their_photos_in_the_editor_and_on_the_site(
        app: TestApp,
    ) {
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        let s = app.register("fotos@example.com").await;
        let list = json_ok(app.get(&s, "/api/templates").await).await;
        let bakery = list
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["category"] == "Negócios")
            .unwrap()
            .clone();
        let site = json_ok(
            app.post(
                &s,
                &format!("/api/templates/use/{}", bakery["id"]),
                json!({"name": "Doces da Bruna"}),
            )
            .await,
        )
        .await;
        let pid = site["id"].as_i64().unwrap();
        // Every shipped picture is stored and served, as a JPEG, under its content key.
        let keys: Vec<String> = vitrine_control::seed::images()
            .map(|(name, bytes)| vitrine_control::seed::image_key(name, bytes))
            .collect();
        assert!(keys.len() >= 5);
        for key in &keys {
            let res = reqwest::get(app.url(&format!("/files/{key}")))
                .await
                .unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{key}");
            assert_eq!(res.headers()["content-type"], "image/jpeg");
            assert!(res.bytes().await.unwrap().len() > 5_000);
        }
        // The grid on the home page, the catalogue and a product page show them.
        let page_id = |slug: &str| {
            site["pages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["slug"] == slug)
                .unwrap()["id"]
                .clone()
        };
        for (slug, at_least) in [("/", 4), ("produtos", 5), ("produto", 1)] {
            let path = format!("/api/project/{pid}/page/{}/preview", page_id(slug));
            let html = app.get(&s, &path).await.text().await.unwrap();
            let shown = keys
                .iter()
                .filter(|k| html.contains(&k.replace('/', "&#x2f;")) || html.contains(*k))
                .count();
            assert!(shown >= at_least, "{slug}: {shown} photos\n{html}");
        }
        // Published, the deploy lists them, so the edge serves them on the site's host.
        let published = json_ok(
            app.post(&s, &format!("/api/publish_v2/{pid}"), json!({}))
                .await,
        )
        .await;
        let deploy = published["deploy"]["id"].as_i64().unwrap();
        let manifest: vitrine_shared::manifest::Manifest = serde_json::from_slice(
            &app.app
                .state()
                .blobs
                .get(&vitrine_shared::manifest::manifest_key(
                    ProjectId(pid),
                    DeployId(deploy),
                ))
                .await
                .unwrap(),
        )
        .unwrap();
        for key in &keys {
            assert!(
                manifest.uploads.contains(key),
                "{key} not in {:?}",
                manifest.uploads
            );
            // Each is a photo, made at seed time: its small variants (the 800-pixel picture at
            // 320, 640 and 800) are listed too, so the edge serves them and its live pages
            // show the picture as a <picture> of them.
            let photo = app.store.photo(key).await.unwrap().expect("a photo row");
            assert_eq!((photo.width, photo.height), (800, 600), "{key}");
            let widths: std::collections::BTreeSet<u32> =
                photo.variants.iter().map(|v| v.width).collect();
            assert_eq!(widths.into_iter().collect::<Vec<_>>(), [320, 640, 800]);
            for v in &photo.variants {
                assert!(manifest.uploads.contains(&v.key), "{} not listed", v.key);
                let res = reqwest::get(app.url(&format!("/files/{}", v.key)))
                    .await
                    .unwrap();
                assert_eq!(res.status(), StatusCode::OK, "{}", v.key);
                assert_eq!(res.headers()["content-type"], v.format.mime());
            }
        }
        // Seeding again makes nothing twice.
        let before = app.store.photo(&keys[0]).await.unwrap();
        vitrine_control::seed::run(app.app.state()).await.unwrap();
        assert_eq!(app.store.photo(&keys[0]).await.unwrap(), before);
    }
);
