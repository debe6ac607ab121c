//! The language a page's extracted text is written in (not the one it declares).
//!
//! Takes the main text ([`crate::extract::PageText::text`]); gives an ISO 639-1 code (ISO
//! 639-3 where a language has no two-letter code) and the detector's confidence in 0..=1.
//! The detector is whatlang (trigram profiles of 69 languages; see Cargo.toml for why it
//! and not lingua), run over a sample of the text: up to [`SAMPLE_BYTES`] bytes of its
//! lines of at least [`MIN_LINE_BYTES`] bytes (menu-like short lines say little), or the
//! whole text when it has no such lines. Pages with less than [`MIN_TEXT_BYTES`] bytes of
//! text get no language: a detector's guess on a dozen characters is noise.
//!
//! Cost: whatlang is linear in the sample, a few tens of microseconds per page at this size
//! (docs/corpus.md has the measurement).

/// Bytes of text the detector reads at most.
pub const SAMPLE_BYTES: usize = 1024;
/// Bytes of the sample whatlang reads (its cost is linear in them; see docs/corpus.md).
pub const DETECTOR_BYTES: usize = 512;
/// Lines shorter than this (bytes) are left out of the sample when longer ones exist.
pub const MIN_LINE_BYTES: usize = 40;
/// Texts shorter than this (bytes, after trimming) get no language.
pub const MIN_TEXT_BYTES: usize = 20;

/// A detected language: its code and the detector's confidence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detected {
    /// ISO 639-1 (`en`, `de`, `zh`), or ISO 639-3 for languages without one.
    pub code: &'static str,
    /// 0..=1, rounded to two decimals.
    pub score: f32,
}

/// The language of `text`, or `None` when it is too short or the detector has no answer.
pub fn detect(text: &str) -> Option<Detected> {
    let text = text.trim();
    if text.len() < MIN_TEXT_BYTES {
        return None;
    }
    let mut sample = String::with_capacity(SAMPLE_BYTES + 64);
    for line in text.lines().filter(|l| l.len() >= MIN_LINE_BYTES) {
        if !sample.is_empty() {
            sample.push(' ');
        }
        push_prefix(&mut sample, line, SAMPLE_BYTES);
        if sample.len() >= SAMPLE_BYTES {
            break;
        }
    }
    if sample.len() < MIN_TEXT_BYTES {
        sample.clear();
        push_prefix(&mut sample, text, SAMPLE_BYTES);
    }
    if let Some(score) = english_score(&sample) {
        return Some(Detected { code: "en", score });
    }
    let mut end = sample.len().min(DETECTOR_BYTES);
    while !sample.is_char_boundary(end) {
        end -= 1;
    }
    let info = whatlang::detect(&sample[..end])?;
    Some(Detected {
        code: iso639(info.lang()),
        score: ((info.confidence() * 100.0).round() / 100.0) as f32,
    })
}

/// Words a sample needs before [`english_score`] may decide.
const ENGLISH_MIN_WORDS: usize = 12;

/// English without asking the detector, when at least a quarter of the sample's (at least
/// [`ENGLISH_MIN_WORDS`]) words are English function words: English prose runs at 0.4-0.5,
/// other languages' prose rarely reaches 0.1 (a German "in", "so"). A few µs where whatlang
/// takes a hundred or more, and most of a crawl is English. The score is the share of
/// function words over 0.4 (typical English prose), capped at 1, rounded like the
/// detector's: 0.63 at the threshold, 1.0 for ordinary prose.
fn english_score(sample: &str) -> Option<f32> {
    let (mut words, mut stops) = (0usize, 0usize);
    let mut buf = [0u8; 8];
    for w in sample.split_whitespace() {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        if w.is_empty() {
            continue;
        }
        words += 1;
        if w.len() <= buf.len() && w.is_ascii() {
            let lw = &mut buf[..w.len()];
            lw.copy_from_slice(w.as_bytes());
            lw.make_ascii_lowercase();
            stops += usize::from(ENGLISH_FUNCTION_WORDS.binary_search(&&*lw).is_ok());
        }
    }
    if words < ENGLISH_MIN_WORDS || stops * 4 < words {
        return None;
    }
    let share = stops as f32 / words as f32;
    Some(((share / 0.4).min(1.0) * 100.0).round() / 100.0)
}

/// English function words (sorted, as bytes, for binary search).
const ENGLISH_FUNCTION_WORDS: &[&[u8]] = &[
    b"a", b"about", b"after", b"all", b"also", b"an", b"and", b"are", b"as", b"at", b"be", b"been",
    b"but", b"by", b"can", b"could", b"do", b"does", b"for", b"from", b"had", b"has", b"have",
    b"he", b"her", b"his", b"how", b"i", b"if", b"in", b"into", b"is", b"it", b"its", b"more",
    b"my", b"not", b"of", b"on", b"or", b"our", b"out", b"she", b"should", b"so", b"than", b"that",
    b"the", b"their", b"them", b"there", b"these", b"they", b"this", b"to", b"up", b"was", b"we",
    b"were", b"what", b"when", b"which", b"who", b"will", b"with", b"would", b"you", b"your",
];

/// Append as much of `s` as fits in `limit` bytes of `out` (at a character boundary).
fn push_prefix(out: &mut String, s: &str, limit: usize) {
    let room = limit.saturating_sub(out.len());
    let mut end = s.len().min(room);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.push_str(&s[..end]);
}

/// whatlang's language (ISO 639-3) as ISO 639-1 where there is a two-letter code.
pub fn iso639(lang: whatlang::Lang) -> &'static str {
    let three = lang.code();
    TO_639_1
        .iter()
        .find(|(t, _)| *t == three)
        .map_or(three, |(_, two)| two)
}

/// A code of [`detect`] (ISO 639-1, or 639-3) as ISO 639-3, the form of Common Crawl's
/// `WARC-Identified-Content-Language`; `None` for a code whatlang does not know.
pub fn iso639_3(code: &str) -> Option<&'static str> {
    if let Some((three, _)) = TO_639_1.iter().find(|(_, two)| *two == code) {
        return Some(three);
    }
    whatlang::Lang::all()
        .iter()
        .map(|l| l.code())
        .find(|three| *three == code)
}

/// ISO 639-3 → ISO 639-1 for every language whatlang knows that has a two-letter code
/// (`cmn` Mandarin is written `zh`, `pes` Persian `fa`, `nob` Bokmål `nb`).
const TO_639_1: &[(&str, &str)] = &[
    ("epo", "eo"),
    ("eng", "en"),
    ("rus", "ru"),
    ("cmn", "zh"),
    ("spa", "es"),
    ("por", "pt"),
    ("ita", "it"),
    ("ben", "bn"),
    ("fra", "fr"),
    ("deu", "de"),
    ("ukr", "uk"),
    ("kat", "ka"),
    ("ara", "ar"),
    ("hin", "hi"),
    ("jpn", "ja"),
    ("heb", "he"),
    ("yid", "yi"),
    ("pol", "pl"),
    ("amh", "am"),
    ("jav", "jv"),
    ("kor", "ko"),
    ("nob", "nb"),
    ("dan", "da"),
    ("swe", "sv"),
    ("fin", "fi"),
    ("tur", "tr"),
    ("nld", "nl"),
    ("hun", "hu"),
    ("ces", "cs"),
    ("ell", "el"),
    ("bul", "bg"),
    ("bel", "be"),
    ("mar", "mr"),
    ("kan", "kn"),
    ("ron", "ro"),
    ("slv", "sl"),
    ("hrv", "hr"),
    ("srp", "sr"),
    ("mkd", "mk"),
    ("lit", "lt"),
    ("lav", "lv"),
    ("est", "et"),
    ("tam", "ta"),
    ("vie", "vi"),
    ("urd", "ur"),
    ("tha", "th"),
    ("guj", "gu"),
    ("uzb", "uz"),
    ("pan", "pa"),
    ("aze", "az"),
    ("ind", "id"),
    ("tel", "te"),
    ("pes", "fa"),
    ("mal", "ml"),
    ("ori", "or"),
    ("mya", "my"),
    ("nep", "ne"),
    ("sin", "si"),
    ("khm", "km"),
    ("tuk", "tk"),
    ("aka", "ak"),
    ("zul", "zu"),
    ("sna", "sn"),
    ("afr", "af"),
    ("lat", "la"),
    ("slk", "sk"),
    ("cat", "ca"),
    ("tgl", "tl"),
    ("hye", "hy"),
    ("cym", "cy"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_function_words_are_sorted_and_decide_plain_english() {
        assert!(ENGLISH_FUNCTION_WORDS.windows(2).all(|w| w[0] < w[1]));
        let en = "The council approved the plan for the river on Tuesday, after a long debate that ran late into the night.";
        assert_eq!(english_score(en), Some(1.0));
        let de = "Der Stadtrat hat am Dienstag nach langer Debatte den Plan für den Fluss beschlossen, der seit Jahren umstritten war.";
        assert_eq!(english_score(de), None);
        assert_eq!(english_score("the of and"), None, "too few words");
    }

    #[test]
    fn every_whatlang_language_has_a_code() {
        for &l in whatlang::Lang::all() {
            let c = iso639(l);
            assert!(c.len() == 2 || c == l.code(), "{l:?} -> {c}");
        }
        assert_eq!(TO_639_1.len(), whatlang::Lang::all().len());
        for &l in whatlang::Lang::all() {
            assert_eq!(iso639_3(iso639(l)), Some(l.code()));
        }
        assert_eq!(iso639_3("xx"), None);
    }

    #[test]
    fn detects_the_text_not_the_menu() {
        let text = "Home\nNews\nDer Stadtrat hat am Dienstag nach langer Debatte den Plan für den Fluss beschlossen, der seit Jahren umstritten war.";
        let d = detect(text).unwrap();
        assert_eq!(d.code, "de");
        assert!(d.score > 0.5 && d.score <= 1.0);
        assert_eq!(detect("Home"), None);
        assert_eq!(
            detect("The council approved the plan for the river on Tuesday.")
                .unwrap()
                .code,
            "en"
        );
    }
}
