//! The dashboard's built files as the control plane serves them (`src/dashboard_files.rs`):
//! the precompressed variant the browser accepts, hashed assets cached for a year, everything
//! else revalidated, deep links answered by `index.html`, a missing asset a 404.

use std::io::{Read, Write};

use reqwest::StatusCode;
use vitrine_shared::testing::Backend;

use crate::helpers::TestApp;

const APP_JS: &str = "console.log('vitrine, o painel');\n";
const INDEX: &str =
    "<!doctype html><div id=\"root\"></div><script src=\"/assets/app-1a2b.js\"></script>";

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        w.write_all(data).unwrap();
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    w.write_all(data).unwrap();
    w.finish().unwrap()
}

#[tokio::test]
async fn the_dashboard_is_sent_precompressed_and_cached_by_content_hash() {
    let dist = tempfile::tempdir().unwrap();
    let app_js = APP_JS.repeat(50);
    std::fs::create_dir(dist.path().join("assets")).unwrap();
    for (path, body) in [
        ("index.html", INDEX.to_string()),
        ("assets/app-1a2b.js", app_js.clone()),
    ] {
        let file = dist.path().join(path);
        std::fs::write(&file, &body).unwrap();
        std::fs::write(format!("{}.br", file.display()), brotli(body.as_bytes())).unwrap();
        std::fs::write(format!("{}.gz", file.display()), gzip(body.as_bytes())).unwrap();
    }
    let path = dist.path().to_path_buf();
    let app = TestApp::with(Backend::Sqlite, |s| s.dashboard_dir = path).await;
    let c = TestApp::client();

    for (path, body, cache) in [
        (
            "/assets/app-1a2b.js",
            app_js.as_str(),
            "public, max-age=31536000, immutable",
        ),
        ("/", INDEX, "no-cache"),
        // A deep link: the app's index.html, precompressed too.
        ("/project/12/34", INDEX, "no-cache"),
    ] {
        for (accept, coding) in [
            (None, None),
            (Some("gzip, br"), Some("br")),
            (Some("gzip"), Some("gzip")),
        ] {
            let mut req = c.get(app.url(path));
            if let Some(accept) = accept {
                req = req.header("accept-encoding", accept);
            }
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), StatusCode::OK, "{path} {accept:?}");
            let h = res.headers().clone();
            let header = |name: &str| h.get(name).map(|v| v.to_str().unwrap().to_string());
            assert_eq!(header("cache-control").as_deref(), Some(cache), "{path}");
            assert_eq!(header("vary").as_deref(), Some("Accept-Encoding"), "{path}");
            assert_eq!(
                header("content-encoding").as_deref(),
                coding,
                "{path} {accept:?}"
            );
            assert_eq!(header("x-frame-options").as_deref(), Some("DENY"), "{path}");
            let sent = res.bytes().await.unwrap();
            let mut decoded = String::new();
            match coding {
                None => decoded = String::from_utf8(sent.to_vec()).unwrap(),
                Some("br") => {
                    brotli::Decompressor::new(&sent[..], 4096)
                        .read_to_string(&mut decoded)
                        .unwrap();
                }
                Some(_) => {
                    flate2::read::GzDecoder::new(&sent[..])
                        .read_to_string(&mut decoded)
                        .unwrap();
                }
            }
            assert_eq!(decoded, body, "{path} {accept:?}");
        }
    }
    // A missing asset is not the app: a 404 no cache keeps under the asset's name.
    let res = c.get(app.url("/assets/gone-9f8e.js")).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
}
