//! Content-extraction methods, all fed by one pass of the tokenizer.
//!
//! Every method implements [`Method`]: it reads the page's [`Doc`] (built once by
//! [`crate::doc`] from the token stream) and says, for each text segment, whether it is main
//! content. [`render`] turns that selection into text, one block per line, the same way for
//! every method, so methods differ only in what they keep.
//!
//! One file per method, named after its paper's method; see [`registry`] for the list that
//! `--algorithm` accepts and `warcsift algorithms` prints.

pub mod accb_ccb;
pub mod auto;
pub mod auto_blocks;
pub mod auto_lang;
pub mod auto_model;
pub mod auto_words;
pub mod bte;
pub mod cetr;
pub mod cnr;
pub mod crunch;
pub mod dom_block;
pub mod dsc;
pub mod info_discoverer;
pub mod info_optics;
pub mod line_block;
pub mod lqf;
pub mod none;
pub mod plain;

use crate::doc::Doc;
use crate::page_type::PageType;
use crate::structured::Structured;
use auto_lang::word_count;

/// A content-extraction method: decides, per text segment of a page, what is main content.
pub trait Method: Send + Sync {
    /// The name `--algorithm` takes.
    fn name(&self) -> &'static str;
    /// One line: the method and its source (seed file, section).
    fn describe(&self) -> &'static str;
    /// `keep[i]` says whether `doc.segments[i]` is main content. Must be linear in the page.
    fn select(&self, doc: &Doc) -> Vec<bool>;
    /// [`Method::select`] for a page whose type and structured data are known. Only `auto`
    /// reads them (per-type extraction); the paper methods select as their papers say.
    fn select_page(&self, doc: &Doc, _page: &PageInfo) -> Vec<bool> {
        self.select(doc)
    }
    /// Whether a page whose selection has fewer than [`FALLBACK_MIN_WORDS`] words takes its
    /// text from the page's structured data instead (JSON-LD `articleBody`/`text`/
    /// `description`, app state), when that has more. Only `auto` does; the paper methods
    /// stay as their papers define them.
    fn falls_back_to_structured(&self) -> bool {
        false
    }
    /// A pre-pass over the decoded page before the [`Doc`] is built (Crunch rewrites the HTML
    /// with `lol_html` here). Most methods need none.
    fn prepare<'a>(&self, html: &'a str) -> std::borrow::Cow<'a, str> {
        std::borrow::Cow::Borrowed(html)
    }
    /// Whether the method keeps state across pages (Info Discoverer): the pipeline then feeds
    /// it pages in input order on one worker, so output stays deterministic.
    fn stateful(&self) -> bool {
        false
    }
    /// Whether the method reads a [`Doc`] at all. `false` (only `none`, parse only): the page
    /// is decoded but never tokenized, and its text, title and language stay empty.
    fn builds_doc(&self) -> bool {
        true
    }
    /// Whether the method reads [`Doc::units`] (the tag/text token sequence of CETR, the
    /// line-block family, CNR and BTE). Methods that answer `false` get a [`Doc`] whose
    /// `units` is empty, built a little faster; everything else in it is the same.
    fn reads_units(&self) -> bool {
        true
    }
    /// The per-unit features this method computed and what it kept, for `warcsift explain`
    /// (the figure its paper would draw, and a TSV). `None` where there is nothing to plot.
    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let _ = doc;
        None
    }
}

/// What a method saw on one page, unit by unit (a line, block, token, window or element).
#[derive(Debug, Clone, Default)]
pub struct Explanation {
    /// What one row is: "line", "block", "token", "window", "element", ...
    pub unit: &'static str,
    /// Feature columns: name and one value per row (all the same length).
    pub columns: Vec<(String, Vec<f64>)>,
    /// Indices into `columns` to draw as curves or bars (e.g. raw and smoothed tag ratio).
    pub plot: Vec<usize>,
    /// Horizontal threshold lines to draw: (label, value).
    pub thresholds: Vec<(String, f64)>,
    /// Whether each row was kept (shaded in the figure).
    pub kept: Vec<bool>,
}

/// Every method, in the order `warcsift algorithms` lists them.
pub fn registry() -> Vec<Box<dyn Method>> {
    let mut all: Vec<Box<dyn Method>> = auto::methods();
    all.push(Box::new(plain::Plain));
    all.extend(cetr::methods());
    all.extend(accb_ccb::methods());
    all.extend(line_block::methods());
    all.extend(cnr::methods());
    all.extend(bte::methods());
    all.extend(dsc::methods());
    all.extend(lqf::methods());
    all.extend(dom_block::methods());
    all.extend(info_optics::methods());
    all.extend(info_discoverer::methods());
    all.extend(crunch::methods());
    all.push(Box::new(none::ParseOnly));
    all
}

/// Look a method up by name.
pub fn method(name: &str) -> Option<Box<dyn Method>> {
    registry().into_iter().find(|m| m.name() == name)
}

/// User choices that some methods take (`--comments`, `--no-tables`, `--drop-selector`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Keep comment sections (`auto`).
    pub comments: bool,
    /// Keep tables (`auto`).
    pub tables: bool,
    /// Extra CSS selectors whose elements are dropped (`crunch`).
    pub drop_selectors: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            comments: false,
            tables: true,
            drop_selectors: Vec::new(),
        }
    }
}

/// Look a method up by name and apply `options` to the methods that take them. Errors name
/// the unknown method or the invalid selector.
pub fn method_with(name: &str, options: &Options) -> Result<Box<dyn Method>, String> {
    match name {
        "auto" | "auto-rules" => Ok(Box::new(auto::Auto {
            keep_comments: options.comments,
            keep_tables: options.tables,
            learned: name == "auto",
        })),
        "crunch" => Ok(Box::new(crunch::Crunch::with_selectors(
            options.drop_selectors.clone(),
        )?)),
        _ => method(name)
            .ok_or_else(|| format!("unknown algorithm {name:?}; `warcsift algorithms` lists them")),
    }
}

/// What is known of a page before any method selects: its type and structured data.
#[derive(Debug, Clone, Default)]
pub struct PageInfo {
    pub page_type: PageType,
    pub structured: Structured,
}

/// Below this many words, a method that [`Method::falls_back_to_structured`] takes the
/// page's structured-data text instead, when that has more.
pub const FALLBACK_MIN_WORDS: usize = 5;

/// What one method kept of one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageText {
    /// The page title (`<title>`), whitespace-collapsed; never part of `text`.
    pub title: Option<String>,
    /// The declared language (`<html lang>`), if any.
    pub lang: Option<String>,
    /// The main content, one block (paragraph, heading, list item, table row) per line.
    pub text: String,
    /// What kind of page it is ([`crate::page_type`]).
    pub page_type: PageType,
    /// Headline, author, dates and the rest of [`crate::metadata`].
    pub meta: crate::metadata::Metadata,
}

/// A page decoded and extracted: what `extract`, `page` and `eval` all produce.
#[derive(Debug, Clone)]
pub struct Extraction {
    pub page: PageText,
    /// WHATWG name of the charset used to decode the page.
    pub charset: &'static str,
    /// How the charset was decided (`bom`, `http`, `meta`, `detected`, `utf8-override`, `default`).
    pub charset_source: &'static str,
}

/// Names accepted by `--algorithm`, in the order `warcsift algorithms` lists them.
pub fn algorithm_names() -> Vec<&'static str> {
    registry().iter().map(|m| m.name()).collect()
}

/// Run `method` over an already decoded page.
pub fn extract_text(html: &str, method: &dyn Method) -> PageText {
    extract_page(html, None, method)
}

/// Run `method` over an already decoded page whose URL is known.
pub fn extract_page(html: &str, url: Option<&str>, method: &dyn Method) -> PageText {
    extract_page_as(html, url, method, None)
}

/// [`extract_page`], with the text as Markdown when `markdown` is set, its links written as
/// it says ([`crate::markdown`]; the same words; a page whose text comes from its
/// structured data keeps it as it is).
pub fn extract_page_as(
    html: &str,
    url: Option<&str>,
    method: &dyn Method,
    markdown: Option<crate::markdown::Links>,
) -> PageText {
    if !method.builds_doc() {
        return PageText::default();
    }
    let html = method.prepare(html);
    let limits = crate::doc::Limits {
        units: method.reads_units(),
        hrefs: markdown == Some(crate::markdown::Links::Inline),
        ..crate::doc::Limits::default()
    };
    let mut doc = Doc::parse_with(&html, limits);
    doc.url = url.map(str::to_owned);
    let structured = Structured::read(&doc);
    let page_type = crate::page_type::classify(&doc, &structured);
    let info = PageInfo {
        page_type,
        structured,
    };
    let keep = method.select_page(&doc, &info);
    let mut text = render(&doc, &keep);
    let mut from_selection = true;
    // (A text with that many whitespace-separated words has at least as many by
    // `word_count`: only short texts are counted.)
    let short = |t: &str| {
        t.split_whitespace().nth(FALLBACK_MIN_WORDS - 1).is_none()
            && word_count(t) < FALLBACK_MIN_WORDS
    };
    if method.falls_back_to_structured() && short(&text) {
        if let Some(fallback) = structured_text(&info.structured) {
            if word_count(&fallback) > word_count(&text) {
                text = fallback;
                from_selection = false;
            }
        }
    }
    if let Some(links) = markdown.filter(|_| from_selection) {
        text = crate::markdown::render(&doc, &keep, links);
    }
    if method.falls_back_to_structured() && page_type == PageType::Product {
        add_product_description(&mut text, &info.structured);
    }
    let meta = crate::metadata::Metadata::read(&doc, &info.structured, page_type);
    PageText {
        text,
        title: doc.title,
        lang: doc.lang,
        page_type,
        meta,
    }
}

/// A product page whose visible text lacks the description its structured data gives (shops
/// that render the description from JSON, or behind a tab a script fills) gets it, as a first
/// block: the longest JSON-LD `description` of at least [`PRODUCT_DESCRIPTION_MIN_WORDS`]
/// words, unless its first words already appear in the text or the text is long enough to
/// hold a description of its own ([`PRODUCT_TEXT_DESCRIBED_WORDS`]): there the structured
/// one is most often the shop's blurb for search engines, a summary the page never shows.
fn add_product_description(text: &mut String, s: &Structured) {
    if word_count(text) >= PRODUCT_TEXT_DESCRIBED_WORDS {
        return;
    }
    let Some(d) = s
        .descriptions
        .iter()
        .max_by_key(|d| d.len())
        .filter(|d| word_count(d) >= PRODUCT_DESCRIPTION_MIN_WORDS)
    else {
        return;
    };
    let opening: Vec<&str> = d.split_whitespace().take(8).collect();
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.contains(&opening.join(" ")) {
        return;
    }
    let mut out = d.clone();
    if !text.is_empty() {
        out.push('\n');
        out.push_str(text);
    }
    *text = out;
}

/// The shortest structured-data description [`add_product_description`] adds.
const PRODUCT_DESCRIPTION_MIN_WORDS: usize = 12;

/// A product page's text of this many words has a description of its own:
/// [`add_product_description`] adds none.
const PRODUCT_TEXT_DESCRIBED_WORDS: usize = 100;

/// The text a page's structured data offers as its main content, best first: JSON-LD bodies
/// (`articleBody`, post and answer `text`), then app-state prose, then the longest JSON-LD
/// `description`.
pub fn structured_text(s: &Structured) -> Option<String> {
    let words = |list: &[String]| list.iter().map(|t| word_count(t)).sum::<usize>();
    if words(&s.bodies) >= FALLBACK_MIN_WORDS {
        return Some(s.bodies.join("\n"));
    }
    if words(&s.app_texts) >= FALLBACK_MIN_WORDS {
        return Some(s.app_texts.join("\n"));
    }
    s.descriptions
        .iter()
        .max_by_key(|d| d.len())
        .filter(|d| word_count(d) >= FALLBACK_MIN_WORDS)
        .cloned()
}

/// Decode `html` (charset from BOM / `http_charset` / `<meta>` / detection with the URL's TLD)
/// and run `algorithm` over it. Errors only for an unknown algorithm name.
pub fn extract_bytes(
    html: &[u8],
    http_charset: Option<&str>,
    url: Option<&str>,
    algorithm: &str,
) -> Result<Extraction, String> {
    let m = method(algorithm).ok_or_else(|| format!("unknown algorithm {algorithm:?}"))?;
    Ok(extract_with(html, http_charset, url, m.as_ref()))
}

/// [`extract_bytes`] with a method already looked up (the pipeline's per-record path).
pub fn extract_with(
    html: &[u8],
    http_charset: Option<&str>,
    url: Option<&str>,
    method: &dyn Method,
) -> Extraction {
    extract_with_as(html, http_charset, url, method, None)
}

/// [`extract_with`], with the text as Markdown when `markdown` is set ([`extract_page_as`]).
pub fn extract_with_as(
    html: &[u8],
    http_charset: Option<&str>,
    url: Option<&str>,
    method: &dyn Method,
    markdown: Option<crate::markdown::Links>,
) -> Extraction {
    let decoded = crate::charset::decode(html, http_charset, url);
    Extraction {
        page: extract_page_as(&decoded.text, url, method, markdown),
        charset: decoded.encoding.name(),
        charset_source: decoded.source.as_str(),
    }
}

/// Kept segments as text: one block per line, words of one block joined by single spaces
/// (or nothing, where the source had no whitespace between two inline runs); preformatted
/// text (`<pre>`) keeps its source lines as lines, each with its indentation
/// ([`crate::doc::PreLine`]), so code stays code.
pub fn render(doc: &Doc, keep: &[bool]) -> String {
    let mut out = String::with_capacity(doc.text.len() / 2);
    let mut prev: Option<&crate::doc::Segment> = None;
    let mut cursor = 0;
    for (i, (s, _)) in doc
        .segments
        .iter()
        .zip(keep)
        .enumerate()
        .filter(|(_, (s, &k))| k && !s.hidden)
    {
        let pre_line = doc.pre_line_at(i, &mut cursor);
        if let Some(p) = prev {
            if p.block != s.block || pre_line.is_some() {
                out.push('\n');
            } else if s.spaced_from(p) {
                out.push(' ');
            }
        }
        if let Some(l) = pre_line {
            out.push_str(doc.indent(l));
        }
        out.push_str(doc.seg_text(s));
        prev = Some(s);
    }
    out
}

/// Gaussian smoothing of a series with standard deviation `sigma` and radius `⌈3σ⌉`
/// (CETR's smoothing, seed 000 section F; the kernel is renormalised at the edges so a
/// constant series stays constant). Linear in `values.len()` for a fixed `sigma`.
pub fn gaussian_smooth(values: &[f64], sigma: f64) -> Vec<f64> {
    if sigma <= 0.0 || values.is_empty() {
        return values.to_vec();
    }
    let radius = (3.0 * sigma).ceil() as usize;
    let kernel: Vec<f64> = (0..=2 * radius)
        .map(|k| {
            let d = k as f64 - radius as f64;
            (-d * d / (2.0 * sigma * sigma)).exp()
        })
        .collect();
    let n = values.len();
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(radius);
            let hi = (i + radius).min(n - 1);
            let (mut sum, mut wsum) = (0.0, 0.0);
            for (j, &v) in values.iter().enumerate().take(hi + 1).skip(lo) {
                let w = kernel[j + radius - i];
                sum += w * v;
                wsum += w;
            }
            sum / wsum
        })
        .collect()
}

/// Mean and population standard deviation.
pub fn mean_std(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_product_description_fills_in_only_for_a_short_text() {
        let s = Structured {
            descriptions: vec![
                "A short one.".into(),
                "Our oak shelf, oiled by hand, holds forty books on each of its three boards \
                 and ships flat."
                    .into(),
            ],
            ..Structured::default()
        };
        // A few words of price and stock: the longest description comes first.
        let mut text = "Oak shelf\n$120\nIn stock".to_string();
        add_product_description(&mut text, &s);
        assert!(text.starts_with("Our oak shelf, oiled by hand,"), "{text}");
        assert!(text.ends_with("\nOak shelf\n$120\nIn stock"), "{text}");
        // Already there (in other line breaks): nothing added.
        let mut there = "Oak shelf\nOur oak shelf, oiled by hand, holds forty books on each \
            of its three boards and ships flat."
            .to_string();
        let before = there.clone();
        add_product_description(&mut there, &s);
        assert_eq!(there, before);
        // A text long enough to describe the shelf itself keeps its own words.
        let mut long = "This shelf is made of solid oak. ".repeat(15);
        let before = long.clone();
        add_product_description(&mut long, &s);
        assert_eq!(long, before);
        // Descriptions too short to be one are never added.
        let short = Structured {
            descriptions: vec!["A short one.".into()],
            ..Structured::default()
        };
        let mut text = "Oak shelf".to_string();
        add_product_description(&mut text, &short);
        assert_eq!(text, "Oak shelf");
    }

    #[test]
    fn render_joins_inline_runs_and_breaks_blocks() {
        let doc = Doc::parse("<h1>Title</h1><p>One <b>bold</b>word and <i>two</i>.</p><p>Next</p>");
        let keep = vec![true; doc.segments.len()];
        assert_eq!(render(&doc, &keep), "Title\nOne boldword and two.\nNext");
        // Links side by side are words apart; a link's text and what follows it are not.
        let doc = Doc::parse(
            "<p><a href=/l>League</a><a href=/c>Conference</a><a href=/d><b>Div</b>ision</a></p>\
             <p><a href=/a>Apple</a>'s <a href=/x>x</a><img src=i.png><a href=/y>y</a></p>",
        );
        let keep = vec![true; doc.segments.len()];
        assert_eq!(
            render(&doc, &keep),
            "League Conference Division\nApple's x y"
        );
    }

    #[test]
    fn render_keeps_the_lines_and_indentation_of_preformatted_text() {
        // Plain, highlighted (the indentation a run of its own before a <span>), tabs and
        // no-break spaces; the leading newline after <pre> is no line.
        let doc = Doc::parse(
            "<p>Intro text.</p><pre>\ndef f(x):\n    if x:\n        return 1</pre>\
             <pre><span>fn</span> <span>main</span>() {\n    <span>go</span>();\n\t<span>x</span>\n\
             &nbsp;&nbsp;<b>y</b> z\n}</pre><p>After   the   code.</p>",
        );
        let keep = vec![true; doc.segments.len()];
        assert_eq!(
            render(&doc, &keep),
            "Intro text.\ndef f(x):\n    if x:\n        return 1\nfn main() {\n    go();\n\tx\n  y z\n}\nAfter the code."
        );
        // A line whose first segment is left out joins the line above, unindented, as text.
        let mut keep = keep;
        let go = doc
            .segments
            .iter()
            .position(|s| doc.seg_text(s) == "go")
            .unwrap();
        keep[go] = false;
        assert!(render(&doc, &keep).contains("fn main() { ();"));
        // Outside <pre>, whitespace collapses as before.
        let doc = Doc::parse("<div>\n    one\n    two</div>");
        assert!(doc.pre_lines.is_empty());
        assert_eq!(render(&doc, &[true, true]), "one two");
    }

    /// A method that says it never reads [`Doc::units`] keeps the same segments on a `Doc`
    /// built without them (the pipeline builds such a `Doc` for it), and the units are the
    /// only difference between the two `Doc`s.
    #[test]
    fn methods_that_skip_units_select_the_same_without_them() {
        let pages = [
            "<html><head><title>T</title></head><body><nav><a href=/>Home</a> <a href=/a>About</a></nav>\
             <article><h1>A headline of the page</h1><p>First paragraph of the article, with \
             commas, clauses and enough words to count as prose in any method.</p>\
             <p>Second paragraph, <a href=x>a link</a> inside, and more words, to keep it long.</p>\
             </article><div class=comments><p>A comment, short.</p></div>\
             <footer>Copyright 2024, all rights reserved. Privacy. Terms of use.</footer></body></html>",
            "<div><table><tr><td>menu</td><td><p>Text in a table cell, long enough to matter, \
             with commas.</p></td></tr></table><ul><li><a href=1>one</a></li><li>two</li></ul></div>",
            "",
        ];
        let skipping: Vec<_> = registry()
            .into_iter()
            .filter(|m| !m.reads_units())
            .collect();
        let names: Vec<_> = skipping.iter().map(|m| m.name()).collect();
        assert!(
            names.contains(&"auto") && names.contains(&"plain"),
            "{names:?}"
        );
        for html in pages {
            let with = Doc::parse(html);
            let without = Doc::parse_with(
                html,
                crate::doc::Limits {
                    units: false,
                    ..crate::doc::Limits::default()
                },
            );
            assert!(without.units.is_empty());
            assert_eq!(with.units.is_empty(), html.is_empty());
            assert_eq!(with.text, without.text);
            assert_eq!(with.segments.len(), without.segments.len());
            assert_eq!(with.elements.len(), without.elements.len());
            for m in &skipping {
                assert_eq!(
                    m.select(&with),
                    m.select(&without),
                    "{} on {html:?}",
                    m.name()
                );
            }
        }
    }

    #[test]
    fn render_skips_hidden_text() {
        let doc = Doc::parse("<p>seen</p><div style='display: none'>unseen</div><p hidden>no</p>");
        let keep = vec![true; doc.segments.len()];
        assert_eq!(render(&doc, &keep), "seen");
    }

    #[test]
    fn smoothing_keeps_constants_and_spreads_peaks() {
        let s = gaussian_smooth(&[2.0; 10], 1.0);
        assert!(s.iter().all(|v| (v - 2.0).abs() < 1e-12));
        let s = gaussian_smooth(&[0.0, 0.0, 0.0, 9.0, 0.0, 0.0, 0.0], 1.0);
        assert!(s[3] < 9.0 && s[2] > 0.0 && (s[2] - s[4]).abs() < 1e-12);
    }

    #[test]
    fn options_reach_the_methods_that_take_them() {
        let html = "<div class=comments><p>A comment that is long enough to be kept, with commas, and more words.</p></div><article><p>The article text is long enough, with commas, clauses and a full stop.</p></article>";
        let with = method_with(
            "auto",
            &Options {
                comments: true,
                ..Options::default()
            },
        )
        .unwrap();
        let without = method_with("auto", &Options::default()).unwrap();
        assert!(extract_text(html, with.as_ref()).text.contains("A comment"));
        assert!(!extract_text(html, without.as_ref())
            .text
            .contains("A comment"));
        let crunch = method_with(
            "crunch",
            &Options {
                drop_selectors: vec!["article".into()],
                ..Options::default()
            },
        )
        .unwrap();
        assert!(!extract_text(html, crunch.as_ref())
            .text
            .contains("article text"));
        assert!(method_with(
            "crunch",
            &Options {
                drop_selectors: vec!["[[".into()],
                ..Options::default()
            }
        )
        .is_err());
        assert!(method_with("nope", &Options::default())
            .err()
            .unwrap_or_default()
            .contains("nope"));
    }

    #[test]
    fn every_method_is_registered_once() {
        let names = algorithm_names();
        let mut dedup = names.clone();
        dedup.sort();
        dedup.dedup();
        assert_eq!(names.len(), dedup.len());
        for n in names {
            assert!(method(n).is_some());
        }
    }
}
