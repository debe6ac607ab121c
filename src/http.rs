//! HTTP: turn the block of a WARC `response` record (an HTTP response message) into its status,
//! headers and decoded payload.
//!
//! Takes the record block and [`Limits`]. Gives an [`HttpResponse`] whose `body` is
//! de-chunked (`Transfer-Encoding: chunked`) and content-decoded (`Content-Encoding: gzip`,
//! `x-gzip`, `deflate` (zlib or raw), `br`, `zstd`; `identity` and unknown codings pass
//! through). The body borrows from the block when nothing had to be undone.
//!
//! Real crawls are messy, so the parser is lenient where a browser is:
//! - the status line may lack a reason (`HTTP/1.1 200`) or be written `HTTP/2 200`; lines end
//!   in CRLF or a bare LF; header lines without a colon are ignored; obsolete folded header
//!   lines are joined to the previous value; a head with no blank line has an empty body;
//! - crawlers often store the payload *already* de-chunked or decompressed yet keep the
//!   original `Transfer-Encoding`/`Content-Encoding` headers. A "chunked" body that does not
//!   start with a hex chunk-size line, a "gzip" body without the gzip magic, a "zstd" body
//!   without the zstd magic, and a "deflate"/"br" body that already looks like text pass
//!   through unchanged; a body whose magic bytes show another coding than the declared one
//!   (gzip bytes labelled `br`, `deflate` or `zstd`; zstd bytes labelled `gzip`) is decoded as
//!   what it is;
//! - a body cut short (WARC-Truncated records: a chunked body without its last chunk, a
//!   compressed stream that ends early or breaks after producing output) keeps what could be
//!   recovered and sets [`HttpResponse::incomplete`].
//!
//! It refuses, with an [`HttpError`]: a block that is not an HTTP response, a malformed status
//! line, a head over [`Limits::max_header_bytes`] or with more than [`Limits::max_headers`]
//! fields, a broken chunk-size line after the first chunk, a compressed payload that cannot be
//! decoded at all, and a payload whose decoded size would exceed
//! [`Limits::max_decoded_bytes`] (64 MiB by default: a gzip bomb expands 1000×, so the cap,
//! not the input size, bounds memory; real HTML pages are far below it).
//!
//! [`is_html_content_type`], [`parse_content_type`], [`peek_content_type`] and
//! [`sniff_html`] are the helpers the record reader and workers use to decide what is HTML.
//!
//! ```
//! use warcsift::http::{parse_response, Limits};
//!
//! let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<p>hi</p>";
//! let r = parse_response(block, &Limits::default())?;
//! assert_eq!((r.status, r.charset.as_deref()), (200, Some("UTF-8")));
//! assert_eq!(&r.body[..], b"<p>hi</p>");
//! # Ok::<(), warcsift::http::HttpError>(())
//! ```

use std::borrow::Cow;
use std::io::Read;

/// Bounds on what one response may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Maximum size of the payload after content decoding (default 64 MiB).
    pub max_decoded_bytes: usize,
    /// Maximum number of header fields (default 256; real responses have 10–40).
    pub max_headers: usize,
    /// Maximum size of the status line and headers (default 64 KiB).
    pub max_header_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_decoded_bytes: 64 * 1024 * 1024,
            max_headers: 256,
            max_header_bytes: 64 * 1024,
        }
    }
}

impl Limits {
    /// Sets [`Limits::max_decoded_bytes`].
    pub fn with_max_decoded_bytes(mut self, n: usize) -> Self {
        self.max_decoded_bytes = n;
        self
    }
}

/// Why a response could not be parsed or decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// The block does not start with `HTTP/`.
    #[error("the record block is not an HTTP response: it starts with {found:?}")]
    NotHttp {
        /// The first bytes, lossily decoded.
        found: String,
    },
    /// The status line has no three-digit status code.
    #[error("the HTTP status line {line:?} has no valid three-digit status code")]
    BadStatusLine {
        /// The status line, lossily decoded and shortened.
        line: String,
    },
    /// The head is larger than allowed.
    #[error("the HTTP status line and headers exceed {limit} bytes")]
    HeadersTooLong {
        /// The limit in force.
        limit: usize,
    },
    /// Too many header fields.
    #[error("the HTTP response has more than {limit} header fields")]
    TooManyHeaders {
        /// The limit in force.
        limit: usize,
    },
    /// A chunk-size line of a chunked body could not be read.
    #[error("the chunked HTTP body has an invalid chunk-size line {line:?}")]
    BadChunkSize {
        /// The line, lossily decoded and shortened.
        line: String,
    },
    /// Decoding would produce more than the limit.
    #[error("decompressed payload exceeds {limit} bytes")]
    DecodedTooLarge {
        /// The limit in force.
        limit: usize,
    },
    /// A compressed payload could not be decoded at all.
    #[error("the {coding} Content-Encoding of the payload cannot be decoded: {message}")]
    Decode {
        /// The content coding.
        coding: String,
        /// The decoder's reason.
        message: String,
    },
}

/// A parsed HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse<'a> {
    /// Status code (100–999).
    pub status: u16,
    /// Header fields in order, names and values trimmed; borrowed unless not UTF-8 (then
    /// lossily decoded) or folded over several lines.
    pub headers: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// The MIME type of the last non-empty `Content-Type` header, lowercased, without
    /// parameters.
    pub content_type: Option<String>,
    /// The `charset` parameter of that `Content-Type`, trimmed and unquoted.
    pub charset: Option<String>,
    /// The payload, de-chunked and content-decoded.
    pub body: Cow<'a, [u8]>,
    /// True when the body was cut short (truncated chunked or compressed data) and `body`
    /// holds what could be recovered.
    pub incomplete: bool,
}

impl HttpResponse<'_> {
    /// The first header named `name` (ASCII case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_ref())
    }
}

/// Parses an HTTP response message and decodes its body; see the module doc.
pub fn parse_response<'a>(block: &'a [u8], limits: &Limits) -> Result<HttpResponse<'a>, HttpError> {
    let start = block
        .iter()
        .position(|&c| c != b'\r' && c != b'\n')
        .unwrap_or(block.len());
    let message = block.get(start..).unwrap_or_default();
    if !message.starts_with(b"HTTP/") {
        return Err(HttpError::NotHttp {
            found: preview(message),
        });
    }
    let (status_line, mut pos) = next_line(message, 0);
    let status = parse_status_line(status_line).ok_or_else(|| HttpError::BadStatusLine {
        line: preview(status_line),
    })?;
    let mut head_bytes = status_line.len();
    let mut headers: Vec<(Cow<'a, str>, Cow<'a, str>)> = Vec::new();
    let mut body_start = message.len();
    while pos < message.len() {
        let (line, next) = next_line(message, pos);
        pos = next;
        if line.is_empty() {
            body_start = next;
            break;
        }
        head_bytes += line.len() + 1;
        if head_bytes > limits.max_header_bytes {
            return Err(HttpError::HeadersTooLong {
                limit: limits.max_header_bytes,
            });
        }
        if matches!(line.first(), Some(b' ' | b'\t')) {
            if let Some((_, value)) = headers.last_mut() {
                let more = trim(line);
                if !more.is_empty() {
                    let joined = format!("{} {}", value, String::from_utf8_lossy(more));
                    *value = Cow::Owned(joined);
                }
            }
            continue;
        }
        let Some((name, value)) = split_field(line) else {
            continue;
        };
        if headers.len() >= limits.max_headers {
            return Err(HttpError::TooManyHeaders {
                limit: limits.max_headers,
            });
        }
        headers.push((lossy(name), lossy(value)));
    }
    if body_start > message.len() {
        body_start = message.len();
    }

    let (content_type, charset) = match headers
        .iter()
        .rev()
        .find(|(n, v)| n.eq_ignore_ascii_case("content-type") && !v.trim().is_empty())
    {
        Some((_, v)) => {
            let (mime, charset) = parse_content_type(v);
            ((!mime.is_empty()).then_some(mime), charset)
        }
        None => (None, None),
    };

    let mut body: Cow<'a, [u8]> = Cow::Borrowed(message.get(body_start..).unwrap_or_default());
    let mut incomplete = false;

    let chunked = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding")
            && v.split(',')
                .any(|t| t.trim().eq_ignore_ascii_case("chunked"))
    });
    if chunked {
        if let Some((dechunked, cut)) = dechunk(&body)? {
            body = Cow::Owned(dechunked);
            incomplete |= cut;
        }
    }

    let codings: Vec<String> = headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("content-encoding"))
        .flat_map(|(_, v)| v.split(','))
        .map(|c| c.trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty())
        .collect();
    for coding in codings.iter().rev() {
        let (decoded, cut) = decode_coding(coding, body, limits.max_decoded_bytes)?;
        body = decoded;
        incomplete |= cut;
    }

    Ok(HttpResponse {
        status,
        headers,
        content_type,
        charset,
        body,
        incomplete,
    })
}

/// True for `text/html` and `application/xhtml+xml` (ASCII case-insensitive, parameters and
/// surrounding whitespace ignored).
pub fn is_html_content_type(ct: &str) -> bool {
    let mime = ct.split(';').next().unwrap_or("").trim();
    mime.eq_ignore_ascii_case("text/html") || mime.eq_ignore_ascii_case("application/xhtml+xml")
}

/// Splits a `Content-Type` value into the lowercased MIME type (without parameters) and the
/// `charset` parameter (trimmed, unquoted; `None` when absent or empty).
pub fn parse_content_type(value: &str) -> (String, Option<String>) {
    let mut parts = value.split(';');
    let mime = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|param| {
        let (name, value) = param.split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let v = value.trim();
        let v = v
            .strip_prefix('"')
            .map(|s| s.strip_suffix('"').unwrap_or(s))
            .or_else(|| {
                v.strip_prefix('\'')
                    .map(|s| s.strip_suffix('\'').unwrap_or(s))
            })
            .unwrap_or(v)
            .trim();
        (!v.is_empty()).then(|| v.to_string())
    });
    (mime, charset)
}

/// The value of the last non-empty `Content-Type` header in the *head* of an HTTP response
/// (which may be cut anywhere: the record reader peeks only the first KiBs of a block).
/// `None` when the head has no such header or is not an HTTP response.
pub fn peek_content_type(head: &[u8]) -> Option<String> {
    let start = head.iter().position(|&c| c != b'\r' && c != b'\n')?;
    let message = head.get(start..)?;
    if !message.starts_with(b"HTTP/") {
        return None;
    }
    let (_, mut pos) = next_line(message, 0);
    let mut found = None;
    while pos < message.len() {
        let (line, next) = next_line(message, pos);
        pos = next;
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = split_field(line) {
            if name.eq_ignore_ascii_case(b"content-type") && !value.is_empty() {
                found = Some(value);
            }
        }
    }
    found.map(|v| String::from_utf8_lossy(v).into_owned())
}

/// Whether the payload at the start of the *head* of an HTTP response (cut anywhere, as
/// [`peek_content_type`] takes it) is binary by [`looks_binary`]. `false` when the head holds
/// no body bytes, or when a `Content-Encoding` (other than `identity`) or `Transfer-Encoding`
/// means the stored bytes are not the payload itself.
pub fn peek_binary_payload(head: &[u8]) -> bool {
    let Some(start) = head.iter().position(|&c| c != b'\r' && c != b'\n') else {
        return false;
    };
    let message = head.get(start..).unwrap_or_default();
    if !message.starts_with(b"HTTP/") {
        return false;
    }
    let (_, mut pos) = next_line(message, 0);
    while pos < message.len() {
        let (line, next) = next_line(message, pos);
        if next >= message.len() && !message.ends_with(b"\n") {
            return false; // the head ends inside a header line
        }
        pos = next;
        if line.is_empty() {
            let body = message.get(pos..).unwrap_or_default();
            return !body.is_empty() && looks_binary(body);
        }
        if let Some((name, value)) = split_field(line) {
            let coded = name.eq_ignore_ascii_case(b"transfer-encoding")
                || (name.eq_ignore_ascii_case(b"content-encoding")
                    && !value.is_empty()
                    && !value.eq_ignore_ascii_case(b"identity"));
            if coded {
                return false;
            }
        }
    }
    false
}

/// Per byte: 1 for a control byte that text does not hold (all below 0x20 but tab, line
/// feed, form feed, carriage return and escape), else 0. [`looks_binary`] sums it over its
/// window, one lookup a byte (the sum vectorises; a range test took ~20 instructions a byte).
const BINARY_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = !matches!(c, 0x09 | 0x0a | 0x0c | 0x0d | 0x1b) as u8;
        c += 1;
    }
    t
};

/// Whether a payload is binary whatever its label says: a known binary signature (image,
/// PDF, archive, compressed stream, font, media), or, in its first 1024 bytes, more than 1 in
/// 12 WHATWG "binary data bytes" (controls other than tab, line feed, form feed, carriage
/// return and escape) with less than 70% printable ASCII, unless the NULs all fall on one
/// parity, as in UTF-16 text. A page with stray NULs or control characters is not binary.
pub fn looks_binary(body: &[u8]) -> bool {
    if body.starts_with(&[0xff, 0xfe]) || body.starts_with(&[0xfe, 0xff]) {
        return false; // UTF-16 with a BOM
    }
    const MAGIC: [&[u8]; 17] = [
        b"\x89PNG\r\n\x1a\n",
        b"GIF87a",
        b"GIF89a",
        b"\xff\xd8\xff",
        b"%PDF-",
        b"PK\x03\x04",
        b"\x1f\x8b",
        b"\x28\xb5\x2f\xfd",
        b"BZh",
        b"\xfd7zXZ\x00",
        b"7z\xbc\xaf\x27\x1c",
        b"Rar!\x1a\x07",
        b"\x00\x00\x01\x00",
        b"wOFF",
        b"wOF2",
        b"OggS",
        b"\x1aE\xdf\xa3",
    ];
    if MAGIC.iter().any(|m| body.starts_with(m)) {
        return true;
    }
    if body.get(..12).is_some_and(|h| {
        (h.starts_with(b"RIFF") && (h.ends_with(b"WEBP") || h.ends_with(b"WAVE")))
            || h.get(4..8) == Some(b"ftyp")
    }) {
        return true;
    }
    let window = body.get(..1024).unwrap_or(body);
    let binary: usize = window
        .chunks(255)
        .map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + BINARY_BYTE[usize::from(b)])))
        .sum();
    if binary * 12 <= window.len() {
        return false; // every real page: the second count is not needed
    }
    let ascii_text = window
        .iter()
        .filter(|&&c| (0x20..0x7f).contains(&c) || matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r'))
        .count();
    if ascii_text * 10 >= window.len() * 7 {
        return false;
    }
    let nul_at = |parity: usize| {
        window
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c == 0 && i % 2 == parity)
            .count()
    };
    let (even, odd) = (nul_at(0), nul_at(1));
    let utf16_like = (even == 0 || odd == 0) && (even + odd) * 3 >= window.len();
    !utf16_like
}

/// WHATWG-like HTML sniffing of a payload with no usable `Content-Type`.
///
/// Skips a byte order mark and whitespace, refuses binary (NUL bytes in the first 512 bytes;
/// PDF, PNG, GIF, JPEG, ZIP magic), skips an XML declaration, and accepts a start of
/// `<!DOCTYPE HTML`, `<HTML`, `<HEAD`, `<BODY`, `<SCRIPT`, `<IFRAME`, `<H1`, `<DIV`, `<FONT`,
/// `<TABLE`, `<A`, `<STYLE`, `<TITLE`, `<B`, `<BR`, `<P` (each followed by a space or `>`) or
/// `<!--`, in any case. A UTF-16 page (with its BOM) is sniffed on its ASCII characters.
pub fn sniff_html(body: &[u8]) -> bool {
    let (bytes, utf16): (Cow<'_, [u8]>, bool) = match body {
        [0xef, 0xbb, 0xbf, rest @ ..] => (Cow::Borrowed(rest), false),
        [0xff, 0xfe, rest @ ..] => (Cow::Owned(ascii_of_utf16(rest, false)), true),
        [0xfe, 0xff, rest @ ..] => (Cow::Owned(ascii_of_utf16(rest, true)), true),
        _ => (Cow::Borrowed(body), false),
    };
    let window = bytes.get(..512).unwrap_or(&bytes);
    if !utf16 && memchr::memchr(0, window).is_some() {
        return false;
    }
    const BINARY: [&[u8]; 6] = [
        b"%PDF-",
        b"\x89PNG",
        b"GIF87a",
        b"GIF89a",
        b"\xff\xd8\xff",
        b"PK\x03\x04",
    ];
    if BINARY.iter().any(|m| window.starts_with(m)) {
        return false;
    }
    let mut s = skip_ws(window);
    if s.starts_with(b"<?xml") {
        match memchr::memmem::find(s, b"?>") {
            Some(end) => s = skip_ws(s.get(end + 2..).unwrap_or_default()),
            None => return false,
        }
    }
    if s.starts_with(b"<!--") {
        return true;
    }
    const TAGS: [&[u8]; 16] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<body",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<br",
        b"<p",
    ];
    TAGS.iter().any(|tag| {
        s.get(..tag.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(tag))
            && matches!(s.get(tag.len()), Some(b' ' | b'>'))
    })
}

/// The characters below U+0080 of (the start of) a UTF-16 text; others become `?`.
fn ascii_of_utf16(bytes: &[u8], big_endian: bool) -> Vec<u8> {
    bytes
        .chunks_exact(2)
        .take(512)
        .map(|pair| {
            let (hi, lo) = match pair {
                [a, b] if big_endian => (*a, *b),
                [a, b] => (*b, *a),
                _ => (0, b'?'),
            };
            if hi == 0 && lo < 0x80 {
                lo
            } else {
                b'?'
            }
        })
        .collect()
}

fn skip_ws(s: &[u8]) -> &[u8] {
    let n = s
        .iter()
        .position(|&c| !matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' '))
        .unwrap_or(s.len());
    s.get(n..).unwrap_or_default()
}

/// The line starting at `pos` (without its `\n` or `\r\n`) and the position after it.
fn next_line(s: &[u8], pos: usize) -> (&[u8], usize) {
    let rest = s.get(pos..).unwrap_or_default();
    let (line, next) = match memchr::memchr(b'\n', rest) {
        Some(i) => (rest.get(..i).unwrap_or_default(), pos + i + 1),
        None => (rest, s.len()),
    };
    (line.strip_suffix(b"\r").unwrap_or(line), next)
}

/// `HTTP/x[.y] NNN [reason]` → NNN.
fn parse_status_line(line: &[u8]) -> Option<u16> {
    let after_version = line.iter().position(|&c| c == b' ' || c == b'\t')?;
    let rest = line.get(after_version..)?;
    let rest = rest.get(rest.iter().position(|&c| c != b' ' && c != b'\t')?..)?;
    let code = rest.get(..3)?;
    if !code.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if rest.get(3).is_some_and(|c| !matches!(c, b' ' | b'\t')) {
        return None;
    }
    let status = code.iter().fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'));
    (status >= 100).then_some(status)
}

/// `name: value` → (trimmed name, trimmed value); `None` without a colon or with an empty name.
fn split_field(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = memchr::memchr(b':', line)?;
    let name = trim(line.get(..colon)?);
    let value = trim(line.get(colon + 1..)?);
    (!name.is_empty()).then_some((name, value))
}

fn trim(s: &[u8]) -> &[u8] {
    let is_ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let start = s.iter().position(|c| !is_ws(c)).unwrap_or(s.len());
    let end = s.iter().rposition(|c| !is_ws(c)).map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or_default()
}

fn lossy(s: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(s)
}

/// The first bytes of `s`, lossily decoded, for error messages.
fn preview(s: &[u8]) -> String {
    let cut = s.get(..60).unwrap_or(s);
    let mut text = String::from_utf8_lossy(cut).into_owned();
    if cut.len() < s.len() {
        text.push('…');
    }
    text
}

/// A chunk-size line: hex digits, optional whitespace, optional `;extension`.
fn chunk_size(line: &[u8]) -> Option<u64> {
    let digits = line.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if digits == 0 || digits > 15 {
        return None;
    }
    let rest = trim(line.get(digits..)?);
    if !rest.is_empty() && !rest.starts_with(b";") {
        return None;
    }
    line.get(..digits)?.iter().try_fold(0u64, |n, &c| {
        let d = (c as char).to_digit(16)?;
        Some(n * 16 + u64::from(d))
    })
}

/// De-chunks a body. `Ok(None)`: it does not start with a chunk-size line, so the crawler
/// already de-chunked it. `Ok(Some((body, cut)))`: `cut` when the data ended before the last
/// chunk.
fn dechunk(body: &[u8]) -> Result<Option<(Vec<u8>, bool)>, HttpError> {
    let (first, _) = next_line(body, 0);
    if chunk_size(first).is_none() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0usize;
    loop {
        if pos >= body.len() {
            return Ok(Some((out, true)));
        }
        let (line, next) = next_line(body, pos);
        let size = chunk_size(line).ok_or_else(|| HttpError::BadChunkSize {
            line: preview(line),
        })?;
        if size == 0 {
            return Ok(Some((out, false)));
        }
        let available = body.len().saturating_sub(next);
        let Some(take) = usize::try_from(size).ok().filter(|&s| s <= available) else {
            out.extend_from_slice(body.get(next..).unwrap_or_default());
            return Ok(Some((out, true)));
        };
        out.extend_from_slice(body.get(next..next + take).unwrap_or_default());
        pos = next + take;
        // The CRLF after the data (tolerate a bare LF or nothing).
        let rest = body.get(pos..).unwrap_or_default();
        if rest.starts_with(b"\r\n") {
            pos += 2;
        } else if rest.starts_with(b"\n") {
            pos += 1;
        }
    }
}

/// Whether a body already looks like decoded text: HTML by [`sniff_html`], or no control
/// bytes (other than whitespace) in its first 512 bytes.
fn looks_decoded(body: &[u8]) -> bool {
    let window = body.get(..512).unwrap_or(body);
    sniff_html(body)
        || !window
            .iter()
            .any(|&c| c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r'))
}

/// Undoes one content coding. A payload whose magic bytes show another known coding than the
/// declared one (gzip bytes labelled `br`, `deflate` or `zstd`, zstd bytes labelled `gzip`:
/// misconfigured servers and crawlers) is decoded as what it is; if that fails, as declared.
fn decode_coding<'a>(
    coding: &str,
    body: Cow<'a, [u8]>,
    limit: usize,
) -> Result<(Cow<'a, [u8]>, bool), HttpError> {
    let known = matches!(coding, "gzip" | "x-gzip" | "deflate" | "br" | "zstd");
    let actual = if body.starts_with(&[0x1f, 0x8b]) {
        "gzip"
    } else if body.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        "zstd"
    } else {
        coding
    };
    let same = actual == coding || (actual == "gzip" && coding == "x-gzip");
    if known && !same {
        match decode_declared(actual, Cow::Borrowed(&body), limit) {
            Ok((Cow::Owned(out), cut)) => return Ok((Cow::Owned(out), cut)),
            Err(e @ HttpError::DecodedTooLarge { .. }) => return Err(e),
            _ => {}
        }
    }
    decode_declared(coding, body, limit)
}

/// Undoes one content coding, as declared.
fn decode_declared<'a>(
    coding: &str,
    body: Cow<'a, [u8]>,
    limit: usize,
) -> Result<(Cow<'a, [u8]>, bool), HttpError> {
    let data: &[u8] = &body;
    let result = match coding {
        "gzip" | "x-gzip" => {
            if !data.starts_with(&[0x1f, 0x8b]) {
                return Ok((body, false));
            }
            read_capped(flate2::bufread::MultiGzDecoder::new(data), limit)?
        }
        "deflate" => {
            let zlib = matches!(data, [cmf, flg, ..]
                if cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0);
            if zlib {
                read_capped(flate2::bufread::ZlibDecoder::new(data), limit)?
            } else if looks_decoded(data) {
                return Ok((body, false));
            } else {
                read_capped(flate2::bufread::DeflateDecoder::new(data), limit)?
            }
        }
        "br" => {
            if looks_decoded(data) {
                return Ok((body, false));
            }
            read_capped(
                brotli_decompressor::Decompressor::new(data, 64 * 1024),
                limit,
            )?
        }
        "zstd" => {
            if !data.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
                return Ok((body, false));
            }
            match zstd::stream::read::Decoder::with_buffer(data) {
                Ok(d) => read_capped(d, limit)?,
                Err(e) => (Vec::new(), Some(e)),
            }
        }
        _ => return Ok((body, false)),
    };
    match result {
        (out, None) => Ok((Cow::Owned(out), false)),
        (out, Some(_)) if !out.is_empty() => Ok((Cow::Owned(out), true)),
        (_, Some(_)) if looks_decoded(data) => Ok((body, false)),
        (_, Some(e)) => Err(HttpError::Decode {
            coding: coding.to_string(),
            message: e.to_string(),
        }),
    }
}

/// Reads a decoder to its end, at most `limit` bytes. Returns what was decoded and the
/// error that stopped it, if any.
///
/// The output grows by doubling but never past `limit + 1` bytes, so a bomb costs at most about
/// 1.5 × `limit` at the moment of the last growth (`read_to_end` would double to 2 × `limit`
/// and hold old and new buffer, 3 × `limit`).
fn read_capped<R: Read>(
    mut r: R,
    limit: usize,
) -> Result<(Vec<u8>, Option<std::io::Error>), HttpError> {
    const CHUNK: usize = 64 * 1024;
    let cap = limit.saturating_add(1);
    let mut out: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; CHUNK.min(cap)];
    let mut error = None;
    loop {
        let want = chunk.len().min(cap - out.len());
        if want == 0 {
            break;
        }
        let n = match r.read(chunk.get_mut(..want).unwrap_or_default()) {
            Ok(0) => break,
            Ok(n) => n.min(want),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                error = Some(e);
                break;
            }
        };
        if out.capacity() - out.len() < n {
            let grow = out.capacity().max(CHUNK).min(cap - out.len()).max(n);
            out.reserve_exact(grow);
        }
        out.extend_from_slice(chunk.get(..n).unwrap_or_default());
    }
    if out.len() > limit {
        return Err(HttpError::DecodedTooLarge { limit });
    }
    Ok((out, error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
    use proptest::prelude::*;
    use std::io::Write;

    const HTML: &[u8] = b"<!DOCTYPE html><html><body><p>Hello, world</p></body></html>";

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn response(headers: &str, body: &[u8]) -> Vec<u8> {
        let mut v = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
        v.extend_from_slice(body);
        v
    }

    fn parse(block: &[u8]) -> Result<HttpResponse<'_>, HttpError> {
        parse_response(block, &Limits::default())
    }

    #[test]
    fn plain_response_borrows_body() {
        let block = response(
            "Content-Type: Text/HTML; Charset=\"ISO-8859-1\"\r\nX-A: b\r\n",
            HTML,
        );
        let r = parse(&block).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.content_type.as_deref(), Some("text/html"));
        assert_eq!(r.charset.as_deref(), Some("ISO-8859-1"));
        assert_eq!(r.header("x-a"), Some("b"));
        assert!(matches!(r.body, Cow::Borrowed(b) if b == HTML));
        assert!(!r.incomplete);
    }

    #[test]
    fn status_line_variants() {
        for (block, status) in [
            (&b"HTTP/1.1 404\r\n\r\nx"[..], 404),
            (b"HTTP/2 200\n\nx", 200),
            (b"HTTP/1.0 301 Moved Permanently\nLocation: /\n\n", 301),
            (b"\r\nHTTP/1.1 200 OK\r\n\r\n", 200),
            (b"HTTP/1.1 204 No Content", 204),
        ] {
            assert_eq!(parse(block).unwrap().status, status, "{block:?}");
        }
        assert!(matches!(
            parse(b"HTTP/1.1 2000 OK\r\n\r\n"),
            Err(HttpError::BadStatusLine { .. })
        ));
        assert!(matches!(
            parse(b"HTTP/1.1 OK\r\n\r\n"),
            Err(HttpError::BadStatusLine { .. })
        ));
        assert!(matches!(
            parse(b"HTTP/1.1 099\r\n\r\n"),
            Err(HttpError::BadStatusLine { .. })
        ));
        assert!(matches!(parse(b"<html>"), Err(HttpError::NotHttp { .. })));
        assert!(matches!(parse(b""), Err(HttpError::NotHttp { .. })));
    }

    #[test]
    fn headers_lenient_and_limited() {
        let block = b"HTTP/1.1 200 OK\nno colon line\nX-Folded: a\n  b\nContent-Type: text/plain\nContent-Type: \n\nbody";
        let r = parse(block).unwrap();
        assert_eq!(r.header("x-folded"), Some("a b"));
        assert_eq!(
            r.content_type.as_deref(),
            Some("text/plain"),
            "empty later value ignored"
        );
        assert_eq!(&r.body[..], b"body");

        let many = response(&"A: b\r\n".repeat(300), b"");
        assert_eq!(parse(&many), Err(HttpError::TooManyHeaders { limit: 256 }));
        let long = response(&format!("A: {}\r\n", "x".repeat(70_000)), b"");
        assert_eq!(
            parse(&long),
            Err(HttpError::HeadersTooLong { limit: 65536 })
        );
        assert_eq!(
            HttpError::DecodedTooLarge { limit: 5 }.to_string(),
            "decompressed payload exceeds 5 bytes"
        );
    }

    #[test]
    fn capped_reads_never_hold_more_than_the_limit() {
        let data = vec![7u8; 300_000];
        for limit in [0, 1, 65_535, 65_536, 100_000, 299_999] {
            assert_eq!(
                read_capped(&data[..], limit).unwrap_err(),
                HttpError::DecodedTooLarge { limit }
            );
        }
        for limit in [300_000, 300_001, 1 << 30] {
            let (out, err) = read_capped(&data[..], limit).unwrap();
            assert!(err.is_none());
            assert_eq!(out, data);
            assert!(out.capacity() <= limit.saturating_add(1).max(1 << 17));
        }
        let (out, _) = read_capped(&data[..], 300_000).unwrap();
        assert!(out.capacity() <= 300_001, "{}", out.capacity());
    }

    #[test]
    fn the_binary_byte_table_is_the_control_bytes_text_does_not_hold() {
        for b in 0..=255u8 {
            let binary = matches!(b, 0x00..=0x08 | 0x0b | 0x0e..=0x1a | 0x1c..=0x1f);
            assert_eq!(BINARY_BYTE[usize::from(b)] == 1, binary, "{b:#04x}");
        }
    }

    #[test]
    fn binary_payloads_are_told_from_text() {
        let png = [&b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"[..], &[7u8; 100]].concat();
        let noise: Vec<u8> = (0..4000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut utf16 = vec![];
        for u in "<p>plain UTF-16 text without a BOM</p>".encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        assert!(looks_binary(&png));
        assert!(looks_binary(&noise));
        assert!(looks_binary(b"RIFF\x00\x00\x00\x00WEBPVP8 "));
        assert!(!looks_binary(HTML));
        assert!(!looks_binary(b"<p>a stray \x00 NUL and a \x01 control</p>"));
        assert!(!looks_binary(
            b"<body><p>before\x00after</p>\x00\x00<p>x\x00</p>"
        ));
        assert!(!looks_binary(&utf16));
        assert!(!looks_binary(b""));
        let head = |headers: &str, body: &[u8]| [response(headers, b""), body.to_vec()].concat();
        assert!(peek_binary_payload(&head(
            "Content-Type: text/html\r\n",
            &png
        )));
        assert!(!peek_binary_payload(&head(
            "Content-Type: text/html\r\n",
            HTML
        )));
        assert!(!peek_binary_payload(&head(
            "Content-Encoding: gzip\r\n",
            &png
        )));
        assert!(!peek_binary_payload(&head(
            "Transfer-Encoding: chunked\r\n",
            &png
        )));
        assert!(peek_binary_payload(&head(
            "Content-Encoding: identity\r\n",
            &png
        )));
        assert!(!peek_binary_payload(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/ht"
        ));
        assert!(!peek_binary_payload(&png));
    }

    #[test]
    fn mislabelled_codings_are_decoded_by_their_magic() {
        let gz = gzip(HTML);
        let zst = zstd::encode_all(HTML, 3).unwrap();
        for (coding, body) in [
            ("br", &gz),
            ("deflate", &gz),
            ("zstd", &gz),
            ("gzip", &zst),
            ("br", &zst),
        ] {
            let block = response(&format!("Content-Encoding: {coding}\r\n"), body);
            let r = parse(&block).unwrap();
            assert_eq!(&r.body[..], HTML, "{coding}");
            assert!(!r.incomplete);
        }
        // A bomb stays a bomb under any label.
        let bomb = gzip(&vec![0u8; 3 << 20]);
        let block = response("Content-Encoding: br\r\n", &bomb);
        let limits = Limits::default().with_max_decoded_bytes(1 << 20);
        assert_eq!(
            parse_response(&block, &limits),
            Err(HttpError::DecodedTooLarge { limit: 1 << 20 })
        );
        // Unknown and identity codings still pass through.
        let block = response("Content-Encoding: identity\r\n", &gz);
        assert_eq!(&parse(&block).unwrap().body[..], &gz[..]);
    }

    #[test]
    fn chunked_body_is_dechunked() {
        let body =
            b"5;ext=1\r\n<html\r\n18 \r\n><body>abcdefghijklmnopq\r\n0\r\nTrailer: x\r\n\r\n";
        let block = response("Transfer-Encoding: chunked\r\n", body);
        let r = parse(&block).unwrap();
        assert_eq!(&r.body[..], b"<html><body>abcdefghijklmnopq");
        assert!(!r.incomplete);
    }

    #[test]
    fn chunked_bare_lf_and_truncation() {
        let block = response("Transfer-Encoding: chunked\r\n", b"3\nabc\n4\ndefg");
        let r = parse(&block).unwrap();
        assert_eq!(&r.body[..], b"abcdefg");
        assert!(r.incomplete, "no last chunk");
        let block = response("Transfer-Encoding: chunked\r\n", b"10\r\nabc");
        let r = parse(&block).unwrap();
        assert_eq!((&r.body[..], r.incomplete), (&b"abc"[..], true));
    }

    #[test]
    fn already_dechunked_body_passes_through() {
        let block = response("Transfer-Encoding: chunked\r\n", HTML);
        let r = parse(&block).unwrap();
        assert!(matches!(r.body, Cow::Borrowed(b) if b == HTML));
    }

    #[test]
    fn bad_chunk_size_after_first_chunk_is_an_error() {
        let block = response("Transfer-Encoding: chunked\r\n", b"3\r\nabc\r\nzz\r\nmore");
        assert!(matches!(parse(&block), Err(HttpError::BadChunkSize { .. })));
    }

    #[test]
    fn gzip_and_x_gzip_are_decoded() {
        for coding in ["gzip", "x-gzip", "GZIP"] {
            let block = response(&format!("Content-Encoding: {coding}\r\n"), &gzip(HTML));
            let r = parse(&block).unwrap();
            assert_eq!(&r.body[..], HTML, "{coding}");
        }
    }

    #[test]
    fn chunked_then_gzip() {
        let z = gzip(HTML);
        let (a, b) = z.split_at(10);
        let mut body = format!("{:x}\r\n", a.len()).into_bytes();
        body.extend_from_slice(a);
        body.extend_from_slice(format!("\r\n{:X}\r\n", b.len()).as_bytes());
        body.extend_from_slice(b);
        body.extend_from_slice(b"\r\n0\r\n\r\n");
        let block = response(
            "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n",
            &body,
        );
        assert_eq!(&parse(&block).unwrap().body[..], HTML);
    }

    #[test]
    fn already_decoded_gzip_passes_through() {
        let block = response("Content-Encoding: gzip\r\n", HTML);
        let r = parse(&block).unwrap();
        assert!(matches!(r.body, Cow::Borrowed(b) if b == HTML));
        let block = response("Content-Encoding: br\r\n", HTML);
        assert!(matches!(parse(&block).unwrap().body, Cow::Borrowed(_)));
        let block = response("Content-Encoding: deflate\r\n", HTML);
        assert!(matches!(parse(&block).unwrap().body, Cow::Borrowed(_)));
        let block = response("Content-Encoding: compress, identity\r\n", HTML);
        assert!(matches!(parse(&block).unwrap().body, Cow::Borrowed(_)));
    }

    #[test]
    fn deflate_zlib_and_raw() {
        let mut z = ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(HTML).unwrap();
        let block = response("Content-Encoding: deflate\r\n", &z.finish().unwrap());
        assert_eq!(&parse(&block).unwrap().body[..], HTML);
        let mut d = DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        d.write_all(HTML).unwrap();
        let block = response("Content-Encoding: deflate\r\n", &d.finish().unwrap());
        assert_eq!(&parse(&block).unwrap().body[..], HTML);
    }

    #[test]
    fn brotli_is_decoded() {
        // "<p>hi</p>" as an uncompressed brotli meta-block (bits LSB first: WBITS=16 (0),
        // ISLAST=0, MNIBBLES=4 (00), MLEN-1=8, ISUNCOMPRESSED=1, padding), then an empty
        // last meta-block (ISLAST=1, ISLASTEMPTY=1).
        let mut br = vec![0x80, 0x00, 0x10];
        br.extend_from_slice(b"<p>hi</p>");
        br.push(0x03);
        let block = response("Content-Encoding: br\r\n", &br);
        let r = parse(&block).unwrap();
        assert_eq!(&r.body[..], b"<p>hi</p>");
        let block = response("Content-Encoding: br\r\n", b"\x01\x02\x03\x04garbage");
        assert!(matches!(parse(&block), Err(HttpError::Decode { .. })));
    }

    #[test]
    fn zstd_is_decoded() {
        let z = zstd::encode_all(HTML, 3).unwrap();
        let block = response("Content-Encoding: zstd\r\n", &z);
        assert_eq!(&parse(&block).unwrap().body[..], HTML);
    }

    #[test]
    fn corrupt_gzip_is_an_error_truncated_gzip_keeps_prefix() {
        let mut bad = gzip(HTML);
        bad.truncate(10);
        bad.extend_from_slice(&[0xff; 40]);
        let block = response("Content-Encoding: gzip\r\n", &bad);
        assert!(
            matches!(parse(&block), Err(HttpError::Decode { .. })),
            "{:?}",
            parse(&block)
        );

        let big: Vec<u8> = (0..200_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let mut z = gzip(&big);
        z.truncate(z.len() / 2);
        let block = response("Content-Encoding: gzip\r\n", &z);
        let r = parse(&block).unwrap();
        assert!(r.incomplete);
        assert!(!r.body.is_empty() && big.starts_with(&r.body));
    }

    #[test]
    fn gzip_bomb_is_refused() {
        let zeros = vec![0u8; 1 << 20];
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::best());
        for _ in 0..16 {
            e.write_all(&zeros).unwrap(); // 16 MiB of zeros
        }
        let bomb = e.finish().unwrap();
        assert!(bomb.len() < 50_000);
        let block = response("Content-Encoding: gzip\r\n", &bomb);
        let limits = Limits::default().with_max_decoded_bytes(1 << 20);
        assert_eq!(
            parse_response(&block, &limits),
            Err(HttpError::DecodedTooLarge { limit: 1 << 20 })
        );
    }

    #[test]
    fn content_type_parsing() {
        assert_eq!(parse_content_type("text/html"), ("text/html".into(), None));
        assert_eq!(
            parse_content_type(" TEXT/HTML ; foo=bar; charset = 'utf-8' "),
            ("text/html".into(), Some("utf-8".into()))
        );
        assert_eq!(
            parse_content_type("text/html; charset=\"\""),
            ("text/html".into(), None)
        );
        assert_eq!(
            parse_content_type("text/html; charset=\"x"),
            ("text/html".into(), Some("x".into()))
        );
        assert!(is_html_content_type("text/html; charset=utf-8"));
        assert!(is_html_content_type(" Application/XHTML+XML"));
        assert!(!is_html_content_type("text/plain"));
        assert!(!is_html_content_type("text/htmlx"));
    }

    #[test]
    fn peek_content_type_in_a_cut_head() {
        let head = b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Len";
        assert_eq!(peek_content_type(head).as_deref(), Some("application/pdf"));
        assert_eq!(
            peek_content_type(b"HTTP/1.1 200 OK\r\nServer: x\r\n\r\nContent-Type: a/b"),
            None
        );
        assert_eq!(
            peek_content_type(b"GET / HTTP/1.1\r\nContent-Type: a/b\r\n"),
            None
        );
    }

    #[test]
    fn sniffing() {
        for yes in [
            &b"  \n<!DOCTYPE HTML PUBLIC>"[..],
            b"\xef\xbb\xbf<html>",
            b"<HEAD >",
            b"<!-- c -->",
            b"<p>text",
            b"<a href>",
            b"<?xml version=\"1.0\"?>\n<html xmlns>",
        ] {
            assert!(sniff_html(yes), "{yes:?}");
        }
        for no in [
            &b"%PDF-1.4 <html>"[..],
            b"\x89PNG\r\n",
            b"GIF89a",
            b"\xff\xd8\xff\xe0",
            b"PK\x03\x04",
            b"<html\0>",
            b"<htmlx>",
            b"<article>",
            b"plain text",
            b"",
        ] {
            assert!(!sniff_html(no), "{no:?}");
        }
        let mut utf16 = vec![0xff, 0xfe];
        for u in "<html><body>".encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        assert!(sniff_html(&utf16));
    }

    /// Chunk-encodes `body` with the given chunk sizes (slow, obvious twin of `dechunk`).
    fn chunk_encode(body: &[u8], sizes: &[usize]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut rest = body;
        let mut i = 0;
        while !rest.is_empty() {
            let n = sizes
                .get(i % sizes.len().max(1))
                .copied()
                .unwrap_or(7)
                .clamp(1, rest.len());
            out.extend_from_slice(format!("{n:x}\r\n").as_bytes());
            out.extend_from_slice(&rest[..n]);
            out.extend_from_slice(b"\r\n");
            rest = &rest[n..];
            i += 1;
        }
        out.extend_from_slice(b"0\r\n\r\n");
        out
    }

    proptest! {
        #[test]
        fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
            let _ = parse(&bytes);
            let mut b = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip, br, deflate, zstd\r\n\r\n".to_vec();
            b.extend_from_slice(&bytes);
            let _ = parse(&b);
            let _ = sniff_html(&bytes);
            let _ = peek_content_type(&bytes);
        }

        #[test]
        fn chunked_round_trip(body in proptest::collection::vec(any::<u8>(), 0..600),
                              sizes in proptest::collection::vec(1usize..50, 1..8)) {
            let block = response("Transfer-Encoding: chunked\r\n", &chunk_encode(&body, &sizes));
            let r = parse(&block).unwrap();
            prop_assert_eq!(&r.body[..], &body[..]);
            prop_assert!(!r.incomplete);
        }

        #[test]
        fn gzip_round_trip(body in proptest::collection::vec(any::<u8>(), 0..2000)) {
            let block = response("Content-Encoding: gzip\r\n", &gzip(&body));
            prop_assert_eq!(&parse(&block).unwrap().body[..], &body[..]);
        }
    }
}
