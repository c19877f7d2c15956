//! The generator of the scale benchmark (`benches/benches/sites_scale.rs`): many published
//! sites written straight through the store ([`Store::insert_live_sites`]) and the object
//! store, as a finished publish leaves them, rather than through as many HTTP publishes.
//!
//! Site `i` answers at `s{i}.localhost` and has five static pages (`/`, `/sobre`,
//! `/servicos`, `/blog`, `/contato`) of about 4 KB of HTML each, every one unique to its site
//! and stored with a gzip variant, one content-addressed stylesheet, and its manifest: twelve
//! objects per site, laid out as `vitrine_shared::manifest` describes. Brotli variants are left out
//! only because compressing half a million pages at brotli's publish quality would take the
//! generator hours; the edge serves the gzip variant or the page itself, as for any route
//! without one.

use std::{collections::BTreeMap, io::Write, ops::Range, time::Instant};

use bytes::Bytes;
use futures::{StreamExt, TryStreamExt, stream};
use sha2::{Digest, Sha256};
use vitrine_shared::{
    Store,
    blob::BlobStore,
    manifest::{
        ASSET_PREFIX, FormSettings, MANIFEST_VERSION, Manifest, StaticFile, asset_key,
        manifest_key, page_key,
    },
    store::{LiveIds, LiveSite},
};

/// The pages of every generated site: (path, name).
pub const PAGES: [(&str, &str); 5] = [
    ("/", "Início"),
    ("/sobre", "Sobre"),
    ("/servicos", "Serviços"),
    ("/blog", "Blog"),
    ("/contato", "Contato"),
];

/// Sites written per database transaction.
const BATCH: usize = 2_000;
/// Sites whose objects are written at once.
const WRITERS: usize = 32;

/// The host of generated site `i`.
pub fn host(i: usize) -> String {
    format!("s{i}.localhost")
}

/// What [`generate`] wrote.
#[derive(Debug, Default, Clone, Copy)]
pub struct Generated {
    pub sites: usize,
    pub objects: u64,
    pub bytes: u64,
    pub secs: f64,
}

/// Writes sites `range` (owned by `owner`): the database rows in transactions of [`BATCH`]
/// sites, then each site's objects, its manifest last.
pub async fn generate(
    store: &Store,
    blobs: &BlobStore,
    owner: vitrine_shared::ids::AccountId,
    range: Range<usize>,
) -> Generated {
    let started = Instant::now();
    let mut total = Generated::default();
    let sites: Vec<usize> = range.collect();
    for chunk in sites.chunks(BATCH) {
        let slugs: Vec<String> = chunk.iter().map(|i| format!("s{i}")).collect();
        let rows: Vec<LiveSite> = slugs
            .iter()
            .map(|slug| LiveSite {
                slug,
                files: 1 + 2 * PAGES.len() as i64,
                // Not counted by the generator (the edge never reads it).
                bytes: 0,
            })
            .collect();
        let ids = store
            .insert_live_sites(owner, &rows)
            .await
            .expect("generated sites' rows");
        let written: Vec<(u64, u64)> = stream::iter(chunk.iter().copied().zip(ids))
            .map(|(i, ids)| write_site(blobs, i, ids))
            .buffer_unordered(WRITERS)
            .try_collect()
            .await
            .expect("generated sites' objects");
        for (objects, bytes) in written {
            total.objects += objects;
            total.bytes += bytes;
        }
        total.sites += chunk.len();
    }
    total.secs = started.elapsed().as_secs_f64();
    total
}

/// Site `i`'s objects and manifest: (objects, bytes) written.
async fn write_site(
    blobs: &BlobStore,
    i: usize,
    ids: LiveIds,
) -> Result<(u64, u64), vitrine_shared::blob::BlobError> {
    let LiveIds {
        project_id,
        deploy_id,
    } = ids;
    let css = format!(
        "body{{font-family:system-ui;margin:0}}header{{background:#{:06x}}}main{{max-width:60rem;margin:auto}}",
        i % 0xff_ffff
    );
    let css_name = format!("{}.css", hash(css.as_bytes()));
    let css_file = StaticFile {
        key: asset_key(project_id, &css_name),
        content_type: "text/css; charset=utf-8".into(),
        etag: format!("\"{}\"", hash(css.as_bytes())),
        size: css.len() as u64,
        br: None,
        gzip: None,
        immutable: true,
    };
    let css_url = format!("{ASSET_PREFIX}{css_name}");
    let mut puts = vec![(css_file.key.clone(), Bytes::from(css))];
    let mut routes = BTreeMap::new();
    routes.insert(css_url.clone(), css_file);
    for (path, name) in PAGES {
        let html = page(i, path, name, &css_url);
        let key = page_key(project_id, &format!("{}.html", hash(html.as_bytes())));
        let gz_key = format!("{key}.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(html.as_bytes()).expect("gzip in memory");
        routes.insert(
            path.to_string(),
            StaticFile {
                key: key.clone(),
                content_type: "text/html; charset=utf-8".into(),
                etag: format!("\"{}\"", hash(html.as_bytes())),
                size: html.len() as u64,
                br: None,
                gzip: Some(gz_key.clone()),
                immutable: false,
            },
        );
        puts.push((gz_key, Bytes::from(gz.finish().expect("gzip in memory"))));
        puts.push((key, Bytes::from(html)));
    }
    let manifest = Manifest {
        version: MANIFEST_VERSION,
        project_id,
        deploy_id,
        created_at: chrono::Utc::now(),
        site_name: format!("Site {i}"),
        routes,
        redirects: Vec::new(),
        dynamic_pages: BTreeMap::new(),
        collection_pages: BTreeMap::new(),
        collections: BTreeMap::new(),
        not_found: None,
        error_page: None,
        forms: FormSettings {
            to: "scale@example.com".into(),
            subject: format!("Site {i}"),
            lang: "pt-BR".into(),
            ..FormSettings::default()
        },
        uploads: Default::default(),
        menu: PAGES
            .iter()
            .map(|(path, name)| vitrine_shared::sections::MenuItem {
                name: (*name).into(),
                url: (*path).into(),
            })
            .collect(),
        identity: None,
        theme: None,
        base_url: String::new(),
        robots: None,
        not_found_file: None,
    };
    let json = serde_json::to_vec(&manifest).expect("manifest JSON");
    puts.push((manifest_key(project_id, deploy_id), Bytes::from(json)));
    let (mut objects, mut bytes) = (0, 0);
    // The manifest is the last of `puts`: a site is complete before its manifest names it.
    for (key, body) in puts {
        objects += 1;
        bytes += body.len() as u64;
        blobs.put(&key, body).await?;
    }
    Ok((objects, bytes))
}

/// One page of about 4 KB: the site's header and menu, a few sections of text, its footer.
pub fn page(i: usize, path: &str, name: &str, css_url: &str) -> String {
    let menu: String = PAGES
        .iter()
        .map(|(p, n)| format!("<a href=\"{p}\">{n}</a>"))
        .collect();
    let mut html = format!(
        "<!DOCTYPE html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{name} · Site {i}</title><link rel=\"stylesheet\" href=\"{css_url}\"></head>\
         <body><header><strong>Site {i}</strong><nav>{menu}</nav></header><main><h1>{name}</h1>"
    );
    let mut n = 0;
    while html.len() < 3_800 {
        html.push_str(&format!(
            "<section><h2>{name} {n}</h2><p>Site {i}, {path}: lorem ipsum dolor sit amet, \
             consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore \
             magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco.</p></section>"
        ));
        n += 1;
    }
    html.push_str(&format!("</main><footer>© Site {i}</footer></body></html>"));
    html
}

/// The first 16 hex digits of the SHA-256 of `data`, as publishing names assets.
fn hash(data: &[u8]) -> String {
    let digest = Sha256::digest(data);
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}
