//! CCB and ACCB: Content Code Blurring (Gottron, 2008), as summarised in seed
//! `000_64bffcaad3915f21.txt`, section G.
//!
//! The page becomes a **content code vector** (CCV): one entry per atomic element, initialised
//! to 1 for content and 0 for code (section G, steps 1–3 and "Calculation of CCR"). The
//! **content code ratio** (CCR) of an entry is a weighted local average of the entries in a
//! fixed symmetric range around it, the weights given by a Gaussian ("the Gaussian blurring
//! filter is applied to calculate the weights of neighbourhood"), i.e. the CCV is blurred like
//! a one-dimensional greyscale image:
//!
//! ```text
//! CCR_i = Σ_{|k| ≤ r} w_k · CCV_{i+k} / Σ_{|k| ≤ r} w_k,     w_k = exp(−k² / 2σ²),  r = ⌈3σ⌉
//! ```
//!
//! applied `passes` times (CCR of one pass is the input of the next). Entries whose CCR is
//! above a fixed threshold `t` are main content (section G, step 5). The seed lost the
//! equations and gives no parameter values; the formula above is the Gaussian blur the prose
//! describes (normalised at the page's ends, so an all-content page stays at 1).
//!
//! **Two vectors** (both from the one token pass, [`super::bte::word_tag_tokens`]):
//! - tokens (`ccb`, `accb`, the defaults): one entry per word (1) and per tag (0), the view of
//!   section G step 2 ("each tag and each word correspond to a token"). Exact on our units.
//! - characters (`ccb-chars`, `accb-chars`): one entry per character, as section G step 1.
//!   The features stage keeps no source spans, so a tag counts as the characters of `<name>`
//!   / `</name>`: attributes are missing, which undercounts code (a real `<a href=…>` is
//!   several times longer). Words count their characters plus the following space.
//!
//! The token vector is the default because it is exact here; the character variants are kept
//! for comparison and would become exact with a tag length on [`crate::doc::Unit`].
//!
//! **ACCB** (the adaptation, Gottron's "adapted CCB"): `<a>` and `</a>` are left out of the
//! vector, so in-text links do not read as code (the anchor text stays content). This rescues
//! wiki-style articles with many in-text links, the case seed 004 §5.6 names as the worst for
//! every method.
//!
//! Parameters (ours, since neither the seed nor our copy of the paper gives the values):
//! tokens σ = 2 tokens, characters σ = 12 characters (about two words), `passes = 3` (a blur
//! repeated a fixed small number of times; repeating "until stable" would converge to the
//! page mean), threshold `t = 0.7` (content when `CCR > t`). Three passes of σ equal one blur
//! of σ√3 ≈ 3.5 tokens: a `<p>` boundary (`</p><p>`) dips a paragraph's edge words only to
//! about 0.8, a link list (`<li><a>x</a></li>`, CCR ≈ 0.2) stays far below, and an article
//! with a link every third word (`w w <a>w</a>`, CCR ≈ 0.6) is dropped by CCB but kept by
//! ACCB (CCR 1).
//!
//! Mapping back: a segment is kept when strictly more than half of its words (characters) have
//! `CCR > t`. Hidden text is not in the vector (it is never rendered). Linear in the page: the
//! blur has a bounded radius (`3σ`) and a fixed number of passes.

use super::bte::{keep_by_majority, word_tag_tokens, Tokens};
use super::{gaussian_smooth, Explanation, Method};
use crate::doc::Doc;

/// The atomic elements of the content code vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vector {
    /// One entry per word or tag token.
    Tokens,
    /// One entry per character (tags estimated as `<name>`).
    Chars,
}

/// CCB or ACCB over tokens or characters.
#[derive(Debug, Clone, Copy)]
pub struct Ccb {
    /// ACCB: anchor tags are not code.
    pub adapted: bool,
    pub vector: Vector,
    /// σ of the Gaussian blur, in entries of the vector.
    pub sigma: f64,
    /// Blur passes.
    pub passes: usize,
    /// Content when `CCR > threshold`.
    pub threshold: f64,
}

impl Ccb {
    /// CCB with our default parameters for `vector`.
    pub fn new(vector: Vector) -> Self {
        Ccb {
            adapted: false,
            vector,
            sigma: match vector {
                Vector::Tokens => 2.0,
                Vector::Chars => 12.0,
            },
            passes: 3,
            threshold: 0.7,
        }
    }

    /// ACCB: CCB without anchor tags as code.
    pub fn accb(vector: Vector) -> Self {
        Ccb {
            adapted: true,
            ..Ccb::new(vector)
        }
    }

    fn blur(&self, mut v: Vec<f64>) -> Vec<f64> {
        for _ in 0..self.passes {
            v = gaussian_smooth(&v, self.sigma);
        }
        v
    }

    /// The CCV, its CCR and what is kept, per token.
    pub fn analyse(&self, doc: &Doc) -> Analysis {
        let tokens = word_tag_tokens(doc, !self.adapted);
        let content: Vec<f64> = tokens
            .is_tag
            .iter()
            .map(|&t| if t { 0.0 } else { 1.0 })
            .collect();
        let (ccr, kept, total) = match self.vector {
            Vector::Tokens => {
                let ccr = self.blur(content.clone());
                let kept = ccr.iter().map(|&c| u32::from(c > self.threshold)).collect();
                (ccr, kept, vec![1; tokens.len()])
            }
            Vector::Chars => {
                let mut ccv = Vec::with_capacity(tokens.chars.iter().map(|&c| c as usize).sum());
                for (&c, &v) in tokens.chars.iter().zip(&content) {
                    ccv.resize(ccv.len() + c as usize, v);
                }
                let blurred = self.blur(ccv);
                let mut ccr = Vec::with_capacity(tokens.len());
                let mut kept = Vec::with_capacity(tokens.len());
                let mut at = 0usize;
                for &c in &tokens.chars {
                    let chars = blurred.get(at..at + c as usize).unwrap_or(&[]);
                    at += c as usize;
                    let sum: f64 = chars.iter().sum();
                    ccr.push(sum / chars.len().max(1) as f64);
                    kept.push(chars.iter().filter(|&&x| x > self.threshold).count() as u32);
                }
                (ccr, kept, tokens.chars.clone())
            }
        };
        Analysis {
            tokens,
            content,
            ccr,
            kept,
            total,
        }
    }
}

/// What CCB computed on one page, per token.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    pub tokens: Tokens,
    /// The content code vector (1 content, 0 code), per token.
    pub content: Vec<f64>,
    /// The content code ratio, per token (for characters: the mean over its characters).
    pub ccr: Vec<f64>,
    /// Entries of each token above the threshold (0/1 for tokens, characters for chars).
    pub kept: Vec<u32>,
    /// Entries of each token.
    pub total: Vec<u32>,
}

/// `ccb`, `accb` (token vectors) and `ccb-chars`, `accb-chars`, as `--algorithm` lists them.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![
        Box::new(Ccb::new(Vector::Tokens)),
        Box::new(Ccb::accb(Vector::Tokens)),
        Box::new(Ccb::new(Vector::Chars)),
        Box::new(Ccb::accb(Vector::Chars)),
    ]
}

impl Method for Ccb {
    fn name(&self) -> &'static str {
        match (self.adapted, self.vector) {
            (false, Vector::Tokens) => "ccb",
            (true, Vector::Tokens) => "accb",
            (false, Vector::Chars) => "ccb-chars",
            (true, Vector::Chars) => "accb-chars",
        }
    }

    fn describe(&self) -> &'static str {
        match (self.adapted, self.vector) {
            (false, Vector::Tokens) => "CCB: word/tag content code vector, Gaussian blur (σ=2, 3 passes), keep CCR > 0.7 (seed 000 §G; Gottron 2008)",
            (true, Vector::Tokens) => "ACCB: CCB without anchor tags as code, for link-rich articles (seed 000 §G; Gottron 2008)",
            (false, Vector::Chars) => "CCB over characters (tags estimated as <name>), σ=12 chars, 3 passes, CCR > 0.7 (seed 000 §G)",
            (true, Vector::Chars) => "ACCB over characters, anchor tags not code (seed 000 §G)",
        }
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let a = self.analyse(doc);
        keep_by_majority(doc, &a.tokens, &a.kept, &a.total)
    }

    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let a = self.analyse(doc);
        if a.tokens.is_empty() {
            return None;
        }
        let kept = a
            .kept
            .iter()
            .zip(&a.total)
            .map(|(&k, &t)| 2 * k > t)
            .collect();
        let mut columns = vec![
            ("content code vector".to_string(), a.content),
            ("content code ratio".to_string(), a.ccr),
        ];
        if self.vector == Vector::Chars {
            columns.push((
                "characters".into(),
                a.total.iter().map(|&c| f64::from(c)).collect(),
            ));
        }
        Some(Explanation {
            unit: "token",
            columns,
            plot: vec![0, 1],
            thresholds: vec![("CCR threshold".into(), self.threshold)],
            kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    fn all() -> Vec<Ccb> {
        vec![
            Ccb::new(Vector::Tokens),
            Ccb::accb(Vector::Tokens),
            Ccb::new(Vector::Chars),
            Ccb::accb(Vector::Chars),
        ]
    }

    #[test]
    fn content_code_vectors() {
        let doc = Doc::parse("<p>Hello <a href=x>world</a>!</p>");
        let ccb = Ccb::new(Vector::Tokens).analyse(&doc);
        assert_eq!(ccb.content, vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
        // ACCB: the anchor tags are not in the vector, the anchor text still is content.
        let accb = Ccb::accb(Vector::Tokens).analyse(&doc);
        assert_eq!(accb.content, vec![0.0, 1.0, 1.0, 1.0, 0.0]);
        // Characters: <p> 3, "Hello" 5, <a> 3, "world" 5, </a> 4, "!" 1, </p> 4.
        let chars = Ccb::new(Vector::Chars).analyse(&doc);
        assert_eq!(chars.total, vec![3, 5, 3, 5, 4, 1, 4]);
        let doc = Doc::parse("<p>two words</p>");
        let chars = Ccb::new(Vector::Chars).analyse(&doc);
        assert_eq!(
            chars.total,
            vec![3, 4, 5, 4],
            "the space belongs to the first word"
        );
    }

    #[test]
    fn blur_keeps_pure_content_at_one() {
        for m in all() {
            let a = m.analyse(&Doc::parse("only words and nothing else here"));
            assert!(
                a.ccr.iter().all(|&c| (c - 1.0).abs() < 1e-12),
                "{:?}",
                a.ccr
            );
            assert_eq!(
                extract_text("only words and nothing else here", &m).text,
                "only words and nothing else here"
            );
        }
    }

    fn page(link_every: Option<usize>) -> String {
        let mut html = String::from("<body><ul class=nav>");
        for item in ["Home", "World", "Business", "Sport", "Weather", "Travel"] {
            html.push_str(&format!("<li><a href=/{item}>{item}</a></li>"));
        }
        html.push_str("</ul><div class=article>");
        for p in 0..5 {
            html.push_str(&format!("<p>Paragraph{p} "));
            for w in 1..=30 {
                match link_every {
                    Some(k) if w % k == 0 => {
                        html.push_str(&format!("<a href=/wiki/{w}>linked{w}</a> "))
                    }
                    _ => html.push_str(&format!("word{w} ")),
                }
            }
            html.push_str("</p>");
        }
        html.push_str("</div><ul class=footer><li><a href=/a>About</a></li><li><a href=/c>Contact</a></li><li><a href=/p>Privacy</a></li></ul></body>");
        html
    }

    #[test]
    fn keeps_article_drops_navigation_and_footer() {
        for m in all() {
            let t = extract_text(&page(None), &m).text;
            for p in 0..5 {
                assert!(
                    t.contains(&format!("Paragraph{p} word1")),
                    "{}: {t}",
                    m.name()
                );
            }
            for noise in ["Home", "Weather", "Travel", "About", "Privacy"] {
                assert!(!t.contains(noise), "{}: {noise} in {t}", m.name());
            }
        }
    }

    #[test]
    fn accb_keeps_link_rich_articles_ccb_does_not() {
        // Every third word is an in-text link: "w w <a>w</a>", 3 words per 2 tags.
        let html = page(Some(3));
        let ccb = extract_text(&html, &Ccb::new(Vector::Tokens)).text;
        let accb = extract_text(&html, &Ccb::accb(Vector::Tokens)).text;
        assert!(
            !ccb.contains("Paragraph2"),
            "CCB reads the links as code: {ccb}"
        );
        // The paragraphs are split into short segments by the links; only the first one,
        // right after the menu, is blurred below the threshold.
        assert!(accb.contains("word4 word5 linked6"), "{accb}");
        for p in 1..5 {
            assert!(accb.contains(&format!("Paragraph{p} word1")), "{accb}");
        }
        assert!(accb.contains("linked3"), "anchor text is content: {accb}");
        // The link lists are still code for ACCB (their <li> tags are).
        for noise in ["Home", "Travel", "About", "Privacy"] {
            assert!(!accb.contains(noise), "{noise} in {accb}");
        }
        // The CCR in the link-rich text sits near 3/5, below 0.7, for CCB and near 1 for ACCB.
        let doc = Doc::parse(&html);
        let a = Ccb::new(Vector::Tokens).analyse(&doc);
        let mid: Vec<f64> = a
            .ccr
            .iter()
            .zip(&a.tokens.seg)
            .filter(|(_, &s)| {
                doc.segments
                    .get(s as usize)
                    .is_some_and(|seg| doc.seg_text(seg).starts_with("word1"))
            })
            .map(|(&c, _)| c)
            .collect();
        assert!(
            !mid.is_empty() && mid.iter().all(|&c| c > 0.5 && c < 0.7),
            "{mid:?}"
        );
    }

    #[test]
    fn accb_also_keeps_inline_link_runs() {
        // The adaptation's price: a footer of inline links without block markup between them
        // has no code left for ACCB, so its words read as content; CCB drops it.
        let mut html = String::from("<p>");
        html.push_str(&"the story goes on and on ".repeat(8));
        html.push_str("</p><div class=footer><a href=/a>About</a> | <a href=/c>Contact</a> | <a href=/p>Privacy</a> | <a href=/t>Terms</a></div>");
        let ccb = extract_text(&html, &Ccb::new(Vector::Tokens)).text;
        let accb = extract_text(&html, &Ccb::accb(Vector::Tokens)).text;
        assert!(ccb.contains("the story") && accb.contains("the story"));
        assert!(!ccb.contains("Privacy"), "{ccb}");
        assert!(accb.contains("Privacy"), "{accb}");
    }

    #[test]
    fn default_threshold_sits_between_link_densities() {
        // Link every 7th word: 7 words per 2 tags, CCR ≈ 0.78 > 0.7 -> kept by CCB too.
        let t = extract_text(&page(Some(7)), &Ccb::new(Vector::Tokens)).text;
        for p in 0..5 {
            assert!(t.contains(&format!("Paragraph{p} word1")), "{t}");
        }
        // Link every 3rd word: CCR ≈ 0.6 < 0.7 -> dropped (see the ACCB test).
        let t = extract_text(&page(Some(3)), &Ccb::new(Vector::Tokens)).text;
        assert!(!t.contains("Paragraph2 word1"), "{t}");
    }

    #[test]
    fn threshold_is_strict_and_just_above_or_below_decides() {
        let html = "<div><a href=/1>Home</a></div><p>one two three four five</p><div><a href=/2>Next</a></div>";
        let doc = Doc::parse(html);
        let m = Ccb::new(Vector::Tokens);
        let a = m.analyse(&doc);
        // CCR of the paragraph's words (segment 1), lowest first.
        let mut ccr: Vec<f64> = a
            .ccr
            .iter()
            .zip(&a.tokens.seg)
            .filter(|(_, &s)| s == 1)
            .map(|(&c, _)| c)
            .collect();
        ccr.sort_by(f64::total_cmp);
        assert_eq!(ccr.len(), 5);
        // The segment is kept iff its median word (the 3rd lowest) is above t.
        let median = ccr[2];
        let with = |t: f64| Ccb { threshold: t, ..m }.select(&doc)[1];
        assert!(with(median - 1e-9), "just below the median CCR: kept");
        assert!(!with(median), "at the median CCR: not above, dropped");
        assert!(!with(median + 1e-9), "just above: dropped");
    }

    #[test]
    fn segments_need_a_strict_majority() {
        let doc = Doc::parse("<p>a b</p><p>c d e</p>");
        let tokens = word_tag_tokens(&doc, true);
        // Tokens: <p> a b </p> <p> c d e </p>
        let kept = [0, 1, 0, 0, 0, 1, 1, 0, 0];
        let keep = keep_by_majority(&doc, &tokens, &kept, &[1; 9]);
        assert_eq!(keep, vec![false, true], "1 of 2 is no majority, 2 of 3 is");
    }

    #[test]
    fn explain_has_ccv_ccr_and_threshold() {
        let doc = Doc::parse(&page(None));
        for m in all() {
            let e = m.explain(&doc).unwrap();
            let rows = e.kept.len();
            assert!(rows > 0 && e.columns.iter().all(|(_, v)| v.len() == rows));
            assert_eq!(e.thresholds, vec![("CCR threshold".to_string(), 0.7)]);
            let (ccv, ccr) = (&e.columns[0].1, &e.columns[1].1);
            assert!(ccv.iter().all(|&v| v == 0.0 || v == 1.0));
            assert!(ccr.iter().all(|&v| (0.0..=1.0 + 1e-12).contains(&v)));
            if m.vector == Vector::Tokens {
                assert!(e.kept.iter().zip(ccr).all(|(&k, &c)| k == (c > 0.7)));
            }
        }
    }

    #[test]
    fn edge_pages() {
        for html in [
            "",
            "<div></div>",
            "x",
            "<a>x</a>",
            "<br>",
            "<p hidden>x y</p>",
            "<p>",
        ] {
            let doc = Doc::parse(html);
            for m in all() {
                assert_eq!(m.select(&doc).len(), doc.segments.len());
                let e = m.explain(&doc);
                assert!(e.is_none() || e.is_some_and(|e| e.ccr_finite()));
            }
        }
        assert!(Ccb::new(Vector::Tokens).explain(&Doc::parse("")).is_none());
    }

    trait Finite {
        fn ccr_finite(&self) -> bool;
    }

    impl Finite for Explanation {
        fn ccr_finite(&self) -> bool {
            self.columns
                .iter()
                .all(|(_, v)| v.iter().all(|x| x.is_finite()))
        }
    }
}
