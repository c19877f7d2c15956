//! Request smuggling against the edge's HTTP/1.1 listeners (issue 23): the classic desyncs
//! (CL.TE, TE.CL, obfuscated Transfer-Encoding, duplicate Content-Length, obs-fold, bare LF
//! and CR, a body on a `GET`, a request hidden in a body), sent as raw bytes to the plain
//! listener and to the TLS listener (ALPN http/1.1), both the edge's own front
//! (`edge/src/h1.rs`, which refuses a body framed two ways) and then hyper, and the same bytes
//! to a real nginx serving the same pages.
//!
//! Each case's bytes are followed on the same connection by a sentinel request (`GET /sobre`,
//! `Connection: close`), as the next visitor's request would follow an attacker's through a
//! front proxy: the connection then ends by itself, and a request the server read differently
//! from a front proxy shows in the answers. Smuggled requests ask for `/smuggled` (a 404
//! wherever it is answered). For every case the edge must do one of the things RFC 9112
//! allows (the case's `allowed` outcomes, which nginx's own outcome is checked against too),
//! and do what nginx does or less: refuse, or give nginx's first answers and then close. A
//! case where RFC 9112 lets the edge answer what nginx refuses says why (`unlike_nginx`).

use std::{
    fmt::Write as _,
    net::SocketAddr,
    process::{Child, Command, Stdio},
    time::Duration,
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::Instant,
};

use crate::{
    listeners::{HOME, Io, Listeners, PLAIN_HOST, TLS_HOST},
    pebble::free_port,
};

/// A refusal: one 4xx or 5xx answer, then the connection closed.
const REFUSED: &[&str] = &["refused"];

struct Case {
    name: &'static str,
    /// The request bytes for a host.
    bytes: String,
    /// What RFC 9112 lets a server answer: each a list of the answers before the connection
    /// closed (the sentinel's is `200 sobre`).
    allowed: &'static [&'static [&'static str]],
    /// Why the edge may answer where nginx refuses, when RFC 9112 allows both.
    unlike_nginx: Option<&'static str>,
}

/// `head` with `Content-Length` set to the length of `body`, then `body`.
fn with_length(head: &str, body: &str) -> String {
    format!("{head}Content-Length: {}\r\n\r\n{body}", body.len())
}

/// A chunked body whose one chunk is `data`.
fn chunked(data: &str) -> String {
    format!("{:x}\r\n{data}\r\n0\r\n\r\n", data.len())
}

/// The cases for host `h`. Each carries its smuggled request (`GET /smuggled`, a 404) in a
/// `GET /` (`200 home`).
// One line per case: rustfmt would spread each over many.
#[rustfmt::skip]
fn cases(h: &str) -> Vec<Case> {
    let get = format!("GET / HTTP/1.1\r\nHost: {h}\r\n");
    let smuggled = format!("GET /smuggled HTTP/1.1\r\nHost: {h}\r\n\r\n");
    // CL.TE: a Content-Length reader takes the smuggled request as body; a chunked reader
    // ends the body at `0` and reads it as the next request, unless it closes.
    let cl_te = |te: &str| with_length(&format!("{get}Transfer-Encoding:{te}\r\n"), &format!("0\r\n\r\n{smuggled}"));
    // Read by Transfer-Encoding, then closed (RFC 9112 §6.3), or refused.
    let by_te: &[&[&str]] = &[REFUSED, &["200 home"]];
    let both: &[&[&str]] = &[REFUSED, &["200 home", "200 sobre"]];
    let case = |name, bytes, allowed| Case { name, bytes, allowed, unlike_nginx: None };
    // RFC 9112 §6.3 allows reading by Transfer-Encoding and closing (hyper does); the edge's
    // front refuses, as nginx does (`edge/src/h1.rs`, `ambiguous`).
    let framings = |name, bytes| case(name, bytes, by_te);
    vec![
        case("a plain GET (the baseline)", format!("{get}\r\n"), &[&["200 home", "200 sobre"]]),
        framings("CL.TE", cl_te(" chunked")),
        framings("TE.CL", format!("{get}Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n{}", chunked(&smuggled))),
        case("TE.TE: xchunked", cl_te(" xchunked"), &[REFUSED]),
        framings("TE.TE: \"  chunked\" (leading spaces)", cl_te("  chunked")),
        case("TE.TE: chunked, identity", cl_te(" chunked, identity"), &[REFUSED]),
        case("TE.TE: two Transfer-Encoding lines, chunked then identity", cl_te(" chunked\r\nTransfer-Encoding: identity"), &[REFUSED]),
        framings("TE.TE: two Transfer-Encoding lines, both chunked", cl_te(" chunked\r\nTransfer-Encoding: chunked")),
        case("TE.TE: \"Transfer-Encoding : chunked\" (space before the colon)", with_length(&format!("{get}Transfer-Encoding : chunked\r\n"), &format!("0\r\n\r\n{smuggled}")), &[REFUSED]),
        case("two Content-Length values", format!("{get}Content-Length: 0\r\nContent-Length: {}\r\n\r\n{smuggled}", smuggled.len()), &[REFUSED]),
        case("two equal Content-Length lines", format!("{get}Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello"), both),
        case("obs-fold hiding Transfer-Encoding", with_length(&format!("{get}X-Dobra: a\r\n Transfer-Encoding: chunked\r\n"), &format!("0\r\n\r\n{smuggled}")), both),
        case("obs-fold (a tab)", format!("{get}X-Dobra: a\r\n\tb\r\n\r\n"), both),
        case("bare LF line ends", format!("GET / HTTP/1.1\nHost: {h}\n\n"), both),
        case("a bare CR in the request line", format!("GET / HTTP/1.1\r{smuggled}"), &[REFUSED]),
        case("a GET whose Content-Length body is a request", with_length(&get, &smuggled), both),
        // A server may answer before it has read the body, and close instead of reading it.
        case("a GET whose chunked body is a request", format!("{get}Transfer-Encoding: chunked\r\n\r\n{}", chunked(&smuggled)), &[REFUSED, &["200 home"], &["200 home", "200 sobre"]]),
        Case {
            unlike_nginx: Some("hyper answers a GET before it reads the body, then closes at the bad chunk size; nginx reads the body first"),
            ..case("a chunk size past 64 bits", format!("{get}Transfer-Encoding: chunked\r\n\r\n1{}\r\n{smuggled}", "0".repeat(16)), by_te)
        },
    ]
}

/// What came back before the connection closed: each answer's status with `home` or `sobre`
/// when its body is that page.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Answers {
    answers: Vec<String>,
    /// The connection stayed open past the wait: the server waits for bytes that will not
    /// come.
    stalled: bool,
}

impl Answers {
    fn refused(&self) -> bool {
        matches!(self.answers.as_slice(), [one] if one.starts_with('4') || one.starts_with('5'))
            && !self.stalled
    }

    /// `refused`, or the answers.
    fn class(&self) -> String {
        match (self.refused(), self.stalled) {
            (true, _) => "refused".into(),
            (false, false) => self.answers.join(", "),
            (false, true) => format!("{}, then stalled", self.answers.join(", ")),
        }
    }

    fn allowed_by(&self, case: &Case) -> bool {
        let class = if self.refused() {
            REFUSED.iter().map(|s| s.to_string()).collect()
        } else {
            self.answers.clone()
        };
        !self.stalled && case.allowed.iter().any(|a| *a == class.as_slice())
    }
}

/// Sends `bytes` and the sentinel, then reads answers until the connection closes (or 5 s).
async fn exchange(mut io: Box<dyn Io>, host: &str, bytes: &str) -> Answers {
    let all = format!("{bytes}GET /sobre HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    // A server that refuses may close before it has read everything.
    let _ = io.write_all(all.as_bytes()).await;
    let _ = io.flush().await;
    let mut buf = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(5);
    let stalled = loop {
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout_at(deadline, io.read(&mut chunk)).await {
            Err(_) => break true,
            Ok(Ok(0) | Err(_)) => break false,
            Ok(Ok(n)) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    Answers {
        answers: parse_answers(&buf),
        stalled,
    }
}

/// The answers in `buf`, each `{status}` plus ` home`/` sobre` when its body is that page.
fn parse_answers(mut buf: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    while !buf.is_empty() {
        let mut slots = [httparse::EMPTY_HEADER; 64];
        let mut res = httparse::Response::new(&mut slots);
        let Ok(httparse::Status::Complete(n)) = res.parse(buf) else {
            out.push(format!("garbage: {:?}", String::from_utf8_lossy(buf)));
            break;
        };
        let status = res.code.unwrap_or_default();
        let header = |name: &str| {
            res.headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).to_string())
        };
        let (body, rest) = if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            dechunk(&buf[n..])
        } else {
            let len: usize = header("content-length").map_or(0, |v| v.trim().parse().unwrap());
            let end = (n + len).min(buf.len());
            (buf[n..end].to_vec(), &buf[end..])
        };
        let page = if body == HOME.as_bytes() {
            " home"
        } else if String::from_utf8_lossy(&body).contains("Sobre nós") {
            " sobre"
        } else {
            ""
        };
        out.push(format!("{status}{page}"));
        buf = rest;
    }
    out
}

/// A chunked body's bytes and what follows it.
fn dechunk(mut buf: &[u8]) -> (Vec<u8>, &[u8]) {
    let mut body = Vec::new();
    while let Some(eol) = buf.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(std::str::from_utf8(&buf[..eol]).unwrap_or("0"), 16).unwrap_or(0);
        buf = &buf[eol + 2..];
        if size == 0 {
            return (body, buf.get(2..).unwrap_or_default());
        }
        let take = size.min(buf.len());
        body.extend_from_slice(&buf[..take]);
        buf = buf.get(take + 2..).unwrap_or_default();
    }
    (body, buf)
}

/// A real nginx (Debian's nginx-light) in the foreground on a free loopback port, serving the
/// edge's two pages as static files; killed when dropped.
struct Nginx {
    addr: SocketAddr,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Nginx {
    fn start() -> Nginx {
        let bin = ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .expect(
                "nginx is missing: install Debian's nginx-light (apt-get install nginx-light; \
                 scripts/test.sh does) to run the smuggling comparison",
            );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let www = d.join("www");
        std::fs::create_dir(&www).unwrap();
        std::fs::write(www.join("index.html"), HOME).unwrap();
        std::fs::write(www.join("sobre"), "<h1>Sobre nós</h1>").unwrap();
        // Readable by nginx's workers when it runs as root (they drop to `nobody`).
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        let port = free_port();
        let temp: String = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
            .iter()
            .map(|t| format!("  {t}_temp_path {}/{t};\n", d.display()))
            .collect();
        let config = format!(
            "worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\ndaemon off;\n\
             events {{ worker_connections 64; }}\n\
             http {{\n  access_log off;\n  default_type text/html;\n{temp}\
               server {{\n    listen 127.0.0.1:{port};\n    root {www};\n\
                 location / {{ try_files $uri $uri/index.html =404; }}\n  }}\n}}\n",
            d = d.display(),
            www = www.display(),
        );
        std::fs::write(d.join("nginx.conf"), config).unwrap();
        let child = Command::new(bin)
            .arg("-p")
            .arg(d)
            .arg("-e")
            .arg(d.join("error.log"))
            .arg("-c")
            .arg(d.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start nginx");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            let log = std::fs::read_to_string(d.join("error.log")).unwrap_or_default();
            assert!(
                std::time::Instant::now() < deadline,
                "nginx did not start: {log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Nginx {
            addr,
            child,
            _dir: dir,
        }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smuggled_requests_are_refused_or_read_as_rfc_9112_reads_them_and_as_nginx_does() {
    let nginx = Nginx::start();
    let edge = Listeners::start().await;
    let mut table =
        String::from("| case | edge plain | edge TLS (http/1.1) | nginx |\n|---|---|---|---|\n");
    let mut failures = Vec::new();
    let mut notes: Vec<&str> = Vec::new();
    let (plain_cases, tls_cases) = (cases(PLAIN_HOST), cases(TLS_HOST));
    for (case, tls_case) in plain_cases.iter().zip(&tls_cases) {
        let plain = exchange(Box::new(edge.plain().await), PLAIN_HOST, &case.bytes).await;
        let tls = exchange(
            Box::new(edge.tls(b"http/1.1").await),
            TLS_HOST,
            &tls_case.bytes,
        )
        .await;
        let tcp = TcpStream::connect(nginx.addr).await.unwrap();
        let reference = exchange(Box::new(tcp), PLAIN_HOST, &case.bytes).await;
        if !reference.allowed_by(case) {
            failures.push(format!("{}: nginx: {}", case.name, reference.class()));
        }
        for (listener, a) in [("plain", &plain), ("TLS", &tls)] {
            let allowed = case.allowed;
            if !a.allowed_by(case) {
                failures.push(format!(
                    "{} ({listener}): {} (RFC 9112: {allowed:?})",
                    case.name,
                    a.class()
                ));
            }
            // As nginx, or less: a refusal, or nginx's first answers and then the close.
            let prefix = !a.stalled && reference.answers.starts_with(&a.answers);
            let as_nginx = a.refused() || a.class() == reference.class() || prefix;
            if !as_nginx && case.unlike_nginx.is_none() {
                failures.push(format!(
                    "{} ({listener}): {}; nginx: {}",
                    case.name,
                    a.class(),
                    reference.class()
                ));
            }
        }
        let mark = match case.unlike_nginx {
            Some(why) => {
                if !notes.contains(&why) {
                    notes.push(why);
                }
                format!(" ({})", notes.iter().position(|n| *n == why).unwrap() + 1)
            }
            None => String::new(),
        };
        let _ = writeln!(
            table,
            "| {}{mark} | {} | {} | {} |",
            case.name,
            plain.class(),
            tls.class(),
            reference.class()
        );
    }
    for (n, note) in notes.iter().enumerate() {
        let _ = writeln!(table, "\n({}) {note}", n + 1);
    }
    println!("{table}");
    assert!(failures.is_empty(), "{}\n\n{table}", failures.join("\n"));
    edge.t.edge.stop().await;
}
