//! `auto`'s blocks and the rules' decision over them: what the rules
//! ([`super::auto`]) hand to the learned model ([`super::auto_model`]), below both so that
//! data flows one way (rules → decision → model).

use crate::doc::Doc;
use crate::page_type::PageType;
use crate::tokenize::Tag;

/// A block this long counts as prose (see `auto`'s `prose_chars`).
const PROSE_MIN_CHARS: u32 = 80;

/// A block of `chars` characters, `link` of them in links, is prose: long, link quota under 0.3.
pub(crate) fn is_prose(chars: u32, link: u32) -> bool {
    chars >= PROSE_MIN_CHARS && link * 10 < chars * 3
}

/// What `auto`'s rules decided for a page (shared by `select`, `explain` and the learned
/// model's features in [`super::auto_model`]).
pub(crate) struct Decision {
    pub(crate) blocks: Blocks,
    /// The rules' verdict per block (before `--comments` adds comment sections).
    pub(crate) keep_block: Vec<bool>,
    /// Per element: inside the chosen container or one of its kept siblings.
    pub(crate) in_region: Vec<bool>,
    /// Per element: inside an item of the page's item grid (`auto`'s `item_grid`), found on
    /// every page type; the rules read it only on listings and collections, the learned
    /// model everywhere (a shop's product cards, a thread's posts, a search result list).
    pub(crate) in_grid: Vec<bool>,
    /// Per element: its container score (scaled by link density and declared words).
    pub(crate) score: Vec<f64>,
    /// Per element: prose characters in its subtree (`auto`'s `prose_chars`).
    pub(crate) prose: Vec<u32>,
    /// Per element: its declared role words (the low byte of [`super::auto_words::element_ident_bits`]).
    pub(crate) roles: Vec<u8>,
    /// Per element: all its [`super::auto_words::ident_bits`] ([`super::auto_words::element_ident_bits`]; `roles` is the low byte).
    pub(crate) ident_bits: Vec<u16>,
    /// The best container and its score.
    pub(crate) best: Option<usize>,
    pub(crate) best_score: f64,
    /// Whether the region was used (else the page-wide fallback classifier decided).
    pub(crate) use_region: bool,
    /// Share of the unpruned non-link text that lies in the region.
    pub(crate) region_share: f64,
    /// The page's type, as [`crate::page_type::classify`] found it.
    pub(crate) page_type: PageType,
}

/// How many unpruned blocks before the article [`Blocks::title_before`] looks at.
const TITLE_LOOKBACK: usize = 3;

/// Outside the chosen container, a block this long and nearly link-free is still kept.
const OUTSIDE_MIN_CHARS: u32 = 200;

/// A block: consecutive segments with the same `block` number.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub(crate) segs: std::ops::Range<usize>,
    pub(crate) chars: u32,
    pub(crate) link_chars: u32,
    pub(crate) commas: u32,
    /// Nearest block-level element holding the block's first segment.
    pub(crate) container: u32,
    pub(crate) heading: bool,
    /// All its segments lie in pruned subtrees.
    pub(crate) bad: bool,
}

pub(crate) struct Blocks {
    pub(crate) list: Vec<Block>,
    /// Segment lies in a pruned subtree.
    pub(crate) seg_bad: Vec<bool>,
}

impl Blocks {
    pub(crate) fn build(doc: &Doc, bad: &[bool], card: &[bool], keep_tables: bool) -> Blocks {
        // Nearest block-level ancestor-or-self, and whether inside a heading / table.
        let n = doc.elements.len();
        let mut block_el = vec![0u32; n];
        let mut heading = vec![false; n];
        let mut table = vec![false; n];
        for (i, e) in doc.elements.iter().enumerate().skip(1) {
            let p = e.parent as usize;
            block_el[i] = if e.tag.is_block() && !matches!(e.tag, Tag::Br) {
                i as u32
            } else {
                block_el[p]
            };
            heading[i] = heading[p] || e.tag.is_heading();
            table[i] = table[p] || e.tag == Tag::Table;
        }
        let seg_bad: Vec<bool> = doc
            .segments
            .iter()
            .map(|s| {
                s.hidden || bad[s.element as usize] || (!keep_tables && table[s.element as usize])
            })
            .collect();
        let mut list: Vec<Block> = Vec::new();
        for (i, s) in doc.segments.iter().enumerate() {
            let same = list
                .last()
                .is_some_and(|b| doc.segments[b.segs.start].block == s.block);
            if !same {
                list.push(Block {
                    segs: i..i,
                    chars: 0,
                    link_chars: 0,
                    commas: 0,
                    container: block_el[s.element as usize],
                    heading: heading[s.element as usize],
                    bad: true,
                });
            }
            let Some(b) = list.last_mut() else { continue };
            b.segs.end = i + 1;
            if seg_bad[i] {
                continue;
            }
            b.bad = false;
            b.chars += s.chars;
            if s.link && !card[s.element as usize] {
                b.link_chars += s.chars;
            }
            b.commas += clause_marks(doc.seg_text(s));
        }
        Blocks { list, seg_bad }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.iter().all(|b| b.bad)
    }

    /// Long, link-free paragraphs just outside the container are content too (an article
    /// split over several table cells or columns): a block of at least [`OUTSIDE_MIN_CHARS`]
    /// with a link quota under 0.2 joins when the nearest long block before or after it
    /// (shorter blocks in between are skipped) is kept, repeatedly, so a run of them joins
    /// as one. A lone disclaimer or teaser far from the article stays out.
    pub(crate) fn extend_outside(&self, keep: &mut [bool], anywhere: bool) {
        let long = |b: &Block| !b.bad && b.chars >= PROSE_MIN_CHARS;
        let candidate =
            |b: &Block| long(b) && b.chars >= OUTSIDE_MIN_CHARS && b.link_chars * 5 < b.chars;
        if anywhere {
            for (k, b) in self.list.iter().enumerate() {
                keep[k] |= candidate(b);
            }
            return;
        }
        // Forward then backward sweeps carry "the previous long block is kept" along runs.
        let mut prev_kept = false;
        for (kept, b) in keep.iter_mut().zip(&self.list) {
            if long(b) {
                *kept |= prev_kept && candidate(b);
                prev_kept = *kept;
            }
        }
        let mut next_kept = false;
        for (kept, b) in keep.iter_mut().zip(&self.list).rev() {
            if long(b) {
                *kept |= next_kept && candidate(b);
                next_kept = *kept;
            }
        }
    }

    /// The article's title often sits just above its container (a page header's `<h1>`, a
    /// `date-header` then an `entry-header`): the nearest heading among the few unpruned
    /// blocks before the first kept one joins, if it is not a link list.
    pub(crate) fn title_before(&self, keep: &mut [bool]) {
        let Some(first) = keep.iter().position(|&k| k) else {
            return;
        };
        let before = self.list[..first]
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, b)| !b.bad && b.chars > 0)
            .take(TITLE_LOOKBACK);
        for (k, b) in before {
            if b.heading {
                if b.link_chars * 2 < b.chars {
                    keep[k] = true;
                }
                break;
            }
        }
    }

    /// jusText-style context: short blocks are kept only between kept long blocks.
    pub(crate) fn neighbourhood(&self, keep: &mut [bool]) {
        let long: Vec<bool> = self.list.iter().map(|b| b.chars >= 80).collect();
        let snapshot = keep.to_vec();
        for k in 0..keep.len() {
            if !snapshot[k] || long[k] {
                continue;
            }
            let prev = (0..k)
                .rev()
                .find(|&j| !self.list[j].bad && self.list[j].chars > 0);
            let next = (k + 1..keep.len()).find(|&j| !self.list[j].bad && self.list[j].chars > 0);
            let good = |j: Option<usize>| j.is_some_and(|j| snapshot[j] && long[j]);
            keep[k] = good(prev) || good(next);
        }
    }
}

/// The commas of scripts other than Latin's `,`: Mozilla Readability's set
/// (`REGEXPS.commas` in Readability.js: the Arabic comma, the small and vertical
/// presentation forms, the reversed, raised and turned commas, the full-width comma), the
/// ideographic comma and its half-width form (Chinese, Japanese), the Ethiopic comma and
/// Myanmar's little section mark.
const COMMAS: [char; 12] = [
    '\u{060C}', '\u{FE50}', '\u{FE10}', '\u{FE11}', '\u{2E41}', '\u{2E34}', '\u{2E32}', '\u{FF0C}',
    '\u{3001}', '\u{FF64}', '\u{1363}', '\u{104A}',
];

/// The full stops of scripts other than Latin's `.`: the ideographic full stop and its
/// half-width form, the danda and double danda (Hindi, Bengali, Marathi, Nepali), the Urdu,
/// Armenian and Ethiopic full stops, Myanmar's great section mark and the Khmer khan. They
/// end a sentence for the model's `ends_punct` too.
pub(super) const FULL_STOPS: [char; 9] = [
    '\u{3002}', '\u{FF61}', '\u{0964}', '\u{0965}', '\u{06D4}', '\u{0589}', '\u{1362}', '\u{104B}',
    '\u{17D4}',
];

/// The lowest of [`COMMAS`] and [`FULL_STOPS`] (a test holds it so): Latin, Greek and
/// Cyrillic letters, which most non-ASCII text is made of, are below it and skip the lookup.
const CLAUSE_MARKS_FROM: char = '\u{0589}';

/// Whether `c` is one of [`COMMAS`] or [`FULL_STOPS`].
fn is_clause_mark(c: char) -> bool {
    COMMAS.contains(&c) || FULL_STOPS.contains(&c)
}

/// Commas and full stops in `text` (`,` `.`, [`COMMAS`], [`FULL_STOPS`]): a byte count, with a
/// second pass only for text that is not ASCII. Readability's content score counts the
/// commas of every script alike ("Commas as used in Latin, Sindhi, Chinese and various
/// other scripts"); a paragraph of Arabic, Persian or Hindi prose whose commas or full stops
/// went uncounted would score as a list of short items does.
fn clause_marks(text: &str) -> u32 {
    let ascii = text
        .as_bytes()
        .iter()
        .filter(|&&c| c == b',' || c == b'.')
        .count();
    let other = if text.is_ascii() {
        0
    } else {
        text.chars()
            .filter(|&c| c >= CLAUSE_MARKS_FROM && is_clause_mark(c))
            .count()
    };
    (ascii + other) as u32
}

/// [`clause_marks`]' obvious twin, one char at a time.
#[cfg(test)]
fn clause_marks_slow(text: &str) -> u32 {
    text.chars()
        .filter(|&c| matches!(c, ',' | '.') || is_clause_mark(c))
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn clause_marks_match_the_slow_twin(
            text in "[a-z ,.，、。日本\u{FF0B}\u{3003}،।۔\u{FE50}\u{2E41}\u{104B}ءह]{0,40}"
        ) {
            prop_assert_eq!(clause_marks(&text), clause_marks_slow(&text));
        }
    }

    #[test]
    fn commas_and_full_stops_count_in_every_script() {
        // Arabic: two Arabic commas and a full stop.
        assert_eq!(clause_marks("قال الوزير، في بيان رسمي، إن الخطة ستنفذ."), 3);
        // Hindi: a comma and two dandas.
        assert_eq!(
            clause_marks("परिषद ने योजना को मंजूरी दी, और काम शुरू हुआ। यह अच्छा है।"),
            3
        );
        // Urdu's full stop, Chinese and Japanese marks, half-width ones.
        assert_eq!(clause_marks("یہ منصوبہ منظور ہوا۔"), 1);
        assert_eq!(clause_marks("市议会批准了计划，工作开始了。"), 2);
        assert_eq!(clause_marks("ｶﾀｶﾅ､ｶﾀｶﾅ｡"), 2);
        // Not clause marks, as `?`, `;` and `:` are not: the Arabic question mark and
        // semicolon, a colon.
        assert_eq!(clause_marks("لماذا؟ لأن؛ هكذا: نعم"), 0);
        for c in COMMAS.iter().chain(&FULL_STOPS) {
            assert_eq!(clause_marks(&c.to_string()), 1, "{c:?}");
        }
        assert_eq!(
            COMMAS.iter().chain(&FULL_STOPS).min(),
            Some(&CLAUSE_MARKS_FROM)
        );
    }
}
