//! Text normalisation and word tokens, exactly as the reference scorer does them.
//!
//! `score.py` compares `SPACE.sub(" ", html.unescape(text)).strip().lower()` and splits
//! words with `re.findall(r"\w+")`. This module reproduces each step:
//!
//! * [`unescape`]: CPython's `html.unescape` (not a browser's): the same regular expression
//!   `&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)`, the same numeric rules
//!   (Windows-1252 for `&#128;`..`&#159;`, U+FFFD for surrogates, zero and out-of-range
//!   values, nothing for noncharacters and most controls), and for names the same
//!   longest-prefix rule that expands legacy entities without `;` (`&copy2010` → `©2010`).
//!   The entity table is `htmlize`'s, which holds the same 2,231 WHATWG names as CPython's
//!   `html.entities.html5` (checked name by name against CPython 3.11).
//! * [`normalize`]: the above, then every run of Python `\s` becomes one space, ends are
//!   stripped and the text is lower-cased with Rust's `str::to_lowercase` (full case
//!   mapping and final sigma, like `str.lower()`; the two agree on every code point of
//!   Unicode 14, CPython 3.11's version).
//! * [`words`]: maximal runs of Python `\w` characters (the `pyclass` tables).
//!
//! Characters are Unicode scalar values, as Python's `str` indexes code points.

use std::borrow::Cow;

use super::pyclass::{is_space_char, is_word_char};

/// CPython's `html.unescape`: expand character references the way the reference scorer does.
///
/// ```
/// use warcsift::eval::normalize::unescape;
/// assert_eq!(unescape("a &amp; b &lt;3 &copy2010 &#x41;&#128; &bogus;"), "a & b <3 ©2010 A€ &bogus;");
/// ```
pub fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match charref(after, &mut out) {
            Some(used) => rest = &after[used..],
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Match one reference after `&` at the start of `s`, append its expansion to `out` and return
/// the number of bytes consumed; `None` when the regular expression does not match here.
fn charref(s: &str, out: &mut String) -> Option<usize> {
    let bytes = s.as_bytes();
    if bytes.first() == Some(&b'#') {
        let hex = matches!(bytes.get(1), Some(b'x' | b'X'));
        let start = if hex { 2 } else { 1 };
        let digits = bytes[start..]
            .iter()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        if digits == 0 {
            // `#` cannot start a name either, so nothing matches.
            return None;
        }
        let end = start + digits;
        let radix = if hex { 16 } else { 10 };
        // Saturate: Python's integers are unbounded and anything above U+10FFFF is U+FFFD.
        let value = bytes[start..end].iter().fold(0u32, |acc, &b| {
            let d = (b as char).to_digit(radix).unwrap_or(0);
            acc.saturating_mul(radix).saturating_add(d)
        });
        push_numeric(value, out);
        return Some(end + usize::from(bytes.get(end) == Some(&b';')));
    }
    // `[^\t\n\f <&#;]{1,32};?`, counted in characters.
    let mut name_end = 0;
    for (count, (i, c)) in s.char_indices().enumerate() {
        if count == 32 || matches!(c, '\t' | '\n' | '\u{C}' | ' ' | '<' | '&' | '#' | ';') {
            break;
        }
        name_end = i + c.len_utf8();
    }
    if name_end == 0 {
        return None;
    }
    let end = name_end + usize::from(bytes.get(name_end) == Some(&b';'));
    let name = &s[..end];
    if let Some(expansion) = entity(name) {
        out.push_str(expansion);
        return Some(end);
    }
    // The longest prefix of at least two characters that is an entity (only the legacy names
    // without `;` can match, since `;` never occurs inside `name`).
    let cuts: Vec<usize> = name.char_indices().map(|(i, _)| i).skip(2).collect();
    for &cut in cuts.iter().rev() {
        if let Some(expansion) = entity(&name[..cut]) {
            out.push_str(expansion);
            out.push_str(&name[cut..]);
            return Some(end);
        }
    }
    out.push('&');
    out.push_str(name);
    Some(end)
}

/// The expansion of entity `name` (without the leading `&`, with its `;` if any).
fn entity(name: &str) -> Option<&'static str> {
    if !name.is_ascii() || name.len() > 40 {
        return None;
    }
    let mut key = [0u8; 41];
    key[0] = b'&';
    key[1..=name.len()].copy_from_slice(name.as_bytes());
    htmlize::ENTITIES
        .get(&key[..=name.len()])
        .and_then(|v| std::str::from_utf8(v).ok())
}

/// `html._replace_charref` for a numeric reference.
fn push_numeric(value: u32, out: &mut String) {
    const CP1252: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    match value {
        0 => out.push('\u{FFFD}'),
        0x0D => out.push('\r'),
        0x80..=0x9F => out.push(CP1252[(value - 0x80) as usize]),
        0xD800..=0xDFFF | 0x11_0000.. => out.push('\u{FFFD}'),
        // `html._invalid_codepoints`: dropped.
        0x1..=0x8 | 0xB | 0xE..=0x1F | 0x7F | 0xFDD0..=0xFDEF => {}
        v if v & 0xFFFE == 0xFFFE => {}
        v => out.push(char::from_u32(v).unwrap_or('\u{FFFD}')),
    }
}

/// `SPACE.sub(" ", html.unescape(text)).strip().lower()`.
///
/// ```
/// use warcsift::eval::normalize::normalize;
/// assert_eq!(normalize("  Hello\u{a0}&amp;\n\tWORLD  "), "hello & world");
/// ```
pub fn normalize(text: &str) -> String {
    let text = unescape(text);
    let mut collapsed = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if is_space_char(c) {
            pending_space = !collapsed.is_empty();
        } else {
            if pending_space {
                collapsed.push(' ');
                pending_space = false;
            }
            collapsed.push(c);
        }
    }
    collapsed.to_lowercase()
}

/// `re.findall(r"\w+", text)`: the maximal runs of word characters, in order.
///
/// ```
/// use warcsift::eval::normalize::words;
/// assert_eq!(words("it's 3.5 km_h, naïve"), ["it", "s", "3", "5", "km_h", "naïve"]);
/// ```
pub fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_word_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(input, normalize(input), WORD.findall(normalize(input)))`, the right-hand sides
    /// printed by CPython 3.11.7 running `score.py`'s `normalize` and `WORD`.
    #[rustfmt::skip]
    const PYTHON: &[(&str, &str, &[&str])] = &[
        ("Hindi: ह\u{93F}न\u{94D}द\u{940} भ\u{93E}ष\u{93E}", "hindi: ह\u{93F}न\u{94D}द\u{940} भ\u{93E}ष\u{93E}", &["hindi", "ह", "न", "द", "भ", "ष"]),
        ("Thai: ภาษาไทย", "thai: ภาษาไทย", &["thai", "ภาษาไทย"]),
        ("it's 3.5 km_h, naïve ﬁne", "it's 3.5 km_h, naïve ﬁne", &["it", "s", "3", "5", "km_h", "naïve", "ﬁne"]),
        ("e\u{301}te\u{301} café", "e\u{301}te\u{301} café", &["e", "te", "café"]),
        ("x²+y½ Ⅻ ⑴ Ⓐ 一二三", "x²+y½ ⅻ ⑴ ⓐ 一二三", &["x²", "y½", "ⅻ", "⑴", "一二三"]),
        ("Ω-ΣΊΣΥΦΟΣ ΟΔΟΣ.", "ω-σίσυφος οδος.", &["ω", "σίσυφος", "οδος"]),
        ("İstanbul ẞtraße", "i\u{307}stanbul ßtraße", &["i", "stanbul", "ßtraße"]),
        ("a\u{200B}b a\u{AD}b a’b", "a\u{200B}b a\u{AD}b a’b", &["a", "b", "a", "b", "a", "b"]),
        ("١٢٣ ١٢٣", "١٢٣ ١٢٣", &["١٢٣", "١٢٣"]),
        ("tab\u{9}new\u{A}line\u{1C}fs\u{1F}us\u{2028}ls\u{3000}ideo\u{A0}nbsp\u{200B}zwsp\u{180E}mvs", "tab new line fs us ls ideo nbsp\u{200B}zwsp\u{180E}mvs", &["tab", "new", "line", "fs", "us", "ls", "ideo", "nbsp", "zwsp", "mvs"]),
        ("&amp;&AMP &ampx &amp;x &notit; &notin; &copy2010 &#65;&#x42;&#X43 &#0;&#13;&#128;&#150;&#1;&#xD800;&#1114112;&#99999999999999999999; &#; &#x; &bogus; &; & &lt&gt", "&& &x &x ¬it; ∉ ©2010 abc � €–��� &#; &#x; &bogus; &; & <>", &["x", "x", "it", "2010", "abc", "x", "bogus"]),
        ("&ThisIsAVeryLongNameOfMoreThan32Chars; &Eacute;cole &eacuteé &nbsp;x&NotNestedGreaterGreater;", "&thisisaverylongnameofmorethan32chars; école éé x⪢\u{338}", &["thisisaverylongnameofmorethan32chars", "école", "éé", "x"]),
        ("\u{FEFF}BOM text", "\u{FEFF}bom text", &["bom", "text"]),
        ("emoji 😀 x🇫🇷y", "emoji 😀 x🇫🇷y", &["emoji", "x", "y"]),
    ];

    #[test]
    fn agrees_with_python() {
        for &(input, norm, toks) in PYTHON {
            let got = normalize(input);
            assert_eq!(got, norm, "normalize({input:?})");
            assert_eq!(words(&got), toks, "words({norm:?})");
        }
    }

    #[test]
    fn unescape_keeps_text_without_references() {
        assert!(matches!(unescape("no refs here"), Cow::Borrowed(_)));
        assert_eq!(unescape("a&b"), "a&b");
        assert_eq!(unescape("&"), "&");
        assert_eq!(unescape("&#"), "&#");
        assert_eq!(unescape("&#x"), "&#x");
        assert_eq!(unescape("&#65"), "A");
        assert_eq!(unescape("&#xfffe;&#x1ffff;&#xfdd0;&#127;."), ".");
    }

    #[test]
    fn empty_and_blank() {
        assert_eq!(normalize(""), "");
        assert_eq!(normalize(" \n\t\u{3000} "), "");
        assert!(words("").is_empty());
        assert!(words(" -- ").is_empty());
    }
}
