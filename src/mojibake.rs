//! Mojibake: repair UTF-8 text that was decoded as windows-1252 (or Latin-1) and encoded
//! again, somewhere between the author and the archive.
//!
//! A page served as valid UTF-8 can still carry `itertools â\u{80}\u{94} Functions` or
//! `Investorâ€™s` in its text: a CMS, a database or a feed importer once read UTF-8 bytes as
//! windows-1252 and wrote the characters back as UTF-8. Every byte of the original multi-byte
//! sequence became one character: the lead byte a letter in `Â`..`ô` (U+00C2–U+00F4), each
//! continuation byte (0x80–0xBF) a character in U+0080–U+00BF or one of the 27 that
//! windows-1252 puts at 0x80–0x9F (`€`, `’`, `™`, …). Mapping those characters back to their
//! bytes and reading the bytes as UTF-8 gives the text the author wrote. ftfy (Speer, 2015)
//! made this repair standard in corpus pipelines; we do the one step that concerns a whole
//! page, undoing one layer of the UTF-8 → windows-1252 mix-up, and nothing else (no quote
//! uncurling, no width folding): the text keeps every other character as published.
//!
//! **When.** Legitimate text has such pairs too: Czech `PÍŠE` (`Í` then `Š`), `CAFÉ’s`,
//! German `groß…`. So a text is repaired only when it has at least one *telltale* sequence,
//! which real text does not produce:
//! - a C1 control character (U+0080–U+009F) among the continuation characters: they are
//!   never text, only the Latin-1 reading of a UTF-8 continuation byte;
//! - a lead `Â`, `Ã` (Latin-1 and Latin Extended-A letters), `Ð`, `Ñ` (Cyrillic), `Ø`, `Ù`
//!   (Arabic) followed directly by a continuation character (`Ã©`, `Â©`, `Ð¿`, `Ø§`), but
//!   for the last four not by U+00A0 (Word's HTML bullets are `Ø&nbsp;`, a Wingdings
//!   arrow; Cyrillic mojibake has other telltales in every word);
//! - a lead `â` followed by `€`, `‚`, `ƒ`, `„` or a C1 control (General Punctuation,
//!   currency and letterlike symbols: `â€™`, `â€œ`, `â‚¬`, `â„¢`);
//! - `ð` then `Ÿ`: the first two bytes of an emoji (`ðŸ˜€` for 😀);
//! - a three- or four-byte lead (`à`..`ô`) whose continuations include a symbol in
//!   U+00A1–U+00BF other than `«` and `»`, and which decodes to a character of a script text
//!   is written in (`ä¸­` for 中, `à¤¹` for ह). French `réglé\u{a0}»` stays: U+00A0 and the
//!   guillemets do follow letters in real text.
//!
//! Then every sequence that decodes to a valid UTF-8 character at or above U+00A0 is
//! replaced, the telltale ones and the others (`Å‚` for `ł`), and the rest of the text is
//! left as it is. A text with no telltale is returned borrowed: the scan is one `memchr`
//! for the byte 0xC3 (every lead character's UTF-8 starts with it) and a look at the next
//! few bytes.
//!
//! Mojibake written as character references (`&Atilde;&copy;`) shows only once they are
//! decoded: the parser repairs each run of text, title and attribute value whose references
//! it decodes ([`repair_decoded`]), with the same telltales. Not repaired: two layers of
//! mix-up, and sequences whose U+00A0 became a plain space.

use std::borrow::Cow;

/// The windows-1252 byte (0x80–0x9F) of a character that windows-1252 puts there, for the
/// 27 positions it defines.
fn cp1252_high_byte(c: char) -> Option<u8> {
    Some(match c {
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8A,
        '‹' => 0x8B,
        'Œ' => 0x8C,
        'Ž' => 0x8E,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9A,
        '›' => 0x9B,
        'œ' => 0x9C,
        'ž' => 0x9E,
        'Ÿ' => 0x9F,
        _ => return None,
    })
}

/// The byte a character stands for when it is the windows-1252/Latin-1 reading of a UTF-8
/// continuation byte (0x80–0xBF): U+0080–U+00BF as themselves, the windows-1252 specials as
/// their byte.
fn continuation_byte(c: char) -> Option<u8> {
    match c as u32 {
        0x80..=0xBF => Some(c as u32 as u8),
        _ => cp1252_high_byte(c),
    }
}

/// One candidate sequence found at a lead character.
struct Sequence {
    /// Length in bytes of the mojibake in the text.
    len: usize,
    /// The character it stands for.
    repaired: char,
    /// Whether the sequence alone shows the text is mojibake (see the module doc).
    telltale: bool,
}

/// Reads the sequence starting at `at` (the byte 0xC3 of a lead character), if it is the
/// mojibake of a valid UTF-8 character at or above U+00A0.
fn sequence_at(text: &str, at: usize) -> Option<Sequence> {
    let rest = text.get(at..)?;
    let mut chars = rest.char_indices();
    let (_, lead) = chars.next()?;
    let lead_byte = match lead as u32 {
        0xC2..=0xF4 => lead as u32 as u8,
        _ => return None,
    };
    let needed = match lead_byte {
        0xC2..=0xDF => 1,
        0xE0..=0xEF => 2,
        _ => 3,
    };
    let mut bytes = [lead_byte, 0, 0, 0];
    let mut c1 = false;
    let mut symbol = false;
    let mut end = lead.len_utf8();
    for slot in bytes.iter_mut().skip(1).take(needed) {
        let (i, c) = chars.next()?;
        let b = continuation_byte(c)?;
        c1 |= (0x80..=0x9F).contains(&(c as u32));
        // U+00A1–U+00BF but the guillemets, which follow letters in real French text.
        symbol |= matches!(c, '\u{a1}'..='\u{bf}') && c != '«' && c != '»';
        *slot = b;
        end = i + c.len_utf8();
    }
    let repaired = std::str::from_utf8(&bytes[..=needed])
        .ok()?
        .chars()
        .next()?;
    if (repaired as u32) < 0xA0 {
        return None;
    }
    // A Cyrillic or Arabic lead before a no-break space is no telltale: Word's HTML writes
    // its Wingdings bullets as "Ø&nbsp;", and U+0620 or U+0420 alone is no proof.
    let telltale = c1
        || matches!(lead, 'Â' | 'Ã')
        || (matches!(lead, 'Ð' | 'Ñ' | 'Ø' | 'Ù') && bytes[1] != 0xA0)
        || (lead == 'â' && bytes[1] <= 0x84)
        || (lead == 'ð' && bytes[1] == 0x9F)
        || (needed >= 2 && symbol && in_written_script(repaired));
    Some(Sequence {
        len: end,
        repaired,
        telltale,
    })
}

/// Whether a character three or four UTF-8 bytes long is one that text is commonly written
/// in: Indic, Thai, Myanmar and Georgian scripts, Vietnamese letters, punctuation and
/// symbols, CJK, Hangul, fullwidth forms and emoji. A three-byte sequence that decodes
/// elsewhere (`à` + U+00A0 + `»` gives U+083B) is more likely real text than mojibake.
fn in_written_script(c: char) -> bool {
    matches!(c as u32,
        0x0900..=0x10FF | 0x1E00..=0x2BFF | 0x3000..=0x9FFF | 0xAC00..=0xD7A3
        | 0xF900..=0xFFEF | 0x1F000..=0x1FAFF)
}

/// Positions of the candidate lead characters: a 0xC3 byte followed by 0x82–0xB4
/// (U+00C2–U+00F4).
fn leads(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr_iter(0xC3, bytes).filter(move |&i| matches!(bytes.get(i + 1), Some(0x82..=0xB4)))
}

/// [`repair`] for text that entity decoding has just produced (`decoded` is owned when some
/// reference was decoded). A page can write its mojibake as character references
/// (`isn&acirc;&euro;&trade;t`: PHP's `htmlentities` over text that was already mixed up),
/// which the repair of the whole decoded payload cannot see; text without references
/// (borrowed) was repaired with the page.
///
/// ```
/// use std::borrow::Cow;
/// use warcsift::mojibake::repair_decoded;
///
/// let decoded: Cow<str> = Cow::Owned("isnâ€™t".to_string());
/// assert_eq!(repair_decoded(decoded), "isn’t");
/// assert_eq!(repair_decoded(Cow::Borrowed("isnâ€™t")), "isnâ€™t");
/// ```
pub fn repair_decoded(decoded: Cow<'_, str>) -> Cow<'_, str> {
    match decoded {
        Cow::Owned(s) => {
            let fixed = match repair(&s) {
                Cow::Owned(r) => Some(r),
                Cow::Borrowed(_) => None,
            };
            Cow::Owned(fixed.unwrap_or(s))
        }
        borrowed => borrowed,
    }
}

/// The text with one layer of UTF-8-read-as-windows-1252 undone, when it shows a telltale
/// sequence (module doc); borrowed and unchanged otherwise.
///
/// ```
/// use warcsift::mojibake::repair;
///
/// assert_eq!(repair("Investorâ€™s guide"), "Investor’s guide");
/// assert_eq!(repair("itertools â\u{80}\u{94} loops"), "itertools — loops");
/// assert_eq!(repair("Ã©tÃ© Ã\u{a0} Å‚Ã³dÅº"), "été à łódź");
/// assert_eq!(repair("PÍŠE, CAFÉ’s, groß…"), "PÍŠE, CAFÉ’s, groß…");
/// ```
pub fn repair(text: &str) -> Cow<'_, str> {
    if !leads(text).any(|i| sequence_at(text, i).is_some_and(|s| s.telltale)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for i in leads(text) {
        if i < copied {
            continue; // inside a sequence already replaced
        }
        if let Some(s) = sequence_at(text, i) {
            out.push_str(&text[copied..i]);
            out.push(s.repaired);
            copied = i + s.len;
        }
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the mix-up does: UTF-8 bytes read as windows-1252 (undefined bytes as their C1
    /// control, as WHATWG's decoder does).
    fn garble(s: &str) -> String {
        encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(s.as_bytes())
            .0
            .into_owned()
    }

    /// The same bytes read as ISO-8859-1 proper: every byte its own code point.
    fn garble_latin1(s: &str) -> String {
        s.bytes().map(char::from).collect()
    }

    #[test]
    fn undoes_windows_1252_and_latin1_readings() {
        for s in [
            "Investor’s “guide” — 2025 … €5 ™",
            "été à la plage, naïve, Ærø, Straße",
            "łódź, żółć, Dvořák, ğüşıöç",
            "Привет, мир",
            "مرحبا بالعالم",
            "中文 日本語 한국어",
            "emoji 😀 🚀",
        ] {
            assert_eq!(repair(&garble(s)), s, "windows-1252: {s}");
            assert_eq!(repair(&garble_latin1(s)), s, "latin-1: {s}");
        }
    }

    #[test]
    fn the_page_that_prompted_it() {
        // docs.python.org's itertools page as archived: the em dash as 'â' + two C1 controls,
        // the pilcrow of the heading link as 'Â¶'.
        let t = "<title>itertools \u{e2}\u{80}\u{94} Functions</title><a>\u{c2}\u{b6}</a>";
        assert_eq!(repair(t), "<title>itertools — Functions</title><a>¶</a>");
    }

    #[test]
    fn real_text_with_lookalike_pairs_is_left_alone() {
        for s in [
            "PÍŠE ÚŽASNĚ",                                              // Czech capitals: Í+Š, Ú+Ž
            "CAFÉ’s menu, NOËL”",                                       // É+’ and Ë+” would decode
            "groß… und Fuß–Weg",                                        // ß+… and ß+–
            "2×½ cups, 3×¼ inch",                                       // × + ½
            "« É\u{a0}», «\u{a0}là\u{a0}», « réglé\u{a0}» « réglé»… »", // French spacing
            "Ø\u{a0}Word's Wingdings bullet, Ð\u{a0}and Ù\u{a0}too",    // lead + U+00A0
            "plain ASCII text",
            "",
        ] {
            assert!(matches!(repair(s), Cow::Borrowed(_)), "{s}");
        }
    }

    #[test]
    fn weak_sequences_are_repaired_only_beside_a_telltale() {
        // 'Å‚' alone could be a capital and a quote; with 'Ã³' on the same page it is 'ł'.
        assert_eq!(repair("Å‚"), "Å‚");
        assert_eq!(repair("Å‚Ã³"), "łó");
        // "Р" read as windows-1252 is "Ð" and U+00A0: repaired in Cyrillic mojibake, whose
        // other letters give it away.
        assert_eq!(repair("Ð\u{a0}Ð¾Ñ\u{81}Ñ\u{81}Ð¸Ñ\u{8f}"), "Россия");
    }

    #[test]
    fn broken_sequences_stay_as_they_are() {
        // A lead without its continuations, and one whose bytes are not valid UTF-8
        // (0xE0 0x80 0x80 is overlong), next to a telltale that is repaired.
        assert_eq!(repair("Ã© Ã at the end Ã"), "é Ã at the end Ã");
        assert_eq!(repair("Ã© à\u{80}\u{80}"), "é à\u{80}\u{80}");
    }

    proptest! {
        #[test]
        fn any_text_repairs_without_panic_and_garbling_round_trips(s in "\\PC{0,40}") {
            let r = repair(&s);
            prop_assert!(r.len() <= s.len());
            // Text with at least one non-ASCII Latin-1 letter, garbled, always shows 'Ã'
            // or 'Â' as a lead, a telltale: it comes back whole.
            if s.chars().all(|c| (c as u32) < 0x80 || ('\u{c0}'..='\u{ff}').contains(&c))
                && !s.is_ascii()
            {
                let garbled = garble(&s);
                let repaired = repair(&garbled).into_owned();
                prop_assert_eq!(repaired, s);
            }
        }
    }
}
