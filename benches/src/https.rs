//! What the HTTPS and load-shape benches (`edge_https`) share with the TLS bench: a bench PKI,
//! sites with pages of three sizes, nginx's root and configuration serving the very bytes the
//! edge serves, the bare hyper + rustls reference as a process, h2load runs with their p99, and
//! a TLS handshake client that can resume sessions.

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::Path,
    process::{Child, Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use serde_json::json;

use crate::{Load, new_site, post_json, publish, sized_block};

/// A bench root and an ECDSA P-256 leaf, in PEM.
pub struct Pki {
    pub ca_pem: String,
    pub chain_pem: String,
    pub key_pem: String,
}

/// A root and an ECDSA P-256 leaf for `names`, valid for 90 days like an ACME certificate, and
/// naming a CRL distribution point as an ACME CA's certificates do.
pub fn pki(names: &[&str]) -> Pki {
    let now = time::OffsetDateTime::now_utc();
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "Vitrine bench root");
    ca.not_before = now - time::Duration::days(1);
    ca.not_after = now + time::Duration::days(365);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let mut leaf =
        CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
    leaf.distinguished_name.push(DnType::CommonName, names[0]);
    leaf.not_before = now - time::Duration::days(1);
    leaf.not_after = now + time::Duration::days(89);
    leaf.crl_distribution_points = vec![rcgen::CrlDistributionPoint {
        uris: vec!["http://crl.vitrine.bench/root.crl".to_string()],
    }];
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    Pki {
        ca_pem: ca_cert.pem(),
        chain_pem: format!("{}{}", cert.pem(), ca_cert.pem()),
        key_pem: key.serialize_pem(),
    }
}

/// The pages every shaped site has: path and the size of its one block of HTML.
pub const SHAPED_PAGES: [(&str, usize); 3] = [("/", 15_000), ("/small", 1_000), ("/large", 97_000)];

/// Builds site `i` (`site{i}.localhost`) through the API as `client` with the pages of
/// [`SHAPED_PAGES`] and publishes it.
pub async fn seed_shaped_site(client: &reqwest::Client, base: &str, i: usize) {
    let (project, home) = new_site(client, base, i).await;
    for (path, bytes) in SHAPED_PAGES {
        let page = if path == "/" {
            home
        } else {
            let body = json!({"project_id": project, "name": &path[1..]});
            post_json(client, base, "/api/pages", body).await["id"]
                .as_i64()
                .unwrap()
        };
        let mut body = json!({"blocks": sized_block(i, bytes)});
        if path != "/" {
            body["slug"] = json!(&path[1..]);
        }
        post_json(client, base, &format!("/api/page/{page}"), body).await;
    }
    publish(client, base, project).await;
}

/// Copies what the edge at `edge` answers for each shaped page of `sites` sites, identity and
/// gzip, to `root/{host}/{path}/index.html` (and `.gz`) for nginx, with the edge's headers
/// beside each (`….headers`) for the bare reference. Returns the identity sizes by path.
pub async fn copy_sites(edge: SocketAddr, sites: usize, root: &Path) -> Vec<(String, usize)> {
    let client = reqwest::Client::builder()
        .no_gzip()
        .no_brotli()
        .build()
        .unwrap();
    let mut sizes = Vec::new();
    for i in 0..sites {
        let host = format!("site{i}.localhost");
        for (path, _) in SHAPED_PAGES {
            for gzip in [false, true] {
                let mut req = client
                    .get(format!("http://{edge}{path}"))
                    .header("host", &host);
                if gzip {
                    req = req.header("accept-encoding", "gzip");
                }
                let res = req.send().await.unwrap();
                assert_eq!(res.status(), 200, "{host}{path}");
                let headers: String = res
                    .headers()
                    .iter()
                    .filter(|(n, _)| !matches!(n.as_str(), "date" | "content-length"))
                    .map(|(n, v)| format!("{n}: {}\n", v.to_str().unwrap()))
                    .collect();
                assert_eq!(
                    res.headers().contains_key("content-encoding"),
                    gzip,
                    "{host}{path}: the edge has a gzip variant"
                );
                let body = res.bytes().await.unwrap();
                let dir = root.join(&host).join(path.trim_start_matches('/'));
                std::fs::create_dir_all(&dir).unwrap();
                let file = dir.join(if gzip { "index.html.gz" } else { "index.html" });
                std::fs::write(&file, &body).unwrap();
                std::fs::write(format!("{}.headers", file.display()), headers).unwrap();
                if i == 0 && !gzip {
                    sizes.push((path.to_string(), body.len()));
                }
            }
        }
    }
    sizes
}

/// nginx serving `root` (`root …/$host;`) on a plain and a TLS port (h2 and HTTP/1.1) with the
/// bench's certificate: two workers, `sendfile`, `tcp_nopush`, `gzip_static`,
/// `open_file_cache`, no access log, a shared session cache and session tickets.
pub fn nginx_config(
    dir: &Path,
    root: &Path,
    plain: u16,
    tls: u16,
    cert: &Path,
    key: &Path,
) -> String {
    format!(
        "worker_processes 2;\npid {pid};\nerror_log {dir}/nginx-error.log;\ndaemon off;\n\
         events {{ worker_connections 4096; }}\n\
         http {{\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  keepalive_requests 1000000;\n  \
         open_file_cache max=10000;\n  gzip_static on;\n  default_type text/html;\n  \
         ssl_certificate {cert};\n  ssl_certificate_key {key};\n  ssl_protocols TLSv1.2 TLSv1.3;\n  \
         ssl_session_cache shared:SSL:20m;\n  ssl_session_tickets on;\n\
           server {{\n    listen 127.0.0.1:{plain};\n    listen 127.0.0.1:{tls} ssl http2;\n    \
         root {root}/$host;\n    index index.html;\n    \
         location = /healthz {{ return 200 \"ok\"; }}\n    \
         location / {{ try_files $uri $uri/index.html =404; }}\n  }}\n}}\n",
        pid = dir.join("nginx.pid").display(),
        dir = dir.display(),
        root = root.display(),
        cert = cert.display(),
        key = key.display(),
    )
}

/// The bare hyper + rustls reference (`vitrine-bare-ref`) as a process, killed when dropped.
pub struct BareRef {
    child: Child,
    pub addr: SocketAddr,
    pub https: SocketAddr,
}

impl BareRef {
    /// Starts the binary beside the edge's (`cargo build --release -p vitrine-benches --bins`)
    /// serving `root` with `threads` threads.
    pub fn start(edge_bin: &Path, root: &Path, cert: &Path, key: &Path, threads: usize) -> BareRef {
        let bin = edge_bin.with_file_name("vitrine-bare-ref");
        assert!(
            bin.exists(),
            "{} is missing: cargo build --release -p vitrine-benches --bins (edge-load.sh does)",
            bin.display()
        );
        let mut child = Command::new(&bin)
            .arg(root)
            .arg(cert)
            .arg(key)
            .arg(threads.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the bare reference");
        let line = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok)
            .find(|l| l.contains("listening on"))
            .expect("the bare reference did not start");
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://")?.parse().ok())
            .unwrap();
        let https = line
            .rsplit_once("(https ")
            .and_then(|(_, r)| r.trim_end_matches(')').parse().ok())
            .unwrap();
        BareRef { child, addr, https }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for BareRef {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One h2load run: `conns` connections over `threads` threads for `secs` seconds against
/// `https://{host}{path}` connected to `to` (h2, or HTTP/1.1 with `h1`), one request at a time
/// per connection. The p99 comes from h2load's per-request log; any failed request panics.
pub fn h2load(to: SocketAddr, host: &str, path: &str, conns: usize, secs: u64, h1: bool) -> Load {
    h2load_streams(to, host, path, conns, 1, secs, h1)
}

/// [`h2load`] with up to `streams` requests in flight per connection (h2's multiplexing; for
/// HTTP/1.1, pipelining).
pub fn h2load_streams(
    to: SocketAddr,
    host: &str,
    path: &str,
    conns: usize,
    streams: usize,
    secs: u64,
    h1: bool,
) -> Load {
    h2load_run(to, (host, path, &[]), conns, streams, secs, h1)
}

/// [`h2load_streams`] for `(host, path, extra request headers)` (`"accept-encoding: gzip"`).
pub fn h2load_run(
    to: SocketAddr,
    (host, path, headers): (&str, &str, &[&str]),
    conns: usize,
    streams: usize,
    secs: u64,
    h1: bool,
) -> Load {
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut cmd = Command::new("h2load");
    cmd.args([
        "-c",
        &conns.to_string(),
        "-t",
        "2",
        "-m",
        &streams.to_string(),
    ])
    .args(["-D", &secs.to_string(), "--warm-up-time=1"])
    .arg(format!("--connect-to={to}"))
    .arg(format!("--log-file={}", log.path().display()));
    if h1 {
        cmd.arg("--h1");
    }
    for h in headers {
        cmd.args(["-H", h]);
    }
    let out = cmd
        .arg(format!("https://{host}:{}{path}", to.port()))
        .output()
        .expect("h2load must be installed (apt-get install nghttp2-client)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "h2load failed: {text}");
    let rps = text
        .lines()
        .find_map(|l| l.strip_prefix("finished in "))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|v| v.trim_end_matches(" req/s").parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no req/s in:\n{text}"));
    let failed = text
        .lines()
        .find_map(|l| l.strip_prefix("requests: "))
        .and_then(|l| l.split(", ").find(|p| p.ends_with(" failed")))
        .and_then(|p| p.trim_end_matches(" failed").parse::<u64>().ok());
    assert_eq!(failed, Some(0), "failed requests:\n{text}");
    assert!(
        text.contains("0 4xx, 0 5xx"),
        "error answers under load:\n{text}"
    );
    // `start (µs)\tstatus\tduration (µs)` per request.
    let mut durations: Vec<u64> = std::fs::read_to_string(log.path())
        .unwrap()
        .lines()
        .filter_map(|l| l.split('\t').nth(2)?.parse().ok())
        .collect();
    assert!(!durations.is_empty(), "h2load logged no request");
    durations.sort_unstable();
    let p99 = durations[(durations.len() * 99 / 100).min(durations.len() - 1)];
    Load {
        rps,
        p99_ms: p99 as f64 / 1000.0,
    }
}

/// New TLS connections per second: `conns` clients (on this process's runtime) each connect,
/// shake hands for `name`, ask `GET /healthz` with `Connection: close` and read the answer, for
/// `secs` seconds. `resume`: each client offers the session (ticket) its previous connection
/// got, so after the first, every handshake is a resumed one; otherwise each is a full
/// handshake. Returns the rate and the share of connections that resumed.
pub async fn handshakes(
    to: SocketAddr,
    name: &str,
    ca_pem: &str,
    resume: bool,
    conns: usize,
    secs: u64,
) -> (f64, f64) {
    use rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(c.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let server = ServerName::try_from(name.to_string()).unwrap();
    let done = Arc::new(AtomicU64::new(0));
    let resumed = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {name}\r\nConnection: close\r\n\r\n");
    let clients: Vec<_> = (0..conns)
        .map(|_| {
            let mut config = rustls::ClientConfig::builder_with_provider(provider.clone())
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_root_certificates(roots.clone())
                .with_no_client_auth();
            // Each client its own session store: a resumed handshake uses its own last ticket.
            if !resume {
                config.resumption = rustls::client::Resumption::disabled();
            }
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
            let (server, done, resumed, request) = (
                server.clone(),
                done.clone(),
                resumed.clone(),
                request.clone(),
            );
            tokio::spawn(async move {
                let mut answer = Vec::with_capacity(256);
                while Instant::now() < deadline {
                    let tcp = tokio::net::TcpStream::connect(to).await.unwrap();
                    let _ = tcp.set_nodelay(true);
                    let mut tls = connector.connect(server.clone(), tcp).await.unwrap();
                    tls.write_all(request.as_bytes()).await.unwrap();
                    answer.clear();
                    let _ = tls.read_to_end(&mut answer).await;
                    assert!(
                        answer.starts_with(b"HTTP/1.1 200"),
                        "{:?}",
                        String::from_utf8_lossy(&answer)
                    );
                    if tls.get_ref().1.handshake_kind() == Some(rustls::HandshakeKind::Resumed) {
                        resumed.fetch_add(1, Ordering::Relaxed);
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    let started = Instant::now();
    for c in clients {
        c.await.unwrap();
    }
    let n = done.load(Ordering::Relaxed) as f64;
    (
        n / started.elapsed().as_secs_f64(),
        resumed.load(Ordering::Relaxed) as f64 / n.max(1.0),
    )
}

/// Whether this kernel can do TLS record encryption itself (kTLS): its TCP upper-layer
/// protocols include `tls`. With `CONFIG_TLS` off, `setsockopt(TCP_ULP, "tls")` fails and the
/// `ktls` crate cannot be tried; the answer says what the kernel offers.
pub fn ktls_available() -> (bool, String) {
    let ulps = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_ulp")
        .unwrap_or_default()
        .trim()
        .to_string();
    (ulps.split_whitespace().any(|u| u == "tls"), ulps)
}
