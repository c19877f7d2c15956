//! Publishing: deploys written to the object store (pages with br/gz variants, content-addressed
//! assets, the manifest), the rendered document, failed builds that leave the live site alone,
//! unpublish, history and rollback, authorization, the change feed and bad input.
//!
//! The fonts provider is a local stand-in HTTP server (no internet here); it counts requests so
//! the tests can see that fetched fonts are cached in the object store.

use std::{
    io::Read,
    ops::Deref,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use axum::{Router, extract::Path, http::StatusCode as AxumStatus, routing::get};
use base64::Engine;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use vitrine_shared::ids::{AccountId, DeployId, ProjectId};
use vitrine_shared::{
    dual_test,
    manifest::{Manifest, manifest_key},
    store::{Change, INTERRUPTED_BUILD},
    testing::Backend,
};

use crate::helpers::{Session, TestApp, eventually, expect_error, json_ok, metric, wait_until};

/// A valid 1×1 red PNG (images are decoded at upload: a damaged one is refused).
use crate::helpers::PNG;
const WOFF2: &[u8] = b"wOF2\0\x01\0\0\0\0\x01\0\0\x0b\0\0custom";

/// A local stand-in for the fonts provider: `/{family}/{file}` for the families it knows.
struct FontServer {
    url: String,
    hits: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl FontServer {
    async fn start() -> FontServer {
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        let router = Router::new().route(
            "/{family}/{file}",
            get(move |Path((family, file)): Path<(String, String)>| {
                let counter = counter.clone();
                async move {
                    counter.fetch_add(1, Ordering::SeqCst);
                    if ["lora", "open-sans"].contains(&family.as_str()) {
                        Ok(format!("wOF2 {family} {file}"))
                    } else {
                        Err(AxumStatus::NOT_FOUND)
                    }
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.unwrap();
        });
        FontServer { url, hits, task }
    }
}

impl Drop for FontServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A control plane whose fonts come from the local stand-in (private addresses allowed for
/// it), with previews at `https://{slug}.vitrine.test`.
pub struct PublishApp {
    app: TestApp,
    fonts: FontServer,
}

impl PublishApp {
    pub async fn new(backend: Backend) -> PublishApp {
        Self::with(backend, true).await
    }

    async fn with(backend: Backend, allow_private: bool) -> PublishApp {
        Self::with_settings(backend, move |s| s.fetch_allow_private = allow_private).await
    }

    pub(crate) async fn with_settings(
        backend: Backend,
        tweak: impl FnOnce(&mut vitrine_shared::Settings),
    ) -> PublishApp {
        let fonts = FontServer::start().await;
        let url = fonts.url.clone();
        let app = TestApp::with(backend, move |s| {
            s.fonts_url = url;
            s.fetch_allow_private = true;
            s.preview_url_template = Some("https://{slug}.vitrine.test".into());
            tweak(s);
        })
        .await;
        PublishApp { app, fonts }
    }
}

impl Deref for PublishApp {
    type Target = TestApp;
    fn deref(&self) -> &TestApp {
        &self.app
    }
}

/// The same, with the default rule: outbound fetches never reach private addresses.
pub struct StrictApp(PublishApp);

impl StrictApp {
    pub async fn new(backend: Backend) -> StrictApp {
        StrictApp(PublishApp::with(backend, false).await)
    }
}

/// Publishing with the pictures of published sites on (Chromium is installed here and in CI).
pub struct ShotApp(PublishApp);

impl ShotApp {
    pub async fn new(backend: Backend) -> ShotApp {
        ShotApp(PublishApp::with_settings(backend, |s| s.site_screenshots = true).await)
    }
}

/// The same, with Chromium missing.
pub struct NoChromiumApp(PublishApp);

impl NoChromiumApp {
    pub async fn new(backend: Backend) -> NoChromiumApp {
        NoChromiumApp(
            PublishApp::with_settings(backend, |s| {
                s.site_screenshots = true;
                s.chromium_path = Some("/nonexistent/chromium".into());
            })
            .await,
        )
    }
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

async fn upload(
    app: &TestApp,
    s: &Session,
    pid: i64,
    name: &str,
    mime: &str,
    bytes: &[u8],
) -> String {
    let res = app
        .post(
            s,
            "/api/upload",
            json!({"name": name, "content": data_url(mime, bytes), "prefix": [s.id(), pid]}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::CREATED);
    res.text().await.unwrap()
}

pub(crate) async fn blob(app: &TestApp, key: &str) -> bytes::Bytes {
    app.app.state().blobs.get(key).await.unwrap()
}

pub(crate) async fn manifest(app: &TestApp, pid: i64, deploy: i64) -> Manifest {
    serde_json::from_slice(&blob(app, &manifest_key(ProjectId(pid), DeployId(deploy))).await)
        .unwrap()
}

pub(crate) async fn page_html(app: &TestApp, m: &Manifest, path: &str) -> String {
    let file = m
        .routes
        .get(path)
        .unwrap_or_else(|| panic!("no route {path}"));
    String::from_utf8(blob(app, &file.key).await.to_vec()).unwrap()
}

pub(crate) async fn home_page_id(app: &TestApp, s: &Session, pid: i64) -> i64 {
    let p = json_ok(app.get(s, &format!("/api/projects/{pid}")).await).await;
    p["pages"][0]["id"].as_i64().unwrap()
}

pub(crate) async fn new_page(app: &TestApp, s: &Session, pid: i64, name: &str, body: Value) -> i64 {
    let page = json_ok(
        app.post(s, "/api/pages", json!({"project_id": pid, "name": name}))
            .await,
    )
    .await;
    let id = page["id"].as_i64().unwrap();
    json_ok(app.post(s, &format!("/api/page/{id}"), body).await).await;
    id
}

/// Gives a page a block whose template does not compile (`{% for x in %}`), named `quebrado`.
async fn break_page(app: &TestApp, s: &Session, page: i64) {
    json_ok(
        app.post(
            s,
            &format!("/api/page/{page}"),
            json!({"blocks": [{"uid": "quebrado", "template": "{% for x in %}"}]}),
        )
        .await,
    )
    .await;
}

pub(crate) async fn publish(app: &TestApp, s: &Session, pid: i64) -> Value {
    json_ok(
        app.post(
            s,
            &format!("/api/publish_v2/{pid}"),
            json!({"project_id": pid, "token": "x"}),
        )
        .await,
    )
    .await
}

/// `POST /api/projects/{project}/deploys/{deploy}/activate` (rollback).
async fn activate(app: &TestApp, s: &Session, project: i64, deploy: i64) -> reqwest::Response {
    app.post(
        s,
        &format!("/api/projects/{project}/deploys/{deploy}/activate"),
        json!({}),
    )
    .await
}

pub(crate) async fn project(app: &TestApp, s: &Session, pid: i64) -> Value {
    json_ok(app.get(s, &format!("/api/projects/{pid}")).await).await
}

async fn is_published(app: &TestApp, s: &Session, pid: i64) -> bool {
    project(app, s, pid).await["is_published"]
        .as_bool()
        .unwrap()
}

async fn deploys(app: &TestApp, s: &Session, pid: i64) -> Value {
    json_ok(app.get(s, &format!("/api/projects/{pid}/deploys")).await).await
}

async fn set_meta(app: &TestApp, s: &Session, pid: i64, meta: Value) {
    let body = json!({ "meta": meta });
    json_ok(app.post(s, &format!("/api/projects/{pid}"), body).await).await;
}

/// Publishes expecting a refusal with `status`; returns the message.
async fn publish_error(app: &TestApp, s: &Session, pid: i64, status: StatusCode) -> String {
    let path = format!("/api/publish_v2/{pid}");
    expect_error(app.post(s, &path, json!({})).await, status).await
}

pub(crate) async fn new_project(app: &TestApp, s: &Session, name: &str) -> i64 {
    app.create_project(s, name).await["id"].as_i64().unwrap()
}

/// A site with every document part set, a static page, a page with a database-fed list, a
/// collection page and a redirect. Returns the project id.
async fn full_site(app: &TestApp, s: &Session) -> i64 {
    let pid = app.create_project(s, "Sal & Estrada").await["id"]
        .as_i64()
        .unwrap();
    let favicon = upload(app, s, pid, "icone.png", "image/png", PNG).await;
    let seo = upload(
        app,
        s,
        pid,
        "capa.png",
        "image/png",
        &[PNG, b"seo"].concat(),
    )
    .await;
    let font = upload(app, s, pid, "Minha.woff2", "font/woff2", WOFF2).await;
    json_ok(
        app.post(
            s,
            &format!("/api/projects/{pid}"),
            json!({"meta": {
                "description": "Receitas de família",
                "defaultFont": {"family": "Lora", "variants": []},
                "fonts": [{"family": "Open Sans", "variants": ["700italic"]}],
                "customFonts": [{"family": "Minha Fonte", "variants": ["300"], "filename": font}],
                "header": "<meta name=\"projeto\" content=\"1\">",
                "footer": "<!-- rodapé do projeto -->",
                "favicon": favicon,
                "conversionApiEnabled": true,
                "conversionApiAccessToken": "segredo-do-token-capi",
                "conversionApiPixelId": "123456"
            }}),
        )
        .await,
    )
    .await;
    let home = home_page_id(app, s, pid).await;
    json_ok(
        app.post(
            s,
            &format!("/api/page/{home}"),
            json!({
                "description": "A página inicial",
                "image": seo,
                "meta": {"header": "<meta name=\"pagina\" content=\"2\">"},
                "blocks": [{
                    "uid": "hero",
                    "template": format!("<h1>{{{{ site.name }}}}</h1><img src=\"{favicon}\">"),
                    "css": "h1 { color: tomato; } .hero { padding: 2rem; margin: 0 auto; max-width: 60rem; }",
                    "js": "console.log('hero');"
                }]
            }),
        )
        .await,
    )
    .await;
    new_page(
        app,
        s,
        pid,
        "Sobre",
        json!({"blocks": [{"uid": "txt", "template": "<p>{{ page.name }}</p>"}]}),
    )
    .await;
    let table = json_ok(
        app.post(s, "/api/tables", json!({"project_id": pid, "name": "Receitas", "meta": {"plural": "Receitas", "singular": "Receita"}}))
            .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    new_page(
        app,
        s,
        pid,
        "Receitas",
        json!({"table_id": table, "blocks": [{"uid": "post", "template": "<h1>{{ post.name }}</h1>"}]}),
    )
    .await;
    new_page(
        app,
        s,
        pid,
        "Lista",
        json!({"blocks": [{"uid": "lista", "template": "{% for r in itens %}{{ r.name }}{% endfor %}",
            "vars": [{"name": "itens", "source": "db:receitas", "dblimit": 5}]}]}),
    )
    .await;
    json_ok(
        app.post(
            s,
            "/api/redirects",
            json!({"project_id": pid, "from": "/antigo", "to": "/sobre"}),
        )
        .await,
    )
    .await;
    pid
}

pub(crate) fn sha_prefix(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))[..16].to_string()
}

dual_test!(
    async fn publish_writes_pages_assets_and_the_manifest(app: PublishApp) {
        let s = app.register("pub-write@example.com").await;
        let pid = full_site(&app, &s).await;
        let res = publish(&app, &s, pid).await;
        let deploy = &res["deploy"];
        let did = deploy["id"].as_i64().unwrap();
        assert_eq!(deploy["status"], "ready");
        assert_eq!(deploy["project_id"], pid);
        let slug = project(&app, &s, pid).await["slug"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(res["url"], format!("https://{slug}.vitrine.test"));
        assert_eq!(
            deploy["manifest_key"],
            manifest_key(ProjectId(pid), DeployId(did))
        );

        let m = manifest(&app, pid, did).await;
        assert_eq!((m.project_id.get(), m.deploy_id.get()), (pid, did));
        assert_eq!(m.site_name, "Sal & Estrada");
        // Static pages, with precompressed variants that decompress to the page.
        for path in ["/", "/sobre"] {
            let file = &m.routes[path];
            // Content-addressed, like the assets: the name is the document's hash.
            let html = blob(&app, &file.key).await;
            assert_eq!(
                file.key,
                format!("sites/{pid}/pages/{}.html", sha_prefix(&html)),
            );
            assert!(!file.immutable);
            assert_eq!(file.content_type, "text/html; charset=utf-8");
            assert_eq!(file.size, html.len() as u64);
            let mut unbr = Vec::new();
            brotli::Decompressor::new(&blob(&app, file.br.as_ref().unwrap()).await[..], 4096)
                .read_to_end(&mut unbr)
                .unwrap();
            assert_eq!(unbr, html);
            let mut ungz = Vec::new();
            flate2::read::GzDecoder::new(&blob(&app, file.gzip.as_ref().unwrap()).await[..])
                .read_to_end(&mut ungz)
                .unwrap();
            assert_eq!(ungz, html);
        }
        // Content-addressed assets: the name is the content's hash.
        let assets: Vec<_> = m
            .routes
            .iter()
            .filter(|(p, _)| p.starts_with("/_assets/"))
            .collect();
        assert!(
            assets.len() >= 7,
            "css, js, fonts css, 3 fonts, favicon, image: {assets:?}"
        );
        for (path, file) in &assets {
            let name = path.trim_start_matches("/_assets/");
            assert_eq!(file.key, format!("sites/{pid}/assets/{name}"));
            assert!(file.immutable);
            let body = blob(&app, &file.key).await;
            assert_eq!(name.split('.').next().unwrap(), sha_prefix(&body), "{path}");
        }
        let ext = |e: &str| assets.iter().any(|(p, _)| p.ends_with(e));
        assert!(ext(".css") && ext(".js") && ext(".woff2") && ext(".png"));
        // Already-compressed types (fonts, images) get no variants.
        for (path, file) in &assets {
            if path.ends_with(".woff2") || path.ends_with(".png") {
                assert!(file.br.is_none() && file.gzip.is_none(), "{path}");
            }
        }
        // Pages rendered by the edge, collections, redirects and forms.
        assert_eq!(
            m.redirects,
            vec![("/antigo".to_string(), "/sobre".to_string())]
        );
        let recipes = &m.collection_pages["receitas"];
        assert_eq!(recipes.table.as_deref(), Some("receitas"));
        assert_eq!(recipes.table_id, Some(m.collections["receitas"]));
        assert_eq!(recipes.title_suffix, " | Sal & Estrada");
        assert_eq!(recipes.document.pixel_id.as_deref(), Some("123456"));
        assert!(m.dynamic_pages.contains_key("lista"));
        assert!(!m.routes.contains_key("/lista") && !m.routes.contains_key("/receitas"));
        assert_eq!(m.forms.to, "pub-write@example.com");
        assert!(!m.forms.subject.is_empty());
        let d = deploys(&app, &s, pid).await;
        assert_eq!(
            d["data"][0]["files"].as_i64().unwrap(),
            m.routes.len() as i64
        );
        assert!(is_published(&app, &s, pid).await);
    }
);

dual_test!(
    async fn published_pages_carry_the_reset_and_hide_links_to_missing_pages(app: PublishApp) {
        let s = app.register("pub-reset@example.com").await;
        let pid = new_project(&app, &s, "Padaria").await;
        let link = |name: &str, href: &str| {
            json!({"uid": name, "template": "{% if more.href is working_link %}<a href=\"{{ more.href }}\">{{ more.label }}</a>{% endif %}",
                "vars": [{"name": "more", "type": "link", "value": {"href": href, "label": name}}]})
        };
        let home = home_page_id(&app, &s, pid).await;
        json_ok(
            app.post(
                &s,
                &format!("/api/page/{home}"),
                json!({"blocks": [link("sobre", "/sobre"), link("catalogo", "/produtos"), link("vazio", "#")]}),
            )
            .await,
        )
        .await;
        new_page(
            &app,
            &s,
            pid,
            "Sobre",
            json!({"blocks": [link("inicio", "/")]}),
        )
        .await;
        let res = publish(&app, &s, pid).await;
        let m = manifest(&app, pid, res["deploy"]["id"].as_i64().unwrap()).await;
        let html = page_html(&app, &m, "/").await;
        assert!(
            html.contains(&format!(
                "<style>{}</style>",
                vitrine_shared::render::BASE_CSS
            )),
            "{html}"
        );
        assert!(html.contains("body{margin:0}"), "{html}");
        assert!(html.contains("<a href=\"&#x2f;sobre\">sobre</a>"), "{html}");
        assert!(
            !html.contains("catalogo") && !html.contains("vazio"),
            "{html}"
        );
        let html = page_html(&app, &m, "/sobre").await;
        assert!(html.contains("<a href=\"&#x2f;\">inicio</a>"), "{html}");
    }
);

dual_test!(
    async fn the_document_has_title_seo_fonts_favicon_code_and_pixel(app: PublishApp) {
        let s = app.register("pub-doc@example.com").await;
        let pid = full_site(&app, &s).await;
        let did = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let m = manifest(&app, pid, did).await;
        let html = page_html(&app, &m, "/").await;
        let slug = project(&app, &s, pid).await["slug"]
            .as_str()
            .unwrap()
            .to_string();
        let asset_of = |bytes: &[u8], ext: &str| format!("/_assets/{}.{ext}", sha_prefix(bytes));
        // Images are photos, stored as made (upright, without metadata): the site's copy is of
        // the stored bytes, the same for both (one pixel each).
        let meta = project(&app, &s, pid).await;
        let stored = blob(
            &app,
            meta["meta"]["favicon"]
                .as_str()
                .unwrap()
                .trim_start_matches("/files/"),
        )
        .await;
        let favicon = asset_of(&stored, "png");
        let seo = favicon.clone();
        for needle in [
            "<title>Sal &amp; Estrada</title>".to_string(),
            "<meta name=\"description\" content=\"A página inicial\">".into(),
            format!("og:image\" content=\"https://{slug}.vitrine.test{seo}\""),
            format!("<link rel=\"icon\" href=\"{favicon}\" type=\"image/png\">"),
            "--font-body:\"Lora\"".into(),
            "<meta name=\"projeto\" content=\"1\">\n<meta name=\"pagina\" content=\"2\">".into(),
            "<!-- rodapé do projeto -->".into(),
            "fbq('init','123456')".into(),
            "<h1>Sal &amp; Estrada</h1>".into(),
            // The block's image is a <picture> (an opaque photo: a JPEG fallback), first on
            // the page and so fetched first.
            "width=\"1\" height=\"1\" data-photo=\"\" fetchpriority=\"high\"".to_string(),
        ] {
            assert!(html.contains(&needle), "missing {needle} in {html}");
        }
        assert!(
            !html.contains("/files/uploads/"),
            "uploads are served from the site: {html}"
        );
        // The owner's PNG favicon (as stored: upright, without metadata) is also the site's
        // /favicon.ico, wrapped whole in an ICO.
        let icon = &m.routes["/favicon.ico"];
        assert!(
            icon.content_type.contains("icon") && !icon.immutable,
            "{icon:?}"
        );
        let ico = blob(&app, &icon.key).await;
        assert_eq!(
            (&ico[..6], &ico[22..]),
            (&[0u8, 0, 1, 0, 1, 0][..], &stored[..])
        );
        // The Conversions API token is a server-side secret: never in what visitors can read.
        let manifest_json = blob(&app, &manifest_key(ProjectId(pid), DeployId(did))).await;
        for public in [html.as_bytes(), &manifest_json[..]] {
            assert!(!String::from_utf8_lossy(public).contains("segredo-do-token-capi"));
        }
        // Stylesheets: fonts first, then the blocks' bundle; the blocks' script at the end.
        let links: Vec<&str> = html
            .match_indices("<link rel=\"stylesheet\" href=\"")
            .map(|(i, m)| html[i + m.len()..].split('"').next().unwrap())
            .collect();
        assert_eq!(links.len(), 2, "{html}");
        let fonts_css =
            String::from_utf8(blob(&app, &m.routes[links[0]].key).await.to_vec()).unwrap();
        for family in ["\"Lora\"", "\"Open Sans\"", "\"Minha Fonte\""] {
            assert!(
                fonts_css.contains(&format!("font-family:{family}")),
                "{fonts_css}"
            );
        }
        assert!(
            fonts_css.contains("font-style:italic;font-weight:700"),
            "{fonts_css}"
        );
        assert!(
            fonts_css.contains(&asset_of(WOFF2, "woff2")),
            "custom font from the uploads: {fonts_css}"
        );
        let lora = asset_of(b"wOF2 lora latin-400-normal.woff2", "woff2");
        assert!(
            fonts_css.contains(&lora),
            "provider font served from the site: {fonts_css}"
        );
        assert!(m.routes.contains_key(&lora));
        let css = String::from_utf8(blob(&app, &m.routes[links[1]].key).await.to_vec()).unwrap();
        assert!(css.contains("color: tomato"));
        assert!(html.contains("<script src=\"/_assets/") && html.contains(".js\" defer></script>"));
        // Lora 400 and 700 (the default weights) and Open Sans 700 italic, fetched once.
        assert_eq!(app.fonts.hits.load(Ordering::SeqCst), 3);
        publish(&app, &s, pid).await;
        assert_eq!(
            app.fonts.hits.load(Ordering::SeqCst),
            3,
            "fonts are cached in the object store"
        );
        // Another page: its own title and the project's description.
        let about = page_html(&app, &m, "/sobre").await;
        assert!(
            about.contains("<title>Sobre | Sal &amp; Estrada</title>"),
            "{about}"
        );
        assert!(about.contains("content=\"Receitas de família\""), "{about}");
    }
);

dual_test!(
    async fn a_failing_build_leaves_the_previous_deploy_live(app: PublishApp) {
        let s = app.register("pub-fail@example.com").await;
        let pid = full_site(&app, &s).await;
        let first = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();

        // A template error: 422 naming the page and block, nothing switched.
        let home = home_page_id(&app, &s, pid).await;
        break_page(&app, &s, home).await;
        let msg = publish_error(&app, &s, pid, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(
            msg.contains("Template error") && msg.contains("quebrado"),
            "{msg}"
        );
        let history = deploys(&app, &s, pid).await;
        assert_eq!(history["active_deploy_id"], first);
        assert_eq!(history["data"][0]["status"], "failed");
        assert_eq!(history["data"][0]["error"], msg);
        let failed = history["data"][0]["id"].as_i64().unwrap();
        assert!(is_published(&app, &s, pid).await);

        // A runaway template passes the compile and fails while rendering.
        json_ok(
            app.post(&s, &format!("/api/page/{home}"), json!({"blocks": [{"uid": "laco", "template": "{% for a in range(1000) %}{% for b in range(1000) %}x{% endfor %}{% endfor %}"}]}))
                .await,
        )
        .await;
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/publish/{pid}"),
                json!({"shouldUpdateVercel": true}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.contains("laco"), "{msg}");

        // The object store refuses writes: a 500, and still the first deploy.
        json_ok(
            app.post(&s, &format!("/api/page/{home}"), json!({"blocks": [{"uid": "ok", "template": "<p>novo</p>", "css": "p{color:red}"}]}))
                .await,
        )
        .await;
        let sites = app
            .app
            .app
            .state()
            .settings
            .data_dir
            .join(format!("objects/sites/{pid}"));
        let aside = sites.with_extension("aside");
        std::fs::rename(&sites, &aside).unwrap();
        std::fs::write(&sites, b"not a directory").unwrap();
        let res = app
            .post(&s, &format!("/api/publish_v2/{pid}"), json!({}))
            .await;
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        std::fs::remove_file(&sites).unwrap();
        std::fs::rename(&aside, &sites).unwrap();
        let history = deploys(&app, &s, pid).await;
        assert_eq!(history["active_deploy_id"], first);
        assert_eq!(history["data"][0]["status"], "failed");
        assert_eq!(history["data"].as_array().unwrap().len(), 4);

        // A failed deploy cannot be made live.
        let msg = expect_error(
            activate(&app, &s, pid, failed).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.contains("failed"), "{msg}");
        // Once the store works again, publishing works again.
        let next = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        assert!(next > first);
    }
);

/// `POST /api/publish_v2/{pid}/events`, read chunk by chunk as the server sends it: each
/// event's name and JSON data, in order. Panics unless the answer is an event stream.
async fn publish_events(app: &TestApp, s: &Session, pid: i64) -> Vec<(String, Value)> {
    let mut res = app
        .post(
            s,
            &format!("/api/publish_v2/{pid}/events"),
            json!({"project_id": pid}),
        )
        .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let mut buffer = String::new();
    let mut events = Vec::new();
    while let Some(chunk) = res.chunk().await.unwrap() {
        buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        while let Some(end) = buffer.find("\n\n") {
            let raw: String = buffer.drain(..end + 2).collect();
            let mut name = None;
            let mut data = String::new();
            for line in raw.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_string());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push_str(d);
                }
            }
            // Keep-alive comments carry no event.
            if let Some(name) = name {
                events.push((name, serde_json::from_str(&data).unwrap()));
            }
        }
    }
    events
}

dual_test!(
    async fn a_streamed_publish_reports_each_step_in_order_then_the_result(app: PublishApp) {
        let s = app.register("pub-events@example.com").await;
        let pid = new_project(&app, &s, "Passo a Passo").await;
        set_meta(
            &app,
            &s,
            pid,
            json!({"defaultFont": {"family": "Lora", "variants": ["regular", "700"]}}),
        )
        .await;
        new_page(
            &app,
            &s,
            pid,
            "Contato",
            json!({"blocks": [{"uid": "c", "template": "<p>fale</p>", "css": "p{color:red}"}]}),
        )
        .await;

        let events = publish_events(&app, &s, pid).await;
        let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["step", "step", "step", "step", "step", "step", "result"],
            "{events:?}"
        );
        let deploy_id = events[6].1["deploy"]["id"].as_i64().unwrap();
        assert_eq!(
            events[0].1,
            json!({"step": "started", "deploy_id": deploy_id, "pages": 2})
        );
        assert_eq!(events[1].1, json!({"step": "fonts", "faces": 2}));
        assert_eq!(events[2].1["step"], "page");
        assert_eq!(events[2].1["index"], 1);
        assert_eq!(events[2].1["total"], 2);
        assert_eq!(
            events[3].1,
            json!({"step": "page", "index": 2, "total": 2, "name": "Contato"})
        );
        let assets = &events[4].1;
        assert_eq!(assets["step"], "assets");
        let result = &events[6].1;
        assert_eq!(assets["files"], result["deploy"]["files"]);
        assert_eq!(assets["bytes"], result["deploy"]["bytes"]);
        assert!(assets["files"].as_i64().unwrap() >= 4, "{assets}");
        assert_eq!(events[5].1, json!({"step": "live"}));
        assert_eq!(result["deploy"]["status"], "ready");
        assert_eq!(result["url"], "https://passo-a-passo.vitrine.test");
        // The deploy the stream announced is the one that went live.
        let history = deploys(&app, &s, pid).await;
        assert_eq!(history["active_deploy_id"], deploy_id);
        assert!(is_published(&app, &s, pid).await);

        // A failing build: the steps so far, then the error the JSON call would answer,
        // and the live site is as it was.
        let home = home_page_id(&app, &s, pid).await;
        break_page(&app, &s, home).await;
        let events = publish_events(&app, &s, pid).await;
        let (name, error) = events.last().unwrap();
        assert_eq!(name, "error", "{events:?}");
        assert_eq!(error["status"], 422);
        assert_eq!(error["error"], "template_error");
        assert_eq!(error["params"]["block"], "quebrado");
        assert!(
            events.iter().all(|(_, e)| e["step"] != "live"),
            "{events:?}"
        );
        let history = deploys(&app, &s, pid).await;
        assert_eq!(history["active_deploy_id"], deploy_id);
        assert_eq!(history["data"][0]["status"], "failed");
        assert!(is_published(&app, &s, pid).await);

        // Refusals before the build are the plain JSON errors.
        let res = app
            .post(
                &s,
                &format!("/api/publish_v2/{pid}/events"),
                json!({"project_id": pid + 1}),
            )
            .await;
        expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
);

dual_test!(
    async fn private_font_addresses_are_skipped_not_fatal(strict: StrictApp) {
        let app = strict.0;
        let s = app.register("pub-strict@example.com").await;
        let pid = new_project(&app, &s, "Fontes").await;
        set_meta(
            &app,
            &s,
            pid,
            json!({"defaultFont": {"family": "Lora", "variants": ["regular"]}}),
        )
        .await;
        // The site still goes live, with the fallback fonts, and the owner is told why.
        let res = publish(&app, &s, pid).await;
        let warnings = res["warnings"].to_string();
        assert!(
            warnings.contains("Lora") && warnings.contains("private"),
            "{res}"
        );
        assert_eq!(app.fonts.hits.load(Ordering::SeqCst), 0);
        assert!(is_published(&app, &s, pid).await);
    }
);

dual_test!(
    async fn an_unknown_font_family_is_a_clear_warning(app: PublishApp) {
        let s = app.register("pub-font404@example.com").await;
        let pid = new_project(&app, &s, "Fontes").await;
        set_meta(
            &app,
            &s,
            pid,
            json!({"fonts": [{"family": "Nao Existe", "variants": ["700"]}]}),
        )
        .await;
        let res = publish(&app, &s, pid).await;
        let warnings = res["warnings"].as_array().expect("warnings");
        assert_eq!(warnings.len(), 1, "{res}");
        // A code the dashboard translates, the family it names, and the English text.
        assert_eq!(warnings[0]["code"], "font_unavailable", "{res}");
        assert_eq!(warnings[0]["params"]["family"], "Nao Existe", "{res}");
        let msg = warnings[0]["message"].as_str().unwrap();
        assert!(msg.contains("Nao Existe") && msg.contains("404"), "{msg}");
        assert!(is_published(&app, &s, pid).await);
    }
);

dual_test!(
    async fn unpublish_takes_the_site_down_and_publish_brings_it_back(app: PublishApp) {
        let s = app.register("pub-down@example.com").await;
        let pid = new_project(&app, &s, "Loja").await;
        let did = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let res = json_ok(
            app.post(&s, &format!("/api/unpublish/{pid}"), json!({}))
                .await,
        )
        .await;
        assert_eq!(res, json!({"is_published": false}));
        assert!(!is_published(&app, &s, pid).await);
        let site = app
            .store
            .site_by_slug(project(&app, &s, pid).await["slug"].as_str().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert!(!site.is_published);
        // The deploy stays, so rolling back to it republishes at once.
        let back = json_ok(activate(&app, &s, pid, did).await).await;
        assert_eq!(back["deploy"]["id"], did);
        assert!(is_published(&app, &s, pid).await);
    }
);

dual_test!(
    async fn deploy_history_lists_newest_first_and_rolls_back(app: PublishApp) {
        let s = app.register("pub-hist@example.com").await;
        let pid = new_project(&app, &s, "Historia").await;
        let home = home_page_id(&app, &s, pid).await;
        let empty = deploys(&app, &s, pid).await;
        assert_eq!(empty, json!({"data": [], "active_deploy_id": null}));
        let mut ids = vec![];
        for text in ["um", "dois"] {
            json_ok(
                app.post(
                    &s,
                    &format!("/api/page/{home}"),
                    json!({"blocks": [{"uid": "b", "template": format!("<p>{text}</p>"), "css": format!(".{text} {{ color: red; }}")}]}),
                )
                .await,
            )
            .await;
            ids.push(
                publish(&app, &s, pid).await["deploy"]["id"]
                    .as_i64()
                    .unwrap(),
            );
        }
        let history = deploys(&app, &s, pid).await;
        let listed: Vec<i64> = history["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["id"].as_i64().unwrap())
            .collect();
        assert_eq!(listed, vec![ids[1], ids[0]]);
        assert_eq!(history["active_deploy_id"], ids[1]);

        let back = json_ok(activate(&app, &s, pid, ids[0]).await).await;
        assert_eq!(back["deploy"]["id"], ids[0]);
        assert!(back["url"].as_str().unwrap().starts_with("https://"));
        let history = deploys(&app, &s, pid).await;
        assert_eq!(history["active_deploy_id"], ids[0]);
        // The old deploy's page is still there, unchanged.
        let m = manifest(&app, pid, ids[0]).await;
        let html = page_html(&app, &m, "/").await;
        assert!(html.contains("<p>um</p>"));
        // No conversion pixel unless one is configured.
        assert!(!html.contains("fbq("), "{html}");
        // Both deploys' assets stay in the store: a visitor holding an old page finds them.
        for id in &ids {
            for file in manifest(&app, pid, *id).await.routes.values() {
                assert!(app.app.app.state().blobs.exists(&file.key).await.unwrap());
            }
        }

        // A deploy of another project cannot be activated through this one.
        let other = new_project(&app, &s, "Outro").await;
        expect_error(
            activate(&app, &s, other, ids[0]).await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);

dual_test!(
    async fn concurrent_publishes_of_one_project_all_finish(app: PublishApp) {
        let s = app.register("pub-conc@example.com").await;
        let pid = full_site(&app, &s).await;
        let (a, b, c) = tokio::join!(
            publish(&app, &s, pid),
            publish(&app, &s, pid),
            publish(&app, &s, pid)
        );
        let mut ids: Vec<i64> = [a, b, c]
            .iter()
            .map(|r| r["deploy"]["id"].as_i64().unwrap())
            .collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 3);
        let history = deploys(&app, &s, pid).await;
        assert!(
            history["data"]
                .as_array()
                .unwrap()
                .iter()
                .all(|d| d["status"] == "ready")
        );
        // Publishes run one after another, so the last one started is the live one.
        assert_eq!(history["active_deploy_id"], ids[2]);
        for id in ids {
            manifest(&app, pid, id).await;
        }
    }
);

dual_test!(
    async fn other_users_projects_answer_404(app: PublishApp) {
        let owner = app.register("pub-owner@example.com").await;
        let stranger = app.register("pub-stranger@example.com").await;
        let pid = new_project(&app, &owner, "Privado").await;
        let did = publish(&app, &owner, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        for (path, body) in [
            (
                format!("/api/publish_v2/{pid}"),
                Some(json!({"project_id": pid})),
            ),
            (format!("/api/publish/{pid}"), Some(json!({}))),
            (format!("/api/publish_v2/{pid}/events"), Some(json!({}))),
            (format!("/api/unpublish/{pid}"), Some(json!({}))),
            (format!("/api/projects/{pid}/deploys"), None),
            (
                format!("/api/projects/{pid}/deploys/{did}/activate"),
                Some(json!({})),
            ),
            ("/api/publish_v2/999999".to_string(), Some(json!({}))),
        ] {
            let res = match body {
                Some(b) => app.post(&stranger, &path, b).await,
                None => app.get(&stranger, &path).await,
            };
            assert_eq!(
                expect_error(res, StatusCode::NOT_FOUND).await,
                "Not found",
                "{path}"
            );
        }
        let history = json_ok(
            app.get(&owner, &format!("/api/projects/{pid}/deploys"))
                .await,
        )
        .await;
        assert_eq!(history["data"].as_array().unwrap().len(), 1);
        assert!(is_published(&app, &owner, pid).await);
    }
);

dual_test!(
    async fn bad_publish_input_answers_4xx(app: PublishApp) {
        let s = app.register("pub-bad@example.com").await;
        let pid = new_project(&app, &s, "Ruim").await;
        for path in [
            "/api/publish_v2/abc",
            "/api/publish/1.5",
            "/api/unpublish/-x",
            "/api/projects/x/deploys/1/activate",
        ] {
            expect_error(app.post(&s, path, json!({})).await, StatusCode::NOT_FOUND).await;
        }
        expect_error(
            app.get(&s, "/api/projects/abc/deploys").await,
            StatusCode::NOT_FOUND,
        )
        .await;
        expect_error(activate(&app, &s, pid, 987654).await, StatusCode::NOT_FOUND).await;
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/publish_v2/{pid}"),
                json!({"project_id": pid + 1}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(msg.contains("project_id"), "{msg}");
        expect_error(
            app.post(
                &s,
                &format!("/api/publish_v2/{pid}"),
                json!({"project_id": "um"}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        // A page at an address the edge keeps for itself.
        let page = new_page(&app, &s, pid, "Api", json!({"slug": "_api/collections"})).await;
        let msg = publish_error(&app, &s, pid, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(msg.contains("/_api/collections"), "{msg}");
        json_ok(
            app.post(&s, &format!("/api/page/{page}"), json!({"slug": "api"}))
                .await,
        )
        .await;
        // Raw bodies: malformed JSON, a form body, and no body at all (which is fine).
        let cases: [(&str, Option<&str>, &str, StatusCode); 3] = [
            (
                "publish_v2",
                Some("application/json"),
                "{not json",
                StatusCode::BAD_REQUEST,
            ),
            (
                "publish",
                Some("text/plain"),
                "shouldUpdateVercel=1",
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            ("publish", None, "", StatusCode::OK),
        ];
        for (call, content_type, body, status) in cases {
            let mut req = s.client.post(app.url(&format!("/api/{call}/{pid}")));
            if let Some(t) = content_type {
                req = req.header("content-type", t);
            }
            let res = req.body(body).send().await.unwrap();
            if status == StatusCode::OK {
                assert_eq!(res.status(), status);
            } else {
                expect_error(res, status).await;
            }
        }
        // Refused input made no deploy; the reserved slug failed one; the bare publish worked.
        let history = deploys(&app, &s, pid).await;
        let statuses: Vec<&str> = history["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["ready", "failed"]);
    }
);

dual_test!(
    async fn form_notifications_go_to_the_form_email_when_set(app: PublishApp) {
        let s = app.register("pub-forms@example.com").await;
        let pid = new_project(&app, &s, "Contato").await;
        let did = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        assert_eq!(
            manifest(&app, pid, did).await.forms.to,
            "pub-forms@example.com"
        );
        set_meta(&app, &s, pid, json!({"formEmail": "Vendas@Loja.example"})).await;
        let did = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let forms = manifest(&app, pid, did).await.forms;
        assert_eq!(forms.to, "vendas@loja.example");
        assert!(forms.subject.contains("Contato"), "{}", forms.subject);
        let msg = expect_error(
            app.post(
                &s,
                &format!("/api/projects/{pid}"),
                json!({"meta": {"formEmail": "não é e-mail"}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(!msg.is_empty());
    }
);

async fn changes(app: &TestApp, pid: i64) -> Vec<Change> {
    app.store
        .changes_since(0, 10_000)
        .await
        .unwrap()
        .into_iter()
        .filter(|c| c.project_id == ProjectId(pid))
        .collect()
}

dual_test!(
    async fn publish_unpublish_and_rollback_append_deploy_changes(app: PublishApp) {
        let s = app.register("pub-feed@example.com").await;
        let pid = new_project(&app, &s, "Feed").await;
        let first = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        let second = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        json_ok(
            app.post(&s, &format!("/api/unpublish/{pid}"), json!({}))
                .await,
        )
        .await;
        json_ok(activate(&app, &s, pid, first).await).await;
        let keys: Vec<String> = changes(&app, pid)
            .await
            .into_iter()
            .filter(|c| c.kind == "deploy")
            .map(|c| c.key)
            .collect();
        assert_eq!(
            keys,
            [
                first.to_string(),
                second.to_string(),
                String::new(),
                first.to_string()
            ]
        );
    }
);

dual_test!(
    async fn writes_visitors_see_append_change_feed_entries(app: PublishApp) {
        let s = app.register("pub-writes@example.com").await;
        let pid = new_project(&app, &s, "Mudanças").await;
        let kinds = |cs: Vec<Change>| -> Vec<(String, String)> {
            cs.into_iter().map(|c| (c.kind, c.key)).collect()
        };
        let start = changes(&app, pid).await.len();
        let project_url = format!("/api/projects/{pid}");
        json_ok(
            app.post(&s, &project_url, json!({"slug": "mudancas-novo"}))
                .await,
        )
        .await;
        json_ok(
            app.post(&s, &project_url, json!({"meta": {"footer": "<!-- x -->"}}))
                .await,
        )
        .await;
        json_ok(
            app.post(&s, &project_url, json!({"domain": "mudancas.example.com"}))
                .await,
        )
        .await;
        json_ok(
            app.post(
                &s,
                "/api/redirects",
                json!({"project_id": pid, "from": "/a", "to": "/b"}),
            )
            .await,
        )
        .await;
        let table = json_ok(
            app.post(&s, "/api/tables", json!({"project_id": pid, "name": "Itens", "meta": {"plural": "Itens", "singular": "Item"}}))
                .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        json_ok(
            app.post(&s, &format!("/api/tables/{table}"), json!({"name": "Itens", "slug": "produtos", "meta": {"plural": "Itens", "singular": "Item"}}))
                .await,
        )
        .await;
        let field = json_ok(
            app.post(
                &s,
                "/api/fields",
                json!({"table_id": table, "name": "Cor", "type": "text"}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        json_ok(
            app.post(
                &s,
                &format!("/api/fields/{field}"),
                json!({"table_id": table, "name": "Cor principal", "type": "text"}),
            )
            .await,
        )
        .await;
        let res = app
            .post(&s, "/api/fields/reorder", json!({"fields": [field]}))
            .await;
        assert!(res.status().is_success(), "{}", res.status());
        let post = json_ok(
            app.post(
                &s,
                "/api/posts",
                json!({"table_id": table, "name": "Primeiro", "fields": []}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        json_ok(
            app.post(
                &s,
                &format!("/api/posts/{post}"),
                json!({"name": "Primeiro!"}),
            )
            .await,
        )
        .await;
        let res = app.delete(&s, &format!("/api/posts/{post}")).await;
        assert!(res.status().is_success(), "{}", res.status());

        let got = kinds(changes(&app, pid).await.split_off(start));
        let t = table.to_string();
        let project = ("project".to_string(), String::new());
        let records = ("records".to_string(), t.clone());
        assert_eq!(&got[..3], [project.clone(), project.clone(), project]);
        assert_eq!(got[3].0, "redirects");
        // Collection created and renamed, field added, edited and moved, record added, edited, deleted.
        assert_eq!(got[4..], vec![records; 8][..], "{got:?}");
    }
);

dual_test!(
    async fn builds_a_stopped_process_left_behind_are_marked_failed(app: PublishApp) {
        let s = app.register("pub-stale@example.com").await;
        let pid = new_project(&app, &s, "Parado").await;
        let live = publish(&app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        // A build whose process died: created, never finished.
        let stuck = app
            .store
            .create_deploy(ProjectId(pid), Some(AccountId(s.id())))
            .await
            .unwrap();
        let later = chrono::Utc::now() + chrono::TimeDelta::seconds(1);
        assert_eq!(app.store.fail_stale_deploys(later).await.unwrap(), 1);
        let history = deploys(&app, &s, pid).await;
        assert_eq!(history["data"][0]["id"], stuck.id.get());
        assert_eq!(history["data"][0]["status"], "failed");
        assert_eq!(history["data"][0]["error"], INTERRUPTED_BUILD);
        assert_eq!(history["data"][0]["error_code"], "build_interrupted");
        assert_eq!(history["data"][1]["status"], "ready");
        assert_eq!(history["active_deploy_id"], live);
        // Recent builds are left alone.
        app.store
            .create_deploy(ProjectId(pid), Some(AccountId(s.id())))
            .await
            .unwrap();
        let earlier = chrono::Utc::now() - chrono::TimeDelta::minutes(30);
        assert_eq!(app.store.fail_stale_deploys(earlier).await.unwrap(), 0);
    }
);

/// Width, height and the RGB colour at (x, y) of a PNG.
pub(crate) fn png_pixel(png: &[u8], x: u32, y: u32) -> (u32, u32, [u8; 3]) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    let at = ((y * info.width + x) as usize) * step;
    (info.width, info.height, [buf[at], buf[at + 1], buf[at + 2]])
}

dual_test!(
    async fn a_publish_pictures_the_home_page_for_the_project_card(shots: ShotApp) {
        let app = &shots.0;
        let owner = app.register("shot-owner@example.com").await;
        let stranger = app.register("shot-stranger@example.com").await;
        let pid = new_project(app, &owner, "Com Foto").await;
        let home = home_page_id(app, &owner, pid).await;
        // The colour comes from the page's stylesheet, an asset of the deploy: the picture is
        // the page as visitors see it.
        json_ok(
            app.post(
                &owner,
                &format!("/api/page/{home}"),
                json!({"blocks": [{"uid": "faixa", "template": "<div class=\"faixa\">Olá</div>",
                    "css": ".faixa{height:2000px;background:rgb(29,78,216)}"}]}),
            )
            .await,
        )
        .await;
        let published = publish(app, &owner, pid).await;
        let did = published["deploy"]["id"].as_i64().unwrap();
        let url = format!("/api/projects/{pid}/deploys/{did}/screenshot");

        eventually(|| async { project(app, &owner, pid).await["thumbnail"] == url.as_str() }).await;
        let card = project(app, &owner, pid).await;
        assert!(card["thumbnail_timestamp"].as_i64().unwrap() > 0);
        let listed = json_ok(app.get(&owner, "/api/projects").await).await;
        let listed = listed
            .as_array()
            .or_else(|| listed["data"].as_array())
            .unwrap()
            .iter()
            .find(|p| p["id"] == pid)
            .cloned()
            .unwrap();
        assert_eq!(listed["thumbnail"], url.as_str());

        // Stored with the deploy.
        let stored = blob(app, &format!("deploys/{pid}/{did}/screenshot.png")).await;
        let res = app.get(&owner, &url).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "image/png");
        let png = res.bytes().await.unwrap();
        assert_eq!(png, stored);
        let (w, h, rgb) = png_pixel(&png, 640, 400);
        assert_eq!((w, h), (1280, 800));
        let [r, g, b] = rgb;
        assert!(
            r < 60 && (60..100).contains(&g) && b > 190,
            "the block's blue, from the deploy's stylesheet: {rgb:?}"
        );

        // Someone else's project, another project's deploy, a deploy without a picture: 404.
        assert_eq!(
            expect_error(app.get(&stranger, &url).await, StatusCode::NOT_FOUND).await,
            "Not found"
        );
        let theirs = new_project(app, &stranger, "Outro").await;
        expect_error(
            app.get(
                &stranger,
                &format!("/api/projects/{theirs}/deploys/{did}/screenshot"),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        break_page(app, &owner, home).await;
        publish_error(app, &owner, pid, StatusCode::UNPROCESSABLE_ENTITY).await;
        let failed = deploys(app, &owner, pid).await["data"][0]["id"]
            .as_i64()
            .unwrap();
        expect_error(
            app.get(
                &owner,
                &format!("/api/projects/{pid}/deploys/{failed}/screenshot"),
            )
            .await,
            StatusCode::NOT_FOUND,
        )
        .await;
        // The failed build left the picture of the live deploy on the card.
        assert_eq!(project(app, &owner, pid).await["thumbnail"], url.as_str());
    }
);

dual_test!(
    async fn a_home_page_with_a_live_list_is_pictured_with_its_records(shots: ShotApp) {
        let app = &shots.0;
        let owner = app.register("shot-live@example.com").await;
        let pid = new_project(app, &owner, "Com Lista").await;
        let table = json_ok(
            app.post(
                &owner,
                "/api/tables",
                json!({"project_id": pid, "name": "Itens",
                "meta": {"plural": "Itens", "singular": "Item"}}),
            )
            .await,
        )
        .await["id"]
            .as_i64()
            .unwrap();
        json_ok(
            app.post(
                &owner,
                "/api/posts",
                json!({"table_id": table, "name": "Faixa azul", "fields": []}),
            )
            .await,
        )
        .await;
        // Only a record makes the page blue: an empty list leaves it white.
        let home = home_page_id(app, &owner, pid).await;
        json_ok(
            app.post(
                &owner,
                &format!("/api/page/{home}"),
                json!({"blocks": [{"uid": "lista",
                    "template": "{% for r in itens %}<div class=\"faixa\">{{ r.name }}</div>{% endfor %}",
                    "css": ".faixa{height:2000px;background:rgb(29,78,216)}",
                    "vars": [{"name": "itens", "source": "db:itens", "dblimit": 5}]}]}),
            )
            .await,
        )
        .await;
        let published = publish(app, &owner, pid).await;
        let did = published["deploy"]["id"].as_i64().unwrap();
        // The edge renders this home page from the records: the deploy stores no document of it.
        let m = manifest(app, pid, did).await;
        assert!(!m.routes.contains_key("/") && m.dynamic_pages.contains_key("/"));

        let url = format!("/api/projects/{pid}/deploys/{did}/screenshot");
        eventually(|| async { project(app, &owner, pid).await["thumbnail"] == url.as_str() }).await;
        let png = app.get(&owner, &url).await.bytes().await.unwrap();
        let (w, h, rgb) = png_pixel(&png, 640, 400);
        assert_eq!((w, h), (1280, 800));
        let [r, g, b] = rgb;
        assert!(
            r < 60 && (60..100).contains(&g) && b > 190,
            "the listed record, styled by the deploy's stylesheet: {rgb:?}"
        );
    }
);

dual_test!(
    async fn without_chromium_a_publish_still_works_and_the_card_keeps_its_letter(
        app: NoChromiumApp,
    ) {
        let app = &app.0;
        let s = app.register("shot-none@example.com").await;
        let pid = new_project(app, &s, "Sem Foto").await;
        let did = publish(app, &s, pid).await["deploy"]["id"]
            .as_i64()
            .unwrap();
        assert!(is_published(app, &s, pid).await);
        // The background picture has given up.
        wait_until(
            "the picture after the publish",
            std::time::Duration::from_secs(10),
            async || {
                metric(
                    app,
                    r#"vitrine_control_site_screenshots_total{outcome="no_browser"}"#,
                )
                .await
                    >= 1.0
            },
        )
        .await;
        assert_eq!(project(app, &s, pid).await["thumbnail"], Value::Null);
        expect_error(
            app.get(&s, &format!("/api/projects/{pid}/deploys/{did}/screenshot"))
                .await,
            StatusCode::NOT_FOUND,
        )
        .await;
    }
);
