//! JSONL encoding: one [`PageRecord`] as one JSON object on one `\n`-terminated line.
//!
//! Keys come in the declaration order of [`PageRecord`]; `title` and `lang` are `null` when
//! unknown. serde_json escapes every control character, so a record is always exactly one
//! line of valid UTF-8, whatever the page text holds. Pages with empty text are encoded like
//! any other: whether to keep them is the pipeline's decision.

use std::io::Write;

use super::PageRecord;
use crate::swar::{load, HIGH, ONES};

/// Append `page` as one JSON line (with its `\n`) to `out`: the bytes `serde_json` writes
/// for the derived `Serialize` (compact, keys in field order, its escapes), which the tests
/// hold it to (`encode_serde`), written here by hand so that the page text, most of the
/// line, is scanned eight bytes at a time (`push_json_str`). Cannot fail: every field is a
/// string, a number or a bool.
pub fn encode_into(page: &PageRecord, out: &mut Vec<u8>) {
    let head = [
        ("id", Some(page.id.as_str())),
        ("url", Some(&page.url)),
        ("date", Some(&page.date)),
        ("title", page.title.as_deref()),
        ("html_title", page.html_title.as_deref()),
        ("author", page.author.as_deref()),
        ("date_published", page.date_published.as_deref()),
        ("description", page.description.as_deref()),
        ("site_name", page.site_name.as_deref()),
        ("canonical_url", page.canonical_url.as_deref()),
        ("lang", page.lang.as_deref()),
    ];
    push_strings(out, &head, true);
    out.extend_from_slice(b",\"lang_score\":");
    match page.lang_score {
        // serde_json's own float formatting, so the line stays byte-identical to it.
        Some(score) => {
            let _ = serde_json::to_writer(&mut *out, &score);
        }
        None => out.extend_from_slice(b"null"),
    }
    let tail = [
        ("html_lang", page.html_lang.as_deref()),
        ("page_type", Some(page.page_type.as_str())),
        ("charset", Some(&page.charset)),
        ("charset_source", Some(&page.charset_source)),
        ("text", Some(&page.text)),
        ("source", Some(&page.source)),
    ];
    push_strings(out, &tail, false);
    // Writing into a `Vec` cannot fail.
    let _ = write!(out, ",\"offset\":{}", page.offset);
    out.extend_from_slice(b",\"truncated\":");
    out.extend_from_slice(if page.truncated { b"true" } else { b"false" });
    out.extend_from_slice(b"}\n");
}

/// `"key":value` pairs, comma-separated (the first opening the object when `first`).
fn push_strings(out: &mut Vec<u8>, pairs: &[(&str, Option<&str>)], first: bool) {
    for (i, (key, value)) in pairs.iter().enumerate() {
        out.push(if first && i == 0 { b'{' } else { b',' });
        push_json_str(out, key);
        out.push(b':');
        match value {
            Some(v) => push_json_str(out, v),
            None => out.extend_from_slice(b"null"),
        }
    }
}

/// `s` as a JSON string with `serde_json`'s escapes: `\"`, `\\`, `\b \f \n \r \t`, and
/// `\u00xx` (lower-case hex) for the other control characters below U+0020; everything else,
/// DEL and non-ASCII included, as is. Runs of eight bytes that need no escape are found with
/// a word-at-a-time test ([`needs_escape`]) and copied in one go.
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    // `b[start..i]` is pending: seen, needing no escape, not yet copied.
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        if let Some(chunk) = b.get(i..i + 8) {
            if !needs_escape(load(chunk)) {
                i += 8;
                continue;
            }
        }
        let end = (i + 8).min(b.len());
        while i < end {
            let c = b[i];
            let esc: &[u8] = match c {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                0x08 => b"\\b",
                0x0c => b"\\f",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1f => &[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(c >> 4)],
                    HEX[usize::from(c & 15)],
                ],
                _ => {
                    i += 1;
                    continue;
                }
            };
            out.extend_from_slice(&b[start..i]);
            out.extend_from_slice(esc);
            i += 1;
            start = i;
        }
    }
    out.extend_from_slice(&b[start..]);
    out.push(b'"');
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Whether any of the eight bytes of `word` is below 0x20, `"` or `\\` (SWAR: the classic
/// "has a zero byte" test, `(v - 0x01..) & !v & 0x80..`, applied to `word ^ "..."` for the two
/// characters and, as "has a byte below 0x20", to `word` itself; each can flag a byte just
/// above a real hit, never a word without one, so `false` is exact).
#[inline]
fn needs_escape(word: u64) -> bool {
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    control | zero(word ^ (ONES * u64::from(b'"'))) | zero(word ^ (ONES * u64::from(b'\\'))) != 0
}

/// The definition [`encode_into`] follows: `serde_json` on the derived `Serialize`.
#[cfg(test)]
pub(crate) fn encode_serde(page: &PageRecord, out: &mut Vec<u8>) {
    serde_json::to_writer(&mut *out, page).expect("a PageRecord always serializes");
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bytewise(word: u64) -> bool {
        word.to_le_bytes()
            .iter()
            .any(|&c| c < 0x20 || c == b'"' || c == b'\\')
    }

    #[test]
    fn needs_escape_on_every_byte_at_every_place() {
        for fill in [b'a', 0x7f, 0x80, 0xff, b' ', b'!', b'#', b'[', b']'] {
            for c in 0..=255u8 {
                for at in 0..8 {
                    let mut w = [fill; 8];
                    w[at] = c;
                    let word = u64::from_le_bytes(w);
                    assert_eq!(
                        needs_escape(word),
                        bytewise(word),
                        "{c:#x} at {at} in {fill:#x}"
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn needs_escape_matches_the_bytewise_test(word in any::<u64>()) {
            prop_assert_eq!(needs_escape(word), bytewise(word));
        }

        #[test]
        fn json_strings_match_serde_json(s in "\\PC*|[\x00-\x7f]{0,40}|[\x00-\x22\\\\\u{7f}-\u{a0}\u{2028}é字]{0,40}") {
            let mut ours = Vec::new();
            push_json_str(&mut ours, &s);
            prop_assert_eq!(ours, serde_json::to_vec(&s).unwrap());
        }
    }

    fn page() -> PageRecord {
        PageRecord {
            id: "<urn:uuid:0>".into(),
            url: "http://example.com/".into(),
            date: "2024-01-01T00:00:00Z".into(),
            title: None,
            html_title: Some("A | B".into()),
            author: Some("Ann".into()),
            date_published: Some("2024-01-01".into()),
            lang: Some("en".into()),
            lang_score: Some(0.93),
            html_lang: Some("en-GB".into()),
            page_type: "forum".into(),
            charset: "UTF-8".into(),
            charset_source: "meta".into(),
            text: "line one\nline \"two\"\t\u{2028}\r\u{0}".into(),
            source: "a.warc.gz".into(),
            offset: 42,
            truncated: true,
            ..PageRecord::default()
        }
    }

    #[test]
    fn one_line_in_field_order_that_parses_back() {
        let mut out = Vec::new();
        encode_into(&page(), &mut out);
        let line = std::str::from_utf8(&out).unwrap();
        assert!(line.ends_with('\n'));
        assert_eq!(
            line.matches('\n').count(),
            1,
            "text newlines must be escaped"
        );
        let keys = [
            "\"id\"",
            "\"url\"",
            "\"date\"",
            "\"title\"",
            "\"html_title\"",
            "\"author\"",
            "\"date_published\"",
            "\"description\"",
            "\"site_name\"",
            "\"canonical_url\"",
            "\"lang\"",
            "\"lang_score\"",
            "\"html_lang\"",
            "\"page_type\"",
            "\"charset\"",
            "\"charset_source\"",
            "\"text\"",
            "\"source\"",
            "\"offset\"",
            "\"truncated\"",
        ];
        let positions: Vec<usize> = keys.iter().map(|k| line.find(k).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{line}");
        assert!(line.contains("\"title\":null"));
        assert!(line.contains(",\"page_type\":\"forum\","));
        assert!(line.contains(",\"lang_score\":0.93,"));
        let mut serde = Vec::new();
        encode_serde(&page(), &mut serde);
        assert_eq!(out, serde);
        let back: PageRecord = serde_json::from_str(line.trim_end()).unwrap();
        assert_eq!(back, page());
    }
}
