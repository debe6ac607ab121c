//! Writing systems, as far as measuring text needs them: which characters belong to the
//! scripts written without spaces between words (Chinese characters and Japanese kana; Thai,
//! Lao, Khmer and Myanmar, alphabetic), and how much text a character stands for.
//!
//! Every length threshold and length feature of the extraction methods was set on
//! alphabetic text, where a word is about five letters and a space. Chinese says in one
//! character what English says in three to four (a text of 1,000 Chinese characters
//! translates into 600 to 700 English words, about 3,600 to 4,200 characters), Japanese in
//! two to three, Korean in about two per syllable block (its words are spaced: "서울시 의회가
//! 계획을 승인했다", 16 characters, is "Seoul city council approved the plan", 36). Counted
//! as plain characters, a Chinese paragraph looks like an English caption and a Chinese
//! page like one a third of its size. [`width`] counts text in alphabetic-character units
//! instead, so the same thresholds read all scripts alike.

/// Chinese characters and Japanese kana: scripts written without spaces between words.
pub(crate) fn is_han_or_kana(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{F900}'..='\u{FAFF}') // CJK Compatibility Ideographs
}

/// Thai, Lao, Myanmar and Khmer letters and signs: scripts written without spaces between
/// words too (a space ends a phrase or a sentence), but alphabetic, a word being several
/// characters (about four to six in Thai, its signs included), as in English.
pub(crate) fn is_spaceless_alphabetic(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}' // Thai, Lao
        | '\u{1000}'..='\u{109F}' // Myanmar
        | '\u{1780}'..='\u{17FF}') // Khmer
}

/// Characters per word in a run of [`is_spaceless_alphabetic`] text (Thai averages four to
/// six, vowel and tone signs included).
pub(crate) const SPACELESS_ALPHABETIC_WORD: usize = 5;

/// Hangul syllable blocks (Korean).
pub(crate) fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7AF}').contains(&c)
}

/// Chinese, Japanese and Korean characters.
pub(crate) fn is_cjk(c: char) -> bool {
    is_han_or_kana(c) || is_hangul(c)
}

/// The width of a Chinese character or kana in alphabetic characters (see the module
/// comment: three, the lower end of Chinese and the upper end of Japanese).
pub(crate) const HAN_WIDTH: u32 = 3;

/// The width of a Hangul syllable block in alphabetic characters.
pub(crate) const HANGUL_WIDTH: u32 = 2;

/// How much text `c` stands for, in characters of an alphabetic script: [`HAN_WIDTH`] for a
/// Chinese character or kana, [`HANGUL_WIDTH`] for a Hangul syllable, 1 for anything else.
#[inline]
pub(crate) fn width(c: char) -> u32 {
    // Everything below U+3040 (all alphabetic scripts, punctuation, symbols) is one.
    if c < '\u{3040}' {
        1
    } else if is_han_or_kana(c) {
        HAN_WIDTH
    } else if is_hangul(c) {
        HANGUL_WIDTH
    } else {
        1
    }
}

/// The [`width`] of a text.
pub(crate) fn text_width(text: &str) -> u32 {
    if text.is_ascii() {
        return text.len() as u32;
    }
    text.chars().map(width).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_is_about_as_wide_in_every_script() {
        let en = text_width("The city council approved the plan.");
        let zh = text_width("市议会批准了该计划。");
        let ja = text_width("市議会はその計画を承認した。");
        let ko = text_width("시의회가 그 계획을 승인했다.");
        assert_eq!(en, 35);
        assert_eq!(zh, 9 * HAN_WIDTH + 1);
        for (name, w) in [("zh", zh), ("ja", ja), ("ko", ko)] {
            assert!(
                (en * 2 / 3..=en * 3 / 2).contains(&w),
                "{name}: {w} against {en}"
            );
        }
        // Plain characters would make them a third to a half of the English.
        assert!("市议会批准了该计划。".chars().count() * 3 < en as usize);
    }

    #[test]
    fn only_cjk_characters_are_wider_than_one() {
        for c in ['a', 'é', 'ß', 'я', 'ع', 'ก', '—', '。', '！', '\u{303F}'] {
            assert_eq!(width(c), 1, "{c}");
        }
        assert_eq!(width('の'), HAN_WIDTH);
        assert_eq!(width('ア'), HAN_WIDTH);
        assert_eq!(width('語'), HAN_WIDTH);
        assert_eq!(width('한'), HANGUL_WIDTH);
        assert_eq!(text_width(""), 0);
        assert_eq!(text_width("plain"), 5);
    }
}
