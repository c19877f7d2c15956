//! A real ACME server for the tests: Debian's Pebble (Let's Encrypt's test CA), run as a child
//! process on loopback. It validates HTTP-01 by resolving the name through the test's own DNS
//! server (dnsmasq) and fetching the token from the edge's HTTP port. Its HTTPS listener uses a
//! certificate made here with rcgen; `ca_pem` is the root to trust it by.

use std::{
    net::SocketAddr,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use tempfile::TempDir;

pub struct Pebble {
    pub directory_url: String,
    /// The root that signs Pebble's own HTTPS certificate (for `ACME_CA_BUNDLE`).
    pub ca_file: PathBuf,
    listen: SocketAddr,
    management: SocketAddr,
    dir: TempDir,
    child: Option<Child>,
}

/// A port for a server started later (Pebble, nginx). It is picked below the kernel's
/// ephemeral range (`ip_local_port_range`, 32768 and up by default), which every `:0` bind of
/// the tests draws from, so a listener bound meanwhile cannot take it; among the ports below,
/// a random one that is free now (tests in other processes pick the same way), and never one
/// this process was given before: Pebble's three ports are picked before any is bound.
pub fn free_port() -> u16 {
    use rand::RngExt;
    static GIVEN: std::sync::Mutex<Vec<u16>> = std::sync::Mutex::new(Vec::new());
    let mut rng = rand::rng();
    let mut given = GIVEN.lock().unwrap();
    for _ in 0..1000 {
        let port = rng.random_range(20_000..32_000);
        if !given.contains(&port) && std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            given.push(port);
            return port;
        }
    }
    panic!("no free port between 20000 and 32000")
}

impl Pebble {
    /// Prepares the configuration; [`Pebble::start`] runs it once the edge's HTTP port is known.
    pub fn prepare() -> Pebble {
        let dir = tempfile::tempdir().unwrap();
        let ca_key = KeyPair::generate().unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "Vitrine test root for Pebble");
        let ca_cert = ca_params.self_signed(&ca_key).unwrap();
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf_key = KeyPair::generate().unwrap();
        let leaf_params =
            CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
        let leaf = leaf_params.signed_by(&leaf_key, &issuer).unwrap();
        let ca_file = dir.path().join("ca.pem");
        std::fs::write(&ca_file, ca_cert.pem()).unwrap();
        std::fs::write(dir.path().join("pebble.pem"), leaf.pem()).unwrap();
        std::fs::write(dir.path().join("pebble.key"), leaf_key.serialize_pem()).unwrap();
        let listen = SocketAddr::from(([127, 0, 0, 1], free_port()));
        let management = SocketAddr::from(([127, 0, 0, 1], free_port()));
        Pebble {
            directory_url: format!("https://{listen}/dir"),
            ca_file,
            listen,
            management,
            dir,
            child: None,
        }
    }

    /// Starts Pebble validating HTTP-01 on `http_port` and resolving names through `dns`.
    /// Certificates live `validity_secs`.
    pub async fn start(&mut self, http_port: u16, dns: SocketAddr, validity_secs: u64) {
        let config = serde_json::json!({
            "pebble": {
                "listenAddress": self.listen.to_string(),
                "managementListenAddress": self.management.to_string(),
                "certificate": self.dir.path().join("pebble.pem"),
                "privateKey": self.dir.path().join("pebble.key"),
                "httpPort": http_port,
                "tlsPort": free_port(),
                "ocspResponderURL": "",
                "externalAccountBindingRequired": false,
                "certificateValidityPeriod": validity_secs,
            }
        });
        let config_file = self.dir.path().join("pebble.json");
        std::fs::write(&config_file, config.to_string()).unwrap();
        let log = std::fs::File::create(self.dir.path().join("pebble.log")).unwrap();
        let child = Command::new("pebble")
            .arg("-config")
            .arg(&config_file)
            .arg("-dnsserver")
            .arg(dns.to_string())
            .arg("-strict=false")
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .env("PEBBLE_AUTHZREUSE", "0")
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .unwrap_or_else(|e| panic!("pebble is required (apt-get install pebble): {e}"));
        self.child = Some(child);
        let client = self.client();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(r) = client.get(&self.directory_url).send().await
                && r.status().is_success()
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "pebble did not start: {}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn client(&self) -> reqwest::Client {
        let ca = reqwest::Certificate::from_pem(&std::fs::read(&self.ca_file).unwrap()).unwrap();
        reqwest::Client::builder()
            .tls_certs_only([ca])
            .build()
            .unwrap()
    }

    /// Pebble's issuing root (it makes a new one at every start), PEM.
    pub async fn issuing_root(&self) -> String {
        self.client()
            .get(format!("https://{}/roots/0", self.management))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("pebble.log")).unwrap_or_default()
    }
}

impl Drop for Pebble {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A client that trusts `root` and sends `name` to `addr`.
pub fn client(root_pem: &str, name: &str, addr: SocketAddr) -> reqwest::Client {
    reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(root_pem.as_bytes()).unwrap()])
        .resolve(name, addr)
        .tls_info(true)
        .timeout(Duration::from_secs(90))
        .build()
        .unwrap()
}

/// GETs `https://name/` through `addr`; the status, body and the served certificate's serial.
pub async fn fetch(
    root_pem: &str,
    name: &str,
    addr: SocketAddr,
) -> Result<(u16, String, String), reqwest::Error> {
    let r = client(root_pem, name, addr)
        .get(format!("https://{name}:{}/", addr.port()))
        .send()
        .await?;
    let der = r
        .extensions()
        .get::<reqwest::tls::TlsInfo>()
        .and_then(|i| i.peer_certificate())
        .expect("peer certificate")
        .to_vec();
    let (_, cert) = x509_parser::parse_x509_certificate(&der).unwrap();
    let serial = cert.raw_serial_as_string();
    Ok((r.status().as_u16(), r.text().await?, serial))
}
