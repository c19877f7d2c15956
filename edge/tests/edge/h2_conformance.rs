//! HTTP/2 conformance of the edge's visitor listeners (issue 23): h2spec's cases that matter,
//! as a table, each run against three servers with the raw-frame client of [`h2_frames`]:
//! the edge's h2 over TLS (ALPN h2), the edge's h2c (prior knowledge on the plain listener)
//! and a bare hyper h2 server started here (`hyper::server::conn::http2`, default settings,
//! answering the same page). Every case asserts what RFC 9113 requires of each, and that the
//! edge did exactly what hyper's own server did, so tuning the edge's h2 settings or its
//! listeners cannot quietly change its protocol behaviour.
//!
//! Adding a case is one line in [`cases`]; a case that needs more than "these frames after
//! the handshake" is a small function beside it.

use std::{convert::Infallible, fmt::Write as _, net::SocketAddr};

use bytes::Bytes;
use futures::future::BoxFuture;
use h2::Reason;
use http_body_util::Full;
use hyper::{Response, service::service_fn};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::{TcpListener, TcpStream};

use crate::{
    h2_frames::{
        ACK, CONTINUATION, Client, DATA, ENABLE_PUSH, END_HEADERS, END_STREAM, HEADERS,
        INITIAL_WINDOW_SIZE, MAX_CONCURRENT_STREAMS, MAX_FRAME_SIZE, Outcome, PING, PREFACE,
        PRIORITY, RST_STREAM, SETTINGS, frame, settings, window_update,
    },
    listeners::{HOME, Listeners, PLAIN_HOST, TLS_HOST},
};

/// How a case drives its connection.
enum Drive {
    /// The handshake, then these frames.
    Frames(fn(&mut Client) -> Vec<u8>),
    /// Everything its own way, handshake included.
    Custom(for<'a> fn(&'a mut Client) -> BoxFuture<'a, ()>),
}

/// What RFC 9113 requires the server to do.
enum Expect {
    /// A connection error: GOAWAY with this code, then the connection closed (§5.4.1).
    Conn(Reason),
    /// A stream error on this stream: RST_STREAM with this code, the connection still up, or
    /// the same code as a connection error (§5.4.1 lets a server treat a stream error so).
    Stream(u32, Reason),
    /// The connection closed with nothing served (a GOAWAY is optional).
    Closed,
    /// The case's own check.
    Check(fn(&Outcome) -> Result<(), String>),
}

struct Case {
    rfc: &'static str,
    name: &'static str,
    drive: Drive,
    expect: Expect,
    /// What hyper's h2 does instead of what the RFC requires, and why: accepted for all three
    /// servers (they share the h2 crate) and shown in the report.
    known: Option<(Expect, &'static str)>,
    /// What the edge's plain listener does instead of hyper's h2-only server, and why.
    h2c: Option<(Expect, &'static str)>,
}

fn case(rfc: &'static str, name: &'static str, drive: Drive, expect: Expect) -> Case {
    Case {
        rfc,
        name,
        drive,
        expect,
        known: None,
        h2c: None,
    }
}

impl Case {
    fn known(self, instead: Expect, why: &'static str) -> Case {
        Case {
            known: Some((instead, why)),
            ..self
        }
    }

    fn h2c(self, instead: Expect, why: &'static str) -> Case {
        Case {
            h2c: Some((instead, why)),
            ..self
        }
    }
}

/// hyperium/h2's codec answers every frame it cannot load, and every HPACK error, with
/// PROTOCOL_ERROR (hyperium/h2#900 proposes the RFC's codes).
const H2_CODES: &str = "h2 0.4 sends PROTOCOL_ERROR for any frame it cannot load and any HPACK \
    error, where RFC 9113 names FRAME_SIZE_ERROR, FLOW_CONTROL_ERROR or COMPRESSION_ERROR \
    (hyperium/h2#900)";

use Drive::{Custom, Frames};
use Expect::{Check, Closed, Conn, Stream};

/// A [`Drive::Custom`] from an `async fn(&mut Client)`.
macro_rules! custom {
    ($f:ident) => {
        Custom(|c| Box::pin($f(c)))
    };
}

const PROTOCOL: Reason = Reason::PROTOCOL_ERROR;
const FRAME_SIZE: Reason = Reason::FRAME_SIZE_ERROR;
const FLOW: Reason = Reason::FLOW_CONTROL_ERROR;

// One line per case: rustfmt would spread each over many.
#[rustfmt::skip]
fn cases() -> Vec<Case> {
    vec![
        case("3.4", "an invalid connection preface", custom!(bad_preface), Closed).h2c(Check(http1_refusal), "the plain listener serves HTTP/1.1 too: bytes that are not h2's preface are an HTTP/1.1 request"),
        case("3.4", "the server's first frame is SETTINGS and it ACKs ours", Frames(|_| vec![]), Check(quiet)),
        case("6.5.3", "a SETTINGS frame is ACKed", Frames(|_| settings(&[(MAX_CONCURRENT_STREAMS, 100)])), Check(one_settings_ack)),
        case("6.5.2", "an unknown setting is ignored", Frames(|_| settings(&[(0xf0, 7)])), Check(one_settings_ack)),
        case("6.5", "SETTINGS on a stream", Frames(|_| frame(SETTINGS, 0, 1, &[])), Conn(PROTOCOL)),
        case("6.5", "SETTINGS whose length is not a multiple of 6", Frames(|_| frame(SETTINGS, 0, 0, &[0, 3, 0])), Conn(FRAME_SIZE)).known(Conn(PROTOCOL), H2_CODES),
        case("6.5", "SETTINGS ACK with a payload", Frames(|_| frame(SETTINGS, ACK, 0, &[0, 3, 0, 0, 0, 100])), Conn(FRAME_SIZE)).known(Conn(PROTOCOL), H2_CODES),
        case("6.5.2", "ENABLE_PUSH = 2", Frames(|_| settings(&[(ENABLE_PUSH, 2)])), Conn(PROTOCOL)),
        case("6.5.2", "INITIAL_WINDOW_SIZE = 2^31", Frames(|_| settings(&[(INITIAL_WINDOW_SIZE, 1 << 31)])), Conn(FLOW)).known(Conn(PROTOCOL), H2_CODES),
        case("6.5.2", "MAX_FRAME_SIZE = 16383 (below the minimum)", Frames(|_| settings(&[(MAX_FRAME_SIZE, 16_383)])), Conn(PROTOCOL)),
        case("6.5.2", "MAX_FRAME_SIZE = 2^24 (above the maximum)", Frames(|_| settings(&[(MAX_FRAME_SIZE, 1 << 24)])), Conn(PROTOCOL)),
        case("6.7", "PING is ACKed with its payload", Frames(|_| frame(PING, 0, 0, b"conform!")), Check(ping_acked)),
        case("6.7", "a PING ACK is not answered", Frames(|_| frame(PING, ACK, 0, b"conform!")), Check(quiet)),
        case("6.7", "PING on a stream", Frames(|_| frame(PING, 0, 1, b"conform!")), Conn(PROTOCOL)),
        case("6.7", "PING of 7 bytes", Frames(|_| frame(PING, 0, 0, b"conform")), Conn(FRAME_SIZE)).known(Conn(PROTOCOL), H2_CODES),
        case("6.9", "WINDOW_UPDATE of 0 on the connection", Frames(|_| window_update(0, 0)), Conn(PROTOCOL)),
        case("6.9", "WINDOW_UPDATE of 0 on an open stream", custom!(zero_stream_window_update), Stream(1, PROTOCOL)),
        case("6.9.1", "the connection window past 2^31-1", Frames(|_| window_update(0, 0x7fff_ffff)), Conn(FLOW)),
        case("6.9.2", "INITIAL_WINDOW_SIZE = 1: one byte, then wait for WINDOW_UPDATE", custom!(one_byte_window), Check(one_byte_then_the_rest)),
        case("5.1", "DATA on an idle stream", Frames(|_| frame(DATA, END_STREAM, 1, b"oi")), Conn(PROTOCOL)),
        case("5.1", "RST_STREAM on an idle stream", Frames(|_| frame(RST_STREAM, 0, 1, &8u32.to_be_bytes())), Conn(PROTOCOL)),
        case("5.1", "PRIORITY on an idle stream is allowed", Frames(|_| frame(PRIORITY, 0, 3, &[0, 0, 0, 0, 16])), Check(quiet)),
        case("5.1.1", "a client stream with an even id", Frames(|c| c.get(2, &[])), Conn(PROTOCOL)),
        case("5.1.1", "a stream id lower than one already used", Custom(|c| Box::pin(get_after_answer(c, 5, 3))), Conn(PROTOCOL)),
        case("5.1", "HEADERS on a closed stream", Custom(|c| Box::pin(get_after_answer(c, 1, 1))), Stream(1, Reason::STREAM_CLOSED)).known(Conn(PROTOCOL), "h2 reads a stream id used before as an id not above the last one (§5.1.1: PROTOCOL_ERROR)"),
        case("5.1.2", "one stream more than MAX_CONCURRENT_STREAMS", custom!(too_many_streams), Check(last_stream_refused)),
        case("4.2", "a frame larger than MAX_FRAME_SIZE", custom!(oversized_frame), Conn(FRAME_SIZE)),
        case("4.1", "an unknown frame type is ignored", Frames(|_| frame(0xfa, 0, 0, b"?")), Check(quiet)),
        case("HPACK 2.3.3", "an index past the tables", Frames(|_| frame(HEADERS, END_HEADERS | END_STREAM, 1, &[0xff, 0x64])), Conn(Reason::COMPRESSION_ERROR)).known(Conn(PROTOCOL), H2_CODES),
        case("8.2.1", "an upper-case field name", Frames(|c| c.get(1, &[("X-Maiuscula", "1")])), Stream(1, PROTOCOL)),
        case("8.3.1", "no :path", Frames(|c| without(c, ":path")), Stream(1, PROTOCOL)),
        case("8.3.1", "no :method", Frames(|c| without(c, ":method")), Stream(1, PROTOCOL)),
        case("8.3.1", "a pseudo-header after a regular field", Frames(pseudo_after_regular), Stream(1, PROTOCOL)),
        case("8.2.2", "connection: keep-alive", Frames(|c| c.get(1, &[("connection", "keep-alive")])), Stream(1, PROTOCOL)),
        case("8.2.2", "te: gzip", Frames(|c| c.get(1, &[("te", "gzip")])), Stream(1, PROTOCOL)),
        case("8.2.2", "te: trailers is allowed", Frames(|c| c.get(1, &[("te", "trailers")])), Check(page_on_1)),
        case("6.10", "a frame between HEADERS and CONTINUATION", Frames(interleaved_continuation), Conn(PROTOCOL)),
        case("6.10", "HEADERS then CONTINUATION", Frames(split_headers), Check(page_on_1)),
        case("6.8", "GOAWAY names the last stream processed", custom!(goaway_last_stream), Check(goaway_after_3)),
        case("8.1", "GET / answers 200 with the page", Frames(|c| c.get(1, &[])), Check(page_on_1)),
    ]
}

async fn bad_preface(c: &mut Client) {
    let mut bytes = b"PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".to_vec();
    assert_eq!(bytes.len(), PREFACE.len());
    bytes.extend(settings(&[]));
    c.send(&bytes).await;
    c.until(|_| false).await;
}

/// A window of 0: the server answers a `GET`'s head but holds its body, so the stream stays
/// open as long as the case needs.
async fn held_get(c: &mut Client) {
    c.handshake(&[(INITIAL_WINDOW_SIZE, 0)]).await;
    let get = c.get(1, &[]);
    c.send(&get).await;
    c.until(|c| c.outcome.responses.contains_key(&1)).await;
}

async fn zero_stream_window_update(c: &mut Client) {
    held_get(c).await;
    c.send(&window_update(1, 0)).await;
}

async fn one_byte_window(c: &mut Client) {
    c.handshake(&[(INITIAL_WINDOW_SIZE, 1)]).await;
    let get = c.get(1, &[]);
    c.send(&get).await;
    let body = |c: &Client| c.outcome.responses.get(&1).map_or(0, |r| r.body.len());
    c.until(|c| body(c) > 0).await;
    // A PING's ACK: whatever the server meant to send before it has been sent.
    c.send(&frame(PING, 0, 0, b"window!!")).await;
    c.until(|c| !c.outcome.ping_acks.is_empty()).await;
    let held = format!("{} B before WINDOW_UPDATE", body(c));
    c.outcome.marks.push(held);
    c.outcome.ping_acks.clear();
    c.send(&window_update(1, 1 << 20)).await;
}

/// `GET /` on stream `first`, its answer, then `GET /` on stream `then`.
async fn get_after_answer(c: &mut Client, first: u32, then: u32) {
    c.handshake(&[]).await;
    let get = c.get(first, &[]);
    c.send(&get).await;
    c.until(Client::settled).await;
    let next = c.get(then, &[]);
    c.send(&next).await;
}

async fn too_many_streams(c: &mut Client) {
    c.handshake(&[(INITIAL_WINDOW_SIZE, 0)]).await;
    let limit = *c
        .server_settings
        .get(&MAX_CONCURRENT_STREAMS)
        .expect("the server names a stream limit");
    let last = 1 + 2 * limit;
    let mut bytes = Vec::new();
    for id in (1..=last).step_by(2) {
        bytes.extend(c.get(id, &[]));
    }
    c.send(&bytes).await;
    let answered = |c: &Client| {
        (1..=last)
            .step_by(2)
            .all(|id| c.outcome.responses.contains_key(&id) || c.outcome.resets.contains_key(&id))
    };
    c.until(answered).await;
    // Open every window: the held streams end, so the case can.
    c.send(&settings(&[(INITIAL_WINDOW_SIZE, 65_535)])).await;
    c.until(|c| c.outcome.settings_acks > 0 && c.settled())
        .await;
    // In words that do not name the limit, which is the server's to choose.
    let o = std::mem::take(&mut c.outcome);
    c.opened.clear();
    let pages = o
        .responses
        .values()
        .filter(|r| r.ended && r.body == HOME.as_bytes())
        .count();
    let mark = match o.resets.iter().collect::<Vec<_>>().as_slice() {
        [(id, reason)] if **id == last && pages == limit as usize => {
            format!("every stream within the limit answered, the next reset {reason:?}")
        }
        _ => format!(
            "{pages} pages for a limit of {limit}, resets {:?}",
            o.resets
        ),
    };
    c.outcome.marks.push(mark);
}

async fn oversized_frame(c: &mut Client) {
    c.handshake(&[]).await;
    let max = c
        .server_settings
        .get(&MAX_FRAME_SIZE)
        .copied()
        .unwrap_or(16_384);
    c.send(&frame(
        HEADERS,
        END_HEADERS,
        1,
        &vec![0x82; max as usize + 1],
    ))
    .await;
}

async fn goaway_last_stream(c: &mut Client) {
    c.handshake(&[]).await;
    let mut both = c.get(1, &[]);
    both.extend(c.get(3, &[]));
    c.send(&both).await;
    c.until(Client::settled).await;
    c.send(&frame(PING, 0, 1, b"conform!")).await;
}

/// `GET /` without one pseudo-header.
fn without(c: &mut Client, name: &str) -> Vec<u8> {
    let fields = c.get_fields();
    let kept: Vec<(&str, &str)> = fields
        .iter()
        .filter(|(n, _)| *n != name)
        .map(|(n, v)| (*n, v.as_str()))
        .collect();
    c.headers(1, END_HEADERS | END_STREAM, &kept)
}

fn pseudo_after_regular(c: &mut Client) -> Vec<u8> {
    let fields = c.get_fields();
    let mut all: Vec<(&str, &str)> = vec![("accept", "*/*")];
    all.extend(fields.iter().map(|(n, v)| (*n, v.as_str())));
    c.headers(1, END_HEADERS | END_STREAM, &all)
}

/// `GET /`'s header block in two halves.
fn halves(c: &mut Client) -> (Vec<u8>, Vec<u8>) {
    let fields = c.get_fields();
    let all: Vec<(&str, &str)> = fields.iter().map(|(n, v)| (*n, v.as_str())).collect();
    c.opened.insert(1);
    let mut block = c.block(&all);
    let second = block.split_off(block.len() / 2);
    (block, second)
}

fn interleaved_continuation(c: &mut Client) -> Vec<u8> {
    let (first, second) = halves(c);
    let mut out = frame(HEADERS, END_STREAM, 1, &first);
    out.extend(frame(PING, 0, 0, b"conform!"));
    out.extend(frame(CONTINUATION, END_HEADERS, 1, &second));
    out
}

fn split_headers(c: &mut Client) -> Vec<u8> {
    let (first, second) = halves(c);
    let mut out = frame(HEADERS, END_STREAM, 1, &first);
    out.extend(frame(CONTINUATION, END_HEADERS, 1, &second));
    out
}

/// Nothing but the sentinel's answer.
fn quiet(o: &Outcome) -> Result<(), String> {
    let alive = Outcome {
        alive: true,
        ..Outcome::default()
    };
    (*o == alive)
        .then_some(())
        .ok_or("nothing but the PING's ACK".into())
}

fn one_settings_ack(o: &Outcome) -> Result<(), String> {
    let acked = Outcome {
        settings_acks: 1,
        alive: true,
        ..Outcome::default()
    };
    (*o == acked).then_some(()).ok_or("one SETTINGS ACK".into())
}

fn ping_acked(o: &Outcome) -> Result<(), String> {
    let acked = Outcome {
        ping_acks: vec![*b"conform!"],
        alive: true,
        ..Outcome::default()
    };
    (*o == acked)
        .then_some(())
        .ok_or("the PING's payload ACKed".into())
}

fn page(o: &Outcome, stream: u32) -> bool {
    o.responses
        .get(&stream)
        .is_some_and(|r| r.status == Some(200) && r.ended && r.body == HOME.as_bytes())
}

fn page_on_1(o: &Outcome) -> Result<(), String> {
    (page(o, 1) && o.responses.len() == 1 && o.resets.is_empty() && o.alive)
        .then_some(())
        .ok_or("the page on stream 1, the connection up".into())
}

fn one_byte_then_the_rest(o: &Outcome) -> Result<(), String> {
    (o.marks == ["1 B before WINDOW_UPDATE"] && page_on_1(o).is_ok())
        .then_some(())
        .ok_or("one byte, then the rest of the page after WINDOW_UPDATE".into())
}

fn last_stream_refused(o: &Outcome) -> Result<(), String> {
    let refused = ["REFUSED_STREAM", "PROTOCOL_ERROR"].map(|r| Outcome {
        marks: vec![format!(
            "every stream within the limit answered, the next reset {r}"
        )],
        alive: true,
        ..Outcome::default()
    });
    refused
        .contains(o)
        .then_some(())
        .ok_or("every stream within the limit answered, the next refused".into())
}

/// An HTTP/1.1 client error, then the close.
fn http1_refusal(o: &Outcome) -> Result<(), String> {
    let refused = Outcome {
        not_h2: o.not_h2.clone().filter(|l| l.starts_with("HTTP/1.1 4")),
        closed: true,
        ..Outcome::default()
    };
    (o.not_h2.is_some() && *o == refused)
        .then_some(())
        .ok_or("an HTTP/1.1 4xx, then closed".into())
}

fn goaway_after_3(o: &Outcome) -> Result<(), String> {
    (page(o, 1) && page(o, 3) && o.goaway == Some((PROTOCOL, 3)) && o.closed)
        .then_some(())
        .ok_or("both pages, then GOAWAY PROTOCOL_ERROR naming stream 3".into())
}

impl Expect {
    fn check(&self, o: &Outcome) -> Result<(), String> {
        let conn = |reason: Reason| {
            o.goaway.is_some_and(|(r, _)| r == reason) && o.closed && o.resets.is_empty()
        };
        let stream = |id: u32, reason: Reason| {
            o.resets.get(&id) == Some(&reason)
                && o.resets.len() == 1
                && o.goaway.is_none()
                && o.alive
        };
        let (ok, wanted) = match *self {
            Conn(r) => (conn(r), format!("GOAWAY {r:?}, then closed")),
            Stream(id, r) => (
                stream(id, r) || conn(r),
                format!("RST_STREAM #{id} {r:?} or GOAWAY {r:?}"),
            ),
            Closed => (
                o.closed
                    && o.responses.is_empty()
                    && o.goaway.is_none_or(|(r, _)| r == PROTOCOL)
                    && o.not_h2.is_none(),
                "closed, nothing served".into(),
            ),
            Check(f) => return f(o),
        };
        ok.then_some(()).ok_or(wanted)
    }
}

#[derive(Clone, Copy, Debug)]
enum Target {
    EdgeTls,
    EdgeH2c,
    Hyper,
}

/// A bare hyper HTTP/2 server with default settings answering [`HOME`] to every request.
async fn bare_hyper() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            tokio::spawn(async move {
                let page = service_fn(|_req| async {
                    Ok::<_, Infallible>(Response::new(Full::new(Bytes::from_static(
                        HOME.as_bytes(),
                    ))))
                });
                let _ = hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tcp), page)
                    .await;
            });
        }
    });
    addr
}

async fn run(case: &Case, edge: &Listeners, hyper: SocketAddr, target: Target) -> Outcome {
    let mut c = match target {
        Target::EdgeTls => Client::new(Box::new(edge.tls(b"h2").await), TLS_HOST),
        Target::EdgeH2c => Client::new(Box::new(edge.plain().await), PLAIN_HOST),
        Target::Hyper => Client::new(
            Box::new(TcpStream::connect(hyper).await.unwrap()),
            "hyper.test",
        ),
    };
    match case.drive {
        Frames(f) => {
            c.handshake(&[]).await;
            let bytes = f(&mut c);
            c.send(&bytes).await;
        }
        Custom(f) => f(&mut c).await,
    }
    c.finish().await
}

/// Checks `o` from `target` against the case: `Ok` with `None` when the RFC is met, with the
/// note when a known difference is; `Err` with what was wanted otherwise.
fn verdict(case: &Case, target: Target, o: &Outcome) -> Result<Option<&'static str>, String> {
    if let (Target::EdgeH2c, Some((instead, why))) = (target, &case.h2c) {
        return instead.check(o).map(|()| Some(*why));
    }
    match (case.expect.check(o), &case.known) {
        (Ok(()), _) => Ok(None),
        (Err(_), Some((instead, why))) if instead.check(o).is_ok() => Ok(Some(*why)),
        (Err(wanted), _) => Err(wanted),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_h2_case_gets_what_rfc_9113_requires_and_what_hyper_itself_answers() {
    let edge = Listeners::start().await;
    let hyper = bare_hyper().await;
    let mut table = String::from(
        "| RFC 9113 | case | edge h2 (TLS) | edge h2c | bare hyper | notes |\n|---|---|---|---|---|---|\n",
    );
    let mut notes: Vec<&str> = Vec::new();
    let mut failures = Vec::new();
    for case in cases() {
        let mut outcomes = Vec::new();
        let mut marks = Vec::new();
        for target in [Target::EdgeTls, Target::EdgeH2c, Target::Hyper] {
            let o = run(&case, &edge, hyper, target).await;
            match verdict(&case, target, &o) {
                Ok(None) => {}
                Ok(Some(why)) => {
                    if !notes.contains(&why) {
                        notes.push(why);
                    }
                    let n = notes.iter().position(|n| *n == why).unwrap() + 1;
                    if !marks.contains(&n) {
                        marks.push(n);
                    }
                }
                Err(wanted) => failures.push(format!(
                    "{} ({target:?}): {o}; RFC 9113: {wanted}",
                    case.name
                )),
            }
            outcomes.push(o);
        }
        let [tls, h2c, bare] = &outcomes[..] else {
            unreachable!()
        };
        let mut compared = vec![(Target::EdgeTls, tls)];
        if case.h2c.is_none() {
            compared.push((Target::EdgeH2c, h2c));
        }
        for (target, o) in compared {
            if o != bare {
                failures.push(format!("{} ({target:?}): {o}; hyper: {bare}", case.name));
            }
        }
        let marks: Vec<String> = marks.iter().map(|n| format!("({n})")).collect();
        let marks = marks.join(" ");
        let _ = writeln!(
            table,
            "| {} | {} | {tls} | {h2c} | {bare} | {marks} |",
            case.rfc, case.name
        );
    }
    for (n, note) in notes.iter().enumerate() {
        let _ = writeln!(table, "\n({}) {note}", n + 1);
    }
    println!("{table}");
    assert!(failures.is_empty(), "{}\n\n{table}", failures.join("\n"));
    edge.t.edge.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tls_connection_that_agreed_on_http_1_1_is_never_answered_in_h2() {
    let edge = Listeners::start().await;
    let mut c = Client::new(Box::new(edge.tls(b"http/1.1").await), TLS_HOST);
    let mut opening = PREFACE.to_vec();
    opening.extend(settings(&[]));
    c.send(&opening).await;
    c.until(|_| false).await;
    // hyper's HTTP/1.1 closes on the h2 preface (an HTTP/1.1 answer would do as well).
    let mut o = c.outcome.clone();
    let answered = o.not_h2.take();
    let closed = Outcome {
        closed: true,
        ..Outcome::default()
    };
    assert!(
        o == closed && answered.is_none_or(|l| l.starts_with("HTTP/1.1 ")),
        "{o:?}"
    );
    edge.t.edge.stop().await;
}
