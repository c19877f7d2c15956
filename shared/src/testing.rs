//! Test support (feature `testing`): a fresh, migrated database of either kind per test.
//! PostgreSQL tests create their own database on `VITRINE_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`) and drop it afterwards. When PostgreSQL is
//! unreachable the test fails: the PostgreSQL suite never skips.

use crate::Store;

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
                let admin = Store::connect(&admin_url).await.unwrap_or_else(|e| {
                    panic!("PostgreSQL is required for this test and is unreachable at {admin_url}: {e}")
                });
                admin
                    .create_database(&name)
                    .await
                    .expect("create test database");
                admin.close().await;
                let url = replace_db_name(&admin_url, &name);
                let store = Store::connect(&url).await.expect("postgres connect");
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
    ($(#[$meta:meta])* async fn $name:ident($arg:ident : $ty:ty) $body:block) => {
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
/// are accepted and closed at once) until [`TcpProxy::restore`].
pub struct TcpProxy {
    pub addr: std::net::SocketAddr,
    up: std::sync::Arc<tokio::sync::watch::Sender<bool>>,
    task: tokio::task::JoinHandle<()>,
}

impl TcpProxy {
    pub async fn start(target: std::net::SocketAddr) -> TcpProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind proxy");
        let addr = listener.local_addr().expect("proxy address");
        let up = std::sync::Arc::new(tokio::sync::watch::channel(true).0);
        let state = up.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    continue;
                };
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
        TcpProxy { addr, up, task }
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
