//! Precision, recall and F1 of one prediction against one gold text, five ways.
//!
//! The items (seed 004, section 3) and their intersections (section 4.2):
//!
//! | [`Measure`] | items | intersection |
//! |---|---|---|
//! | `chars` | characters of the normalised text | LCS |
//! | `words_seq` | the word sequence | LCS |
//! | `bag` | the bag (multiset) of words | Σ min(count in gold, count in prediction) |
//! | `set` | the set of words | set intersection |
//! | `shingles` | the bag of word 4-grams (ScrapingHub benchmark; not in the seed) | as `bag` |
//!
//! A text with fewer than four words is one shingle (the whole word tuple); an empty text
//! has none. Empty gold or empty prediction follow `score.py`'s `prf` (see [`prf`]).
//!
//! [`GoldText`] prepares a gold text once (normalisation, word ids, counts, shingles) so
//! that scoring the same page for many methods pays for the gold only once.

use std::collections::HashMap;

use serde::Serialize;

use super::lcs::lcs_len_ids;
use super::normalize::{normalize, words};

/// The five measures, in the order of every table and TSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    Chars,
    WordsSeq,
    Bag,
    Set,
    Shingles,
}

impl Measure {
    pub const ALL: [Measure; 5] = [
        Measure::Chars,
        Measure::WordsSeq,
        Measure::Bag,
        Measure::Set,
        Measure::Shingles,
    ];

    /// The name `score.py` uses (`chars`, `words_seq`, `bag`, `set`, `shingles`).
    pub fn name(self) -> &'static str {
        match self {
            Measure::Chars => "chars",
            Measure::WordsSeq => "words_seq",
            Measure::Bag => "bag",
            Measure::Set => "set",
            Measure::Shingles => "shingles",
        }
    }

    /// Parse a name as printed by [`Measure::name`].
    pub fn from_name(name: &str) -> Option<Measure> {
        Measure::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Precision, recall and F1 of one measure on one page.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Prf {
    pub p: f64,
    pub r: f64,
    pub f1: f64,
}

/// `score.py`'s `prf`: from the size of the intersection and of both item collections.
///
/// * empty gold and empty prediction: P = R = F1 = 1 (nothing to find, nothing found);
/// * otherwise, if either is empty or nothing is shared: P = 0 unless the prediction is
///   empty (then 1), R = 0 unless the gold is empty (then 1), F1 = 0;
/// * else P = inter/pred, R = inter/gold, F1 = 2PR/(P+R).
///
/// ```
/// use warcsift::eval::measures::{prf, Prf};
/// assert_eq!(prf(0, 0, 0), Prf { p: 1.0, r: 1.0, f1: 1.0 });
/// assert_eq!(prf(0, 0, 10), Prf { p: 1.0, r: 0.0, f1: 0.0 });
/// assert_eq!(prf(0, 10, 0), Prf { p: 0.0, r: 1.0, f1: 0.0 });
/// assert_eq!(prf(5, 10, 5), Prf { p: 0.5, r: 1.0, f1: 2.0 / 3.0 });
/// ```
pub fn prf(inter: usize, n_pred: usize, n_gold: usize) -> Prf {
    if n_gold == 0 && n_pred == 0 {
        return Prf {
            p: 1.0,
            r: 1.0,
            f1: 1.0,
        };
    }
    if n_gold == 0 || n_pred == 0 || inter == 0 {
        let p = if n_pred > 0 { 0.0 } else { 1.0 };
        let r = if n_gold > 0 { 0.0 } else { 1.0 };
        return Prf { p, r, f1: 0.0 };
    }
    let p = inter as f64 / n_pred as f64;
    let r = inter as f64 / n_gold as f64;
    Prf {
        p,
        r,
        f1: 2.0 * p * r / (p + r),
    }
}

/// The five [`Prf`] of one page, indexed by [`Measure`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Scores(pub [Prf; 5]);

impl Scores {
    pub fn get(&self, m: Measure) -> Prf {
        self.0[m as usize]
    }
}

/// A word shingle: up to four word ids, shorter only for a text of fewer than four words.
type Shingle = [u32; 4];
const NO_WORD: u32 = u32::MAX;

/// Dense ids for characters: a table for ASCII (most characters of most pages), a hash
/// map for the rest.
#[derive(Debug, Clone)]
struct CharIds {
    ascii: [u32; 128],
    other: HashMap<char, u32>,
    len: u32,
}

impl Default for CharIds {
    fn default() -> CharIds {
        CharIds {
            ascii: [u32::MAX; 128],
            other: HashMap::new(),
            len: 0,
        }
    }
}

impl CharIds {
    fn intern(&mut self, c: char) -> u32 {
        let next = self.len;
        let id = match self.ascii.get_mut(c as usize) {
            Some(slot) => {
                if *slot == u32::MAX {
                    *slot = next;
                }
                *slot
            }
            None => *self.other.entry(c).or_insert(next),
        };
        if id == next {
            self.len += 1;
        }
        id
    }

    fn get(&self, c: char) -> Option<u32> {
        match self.ascii.get(c as usize) {
            Some(&id) => (id != u32::MAX).then_some(id),
            None => self.other.get(&c).copied(),
        }
    }
}

/// A normalised gold text, ready to score any number of predictions against.
#[derive(Debug, Clone)]
pub struct GoldText {
    /// Characters, as dense ids (`0..char_ids.len`).
    chars: Vec<u32>,
    char_ids: CharIds,
    /// Words as ids `0..vocab.len()`.
    words: Vec<u32>,
    vocab: HashMap<String, u32>,
    /// Occurrences of each word id.
    word_counts: Vec<u32>,
    shingles: HashMap<Shingle, u32>,
    n_shingles: usize,
}

impl GoldText {
    /// Normalise and index `gold`.
    pub fn new(gold: &str) -> GoldText {
        let norm = normalize(gold);
        let mut char_ids = CharIds::default();
        let chars = norm.chars().map(|c| char_ids.intern(c)).collect();
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let mut word_counts = Vec::new();
        let words: Vec<u32> = words(&norm)
            .into_iter()
            .map(|w| {
                let id = match vocab.get(w) {
                    Some(&id) => id,
                    None => {
                        let id = vocab.len() as u32;
                        vocab.insert(w.to_owned(), id);
                        word_counts.push(0);
                        id
                    }
                };
                word_counts[id as usize] += 1;
                id
            })
            .collect();
        let mut shingles = HashMap::new();
        let mut n_shingles = 0;
        for s in shingles_of(&words) {
            *shingles.entry(s).or_insert(0) += 1;
            n_shingles += 1;
        }
        GoldText {
            chars,
            char_ids,
            words,
            vocab,
            word_counts,
            shingles,
            n_shingles,
        }
    }

    /// Number of characters of the normalised gold text.
    pub fn char_len(&self) -> usize {
        self.chars.len()
    }

    /// Number of words of the normalised gold text.
    pub fn word_len(&self) -> usize {
        self.words.len()
    }

    /// Score `pred` (raw text, normalised here) against this gold text.
    pub fn score(&self, pred: &str) -> Scores {
        let norm = normalize(pred);
        // Characters absent from the gold share one id that the gold never uses.
        let absent_char = self.char_ids.len;
        let pred_chars: Vec<u32> = norm
            .chars()
            .map(|c| self.char_ids.get(c).unwrap_or(absent_char))
            .collect();
        let chars = prf(
            lcs_len_ids(&self.chars, &pred_chars),
            pred_chars.len(),
            self.chars.len(),
        );

        // Words absent from the gold share one id too; only the set measure needs to tell
        // them apart (it counts distinct predicted words).
        let absent_word = self.vocab.len() as u32;
        let mut novel: HashMap<&str, ()> = HashMap::new();
        let pred_words: Vec<u32> = words(&norm)
            .into_iter()
            .map(|w| match self.vocab.get(w) {
                Some(&id) => id,
                None => {
                    novel.insert(w, ());
                    absent_word
                }
            })
            .collect();
        let words_seq = prf(
            lcs_len_ids(&self.words, &pred_words),
            pred_words.len(),
            self.words.len(),
        );

        let mut pred_counts = vec![0u32; self.vocab.len()];
        for &w in &pred_words {
            if let Some(n) = pred_counts.get_mut(w as usize) {
                *n += 1;
            }
        }
        let bag_inter: usize = pred_counts
            .iter()
            .zip(&self.word_counts)
            .map(|(&p, &g)| p.min(g) as usize)
            .sum();
        let bag = prf(bag_inter, pred_words.len(), self.words.len());

        let shared = pred_counts.iter().filter(|&&n| n > 0).count();
        let set = prf(shared, shared + novel.len(), self.vocab.len());

        let mut pred_shingles: HashMap<Shingle, u32> = HashMap::new();
        let mut n_pred_shingles = 0;
        for s in shingles_of(&pred_words) {
            n_pred_shingles += 1;
            // A shingle with a word absent from the gold cannot be shared.
            if !s.contains(&absent_word) {
                *pred_shingles.entry(s).or_insert(0) += 1;
            }
        }
        let shingle_inter: usize = pred_shingles
            .iter()
            .map(|(s, &p)| p.min(self.shingles.get(s).copied().unwrap_or(0)) as usize)
            .sum();
        let shingles = prf(shingle_inter, n_pred_shingles, self.n_shingles);

        Scores([chars, words_seq, bag, set, shingles])
    }
}

/// `score.py`'s `shingles(words, k=4)`: every window of four words, or the whole text as
/// one shingle when it has one to three words.
fn shingles_of(words: &[u32]) -> impl Iterator<Item = Shingle> + '_ {
    let short = (!words.is_empty() && words.len() < 4).then(|| {
        let mut s = [NO_WORD; 4];
        s[..words.len()].copy_from_slice(words);
        s
    });
    short
        .into_iter()
        .chain(words.windows(4).map(|w| [w[0], w[1], w[2], w[3]]))
}

/// Score one prediction against one gold text (both raw; normalised here).
///
/// ```
/// use warcsift::eval::measures::{score_pair, Measure};
/// let s = score_pair("The cat sat on the mat.", "the cat sat on a mat");
/// assert_eq!(s.get(Measure::WordsSeq).r, 5.0 / 6.0);
/// assert_eq!(s.get(Measure::Set).p, 5.0 / 6.0);
/// ```
pub fn score_pair(gold: &str, pred: &str) -> Scores {
    GoldText::new(gold).score(pred)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Prf, b: (f64, f64, f64)) -> bool {
        (a.p - b.0).abs() < 1e-12 && (a.r - b.1).abs() < 1e-12 && (a.f1 - b.2).abs() < 1e-12
    }

    #[test]
    fn prf_conventions_match_score_py() {
        assert_eq!(
            prf(0, 0, 0),
            Prf {
                p: 1.0,
                r: 1.0,
                f1: 1.0
            }
        );
        assert_eq!(
            prf(0, 3, 0),
            Prf {
                p: 0.0,
                r: 1.0,
                f1: 0.0
            }
        );
        assert_eq!(
            prf(0, 0, 3),
            Prf {
                p: 1.0,
                r: 0.0,
                f1: 0.0
            }
        );
        assert_eq!(
            prf(0, 3, 3),
            Prf {
                p: 0.0,
                r: 0.0,
                f1: 0.0
            }
        );
        assert_eq!(
            prf(3, 3, 3),
            Prf {
                p: 1.0,
                r: 1.0,
                f1: 1.0
            }
        );
    }

    #[test]
    fn empty_texts() {
        let both = score_pair("", "  ");
        assert!(Measure::ALL.iter().all(|&m| both.get(m)
            == Prf {
                p: 1.0,
                r: 1.0,
                f1: 1.0
            }));
        let no_pred = score_pair("some gold text", "");
        assert!(Measure::ALL.iter().all(|&m| no_pred.get(m)
            == Prf {
                p: 1.0,
                r: 0.0,
                f1: 0.0
            }));
        let no_gold = score_pair("", "a prediction");
        assert!(Measure::ALL.iter().all(|&m| no_gold.get(m)
            == Prf {
                p: 0.0,
                r: 1.0,
                f1: 0.0
            }));
        // Punctuation only: characters but no words.
        let punct = score_pair("...", "...");
        assert_eq!(punct.get(Measure::Chars).f1, 1.0);
        assert_eq!(punct.get(Measure::WordsSeq).f1, 1.0);
    }

    /// Values printed by `score.py`'s `score_pair` (CPython 3.11.7, rapidfuzz 3.14).
    #[test]
    fn worked_example_matches_score_py() {
        let gold = "The cat sat on the mat. The cat was happy.";
        let pred = "Menu | Home\nThe cat sat on a mat. The dog was happy! &copy; 2024";
        let s = score_pair(gold, pred);
        assert!(
            close(
                s.get(Measure::Chars),
                (0.5932203389830508, 0.8333333333333334, 0.6930693069306931)
            ),
            "{:?}",
            s.get(Measure::Chars)
        );
        assert!(
            close(
                s.get(Measure::WordsSeq),
                (0.6153846153846154, 0.8, 0.6956521739130435)
            ),
            "{:?}",
            s.get(Measure::WordsSeq)
        );
        assert!(
            close(
                s.get(Measure::Bag),
                (0.6153846153846154, 0.8, 0.6956521739130435)
            ),
            "{:?}",
            s.get(Measure::Bag)
        );
        assert!(
            close(
                s.get(Measure::Set),
                (0.5833333333333334, 1.0, 0.7368421052631579)
            ),
            "{:?}",
            s.get(Measure::Set)
        );
        assert!(
            close(
                s.get(Measure::Shingles),
                (0.1, 0.14285714285714285, 0.11764705882352941)
            ),
            "{:?}",
            s.get(Measure::Shingles)
        );
    }

    #[test]
    fn short_texts_are_one_shingle() {
        let s = score_pair("hello world", "hello world");
        assert_eq!(
            s.get(Measure::Shingles),
            Prf {
                p: 1.0,
                r: 1.0,
                f1: 1.0
            }
        );
        let s = score_pair("hello world", "hello big world");
        assert_eq!(s.get(Measure::Shingles).f1, 0.0);
        // Repeated shingles count as a bag, not a set.
        let s = score_pair("a b c d a b c d", "a b c d");
        assert_eq!(s.get(Measure::Shingles), prf(1, 1, 5));
    }

    #[test]
    fn measure_names_round_trip() {
        for m in Measure::ALL {
            assert_eq!(Measure::from_name(m.name()), Some(m));
        }
    }
}
