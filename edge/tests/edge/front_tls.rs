//! The HTTP/1.1 front over TLS (`edge/src/h1.rs` on connections that chose `http/1.1`, or no
//! protocol, by ALPN): its answers equal hyper's byte for byte (but the date), an HSTS site's
//! header included; h2 connections never meet it; and `EDGE_PLAIN_FRONT=false` hands every
//! connection, plain and TLS, to hyper with the same answers. The database is not what these
//! test, so they run on SQLite only.

use std::{sync::Arc, time::Duration};

use rustls::pki_types::{CertificateDer, ServerName, pem::PemObject};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_rustls::{TlsConnector, client::TlsStream};
use vitrine_shared::ids::ProjectId;
use vitrine_shared::testing::{Backend, TestDb};

use crate::{
    front::{Answer, closing_answer, front_answers, next, until_closed, without_date},
    hot::route_hits,
    support::TestEdge,
};

const NAME: &str = "seguro.test";

/// An edge with one visitor thread (one set of hot routes) serving `loja` at [`NAME`] over TLS,
/// opted into HSTS when `hsts`; the client configuration trusting its certificate, and the
/// certificate.
async fn tls_edge(front: bool, hsts: bool) -> (TestEdge, rustls::ClientConfig, String) {
    let db = TestDb::new(Backend::Sqlite).await;
    let t = TestEdge::start_with(db, None, |s| {
        s.edge_workers = 1;
        s.edge_plain_front = front;
    })
    .await;
    let home = "<h1>Início</h1><p>".to_string() + &"conteúdo ".repeat(2000) + "</p>";
    let loja = t.simple_site("loja", &home).await;
    t.db.store
        .mark_domain_verified(ProjectId(loja), NAME)
        .await
        .unwrap();
    if hsts {
        let mut meta =
            t.db.store
                .project_by_id(ProjectId(loja))
                .await
                .unwrap()
                .meta
                .0;
        meta["hsts"] = serde_json::json!(true);
        let changes = vitrine_shared::store::ProjectChanges {
            meta: Some(meta),
            ..Default::default()
        };
        t.db.store
            .update_project(ProjectId(loja), &changes)
            .await
            .unwrap();
    }
    let pem = crate::tls::stored_certificate(&t, loja, NAME).await;
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(pem.as_bytes()).unwrap())
        .unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    (t, config, pem)
}

async fn connect(
    t: &TestEdge,
    config: &rustls::ClientConfig,
    alpn: &[&[u8]],
) -> TlsStream<TcpStream> {
    let mut config = config.clone();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    let tcp = TcpStream::connect(t.edge.https_addr).await.unwrap();
    TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from(NAME).unwrap(), tcp)
        .await
        .unwrap()
}

fn get(path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {NAME}\r\n{extra}\r\n")
}

/// One request on a new TLS connection offering `alpn`, and its answer.
async fn ask(t: &TestEdge, config: &rustls::ClientConfig, alpn: &[&[u8]], request: &str) -> Answer {
    let mut s = connect(t, config, alpn).await;
    s.write_all(request.as_bytes()).await.unwrap();
    let head = request.starts_with("HEAD");
    next(&mut s, &mut Vec::new(), head).await
}

/// Asks `/` over TLS until the visitor thread's TLS hot routes hold it (HSTS reaches the edge
/// through the change feed, so the answer must also carry it when `hsts`). The feed is read
/// to its end first: a change applied later (the certificate's) would move the hot epoch and
/// send the next request down the slow path.
async fn settle_tls(t: &TestEdge, config: &rustls::ClientConfig, hsts: bool) {
    t.feed_applied().await;
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let hits = route_hits(t).await;
        let a = ask(t, config, &[b"http/1.1"], &get("/", "")).await;
        assert_eq!(a.status, 200);
        if route_hits(t).await > hits && a.header("strict-transport-security").is_some() == hsts {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "/ never answered hot over TLS"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_the_front_answers_byte_for_byte_what_hyper_answers() {
    for hsts in [true, false] {
        let (t, config, pem) = tls_edge(true, hsts).await;
        settle_tls(&t, &config, hsts).await;
        let tag = ask(&t, &config, &[b"http/1.1"], &get("/", "")).await;
        let tag = tag.header("etag").unwrap().to_string();
        let inm = format!("If-None-Match: {tag}\r\n");
        let cases: [(&str, &str); 8] = [
            ("GET", ""),
            ("HEAD", ""),
            ("GET", "Accept-Encoding: gzip, br\r\n"),
            ("GET", &inm),
            ("GET", "Range: bytes=5-20\r\n"),
            ("GET", "Range: bytes=999999-\r\n"),
            // Answered with `connection: close` beside HSTS, then closed (with close_notify).
            ("GET", "Connection: close\r\n"),
            ("HEAD", "Connection: close\r\n"),
        ];
        for (method, extra) in cases {
            let request = get("/", extra).replacen("GET", method, 1);
            // A body header: the front leaves it to hyper, which answers from the same route.
            let via_hyper = request.replacen("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1);
            // A representation no request asked for yet is loaded by the first that does (the
            // full path); it fills the hot route the ones below are answered from.
            let mut answers = vec![ask(&t, &config, &[b"http/1.1"], &request).await];
            // ALPN http/1.1, and no ALPN at all: both HTTP/1.1 through the front.
            for alpn in [&[&b"http/1.1"[..]][..], &[]] {
                for (r, by_front) in [(&request, 1), (&via_hyper, 0)] {
                    let (before, hits) = (front_answers(&t).await, route_hits(&t).await);
                    answers.push(ask(&t, &config, alpn, r).await);
                    assert_eq!(
                        front_answers(&t).await,
                        before + by_front,
                        "{method} {extra:?}"
                    );
                    assert_eq!(route_hits(&t).await, hits + 1, "{method} {extra:?}: hot");
                }
            }
            assert!(
                answers.windows(2).all(|w| w[0] == w[1]),
                "{method} {extra:?}: {answers:#?}"
            );
            let hsts_sent = answers[0].header("strict-transport-security");
            assert_eq!(
                hsts_sent,
                hsts.then_some("max-age=31536000"),
                "{method} {extra:?}"
            );
        }
        // h2 never meets the front.
        let before = front_answers(&t).await;
        let client = reqwest::Client::builder()
            .tls_certs_only([reqwest::Certificate::from_pem(pem.as_bytes()).unwrap()])
            .resolve(NAME, t.edge.https_addr)
            .build()
            .unwrap();
        let url = format!("https://{NAME}:{}/", t.edge.https_addr.port());
        let r = client.get(&url).send().await.unwrap();
        assert_eq!(
            (r.status().as_u16(), r.version()),
            (200, reqwest::Version::HTTP_2)
        );
        assert_eq!(front_answers(&t).await, before);
        t.edge.stop().await;
    }
}

/// HSTS beside a length (its own for `HEAD`, computed for `GET`) and `connection: close`: the
/// front writes the headers in hyper's order, not only the same set; an answer that closes
/// ends with close_notify.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tls_with_hsts_the_front_writes_hypers_header_order() {
    let (t, config, _) = tls_edge(true, true).await;
    settle_tls(&t, &config, true).await;
    let cases = [
        ("GET", "Connection: close\r\n"),
        ("HEAD", "Connection: close\r\n"),
        ("HEAD", ""),
    ];
    for (method, extra) in cases {
        let request = get("/", extra).replacen("GET", method, 1);
        let via_hyper = request.replacen("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1);
        let mut answers = Vec::new();
        for (r, by_front) in [(&request, 1), (&via_hyper, 0)] {
            let before = front_answers(&t).await;
            let mut s = connect(&t, &config, &[b"http/1.1"]).await;
            s.write_all(r.as_bytes()).await.unwrap();
            let answer = if extra.is_empty() {
                // A `HEAD` on a kept connection: the head is the whole answer.
                let mut raw = Vec::new();
                let mut chunk = [0u8; 4096];
                while !raw.ends_with(b"\r\n\r\n") {
                    let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut chunk))
                        .await
                        .expect("an answer within 5 s")
                        .unwrap();
                    assert!(n > 0, "closed early");
                    raw.extend_from_slice(&chunk[..n]);
                }
                without_date(&String::from_utf8_lossy(&raw))
            } else {
                // read_to_end succeeds only on close_notify: a TLS stream cut short is an error.
                closing_answer(&until_closed(&mut s, Duration::from_secs(5)).await.1)
            };
            assert_eq!(
                front_answers(&t).await,
                before + by_front,
                "{method} {extra:?}"
            );
            assert!(
                answer.contains("\r\nstrict-transport-security: "),
                "{answer}"
            );
            answers.push(answer);
        }
        assert_eq!(answers[0], answers[1], "{method} {extra:?}");
    }
    t.edge.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_front_off_hyper_serves_every_connection_the_same_answers() {
    let mut answers = Vec::new();
    for front in [true, false] {
        let (t, config, _) = tls_edge(front, false).await;
        settle_tls(&t, &config, false).await;
        let before = front_answers(&t).await;
        let tls = ask(&t, &config, &[b"http/1.1"], &get("/", "")).await;
        let mut s = TcpStream::connect(t.edge.http_addr).await.unwrap();
        let plain = "GET /sobre HTTP/1.1\r\nHost: loja.localhost\r\n\r\n";
        s.write_all(plain.as_bytes()).await.unwrap();
        let plain = next(&mut s, &mut Vec::new(), false).await;
        assert_eq!((tls.status, plain.status), (200, 200));
        let answered = front_answers(&t).await - before;
        assert_eq!(answered, if front { 2 } else { 0 }, "front {front}");
        answers.push((tls, plain));
        t.edge.stop().await;
    }
    assert_eq!(answers[0].0.body, answers[1].0.body);
    assert_eq!(answers[0].1.body, answers[1].1.body);
}
