//! Republishing (issue 23): a build takes every page and asset the live deploy already has
//! from its manifest, so a republish writes and compresses only what changed, and what it
//! manifests is always what the pages are now.
//!
//! What was written is read from the object store itself: the set of objects under the
//! project's `sites/{project}/` prefix, and marker bytes planted in stored variants (a build
//! that compressed or wrote an object again would replace them).

use std::{collections::BTreeSet, io::Read};

use serde_json::{Value, json};
use vitrine_shared::ids::DeployId;
use vitrine_shared::{
    dual_test,
    manifest::{Manifest, StaticFile},
};

use crate::{
    helpers::{Session, TestApp, json_ok},
    publish::{PublishApp, blob, home_page_id, manifest, new_page, page_html, publish, sha_prefix},
};

/// A block with its own text, CSS and JS, so each page has assets of its own.
fn block(text: &str, css: &str) -> Value {
    json!([{
        "uid": "conteudo",
        "name": "Conteúdo",
        "template": format!("<main><h1>{text}</h1>{}</main>", "<p>Um parágrafo de texto comum.</p>".repeat(20)),
        "css": css,
        "js": format!("console.log({:?});", text),
    }])
}

/// A published three-page site (home, `/sobre`, `/contato`) of a new owner, and what its
/// first deploy stored.
struct Site {
    s: Session,
    pid: i64,
    /// The ids of the `/sobre` and `/contato` pages.
    sobre: i64,
    contato: i64,
    first: i64,
    m1: Manifest,
    /// The objects under `sites/{pid}/` after the first publish.
    before: BTreeSet<String>,
}

async fn site(app: &PublishApp, email: &str) -> Site {
    let s = app.register(email).await;
    let pid = app.create_project(&s, "Reuso").await["id"]
        .as_i64()
        .unwrap();
    let home = home_page_id(app, &s, pid).await;
    edit(app, &s, home, block("Início", "h1{color:red}")).await;
    let mut pages = Vec::new();
    for (name, text, css) in [
        ("Sobre", "Sobre nós", "h1{color:blue}"),
        ("Contato", "Contato", "h1{color:green}"),
    ] {
        let body = json!({"slug": name.to_lowercase(), "blocks": block(text, css)});
        pages.push(new_page(app, &s, pid, name, body).await);
    }
    let first = publish_deploy(app, &s, pid).await;
    Site {
        m1: manifest(app, pid, first).await,
        before: shared_objects(app, pid).await,
        s,
        pid,
        sobre: pages[0],
        contato: pages[1],
        first,
    }
}

/// The keys of every object under the project's content-addressed prefix.
async fn shared_objects(app: &TestApp, pid: i64) -> BTreeSet<String> {
    let listed = blobs(app).list(&format!("sites/{pid}/")).await.unwrap();
    listed.into_iter().map(|(key, _)| key).collect()
}

/// A stored body and its variants' keys.
fn objects_of(file: &StaticFile) -> BTreeSet<String> {
    [Some(&file.key), file.br.as_ref(), file.gzip.as_ref()]
        .into_iter()
        .flatten()
        .cloned()
        .collect()
}

/// The object store the app under test writes to.
fn blobs(app: &TestApp) -> &vitrine_shared::blob::BlobStore {
    &app.app.state().blobs
}

async fn unbrotli(app: &TestApp, key: &str) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(&blob(app, key).await[..], 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

async fn publish_deploy(app: &PublishApp, s: &Session, pid: i64) -> i64 {
    publish(app, s, pid).await["deploy"]["id"].as_i64().unwrap()
}

async fn edit(app: &PublishApp, s: &Session, page: i64, blocks: Value) {
    let body = json!({ "blocks": blocks });
    json_ok(app.post(s, &format!("/api/page/{page}"), body).await).await;
}

const MARKER: &[u8] = b"planted by the test";

dual_test!(
    async fn a_republish_with_no_change_writes_nothing_and_serves_the_same_bytes(app: PublishApp) {
        let Site {
            s,
            pid,
            first,
            m1,
            before,
            ..
        } = site(&app, "reuse-same@example.com").await;
        // Marker bytes in a page's brotli variant and in an asset's gzip variant: a build
        // that compressed or wrote them again would overwrite them.
        let home_br = m1.routes["/"].br.clone().expect("the home page has a .br");
        let css = m1
            .routes
            .iter()
            .find(|(path, f)| path.ends_with(".css") && f.gzip.is_some())
            .map(|(_, f)| f.gzip.clone().unwrap());
        blobs(&app).put(&home_br, MARKER.into()).await.unwrap();
        if let Some(gz) = &css {
            blobs(&app).put(gz, MARKER.into()).await.unwrap();
        }

        let second = publish_deploy(&app, &s, pid).await;
        assert_ne!(second, first);
        let m2 = manifest(&app, pid, second).await;
        assert_eq!(m2.deploy_id, DeployId(second));
        assert_eq!(m2.routes, m1.routes, "the same objects, etags and variants");
        assert_eq!(shared_objects(&app, pid).await, before, "no new object");
        assert_eq!(
            &blob(&app, &home_br).await[..],
            MARKER,
            "nothing recompressed"
        );
        if let Some(gz) = &css {
            assert_eq!(&blob(&app, gz).await[..], MARKER);
        }
        for path in ["/", "/sobre", "/contato"] {
            assert_eq!(
                page_html(&app, &m2, path).await,
                page_html(&app, &m1, path).await
            );
        }
        // The deploy's count is still every file it serves, reused or written.
        let count = |d: vitrine_shared::store::Deploy| (d.files, d.bytes);
        let first_count = count(app.store.deploy_by_id(DeployId(first)).await.unwrap());
        let second_count = count(app.store.deploy_by_id(DeployId(second)).await.unwrap());
        assert_eq!(second_count, first_count);
        assert_eq!(second_count.0, m2.routes.len() as i64);
    }
);

dual_test!(
    async fn a_republish_after_editing_one_page_writes_that_page_alone(app: PublishApp) {
        let Site {
            s,
            pid,
            sobre,
            m1,
            before,
            ..
        } = site(&app, "reuse-edit@example.com").await;

        // New text, the same CSS and JS: only the document changes.
        let mut blocks = block("Sobre nós", "h1{color:blue}");
        blocks[0]["template"] = json!("<main><h1>Sobre nós, agora com novidades</h1></main>");
        edit(&app, &s, sobre, blocks).await;
        let second = publish_deploy(&app, &s, pid).await;
        let m2 = manifest(&app, pid, second).await;

        let changed: Vec<&String> = m2
            .routes
            .iter()
            .filter(|(path, file)| m1.routes.get(*path) != Some(*file))
            .map(|(path, _)| path)
            .collect();
        assert_eq!(changed, ["/sobre"]);
        assert_eq!(m2.routes.len(), m1.routes.len());
        let page = &m2.routes["/sobre"];
        assert!(
            page.key.starts_with(&format!("sites/{pid}/pages/")),
            "{page:?}"
        );
        assert_ne!(page.key, m1.routes["/sobre"].key);
        let added: BTreeSet<String> = shared_objects(&app, pid)
            .await
            .difference(&before)
            .cloned()
            .collect();
        assert_eq!(
            added,
            objects_of(page),
            "the page and its variants, nothing else"
        );
        assert!(page.br.is_some() && page.gzip.is_some());

        let html = page_html(&app, &m2, "/sobre").await;
        assert!(html.contains("Sobre nós, agora com novidades"), "{html}");
        assert!(!html.contains("Um parágrafo de texto comum."));
        assert_eq!(
            unbrotli(&app, page.br.as_ref().unwrap()).await,
            html.as_bytes()
        );
        assert_eq!(page.size, html.len() as u64);
        assert_eq!(page.etag, format!("\"{}\"", sha_prefix(html.as_bytes())));
        // The previous deploy still serves its own version.
        let old = page_html(&app, &m1, "/sobre").await;
        assert!(old.contains("Um parágrafo de texto comum.") && !old.contains("novidades"));
    }
);

dual_test!(
    async fn a_changed_asset_gets_a_new_content_addressed_key_and_the_old_one_stays(
        app: PublishApp,
    ) {
        let Site {
            s,
            pid,
            sobre,
            m1,
            before,
            ..
        } = site(&app, "reuse-asset@example.com").await;

        let css = "h1{color:purple;letter-spacing:.1em}";
        edit(&app, &s, sobre, block("Sobre nós", css)).await;
        let second = publish_deploy(&app, &s, pid).await;
        let m2 = manifest(&app, pid, second).await;

        let hash = sha_prefix(css.as_bytes());
        let path = format!("/_assets/{hash}.css");
        let asset = m2.routes.get(&path).unwrap_or_else(|| panic!("no {path}"));
        assert_eq!(asset.key, format!("sites/{pid}/assets/{hash}.css"));
        assert_eq!(&blob(&app, &asset.key).await[..], css.as_bytes());
        assert!(!m1.routes.contains_key(&path));
        let html = page_html(&app, &m2, "/sobre").await;
        assert!(
            html.contains(&path),
            "the page links its new stylesheet: {html}"
        );

        let changed: BTreeSet<&str> = m2
            .routes
            .iter()
            .filter(|(p, file)| m1.routes.get(*p) != Some(*file))
            .map(|(p, _)| p.as_str())
            .collect();
        assert_eq!(changed, BTreeSet::from(["/sobre", path.as_str()]));
        let gone: Vec<&String> = m1
            .routes
            .keys()
            .filter(|p| !m2.routes.contains_key(*p))
            .collect();
        assert_eq!(gone.len(), 1, "the old stylesheet: {gone:?}");
        let old = &m1.routes[gone[0]];
        assert!(
            blob(&app, &old.key).await.len() as u64 == old.size,
            "the old stylesheet stays for pages visitors still hold"
        );
        let added: BTreeSet<String> = shared_objects(&app, pid)
            .await
            .difference(&before)
            .cloned()
            .collect();
        let expected: BTreeSet<String> = objects_of(&m2.routes["/sobre"])
            .union(&objects_of(asset))
            .cloned()
            .collect();
        assert_eq!(added, expected);
    }
);

dual_test!(
    async fn a_page_that_shows_the_menu_changes_when_another_page_is_renamed(app: PublishApp) {
        let Site {
            s, pid, contato, ..
        } = site(&app, "reuse-menu@example.com").await;
        let home = home_page_id(&app, &s, pid).await;
        let mut blocks = block("Início", "h1{color:red}");
        blocks[0]["template"] = json!(
            "<nav>{% for item in site.menu %}<a href=\"{{ item.url }}\">{{ item.name }}</a>{% endfor %}</nav>"
        );
        edit(&app, &s, home, blocks).await;
        let before = manifest(&app, pid, publish_deploy(&app, &s, pid).await).await;
        assert!(page_html(&app, &before, "/").await.contains(">Contato</a>"));

        // Only another page's name changes: the home page's own blocks are as they were.
        let body = json!({"name": "Fale conosco"});
        json_ok(app.post(&s, &format!("/api/page/{contato}"), body).await).await;
        let after = manifest(&app, pid, publish_deploy(&app, &s, pid).await).await;
        let html = page_html(&app, &after, "/").await;
        assert!(
            html.contains(">Fale conosco</a>") && !html.contains(">Contato</a>"),
            "{html}"
        );
        assert_ne!(after.routes["/"].key, before.routes["/"].key);
    }
);
