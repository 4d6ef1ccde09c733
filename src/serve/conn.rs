//! The connections of `grail serve`, bounded in number and in idle time:
//! at most [`MAX_CONNECTIONS`] are open at once (one more is answered
//! `503` with the reason and closed, and the server goes on), and a
//! connection with no traffic either way for [`IDLE`] is closed, unless
//! a request of its own is being answered (a long `hint` or `auto end`:
//! [`mark_busy`] counts them). A page's event stream sends a keep-alive
//! every 15 s, so only connections nobody uses are closed: one that never
//! sends its request (or sends it a byte at a time), one kept alive and
//! silent, or a client that stopped reading. Without these, a few hundred silent connections (a
//! program on the network, phones gone out of range) used up the
//! process's files, and no player could connect until they went away.

use axum::extract::Request;
use axum::extract::connect_info::{ConnectInfo, Connected};
use axum::middleware::Next;
use axum::response::Response;
use axum::serve::{IncomingStream, Listener};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// The most connections open at once (the pages of 64 tables and their
/// players fit; the rest of the process's files stay free).
pub const MAX_CONNECTIONS: usize = 256;

/// How long a connection may go without traffic either way.
pub const IDLE: Duration = Duration::from_secs(60);

/// Files kept free for everything but connections (the runtime, saves,
/// refusals).
const SPARE_FILES: usize = 64;

/// The most connections this process can keep: [`MAX_CONNECTIONS`], or
/// fewer when its limit of open files is lower (raised first, as far as
/// the system allows: macOS starts at 256).
pub fn max_connections() -> usize {
    #[cfg(unix)]
    {
        let want = (MAX_CONNECTIONS + SPARE_FILES) as libc::rlim_t;
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write `lim`.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return MAX_CONNECTIONS;
            }
            if lim.rlim_cur < want {
                let raised = libc::rlimit {
                    rlim_cur: want.min(lim.rlim_max),
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim.rlim_cur = raised.rlim_cur;
                }
            }
        }
        let files = usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX);
        MAX_CONNECTIONS
            .min(files.saturating_sub(SPARE_FILES))
            .max(1)
    }
    #[cfg(not(unix))]
    MAX_CONNECTIONS
}

/// Connections past the limit being answered at once; more are closed
/// without an answer.
const REFUSING: usize = 32;

/// A listener that keeps at most `max` connections open.
pub struct Bounded {
    inner: TcpListener,
    open: Arc<Semaphore>,
    refusing: Arc<Semaphore>,
    max: usize,
    idle: Duration,
}

impl Bounded {
    pub fn new(inner: TcpListener, max: usize, idle: Duration) -> Bounded {
        Bounded {
            inner,
            open: Arc::new(Semaphore::new(max)),
            refusing: Arc::new(Semaphore::new(REFUSING)),
            max,
            idle,
        }
    }
}

impl Listener for Bounded {
    type Io = Conn;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Conn, SocketAddr) {
        loop {
            let (stream, addr) = Listener::accept(&mut self.inner).await;
            match self.open.clone().try_acquire_owned() {
                Ok(permit) => return (Conn::new(stream, permit, self.idle), addr),
                Err(_) => {
                    if let Ok(slot) = self.refusing.clone().try_acquire_owned() {
                        tokio::spawn(refuse(stream, self.max, slot));
                    }
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// Answers a connection past the limit with `503` and closes it (within a
/// few seconds; its request is read first, so the answer is not lost to a
/// reset).
async fn refuse(s: TcpStream, max: usize, _slot: OwnedSemaphorePermit) {
    let body = format!(
        "{{\"error\":\"the server has {max} connections open, its most: try again in a moment\"}}"
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let second = Duration::from_secs(1);
    let mut request = [0u8; 4096];
    if let Ok(Ok(())) = tokio::time::timeout(second, s.readable()).await {
        let _ = s.try_read(&mut request);
    }
    let mut left = answer.as_bytes();
    while !left.is_empty() {
        match tokio::time::timeout(second, s.writable()).await {
            Ok(Ok(())) => match s.try_write(left) {
                Ok(n) => left = &left[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            },
            _ => return,
        }
    }
    // dropped: closed
    drop(s);
}

/// An open connection: its place among the open ones, its deadline, and
/// how many of its requests are being answered.
pub struct Conn {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    busy: Busy,
}

/// How many requests of one connection are being answered: a connection
/// waiting for its answer is not idle. Given to the routes as connection
/// info (`into_make_service_with_connect_info::<Busy>`).
#[derive(Clone, Default)]
pub struct Busy(Arc<AtomicUsize>);

impl Connected<IncomingStream<'_, Bounded>> for Busy {
    fn connect_info(stream: IncomingStream<'_, Bounded>) -> Busy {
        stream.io().busy.clone()
    }
}

/// Middleware: the request's connection counts as busy until the answer
/// is ready (routes served without [`Bounded`] have no count).
pub async fn mark_busy(req: Request, next: Next) -> Response {
    let _answering = req
        .extensions()
        .get::<ConnectInfo<Busy>>()
        .map(|c| Answering::new(&c.0));
    next.run(req).await
}

/// One request being answered (counted off when dropped, also when the
/// answer is abandoned).
struct Answering(Arc<AtomicUsize>);

impl Answering {
    fn new(busy: &Busy) -> Answering {
        busy.0.fetch_add(1, Ordering::SeqCst);
        Answering(busy.0.clone())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Conn {
    fn new(stream: TcpStream, permit: OwnedSemaphorePermit, idle: Duration) -> Conn {
        Conn {
            stream,
            _permit: permit,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
            busy: Busy::default(),
        }
    }

    /// Traffic: the deadline moves on.
    fn moved(&mut self) {
        let next = Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// While the stream waits: an error once the deadline has passed
    /// (never while a request is being answered: its answer moves it on).
    fn waited(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        if self.busy.0.load(Ordering::SeqCst) > 0 {
            return Poll::Pending;
        }
        ready!(self.deadline.as_mut().poll(cx));
        Poll::Ready(io::Error::new(
            io::ErrorKind::TimedOut,
            "no traffic on the connection",
        ))
    }
}

use std::future::Future as _;

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(r)
            }
            Poll::Pending => self.waited(cx).map(Err),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, data) {
            Poll::Ready(r) => {
                if matches!(r, Ok(n) if n > 0) {
                    self.moved();
                }
                Poll::Ready(r)
            }
            Poll::Pending => self.waited(cx).map(Err),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.stream).poll_flush(cx) {
            Poll::Pending => self.waited(cx).map(Err),
            done => done,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
