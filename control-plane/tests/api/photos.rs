//! Photos (issue 44): made at upload in a sandbox worker within budgets, upright and without
//! EXIF, in variants a phone gets light; shown by published pages as `<picture>`s; older
//! uploads converted in the background with progress for administrators.

use std::time::Instant;

use base64::Engine;
use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::{
    dual_test,
    photos::{PhotoFormat, WIDTHS},
    testing::photos::{bomb_png, has_metadata, phone_photo},
};

use crate::helpers::{Session, TestApp, json_ok};
use crate::publish::{home_page_id, manifest, page_html, publish};

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

async fn send(app: &TestApp, s: &Session, pid: i64, name: &str, bytes: &[u8]) -> reqwest::Response {
    app.post(
        s,
        "/api/upload",
        json!({"name": name, "content": data_url("image/jpeg", bytes), "prefix": [s.id(), pid]}),
    )
    .await
}

/// Every stored upload's key.
async fn stored(app: &TestApp) -> Vec<String> {
    let mut keys: Vec<String> = app
        .app
        .state()
        .blobs
        .list("uploads/")
        .await
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    keys.sort();
    keys
}

/// The variant a browser takes from a `srcset` of `widths` for `css_px` at `dpr`: the
/// narrowest at least as wide as needed, else the widest.
fn picked(widths: &[u32], css_px: u32, dpr: u32) -> u32 {
    let need = css_px * dpr;
    let mut sorted = widths.to_vec();
    sorted.sort_unstable();
    sorted
        .iter()
        .copied()
        .find(|&w| w >= need)
        .unwrap_or(*sorted.last().unwrap())
}

/// The photo `key` once its AVIF variants are made in the background (at most four minutes:
/// the worker's own deadline is two).
async fn avif_made(app: &TestApp, key: &str) -> vitrine_shared::photos::Photo {
    for _ in 0..2400 {
        let photo = app.store.photo(key).await.unwrap().expect("a photo row");
        if photo.variants.iter().any(|v| v.format == PhotoFormat::Avif) {
            return photo;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no AVIF variants for {key}");
}

dual_test!(
    async fn a_decompression_bomb_is_refused_with_a_coded_422_and_nothing_is_stored(app: TestApp) {
        let s = app.register("bomba@example.com").await;
        let pid = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        let bomb = bomb_png(50_000, 50_000);
        assert!(bomb.len() < 4096, "{} bytes", bomb.len());
        let res = app
            .post(
                &s,
                "/api/upload",
                json!({"name": "bomba.png", "content": data_url("image/png", &bomb), "prefix": [s.id(), pid]}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "image_too_large", "{body}");
        assert_eq!(body["params"]["width"], 50_000, "{body}");
        assert_eq!(body["params"]["max_megapixels"], 50, "{body}");
        // Nothing written, nothing charged.
        assert_eq!(stored(&app).await, Vec::<String>::new());
        let usage = json_ok(app.get(&s, "/api/user/storage").await).await;
        assert_eq!(
            (usage["bytes"].as_u64(), usage["files"].as_u64()),
            (Some(0), Some(0)),
            "{usage}"
        );
        // Not an image at all, though it says so: unreadable, coded, nothing stored.
        let res = send(
            &app,
            &s,
            pid,
            "x.jpg",
            b"\xff\xd8\xff\xe0\0\x10JFIF\0garbage",
        )
        .await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "image_unreadable", "{body}");
        assert_eq!(stored(&app).await, Vec::<String>::new());
    }
);

dual_test!(
    async fn a_phone_photo_is_upright_without_exif_and_reaches_a_phone_light(app: TestApp) {
        let s = app.register("foto@example.com").await;
        let pid = app.create_project(&s, "Loja").await["id"].as_i64().unwrap();
        let sent = phone_photo(4000, 3000, 6);
        assert!(has_metadata(&sent));
        let started = Instant::now();
        let res = send(&app, &s, pid, "IMG_2024.jpg", &sent).await;
        let took = started.elapsed();
        assert_eq!(res.status(), StatusCode::CREATED);
        let url = res.text().await.unwrap();
        let key = url.trim_start_matches("/files/").to_string();

        // The original: upright (portrait), without EXIF or GPS.
        let original = app.app.state().blobs.get(&key).await.unwrap();
        assert!(!has_metadata(&original), "the original keeps metadata");
        let img = image::load_from_memory(&original).unwrap();
        assert_eq!((img.width(), img.height()), (3000, 4000));

        // The upload answered once its WebP and JPEG variants were made, at all five widths;
        // its AVIF ones, most of the work, follow in the background.
        let at_answer = app.store.photo(&key).await.unwrap().expect("a photo row");
        assert_eq!(at_answer.variants.len(), WIDTHS.len() * 2);
        assert!(
            at_answer
                .variants
                .iter()
                .all(|v| v.format != PhotoFormat::Avif),
            "the upload waited for its AVIF variants"
        );
        let photo = avif_made(&app, &key).await;
        let avif_after = started.elapsed();

        // Variants at every width, in three formats, none with metadata, never upscaled.
        assert_eq!((photo.width, photo.height), (3000, 4000));
        assert!(photo.placeholder.starts_with("data:image/webp;base64,"));
        assert!(photo.placeholder.len() < 600, "{}", photo.placeholder.len());
        // AVIF, WebP and JPEG at all five widths.
        assert_eq!(photo.variants.len(), WIDTHS.len() * 3);
        let mut report = Vec::new();
        for v in &photo.variants {
            let bytes = app.app.state().blobs.get(&v.key).await.unwrap();
            assert_eq!(bytes.len() as u64, v.bytes);
            assert!(!has_metadata(&bytes), "{}", v.key);
            assert!(v.height > v.width, "{} is not upright", v.key);
            report.push(format!(
                "{} {}w {} KB",
                v.format.ext(),
                v.width,
                v.bytes / 1024
            ));
        }
        // A 390-CSS-pixel phone at DPR 3 with `sizes` of 100vw takes the 1280 variant.
        let widths: Vec<u32> = photo
            .variants
            .iter()
            .filter(|v| v.format == PhotoFormat::Avif)
            .map(|v| v.width)
            .collect();
        let width = picked(&widths, 390, 3);
        assert_eq!(width, 1280);
        for format in [PhotoFormat::Avif, PhotoFormat::Webp] {
            let v = photo
                .variants
                .iter()
                .find(|v| v.format == format && v.width == width)
                .unwrap();
            assert!(
                v.bytes <= 150 * 1024,
                "{format:?} at {width}: {} bytes",
                v.bytes
            );
        }
        eprintln!(
            "phone photo: sent {} KB, original kept {} KB, upload answered in {took:?}, \
             AVIF variants made {avif_after:?} after sending; {}",
            sent.len() / 1024,
            original.len() / 1024,
            report.join(", ")
        );
        // What is charged is everything kept.
        let usage = json_ok(app.get(&s, "/api/user/storage").await).await;
        let kept = original.len() as u64 + photo.variants.iter().map(|v| v.bytes).sum::<u64>();
        assert_eq!(usage["bytes"].as_u64(), Some(kept), "{usage}");

        // A published page shows it as a <picture>: sources, sizes, intrinsic size, priority.
        let home = home_page_id(&app, &s, pid).await;
        json_ok(
            app.post(
                &s,
                &format!("/api/page/{home}"),
                json!({"blocks": [{"uid": "fotos", "template": format!("<img src=\"{url}\" alt=\"capa\"><p>texto</p><img src=\"{url}\" alt=\"de novo\">")}]}),
            )
            .await,
        )
        .await;
        let deploy = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let m = manifest(&app, pid, deploy).await;
        let html = page_html(&app, &m, "/").await;
        assert_eq!(html.matches("<picture>").count(), 2, "{html}");
        assert!(
            html.contains(r#"<source type="image/avif" srcset="/_assets/"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<source type="image/webp" srcset="/_assets/"#),
            "{html}"
        );
        assert!(
            html.contains(r#"sizes="(max-width: 3000px) 100vw, 3000px""#),
            "{html}"
        );
        assert!(html.contains(r#"width="3000" height="4000""#), "{html}");
        assert_eq!(html.matches(r#"fetchpriority="high""#).count(), 1, "{html}");
        assert_eq!(html.matches(r#"loading="lazy""#).count(), 1, "{html}");
        assert!(
            html.contains("background:url(data:image/webp;base64,"),
            "{html}"
        );
        assert!(!html.contains("/files/uploads/"), "{html}");
        // Every variant is served by the site, immutable.
        for v in &photo.variants {
            let hash = m.routes.iter().find(|(path, f)| {
                path.starts_with("/_assets/")
                    && f.size == v.bytes
                    && f.content_type == v.format.mime()
            });
            assert!(hash.is_some(), "{} is not in the deploy", v.key);
        }
    }
);

dual_test!(
    async fn older_uploads_are_converted_in_the_background_with_progress(app: TestApp) {
        let s = app.register("antigas@example.com").await;
        let pid = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        // An upload from before photos: stored as sent, with its EXIF and no photo row.
        let sent = phone_photo(800, 600, 6);
        let key = format!("uploads/{}/{pid}/0123456789abcdef0123/antiga.jpg", s.id());
        app.app
            .state()
            .blobs
            .put(&key, bytes::Bytes::from(sent.clone()))
            .await
            .unwrap();
        let quota = vitrine_shared::store::StorageQuota {
            bytes: 1 << 30,
            objects: 100,
        };
        let account = format!("u{}", s.id());
        app.store
            .reserve_upload(&key, &account, sent.len() as u64, quota)
            .await
            .unwrap();

        let admin = app.register("admin-fotos@example.com").await;
        app.make_admin(&admin).await;
        let res = app.get(&s, "/erp/photos").await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
        let before = json_ok(app.get(&admin, "/erp/photos").await).await;
        assert_eq!(
            (before["done"].as_i64(), before["total"].as_i64()),
            (Some(0), Some(1)),
            "{before}"
        );
        let res = app.post(&admin, "/erp/photos", json!({})).await;
        assert_eq!(res.status(), StatusCode::ACCEPTED);
        let mut progress = Value::Null;
        for _ in 0..300 {
            progress = json_ok(app.get(&admin, "/erp/photos").await).await;
            if progress["done"] == 1 && progress["running"] == false {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(
            (progress["done"].as_i64(), progress["failed"].as_i64()),
            (Some(1), Some(0)),
            "{progress}"
        );
        let photo = app.store.photo(&key).await.unwrap().expect("converted");
        assert_eq!((photo.width, photo.height), (600, 800));
        let original = app.app.state().blobs.get(&key).await.unwrap();
        assert!(!has_metadata(&original), "the old original keeps its EXIF");
        assert_eq!(
            photo.variants.len(),
            2 * 3,
            "320 and 600: {:?}",
            photo.variants.iter().map(|v| v.width).collect::<Vec<_>>()
        );
    }
);

dual_test!(
    async fn pending_avif_variants_are_made_one_account_at_a_time_and_charged_once(app: TestApp) {
        // Photos stored as an upload stores them before its answer (their AVIF pending):
        // three of one account, one of another, one of the platform's (no upload), and one
        // whose original is gone. Written straight to the store, so the pass is not woken
        // and each step is seen.
        let a = app.register("a-avif@example.com").await;
        let b = app.register("b-avif@example.com").await;
        let state = app.app.state();
        let quota = vitrine_shared::store::StorageQuota {
            bytes: 1 << 30,
            objects: 100,
        };
        let original = phone_photo(640, 480, 1);
        let mut keys = Vec::new();
        for (who, n) in [(a.id(), 3), (b.id(), 1)] {
            for i in 0..n {
                let key = format!("uploads/{who}/1/{i:020}/foto.jpg");
                state
                    .blobs
                    .put(&key, bytes::Bytes::from(original.clone()))
                    .await
                    .unwrap();
                let account = format!("u{who}");
                app.store
                    .reserve_upload(&key, &account, original.len() as u64, quota)
                    .await
                    .unwrap();
                keys.push(key);
            }
        }
        let platform = "uploads/templates/0123456789abcdef0123/foto.jpg".to_string();
        state
            .blobs
            .put(&platform, bytes::Bytes::from(original.clone()))
            .await
            .unwrap();
        keys.push(platform.clone());
        let gone = format!("uploads/{}/1/{:020}/sumiu.jpg", b.id(), 9);
        let quick = vitrine_shared::photos::Photo {
            width: 640,
            height: 480,
            placeholder: String::new(),
            variants: Vec::new(),
        };
        for key in keys.iter().chain([&gone]) {
            app.store.save_photo(key, &quick, true).await.unwrap();
        }
        let usage = |s: &Session| {
            let s = s.client.clone();
            let url = app.url("/api/user/storage");
            async move {
                let v: Value = s.get(url).send().await.unwrap().json().await.unwrap();
                v["bytes"].as_u64().unwrap()
            }
        };
        let before = (usage(&a).await, usage(&b).await);

        // A round takes one photo per account: A's first, B's first (the one that is gone),
        // and the platform's.
        let round = app.store.photos_awaiting_avif(8).await.unwrap();
        let accounts: Vec<Option<String>> = round.iter().map(|(_, a)| a.clone()).collect();
        assert_eq!(round.len(), 3, "{round:?}");
        assert!(
            accounts.contains(&Some(format!("u{}", a.id()))),
            "{round:?}"
        );
        assert!(
            accounts.contains(&Some(format!("u{}", b.id()))),
            "{round:?}"
        );
        assert!(accounts.contains(&None), "{round:?}");
        assert!(round.iter().any(|(k, _)| *k == keys[0]), "{round:?}");

        // Two passes at once (two control planes): every photo gets its AVIF once.
        let (one, two) = tokio::join!(
            vitrine_control::photos::avif::drain(&state.core),
            vitrine_control::photos::avif::drain(&state.core)
        );
        assert!(one && two);
        assert!(app.store.photos_awaiting_avif(8).await.unwrap().is_empty());
        let mut made = std::collections::HashMap::new();
        for key in &keys {
            let photo = app.store.photo(key).await.unwrap().unwrap();
            let avif: Vec<u32> = photo
                .variants
                .iter()
                .filter(|v| v.format == PhotoFormat::Avif)
                .map(|v| v.width)
                .collect();
            assert_eq!(avif, [320, 640], "{key}");
            for v in &photo.variants {
                let bytes = state.blobs.get(&v.key).await.unwrap();
                assert_eq!(bytes.len() as u64, v.bytes);
                assert!(
                    bytes.starts_with(b"\0\0\0") && &bytes[4..8] == b"ftyp",
                    "{}",
                    v.key
                );
            }
            made.insert(
                key.clone(),
                photo.variants.iter().map(|v| v.bytes).sum::<u64>(),
            );
        }
        // The photo whose original is gone is given up, with no variant.
        let photo = app.store.photo(&gone).await.unwrap().unwrap();
        assert!(photo.variants.is_empty());
        // Each account is charged its AVIF bytes once.
        let of = |who: i64| -> u64 {
            made.iter()
                .filter(|(k, _)| k.starts_with(&format!("uploads/{who}/")))
                .map(|(_, b)| b)
                .sum()
        };
        assert_eq!(usage(&a).await, before.0 + of(a.id()));
        assert_eq!(usage(&b).await, before.1 + of(b.id()));
    }
);
