//! The page language behind `auto`'s prose features: detected once per page (whatlang's
//! trigram detector over a sample of the page's visible, non-link text, else the declared
//! `<html lang>`, else English), and that language's stopwords in the shape
//! [`super::auto_model`]'s per-word walk looks them up in: an open-addressing table of
//! 8-byte word keys, a filtered sorted list for longer words, and for Chinese, Japanese and
//! Korean (no spaces between words) a sorted list of single-character stopwords counted
//! character by character.
//!
//! The lists come from the `stop-words` crate: NLTK's curated function-word lists where NLTK
//! has the language, stopwords-iso's for the rest (see Cargo.toml). Each language's set is
//! built at its first use and kept for the life of the process.

use std::sync::OnceLock;

use crate::doc::Doc;
use crate::script::{is_cjk, is_han_or_kana, is_spaceless_alphabetic, SPACELESS_ALPHABETIC_WORD};

/// Bytes of page text the detector reads: enough for a confident trigram profile, little
/// enough that detection stays a small share of a page's extraction. whatlang is not cheap:
/// measured over 1,500 devset pages (pinned to one core of a busy machine, so roughly),
/// 60-100 µs a page for 150 bytes, 80-180 µs for 300 and 100-170 µs for 600, against
/// ~265 µs for all of `auto`'s block table; its answers on 300 bytes agreed with those on 600
/// for 1,493 pages of the 1,500. Hence [`looks_english`] first, and a short sample.
const SAMPLE_BYTES: usize = 400;

/// Share of a sample's words that are English stopwords from which the page is English
/// without asking the detector: English prose runs at 0.4-0.5, other languages' prose
/// rarely reaches 0.1 (a German sentence's "in", "am", "so").
const ENGLISH_SHARE: usize = 4; // 1 in 4

/// Words a sample needs before [`looks_english`] may decide.
const ENGLISH_MIN_WORDS: usize = 12;

/// Segments shorter than this (bytes) are left out of the sample: menu items, buttons and
/// dates say little about the language of the prose.
const SAMPLE_MIN_SEGMENT: usize = 20;

/// Detector confidence from which its answer is taken (whatlang's own `is_reliable` asks
/// for more than 0.9; half-way is right far more often than the English fallback).
const MIN_CONFIDENCE: f64 = 0.5;

/// The languages with a stopword set here (ISO 639-1): Common Crawl's commonest ones and a
/// few more whatlang knows. Each has a list in `stop-words` (a test holds it to that).
pub(crate) const LANGS: &[&str] = &[
    "en", "ru", "de", "zh", "ja", "es", "fr", "it", "pt", "pl", "nl", "tr", "vi", "id", "cs", "ko",
    "fa", "ar", "sv", "hu", "el", "ro", "uk", "da", "fi", "no", "he", "th", "bg", "sk", "hi", "ca",
    "hr", "sl", "lt", "lv", "et",
];

/// Languages whose stopword density is counted in characters.
const CJK_LANGS: &[&str] = &["zh", "ja", "ko"];

/// whatlang's language as an ISO 639-1 code of [`LANGS`]; `None` for the others.
fn iso639_1(lang: whatlang::Lang) -> Option<&'static str> {
    use whatlang::Lang::*;
    Some(match lang {
        Eng => "en",
        Rus => "ru",
        Deu => "de",
        Cmn => "zh",
        Jpn => "ja",
        Spa => "es",
        Fra => "fr",
        Ita => "it",
        Por => "pt",
        Pol => "pl",
        Nld => "nl",
        Tur => "tr",
        Vie => "vi",
        Ind => "id",
        Ces => "cs",
        Kor => "ko",
        Pes => "fa",
        Ara => "ar",
        Swe => "sv",
        Hun => "hu",
        Ell => "el",
        Ron => "ro",
        Ukr => "uk",
        Dan => "da",
        Fin => "fi",
        Nob => "no",
        Heb => "he",
        Tha => "th",
        Bul => "bg",
        Slk => "sk",
        Hin => "hi",
        Cat => "ca",
        Hrv => "hr",
        Slv => "sl",
        Lit => "lt",
        Lav => "lv",
        Est => "et",
        _ => return None,
    })
}

/// A declared language tag (`de-AT`, `pt_BR`, `nb`) as a code of [`LANGS`], if it names one.
fn declared(tag: &str) -> Option<&'static str> {
    let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
    let primary = match primary.as_str() {
        "nb" | "nn" => "no",
        "iw" => "he",
        "in" => "id",
        p => p,
    };
    LANGS.iter().copied().find(|&l| l == primary)
}

/// Up to [`SAMPLE_BYTES`] of the page's visible, non-link text, segment by segment.
fn sample(doc: &Doc) -> String {
    let mut s = String::new();
    for seg in doc.segments.iter().filter(|s| !s.link && !s.hidden) {
        let text = doc.seg_text(seg);
        if text.len() < SAMPLE_MIN_SEGMENT {
            continue;
        }
        if !s.is_empty() {
            s.push(' ');
        }
        let room = SAMPLE_BYTES.saturating_sub(s.len());
        let mut end = room.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        s.push_str(&text[..end]);
        if s.len() >= SAMPLE_BYTES {
            break;
        }
    }
    s
}

/// Whether a sample is plainly English: at least 1 in [`ENGLISH_SHARE`] of its (at least
/// [`ENGLISH_MIN_WORDS`]) words are English stopwords. A few µs, where the detector takes
/// tens, and most of a crawl is English.
fn looks_english(text: &str) -> bool {
    let en = Stopwords::of("en");
    let (mut words, mut stops) = (0usize, 0usize);
    let mut lw = String::new();
    for w in text.split_whitespace() {
        lw.clear();
        normalize_into(w, &mut lw);
        if lw.is_empty() {
            continue;
        }
        words += 1;
        stops += usize::from(en.has(&lw));
    }
    words >= ENGLISH_MIN_WORDS && stops * ENGLISH_SHARE >= words
}

/// whatlang's detector over the languages of [`LANGS`] only (fewer profiles to compare).
fn detector() -> &'static whatlang::Detector {
    static D: OnceLock<whatlang::Detector> = OnceLock::new();
    D.get_or_init(|| {
        let allow = whatlang::Lang::all()
            .iter()
            .copied()
            .filter(|&l| iso639_1(l).is_some())
            .collect();
        whatlang::Detector::with_allowlist(allow)
    })
}

/// The language of `text` when the detector is confident and has a set for it.
fn detect(text: &str) -> Option<&'static str> {
    if looks_english(text) {
        return Some("en");
    }
    let info = detector().detect(text)?;
    if !(info.is_reliable() || info.confidence() >= MIN_CONFIDENCE) {
        return None;
    }
    iso639_1(info.lang())
}

/// The page's language (a code of [`LANGS`]): detected from its text, else declared by its
/// `<html lang>`, else English.
pub(crate) fn page_language(doc: &Doc) -> &'static str {
    detect(&sample(doc))
        .or_else(|| doc.lang.as_deref().and_then(declared))
        .unwrap_or("en")
}

/// A language's stopwords, lower-cased, with only letters and digits kept (as
/// `auto_model`'s word walk sees a word).
pub(crate) struct Stopwords {
    /// Words of at most 8 bytes as `word_key`s in an open-addressing table (linear probing,
    /// 0 marks a free slot; a power of two of slots, at least twice the words).
    table: Box<[u64]>,
    /// `64 - log2(table.len())`: the home slot is the top bits of a Fibonacci hash.
    shift: u32,
    /// Longer words, sorted, and a filter of their (first byte, length) pairs.
    long: Vec<String>,
    long_filter: u64,
    /// CJK: count characters, not words; the single-character stopwords, sorted.
    pub(crate) cjk: bool,
    chars: Vec<char>,
}

/// Fibonacci hashing's multiplier, 2^64/φ.
const PHI: u64 = 0x9E37_79B9_7F4A_7C15;

/// A word of at most 8 bytes as one integer (bytes in order, zero-padded): two such words
/// are equal exactly when their keys are, since words hold no NUL. `None` when longer.
pub(crate) const fn word_key(w: &[u8]) -> Option<u64> {
    if w.len() > 8 {
        return None;
    }
    let mut k = 0u64;
    let mut i = 0;
    while i < w.len() {
        k |= (w[i] as u64) << (56 - 8 * i);
        i += 1;
    }
    Some(k)
}

/// A word of the word walk's (first byte, length) as one bit of a 64-bit filter.
pub(crate) fn len_bit(first: u8, len: usize) -> u64 {
    1 << ((usize::from(first) ^ len.wrapping_mul(7)) & 63)
}

/// A list word as the word walk sees words: letters and digits, lower-cased. `None` for
/// phrases (a walk's word holds no space) and words of no letter or digit.
pub(crate) fn normalize(w: &str) -> Option<String> {
    if w.chars().any(char::is_whitespace) {
        return None;
    }
    let mut n = String::new();
    normalize_into(w, &mut n);
    (!n.is_empty()).then_some(n)
}

/// Appends `w`'s letters and digits, lower-cased, to `out`: [`normalize`]'s and
/// [`looks_english`]'s word form. ASCII words go byte by byte (the same result: see the
/// test `ascii_words_normalize_alike_on_both_paths`), since most words of a crawl are.
fn normalize_into(w: &str, out: &mut String) {
    if w.is_ascii() {
        out.extend(
            w.bytes()
                .filter(u8::is_ascii_alphanumeric)
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
    } else {
        out.extend(
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase),
        );
    }
}

/// Words of `text` as thresholds on an output's length count them: whitespace-separated
/// words, where each Chinese character and each kana is a word of its own (Chinese and
/// Japanese write no spaces, so a paragraph would count as one word; Korean separates its
/// words and counts as written), and a run of Thai, Lao, Khmer or Myanmar a word per five
/// characters begun (alphabetic scripts written without spaces between words; segmenting
/// them by dictionary would cost more than a count needs). Letters and digits next to them
/// in one run of non-space text count one word per run (`iPhone15の発売` is three words).
pub(crate) fn word_count(text: &str) -> usize {
    if text.is_ascii() {
        return text.split_ascii_whitespace().count();
    }
    text.split_whitespace().map(token_words).sum()
}

/// The words of a whitespace-free token that holds Chinese characters, kana or a script of
/// [`is_spaceless_alphabetic`], counted as
/// [`word_count`] counts them; `None` for any other token (one word, as written).
pub(crate) fn spaceless_words(token: &str) -> Option<u32> {
    token
        .chars()
        .any(|c| is_han_or_kana(c) || is_spaceless_alphabetic(c))
        .then(|| token_words(token) as u32)
}

/// Words in one whitespace-free token ([`word_count`]). A run of Thai, Lao, Myanmar or
/// Khmer counts a word per [`SPACELESS_ALPHABETIC_WORD`] characters begun.
fn token_words(token: &str) -> usize {
    let (mut words, mut in_run, mut sea_run) = (0, false, 0usize);
    for c in token.chars() {
        if is_spaceless_alphabetic(c) {
            words += usize::from(sea_run % SPACELESS_ALPHABETIC_WORD == 0);
            sea_run += 1;
            in_run = false;
            continue;
        }
        sea_run = 0;
        if is_han_or_kana(c) {
            words += 1;
            in_run = false;
        } else if c.is_alphanumeric() {
            words += usize::from(!in_run);
            in_run = true;
        } else {
            in_run = false;
        }
    }
    // Punctuation alone ("—", "•") is a word to a whitespace split, as everywhere else.
    words.max(1)
}

impl Stopwords {
    /// The set of `lang` (empty for a code `stop-words` does not know: no panic).
    fn build(lang: &'static str) -> Stopwords {
        let list = stop_words::lookup(lang).unwrap_or(&[]);
        let cjk = CJK_LANGS.contains(&lang);
        let mut words: Vec<String> = list.iter().filter_map(|w| normalize(w)).collect();
        words.sort_unstable();
        words.dedup();
        let mut chars: Vec<char> = Vec::new();
        if cjk {
            chars = words
                .iter()
                .filter_map(|w| {
                    let mut cs = w.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) if is_cjk(c) => Some(c),
                        _ => None,
                    }
                })
                .collect();
            chars.sort_unstable();
            // Counting is by character: the word table and long list stay empty.
            words.clear();
        }
        let (short, long): (Vec<String>, Vec<String>) =
            words.into_iter().partition(|w| w.len() <= 8);
        let slots = (2 * short.len()).next_power_of_two().max(2);
        let shift = 64 - slots.trailing_zeros();
        let mut table = vec![0u64; slots].into_boxed_slice();
        for w in &short {
            let Some(key) = word_key(w.as_bytes()) else {
                continue;
            };
            let mut slot = (key.wrapping_mul(PHI) >> shift) as usize;
            while table[slot] != 0 {
                slot = (slot + 1) & (slots - 1);
            }
            table[slot] = key;
        }
        let long_filter = long
            .iter()
            .fold(0, |f, w| f | len_bit(w.as_bytes()[0], w.len()));
        Stopwords {
            table,
            shift,
            long,
            long_filter,
            cjk,
            chars,
        }
    }

    /// The set of a code of [`LANGS`], built at first use; English's for any other code.
    pub(crate) fn of(lang: &str) -> &'static Stopwords {
        static SETS: [OnceLock<Stopwords>; LANGS.len()] = [const { OnceLock::new() }; LANGS.len()];
        let i = LANGS.iter().position(|&l| l == lang).unwrap_or(0);
        SETS[i].get_or_init(|| Stopwords::build(LANGS[i]))
    }

    /// The set of the page's language ([`page_language`]).
    pub(crate) fn for_page(doc: &Doc) -> &'static Stopwords {
        Stopwords::of(page_language(doc))
    }

    /// Whether `key` (the nonzero [`word_key`] of a normalized word) is a stopword's.
    #[inline]
    pub(crate) fn has_key(&self, key: u64) -> bool {
        let mask = self.table.len() - 1;
        let mut slot = (key.wrapping_mul(PHI) >> self.shift) as usize;
        loop {
            match self.table.get(slot) {
                Some(&k) if k == key => return true,
                Some(&0) | None => return false,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Whether a normalized word of more than 8 bytes might be a stopword (its
    /// [`len_bit`] is in the filter); when not, [`Stopwords::has_long`] need not be asked.
    #[inline]
    pub(crate) fn may_have_long(&self, first: u8, len: usize) -> bool {
        self.long_filter & len_bit(first, len) != 0
    }

    /// Whether a normalized word of more than 8 bytes is a stopword.
    pub(crate) fn has_long(&self, w: &str) -> bool {
        self.long.binary_search_by(|l| l.as_str().cmp(w)).is_ok()
    }

    /// Whether a normalized word is a stopword (any length).
    pub(crate) fn has(&self, w: &str) -> bool {
        match word_key(w.as_bytes()) {
            Some(k) => !w.is_empty() && self.has_key(k),
            None => self.may_have_long(w.as_bytes()[0], w.len()) && self.has_long(w),
        }
    }

    /// Whether `c` is a single-character stopword of a CJK language.
    #[inline]
    pub(crate) fn has_char(&self, c: char) -> bool {
        self.chars.binary_search(&c).is_ok()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_are_counted_per_character_in_chinese_and_japanese() {
        use super::word_count;
        assert_eq!(word_count("  the council  met\ttoday "), 4);
        assert_eq!(word_count("市议会批准了计划。"), 8);
        assert_eq!(word_count("iPhone15の発売 — 2024年"), 1 + 1 + 2 + 1 + 1 + 1);
        assert_eq!(word_count("서울시 의회가 계획을 승인했다"), 4);
        assert_eq!(word_count("Zürich café —"), 3);
        assert_eq!(word_count(""), 0);
    }

    proptest::proptest! {
        #[test]
        fn a_word_count_lies_between_the_tokens_and_the_characters(
            text in "(([a-z]{1,6}|[日本語]{1,4}|[กขงจทนมยรลวสอะาิี่้]{1,12}|[.,—])[ \\n]?){0,16}",
        ) {
            let tokens = text.split_whitespace().count();
            let chars = text.chars().filter(|c| !c.is_whitespace()).count();
            let n = super::word_count(&text);
            proptest::prop_assert!(tokens <= n && n <= chars, "{} {} {}", tokens, n, chars);
        }
    }

    #[test]
    fn thai_lao_khmer_and_myanmar_count_a_word_per_five_characters() {
        use super::word_count;
        // สภา|เมือง|อนุมัติ|แผน|แล้ว ("the city council has approved the plan"): five
        // words in 22 characters.
        assert_eq!(word_count("สภาเมืองอนุมัติแผนแล้ว"), 5);
        // ภาษา|ไทย|เป็น|ภาษา|ราชการ|ของ|ประเทศ|ไทย: eight words, 33 characters, 7.
        assert_eq!(word_count("ภาษาไทยเป็นภาษาราชการของประเทศไทย"), 7);
        // A space ends a Thai phrase; Latin letters and digits beside it are words as ever.
        assert_eq!(word_count("ราคา iPhone15 ถูกลง"), 1 + 1 + 1);
        assert_eq!(word_count("iPhoneราคา"), 1 + 1);
        assert_eq!(word_count("ພາສາລາວ ភាសាខ្មែរ မြန်မာဘာသာ"), 2 + 2 + 2);
        assert_eq!(super::spaceless_words("ไทย"), Some(1));
        assert_eq!(super::spaceless_words("Zürich"), None);
    }

    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_language_has_a_list_and_every_mapping_a_language() {
        for &l in LANGS {
            let words = stop_words::lookup(l).unwrap_or_else(|| panic!("no list for {l}"));
            assert!(words.len() >= 30, "{l}: {}", words.len());
            let s = Stopwords::of(l);
            if s.cjk {
                assert!(s.chars.len() >= 10, "{l}");
            }
        }
        // whatlang's languages map to codes of LANGS only.
        for &lang in whatlang::Lang::all() {
            if let Some(code) = iso639_1(lang) {
                assert!(LANGS.contains(&code), "{lang:?}");
            }
        }
    }

    #[test]
    fn unknown_languages_fall_back_to_english_without_panicking() {
        let en = Stopwords::of("en");
        assert!(std::ptr::eq(Stopwords::of("xx"), en));
        assert!(std::ptr::eq(Stopwords::of(""), en));
        assert!(!std::ptr::eq(Stopwords::of("de"), en));
        let empty = Stopwords::build("not-a-language");
        assert!(!empty.has("the") && !empty.has("verylongword") && !empty.has_char('的'));
        assert_eq!(declared("de-AT"), Some("de"));
        assert_eq!(declared("PT_br"), Some("pt"));
        assert_eq!(declared("nb-NO"), Some("no"));
        assert_eq!(declared("x-klingon"), None);
        assert_eq!(declared(""), None);
        assert_eq!(detect(""), None);
        assert!(looks_english(
            "The council approved the plan on Tuesday, after a long debate, and work on the river starts soon."
        ));
        assert!(!looks_english(
            "Der Gemeinderat hat am Dienstag nach einer langen Debatte den Plan für den Fluss beschlossen."
        ));
        assert!(!looks_english("Home About Contact"));
    }

    #[test]
    fn ascii_words_normalize_alike_on_both_paths() {
        // `normalize_into`'s byte path for ASCII words against its char path, for every
        // ASCII byte: the same characters kept, lower-cased the same way.
        for b in 0u8..128 {
            let c = char::from(b);
            assert_eq!(b.is_ascii_alphanumeric(), c.is_alphanumeric(), "{b}");
            let lower: Vec<char> = c.to_lowercase().collect();
            assert_eq!(lower, [char::from(b.to_ascii_lowercase())], "{b}");
        }
    }

    #[test]
    fn tables_agree_with_the_plain_set() {
        for &l in LANGS {
            let s = Stopwords::of(l);
            let set: HashSet<String> = stop_words::lookup(l)
                .unwrap_or(&[])
                .iter()
                .filter_map(|w| normalize(w))
                .collect();
            if s.cjk {
                for w in &set {
                    let mut cs = w.chars();
                    if let (Some(c), None) = (cs.next(), cs.next()) {
                        assert_eq!(s.has_char(c), is_cjk(c), "{l} {c}");
                    }
                }
                continue;
            }
            for w in &set {
                assert!(s.has(w), "{l} {w}");
                // Neighbours: one letter more, one less.
                for n in [format!("{w}q"), w.chars().skip(1).collect::<String>()] {
                    if !n.is_empty() {
                        assert_eq!(s.has(&n), set.contains(&n), "{l} {n}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_page_language_is_detected_else_declared_else_english() {
        let page = |lang: &str, body: &str| {
            Doc::parse(&format!(
                "<html lang={lang}><body><nav><a href=/>Startseite Impressum Datenschutz</a></nav><p>{body}</p></body></html>"
            ))
        };
        let de = "Der Gemeinderat hat am Dienstag nach einer langen Debatte den Plan für den Fluss beschlossen, und die Arbeiten sollen noch in diesem Jahr beginnen.";
        assert_eq!(page_language(&page("en", de)), "de");
        let ru = "Городской совет во вторник после долгих дебатов утвердил план по реке, и работы должны начаться уже в этом году.";
        assert_eq!(page_language(&page("de", ru)), "ru");
        let zh = "市议会在经过长时间的辩论之后，于星期二批准了这条河的计划，工程将在今年开始。";
        assert_eq!(page_language(&page("en", zh)), "zh");
        // Too little text to detect: the declared language, else English.
        assert_eq!(page_language(&page("fr-FR", "Oui.")), "fr");
        assert_eq!(page_language(&page("tlh", "Oui.")), "en");
    }
}
