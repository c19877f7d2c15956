//! Bad input never crashes the edge or disturbs other sites: malformed hosts, hostile paths,
//! huge heads, slow clients.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::TestEdge;

/// Sends raw bytes and reads until the server closes or `limit` passes.
async fn raw(addr: std::net::SocketAddr, request: &[u8], limit: Duration) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    // The edge may answer (431) and close before reading everything: ignore write errors.
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(limit, s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).to_string()
}

fn status_of(response: &str) -> u16 {
    response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {response:.200}"))
}

dual_test! {
    async fn hostile_hosts_paths_and_heads_get_clear_4xx_and_the_edge_keeps_serving(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_max_header_bytes = 16 * 1024).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        let addr = t.edge.http_addr;
        let wait = Duration::from_secs(5);

        for host in ["", "loja..localhost", "loja.localhost:99999", "[::1", "lo ja.localhost", "a@loja.localhost", "%2e%2e"] {
            let req = format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
            let res = raw(addr, req.as_bytes(), wait).await;
            assert_eq!(status_of(&res), 400, "Host {host:?}: {res:.300}");
        }
        for ip in ["127.0.0.1", "127.0.0.1:8080", "[::1]:8080"] {
            let req = format!("GET / HTTP/1.1\r\nHost: {ip}\r\nConnection: close\r\n\r\n");
            let res = raw(addr, req.as_bytes(), wait).await;
            assert_eq!(status_of(&res), 404, "an address serves no site: {res:.300}");
            assert!(res.contains("Site não encontrado"), "{res:.300}");
        }
        let res = raw(addr, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", wait).await;
        assert_eq!(status_of(&res), 400, "no Host at all");

        for path in [
            "/%2e%2e/%2e%2e/etc/passwd",
            "/..%2f..%2fetc%2fpasswd",
            "/_assets/%2e%2e%2f%2e%2e%2fdeploys",
            "/%c0%ae%c0%ae/",
            "/a%00b",
            "/a%5c..%5cb",
        ] {
            // Raw, since HTTP clients resolve dot segments before sending.
            let req = format!("GET {path} HTTP/1.1\r\nHost: loja.localhost\r\nConnection: close\r\n\r\n");
            let res = raw(addr, req.as_bytes(), wait).await;
            assert_eq!(status_of(&res), 400, "{path}: {res:.300}");
        }
        let long = format!("/{}", "a".repeat(100 * 1024));
        let req = format!("GET {long} HTTP/1.1\r\nHost: loja.localhost\r\nConnection: close\r\n\r\n");
        let res = raw(addr, req.as_bytes(), wait).await;
        let s = status_of(&res);
        assert!(matches!(s, 414 | 431), "100 KB path: {s}");

        let huge = format!(
            "GET / HTTP/1.1\r\nHost: loja.localhost\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
            "b".repeat(64 * 1024)
        );
        let res = raw(addr, huge.as_bytes(), wait).await;
        assert_eq!(status_of(&res), 431, "{res:.300}");
        let many: String = (0..2000).map(|i| format!("X-H{i}: v\r\n")).collect();
        let req = format!("GET / HTTP/1.1\r\nHost: loja.localhost\r\n{many}Connection: close\r\n\r\n");
        let res = raw(addr, req.as_bytes(), wait).await;
        assert!(matches!(status_of(&res), 431 | 400), "{res:.300}");

        let r = t.client.post(t.url("/")).header("host", "loja.localhost").send().await.unwrap();
        assert_eq!(r.status(), 405);

        // After all that the site is untouched.
        let (status, body) = t.text("loja.localhost", "/").await;
        assert_eq!((status, body.as_str()), (200, "<h1>Início</h1>"));
        let metrics = reqwest::get(format!("http://{}/metrics", t.edge.admin_addr))
            .await.unwrap().text().await.unwrap();
        assert!(metrics.contains("vitrine_edge_requests_total{class=\"4xx\",host=\"platform\"}"), "{metrics}");
        assert!(metrics.contains("vitrine_edge_requests_total{class=\"2xx\",host=\"platform\"}"), "{metrics}");
        assert!(!metrics.contains("class=\"5xx\""), "{metrics}");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn slow_clients_are_cut_off_by_the_header_timeout(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_header_timeout_ms = 300).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        let addr = t.edge.http_addr;

        // One that connects and says nothing, one that starts a request and stalls.
        for opening in [&b""[..], &b"GET / HTTP/1.1\r\nHost: loja.loc"[..]] {
            let start = Instant::now();
            let mut s = TcpStream::connect(addr).await.unwrap();
            s.write_all(opening).await.unwrap();
            let mut buf = Vec::new();
            let read = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut buf)).await;
            assert!(read.is_ok(), "the edge kept a silent connection open for 5 s");
            let took = start.elapsed();
            assert!(took >= Duration::from_millis(250), "closed too early: {took:?}");
            let text = String::from_utf8_lossy(&buf);
            assert!(!text.contains("200 OK"), "{text}");
        }
        // Meanwhile a normal visitor is served.
        let (status, _) = t.text("loja.localhost", "/").await;
        assert_eq!(status, 200);
        t.edge.stop().await;
    }
}
