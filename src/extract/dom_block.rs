//! DOM-structure block analysis (Mantratzis, Orgun & Cassidy 2005, "Separating XHTML content
//! from navigation clutter using DOM-structure block analysis"), as summarised in seed
//! `000_64bffcaad3915f21.txt`, section C.
//!
//! Every "structurally important" element is the root of a sub-structure whose content is
//! analysed for hyperlinks, with two ratios (section C; the survey prints no equation numbers
//! for them):
//!
//! - anchor/tag ratio `A(e) = non-empty anchors in e / tags in e`, threshold **0.5**;
//! - link-text ratio `LT(e) = characters of linked text in e / characters of text in e`,
//!   threshold **0.4**.
//!
//! An element above both thresholds is hyperlink clutter (link lists built with tables, `div`s,
//! `|` separators or bullet lists) and is removed with everything inside it; the rest is kept
//! ("the core content"). Elements are analysed top-down in one forward pass over the arena: an
//! element inside removed clutter is removed with it, so the outermost cluttered structure
//! decides, as the paper's progressive identification of "areas of high hyperlink
//! concentration" does. Both ratios come from one reverse (bottom-up) pass.
//!
//! Deliberate choices where the summary is silent:
//! - Structurally important elements are the block-level ones ([`Tag::is_block`]: `div`,
//!   `table`, `td`, `ul`, `li`, `p`, `section`, …); inline elements are analysed as part of
//!   their block.
//! - "Tags in e" counts the elements *inside* e (not e itself), void elements (`img`, `br`)
//!   included; with e counted, a `<td><a>…</a></td>` cell would sit exactly at 0.5 and never
//!   read as clutter. An anchor is non-empty when it holds text or any element (an image link).
//! - "Above" is strict (`>`), as the summary words it; a bullet list `ul > li > a` sits at
//!   exactly 0.5 and is therefore removed item by item (each `li > a` is at 1.0), not as a list.
//! - Hidden text counts nowhere (the renderer drops it anyway).
//!
//! The summary's drawback stands: on portal front pages, where the whole page is short
//! summaries and their links, most of the page is removed.

use super::cnr::leaves;
use super::{Explanation, Method};
use crate::doc::Doc;
use crate::tokenize::Tag;

/// Anchor/tag threshold (section C).
pub const ANCHOR_TAG: f64 = 0.5;
/// Link-text threshold (section C).
pub const LINK_TEXT: f64 = 0.4;

/// The method, with its two thresholds.
#[derive(Debug, Clone, Copy)]
pub struct DomBlock {
    pub anchor_tag: f64,
    pub link_text: f64,
}

impl Default for DomBlock {
    fn default() -> Self {
        DomBlock {
            anchor_tag: ANCHOR_TAG,
            link_text: LINK_TEXT,
        }
    }
}

/// The two ratios of every element, and which elements are analysed.
#[derive(Debug, Clone, Default)]
pub struct BlockRatios {
    /// Non-empty anchors inside the element / elements inside it.
    pub anchor_tag: Vec<f64>,
    /// Linked characters / characters in the element.
    pub link_text: Vec<f64>,
    /// The element is structurally important (block-level, not the document root).
    pub analysed: Vec<bool>,
}

/// Both ratios for every element in one reverse pass.
pub fn block_ratios(doc: &Doc) -> BlockRatios {
    let n = doc.elements.len();
    let lv = leaves(doc);
    let sums = doc.subtree_sums();
    // Tags inside each element (elements and void elements), and non-empty anchors.
    let mut tags: Vec<u64> = lv.voids.iter().map(|&v| u64::from(v)).collect();
    let mut anchors = vec![0u64; n];
    for i in (1..n).rev() {
        let e = &doc.elements[i];
        if e.tag == Tag::A && (sums[i].chars > 0 || sums[i].nodes > 1 || lv.voids[i] > 0) {
            anchors[i] += 1;
        }
        let p = e.parent as usize;
        tags[p] += tags[i] + 1;
        anchors[p] += anchors[i];
    }
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    BlockRatios {
        anchor_tag: (0..n)
            .map(|i| {
                // The element's own anchor does not count as inside it.
                let own = u64::from(doc.elements[i].tag == Tag::A && anchors[i] > 0);
                ratio(anchors[i] - own, tags[i])
            })
            .collect(),
        link_text: sums
            .iter()
            .map(|s| ratio(u64::from(s.link_chars), u64::from(s.chars)))
            .collect(),
        analysed: doc
            .elements
            .iter()
            .enumerate()
            .map(|(i, e)| i > 0 && e.tag.is_block())
            .collect(),
    }
}

impl DomBlock {
    /// Hyperlink clutter: an analysed element above both thresholds.
    fn clutter(&self, r: &BlockRatios, i: usize) -> bool {
        r.analysed[i] && r.anchor_tag[i] > self.anchor_tag && r.link_text[i] > self.link_text
    }

    /// Per element: removed as (or inside) hyperlink clutter. One forward pass.
    pub fn removed(&self, doc: &Doc, r: &BlockRatios) -> Vec<bool> {
        let n = doc.elements.len();
        let mut removed = vec![false; n];
        for i in 1..n {
            let p = doc.elements[i].parent as usize;
            removed[i] = removed[p] || self.clutter(r, i);
        }
        removed
    }
}

/// `dom-block`.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![Box::new(DomBlock::default())]
}

impl Method for DomBlock {
    fn name(&self) -> &'static str {
        "dom-block"
    }

    fn describe(&self) -> &'static str {
        "DOM-structure block analysis: remove blocks with anchor/tag ratio > 0.5 and link-text ratio > 0.4 as hyperlink clutter (seed 000 §C; Mantratzis et al. 2005)"
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let removed = self.removed(doc, &block_ratios(doc));
        doc.segments
            .iter()
            .map(|s| !s.hidden && !removed.get(s.element as usize).copied().unwrap_or(true))
            .collect()
    }

    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let r = block_ratios(doc);
        let removed = self.removed(doc, &r);
        let rows: Vec<usize> = (0..doc.elements.len()).filter(|&i| r.analysed[i]).collect();
        Some(Explanation {
            unit: "block",
            columns: vec![
                (
                    "anchor_tag_ratio".into(),
                    rows.iter().map(|&i| r.anchor_tag[i]).collect(),
                ),
                (
                    "link_text_ratio".into(),
                    rows.iter().map(|&i| r.link_text[i]).collect(),
                ),
                (
                    "depth".into(),
                    rows.iter()
                        .map(|&i| f64::from(doc.elements[i].depth))
                        .collect(),
                ),
            ],
            plot: vec![0, 1],
            thresholds: vec![
                ("anchor/tag".into(), self.anchor_tag),
                ("link text".into(), self.link_text),
            ],
            kept: rows.iter().map(|&i| !removed[i]).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    fn page() -> String {
        let mut html = String::from("<body><div id=menu><ul>");
        for s in ["Home", "World", "Business", "Sport", "Science"] {
            html.push_str(&format!("<li><a href=/{s}>{s}</a></li>"));
        }
        html.push_str("</ul></div><div id=article><h1>River plan approved</h1>");
        for i in 0..4 {
            html.push_str(&format!("<p>Paragraph {i}: the council approved the river plan after residents, as <a href=/r>reported earlier</a>, asked for better flood defences.</p>"));
        }
        html.push_str("</div><div id=related>Related: <a href=/a>Storm damage in the valley</a> | <a href=/b>Budget talks stall again</a> | <a href=/c>New bridge opens</a></div>");
        html.push_str("<table id=links><tr><td><a href=/x>Partner one</a></td><td><a href=/y>Partner two</a></td></tr></table>");
        html.push_str(
            "<div id=footer>Copyright 2024 Example News. All rights reserved.</div></body>",
        );
        html
    }

    #[test]
    fn keeps_the_article_removes_link_clutter() {
        let t = extract_text(&page(), &DomBlock::default()).text;
        assert!(t.contains("River plan approved"));
        assert!(t.contains("Paragraph 3"));
        assert!(
            t.contains("reported earlier"),
            "links inside the article stay: {t}"
        );
        assert!(!t.contains("Business"), "bullet-list menu: {t}");
        assert!(!t.contains("Budget talks"), "pipe-separated links: {t}");
        assert!(!t.contains("Partner"), "table of links: {t}");
        assert!(
            t.contains("Copyright"),
            "the rest is kept (no links in the footer): {t}"
        );
    }

    #[test]
    fn ratios_follow_the_definitions() {
        let doc = Doc::parse("<div>Related: <a href=/a>one</a> | <a href=/b>two</a> <img src=x></div><p><a></a>text</p>");
        let r = block_ratios(&doc);
        // div: 2 non-empty anchors of 3 tags inside (a, a, img).
        assert!((r.anchor_tag[1] - 2.0 / 3.0).abs() < 1e-12);
        // Runs "Related:", "one", "|", "two": 6 linked characters of 15.
        assert!((r.link_text[1] - 6.0 / 15.0).abs() < 1e-12);
        // p: its anchor is empty.
        let p = doc.elements.iter().position(|e| e.tag == Tag::P).unwrap();
        assert_eq!(r.anchor_tag[p], 0.0);
    }

    /// Both thresholds are strict: a block exactly at either stays; just above both goes.
    #[test]
    fn thresholds_sit_at_half_and_four_tenths() {
        // Anchor/tag: 2 anchors of 4 tags = 0.5 (stays) versus 3 of 5 = 0.6 (removed when the
        // link text is above 0.4 too).
        let at_half = "<div><a href=#>aaaaaa</a><a href=#>aaaaaa</a><span>xxxxx</span><span>xxxxx</span></div>";
        let t = extract_text(at_half, &DomBlock::default()).text;
        assert!(t.contains("aaaaaa"), "anchor/tag 0.5 is not above 0.5: {t}");
        let above = "<div><a href=#>aaaaaa</a><a href=#>aaaaaa</a><a href=#>aaaaaa</a><span>xxxxx</span><span>xxxxxxxxxxxxxxxxxx</span></div>";
        let doc = Doc::parse(above);
        let r = block_ratios(&doc);
        assert!((r.anchor_tag[1] - 0.6).abs() < 1e-12);
        // 18 linked of 18 + 5 + 18 = 41 chars: 0.439 > 0.4, removed.
        assert!(r.link_text[1] > 0.4 && r.link_text[1] < 0.45);
        assert!(extract_text(above, &DomBlock::default()).text.is_empty());
        // Same anchors, more plain text: 18 of 47 = 0.383 < 0.4, kept.
        let below = "<div><a href=#>aaaaaa</a><a href=#>aaaaaa</a><a href=#>aaaaaa</a><span>xxxxxxxxxxx</span><span>xxxxxxxxxxxxxxxxxx</span></div>";
        let r = block_ratios(&Doc::parse(below));
        assert!(r.link_text[1] < 0.4 && r.link_text[1] > 0.35);
        assert!(extract_text(below, &DomBlock::default())
            .text
            .contains("aaaaaa"));
    }

    #[test]
    fn outermost_clutter_takes_its_subtree() {
        // The inner div alone is not clutter (plain text), but it sits inside a link list.
        let html = "<div id=list><a href=1>one link</a><a href=2>two link</a><a href=3>three link</a><div>ok</div></div><p>Body text.</p>";
        let t = extract_text(html, &DomBlock::default()).text;
        assert_eq!(t, "Body text.");
    }

    #[test]
    fn explain_rows_are_blocks() {
        let doc = Doc::parse(&page());
        let ex = DomBlock::default().explain(&doc).unwrap();
        let rows = doc
            .elements
            .iter()
            .skip(1)
            .filter(|e| e.tag.is_block())
            .count();
        assert_eq!(ex.kept.len(), rows);
        assert!(ex.columns.iter().all(|(_, v)| v.len() == rows));
        assert!(ex.kept.iter().any(|&k| k) && ex.kept.iter().any(|&k| !k));
    }

    #[test]
    fn degenerate_pages() {
        for html in [
            "",
            "text only",
            "<a href=x>just a link</a>",
            "<ul><li><a></a></li></ul>",
        ] {
            let doc = Doc::parse(html);
            assert_eq!(DomBlock::default().select(&doc).len(), doc.segments.len());
            assert!(DomBlock::default().explain(&doc).is_some());
        }
        let n = 1_000_000;
        let mut html = "<div>".repeat(n);
        html.push_str("<a href=x>deep link</a>");
        let limits = crate::doc::Limits {
            max_depth: 2 * n,
            ..Default::default()
        };
        let doc = Doc::parse_with(&html, limits);
        assert_eq!(DomBlock::default().select(&doc), vec![false]);
    }
}
