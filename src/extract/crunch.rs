//! Crunch: DOM-based content extraction by filtering (Gupta, Kaiser, Neistadt & Grimm, WWW
//! 2003), as summarised in seed `000_64bffcaad3915f21.txt`, section A, and evaluated in seed
//! `004_7b1a98a2e37a7735.txt`, section 5.1.
//!
//! Crunch does not find the content: it removes what is not content and outputs the rest. Its
//! first set of filters ignores elements outright (scripts, styles, images, embedded objects,
//! form controls); the second set is the advertisement remover, the link-list remover and the
//! empty-table remover.
//!
//! **Two stages, because one streaming pass cannot see text statistics.**
//!
//! 1. *Selector stage* ([`rewrite`], with `lol_html`): every element whose removal needs no
//!    statistics is dropped while streaming the HTML: `script style noscript template iframe
//!    frame object embed applet img picture svg canvas video audio map` and the form controls
//!    `select button input textarea`; links and frames pointing to advertising hosts
//!    (doubleclick, googlesyndication, …); the user's own CSS selectors (`--drop-selector`);
//!    and advertisement containers: elements with an `id`/`class` word whose `-`/`_`-separated
//!    parts include `ad`, `ads`, `advert`, `banner`, `sponsor`, `promo`, … (see
//!    [`is_ad_word`]) *and* that hold less than half of the page's text, so that an ad-ish
//!    class on a page wrapper (`template_ads`, an ad skin around the page) does not empty the
//!    page. A streaming rewriter must decide at the start tag, before it has seen the text, so
//!    this stage runs `lol_html` twice: a first pass measures the text inside every ad
//!    candidate (keyed by its start tag's source offset), the second removes.
//! 2. *Statistics stage* (`select`, over the [`Doc`] of the rewritten page, one reverse pass
//!    over the element arena, children before parents, so a container is judged on what is
//!    left of it after its children were filtered): a `<form>` is removed unless it holds at
//!    least half of the page's text (ASP.NET pages wrap the whole page in one form); an
//!    element with at least `min_links` links whose link text is at least `link_list_ratio`
//!    of its text is a link list; a `<table>` with fewer than `empty_table_min_words` words
//!    left is an empty table. What remains visible is the output.
//!
//! **Without the HTML.** [`Method::select`] only sees the parsed [`Doc`], which has no source
//! text. Until the method trait gets a pre-parse hook (`prepare(&self, html) -> Cow<str>`,
//! which would call [`Crunch::rewrite_html`]), `select` also emulates stage 1 on the Doc: the
//! tag rules by tag, the ad rule on the element's `id`/`class` words, and user selectors made
//! of type, `.class`, `#id`, `*` and `[id|class|role|itemprop(~)=v]` parts joined by
//! descendant combinators (`>` is read as a descendant combinator; class and id words are not
//! told apart, since the Doc keeps them as one word list; other selectors cannot be emulated
//! and match nothing there). With the hook, the emulation finds nothing left to remove and
//! costs one pass.

use super::{Explanation, Method};
use crate::doc::Doc;
use crate::tokenize::Tag;
use lol_html::html_content::{Element as LolElement, EndTag, TextChunk, TextType};
use lol_html::{
    DocumentContentHandlers, ElementContentHandlers, LocalHandlerTypes, RewriteStrSettings,
    Selector,
};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use unicode_segmentation::UnicodeSegmentation;

/// The Crunch filter, with the user's extra selectors.
#[derive(Debug, Clone)]
pub struct Crunch {
    /// Extra CSS selectors whose elements are removed (`--drop-selector`).
    pub drop_selectors: Vec<String>,
    /// Remove images (`img`, `picture`, `svg`, …). They hold no text for the Doc; this only
    /// changes the rewritten HTML.
    pub remove_images: bool,
    /// Link-list remover: link characters / characters at or above this ratio…
    pub link_list_ratio: f64,
    /// …in an element with at least this many links.
    pub min_links: u32,
    /// Empty-table remover: tables with fewer words left than this are removed.
    pub empty_table_min_words: u32,
}

impl Default for Crunch {
    fn default() -> Self {
        Crunch {
            drop_selectors: Vec::new(),
            remove_images: true,
            link_list_ratio: 0.5,
            min_links: 2,
            empty_table_min_words: 3,
        }
    }
}

/// Elements removed outright (stage 1), as CSS type selectors.
const DROP_TAGS: &[&str] = &[
    "script", "style", "noscript", "template", "iframe", "frame", "object", "embed", "applet",
    "video", "audio", "canvas", "map", "select", "button", "input", "textarea",
];

/// Image-like elements, removed when `remove_images` is set.
const IMAGE_TAGS: &[&str] = &["img", "picture", "svg"];

/// Words of `id`/`class` values that mark advertisement containers (whole `-`/`_` parts).
const AD_WORDS: &[&str] = &[
    "ad",
    "adbanner",
    "adbox",
    "adcontainer",
    "adsbygoogle",
    "adsense",
    "adslot",
    "adspace",
    "adunit",
    "adv",
    "advert",
    "advertisement",
    "advertisements",
    "advertising",
    "adverts",
    "ads",
    "banner",
    "banners",
    "doubleclick",
    "outbrain",
    "promo",
    "promos",
    "promoted",
    "sponsor",
    "sponsored",
    "sponsors",
    "taboola",
];

/// Advertising hosts: links and frames pointing there are removed.
const AD_HOSTS: &[&str] = &[
    "doubleclick.net",
    "googlesyndication.com",
    "googleadservices.com",
    "adservice.google.",
    "amazon-adsystem.com",
    "adnxs.com",
    "criteo.com",
    "taboola.com",
    "outbrain.com",
    "adform.net",
    "advertising.com",
];

/// Whether one `id`/`class` word marks an advertisement: one of its `-`/`_`-separated parts
/// is an ad word (`ad`, `top-ad`, `ad_slot`, `sponsored-links`; not `header`, `load`, `add`).
pub fn is_ad_word(word: &str) -> bool {
    word.split(['-', '_'])
        .any(|p| AD_WORDS.iter().any(|w| p.eq_ignore_ascii_case(w)))
}

fn attr_has_ad(value: Option<String>) -> bool {
    value.is_some_and(|v| v.split_whitespace().any(is_ad_word))
}

impl Crunch {
    /// Crunch with extra selectors, checked: an invalid selector is an error naming it.
    pub fn with_selectors(drop_selectors: Vec<String>) -> Result<Crunch, String> {
        for s in &drop_selectors {
            parse_selector(s)?;
        }
        Ok(Crunch {
            drop_selectors,
            ..Crunch::default()
        })
    }

    /// Stage 1 over the HTML: what a `prepare` hook would call before the Doc is built.
    pub fn rewrite_html(&self, html: &str) -> Result<String, String> {
        rewrite_with(html, &self.drop_selectors, self.remove_images)
    }

    /// The pre-parse hook's body: the rewritten page, or the page unchanged when rewriting
    /// fails (stage 1 is then emulated by `select`).
    pub fn prepare<'a>(&self, html: &'a str) -> Cow<'a, str> {
        match self.rewrite_html(html) {
            Ok(s) => Cow::Owned(s),
            Err(_) => Cow::Borrowed(html),
        }
    }

    /// Per element: removed by the filters (and why), with the statistics used.
    fn analyse(&self, doc: &Doc) -> Analysis {
        let n = doc.elements.len();
        let mut why = vec![Reason::Kept; n];
        // Stage 1, emulated on the Doc.
        let mut ad = vec![false; n];
        for (i, e) in doc.elements.iter().enumerate().skip(1) {
            if drop_tag(e.tag, self.remove_images) {
                why[i] = Reason::Tag;
            } else if doc.ident(e).split_whitespace().any(is_ad_word) {
                ad[i] = true;
            }
        }
        let selectors: Vec<Vec<Compound>> = self
            .drop_selectors
            .iter()
            .flat_map(|s| emulated_selectors(s))
            .collect();
        let mut depth = vec![0u16; n];
        for chain in &selectors {
            match_chain(doc, chain, &mut depth, &mut why);
        }
        // Ad containers hold less than half of the page's text: an ad-ish class on a page
        // wrapper ("template_ads", an ad skin around the page) does not make the page an ad.
        let removed = propagate(doc, &why);
        let sub = subtree_chars(doc, &removed);
        let page = sub.first().copied().unwrap_or(0);
        for i in 1..n {
            if ad[i] && why[i] == Reason::Kept && sub[i] * 2 < page {
                why[i] = Reason::Ad;
            }
        }
        let removed = propagate(doc, &why);

        // Stage 2, bottom-up (children before parents, one reverse pass): an element's
        // totals count only what is left of its children, so a container holding the article
        // and a removed sidebar link list is judged without the list.
        let mut sums = own_sums(doc, &removed);
        let page_chars: u64 = sums.iter().map(|s| u64::from(s.chars)).sum();
        for i in (1..n).rev() {
            let e = &doc.elements[i];
            if removed[i] {
                continue;
            }
            let s = sums[i];
            why[i] = if e.tag == Tag::Form && u64::from(s.chars) * 2 < page_chars {
                Reason::Form
            } else if s.links >= self.min_links
                && s.chars > 0
                && f64::from(s.link_chars) >= self.link_list_ratio * f64::from(s.chars)
            {
                Reason::LinkList
            } else if e.tag == Tag::Table && s.words < self.empty_table_min_words {
                Reason::EmptyTable
            } else {
                Reason::Kept
            };
            if why[i] == Reason::Kept {
                let p = &mut sums[e.parent as usize];
                p.chars += s.chars;
                p.link_chars += s.link_chars;
                p.links += s.links;
                p.words += s.words;
            }
        }
        let removed = propagate(doc, &why);
        Analysis { why, removed, sums }
    }
}

/// Why an element was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reason {
    Kept,
    Tag,
    Ad,
    Selector,
    Form,
    LinkList,
    EmptyTable,
}

struct Analysis {
    why: Vec<Reason>,
    /// Removed itself or inside a removed element.
    removed: Vec<bool>,
    sums: Vec<Sums>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    chars: u32,
    link_chars: u32,
    links: u32,
    words: u32,
}

fn drop_tag(tag: Tag, images: bool) -> bool {
    matches!(
        tag,
        Tag::Script
            | Tag::Style
            | Tag::Noscript
            | Tag::Template
            | Tag::Iframe
            | Tag::Frame
            | Tag::Object
            | Tag::Embed
            | Tag::Video
            | Tag::Audio
            | Tag::Canvas
            | Tag::Map
            | Tag::Select
            | Tag::Option
            | Tag::Optgroup
            | Tag::Button
            | Tag::Input
            | Tag::Textarea
    ) || (images && matches!(tag, Tag::Img | Tag::Picture | Tag::Svg))
}

/// Removed flags down the tree, in one forward pass (parents come before children).
fn propagate(doc: &Doc, why: &[Reason]) -> Vec<bool> {
    let mut removed = vec![false; doc.elements.len()];
    for (i, e) in doc.elements.iter().enumerate() {
        let parent = if i == 0 {
            false
        } else {
            removed.get(e.parent as usize).copied().unwrap_or(false)
        };
        removed[i] = parent || why[i] != Reason::Kept;
    }
    removed
}

/// Visible characters in each element's subtree, over what is not removed.
fn subtree_chars(doc: &Doc, removed: &[bool]) -> Vec<u64> {
    let mut sub = vec![0u64; doc.elements.len()];
    for s in &doc.segments {
        let e = s.element as usize;
        if !s.hidden && !removed.get(e).copied().unwrap_or(true) {
            sub[e] += u64::from(s.chars);
        }
    }
    for (i, el) in doc.elements.iter().enumerate().skip(1).rev() {
        if !removed[i] {
            let c = sub[i];
            sub[el.parent as usize] += c;
        }
    }
    sub
}

/// Per element, its own (not its descendants') text and links, over what is not removed.
fn own_sums(doc: &Doc, removed: &[bool]) -> Vec<Sums> {
    let mut sums = vec![Sums::default(); doc.elements.len()];
    for s in &doc.segments {
        let e = s.element as usize;
        if s.hidden || removed.get(e).copied().unwrap_or(true) {
            continue;
        }
        let t = &mut sums[e];
        t.chars += s.chars;
        if s.link {
            t.link_chars += s.chars;
        }
        t.words += doc.seg_text(s).unicode_words().count() as u32;
    }
    for (i, el) in doc.elements.iter().enumerate() {
        if el.tag == Tag::A && !removed[i] {
            sums[i].links += 1;
        }
    }
    sums
}

/// One compound selector of the emulation: tag (None = any) and required ident words.
#[derive(Debug, Clone, PartialEq)]
struct Compound {
    tag: Option<Tag>,
    words: Vec<String>,
}

/// The emulable complex selectors of a selector list (unemulable ones are left out).
fn emulated_selectors(list: &str) -> Vec<Vec<Compound>> {
    list.split(',')
        .filter_map(|complex| {
            let chain: Option<Vec<Compound>> = complex
                .split(|c: char| c.is_whitespace() || c == '>')
                .filter(|p| !p.is_empty())
                .map(parse_compound)
                .collect();
            chain.filter(|c| !c.is_empty() && c.len() < usize::from(u16::MAX))
        })
        .collect()
}

/// `tag.class#id[attr=v]` → Compound; `None` when a part cannot be emulated.
fn parse_compound(s: &str) -> Option<Compound> {
    let mut c = Compound {
        tag: None,
        words: Vec::new(),
    };
    let name_end = s.find(['.', '#', '[', ':']).unwrap_or(s.len());
    let name = &s[..name_end];
    if !name.is_empty() && name != "*" {
        let t = Tag::from_name(name.as_bytes());
        if t == Tag::Other || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        c.tag = Some(t);
    }
    let mut rest = &s[name_end..];
    while let Some(first) = rest.chars().next() {
        match first {
            '.' | '#' => {
                let body = &rest[1..];
                let end = body.find(['.', '#', '[', ':']).unwrap_or(body.len());
                let word = &body[..end];
                if word.is_empty() {
                    return None;
                }
                c.words.push(word.to_lowercase());
                rest = &body[end..];
            }
            '[' => {
                let end = rest.find(']')?;
                let inner = &rest[1..end];
                let (attr, value) = match inner.split_once('=') {
                    Some((a, v)) => (a, Some(v)),
                    None => (inner, None),
                };
                let attr = attr.strip_suffix('~').unwrap_or(attr).trim();
                if !["id", "class", "role", "itemprop"]
                    .iter()
                    .any(|a| attr.eq_ignore_ascii_case(a))
                {
                    return None;
                }
                match value {
                    Some(v) => {
                        let v = v.trim().trim_matches(['"', '\'']).to_lowercase();
                        if v.is_empty() || v.contains(char::is_whitespace) {
                            return None;
                        }
                        c.words.push(v);
                    }
                    // Presence of id/class cannot be told from the word list.
                    None => return None,
                }
                rest = &rest[end + 1..];
            }
            _ => return None,
        }
    }
    Some(c)
}

fn compound_matches(doc: &Doc, i: usize, c: &Compound) -> bool {
    let e = &doc.elements[i];
    if c.tag.is_some_and(|t| t != e.tag) {
        return false;
    }
    let ident = doc.ident(e);
    c.words
        .iter()
        .all(|w| ident.split_whitespace().any(|x| x == w))
}

/// Mark the elements matching a descendant chain: `depth[i]` is the longest prefix of the
/// chain matched along the ancestors of `i` and `i` itself (greedy is exact for descendant
/// combinators), computed parents first.
fn match_chain(doc: &Doc, chain: &[Compound], depth: &mut [u16], why: &mut [Reason]) {
    let Some(last) = chain.len().checked_sub(1) else {
        return;
    };
    for i in 0..doc.elements.len() {
        let above = if i == 0 {
            0
        } else {
            depth[doc.elements[i].parent as usize]
        };
        let k = usize::from(above);
        if i > 0 && k >= last && compound_matches(doc, i, &chain[last]) && why[i] == Reason::Kept {
            why[i] = Reason::Selector;
        }
        depth[i] = if i > 0 && k < last && compound_matches(doc, i, &chain[k]) {
            above + 1
        } else {
            above
        };
    }
}

fn parse_selector(s: &str) -> Result<Selector, String> {
    s.parse::<Selector>()
        .map_err(|e| format!("invalid CSS selector {s:?}: {e}"))
}

fn remover<'h>(
    selector: Selector,
) -> (
    Cow<'static, Selector>,
    ElementContentHandlers<'h, LocalHandlerTypes>,
) {
    (
        Cow::Owned(selector),
        ElementContentHandlers::default().element(|el: &mut LolElement<'_, '_>| {
            el.remove();
            Ok(())
        }),
    )
}

/// Stage 1: remove with `lol_html` every element that Crunch drops without statistics
/// (scripts, styles, embedded objects, images, form controls, ad containers and ad-host
/// links) and the elements matching `extra_selectors`. Errors on an invalid selector or if
/// the rewriter fails.
pub fn rewrite(html: &str, extra_selectors: &[String]) -> Result<String, String> {
    rewrite_with(html, extra_selectors, true)
}

fn rewrite_with(html: &str, extra_selectors: &[String], images: bool) -> Result<String, String> {
    let mut tags: Vec<&str> = DROP_TAGS.to_vec();
    if images {
        tags.extend_from_slice(IMAGE_TAGS);
    }
    let mut handlers = vec![remover(parse_selector(&tags.join(", "))?)];
    let hosts = AD_HOSTS
        .iter()
        .map(|h| format!("a[href*=\"{h}\"], iframe[src*=\"{h}\"]"))
        .collect::<Vec<_>>()
        .join(", ");
    handlers.push(remover(parse_selector(&hosts)?));
    let small_ads = small_ad_candidates(html)?;
    handlers.push((
        Cow::Owned(parse_selector("[class], [id]")?),
        ElementContentHandlers::default().element(move |el: &mut LolElement<'_, '_>| {
            if small_ads.contains(&el.source_location().bytes().start) {
                el.remove();
            }
            Ok(())
        }),
    ));
    for s in extra_selectors {
        handlers.push(remover(parse_selector(s)?));
    }
    lol_html::rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: handlers,
            strict: false,
            enable_esi_tags: false,
            ..RewriteStrSettings::new()
        },
    )
    .map_err(|e| format!("HTML rewriting failed: {e}"))
}

fn is_ad_element(el: &LolElement<'_, '_>) -> bool {
    attr_has_ad(el.get_attribute("class")) || attr_has_ad(el.get_attribute("id"))
}

/// Text measured per ad candidate in the first `lol_html` pass.
#[derive(Default)]
struct AdMeasure {
    /// (start offset of the start tag, visible characters inside, still open)
    candidates: Vec<(usize, u64, bool)>,
    /// Open candidates, innermost last.
    stack: Vec<usize>,
    total: u64,
}

impl AdMeasure {
    fn add_text(&mut self, chars: u64) {
        self.total += chars;
        if let Some(&top) = self.stack.last() {
            self.candidates[top].1 += chars;
        }
    }

    /// Close candidate `k` (and anything left open inside it), passing counts outwards.
    fn close(&mut self, k: usize) {
        if !self.candidates.get(k).is_some_and(|c| c.2) {
            return;
        }
        while let Some(top) = self.stack.pop() {
            self.candidates[top].2 = false;
            let c = self.candidates[top].1;
            if let Some(&below) = self.stack.last() {
                self.candidates[below].1 += c;
            }
            if top == k {
                break;
            }
        }
    }
}

/// First `lol_html` pass of stage 1: the start offsets of the ad candidates (elements with an
/// ad word in `class`/`id`) that hold less than half of the page's visible characters. A
/// streaming rewriter decides at the start tag, before it has seen the element's text, so
/// the text is measured in this pass and the removal happens in the second.
fn small_ad_candidates(html: &str) -> Result<HashSet<usize>, String> {
    let m = Rc::new(RefCell::new(AdMeasure::default()));
    let (on_el, on_text) = (Rc::clone(&m), Rc::clone(&m));
    let element = ElementContentHandlers::<LocalHandlerTypes>::default().element(
        move |el: &mut LolElement<'_, '_>| {
            if is_ad_element(el) {
                let start = el.source_location().bytes().start;
                let k = {
                    let mut st = on_el.borrow_mut();
                    st.candidates.push((start, 0, false));
                    st.candidates.len() - 1
                };
                let on_end = Rc::clone(&on_el);
                let closes = el.on_end_tag(Box::new(move |_end: &mut EndTag<'_>| {
                    on_end.borrow_mut().close(k);
                    Ok(())
                }));
                if closes.is_ok() {
                    let mut st = on_el.borrow_mut();
                    st.candidates[k].2 = true;
                    st.stack.push(k);
                }
            }
            Ok(())
        },
    );
    let text = DocumentContentHandlers::default().text(move |t: &mut TextChunk<'_>| {
        if matches!(t.text_type(), TextType::Data | TextType::CDataSection) {
            let chars = t.as_str().chars().filter(|c| !c.is_whitespace()).count();
            on_text.borrow_mut().add_text(chars as u64);
        }
        Ok(())
    });
    lol_html::rewrite_str(
        html,
        RewriteStrSettings {
            element_content_handlers: vec![(Cow::Owned(parse_selector("[class], [id]")?), element)],
            document_content_handlers: vec![text],
            strict: false,
            enable_esi_tags: false,
        },
    )
    .map_err(|e| format!("HTML rewriting failed: {e}"))?;
    let st = m.borrow();
    Ok(st
        .candidates
        .iter()
        .filter(|c| c.1 * 2 < st.total)
        .map(|c| c.0)
        .collect())
}

/// The method of this file, as `--algorithm` lists it.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![Box::new(Crunch::default())]
}

impl Method for Crunch {
    fn prepare<'a>(&self, html: &'a str) -> Cow<'a, str> {
        Crunch::prepare(self, html)
    }

    fn name(&self) -> &'static str {
        "crunch"
    }

    fn describe(&self) -> &'static str {
        "Crunch: remove scripts, objects, images, forms, ads, link lists (≥2 links, link text ≥50%) and empty tables; output the rest (seed 000 §A; Gupta et al. 2003)"
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let a = self.analyse(doc);
        doc.segments
            .iter()
            .map(|s| !s.hidden && !a.removed.get(s.element as usize).copied().unwrap_or(true))
            .collect()
    }

    /// Per element: text characters, link density and links (before stage 2), and whether it
    /// survived the filters.
    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let a = self.analyse(doc);
        let chars = a.sums.iter().map(|s| f64::from(s.chars)).collect();
        let ld = a
            .sums
            .iter()
            .map(|s| {
                if s.chars == 0 {
                    0.0
                } else {
                    f64::from(s.link_chars) / f64::from(s.chars)
                }
            })
            .collect();
        let links = a.sums.iter().map(|s| f64::from(s.links)).collect();
        let reason = a
            .why
            .iter()
            .map(|r| match r {
                Reason::Kept => 0.0,
                Reason::Tag => 1.0,
                Reason::Ad => 2.0,
                Reason::Selector => 3.0,
                Reason::Form => 4.0,
                Reason::LinkList => 5.0,
                Reason::EmptyTable => 6.0,
            })
            .collect();
        Some(Explanation {
            unit: "element",
            columns: vec![
                ("chars".into(), chars),
                ("link density".into(), ld),
                ("links".into(), links),
                (
                    "removed by (1 tag, 2 ad, 3 selector, 4 form, 5 link list, 6 empty table)"
                        .into(),
                    reason,
                ),
            ],
            plot: vec![1],
            thresholds: vec![(
                format!("link-list ratio {}", self.link_list_ratio),
                self.link_list_ratio,
            )],
            kept: a.removed.iter().map(|r| !r).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    const ARTICLE: &str = "<div class=story><h1>Bridge reopens after repairs</h1>\
        <p>The old stone bridge over the river reopened on Monday after eight months of repairs, \
        with the mayor cutting a ribbon in front of a small crowd.</p>\
        <p>Engineers replaced the worn arches and added a footpath for cyclists.</p></div>";

    fn page(extra: &str) -> String {
        format!("<html><head><title>t</title></head><body>{extra}{ARTICLE}</body></html>")
    }

    /// Text via the Doc-only path and via the two-stage path; both must agree on `needle`.
    fn both(c: &Crunch, html: &str) -> (String, String) {
        let doc_only = extract_text(html, c).text;
        let rewritten = c.rewrite_html(html).unwrap();
        let two_stage = extract_text(&rewritten, c).text;
        (doc_only, two_stage)
    }

    fn assert_removed(c: &Crunch, extra: &str, needle: &str) {
        let (a, b) = both(c, &page(extra));
        for t in [&a, &b] {
            assert!(!t.contains(needle), "{needle:?} kept in {t}");
            assert!(t.contains("Bridge reopens after repairs"), "{t}");
            assert!(t.contains("Engineers replaced the worn arches"), "{t}");
        }
    }

    #[test]
    fn removes_scripts_forms_iframes() {
        let c = Crunch::default();
        assert_removed(
            &c,
            "<script>var secret = 'SCRIPTTEXT';</script>",
            "SCRIPTTEXT",
        );
        assert_removed(
            &c,
            "<form action=/s><label>Search the site</label><input name=q><button>Go now</button></form>",
            "Search the site",
        );
        assert_removed(
            &c,
            "<form><select><option>Pick one</option></select></form>",
            "Pick one",
        );
        assert_removed(&c, "<iframe src=x>IFRAMETEXT</iframe>", "IFRAMETEXT");
        let r = rewrite(&page("<img src=a.png><iframe src=x></iframe>"), &[]).unwrap();
        assert!(!r.contains("<img") && !r.contains("<iframe"), "{r}");
    }

    #[test]
    fn removes_ads_by_class_and_id() {
        let c = Crunch::default();
        assert_removed(
            &c,
            "<div class='box top-ad'>Buy cheap watches today only</div>",
            "watches",
        );
        assert_removed(
            &c,
            "<div id=sponsored_links>Sponsored: great loans</div>",
            "loans",
        );
        assert_removed(
            &c,
            "<aside class=promo-box>Subscribe for one dollar a week</aside>",
            "dollar",
        );
        let r = rewrite(
            "<p>x</p><a href='https://ad.doubleclick.net/c?x'>click</a>",
            &[],
        )
        .unwrap();
        assert_eq!(r, "<p>x</p>");
        // Not ads: header, load, add-comment, shadow.
        for w in ["header", "load", "add-comment", "shadow", "read-more"] {
            assert!(!is_ad_word(w), "{w}");
        }
    }

    #[test]
    fn removes_link_lists_keeps_prose_with_links() {
        let c = Crunch::default();
        assert_removed(
            &c,
            "<ul class=menu><li><a href=/>Home</a></li><li><a href=/n>Newsroom</a></li><li><a href=/c>Contact</a></li></ul>",
            "Newsroom",
        );
        let html = page(
            "<p>Read the <a href=/r>council report</a> and the <a href=/m>minutes</a> of the long meeting held on Friday evening.</p>",
        );
        let t = extract_text(&html, &c).text;
        assert!(t.contains("council report"), "{t}");
    }

    #[test]
    fn removes_empty_tables() {
        let c = Crunch::default();
        assert_removed(
            &c,
            "<table><tr><td>&nbsp;|&nbsp;</td><td>·</td><td><a href=/a>Archive</a> <a href=/b>Back issues</a></td></tr></table>",
            "|",
        );
        // A small data table with words stays.
        let t = extract_text(
            &page("<table><tr><td>Length of the bridge</td><td>120 metres</td></tr></table>"),
            &c,
        )
        .text;
        assert!(t.contains("120 metres"), "{t}");
    }

    #[test]
    fn ad_class_on_a_page_wrapper_is_not_an_ad() {
        let html = format!(
            "<body><div class='template_ads'><div class=ad-slot>Buy watches now</div>{ARTICLE}\
             <div class=promo><div class=banner>nested promo text</div></div></div></body>"
        );
        let (a, b) = both(&Crunch::default(), &html);
        for t in [&a, &b] {
            assert!(t.contains("Engineers replaced"), "{t}");
            assert!(!t.contains("watches") && !t.contains("nested promo"), "{t}");
        }
        // Unclosed and void candidates do not upset the measuring pass.
        let r = rewrite(
            "<p>text text text text</p><div class=ad>x<img class=ad src=a><span class=ad>y",
            &[],
        )
        .unwrap();
        assert_eq!(r, "<p>text text text text</p>");
    }

    #[test]
    fn page_wrapping_form_is_kept() {
        let html = format!("<body><form id=aspnetForm>{ARTICLE}<input type=submit></form></body>");
        let t = extract_text(&html, &Crunch::default()).text;
        assert!(t.contains("Engineers replaced"), "{t}");
    }

    #[test]
    fn user_selectors() {
        let c = Crunch::with_selectors(vec!["div.related p, #comments".into()]).unwrap();
        assert_removed(
            &c,
            "<div class='related box'><p>Related story about a tunnel</p></div>",
            "tunnel",
        );
        assert_removed(
            &c,
            "<section id=comments>Nice article, thanks</section>",
            "Nice article",
        );
        // Descendant chain needs the ancestor.
        let t = extract_text(&page("<p>Lonely paragraph with enough words</p>"), &c).text;
        assert!(t.contains("Lonely paragraph"), "{t}");
        // Selectors the emulation cannot read still work in the rewrite.
        let c = Crunch::with_selectors(vec!["p:nth-child(2)".into()]).unwrap();
        let r = c.rewrite_html("<div><p>one</p><p>two</p></div>").unwrap();
        assert_eq!(r, "<div><p>one</p></div>");
        assert!(Crunch::with_selectors(vec!["p[".into()]).is_err());
        assert!(Crunch::with_selectors(vec!["a + b".into()]).is_err());
    }

    #[test]
    fn article_kept_whole() {
        let html = page(
            "<div class=header><a href=/>Daily Gazette</a> <a href=/login>Log in</a></div>\
             <script>x()</script><div class=adsbygoogle>AD AD AD</div>",
        );
        let (a, b) = both(&Crunch::default(), &html);
        let want = "Bridge reopens after repairs\nThe old stone bridge over the river reopened on Monday after eight months of repairs, with the mayor cutting a ribbon in front of a small crowd.\nEngineers replaced the worn arches and added a footpath for cyclists.";
        assert_eq!(a, want);
        assert_eq!(b, want);
    }

    #[test]
    fn no_panic_on_odd_input() {
        let c = Crunch::with_selectors(vec!["*".into(), "div > p".into()]).unwrap();
        for html in [
            "",
            "<",
            "<table>",
            "<form><form>",
            "<a><a><a>",
            "<div class='ad ad ad'><div class=>x",
            "<select><xmp><script>\"use strict\";</script></select>",
        ] {
            extract_text(html, &c);
            extract_text(html, &Crunch::default());
            let _ = c.rewrite_html(html);
        }
        for bad in ["[", "div[", "#", ".", ":", "a..b", "[=x]", "[id=]", "div >"] {
            let _ = emulated_selectors(bad);
        }
    }
}
