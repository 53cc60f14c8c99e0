//! The referee's gRPC client, compiled: unary calls and one bidirectional stream per bot, made by tonic on a tokio
//! thread of the core's own, with each result handed to Python through an eventfd that trio waits on
//! (`referee.runtime.native_bridge`). Python never waits on a lock held by another Python thread: a decision costs
//! the trio thread one wake-up, not the hand-overs between grpcio's threads and the GIL.
//!
//! Messages go both ways as bytes (the referee frames and reads them strictly in Python). Every outcome is posted
//! to the caller's mailbox as an [`Event`] and its eventfd is bumped; Python drains the mailbox when the fd reads.
//!
//! It depends on no other part of the crate: its messages are bytes the referee writes and reads.

use std::collections::VecDeque;
use std::error::Error as _;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::{Buf, BufMut, Bytes};
use hyper_util::rt::TokioIo;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tokio::runtime::Runtime;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tokio::time::Instant;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::{Channel, Endpoint, Uri};
use tonic::{Code, Status};

/// The first and the longest wait between attempts to connect while a call waits for the bot to listen.
const BACKOFF: (Duration, Duration) = (Duration::from_millis(20), Duration::from_millis(100));
/// HTTP/2 flow-control windows: large enough that a request of the largest game goes out without waiting.
const WINDOW: u32 = 16 << 20;

/// The tokio runtime of this process (one worker thread), made again in a child process that forked after it.
fn runtime() -> PyResult<Arc<Runtime>> {
    static RUNTIME: Mutex<Option<(u32, Arc<Runtime>)>> = Mutex::new(None);
    let mut slot = RUNTIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let pid = std::process::id();
    if let Some((owner, runtime)) = slot.as_ref() {
        if *owner == pid {
            return Ok(runtime.clone());
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("kafana-wire")
        .enable_all()
        .build()
        .map_err(|error| PyOSError::new_err(format!("cannot start the wire's runtime: {error}")))?;
    let runtime = Arc::new(runtime);
    *slot = Some((pid, runtime.clone()));
    Ok(runtime)
}

/// What a call or a stream ended with, or an answer on a stream.
enum Event {
    /// A unary call's answer, or the `number`th answer on the stream.
    Answer { number: u64, payload: Bytes },
    /// A call failed, or the stream ended (`code` 0: the bot closed it), with the status's message.
    Ended { number: u64, code: i32, details: String },
    /// The bot answered on the stream more often than it was asked: the stream was cancelled.
    Unasked,
    /// No answer to the stream's `number`th message within its time.
    Late { number: u64 },
}

/// The kinds of events as Python reads them (``kafana_native.wire.ANSWER`` …).
pub const ANSWER: u8 = 0;
pub const ENDED: u8 = 1;
pub const UNASKED: u8 = 2;
pub const LATE: u8 = 3;

/// Where a caller's events wait for Python, and the eventfd that says there are some.
struct Mailbox {
    events: Mutex<VecDeque<Event>>,
    fd: OwnedFd,
}

impl Mailbox {
    fn new() -> PyResult<Arc<Self>> {
        let fd = unsafe { libc::eventfd(0, libc::EFD_NONBLOCK | libc::EFD_CLOEXEC) };
        if fd < 0 {
            return Err(PyOSError::new_err(format!("eventfd: {}", io::Error::last_os_error())));
        }
        Ok(Arc::new(Mailbox { events: Mutex::new(VecDeque::new()), fd: unsafe { OwnedFd::from_raw_fd(fd) } }))
    }

    fn post(&self, event: Event) {
        self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push_back(event);
        let one: u64 = 1;
        // Never blocks (EFD_NONBLOCK); fails only when the counter would overflow, and then it is readable anyway.
        unsafe { libc::write(self.fd.as_raw_fd(), (&one as *const u64).cast(), 8) };
    }

    /// Every event posted so far, the eventfd read back to zero first (so nothing posted after is missed).
    fn take(&self) -> Vec<Event> {
        let mut count: u64 = 0;
        unsafe { libc::read(self.fd.as_raw_fd(), (&mut count as *mut u64).cast(), 8) };
        self.events.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).drain(..).collect()
    }

    /// The events as Python tuples ``(kind, number, detail)``: an answer's bytes, an end's ``(code, details)``,
    /// None for an unasked or a late answer.
    fn take_py(&self, py: Python<'_>) -> PyResult<Vec<(u8, u64, PyObject)>> {
        self.take()
            .into_iter()
            .map(|event| {
                Ok(match event {
                    Event::Answer { number, payload } => (ANSWER, number, PyBytes::new(py, &payload).into_any().unbind()),
                    Event::Ended { number, code, details } => {
                        (ENDED, number, (code, details).into_pyobject(py)?.into_any().unbind())
                    }
                    Event::Unasked => (UNASKED, 0, py.None()),
                    Event::Late { number } => (LATE, number, py.None()),
                })
            })
            .collect()
    }
}

/// Messages as they are: bytes out, bytes in.
#[derive(Clone, Copy)]
struct Raw;

impl Codec for Raw {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = Raw;
    type Decoder = Raw;
    fn encoder(&mut self) -> Raw {
        Raw
    }
    fn decoder(&mut self) -> Raw {
        Raw
    }
}

impl Encoder for Raw {
    type Item = Bytes;
    type Error = Status;
    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }
}

impl Decoder for Raw {
    type Item = Bytes;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

/// Where the bot listens.
#[derive(Clone)]
enum Target {
    Unix(String),
    Tcp(String),
}

impl Target {
    fn parse(address: &str) -> PyResult<Self> {
        if let Some(path) = address.strip_prefix("unix:") {
            return Ok(Target::Unix(path.to_owned()));
        }
        if address.contains(':') && !address.contains('/') {
            return Ok(Target::Tcp(address.to_owned()));
        }
        Err(PyValueError::new_err(format!("bad address {address:?} (unix:PATH or HOST:PORT)")))
    }

    /// One attempt to connect, as an HTTP/2 channel whose authority is ``localhost`` for any address (a Unix
    /// socket's path is no authority some servers accept).
    async fn connect(&self) -> Result<Channel, tonic::transport::Error> {
        let endpoint = Endpoint::from_static("http://localhost")
            .initial_stream_window_size(WINDOW)
            .initial_connection_window_size(WINDOW);
        let target = self.clone();
        endpoint
            .connect_with_connector(tower::service_fn(move |_: Uri| {
                let target = target.clone();
                async move {
                    match target {
                        Target::Unix(path) => {
                            Ok::<_, io::Error>(TokioIo::new(Box::new(tokio::net::UnixStream::connect(path).await?)
                                as Box<dyn Socket>))
                        }
                        Target::Tcp(address) => {
                            let stream = tokio::net::TcpStream::connect(address).await?;
                            stream.set_nodelay(true)?;
                            Ok(TokioIo::new(Box::new(stream) as Box<dyn Socket>))
                        }
                    }
                }
            }))
            .await
    }
}

/// A connected socket of either kind.
trait Socket: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin> Socket for T {}

/// The connection to one bot, shared by its calls and its stream.
struct Connection {
    target: Target,
    channel: tokio::sync::Mutex<Option<Channel>>,
    max_response: usize,
    max_request: usize,
}

impl Connection {
    /// The channel, connecting first if need be: once, or (``wait``) until it works or ``deadline`` passes.
    async fn channel(&self, wait: bool, deadline: Instant) -> Result<Channel, Status> {
        let mut slot = self.channel.lock().await;
        if let Some(channel) = slot.as_ref() {
            return Ok(channel.clone());
        }
        let mut pause = BACKOFF.0;
        loop {
            match tokio::time::timeout_at(deadline, self.target.connect()).await {
                Ok(Ok(channel)) => {
                    *slot = Some(channel.clone());
                    return Ok(channel);
                }
                Ok(Err(error)) if !wait => return Err(Status::unavailable(format!("cannot connect: {error}"))),
                Err(_) => return Err(Status::deadline_exceeded("Deadline Exceeded")),
                Ok(Err(_)) if Instant::now() + pause >= deadline => {
                    tokio::time::sleep_until(deadline).await;
                    return Err(Status::deadline_exceeded("Deadline Exceeded"));
                }
                Ok(Err(_)) => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(BACKOFF.1);
                }
            }
        }
    }

    fn client(&self, channel: Channel) -> tonic::client::Grpc<Channel> {
        tonic::client::Grpc::new(channel)
            .max_decoding_message_size(self.max_response)
            .max_encoding_message_size(self.max_request)
    }

    async fn unary(&self, path: Uri, request: Bytes, wait: bool, deadline: Instant) -> Result<Bytes, Status> {
        let mut client = self.client(self.channel(wait, deadline).await?);
        let path = path.path_and_query().cloned().expect("a path");
        let call = async {
            client.ready().await.map_err(|error| Status::unavailable(error.to_string()))?;
            let mut request = tonic::Request::new(request);
            request.set_timeout(deadline.saturating_duration_since(Instant::now()));
            client.unary(request, path, Raw).await
        };
        match tokio::time::timeout_at(deadline, call).await {
            Ok(Ok(response)) => Ok(response.into_inner()),
            // tonic's own timer (it reads the deadline sent) calls the end CANCELLED: it is the deadline
            Ok(Err(status)) if Instant::now() < deadline => Err(status),
            _ => Err(Status::deadline_exceeded("Deadline Exceeded")),
        }
    }
}

/// A status as Python reads it: its code's number and its message. A message longer than the limit is
/// `RESOURCE_EXHAUSTED`, as grpcio calls it; a connection that broke under the call is `UNAVAILABLE`, as grpcio
/// calls it, where tonic says `UNKNOWN` with the transport's error as the status's source (a status the bot's
/// server sent has none): `UNKNOWN` stays what a server answers when its own code raised.
fn status_parts(status: &Status) -> (i32, String) {
    let code = if status.code() == Code::OutOfRange && status.message().starts_with("Error, decoded message length too large")
    {
        Code::ResourceExhausted
    } else if status.code() == Code::Unknown && status.source().is_some() {
        Code::Unavailable
    } else {
        status.code()
    };
    (code as i32, status.message().to_owned())
}

/// A path as the ``:path`` of a call, checked.
fn method_path(method: &str) -> PyResult<Uri> {
    let uri: Uri = method.parse().map_err(|_| PyValueError::new_err(format!("bad method {method:?}")))?;
    if !method.starts_with('/') || uri.path_and_query().is_none() {
        return Err(PyValueError::new_err(format!("bad method {method:?} (/package.Service/Method)")));
    }
    Ok(uri)
}

/// A bot's gRPC client: unary calls (:meth:`unary`), each answered by one event in its mailbox, and the streams
/// it opens (:meth:`stream`). ``address`` is ``unix:PATH`` or ``HOST:PORT``; answers longer than
/// ``max_response`` bytes and requests longer than ``max_request`` fail.
#[pyclass(module = "kafana_native.wire", frozen)]
pub struct WireClient {
    connection: Arc<Connection>,
    mailbox: Arc<Mailbox>,
    runtime: Arc<Runtime>,
    numbers: AtomicU64,
    calls: Mutex<Vec<AbortHandle>>,
}

#[pymethods]
impl WireClient {
    #[new]
    fn new(address: &str, max_response: usize, max_request: usize) -> PyResult<Self> {
        Ok(WireClient {
            connection: Arc::new(Connection {
                target: Target::parse(address)?,
                channel: tokio::sync::Mutex::new(None),
                max_response,
                max_request,
            }),
            mailbox: Mailbox::new()?,
            runtime: runtime()?,
            numbers: AtomicU64::new(0),
            calls: Mutex::new(Vec::new()),
        })
    }

    /// The eventfd that reads when events wait in the mailbox.
    fn fileno(&self) -> i32 {
        self.mailbox.fd.as_raw_fd()
    }

    /// Start a unary call of ``method`` with ``request``'s bytes and a deadline ``timeout`` seconds away (sent to
    /// the bot too), connecting first, and with ``wait_for_ready`` until the bot listens; returns the call's
    /// number, which its event carries.
    #[pyo3(signature = (method, request, timeout, wait_for_ready = false))]
    fn unary(&self, method: &str, request: &[u8], timeout: f64, wait_for_ready: bool) -> PyResult<u64> {
        let path = method_path(method)?;
        if !(timeout.is_finite() && timeout >= 0.0) {
            return Err(PyValueError::new_err(format!("bad timeout {timeout}")));
        }
        let deadline = Instant::now() + Duration::from_secs_f64(timeout.min(1e6));
        let number = self.numbers.fetch_add(1, Ordering::Relaxed) + 1;
        let (connection, mailbox, request) = (self.connection.clone(), self.mailbox.clone(), Bytes::copy_from_slice(request));
        let task = self.runtime.spawn(async move {
            let event = match connection.unary(path, request, wait_for_ready, deadline).await {
                Ok(payload) => Event::Answer { number, payload },
                Err(status) => {
                    let (code, details) = status_parts(&status);
                    Event::Ended { number, code, details }
                }
            };
            mailbox.post(event);
        });
        let mut calls = self.calls.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        calls.retain(|call| !call.is_finished());
        calls.push(task.abort_handle());
        Ok(number)
    }

    /// The events posted since the last take, as ``(kind, number, detail)``: ``ANSWER`` with the answer's bytes,
    /// ``ENDED`` with ``(code, details)``.
    fn take(&self, py: Python<'_>) -> PyResult<Vec<(u8, u64, PyObject)>> {
        self.mailbox.take_py(py)
    }

    /// Open a bidirectional stream of ``method`` on this client's connection (which must be up: a call answered).
    fn stream(&self, method: &str) -> PyResult<WireStream> {
        let path = method_path(method)?;
        let path = path.path_and_query().cloned().expect("a path");
        let mailbox = Mailbox::new()?;
        let waiting = Arc::new(Waiting::default());
        let (sender, receiver) = mpsc::unbounded_channel::<Bytes>();
        let (connection, posted, asked) = (self.connection.clone(), mailbox.clone(), waiting.clone());
        let task = self.runtime.spawn(async move {
            let ended = |status: Status| {
                let (code, details) = status_parts(&status);
                Event::Ended { number: 0, code, details }
            };
            let far = Instant::now() + Duration::from_secs(1 << 30);
            let channel = match connection.channel(false, far).await {
                Ok(channel) => channel,
                Err(status) => return posted.post(ended(status)),
            };
            let mut client = connection.client(channel);
            if let Err(error) = client.ready().await {
                return posted.post(ended(Status::unavailable(error.to_string())));
            }
            let requests = tokio_stream::wrappers::UnboundedReceiverStream::new(receiver);
            let mut answers = match client.streaming(tonic::Request::new(requests), path, Raw).await {
                Ok(response) => response.into_inner(),
                Err(status) => return posted.post(ended(status)),
            };
            let mut number = 0;
            loop {
                match answers.message().await {
                    Ok(Some(payload)) => {
                        number += 1;
                        if number > asked.sent.load(Ordering::Acquire) {
                            return posted.post(Event::Unasked); // dropping the stream cancels it
                        }
                        asked.answered(number);
                        posted.post(Event::Answer { number, payload });
                    }
                    Ok(None) => return posted.post(Event::Ended { number: 0, code: 0, details: String::new() }),
                    Err(status) => return posted.post(ended(status)),
                }
            }
        });
        // The clock runs apart from the call: a bot's server may send nothing, not even its headers, until it
        // answers.
        let (posted, clock) = (mailbox.clone(), waiting.clone());
        let timer = self.runtime.spawn(async move {
            loop {
                let awaited = clock.awaited();
                tokio::select! {
                    _ = tokio::time::sleep_until(awaited.map_or_else(Instant::now, |(_, at)| at)), if awaited.is_some() => {
                        let number = awaited.expect("an awaited message").0;
                        if clock.answered(number) {
                            posted.post(Event::Late { number });
                        }
                    }
                    _ = clock.changed.notified() => {}
                }
            }
        });
        Ok(WireStream {
            mailbox,
            sender: Mutex::new(Some(sender)),
            waiting,
            tasks: [task.abort_handle(), timer.abort_handle()],
        })
    }

    /// Cancel every call still on the wire and close the connection (its streams go on until closed).
    fn close(&self) {
        for call in self.calls.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).drain(..) {
            call.abort();
        }
        if let Ok(mut slot) = self.connection.channel.try_lock() {
            slot.take();
        }
    }
}

/// The message on a stream whose answer is awaited, and until when.
#[derive(Default)]
struct Waiting {
    /// How many messages were sent.
    sent: AtomicU64,
    /// The number of the message whose answer is awaited (0: none) and its deadline.
    until: Mutex<(u64, Option<Instant>)>,
    /// Told when a new message is awaited.
    changed: tokio::sync::Notify,
}

impl Waiting {
    /// The message whose answer is awaited, and its deadline.
    fn awaited(&self) -> Option<(u64, Instant)> {
        let until = *self.until.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        until.1.map(|at| (until.0, at))
    }

    /// Stop waiting for message `number`'s answer; whether it was awaited.
    fn answered(&self, number: u64) -> bool {
        let mut until = self.until.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let awaited = until.0 == number && until.1.is_some();
        if awaited {
            until.1 = None;
        }
        awaited
    }
}

/// One bidirectional stream: :meth:`send` a message, read its answer (or that it is late), and the stream's end,
/// from the mailbox. An answer ahead of its request ends the stream with an ``UNASKED`` event.
#[pyclass(module = "kafana_native.wire", frozen)]
pub struct WireStream {
    mailbox: Arc<Mailbox>,
    sender: Mutex<Option<mpsc::UnboundedSender<Bytes>>>,
    waiting: Arc<Waiting>,
    /// The call's reader and the clock of the awaited answer.
    tasks: [AbortHandle; 2],
}

#[pymethods]
impl WireStream {
    /// The eventfd that reads when events wait in the mailbox.
    fn fileno(&self) -> i32 {
        self.mailbox.fd.as_raw_fd()
    }

    /// Send one message whose answer is due within ``timeout`` seconds (else a ``LATE`` event comes, and the
    /// answer, if it comes after all, is an ordinary ``ANSWER``); returns its number, which its events carry. On
    /// a stream that ended, the end is in the mailbox.
    fn send(&self, message: &[u8], timeout: f64) -> PyResult<u64> {
        if !(timeout.is_finite() && timeout >= 0.0) {
            return Err(PyValueError::new_err(format!("bad timeout {timeout}")));
        }
        let number = self.waiting.sent.fetch_add(1, Ordering::AcqRel) + 1;
        *self.waiting.until.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) =
            (number, Some(Instant::now() + Duration::from_secs_f64(timeout.min(1e6))));
        if let Some(sender) = self.sender.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).as_ref() {
            let _ = sender.send(Bytes::copy_from_slice(message)); // gone: the stream ended, and said so
        }
        self.waiting.changed.notify_one();
        Ok(number)
    }

    /// The events posted since the last take, as ``(kind, number, detail)``: ``ANSWER`` with the answer's bytes,
    /// ``LATE``, ``ENDED`` (number 0) with ``(code, details)``, ``UNASKED``.
    fn take(&self, py: Python<'_>) -> PyResult<Vec<(u8, u64, PyObject)>> {
        self.mailbox.take_py(py)
    }

    /// End the stream from this side and cancel it.
    fn close(&self) {
        self.sender.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// The `wire` submodule of `kafana_native._core`.
pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let module = PyModule::new(py, "wire")?;
    module.add_class::<WireClient>()?;
    module.add_class::<WireStream>()?;
    module.add("ANSWER", ANSWER)?;
    module.add("ENDED", ENDED)?;
    module.add("UNASKED", UNASKED)?;
    module.add("LATE", LATE)?;
    Ok(module)
}
