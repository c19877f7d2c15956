//! The two connection timeouts hyper does not have, for every connection it serves (HTTP/2
//! over TLS and h2c, and HTTP/1.1 once the plain front hands a connection over):
//!
//! - **Idle** (`EDGE_IDLE_TIMEOUT_MS`): a connection with no request in progress for that
//!   long is closed. A request is in progress from the moment hyper hands it to the edge until
//!   its response body has been taken, so a slow download is not idle. HTTP/2 frames that are
//!   not requests (PING, SETTINGS, WINDOW_UPDATE) do not count: a client cannot hold a
//!   connection, and its memory, by pinging it forever.
//! - **Write** (`EDGE_WRITE_TIMEOUT_MS`): a write to the client that cannot go on for that long
//!   (the socket is full because the client stopped reading) closes the connection, as
//!   nginx's `send_timeout` does. HTTP/2 connections are also pinged by hyper after
//!   `EDGE_IDLE_TIMEOUT_MS` without a frame from the client and closed when the ping is not
//!   answered within `EDGE_WRITE_TIMEOUT_MS` (see [`crate::Edge::build_with`]): a client that
//!   has gone, or stopped reading, cannot keep responses parked in the edge's buffers.
//!
//! [`Watched`] records writes that find the socket full, [`Activity::begin`] the requests in
//! progress, and [`Activity::expired`] is a per-connection watchdog: it sleeps until the
//! earliest deadline (woken when a request ends or a write blocks) and returns why the
//! connection must close; [`crate::conn::drive`] then drops the connection, which closes it.

use std::{
    io,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use hyper::body::{Body, Frame, SizeHint};
use tokio::{sync::Notify, time::Instant};

/// No write is blocked.
const NONE: u64 = u64::MAX;

/// Why a connection was closed by its watchdog (the `reason` label of
/// `vitrine_edge_connections_closed_total`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expired {
    Idle,
    WriteTimeout,
}

impl Expired {
    pub fn label(self) -> &'static str {
        match self {
            Expired::Idle => "idle",
            Expired::WriteTimeout => "write_timeout",
        }
    }
}

/// One connection's requests in progress and blocked writes (see the module docs).
pub struct Activity {
    opened: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds after `opened` when the last request ended (or the connection opened).
    idle_since: AtomicU64,
    /// Milliseconds after `opened` when a write found the socket full; [`NONE`] when none is
    /// waiting.
    blocked_since: AtomicU64,
    changed: Notify,
}

impl Activity {
    pub fn new() -> Arc<Activity> {
        Arc::new(Activity {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            blocked_since: AtomicU64::new(NONE),
            changed: Notify::new(),
        })
    }

    fn now(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }

    /// A request starts; it is in progress until the returned guard drops (moved into the
    /// response body, see [`Tracked`]).
    pub fn begin(self: &Arc<Self>) -> InProgress {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        InProgress(self.clone())
    }

    fn write_blocked(&self) {
        if self
            .blocked_since
            .compare_exchange(NONE, self.now(), Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            self.changed.notify_one();
        }
    }

    fn write_went_on(&self) {
        self.blocked_since.store(NONE, Ordering::Release);
    }

    /// When the connection must close and why, as things stand (`None`: not while they do).
    fn deadline(&self, idle: Duration, write: Duration) -> Option<(u64, Expired)> {
        let ms = |d: Duration| d.as_millis() as u64;
        let idle = (self.in_flight.load(Ordering::Acquire) == 0).then(|| {
            let since = self.idle_since.load(Ordering::Acquire);
            (since.saturating_add(ms(idle)), Expired::Idle)
        });
        let blocked = match self.blocked_since.load(Ordering::Acquire) {
            NONE => None,
            since => Some((since.saturating_add(ms(write)), Expired::WriteTimeout)),
        };
        match (idle, blocked) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// Resolves when the connection has been idle for `idle`, or a write has been blocked for
    /// `write`; never while requests progress and writes go on.
    pub async fn expired(&self, idle: Duration, write: Duration) -> Expired {
        loop {
            // Registered before the state is read, so a change in between is not missed.
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            match self.deadline(idle, write) {
                Some((at, why)) if self.now() >= at => return why,
                Some((at, _)) => {
                    let at = self.opened + Duration::from_millis(at);
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {}
                        () = changed => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

/// A request in progress; dropping it ends the request.
pub struct InProgress(Arc<Activity>);

impl Drop for InProgress {
    fn drop(&mut self) {
        let activity = &self.0;
        if activity.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            activity.idle_since.store(activity.now(), Ordering::Release);
            activity.changed.notify_one();
        }
    }
}

/// A response body that keeps its request in progress until hyper has taken all of it.
pub struct Tracked<B> {
    body: B,
    _request: InProgress,
}

impl<B> Tracked<B> {
    pub fn new(body: B, request: InProgress) -> Self {
        Tracked {
            body,
            _request: request,
        }
    }
}

impl<B: Body + Unpin> Body for Tracked<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A connection's I/O that tells its [`Activity`] when a write finds the socket full and when
/// it can go on.
pub struct Watched<IO> {
    io: IO,
    activity: Arc<Activity>,
}

impl<IO> Watched<IO> {
    pub fn new(io: IO, activity: Arc<Activity>) -> Self {
        Watched { io, activity }
    }

    fn noted<T>(&self, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match &poll {
            Poll::Pending => self.activity.write_blocked(),
            Poll::Ready(_) => self.activity.write_went_on(),
        }
        poll
    }
}

impl<IO: hyper::rt::Read + Unpin> hyper::rt::Read for Watched<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<IO: hyper::rt::Write + Unpin> hyper::rt::Write for Watched<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.noted(poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.noted(poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.noted(poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Duration = Duration::from_secs(60);
    const WRITE: Duration = Duration::from_secs(30);

    fn at(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn a_connection_is_idle_only_without_a_request_in_progress() {
        let a = Activity::new();
        assert_eq!(a.deadline(IDLE, WRITE), Some((60_000, Expired::Idle)));
        let request = a.begin();
        assert_eq!(a.deadline(IDLE, WRITE), None, "a request is in progress");
        let second = a.begin();
        drop(request);
        assert_eq!(a.deadline(IDLE, WRITE), None, "one is still in progress");
        drop(second);
        let since = a.idle_since.load(Ordering::Acquire);
        assert_eq!(
            a.deadline(IDLE, WRITE),
            Some((since + 60_000, Expired::Idle))
        );
    }

    #[test]
    fn a_blocked_write_has_its_own_deadline_whatever_is_in_progress() {
        let a = Activity::new();
        let request = a.begin();
        a.blocked_since.store(1_000, Ordering::Release);
        assert_eq!(
            a.deadline(IDLE, WRITE),
            Some((31_000, Expired::WriteTimeout))
        );
        // A later block does not move an earlier one.
        a.write_blocked();
        assert_eq!(
            a.deadline(IDLE, WRITE),
            Some((31_000, Expired::WriteTimeout))
        );
        a.write_went_on();
        assert_eq!(a.deadline(IDLE, WRITE), None);
        // Idle and blocked at once: whichever comes first.
        drop(request);
        a.idle_since.store(0, Ordering::Release);
        a.blocked_since.store(40_000, Ordering::Release);
        assert_eq!(a.deadline(IDLE, WRITE), Some((60_000, Expired::Idle)));
        assert_eq!(
            a.deadline(at(100_000), WRITE),
            Some((70_000, Expired::WriteTimeout))
        );
    }

    #[tokio::test]
    async fn the_watchdog_wakes_when_the_last_request_ends() {
        let a = Activity::new();
        let request = a.begin();
        let watchdog = a.expired(at(1), WRITE);
        tokio::pin!(watchdog);
        // Nothing to wait for while the request is in progress: the watchdog parks.
        assert!(futures::poll!(watchdog.as_mut()).is_pending());
        drop(request);
        let why = tokio::time::timeout(Duration::from_secs(10), watchdog)
            .await
            .expect("the end of the request wakes the watchdog");
        assert_eq!(why, Expired::Idle);
    }
}
