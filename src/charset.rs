//! Charset: decide the encoding of an HTML payload and decode it to UTF-8 text.
//!
//! Takes the payload bytes (after HTTP de-chunking and content decoding), the `charset=`
//! parameter of the HTTP `Content-Type` if any, and the page URL (for its TLD). Gives a
//! [`Decoded`]: the text, the encoding used and where that decision came from
//! ([`CharsetSource`], reported in stats and output). It never fails: invalid byte sequences
//! become U+FFFD, as in a browser (`encoding_rs` replacement semantics).
//!
//! The order follows the WHATWG encoding sniffing algorithm, as browsers do:
//!
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins over everything;
//! 2. the HTTP `charset=` label;
//! 3. a `<meta charset>` / `<meta http-equiv=content-type>` found by [`prescan_meta`] in the
//!    first 1024 bytes (a declared UTF-16 there means UTF-8, per WHATWG);
//! 4. `chardetng` (Firefox's detector) over the first 64 KiB, hinted with the URL's TLD;
//! 5. windows-1252 ([`CharsetSource::Default`]) for all-ASCII pages with nothing declared,
//!    where every ASCII-compatible encoding gives the same text.
//!
//! Labels are mapped with `Encoding::for_label`; `x-user-defined` becomes windows-1252. A label
//! that WHATWG maps to the *replacement* encoding (e.g. `iso-2022-kr`), which would turn the
//! whole page into one U+FFFD, is ignored like an unknown label so that detection can run.
//!
//! **Real pages lie.** When the declared charset (HTTP or meta) is a legacy encoding but the
//! bytes contain non-ASCII and are entirely valid UTF-8, the page is decoded as UTF-8 and the
//! source is [`CharsetSource::Utf8Override`]: valid multi-byte UTF-8 is vanishingly unlikely
//! in real legacy-encoded text, and mis-declared UTF-8 pages are common. All-ASCII pages keep
//! the declared (ASCII-compatible) encoding: the text is the same either way.
//!
//! Last, text that was already mojibake when it was archived (UTF-8 once read as
//! windows-1252 and written back: `Investorâ€™s`) is repaired by [`crate::mojibake`].
//!
//! Decoding is zero-copy when it can be: valid UTF-8 decoded as UTF-8, or ASCII decoded with
//! an ASCII-compatible encoding, is returned as `Cow::Borrowed`.
//!
//! ```
//! use warcsift::charset::{decode, CharsetSource};
//!
//! let d = decode(b"<p>caf\xe9</p>", Some("iso-8859-1"), None);
//! assert_eq!(d.text, "<p>caf\u{e9}</p>");
//! assert_eq!(d.source, CharsetSource::Http);
//! ```

use std::borrow::Cow;

use encoding_rs::{Encoding, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// Bytes scanned for `<meta>` declarations (WHATWG's prescan limit).
pub const PRESCAN_BYTES: usize = 1024;

/// Bytes fed to the detector: enough for a confident guess on real pages, bounded cost on
/// huge ones.
pub const DETECT_BYTES: usize = 64 * 1024;

/// Where the encoding decision came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CharsetSource {
    /// A byte order mark.
    Bom,
    /// The HTTP `Content-Type` charset parameter.
    Http,
    /// A `<meta>` declaration in the first 1024 bytes.
    Meta,
    /// Guessed by `chardetng`.
    Detected,
    /// Declared as a legacy encoding, but the bytes are valid non-ASCII UTF-8.
    Utf8Override,
    /// Nothing declared and nothing to detect (all ASCII): windows-1252.
    Default,
}

impl CharsetSource {
    /// Name for stats and output: `bom`, `http`, `meta`, `detected`, `utf8-override`,
    /// `default`.
    pub fn as_str(self) -> &'static str {
        match self {
            CharsetSource::Bom => "bom",
            CharsetSource::Http => "http",
            CharsetSource::Meta => "meta",
            CharsetSource::Detected => "detected",
            CharsetSource::Utf8Override => "utf8-override",
            CharsetSource::Default => "default",
        }
    }
}

/// A decoded payload.
#[derive(Debug, Clone)]
pub struct Decoded<'a> {
    /// The text; borrowed from the input when no conversion was needed.
    pub text: Cow<'a, str>,
    /// The encoding used to decode.
    pub encoding: &'static Encoding,
    /// Where the choice of encoding came from.
    pub source: CharsetSource,
    /// True when some bytes were invalid in `encoding` and were replaced with U+FFFD.
    pub had_errors: bool,
}

/// Decides the encoding of `bytes` and decodes them (see the module doc for the order), then
/// undoes one layer of UTF-8 read as windows-1252 where the text shows it
/// ([`crate::mojibake::repair`]).
pub fn decode<'a>(bytes: &'a [u8], http_charset: Option<&str>, url: Option<&str>) -> Decoded<'a> {
    let mut d = decode_declared(bytes, http_charset, url);
    d.text = match d.text {
        Cow::Borrowed(t) => crate::mojibake::repair(t),
        Cow::Owned(t) => {
            let repaired = match crate::mojibake::repair(&t) {
                Cow::Owned(r) => Some(r),
                Cow::Borrowed(_) => None,
            };
            Cow::Owned(repaired.unwrap_or(t))
        }
    };
    d
}

/// The decoding proper, before the mojibake repair.
fn decode_declared<'a>(
    bytes: &'a [u8],
    http_charset: Option<&str>,
    url: Option<&str>,
) -> Decoded<'a> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let rest = bytes.get(bom_len..).unwrap_or_default();
        return finish(rest, encoding, CharsetSource::Bom);
    }
    if let Some(encoding) = http_charset.and_then(|l| usable(Encoding::for_label(l.as_bytes()))) {
        return declared(bytes, encoding, CharsetSource::Http);
    }
    if let Some(encoding) = prescan_meta(bytes).and_then(|e| usable(Some(e))) {
        return declared(bytes, encoding, CharsetSource::Meta);
    }
    let ascii = Encoding::ascii_valid_up_to(bytes) == bytes.len();
    if ascii && memchr::memchr(0x1b, bytes).is_none() {
        // Nothing to detect (an ESC could still start ISO-2022-JP, so that goes to the
        // detector).
        return finish(bytes, WINDOWS_1252, CharsetSource::Default);
    }
    // Valid UTF-8: the detector's answer is known without running it (see
    // `detector_would_say_utf8`), and the text borrows from the input, validated once.
    if let Ok(text) = std::str::from_utf8(bytes) {
        if detector_would_say_utf8(bytes) {
            return Decoded {
                text: Cow::Borrowed(text),
                encoding: UTF_8,
                source: CharsetSource::Detected,
                had_errors: false,
            };
        }
    }
    let encoding = run_detector(bytes, url);
    finish(bytes, encoding, CharsetSource::Detected)
}

/// `chardetng` over the first [`DETECT_BYTES`], hinted with the URL's TLD (UTF-8 allowed),
/// fed with [`detector_input`]: the same guess as the whole sample, for less work.
fn run_detector(bytes: &[u8], url: Option<&str>) -> &'static Encoding {
    let (sample, last) = detector_sample(bytes);
    let mut short = Vec::new();
    guess(detector_input(sample, &mut short), last, url)
}

/// The first [`DETECT_BYTES`] of `bytes`, and whether they are all of it (the detector's
/// `last`).
fn detector_sample(bytes: &[u8]) -> (&[u8], bool) {
    let sample = bytes.get(..DETECT_BYTES).unwrap_or(bytes);
    (sample, sample.len() == bytes.len())
}

/// Whether the detector, fed the shortened input [`decode`] gives it, guesses as it does on
/// the whole sample of `bytes`. Always true (see [`detector_input`]); public for the
/// `charset` fuzz target, which checks it on arbitrary bytes.
#[doc(hidden)]
pub fn detector_input_agrees(bytes: &[u8], url: Option<&str>) -> bool {
    let (sample, last) = detector_sample(bytes);
    let mut short = Vec::new();
    guess(detector_input(sample, &mut short), last, url) == guess(sample, last, url)
}

/// The detector's guess on `input`, which ends the stream when `last`.
fn guess(input: &[u8], last: bool, url: Option<&str>) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(input, last);
    let tld = url.and_then(tld_of);
    detector.guess(tld.as_deref().map(str::as_bytes), true)
}

/// Shortest ASCII run (after the first non-ASCII byte) worth cutting in [`detector_input`].
const CUT_MIN_RUN: usize = 64;

/// `sample` with the inside of its long ASCII runs cut out, for `chardetng`, which gives the
/// same guess on it as on `sample` (checked by the `shortened_input_*` tests, which compare
/// every candidate's score, and by the `charset` fuzz target). The detector reads every byte
/// after the first non-ASCII one with each of its 27 candidates, and an HTML page's bytes
/// there are mostly markup: the cut leaves it a small fraction of them.
///
/// Why the guess cannot change. chardetng 0.1.17 (pinned in Cargo.toml, since this rests on
/// its code) scores a byte by its class and the state left by the bytes before it. Take an
/// ASCII run (no ESC) after the first non-ASCII byte, let `x` be one of ` `, `\n`, `>`, at
/// least the run's third byte, and cut from just after `x` to just after the run's last `x`.
/// - Nothing inside the cut scores, for any candidate: every pair there is ASCII–ASCII (the
///   single-byte candidates skip those: `ascii_pair`; the case, ordinal and word-length
///   state machines score only next to non-ASCII letters or `ª º ©`; every ASCII class
///   is below the tables' 255 "disqualify" mark), and the CJK candidates' decoders turn
///   each ASCII byte into itself, which drops any pending score and scores nothing.
/// - The state after the cut's last byte equals the state after the kept `x`: both are the
///   same space-like byte after ASCII bytes, which sets every candidate's case, ordinal,
///   punctuation and previous-class state to the same values, ends any word (longest-word
///   lengths only grow on non-ASCII letters), and leaves the CJK decoders between
///   characters. The UTF-8 candidate sees the same sequences (only ASCII between ASCII is
///   removed), ISO-2022-JP is already out (a non-ASCII byte came first), and the count of
///   non-ASCII bytes is unchanged.
///
/// So every candidate ends with the same score and state, and `guess` answers the same.
fn detector_input<'a>(sample: &'a [u8], buf: &'a mut Vec<u8>) -> &'a [u8] {
    let Some(first) = sample.iter().position(|&b| b >= 0x80) else {
        return sample;
    };
    let is_run_byte = |b: u8| b < 0x80 && b != 0x1b;
    buf.clear();
    buf.extend_from_slice(&sample[..first]);
    let mut at = first;
    while at < sample.len() {
        // A non-ASCII (or ESC) stretch, then an ASCII run [start, end).
        let start = sample[at..]
            .iter()
            .position(|&b| is_run_byte(b))
            .map_or(sample.len(), |k| at + k);
        let end = sample[start..]
            .iter()
            .position(|&b| !is_run_byte(b))
            .map_or(sample.len(), |k| start + k);
        let run = &sample[start..end];
        let mut cut = None;
        if run.len() >= CUT_MIN_RUN {
            // `x` at index ≥ 2 of the run; the cut is (x, last x].
            if let Some(k) = run
                .iter()
                .skip(2)
                .position(|&b| matches!(b, b' ' | b'\n' | b'>'))
            {
                let k = k + 2;
                let x = run[k];
                if let Some(last) = memchr::memrchr(x, &run[k + 1..]) {
                    cut = Some((k + 1, k + 1 + last + 1));
                }
            }
        }
        buf.extend_from_slice(&sample[at..start]);
        match cut {
            Some((from, to)) => {
                buf.extend_from_slice(&run[..from]);
                buf.extend_from_slice(&run[to..]);
            }
            None => buf.extend_from_slice(run),
        }
        at = end;
    }
    buf
}

/// For `bytes` that are entirely valid UTF-8: whether [`run_detector`] is certain to answer
/// UTF-8, so it need not run. From chardetng 0.1.17's `guess_assess` with `allow_utf8`:
///
/// 1. it answers ISO-2022-JP only when no non-ASCII byte was fed and an ESC was;
/// 2. otherwise it answers UTF-8 whenever its UTF-8 candidate is still qualified, and that
///    candidate (an `encoding_rs` UTF-8 decoder without replacement) is disqualified only by
///    malformed input; a sequence cut at the end of a sample fed with `last = false` is
///    incomplete, not malformed. A sample of valid UTF-8 therefore keeps it qualified.
///
/// So the answer is UTF-8 unless the sample is all ASCII and holds an ESC; that rare case
/// (and everything that is not valid UTF-8) goes to the detector. `tests::
/// utf8_shortcut_agrees_with_detector` checks this against the detector itself.
fn detector_would_say_utf8(bytes: &[u8]) -> bool {
    let (sample, _) = detector_sample(bytes);
    Encoding::ascii_valid_up_to(sample) < sample.len() || memchr::memchr(0x1b, sample).is_none()
}

/// Maps a label's encoding to the one we decode with, or `None` to ignore the declaration.
fn usable(encoding: Option<&'static Encoding>) -> Option<&'static Encoding> {
    match encoding {
        Some(e) if e == REPLACEMENT => None,
        Some(e) if e == X_USER_DEFINED => Some(WINDOWS_1252),
        other => other,
    }
}

/// Decodes with a declared encoding, unless the bytes prove the declaration wrong
/// (valid non-ASCII UTF-8, or a declared UTF-16 without a BOM on bytes that are valid UTF-8).
fn declared<'a>(
    bytes: &'a [u8],
    encoding: &'static Encoding,
    source: CharsetSource,
) -> Decoded<'a> {
    if encoding != UTF_8 {
        let valid_utf8 = Encoding::utf8_valid_up_to(bytes) == bytes.len();
        let ascii = Encoding::ascii_valid_up_to(bytes) == bytes.len();
        let utf16 = encoding == UTF_16LE || encoding == UTF_16BE;
        if valid_utf8 && (!ascii || utf16) {
            return finish(bytes, UTF_8, CharsetSource::Utf8Override);
        }
    }
    finish(bytes, encoding, source)
}

fn finish<'a>(bytes: &'a [u8], encoding: &'static Encoding, source: CharsetSource) -> Decoded<'a> {
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    Decoded {
        text,
        encoding,
        source,
        had_errors,
    }
}

/// The URL host's last label, lowercased, as `chardetng` wants it (ASCII letters, digits and
/// `-` only; `None` for IP addresses or anything odd).
fn tld_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host_port.starts_with('[') {
        return None; // IPv6 literal
    }
    let host = host_port.split(':').next()?.trim_end_matches('.');
    let tld = host.rsplit('.').next()?.to_ascii_lowercase();
    let plausible = !tld.is_empty()
        && tld.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !tld.bytes().all(|b| b.is_ascii_digit());
    plausible.then_some(tld)
}

/// WHATWG "prescan a byte stream to determine its encoding" over the first
/// [`PRESCAN_BYTES`] bytes: finds `<meta charset=…>` or
/// `<meta http-equiv="content-type" content="…charset=…">`, skipping comments and the
/// attributes of other tags as a browser does. UTF-16 answers become UTF-8 and
/// `x-user-defined` becomes windows-1252, per the standard.
pub fn prescan_meta(head: &[u8]) -> Option<&'static Encoding> {
    let b = head.get(..PRESCAN_BYTES).unwrap_or(head);
    let mut pos = 0usize;
    while pos < b.len() {
        let rest = b.get(pos..).unwrap_or_default();
        if rest.starts_with(b"<!--") {
            // The first '>' preceded by "--", which may overlap the opening "<!--".
            let mut j = pos + 4;
            loop {
                let &c = b.get(j)?;
                if c == b'>' && b.get(j - 1) == Some(&b'-') && b.get(j - 2) == Some(&b'-') {
                    break;
                }
                j += 1;
            }
            pos = j + 1;
            continue;
        }
        if starts_with_ignore_case(rest, b"<meta")
            && rest.get(5).is_some_and(|&c| is_space(c) || c == b'/')
        {
            pos += 6;
            match meta_element(b, &mut pos)? {
                Some(encoding) => return Some(encoding),
                None => {
                    pos += 1;
                    continue;
                }
            }
        }
        let tag_start = match rest {
            [b'<', c, ..] if c.is_ascii_alphabetic() => Some(1),
            [b'<', b'/', c, ..] if c.is_ascii_alphabetic() => Some(2),
            _ => None,
        };
        if let Some(skip) = tag_start {
            pos += skip;
            while b.get(pos).is_some_and(|&c| !is_space(c) && c != b'>') {
                pos += 1;
            }
            if pos >= b.len() {
                return None;
            }
            while get_attribute(b, &mut pos)?.is_some() {}
            pos += 1;
            continue;
        }
        if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            let gt = memchr::memchr(b'>', b.get(pos + 2..).unwrap_or_default())?;
            pos += 2 + gt + 1;
            continue;
        }
        pos += 1;
    }
    None
}

/// The attributes of one `<meta>` element. Outer `None`: input ended (abort the prescan).
/// Inner `None`: this meta declares nothing usable.
#[allow(clippy::option_option)]
fn meta_element(b: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    // None: no decision yet; Some(true): needs http-equiv; Some(false): charset attribute.
    let mut need_pragma: Option<bool> = None;
    let mut charset: Option<&'static Encoding> = None;
    while let Some((name, value)) = get_attribute(b, pos)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" if value == b"content-type" => got_pragma = true,
            b"content" if charset.is_none() => {
                if let Some(e) = charset_from_content(&value) {
                    charset = Some(e);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    let answer = match (need_pragma, charset) {
        (None, _) | (_, None) => None,
        (Some(true), Some(_)) if !got_pragma => None,
        (_, Some(e)) if e == UTF_16BE || e == UTF_16LE => Some(UTF_8),
        (_, Some(e)) if e == X_USER_DEFINED => Some(WINDOWS_1252),
        (_, Some(e)) => Some(e),
    };
    Some(answer)
}

/// WHATWG "get an attribute" (names and values lowercased). Outer `None`: end of input;
/// inner `None`: no more attributes (at `>`).
#[allow(clippy::option_option, clippy::type_complexity)]
fn get_attribute(b: &[u8], pos: &mut usize) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    while is_space(*b.get(*pos)?) || *b.get(*pos)? == b'/' {
        *pos += 1;
    }
    if *b.get(*pos)? == b'>' {
        return Some(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Name.
    loop {
        let c = *b.get(*pos)?;
        if c == b'=' && !name.is_empty() {
            *pos += 1;
            break;
        } else if is_space(c) {
            // Spaces, then maybe '='.
            while is_space(*b.get(*pos)?) {
                *pos += 1;
            }
            if *b.get(*pos)? != b'=' {
                return Some(Some((name, value)));
            }
            *pos += 1;
            break;
        } else if c == b'/' || c == b'>' {
            return Some(Some((name, value)));
        }
        name.push(c.to_ascii_lowercase());
        *pos += 1;
    }
    // Value.
    while is_space(*b.get(*pos)?) {
        *pos += 1;
    }
    let c = *b.get(*pos)?;
    if c == b'"' || c == b'\'' {
        loop {
            *pos += 1;
            let d = *b.get(*pos)?;
            if d == c {
                *pos += 1;
                return Some(Some((name, value)));
            }
            value.push(d.to_ascii_lowercase());
        }
    }
    if c == b'>' {
        return Some(Some((name, value)));
    }
    value.push(c.to_ascii_lowercase());
    *pos += 1;
    loop {
        let c = *b.get(*pos)?;
        if is_space(c) || c == b'>' {
            return Some(Some((name, value)));
        }
        value.push(c.to_ascii_lowercase());
        *pos += 1;
    }
}

/// WHATWG "extract a character encoding from a meta element" for a `content` value.
fn charset_from_content(value: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0usize;
    loop {
        let rest = value.get(pos..)?;
        // Values come lowercased from `get_attribute`.
        let found = memchr::memmem::find(rest, b"charset")?;
        pos += found + 7;
        while value.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        if value.get(pos) != Some(&b'=') {
            continue;
        }
        pos += 1;
        while value.get(pos).is_some_and(|&c| is_space(c)) {
            pos += 1;
        }
        let rest = value.get(pos..)?;
        let label = match rest.first()? {
            &q @ (b'"' | b'\'') => {
                let inner = rest.get(1..)?;
                let end = memchr::memchr(q, inner)?;
                inner.get(..end)?
            }
            _ => {
                let end = rest
                    .iter()
                    .position(|&c| is_space(c) || c == b';')
                    .unwrap_or(rest.len());
                rest.get(..end)?
            }
        };
        return Encoding::for_label(label);
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn starts_with_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    hay.get(..needle.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_2, SHIFT_JIS, UTF_16LE, WINDOWS_1251};
    use proptest::prelude::*;

    fn sjis(text: &str) -> Vec<u8> {
        let (bytes, _, had_errors) = SHIFT_JIS.encode(text);
        assert!(!had_errors);
        bytes.into_owned()
    }

    const JAPANESE: &str = "日本語のテキストです。これは文字コードの判定を試すための文章で、\
        ひらがなとカタカナと漢字が混ざっています。東京都の天気は晴れ、明日は雨が降るでしょう。\
        私たちは毎日新しいことを学び、本を読み、友達と話します。";

    #[test]
    fn bom_wins_over_http_and_meta() {
        let bytes = b"\xef\xbb\xbf<meta charset=iso-8859-2><p>\xc3\xa9</p>";
        let d = decode(bytes, Some("windows-1251"), None);
        assert_eq!(d.source, CharsetSource::Bom);
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.text, "<meta charset=iso-8859-2><p>é</p>");
        assert!(matches!(d.text, Cow::Borrowed(_)));
    }

    #[test]
    fn utf16le_bom() {
        let mut bytes = vec![0xff, 0xfe];
        for u in "<p>Grüße</p>".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&bytes, Some("iso-8859-1"), None);
        assert_eq!((d.encoding, d.source), (UTF_16LE, CharsetSource::Bom));
        assert_eq!(d.text, "<p>Grüße</p>");
    }

    #[test]
    fn http_charset_beats_meta() {
        let bytes = b"<meta charset=iso-8859-2><p>\xe8</p>";
        let d = decode(bytes, Some("windows-1251"), None);
        assert_eq!((d.encoding, d.source), (WINDOWS_1251, CharsetSource::Http));
        assert_eq!(d.text, "<meta charset=iso-8859-2><p>и</p>");
    }

    #[test]
    fn meta_used_when_http_missing_or_unknown() {
        let bytes = b"<meta charset=iso-8859-2><p>\xe8</p>";
        for http in [None, Some("no-such-charset"), Some("")] {
            let d = decode(bytes, http, None);
            assert_eq!((d.encoding, d.source), (ISO_8859_2, CharsetSource::Meta));
            assert_eq!(d.text, "<meta charset=iso-8859-2><p>č</p>");
        }
    }

    #[test]
    fn windows_1252_bytes_declared_latin1_decode_via_http() {
        let d = decode(b"<p>caf\xe9 \x93q\x94</p>", Some("ISO-8859-1"), None);
        assert_eq!(d.source, CharsetSource::Http);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert_eq!(d.text, "<p>café \u{201c}q\u{201d}</p>");
    }

    #[test]
    fn utf8_page_declaring_latin1_is_overridden() {
        let bytes = "<p>café</p>".as_bytes();
        let d = decode(bytes, Some("iso-8859-1"), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Utf8Override));
        assert_eq!(d.text, "<p>café</p>");
        assert!(matches!(d.text, Cow::Borrowed(_)));
        let meta = "<meta charset=\"shift_jis\"><p>日本</p>".as_bytes();
        let d = decode(meta, None, None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Utf8Override));
    }

    #[test]
    fn mojibake_is_repaired_whatever_the_encoding() {
        // Valid UTF-8 whose text was mojibake when archived (C1 controls after 'â').
        let utf8 = "<title>Investor\u{e2}\u{80}\u{99}s Guide</title>".as_bytes();
        let d = decode(utf8, None, None);
        assert_eq!(d.text, "<title>Investor’s Guide</title>");
        // The windows-1252 reading of the same mix-up ("â€™", "Ã©"), in a UTF-8 page.
        let cp1252 = b"<p>Israel\xc3\xa2\xe2\x82\xac\xe2\x84\xa2s caf\xc3\x83\xc2\xa9</p>";
        let d = decode(cp1252, Some("utf-8"), None);
        assert_eq!(d.text, "<p>Israel’s café</p>");
        let latin1 = b"<p>caf\xc3\xa9 \xe9t\xe9</p>";
        let d = decode(latin1, Some("windows-1252"), None);
        // A windows-1252 page that pasted in UTF-8 'é' (C3 A9): decoded as declared (the
        // lone E9 bytes are not UTF-8), then its 'Ã©' repaired, on text decoding owns.
        assert_eq!(d.text, "<p>café été</p>");
        assert!(matches!(d.text, Cow::Owned(_)));
    }

    #[test]
    fn ascii_page_keeps_declared_charset_and_borrows() {
        let d = decode(b"<p>plain</p>", Some("iso-8859-2"), None);
        assert_eq!((d.encoding, d.source), (ISO_8859_2, CharsetSource::Http));
        assert!(matches!(d.text, Cow::Borrowed("<p>plain</p>")));
        let d = decode(b"<p>plain</p>", None, None);
        assert_eq!(
            (d.encoding, d.source),
            (WINDOWS_1252, CharsetSource::Default)
        );
        assert!(matches!(d.text, Cow::Borrowed(_)));
    }

    #[test]
    fn declared_utf16_without_bom_on_utf8_bytes_is_overridden() {
        let d = decode(b"<p>ascii</p>", Some("utf-16le"), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Utf8Override));
        // From meta, UTF-16 means UTF-8 by WHATWG rules.
        assert_eq!(prescan_meta(b"<meta charset=utf-16>"), Some(UTF_8));
    }

    #[test]
    fn x_user_defined_and_replacement_labels() {
        let d = decode(b"<p>\xe9</p>", Some("x-user-defined"), None);
        assert_eq!((d.encoding, d.source), (WINDOWS_1252, CharsetSource::Http));
        assert_eq!(d.text, "<p>é</p>");
        assert_eq!(
            prescan_meta(b"<meta charset=x-user-defined>"),
            Some(WINDOWS_1252)
        );
        // iso-2022-kr maps to the replacement encoding: ignored, detection runs instead.
        let d = decode("<p>é</p>".as_bytes(), Some("iso-2022-kr"), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Detected));
    }

    #[test]
    fn invalid_utf8_declared_utf8_uses_replacement() {
        let d = decode(b"<p>\xff</p>", Some("utf-8"), None);
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Http));
        assert_eq!(d.text, "<p>\u{fffd}</p>");
        assert!(d.had_errors);
    }

    #[test]
    fn shift_jis_page_with_meta() {
        let mut bytes = b"<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=Shift_JIS\"></head><body><p>".to_vec();
        bytes.extend(sjis(JAPANESE));
        bytes.extend_from_slice(b"</p></body></html>");
        let d = decode(&bytes, None, Some("http://example.com/"));
        assert_eq!((d.encoding, d.source), (SHIFT_JIS, CharsetSource::Meta));
        assert!(d.text.contains(JAPANESE));
    }

    #[test]
    fn undeclared_shift_jis_is_detected_with_jp_tld() {
        let mut bytes = b"<html><body><p>".to_vec();
        bytes.extend(sjis(JAPANESE));
        bytes.extend_from_slice(b"</p></body></html>");
        let d = decode(
            &bytes,
            None,
            Some("https://www.example.co.jp:8080/page?q=1"),
        );
        assert_eq!((d.encoding, d.source), (SHIFT_JIS, CharsetSource::Detected));
        assert!(d.text.contains(JAPANESE));
    }

    #[test]
    fn undeclared_utf8_is_detected() {
        let d = decode(
            "<p>Grüße aus Köln</p>".as_bytes(),
            None,
            Some("http://x.de/"),
        );
        assert_eq!((d.encoding, d.source), (UTF_8, CharsetSource::Detected));
        assert!(matches!(d.text, Cow::Borrowed(_)));
    }

    #[test]
    fn tld_extraction() {
        assert_eq!(
            tld_of("https://www.example.co.jp:8080/x").as_deref(),
            Some("jp")
        );
        assert_eq!(tld_of("http://user@EXAMPLE.DE./").as_deref(), Some("de"));
        assert_eq!(tld_of("http://127.0.0.1/"), None);
        assert_eq!(tld_of("http://[::1]:80/"), None);
        assert_eq!(tld_of("http://xn--p1ai/").as_deref(), Some("xn--p1ai"));
        assert_eq!(tld_of("http://bad_host.c\u{f6}m/"), None);
        assert_eq!(tld_of(""), None);
    }

    #[test]
    fn prescan_finds_meta_charset_forms() {
        assert_eq!(
            prescan_meta(b"<meta charset=\"windows-1251\">"),
            Some(WINDOWS_1251)
        );
        assert_eq!(prescan_meta(b"<META CHARSET='Shift_JIS'>"), Some(SHIFT_JIS));
        assert_eq!(
            prescan_meta(b"<meta charset=iso-8859-2/>"),
            None,
            "label includes '/'"
        );
        assert_eq!(
            prescan_meta(b"<meta charset=iso-8859-2 />"),
            Some(ISO_8859_2)
        );
        // content before http-equiv.
        assert_eq!(
            prescan_meta(
                b"<meta content=\"text/html; charset=koi8-r\" http-equiv=\"Content-Type\">"
            ),
            Some(encoding_rs::KOI8_R)
        );
        // content without http-equiv is not a pragma.
        assert_eq!(
            prescan_meta(b"<meta content=\"text/html; charset=koi8-r\">"),
            None
        );
        // charset= inside content with quotes and spaces.
        assert_eq!(
            prescan_meta(
                b"<meta http-equiv=content-type content='text/html;charset = \"EUC-JP\" '>"
            ),
            Some(encoding_rs::EUC_JP)
        );
        // The first meta that declares something usable wins.
        assert_eq!(
            prescan_meta(b"<meta name=x><meta charset=bogus><meta charset=utf-8>"),
            Some(UTF_8)
        );
        // Duplicate attributes: the first one counts.
        assert_eq!(
            prescan_meta(b"<meta charset=koi8-r charset=utf-8>"),
            Some(encoding_rs::KOI8_R)
        );
    }

    #[test]
    fn prescan_skips_comments_and_other_tags() {
        assert_eq!(
            prescan_meta(b"<!-- <meta charset=koi8-r> --><meta charset=utf-8>"),
            Some(UTF_8)
        );
        // "<!-->" is a whole comment.
        assert_eq!(
            prescan_meta(b"<!--><meta charset=koi8-r>"),
            Some(encoding_rs::KOI8_R)
        );
        // An unclosed comment hides everything after it.
        assert_eq!(prescan_meta(b"<!-- <meta charset=koi8-r>"), None);
        // A meta inside another tag's attribute value is not a meta.
        assert_eq!(
            prescan_meta(b"<div title='<meta charset=koi8-r>'><meta charset=utf-8>"),
            Some(UTF_8)
        );
        assert_eq!(
            prescan_meta(b"<?xml version='1.0'?><!DOCTYPE html></p><meta charset=gbk>"),
            Some(encoding_rs::GBK)
        );
        assert_eq!(prescan_meta(b"<metal charset=koi8-r>"), None);
    }

    #[test]
    fn prescan_looks_only_at_the_first_1024_bytes() {
        let mut late = vec![b' '; 1100];
        late.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(prescan_meta(&late), None);
        let mut early = vec![b' '; 1000];
        early.extend_from_slice(b"<meta charset=koi8-r>");
        assert_eq!(prescan_meta(&early), Some(encoding_rs::KOI8_R));
    }

    #[test]
    fn source_names() {
        let names: Vec<_> = [
            CharsetSource::Bom,
            CharsetSource::Http,
            CharsetSource::Meta,
            CharsetSource::Detected,
            CharsetSource::Utf8Override,
            CharsetSource::Default,
        ]
        .iter()
        .map(|s| s.as_str())
        .collect();
        assert_eq!(
            names,
            [
                "bom",
                "http",
                "meta",
                "detected",
                "utf8-override",
                "default"
            ]
        );
    }

    /// The slow twin of `decode`'s detection: the detector on the whole sample, always.
    fn detected_the_slow_way(bytes: &[u8], url: Option<&str>) -> &'static Encoding {
        let (sample, last) = detector_sample(bytes);
        guess(sample, last, url)
    }

    #[test]
    fn utf8_shortcut_agrees_with_detector_at_the_sample_edge() {
        // Non-ASCII only after the sample, cut inside a sequence at the sample's end, ESC
        // with and without non-ASCII in the sample.
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for pad in [
            DETECT_BYTES - 2,
            DETECT_BYTES - 1,
            DETECT_BYTES,
            DETECT_BYTES + 1,
        ] {
            let mut v = vec![b'a'; pad];
            v.extend_from_slice("é日本😀".as_bytes());
            cases.push(v.clone());
            v[10] = 0x1b;
            cases.push(v);
        }
        cases.push(b"\x1b$B<p>\xc3\xa9</p>".to_vec());
        cases.push(b"\x1b(B plain ascii with esc".to_vec());
        for bytes in cases {
            let d = decode(&bytes, None, Some("http://example.jp/"));
            assert_eq!(d.source, CharsetSource::Detected);
            assert_eq!(
                d.encoding,
                detected_the_slow_way(&bytes, Some("http://example.jp/"))
            );
        }
    }

    /// Pages in legacy encodings, with real text between long runs of markup.
    fn legacy_pages() -> Vec<Vec<u8>> {
        let texts = [
            (
                encoding_rs::WINDOWS_1252,
                "Le café était très animé. Nº 3º ª © 2004 — « déjà vu »",
            ),
            (
                encoding_rs::WINDOWS_1250,
                "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.",
            ),
            (encoding_rs::ISO_8859_2, "Zażółć gęślą jaźń, Łódź i Kraków."),
            (
                encoding_rs::WINDOWS_1251,
                "Съешь же ещё этих мягких французских булок, да выпей чаю.",
            ),
            (
                encoding_rs::KOI8_U,
                "Съешь же ещё этих мягких французских булок.",
            ),
            (encoding_rs::IBM866, "Съешь же ещё этих мягких булок."),
            (
                encoding_rs::WINDOWS_1253,
                "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ΑΘΗΝΑ Αθήνα",
            ),
            (
                encoding_rs::WINDOWS_1254,
                "Pijamalı hasta yağız şoföre çabucak güvendi. İstanbul",
            ),
            (
                encoding_rs::WINDOWS_1255,
                "דג סקרן שט בים מאוכזב ולפתע מצא חברה.",
            ),
            (
                encoding_rs::WINDOWS_1256,
                "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر",
            ),
            (
                encoding_rs::WINDOWS_1257,
                "Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą.",
            ),
            (encoding_rs::WINDOWS_1258, "Tiếng Việt có dấu"),
            (encoding_rs::WINDOWS_874, "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า"),
            (
                encoding_rs::SHIFT_JIS,
                "いろはにほへと ちりぬるを 日本語のテキスト。ｱｲｳｴｵ",
            ),
            (
                encoding_rs::EUC_JP,
                "いろはにほへと ちりぬるを 日本語のテキスト。",
            ),
            (
                encoding_rs::GBK,
                "我能吞下玻璃而不伤身体。中文网页，简体字。",
            ),
            (encoding_rs::BIG5, "我能吞下玻璃而不傷身體。繁體中文網頁。"),
            (
                encoding_rs::EUC_KR,
                "나는 유리를 먹을 수 있어요. 그래도 아프지 않아요.",
            ),
        ];
        let markup = "<div class=\"story-body main-column\"><span id=x1>\n  <a href=\"/news/world/2004/article.html\" title=\"Read more\">";
        let mut pages = Vec::new();
        for (encoding, text) in texts {
            let (bytes, _, _) = encoding.encode(text);
            let mut page = b"<html><head><title>t</title></head><body>".to_vec();
            for i in 0..6 {
                page.extend_from_slice(&bytes[..bytes.len() * (i + 1) / 6]);
                page.extend_from_slice(markup.as_bytes());
                page.extend_from_slice(format!(" N.{i} n.{i} IV {i}3 ").as_bytes());
                page.extend_from_slice(markup.as_bytes());
                page.push(b'\n');
            }
            pages.push(page);
        }
        pages
    }

    /// Every candidate's score after `input` (chardetng's testing-only `find_score`).
    fn scores(input: &[u8], last: bool) -> Vec<Option<i64>> {
        use encoding_rs::*;
        let mut detector = chardetng::EncodingDetector::new();
        detector.feed(input, last);
        [
            WINDOWS_1252,
            WINDOWS_1250,
            ISO_8859_2,
            WINDOWS_1251,
            KOI8_U,
            IBM866,
            ISO_8859_5,
            WINDOWS_1253,
            ISO_8859_7,
            WINDOWS_1254,
            WINDOWS_1255,
            ISO_8859_8,
            WINDOWS_1256,
            ISO_8859_6,
            WINDOWS_1257,
            ISO_8859_13,
            ISO_8859_4,
            WINDOWS_1258,
            WINDOWS_874,
            SHIFT_JIS,
            EUC_JP,
            GBK,
            BIG5,
            EUC_KR,
            UTF_8,
            ISO_2022_JP,
        ]
        .iter()
        .map(|&e| detector.find_score(e))
        .collect()
    }

    const TLDS: [Option<&str>; 12] = [
        None,
        Some("http://a.com/"),
        Some("http://a.jp/"),
        Some("http://a.cn/"),
        Some("http://a.tw/"),
        Some("http://a.kr/"),
        Some("http://a.ru/"),
        Some("http://a.gr/"),
        Some("http://a.il/"),
        Some("http://a.tr/"),
        Some("http://a.pl/"),
        Some("http://a.th/"),
    ];

    #[test]
    fn shortened_input_gives_the_same_guess_on_legacy_pages() {
        let (mut total, mut kept) = (0, 0);
        for page in legacy_pages() {
            let mut buf = Vec::new();
            let short = detector_input(&page, &mut buf).to_vec();
            (total, kept) = (total + page.len(), kept + short.len());
            for last in [true, false] {
                assert_eq!(scores(&short, last), scores(&page, last));
                for url in TLDS {
                    assert_eq!(guess(&short, last, url), guess(&page, last, url));
                }
            }
        }
        assert!(kept * 2 < total, "the cut kept {kept} of {total} bytes");
    }

    #[test]
    fn shortened_input_keeps_non_ascii_and_short_runs() {
        let mut buf = Vec::new();
        assert_eq!(detector_input(b"all ascii", &mut buf), b"all ascii");
        let page = [b"x\xe9 ".as_slice(), &[b'a'; 100], b" \xe9"].concat();
        assert_eq!(detector_input(&page, &mut buf), &page[..]);
        let page = [b"\xe9 ab ".as_slice(), &[b'a'; 100], b" cd \xe9"].concat();
        assert_eq!(detector_input(&page, &mut buf), b"\xe9 ab \xe9");
    }

    proptest! {
        #[test]
        fn shortened_input_gives_the_same_guess(
            pieces in proptest::collection::vec(prop_oneof![
                3 => "[a-zA-Z0-9 .,:;?!<>=\"/\n\t-]{0,90}",
                1 => Just("\u{1b}".to_string()),
                1 => Just(" N.".to_string()),
                1 => Just(" IV".to_string()),
            ].prop_map(String::into_bytes).boxed()
                .prop_union(proptest::collection::vec(128u8..=255, 1..4).boxed())
                .or(proptest::collection::vec(
                    prop_oneof![Just(0xaau8), Just(0xba), Just(0xa9), Just(0xa0), 0x81u8..=0xfe],
                    1..3).boxed()),
                0..24),
            url in proptest::sample::select(TLDS.to_vec()),
            last in any::<bool>(),
        ) {
            let page = pieces.concat();
            let mut buf = Vec::new();
            let short = detector_input(&page, &mut buf).to_vec();
            prop_assert_eq!(scores(&short, last), scores(&page, last));
            prop_assert_eq!(guess(&short, last, url), guess(&page, last, url));
        }
    }

    proptest! {
        #[test]
        fn utf8_shortcut_agrees_with_detector(
            text in "[a-z <>\u{1b}\u{e9}\u{3042}\u{1F600}]{0,200}",
            tld in prop_oneof![Just("com"), Just("jp"), Just("ru"), Just("de")]) {
            let url = format!("http://example.{tld}/");
            let d = decode(text.as_bytes(), None, Some(&url));
            if d.source == CharsetSource::Detected {
                prop_assert_eq!(d.encoding, detected_the_slow_way(text.as_bytes(), Some(&url)));
                let slow = d.encoding.decode_without_bom_handling(text.as_bytes()).0;
                prop_assert_eq!(d.text.as_ref(), slow.as_ref());
            }
        }

        #[test]
        fn decode_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2048),
                               label in proptest::option::of("[a-zA-Z0-9_-]{0,12}"),
                               url in proptest::option::of(".{0,40}")) {
            let d = decode(&bytes, label.as_deref(), url.as_deref());
            // Valid UTF-8 input decoded as UTF-8 is unchanged.
            if d.encoding == UTF_8 && !d.had_errors && d.source != CharsetSource::Bom {
                prop_assert_eq!(d.text.as_bytes(), &bytes[..]);
            }
        }

        #[test]
        fn prescan_never_panics(bytes in proptest::collection::vec(
            prop_oneof![Just(b'<'), Just(b'>'), Just(b'-'), Just(b'!'), Just(b'='), Just(b'"'),
                        Just(b'\''), Just(b' '), Just(b'/'), b'a'..=b'z'], 0..300),
            words in proptest::collection::vec(prop_oneof![
                Just(&b"<meta "[..]), Just(&b"charset"[..]), Just(&b"content"[..]),
                Just(&b"http-equiv"[..]), Just(&b"utf-8"[..]), Just(&b"<!--"[..])], 0..8)) {
            let mut input = words.concat();
            input.extend_from_slice(&bytes);
            let _ = prescan_meta(&input);
            let _ = prescan_meta(&bytes);
        }
    }
}
