//! The bakery template as published (issue 42), for `edge_https --templates`: a site made from
//! the seeded template "Padaria Grão Dourado" through the control plane's HTTP API, as an
//! owner makes one (`POST /api/templates/use/{id}`, then a records import into its product
//! collection, then a publish), and the three pages a visitor of such a shop asks for most:
//!
//! - **home** (`/`): a live page, its "most ordered" grid rendered at the edge from the four
//!   newest products;
//! - **catalogue** (`/produtos`): the template's page listing the collection's posts (a
//!   database-fed list of up to 24 products, by name);
//! - **product** (`/produto/pao-de-queijo-canastra`): the collection page of one product.
//!
//! The template seeds five products; the import adds [`MORE_PRODUCTS`] so the catalogue holds
//! 24, a full page. What the edge answers for each page, with no `Accept-Encoding` and with
//! `Accept-Encoding: gzip`, is copied byte for byte to nginx's root and the bare reference's
//! ([`copy_template_pages`]): a gzip answer becomes `index.html.gz` (nginx's `gzip_static`),
//! an identity answer to a gzip request leaves none, so nginx and the bare reference answer
//! that request in identity too, as the edge did; [`check_servers`] shows all three answer
//! those bytes before anything is measured. [`hot_check`] reads the edge's `/metrics` around
//! repeats of each page, to show whether its hot routes answer them. Each page is measured
//! with four clients
//! (h2 with 1 and with 10 streams per connection, HTTP/1.1 over TLS, plain HTTP/1.1 with wrk),
//! each with and without `Accept-Encoding: gzip` ([`measures`]).

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
};

use base64::Engine;
use serde_json::{Value, json};

use crate::{Load, Stack, https::h2load_run, post_json, publish, wrk_shape};

/// The seeded template the shop is made from.
pub const TEMPLATE: &str = "Padaria Grão Dourado";

/// The pages measured: their label (in the measures' names) and path.
pub const PAGES: [(&str, &str); 3] = [
    ("home", "/"),
    ("catalogue", "/produtos"),
    ("product", "/produto/pao-de-queijo-canastra"),
];

/// The products the import adds to the template's five (name, price in cents): 24 in all, the
/// catalogue's one page.
pub const MORE_PRODUCTS: [(&str, u32); 19] = [
    ("Baguete tradicional", 1100),
    ("Ciabatta de azeite", 1400),
    ("Focaccia de alecrim", 2600),
    ("Pão de centeio", 2400),
    ("Pão italiano", 2200),
    ("Broa de milho", 900),
    ("Brioche de manteiga", 1800),
    ("Sonho de creme", 800),
    ("Cuca de banana", 3200),
    ("Bolo de cenoura com chocolate", 4500),
    ("Torta de limão", 6800),
    ("Quiche de alho-poró", 3800),
    ("Empada de frango", 950),
    ("Brownie de chocolate", 1000),
    ("Pão de mel", 700),
    ("Rosca de coco", 2100),
    ("Biscoito de polvilho (200 g)", 1300),
    ("Palmier folhado", 600),
    ("Café especial moído (250 g)", 3900),
];

/// The published shop.
pub struct TemplateSite {
    pub project: i64,
    /// `{slug}.localhost`.
    pub host: String,
}

async fn get_json(client: &reqwest::Client, base: &str, path: &str) -> Value {
    let res = client.get(format!("{base}{path}")).send().await.unwrap();
    let status = res.status();
    let text = res.text().await.unwrap();
    assert!(status.is_success(), "{path}: {status}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Seeds the templates into `stack`'s control plane (`vitrine-control seed`'s own code), makes
/// the shop from [`TEMPLATE`] as the bench's owner, imports [`MORE_PRODUCTS`] into its
/// `produtos` collection (a JSON file through `POST /api/tables/{id}/import`, prices in cents,
/// the template's own photos) and publishes it.
pub async fn seed_template_site(stack: &Stack) -> TemplateSite {
    vitrine_control::seed::run(stack.app.state())
        .await
        .expect("seed the templates");
    template_site(stack, "Padaria Bench", true).await
}

/// Another shop made as [`seed_template_site`] makes its own (after it: the templates are
/// seeded), under a name of the same length, whose visitors the edge does not count
/// (`meta.analytics` false): the reference of the analytics measures.
pub async fn uncounted_template_site(stack: &Stack) -> TemplateSite {
    template_site(stack, "Padaria Outra", false).await
}

async fn template_site(stack: &Stack, name: &str, counted: bool) -> TemplateSite {
    let (client, base) = (&stack.client, stack.base.as_str());
    let templates = get_json(client, base, "/api/templates").await;
    let template = templates
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == TEMPLATE)
        .unwrap_or_else(|| panic!("no template {TEMPLATE:?} in {templates}"));
    let path = format!("/api/templates/use/{}", template["id"]);
    let made = post_json(client, base, &path, json!({"name": name})).await;
    let project = made["id"].as_i64().unwrap();
    if !counted {
        let path = format!("/api/projects/{project}");
        post_json(client, base, &path, json!({"meta": {"analytics": false}})).await;
    }
    let host = format!("{}.localhost", made["slug"].as_str().unwrap());
    let view = get_json(client, base, &format!("/api/projects/{project}")).await;
    let table = view["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["slug"] == "produtos"))
        .and_then(|t| t["id"].as_i64())
        .unwrap_or_else(|| panic!("the shop has no produtos collection: {view}"));
    let pages = view["pages"].as_array().unwrap();
    for (_, path) in PAGES {
        let slug = path
            .split('/')
            .nth(1)
            .filter(|s| !s.is_empty())
            .unwrap_or("/");
        assert!(
            pages.iter().any(|p| p["slug"] == slug),
            "the template has no page {slug:?}: {pages:?}"
        );
    }

    // The photos the template's products use, for the new ones.
    let data = get_json(client, base, &format!("/api/data/{table}?limit=100")).await;
    let foto = data["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["slug"] == "foto")
        .and_then(|f| f["id"].as_i64())
        .expect("a foto field");
    let photos: Vec<Value> = data["posts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| {
            p["fields"]
                .as_array()?
                .iter()
                .find(|f| f["field_id"] == foto)
                .map(|f| f["value"].clone())
        })
        .collect();
    assert!(!photos.is_empty(), "the template's products have photos");
    let rows: Vec<Value> = MORE_PRODUCTS
        .iter()
        .enumerate()
        .map(|(i, (name, cents))| {
            json!({
                "name": name,
                "preco": cents,
                "foto": photos[i % photos.len()],
                "resumo": format!("{name}, feito hoje no nosso forno com fermentação natural e ingredientes de produtores da região."),
                "descricao": format!("<p>{name}: receita da casa, assado todas as manhãs. Massa descansada por 24 horas, farinha orgânica e manteiga de verdade.</p><p>Encomende com 24 horas de antecedência para retirada na loja ou entrega na Savassi e arredores.</p>"),
            })
        })
        .collect();
    let content = format!(
        "data:application/json;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(&rows).unwrap())
    );
    let path = format!("/api/tables/{table}/import");
    let body = json!({"name": "produtos.json", "content": content, "mode": "insert"});
    let answer = post_json(client, base, &path, body).await;
    assert_eq!(answer["inserted"], MORE_PRODUCTS.len(), "{answer}");
    publish(client, base, project).await;
    TemplateSite { project, host }
}

/// One page as the edge answered it.
pub struct Copied {
    pub label: &'static str,
    pub path: &'static str,
    /// The identity body's length.
    pub identity: usize,
    /// The gzip body's length, when the edge answered `Accept-Encoding: gzip` with one.
    pub gzip: Option<usize>,
    /// The headers of both answers (without `date` and `content-length`), for the report.
    pub headers: [String; 2],
}

/// Copies what the edge at `edge` answers for each of [`PAGES`] on `host`, to
/// `root/{host}/{path}/index.html` (and `index.html.gz` when the edge answered
/// `Accept-Encoding: gzip` with `Content-Encoding: gzip`), with the edge's headers beside each
/// (`….headers`) for the bare reference, as [`crate::https::copy_sites`] does. An identity
/// answer to a gzip request must be the identity page's very bytes; the servers then answer
/// that request in identity too. Checks that the pages are the live shop: the catalogue lists
/// every imported product, the home page's grid shows imported ones.
pub async fn copy_template_pages(edge: SocketAddr, host: &str, root: &Path) -> Vec<Copied> {
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let mut copied = Vec::new();
    for (label, path) in PAGES {
        let dir = root.join(host).join(path.trim_start_matches('/'));
        std::fs::create_dir_all(&dir).unwrap();
        let mut identity = Vec::new();
        let mut gzip = None;
        let mut headers = [String::new(), String::new()];
        for (n, accept) in [None, Some("gzip")].into_iter().enumerate() {
            let mut req = client
                .get(format!("http://{edge}{path}"))
                .header("host", host);
            if let Some(a) = accept {
                req = req.header("accept-encoding", a);
            }
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), 200, "{host}{path}");
            headers[n] = res
                .headers()
                .iter()
                .filter(|(n, _)| !matches!(n.as_str(), "date" | "content-length"))
                .map(|(n, v)| format!("{n}: {}\n", v.to_str().unwrap()))
                .collect();
            let encoding = res
                .headers()
                .get("content-encoding")
                .map(|v| v.to_str().unwrap().to_string());
            let body = res.bytes().await.unwrap().to_vec();
            let file = match (accept, encoding.as_deref()) {
                (None, None) => dir.join("index.html"),
                (Some(_), Some("gzip")) => dir.join("index.html.gz"),
                (Some(_), None) => {
                    assert!(
                        body == identity,
                        "{host}{path}: the identity answer to a gzip request is another page"
                    );
                    continue;
                }
                (_, other) => panic!("{host}{path}: unexpected Content-Encoding {other:?}"),
            };
            std::fs::write(&file, &body).unwrap();
            std::fs::write(format!("{}.headers", file.display()), &headers[n]).unwrap();
            match accept {
                None => identity = body,
                Some(_) => gzip = Some(body.len()),
            }
        }
        let html = String::from_utf8_lossy(&identity);
        match label {
            "catalogue" => {
                for (name, _) in MORE_PRODUCTS {
                    assert!(html.contains(name), "{name} is not in the catalogue");
                }
            }
            "home" => assert!(
                MORE_PRODUCTS.iter().any(|(name, _)| html.contains(name)),
                "the home page's grid shows none of the imported products"
            ),
            _ => {}
        }
        copied.push(Copied {
            label,
            path,
            identity: identity.len(),
            gzip,
            headers,
        });
    }
    copied
}

/// Checks that each of `servers` (name and plain HTTP address) answers every copied page as
/// the edge did, before anything is measured: without `Accept-Encoding`, the identity bytes;
/// with `Accept-Encoding: gzip`, the edge's gzip bytes with `Content-Encoding: gzip` when it
/// sent a gzip variant, else the identity bytes with no `Content-Encoding`. (The TLS
/// listeners serve the same files from the same processes or configuration.)
pub async fn check_servers(servers: &[(&str, SocketAddr)], host: &str, root: &Path) {
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    for (_, path) in PAGES {
        let dir = root.join(host).join(path.trim_start_matches('/'));
        let identity = std::fs::read(dir.join("index.html")).unwrap();
        let gzip = std::fs::read(dir.join("index.html.gz")).ok();
        for (name, addr) in servers {
            for accept in [false, true] {
                let mut req = client
                    .get(format!("http://{addr}{path}"))
                    .header("host", host);
                if accept {
                    req = req.header("accept-encoding", "gzip");
                }
                let res = req.send().await.unwrap();
                assert_eq!(res.status(), 200, "{name}: {host}{path}");
                let encoding = res
                    .headers()
                    .get("content-encoding")
                    .map(|v| v.to_str().unwrap().to_string());
                let body = res.bytes().await.unwrap();
                let expected = match (&gzip, accept) {
                    (Some(gz), true) => (Some("gzip"), gz),
                    _ => (None, &identity),
                };
                assert_eq!(
                    encoding.as_deref(),
                    expected.0,
                    "{name}: {host}{path} (Accept-Encoding gzip: {accept})"
                );
                assert!(
                    body[..] == expected.1[..],
                    "{name}: {host}{path} (Accept-Encoding gzip: {accept}): other bytes than the edge's"
                );
            }
        }
    }
}

/// The edge's `/metrics` text.
async fn metrics(client: &reqwest::Client, admin: SocketAddr) -> String {
    let url = format!("http://{admin}/metrics");
    client.get(url).send().await.unwrap().text().await.unwrap()
}

/// The counter `name` (a whole line's name with its labels, e.g.
/// `vitrine_edge_cache_hits_total{cache="route"}`) in the edge's `/metrics`; 0 when absent.
fn counter(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// Whether the edge answers repeats of each copied page (both encodings) from its hot routes:
/// `n` sequential requests on one keep-alive connection, and the deltas of the edge's
/// `/metrics` (hot-route hits, render-cache hits and misses, the plain front's answers)
/// around them. One line per page and encoding, for the report.
pub async fn hot_check(edge: SocketAddr, admin: SocketAddr, host: &str, n: usize) -> Vec<String> {
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let names = [
        (
            "hot route hits",
            "vitrine_edge_cache_hits_total{cache=\"route\"}",
        ),
        (
            "render hits",
            "vitrine_edge_cache_hits_total{cache=\"render\"}",
        ),
        (
            "render misses",
            "vitrine_edge_cache_misses_total{cache=\"render\"}",
        ),
        ("front answers", "vitrine_edge_front_answers_total"),
    ];
    let mut lines = Vec::new();
    for (label, path) in PAGES {
        for accept in [None, Some("gzip")] {
            let before = metrics(&client, admin).await;
            for _ in 0..n {
                let mut req = client
                    .get(format!("http://{edge}{path}"))
                    .header("host", host);
                if let Some(a) = accept {
                    req = req.header("accept-encoding", a);
                }
                let res = req.send().await.unwrap();
                assert_eq!(res.status(), 200);
                res.bytes().await.unwrap();
            }
            let after = metrics(&client, admin).await;
            let deltas: Vec<String> = names
                .iter()
                .map(|(what, name)| {
                    format!("{what} {}", counter(&after, name) - counter(&before, name))
                })
                .collect();
            lines.push(format!(
                "{label} ({path}), {}: {n} requests: {}",
                accept.map_or("no Accept-Encoding", |_| "Accept-Encoding gzip"),
                deltas.join(", ")
            ));
        }
    }
    lines
}

/// The clients a page is measured with.
#[derive(Clone, Copy, Debug)]
pub enum Client {
    /// h2load over TLS, h2, 64 connections with this many streams each.
    H2(usize),
    /// h2load over TLS, HTTP/1.1 (ALPN), 64 connections.
    H1Tls,
    /// wrk on plain HTTP/1.1, 2 threads, 64 connections.
    Plain,
}

impl Client {
    pub fn tls(self) -> bool {
        !matches!(self, Client::Plain)
    }
}

/// One measure of a template page.
pub struct TemplateMeasure {
    pub name: String,
    pub path: &'static str,
    pub client: Client,
    /// Whether the requests carry `Accept-Encoding: gzip`.
    pub gzip: bool,
    /// Whether the requests carry a phone browser's user agent ([`PERSON`]): the edge counts
    /// them as a person's views (with none, or h2load's own, a request is a bot's).
    pub person: bool,
}

/// A phone browser's `User-Agent` header.
pub const PERSON: &str = "user-agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

/// The analytics measures (`edge_https --analytics`): the live home page and a product page,
/// with `Accept-Encoding: gzip` and a person's user agent, over h2, HTTP/1.1 over TLS and
/// plain HTTP/1.1, named `analytics {page}: {client}`.
pub fn analytics_measures() -> Vec<TemplateMeasure> {
    let clients = [
        (Client::H2(1), "h2 64 conns × 1 stream"),
        (Client::H1Tls, "HTTPS HTTP/1.1 64 conns"),
        (Client::Plain, "plain HTTP/1.1 (wrk) 64 conns"),
    ];
    let mut out = Vec::new();
    for (label, path) in PAGES.into_iter().filter(|(l, _)| *l != "catalogue") {
        for (client, how) in clients {
            out.push(TemplateMeasure {
                name: format!("analytics {label}: {how}"),
                path,
                client,
                gzip: true,
                person: true,
            });
        }
    }
    out
}

/// Every page of `copied` × every [`Client`] × without and with `Accept-Encoding: gzip`,
/// named `template {page}: {client}; {encoding}`, with no comma, so that `EDGE_LOAD_ONLY`
/// (comma-separated) can name each: `template` picks them all, `template home` one page's,
/// `× 10 streams; Accept-Encoding gzip` that client with gzip on every page.
pub fn measures(copied: &[Copied]) -> Vec<TemplateMeasure> {
    let clients = [
        (Client::H2(1), "h2 64 conns × 1 stream"),
        (Client::H2(10), "h2 64 conns × 10 streams"),
        (Client::H1Tls, "HTTPS HTTP/1.1 64 conns"),
        (Client::Plain, "plain HTTP/1.1 (wrk) 64 conns"),
    ];
    let mut out = Vec::new();
    for c in copied {
        for (client, how) in clients {
            for gzip in [false, true] {
                let encoding = if gzip {
                    "Accept-Encoding gzip"
                } else {
                    "no Accept-Encoding"
                };
                out.push(TemplateMeasure {
                    name: format!("template {}: {how}; {encoding}", c.label),
                    path: c.path,
                    client,
                    gzip,
                    person: false,
                });
            }
        }
    }
    out
}

/// A wrk script that sends every request with `Host: {host}` (one request, formatted once).
pub fn host_script(dir: &Path, host: &str) -> PathBuf {
    let script = dir.join(format!("host-{host}.lua"));
    std::fs::write(&script, format!("wrk.headers[\"Host\"] = \"{host}\"\n")).unwrap();
    script
}

impl TemplateMeasure {
    /// One run of `secs` seconds against the server at `tls` (h2load) or `plain` (wrk, with
    /// `script` from [`host_script`]).
    pub fn run(
        &self,
        host: &str,
        (tls, plain): (SocketAddr, SocketAddr),
        script: &Path,
        secs: u64,
    ) -> Load {
        let mut headers = Vec::new();
        if self.gzip {
            headers.push("accept-encoding: gzip");
        }
        if self.person {
            headers.push(PERSON);
        }
        let headers = &headers[..];
        let h2 = |streams, h1| h2load_run(tls, (host, self.path, headers), 64, streams, secs, h1);
        match self.client {
            Client::H2(streams) => h2(streams, false),
            Client::H1Tls => h2(1, true),
            Client::Plain => wrk_shape(plain, self.path, secs, script, 2, 64, headers),
        }
    }
}
