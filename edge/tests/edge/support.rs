//! A running edge on port 0 against a real test database and a local object store, and
//! helpers that publish deploys the way the control plane does: objects first, then the
//! manifest, then one store call that makes the deploy live.

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use bytes::Bytes;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tempfile::TempDir;
use vitrine_edge::Edge;
use vitrine_shared::ids::{AccountId, CollectionId, ProjectId};
use vitrine_shared::{
    Settings, Store,
    blob::BlobStore,
    manifest::{
        DynamicPage, FormSettings, MANIFEST_VERSION, Manifest, StaticFile, asset_key,
        deploy_prefix, manifest_key,
    },
    render::{Block, DocumentParts},
    sections::MenuItem,
    store::{FieldInput, NewPost},
    testing::{TestDb, fixtures},
};

pub struct TestEdge {
    pub db: TestDb,
    pub edge: Edge,
    pub blobs: BlobStore,
    pub client: reqwest::Client,
    pub user_id: i64,
    _objects: TempDir,
    _spool: TempDir,
}

pub fn settings(spool: &std::path::Path) -> Settings {
    Settings {
        edge_http_listen: "127.0.0.1:0".into(),
        edge_https_listen: "127.0.0.1:0".into(),
        edge_admin_listen: "127.0.0.1:0".into(),
        edge_spool_dir: Some(spool.to_path_buf()),
        // The test binary has no render-worker mode; the edge's binary does.
        render_worker: Some(env!("CARGO_BIN_EXE_vitrine-edge").into()),
        ..Settings::default()
    }
}

impl TestEdge {
    pub async fn start(db: TestDb) -> TestEdge {
        Self::start_with(db, None, |_| {}).await
    }

    /// `store` replaces the edge's connection (a proxied one, to cut it); `tweak` edits settings.
    pub async fn start_with(
        db: TestDb,
        store: Option<Store>,
        tweak: impl FnOnce(&mut Settings),
    ) -> TestEdge {
        let objects = tempfile::tempdir().unwrap();
        let spool = tempfile::tempdir().unwrap();
        let blobs = BlobStore::local(objects.path()).unwrap();
        let mut s = settings(spool.path());
        tweak(&mut s);
        let edge = Edge::build_with(&s, store.unwrap_or_else(|| db.store.clone()), blobs.clone())
            .await
            .unwrap();
        let user_id = fixtures::user(&db.store, "Dona", "dona@example.com").await;
        TestEdge {
            db,
            edge,
            blobs,
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            user_id: user_id.get(),
            _objects: objects,
            _spool: spool,
        }
    }

    /// Waits until the change feed has been read to its end by a read that began after this
    /// call: everything the test wrote before is applied (and has moved the hot epoch).
    pub async fn feed_applied(&self) {
        feed_read_twice(&self.edge.metrics).await;
    }

    pub async fn project(&self, slug: &str) -> i64 {
        self.project_of(self.user_id, slug).await
    }

    /// Another account (a second tenant), with its name and e-mail.
    pub async fn user(&self, name: &str, email: &str) -> i64 {
        fixtures::user(&self.db.store, name, email).await.get()
    }

    /// A project of `user_id`'s.
    pub async fn project_of(&self, user_id: i64, slug: &str) -> i64 {
        fixtures::project(&self.db.store, AccountId(user_id), slug)
            .await
            .get()
    }

    /// A sample's value on the admin listener's `/metrics` (0 when absent); `series` is the
    /// line up to the value, labels included.
    pub async fn metric(&self, series: &str) -> u64 {
        let text = self
            .client
            .get(format!("http://{}/metrics", self.edge.admin_addr))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        vitrine_shared::testing::metric_value(&text, series) as u64
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.edge.http_addr)
    }

    pub fn get(&self, host: &str, path: &str) -> reqwest::RequestBuilder {
        self.client.get(self.url(path)).header("host", host)
    }

    pub async fn text(&self, host: &str, path: &str) -> (u16, String) {
        let r = self.get(host, path).send().await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    }

    /// Polls (bounded) until `host` + `path` answers `status` with a body containing `needle`,
    /// returning how long it took; fails the test after `within`.
    pub async fn until(
        &self,
        host: &str,
        path: &str,
        status: u16,
        needle: &str,
        within: Duration,
    ) -> Duration {
        let start = Instant::now();
        loop {
            let (s, body) = self.text(host, path).await;
            if s == status && body.contains(needle) {
                return start.elapsed();
            }
            assert!(
                start.elapsed() < within,
                "{host}{path}: still {s} {body:.200} after {within:?}, wanted {status} with {needle:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A collection with a rich-text `corpo` field and one post per `(slug, name, corpo)`.
    pub async fn collection(&self, project: i64, slug: &str, posts: &[(&str, &str, &str)]) -> i64 {
        let store = &self.db.store;
        let c = store
            .insert_collection(ProjectId(project), slug, slug, &json!({}))
            .await
            .unwrap();
        let field = store
            .insert_field(
                c.id,
                &FieldInput {
                    name: "Corpo".into(),
                    slug: "corpo".into(),
                    kind: "wysiwyg".into(),
                    required: false,
                    options: json!({}),
                    meta: json!({}),
                },
            )
            .await
            .unwrap();
        for (slug, name, corpo) in posts {
            let mut data = serde_json::Map::new();
            data.insert(field.id.to_string(), Value::String(corpo.to_string()));
            store
                .insert_post(
                    c.id,
                    &NewPost {
                        name: name.to_string(),
                        slug: slug.to_string(),
                        data,
                        created_at: vitrine_shared::store::now(),
                    },
                    u64::MAX,
                )
                .await
                .unwrap();
        }
        c.id.get()
    }
}

/// One file a deploy serves.
pub struct File {
    pub path: String,
    pub content_type: String,
    pub body: Bytes,
    /// Writes fake `.br`/`.gz` variants whose bytes say which one was sent.
    pub variants: bool,
}

pub fn html(path: &str, body: &str) -> File {
    File {
        path: path.into(),
        content_type: "text/html; charset=utf-8".into(),
        body: Bytes::from(body.to_string()),
        variants: true,
    }
}

pub fn asset(name: &str, content_type: &str, body: &str) -> File {
    File {
        path: format!("/_assets/{name}"),
        content_type: content_type.into(),
        body: Bytes::from(body.to_string()),
        variants: false,
    }
}

/// What a test publishes.
#[derive(Default)]
pub struct Site {
    pub files: Vec<File>,
    pub redirects: Vec<(String, String)>,
    pub dynamic_pages: BTreeMap<String, DynamicPage>,
    pub collection_pages: BTreeMap<String, DynamicPage>,
    pub collections: BTreeMap<String, CollectionId>,
    pub not_found: Option<String>,
    pub error_page: Option<String>,
    /// Other projects' upload keys the deploy names.
    pub uploads: std::collections::BTreeSet<String>,
    /// The form settings, when not the default ones (the owner's address, pt-BR).
    pub forms: Option<FormSettings>,
    /// The site menu (`site.menu`) as published.
    pub menu: Vec<MenuItem>,
}

pub fn etag(body: &[u8]) -> String {
    format!("\"{}\"", hex::encode(&Sha256::digest(body)[..8]))
}

/// A page the edge renders from one block template.
pub fn live_page(slug: &str, table_id: Option<i64>, template: &str) -> DynamicPage {
    DynamicPage {
        page_name: slug.to_string(),
        page_slug: slug.to_string(),
        table_id: table_id.map(CollectionId),
        table: None,
        blocks: vec![Block {
            uid: "b1".into(),
            template: template.into(),
            vars: Vec::new(),
            ..Block::default()
        }],
        document: DocumentParts {
            title: "Página".into(),
            ..DocumentParts::default()
        },
        title_suffix: " | Loja".into(),
    }
}

impl TestEdge {
    /// Writes the deploy's objects and manifest, then makes it live. Returns the deploy id.
    pub async fn publish(&self, project: i64, site: Site) -> i64 {
        let store = &self.db.store;
        let deploy = store.create_deploy(ProjectId(project), None).await.unwrap();
        let prefix = deploy_prefix(ProjectId(project), deploy.id);
        let mut routes = BTreeMap::new();
        let mut bytes = 0;
        for (i, f) in site.files.iter().enumerate() {
            let immutable = f.path.starts_with("/_assets/");
            let key = match f.path.strip_prefix("/_assets/") {
                Some(name) => asset_key(ProjectId(project), name),
                None => format!("{prefix}pages/{i}.html"),
            };
            self.blobs.put(&key, f.body.clone()).await.unwrap();
            bytes += f.body.len();
            let (br, gzip) = if f.variants {
                let (b, g) = (format!("{key}.br"), format!("{key}.gz"));
                self.blobs
                    .put(&b, Bytes::from(format!("BR:{}", f.body.len())))
                    .await
                    .unwrap();
                self.blobs
                    .put(&g, Bytes::from(format!("GZ:{}", f.body.len())))
                    .await
                    .unwrap();
                (Some(b), Some(g))
            } else {
                (None, None)
            };
            routes.insert(
                f.path.clone(),
                StaticFile {
                    key,
                    content_type: f.content_type.clone(),
                    etag: etag(&f.body),
                    size: f.body.len() as u64,
                    br,
                    gzip,
                    immutable,
                },
            );
        }
        let manifest = Manifest {
            version: MANIFEST_VERSION,
            project_id: ProjectId(project),
            deploy_id: deploy.id,
            created_at: chrono::Utc::now(),
            site_name: "Loja".into(),
            routes,
            redirects: site.redirects,
            dynamic_pages: site.dynamic_pages,
            collection_pages: site.collection_pages,
            collections: site.collections,
            not_found: site.not_found,
            error_page: site.error_page,
            forms: site.forms.unwrap_or_else(|| FormSettings {
                to: "dona@example.com".into(),
                subject: "Novo contato".into(),
                lang: "pt-BR".into(),
                thank_you: None,
                lead_event: false,
            }),
            uploads: site.uploads,
            menu: site.menu,
            identity: None,
            theme: None,
            base_url: String::new(),
            robots: None,
            not_found_file: None,
        };
        let key = manifest_key(ProjectId(project), deploy.id);
        self.blobs
            .put(&key, Bytes::from(serde_json::to_vec(&manifest).unwrap()))
            .await
            .unwrap();
        store
            .finish_deploy(deploy.id, &key, site.files.len() as i64, bytes as i64)
            .await
            .unwrap();
        deploy.id.get()
    }

    /// A published site with a home page, an about page, a 404 and a 500 page.
    pub async fn simple_site(&self, slug: &str, home: &str) -> i64 {
        let project = self.project(slug).await;
        self.publish(project, basic(home)).await;
        project
    }
}

pub fn basic(home: &str) -> Site {
    Site {
        files: vec![
            html("/", home),
            html("/sobre", "<h1>Sobre nós</h1>"),
            html("/404", "<h1>Página perdida da Loja</h1>"),
            html("/500", "<h1>A Loja tropeçou</h1>"),
        ],
        not_found: Some("/404".into()),
        error_page: Some("/500".into()),
        ..Site::default()
    }
}

/// Waits (up to 5 s) until the change feed of the edge whose metrics these are has been read
/// to its end twice since the call: the second read began after it (see
/// `Metrics::feed_reads`).
pub async fn feed_read_twice(metrics: &vitrine_edge::metrics::Metrics) {
    let from = metrics.feed_reads();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while metrics.feed_reads() < from + 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the change feed was not read to its end"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Sends `GET host path` to `addr` until the edge answers it from its last-known copy
/// (`stale_served` moves; up to 5 s): the host's entry has outlived its TTL, and the database
/// is away. `path` must not be a hot route (those answer without a host lookup).
pub async fn until_served_stale(
    client: &reqwest::Client,
    addr: std::net::SocketAddr,
    metrics: &vitrine_edge::metrics::Metrics,
    host: &str,
    path: &str,
) {
    let from = metrics.stale_served.get();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while metrics.stale_served.get() == from {
        assert!(
            std::time::Instant::now() < deadline,
            "{host}{path}: never served stale"
        );
        let _ = client
            .get(format!("http://{addr}{path}"))
            .header("host", host)
            .send()
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
