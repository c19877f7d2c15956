//! Bad input never crashes the edge or disturbs other sites: malformed hosts, hostile paths,
//! huge heads, slow clients, idle HTTP/2 connections and clients that stop reading, and
//! redirect splats that would send visitors to another host.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::{dual_test, testing::TestDb};

use crate::support::{self, TestEdge};

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

        // One that connects and says nothing, one that starts a request and stalls; on the
        // HTTPS listener, silence and a ClientHello that stops after its first bytes (no peek
        // there: the ClientHello's own time limit closes both).
        let hello = &b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"[..];
        let cases = [
            (addr, &b""[..]),
            (addr, &b"GET / HTTP/1.1\r\nHost: loja.loc"[..]),
            (t.edge.https_addr, &b""[..]),
            (t.edge.https_addr, hello),
        ];
        for (addr, opening) in cases {
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

dual_test! {
    async fn a_redirect_splat_never_sends_visitors_to_another_host(db: TestDb) {
        let t = TestEdge::start(db).await;
        let loja = t.project("loja").await;
        let store = &t.db.store;
        store.insert_redirect(ProjectId(loja), "/go/*", "/*").await.unwrap();
        // A rule saved before stars were refused in a destination's host.
        store.insert_redirect(ProjectId(loja), "/x*", "https://loja*.example.com/*").await.unwrap();
        t.publish(loja, support::basic("<h1>Início</h1>")).await;
        let site = url::Url::parse("http://loja.localhost/").unwrap();
        let attacks = [
            "/go//evil.example",
            "/go///evil.example/login",
            "/go/%2Fevil.example",
            "/go/%2F%2Fevil.example",
            "/go/%2f/evil.example",
            "/go//%2Fevil.example",
            "/go/%5Cevil.example",
            "/go/%2F%5Cevil.example",
            "/go/%09/evil.example",
            "/go/https:%2F%2Fevil.example",
        ];
        let mut redirected = 0;
        for path in attacks {
            // Raw, so nothing between the test and the edge rewrites the path.
            let req = format!("GET {path} HTTP/1.1\r\nHost: loja.localhost\r\nConnection: close\r\n\r\n");
            let res = raw(t.edge.http_addr, req.as_bytes(), Duration::from_secs(5)).await;
            let status = status_of(&res);
            if !(300..400).contains(&status) {
                assert_eq!(status, 400, "{path}: {res:.300}");
                continue;
            }
            redirected += 1;
            let location = res
                .lines()
                .find_map(|l| l.strip_prefix("location: ").or_else(|| l.strip_prefix("Location: ")))
                .unwrap_or_else(|| panic!("{path}: no Location in {res:.300}"));
            assert!(!location.starts_with("//"), "{path} → {location}");
            let lands = site.join(location).unwrap();
            assert_eq!(lands.host_str(), Some("loja.localhost"), "{path} → {location}");
        }
        assert!(redirected >= 6, "the attacks reached the rule: {redirected}");
        let r = t.get("loja.localhost", "/x.evil.example/a").send().await.unwrap();
        assert_eq!(r.status(), 301);
        let to = url::Url::parse(r.headers()["location"].to_str().unwrap()).unwrap();
        assert_eq!(to.host_str(), Some("loja.example.com"), "{to}");
        t.edge.stop().await;
    }
}

/// The edge's count of connections it closed for `reason` (`idle`, `write_timeout`).
async fn closed_for(t: &TestEdge, reason: &str) -> u64 {
    t.metric(&format!(
        "vitrine_edge_connections_closed_total{{reason=\"{reason}\"}}"
    ))
    .await
}

/// Polls (every 20 ms, for at most 10 s) until the edge has closed `n` connections for
/// `reason`.
async fn until_closed_for(t: &TestEdge, reason: &str, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while closed_for(t, reason).await < n {
        assert!(
            Instant::now() < deadline,
            "no connection closed for {reason} within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

dual_test! {
    async fn an_idle_h2_connection_is_closed_even_while_it_answers_pings(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_idle_timeout_ms = 400).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        let tcp = TcpStream::connect(t.edge.http_addr).await.unwrap();
        // A real HTTP/2 client (h2c with prior knowledge): it answers the edge's pings and
        // its own connection task runs until the edge closes the connection.
        let (client, connection) = h2::client::handshake(tcp).await.unwrap();
        let ended = tokio::spawn(async move {
            let _ = connection.await;
        });
        let mut client = client.ready().await.unwrap();
        let request = hyper::Request::get("http://loja.localhost/").body(()).unwrap();
        let (response, _) = client.send_request(request, true).unwrap();
        let response = response.await.unwrap();
        assert_eq!(response.status(), 200);
        let mut body = response.into_body();
        while let Some(chunk) = body.data().await {
            chunk.unwrap();
        }
        // Now the client holds the connection, answers pings and sends nothing else.
        tokio::time::timeout(Duration::from_secs(10), ended)
            .await
            .expect("the edge kept an idle HTTP/2 connection open for 10 s")
            .unwrap();
        until_closed_for(&t, "idle", 1).await;
        assert_eq!(closed_for(&t, "write_timeout").await, 0);
        drop(client);
        // Other visitors are served as before.
        let (status, _) = t.text("loja.localhost", "/").await;
        assert_eq!(status, 200);
        t.edge.stop().await;
    }
}

/// An HTTP/2 request for `path` on `host` as raw frames: the preface, SETTINGS opening the
/// stream window wide, a WINDOW_UPDATE opening the connection's, and a HEADERS frame (HPACK
/// literals, no Huffman).
fn h2_get(host: &str, path: &str) -> Vec<u8> {
    fn frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
        out.extend_from_slice(&(payload.len() as u32).to_be_bytes()[1..]);
        out.extend_from_slice(&[kind, flags]);
        out.extend_from_slice(&stream.to_be_bytes());
        out.extend_from_slice(payload);
    }
    fn literal(block: &mut Vec<u8>, name_index: u8, value: &str) {
        assert!(value.len() < 127);
        block.extend_from_slice(&[name_index, value.len() as u8]);
        block.extend_from_slice(value.as_bytes());
    }
    let wide: u32 = 0x7fff_ffff;
    let mut out = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    // SETTINGS_INITIAL_WINDOW_SIZE
    let mut settings = vec![0, 4];
    settings.extend_from_slice(&wide.to_be_bytes());
    frame(&mut out, 0x4, 0, 0, &settings);
    frame(&mut out, 0x8, 0, 0, &(wide - 65_535).to_be_bytes());
    // :method GET and :scheme http from the static table, :path and :authority as literals.
    let mut block = vec![0x82, 0x86];
    literal(&mut block, 0x04, path);
    literal(&mut block, 0x01, host);
    // END_STREAM | END_HEADERS
    frame(&mut out, 0x1, 0x5, 1, &block);
    out
}

dual_test! {
    async fn an_h2_client_that_stops_reading_is_disconnected_by_the_write_timeout(db: TestDb) {
        let t = TestEdge::start_with(db, None, |s| s.edge_write_timeout_ms = 400).await;
        let loja = t.project("loja").await;
        let size = 16 * 1024 * 1024;
        let mut site = support::basic("<h1>Início</h1>");
        site.files.push(support::File {
            path: "/_assets/grande.bin".into(),
            content_type: "application/octet-stream".into(),
            body: bytes::Bytes::from(vec![7u8; size]),
            variants: false,
        });
        t.publish(loja, site).await;
        // A small receive buffer, so the edge's writes find the socket full quickly.
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(64 * 1024).unwrap();
        let mut s = socket.connect(t.edge.http_addr).await.unwrap();
        s.write_all(&h2_get("loja.localhost", "/_assets/grande.bin")).await.unwrap();
        // The client reads nothing from here on.
        until_closed_for(&t, "write_timeout", 1).await;
        // What reached the socket before the edge gave up is there to read, then the end: the
        // edge did not wait for the client.
        let mut received = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut received)).await;
        let read = read.expect("the connection is closed, so reading ends");
        assert!(
            read.is_ok() || read.as_ref().is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
            "{read:?}"
        );
        assert!(received.len() < size, "the edge delivered it all: {} bytes", received.len());
        // Other visitors are served as before.
        let (status, _) = t.text("loja.localhost", "/").await;
        assert_eq!(status, 200);
        t.edge.stop().await;
    }
}
