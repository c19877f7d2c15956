//! Benchmarks live in `benches/`; see README.md. This library holds what the load comparisons
//! share: a free port, and nginx as the reference server started from a configuration text.

use std::{
    net::SocketAddr,
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// A loopback port nobody listens on right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

/// nginx, killed when dropped.
pub struct Nginx {
    pub addr: SocketAddr,
    child: Child,
}

impl Nginx {
    /// Writes `config` to `dir/nginx.conf` (its prefix is `dir`) and starts nginx in the
    /// foreground, returning once `127.0.0.1:{port}` accepts connections.
    pub fn start(dir: &Path, port: u16, config: &str) -> Nginx {
        let conf = dir.join("nginx.conf");
        std::fs::write(&conf, config).expect("write nginx.conf");
        let child = Command::new("nginx")
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx must be installed (apt-get install nginx-light)");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "nginx did not start on {addr}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Nginx { addr, child }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
