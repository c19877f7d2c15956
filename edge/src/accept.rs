//! The visitor threads and every listener's accept loop: where a connection enters the edge.
//!
//! [`spawn_visitors`] starts one thread per pair of visitor sockets (see the crate docs:
//! thread per core), each with its own current-thread runtime. [`run`] accepts a listener's
//! connections until the shutdown signal, then lets the in-flight ones finish (up to 10 s).
//! A plain connection must send its first byte within the header timeout; a TLS one completes
//! its handshake within it ([`handshake`]). Then a visitor connection goes to the HTTP/1.1
//! front ([`crate::h1`]), or to hyper ([`crate::conn::drive`]) for the admin listener and for
//! TLS connections that agreed on h2.

use std::{io, net::TcpListener as StdListener, sync::Arc, thread, time::Duration};

use hyper_util::{rt::TokioIo, server::graceful::GracefulShutdown};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::watch,
};

use crate::{
    conn::{Alpn, Conn, Conns, drive},
    h1,
    request::Listener,
};

/// Starts the visitor threads, one per pair of sockets (plain, TLS) from [`crate::bind_group`]:
/// each thread gets its own [`Conn`] per listener, so their reference counts stay on its core.
/// `http_port` names the threads.
pub(crate) fn spawn_visitors(
    http: Vec<StdListener>,
    https: Vec<StdListener>,
    conns: &Conns,
    http_port: u16,
    shutdown: &watch::Receiver<bool>,
) -> io::Result<Vec<thread::JoinHandle<()>>> {
    http.into_iter()
        .zip(https)
        .enumerate()
        .map(|(i, (http, https))| {
            let (plain, tls) = (
                conns.make(Listener::Visitors),
                conns.make(Listener::VisitorsTls),
            );
            let rx = shutdown.clone();
            thread::Builder::new()
                // `edge:{http port}/{n}`, within the 15 bytes a thread name keeps.
                .name(format!("edge:{http_port}/{i}"))
                .spawn(move || visitor_thread(http, plain, https, tls, rx))
        })
        .collect()
}

/// One visitor thread: its own current-thread runtime serving its sockets of both visitor
/// listeners until the shutdown signal (see the crate docs).
fn visitor_thread(
    http: StdListener,
    plain: Arc<Conn>,
    https: StdListener,
    tls: Arc<Conn>,
    shutdown: watch::Receiver<bool>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!(error = %e, "visitor thread: no runtime");
            return;
        }
    };
    runtime.block_on(async move {
        let (http, https) = match (TcpListener::from_std(http), TcpListener::from_std(https)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!(error = %e, "visitor thread: listener");
                return;
            }
        };
        let plain = tokio::spawn(run(http, plain, shutdown.clone()));
        let tls = tokio::spawn(run(https, tls, shutdown));
        let _ = tokio::join!(plain, tls);
    });
}

/// Accepts the listener's connections and serves each on its own task until the shutdown
/// signal; then waits for the connections in flight, up to 10 s.
pub(crate) async fn run(
    listener: TcpListener,
    conn: Arc<Conn>,
    mut shutdown: watch::Receiver<bool>,
) {
    let graceful = GracefulShutdown::new();
    // For the plain front, which closes idle connections itself (see [`h1`]).
    let stopping = shutdown.clone();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let watcher = graceful.watcher();
                let conn = conn.clone();
                let stop = stopping.clone();
                tokio::spawn(async move {
                    // A client that opens a connection and sends nothing is cut off here; one
                    // that starts and then trickles is cut off by the header timeout (the plain
                    // front's, or hyper's). On TLS the ClientHello's own time limit does both
                    // (see [`handshake`]), without a peek per connection.
                    if conn.kind != Listener::VisitorsTls
                        && !first_byte_within(&stream, conn.header_timeout).await
                    {
                        return;
                    }
                    match conn.kind {
                        Listener::Visitors => {
                            h1::serve(conn, stream, peer.ip(), watcher, stop, false, None).await;
                        }
                        Listener::Admin => {
                            drive(conn, TokioIo::new(stream), peer.ip(), watcher, None).await;
                        }
                        Listener::VisitorsTls => {
                            let Some(tls) = handshake(&conn, stream).await else { return };
                            // h2 goes to hyper; HTTP/1.1 (chosen, or no ALPN) to the front,
                            // which hands hyper only what ALPN agreed on.
                            let (peer, alpn) = (peer.ip(), tls.get_ref().1.alpn_protocol());
                            match alpn {
                                Some(b"h2") => {
                                    let io = TokioIo::new(tls);
                                    drive(conn, io, peer, watcher, Some(Alpn::H2)).await;
                                }
                                Some(_) => {
                                    let alpn = Some(Alpn::H1);
                                    h1::serve(conn, tls, peer, watcher, stop, true, alpn).await;
                                }
                                None => h1::serve(conn, tls, peer, watcher, stop, true, None).await,
                            }
                        }
                    }
                });
            }
            _ = shutdown.wait_for(|s| *s) => break,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), graceful.shutdown()).await;
}

async fn first_byte_within(stream: &TcpStream, limit: Duration) -> bool {
    let mut one = [0u8; 1];
    matches!(
        tokio::time::timeout(limit, stream.peek(&mut one)).await,
        Ok(Ok(n)) if n > 0
    )
}

/// Reads the ClientHello, picks the certificate by its server name (see [`crate::tls`]) and
/// completes the handshake, all within the header timeout (issuance aside). `None`: the
/// connection is closed.
async fn handshake(
    conn: &Conn,
    stream: TcpStream,
) -> Option<tokio_rustls::server::TlsStream<TcpStream>> {
    let acceptor =
        tokio_rustls::LazyConfigAcceptor::new(rustls::server::Acceptor::default(), stream);
    let start = match tokio::time::timeout(conn.header_timeout, acceptor).await {
        Ok(Ok(start)) => start,
        Ok(Err(_)) => {
            conn.certs.handshake_failed("bad_client_hello");
            return None;
        }
        // Silent, or too slow to send its ClientHello: closed like a silent plain client.
        Err(_) => return None,
    };
    let sni = start.client_hello().server_name().map(str::to_owned);
    let config = conn.certs.config_for(sni.as_deref()).await.ok()?;
    tokio::time::timeout(conn.header_timeout, start.into_stream(config))
        .await
        .ok()?
        .ok()
}
