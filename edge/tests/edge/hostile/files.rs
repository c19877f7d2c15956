//! User files are served only on their own project's hosts, and never as active content.
//!
//! The attacker is tenant A, who uploads an SVG carrying a script and sends people to it: on
//! tenant B's host (the preview address and B's verified domain), where the script would run
//! with B's origin, and on A's own host. A real Chromium opens each address; the SVG's script,
//! if it ever ran, would mark its DOM and call a beacon the test listens on
//! (`vitrine_shared::testing::browser`). Each test first shows the browser running that very
//! SVG when it is served with no defence, so a silent harness cannot pass them.

use std::{collections::BTreeSet, time::Duration};

use bytes::Bytes;
use tokio::{io::AsyncWriteExt, net::TcpStream};
use vitrine_shared::ids::{AccountId, CollectionId, ProjectId};
use vitrine_shared::{
    dual_test,
    testing::{
        TestDb,
        browser::{Beacon, Chromium, Load},
    },
    uploads::{Folder, upload_key},
};

use crate::{
    front,
    hot::settle,
    support::{File, Site, TestEdge, asset, basic, html},
};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\0\0\x01\x01\0\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

/// Another account, with a project of its own.
async fn tenant(t: &TestEdge, email: &str, slug: &str) -> (i64, i64) {
    let user = t.user(slug, email).await;
    (user, t.project_of(user, slug).await)
}

/// Stores a file where `POST /api/upload` stores it for `folder`; returns its key.
async fn upload(t: &TestEdge, folder: Folder, bytes: &[u8], stem: &str, ext: &str) -> String {
    let key = upload_key(folder, bytes, stem, ext);
    t.blobs
        .put(&key, Bytes::copy_from_slice(bytes))
        .await
        .unwrap();
    key
}

/// A page without precompressed variants: the test deploys' variants are stand-ins that say
/// which was sent, and a browser asks for br.
fn page(path: &str, body: &str) -> File {
    File {
        variants: false,
        ..html(path, body)
    }
}

/// Tenant B's site, with a 404 page of its own.
fn site_b() -> Site {
    Site {
        files: vec![
            page("/", "<h1>Loja B</h1>"),
            page("/404", "<h1>A Loja B não tem esta página</h1>"),
        ],
        not_found: Some("/404".into()),
        ..Site::default()
    }
}

/// The status of `/files/{key}` on `host`.
async fn status(t: &TestEdge, host: &str, key: &str) -> u16 {
    t.text(host, &format!("/files/{key}")).await.0
}

/// Chromium runs the attack SVG's script when nothing stops it, and the test sees both of
/// its signals: the mark in its DOM and the beacon's call.
async fn the_harness_sees_a_script_run(chromium: &mut Chromium, beacon: &Beacon) {
    let load = chromium.load(&beacon.plain_url()).await;
    assert!(load.dom().contains("data-ran=\"plain\""), "{load:?}");
    assert!(
        beacon.heard().iter().any(|p| p == "/ran/plain"),
        "{:?}",
        beacon.heard()
    );
}

/// Nothing but the harness's own check ever called the beacon.
fn no_script_ran(beacon: &Beacon) {
    let heard: Vec<String> = beacon
        .heard()
        .into_iter()
        .filter(|p| !p.ends_with("/plain"))
        .collect();
    assert!(heard.is_empty(), "the SVG's script ran: {heard:?}");
}

dual_test! {
    async fn a_tenants_script_svg_is_another_tenants_404_on_its_preview_host_and_custom_domain(db: TestDb) {
        let t = TestEdge::start(db).await;
        let beacon = Beacon::start().await;
        let mut chromium = Chromium::start(&["loja-b.localhost", "shop.example"]).await;
        let svg = beacon.script_svg("attack");
        let a = t.simple_site("loja-a", "<h1>Loja A</h1>").await;
        let key = upload(&t, Folder::Project { user_id: AccountId(t.user_id), project_id: ProjectId(a), table_id: None }, svg.as_bytes(), "ataque", "svg").await;
        let (_, b) = tenant(&t, "b@example.com", "loja-b").await;
        t.publish(b, site_b()).await;
        t.db.store.mark_domain_verified(ProjectId(b), "shop.example").await.unwrap();
        t.until("shop.example", "/", 200, "Loja B", Duration::from_secs(5)).await;

        // The file is there: A's own host serves it.
        let path = format!("/files/{key}");
        let (status, body) = t.text("loja-a.localhost", &path).await;
        assert_eq!((status, body.as_str()), (200, svg.as_str()));
        // B's hosts answer B's own 404, whatever the method or range.
        for host in ["loja-b.localhost", "shop.example", "www.shop.example"] {
            let (status, body) = t.text(host, &path).await;
            assert_eq!((status, body.as_str()), (404, "<h1>A Loja B não tem esta página</h1>"), "{host}");
            let head = t.client.head(t.url(&path)).header("host", host).send().await.unwrap();
            assert_eq!(head.status(), 404, "HEAD on {host}");
            let range = t.get(host, &path).header("range", "bytes=0-9").send().await.unwrap();
            assert_eq!(range.status(), 404, "a range on {host}");
        }

        the_harness_sees_a_script_run(&mut chromium, &beacon).await;
        let port = t.edge.http_addr.port();
        for host in ["loja-b.localhost", "shop.example"] {
            let load = chromium.load(&format!("http://{host}:{port}{path}")).await;
            assert!(load.dom().contains("A Loja B não tem esta página"), "{host}: {load:?}");
            assert!(!load.dom().contains("data-ran"), "{host}: {load:?}");
        }
        no_script_ran(&beacon);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_tenants_script_svg_runs_nothing_on_its_own_host_opened_directly_or_as_an_img(db: TestDb) {
        let t = TestEdge::start(db).await;
        let beacon = Beacon::start().await;
        let host = "loja-a.localhost";
        let mut chromium = Chromium::start(&[host]).await;
        let svg = beacon.script_svg("attack");
        let a = t.project("loja-a").await;
        let key = upload(&t, Folder::Project { user_id: AccountId(t.user_id), project_id: ProjectId(a), table_id: Some(CollectionId(4)) }, svg.as_bytes(), "ataque", "svg").await;
        // The publisher's copy of the same file among the deploy's assets, as a page's own
        // code refers to it.
        let copy = "0123456789abcdef.svg";
        let home = format!(
            "<!doctype html><body><img src=\"/files/{key}\" onload=\"document.body.setAttribute('data-upload', this.naturalWidth)\"><img src=\"/_assets/{copy}\" onload=\"document.body.setAttribute('data-asset', this.naturalWidth)\"></body>"
        );
        let site = Site {
            files: vec![page("/", &home), asset(copy, "image/svg+xml", &svg)],
            ..Site::default()
        };
        t.publish(a, site).await;
        t.until(host, "/", 200, "data-upload", Duration::from_secs(5)).await;

        for path in [format!("/files/{key}"), format!("/_assets/{copy}")] {
            let r = t.get(host, &path).send().await.unwrap();
            assert_eq!(r.status(), 200, "{path}");
            let h = r.headers();
            assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
            assert_eq!(h["content-security-policy"], "sandbox; default-src 'none'", "{path}");
            assert_eq!(h["content-disposition"], "attachment", "{path}");
        }

        the_harness_sees_a_script_run(&mut chromium, &beacon).await;
        let origin = format!("http://{host}:{}", t.edge.http_addr.port());
        // Opened directly: no document at all, the browser was told to download it.
        for path in [format!("/files/{key}"), format!("/_assets/{copy}")] {
            let load = chromium.load(&format!("{origin}{path}")).await;
            assert_eq!(load, Load::NotShown("net::ERR_ABORTED".into()), "{path}");
        }
        // Embedded as images by A's own page, both still show (10 px wide), and run nothing.
        let load = chromium.load(&format!("{origin}/")).await;
        assert!(load.dom().contains("data-upload=\"10\""), "{load:?}");
        assert!(load.dom().contains("data-asset=\"10\""), "{load:?}");
        no_script_ran(&beacon);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn a_site_serves_only_its_own_projects_uploads_and_the_ones_its_live_deploy_lists(db: TestDb) {
        let t = TestEdge::start(db).await;
        let a = t.project("loja-a").await;
        let (b_user, b) = tenant(&t, "b@example.com", "loja-b").await;
        let (admin, model) = tenant(&t, "admin@example.com", "modelo").await;
        let own = |table_id| Folder::Project { user_id: AccountId(t.user_id), project_id: ProjectId(a), table_id };
        // A's own files: the editor's, a record's, and the client panel's.
        let mine = [
            upload(&t, own(None), PNG, "logo", "png").await,
            upload(&t, own(Some(CollectionId(3))), b"%PDF-1.4 ficha", "ficha", "pdf").await,
            upload(&t, Folder::Client { project_id: ProjectId(a), table_id: None }, b"cliente", "nota", "txt").await,
        ];
        // A template's image, which A's pages name: the deploy lists it.
        let template = upload(&t, Folder::Project { user_id: AccountId(admin), project_id: ProjectId(model), table_id: None }, b"<svg/> modelo", "modelo", "svg").await;
        // Not A's, and not named by A's deploy.
        let strangers = [
            upload(&t, Folder::Project { user_id: AccountId(b_user), project_id: ProjectId(b), table_id: None }, b"<svg/> b", "b", "svg").await,
            upload(&t, Folder::Client { project_id: ProjectId(b), table_id: Some(CollectionId(1)) }, b"<svg/> cb", "cb", "svg").await,
            upload(&t, Folder::Account { user_id: AccountId(b_user) }, b"<svg/> conta", "conta", "svg").await,
            "uploads/admin/0123456789abcdef0123/rich.svg".to_string(),
        ];
        t.blobs.put(&strangers[3], Bytes::from_static(b"<svg/> legado")).await.unwrap();
        // A's account folder belongs to no project: served where a deploy names it.
        let account = upload(&t, Folder::Account { user_id: AccountId(t.user_id) }, b"<svg/> conta a", "conta-a", "svg").await;

        let mut site = basic("<h1>Loja A</h1>");
        site.uploads = BTreeSet::from([template.clone(), account.clone()]);
        t.publish(a, site).await;
        t.publish(b, site_b()).await;
        t.until("loja-b.localhost", "/", 200, "Loja B", Duration::from_secs(5)).await;
        for key in mine.iter().chain([&template, &account]) {
            assert_eq!(status(&t, "loja-a.localhost", key).await, 200, "{key}");
        }
        for key in &strangers {
            assert_eq!(status(&t, "loja-a.localhost", key).await, 404, "{key}");
        }
        // What A's deploy lists is A's to serve, not B's.
        for key in mine.iter().chain([&template, &account]) {
            assert_eq!(status(&t, "loja-b.localhost", key).await, 404, "{key}");
        }
        assert_eq!(status(&t, "loja-b.localhost", &strangers[0]).await, 200);

        // The live deploy decides: one that no longer names the template's file serves it no more.
        t.publish(a, basic("<h1>Loja A, de novo</h1>")).await;
        t.until("loja-a.localhost", "/", 200, "de novo", Duration::from_secs(5)).await;
        assert_eq!(status(&t, "loja-a.localhost", &template).await, 404);
        assert_eq!(status(&t, "loja-a.localhost", &mine[0]).await, 200);
        t.edge.stop().await;
    }
}

dual_test! {
    async fn user_files_keep_their_headers_from_the_hot_routes_and_the_plain_front(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_workers = 1).await;
        let a = t.project("loja").await;
        let key = upload(&t, Folder::Project { user_id: AccountId(t.user_id), project_id: ProjectId(a), table_id: None }, b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "x", "svg").await;
        let mut site = basic("<h1>Loja</h1>");
        site.files.push(asset("feedc0ffee000000.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"));
        site.files.push(File {
            path: "/_assets/feedc0ffee000001.png".into(),
            content_type: "image/png".into(),
            body: Bytes::from_static(PNG),
            variants: false,
        });
        t.publish(a, site).await;
        let svg = "/_assets/feedc0ffee000000.svg";
        let png = "/_assets/feedc0ffee000001.png";
        settle(&t, "loja.localhost", svg).await;
        settle(&t, "loja.localhost", png).await;
        let upload_path = format!("/files/{key}");
        let cases: [(&str, &str, bool); 6] = [
            (svg, "", true),
            (svg, "Range: bytes=0-3\r\n", true),
            (svg, "If-None-Match: \"x\", *\r\n", true),
            (png, "", false),
            (&upload_path, "", true),
            (&upload_path, "Range: bytes=0-3\r\n", true),
        ];
        for (path, extra, script) in cases {
            let request = format!("GET {path} HTTP/1.1\r\nHost: loja.localhost\r\n{extra}\r\n");
            let via_hyper = request.replacen("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1);
            let mut answers = Vec::new();
            for r in [&request, &via_hyper] {
                let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
                s.write_all(r.as_bytes()).await.unwrap();
                answers.push(front::next(&mut s, &mut Vec::new(), false).await);
            }
            assert_eq!(answers[0], answers[1], "{path} {extra:?}");
            let answer = &answers[0];
            assert_eq!(answer.header("x-content-type-options"), Some("nosniff"), "{path} {extra:?}: {answer:?}");
            assert_eq!(answer.header("content-security-policy"), Some("sandbox; default-src 'none'"), "{path} {extra:?}");
            let disposition = script.then_some("attachment");
            assert_eq!(answer.header("content-disposition"), disposition, "{path} {extra:?}");
        }
        // The site's own pages and bundles are not user files.
        let page = t.get("loja.localhost", "/").send().await.unwrap();
        assert!(page.headers().get("content-security-policy").is_none());
        t.edge.stop().await;
    }
}
