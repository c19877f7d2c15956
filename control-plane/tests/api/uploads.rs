//! Uploads.

use base64::Engine;
use reqwest::StatusCode;
use serde_json::json;
use vitrine_shared::dual_test;

use crate::helpers::{PNG, TestApp, expect_error};

const WOFF2: &[u8] = b"wOF2\0\x01\0\0\0\0\x01\0\0\x0b\0\0";

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

dual_test!(
    async fn uploads_are_stored_and_served_by_content(app: TestApp) {
        let s = app.register("up@example.com").await;
        let pid = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        let res = app.post(&s, "/api/upload", json!({"name": "Logo Principal.png", "content": data_url("image/png", PNG), "prefix": [s.id(), pid]})).await;
        assert_eq!(res.status(), StatusCode::CREATED);
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        let url = res.text().await.unwrap();
        assert!(
            url.starts_with(&format!("/files/uploads/{}/{pid}/", s.id())),
            "{url}"
        );
        assert!(url.ends_with("/logo-principal.png"), "{url}");
        let file = reqwest::get(app.url(&url)).await.unwrap();
        assert_eq!(file.status(), StatusCode::OK);
        assert_eq!(file.headers()["content-type"], "image/png");
        assert!(
            file.headers()["cache-control"]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
        assert_eq!(file.headers()["x-content-type-options"], "nosniff");
        // An image is a photo: stored as made (upright, without metadata), still a PNG.
        assert!(
            file.bytes()
                .await
                .unwrap()
                .starts_with(b"\x89PNG\r\n\x1a\n")
        );

        let font = app.post(&s, "/api/upload", json!({"name": "Minha.woff2", "content": data_url("font/woff2", WOFF2), "prefix": [s.id(), pid]})).await;
        assert_eq!(font.status(), StatusCode::CREATED);
        // Plain text for file fields, served as text that never runs as a page.
        let txt = app.post(&s, "/api/upload", json!({"name": "ficha.txt", "content": data_url("text/plain", "linha 1\nlinha 2".as_bytes())})).await;
        assert_eq!(txt.status(), StatusCode::CREATED);
        let served = reqwest::get(app.url(&txt.text().await.unwrap()))
            .await
            .unwrap();
        assert!(
            served.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        assert!(
            served.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("sandbox")
        );
        // Rich text's `["admin"]` prefix: the uploader's own folder (no folder is shared).
        let rich = app.post(&s, "/api/upload", json!({"name": "foto.png", "content": data_url("image/png", PNG), "prefix": ["admin"]})).await;
        assert!(
            rich.text()
                .await
                .unwrap()
                .starts_with(&format!("/files/uploads/{}/", s.id()))
        );
        expect_error(
            reqwest::get(app.url("/files/uploads/nothing/here.png"))
                .await
                .unwrap(),
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn bad_uploads_are_refused(app: TestApp) {
        let s = app.register("bad-up@example.com").await;
        let pid = app.create_project(&s, "Site").await["id"].as_i64().unwrap();
        let other = app.register("other-up@example.com").await;
        let other_pid = app.create_project(&other, "X").await["id"]
            .as_i64()
            .unwrap();
        let cases = [
            (
                json!({"name": "font.woff2", "content": data_url("font/woff2", PNG)}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "x.exe", "content": data_url("application/octet-stream", b"MZ\x90\0\x03\0\0\0")}),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                json!({"name": "page.png", "content": data_url("image/png", b"<html><script>alert(1)</script></html>")}),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                json!({"name": "a.png", "content": "not a data url"}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "a.png", "content": "data:image/png;base64,%%%"}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "a.png", "content": data_url("image/png", b"")}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                json!({"name": "a.png", "content": data_url("image/png", PNG), "prefix": [other.id(), other_pid]}),
                StatusCode::NOT_FOUND,
            ),
            (
                json!({"name": "a.png", "content": data_url("image/png", PNG), "prefix": [s.id(), other_pid]}),
                StatusCode::NOT_FOUND,
            ),
            (
                json!({"name": "a.png", "content": data_url("image/png", PNG), "prefix": [s.id(), pid, 999999]}),
                StatusCode::NOT_FOUND,
            ),
            (
                json!({"name": "a.png", "content": data_url("image/png", PNG), "prefix": [{"x": 1}]}),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        ];
        for (body, status) in cases {
            expect_error(app.post(&s, "/api/upload", body.clone()).await, status).await;
        }
        // Image fields take only png and jpg, with the spec's message.
        let gif = b"GIF89a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff!\xf9\x04\x01\0\0\0\0,\0\0\0\0\x01\0\x01\0\0\x02\x02D\x01\0;";
        let msg = expect_error(
            app.post(
                &s,
                "/api/upload",
                json!({"name": "a.gif", "content": data_url("image/gif", gif), "accept": "image"}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(msg, "Erro: envie somente imagens em JPG ou PNG.");
        let ok = app
            .post(
                &s,
                "/api/upload",
                json!({"name": "a.png", "content": data_url("image/png", PNG), "accept": "image"}),
            )
            .await;
        assert_eq!(ok.status(), StatusCode::CREATED);
        let mut big = PNG.to_vec();
        big.resize(11 * 1024 * 1024, 0);
        let msg = expect_error(
            app.post(
                &s,
                "/api/upload",
                json!({"name": "big.png", "content": data_url("image/png", &big)}),
            )
            .await,
            StatusCode::PAYLOAD_TOO_LARGE,
        )
        .await;
        assert_eq!(msg, "The file is too large (10 MB at most)");
    }
);
