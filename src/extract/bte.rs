//! BTE: Body Text Extraction (Finn, Kushmerick & Smyth, 2001), as summarised in seed
//! `004_7b1a98a2e37a7735.txt`, section 5.2.
//!
//! The page is a sequence of `N` tokens `B_n`: every tag is a token with `B_n = 1`, every word
//! of the text a token with `B_n = 0` (section 5.2). BTE assumes the main content is one
//! continuous run of text with few tags and looks for the two tokens `i ≤ j` maximising
//!
//! ```text
//! T(i, j) = Σ_{n < i} B_n  +  Σ_{i ≤ n ≤ j} (1 − B_n)  +  Σ_{n > j} B_n
//! ```
//!
//! i.e. tags before `i`, plus words inside `[i, j]`, plus tags after `j`. The equation was lost
//! in the seed's conversion; this is Finn et al.'s original objective, which the seed's prose
//! ("the number of text tokens between i and j and the number of tag tokens outside i and j is
//! maximal") describes exactly. The text segments inside `[i, j]` are kept.
//!
//! **Linear time.** `T(i, j) = (all tags) + Σ_{i ≤ n ≤ j} v_n` with `v_n = +1` for a word and
//! `v_n = −1` for a tag, so maximising `T` is the maximum-sum subarray of `v`, solved in one
//! pass with Kadane's algorithm ([`best_range`]) instead of a search over all pairs `(i, j)`
//! (O(N²) with prefix sums, O(N³) counting directly); a property test checks Kadane against
//! the direct search on random token sequences (same optimal `T`; ties may pick another
//! range).
//!
//! The token view is [`Doc::units`] (script, style, comments and the `<head>` are already
//! removed, as Finn et al. do); text units are split into words at whitespace. The same
//! word/tag sequence feeds DSC ([`super::dsc`]) and CCB ([`super::accb_ccb`]), see
//! [`word_tag_tokens`].
//!
//! Deliberate differences: hidden text (`hidden`, `display:none`) contributes no word token
//! (it is not visible and never rendered; as words it would pull `[i, j]` towards invisible
//! menus); `<html>`, `<head>` and `<body>` tags and stray end tags are not tokens (the
//! features stage drops them, which shifts `T` by a constant and changes nothing).

use super::{Explanation, Method};
use crate::doc::{Doc, UnitKind};
use crate::tokenize::Tag;

/// `seg` value of a tag token.
pub const NO_SEGMENT: u32 = u32::MAX;

/// The page as word and tag tokens (the data structure of BTE, DSC and CCB).
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    /// `true` for a tag token (`B_n = 1`), `false` for a word.
    pub is_tag: Vec<bool>,
    /// The segment a word belongs to, [`NO_SEGMENT`] for tags.
    pub seg: Vec<u32>,
    /// Characters a token stands for: a word's characters plus the space that follows it
    /// inside its segment; a tag's estimated source length (see [`tag_chars`]).
    pub chars: Vec<u32>,
}

impl Tokens {
    pub fn len(&self) -> usize {
        self.is_tag.len()
    }

    pub fn is_empty(&self) -> bool {
        self.is_tag.is_empty()
    }

    fn push(&mut self, is_tag: bool, seg: u32, chars: u32) {
        self.is_tag.push(is_tag);
        self.seg.push(seg);
        self.chars.push(chars);
    }
}

/// Estimated characters of a tag in the source: `<name>` or `</name>`. The features stage
/// keeps no source spans, so attributes are not counted (a lower bound).
pub fn tag_chars(kind: UnitKind, tag: Tag) -> u32 {
    let name = match tag {
        // Unknown names are not kept; custom elements are typically a few characters.
        Tag::Other => 3,
        t => t.name().len() as u32,
    };
    match kind {
        UnitKind::Close => name + 3,
        _ => name + 2,
    }
}

/// The word/tag token sequence of `doc`. With `anchors_are_code == false`, `<a>` and `</a>`
/// are left out (ACCB's adaptation); their text still yields words.
pub fn word_tag_tokens(doc: &Doc, anchors_are_code: bool) -> Tokens {
    let mut t = Tokens::default();
    for u in &doc.units {
        match u.kind {
            UnitKind::Open | UnitKind::Close => {
                if anchors_are_code || u.tag != Tag::A {
                    t.push(true, NO_SEGMENT, tag_chars(u.kind, u.tag));
                }
            }
            UnitKind::Text => {
                let Some(s) = doc.segments.get(u.index as usize) else {
                    continue;
                };
                if s.hidden {
                    continue;
                }
                let mut words = doc.seg_text(s).split_whitespace().peekable();
                while let Some(w) = words.next() {
                    let space = u32::from(words.peek().is_some());
                    t.push(false, u.index, w.chars().count() as u32 + space);
                }
            }
        }
    }
    t
}

/// Segments whose tokens are mostly kept: `kept[k]` of `total[k]` (words or characters) of
/// token `k` are kept; a segment is kept when strictly more than half of its total is.
pub fn keep_by_majority(doc: &Doc, tokens: &Tokens, kept: &[u32], total: &[u32]) -> Vec<bool> {
    let n = doc.segments.len();
    let mut k = vec![0u64; n];
    let mut all = vec![0u64; n];
    for ((&seg, &kk), &tt) in tokens.seg.iter().zip(kept).zip(total) {
        if let (Some(a), Some(b)) = (k.get_mut(seg as usize), all.get_mut(seg as usize)) {
            *a += u64::from(kk);
            *b += u64::from(tt);
        }
    }
    k.iter()
        .zip(&all)
        .map(|(&a, &b)| b > 0 && 2 * a > b)
        .collect()
}

/// Kadane's maximum-sum subarray over `+1` (word) / `−1` (tag): the inclusive token range
/// `[i, j]` maximising `T(i, j)`, the first one on ties. `None` for no tokens.
pub fn best_range(is_tag: &[bool]) -> Option<(usize, usize)> {
    let mut best: Option<(i64, usize, usize)> = None;
    let (mut cur, mut start) = (0i64, 0usize);
    for (n, &tag) in is_tag.iter().enumerate() {
        let v = if tag { -1 } else { 1 };
        if cur <= 0 {
            cur = v;
            start = n;
        } else {
            cur += v;
        }
        if best.is_none_or(|(b, _, _)| cur > b) {
            best = Some((cur, start, n));
        }
    }
    best.map(|(_, i, j)| (i, j))
}

/// `T(i, j)`: tags before `i`, words in `[i, j]`, tags after `j` (by direct counting).
pub fn objective(is_tag: &[bool], i: usize, j: usize) -> usize {
    is_tag
        .iter()
        .enumerate()
        .filter(|&(n, &tag)| if n < i || n > j { tag } else { !tag })
        .count()
}

/// Body Text Extraction.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bte;

/// BTE, as `--algorithm` lists it.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![Box::new(Bte)]
}

impl Bte {
    /// The tokens and the optimal range `[i, j]` (inclusive).
    pub fn analyse(&self, doc: &Doc) -> (Tokens, Option<(usize, usize)>) {
        let tokens = word_tag_tokens(doc, true);
        let range = best_range(&tokens.is_tag);
        (tokens, range)
    }
}

impl Method for Bte {
    fn name(&self) -> &'static str {
        "bte"
    }

    fn describe(&self) -> &'static str {
        "BTE: one text run maximising tags outside + words inside, as a linear max-sum subarray (seed 004 §5.2; Finn et al. 2001)"
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let (tokens, range) = self.analyse(doc);
        let Some((i, j)) = range else {
            return vec![false; doc.segments.len()];
        };
        let kept: Vec<u32> = (0..tokens.len())
            .map(|n| u32::from(n >= i && n <= j))
            .collect();
        let total = vec![1u32; tokens.len()];
        keep_by_majority(doc, &tokens, &kept, &total)
    }

    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let (tokens, range) = self.analyse(doc);
        let (i, j) = range?;
        let mut value = Vec::with_capacity(tokens.len());
        let mut tags = Vec::with_capacity(tokens.len());
        let mut running = Vec::with_capacity(tokens.len());
        let (mut t, mut r) = (0.0, 0.0);
        for &tag in &tokens.is_tag {
            let v = if tag { -1.0 } else { 1.0 };
            if tag {
                t += 1.0;
            }
            r += v;
            value.push(v);
            tags.push(t);
            running.push(r);
        }
        Some(Explanation {
            unit: "token",
            columns: vec![
                ("word +1 / tag -1".into(), value),
                ("cumulative tags".into(), tags),
                ("running sum of +1/-1".into(), running),
            ],
            plot: vec![1, 2],
            thresholds: Vec::new(),
            kept: (0..tokens.len()).map(|n| n >= i && n <= j).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;
    use proptest::prelude::*;

    fn naive_best(is_tag: &[bool]) -> Option<usize> {
        let n = is_tag.len();
        (0..n)
            .flat_map(|i| (i..n).map(move |j| (i, j)))
            .map(|(i, j)| objective(is_tag, i, j))
            .max()
    }

    proptest! {
        #[test]
        fn kadane_matches_naive_search(is_tag in proptest::collection::vec(any::<bool>(), 0..48)) {
            let fast = best_range(&is_tag).map(|(i, j)| {
                assert!(i <= j && j < is_tag.len());
                objective(&is_tag, i, j)
            });
            prop_assert_eq!(fast, naive_best(&is_tag));
        }

        #[test]
        fn kadane_matches_naive_on_tag_heavy_pages(
            is_tag in proptest::collection::vec(prop::bool::weighted(0.8), 1..64)
        ) {
            let (i, j) = best_range(&is_tag).unwrap();
            prop_assert_eq!(Some(objective(&is_tag, i, j)), naive_best(&is_tag));
        }
    }

    /// Random markup from a small alphabet of fragments (tags, stray and unclosed ones,
    /// links, hidden blocks, entities, whitespace, words).
    fn markup() -> impl Strategy<Value = String> {
        let frag = prop::sample::select(vec![
            "<p>",
            "</p>",
            "<div>",
            "</div>",
            "<a href=x>",
            "</a>",
            "<li>",
            "<ul>",
            "</ul>",
            "<br>",
            "<b>",
            "</b>",
            "<div hidden>",
            "<script>x</script>",
            "<!-- c -->",
            " ",
            "\n",
            "word",
            "two words",
            "&amp;",
            "é",
            "<",
            ">",
            "</span>",
        ]);
        proptest::collection::vec(frag, 0..80).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn methods_of_this_family_never_panic(html in markup()) {
            let doc = Doc::parse(&html);
            let mut all = methods();
            all.extend(crate::extract::accb_ccb::methods());
            all.extend(crate::extract::dsc::methods());
            all.extend(crate::extract::lqf::methods());
            for m in all {
                prop_assert_eq!(m.select(&doc).len(), doc.segments.len());
                if let Some(e) = m.explain(&doc) {
                    let rows = e.kept.len();
                    prop_assert!(rows > 0);
                    for (_, col) in &e.columns {
                        prop_assert_eq!(col.len(), rows);
                        prop_assert!(col.iter().all(|x| x.is_finite()));
                    }
                }
            }
        }
    }

    #[test]
    fn hand_computed_range() {
        // <div> <a> Home </a> </div> <p> one two three four </p> <div> x </div>
        let doc = Doc::parse("<div><a>Home</a></div><p>one two three four</p><div>x</div>");
        let (tokens, range) = Bte.analyse(&doc);
        let tags: Vec<bool> = tokens.is_tag.clone();
        assert_eq!(
            tags,
            [
                true, true, false, true, true, true, false, false, false, false, true, true, false,
                true
            ]
        );
        // Words "one".."four" are tokens 6..=9: 5 tags before, 4 words, 3 tags after = 12.
        assert_eq!(range, Some((6, 9)));
        assert_eq!(objective(&tags, 6, 9), 12);
        assert_eq!(naive_best(&tags), Some(12));
    }

    fn page() -> String {
        let mut html = String::from("<html><body><ul class=nav>");
        for item in ["Home", "World", "Business", "Sport", "Weather"] {
            html.push_str(&format!("<li><a href=/{item}>{item}</a></li>"));
        }
        html.push_str("</ul><div class=article><h1>River plans approved</h1>");
        for i in 0..6 {
            html.push_str(&format!(
                "<p>Paragraph {i} tells how the council approved the plans for the river, with <em>quotes</em> from residents who live nearby and worry about floods.</p>"
            ));
        }
        html.push_str("</div><div class=footer><a href=/a>About</a> | <a href=/c>Contact</a> | <a href=/p>Privacy</a></div></body></html>");
        html
    }

    #[test]
    fn keeps_article_drops_navigation_and_footer() {
        let t = extract_text(&page(), &Bte).text;
        assert!(t.contains("River plans approved"), "{t}");
        for i in 0..6 {
            assert!(t.contains(&format!("Paragraph {i} tells")), "{t}");
        }
        assert!(
            t.contains("quotes from residents"),
            "inline tags stay inside: {t}"
        );
        for noise in ["Home", "Weather", "About", "Privacy"] {
            assert!(!t.contains(noise), "{noise} in {t}");
        }
    }

    #[test]
    fn keeps_one_run_only() {
        // Two text runs separated by a long link list: BTE keeps only the longer one.
        let mut html = String::from("<p>");
        html.push_str(&"short text here ".repeat(5));
        html.push_str("</p><ul>");
        html.push_str(&"<li><a href=x>link</a></li>".repeat(12));
        html.push_str("</ul><p>");
        html.push_str(&"the long story goes on ".repeat(10));
        html.push_str("</p>");
        let t = extract_text(&html, &Bte).text;
        assert!(t.contains("the long story"), "{t}");
        assert!(!t.contains("short text"), "{t}");
        assert!(!t.contains("link"), "{t}");
    }

    #[test]
    fn edge_pages() {
        for html in [
            "",
            "<div></div>",
            "word",
            "<p>",
            "<a>x</a>",
            "<br><br>",
            "  \n ",
        ] {
            let doc = Doc::parse(html);
            let keep = Bte.select(&doc);
            assert_eq!(keep.len(), doc.segments.len());
            let _ = Bte.explain(&doc);
        }
        let t = extract_text("just some words", &Bte).text;
        assert_eq!(t, "just some words");
        assert!(Bte.explain(&Doc::parse("")).is_none());
    }

    #[test]
    fn hidden_text_is_no_word() {
        let doc = Doc::parse("<div hidden>a b c d e f g h</div><p>x</p>");
        let tokens = word_tag_tokens(&doc, true);
        assert_eq!(tokens.is_tag.iter().filter(|t| !**t).count(), 1);
    }

    #[test]
    fn explain_marks_the_range() {
        let doc = Doc::parse(&page());
        let e = Bte.explain(&doc).unwrap();
        let rows = e.kept.len();
        assert!(e.columns.iter().all(|(_, v)| v.len() == rows));
        let (_, Some((i, j))) = Bte.analyse(&doc) else {
            panic!("no range")
        };
        assert!(e.kept[i] && e.kept[j] && !e.kept[0] && !e.kept[rows - 1]);
        // The cumulative tag curve is flat (a plateau) over most of the body text.
        let tags = &e.columns[1].1;
        assert!(tags[j] - tags[i] < (j - i) as f64 / 4.0);
    }
}
