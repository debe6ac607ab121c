//! ARC: the Internet Archive's format before WARC (1996 on, also Common Crawl's first crawls),
//! read natively by [`crate::record::RecordReader`] through the header-line parser here.
//!
//! An ARC file is a sequence of records, each a one-line header and a block of `length`
//! bytes followed by a line feed:
//!
//! ```text
//! filedesc://IA-001.arc 0.0.0.0 19961004000000 text/plain 76      <- version block, v1
//! 1 0 Alexa Internet
//! URL IP-address Archive-date Content-type Archive-length
//!
//! http://example.com/ 93.184.216.119 19961004000102 text/html 1591
//! HTTP/1.0 200 OK
//! ...
//! ```
//!
//! Version 1 headers have five fields (`URL IP date mime length`); version 2 headers ten
//! (`URL IP date mime result checksum location offset filename length`). The version is told
//! by the `filedesc://` record's block (its second line starts with `1` or `2`); without one,
//! by the shape of the line.
//!
//! Real files bend every rule, and [`parse_header_line`] takes them as they are (the cases come
//! from the test files of the Internet Archive's CDX-Writer and of warcio):
//!
//! - fields are counted from the right, so a URL with spaces, a carriage return, a form feed
//!   or bytes that are not UTF-8 is kept whole (lossily decoded);
//! - dates of 10 to 18 digits, or digits followed by text: the first 14 digits are the
//!   date (missing ones are zeros, a month or day `00` becomes `01`);
//! - an empty content type (two spaces), or the date and IP address transposed;
//! - a length that is negative or not a number: the block then runs to the next header line
//!   ([`ArcHeader::length`] is `None`), and a length that is wrong is repaired the same way as
//!   a WARC `Content-Length` (see [`crate::record`]).
//!
//! The reader turns the `filedesc://` record into a `warcinfo`-like record and every URL
//! record into a `response` (whose block is an HTTP message for http(s) URLs), with the
//! offset of the record in the file (for gzip ARC files, the compressed offset of its member,
//! as CDX indexes store it) and a `WARC-Record-ID` derived from the header line and that
//! offset (ARC records have no identifier of their own).

use sha1::{Digest, Sha1};

/// One parsed ARC header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArcHeader {
    /// The URL (`filedesc://…` for the version block), lossily decoded.
    pub url: String,
    /// The IP address field as written (`0.0.0.0`, `None`, ...).
    pub ip: String,
    /// The archive date as an ISO 8601 timestamp (`2014-02-16T05:02:21Z`).
    pub date: String,
    /// The content type field (possibly empty).
    pub mime: String,
    /// The block length, `None` when it is negative or not a number.
    pub length: Option<u64>,
}

impl ArcHeader {
    /// Whether this is the file's version block (`filedesc://…`).
    pub fn is_filedesc(&self) -> bool {
        self.url
            .get(..9)
            .is_some_and(|s| s.eq_ignore_ascii_case("filedesc:"))
    }

    /// A `WARC-Record-ID` for the record at `offset`: a name-based UUID (SHA-1, version 5
    /// layout) of the header line and the offset, so the same file always gives the same ids.
    pub fn record_id(line: &[u8], offset: u64) -> String {
        let mut h = Sha1::new();
        h.update(line);
        h.update(offset.to_le_bytes());
        let d = h.finalize();
        let mut b = [0u8; 16];
        b.copy_from_slice(&d[..16]);
        b[6] = (b[6] & 0x0f) | 0x50;
        b[8] = (b[8] & 0x3f) | 0x80;
        let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
        format!(
            "<urn:uuid:{}-{}-{}-{}-{}>",
            &hex[..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..]
        )
    }
}

/// The ARC version of a `filedesc://` block: `2` when its first line (after the header line)
/// starts with `2`, else `1`.
pub fn version_of_filedesc_block(block: &[u8]) -> u8 {
    if block.first() == Some(&b'2') {
        2
    } else {
        1
    }
}

/// Whether `token` starts like a URL scheme: ASCII letters (then letters, digits, `+.-`)
/// and a colon.
fn has_scheme(token: &[u8]) -> bool {
    let Some(colon) = memchr::memchr(b':', token) else {
        return false;
    };
    let scheme = token.get(..colon).unwrap_or_default();
    !scheme.is_empty()
        && scheme.len() <= 16
        && scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-'))
}

/// The leading ASCII digits of `token`.
fn leading_digits(token: &[u8]) -> &[u8] {
    let n = token.iter().take_while(|c| c.is_ascii_digit()).count();
    token.get(..n).unwrap_or_default()
}

/// Whether `token` is an ARC date: 10 to 18 digits, possibly followed by text.
fn is_date(token: &[u8]) -> bool {
    (10..=18).contains(&leading_digits(token).len())
}

/// `YYYY-MM-DDTHH:MM:SSZ` from the first 14 digits of an ARC date (zeros for missing ones;
/// a month or day of `00` becomes `01`).
pub fn iso_date(token: &[u8]) -> String {
    let mut d = [b'0'; 14];
    for (dst, src) in d.iter_mut().zip(leading_digits(token)) {
        *dst = *src;
    }
    for at in [4, 6] {
        if d[at] == b'0' && d[at + 1] == b'0' {
            d[at + 1] = b'1';
        }
    }
    let s = |a: usize, b: usize| String::from_utf8_lossy(&d[a..b]).into_owned();
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        s(0, 4),
        s(4, 6),
        s(6, 8),
        s(8, 10),
        s(10, 12),
        s(12, 14)
    )
}

/// Parses an ARC header line (with or without its line end). `version` is the file's ARC
/// version when known (from its `filedesc://` block). `None` when the line is not an ARC
/// header: its first field has no URL scheme, or no date field is where one must be.
pub fn parse_header_line(line: &[u8], version: Option<u8>) -> Option<ArcHeader> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() || !has_scheme(line) {
        return None;
    }
    let tokens: Vec<&[u8]> = line.split(|&c| c == b' ').collect();
    let n = tokens.len();
    // Fields after the URL, counted from the right: 4 in version 1, 9 in version 2.
    let v2_shape = n >= 10 && tokens.get(n - 8).is_some_and(|t| is_date(t));
    let after = match version {
        Some(2) if v2_shape => 9,
        None if v2_shape && !tokens.get(n - 3).is_some_and(|t| is_date(t)) => 9,
        _ => 4,
    };
    if n < after + 1 {
        return None;
    }
    let url_end = n - after;
    let field = |i: usize| tokens.get(url_end + i).copied().unwrap_or_default();
    let (mut ip, mut date) = (field(0), field(1));
    // Transposed: `URL date IP mime length`.
    if !is_date(date) && is_date(ip) {
        std::mem::swap(&mut ip, &mut date);
    }
    if !is_date(date) {
        return None;
    }
    let url = tokens.get(..url_end).unwrap_or_default().join(&b' ');
    let length = std::str::from_utf8(field(after - 1))
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    Some(ArcHeader {
        url: String::from_utf8_lossy(&url).into_owned(),
        ip: String::from_utf8_lossy(ip).into_owned(),
        date: iso_date(date),
        mime: String::from_utf8_lossy(field(2)).into_owned(),
        length,
    })
}

/// Whether the bytes at a record boundary can start an ARC header line (used to check what
/// follows a block, where only a few bytes may be buffered): a URL scheme and its colon, or
/// a prefix of one.
pub fn could_start_header(bytes: &[u8]) -> bool {
    let head = bytes.get(..24).unwrap_or(bytes);
    match memchr::memchr(b':', head) {
        Some(_) => has_scheme(head),
        None => head.iter().all(|c| c.is_ascii_alphanumeric()) && bytes.len() < 24,
    }
}

/// Where the next ARC record starts inside `bytes`: the first line (after a line feed) that
/// parses as an ARC header line.
pub fn find_record_start(bytes: &[u8], version: Option<u8>) -> Option<usize> {
    memchr::memchr_iter(b'\n', bytes)
        .map(|i| i + 1)
        .find(|&at| {
            let rest = bytes.get(at..).unwrap_or_default();
            let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
            has_scheme(rest)
                && parse_header_line(rest.get(..end).unwrap_or_default(), version).is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_1_and_2_lines() {
        let h = parse_header_line(
            b"http://example.com/ 93.184.216.119 20140216050221 text/html 1591\n",
            Some(1),
        )
        .unwrap();
        assert_eq!(h.url, "http://example.com/");
        assert_eq!(h.ip, "93.184.216.119");
        assert_eq!(h.date, "2014-02-16T05:02:21Z");
        assert_eq!((h.mime.as_str(), h.length), ("text/html", Some(1591)));
        let v2 = b"http://a.com/ 1.2.3.4 20080101000000 text/html 200 ABCDEF - 123 x.arc.gz 42";
        let h = parse_header_line(v2, Some(2)).unwrap();
        assert_eq!((h.url.as_str(), h.length), ("http://a.com/", Some(42)));
        // Unknown version: told by the shape.
        assert_eq!(parse_header_line(v2, None).unwrap().url, "http://a.com/");
        let f = parse_header_line(
            b"filedesc://live.arc.gz 127.0.0.1 20140216050221 text/plain 75",
            None,
        )
        .unwrap();
        assert!(f.is_filedesc());
        assert_eq!(version_of_filedesc_block(b"2 0 Alexa\n"), 2);
        assert_eq!(version_of_filedesc_block(b"1 0 x\n"), 1);
    }

    #[test]
    fn quirks_of_real_files() {
        // Spaces in the URL.
        let h = parse_header_line(
            b"http://e.com/index.cfm?A=Examples From The Live Web&B=1 93.184.216.119 20140216050221 text/html 1591",
            Some(1),
        )
        .unwrap();
        assert_eq!(
            h.url,
            "http://e.com/index.cfm?A=Examples From The Live Web&B=1"
        );
        // Carriage return, form feed and bytes that are not UTF-8 in the URL.
        let h = parse_header_line(
            b"http://c.org/cgi-\rbin/x\x0c\xff 204.13.160.129 20070216134117 text/html 1269\r\n",
            Some(1),
        )
        .unwrap();
        assert!(h.url.starts_with("http://c.org/cgi-\rbin/x\x0c"));
        assert_eq!(h.length, Some(1269));
        // 10-, 15-, 18-digit dates, digits and text.
        for (date, iso) in [
            ("2016020900", "2016-02-09T00:00:00Z"),
            ("201512000000000", "2015-12-01T00:00:00Z"),
            ("200009180023002953", "2000-09-18T00:23:00Z"),
            ("20160211000000jpg", "2016-02-11T00:00:00Z"),
        ] {
            let line = format!("http://x/ None {date} text/html 5");
            assert_eq!(
                parse_header_line(line.as_bytes(), Some(1)).unwrap().date,
                iso
            );
        }
        // Empty content type, transposed date and address, negative and non-numeric lengths.
        let h = parse_header_line(
            b"http://k.net:80/robots.txt 1.2.3.4 20110804181142  39",
            None,
        )
        .unwrap();
        assert_eq!((h.mime.as_str(), h.length), ("", Some(39)));
        let h = parse_header_line(
            b"http://p/x.mp3 20031219215023 63.241.16.130 text/plain 285",
            None,
        )
        .unwrap();
        assert_eq!(
            (h.ip.as_str(), h.date.as_str()),
            ("63.241.16.130", "2003-12-19T21:50:23Z")
        );
        assert_eq!(
            parse_header_line(b"http://e/ 1.2.3.4 20140401000000 text/html -1", None)
                .unwrap()
                .length,
            None
        );
        assert_eq!(
            parse_header_line(b"http://e/ 1.2.3.4 20140401000000 text/html abc", None)
                .unwrap()
                .length,
            None
        );
        // Not header lines.
        for line in [
            &b"<html><p>http://x 1 2 3 4</p>"[..],
            b"WARC/1.0",
            b"",
            b"http://x/ a b c d",
            b"1 0 Alexa",
        ] {
            assert_eq!(
                parse_header_line(line, None),
                None,
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        let a = ArcHeader::record_id(b"http://x/ 1 20000101000000 t 1", 0);
        assert_eq!(
            a,
            ArcHeader::record_id(b"http://x/ 1 20000101000000 t 1", 0)
        );
        assert_ne!(
            a,
            ArcHeader::record_id(b"http://x/ 1 20000101000000 t 1", 1)
        );
        assert_eq!(a.len(), "<urn:uuid:>".len() + 36);
    }

    #[test]
    fn record_starts_and_boundaries() {
        let block =
            b"HTTP/1.0 200 OK\r\n\r\nhello\nhttp://next/ 1.2.3.4 20000101000000 text/html 3\nabc";
        let at = find_record_start(block, Some(1)).unwrap();
        assert!(block[at..].starts_with(b"http://next/"));
        assert_eq!(find_record_start(b"no\nrecord here\n", None), None);
        assert!(could_start_header(b"http://x"));
        assert!(could_start_header(b"filed"));
        assert!(!could_start_header(b"<html>"));
    }
}
