//! A raw HTTP/2 client for the conformance cases (RFC 9113): it writes whatever frames a case
//! asks for, byte for byte, forbidden ones included, and reads what the server does into an
//! [`Outcome`]. The 9-byte frame headers are written and read here; HPACK is loona-hpack's.
//!
//! After a case's frames the client sends a PING of its own (the sentinel): its ACK means the
//! server has read everything before it, so a case ends without waiting a fixed time.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt,
    time::Duration,
};

use bytes::{Buf, BytesMut};
use h2::Reason;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    time::Instant,
};

use crate::listeners::Io;

pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

// Frame types (RFC 9113 §6).
pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const PRIORITY: u8 = 0x2;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;
pub const WINDOW_UPDATE: u8 = 0x8;
pub const CONTINUATION: u8 = 0x9;

// Flags.
pub const END_STREAM: u8 = 0x1;
pub const ACK: u8 = 0x1;
pub const END_HEADERS: u8 = 0x4;
pub const PADDED: u8 = 0x8;

// SETTINGS identifiers (RFC 9113 §6.5.2).
pub const ENABLE_PUSH: u16 = 0x2;
pub const MAX_CONCURRENT_STREAMS: u16 = 0x3;
pub const INITIAL_WINDOW_SIZE: u16 = 0x4;
pub const MAX_FRAME_SIZE: u16 = 0x5;

const SENTINEL: [u8; 8] = *b"sentinel";
/// How long a case may take to end (it usually takes milliseconds).
const PATIENCE: Duration = Duration::from_secs(5);

/// One frame: the 9-byte header, then the payload.
pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(9 + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes()[1..]);
    out.extend_from_slice(&[kind, flags]);
    out.extend_from_slice(&stream.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

pub fn settings(pairs: &[(u16, u32)]) -> Vec<u8> {
    let payload: Vec<u8> = pairs
        .iter()
        .flat_map(|(id, value)| [&id.to_be_bytes()[..], &value.to_be_bytes()[..]].concat())
        .collect();
    frame(SETTINGS, 0, 0, &payload)
}

pub fn window_update(stream: u32, increment: u32) -> Vec<u8> {
    frame(WINDOW_UPDATE, 0, stream, &increment.to_be_bytes())
}

/// What the server did, as far as RFC 9113 cares: the answers, the errors and the end.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Each stream's response: status, body and whether END_STREAM came.
    pub responses: BTreeMap<u32, Response>,
    /// RST_STREAM frames the server sent (NO_ERROR after a complete response left out: RFC
    /// 9113 §8.1 lets a server send it to a client still sending, and when is a race).
    pub resets: BTreeMap<u32, Reason>,
    pub ping_acks: Vec<[u8; 8]>,
    /// SETTINGS ACKs after the handshake.
    pub settings_acks: usize,
    /// GOAWAY's code and last stream id.
    pub goaway: Option<(Reason, u32)>,
    /// Both sentinel PINGs were answered and the connection is still open.
    pub alive: bool,
    pub closed: bool,
    /// Not HTTP/2 at all: the first line of the answer (HTTP/1.1).
    pub not_h2: Option<String>,
    /// What a case noted along the way.
    pub marks: Vec<String>,
    /// The case did not end within [`PATIENCE`].
    pub timed_out: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    pub status: Option<u16>,
    pub body: Vec<u8>,
    pub ended: bool,
}

impl fmt::Display for Outcome {
    /// A short line for the report's table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.marks.clone();
        if let Some(line) = &self.not_h2 {
            parts.push(format!("HTTP/1: {line}"));
        }
        // Responses grouped, so two hundred open streams read as one entry.
        let mut groups: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        for (id, r) in &self.responses {
            let status = r.status.map_or("no status".into(), |s| s.to_string());
            let open = if r.ended { "" } else { ", open" };
            let key = format!("{status} {} B{open}", r.body.len());
            groups.entry(key).or_default().push(*id);
        }
        for (key, ids) in groups {
            match ids.as_slice() {
                [one] => parts.push(format!("#{one} {key}")),
                many => parts.push(format!("{}×({key})", many.len())),
            }
        }
        for (id, reason) in &self.resets {
            parts.push(format!("RST #{id} {reason:?}"));
        }
        for p in &self.ping_acks {
            parts.push(format!("PING ACK {}", String::from_utf8_lossy(p)));
        }
        if self.settings_acks > 0 {
            parts.push(format!("SETTINGS ACK×{}", self.settings_acks));
        }
        if let Some((reason, last)) = self.goaway {
            parts.push(format!("GOAWAY {reason:?} last={last}"));
        }
        parts.push(
            if self.alive {
                "alive"
            } else if self.closed {
                "closed"
            } else {
                "silent"
            }
            .into(),
        );
        if self.timed_out {
            parts.push(format!("(no end in {PATIENCE:?})"));
        }
        f.write_str(&parts.join("; "))
    }
}

impl fmt::Debug for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

pub struct Client {
    io: Box<dyn Io>,
    buf: BytesMut,
    encoder: loona_hpack::Encoder<'static>,
    decoder: loona_hpack::Decoder<'static>,
    /// The `:authority` of the client's requests.
    pub authority: String,
    /// The server's first SETTINGS frame.
    pub server_settings: BTreeMap<u16, u32>,
    /// Streams the client sent HEADERS on.
    pub opened: BTreeSet<u32>,
    /// A header block being received: its stream, its fragments so far, END_STREAM.
    block: Option<(u32, Vec<u8>, bool)>,
    frames_read: usize,
    /// ACKs of the sentinel PING.
    sentinels: usize,
    pub outcome: Outcome,
}

impl Client {
    pub fn new(io: Box<dyn Io>, authority: &str) -> Client {
        Client {
            io,
            buf: BytesMut::with_capacity(32 * 1024),
            encoder: loona_hpack::Encoder::new(),
            decoder: loona_hpack::Decoder::new(),
            authority: authority.into(),
            server_settings: BTreeMap::new(),
            opened: BTreeSet::new(),
            block: None,
            frames_read: 0,
            sentinels: 0,
            outcome: Outcome::default(),
        }
    }

    /// Writes bytes; a server that has closed the connection makes this a no-op (what it
    /// did is read afterwards).
    pub async fn send(&mut self, bytes: &[u8]) {
        if self.io.write_all(bytes).await.is_ok() {
            let _ = self.io.flush().await;
        }
    }

    /// The preface and `ours`, then waits for the server's SETTINGS (which must be its first
    /// frame, RFC 9113 §3.4), ACKs it, and waits for the ACK of `ours`.
    pub async fn handshake(&mut self, ours: &[(u16, u32)]) {
        let mut opening = PREFACE.to_vec();
        opening.extend(settings(ours));
        self.send(&opening).await;
        let deadline = Instant::now() + PATIENCE;
        while self.outcome.settings_acks == 0 {
            let f = self.read_frame(deadline).await;
            let Some((kind, flags, stream, payload)) = f else {
                panic!("the handshake ended: {:?}", self.outcome);
            };
            if self.frames_read == 1 {
                assert_eq!(
                    (kind, flags & ACK, stream),
                    (SETTINGS, 0, 0),
                    "the server's first frame is its SETTINGS"
                );
            }
            self.absorb(kind, flags, stream, &payload).await;
        }
        self.outcome = Outcome::default();
    }

    /// An encoded header block of these fields, in this order (the encoder's table changes:
    /// send what this returns).
    pub fn block(&mut self, fields: &[(&str, &str)]) -> Vec<u8> {
        self.encoder
            .encode(fields.iter().map(|(n, v)| (n.as_bytes(), v.as_bytes())))
    }

    /// A HEADERS frame of `fields` on `stream` with `flags`.
    pub fn headers(&mut self, stream: u32, flags: u8, fields: &[(&str, &str)]) -> Vec<u8> {
        self.opened.insert(stream);
        let block = self.block(fields);
        frame(HEADERS, flags, stream, &block)
    }

    /// The fields of a `GET /` for the client's authority.
    pub fn get_fields(&self) -> Vec<(&'static str, String)> {
        vec![
            (":method", "GET".into()),
            (":scheme", "https".into()),
            (":authority", self.authority.clone()),
            (":path", "/".into()),
        ]
    }

    /// A whole `GET /` (END_STREAM) on `stream`, with `extra` fields after the usual ones.
    pub fn get(&mut self, stream: u32, extra: &[(&str, &str)]) -> Vec<u8> {
        let fields = self.get_fields();
        let mut all: Vec<(&str, &str)> = fields.iter().map(|(n, v)| (*n, v.as_str())).collect();
        all.extend_from_slice(extra);
        self.headers(stream, END_HEADERS | END_STREAM, &all)
    }

    /// Reads and takes in frames until `done` holds, the connection ends or [`PATIENCE`]
    /// passes.
    pub async fn until(&mut self, done: impl Fn(&Client) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(self) && !self.outcome.closed {
            match self.read_frame(deadline).await {
                Some((kind, flags, stream, payload)) => {
                    self.absorb(kind, flags, stream, &payload).await
                }
                None => return,
            }
        }
    }

    /// Whether every stream the client opened has an end: its response's END_STREAM or a
    /// reset.
    pub fn settled(&self) -> bool {
        self.opened.iter().all(|id| {
            self.outcome.resets.contains_key(id)
                || self.outcome.responses.get(id).is_some_and(|r| r.ended)
        })
    }

    /// Reads until the server has answered everything: two sentinel PINGs, each sent once
    /// the one before is ACKed (a server may write a reset it queued while reading a frame
    /// after the ACK of a PING that came behind that frame, but not after the next PING's),
    /// and every opened stream ended; after a GOAWAY, until the connection closes.
    pub async fn finish(mut self) -> Outcome {
        for round in 1..=2 {
            self.send(&frame(PING, 0, 0, &SENTINEL)).await;
            self.until(|c| {
                c.sentinels >= round && (round == 1 || (c.outcome.goaway.is_none() && c.settled()))
            })
            .await;
        }
        self.outcome.alive = self.sentinels == 2 && !self.outcome.closed;
        self.outcome
    }

    /// The next frame, or `None` once the connection ends (or the deadline passes).
    async fn read_frame(&mut self, deadline: Instant) -> Option<(u8, u8, u32, Vec<u8>)> {
        loop {
            if self.frames_read == 0 && self.buf.starts_with(b"HTTP/") {
                // An HTTP/1.1 answer: its status line, then the end of the connection.
                if let Some(end) = self.buf.iter().position(|&b| b == b'\r') {
                    let line = String::from_utf8_lossy(&self.buf[..end]).to_string();
                    self.outcome.not_h2 = Some(line);
                    self.buf.clear();
                    self.frames_read = usize::MAX;
                }
            }
            if self.buf.len() >= 9 && self.outcome.not_h2.is_none() {
                let len = u32::from_be_bytes([0, self.buf[0], self.buf[1], self.buf[2]]) as usize;
                if self.buf.len() >= 9 + len {
                    let (kind, flags) = (self.buf[3], self.buf[4]);
                    let stream =
                        u32::from_be_bytes([self.buf[5], self.buf[6], self.buf[7], self.buf[8]])
                            & 0x7fff_ffff;
                    let payload = self.buf[9..9 + len].to_vec();
                    self.buf.advance(9 + len);
                    self.frames_read += 1;
                    return Some((kind, flags, stream, payload));
                }
            }
            let read = tokio::time::timeout_at(deadline, self.io.read_buf(&mut self.buf)).await;
            match read {
                Err(_) => {
                    self.outcome.timed_out = true;
                    return None;
                }
                // A reset after the server closed with our bytes unread is a close too.
                Ok(Ok(0) | Err(_)) => {
                    self.outcome.closed = true;
                    return None;
                }
                Ok(Ok(_)) => {
                    if self.outcome.not_h2.is_some() {
                        self.buf.clear();
                    }
                }
            }
        }
    }

    /// Takes in one frame from the server (answering its SETTINGS and PINGs).
    async fn absorb(&mut self, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
        let o = &mut self.outcome;
        match kind {
            DATA => {
                let data = unpadded(flags, payload);
                let r = o.responses.entry(stream).or_default();
                r.body.extend_from_slice(data);
                r.ended |= flags & END_STREAM != 0;
            }
            HEADERS | CONTINUATION => {
                let mut fragment = payload;
                if kind == HEADERS {
                    fragment = unpadded(flags, fragment);
                    // PRIORITY: the stream dependency and weight come first.
                    if flags & 0x20 != 0 {
                        fragment = &fragment[5.min(fragment.len())..];
                    }
                    self.block = Some((stream, Vec::new(), flags & END_STREAM != 0));
                }
                let Some((id, mut bytes, ends)) = self.block.take() else {
                    o.marks.push("CONTINUATION without HEADERS".into());
                    return;
                };
                bytes.extend_from_slice(fragment);
                if flags & END_HEADERS == 0 {
                    self.block = Some((id, bytes, ends));
                    return;
                }
                let fields = self.decoder.decode(&bytes).expect("the server's HPACK");
                let r = o.responses.entry(id).or_default();
                r.status = fields
                    .iter()
                    .find(|(n, _)| n == b":status")
                    .and_then(|(_, v)| std::str::from_utf8(v).ok()?.parse().ok())
                    .or(r.status);
                r.ended |= ends;
            }
            RST_STREAM if payload.len() == 4 => {
                let reason = Reason::from(u32::from_be_bytes(payload.try_into().unwrap()));
                let complete = o.responses.get(&stream).is_some_and(|r| r.ended);
                if !(reason == Reason::NO_ERROR && complete) {
                    o.resets.insert(stream, reason);
                }
            }
            SETTINGS if flags & ACK != 0 => o.settings_acks += 1,
            SETTINGS => {
                if self.server_settings.is_empty() {
                    for pair in payload.chunks_exact(6) {
                        let id = u16::from_be_bytes([pair[0], pair[1]]);
                        let value = u32::from_be_bytes([pair[2], pair[3], pair[4], pair[5]]);
                        self.server_settings.insert(id, value);
                    }
                }
                self.send(&frame(SETTINGS, ACK, 0, &[])).await;
            }
            PING if flags & ACK != 0 => {
                let payload: [u8; 8] = payload.try_into().expect("an 8-byte PING");
                if payload == SENTINEL {
                    self.sentinels += 1;
                } else {
                    o.ping_acks.push(payload);
                }
            }
            PING => self.send(&frame(PING, ACK, 0, payload)).await,
            GOAWAY if payload.len() >= 8 => {
                let last = u32::from_be_bytes(payload[..4].try_into().unwrap()) & 0x7fff_ffff;
                let code = u32::from_be_bytes(payload[4..8].try_into().unwrap());
                o.goaway = Some((Reason::from(code), last));
            }
            // WINDOW_UPDATE, PRIORITY and anything else change nothing a case looks at.
            _ => {}
        }
    }
}

/// A DATA or HEADERS payload without its padding.
fn unpadded(flags: u8, payload: &[u8]) -> &[u8] {
    if flags & PADDED == 0 || payload.is_empty() {
        return payload;
    }
    let pad = payload[0] as usize;
    &payload[1..payload.len().saturating_sub(pad).max(1)]
}
