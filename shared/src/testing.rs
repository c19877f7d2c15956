//! Test support (feature `testing`): a fresh, migrated database of either kind per test.
//! PostgreSQL tests create their own database on `VITRINE_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`), copied from a migrated template, and drop
//! it afterwards. When PostgreSQL is
//! unreachable the test fails: the PostgreSQL suite never skips.

use sqlx::{Connection, PgConnection};

use crate::Store;

pub mod browser;
pub mod photos;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A migrated test database; dropping it removes the database.
pub struct TestDb {
    pub store: Store,
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres { admin_url: String, name: String },
}

pub fn postgres_admin_url() -> String {
    std::env::var("VITRINE_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

impl TestDb {
    pub async fn new(backend: Backend) -> TestDb {
        // Every test with a server starts here: its HTTP clients need the process's TLS provider.
        crate::tls::install_crypto_provider();
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
                let store = Store::connect(&url).await.expect("sqlite connect");
                store.migrate().await.expect("sqlite migrate");
                TestDb {
                    store,
                    url,
                    cleanup: Cleanup::Sqlite(dir),
                }
            }
            Backend::Postgres => {
                let admin_url = postgres_admin_url();
                let name = format!("vitrine_test_{}", uuid::Uuid::new_v4().simple());
                let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|e| {
                    panic!("PostgreSQL is required for this test and is unreachable at {admin_url}: {e}")
                });
                let template = migrated_template(&mut admin, &admin_url).await;
                for sql in [
                    format!("CREATE DATABASE {name} TEMPLATE {template}"),
                    // A test database outlives no crash worth surviving: commits need not
                    // wait for the disk (a few ms each on these machines).
                    format!("ALTER DATABASE {name} SET synchronous_commit = off"),
                ] {
                    sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                        .execute(&mut admin)
                        .await
                        .expect("create test database");
                }
                let _ = admin.close().await;
                let url = replace_db_name(&admin_url, &name);
                let store = Store::connect(&url).await.expect("postgres connect");
                // Already migrated by the template: this only checks it.
                store.migrate().await.expect("postgres migrate");
                TestDb {
                    store,
                    url,
                    cleanup: Cleanup::Postgres { admin_url, name },
                }
            }
        }
    }
}

/// The migrated database every PostgreSQL test database is copied from (`CREATE DATABASE …
/// TEMPLATE`, a fraction of a second), named for the migrations it holds, so a new migration
/// set gets a template of its own. The first test process that needs it builds it, under an
/// advisory lock that the other processes (nextest runs each test in its own) wait on; it is
/// built under another name and renamed when complete, and nobody stays connected to it, as
/// a template requires.
async fn migrated_template(admin: &mut PgConnection, admin_url: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut digest = Sha256::new();
    for m in crate::store::postgres_migrations().iter() {
        digest.update(m.version.to_le_bytes());
        digest.update(&*m.checksum);
    }
    let name = format!("vitrine_tpl_{}", &hex::encode(digest.finalize())[..16]);
    const LOCK: i64 = 0x0076_6974_7269_6e65; // "vitrine" in ASCII
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(LOCK)
        .execute(&mut *admin)
        .await
        .expect("template lock");
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
            .bind(&name)
            .fetch_one(&mut *admin)
            .await
            .expect("template lookup");
    if !exists {
        let building = format!("{name}_building");
        for sql in [
            format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"),
            format!("CREATE DATABASE {building}"),
        ] {
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
                .execute(&mut *admin)
                .await
                .expect("build the template");
        }
        let store = Store::connect(&replace_db_name(admin_url, &building))
            .await
            .expect("template connect");
        store.migrate().await.expect("postgres migrate");
        store.close().await;
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "ALTER DATABASE {building} RENAME TO {name}"
        )))
        .execute(&mut *admin)
        .await
        .expect("name the template");
    }
    sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(LOCK)
        .execute(&mut *admin)
        .await
        .expect("template unlock");
    name
}

fn replace_db_name(url: &str, name: &str) -> String {
    let mut u = url::Url::parse(url).expect("postgres url");
    u.set_path(&format!("/{name}"));
    u.to_string()
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } = &self.cleanup {
            let (admin_url, name, store) = (admin_url.clone(), name.clone(), self.store.clone());
            // Drop runs inside the test's runtime; use a separate thread with its own runtime.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                rt.block_on(async move {
                    store.close().await;
                    if let Ok(admin) = Store::connect(&admin_url).await {
                        let _ = admin.drop_database(&name).await;
                        admin.close().await;
                    }
                });
            })
            .join();
        }
    }
}

/// Declares one async test that runs twice, on SQLite and on PostgreSQL. The argument type
/// must have `async fn new(Backend) -> Self` (e.g. [`TestDb`], or the control plane's TestApp).
#[macro_export]
macro_rules! dual_test {
    // `$(,)?`: rustfmt puts a trailing comma after the argument when the name is long.
    ($(#[$meta:meta])* async fn $name:ident($arg:ident : $ty:ty $(,)?) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            $(#[$meta])*
            async fn run($arg: $ty) $body
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                run(<$ty>::new($crate::testing::Backend::Sqlite).await).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                run(<$ty>::new($crate::testing::Backend::Postgres).await).await
            }
        }
    };
}

/// A TCP forwarder between a client and a server that a test can cut and restore, to play a
/// database outage: [`TcpProxy::cut`] drops every open connection and refuses new ones (they
/// are accepted and closed at once) until [`TcpProxy::restore`]. [`TcpProxy::connections`]
/// counts the connections clients opened, refused ones included.
pub struct TcpProxy {
    pub addr: std::net::SocketAddr,
    up: std::sync::Arc<tokio::sync::watch::Sender<bool>>,
    opened: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl TcpProxy {
    pub async fn start(target: std::net::SocketAddr) -> TcpProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind proxy");
        let addr = listener.local_addr().expect("proxy address");
        let up = std::sync::Arc::new(tokio::sync::watch::channel(true).0);
        let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (state, count) = (up.clone(), opened.clone());
        let task = tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    continue;
                };
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let mut rx = state.subscribe();
                if !*rx.borrow() {
                    drop(client);
                    continue;
                }
                tokio::spawn(async move {
                    let Ok(mut server) = tokio::net::TcpStream::connect(target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = rx.wait_for(|up| !*up) => {}
                    }
                });
            }
        });
        TcpProxy {
            addr,
            up,
            opened,
            task,
        }
    }

    /// How many connections clients have opened through the proxy (or tried to, while cut).
    pub fn connections(&self) -> usize {
        self.opened.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Drops every connection and refuses new ones.
    pub fn cut(&self) {
        self.up.send_replace(false);
    }

    /// Lets connections through again.
    pub fn restore(&self) {
        self.up.send_replace(true);
    }

    /// A PostgreSQL URL like `url` that goes through this proxy.
    /// A proxy in front of the PostgreSQL server `database_url` names (port 5432 when it
    /// names none); [`TcpProxy::postgres_url`] gives the URL that goes through it.
    pub async fn in_front_of(database_url: &str) -> TcpProxy {
        let url = url::Url::parse(database_url).expect("postgres url");
        let target = url
            .socket_addrs(|| Some(5432))
            .expect("postgres address")
            .into_iter()
            .next()
            .expect("postgres address");
        TcpProxy::start(target).await
    }

    pub fn postgres_url(&self, url: &str) -> String {
        let mut u = url::Url::parse(url).expect("postgres url");
        u.set_host(Some("127.0.0.1")).expect("host");
        u.set_port(Some(self.addr.port())).expect("port");
        u.to_string()
    }
}

impl Drop for TcpProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A real DNS server for tests: Debian's dnsmasq on a free loopback port, answering only the
/// records the test sets (no upstream, no /etc/hosts). Changing a record restarts it on the
/// same port, since dnsmasq reads `--address`/`--cname` only at start. Panics with a clear
/// message when dnsmasq is not installed (`apt-get install dnsmasq-base`): the suite never
/// skips.
pub struct DnsServer {
    pub addr: std::net::SocketAddr,
    dir: tempfile::TempDir,
    records: std::sync::Mutex<Vec<(String, DnsRecord)>>,
    child: std::sync::Mutex<Option<std::process::Child>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DnsRecord {
    A(std::net::IpAddr),
    Cname(String),
    /// A TXT record (`--txt-record`), such as the `_vitrine-challenge.` proof.
    Txt(String),
    /// An A record for the name *and every name under it* (`--address=/name/ip`): a wildcard
    /// such as `*.example.com`.
    Wildcard(std::net::IpAddr),
}

impl DnsServer {
    pub fn start() -> DnsServer {
        let port = dns_port();
        let server = DnsServer {
            addr: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
            dir: tempfile::tempdir().expect("dns temp dir"),
            records: std::sync::Mutex::new(Vec::new()),
            child: std::sync::Mutex::new(None),
        };
        server.restart();
        server
    }

    /// Replaces every record of `name` with `record`.
    pub fn set(&self, name: &str, record: DnsRecord) {
        {
            let mut records = self.records.lock().expect("records");
            records.retain(|(n, _)| n != name);
            records.push((name.to_string(), record));
        }
        self.restart();
    }

    /// Removes every record of `name`.
    pub fn remove(&self, name: &str) {
        self.records
            .lock()
            .expect("records")
            .retain(|(n, _)| n != name);
        self.restart();
    }

    fn restart(&self) {
        let mut child = self.child.lock().expect("child");
        if let Some(mut c) = child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        // CNAME targets must be known to dnsmasq itself: they go in a hosts file.
        let hosts = self.dir.path().join("hosts");
        let mut hosts_text = String::new();
        let mut args = vec![
            "--keep-in-foreground".to_string(),
            "--no-resolv".into(),
            "--no-hosts".into(),
            "--no-poll".into(),
            // Authoritative for every name: unknown names get NXDOMAIN, not REFUSED.
            "--local=/#/".into(),
            "--bind-interfaces".into(),
            "--listen-address=127.0.0.1".into(),
            format!("--port={}", self.addr.port()),
            format!("--pid-file={}", self.dir.path().join("pid").display()),
            "--user=root".into(),
            "--log-facility=-".into(),
            format!("--addn-hosts={}", hosts.display()),
        ];
        for (name, record) in self.records.lock().expect("records").iter() {
            match record {
                DnsRecord::A(ip) => hosts_text.push_str(&format!("{ip} {name}\n")),
                DnsRecord::Cname(target) => args.push(format!("--cname={name},{target}")),
                DnsRecord::Txt(text) => args.push(format!("--txt-record={name},{text}")),
                DnsRecord::Wildcard(ip) => args.push(format!("--address=/{name}/{ip}")),
            }
        }
        // A CNAME whose target has no address of its own still needs the target to exist.
        for (_, record) in self.records.lock().expect("records").iter() {
            if let DnsRecord::Cname(target) = record
                && !hosts_text.contains(&format!(" {target}\n"))
            {
                hosts_text.push_str(&format!("192.0.2.1 {target}\n"));
            }
        }
        std::fs::write(&hosts, hosts_text).expect("write dns hosts");
        // The port was just released by the previous process (or chosen free): if dnsmasq
        // cannot bind it yet, it exits at once, and is started again.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let mut spawned = std::process::Command::new("dnsmasq")
                .args(&args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap_or_else(|e| {
                    panic!(
                        "dnsmasq is required for the DNS tests (apt-get install dnsmasq-base): {e}"
                    )
                });
            // Ready when it answers TCP on its port; gone when it could not bind.
            loop {
                if let Ok(Some(_)) = spawned.try_wait() {
                    break;
                }
                if std::net::TcpStream::connect(self.addr).is_ok() {
                    *child = Some(spawned);
                    return;
                }
                assert!(
                    std::time::Instant::now() < deadline,
                    "dnsmasq did not start on {}",
                    self.addr
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            assert!(
                std::time::Instant::now() < deadline,
                "dnsmasq could not bind {}",
                self.addr
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// A loopback port free for both UDP and TCP, below the kernel's ephemeral range: a port the
/// kernel hands out for port 0 could be taken by some test's outgoing TCP connection while
/// dnsmasq restarts on it, and dnsmasq needs the port for both protocols.
fn dns_port() -> u16 {
    let ephemeral_low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|r| r.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(32768);
    let low = 10_000.min(ephemeral_low.saturating_sub(1000));
    for _ in 0..1000 {
        let port = rand::random_range(low..ephemeral_low);
        let free = std::net::UdpSocket::bind(("127.0.0.1", port)).is_ok()
            && std::net::TcpListener::bind(("127.0.0.1", port)).is_ok();
        if free {
            return port;
        }
    }
    panic!("no free port for the test DNS server below {ephemeral_low}");
}

impl Drop for DnsServer {
    fn drop(&mut self) {
        if let Ok(mut child) = self.child.lock()
            && let Some(mut c) = child.take()
        {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Stores `chain_pem`/`key_pem` as the issued certificate of `name`, the way an ACME order
/// ends (take the lease, store, release), for tests and benches that need one without an
/// ACME server.
pub async fn store_certificate(
    store: &Store,
    project: crate::ids::ProjectId,
    name: &str,
    chain_pem: &str,
    key_pem: &str,
    not_after: chrono::DateTime<chrono::Utc>,
) {
    let now = chrono::Utc::now();
    let lease = now + chrono::Duration::minutes(5);
    assert!(
        store
            .claim_order(name, Some(project), "testing", lease, now)
            .await
            .expect("claim the order"),
        "{name} already has a lease or a certificate"
    );
    store
        .store_issued(name, "testing", chain_pem, key_pem, not_after)
        .await
        .expect("store the certificate");
}

/// The value of `series` (`name{labels}`, exactly as exposed) in a Prometheus text exposition
/// (either server's `/metrics`); 0 while it has not been counted.
pub fn metric_value(exposition: &str, series: &str) -> f64 {
    exposition
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |v| v.trim().parse().expect("a sample's value"))
}

#[cfg(test)]
mod dns_server_tests {
    use super::*;
    use crate::dns::{DnsCheck, Pointing, Proof, Verdict};

    fn check(dns: &DnsServer, public_ip: &str) -> DnsCheck {
        let settings = crate::Settings {
            public_ip: public_ip.into(),
            cname_target: Some("sites.vitrine.test".into()),
            dns_nameservers: Some(dns.addr.to_string()),
            ..crate::Settings::default()
        };
        DnsCheck::from_settings(&settings).unwrap()
    }

    #[tokio::test]
    async fn a_records_cnames_and_missing_names_are_told_apart() {
        let dns = DnsServer::start();
        let check = check(&dns, "203.0.113.7");
        dns.set("shop.example", DnsRecord::A("203.0.113.7".parse().unwrap()));
        dns.set(
            "blog.example",
            DnsRecord::Cname("sites.vitrine.test".into()),
        );
        dns.set(
            "other.example",
            DnsRecord::A("198.51.100.9".parse().unwrap()),
        );
        assert_eq!(
            check.check("shop.example").await,
            Verdict::Points(Pointing::Address("203.0.113.7".parse().unwrap()))
        );
        assert_eq!(
            check.check("Blog.Example.").await,
            Verdict::Points(Pointing::Alias("sites.vitrine.test".into()))
        );
        assert_eq!(
            check.check("other.example").await,
            Verdict::Elsewhere(vec!["198.51.100.9".into()])
        );
        assert_eq!(check.check("missing.example").await, Verdict::NoRecords);
        // A changed record is seen at once (no stale cache).
        dns.set(
            "shop.example",
            DnsRecord::A("198.51.100.9".parse().unwrap()),
        );
        assert_eq!(
            check.check("shop.example").await,
            Verdict::Elsewhere(vec!["198.51.100.9".into()])
        );
    }

    #[tokio::test]
    async fn txt_proofs_and_wildcards_are_told_apart() {
        let dns = DnsServer::start();
        let check = check(&dns, "203.0.113.7");
        let ip: std::net::IpAddr = "203.0.113.7".parse().unwrap();
        dns.set("shop.example", DnsRecord::A(ip));
        dns.set(
            "_vitrine-challenge.shop.example",
            DnsRecord::Txt("vitrine-verify=ours".into()),
        );
        dns.set("wild.example", DnsRecord::Wildcard(ip));
        dns.set(
            "_vitrine-challenge.other.example",
            DnsRecord::Txt("vitrine-verify=theirs".into()),
        );

        let v = check.verify("shop.example", "vitrine-verify=ours").await;
        assert_eq!(v.proof, Proof::Proven);
        assert!(v.verified(), "{v:?}");
        // Someone else's token is not proof.
        let v = check.verify("shop.example", "vitrine-verify=mine").await;
        assert_eq!(v.proof, Proof::Wrong(vec!["vitrine-verify=ours".into()]));
        assert!(!v.verified());
        // A wildcard points every name here, and proves none of them.
        let v = check
            .verify("anything.wild.example", "vitrine-verify=ours")
            .await;
        assert_eq!(v.pointing, Verdict::Points(Pointing::Address(ip)));
        assert_eq!(v.proof, Proof::Missing);
        assert!(!v.verified());
        // A TXT without the pointing is not enough either.
        let v = check.verify("other.example", "vitrine-verify=theirs").await;
        assert_eq!(
            (v.proof.clone(), v.pointing.clone()),
            (Proof::Proven, Verdict::NoRecords)
        );
        assert!(!v.verified());
        assert_eq!(v.unreachable(), None);
    }
}

pub mod budgets;
pub mod fields;
pub mod fixtures;
pub mod schema_org;
