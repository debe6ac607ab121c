//! LQF: Link Quota Filter, as described in seed `004_7b1a98a2e37a7735.txt`, section 5.4
//! (Gottron's evaluation framework; the heuristic is also part of Crunch and of Mantratzis et
//! al.).
//!
//! "Each block level element of the DOM tree is analysed for the ratio of text used as link
//! anchors (i.e. in `a` elements) to overall text. Nested block level elements are not
//! considered. If this ratio is above a certain threshold the entire block is discarded"
//! (section 5.4). Per block `b`:
//!
//! ```text
//! LQ(b) = link characters in b / characters in b        drop b when LQ(b) > t
//! ```
//!
//! with `t` ∈ {0.25, 0.5, 0.75}, the three thresholds of the seed, registered as `lqf-0.25`,
//! `lqf` (0.5) and `lqf-0.75`. A block exactly at the threshold is kept ("above" drops).
//!
//! **Our block.** The seed's unit is a block-level element without its nested block-level
//! elements. We use the features stage's [`Segment::block`](crate::doc::Segment::block): the
//! text between two block-level tags. That is exactly a block element's own text minus its
//! nested blocks, except that a block element whose text is interrupted by a nested block
//! (`<div>a<p>b</p>c</div>`) yields two blocks (`a`, `c`) here instead of one, and `<br>`
//! also separates blocks. Both only make the filter finer-grained; no DOM is built.
//!
//! Characters are counted after entity decoding and whitespace collapsing (the seed does not
//! say); hidden text counts for nothing (it is never rendered). Linear: one pass over the
//! segments.

use super::{Explanation, Method};
use crate::doc::Doc;

/// Link Quota Filter with threshold `threshold`.
#[derive(Debug, Clone, Copy)]
pub struct Lqf {
    pub threshold: f64,
    name: &'static str,
}

impl Lqf {
    /// The seed's default, 0.5.
    pub fn new() -> Self {
        Lqf {
            threshold: 0.5,
            name: "lqf",
        }
    }

    /// Per block: (characters, link characters).
    pub fn block_counts(doc: &Doc) -> Vec<(u64, u64)> {
        let mut counts = vec![(0u64, 0u64); doc.blocks as usize];
        for s in doc.segments.iter().filter(|s| !s.hidden) {
            let b = s.block as usize;
            if b >= counts.len() {
                counts.resize(b + 1, (0, 0));
            }
            counts[b].0 += u64::from(s.chars);
            if s.link {
                counts[b].1 += u64::from(s.chars);
            }
        }
        counts
    }

    /// Link quota of a block (0 for a block without characters).
    pub fn quota((chars, links): (u64, u64)) -> f64 {
        if chars == 0 {
            0.0
        } else {
            links as f64 / chars as f64
        }
    }

    /// Whether each block is kept.
    pub fn kept_blocks(&self, doc: &Doc) -> Vec<bool> {
        Self::block_counts(doc)
            .into_iter()
            .map(|c| c.0 > 0 && Self::quota(c) <= self.threshold)
            .collect()
    }
}

impl Default for Lqf {
    fn default() -> Self {
        Lqf::new()
    }
}

/// `lqf` (0.5), `lqf-0.25` and `lqf-0.75`, as `--algorithm` lists them.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![
        Box::new(Lqf::new()),
        Box::new(Lqf {
            threshold: 0.25,
            name: "lqf-0.25",
        }),
        Box::new(Lqf {
            threshold: 0.75,
            name: "lqf-0.75",
        }),
    ]
}

impl Method for Lqf {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self) -> &'static str {
        match self.name {
            "lqf-0.25" => "LQF: drop blocks whose link text share exceeds 0.25 (seed 004 §5.4)",
            "lqf-0.75" => "LQF: drop blocks whose link text share exceeds 0.75 (seed 004 §5.4)",
            _ => "LQF: drop blocks whose link text share exceeds 0.5 (seed 004 §5.4)",
        }
    }

    fn reads_units(&self) -> bool {
        false
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let blocks = self.kept_blocks(doc);
        doc.segments
            .iter()
            .map(|s| !s.hidden && blocks.get(s.block as usize).copied().unwrap_or(false))
            .collect()
    }

    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let counts = Self::block_counts(doc);
        if counts.is_empty() {
            return None;
        }
        let kept = self.kept_blocks(doc);
        Some(Explanation {
            unit: "block",
            columns: vec![
                (
                    "characters".into(),
                    counts.iter().map(|c| c.0 as f64).collect(),
                ),
                (
                    "link characters".into(),
                    counts.iter().map(|c| c.1 as f64).collect(),
                ),
                (
                    "link quota".into(),
                    counts.iter().map(|&c| Self::quota(c)).collect(),
                ),
            ],
            plot: vec![2],
            thresholds: vec![("link quota threshold".into(), self.threshold)],
            kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    fn by_name(name: &str) -> Lqf {
        match name {
            "lqf-0.25" => Lqf {
                threshold: 0.25,
                name: "lqf-0.25",
            },
            "lqf-0.75" => Lqf {
                threshold: 0.75,
                name: "lqf-0.75",
            },
            _ => Lqf::new(),
        }
    }

    #[test]
    fn registered_names_and_thresholds() {
        let m = methods();
        let names: Vec<_> = m.iter().map(|m| m.name()).collect();
        assert_eq!(names, ["lqf", "lqf-0.25", "lqf-0.75"]);
        assert_eq!(by_name("lqf").threshold, 0.5);
    }

    fn page() -> String {
        let mut html = String::from("<body><ul class=nav>");
        for item in ["Home", "World", "Business", "Sport"] {
            html.push_str(&format!("<li><a href=/{item}>{item}</a></li>"));
        }
        html.push_str(
            "</ul><div class=menu><a href=/x>Latest</a> <a href=/y>Popular</a> | more</div>",
        );
        html.push_str("<p>The council approved the river plans on Monday, as <a href=/r>our report</a> explains in detail.</p>");
        html.push_str("<p>Residents who live nearby worry about floods.</p>");
        html.push_str("<footer><a href=/a>About</a> | <a href=/c>Contact</a> | <a href=/p>Privacy</a></footer></body>");
        html
    }

    #[test]
    fn keeps_text_drops_link_lists() {
        let t = extract_text(&page(), &Lqf::new()).text;
        assert_eq!(
            t,
            "The council approved the river plans on Monday, as our report explains in detail.\n\
             Residents who live nearby worry about floods."
        );
    }

    #[test]
    fn threshold_is_inclusive_and_ordered() {
        // "abcd" + link "efgh": quota exactly 0.5 -> kept by lqf (not above), dropped by 0.25.
        let at = "<p>abcd <a href=x>efgh</a></p>";
        assert_eq!(extract_text(at, &by_name("lqf")).text, "abcd efgh");
        assert_eq!(extract_text(at, &by_name("lqf-0.25")).text, "");
        assert_eq!(extract_text(at, &by_name("lqf-0.75")).text, "abcd efgh");
        // "abc" + link "efgh": 4/7 ≈ 0.571, just above 0.5 -> dropped by lqf, kept by 0.75.
        let above = "<p>abc <a href=x>efgh</a></p>";
        assert_eq!(extract_text(above, &by_name("lqf")).text, "");
        assert_eq!(extract_text(above, &by_name("lqf-0.75")).text, "abc efgh");
        // "abcde" + link "efgh": 4/9 ≈ 0.444, just below 0.5 -> kept.
        let below = "<p>abcde <a href=x>efgh</a></p>";
        assert_eq!(extract_text(below, &by_name("lqf")).text, "abcde efgh");
        assert_eq!(extract_text(below, &by_name("lqf-0.25")).text, "");
    }

    #[test]
    fn nested_blocks_are_judged_separately() {
        // The outer div's own text is a link; the nested paragraph is not.
        let html = "<div><a href=x>Read more</a><p>Plain paragraph text.</p></div>";
        assert_eq!(
            extract_text(html, &Lqf::new()).text,
            "Plain paragraph text."
        );
    }

    #[test]
    fn explain_rows_are_blocks() {
        let doc = Doc::parse(&page());
        let e = Lqf::new().explain(&doc).unwrap();
        assert_eq!(e.kept.len(), doc.blocks as usize);
        assert!(e.columns.iter().all(|(_, v)| v.len() == e.kept.len()));
        let q = &e.columns[2].1;
        assert_eq!(q[0], 1.0, "nav item");
        assert!(e.kept.iter().zip(q).all(|(&k, &q)| k == (q <= 0.5)));
        assert_eq!(e.thresholds[0].1, 0.5);
    }

    #[test]
    fn edge_pages() {
        for html in ["", "<div></div>", "x", "<a>x</a>", "<p hidden>x</p>"] {
            let doc = Doc::parse(html);
            for m in methods() {
                assert_eq!(m.select(&doc).len(), doc.segments.len());
                let _ = m.explain(&doc);
            }
        }
        assert_eq!(
            extract_text("<a href=x>only a link</a>", &Lqf::new()).text,
            ""
        );
        assert!(Lqf::new().explain(&Doc::parse("")).is_none());
    }
}
