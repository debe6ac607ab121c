//! Record: frame a stream of decompressed WARC bytes into records, keeping only the ones that
//! can hold an HTML page and skipping the rest without reading their bodies into memory.
//!
//! Takes a [`RecordSource`] (a `BufRead` that can map a decompressed position to the offset
//! to report: an [`Input`], or a plain `Cursor`/`&[u8]`/`BufReader` in tests) and
//! [`ReaderOptions`]. Gives an iterator of [`ReadEvent`]s, one per record or problem:
//!
//! - [`ReadEvent::Record`]: a `response` record whose block is an HTTP response with an HTML
//!   (or undeclared) payload, or a `resource` record with an HTML (or undeclared) content type.
//!   The block is read whole, up to [`ReaderOptions::max_record_bytes`]. `WARC-Truncated`
//!   records are kept; the pipeline flags them.
//! - [`ReadEvent::Skipped`]: any other record, with its [`SkipReason`]. Its block is consumed
//!   and discarded in buffer-sized pieces; at most the first [`HEAD_PEEK_BYTES`] (16 KiB) are
//!   read to look at the HTTP headers. Records larger than `max_record_bytes` are skipped as
//!   [`SkipReason::TooLarge`] the same way, so a huge record costs no memory.
//! - [`ReadEvent::Error`]: a [`RecordError`] (bad version line, header too long, missing or
//!   invalid `Content-Length`, input ending inside a header or block, a decompression error
//!   from the input, garbage between records). After an error the reader resynchronises at the
//!   next line starting with `WARC/1.` and goes on; it ends cleanly at end of input, never
//!   loops and never panics.
//!
//! **Lying `Content-Length`.** A block must be followed by a line end (the record's closing
//! blank line), the next version line, or the end of input. When it is not, the length was
//! wrong: the record is still handed out (as [`ReadEvent::Record`] or `Skipped`) and followed by
//! a [`RecordError::LengthMismatch`] error with its offset and id. If the block was read into
//! memory (kept records, and skipped ones of at most [`HEAD_PEEK_BYTES`]) and the next record's
//! version line appears in it after a blank line, the length was too large: the block is cut
//! there and the records it swallowed are read again, so none is lost. Otherwise (a length too
//! small, or a block discarded unread) the reader resynchronises. A block that runs past the
//! end of input but holds the next record's start is treated the same way (a length too large,
//! not a truncated file).
//!
//! HTML-ness at this stage is cheap and generous: `WARC-Identified-Payload-Type` when present
//! (Common Crawl's sniffed type), otherwise the HTTP `Content-Type` found in the head of the
//! block ([`http::peek_content_type`]); with no type at all the record is kept and the worker
//! sniffs the payload ([`http::sniff_html`]). A payload labelled HTML that is binary
//! ([`http::looks_binary`]: an image, archive or media signature, or a run of control bytes)
//! is skipped as [`SkipReason::NotHtml`] (for responses, whatever the label, when the head
//! shows the payload without a content or transfer coding in the way).
//!
//! Offsets are `RecordSource::origin_of` of the record's first byte: for gzip inputs the
//! compressed offset of the record's member, as in Common Crawl's index.
//!
//! We deliberately do not use the `warc` crate for reading: it cannot skip a record's body
//! without buffering it, cannot report offsets, and cannot resynchronise after damage.
//!
//! Defaults ([`ReaderOptions::default`]): records up to 16 MiB (Common Crawl truncates
//! payloads at 1 MiB, so real HTML fits with room to spare), headers up to
//! 64 KiB and 1024 fields (real WARC headers are under 2 KiB and 20 fields).
//!
//! ```
//! use warcsift::record::{ReadEvent, ReaderOptions, RecordReader};
//!
//! let warc = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Type: text/html\r\n\
//!              Content-Length: 9\r\n\r\n<p>hi</p>\r\n\r\n";
//! let mut reader = RecordReader::new(&warc[..], ReaderOptions::default());
//! let Some(ReadEvent::Record(r)) = reader.next() else { panic!("expected a record") };
//! assert_eq!((r.offset, &r.block[..]), (0, &b"<p>hi</p>"[..]));
//! assert!(reader.next().is_none());
//! ```

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Cursor, Read};

use crate::arc::{self, ArcHeader};
use crate::http;
use crate::input::Input;

/// Bytes of a response block read to look at its HTTP headers before deciding to keep it.
pub const HEAD_PEEK_BYTES: usize = 16 * 1024;

/// Bytes of a line kept while looking for a record's version line (the rest is discarded).
const SCAN_LINE_BYTES: usize = 64;

/// Input errors in a row without any progress after which the reader gives up.
/// An [`Input`] always makes progress after an error (gzip) or ends (others), so this only
/// guards against sources that keep failing at the same place.
const MAX_STALLED_ERRORS: u32 = 16;

/// Limits of the record reader; see the module doc for the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Records whose block is larger are skipped as [`SkipReason::TooLarge`] (default 16 MiB).
    pub max_record_bytes: u64,
    /// Maximum size of a record header, version line included (default 64 KiB).
    pub max_header_bytes: usize,
    /// Maximum number of header fields (default 1024).
    pub max_header_count: usize,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            max_record_bytes: 16 * 1024 * 1024,
            max_header_bytes: 64 * 1024,
            max_header_count: 1024,
        }
    }
}

impl ReaderOptions {
    /// Sets [`ReaderOptions::max_record_bytes`].
    pub fn with_max_record_bytes(mut self, n: u64) -> Self {
        self.max_record_bytes = n;
        self
    }
    /// Sets [`ReaderOptions::max_header_bytes`].
    pub fn with_max_header_bytes(mut self, n: usize) -> Self {
        self.max_header_bytes = n;
        self
    }
    /// Sets [`ReaderOptions::max_header_count`].
    pub fn with_max_header_count(mut self, n: usize) -> Self {
        self.max_header_count = n;
        self
    }
}

/// A byte source for [`RecordReader`]: buffered bytes plus the offset to report for a
/// position (positions count bytes consumed since the reader was created).
pub trait RecordSource: BufRead {
    /// The offset to report for a record starting at decompressed position `pos`. Called
    /// with non-decreasing positions, after the record's first bytes were read.
    fn origin_of(&mut self, pos: u64) -> u64;
}

impl RecordSource for Input {
    fn origin_of(&mut self, pos: u64) -> u64 {
        Input::record_offset(self, pos)
    }
}

impl RecordSource for &[u8] {
    fn origin_of(&mut self, pos: u64) -> u64 {
        pos
    }
}

impl<T: AsRef<[u8]>> RecordSource for Cursor<T> {
    fn origin_of(&mut self, pos: u64) -> u64 {
        pos
    }
}

impl<R: Read> RecordSource for BufReader<R> {
    fn origin_of(&mut self, pos: u64) -> u64 {
        pos
    }
}

/// The header of a WARC record: its version and fields in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordHeader {
    /// `WARC/1.0` or `WARC/1.1`.
    pub version: String,
    fields: Vec<(String, String)>,
}

impl RecordHeader {
    /// A header from a version and fields (names and values as they should appear).
    pub fn new(version: impl Into<String>, fields: Vec<(String, String)>) -> Self {
        RecordHeader {
            version: version.into(),
            fields,
        }
    }

    /// The first field named `name` (ASCII case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`.
    pub fn record_type(&self) -> Option<&str> {
        self.get("WARC-Type")
    }

    /// `WARC-Record-ID` (with its angle brackets, as written).
    pub fn record_id(&self) -> Option<&str> {
        self.get("WARC-Record-ID")
    }

    /// `WARC-Target-URI`, without the `<…>` some writers put around it.
    pub fn target_uri(&self) -> Option<&str> {
        self.get("WARC-Target-URI").map(|u| {
            u.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(u)
        })
    }

    /// `WARC-Date`.
    pub fn date(&self) -> Option<&str> {
        self.get("WARC-Date")
    }

    /// `Content-Length`, when it is a non-negative integer.
    pub fn content_length(&self) -> Option<u64> {
        parse_length(self.get("Content-Length")?)
    }

    /// `Content-Type` (of the record block).
    pub fn content_type(&self) -> Option<&str> {
        self.get("Content-Type")
    }

    /// `WARC-Identified-Payload-Type`, unless empty (ClueWeb09 writes the field with no
    /// value; the HTTP `Content-Type` then decides).
    pub fn identified_payload_type(&self) -> Option<&str> {
        self.get("WARC-Identified-Payload-Type")
            .filter(|t| !t.trim().is_empty())
    }

    /// `WARC-Truncated` (the reason the block was cut, e.g. `length`).
    pub fn truncated(&self) -> Option<&str> {
        self.get("WARC-Truncated")
    }

    /// All fields in order.
    pub fn fields(&self) -> &[(String, String)] {
        &self.fields
    }
}

/// A kept record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRecord {
    /// The record header.
    pub header: RecordHeader,
    /// The record block: for `response` records the HTTP message, for `resource` records the
    /// payload itself.
    pub block: Vec<u8>,
    /// Offset of the record in the original file (see [`RecordSource::origin_of`]).
    pub offset: u64,
}

impl RawRecord {
    /// True when the block is an HTTP message (a `response` record), false for a `resource`
    /// record whose block is the payload.
    pub fn is_http_response(&self) -> bool {
        self.header
            .record_type()
            .is_some_and(|t| t.eq_ignore_ascii_case("response"))
    }
}

/// Why a record was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SkipReason {
    /// `warcinfo` record.
    Warcinfo,
    /// `request` record.
    Request,
    /// `metadata` record.
    Metadata,
    /// `revisit` record.
    Revisit,
    /// `conversion` record.
    Conversion,
    /// `continuation` record.
    Continuation,
    /// Any other or missing `WARC-Type`.
    OtherType,
    /// A `response` record whose block does not start with `HTTP/`.
    NotHttpResponse,
    /// The payload is declared as something other than HTML.
    NotHtml,
    /// The block is larger than [`ReaderOptions::max_record_bytes`].
    TooLarge,
}

impl SkipReason {
    /// Every reason, for stats tables.
    pub const ALL: [SkipReason; 10] = [
        SkipReason::Warcinfo,
        SkipReason::Request,
        SkipReason::Metadata,
        SkipReason::Revisit,
        SkipReason::Conversion,
        SkipReason::Continuation,
        SkipReason::OtherType,
        SkipReason::NotHttpResponse,
        SkipReason::NotHtml,
        SkipReason::TooLarge,
    ];

    /// snake_case name, used as a stats key.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Warcinfo => "warcinfo",
            SkipReason::Request => "request",
            SkipReason::Metadata => "metadata",
            SkipReason::Revisit => "revisit",
            SkipReason::Conversion => "conversion",
            SkipReason::Continuation => "continuation",
            SkipReason::OtherType => "other_type",
            SkipReason::NotHttpResponse => "not_http_response",
            SkipReason::NotHtml => "not_html",
            SkipReason::TooLarge => "too_large",
        }
    }
}

/// What went wrong while framing records.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Non-blank bytes where a record should start.
    #[error("expected a WARC record but found {found:?}; skipping to the next record")]
    UnexpectedData {
        /// The start of the offending line, lossily decoded.
        found: String,
    },
    /// A `WARC/` line with a version other than 1.0, 1.1, 0.17 or 0.18.
    #[error(
        "the record starts with {line:?}, which is not a WARC/1.0, 1.1, 0.17 or 0.18 version line"
    )]
    UnsupportedVersion {
        /// The version line, lossily decoded.
        line: String,
    },
    /// The header is longer than [`ReaderOptions::max_header_bytes`].
    #[error("the record header is longer than {limit} bytes")]
    HeaderTooLong {
        /// The limit in force.
        limit: usize,
    },
    /// More fields than [`ReaderOptions::max_header_count`].
    #[error("the record header has more than {limit} fields")]
    TooManyFields {
        /// The limit in force.
        limit: usize,
    },
    /// No `Content-Length` field.
    #[error("the record header has no Content-Length field, so the record's end is unknown")]
    MissingContentLength,
    /// A `Content-Length` that is not a non-negative integer.
    #[error("the record's Content-Length {value:?} is not a non-negative integer")]
    InvalidContentLength {
        /// The value found.
        value: String,
    },
    /// End of input inside a record header.
    #[error("the input ended inside a record header (truncated file?)")]
    TruncatedHeader,
    /// End of input inside a record block.
    #[error(
        "the input ended {got} bytes into a record block of {expected} bytes (truncated file?)"
    )]
    TruncatedBlock {
        /// The block length declared by `Content-Length`.
        expected: u64,
        /// The bytes that were there.
        got: u64,
    },
    /// The bytes after the block are neither a blank line nor the next record: the declared
    /// length was wrong. When the next record's start was found inside the block, the block
    /// was cut there (and the record still handed out); otherwise reading resynchronised.
    #[error(
        "the record's Content-Length {declared} does not match its block (it is not followed \
         by a blank line and the next record)"
    )]
    LengthMismatch {
        /// The `Content-Length` declared.
        declared: u64,
    },
    /// The input failed (for example a corrupt gzip member).
    #[error("reading the input failed: {message}")]
    Input {
        /// The input's error message.
        message: String,
    },
    /// A repair: the block is not followed by the blank line (CRLF CRLF) that ends a record;
    /// the record was read as its `Content-Length` says.
    #[error("the record's block is not followed by the blank line (CRLF CRLF) that ends a record")]
    MissingBlankLine,
    /// A repair: the input ended (or failed) inside the block of a kept record; the bytes
    /// that were there are kept and the page is flagged `truncated`.
    #[error("kept the first {got} of {expected} block bytes, marked truncated: {why}")]
    TruncatedKept {
        /// The block length declared.
        expected: u64,
        /// The bytes kept.
        got: u64,
        /// Why the block ends early.
        why: String,
    },
}

impl RecordError {
    /// Whether this is a repair (the record was read anyway, see the module doc): logged with
    /// the kind `repair`, never an error of the input.
    pub fn is_repair(&self) -> bool {
        matches!(
            self,
            RecordError::LengthMismatch { .. }
                | RecordError::MissingBlankLine
                | RecordError::TruncatedKept { .. }
        )
    }

    /// snake_case name of a repair, for stats (`None` for errors).
    pub fn repair_kind(&self) -> Option<&'static str> {
        match self {
            RecordError::LengthMismatch { .. } => Some("length_mismatch"),
            RecordError::MissingBlankLine => Some("missing_blank_line"),
            RecordError::TruncatedKept { .. } => Some("truncated_kept"),
            _ => None,
        }
    }
}

impl From<io::Error> for RecordError {
    fn from(e: io::Error) -> Self {
        RecordError::Input {
            message: e.to_string(),
        }
    }
}

/// One step of reading: a kept record, a skipped one, or a problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadEvent {
    /// A record to process.
    Record(RawRecord),
    /// A record not processed, and why.
    Skipped {
        /// Offset of the record (see [`RecordSource::origin_of`]).
        offset: u64,
        /// Its `WARC-Record-ID`.
        id: Option<String>,
        /// Why it was skipped.
        reason: SkipReason,
        /// Its `WARC-Type`, lower-cased (`unknown` when missing).
        record_type: String,
        /// Decompressed bytes of the record (header and block).
        bytes: u64,
    },
    /// A problem; reading goes on at the next record found.
    Error {
        /// Offset of the record or data concerned.
        offset: u64,
        /// The `WARC-Record-ID`, when the header was read.
        id: Option<String>,
        /// What went wrong.
        error: RecordError,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// At a record boundary: skip blank lines, expect a version line.
    Boundary,
    /// After damage: skip lines until one starts with `WARC/1.`.
    Resync,
    /// End of input.
    Done,
}

/// Iterator of [`ReadEvent`]s over a [`RecordSource`]; see the module doc.
pub struct RecordReader<R: RecordSource> {
    src: R,
    opts: ReaderOptions,
    /// Bytes consumed from `src` since creation.
    pos: u64,
    mode: Mode,
    /// The current line (at most the bytes asked to keep).
    line: Vec<u8>,
    /// A reusable buffer for record heads that were skipped (capacity stays near
    /// [`HEAD_PEEK_BYTES`]).
    spare: Vec<u8>,
    /// Input errors in a row at the same position.
    stalled: u32,
    last_error_pos: Option<u64>,
    /// Bytes read ahead and given back (the records after a block whose `Content-Length` was
    /// too large); read before `src`. `pushback[pushback_pos..]` is what is left.
    pushback: Vec<u8>,
    pushback_pos: usize,
    /// Events to hand out before reading on (the repairs logged after a record).
    queued: VecDeque<ReadEvent>,
    /// The input is an ARC file (an ARC header line was met at a record boundary).
    arc: bool,
    /// Its ARC version, once its `filedesc://` block was read.
    arc_version: Option<u8>,
    /// The last header read was ended by the end of input, not by a blank line.
    header_at_eof: bool,
    /// An input error met while peeking after a block, reported by the next read (an
    /// [`Input`] reports a gzip error once, then resynchronises).
    deferred: Option<io::Error>,
}

/// A failure while reading one record: the error and the record id, if known.
struct Failure {
    error: RecordError,
    id: Option<String>,
    /// Whether to resynchronise (false when the input simply ended).
    resync: bool,
}

impl Failure {
    fn new(error: RecordError, id: Option<&str>) -> Self {
        let resync = !matches!(
            error,
            RecordError::TruncatedHeader | RecordError::TruncatedBlock { .. }
        );
        Failure {
            error,
            id: id.map(str::to_string),
            resync,
        }
    }
}

impl<R: RecordSource> RecordReader<R> {
    /// A reader over a fresh source (positions count from here).
    pub fn new(src: R, opts: ReaderOptions) -> Self {
        RecordReader {
            src,
            opts,
            pos: 0,
            mode: Mode::Boundary,
            line: Vec::new(),
            spare: Vec::new(),
            stalled: 0,
            last_error_pos: None,
            pushback: Vec::new(),
            pushback_pos: 0,
            queued: VecDeque::new(),
            arc: false,
            arc_version: None,
            header_at_eof: false,
            deferred: None,
        }
    }

    /// The source.
    pub fn get_ref(&self) -> &R {
        &self.src
    }

    /// The source, e.g. to ask an [`Input`] for its compression.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.src
    }

    /// Gives the source back (bytes the reader had read ahead and given back are lost).
    pub fn into_inner(self) -> R {
        self.src
    }

    /// Decompressed bytes consumed so far.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The bytes available next: what was given back, else the source's buffer (`fill_buf`,
    /// retrying interrupted reads). Empty at end of input.
    fn fill(&mut self) -> io::Result<&[u8]> {
        if let Some(e) = self.deferred.take() {
            return Err(e);
        }
        buffered(&mut self.src, &self.pushback, self.pushback_pos)
    }

    fn consume(&mut self, n: usize) {
        let given_back = self.pushback.len() - self.pushback_pos;
        if given_back > 0 {
            let n = n.min(given_back);
            self.pushback_pos += n;
            if self.pushback_pos == self.pushback.len() {
                self.pushback = Vec::new();
                self.pushback_pos = 0;
            }
            self.pos += n as u64;
        } else {
            self.src.consume(n);
            self.pos += n as u64;
        }
    }

    /// Gives `bytes` (just read, so logically before everything still unread) back to be read
    /// again.
    fn give_back(&mut self, bytes: &[u8]) {
        let mut again = bytes.to_vec();
        again.extend_from_slice(self.pushback.get(self.pushback_pos..).unwrap_or_default());
        self.pushback = again;
        self.pushback_pos = 0;
        self.pos -= bytes.len() as u64;
    }

    /// Reads one line into `self.line`, keeping at most `keep` bytes of it (the rest is
    /// consumed and discarded). Returns the line's full length and whether it ended with
    /// `\n`, or `None` at end of input.
    fn read_line(&mut self, keep: usize) -> io::Result<Option<(u64, bool)>> {
        self.line.clear();
        let mut total = 0u64;
        if let Some(e) = self.deferred.take() {
            return Err(e);
        }
        loop {
            let buf = buffered(&mut self.src, &self.pushback, self.pushback_pos)?;
            if buf.is_empty() {
                break;
            }
            let (n, newline) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let room = keep.saturating_sub(self.line.len()).min(n);
            self.line
                .extend_from_slice(buf.get(..room).unwrap_or_default());
            self.consume(n);
            total += n as u64;
            if newline {
                return Ok(Some((total, true)));
            }
        }
        Ok((total > 0).then_some((total, false)))
    }

    /// What follows a block: line ends (the record's closing blank line), then the next
    /// record's version line (or ARC header line) or the end of input. Anything else means
    /// the `Content-Length` was wrong; a WARC block not followed by exactly CRLF CRLF is
    /// read as declared and logged as a repair. Only the buffered bytes are looked at (a
    /// buffer that ends early is given the benefit of the doubt); nothing is consumed, and an
    /// input error is kept for the next read to report.
    fn block_end(&mut self) -> BlockEnd {
        if self.header_at_eof {
            return BlockEnd::Ok; // the end of input, logged with the header
        }
        let arc = self.arc;
        match self.fill() {
            Ok(next) => {
                let text = next.get(..64).unwrap_or(next);
                if !arc && text.starts_with(b"\r\n\r\n") {
                    return BlockEnd::Ok;
                }
                let start = text
                    .iter()
                    .position(|&c| c != b'\r' && c != b'\n')
                    .unwrap_or(text.len());
                let rest = text.get(start..).unwrap_or_default();
                if arc {
                    return if rest.is_empty() || arc::could_start_header(rest) {
                        BlockEnd::Ok
                    } else {
                        BlockEnd::Wrong
                    };
                }
                let n = rest.len().min(5);
                if !b"WARC/".starts_with(rest.get(..n).unwrap_or_default()) {
                    BlockEnd::Wrong
                } else if rest.is_empty() && !text.is_empty() && b"\r\n\r\n".starts_with(text) {
                    BlockEnd::Ok // the rest of the blank line is not buffered yet
                } else {
                    BlockEnd::NoBlankLine
                }
            }
            Err(e) => {
                self.deferred = Some(e);
                BlockEnd::Ok
            }
        }
    }

    /// Appends up to `n` bytes of the block to `out`; returns how many were there.
    fn read_into(&mut self, out: &mut Vec<u8>, n: u64) -> io::Result<u64> {
        out.reserve(usize::try_from(n.min(8 << 20)).unwrap_or(0));
        let mut got = 0u64;
        while got < n {
            let buf = self.fill()?;
            if buf.is_empty() {
                break;
            }
            let take = usize::try_from(n - got)
                .unwrap_or(usize::MAX)
                .min(buf.len());
            out.extend_from_slice(buf.get(..take).unwrap_or_default());
            self.consume(take);
            got += take as u64;
        }
        Ok(got)
    }

    /// Consumes and discards up to `n` bytes; returns how many were there.
    fn discard(&mut self, n: u64) -> io::Result<u64> {
        let mut got = 0u64;
        while got < n {
            let available = self.fill()?.len();
            if available == 0 {
                break;
            }
            let take = usize::try_from(n - got)
                .unwrap_or(usize::MAX)
                .min(available);
            self.consume(take);
            got += take as u64;
        }
        Ok(got)
    }

    /// Finds the next version line or ARC header line (left in `self.line`) and returns the
    /// position where it starts. `Ok(None)` at end of input; `Err` for garbage (in `Boundary`
    /// mode) or input errors. ARC header lines are taken at a record boundary, and after
    /// damage only once the input is known to be an ARC file.
    fn find_version_line(&mut self) -> Result<Option<u64>, (u64, RecordError)> {
        loop {
            let start = self.pos;
            let keep = if self.mode == Mode::Boundary || self.arc {
                self.opts.max_header_bytes
            } else {
                SCAN_LINE_BYTES
            };
            let line = self
                .read_line(keep)
                .map_err(|e| (start, RecordError::from(e)))?;
            if line.is_none() {
                return Ok(None);
            }
            let resync = self.mode == Mode::Resync;
            let version = if resync {
                is_version_start(&self.line)
            } else {
                self.line.starts_with(b"WARC/")
            };
            if version {
                return Ok(Some(start));
            }
            if (!resync || self.arc)
                && arc::parse_header_line(&self.line, self.arc_version).is_some()
            {
                self.arc = true;
                return Ok(Some(start));
            }
            if !resync && !self.line.iter().all(|c| c.is_ascii_whitespace()) {
                let shown = self.line.get(..SCAN_LINE_BYTES).unwrap_or(&self.line);
                let found = String::from_utf8_lossy(shown).trim_end().to_string();
                return Err((start, RecordError::UnexpectedData { found }));
            }
        }
    }

    /// Reads the header fields after the version line in `self.line`.
    fn read_header(&mut self, version_line_len: u64) -> Result<RecordHeader, Failure> {
        let version = String::from_utf8_lossy(&self.line).trim().to_string();
        if !matches!(
            version.as_str(),
            "WARC/1.0" | "WARC/1.1" | "WARC/0.17" | "WARC/0.18"
        ) {
            return Err(Failure::new(
                RecordError::UnsupportedVersion { line: version },
                None,
            ));
        }
        let limit = self.opts.max_header_bytes;
        let mut used = version_line_len;
        let mut fields: Vec<(String, String)> = Vec::new();
        self.header_at_eof = false;
        loop {
            let remaining = usize::try_from((limit as u64).saturating_sub(used)).unwrap_or(0);
            let line = self
                .read_line(remaining.saturating_add(1))
                .map_err(|e| Failure::new(e.into(), record_id_in(&fields)))?;
            let Some((len, newline)) = line else {
                // The input ends after the last field: the header is read as complete (its
                // block is empty), and the missing blank line is logged as a repair.
                if fields.is_empty() {
                    return Err(Failure::new(
                        RecordError::TruncatedHeader,
                        record_id_in(&fields),
                    ));
                }
                self.header_at_eof = true;
                return Ok(RecordHeader { version, fields });
            };
            used += len;
            if used > limit as u64 {
                return Err(Failure::new(
                    RecordError::HeaderTooLong { limit },
                    record_id_in(&fields),
                ));
            }
            // The last line, cut by the end of input, is read as a field (see above).
            self.header_at_eof = !newline;
            let text = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            // `\r\r\n` line ends (a writer that turned every `\n` into `\r\n`) are line ends.
            let cr = text.iter().rev().take_while(|&&c| c == b'\r').count();
            let text = text.get(..text.len() - cr).unwrap_or_default();
            if text.is_empty() && newline {
                return Ok(RecordHeader { version, fields });
            }
            if matches!(text.first(), Some(b' ' | b'\t')) {
                let more = String::from_utf8_lossy(text);
                let more = more.trim();
                if let (Some((_, value)), false) = (fields.last_mut(), more.is_empty()) {
                    value.push(' ');
                    value.push_str(more);
                }
                continue;
            }
            let Some(colon) = memchr::memchr(b':', text) else {
                continue; // not a field: ignored, as lenient readers do
            };
            if fields.len() >= self.opts.max_header_count {
                return Err(Failure::new(
                    RecordError::TooManyFields {
                        limit: self.opts.max_header_count,
                    },
                    record_id_in(&fields),
                ));
            }
            let name = String::from_utf8_lossy(text.get(..colon).unwrap_or_default());
            let value = String::from_utf8_lossy(text.get(colon + 1..).unwrap_or_default());
            fields.push((name.trim().to_string(), value.trim().to_string()));
            if self.header_at_eof {
                return Ok(RecordHeader { version, fields });
            }
        }
    }

    /// Reads one record after its version line; returns the event for it.
    fn read_record(&mut self, start: u64, offset: u64, version_line_len: u64) -> ReadEvent {
        match self.read_record_inner(start, offset, version_line_len) {
            Ok(event) => event,
            Err(f) => {
                if f.resync {
                    self.mode = Mode::Resync;
                }
                ReadEvent::Error {
                    offset,
                    id: f.id,
                    error: f.error,
                }
            }
        }
    }

    fn read_record_inner(
        &mut self,
        start: u64,
        offset: u64,
        version_line_len: u64,
    ) -> Result<ReadEvent, Failure> {
        let header = self.read_header(version_line_len)?;
        let id = header.record_id().map(str::to_string);
        let length = match header.get("Content-Length") {
            // A header cut by the end of input has an empty block; the cut is an error.
            None if self.header_at_eof => {
                self.queue_repair(offset, id.as_deref(), RecordError::TruncatedHeader);
                0
            }
            None => {
                return Err(Failure::new(
                    RecordError::MissingContentLength,
                    id.as_deref(),
                ))
            }
            Some(v) => parse_length(v).ok_or_else(|| {
                Failure::new(
                    RecordError::InvalidContentLength {
                        value: v.to_string(),
                    },
                    id.as_deref(),
                )
            })?,
        };
        self.read_block(start, offset, header, length)
    }

    /// Reads one ARC record after its header line (in `self.line`); see [`crate::arc`].
    fn read_arc_record(&mut self, start: u64, offset: u64) -> ReadEvent {
        let line = std::mem::take(&mut self.line);
        let event = match arc::parse_header_line(&line, self.arc_version) {
            Some(h) => self.read_arc_block(start, offset, &line, h),
            None => ReadEvent::Error {
                offset,
                id: None,
                error: RecordError::UnexpectedData {
                    found: String::from_utf8_lossy(line.get(..SCAN_LINE_BYTES).unwrap_or(&line))
                        .trim_end()
                        .to_string(),
                },
            },
        };
        self.line = line;
        event
    }

    fn read_arc_block(&mut self, start: u64, offset: u64, line: &[u8], h: ArcHeader) -> ReadEvent {
        let id = ArcHeader::record_id(line, offset);
        let filedesc = h.is_filedesc();
        let length = match h.length {
            Some(n) => n,
            None => match self.arc_length_to_next_header() {
                Ok(n) => n,
                Err(e) => {
                    self.mode = Mode::Resync;
                    return ReadEvent::Error {
                        offset,
                        id: Some(id),
                        error: e.into(),
                    };
                }
            },
        };
        let is_http = ["http:", "https:"].iter().any(|s| {
            h.url
                .get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s))
        });
        let content_type = if is_http && !filedesc {
            "application/http; msgtype=response".to_string()
        } else {
            h.mime.clone()
        };
        let kind = if filedesc { "warcinfo" } else { "response" };
        let mut fields = vec![
            ("WARC-Type".to_string(), kind.to_string()),
            ("WARC-Record-ID".to_string(), id.clone()),
            ("WARC-Target-URI".to_string(), h.url),
            ("WARC-Date".to_string(), h.date),
        ];
        if !h.ip.is_empty() {
            fields.push(("WARC-IP-Address".to_string(), h.ip));
        }
        fields.push(("Content-Type".to_string(), content_type));
        fields.push(("Content-Length".to_string(), length.to_string()));
        let version = format!("ARC/{}", self.arc_version.unwrap_or(1));
        let header = RecordHeader::new(version, fields);
        match self.read_block(start, offset, header, length) {
            Ok(event) => {
                if filedesc {
                    let block: &[u8] = match &event {
                        ReadEvent::Record(r) => &r.block,
                        _ => &self.spare,
                    };
                    self.arc_version = Some(arc::version_of_filedesc_block(block));
                }
                event
            }
            Err(f) => {
                if f.resync {
                    self.mode = Mode::Resync;
                }
                ReadEvent::Error {
                    offset,
                    id: f.id.or(Some(id)),
                    error: f.error,
                }
            }
        }
    }

    /// For an ARC record whose length is negative or not a number: the bytes up to the next
    /// ARC header line (or the end of input, or `max_record_bytes`), given back to be read as
    /// its block. Returns their count.
    fn arc_length_to_next_header(&mut self) -> io::Result<u64> {
        let mut block = Vec::new();
        let mut line_start = 0;
        let cap = usize::try_from(self.opts.max_record_bytes).unwrap_or(usize::MAX);
        let mut end = None;
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                break;
            }
            let (n, newline) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            block.extend_from_slice(buf.get(..n).unwrap_or_default());
            self.consume(n);
            if newline {
                let line = block.get(line_start..).unwrap_or_default();
                if arc::parse_header_line(line, self.arc_version).is_some() {
                    end = Some(line_start);
                    break;
                }
                line_start = block.len();
                if block.len() > cap {
                    break;
                }
            }
        }
        // The line feed that ends an ARC record is not part of the block.
        let length = end.map_or(block.len(), |at| {
            let before = block.get(..at).unwrap_or_default();
            at - usize::from(before.ends_with(b"\n"))
        });
        self.give_back(&block);
        Ok(length as u64)
    }

    /// Reads (or skips) the block of a record whose header was read; `length` is its
    /// declared length.
    fn read_block(
        &mut self,
        start: u64,
        offset: u64,
        mut header: RecordHeader,
        length: u64,
    ) -> Result<ReadEvent, Failure> {
        let id = header.record_id().map(str::to_string);
        let kind = header
            .record_type()
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        let by_type = match kind.as_str() {
            "response" | "resource" => None,
            "warcinfo" => Some(SkipReason::Warcinfo),
            "request" => Some(SkipReason::Request),
            "metadata" => Some(SkipReason::Metadata),
            "revisit" => Some(SkipReason::Revisit),
            "conversion" => Some(SkipReason::Conversion),
            "continuation" => Some(SkipReason::Continuation),
            _ => Some(SkipReason::OtherType),
        };
        let is_response = kind == "response";
        let mut block = std::mem::take(&mut self.spare);
        block.clear();
        let result = self.classify_and_read(&header, length, by_type, is_response, &mut block);
        // Whether what was read of the block can be kept as a truncated page: a record that
        // would be kept, all of whose bytes so far are in `block`.
        let max_record_bytes = self.opts.max_record_bytes;
        let keepable = |block: &[u8]| {
            !block.is_empty()
                && length <= max_record_bytes
                && skip_reason(&header, by_type, is_response, block).is_none()
        };
        // Whether the block's bytes are all in `block` (nothing was discarded), so that a
        // record boundary inside them can be found and the bytes after it read again.
        let whole = block.len() as u64;
        let mut truncated = None;
        let outcome = match result {
            Err(e) => {
                // The input failed inside the block (a gzip member cut or corrupt): keep
                // what was recovered, reading on at the next record.
                self.mode = Mode::Resync;
                if !keepable(&block) {
                    self.spare = block;
                    return Err(Failure::new(e.into(), id.as_deref()));
                }
                truncated = Some(e.to_string());
                None
            }
            Ok(Outcome::Short(got)) => {
                // The input ended inside the block. If the next record's start lies inside it,
                // the `Content-Length` was too large: the block ends there and the records
                // after it are read again. Otherwise the file is truncated: a page is kept
                // with what is there; any other record is skipped as it would have been, and
                // followed by the error.
                if whole != got || !self.split_at_next_record(&mut block) {
                    if whole == got && keepable(&block) {
                        truncated = Some("the input ended (truncated file?)".to_string());
                        None
                    } else {
                        let error = RecordError::TruncatedBlock {
                            expected: length,
                            got,
                        };
                        self.queue_repair(offset, id.as_deref(), error);
                        Some(
                            skip_reason(&header, by_type, is_response, &block)
                                .or((length > max_record_bytes).then_some(SkipReason::TooLarge))
                                .unwrap_or(SkipReason::NotHttpResponse),
                        )
                    }
                } else {
                    self.queue_repair(
                        offset,
                        id.as_deref(),
                        RecordError::LengthMismatch { declared: length },
                    );
                    skip_reason(&header, by_type, is_response, &block)
                }
            }
            Ok(Outcome::Skip(reason)) => {
                match self.block_end() {
                    BlockEnd::Ok => {}
                    BlockEnd::NoBlankLine => {
                        self.queue_repair(offset, id.as_deref(), RecordError::MissingBlankLine)
                    }
                    BlockEnd::Wrong => {
                        if whole == length {
                            self.split_at_next_record(&mut block);
                        } else {
                            // Most of the block was discarded unread: nothing to recover from.
                            self.mode = Mode::Resync;
                        }
                        self.queue_repair(
                            offset,
                            id.as_deref(),
                            RecordError::LengthMismatch { declared: length },
                        );
                    }
                }
                Some(reason)
            }
            Ok(Outcome::Keep) => {
                match self.block_end() {
                    BlockEnd::Ok => {}
                    BlockEnd::NoBlankLine => {
                        self.queue_repair(offset, id.as_deref(), RecordError::MissingBlankLine)
                    }
                    BlockEnd::Wrong => {
                        self.split_at_next_record(&mut block);
                        self.queue_repair(
                            offset,
                            id.as_deref(),
                            RecordError::LengthMismatch { declared: length },
                        );
                    }
                }
                None
            }
        };
        if let Some(why) = truncated {
            if header.truncated().is_none() {
                header
                    .fields
                    .push(("WARC-Truncated".to_string(), "unexpected-end".to_string()));
            }
            let error = RecordError::TruncatedKept {
                expected: length,
                got: block.len() as u64,
                why,
            };
            self.queue_repair(offset, id.as_deref(), error);
            return Ok(ReadEvent::Record(RawRecord {
                header,
                block,
                offset,
            }));
        }
        // A binary payload (an image, an archive) labelled HTML is not HTML. (Unlabelled ones
        // are kept: the worker sniffs them.)
        let labelled_html = || {
            header
                .identified_payload_type()
                .or(header.content_type())
                .is_some_and(http::is_html_content_type)
        };
        let outcome = outcome.or_else(|| {
            (kind == "resource" && labelled_html() && http::looks_binary(&block))
                .then_some(SkipReason::NotHtml)
        });
        match outcome {
            Some(reason) => {
                self.spare = block;
                Ok(ReadEvent::Skipped {
                    offset,
                    id,
                    reason,
                    record_type: if kind.is_empty() {
                        "unknown".to_string()
                    } else {
                        kind
                    },
                    bytes: self.pos - start,
                })
            }
            None => Ok(ReadEvent::Record(RawRecord {
                header,
                block,
                offset,
            })),
        }
    }

    /// After a block that is not followed by what should follow it: looks in `block` for the
    /// next record's version line (after a blank line; in an ARC file, the next header line).
    /// When found, the block is cut before that blank line, the bytes from the version line
    /// on are given back to be read again, and the reader stays at a record boundary;
    /// otherwise it resynchronises. Returns whether a boundary was found.
    fn split_at_next_record(&mut self, block: &mut Vec<u8>) -> bool {
        let found = if self.arc {
            arc::find_record_start(block, self.arc_version)
        } else {
            find_record_start(block)
        };
        match found {
            Some(at) => {
                let again = block.split_off(at);
                self.give_back(&again);
                let end = block.len() - trailing_blank_line(block);
                block.truncate(end);
                true
            }
            None => {
                self.mode = Mode::Resync;
                false
            }
        }
    }

    /// Queues a repair (or an error) to hand out after the record it concerns.
    fn queue_repair(&mut self, offset: u64, id: Option<&str>, error: RecordError) {
        self.queued.push_back(ReadEvent::Error {
            offset,
            id: id.map(str::to_string),
            error,
        });
    }

    /// Decides whether to keep the record and reads (into `block`) or discards its block.
    /// Blocks of records skipped by type are read rather than discarded when they are small
    /// (at most [`HEAD_PEEK_BYTES`]), so that a wrong `Content-Length` can be recovered from.
    fn classify_and_read(
        &mut self,
        header: &RecordHeader,
        length: u64,
        by_type: Option<SkipReason>,
        is_response: bool,
        block: &mut Vec<u8>,
    ) -> io::Result<Outcome> {
        let mut read = 0u64;
        let needs_head = by_type.is_none()
            && is_response
            && header
                .identified_payload_type()
                .is_none_or(http::is_html_content_type);
        if needs_head {
            let head = length.min(HEAD_PEEK_BYTES as u64);
            read = self.read_into(block, head)?;
            if read < head {
                return Ok(Outcome::Short(read));
            }
        }
        let mut reason = skip_reason(header, by_type, is_response, block);
        if reason.is_none() && length > self.opts.max_record_bytes {
            reason = Some(SkipReason::TooLarge);
        }
        let rest = length - read;
        if let Some(reason) = reason {
            if length <= HEAD_PEEK_BYTES as u64 {
                let got = self.read_into(block, rest)?;
                return Ok(if got < rest {
                    Outcome::Short(read + got)
                } else {
                    Outcome::Skip(reason)
                });
            }
            let got = self.discard(rest)?;
            return Ok(if got < rest {
                Outcome::Short(read + got)
            } else {
                Outcome::Skip(reason)
            });
        }
        let got = self.read_into(block, rest)?;
        Ok(if got < rest {
            Outcome::Short(read + got)
        } else {
            Outcome::Keep
        })
    }

    #[cfg(test)]
    fn spare_capacity(&self) -> usize {
        self.spare.capacity()
    }
}

/// What follows a block (see `RecordReader::block_end`).
enum BlockEnd {
    Ok,
    NoBlankLine,
    Wrong,
}

enum Outcome {
    Keep,
    Skip(SkipReason),
    /// The input ended after this many block bytes.
    Short(u64),
}

impl<R: RecordSource> Iterator for RecordReader<R> {
    type Item = ReadEvent;

    fn next(&mut self) -> Option<ReadEvent> {
        if let Some(event) = self.queued.pop_front() {
            return Some(event);
        }
        if self.mode == Mode::Done {
            return None;
        }
        let found = self.find_version_line();
        let event = match found {
            Ok(None) => {
                self.mode = Mode::Done;
                return None;
            }
            Ok(Some(start)) => {
                self.mode = Mode::Boundary;
                let offset = self.src.origin_of(start);
                let version_line_len = self.pos - start;
                if self.line.starts_with(b"WARC/") {
                    self.read_record(start, offset, version_line_len)
                } else {
                    self.read_arc_record(start, offset)
                }
            }
            Err((start, error)) => {
                self.mode = Mode::Resync;
                let offset = self.src.origin_of(start);
                ReadEvent::Error {
                    offset,
                    id: None,
                    error,
                }
            }
        };
        if let ReadEvent::Error {
            error: RecordError::Input { .. },
            ..
        } = &event
        {
            if self.last_error_pos == Some(self.pos) {
                self.stalled += 1;
                if self.stalled >= MAX_STALLED_ERRORS {
                    self.mode = Mode::Done;
                }
            } else {
                self.stalled = 0;
            }
            self.last_error_pos = Some(self.pos);
        }
        Some(event)
    }
}

impl<R: RecordSource> std::iter::FusedIterator for RecordReader<R> {}

/// The `WARC-Record-ID` among the fields read so far (for errors in the middle of a header).
fn record_id_in(fields: &[(String, String)]) -> Option<&str> {
    fields
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("WARC-Record-ID"))
        .map(|(_, v)| v.as_str())
}

/// Why a record is skipped, from its header and the head of its block (`None`: keep it).
/// `head` is only looked at for `response` records, whose HTTP `Content-Type` it holds.
fn skip_reason(
    header: &RecordHeader,
    by_type: Option<SkipReason>,
    is_response: bool,
    head: &[u8],
) -> Option<SkipReason> {
    if by_type.is_some() {
        return by_type;
    }
    let declared_html = header
        .identified_payload_type()
        .map(http::is_html_content_type);
    if declared_html == Some(false) {
        return Some(SkipReason::NotHtml);
    }
    if is_response {
        if !head.starts_with(b"HTTP/") {
            return Some(SkipReason::NotHttpResponse);
        }
        let not_html = declared_html.is_none()
            && http::peek_content_type(head).is_some_and(|ct| !http::is_html_content_type(&ct));
        return (not_html || http::peek_binary_payload(head)).then_some(SkipReason::NotHtml);
    }
    let not_html = declared_html.is_none()
        && header
            .content_type()
            .is_some_and(|ct| !http::is_html_content_type(ct));
    not_html.then_some(SkipReason::NotHtml)
}

/// The fill of a record reader: bytes given back first, then the source's buffer
/// (`fill_buf`, retrying interrupted reads). A free function so that callers can keep
/// borrowing the reader's other fields.
fn buffered<'a, R: BufRead>(
    src: &'a mut R,
    pushback: &'a [u8],
    pushback_pos: usize,
) -> io::Result<&'a [u8]> {
    if let Some(given_back) = pushback.get(pushback_pos..).filter(|b| !b.is_empty()) {
        return Ok(given_back);
    }
    loop {
        match src.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    // Filled above: this only hands out the buffer.
    src.fill_buf()
}

/// Whether a line found while resynchronising starts a record: `WARC/1.` or `WARC/0.1`
/// (0.17 and 0.18).
fn is_version_start(line: &[u8]) -> bool {
    line.starts_with(b"WARC/1.") || line.starts_with(b"WARC/0.1")
}

/// Where the next record starts inside `bytes`: the first `WARC/1.` that follows a blank line
/// (`\n\n` or `\n\r\n`), or a prefix of it that ends `bytes` (the rest is still unread).
fn find_record_start(bytes: &[u8]) -> Option<usize> {
    const VERSION: &[u8] = b"WARC/1.";
    let blank_before = |at: usize| {
        let before = bytes.get(..at).unwrap_or_default();
        before.ends_with(b"\n\n") || before.ends_with(b"\n\r\n")
    };
    let version_at = |at: usize| is_version_start(bytes.get(at..).unwrap_or_default());
    if let Some(at) =
        memchr::memmem::find_iter(bytes, b"WARC/").find(|&at| version_at(at) && blank_before(at))
    {
        return Some(at);
    }
    // A version line cut by the end of the block: "…\r\n\r\nWAR" + "C/1.0" still unread.
    (1..VERSION.len())
        .rev()
        .map(|n| bytes.len().saturating_sub(n))
        .find(|&at| {
            at > 0 && VERSION.starts_with(bytes.get(at..).unwrap_or_default()) && blank_before(at)
        })
}

/// Length of the blank line (`\r\n\r\n`, `\n\n`, …) that ends a block before the next
/// record: up to two line ends.
fn trailing_blank_line(block: &[u8]) -> usize {
    let mut n = 0;
    for _ in 0..2 {
        let rest = block.get(..block.len() - n).unwrap_or_default();
        if rest.ends_with(b"\r\n") {
            n += 2;
        } else if rest.ends_with(b"\n") {
            n += 1;
        }
    }
    n
}

/// A `Content-Length` value: ASCII digits (surrounding whitespace allowed) fitting in u64.
fn parse_length(value: &str) -> Option<u64> {
    let v = value.trim();
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::Write;

    const PAGE: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><p>hi</p></html>";

    fn rec(kind: &str, id: &str, extra: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
        let mut v = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nContent-Length: {}\r\n",
            block.len()
        )
        .into_bytes();
        for (k, val) in extra {
            v.extend_from_slice(format!("{k}: {val}\r\n").as_bytes());
        }
        v.extend_from_slice(b"\r\n");
        v.extend_from_slice(block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    }

    fn http(content_type: &str, body: &[u8]) -> Vec<u8> {
        let mut v = format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n").into_bytes();
        v.extend_from_slice(body);
        v
    }

    fn events(bytes: &[u8], opts: ReaderOptions) -> Vec<ReadEvent> {
        RecordReader::new(bytes, opts).collect()
    }

    /// (kind, offset, id or reason) per event, for compact assertions.
    fn summary(events: &[ReadEvent]) -> Vec<(String, u64, String)> {
        events
            .iter()
            .map(|e| match e {
                ReadEvent::Record(r) => (
                    "record".to_string(),
                    r.offset,
                    r.header.record_id().unwrap_or("").to_string(),
                ),
                ReadEvent::Skipped { offset, reason, .. } => {
                    ("skipped".to_string(), *offset, reason.as_str().to_string())
                }
                ReadEvent::Error { offset, error, .. } => {
                    ("error".to_string(), *offset, error.to_string())
                }
            })
            .collect()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A small crawl: warcinfo, request, two kept responses, a PDF, a resource.
    fn crawl() -> Vec<Vec<u8>> {
        vec![
            rec(
                "warcinfo",
                "0",
                &[("Content-Type", "application/warc-fields")],
                b"software: test\r\n",
            ),
            rec("request", "1", &[], b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
            rec("response", "2", &[("WARC-Target-URI", "<http://a/>")], PAGE),
            rec("response", "3", &[], &http("application/pdf", b"%PDF-1.4")),
            rec("metadata", "4", &[], b"fetchTimeMs: 5\r\n"),
            rec(
                "resource",
                "5",
                &[("Content-Type", "text/html")],
                b"<p>resource</p>",
            ),
            rec("revisit", "6", &[], b""),
        ]
    }

    fn offsets(parts: &[Vec<u8>]) -> Vec<u64> {
        parts
            .iter()
            .scan(0u64, |pos, p| {
                let start = *pos;
                *pos += p.len() as u64;
                Some(start)
            })
            .collect()
    }

    fn expected(parts: &[Vec<u8>], starts: &[u64]) -> Vec<(String, u64, String)> {
        let _ = parts;
        let s = |kind: &str, i: usize, what: &str| (kind.to_string(), starts[i], what.to_string());
        vec![
            s("skipped", 0, "warcinfo"),
            s("skipped", 1, "request"),
            s("record", 2, "<urn:uuid:2>"),
            s("skipped", 3, "not_html"),
            s("skipped", 4, "metadata"),
            s("record", 5, "<urn:uuid:5>"),
            s("skipped", 6, "revisit"),
        ]
    }

    #[test]
    fn plain_multi_record_stream() {
        let parts = crawl();
        let evs = events(&parts.concat(), ReaderOptions::default());
        assert_eq!(summary(&evs), expected(&parts, &offsets(&parts)));
        let ReadEvent::Record(r) = &evs[2] else {
            unreachable!()
        };
        assert_eq!(r.block, PAGE);
        assert_eq!(r.header.target_uri(), Some("http://a/"));
        assert_eq!(r.header.version, "WARC/1.1");
        assert_eq!(r.header.content_length(), Some(PAGE.len() as u64));
        assert!(r.is_http_response());
        let ReadEvent::Skipped { bytes, .. } = &evs[0] else {
            unreachable!()
        };
        assert_eq!(
            *bytes,
            parts[0].len() as u64 - 4,
            "header and block, not the trailing CRLFs"
        );
    }

    #[test]
    fn gzip_member_per_record_offsets() {
        let parts = crawl();
        let members: Vec<Vec<u8>> = parts.iter().map(|p| gzip(p)).collect();
        let input = Input::from_reader("t", Cursor::new(members.concat())).unwrap();
        let evs: Vec<_> = RecordReader::new(input, ReaderOptions::default()).collect();
        assert_eq!(summary(&evs), expected(&parts, &offsets(&members)));
    }

    #[test]
    fn whole_file_single_gzip_member() {
        let parts = crawl();
        let input = Input::from_reader("t", Cursor::new(gzip(&parts.concat()))).unwrap();
        let evs: Vec<_> = RecordReader::new(input, ReaderOptions::default()).collect();
        // One member for all: decompressed offsets, unique.
        assert_eq!(summary(&evs), expected(&parts, &offsets(&parts)));
    }

    #[test]
    fn zstd_stream_reports_decompressed_offsets() {
        let parts = crawl();
        let z = zstd::encode_all(&parts.concat()[..], 3).unwrap();
        let input = Input::from_reader("t", Cursor::new(z)).unwrap();
        let evs: Vec<_> = RecordReader::new(input, ReaderOptions::default()).collect();
        assert_eq!(summary(&evs), expected(&parts, &offsets(&parts)));
    }

    #[test]
    fn corrupt_gzip_member_then_recovery() {
        let parts = crawl();
        let mut members: Vec<Vec<u8>> = parts.iter().map(|p| gzip(p)).collect();
        let m = &mut members[2];
        let n = m.len();
        for b in &mut m[12..n - 10] {
            *b ^= 0xa5;
        }
        let starts = offsets(&members);
        let input = Input::from_reader("t", Cursor::new(members.concat())).unwrap();
        let got = summary(&RecordReader::new(input, ReaderOptions::default()).collect::<Vec<_>>());
        assert!(got.iter().any(|(k, _, what)| k == "error"
            && what.contains(&format!("gzip member at compressed offset {}", starts[2]))));
        // Everything after the damaged member is read with its right offset.
        let tail: Vec<_> = got
            .iter()
            .filter(|(_, off, _)| *off >= starts[3])
            .cloned()
            .collect();
        assert_eq!(tail, expected(&parts, &starts)[3..].to_vec());
    }

    #[test]
    fn skip_reasons_and_html_decisions() {
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (
                rec(
                    "response",
                    "a",
                    &[("WARC-Identified-Payload-Type", "image/png")],
                    PAGE,
                ),
                "not_html",
            ),
            (
                rec(
                    "response",
                    "b",
                    &[("WARC-Identified-Payload-Type", "application/xhtml+xml")],
                    &http("text/plain", b"x"),
                ),
                "record",
            ),
            (
                rec("response", "c", &[], b"<html>not http</html>"),
                "not_http_response",
            ),
            (rec("response", "d", &[], b""), "not_http_response"),
            (
                rec(
                    "response",
                    "e",
                    &[],
                    b"HTTP/1.1 200 OK\r\nServer: x\r\n\r\n<p>",
                ),
                "record",
            ),
            (
                rec("resource", "f", &[("Content-Type", "text/plain")], b"x"),
                "not_html",
            ),
            (rec("resource", "g", &[], b"<p>"), "record"),
            (rec("conversion", "h", &[], b"x"), "conversion"),
            (rec("continuation", "i", &[], b"x"), "continuation"),
            (rec("Frobnicate", "j", &[], b"x"), "other_type"),
            (
                b"WARC/1.0\r\nContent-Length: 1\r\n\r\nx\r\n\r\n".to_vec(),
                "other_type",
            ),
            (
                rec("RESPONSE", "k", &[("WARC-Truncated", "length")], PAGE),
                "record",
            ),
        ];
        for (bytes, want) in cases {
            let evs = events(&bytes, ReaderOptions::default());
            assert_eq!(evs.len(), 1, "{evs:?}");
            let got = match &evs[0] {
                ReadEvent::Record(_) => "record",
                ReadEvent::Skipped { reason, .. } => reason.as_str(),
                ReadEvent::Error { error, .. } => panic!("{error}"),
            };
            assert_eq!(got, want, "{}", String::from_utf8_lossy(&bytes));
        }
        let names: Vec<_> = SkipReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(names.len(), 10);
        assert!(names.contains(&"too_large"));
    }

    #[test]
    fn truncated_kept_record_is_flagged_in_header() {
        let bytes = rec("response", "t", &[("WARC-Truncated", "length")], PAGE);
        let ReadEvent::Record(r) = &events(&bytes, ReaderOptions::default())[0] else {
            panic!("kept");
        };
        assert_eq!(r.header.truncated(), Some("length"));
    }

    #[test]
    fn truncated_final_record() {
        let good = rec(
            "resource",
            "1",
            &[("Content-Type", "text/html")],
            b"<p>ok</p>",
        );
        let cut = rec("response", "2", &[], PAGE);
        let stream = [good.clone(), cut[..cut.len() - 10].to_vec()].concat();
        let evs = events(&stream, ReaderOptions::default());
        assert_eq!(evs.len(), 3, "{evs:?}");
        // The page is kept with what is there, flagged truncated, and the repair logged.
        let ReadEvent::Record(r) = &evs[1] else {
            panic!("{evs:?}")
        };
        assert_eq!(r.block, PAGE[..PAGE.len() - 6]);
        assert_eq!(r.header.truncated(), Some("unexpected-end"));
        let ReadEvent::Error { offset, id, error } = &evs[2] else {
            panic!("{evs:?}")
        };
        assert_eq!(*offset, good.len() as u64);
        assert_eq!(id.as_deref(), Some("<urn:uuid:2>"));
        assert!(error.is_repair());
        assert_eq!(
            error.to_string(),
            format!(
                "kept the first {} of {} block bytes, marked truncated: the input ended \
                 (truncated file?)",
                PAGE.len() - 6,
                PAGE.len()
            )
        );
        // A record that is not kept: skipped, then the error.
        let cut = rec("request", "3", &[], b"GET / HTTP/1.1\r\n\r\n");
        let evs = events(&cut[..cut.len() - 8], ReaderOptions::default());
        assert_eq!(summary(&evs)[0], ("skipped".into(), 0, "request".into()));
        assert!(matches!(
            evs[1],
            ReadEvent::Error {
                error: RecordError::TruncatedBlock { .. },
                ..
            }
        ));
        // Cut inside the header: what is there is read, and the cut is an error.
        let cut = rec("response", "2", &[], PAGE);
        let evs = events(&cut[..30], ReaderOptions::default());
        assert_eq!(
            summary(&evs),
            vec![
                ("skipped".into(), 0, "not_http_response".into()),
                ("error".into(), 0, RecordError::TruncatedHeader.to_string())
            ]
        );
        assert_eq!(
            summary(&events(b"WARC/1.0\r\n", ReaderOptions::default())),
            vec![("error".into(), 0, RecordError::TruncatedHeader.to_string())]
        );
    }

    #[test]
    fn garbage_and_blank_lines_between_records() {
        let a = rec(
            "resource",
            "1",
            &[("Content-Type", "text/html")],
            b"<p>1</p>",
        );
        let b = rec(
            "resource",
            "2",
            &[("Content-Type", "text/html")],
            b"<p>2</p>",
        );
        let junk = b"\r\n\n   \r\nthis is garbage\x00\xff\nmore WARC/1.0 junk\n".to_vec();
        let stream = [junk.clone(), a.clone(), b"\n\n\n".to_vec(), b.clone()].concat();
        let got = summary(&events(&stream, ReaderOptions::default()));
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0].0, "error");
        assert_eq!(got[0].1, 8, "offset of the garbage line");
        assert!(got[0]
            .2
            .starts_with("expected a WARC record but found \"this is garbage"));
        assert_eq!(
            got[1],
            ("record".into(), junk.len() as u64, "<urn:uuid:1>".into())
        );
        assert_eq!(got[2].2, "<urn:uuid:2>");
    }

    #[test]
    fn bare_lf_headers_and_continuation_lines() {
        let stream = b"WARC/1.0\nWARC-Type: resource\nWARC-Target-URI: http://a/\n  continued\n\
                       no colon here\ncontent-length:  4 \n\n<p>x\n\n";
        let evs = events(stream, ReaderOptions::default());
        let ReadEvent::Record(r) = &evs[0] else {
            panic!("{evs:?}")
        };
        assert_eq!(r.block, b"<p>x");
        assert_eq!(r.header.target_uri(), Some("http://a/ continued"));
        assert_eq!(r.header.fields().len(), 3);
        // LF LF instead of CRLF CRLF after the block: read, and logged as a repair.
        assert_eq!(evs.len(), 2);
        assert!(matches!(
            &evs[1],
            ReadEvent::Error {
                error: RecordError::MissingBlankLine,
                ..
            }
        ));
    }

    #[test]
    fn missing_trailing_crlfs_are_tolerated() {
        let a = b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\n<p>";
        let stream = [&a[..], &a[..], &a[..]].concat();
        let evs = events(&stream, ReaderOptions::default());
        assert_eq!(
            evs.iter()
                .filter(|e| matches!(e, ReadEvent::Record(_)))
                .count(),
            3
        );
    }

    #[test]
    fn bad_content_length_and_version_resync() {
        let good = rec("resource", "g", &[], b"<p>");
        let cases: Vec<(Vec<u8>, RecordError)> = vec![
            (
                b"WARC/1.0\r\nWARC-Type: resource\r\n\r\n<p>\r\n\r\n".to_vec(),
                RecordError::MissingContentLength,
            ),
            (
                b"WARC/1.0\r\nContent-Length: -5\r\n\r\n".to_vec(),
                RecordError::InvalidContentLength { value: "-5".into() },
            ),
            (
                b"WARC/1.0\r\nContent-Length: 99999999999999999999999\r\n\r\n".to_vec(),
                RecordError::InvalidContentLength {
                    value: "99999999999999999999999".into(),
                },
            ),
            (
                b"WARC/0.9\r\nContent-Length: 1\r\n\r\nx\r\n\r\n".to_vec(),
                RecordError::UnsupportedVersion {
                    line: "WARC/0.9".into(),
                },
            ),
        ];
        for (bad, want) in cases {
            let stream = [bad.clone(), good.clone()].concat();
            let evs = events(&stream, ReaderOptions::default());
            assert_eq!(evs.len(), 2, "{evs:?}");
            let ReadEvent::Error { error, offset, .. } = &evs[0] else {
                panic!("{evs:?}")
            };
            assert_eq!((error, *offset), (&want, 0));
            let ReadEvent::Record(r) = &evs[1] else {
                panic!("{evs:?}")
            };
            assert_eq!(r.offset, bad.len() as u64);
        }
    }

    #[test]
    fn header_limits() {
        let long = format!(
            "WARC/1.0\r\nX: {}\r\nContent-Length: 0\r\n\r\n",
            "a".repeat(5000)
        );
        let opts = ReaderOptions::default().with_max_header_bytes(1000);
        let evs = events(long.as_bytes(), opts);
        assert!(matches!(
            evs[0],
            ReadEvent::Error {
                error: RecordError::HeaderTooLong { limit: 1000 },
                ..
            }
        ));
        let many = format!(
            "WARC/1.0\r\n{}Content-Length: 0\r\n\r\n",
            "X: y\r\n".repeat(50)
        );
        let evs = events(
            many.as_bytes(),
            ReaderOptions::default().with_max_header_count(20),
        );
        assert!(matches!(
            evs[0],
            ReadEvent::Error {
                error: RecordError::TooManyFields { limit: 20 },
                ..
            }
        ));
        assert_eq!(evs.len(), 1);
    }

    #[test]
    fn oversize_record_is_skipped_without_buffering() {
        let big_body = vec![b'x'; 3 << 20];
        let big = rec("response", "big", &[], &http("text/html", &big_body));
        let small = rec("resource", "s", &[("Content-Type", "text/html")], b"<p>");
        let stream = [big.clone(), small].concat();
        let opts = ReaderOptions::default().with_max_record_bytes(64 * 1024);
        let mut reader = RecordReader::new(&stream[..], opts);
        let first = reader.next().unwrap();
        assert!(
            matches!(
                first,
                ReadEvent::Skipped {
                    reason: SkipReason::TooLarge,
                    ..
                }
            ),
            "{first:?}"
        );
        assert!(
            reader.spare_capacity() <= 2 * HEAD_PEEK_BYTES,
            "{}",
            reader.spare_capacity()
        );
        assert!(matches!(reader.next(), Some(ReadEvent::Record(_))));
        assert!(reader.next().is_none());

        // A declared length far beyond the data and the limit: no huge allocation, a clean error.
        let liar = b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 1000000000000\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>";
        let evs = events(liar, opts);
        assert!(
            matches!(
                evs[..],
                [
                    ReadEvent::Skipped {
                        reason: SkipReason::TooLarge,
                        ..
                    },
                    ReadEvent::Error {
                        error: RecordError::TruncatedBlock { .. },
                        ..
                    }
                ]
            ),
            "{evs:?}"
        );
    }

    #[test]
    fn skipped_records_reuse_one_small_buffer() {
        let pdf = rec(
            "response",
            "p",
            &[],
            &http("application/pdf", &vec![0u8; 200_000]),
        );
        let stream = pdf.repeat(5);
        let mut reader = RecordReader::new(&stream[..], ReaderOptions::default());
        assert_eq!(reader.by_ref().count(), 5);
        assert!(reader.spare_capacity() <= 2 * HEAD_PEEK_BYTES);
    }

    /// A record whose header declares `declared` bytes for `block`.
    fn rec_len(kind: &str, id: &str, declared: usize, block: &[u8]) -> Vec<u8> {
        let mut v = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
             Content-Length: {declared}\r\n\r\n"
        )
        .into_bytes();
        v.extend_from_slice(block);
        v.extend_from_slice(b"\r\n\r\n");
        v
    }

    fn mismatch(evs: &[ReadEvent]) -> Vec<(u64, Option<String>)> {
        evs.iter()
            .filter_map(|e| match e {
                ReadEvent::Error {
                    offset,
                    id,
                    error: RecordError::LengthMismatch { .. },
                } => Some((*offset, id.clone())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn content_length_too_large_loses_no_following_record() {
        let a = rec(
            "resource",
            "a",
            &[("Content-Type", "text/html")],
            b"<p>a</p>",
        );
        let c = rec("response", "c", &[], PAGE);
        let d = rec("request", "d", &[], b"GET / HTTP/1.1\r\n\r\n");
        let e = rec("response", "e", &[], PAGE);
        for extra in [1usize, 5, 6, 9, 30, 200, 5000] {
            for (kind, block) in [
                ("response", PAGE),
                ("request", &b"GET / HTTP/1.1\r\n\r\n"[..]),
            ] {
                let bad = rec_len(kind, "bad", block.len() + extra, block);
                let stream = [a.clone(), bad.clone(), c.clone(), d.clone(), e.clone()].concat();
                let evs = events(&stream, ReaderOptions::default());
                let got = summary(&evs);
                let ids: Vec<&str> = got.iter().map(|g| g.2.as_str()).collect();
                for want in ["<urn:uuid:a>", "<urn:uuid:c>", "<urn:uuid:e>"] {
                    assert!(ids.contains(&want), "{kind} +{extra}: {want} lost: {got:?}");
                }
                let short_overrun = extra <= 4;
                if !short_overrun {
                    assert_eq!(
                        mismatch(&evs),
                        vec![(a.len() as u64, Some("<urn:uuid:bad>".into()))],
                        "{kind} +{extra}: {got:?}"
                    );
                }
                if kind == "response" {
                    let r = evs
                        .iter()
                        .find_map(|e| match e {
                            ReadEvent::Record(r)
                                if r.header.record_id() == Some("<urn:uuid:bad>") =>
                            {
                                Some(r)
                            }
                            _ => None,
                        })
                        .unwrap_or_else(|| panic!("+{extra}: bad record kept: {got:?}"));
                    if !short_overrun {
                        assert_eq!(
                            r.block, PAGE,
                            "+{extra}: the block is cut at the next record"
                        );
                    }
                }
                // Offsets of the records read again are right.
                let c_offset = evs.iter().find_map(|e| match e {
                    ReadEvent::Record(r) if r.header.record_id() == Some("<urn:uuid:c>") => {
                        Some(r.offset)
                    }
                    _ => None,
                });
                assert_eq!(
                    c_offset,
                    Some((a.len() + bad.len()) as u64),
                    "{kind} +{extra}"
                );
            }
        }
    }

    #[test]
    fn content_length_too_large_at_end_of_input_is_recovered() {
        let bad = rec_len("response", "bad", PAGE.len() + 10_000, PAGE);
        let c = rec(
            "resource",
            "c",
            &[("Content-Type", "text/html")],
            b"<p>c</p>",
        );
        let evs = events(&[bad.clone(), c].concat(), ReaderOptions::default());
        let got = summary(&evs);
        let want = RecordError::LengthMismatch {
            declared: PAGE.len() as u64 + 10_000,
        }
        .to_string();
        assert_eq!(
            got.iter()
                .map(|g| (g.0.as_str(), g.2.as_str()))
                .collect::<Vec<_>>(),
            vec![
                ("record", "<urn:uuid:bad>"),
                ("error", want.as_str()),
                ("record", "<urn:uuid:c>")
            ],
            "{got:?}"
        );
    }

    #[test]
    fn content_length_too_small_resynchronises() {
        let a = rec(
            "resource",
            "a",
            &[("Content-Type", "text/html")],
            b"<p>a</p>",
        );
        let bad = rec_len("response", "bad", PAGE.len() - 7, PAGE);
        let c = rec("response", "c", &[], PAGE);
        let evs = events(&[a.clone(), bad, c].concat(), ReaderOptions::default());
        let got = summary(&evs);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[1].2, "<urn:uuid:bad>", "kept, cut short: {got:?}");
        assert_eq!(
            mismatch(&evs),
            vec![(a.len() as u64, Some("<urn:uuid:bad>".into()))]
        );
        assert_eq!(got[3].2, "<urn:uuid:c>");
    }

    #[test]
    fn missing_blank_line_after_the_header() {
        // The HTTP head is read as more header lines, so the block starts at the HTML and
        // runs into the next record.
        let a = rec(
            "resource",
            "a",
            &[("Content-Type", "text/html")],
            b"<p>a</p>",
        );
        let mut bad = rec("response", "bad", &[], PAGE);
        let cut = memchr::memmem::find(&bad, b"\r\n\r\nHTTP/").unwrap();
        bad.drain(cut..cut + 2);
        let c = rec("response", "c", &[], PAGE);
        let evs = events(&[a, bad, c].concat(), ReaderOptions::default());
        let got = summary(&evs);
        assert_eq!(
            got.last().map(|g| g.2.as_str()),
            Some("<urn:uuid:c>"),
            "{got:?}"
        );
        assert_eq!(mismatch(&evs).len(), 1, "{got:?}");
    }

    #[test]
    fn record_start_search() {
        assert_eq!(find_record_start(b"x\r\n\r\nWARC/1.0\r\n"), Some(5));
        assert_eq!(find_record_start(b"x\n\nWARC/1.1"), Some(3));
        assert_eq!(
            find_record_start(b"x\r\nWARC/1.0"),
            None,
            "no blank line before"
        );
        assert_eq!(find_record_start(b"x WARC/1.0"), None);
        assert_eq!(
            find_record_start(b"x\r\n\r\nWAR"),
            Some(5),
            "cut version line"
        );
        assert_eq!(find_record_start(b"x\r\n\r\n"), None);
        assert_eq!(
            find_record_start(b"WARC/1.0"),
            None,
            "not at the block start"
        );
        assert_eq!(trailing_blank_line(b"ab\r\n\r\n"), 4);
        assert_eq!(trailing_blank_line(b"ab\n\n"), 2);
        assert_eq!(trailing_blank_line(b"ab\r\n\r\n\r\n"), 4);
        assert_eq!(trailing_blank_line(b"ab"), 0);
    }

    /// A small ARC file: version block, an HTML page (URL with spaces), an image, a record
    /// with a negative length, a record with a wrong length, and a last page.
    fn arc_file() -> (Vec<u8>, Vec<usize>) {
        let page = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>arc</p>";
        let img = b"HTTP/1.0 200 OK\r\nContent-Type: image/gif\r\n\r\nGIF89a";
        let desc = b"1 0 Alexa Internet\nURL IP-address Archive-date Content-type Archive-length\n";
        let parts: Vec<Vec<u8>> = vec![
            [
                format!(
                    "filedesc://x.arc 0.0.0.0 19961004000000 text/plain {}\n",
                    desc.len()
                )
                .as_bytes(),
                desc,
                b"\n",
            ]
            .concat(),
            [
                format!(
                    "http://a.com/x y z 1.2.3.4 1996100400010299 text/html {}\n",
                    page.len()
                )
                .as_bytes(),
                page,
                b"\n",
            ]
            .concat(),
            [
                format!(
                    "http://a.com/i.gif 1.2.3.4 19961004000103 image/gif {}\n",
                    img.len()
                )
                .as_bytes(),
                img,
                b"\n",
            ]
            .concat(),
            [
                &b"http://a.com/n 1.2.3.4 19961004000104 text/html -1\n"[..],
                page,
                b"\n",
            ]
            .concat(),
            [
                &b"http://a.com/w 1.2.3.4 19961004000105 text/html 9999\n"[..],
                page,
                b"\n",
            ]
            .concat(),
            [
                format!(
                    "http://a.com/last 1.2.3.4 19961004000106 text/html {}\n",
                    page.len()
                )
                .as_bytes(),
                page,
                b"\n",
            ]
            .concat(),
        ];
        let starts = parts
            .iter()
            .scan(0, |at, p| {
                let s = *at;
                *at += p.len();
                Some(s)
            })
            .collect();
        (parts.concat(), starts)
    }

    #[test]
    fn arc_files_are_read_natively() {
        let (file, starts) = arc_file();
        let evs = events(&file, ReaderOptions::default());
        let got: Vec<(String, u64, String)> = summary(&evs)
            .into_iter()
            .map(|(k, o, what)| {
                (
                    k,
                    o,
                    if what.starts_with("<urn:uuid:") {
                        "id".into()
                    } else {
                        what
                    },
                )
            })
            .collect();
        let at = |i: usize| starts[i] as u64;
        assert_eq!(
            got,
            vec![
                ("skipped".into(), at(0), "warcinfo".into()),
                ("record".into(), at(1), "id".into()),
                ("skipped".into(), at(2), "not_html".into()),
                ("record".into(), at(3), "id".into()),
                ("record".into(), at(4), "id".into()),
                (
                    "error".into(),
                    at(4),
                    RecordError::LengthMismatch { declared: 9999 }.to_string()
                ),
                ("record".into(), at(5), "id".into()),
            ],
            "{evs:?}"
        );
        let ReadEvent::Record(r) = &evs[1] else {
            unreachable!()
        };
        assert_eq!(r.header.target_uri(), Some("http://a.com/x y z"));
        assert_eq!(r.header.date(), Some("1996-10-04T00:01:02Z"));
        assert_eq!(r.header.version, "ARC/1");
        assert!(r.is_http_response());
        assert!(r.block.ends_with(b"<p>arc</p>"));
        let ReadEvent::Skipped { record_type, .. } = &evs[0] else {
            unreachable!()
        };
        assert_eq!(record_type, "warcinfo");
        // The negative length ran to the next header line; the wrong one was cut there.
        for i in [3, 4, 6] {
            let ReadEvent::Record(r) = &evs[i] else {
                unreachable!()
            };
            assert!(
                r.block.ends_with(b"<p>arc</p>"),
                "{i}: {:?}",
                String::from_utf8_lossy(&r.block)
            );
        }
        // gzip, a member per record: offsets are the members' compressed starts.
        let members: Vec<Vec<u8>> = starts
            .iter()
            .zip(starts.iter().skip(1).chain([&file.len()]))
            .map(|(&a, &b)| gzip(&file[a..b]))
            .collect();
        let input = Input::from_reader("t", Cursor::new(members.concat())).unwrap();
        let evs: Vec<_> = RecordReader::new(input, ReaderOptions::default()).collect();
        let ReadEvent::Record(r) = &evs[1] else {
            panic!("{evs:?}")
        };
        assert_eq!(r.offset, members[0].len() as u64);
        assert_eq!(evs.len(), 7);
    }

    #[test]
    fn early_warc_versions_and_clueweb_quirks() {
        // ClueWeb09: WARC/0.18, an empty WARC-Identified-Payload-Type, lines ending CR CR LF
        // elsewhere.
        let mut r18 = rec(
            "response",
            "c",
            &[("WARC-Identified-Payload-Type", "")],
            PAGE,
        );
        r18.splice(0..8, b"WARC/0.18".iter().copied());
        let mut r17 = rec("resource", "d", &[("Content-Type", "text/html")], b"<p>");
        r17.splice(0..8, b"WARC/0.17".iter().copied());
        let crcr = b"WARC/1.0\r\r\nWARC-Type: resource\r\r\nContent-Type: text/html\r\r\n\
                     Content-Length: 3\r\r\n\r\r\n<p>\r\n\r\n";
        let stream = [r18, r17, crcr.to_vec()].concat();
        let evs = events(&stream, ReaderOptions::default());
        let kinds: Vec<String> = summary(&evs).into_iter().map(|e| e.0).collect();
        assert_eq!(kinds, ["record", "record", "record"], "{evs:?}");
        let ReadEvent::Record(r) = &evs[0] else {
            unreachable!()
        };
        assert_eq!(r.header.version, "WARC/0.18");
        assert_eq!(r.header.identified_payload_type(), None);
    }

    #[test]
    fn records_by_type_of_skipped_records() {
        let stream = [
            rec(
                "resource",
                "a",
                &[("Content-Type", "application/pdf")],
                b"%PDF",
            ),
            rec("metadata", "b", &[], b"x: y\r\n"),
            rec("weird", "c", &[], b""),
        ]
        .concat();
        let types: Vec<String> = events(&stream, ReaderOptions::default())
            .into_iter()
            .filter_map(|e| match e {
                ReadEvent::Skipped { record_type, .. } => Some(record_type),
                _ => None,
            })
            .collect();
        assert_eq!(types, ["resource", "metadata", "weird"]);
    }

    #[test]
    fn header_accessors() {
        let h = RecordHeader::new(
            "WARC/1.0",
            vec![
                ("warc-target-uri".into(), "http://x/".into()),
                ("Content-Length".into(), " 12 ".into()),
                ("WARC-Date".into(), "2024-01-01T00:00:00Z".into()),
            ],
        );
        assert_eq!(h.target_uri(), Some("http://x/"));
        assert_eq!(h.content_length(), Some(12));
        assert_eq!(h.date(), Some("2024-01-01T00:00:00Z"));
        assert_eq!(h.get("WARC-DATE"), h.date());
        assert_eq!(h.record_type(), None);
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_terminate(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
            let n = RecordReader::new(&bytes[..], ReaderOptions::default()).take(10_000).count();
            prop_assert!(n <= bytes.len() + 1);
        }

        #[test]
        fn warc_like_garbage_terminates(parts in proptest::collection::vec(prop_oneof![
            Just(&b"WARC/1.0\r\n"[..]), Just(&b"WARC/1.1\n"[..]), Just(&b"Content-Length: 5\r\n"[..]),
            Just(&b"WARC-Type: response\r\n"[..]), Just(&b"WARC-Type: resource\r\n"[..]),
            Just(&b"\r\n"[..]), Just(&b"HTTP/1.1 200 OK\r\n"[..]), Just(&b"Content-Type: text/html\r\n"[..]),
            Just(&b"xyz"[..]), Just(&b"Content-Length: 99\r\n"[..]), Just(&b" cont\r\n"[..])], 0..40)) {
            let bytes = parts.concat();
            let n = RecordReader::new(&bytes[..], ReaderOptions::default()).take(10_000).count();
            prop_assert!(n <= bytes.len() + 1);
        }

        #[test]
        fn records_round_trip(blocks in proptest::collection::vec(
            proptest::collection::vec(any::<u8>(), 0..300), 0..8), gz in any::<bool>()) {
            let parts: Vec<Vec<u8>> = blocks.iter().enumerate()
                .map(|(i, b)| rec("resource", &i.to_string(), &[], b)).collect();
            let starts = if gz {
                offsets(&parts.iter().map(|p| gzip(p)).collect::<Vec<_>>())
            } else {
                offsets(&parts)
            };
            let file = if gz { parts.iter().map(|p| gzip(p)).collect::<Vec<_>>().concat() } else { parts.concat() };
            let input = Input::from_reader("p", Cursor::new(file)).unwrap();
            let evs: Vec<_> = RecordReader::new(input, ReaderOptions::default()).collect();
            prop_assert_eq!(evs.len(), blocks.len());
            for ((e, b), start) in evs.iter().zip(&blocks).zip(&starts) {
                let ReadEvent::Record(r) = e else { panic!("{e:?}") };
                prop_assert_eq!(&r.block, b);
                prop_assert_eq!(r.offset, *start);
            }
        }
    }
}

/// Reads the shared development WARC (`../shared/warc/dev.warc.gz`: Common-Crawl-style, one
/// gzip member per record) and counts what it holds; skipped with a message where the
/// shared folder is absent. 0.2 s in a release build (`cargo test --release`, as CI
/// runs).
#[cfg(test)]
mod dev_warc {
    use super::*;

    #[test]
    fn reads_every_record_of_the_dev_warc() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/warc/dev.warc.gz");
        if !path.exists() {
            eprintln!("{} not found; skipped", path.display());
            return;
        }
        let started = std::time::Instant::now();
        let input = crate::input::open(&crate::input::InputSpec::Path(path)).unwrap();
        let mut reader = RecordReader::new(input, ReaderOptions::default());
        let (mut kept, mut skipped, mut errors) = (0usize, 0usize, 0usize);
        let mut last_offset = 0u64;
        for event in reader.by_ref() {
            match event {
                ReadEvent::Record(r) => {
                    assert!(r.offset > last_offset, "offsets increase");
                    last_offset = r.offset;
                    let resp = http::parse_response(&r.block, &http::Limits::default()).unwrap();
                    let _ = crate::charset::decode(
                        &resp.body,
                        resp.charset.as_deref(),
                        r.header.target_uri(),
                    );
                    kept += 1;
                }
                ReadEvent::Skipped { .. } => skipped += 1,
                ReadEvent::Error { error, .. } => {
                    eprintln!("{error}");
                    errors += 1;
                }
            }
        }
        let mb = reader.position() as f64 / 1e6;
        let secs = started.elapsed().as_secs_f64();
        eprintln!("{kept} kept, {skipped} skipped, {errors} errors, {mb:.0} MB in {secs:.2}s ({:.0} MB/s)", mb / secs);
        assert_eq!((kept, skipped, errors), (2318, 4637 - 2318, 0));
    }
}
