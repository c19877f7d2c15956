//! The plain HTTP/1.1 front (`edge/src/h1.rs`), on raw sockets: `GET`s and `HEAD`s answered
//! without hyper, byte for byte as hyper answers them, hot or not; everything else, and the
//! rest of the connection after it, handed to hyper; slow, idle and shut-down connections
//! closed.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use vitrine_shared::{dual_test, testing::TestDb};

use crate::{
    hot::{route_hits, settle},
    support::TestEdge,
};

/// An edge with one visitor thread: each thread keeps its own hot routes, so with one, a
/// route made hot on any connection is hot on every other.
async fn one_thread(db: TestDb, header_timeout_ms: u64) -> TestEdge {
    TestEdge::start_with(db, None, |s| {
        s.edge_workers = 1;
        s.edge_header_timeout_ms = header_timeout_ms;
    })
    .await
}

/// One response read off a connection: status, head lines (but `date`, sorted) and body.
#[derive(Debug, PartialEq)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) lines: Vec<String>,
    pub(crate) body: Vec<u8>,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.lines.iter().find_map(|l| {
            let (n, v) = l.split_once(": ")?;
            n.eq_ignore_ascii_case(name).then_some(v)
        })
    }
}

/// Reads the next response from `s` (`buf` keeps what was read past it). `bodiless`: the
/// answer to a `HEAD`, whose `content-length` names a body that is not sent.
pub(crate) async fn next<S: AsyncRead + Unpin>(
    s: &mut S,
    buf: &mut Vec<u8>,
    bodiless: bool,
) -> Answer {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut slots = [httparse::EMPTY_HEADER; 64];
        let mut res = httparse::Response::new(&mut slots);
        if let httparse::Status::Complete(n) = res.parse(buf).unwrap() {
            let status = res.code.unwrap();
            let mut lines: Vec<String> = res
                .headers
                .iter()
                .filter(|h| !h.name.eq_ignore_ascii_case("date"))
                .map(|h| format!("{}: {}", h.name, String::from_utf8_lossy(h.value)))
                .collect();
            lines.sort();
            let dates = res.headers.iter().filter(|h| h.name == "date").count();
            assert_eq!(dates, 1, "one date header: {lines:?}");
            let lengths = lines
                .iter()
                .filter(|l| l.starts_with("content-length:"))
                .count();
            assert!(lengths <= 1, "one content-length at most: {lines:?}");
            let len = match lines
                .iter()
                .find_map(|l| l.strip_prefix("content-length: "))
            {
                Some(v) if !bodiless && status != 304 => v.parse::<usize>().unwrap(),
                _ => 0,
            };
            while buf.len() < n + len {
                read_more(s, buf, deadline).await;
            }
            let body = buf[n..n + len].to_vec();
            buf.drain(..n + len);
            return Answer {
                status,
                lines,
                body,
            };
        }
        read_more(s, buf, deadline).await;
    }
}

async fn read_more<S: AsyncRead + Unpin>(s: &mut S, buf: &mut Vec<u8>, deadline: Instant) {
    let mut chunk = [0u8; 16 * 1024];
    let n = tokio::time::timeout_at(deadline.into(), s.read(&mut chunk))
        .await
        .expect("no answer within 5 s")
        .unwrap();
    assert!(
        n > 0,
        "connection closed mid-answer: {}",
        String::from_utf8_lossy(buf)
    );
    buf.extend_from_slice(&chunk[..n]);
}

/// Reads until the edge closes the connection; returns how long that took and what came.
pub(crate) async fn until_closed<S: AsyncRead + Unpin>(
    s: &mut S,
    limit: Duration,
) -> (Duration, Vec<u8>) {
    let start = Instant::now();
    let mut rest = Vec::new();
    tokio::time::timeout(limit, s.read_to_end(&mut rest))
        .await
        .expect("the edge kept the connection open")
        .unwrap();
    (start.elapsed(), rest)
}

/// The one answer of a connection the edge closed after it, as text with the date's value
/// blanked: the bytes in order, so that header order counts.
pub(crate) fn closing_answer(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw).to_string();
    assert_eq!(
        text.matches("HTTP/1.1 ").count(),
        1,
        "one answer, then closed: {text}"
    );
    assert!(text.contains("\r\nconnection: close\r\n"), "{text}");
    without_date(&text)
}

/// `text` with the date header's value blanked.
pub(crate) fn without_date(text: &str) -> String {
    let start = text.find("\r\ndate: ").expect("a date") + 8;
    let end = start + text[start..].find("\r\n").unwrap();
    format!("{}-{}", &text[..start], &text[end..])
}

pub(crate) async fn front_answers(t: &TestEdge) -> u64 {
    t.metric("vitrine_edge_front_answers_total").await
}

fn get(path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: loja.localhost\r\n{extra}\r\n")
}

dual_test! {
    async fn pipelined_hot_requests_are_answered_in_order_and_the_rest_goes_to_hyper(db: TestDb) {
        let t = one_thread(db, 10_000).await;
        let home = "<h1>Bem-vindo à Loja</h1><p>0123456789</p>";
        t.simple_site("loja", home).await;
        settle(&t, "loja.localhost", "/").await;
        settle(&t, "loja.localhost", "/sobre").await;
        let tag = t.get("loja.localhost", "/").send().await.unwrap().headers()["etag"]
            .to_str()
            .unwrap()
            .to_string();
        let (front_before, hits_before) = (front_answers(&t).await, route_hits(&t).await);

        // Seven requests in one write: four hot ones and a page no hot route holds, which the
        // front answers; then one with a body header, which hands the connection to hyper,
        // which answers it and the last from the hot routes.
        let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
        let requests = [
            get("/", ""),
            get("/sobre", "").replacen("GET", "HEAD", 1),
            get("/", &format!("If-None-Match: {tag}\r\n")),
            get("/", "Range: bytes=0-3\r\nAccept: */*\r\nUser-Agent: test\r\n"),
            get("/nao-existe", ""),
            get("/sobre", "Content-Length: 0\r\n"),
            get("/", "Connection: keep-alive\r\n"),
        ];
        s.write_all(requests.concat().as_bytes()).await.unwrap();
        let mut buf = Vec::new();
        let a = next(&mut s, &mut buf, false).await;
        assert_eq!((a.status, a.body.as_slice()), (200, home.as_bytes()));
        let head = next(&mut s, &mut buf, true).await;
        assert_eq!(head.status, 200);
        assert_eq!(head.header("content-length"), Some("19"), "{head:?}");
        let not_modified = next(&mut s, &mut buf, false).await;
        assert_eq!(not_modified.status, 304);
        assert_eq!(not_modified.header("content-length"), None);
        assert_eq!(not_modified.header("etag"), Some(tag.as_str()));
        let range = next(&mut s, &mut buf, false).await;
        assert_eq!((range.status, range.body.as_slice()), (206, &b"<h1>"[..]));
        assert_eq!(range.header("content-range"), Some(format!("bytes 0-3/{}", home.len()).as_str()));
        let missing = next(&mut s, &mut buf, false).await;
        assert_eq!(missing.status, 404);
        assert!(String::from_utf8_lossy(&missing.body).contains("Página perdida da Loja"));
        let about = next(&mut s, &mut buf, false).await;
        assert_eq!((about.status, about.body.as_slice()), (200, "<h1>Sobre nós</h1>".as_bytes()));
        let again = next(&mut s, &mut buf, false).await;
        assert_eq!((again.status, again.body.as_slice()), (200, home.as_bytes()));
        assert!(buf.is_empty(), "nothing after the seven answers");

        assert_eq!(front_answers(&t).await, front_before + 5, "the front answered the first five");
        assert_eq!(route_hits(&t).await, hits_before + 6, "six came from the hot routes");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn the_front_answers_byte_for_byte_what_hyper_answers(db: TestDb) {
        let t = one_thread(db, 10_000).await;
        let home = "<h1>Início</h1><p>".to_string() + &"conteúdo ".repeat(300) + "</p>";
        t.simple_site("loja", &home).await;
        settle(&t, "loja.localhost", "/").await;
        let tag = t.get("loja.localhost", "/").send().await.unwrap().headers()["etag"]
            .to_str()
            .unwrap()
            .to_string();
        let inm = format!("If-None-Match: {tag}\r\n");
        let cases: [(&str, &str); 8] = [
            ("GET", ""),
            ("HEAD", ""),
            ("GET", "Accept-Encoding: gzip, br\r\n"),
            ("HEAD", "Accept-Encoding: gzip\r\n"),
            ("GET", &inm),
            ("GET", "Range: bytes=5-20\r\n"),
            ("GET", "Range: bytes=999999-\r\n"),
            ("GET", "Range: bytes=0-3\r\nIf-Range: \"old\"\r\n"),
        ];
        for (method, extra) in cases {
            let request = get("/", extra).replacen("GET", method, 1);
            // `Content-Length: 0` is a body header: the front leaves such a request to hyper,
            // which answers it from the same hot route.
            let via_hyper = request.replacen("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1);
            // A representation no request asked for yet is loaded by the first that does (the
            // full path); it fills the hot route the two below are answered from.
            let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
            s.write_all(request.as_bytes()).await.unwrap();
            let mut answers = vec![next(&mut s, &mut Vec::new(), method == "HEAD").await];
            for (r, by_front) in [(&request, 1), (&via_hyper, 0)] {
                let (before, hits) = (front_answers(&t).await, route_hits(&t).await);
                let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
                s.write_all(r.as_bytes()).await.unwrap();
                let mut buf = Vec::new();
                answers.push(next(&mut s, &mut buf, method == "HEAD").await);
                assert_eq!(front_answers(&t).await, before + by_front, "{method} {extra:?}");
                assert_eq!(route_hits(&t).await, hits + 1, "{method} {extra:?}: answered hot");
                // Nothing but the answer: no stray body after a HEAD or a 304.
                s.write_all(get("/sobre", "").as_bytes()).await.unwrap();
                let after = next(&mut s, &mut buf, false).await;
                assert_eq!(after.body, b"<h1>Sobre n\xc3\xb3s</h1>", "{method} {extra:?}");
                assert!(buf.is_empty());
            }
            assert!(answers.windows(2).all(|w| w[0] == w[1]), "{method} {extra:?}: {answers:#?}");
        }
        t.edge.stop().await;
    }
}

dual_test! {
    async fn the_front_answers_the_full_path_as_hyper_does_and_fills_the_hot_routes(db: TestDb) {
        let t = one_thread(db, 10_000).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        settle(&t, "loja.localhost", "/").await;
        // Each host spelling is new to the hot routes: the first answer goes the full path.
        let cases = [
            ("LOJA.localhost", "/"),
            ("Loja.localhost", "/sobre"),
            ("lOja.localhost", "/nao-existe"),
            ("loJa.localhost", "/sobre/../x"),
            ("lojA.localhost", "/healthz"),
            ("outra.localhost", "/"),
            ("127.0.0.1", "/"),
        ];
        for (host, path) in cases {
            let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n");
            let via_hyper = request.replacen("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1);
            let mut answers = Vec::new();
            // One connection, so one visitor thread (each keeps its own hot routes): the front
            // answers the first, hyper the second.
            let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
            for r in [&request, &via_hyper] {
                let (before, hits) = (front_answers(&t).await, route_hits(&t).await);
                s.write_all(r.as_bytes()).await.unwrap();
                answers.push(next(&mut s, &mut Vec::new(), false).await);
                let front = u64::from(r == &request);
                assert_eq!(front_answers(&t).await, before + front, "{host}{path}");
                if answers[0].status == 200 && path != "/healthz" {
                    // The front's full-path answer filled the hot route hyper then used.
                    assert_eq!(route_hits(&t).await, hits + 1 - front, "{host}{path}");
                }
            }
            assert_eq!(answers[0], answers[1], "{host}{path}");
        }
        t.edge.stop().await;
    }
}

dual_test! {
    async fn requests_the_front_does_not_take_are_served_by_hyper(db: TestDb) {
        let t = one_thread(db, 10_000).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        settle(&t, "loja.localhost", "/").await;
        let before = front_answers(&t).await;
        let requests = [
            // HTTP/1.0, absolute form, two hosts (RFC 9112: 400), a body, a chunked one, and
            // a `Connection` with another token.
            "GET / HTTP/1.0\r\nHost: loja.localhost\r\n\r\n".to_string(),
            "GET http://loja.localhost/ HTTP/1.1\r\nHost: loja.localhost\r\n\r\n".to_string(),
            get("/", "Host: outra.localhost\r\n"),
            "POST / HTTP/1.1\r\nHost: loja.localhost\r\nContent-Length: 3\r\n\r\nabc".to_string(),
            get("/", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n",
            get("/", "Connection: close, te\r\n"),
        ];
        let expected = [200, 200, 400, 405, 200, 200];
        for (request, status) in requests.iter().zip(expected) {
            let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
            s.write_all(request.as_bytes()).await.unwrap();
            let mut buf = Vec::new();
            let a = next(&mut s, &mut buf, false).await;
            assert_eq!(a.status, status, "{request:?}: {a:?}");
        }
        assert_eq!(front_answers(&t).await, before, "none of these went through the front");
        t.edge.stop().await;
    }
}

dual_test! {
    async fn the_front_closes_slow_and_idle_connections_and_does_not_hold_up_a_shutdown(db: TestDb) {
        let t = one_thread(db, 300).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        settle(&t, "loja.localhost", "/").await;
        // After a hot answer: idle, and a second head that stalls halfway.
        for trailer in ["", "GET / HTTP/1.1\r\nHo"] {
            let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
            s.write_all((get("/", "") + trailer).as_bytes()).await.unwrap();
            let mut buf = Vec::new();
            assert_eq!(next(&mut s, &mut buf, false).await.status, 200);
            let (took, rest) = until_closed(&mut s, Duration::from_secs(5)).await;
            assert!(took >= Duration::from_millis(200), "closed too early: {took:?}");
            assert!(buf.is_empty() && rest.is_empty(), "nothing more was answered");
        }
        t.edge.stop().await;

        // A minute's header timeout: only the shutdown can close this idle connection.
        let db = TestDb::new(vitrine_shared::testing::Backend::Sqlite).await;
        let t = one_thread(db, 60_000).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        settle(&t, "loja.localhost", "/").await;
        let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
        s.write_all(get("/", "").as_bytes()).await.unwrap();
        let mut buf = Vec::new();
        assert_eq!(next(&mut s, &mut buf, false).await.status, 200);
        let start = Instant::now();
        t.edge.stop().await;
        assert!(start.elapsed() < Duration::from_secs(5), "stop waited {:?}", start.elapsed());
        let (_, rest) = until_closed(&mut s, Duration::from_secs(1)).await;
        assert!(rest.is_empty());
    }
}

dual_test! {
    async fn a_request_that_asks_to_close_is_answered_by_the_front_as_hyper_answers_it_then_closed(
        db: TestDb,
    ) {
        let t = one_thread(db, 10_000).await;
        t.simple_site("loja", "<h1>Início</h1>").await;
        settle(&t, "loja.localhost", "/").await;
        // Hot and held, hot without a body, another coding, the full path, the health check.
        let cases = [
            ("GET", "/", ""),
            ("HEAD", "/", ""),
            ("GET", "/", "Accept-Encoding: gzip\r\n"),
            ("GET", "/nao-existe", ""),
            ("GET", "/healthz", ""),
        ];
        for (method, path, extra) in cases {
            let request = get(path, &format!("{extra}Connection: close\r\n")).replacen("GET", method, 1);
            // `Content-Length: 0` leaves it to hyper.
            let via_hyper = request.replacen("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1);
            let mut answers = Vec::new();
            for (r, by_front) in [(&request, 1), (&via_hyper, 0)] {
                let before = front_answers(&t).await;
                let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
                s.write_all(r.as_bytes()).await.unwrap();
                let (_, raw) = until_closed(&mut s, Duration::from_secs(5)).await;
                assert_eq!(front_answers(&t).await, before + by_front, "{method} {path} {extra:?}");
                answers.push(closing_answer(&raw));
            }
            assert_eq!(answers[0], answers[1], "{method} {path} {extra:?}");
        }
        t.edge.stop().await;
    }
}
