//! Input: open a path, stdin or an http(s) URL, detect its compression from the magic bytes,
//! and hand out the *decompressed* WARC bytes as a [`BufRead`].
//!
//! Takes an [`InputSpec`] (parsed from a command-line argument by [`InputSpec::parse`]).
//! Gives an [`Input`]: a `BufRead + Send` over the decompressed bytes that also answers
//! [`Input::origin_of`], the offset in the *original* file to report for a record. For gzip
//! that is the compressed offset of the gzip member holding the record, which is exactly the
//! `offset` Common Crawl's CDX index stores, so a reported offset can be fed straight to an
//! HTTP range request.
//!
//! Compression is told by magic bytes, never by file name: `1f 8b` is gzip, `28 b5 2f fd` is
//! zstd, anything else is read as plain WARC.
//!
//! - **gzip** is read member by member (Common Crawl writes one member per record; a whole file
//!   compressed as one member works too). A member that lies whole in the compressed buffer
//!   is decoded in one call by libdeflate (`crate::inflate`); a longer one, or one libdeflate
//!   refuses, streams through flate2 (zlib-rs), which also words the errors. Each member's
//!   (decompressed start, compressed start) is remembered in a small deque, pruned as
//!   [`Input::origin_of`] moves forward. A corrupt or truncated member surfaces as an
//!   `io::Error` naming the member's compressed offset; the next read then resynchronises by
//!   scanning the compressed bytes for the next gzip member header (`1f 8b 08`), so one
//!   damaged record does not end the file.
//! - **zstd** is decoded frame by frame with one reused `zstd` decompression context, and,
//!   as for gzip, each frame's (decompressed start, compressed start) is remembered, so a
//!   record compressed as its own frame (what IIPC's `.warc.zst` specification asks for) is
//!   reported at its frame's offset. A dictionary frame (the skippable frame `0x184D2A5D`
//!   that ArchiveTeam's and other crawlers' `.warc.zst` files begin with, its dictionary
//!   itself zstd-compressed or not) loads the dictionary for the frames after it; other
//!   skippable frames are skipped. A corrupt or truncated frame surfaces as an `io::Error`
//!   naming its compressed offset, and the next read resynchronises at the next frame
//!   magic (`28 b5 2f fd`) or dictionary frame.
//! - **plain** bytes pass through; `origin_of` is the position itself. After a read error the
//!   input ends.
//! - **http(s)** is streamed with no temporary file: a current-thread tokio runtime owned by
//!   the `Input` drives a `reqwest` GET (connect timeout [`CONNECT_TIMEOUT`], per-read timeout
//!   [`READ_TIMEOUT`], no total timeout since WARC files are large), and every read blocks on
//!   that runtime. The compressed bytes then go through the same gzip/zstd/plain readers as a
//!   file, so gzip member offsets and member resynchronisation work for URLs too. A non-2xx
//!   status is an [`InputError::HttpStatus`]. URLs must be opened and read from a plain
//!   thread, not from inside an async runtime (that is an error, not a panic). Loopback URLs
//!   bypass any configured proxy.
//! - **Retries** (http(s) only, with [`open_with`] and a [`RetryPolicy`]; [`open`] tries once):
//!   transient failures are retried with exponential backoff and jitter, both when opening and
//!   in the middle of the body. Transient means: a connection that could not be made, was
//!   reset or timed out, and the statuses 408, 429 and 5xx except 501, 505 and 511; for 429
//!   and 503 a `Retry-After` in seconds is honoured (capped at [`RetryPolicy::max_delay`]).
//!   Other statuses (404, 403, ...) fail at once. A body that breaks off is resumed where it
//!   stopped with a `Range: bytes=N-` request (and `If-Range` with the first response's strong
//!   `ETag` or `Last-Modified`, so a file that changed meanwhile is not spliced); a server that
//!   answers anything but `206` from byte `N` ends the input. The retry count restarts whenever
//!   bytes arrive, so a long download survives any number of separated hiccups. After the last
//!   try the error says how many attempts were made ([`InputError::GaveUp`]), and a body that
//!   could not be finished is reported by [`Input::source_error`], so that the caller does not
//!   take a cut-off input for a complete one.
//!
//! Buffers are [`BUFFER_SIZE`] (256 KiB) on both the compressed and the decompressed side
//! (gzip's decompressed side is 1 MiB, up to 4 MiB, to take whole members): large enough
//! that a typical Common Crawl record (header + HTML, tens of KiB) is handed out from one
//! buffer, small enough to be irrelevant next to the worker threads' memory.
//!
//! ```no_run
//! use std::io::BufRead;
//! use warcsift::input::{open, InputSpec};
//!
//! let mut input = open(&InputSpec::parse("CC-MAIN-example.warc.gz"))?;
//! let first = input.fill_buf()?.len();
//! println!("{:?}, {first} bytes buffered", input.compression());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use flate2::bufread::GzDecoder;

use crate::inflate::{Inflater, Refused};

/// Size of the compressed-side and decompressed-side buffers (see the module doc).
pub const BUFFER_SIZE: usize = 256 * 1024;

/// Time allowed to establish a connection for an http(s) input.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Time allowed between two successful reads of an http(s) body before the read fails.
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// How http(s) inputs retry transient failures; see the module doc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0: try once).
    pub retries: u32,
    /// Delay before the first retry; doubled for each further one (with jitter: each delay is
    /// drawn uniformly from its upper half).
    pub base_delay: Duration,
    /// Longest single delay, also the cap on a server's `Retry-After`.
    pub max_delay: Duration,
}

impl RetryPolicy {
    /// One attempt, no retry.
    pub const ONCE: RetryPolicy = RetryPolicy {
        retries: 0,
        base_delay: Duration::ZERO,
        max_delay: Duration::ZERO,
    };

    /// The delay before retry number `retry` (from 1), or the server's `Retry-After`.
    fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(after) = retry_after {
            return after.min(self.max_delay);
        }
        let factor = 1u32
            .checked_shl(retry.saturating_sub(1))
            .unwrap_or(u32::MAX);
        let full = self
            .base_delay
            .checked_mul(factor)
            .unwrap_or(self.max_delay)
            .min(self.max_delay);
        // Equal jitter: half fixed, half random, so that a thousand tasks that failed together
        // do not come back together.
        let half = full / 2;
        half + half.mul_f64(random_unit())
    }
}

impl Default for RetryPolicy {
    /// 5 retries, 1 s doubling to at most 60 s: rides out about a minute of trouble.
    fn default() -> Self {
        RetryPolicy {
            retries: 5,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
        }
    }
}

/// A number in `[0, 1)` that differs between calls and processes (no `rand` dependency: the
/// standard library's randomly keyed hasher is enough for jitter).
fn random_unit() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// Options for [`open_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Retries of http(s) inputs.
    pub retry: RetryPolicy,
}

/// Bound on remembered gzip members. Only members still in the decompressed buffer can be
/// asked about, so this is only reached by pathological streams of tiny or empty members.
const MAX_MEMBERS: usize = 4096;

/// Where the WARC bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSpec {
    /// A file on disk.
    Path(PathBuf),
    /// Standard input (written `-` on the command line).
    Stdin,
    /// An `http://` or `https://` URL, streamed.
    Url(String),
    /// Chosen records of a file or URL (`--records`): each (offset, length) range is read
    /// with a seek or one HTTP `Range` request, and the ranges one after another are the
    /// input. Offsets reported are those in the source.
    Records {
        /// The WARC file or URL.
        source: Box<InputSpec>,
        /// (offset, length) of each record, in reading order.
        ranges: Vec<(u64, u64)>,
    },
}

impl InputSpec {
    /// Reads a command-line argument: `-` is stdin, `http://…` or `https://…` (scheme in any
    /// case) is a URL, anything else is a path.
    pub fn parse(s: &str) -> InputSpec {
        if s == "-" {
            return InputSpec::Stdin;
        }
        let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            InputSpec::Url(s.to_string())
        } else {
            InputSpec::Path(PathBuf::from(s))
        }
    }

    /// A human-readable name for messages and output naming: the path, `stdin`, or the URL.
    pub fn name(&self) -> String {
        match self {
            InputSpec::Path(p) => p.display().to_string(),
            InputSpec::Stdin => "stdin".to_string(),
            InputSpec::Url(u) => u.clone(),
            InputSpec::Records { source, .. } => source.name(),
        }
    }
}

impl fmt::Display for InputSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Compression of an input, told by its magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain, uncompressed bytes.
    None,
    /// gzip (`1f 8b`), one or many members.
    Gzip,
    /// zstd (`28 b5 2f fd`), one or many frames.
    Zstd,
    /// lz4 frames (`04 22 4d 18`), one per record as fastwarc writes them.
    Lz4,
}

impl Compression {
    /// Lower-case name for logs and stats: `none`, `gzip`, `zstd`.
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Lz4 => "lz4",
        }
    }
}

/// The magic number of an lz4 frame (`0x184D2204`, little-endian).
const LZ4_MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];

/// The magic number of a zstd frame (`0xFD2FB528`, little-endian).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The magic number of the skippable frame that holds a `.warc.zst` file's dictionary
/// (`0x184D2A5D`, little-endian; IIPC's "Zstandard Compression for WARC Files 1.0").
const ZSTD_DICT_MAGIC: [u8; 4] = [0x5d, 0x2a, 0x4d, 0x18];

/// The largest dictionary read from a dictionary frame, compressed or not: real ones are a
/// few hundred KiB, and a frame's 32-bit size could otherwise ask for 4 GiB.
const ZSTD_DICT_MAX: u64 = 64 << 20;

/// Tells the compression from the first bytes of a stream (fewer than 4 bytes is fine).
pub fn detect(magic: &[u8]) -> Compression {
    if magic.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if magic.starts_with(&ZSTD_MAGIC) || magic.starts_with(&ZSTD_DICT_MAGIC) {
        Compression::Zstd
    } else if magic.starts_with(&LZ4_MAGIC) {
        Compression::Lz4
    } else {
        Compression::None
    }
}

/// Why an input could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be opened.
    #[error("cannot open {}: {source}", .path.display())]
    Open {
        /// The path given.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },
    /// A folder was given where a file was expected.
    #[error("{} is a folder, not a file", .path.display())]
    Directory {
        /// The path given.
        path: PathBuf,
    },
    /// The first bytes (used to detect compression) could not be read.
    #[error("cannot read the first bytes of {name}: {source}")]
    Read {
        /// Input name.
        name: String,
        /// The reason.
        source: io::Error,
    },
    /// The zstd decoder could not be set up.
    #[error("cannot start a zstd decoder for {name}: {source}")]
    Zstd {
        /// Input name.
        name: String,
        /// The reason.
        source: io::Error,
    },
    /// The server answered with a status outside 200..=299.
    #[error("GET {url} answered with HTTP status {status}, not a success (2xx) status")]
    HttpStatus {
        /// The URL requested.
        url: String,
        /// The status code received.
        status: u16,
    },
    /// The request could not be made or its response could not be read.
    #[error("GET {url} failed: {message}")]
    HttpTransport {
        /// The URL requested.
        url: String,
        /// The error and its causes, joined with `: `.
        message: String,
    },
    /// Every attempt failed with a transient error (or the last with a permanent one).
    #[error("{last} (gave up after {attempts} attempts)")]
    GaveUp {
        /// Attempts made, the first included.
        attempts: u32,
        /// The last attempt's error.
        last: Box<InputError>,
    },
    /// A URL was opened from inside an async runtime, where blocking reads are not allowed.
    #[error("cannot open {url} from inside an async runtime; open URLs from a plain thread")]
    InsideAsyncRuntime {
        /// The URL requested.
        url: String,
    },
    /// The runtime for http inputs could not be created.
    #[error("cannot start the I/O runtime needed to read {url}: {source}")]
    Runtime {
        /// The URL requested.
        url: String,
        /// The reason.
        source: io::Error,
    },
}

/// Opens an input and sets up decompression by magic bytes, trying an http(s) input once.
/// See the module doc.
pub fn open(spec: &InputSpec) -> Result<Input, InputError> {
    open_with(
        spec,
        &OpenOptions {
            retry: RetryPolicy::ONCE,
        },
    )
}

/// The whole of one document: a path, or `-` for stdin, decompressed by its magic bytes
/// like any input (a page saved as `page.html.gz` reads as its HTML). For commands that
/// take one page (`page`, `explain`), never a URL.
pub fn read_document(arg: impl AsRef<std::path::Path>) -> Result<Vec<u8>, String> {
    let arg = arg.as_ref();
    let spec = if arg.as_os_str() == "-" {
        InputSpec::Stdin
    } else {
        InputSpec::Path(arg.to_path_buf())
    };
    let mut input = open(&spec).map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    input
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read {}: {e}", spec.name()))?;
    Ok(buf)
}

/// Opens an input file. A folder opens too on Unix, and would fail at its first read
/// with "Is a directory": it is refused here (`extract` adds what to pass instead).
fn open_file(path: &Path) -> Result<File, InputError> {
    let file = File::open(path).map_err(|source| InputError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(InputError::Directory {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

/// [`open`] with options: http(s) inputs retry transient failures per `opts.retry`.
pub fn open_with(spec: &InputSpec, opts: &OpenOptions) -> Result<Input, InputError> {
    match spec {
        InputSpec::Path(path) => Input::from_reader(spec.name(), open_file(path)?),
        InputSpec::Stdin => Input::from_reader(spec.name(), io::stdin()),
        InputSpec::Records { source, ranges } => {
            let failure = Arc::new(Mutex::new(None));
            let fetch = match source.as_ref() {
                InputSpec::Path(path) => Fetch::File(open_file(path)?),
                InputSpec::Url(url) => Fetch::Url(url.clone(), opts.retry),
                _ => {
                    return Err(InputError::Read {
                        name: spec.name(),
                        source: io::Error::other("records can be read from a file or a URL only"),
                    })
                }
            };
            let mut reader = RangeReader {
                fetch,
                ranges: ranges.clone(),
                next: 0,
                current: None,
                failure: Arc::clone(&failure),
            };
            // A record of a dictionary-compressed `.warc.zst` file cannot be read without
            // the dictionary at the file's start: its frame is read first.
            let name = source.name();
            if name.ends_with(".zst") || name.ends_with(".zstd") {
                let dictionary = reader
                    .dictionary_range()
                    .map_err(|source| InputError::Read {
                        name: spec.name(),
                        source,
                    })?;
                reader.ranges.splice(0..0, dictionary);
            }
            let mut map = Vec::with_capacity(reader.ranges.len());
            let mut at = 0u64;
            for &(offset, length) in &reader.ranges {
                map.push((at, offset));
                at += length;
            }
            let mut input = Input::from_reader(spec.name(), reader)?;
            if let Some(why) = failure.lock().ok().and_then(|f| f.clone()) {
                return Err(InputError::Read {
                    name: spec.name(),
                    source: io::Error::other(why),
                });
            }
            input.source_failure = Some(failure);
            input.range_map = map;
            Ok(input)
        }
        InputSpec::Url(url) => {
            let body = HttpBody::get(url, opts.retry, None)?;
            let failure = Arc::clone(&body.failure);
            let mut input = Input::from_reader(spec.name(), body)?;
            input.source_failure = Some(failure);
            Ok(input)
        }
    }
}

/// The decompressed bytes of one input; see the module doc.
pub struct Input {
    name: String,
    compression: Compression,
    inner: Inner,
    position: u64,
    /// Set after a read error on a source that cannot resynchronise: later reads see EOF.
    failed: bool,
    /// For http(s): set when the body could not be read to its end (see [`Input::source_error`]).
    source_failure: Option<Arc<Mutex<Option<String>>>>,
    /// The first raw bytes (for [`Input::describe`]).
    magic: Vec<u8>,
    /// The first decompressed bytes, once read (for [`Input::describe`]).
    head: Vec<u8>,
    /// Raw (compressed) bytes read from the source so far.
    raw_read: Arc<AtomicU64>,
    /// For [`InputSpec::Records`]: (start in the concatenated ranges, offset in the source)
    /// of each range, to report offsets in the source.
    range_map: Vec<(u64, u64)>,
}

/// A reader that counts the bytes read through it (for progress).
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Raw and decompressed bytes kept to describe an input that held no record.
const MAGIC_BYTES: usize = 64;

enum Inner {
    Plain(RawBuf),
    Gzip(GzMembers),
    Zstd(Box<ZstdFrames>),
    Lz4(Box<Lz4Frames>),
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("name", &self.name)
            .field("compression", &self.compression)
            .field("position", &self.position)
            .finish_non_exhaustive()
    }
}

impl Input {
    /// Wraps any byte source (a file, stdin, an in-memory buffer in tests), detecting its
    /// compression from the first bytes. `name` is used in error messages.
    pub fn from_reader<R: Read + Send + 'static>(
        name: impl Into<String>,
        reader: R,
    ) -> Result<Input, InputError> {
        let name = name.into();
        let raw_read = Arc::new(AtomicU64::new(0));
        let counted = Counted {
            inner: reader,
            count: Arc::clone(&raw_read),
        };
        let mut raw = RawBuf::new(Box::new(counted));
        let magic = match raw.peek(MAGIC_BYTES) {
            Ok(magic) => magic.get(..MAGIC_BYTES).unwrap_or(magic).to_vec(),
            Err(source) => return Err(InputError::Read { name, source }),
        };
        let compression = detect(&magic);
        let inner = match compression {
            Compression::None => Inner::Plain(raw),
            Compression::Gzip => Inner::Gzip(GzMembers::new(raw)),
            Compression::Zstd => {
                let frames = ZstdFrames::new(raw).map_err(|source| InputError::Zstd {
                    name: name.clone(),
                    source,
                })?;
                Inner::Zstd(Box::new(frames))
            }
            Compression::Lz4 => Inner::Lz4(Box::new(Lz4Frames::new(raw))),
        };
        Ok(Input {
            name,
            compression,
            inner,
            position: 0,
            failed: false,
            source_failure: None,
            magic,
            head: Vec::new(),
            raw_read,
            range_map: Vec::new(),
        })
    }

    /// Why the source could not be read to its end, if it could not: an http(s) body that
    /// broke off and could not be resumed. The decompressing layers above may have reported it
    /// as a corrupt or truncated member and then simply ended, so a caller that must not take
    /// a cut-off input for a complete one asks here once the input is exhausted. Always `None`
    /// for files and stdin.
    pub fn source_error(&self) -> Option<String> {
        let failure = self.source_failure.as_ref()?;
        failure.lock().map_or(None, |f| f.clone())
    }

    /// One sentence on what the input looks like, from its first bytes: for an input from
    /// which no record could be read ("an ARC file (starts with `filedesc://`)", "an lz4
    /// frame", "HTML, not an archive", "empty", ...).
    pub fn describe(&self) -> String {
        describe(self.compression, &self.magic, &self.head)
    }

    /// Raw bytes read from the source so far (compressed, as in the file; up to a buffer
    /// ahead of the bytes handed out), for progress.
    pub fn raw_bytes_read(&self) -> u64 {
        self.raw_read.load(Ordering::Relaxed)
    }

    /// The compression detected at open.
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The input's name (path, `stdin` or URL).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Decompressed bytes handed out so far (read or consumed).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The offset to report for a record starting at decompressed position `decompressed_pos`:
    /// for gzip, the compressed offset of the member (for zstd and lz4, the frame) in which
    /// that position lies; for plain inputs, the position itself.
    ///
    /// Positions must be asked in non-decreasing order and must not lie beyond bytes already
    /// buffered (ask after peeking the record's first bytes); members before the asked
    /// position are forgotten.
    pub fn origin_of(&mut self, decompressed_pos: u64) -> u64 {
        match &mut self.inner {
            Inner::Gzip(r) => r.members.origin_of(decompressed_pos),
            Inner::Lz4(r) => r.members.origin_of(decompressed_pos),
            Inner::Zstd(r) => r.members.origin_of(decompressed_pos),
            Inner::Plain(_) => decompressed_pos,
        }
    }

    /// The offset to report for a record starting at decompressed position `pos`, as
    /// [`Input::origin_of`] but for the second and later records that start inside one
    /// gzip member or zstd or lz4 frame (a whole file compressed as one member): their
    /// decompressed position, so that offsets stay unique. So an offset is the compressed
    /// offset of the record's member when the record is the first to start in it (one member
    /// per record, as Common Crawl writes), and a decompressed offset otherwise; plain inputs
    /// always give decompressed offsets. Same calling rules as [`Input::origin_of`].
    pub fn record_offset(&mut self, pos: u64) -> u64 {
        let offset = match &mut self.inner {
            Inner::Gzip(r) => r.members.record_offset(pos),
            Inner::Lz4(r) => r.members.record_offset(pos),
            Inner::Zstd(r) => r.members.record_offset(pos),
            Inner::Plain(_) => pos,
        };
        // Records fetched by range: the offset in the source file.
        let k = self
            .range_map
            .partition_point(|&(start, _)| start <= offset);
        match k.checked_sub(1).and_then(|k| self.range_map.get(k)) {
            Some(&(start, source)) => source + (offset - start),
            None => offset,
        }
    }

    fn inner_fill_buf(&mut self) -> io::Result<&[u8]> {
        match &mut self.inner {
            Inner::Plain(r) => r.fill_buf(),
            Inner::Gzip(r) => r.fill_buf(),
            Inner::Zstd(r) => r.fill_buf(),
            Inner::Lz4(r) => r.fill_buf(),
        }
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.failed {
            return Ok(&[]);
        }
        // Check for an error first, then borrow the (already filled) buffer for the caller.
        let want_head = self.position == 0 && self.head.is_empty();
        let filled = self
            .inner_fill_buf()
            .map(|buf| want_head.then(|| buf.get(..MAGIC_BYTES).unwrap_or(buf).to_vec()));
        if let Ok(Some(head)) = &filled {
            self.head.clone_from(head);
        }
        if let Err(e) = filled {
            let resumable = e.kind() == io::ErrorKind::Interrupted
                || matches!(self.inner, Inner::Gzip(_) | Inner::Zstd(_));
            if resumable {
                return Err(e);
            }
            self.failed = true;
            return Err(io::Error::new(
                e.kind(),
                format!(
                    "reading {} failed at decompressed byte {}: {e}",
                    self.name, self.position
                ),
            ));
        }
        self.inner_fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if self.failed {
            return;
        }
        let available = match &mut self.inner {
            Inner::Plain(r) => r.available(),
            Inner::Gzip(r) => r.available(),
            Inner::Zstd(r) => r.available(),
            Inner::Lz4(r) => r.available(),
        };
        let amt = amt.min(available);
        match &mut self.inner {
            Inner::Plain(r) => r.consume(amt),
            Inner::Gzip(r) => r.consume(amt),
            Inner::Zstd(r) => r.consume(amt),
            Inner::Lz4(r) => r.consume(amt),
        }
        self.position += amt as u64;
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

/// `Read::read` for a reader whose `BufRead` side does the work: copies what `fill_buf`
/// has, up to `buf`'s length.
fn read_buffered(r: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = r.fill_buf()?;
    let n = available.len().min(buf.len());
    if let (Some(dst), Some(src)) = (buf.get_mut(..n), available.get(..n)) {
        dst.copy_from_slice(src);
    }
    r.consume(n);
    Ok(n)
}

/// A buffered reader over the raw (possibly compressed) bytes that counts what was consumed
/// and can peek a few bytes across a refill (for magic detection and gzip resynchronisation).
struct RawBuf {
    inner: Box<dyn Read + Send>,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    consumed: u64,
}

impl RawBuf {
    fn new(inner: Box<dyn Read + Send>) -> RawBuf {
        RawBuf {
            inner,
            buf: vec![0; BUFFER_SIZE].into_boxed_slice(),
            start: 0,
            end: 0,
            consumed: 0,
        }
    }

    /// A reader of nothing, with no buffer: what a [`GzMembers`] decoder kept for reuse
    /// holds between members.
    fn placeholder() -> RawBuf {
        RawBuf {
            inner: Box::new(io::empty()),
            buf: Box::default(),
            start: 0,
            end: 0,
            consumed: 0,
        }
    }

    fn available(&self) -> usize {
        self.end - self.start
    }

    fn buffered(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or(&[])
    }

    /// Returns at least `n` buffered bytes unless the source ends first (then all that is
    /// left). `n` is capped at the buffer size.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        let n = n.min(self.buf.len());
        while self.available() < n {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            let Some(space) = self.buf.get_mut(self.end..) else {
                break;
            };
            match self.inner.read(space) {
                Ok(0) => break,
                Ok(got) => self.end += got.min(space.len()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.buffered())
    }
}

impl Read for RawBuf {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl BufRead for RawBuf {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start >= self.end {
            self.start = 0;
            self.end = 0;
            let got = self.inner.read(&mut self.buf)?;
            self.end = got.min(self.buf.len());
        }
        Ok(self.buffered())
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.available());
        self.start += amt;
        self.consumed += amt as u64;
    }
}

/// Where one gzip member (or lz4 frame) starts, in decompressed and compressed coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Member {
    decompressed: u64,
    compressed: u64,
}

/// The starts of the members still in the decompressed buffer, and the rule for the offset
/// of a record: the compressed start of its member when it is the first record asked about
/// in that member (one member per record, as Common Crawl writes), else its decompressed
/// position (whole-file gzip: every record after the first lies inside one member, whose
/// compressed start would be the same for all).
#[derive(Debug, Default)]
struct MemberIndex {
    members: VecDeque<Member>,
    /// The member of the last position asked about, and whether a record was answered in it.
    last_asked: Option<u64>,
}

impl MemberIndex {
    /// Records that a member starts at compressed offset `compressed`, at decompressed
    /// position `decompressed`.
    fn note(&mut self, decompressed: u64, compressed: u64) {
        let member = Member {
            decompressed,
            compressed,
        };
        // Members that produced nothing cannot contain a position: keep only the last one.
        if self
            .members
            .back()
            .is_some_and(|m| m.decompressed == member.decompressed)
        {
            self.members.pop_back();
        }
        if self.members.len() >= MAX_MEMBERS {
            self.members.pop_front();
        }
        self.members.push_back(member);
    }

    /// The compressed start of the member holding `pos` (0 before any member).
    fn origin_of(&mut self, pos: u64) -> u64 {
        while self.members.get(1).is_some_and(|m| m.decompressed <= pos) {
            self.members.pop_front();
        }
        self.members.front().map_or(0, |m| m.compressed)
    }

    /// The offset of a record starting at `pos` (see the type's doc).
    fn record_offset(&mut self, pos: u64) -> u64 {
        let member = self.origin_of(pos);
        if self.members.is_empty() || self.last_asked == Some(member) {
            return pos;
        }
        self.last_asked = Some(member);
        member
    }
}

enum GzState {
    /// Inside a member that starts at compressed offset `start`.
    Member {
        decoder: Box<GzDecoder<RawBuf>>,
        start: u64,
    },
    /// A member just ended; the next read starts another one or reports the end.
    Between(RawBuf),
    /// A member failed; the next read scans for the next member header.
    Resync(RawBuf),
    /// End of input.
    Done,
}

/// Decompresses a gzip stream member by member, remembering where each member starts.
///
/// A member that lies whole in the compressed buffer is decoded in one call by libdeflate
/// ([`Inflater`]) straight into `out`, which is where [`BufRead::fill_buf`] hands it out
/// from. Any other member (longer than the buffered bytes, or refused by libdeflate for
/// whatever reason) is decoded again from its start by the streaming decoder, which also
/// words the error of a damaged member and leads to resynchronisation. So the fast path
/// changes neither the bytes of intact members nor the errors nor the offsets. Of a damaged
/// member, how much of its undamaged beginning is handed out before the error depends on
/// how the compressed bytes were buffered, as it did with the streaming decoder alone (a
/// pipe and a file deliver them in different pieces); `whole_members_change_nothing`
/// holds the two paths to this.
struct GzMembers {
    state: GzState,
    /// Decompressed bytes produced so far.
    produced: u64,
    members: MemberIndex,
    /// The last member's decoder, reset for the next one: a new decoder per member (one per
    /// record in Common Crawl files) allocated and zeroed its inflate state every time.
    spare: Option<Box<GzDecoder<RawBuf>>>,
    /// Decompressed bytes; `out[pos..len]` are not handed out yet. At least
    /// [`WHOLE_MEMBER_ROOM`] long, grown up to [`WHOLE_MEMBER_MAX`] for larger members.
    out: Vec<u8>,
    pos: usize,
    len: usize,
    /// libdeflate, for whole members (`None` if it could not be allocated: then every
    /// member streams).
    whole: Option<Inflater>,
}

/// Room for a member's decompressed bytes on the whole-member path at first (Common Crawl
/// records rarely exceed 1 MiB: payloads are truncated there) ...
const WHOLE_MEMBER_ROOM: usize = 1 << 20;
/// ... and at most: a member that decompresses to more streams.
const WHOLE_MEMBER_MAX: usize = 4 << 20;
/// The compressed buffer is topped up before a member when fewer bytes than this are left
/// in it, so that any member up to this size is seen whole.
const WHOLE_MEMBER_TOP_UP: usize = BUFFER_SIZE / 2;

impl GzMembers {
    fn new(raw: RawBuf) -> GzMembers {
        GzMembers {
            state: GzState::Between(raw),
            produced: 0,
            members: MemberIndex::default(),
            spare: None,
            out: vec![0; WHOLE_MEMBER_ROOM],
            pos: 0,
            len: 0,
            whole: Inflater::new(),
        }
    }

    /// Decompressed bytes buffered and not yet consumed.
    fn available(&self) -> usize {
        self.len - self.pos
    }

    /// Takes the reader back from a decoder whose member ended or failed, keeping the
    /// decoder for the next member.
    fn release(&mut self, mut decoder: Box<GzDecoder<RawBuf>>) -> RawBuf {
        let raw = std::mem::replace(decoder.get_mut(), RawBuf::placeholder());
        self.spare = Some(decoder);
        raw
    }

    /// Records that a member starts at compressed offset `compressed`, here in the output.
    fn note_member(&mut self, compressed: u64) {
        self.members.note(self.produced, compressed);
    }

    /// Starts streaming the member at `raw`'s position.
    fn start_member(&mut self, raw: RawBuf) {
        let start = raw.consumed;
        self.note_member(start);
        let decoder = match self.spare.take() {
            // `reset` clears the gzip, CRC and inflate state (keeping its allocations) and
            // hands back the placeholder.
            Some(mut decoder) => {
                decoder.reset(raw);
                decoder
            }
            None => Box::new(GzDecoder::new(raw)),
        };
        self.state = GzState::Member { decoder, start };
    }

    /// Decodes the member at `raw`'s position whole into `out`, if it is in the buffer and
    /// valid: returns its decompressed length, or `None` (nothing consumed) to stream it.
    fn whole_member(&mut self, raw: &mut RawBuf) -> io::Result<Option<usize>> {
        let Some(inflater) = self.whole.as_mut() else {
            return Ok(None);
        };
        if raw.available() < WHOLE_MEMBER_TOP_UP {
            raw.peek(BUFFER_SIZE)?;
        }
        let (used, made) = loop {
            match inflater.gzip_member(raw.buffered(), &mut self.out) {
                Ok(done) => break done,
                Err(Refused::NoRoom) if self.out.len() < WHOLE_MEMBER_MAX => {
                    let grown = self.out.len() * 2;
                    self.out.resize(grown, 0);
                }
                Err(_) => return Ok(None),
            }
        };
        self.note_member(raw.consumed);
        raw.consume(used);
        self.produced += made as u64;
        Ok(Some(made))
    }

    /// Scans for the next plausible member header (`1f 8b 08`, reserved flag bits clear).
    /// Returns the reader positioned at it, or `None` at end of input.
    fn resync(mut raw: RawBuf) -> io::Result<Option<RawBuf>> {
        loop {
            let buf = raw.fill_buf()?;
            if buf.is_empty() {
                return Ok(None);
            }
            let Some(i) = memchr::memchr(0x1f, buf) else {
                let n = buf.len();
                raw.consume(n);
                continue;
            };
            raw.consume(i);
            let head = raw.peek(4)?;
            if head.len() < 4 {
                // Too short to be a member: nothing more can follow.
                let n = head.len();
                raw.consume(n);
                return Ok(None);
            }
            if head.starts_with(&[0x1f, 0x8b, 0x08]) && head.get(3).is_some_and(|f| f & 0xe0 == 0) {
                return Ok(Some(raw));
            }
            raw.consume(1);
        }
    }

    /// Decompresses the next bytes into `out` (from its start); 0 at the end of input.
    fn refill(&mut self) -> io::Result<usize> {
        loop {
            match std::mem::replace(&mut self.state, GzState::Done) {
                GzState::Member { mut decoder, start } => {
                    let room = self.out.get_mut(..BUFFER_SIZE).unwrap_or_default();
                    match decoder.read(room) {
                        Ok(0) => self.state = GzState::Between(self.release(decoder)),
                        Ok(n) => {
                            self.produced += n as u64;
                            self.state = GzState::Member { decoder, start };
                            return Ok(n);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                            self.state = GzState::Member { decoder, start };
                            return Err(e);
                        }
                        Err(e) => {
                            let what = if e.kind() == io::ErrorKind::UnexpectedEof {
                                "is truncated"
                            } else {
                                "is corrupt"
                            };
                            self.state = GzState::Resync(self.release(decoder));
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                format!(
                                    "the gzip member at compressed offset {start} {what} ({e})"
                                ),
                            ));
                        }
                    }
                }
                GzState::Between(mut raw) => match raw.fill_buf() {
                    Ok([]) => return Ok(0),
                    Ok(_) => match self.whole_member(&mut raw) {
                        Ok(Some(made)) => {
                            self.state = GzState::Between(raw);
                            // An empty member hands out nothing: on to the next.
                            if made > 0 {
                                return Ok(made);
                            }
                        }
                        Ok(None) => self.start_member(raw),
                        Err(e) => {
                            self.state = GzState::Between(raw);
                            return Err(e);
                        }
                    },
                    Err(e) => {
                        self.state = GzState::Between(raw);
                        return Err(e);
                    }
                },
                GzState::Resync(raw) => match Self::resync(raw)? {
                    Some(raw) => self.start_member(raw),
                    None => return Ok(0),
                },
                GzState::Done => return Ok(0),
            }
        }
    }
}

/// `BufRead` (and the `Read` it needs; the input reads through `fill_buf`) for a decoder
/// that hands out `out[pos..len]` and refills `out` from its start with `refill`.
macro_rules! refilled_buf_read {
    ($t:ty) => {
        impl BufRead for $t {
            fn fill_buf(&mut self) -> io::Result<&[u8]> {
                if self.pos >= self.len {
                    (self.pos, self.len) = (0, 0);
                    self.len = self.refill()?.min(self.out.len());
                }
                Ok(self.out.get(self.pos..self.len).unwrap_or_default())
            }

            fn consume(&mut self, amt: usize) {
                self.pos = (self.pos + amt).min(self.len);
            }
        }

        impl Read for $t {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                read_buffered(self, buf)
            }
        }
    };
}

refilled_buf_read!(GzMembers);

/// Decompresses a stream of lz4 frames (`lz4_flex`'s frame decoder ends at each frame's end
/// mark; the next frame is started here), remembering where each frame starts so that a
/// record written as one frame gets its compressed offset, as a gzip member does.
struct Lz4Frames {
    decoder: lz4_flex::frame::FrameDecoder<RawBuf>,
    members: MemberIndex,
    /// Decompressed bytes consumed so far.
    produced: u64,
    /// The decoder ended a frame (or has not started one): the next read starts another.
    between: bool,
    /// Bytes of the decoder's buffer not consumed yet.
    available: usize,
}

impl Lz4Frames {
    fn new(raw: RawBuf) -> Lz4Frames {
        Lz4Frames {
            decoder: lz4_flex::frame::FrameDecoder::new(raw),
            members: MemberIndex::default(),
            produced: 0,
            between: true,
            available: 0,
        }
    }

    fn available(&self) -> usize {
        self.available
    }

    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.available == 0 {
            loop {
                if self.between {
                    let raw = self.decoder.get_mut();
                    if raw.peek(1)?.is_empty() {
                        break;
                    }
                    let start = raw.consumed;
                    self.members.note(self.produced, start);
                    self.between = false;
                }
                let n = self.decoder.fill_buf()?.len();
                if n > 0 {
                    self.available = n;
                    break;
                }
                self.between = true;
            }
        }
        if self.available == 0 {
            return Ok(&[]);
        }
        self.decoder.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.available);
        self.decoder.consume(amt);
        self.available -= amt;
        self.produced += amt as u64;
    }
}

/// Decompresses a stream of zstd frames with one reused context, remembering where each
/// frame starts (see the module doc). Dictionary frames load their dictionary into the
/// context, which keeps it for every frame after (`ZSTD_DCtx_loadDictionary`).
struct ZstdFrames {
    raw: RawBuf,
    dctx: zstd::zstd_safe::DCtx<'static>,
    members: MemberIndex,
    /// Decompressed bytes handed out or buffered so far.
    produced: u64,
    /// Compressed offset of the frame being decoded, `None` between frames.
    frame: Option<u64>,
    /// The compressed offset of a frame that failed: the next read scans for the next
    /// frame after it.
    resync: Option<u64>,
    /// Decompressed bytes; `out[pos..len]` are not handed out yet.
    out: Box<[u8]>,
    pos: usize,
    len: usize,
}

impl ZstdFrames {
    fn new(raw: RawBuf) -> io::Result<ZstdFrames> {
        let dctx = zstd::zstd_safe::DCtx::try_create()
            .ok_or_else(|| io::Error::other("cannot allocate a zstd decompression context"))?;
        let mut frames = ZstdFrames {
            raw,
            dctx,
            members: MemberIndex::default(),
            produced: 0,
            frame: None,
            resync: None,
            out: vec![0; BUFFER_SIZE].into_boxed_slice(),
            pos: 0,
            len: 0,
        };
        // A dictionary that cannot be read makes every frame after it unreadable: the
        // input fails at open, loudly, instead of as one error per frame.
        if frames.raw.peek(4)?.starts_with(&ZSTD_DICT_MAGIC) {
            frames.load_dictionary()?;
        }
        Ok(frames)
    }

    fn available(&self) -> usize {
        self.len - self.pos
    }

    /// Reads the dictionary frame at the reader's position into the context.
    fn load_dictionary(&mut self) -> io::Result<()> {
        let at = self.raw.consumed;
        let bad = |why: String| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the zstd dictionary frame at compressed offset {at} {why}"),
            )
        };
        let head = self.raw.peek(8)?;
        let size = match head.get(4..8).and_then(|b| <[u8; 4]>::try_from(b).ok()) {
            Some(b) => u64::from(u32::from_le_bytes(b)),
            None => return Err(bad("is truncated".into())),
        };
        if size > ZSTD_DICT_MAX {
            return Err(bad(format!(
                "declares a {size}-byte dictionary (at most {ZSTD_DICT_MAX} are read)"
            )));
        }
        self.raw.consume(8);
        let mut payload = Vec::new();
        (&mut self.raw).take(size).read_to_end(&mut payload)?;
        if (payload.len() as u64) < size {
            return Err(bad("is truncated".into()));
        }
        // The specification lets the dictionary itself be zstd-compressed (without one).
        let dict = if payload.starts_with(&ZSTD_MAGIC) {
            let mut dict = Vec::new();
            zstd::stream::read::Decoder::with_buffer(&payload[..])
                .and_then(|d| d.take(ZSTD_DICT_MAX + 1).read_to_end(&mut dict))
                .map_err(|e| {
                    bad(format!(
                        "holds a dictionary that cannot be decompressed ({e})"
                    ))
                })?;
            if dict.len() as u64 > ZSTD_DICT_MAX {
                return Err(bad(format!(
                    "holds a dictionary of more than {ZSTD_DICT_MAX} bytes"
                )));
            }
            dict
        } else {
            payload
        };
        self.dctx.load_dictionary(&dict).map_err(|code| {
            bad(format!(
                "holds an unusable dictionary ({})",
                zstd_error(code)
            ))
        })?;
        Ok(())
    }

    /// Scans for the next frame or dictionary frame magic after the failed one at `failed`;
    /// false at end of input.
    fn resync(&mut self, failed: u64) -> io::Result<bool> {
        if self.raw.consumed <= failed {
            // The failed frame's own magic is not the next frame.
            let skip = (failed + 1 - self.raw.consumed) as usize;
            let n = self.raw.peek(skip)?.len().min(skip);
            self.raw.consume(n);
        }
        loop {
            let buf = self.raw.fill_buf()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let Some(i) = memchr::memchr2(ZSTD_MAGIC[0], ZSTD_DICT_MAGIC[0], buf) else {
                let n = buf.len();
                self.raw.consume(n);
                continue;
            };
            self.raw.consume(i);
            let head = self.raw.peek(4)?;
            if head.len() < 4 {
                let n = head.len();
                self.raw.consume(n);
                return Ok(false);
            }
            if head.starts_with(&ZSTD_MAGIC) || head.starts_with(&ZSTD_DICT_MAGIC) {
                return Ok(true);
            }
            self.raw.consume(1);
        }
    }

    /// Decompresses the next bytes into `out` (from its start); 0 at the end of input.
    fn refill(&mut self) -> io::Result<usize> {
        loop {
            if self.frame.is_none() {
                if let Some(failed) = self.resync.take() {
                    if !self.resync(failed)? {
                        return Ok(0);
                    }
                }
                let head = self.raw.peek(4)?;
                if head.is_empty() {
                    return Ok(0);
                }
                if head.starts_with(&ZSTD_DICT_MAGIC) {
                    // A later file's dictionary (`cat a.warc.zst b.warc.zst`) replaces the
                    // earlier one; one that cannot be read skips to the next frame.
                    let at = self.raw.consumed;
                    if let Err(e) = self.load_dictionary() {
                        self.resync = Some(at);
                        return Err(e);
                    }
                    continue;
                }
                let start = self.raw.consumed;
                self.members.note(self.produced, start);
                self.frame = Some(start);
            }
            let start = self.frame.unwrap_or_default();
            let input = self.raw.fill_buf()?;
            // With no input left, the context may still hold output to flush: one more call.
            let at_end = input.is_empty();
            let mut src = zstd::zstd_safe::InBuffer::around(input);
            let mut dst = zstd::zstd_safe::OutBuffer::around(&mut self.out[..]);
            let step = self.dctx.decompress_stream(&mut dst, &mut src);
            let (used, made) = (src.pos(), dst.pos());
            self.raw.consume(used);
            match step {
                Ok(hint) => {
                    if hint == 0 {
                        self.frame = None;
                    }
                    if made > 0 {
                        self.produced += made as u64;
                        return Ok(made);
                    }
                    if at_end && hint != 0 {
                        return Err(self.fail(start, "is truncated", "the input ends inside it"));
                    }
                }
                Err(code) => return Err(self.fail(start, "is corrupt", zstd_error(code))),
            }
        }
    }

    /// The error of the frame at compressed offset `start`, after which the next read
    /// scans for the next frame.
    fn fail(&mut self, start: u64, what: &str, why: &str) -> io::Error {
        // Dropping the frame keeps the dictionary: zstd resets only the frame state here.
        let _ = self
            .dctx
            .reset(zstd::zstd_safe::ResetDirective::SessionOnly);
        self.frame = None;
        self.resync = Some(start);
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the zstd frame at compressed offset {start} {what} ({why})"),
        )
    }
}

/// zstd's name for an error code.
fn zstd_error(code: usize) -> &'static str {
    zstd::zstd_safe::get_error_name(code)
}

refilled_buf_read!(ZstdFrames);

/// Where [`RangeReader`] fetches ranges from.
enum Fetch {
    /// A local file: one seek per range.
    File(File),
    /// A URL: one `Range` request per range, retried as whole inputs are.
    Url(String, RetryPolicy),
}

/// The records of an [`InputSpec::Records`], one range after another. A range that cannot be
/// fetched ends the input, and the reason is kept for [`Input::source_error`], so that the
/// input is failed (and retried by `--resume`), not taken as complete.
struct RangeReader {
    fetch: Fetch,
    ranges: Vec<(u64, u64)>,
    next: usize,
    current: Option<Box<dyn Read + Send>>,
    failure: Arc<Mutex<Option<String>>>,
}

impl RangeReader {
    fn open(&mut self, offset: u64, length: u64) -> io::Result<Box<dyn Read + Send>> {
        match &mut self.fetch {
            Fetch::File(file) => {
                use std::io::Seek;
                file.seek(io::SeekFrom::Start(offset))?;
                Ok(Box::new(file.try_clone()?.take(length)))
            }
            Fetch::Url(url, policy) => {
                let body = HttpBody::get(url, *policy, Some((offset, length)))
                    .map_err(io::Error::other)?;
                Ok(Box::new(body.take(length)))
            }
        }
    }

    /// The range of the dictionary frame at the start of the source, if it has one.
    fn dictionary_range(&mut self) -> io::Result<Option<(u64, u64)>> {
        let mut head = Vec::with_capacity(8);
        self.open(0, 8)?.read_to_end(&mut head)?;
        Ok(
            match head.get(4..8).and_then(|b| <[u8; 4]>::try_from(b).ok()) {
                Some(size) if head.starts_with(&ZSTD_DICT_MAGIC) => {
                    Some((0, 8 + u64::from(u32::from_le_bytes(size))))
                }
                _ => None,
            },
        )
    }

    fn fail(&mut self, e: io::Error) -> io::Error {
        let why = match self.ranges.get(self.next.saturating_sub(1)) {
            Some((offset, length)) => {
                format!("the record at offset {offset} ({length} bytes) could not be read: {e}")
            }
            None => e.to_string(),
        };
        if let Ok(mut f) = self.failure.lock() {
            f.get_or_insert_with(|| why.clone());
        }
        self.next = self.ranges.len();
        self.current = None;
        io::Error::other(why)
    }
}

impl Read for RangeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.current.is_none() {
                let Some(&(offset, length)) = self.ranges.get(self.next) else {
                    return Ok(0);
                };
                self.next += 1;
                match self.open(offset, length) {
                    Ok(r) => self.current = Some(r),
                    Err(e) => return Err(self.fail(e)),
                }
            }
            let Some(current) = self.current.as_mut() else {
                continue;
            };
            match current.read(buf) {
                Ok(0) if !buf.is_empty() => self.current = None,
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
                Err(e) => return Err(self.fail(e)),
            }
        }
    }
}

/// The sentence of [`Input::describe`], from the compression, the first raw bytes and the
/// first decompressed ones.
fn describe(compression: Compression, magic: &[u8], head: &[u8]) -> String {
    let raw_kind = |b: &[u8]| -> Option<&'static str> {
        let kinds: [(&[u8], &str); 7] = [
            (b"BZh", "a bzip2 file (not read: decompress it first)"),
            (
                &[0xfd, b'7', b'z', b'X', b'Z', 0],
                "an xz file (not read: decompress it first)",
            ),
            (b"PK\x03\x04", "a zip archive (not read: unpack it first)"),
            (
                &[b'7', b'z', 0xbc, 0xaf],
                "a 7z archive (not read: unpack it first)",
            ),
            (&[0x22, 0x4d, 0x18], "an lz4 frame of an old lz4 version"),
            (&LZ4_MAGIC, "an lz4 frame"),
            (b"\x89PNG", "a PNG image"),
        ];
        kinds
            .iter()
            .find(|(m, _)| b.starts_with(m))
            .map(|(_, k)| *k)
    };
    if magic.is_empty() {
        return "it is empty".to_string();
    }
    let wrapped = match compression {
        Compression::None => "it is ".to_string(),
        c => format!("it is {}-compressed and holds ", c.as_str()),
    };
    if compression != Compression::None && head.is_empty() {
        return format!(
            "it is {}, but nothing could be decompressed from it",
            raw_kind(magic).unwrap_or(match compression {
                Compression::Gzip => "a gzip file",
                Compression::Zstd => "a zstd file",
                Compression::Lz4 => "an lz4 frame",
                Compression::None => "a file",
            })
        );
    }
    let text = if compression == Compression::None {
        magic
    } else {
        head
    };
    let trimmed = text
        .get(text.iter().take_while(|c| c.is_ascii_whitespace()).count()..)
        .unwrap_or_default();
    let lower: Vec<u8> = trimmed
        .iter()
        .take(16)
        .map(u8::to_ascii_lowercase)
        .collect();
    let what = if let Some(kind) = raw_kind(trimmed) {
        kind.to_string()
    } else if trimmed.starts_with(b"filedesc:") {
        "an ARC file (starts with `filedesc://`) whose records could not be read".to_string()
    } else if trimmed.starts_with(b"WARC/") {
        "a WARC file (starts with a version line) whose records could not be read".to_string()
    } else if lower.starts_with(b"<!doctype")
        || lower.starts_with(b"<html")
        || lower.starts_with(b"<")
    {
        "HTML or XML, not an archive".to_string()
    } else if trimmed.is_empty() {
        "blank (white space only)".to_string()
    } else {
        let shown: String = text
            .iter()
            .take(16)
            .map(|&c| {
                if c.is_ascii_graphic() || c == b' ' {
                    (c as char).to_string()
                } else {
                    format!("\\x{c:02x}")
                }
            })
            .collect();
        format!("neither WARC nor ARC: it starts with \"{shown}\"")
    };
    format!("{wrapped}{what}")
}

/// The body of an http(s) GET, read synchronously by blocking on a runtime this value owns.
///
/// `tokio_util::io::SyncIoBridge` is not used: it blocks through a runtime `Handle`, which
/// cannot drive I/O on a current-thread runtime; calling `Runtime::block_on` directly can.
struct HttpBody {
    runtime: Option<tokio::runtime::Runtime>,
    body: Option<Pin<Box<dyn tokio::io::AsyncRead + Send>>>,
    client: reqwest::Client,
    url: String,
    policy: RetryPolicy,
    /// For a range request: (first byte, length) of the range asked for.
    range: Option<(u64, u64)>,
    /// Body bytes handed out so far (where a resumed request starts).
    received: u64,
    /// The body's full length, when the server said.
    expected: Option<u64>,
    /// Strong `ETag` or `Last-Modified` of the first response, sent as `If-Range`.
    validator: Option<String>,
    /// Failures since bytes last arrived.
    failures: u32,
    /// Set when the body is given up on; shared with [`Input`].
    failure: Arc<Mutex<Option<String>>>,
}

/// One request's outcome, classified for the retry loop.
enum Attempt {
    Ok(reqwest::Response),
    /// Transient: retry (after the server's `Retry-After`, if it gave one).
    Retry(InputError, Option<Duration>),
    /// Permanent: give up now.
    Fail(InputError),
}

impl HttpBody {
    /// GETs `url`, or only `range` (first byte, length) of it with a `Range` request; a
    /// server that does not answer a range request with that range (`206` from its first
    /// byte) is an error.
    fn get(
        url: &str,
        policy: RetryPolicy,
        range: Option<(u64, u64)>,
    ) -> Result<HttpBody, InputError> {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Err(InputError::InsideAsyncRuntime {
                url: url.to_string(),
            });
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|source| InputError::Runtime {
                url: url.to_string(),
                source,
            })?;
        let mut builder = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT);
        if is_loopback_url(url) {
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| InputError::HttpTransport {
            url: url.to_string(),
            message: error_chain(&e),
        })?;
        let mut body = HttpBody {
            runtime: Some(runtime),
            body: None,
            client,
            url: url.to_string(),
            policy,
            range,
            received: 0,
            expected: None,
            validator: None,
            failures: 0,
            failure: Arc::new(Mutex::new(None)),
        };
        let mut attempts = 0;
        let response = loop {
            attempts += 1;
            let (error, after) = match body.request(range.map(|_| 0)) {
                Attempt::Ok(response) => {
                    if let Some((first, _)) = range {
                        if response_range_start(&response) != Some(first) {
                            return Err(InputError::HttpTransport {
                                url: url.to_string(),
                                message: format!(
                                    "asked for the bytes from {first} with a Range request, the \
                                     server answered status {} without that range (it does not \
                                     serve ranges)",
                                    response.status().as_u16()
                                ),
                            });
                        }
                    }
                    break response;
                }
                Attempt::Fail(e) => return Err(gave_up(e, attempts)),
                Attempt::Retry(e, after) => (e, after),
            };
            if attempts > policy.retries {
                return Err(gave_up(error, attempts));
            }
            std::thread::sleep(policy.delay(attempts, after));
        };
        body.expected = response.content_length();
        body.validator = validator(&response);
        body.start(response);
        Ok(body)
    }

    /// Send one GET (from byte `from` with `Range`, when given) and classify the outcome.
    fn request(&self, from: Option<u64>) -> Attempt {
        let Some(runtime) = &self.runtime else {
            return Attempt::Fail(InputError::HttpTransport {
                url: self.url.clone(),
                message: "the I/O runtime is gone".into(),
            });
        };
        let mut request = self.client.get(&self.url);
        if let Some(from) = from {
            let range = match self.range {
                Some((first, length)) => format!(
                    "bytes={}-{}",
                    first + from,
                    (first + length).saturating_sub(1)
                ),
                None => format!("bytes={from}-"),
            };
            request = request.header(reqwest::header::RANGE, range);
            if let Some(v) = &self.validator {
                request = request.header(reqwest::header::IF_RANGE, v.as_str());
            }
        }
        // The request future arms timers when created, so create it inside the runtime.
        let response = match runtime.block_on(async { request.send().await }) {
            Ok(r) => r,
            Err(e) => {
                let transient = !e.is_builder() && !e.is_redirect();
                let error = InputError::HttpTransport {
                    url: self.url.clone(),
                    message: error_chain(&e),
                };
                return if transient {
                    Attempt::Retry(error, None)
                } else {
                    Attempt::Fail(error)
                };
            }
        };
        let status = response.status().as_u16();
        if response.status().is_success() {
            return Attempt::Ok(response);
        }
        let error = InputError::HttpStatus {
            url: self.url.clone(),
            status,
        };
        let transient = matches!(status, 408 | 429)
            || (500..600).contains(&status) && !matches!(status, 501 | 505 | 511);
        if !transient {
            return Attempt::Fail(error);
        }
        let after = matches!(status, 429 | 503)
            .then(|| response.headers().get(reqwest::header::RETRY_AFTER))
            .flatten()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        Attempt::Retry(error, after)
    }

    /// Read `response`'s body from now on.
    fn start(&mut self, response: reqwest::Response) {
        let owned_url = self.url.clone();
        let stream = futures_util::StreamExt::map(response.bytes_stream(), move |chunk| {
            chunk.map_err(|e| {
                io::Error::other(format!(
                    "reading the body of {owned_url} failed: {}",
                    error_chain(&e)
                ))
            })
        });
        self.body = Some(Box::pin(tokio_util::io::StreamReader::new(stream)));
    }

    /// After the body broke off with `error`: wait, then ask for the rest with a range
    /// request, as often as the policy allows. `Err` once given up (the failure is recorded).
    fn resume(&mut self, mut error: String) -> io::Result<()> {
        self.body = None;
        loop {
            self.failures += 1;
            if self.failures > self.policy.retries {
                return Err(self.give_up(error));
            }
            std::thread::sleep(self.policy.delay(self.failures, None));
            let response = match self.request(Some(self.received)) {
                Attempt::Ok(r) => r,
                Attempt::Retry(e, _) => {
                    error = e.to_string();
                    continue;
                }
                Attempt::Fail(e) => {
                    return Err(self.give_up(e.to_string()));
                }
            };
            let start = response_range_start(&response);
            let first = self.range.map_or(0, |r| r.0);
            let resumed = start == Some(first + self.received);
            if !resumed && (self.received > 0 || self.range.is_some()) {
                let why = format!(
                    "{error}; resuming at byte {} failed: the server answered status {} \
                     without that range (it cannot resume, or the file changed)",
                    self.received,
                    response.status().as_u16()
                );
                return Err(self.give_up(why));
            }
            self.start(response);
            return Ok(());
        }
    }

    /// Record the final failure and make the error to return.
    fn give_up(&mut self, error: String) -> io::Error {
        let message = format!(
            "{error} (at byte {} of the body; gave up after {} attempts)",
            self.received,
            self.failures.max(1)
        );
        if let Ok(mut f) = self.failure.lock() {
            *f = Some(message.clone());
        }
        self.body = None;
        self.runtime_shutdown();
        io::Error::other(message)
    }

    fn runtime_shutdown(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            {
                // Drop the connection inside the runtime's context, then stop the runtime
                // without blocking (safe even if dropped from an async context).
                let _guard = runtime.enter();
                self.body = None;
            }
            runtime.shutdown_background();
        }
    }
}

/// The first byte of a `206` response's `Content-Range` (`None` for any other answer).
fn response_range_start(response: &reqwest::Response) -> Option<u64> {
    if response.status().as_u16() != 206 {
        return None;
    }
    response
        .headers()
        .get(reqwest::header::CONTENT_RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("bytes "))
        .and_then(|v| v.split('-').next())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// Wrap the last error with the attempt count when there was more than one attempt.
fn gave_up(last: InputError, attempts: u32) -> InputError {
    if attempts <= 1 {
        last
    } else {
        InputError::GaveUp {
            attempts,
            last: Box::new(last),
        }
    }
}

/// What to send as `If-Range`: a strong `ETag`, else `Last-Modified`.
fn validator(response: &reqwest::Response) -> Option<String> {
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
            .map(str::to_string)
    };
    header(reqwest::header::ETAG)
        .filter(|e| !e.starts_with("W/"))
        .or_else(|| header(reqwest::header::LAST_MODIFIED))
}

impl Read for HttpBody {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let (Some(runtime), Some(body)) = (&self.runtime, &mut self.body) else {
                return Ok(0);
            };
            if tokio::runtime::Handle::try_current().is_ok() {
                return Err(io::Error::other(
                    "an http input cannot be read from inside an async runtime",
                ));
            }
            let error = match runtime.block_on(tokio::io::AsyncReadExt::read(body, buf)) {
                Ok(0) => match self.expected {
                    Some(len) if self.received < len => format!(
                        "reading the body of {} failed: the connection closed after {} of {len} \
                         bytes",
                        self.url, self.received
                    ),
                    _ => {
                        self.runtime_shutdown();
                        return Ok(0);
                    }
                },
                Ok(n) => {
                    self.received += n as u64;
                    self.failures = 0;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
                Err(e) => e.to_string(),
            };
            self.resume(error)?;
        }
    }
}

impl Drop for HttpBody {
    fn drop(&mut self) {
        self.runtime_shutdown();
    }
}

/// True for `http(s)://localhost…`, `http(s)://127.x.x.x…` and `http(s)://[::1]…`.
fn is_loopback_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port
            .split_once(']')
            .map_or(host_port, |(h, _)| h)
            .trim_start_matches('[')
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    host.eq_ignore_ascii_case("localhost")
        || host == "::1"
        || host
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// An error and its causes, joined with `: ` (reqwest's own message alone is terse).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use proptest::prelude::*;
    use std::io::{Cursor, Write};
    use std::net::TcpListener;

    pub(crate) fn gzip_member(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// `len` bytes that do not compress (xorshift from `state`, which moves on).
    fn noise(len: usize, state: &mut u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *state ^= *state << 13;
                *state ^= *state >> 7;
                *state ^= *state << 17;
                *state as u8
            })
            .collect()
    }

    /// Reads everything, collecting the data and the error messages (at most 100).
    fn drain(input: &mut Input) -> (Vec<u8>, Vec<String>) {
        let mut data = Vec::new();
        let mut errors = Vec::new();
        while errors.len() < 100 {
            match input.fill_buf() {
                Ok([]) => break,
                Ok(buf) => {
                    let n = buf.len();
                    data.extend_from_slice(buf);
                    input.consume(n);
                }
                Err(e) => errors.push(e.to_string()),
            }
        }
        (data, errors)
    }

    #[test]
    fn spec_parsing_and_names() {
        assert_eq!(InputSpec::parse("-"), InputSpec::Stdin);
        assert_eq!(
            InputSpec::parse("HTTPS://x/a.warc.gz"),
            InputSpec::Url("HTTPS://x/a.warc.gz".into())
        );
        assert_eq!(
            InputSpec::parse("http://x"),
            InputSpec::Url("http://x".into())
        );
        assert_eq!(InputSpec::parse("a.warc"), InputSpec::Path("a.warc".into()));
        assert_eq!(
            InputSpec::parse("httpfile"),
            InputSpec::Path("httpfile".into())
        );
        assert_eq!(InputSpec::Stdin.name(), "stdin");
        assert_eq!(InputSpec::parse("dir/a.warc").to_string(), "dir/a.warc");
    }

    #[test]
    fn input_is_send() {
        fn assert_send<T: Send>() {}
        assert_send::<Input>();
    }

    #[test]
    fn magic_detection() {
        assert_eq!(detect(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
        assert_eq!(detect(&[0x28, 0xb5, 0x2f, 0xfd]), Compression::Zstd);
        assert_eq!(detect(b"WARC/1.0"), Compression::None);
        assert_eq!(detect(&[0x1f]), Compression::None);
        assert_eq!(detect(&[]), Compression::None);
        assert_eq!(Compression::Gzip.as_str(), "gzip");
    }

    #[test]
    fn plain_file_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.warc");
        std::fs::write(&path, b"WARC/1.0\r\nhello").unwrap();
        let mut input = open(&InputSpec::Path(path)).unwrap();
        assert_eq!(input.compression(), Compression::None);
        let (data, errors) = drain(&mut input);
        assert_eq!((&data[..], errors.len()), (&b"WARC/1.0\r\nhello"[..], 0));
        assert_eq!(input.position(), 15);
        assert_eq!(input.origin_of(10), 10);

        let missing = dir.path().join("nope.warc.gz");
        let err = open(&InputSpec::Path(missing.clone())).unwrap_err();
        assert!(matches!(err, InputError::Open { .. }));
        assert!(err
            .to_string()
            .starts_with(&format!("cannot open {}: ", missing.display())));

        // A folder is refused with what to pass instead, also as the source of --records.
        let folder = dir.path().to_path_buf();
        let err = open(&InputSpec::Path(folder.clone())).unwrap_err();
        assert!(matches!(err, InputError::Directory { .. }), "{err}");
        assert!(
            err.to_string().ends_with("is a folder, not a file"),
            "{err}"
        );
        let records = InputSpec::Records {
            source: Box::new(InputSpec::Path(folder)),
            ranges: vec![(0, 10)],
        };
        assert!(matches!(open(&records), Err(InputError::Directory { .. })));
    }

    #[test]
    fn lz4_frames_report_compressed_offsets() {
        let parts: [&[u8]; 3] = [
            b"WARC/1.0 first\n",
            b"WARC/1.0 second, longer\n",
            b"third\n",
        ];
        let frames: Vec<Vec<u8>> = parts
            .iter()
            .map(|p| {
                let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
                e.write_all(p).unwrap();
                e.finish().unwrap()
            })
            .collect();
        let mut input = Input::from_reader("l", Cursor::new(frames.concat())).unwrap();
        assert_eq!(input.compression(), Compression::Lz4);
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, parts.concat());
        let second = parts[0].len() as u64;
        assert_eq!(input.record_offset(0), 0);
        assert_eq!(input.record_offset(second), frames[0].len() as u64);
        // A cut last frame: what was decoded before is handed out, then an error.
        // (A frame cut exactly before its end mark or a block header ends silently:
        // lz4_flex reads that as the end of the frame.)
        let mut file = frames.concat();
        file.truncate(file.len() - 7);
        let mut input = Input::from_reader("l", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert!(data.starts_with(&parts[..2].concat()));
        assert_eq!(errors.len(), 1, "{errors:?}");
    }

    #[test]
    fn whole_file_gzip_gives_decompressed_offsets() {
        let data = b"WARC/1.0 one\nWARC/1.0 two\n";
        let mut input = Input::from_reader("w", Cursor::new(gzip_member(data))).unwrap();
        let _ = drain(&mut input);
        assert_eq!(input.record_offset(0), 0);
        assert_eq!(input.record_offset(13), 13);
    }

    #[test]
    fn descriptions_of_inputs_without_records() {
        let say = |bytes: &[u8]| {
            let mut input = Input::from_reader("d", Cursor::new(bytes.to_vec())).unwrap();
            let _ = drain(&mut input);
            input.describe()
        };
        assert_eq!(say(b""), "it is empty");
        assert_eq!(
            say(b"<!DOCTYPE html><html>"),
            "it is HTML or XML, not an archive"
        );
        assert_eq!(
            say(&gzip_member(b"<html>")),
            "it is gzip-compressed and holds HTML or XML, not an archive"
        );
        assert!(say(b"filedesc://x.arc 0 1 2 3\n").contains("an ARC file"));
        assert!(say(b"BZh91AY&SY").contains("bzip2"));
        assert_eq!(
            say(b"\x00\x01hello"),
            "it is neither WARC nor ARC: it starts with \"\\x00\\x01hello\""
        );
        assert!(say(&[0x04, 0x22, 0x4d, 0x18, 0x64]).contains("lz4"));
    }

    #[test]
    fn empty_input_is_plain_and_empty() {
        let mut input = Input::from_reader("empty", std::io::empty()).unwrap();
        assert_eq!(input.compression(), Compression::None);
        assert_eq!(drain(&mut input).0.len(), 0);
    }

    #[test]
    fn gzip_members_report_compressed_offsets() {
        let parts: [&[u8]; 3] = [b"first record\n", b"", b"third record, a bit longer\n"];
        let members: Vec<Vec<u8>> = parts.iter().map(|p| gzip_member(p)).collect();
        let file = members.concat();
        let mut input = Input::from_reader("mem", Cursor::new(file)).unwrap();
        assert_eq!(input.compression(), Compression::Gzip);
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, parts.concat());
        let second_start = members[0].len() as u64;
        let third_start = second_start + members[1].len() as u64;
        assert_eq!(input.origin_of(0), 0);
        assert_eq!(input.origin_of(5), 0);
        // The empty member holds no position: position 13 is in the third member.
        assert_eq!(input.origin_of(13), third_start);
        assert_eq!(input.origin_of(20), third_start);
    }

    /// Members of every size the reader treats differently: small ones (decoded whole by
    /// libdeflate), one that decompresses to more than the whole-member room (1 MiB, then
    /// grown), one beyond its maximum (4 MiB: streamed), one whose compressed bytes exceed the
    /// compressed buffer (incompressible: streamed), empty ones, and a corrupt one after a
    /// streamed one: every intact member's bytes and offset, and the error, come out right.
    #[test]
    fn whole_and_streamed_members_agree() {
        let noise = noise(400_000, &mut 0x2545_f491_4f6c_dd1du64);
        let text = |n: usize, c: u8| -> Vec<u8> { (0..n).map(|i| c + (i % 7) as u8).collect() };
        let parts: Vec<Vec<u8>> = vec![
            text(100, b'a'),
            Vec::new(),
            text(1_500_000, b'b'),
            text(30, b'c'),
            text(5_000_000, b'd'),
            noise.clone(),
            text(200, b'e'),
            Vec::new(),
            text(2_000_000, b'f'),
            noise,
            text(50, b'g'),
        ];
        let mut members: Vec<Vec<u8>> = parts.iter().map(|p| gzip_member(p)).collect();
        let bad = members.len() - 2;
        // The second noise member: corrupt its deflate data (stored blocks, so flip the first
        // block's length check) after a member that streamed.
        for byte in members[bad].iter_mut().skip(12).take(4) {
            *byte ^= 0x55;
        }
        let starts: Vec<u64> = members
            .iter()
            .scan(0u64, |at, m| {
                let here = *at;
                *at += m.len() as u64;
                Some(here)
            })
            .collect();
        let file = members.concat();
        let mut input = Input::from_reader("mixed", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(&format!(
                "the gzip member at compressed offset {} is corrupt",
                starts[bad]
            )),
            "{errors:?}"
        );
        let good: Vec<u8> = parts
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != bad)
            .flat_map(|(_, p)| p.clone())
            .collect();
        // The corrupt member may hand out a first part before its damage is seen; what
        // follows it is whole.
        assert!(data.starts_with(&parts[..bad].concat()));
        assert!(data.ends_with(&parts[bad + 1]));
        assert!(data.len() <= good.len() + parts[bad].len());
        // Offsets: each member's first byte maps to its own start.
        let mut input = Input::from_reader("mixed", Cursor::new(members[..bad].concat())).unwrap();
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, parts[..bad].concat());
        let mut at = 0u64;
        for (k, p) in parts[..bad].iter().enumerate() {
            if !p.is_empty() {
                assert_eq!(input.origin_of(at), starts[k], "member {k}");
                at += p.len() as u64;
                assert_eq!(input.origin_of(at - 1), starts[k], "member {k}");
            }
        }
    }

    #[test]
    fn whole_file_as_one_gzip_member() {
        let data: Vec<u8> = (0..300_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let mut input = Input::from_reader("one", Cursor::new(gzip_member(&data))).unwrap();
        let (out, errors) = drain(&mut input);
        assert!(errors.is_empty());
        assert_eq!(out, data);
        assert_eq!(input.origin_of(1_000_000), 0);
    }

    #[test]
    fn corrupt_member_is_reported_and_skipped() {
        let a = gzip_member(b"AAAA record one\n");
        let mut b = gzip_member(&[b'B'; 5000]);
        let c = gzip_member(b"CCCC record three\n");
        // Corrupt the deflate data of the middle member.
        for byte in b.iter_mut().skip(12).take(6) {
            *byte ^= 0x55;
        }
        let file = [a.clone(), b.clone(), c.clone()].concat();
        let mut input = Input::from_reader("bad", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(&format!(
                "the gzip member at compressed offset {} is corrupt",
                a.len()
            )),
            "{}",
            errors[0]
        );
        assert!(data.starts_with(b"AAAA record one\n"));
        assert!(data.ends_with(b"CCCC record three\n"));
        let third = data.len() as u64 - 18;
        assert_eq!(input.origin_of(third), (a.len() + b.len()) as u64);
    }

    #[test]
    fn truncated_last_member_is_reported() {
        let a = gzip_member(b"complete\n");
        let b = gzip_member(&[b'x'; 10_000]);
        let file = [a.clone(), b[..b.len() / 2].to_vec()].concat();
        let mut input = Input::from_reader("cut", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains(&format!("offset {} is truncated", a.len())),
            "{}",
            errors[0]
        );
        assert!(data.starts_with(b"complete\n"));
    }

    #[test]
    fn trailing_garbage_after_gzip_is_one_error() {
        let file = [gzip_member(b"ok\n"), b"garbage!".to_vec()].concat();
        let mut input = Input::from_reader("junk", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert_eq!((&data[..], errors.len()), (&b"ok\n"[..], 1));
    }

    #[test]
    fn zstd_multi_frame() {
        let file = [
            zstd::encode_all(&b"frame one\n"[..], 3).unwrap(),
            zstd::encode_all(&b"frame two\n"[..], 3).unwrap(),
        ]
        .concat();
        let mut input = Input::from_reader("z", Cursor::new(file)).unwrap();
        assert_eq!(input.compression(), Compression::Zstd);
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty());
        assert_eq!(data, b"frame one\nframe two\n");
        // Each record's frame: the second starts where the first one's bytes end.
        let first = zstd::encode_all(&b"frame one\n"[..], 3).unwrap().len() as u64;
        assert_eq!(input.origin_of(0), 0);
        assert_eq!(input.origin_of(10), first);
    }

    /// A dictionary trained on WARC-like records, and `records` compressed with it, one
    /// frame each.
    fn dictionary_frames(records: &[Vec<u8>]) -> (Vec<u8>, Vec<Vec<u8>>) {
        let samples: Vec<Vec<u8>> = (0..300)
            .map(|i| {
                format!(
                    "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i:08}>\r\n\
                     Content-Type: application/http; msgtype=response\r\n\r\n\
                     HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><p>page {i}</p>"
                )
                .into_bytes()
            })
            .collect();
        let dict = zstd::dict::from_samples(&samples, 2048).unwrap();
        let mut c = zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap();
        let frames = records.iter().map(|r| c.compress(r).unwrap()).collect();
        (dict, frames)
    }

    /// The skippable frame that carries `dict` in a `.warc.zst` file.
    fn dictionary_frame(dict: &[u8]) -> Vec<u8> {
        let mut f = ZSTD_DICT_MAGIC.to_vec();
        f.extend((dict.len() as u32).to_le_bytes());
        f.extend(dict);
        f
    }

    #[test]
    fn a_dictionary_frame_is_loaded_for_the_frames_after_it() {
        let records: Vec<Vec<u8>> = (0..3)
            .map(|i| {
                format!("WARC/1.1\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n\r\nbody {i}\n").into_bytes()
            })
            .collect();
        let (dict, frames) = dictionary_frames(&records);
        assert!(zstd::zstd_safe::get_dict_id_from_frame(&frames[0]).is_some());
        let want = records.concat();
        // The dictionary as it is, and itself zstd-compressed, as the specification allows.
        for packed in [dict.clone(), zstd::encode_all(&dict[..], 3).unwrap()] {
            let head = dictionary_frame(&packed);
            let file = [&[head.clone()][..], &frames].concat().concat();
            let mut input = Input::from_reader("d", Cursor::new(file)).unwrap();
            assert_eq!(input.compression(), Compression::Zstd);
            let (data, errors) = drain(&mut input);
            assert!(errors.is_empty(), "{errors:?}");
            assert_eq!(data, want);
            // Each record at its own frame's compressed offset.
            let mut at = head.len() as u64;
            let mut pos = 0;
            for (r, f) in records.iter().zip(&frames) {
                assert_eq!(input.origin_of(pos), at);
                at += f.len() as u64;
                pos += r.len() as u64;
            }
        }
        // Two such files concatenated: each one's frames with its own dictionary.
        let (dict2, frames2) = dictionary_frames(&records[..1]);
        let file = [
            dictionary_frame(&dict),
            frames.concat(),
            dictionary_frame(&dict2),
            frames2.concat(),
        ]
        .concat();
        let (data, errors) = drain(&mut Input::from_reader("d", Cursor::new(file)).unwrap());
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, [want.clone(), records[0].clone()].concat());
        // Without the dictionary, each frame is an error naming the frame, not a panic.
        let (data, errors) =
            drain(&mut Input::from_reader("d", Cursor::new(frames.concat())).unwrap());
        assert!(data.is_empty());
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("the zstd frame at compressed offset 0 is corrupt"));
        // A dictionary frame that declares more than the file holds fails at open.
        let mut cut = dictionary_frame(&dict);
        cut.truncate(100);
        let err = Input::from_reader("d", Cursor::new(cut))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("dictionary frame at compressed offset 0 is truncated"),
            "{err}"
        );
    }

    #[test]
    fn other_skippable_frames_are_skipped() {
        let mut skippable = vec![0x50, 0x2a, 0x4d, 0x18, 5, 0, 0, 0];
        skippable.extend(b"index");
        let one = zstd::encode_all(&b"one\n"[..], 3).unwrap();
        let file = [
            one.clone(),
            skippable.clone(),
            zstd::encode_all(&b"two\n"[..], 3).unwrap(),
        ]
        .concat();
        let mut input = Input::from_reader("s", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, b"one\ntwo\n");
        assert_eq!(input.origin_of(4), (one.len() + skippable.len()) as u64);
    }

    #[test]
    fn a_truncated_zstd_frame_errors_once() {
        let mut file = zstd::encode_all(&[7u8; 100_000][..], 3).unwrap();
        let n = file.len();
        file.truncate(n - 5);
        let mut input = Input::from_reader("z", Cursor::new(file)).unwrap();
        let (_, errors) = drain(&mut input);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("the zstd frame at compressed offset 0 is truncated"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_corrupt_zstd_frame_is_skipped_to_the_next() {
        let frames = [
            zstd::encode_all(&b"one\n"[..], 3).unwrap(),
            zstd::encode_all(&[b'x'; 5000][..], 3).unwrap(),
            zstd::encode_all(&b"three\n"[..], 3).unwrap(),
        ];
        let mut file = frames.concat();
        // Damage the second frame's first block header: its block type becomes reserved (3).
        let second = frames[0].len();
        let header = second + 4 + 2; // magic, frame header descriptor and window byte
        file[header] |= 0b110;
        let mut input = Input::from_reader("z", Cursor::new(file)).unwrap();
        let (data, errors) = drain(&mut input);
        assert_eq!(data, b"one\nthree\n");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(&format!(
                "the zstd frame at compressed offset {second} is corrupt"
            )),
            "{errors:?}"
        );
    }

    #[test]
    fn magic_split_across_tiny_reads() {
        /// A reader that returns one byte at a time.
        struct Trickle(Cursor<Vec<u8>>);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(1);
                self.0.read(&mut buf[..n])
            }
        }
        let file = [gzip_member(b"one\n"), gzip_member(b"two\n")].concat();
        let mut input = Input::from_reader("t", Trickle(Cursor::new(file))).unwrap();
        assert_eq!(input.compression(), Compression::Gzip);
        let mut text = String::new();
        input.read_to_string(&mut text).unwrap();
        assert_eq!(text, "one\ntwo\n");
    }

    /// Serves one HTTP request on a loopback port with a fixed response.
    fn serve_once(status: &str, body: Vec<u8>) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        std::thread::spawn(move || {
            if let Ok((mut stream, _)) = listener.accept() {
                let mut request = Vec::new();
                let mut byte = [0u8; 1];
                while !request.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte) {
                        Ok(1) => request.push(byte[0]),
                        _ => return,
                    }
                }
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        format!("http://{addr}/crawl.warc.gz")
    }

    #[test]
    fn http_gzip_stream() {
        let a = gzip_member(b"WARC/1.0 first\n");
        let b = gzip_member(&[b'y'; 300_000]);
        let url = serve_once("200 OK", [a.clone(), b].concat());
        let mut input = open(&InputSpec::parse(&url)).unwrap();
        assert_eq!(input.compression(), Compression::Gzip);
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data.len(), 15 + 300_000);
        assert!(data.starts_with(b"WARC/1.0 first\n"));
        assert_eq!(input.origin_of(20), a.len() as u64);
    }

    #[test]
    fn http_error_status() {
        let url = serve_once("404 Not Found", b"nope".to_vec());
        let err = open(&InputSpec::parse(&url)).unwrap_err();
        assert!(
            matches!(err, InputError::HttpStatus { status: 404, .. }),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!("GET {url} answered with HTTP status 404, not a success (2xx) status")
        );
    }

    #[test]
    fn http_connection_refused() {
        // Bind then drop to get a loopback port with nobody listening.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("http://127.0.0.1:{port}/x.warc");
        let err = open(&InputSpec::Url(url.clone())).unwrap_err();
        assert!(matches!(err, InputError::HttpTransport { .. }), "{err}");
        assert!(err.to_string().starts_with(&format!("GET {url} failed: ")));
    }

    /// Serves requests on a loopback port: `respond(n, head)` gets the request number (from 0)
    /// and the request head, and returns the raw bytes to send before closing (possibly a
    /// cut-off response, or nothing: a reset). Returns the URL and the request counter.
    fn serve_script(
        respond: impl Fn(usize, &str) -> Vec<u8> + Send + 'static,
    ) -> (String, Arc<std::sync::atomic::AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = Arc::clone(&count);
        std::thread::spawn(move || {
            for stream in listener.incoming().take(32) {
                let Ok(mut stream) = stream else { continue };
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => break,
                    }
                }
                let n = counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let reply = respond(n, &String::from_utf8_lossy(&head));
                let _ = stream.write_all(&reply);
            }
        });
        (format!("http://{addr}/crawl.warc.gz"), count)
    }

    fn response(status: &str, headers: &str, body: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n",
            body.len()
        )
        .into_bytes();
        r.extend_from_slice(body);
        r
    }

    fn quick(retries: u32) -> OpenOptions {
        OpenOptions {
            retry: RetryPolicy {
                retries,
                base_delay: Duration::from_millis(5),
                max_delay: Duration::from_millis(50),
            },
        }
    }

    #[test]
    fn http_transient_failures_at_open_are_retried() {
        let body = [
            gzip_member(b"WARC/1.0 one\n"),
            gzip_member(b"WARC/1.0 two\n"),
        ]
        .concat();
        let (url, count) = serve_script(move |n, _| match n {
            0 => Vec::new(), // connection closed without an answer
            1 => response("503 Service Unavailable", "Retry-After: 0\r\n", b"busy"),
            2 => response("429 Too Many Requests", "", b"slow down"),
            _ => response("200 OK", "", &body),
        });
        let mut input = open_with(&InputSpec::parse(&url), &quick(3)).unwrap();
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, b"WARC/1.0 one\nWARC/1.0 two\n");
        assert_eq!(input.source_error(), None);
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 4);
    }

    #[test]
    fn http_gives_up_after_the_last_try_with_a_sentence() {
        let (url, count) = serve_script(|_, _| response("502 Bad Gateway", "", b"down"));
        let err = open_with(&InputSpec::parse(&url), &quick(2)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "GET {url} answered with HTTP status 502, not a success (2xx) status \
                 (gave up after 3 attempts)"
            )
        );
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 3);
        // Permanent statuses are not retried.
        let (url, count) = serve_script(|_, _| response("404 Not Found", "", b"no"));
        let err = open_with(&InputSpec::parse(&url), &quick(5)).unwrap_err();
        assert!(
            matches!(err, InputError::HttpStatus { status: 404, .. }),
            "{err}"
        );
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn retry_after_is_honoured() {
        let (url, _) = serve_script(|n, _| match n {
            0 => response("429 Too Many Requests", "Retry-After: 1\r\n", b""),
            _ => response("200 OK", "", b"WARC/1.0\r\n"),
        });
        let opts = OpenOptions {
            retry: RetryPolicy {
                retries: 1,
                base_delay: Duration::from_millis(1),
                max_delay: Duration::from_secs(5),
            },
        };
        let started = std::time::Instant::now();
        let mut input = open_with(&InputSpec::parse(&url), &opts).unwrap();
        assert!(started.elapsed() >= Duration::from_millis(950));
        assert_eq!(drain(&mut input).0, b"WARC/1.0\r\n");
    }

    #[test]
    fn a_body_cut_off_resumes_with_a_range_request() {
        let members: Vec<Vec<u8>> = (0..40)
            .map(|i| gzip_member(format!("record {i} {}\n", "x".repeat(i * 50)).as_bytes()))
            .collect();
        let body = members.concat();
        let expected: Vec<u8> = (0..40)
            .flat_map(|i| format!("record {i} {}\n", "x".repeat(i * 50)).into_bytes())
            .collect();
        let cut = body.len() / 3;
        let total = body.len();
        let (url, count) = serve_script(move |n, head| {
            if n == 0 {
                // Promise everything, send a third, hang up.
                let mut r = response("200 OK", "ETag: \"v1\"\r\n", &body);
                r.truncate(r.len() - (total - cut));
                return r;
            }
            let range = head
                .lines()
                .find_map(|l| l.strip_prefix("range: ").or(l.strip_prefix("Range: ")))
                .and_then(|v| v.strip_prefix("bytes="))
                .and_then(|v| v.trim_end_matches('-').parse::<usize>().ok());
            let if_range = head.to_ascii_lowercase().contains("if-range: \"v1\"");
            match range {
                Some(from) if if_range => response(
                    "206 Partial Content",
                    &format!("Content-Range: bytes {from}-{}/{total}\r\n", total - 1),
                    &body[from..],
                ),
                _ => response("500 Internal Server Error", "", b"expected a range"),
            }
        });
        let mut input = open_with(&InputSpec::parse(&url), &quick(2)).unwrap();
        let (data, errors) = drain(&mut input);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(data, expected);
        assert_eq!(input.source_error(), None);
        assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 2);
    }

    #[test]
    fn a_body_that_cannot_be_resumed_is_reported() {
        let body: Vec<u8> = (0..30)
            .flat_map(|i| gzip_member(format!("record {i}\n").as_bytes()))
            .collect();
        let half = body.len() / 2;
        let (url, _) = serve_script(move |_, _| {
            // Every answer is a full 200 cut in the middle: resuming is impossible.
            let mut r = response("200 OK", "", &body);
            r.truncate(r.len() - half);
            r
        });
        let mut input = open_with(&InputSpec::parse(&url), &quick(2)).unwrap();
        let (data, _) = drain(&mut input);
        assert!(data.len() < 30 * 10);
        let why = input.source_error().expect("the cut is reported");
        assert!(why.contains("cannot resume"), "{why}");
    }

    #[test]
    fn backoff_doubles_with_jitter_and_caps() {
        let p = RetryPolicy {
            retries: 9,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_millis(1000),
        };
        for retry in 1..10u32 {
            let full = Duration::from_millis((100u64 << (retry - 1)).min(1000));
            let d = p.delay(retry, None);
            assert!(d >= full / 2 && d <= full, "retry {retry}: {d:?}");
        }
        assert_eq!(p.delay(1, Some(Duration::from_secs(9))), p.max_delay);
        assert_eq!(
            p.delay(1, Some(Duration::from_millis(7))),
            Duration::from_millis(7)
        );
    }

    #[test]
    fn http_inside_runtime_is_an_error() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let err = rt.block_on(async { open(&InputSpec::parse("http://127.0.0.1:9/x")) });
        assert!(matches!(err, Err(InputError::InsideAsyncRuntime { .. })));
    }

    #[test]
    fn loopback_detection() {
        assert!(is_loopback_url("http://127.0.0.1:80/x"));
        assert!(is_loopback_url("http://LOCALHOST/x"));
        assert!(is_loopback_url("http://u:p@[::1]:8080/x"));
        assert!(!is_loopback_url("https://data.commoncrawl.org/x"));
        assert!(!is_loopback_url("http://127.0.0.1.example.com/"));
    }

    /// `proptest::sample::Index::index`: `at` scaled to `0..len`.
    fn pick(at: usize, len: usize) -> usize {
        ((len as u128 * at as u128) >> usize::BITS) as usize
    }

    /// The body of `whole_members_change_nothing` (a function, so that a failing case can be
    /// kept as a plain test).
    fn whole_members_agree(
        parts: &[(usize, usize, u64)],
        damage: &[(usize, u8)],
        cut: Option<usize>,
    ) -> Result<(), TestCaseError> {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let datas: Vec<Vec<u8>> = parts
            .iter()
            .map(|&(kind, len, seed)| {
                // Text that compresses, noise that does not (stored blocks), or big
                // records that need more than the first buffer or the compressed one.
                match kind {
                    0 => (0..len)
                        .map(|i| b"<p>warc text</p>\n"[(i + seed as usize) % 17])
                        .collect(),
                    1 => noise(len, &mut rng),
                    2 => (0..len * 700)
                        .map(|i| (i / 3 % 251) as u8 ^ seed as u8)
                        .collect(),
                    _ => noise(len * 100, &mut rng),
                }
            })
            .collect();
        let intact_data = datas.concat();
        let members: Vec<Vec<u8>> = datas.iter().map(|d| gzip_member(d)).collect();
        let mut file = members.concat();
        for &(at, x) in damage {
            let i = pick(at, file.len());
            file[i] ^= x;
        }
        if let Some(at) = cut {
            file.truncate(pick(at, file.len() + 1));
        }
        let intact = damage.is_empty() && cut.is_none();
        // The bytes between errors, each run with the error that ended it; and the
        // offsets of a few positions, asked in order as the reader asks them.
        let read = |whole: bool| {
            let mut input = Input::from_reader("p", Cursor::new(file.clone())).unwrap();
            if let Inner::Gzip(g) = &mut input.inner {
                if !whole {
                    g.whole = None;
                }
            }
            let mut runs: Vec<(Vec<u8>, Option<String>)> = vec![(Vec::new(), None)];
            while runs.len() < 100 {
                match input.fill_buf() {
                    Ok([]) => break,
                    Ok(buf) => {
                        let n = buf.len();
                        if let Some(run) = runs.last_mut() {
                            run.0.extend_from_slice(buf);
                        }
                        input.consume(n);
                    }
                    Err(e) => {
                        if let Some(run) = runs.last_mut() {
                            run.1 = Some(e.to_string());
                        }
                        runs.push((Vec::new(), None));
                    }
                }
            }
            let total = input.position();
            let step = (total / 7).max(1);
            let origins: Vec<u64> = (0..8).map(|k| input.origin_of(k * step)).collect();
            (runs, origins)
        };
        let (fast, fast_origins) = read(true);
        let (slow, slow_origins) = read(false);
        // libdeflate accepts some damaged members that zlib-rs refuses: a flipped bit in a
        // dynamic Huffman table can leave a code incomplete (libdeflate allows that, zlib
        // does not) while every symbol the member uses decodes as before, so its CRC-32 and
        // size still match and the bytes are right. Then the fast reader reports fewer
        // errors: each of its errors is one of the streaming reader's, in order, and with
        // none left, it handed out the intact data.
        let errors = |runs: &[(Vec<u8>, Option<String>)]| -> Vec<String> {
            runs.iter().filter_map(|r| r.1.clone()).collect()
        };
        let (fast_errors, slow_errors) = (errors(&fast), errors(&slow));
        if fast_errors.len() < slow_errors.len() {
            let mut slow_left = slow_errors.iter();
            prop_assert!(
                fast_errors.iter().all(|e| slow_left.any(|s| s == e)),
                "{:?} is not within {:?}",
                fast_errors,
                slow_errors
            );
            if fast_errors.is_empty() {
                prop_assert!(
                    fast[0].0 == intact_data,
                    "the accepted member's bytes differ"
                );
            }
            return Ok(());
        }
        prop_assert_eq!(fast.len(), slow.len());
        for (k, (f, s)) in fast.iter().zip(&slow).enumerate() {
            prop_assert_eq!(&f.1, &s.1, "error ending run {}", k);
            if f.1.is_none() {
                prop_assert!(f.0 == s.0, "run {} differs", k);
            } else {
                let n = f.0.len().min(s.0.len());
                prop_assert!(f.0[..n] == s.0[..n], "run {} differs before its error", k);
            }
        }
        if intact {
            prop_assert_eq!(fast_origins, slow_origins);
        }
        Ok(())
    }

    /// A case proptest once found: six members, one byte damaged, no cut.
    #[test]
    fn whole_members_agree_on_a_damaged_stream() {
        let parts = [
            (1, 1716, 0),
            (1, 2704, 0),
            (1, 2096, 0),
            (2, 2519, 5756575668320067648),
            (2, 2355, 2045720128904680432),
            (0, 1310, 0),
        ];
        whole_members_agree(&parts, &[(9261718080192212083, 32)], None).unwrap();
    }

    proptest! {
        #[test]
        fn garbage_never_panics(mut bytes in proptest::collection::vec(any::<u8>(), 0..2000),
                                magic in 0u8..4) {
            let prefix: &[u8] = match magic {
                0 => &[0x1f, 0x8b, 0x08, 0x00],
                1 => &[0x28, 0xb5, 0x2f, 0xfd],
                2 => &[0x5d, 0x2a, 0x4d, 0x18, 0x10, 0, 0, 0],
                _ => &[],
            };
            bytes.splice(0..0, prefix.iter().copied());
            let mut input = match Input::from_reader("p", Cursor::new(bytes)) {
                Ok(input) => input,
                // Only a dictionary frame is read at open (a cut one fails the input).
                Err(e) => {
                    prop_assert_eq!(magic, 2, "{}", e);
                    return Ok(());
                }
            };
            let (data, errors) = drain(&mut input);
            prop_assert!(errors.len() < 100, "the input must make progress after errors");
            prop_assert_eq!(input.position(), data.len() as u64);
        }

        /// The whole-member path against its twin, the streaming decoder alone (the
        /// reader with libdeflate switched off), for members of random sizes (some larger
        /// than the buffers), some corrupted at a random byte, the stream cut at a random
        /// point: the same errors, and between them the same bytes, except that of a
        /// damaged member one reader may hand out more of its undamaged beginning than the
        /// other before the error (how much depends on how the compressed bytes were
        /// buffered, as with the streaming decoder alone when a pipe and a file deliver
        /// them in different pieces). Undamaged inputs give the same offsets too.
        #[test]
        fn whole_members_change_nothing(
            parts in proptest::collection::vec((0usize..4, 0usize..3000, any::<u64>()), 1..8),
            damage in proptest::collection::vec((any::<usize>(), 1u8..=255), 0..3),
            cut in proptest::option::of(any::<usize>()),
        ) {
            whole_members_agree(&parts, &damage, cut)?;
        }

        #[test]
        fn gzip_round_trip(parts in proptest::collection::vec(
            proptest::collection::vec(any::<u8>(), 0..500), 1..6)) {
            let members: Vec<Vec<u8>> = parts.iter().map(|p| gzip_member(p)).collect();
            let mut input = Input::from_reader("p", Cursor::new(members.concat())).unwrap();
            let (data, errors) = drain(&mut input);
            prop_assert!(errors.is_empty());
            prop_assert_eq!(&data, &parts.concat());
            // Every non-empty member's first byte maps to that member's compressed start.
            let (mut dpos, mut cpos) = (0u64, 0u64);
            let mut input = Input::from_reader("p", Cursor::new(members.concat())).unwrap();
            let _ = drain(&mut input);
            for (p, m) in parts.iter().zip(&members) {
                if !p.is_empty() {
                    prop_assert_eq!(input.origin_of(dpos), cpos);
                }
                dpos += p.len() as u64;
                cpos += m.len() as u64;
            }
        }
    }
}
