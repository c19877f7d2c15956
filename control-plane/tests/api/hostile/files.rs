//! Uploaded files on the dashboard's origin are never active content; no account writes into
//! a folder another account also writes into; and a deploy names exactly the other projects'
//! files its pages and records use, which is all a site's host will serve besides its own
//! project's (the edge's side: `edge/tests/edge/hostile/files.rs`).

use std::collections::BTreeSet;

use base64::Engine;
use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::ids::{DeployId, ProjectId};
use vitrine_shared::{
    dual_test,
    manifest::{Manifest, manifest_key},
    testing::browser::{Beacon, Chromium, Load},
};

use crate::helpers::{Session, TestApp, expect_error, json_ok};

/// A valid 1×1 red PNG (images are decoded at upload: a damaged one is refused).
use crate::helpers::PNG;

/// A PNG that differs from [`PNG`] (and from the other variants) by its trailing bytes, so it
/// gets a key of its own.
fn png(tag: &str) -> Vec<u8> {
    [PNG, tag.as_bytes()].concat()
}

/// `POST /api/upload` as the dashboard sends it; returns the file's URL.
async fn upload(app: &TestApp, s: &Session, prefix: Value, name: &str, bytes: &[u8]) -> String {
    let mime = if name.ends_with(".svg") {
        "image/svg+xml"
    } else {
        "image/png"
    };
    let content = format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    );
    let res = app
        .post(
            s,
            "/api/upload",
            json!({"name": name, "content": content, "prefix": prefix}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED, "{name}");
    res.text().await.unwrap()
}

/// Uploads [`png`]`(tag)` as `{tag}.png`.
async fn png_upload(app: &TestApp, s: &Session, prefix: Value, tag: &str) -> String {
    upload(app, s, prefix, &format!("{tag}.png"), &png(tag)).await
}

async fn project(app: &TestApp, s: &Session, name: &str) -> i64 {
    app.create_project(s, name).await["id"].as_i64().unwrap()
}

/// Publishes the project; returns the deploy's manifest.
pub(crate) async fn publish(app: &TestApp, s: &Session, pid: i64) -> Manifest {
    let published = json_ok(
        app.post(s, &format!("/api/publish_v2/{pid}"), json!({}))
            .await,
    )
    .await;
    let deploy = published["deploy"]["id"].as_i64().unwrap();
    let json = app
        .app
        .state()
        .blobs
        .get(&manifest_key(ProjectId(pid), DeployId(deploy)))
        .await
        .unwrap();
    serde_json::from_slice(&json).unwrap()
}

/// The object key of a `/files/…` URL.
fn key(url: &str) -> String {
    url.strip_prefix("/files/").unwrap().to_string()
}

/// The file's name without its extension, and whether it is a photo's variant
/// (`{stem}.{width}w.{avif,webp,jpg}`).
fn stem_of(key: &str) -> (&str, bool) {
    let stem = key.rsplit_once('.').map_or(key, |(stem, _)| stem);
    match stem.rsplit_once('.') {
        Some((original, width))
            if width
                .strip_suffix('w')
                .is_some_and(|w| w.parse::<u32>().is_ok()) =>
        {
            (original, true)
        }
        _ => (stem, false),
    }
}

/// A deploy's listed files without the photos' variants, each of which must be the variant of
/// a file listed with it (a deploy lists a photo's variants with it, so the edge serves them).
fn originals(uploads: &BTreeSet<String>) -> BTreeSet<String> {
    let originals: BTreeSet<String> = uploads.iter().filter(|k| !stem_of(k).1).cloned().collect();
    for variant in uploads.iter().filter(|k| stem_of(k).1) {
        let stem = stem_of(variant).0;
        assert!(
            originals.iter().any(|o| stem_of(o).0 == stem),
            "{variant} is the variant of no listed file: {uploads:?}"
        );
    }
    originals
}

dual_test!(
    async fn a_script_svg_opened_on_the_dashboard_origin_runs_nothing(app: TestApp) {
        let beacon = Beacon::start().await;
        let mut chromium = Chromium::start(&[]).await;
        let s = app.register("svg@example.com").await;
        let pid = project(&app, &s, "Loja").await;
        let svg = beacon.script_svg("dashboard");
        let urls = [
            upload(&app, &s, json!([s.id(), pid]), "ataque.svg", svg.as_bytes()).await,
            upload(&app, &s, json!(["admin"]), "rico.svg", svg.as_bytes()).await,
        ];
        for url in &urls {
            let r = reqwest::get(app.url(url)).await.unwrap();
            assert_eq!(r.status(), StatusCode::OK);
            let h = r.headers();
            assert_eq!(h["content-type"], "image/svg+xml", "{url}");
            assert_eq!(h["x-content-type-options"], "nosniff", "{url}");
            assert_eq!(
                h["content-security-policy"], "sandbox; default-src 'none'",
                "{url}"
            );
            assert_eq!(h["content-disposition"], "attachment", "{url}");
        }
        // An image that cannot carry script still displays when opened, inert all the same.
        let image = upload(&app, &s, json!([s.id(), pid]), "foto.png", PNG).await;
        let r = reqwest::get(app.url(&image)).await.unwrap();
        assert_eq!(
            r.headers()["content-security-policy"],
            "sandbox; default-src 'none'"
        );
        assert_eq!(r.headers()["x-content-type-options"], "nosniff");
        assert!(r.headers().get("content-disposition").is_none());

        // The browser runs this SVG's script when nothing stops it, and the test sees it.
        let control = chromium.load(&beacon.plain_url()).await;
        assert!(control.dom().contains("data-ran=\"plain\""), "{control:?}");
        assert!(beacon.heard().contains(&"/ran/plain".to_string()));
        // On the dashboard's origin: no document, nothing run.
        for url in &urls {
            let load = chromium.load(&app.url(url)).await;
            assert_eq!(load, Load::NotShown("net::ERR_ABORTED".into()), "{url}");
        }
        let heard: Vec<String> = beacon
            .heard()
            .into_iter()
            .filter(|p| !p.ends_with("/plain"))
            .collect();
        assert!(
            heard.is_empty(),
            "the SVG's script ran on the dashboard's origin: {heard:?}"
        );
    }
);

dual_test!(
    async fn no_account_writes_into_a_folder_another_account_writes_into(app: TestApp) {
        let a = app.register("a-folder@example.com").await;
        let b = app.register("b-folder@example.com").await;
        let pid = project(&app, &b, "Loja B").await;
        // The spec's rich-text prefix: each account's own folder, never one they share.
        let from_a = upload(&app, &a, json!(["admin"]), "foto.png", PNG).await;
        let from_b = upload(&app, &b, json!(["admin"]), "foto.png", PNG).await;
        assert!(
            from_a.starts_with(&format!("/files/uploads/{}/", a.id())),
            "{from_a}"
        );
        assert!(
            from_b.starts_with(&format!("/files/uploads/{}/", b.id())),
            "{from_b}"
        );
        assert_ne!(from_a, from_b);
        // Nor another account's folder, a project it may not see, or a folder the server did
        // not make (the client panel's is the token's, never named by a prefix).
        let content = format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(PNG)
        );
        for (prefix, status) in [
            (json!([b.id()]), StatusCode::NOT_FOUND),
            (json!([a.id(), pid]), StatusCode::NOT_FOUND),
            (json!(["admin", pid]), StatusCode::UNPROCESSABLE_ENTITY),
            (json!(["clients", pid]), StatusCode::UNPROCESSABLE_ENTITY),
        ] {
            let res = app
                .post(
                    &a,
                    "/api/upload",
                    json!({"name": "x.png", "content": content, "prefix": prefix}),
                )
                .await;
            expect_error(res, status).await;
        }
    }
);

dual_test!(
    async fn a_deploy_lists_other_projects_files_its_pages_and_records_use(app: TestApp) {
        let s = app.register("dona-files@example.com").await;
        let original = project(&app, &s, "Original").await;
        let table = json_ok(app.post(&s, "/api/tables", json!({"project_id": original, "name": "Receitas", "meta": {"plural": "Receitas", "singular": "Receita"}})).await).await["id"].as_i64().unwrap();
        for (name, kind) in [("Foto", "image"), ("Corpo", "wysiwyg")] {
            json_ok(
                app.post(
                    &s,
                    "/api/fields",
                    json!({"table_id": table, "name": name, "type": kind}),
                )
                .await,
            )
            .await;
        }
        let cover = png_upload(&app, &s, json!([s.id(), original]), "capa").await;
        let photo = png_upload(&app, &s, json!([s.id(), original, table]), "foto").await;
        let rich = png_upload(&app, &s, json!(["admin"]), "rico").await;
        let unused = png_upload(&app, &s, json!([s.id(), original]), "sobra").await;

        let fields =
            json_ok(app.get(&s, &format!("/api/tables/{table}")).await).await["fields"].clone();
        let field = |slug: &str| {
            fields
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["slug"] == slug)
                .unwrap()["id"]
                .clone()
        };
        let record = |name: &str, foto: &str, corpo: String| {
            json!({"table_id": table, "name": name, "slug": "", "fields": [
                {"field_id": field("foto"), "value": foto},
                {"field_id": field("corpo"), "value": corpo},
            ]})
        };
        json_ok(
            app.post(
                &s,
                "/api/posts",
                record("Bolo", &photo, format!("<p>Olá <img src=\"{rich}\"></p>")),
            )
            .await,
        )
        .await;
        let pages = json_ok(app.get(&s, &format!("/api/projects/{original}")).await).await;
        let home = pages["pages"][0]["id"].as_i64().unwrap();
        json_ok(
            app.post(
                &s,
                &format!("/api/page/{home}"),
                json!({"blocks": [{
                    "uid": "capa",
                    "template": "<img src=\"{{ capa }}\">",
                    "vars": [{"name": "capa", "type": "text", "value": cover}],
                }]}),
            )
            .await,
        )
        .await;
        let page = json_ok(
            app.post(
                &s,
                "/api/pages",
                json!({"project_id": original, "name": "Receitas"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        json_ok(app.post(&s, &format!("/api/page/{page}"), json!({"table_id": table, "blocks": [{"uid": "post", "template": "<h1>{{ post.name }}</h1>"}]})).await).await;

        // The project's own files need no listing; the rich-text image, in no project's folder,
        // does.
        let m = publish(&app, &s, original).await;
        assert_eq!(originals(&m.uploads), BTreeSet::from([key(&rich)]));

        // A copy's pages and records name the original's files: the copy's deploy lists them,
        // and not the file nothing names, nor the copy's own new file.
        let copy = json_ok(
            app.post(
                &s,
                &format!("/api/projects/{original}/duplicate"),
                json!({}),
            )
            .await,
        )
        .await;
        let copy_id = copy["id"].as_i64().unwrap();
        let copy_table = copy["tables"][0]["id"].as_i64().unwrap();
        let own = png_upload(&app, &s, json!([s.id(), copy_id, copy_table]), "nova").await;
        let copy_home = copy["pages"][0]["id"].as_i64().unwrap();
        json_ok(app.post(&s, &format!("/api/page/{copy_home}"), json!({"blocks": [{
            "uid": "capa",
            "template": "<img src=\"{{ capa }}\"><img src=\"{{ nova }}\">",
            "vars": [{"name": "capa", "type": "text", "value": cover}, {"name": "nova", "type": "text", "value": own}],
        }]})).await).await;
        let m = publish(&app, &s, copy_id).await;
        assert_eq!(
            originals(&m.uploads),
            BTreeSet::from([key(&cover), key(&photo), key(&rich)])
        );
        assert!(!m.uploads.contains(&key(&unused)) && !m.uploads.contains(&key(&own)));
    }
);
