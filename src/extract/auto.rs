//! `auto`, the default: one decision over blocks that combines what the paper methods see.
//!
//! Each paper method alone has a blind spot: CETR fails on one-line pages, CNR on pages whose
//! footer outweighs the article, link-density rules on wiki pages full of in-text links, BTE on
//! fragmented articles. `auto` combines their signals over the same [`Doc`], in three stages:
//!
//! 1. **Semantics the page declares** prune boilerplate subtrees: `nav`, `footer`, `aside`,
//!    `form`, `header` outside an article, ARIA landmarks (`navigation`, `banner`,
//!    `contentinfo`, `complementary`, `search`), and `id`/`class` words such as nav, menu,
//!    footer, sidebar, comment, share, social, related, cookie, banner, ad, promo, breadcrumb.
//!    A word only prunes an element that holds less than half of the page's text, so a
//!    wrapper `<div class="page sidebar-left">` around everything never erases the page.
//! 2. **A container** is chosen by content scores (the structure signal of CNR and the text
//!    density of CETR/line-blocks): every text block of at least 25 characters scores
//!    `1 + commas + min(chars/100, 3)`, credited to its block element, fully to its parent and
//!    halved to its grandparent (one linear pass over the arena); a container's score is
//!    scaled by `1 − link density` (LQF, DOM-block, Info Optics) and raised or lowered by the
//!    words the page declares (`article`, `main`, `itemprop=articleBody`, `content`, `post`,
//!    `entry`, `story`). The best container and its siblings that score close to it are kept.
//! 3. **Blocks inside** are filtered: link-dense blocks (quota over 0.5, LQF's middle
//!    threshold) and pruned subtrees go; headings and list items stay unless link-dense.
//!
//! **Fallbacks.** When no container stands out, or it holds too little of the page's text
//! (short pages: a product, a profile, a listing; wiki pages with many in-text links), `auto`
//! falls back to a block classifier over the whole page: every unpruned block whose link
//! quota is below 0.5 and that is either long or sits between long blocks (jusText's
//! neighbourhood rule). It never returns nothing when the page has visible text outside
//! pruned boilerplate.
//!
//! Comments sections (`comment`, `comments`, `disqus`, `respond`) are left out by default;
//! [`Auto::keep_comments`] (`--comments`) keeps them.

use super::auto_blocks::{is_prose, Block, Blocks, Decision};
use super::auto_lang::word_count;
use super::auto_model::{features, keep, NF};
use super::auto_words::*;
use super::{Explanation, Method};
use crate::doc::Doc;
use crate::page_type::PageType;
use crate::tokenize::Tag;

/// The default extractor.
#[derive(Debug, Clone)]
pub struct Auto {
    /// Keep comment sections.
    pub keep_comments: bool,
    /// Keep tables (`--tables`).
    pub keep_tables: bool,
    /// Let the learned block model ([`super::auto_model`]) make the final call over the
    /// rules' features (`auto`); `false` keeps the hand-written rules' verdict (`auto-rules`).
    pub learned: bool,
}

impl Default for Auto {
    fn default() -> Self {
        Auto {
            keep_comments: false,
            keep_tables: true,
            learned: true,
        }
    }
}

pub fn methods() -> Vec<Box<dyn Method>> {
    vec![
        Box::new(Auto::default()),
        Box::new(Auto {
            learned: false,
            ..Auto::default()
        }),
    ]
}

/// Declared-content weight of an element: positive for article-like, negative for boilerplate.
fn ident_weight(tag: Tag, ident: &str, roles: u8) -> f64 {
    let mut w = 0.0;
    if matches!(tag, Tag::Article | Tag::Main) {
        w += 25.0;
    }
    if words(ident).any(|x| x == "articlebody" || x == "text" && ident.contains("itemprop"))
        || ident.contains("articlebody")
    {
        w += 30.0;
    }
    if roles & R_CONTENT != 0 {
        w += 25.0;
    }
    if roles & (R_STRONG | R_WEAK | R_HEADER | R_COMMENT) != 0 {
        w -= 25.0;
    }
    w
}

/// Per element, the prose it holds: the non-link characters of its blocks that are at least
/// [`PROSE_MIN_CHARS`] long with a link quota under 0.3, what an article is made of (the
/// long, link-poor blocks of jusText and LQF).
fn prose_chars(doc: &Doc, card: &[bool]) -> Vec<u32> {
    let mut prose = vec![0u32; doc.elements.len()];
    let segs = &doc.segments;
    let mut i = 0;
    while i < segs.len() {
        let (mut chars, mut link, mut j) = (0u32, 0u32, i);
        while j < segs.len() && segs[j].block == segs[i].block {
            if !segs[j].hidden {
                chars += segs[j].chars;
                if segs[j].link && !card[segs[j].element as usize] {
                    link += segs[j].chars;
                }
            }
            j += 1;
        }
        if is_prose(chars, link) {
            prose[segs[i].element as usize] += chars - link;
        }
        i = j;
    }
    for (i, e) in doc.elements.iter().enumerate().skip(1).rev() {
        prose[e.parent as usize] += prose[i];
    }
    prose
}

/// Per element, the visible characters of its subtree that sit inside a `<pre>`: code,
/// program output, a poem set line by line. Empty when no `<pre>` holds text (most pages:
/// nothing to count, and [`Doc::pre_lines`] says so without a walk).
fn preformatted_chars(doc: &Doc) -> Vec<u32> {
    if doc.pre_lines.is_empty() {
        return Vec::new();
    }
    let n = doc.elements.len();
    let mut in_pre = vec![false; n];
    for (i, e) in doc.elements.iter().enumerate().skip(1) {
        in_pre[i] = in_pre[e.parent as usize] || e.tag == Tag::Pre;
    }
    let mut pre = vec![0u32; n];
    for s in doc.segments.iter().filter(|s| !s.hidden) {
        let e = s.element as usize;
        if in_pre.get(e).copied().unwrap_or(false) {
            pre[e] += s.chars;
        }
    }
    for (i, e) in doc.elements.iter().enumerate().skip(1).rev() {
        pre[e.parent as usize] += pre[i];
    }
    pre
}

/// Per element: inside a *card link*, an `<a href>` that wraps block-level content (a
/// heading, a paragraph, a `div`): the whole-card links of today's listings, product grids
/// and teasers, where the title, the description and the price are all inside one link.
/// Their text is read as text, not as link text: a navigation link holds a few inline words,
/// and HTML only lets an `<a>` hold blocks since HTML5, so pages of the older web rarely have
/// any. One reverse pass (block descendants) and one forward pass (inheritance).
///
/// Not in the site's chrome: inside a `<nav>`, `<menu>` or `<footer>`, or a `<header>` that
/// is not an article's or `<main>`'s own, a link that wraps a title and a line of
/// description is a mega menu's entry ("Cloud SQL / Fully managed database for MySQL"),
/// and its text stays link text.
fn card_links(doc: &Doc) -> Vec<bool> {
    let n = doc.elements.len();
    let mut has_block = vec![false; n];
    for (i, e) in doc.elements.iter().enumerate().skip(1).rev() {
        if has_block[i] || (e.tag.is_block() && !matches!(e.tag, Tag::Br)) {
            has_block[e.parent as usize] = true;
        }
    }
    let mut card = vec![false; n];
    let (mut chrome, mut article) = (vec![false; n], vec![false; n]);
    for (i, e) in doc.elements.iter().enumerate().skip(1) {
        let p = e.parent as usize;
        article[i] = article[p] || matches!(e.tag, Tag::Article | Tag::Main);
        chrome[i] = chrome[p]
            || matches!(e.tag, Tag::Nav | Tag::Menu | Tag::Footer)
            || (e.tag == Tag::Header && !article[i]);
        card[i] = (card[p] || (e.link && has_block[i])) && !chrome[i];
    }
    card
}

/// Remove card-link text ([`card_links`]) from the link counts of `sums`.
fn uncount_card_links(doc: &Doc, card: &[bool], sums: &mut [crate::doc::Sums]) {
    let mut own = vec![0u32; doc.elements.len()];
    for s in &doc.segments {
        if s.link && !s.hidden && card[s.element as usize] {
            own[s.element as usize] += s.chars;
        }
    }
    for (i, e) in doc.elements.iter().enumerate().skip(1).rev() {
        own[e.parent as usize] += own[i];
    }
    for (s, o) in sums.iter_mut().zip(own) {
        s.link_chars = s.link_chars.saturating_sub(o);
    }
}

/// What may prune in [`prune`].
#[derive(Clone, Copy)]
struct PruneBy {
    /// Comment sections stay (`--comments`, forum pages).
    keep_comments: bool,
    /// Boilerplate role words in `id`/`class` prune (off in the near-empty rescue).
    role_words: bool,
    /// A listing or collection page (see below).
    listing: bool,
    /// A product page: its customer reviews are its comments (see [`customer_reviews`]).
    product: bool,
}

/// Customer reviews under a product (`product-reviews`, `pdp-reviews`, and the review
/// widgets stores embed: Bazaarvoice `bv-`/`BVRR`, Yotpo, Judge.me `jdgm`, Okendo, Stamped,
/// Trustpilot, Loox). Readers' opinions of the product, as comments are of an article:
/// WCXB's annotators, like trafilatura's comment filter, leave them out of a product's
/// main text. `preview` is not a review, and testimonials are the seller's own words.
fn customer_reviews(ident: &str) -> bool {
    const WIDGETS: &[&str] = &[
        "bv-",
        "bv_",
        "bvrr",
        "yotpo",
        "jdgm",
        "okendo",
        "oke-",
        "stamped",
        "trustpilot",
        "loox",
    ];
    ident.split_ascii_whitespace().any(|w| {
        w.match_indices("review")
            .any(|(i, _)| i == 0 || w.as_bytes().get(i - 1) != Some(&b'p'))
            || WIDGETS.iter().any(|p| w.starts_with(p))
    })
}

/// Per-element boilerplate flag, inherited top-down.
///
/// A weak word prunes only elements that are not mostly prose, and on listing and
/// collection pages only those holding under a tenth of the page's text. A tag or word
/// never prunes an element that holds more than half of the page's text, nor (comment
/// words aside) one that holds more than half of its prose: a `<div class="share_wrapper">`
/// or `<aside class="blogPost">` around the article is a layout accident, not a sidebar.
/// The exception is a menu or footer of links alone (below).
fn prune(
    doc: &Doc,
    by: PruneBy,
    sums: &[crate::doc::Sums],
    total: u32,
    prose: &[u32],
    ident_bits: &[u16],
) -> Vec<bool> {
    // Sums in u64: a page's character counts fit u32, their multiples need not.
    let total = u64::from(total);
    let prose_total = u64::from(prose.first().copied().unwrap_or(0));
    let mut bad = vec![false; doc.elements.len()];
    let mut in_article = vec![false; doc.elements.len()];
    let mut in_code = vec![false; doc.elements.len()];
    let pre = preformatted_chars(doc);
    for (i, e) in doc.elements.iter().enumerate().skip(1) {
        let p = e.parent as usize;
        in_code[i] = in_code[p] || matches!(e.tag, Tag::Pre | Tag::Code);
        // Inside an article or a container that declares content: a <header> there is the
        // article's own (title, byline, date), not the site's.
        let r = (ident_bits[i] & 0xff) as u8;
        in_article[i] =
            in_article[p] || matches!(e.tag, Tag::Article | Tag::Main) || r & R_ARTICLE != 0;
        if bad[p] {
            bad[i] = true;
            continue;
        }
        let ident = doc.ident(e);
        let (chars, prose, links) = (
            u64::from(sums[i].chars),
            u64::from(prose[i]),
            u64::from(sums[i].link_chars),
        );
        let big = total > 0 && chars * 2 > total;
        // It holds most of the prose, or declares content and holds a good part of it.
        let holds_prose = prose_total > 0
            && (prose * 2 > prose_total || (prose * 4 > prose_total && r & R_CONTENT != 0));
        // Forms wrap whole pages on ASP.NET sites: only small ones are boilerplate, and not
        // those that are mostly prose (a post's body wrapped for editing in place: each
        // comment of old Reddit is a `<form class="usertext">`).
        let furniture = chars * 5 < total && prose * 2 < chars;
        // A menu or site footer that is the whole page (a shop's shell whose items a script
        // fills in: only the footer's link lists are served) is still a menu: mostly links
        // and no prose, it is not the page's main text, however much of the page it holds.
        // Its tag says so, or a strong word (`site-footer`, `main-nav`); in the near-empty
        // rescue too: it has no prose that a word could have hidden.
        let links_only = links * 2 > chars && prose * 10 < chars;
        // A wrapper of (nearly) everything is the page, whatever its name: a menu left
        // open (`<nav>` with no `</nav>`) holds the rest of the page, and a word such as
        // `navbar-fixed` on `<body>` names a state. Only a `<footer>` that is the whole
        // page is still a footer: nothing opens one before the page's content.
        let wrapper = chars * 10 >= total * 9;
        let by_tag = match e.tag {
            Tag::Button | Tag::Select | Tag::Dialog => true,
            Tag::Footer => (!big && !holds_prose) || links_only,
            Tag::Nav | Tag::Menu => (!big && !holds_prose) || (links_only && !wrapper),
            Tag::Aside => !big && !holds_prose,
            Tag::Form => furniture,
            // A site header that is mostly links is a masthead menu however big it is (a
            // mega menu can hold more words than the article), as a `<nav>` is.
            Tag::Header => !in_article[i] && ((!big && !holds_prose) || (links_only && !wrapper)),
            _ => false,
        };
        // A weak word is a guess at a layout slot (`side`, `widget`, `banner`, `tools`, a
        // masthead's `header`): it prunes what is not mostly prose and leaves the rest to
        // the learned model, which reads the word as `anc_weak` (a hero `banner`'s pitch, a
        // `widget` that holds a review). On a listing or collection the results wrapper
        // (`search-page-wrapper`, `product-grid-side`) holds many items and little prose:
        // a weak word does not prune an element holding a tenth of the page's text there.
        let mostly_prose = prose * 2 >= chars;
        let weak_prunes = !(mostly_prose || by.listing && chars * 10 >= total);
        // Inside an article or `<main>`, a `header` class is the content's own header, as
        // the `<header>` tag is (MDN's `layout__header` holds the page's summary and notes).
        let weak = r & R_WEAK != 0 || (r & R_HEADER != 0 && !in_article[p]);
        // Inside `<pre>` or `<code>`, class words are a syntax highlighter's token names
        // (highlight.js's `hljs-comment`, Prism's `token comment`, rustdoc's `comment`,
        // CodeMirror's `cm-comment`), not slots of the page's layout: no word prunes
        // there, or every code comment would go as a comment section. The outermost
        // `<pre>` or `<code>` is still judged by its own words.
        let words_apply = !ident.is_empty() && !in_code[p];
        // Nor does a layout word prune an element whose text is mostly preformatted: a
        // menu, share bar or sidebar never sets its text in a `<pre>`, but a code block's
        // wrapper may be named for its buttons (Prism's `code-toolbar`, around the `<pre>`
        // and its copy button). Comment words still prune: a comment may quote code.
        let mostly_code = pre.get(i).is_some_and(|&c| u64::from(c) * 2 > chars);
        // A navigation word (`menu`, `nav`, `pager`) names a way around the site, made of
        // links; running text under one is the page's own, named for how it is shown (a
        // restaurant's menu of dishes, an FAQ laid out as a `faq_tabs-menu`). Every other
        // strong word prunes it (a `related` teaser or a `newsletter` pitch is prose too).
        let running_text = mostly_prose && links * 10 < chars;
        let strong = r & R_STRONG_NOT_NAV != 0 || (r & R_STRONG != 0 && !running_text);
        let by_word = words_apply
            && ((links_only && !wrapper && r & R_STRONG != 0)
                || (!big
                    && by.role_words
                    && !holds_prose
                    && !mostly_code
                    && (strong || (weak_prunes && weak && r & R_CONTENT == 0)))
                || (!big
                    && !by.keep_comments
                    && (r & R_COMMENT != 0 || (by.product && customer_reviews(ident)))));
        // A consent manager goes whatever its size (its purpose texts can be most of the
        // page); a wrapper that only names one (`cookies-accepted` on the whole page) is
        // undone by the near-empty rescue, which reads no role words.
        let consent = by.role_words && words_apply && r & R_CONSENT != 0;
        // `role="dialog"` is WAI-ARIA's `<dialog>`: a window the page opens over itself (a
        // consent banner, a newsletter pop-up, a store picker), pruned as the tag is. Only
        // the whole word: Drupal wraps every page in `dialog-off-canvas-main-canvas`.
        let dialog = by.role_words && !in_code[p] && ident_bits[i] & W_DIALOG != 0;
        bad[i] = by_tag || by_word || consent || dialog || e.hidden;
    }
    bad
}

impl Method for Auto {
    fn name(&self) -> &'static str {
        if self.learned {
            "auto"
        } else {
            "auto-rules"
        }
    }

    fn describe(&self) -> &'static str {
        if self.learned {
            "default: auto-rules' signals per block, decided by a small learned model (gradient-boosted trees, ops/train_auto.py)"
        } else {
            "semantic pruning + CNR/readability-style container scores + link quota (LQF) + block fallback, hand-written rules"
        }
    }

    fn reads_units(&self) -> bool {
        false
    }

    fn falls_back_to_structured(&self) -> bool {
        true
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let info = super::PageInfo {
            page_type: crate::page_type::classify(doc, &crate::structured::Structured::read(doc)),
            ..super::PageInfo::default()
        };
        self.select_page(doc, &info)
    }

    fn select_page(&self, doc: &Doc, info: &super::PageInfo) -> Vec<bool> {
        let mut keep = self.select_blocks(doc, info);
        drop_repeated_lines(doc, &mut keep);
        drop_asset_urls(doc, &mut keep);
        drop_label_lines(doc, &mut keep);
        keep
    }

    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let page_type = crate::page_type::classify(doc, &crate::structured::Structured::read(doc));
        let d = self.decide(doc, page_type);
        let keep_block = self.keep_blocks(doc, &d);
        let col = |f: &dyn Fn(&Block) -> f64| d.blocks.list.iter().map(f).collect::<Vec<f64>>();
        // The learned model's probability per block, beside the columns the rules read.
        let probability = self
            .learned
            .then(|| super::auto_model::probabilities(doc, &d))
            .flatten()
            .map(|p| {
                (
                    "probability".to_string(),
                    p.into_iter().map(f64::from).collect(),
                )
            });
        Some(Explanation {
            unit: "block",
            columns: vec![
                ("chars".into(), col(&|b| b.chars as f64)),
                (
                    "link_density".into(),
                    col(&|b| b.link_chars as f64 / b.chars.max(1) as f64),
                ),
                ("pruned".into(), col(&|b| f64::from(u8::from(b.bad)))),
                (
                    "in_region".into(),
                    col(&|b| f64::from(u8::from(d.in_region[b.container as usize]))),
                ),
                (
                    "container_score".into(),
                    col(&|b| d.score[b.container as usize]),
                ),
            ]
            .into_iter()
            .chain(probability)
            .collect(),
            plot: vec![1, 4],
            thresholds: vec![("link quota 0.5".into(), 0.5)],
            kept: keep_block,
        })
    }
}

impl Auto {
    /// The segments of the blocks kept (with the near-empty rescue), before repeats go.
    fn select_blocks(&self, doc: &Doc, info: &super::PageInfo) -> Vec<bool> {
        let keep = self.keep_segments(doc, &self.decide(doc, info.page_type));
        if words_at_least(doc, &keep, SHORT_WORDS) {
            // A story of a few paragraphs under a headline that names its source's domain
            // ("… To Modern C++ (phoronix.com)", as Slashdot and Hacker News show a shared
            // link) is a link post too: its summary quotes the source, and the discussion
            // below it is what the page has to say. A summary stays short; an article of
            // its own that cites a source in its headline is longer.
            if self.keep_comments
                || info.page_type == PageType::Forum
                || !headline_shows_domain(doc, &keep)
                || words_at_least(doc, &keep, LINK_SUMMARY_WORDS)
            {
                return keep;
            }
            let kept = count_words(doc, &keep);
            return self.discussion_or(doc, keep, kept);
        }
        // Never empty by accident: when the page's declared words pruned everything that
        // reads as prose (a Tailwind page whose every section says `banner` somewhere, a
        // theme that calls its main column `sidebar-content`), decide again with only what
        // the markup states outright pruning (tags, ARIA landmarks, hidden elements) and
        // comment sections (left out by choice, not by accident).
        // A short output (a JavaScript notice, a heading) gives way only to one several
        // times longer: that is a page whose words hid its text, not a short page.
        let rescue = self.keep_segments(doc, &self.decide_with(doc, info.page_type, false));
        let (kept, rescued) = (count_words(doc, &keep), count_words(doc, &rescue));
        let (keep, kept) =
            if rescued > kept && (kept < NEAR_EMPTY_WORDS || rescued >= RESCUE_FACTOR * kept) {
                (rescue, rescued)
            } else {
                (keep, kept)
            };
        // A link and its discussion (a link aggregator's item page, a Reddit link post):
        // when the page's own text is a few words around a link shown with its site's
        // domain ("Project goals for 2024 blog.rust-lang.org", "Title (example.com)"), and
        // its comment sections hold ten times as much, the discussion is what the page has
        // to say, as on a forum. (A blog's photo post with its caption is no shared link:
        // its comments stay out.)
        if kept >= SHORT_WORDS || self.keep_comments || info.page_type == PageType::Forum {
            return keep;
        }
        let shows_domain = doc
            .segments
            .iter()
            .zip(&keep)
            .any(|(s, &k)| k && is_domain(doc.seg_text(s).trim_matches(['(', ')'])));
        if !shows_domain {
            return keep;
        }
        self.discussion_or(doc, keep, kept)
    }

    /// The page read as a forum thread (comment sections kept) when that holds
    /// [`RESCUE_FACTOR`] times the `kept` words of `keep`, else `keep`.
    fn discussion_or(&self, doc: &Doc, keep: Vec<bool>, kept: usize) -> Vec<bool> {
        let thread = self.keep_segments(doc, &self.decide(doc, PageType::Forum));
        if count_words(doc, &thread) >= RESCUE_FACTOR * kept.max(NEAR_EMPTY_WORDS) {
            thread
        } else {
            keep
        }
    }

    /// The segments kept under decision `d`.
    fn keep_segments(&self, doc: &Doc, d: &Decision) -> Vec<bool> {
        let keep_block = self.keep_blocks(doc, d);
        let mut keep = vec![false; doc.segments.len()];
        for (k, b) in d.blocks.list.iter().enumerate() {
            if keep_block[k] {
                for s in b.segs.clone() {
                    keep[s] = !d.blocks.seg_bad[s];
                }
            }
        }
        keep
    }

    pub(crate) fn decide(&self, doc: &Doc, page_type: PageType) -> Decision {
        self.decide_with(doc, page_type, true)
    }

    /// [`Auto::decide`]; `words_prune: false` lets only tags, landmarks and `hidden` prune,
    /// not `id`/`class` words (the near-empty rescue in `select_page`).
    pub(crate) fn decide_with(
        &self,
        doc: &Doc,
        page_type: PageType,
        words_prune: bool,
    ) -> Decision {
        let n_el = doc.elements.len();
        let card = card_links(doc);
        let mut sums = doc.subtree_sums();
        if card.iter().any(|&c| c) {
            uncount_card_links(doc, &card, &mut sums);
        }
        let chars: Vec<u32> = sums.iter().map(|s| s.chars).collect();
        let total = chars.first().copied().unwrap_or(0);
        let prose = prose_chars(doc, &card);
        let ident_bits = element_ident_bits(doc);
        let roles: Vec<u8> = ident_bits.iter().map(|&bits| (bits & 0xff) as u8).collect();
        // On a forum or Q&A page the replies are the content: comment words do not prune.
        let keep_comments = self.keep_comments || page_type == PageType::Forum;
        let by = PruneBy {
            keep_comments,
            role_words: words_prune,
            listing: lists_items(page_type),
            product: page_type == PageType::Product,
        };
        let bad = prune(doc, by, &sums, total, &prose, &ident_bits);

        // Blocks: runs of segments sharing `block`.
        let blocks = Blocks::build(doc, &bad, &card, self.keep_tables);
        if blocks.is_empty() {
            return Decision {
                keep_block: vec![false; blocks.list.len()],
                blocks,
                in_region: vec![false; n_el],
                in_grid: vec![false; n_el],
                score: vec![0.0; n_el],
                prose,
                roles,
                ident_bits,
                best: None,
                best_score: 0.0,
                use_region: false,
                region_share: 0.0,
                page_type,
            };
        }

        // Stage 2: container scores, one pass over blocks, credited up the ancestor chain.
        let mut score = vec![0.0f64; n_el];
        for b in &blocks.list {
            if b.bad || b.chars < 25 || b.link_chars * 2 > b.chars {
                continue;
            }
            let s = 1.0 + b.commas as f64 + (b.chars as f64 / 100.0).min(3.0);
            let mut e = b.container as usize;
            for level in 0..3 {
                score[e] += match level {
                    0 => s,
                    1 => s,
                    _ => s / 2.0,
                };
                if e == 0 {
                    break;
                }
                e = doc.elements[e].parent as usize;
            }
        }
        let mut best = None;
        let mut best_score = 0.0;
        for (i, e) in doc.elements.iter().enumerate().skip(1) {
            if score[i] <= 0.0 || bad[i] {
                continue;
            }
            let ld = if sums[i].chars > 0 {
                sums[i].link_chars as f64 / sums[i].chars as f64
            } else {
                1.0
            };
            let s = (score[i] + ident_weight(e.tag, doc.ident(e), roles[i])) * (1.0 - ld);
            score[i] = s;
            if s > best_score {
                best_score = s;
                best = Some(i);
            }
        }

        // Region: the best container and its siblings that score close to it.
        let mut in_region = vec![false; n_el];
        if let Some(top) = best {
            let parent = doc.elements[top].parent;
            let threshold = (best_score * 0.2).max(10.0);
            for (i, e) in doc.elements.iter().enumerate().skip(1) {
                if e.parent == parent && !bad[i] && (i == top || score[i] >= threshold) {
                    in_region[i] = true;
                }
            }
            if lifts(page_type) {
                lift_to_repeats(doc, top, &sums, &bad, &mut in_region);
            }
            if page_type == PageType::Documentation {
                if let Some(body) = document_body(doc, top, &bad) {
                    in_region[body] = true;
                }
            }
            if page_type == PageType::Product {
                if let Some(scope) = product_scope(doc, top, &chars, &bad) {
                    in_region[scope] = true;
                }
            }
        }
        // On a listing or a collection the items are the content, link titles and all.
        // The grid is found on every page, for the learned model's `in_grid` feature.
        let mut in_grid = vec![false; n_el];
        let grid = item_grid(doc, &sums, &bad);
        for &i in &grid {
            in_grid[i] = true;
        }
        let items = lists_items(page_type);
        if items {
            for &i in &grid {
                in_region[i] = true;
            }
        }
        // Subtrees: forward pass (children after parents).
        for i in 1..n_el {
            let p = doc.elements[i].parent as usize;
            in_region[i] |= in_region[p];
            in_grid[i] |= in_grid[p];
        }
        let in_item = |i: usize| items && in_grid[i];
        let region_chars: u32 = blocks
            .list
            .iter()
            .filter(|b| !b.bad && in_region[b.container as usize])
            .map(|b| b.chars - b.link_chars)
            .sum();
        let content_chars: u32 = blocks
            .list
            .iter()
            .filter(|b| !b.bad)
            .map(|b| b.chars - b.link_chars)
            .sum();

        // Stage 3: blocks inside the region; or the fallback classifier over the page.
        let use_region = (best.is_some() || (items && !grid.is_empty()))
            && (region_chars >= 400 || region_chars as f64 >= 0.35 * content_chars as f64);
        // Inside a documentation page's region, link lists are its content: the members of
        // an API (`WebSocket.close()`), a chapter's table of contents, "see also".
        let links_are_content = page_type == PageType::Documentation;
        let mut keep_block = vec![false; blocks.list.len()];
        for (k, b) in blocks.list.iter().enumerate() {
            if b.bad {
                continue;
            }
            let ld = b.link_chars as f64 / b.chars.max(1) as f64;
            keep_block[k] = if use_region {
                in_region[b.container as usize]
                    && (ld <= 0.5
                        || (b.heading && ld < 0.9 && b.chars > 0)
                        || in_item(b.container as usize)
                        || links_are_content)
            } else {
                ld < 0.5
            };
        }
        if use_region {
            blocks.title_before(&mut keep_block);
        }
        if use_region {
            // When the container holds most of the page's prose, paragraphs outside it are
            // extras (teasers, disclaimers) unless they continue the article; when it holds
            // less, the article is scattered (table layouts, flat pages) and every long
            // link-free paragraph joins.
            let (mut inside, mut all) = (0u32, 0u32);
            for b in blocks
                .list
                .iter()
                .filter(|b| !b.bad && is_prose(b.chars, b.link_chars))
            {
                all += b.chars - b.link_chars;
                if in_region[b.container as usize] {
                    inside += b.chars - b.link_chars;
                }
            }
            let table_layout = inside * 3 < all * 2;
            blocks.extend_outside(&mut keep_block, table_layout);
        }
        if !use_region {
            blocks.neighbourhood(&mut keep_block);
        }
        if !keep_block.contains(&true) {
            // Last resort: a tiny page (a few headings and pictures, a short notice, a menu of
            // script links) keeps what survived pruning rather than coming out empty.
            for (k, b) in blocks.list.iter().enumerate() {
                keep_block[k] = !b.bad && b.chars > 0;
            }
        }
        Decision {
            blocks,
            keep_block,
            in_region,
            in_grid,
            score,
            prose,
            roles,
            ident_bits,
            best,
            best_score,
            use_region,
            region_share: region_chars as f64 / content_chars.max(1) as f64,
            page_type,
        }
    }

    /// The blocks kept on `doc`: the learned model's verdict over the rules' features when
    /// [`Auto::learned`] is set, else the rules'; then comment sections if asked for.
    fn keep_blocks(&self, doc: &Doc, d: &Decision) -> Vec<bool> {
        let mut keep_block = if self.learned {
            super::auto_model::keep(doc, d)
        } else {
            d.keep_block.clone()
        };
        if d.page_type == PageType::Documentation {
            keep_contents_of_other_pages(doc, d, &mut keep_block);
        }
        if self.keep_comments {
            // Comment sections usually sit outside the article's container: add them.
            let mut comment = vec![false; doc.elements.len()];
            for (i, e) in doc.elements.iter().enumerate().skip(1) {
                comment[i] = comment[e.parent as usize] || d.roles[i] & R_COMMENT != 0;
            }
            for (k, b) in d.blocks.list.iter().enumerate() {
                if !b.bad && comment[b.container as usize] && b.link_chars * 2 <= b.chars {
                    keep_block[k] = true;
                }
            }
        }
        keep_block
    }
}

/// `id`/`class` words of a table of contents: DocBook's `div.toc` and `dl.toc`, Sphinx's
/// `toctree-wrapper`, and the `table-of-contents` of many themes.
const TOC_WORDS: [&str; 3] = ["toc", "toctree-wrapper", "table-of-contents"];

/// A table of contents this short is a few links, not a chapter's listing.
const TOC_MIN_ENTRIES: usize = 3;

/// On a documentation page, a table of contents in or beside the page's region whose entries are
/// not the page's own headings lists other pages: a chapter's sections, each on a page of its
/// own (DocBook's chunked HTML, as PostgreSQL's manual), or a Sphinx `toctree` on an index
/// page. It is that page's body, and every block of it is kept, links and all. A table of
/// contents of the page itself (its entries repeat the headings below it, the in-page
/// navigation of most articles and manuals) is left to the model, which drops it as the
/// link list it is. We tell the two apart by text rather than by `href` (in-page `#anchor`
/// or another file) because the parse records no link targets unless asked to.
fn keep_contents_of_other_pages(doc: &Doc, d: &Decision, keep: &mut [bool]) {
    let Some(best) = d.best else { return };
    let n = doc.elements.len();
    let parent = |i: usize| doc.elements[i].parent as usize;
    let holds = |anc: usize, mut x: usize| loop {
        if x == anc {
            return true;
        }
        if x == 0 {
            return false;
        }
        x = parent(x);
    };
    // In the region, or beside the best container: its parent or grandparent (not the
    // page's root) holds the best container too (DocBook: the chapter's title page, its
    // `div.toc`, then its prose, side by side).
    let near_best = |i: usize| {
        d.in_region[i]
            || [parent(i), parent(parent(i))]
                .iter()
                .any(|&a| a != 0 && holds(a, best))
    };
    // Per element: the outermost table of contents in or beside the region that holds it
    // (0: none).
    let mut toc = vec![0u32; n];
    let mut any = false;
    for (i, e) in doc.elements.iter().enumerate().skip(1) {
        let p = e.parent as usize;
        toc[i] = if toc[p] != 0 {
            toc[p]
        } else if !e.hidden
            && doc
                .ident(e)
                .split_ascii_whitespace()
                .any(|w| TOC_WORDS.contains(&w))
            && near_best(i)
        {
            any = true;
            i as u32
        } else {
            0
        };
    }
    if !any {
        return;
    }
    let block_text = |b: &Block| -> String {
        let mut t = String::new();
        for s in &doc.segments[b.segs.clone()] {
            t.push_str(doc.seg_text(s));
            t.push(' ');
        }
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let headings: std::collections::HashSet<String> = d
        .blocks
        .list
        .iter()
        .filter(|b| b.heading && b.chars > 0 && toc[b.container as usize] == 0)
        .map(block_text)
        .collect();
    // Per table of contents: its blocks, and how many of them are headings of the page.
    let mut tocs: Vec<(u32, Vec<usize>, usize)> = Vec::new();
    for (k, b) in d.blocks.list.iter().enumerate() {
        let root = toc[b.container as usize];
        if root == 0 || b.bad || b.chars == 0 {
            continue;
        }
        let own = usize::from(headings.contains(&block_text(b)));
        match tocs.iter_mut().find(|t| t.0 == root) {
            Some(t) => {
                t.1.push(k);
                t.2 += own;
            }
            None => tocs.push((root, vec![k], own)),
        }
    }
    for (_, blocks, own) in tocs {
        if blocks.len() >= TOC_MIN_ENTRIES && own * 4 < blocks.len() {
            for k in blocks {
                keep[k] = true;
            }
        }
    }
}

/// A product page's own part: the element that declares the product in microdata
/// (`itemtype="https://schema.org/Product"`) around the best container, so the price, the
/// options, the specifications and the reviews' summary beside or under the description
/// join it. Not when that element is most of the page.
fn product_scope(doc: &Doc, top: usize, chars: &[u32], bad: &[bool]) -> Option<usize> {
    let mut e = doc.elements[top].parent as usize;
    while e != 0 {
        // Idents are lower-cased as they are read (`Doc`).
        if doc.ident(&doc.elements[e]).contains("schema.org/product") {
            return (!bad[e] && chars[e] * 10 <= chars[0] * 7).then_some(e);
        }
        e = doc.elements[e].parent as usize;
    }
    None
}

/// Whether `text` is a bare domain name as link aggregators show it beside a shared link
/// (`blog.rust-lang.org`, `nytimes.com`): dot-separated labels of letters, digits and
/// hyphens, the last all letters.
fn is_domain(text: &str) -> bool {
    let labels: Vec<&str> = text.split('.').collect();
    labels.len() >= 2
        && text.len() <= 60
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && labels
            .last()
            .is_some_and(|l| l.len() >= 2 && l.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// Whether one of the first [`HEADLINE_SEGMENTS`] kept segments is a domain, bracketed or
/// not ("(phoronix.com)"): the source of a shared link, shown beside its headline.
fn headline_shows_domain(doc: &Doc, keep: &[bool]) -> bool {
    doc.segments
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .take(HEADLINE_SEGMENTS)
        .any(|(s, _)| is_domain(doc.seg_text(s).trim().trim_matches(['(', ')'])))
}

/// How many kept segments from the top [`headline_shows_domain`] reads: the headline and
/// what stands beside it (a byline, a date, a comment count).
const HEADLINE_SEGMENTS: usize = 5;
/// A link post's summary is shorter than this: a page with as many words of its own is an
/// article, whatever its headline cites.
const LINK_SUMMARY_WORDS: usize = 400;

/// Fewer words than this is a near-empty output, which `select_page` rescues.
const NEAR_EMPTY_WORDS: usize = 5;
/// Fewer words than this is a short output, which `select_page` rescues when the rescue
/// finds [`RESCUE_FACTOR`] times as many.
const SHORT_WORDS: usize = 80;
const RESCUE_FACTOR: usize = 10;

/// Whether the kept segments hold at least `n` words (stops counting there).
fn words_at_least(doc: &Doc, keep: &[bool], n: usize) -> bool {
    let mut seen = 0;
    for (s, _) in doc.segments.iter().zip(keep).filter(|(_, &k)| k) {
        seen += word_count(doc.seg_text(s));
        if seen >= n {
            return true;
        }
    }
    false
}

/// The runs of consecutive segments of one block, in order: a run's kept segments are one
/// line of the output.
fn block_runs(segs: &[crate::doc::Segment]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let block = segs.get(i)?.block;
        let start = i;
        while segs.get(i).is_some_and(|s| s.block == block) {
            i += 1;
        }
        Some(start..i)
    })
}

/// Lines of at least this many words are kept once ([`drop_repeated_lines`]).
const REPEAT_MIN_WORDS: usize = 2;

/// A kept line (the kept text of one block) that repeats one kept above it goes:
/// carousels clone their slides (`slick-cloned`), responsive pages write a section twice
/// (once for phones, once for desktops), replies quote the post they answer, shops print a
/// promotion on every card, and a reader takes each in once. Pre-training corpora drop
/// repeated lines for the same reason (the duplicate-line rules of Gopher's quality filter
/// and of FineWeb). What stays: a line of one word ("Reply", "Size": a form's or a table's
/// labels as often as not); a table cell (a spec table repeats "100% cotton" down a
/// column); a line in a tab panel (a quickstart says the same sentence in the tab of each
/// language); a paragraph said again beside its twin, under the same parent (a refrain, a
/// test page's placeholder text); and the text that a line made only of links points to
/// (a table of contents' entry does not stand for its heading).
fn drop_repeated_lines(doc: &Doc, keep: &mut [bool]) {
    use std::hash::{Hash, Hasher};
    // Line hash -> the parent of its first kept block.
    let mut seen = std::collections::HashMap::new();
    let segs = &doc.segments;
    for r in block_runs(segs) {
        let Some(kept) = keep.get_mut(r.clone()) else {
            break;
        };
        let mut h = std::hash::DefaultHasher::new();
        let mut words = 0;
        let mut first = None;
        let mut all_links = true;
        for (s, _) in segs[r].iter().zip(kept.iter()).filter(|(_, &k)| k) {
            let text = doc.seg_text(s);
            text.hash(&mut h);
            // Segments are trimmed and single-spaced: a space means two words. Counting
            // stops at the threshold, not at the end of a long paragraph.
            if words < REPEAT_MIN_WORDS && !text.is_empty() {
                words += if memchr::memchr(b' ', text.as_bytes()).is_some() {
                    2
                } else {
                    1
                };
            }
            first = first.or(Some(s.element));
            all_links &= s.link;
        }
        let Some(element) = first else { continue };
        if words < REPEAT_MIN_WORDS {
            continue;
        }
        let Some(parent) = block_parent(doc, element) else {
            continue;
        };
        match seen.entry(h.finish()) {
            std::collections::hash_map::Entry::Vacant(v) => {
                if !all_links {
                    v.insert(parent);
                }
            }
            std::collections::hash_map::Entry::Occupied(o) => {
                if *o.get() != parent && !in_tab_panel(doc, element) {
                    kept.fill(false);
                }
            }
        }
    }
}

/// Drops a kept line (the kept text of one block) that is nothing but a label of page
/// furniture ([`super::auto_model::is_furniture_label`]: "Read more", "Learn more", "Book
/// now", "Advertisement", "Share", "Back to top"): a card's button or an ad slot's label
/// that came with the text around it. The model weighs a block by its words, so a
/// two-word button beside a kept card is rarely worth dropping to it; no reader wants it
/// in the text. On the devset's held-out texts: 1,091 such lines dropped, `wcxb` bag F1
/// 0.8795 → 0.8799, the first four 0.9342 → 0.9343 (129 pages up, 26 down: gold that kept
/// a page's buttons, as on `wcxb/0696`); the calls to action and post tools added later
/// dropped 332 more, 0.8794 → 0.8796 (docs/quality.md, "Code comments, and more labels").
fn drop_label_lines(doc: &Doc, keep: &mut [bool]) {
    let segs = &doc.segments;
    let mut line = String::new();
    for r in block_runs(segs) {
        let Some(kept) = keep.get_mut(r.clone()) else {
            break;
        };
        line.clear();
        let mut short = true;
        for (s, _) in segs[r].iter().zip(kept.iter()).filter(|(_, &k)| k) {
            let text = doc.seg_text(s);
            if line.len() + text.len() > super::auto_model::LABEL_MAX_BYTES {
                short = false;
                break;
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(text);
        }
        if short && !line.is_empty() && super::auto_model::is_furniture_label(&line) {
            kept.fill(false);
        }
    }
}

/// Drops text runs that are a bare image or asset URL (`https://cdn…/tee_thumb.jpg`): a
/// shop's variant data or a theme's settings printed as text, never something a reader
/// reads. On `wcxb`, 95 of the 96 such lines `auto` kept were not in the gold text, where
/// other bare URLs (a reference, a download link written out) were in it as often as not,
/// so those stay.
fn drop_asset_urls(doc: &Doc, keep: &mut [bool]) {
    const ASSETS: &[&str] = &[
        ".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg", ".bmp", ".ico", ".css", ".js",
        ".woff", ".woff2",
    ];
    for (s, k) in doc.segments.iter().zip(keep.iter_mut()) {
        if !*k {
            continue;
        }
        let text = doc.seg_text(s);
        let is_url =
            text.starts_with("https://") || text.starts_with("http://") || text.starts_with("//");
        if !is_url || text.contains(' ') {
            continue;
        }
        let path = text.split(['?', '#']).next().unwrap_or(text);
        let lower = path
            .get(path.len().saturating_sub(6)..)
            .unwrap_or(path)
            .to_ascii_lowercase();
        if ASSETS.iter().any(|ext| lower.ends_with(ext)) {
            *k = false;
        }
    }
}

/// The parent of the nearest block-level ancestor-or-self of `element`; `None` in a table
/// cell.
fn block_parent(doc: &Doc, element: u32) -> Option<u32> {
    let mut i = element;
    loop {
        let e = doc.elements.get(i as usize)?;
        if matches!(e.tag, Tag::Td | Tag::Th) {
            return None;
        }
        if e.tag.is_block() || i == 0 || e.parent == i {
            return Some(e.parent);
        }
        i = e.parent;
    }
}

/// Whether `element` lies in a tab panel ([`crate::doc::TAB_PANEL_WORDS`]).
fn in_tab_panel(doc: &Doc, element: u32) -> bool {
    let mut i = element;
    while let Some(e) = doc.elements.get(i as usize) {
        if crate::doc::TAB_PANEL_WORDS
            .iter()
            .any(|t| doc.ident(e).contains(t))
        {
            return true;
        }
        if i == 0 || e.parent == i {
            return false;
        }
        i = e.parent;
    }
    false
}

/// Words in the kept segments.
fn count_words(doc: &Doc, keep: &[bool]) -> usize {
    doc.segments
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(s, _)| word_count(doc.seg_text(s)))
        .sum()
}

/// Page types whose content is a run of like items (posts, answers, listed items), so the
/// region grows from the best container to its repeated look-alikes ([`lift_to_repeats`]).
fn lifts(page_type: PageType) -> bool {
    matches!(
        page_type,
        PageType::Forum | PageType::Listing | PageType::Collection
    )
}

/// Page types whose content is a grid or list of items ([`item_grid`]).
fn lists_items(page_type: PageType) -> bool {
    matches!(page_type, PageType::Listing | PageType::Collection)
}

/// Fewest look-alike siblings that make an item grid.
const GRID_MIN_ITEMS: u32 = 4;

/// What makes siblings look alike ([`item_grid`], [`lift_to_repeats`]): the same tag and
/// the same `id`/`class` once digits are removed (`post_1`, `post_2`), as one FNV-1a hash.
fn look_alike_key(doc: &Doc, i: usize) -> u64 {
    let e = &doc.elements[i];
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ e.tag as u64;
    for &b in doc.ident(e).as_bytes() {
        if !b.is_ascii_digit() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The items of a listing or a collection: the largest group (by text) of at least
/// [`GRID_MIN_ITEMS`] unpruned siblings that look alike (same tag, same `id`/`class` once
/// digits are removed), whose text is not mostly links (a menu is all links; a product card
/// has a linked title, a price and attributes; whole-card links were already uncounted, see
/// [`card_links`]). Empty when there is none. Found on every page (the learned model's
/// `in_grid` feature); only listings and collections put it in the region. One pass over
/// the arena and a sort by (parent, signature).
fn item_grid(doc: &Doc, sums: &[crate::doc::Sums], bad: &[bool]) -> Vec<usize> {
    // (parent, signature, element) of every candidate, sorted so that look-alike siblings
    // are adjacent: cheaper than a hash map over the arena (this runs on every page).
    let mut cands: Vec<(u32, u64, u32)> = (1..doc.elements.len())
        .filter(|&i| !bad[i] && sums[i].chars > 0)
        .map(|i| (doc.elements[i].parent, look_alike_key(doc, i), i as u32))
        .collect();
    cands.sort_unstable();
    // The largest group by text (on a tie, the one under the earlier parent), as its key
    // and its range in `cands`.
    type Key = (u32, std::cmp::Reverse<u32>);
    let mut best: Option<(Key, std::ops::Range<usize>)> = None;
    let mut start = 0;
    for group in cands.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let end = start + group.len();
        let n = group.len() as u32;
        let (chars, link) = group.iter().fold((0u32, 0u32), |(c, l), &(_, _, i)| {
            let s = &sums[i as usize];
            (c + s.chars, l + s.link_chars)
        });
        let key = (chars, std::cmp::Reverse(group[0].0));
        if n >= GRID_MIN_ITEMS
            && chars >= 20 * n
            && link * 10 < chars * 8
            && best.as_ref().is_none_or(|(k, _)| key > *k)
        {
            best = Some((key, start..end));
        }
        start = end;
    }
    best.map_or_else(Vec::new, |(_, range)| {
        cands[range].iter().map(|&(_, _, i)| i as usize).collect()
    })
}

/// A documentation page's body around its best container: the outermost `<section>` of
/// the nested ones that hold it (Sphinx, MkDocs, rustdoc and most generators write one per
/// heading). The best container is one subsection, the one with most prose; the sections
/// beside it, short ones included (a class's signature, a one-line middleware), are as
/// much the page. `None` when no section is within [`SECTION_REACH`] levels of the best
/// container (below any `<main>` or `<article>`), or the body is pruned.
fn document_body(doc: &Doc, top: usize, bad: &[bool]) -> Option<usize> {
    let parent = |i: usize| doc.elements[i].parent as usize;
    // The section must be close around the best container, and not a layout wrapper
    // around the page's `<main>` (Google's devsite: `<section class="devsite-wrapper">`).
    let mut c = top;
    for _ in 0..SECTION_REACH {
        if c == 0 || matches!(doc.elements[c].tag, Tag::Section | Tag::Main | Tag::Article) {
            break;
        }
        c = parent(c);
    }
    if c == 0 || doc.elements[c].tag != Tag::Section {
        return None;
    }
    while parent(c) != 0 && doc.elements[parent(c)].tag == Tag::Section && !bad[parent(c)] {
        c = parent(c);
    }
    (!bad[c]).then_some(c)
}

/// How many levels above the best container [`document_body`] looks for its section.
const SECTION_REACH: usize = 3;

/// How many levels above the best container [`lift_to_repeats`] looks.
const LIFT_LEVELS: usize = 5;

/// The repeated-structure lift. On a thread or a listing the best container is one post or
/// one item; its peers are siblings of it or of one of its near ancestors that look like it
/// (same tag, same `id`/`class` once digits are removed: `post_1`, `post_2`). Walking up at
/// most [`LIFT_LEVELS`] levels from `top`, the first level whose element has at least two
/// unpruned look-alike siblings puts all of them in the region (with their subtrees, by the
/// caller's forward pass). Linear in the subtrees visited, at most `LIFT_LEVELS` of them.
fn lift_to_repeats(
    doc: &Doc,
    top: usize,
    sums: &[crate::doc::Sums],
    bad: &[bool],
    in_region: &mut [bool],
) {
    let mut c = top;
    for _ in 0..LIFT_LEVELS {
        if c == 0 {
            return;
        }
        let p = doc.elements[c].parent as usize;
        let me = look_alike_key(doc, c);
        let mut peers = Vec::new();
        let depth = doc.elements[p].depth;
        let mut i = p + 1;
        while i < doc.elements.len() && doc.elements[i].depth > depth {
            let e = &doc.elements[i];
            if e.parent as usize == p
                && i != c
                && !bad[i]
                && sums[i].chars > 0
                && look_alike_key(doc, i) == me
            {
                peers.push(i);
            }
            i += 1;
        }
        if peers.len() >= 2 {
            in_region[c] = true;
            for i in peers {
                in_region[i] = true;
            }
            return;
        }
        c = p;
    }
}

/// A page's blocks as `auto` sees them: features, text and the rules' verdict, for training
/// and inspecting the model (`examples/auto_blocks.rs`).
#[derive(Debug, Clone, Default)]
pub struct BlockTable {
    /// One row per block, columns as [`super::auto_model::FEATURE_NAMES`].
    pub rows: Vec<[f32; NF]>,
    /// The block's visible text (pruned parts included), words joined by single spaces.
    pub texts: Vec<String>,
    /// What the rules (`auto-rules`) kept.
    pub rules_kept: Vec<bool>,
    /// What `auto` (the model, or the rules where there is none) kept.
    pub kept: Vec<bool>,
    /// The parent and grandparent element of each block's container
    /// (`auto_model::block_groups`).
    pub groups: Vec<[u32; 2]>,
}

/// Build the [`BlockTable`] of `doc` under `auto`'s rules.
pub fn block_table(doc: &Doc, auto: &Auto) -> BlockTable {
    let page_type = crate::page_type::classify(doc, &crate::structured::Structured::read(doc));
    let d = auto.decide(doc, page_type);
    let rows = features(doc, &d);
    let texts = d
        .blocks
        .list
        .iter()
        .map(|b| {
            doc.segments[b.segs.clone()]
                .iter()
                .filter(|s| !s.hidden)
                .map(|s| doc.seg_text(s))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    BlockTable {
        kept: keep(doc, &d),
        groups: super::auto_model::block_groups(doc, &d),
        rows,
        texts,
        rules_kept: d.keep_block,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::auto_model::FEATURE_NAMES;
    use crate::extract::extract_text;

    /// Feature `name` of the first block of `d` whose text begins with `text`, computed
    /// from the page's decision as the learned model reads it.
    fn block_feature(doc: &Doc, d: &Decision, name: &str, text: &str) -> f32 {
        let col = FEATURE_NAMES.iter().position(|n| *n == name).unwrap();
        let k = d
            .blocks
            .list
            .iter()
            .position(|b| doc.seg_text(&doc.segments[b.segs.start]).starts_with(text))
            .unwrap();
        features(doc, d)[k][col]
    }

    const ARTICLE: &str = r#"<html><head><title>River plan | Daily</title></head><body>
<header class="site-header"><a href="/">Daily</a><nav><a href="/n">News</a> <a href="/s">Sport</a> <a href="/w">Weather</a></nav></header>
<div id="cookie-banner">We use cookies to personalise content and ads.</div>
<div class="layout">
<main><article>
<h1>Council approves river plan</h1>
<p>The city council approved the plan for the river on Tuesday, after a long debate that ran late into the night.</p>
<p>Residents, who had campaigned for years, welcomed the decision, saying the river would finally be cleaned up.</p>
<p>Work will start in spring, and the first stretch, near the old mill, should be finished by the end of the year.</p>
<div class="share">Share on Facebook Share on Twitter</div>
</article></main>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/1">Storm hits coast</a></li><li><a href="/2">Election results</a></li></ul></aside>
</div>
<section class="comments"><p>Great news, finally! The river has been dirty for far too long, and this is a good start.</p></section>
<footer><p>Copyright Daily Media Ltd. All rights reserved.</p><a href="/about">About</a></footer>
</body></html>"#;

    #[test]
    fn explain_shows_the_models_probability_beside_the_verdict() {
        let doc = Doc::parse(ARTICLE);
        let e = Auto::default().explain(&doc).expect("auto explains");
        let (_, p) = e
            .columns
            .iter()
            .find(|(name, _)| name == "probability")
            .expect("a probability column");
        let (_, pruned) = &e.columns[2];
        assert_eq!(p.len(), e.kept.len());
        assert!(p.iter().all(|v| (0.0..=1.0).contains(v)), "{p:?}");
        // Pruned blocks are never judged; a kept block is, and the article's are likely.
        for (k, v) in p.iter().enumerate() {
            if pruned[k] > 0.0 {
                assert_eq!(*v, 0.0, "block {k}");
            }
        }
        assert!(e.kept.iter().zip(p).any(|(&kept, &v)| kept && v > 0.5));
        // The rules alone have no model to show.
        let rules = Auto {
            learned: false,
            ..Auto::default()
        };
        let e = rules.explain(&doc).unwrap();
        assert!(e.columns.iter().all(|(name, _)| name != "probability"));
    }

    #[test]
    fn keeps_the_article_and_drops_boilerplate() {
        let t = extract_text(ARTICLE, &Auto::default()).text;
        assert!(t.contains("Council approves river plan"), "{t}");
        assert!(t.contains("approved the plan for the river"), "{t}");
        assert!(t.contains("end of the year."), "{t}");
        for junk in [
            "cookies",
            "Most read",
            "Storm hits",
            "Copyright",
            "Share on",
            "Sport",
            "Great news",
        ] {
            assert!(!t.contains(junk), "{junk} kept: {t}");
        }
        assert_eq!(
            t.lines().count(),
            4,
            "heading and three paragraphs, one per line: {t}"
        );
    }

    #[test]
    fn comments_are_kept_on_request() {
        let t = extract_text(
            ARTICLE,
            &Auto {
                keep_comments: true,
                ..Auto::default()
            },
        )
        .text;
        assert!(t.contains("Great news"), "{t}");
    }

    /// A Sphinx page: one `<section>` per heading, nested. The subsection with most prose
    /// wins the region; its short siblings (a class's signature, a one-line note) are as
    /// much the page.
    #[test]
    fn documentation_keeps_every_section_of_its_body() {
        let long = |what: &str| {
            format!("<p>The {what} middleware is described here at length, with its settings, its defaults, how it orders itself among the others, and what it changes in each response it handles.</p>")
        };
        let html = format!(
            "<html><head><meta name=generator content='Docutils 0.21'></head><body>\
             <nav class=sphinxsidebar><ul><li><a href=/a>Index</a></li><li><a href=/b>Modules</a></li></ul></nav>\
             <div role=main><section id=middleware><h1>Middleware<a class=headerlink href=#m>¶</a></h1>\
             <section id=cache><h2>Cache middleware</h2><dl><dt>class UpdateCacheMiddleware</dt></dl>\
             <p>Enables the site-wide cache.</p></section>\
             <section id=common><h2>Common middleware</h2>{}{}{}</section>\
             <section id=broken><h2>Broken link emails</h2><p>Sends broken link notification emails to MANAGERS.</p></section>\
             </section></div><div class=footer>Last updated on Mar 2.</div></body></html>",
            long("common"),
            long("redirect"),
            long("gzip")
        );
        let t = extract_text(&html, &Auto::default()).text;
        assert!(t.contains("middleware is described"), "{t}");
        assert!(t.contains("class UpdateCacheMiddleware"), "{t}");
        assert!(t.contains("Sends broken link notification"), "{t}");
        assert!(!t.contains("Modules") && !t.contains("Last updated"), "{t}");
    }

    /// Which blocks [`keep_contents_of_other_pages`] adds on a documentation page, as text.
    fn contents_kept(html: &str) -> Vec<String> {
        let doc = Doc::parse(html);
        let d = Auto::default().decide(&doc, PageType::Documentation);
        let mut keep = vec![false; d.blocks.list.len()];
        keep_contents_of_other_pages(&doc, &d, &mut keep);
        d.blocks
            .list
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(b, _)| doc.seg_text(&doc.segments[b.segs.start]).to_string())
            .collect()
    }

    /// DocBook's chunked HTML (PostgreSQL's manual): a chapter's page is its title, its table
    /// of contents, whose sections are pages of their own, and a paragraph. The contents are
    /// the page; a table of contents that repeats the page's own headings is not added.
    #[test]
    fn a_chapters_contents_of_other_pages_are_its_body() {
        let intro = "Indexes are a common way to enhance database performance. An index allows \
                     the database server to find and retrieve specific rows much faster than it \
                     could do without an index, at the cost of some overhead.";
        let chapter = format!(
            "<body><div class=navheader><a href=sql.html>Up</a></div><div class=chapter>\
             <div class=titlepage><h2>Chapter 11. Indexes</h2></div><div class=toc>\
             <p><b>Table of Contents</b></p><dl class=toc>\
             <dt><a href=intro.html>11.1. Introduction</a></dt>\
             <dt><a href=types.html>11.2. Index Types</a></dt>\
             <dt><a href=multi.html>11.3. Multicolumn Indexes</a></dt>\
             <dt><a href=unique.html>11.4. Unique Indexes</a></dt></dl></div>\
             <p>{intro}</p></div></body>"
        );
        let kept = contents_kept(&chapter);
        assert!(kept.iter().any(|t| t == "11.1. Introduction"), "{kept:?}");
        assert!(kept.iter().any(|t| t == "11.4. Unique Indexes"), "{kept:?}");
        assert!(kept.iter().any(|t| t == "Table of Contents"), "{kept:?}");
        assert!(!kept.iter().any(|t| t == "Up"), "{kept:?}");
        let doc = Doc::parse(&chapter);
        let info = crate::extract::PageInfo {
            page_type: PageType::Documentation,
            ..Default::default()
        };
        let text = crate::extract::render(&doc, &Auto::default().select_page(&doc, &info));
        assert!(text.contains("11.3. Multicolumn Indexes"), "{text}");

        // The same contents, each entry a heading of this page: in-page navigation.
        let mut page = chapter.replace("</div></body>", "");
        for h in [
            "11.1. Introduction",
            "11.2. Index Types",
            "11.3. Multicolumn Indexes",
        ] {
            page.push_str(&format!("<h3>{h}</h3><p>{intro}</p>"));
        }
        page.push_str("</div></body>");
        assert_eq!(contents_kept(&page), Vec::<String>::new());
    }

    /// Old Reddit wraps each comment's body in a `<form class="usertext">` (for editing in
    /// place): a form that is mostly prose is the page's text; a small search or sign-in
    /// form is still furniture.
    #[test]
    fn a_form_that_is_mostly_prose_is_content() {
        let comment = |i: usize| {
            format!("<div class='thing comment'><form class=usertext><div class=md><p>Reply {i}: this might also be a potential cure for tinnitus, if we can trigger new cilia to grow in the inner ear, which would help a great many people.</p></div></form></div>")
        };
        let mut html = String::from("<body><form class=search><input name=q><span>Search this community for more posts and threads</span></form><div class=sitetable>");
        for i in 0..6 {
            html.push_str(&comment(i));
        }
        html.push_str("</div></body>");
        let info = super::super::PageInfo {
            page_type: PageType::Forum,
            ..super::super::PageInfo::default()
        };
        let doc = Doc::parse(&html);
        let keep = Auto::default().select_page(&doc, &info);
        let text: String = doc
            .segments
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(s, _)| doc.seg_text(s))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains("Reply 5"), "{text}");
        assert!(!text.contains("Search this community"), "{text}");
    }

    /// A `header` class inside `<main>` is the content's own header (MDN's
    /// `layout__header`: the summary and its notes), as a `<header>` tag there is; the
    /// site's header outside it stays out.
    #[test]
    fn a_header_class_inside_main_is_the_contents_own() {
        let p = "<p>The WebSocket object provides the API for creating and managing a connection to a server, and for sending and receiving data on the connection, in both directions.</p>";
        let html = format!(
            "<body><div class='site-header'><a href=/>Home</a> <span>Sign in to the developer network and more</span></div>\
             <main><div class='layout__header'><h1>WebSocket</h1><div class='notecard note'><p>Note: This feature is available in Web Workers.</p></div></div>\
             <div class=body>{p}{p}{p}</div></main></body>"
        );
        let t = extract_text(&html, &Auto::default()).text;
        assert!(t.contains("available in Web Workers"), "{t}");
        assert!(t.contains("creating and managing"), "{t}");
        assert!(!t.contains("Sign in"), "{t}");
    }

    #[test]
    fn a_wrapper_with_a_boilerplate_class_does_not_erase_the_page() {
        let html = "<div class='page sidebar-left'><p>This is the only text on the page, a paragraph that is long enough to count, with commas, and more.</p><p>And a second paragraph, which is also long enough to be counted as content.</p></div>";
        let t = extract_text(html, &Auto::default()).text;
        assert!(t.contains("only text on the page"), "{t}");
    }

    #[test]
    fn short_pages_fall_back_instead_of_returning_nothing() {
        let html = "<body><nav><a href=/>Home</a></nav><div><h2>Maria Lindqvist</h2><p>Reporter covering transport and the environment since 2015.</p></div><footer>(c) 2024</footer></body>";
        let t = extract_text(html, &Auto::default()).text;
        assert!(t.contains("Reporter covering transport"), "{t}");
        assert!(!t.contains("Home") && !t.contains("(c) 2024"), "{t}");
    }

    #[test]
    fn wiki_pages_with_many_in_text_links_survive() {
        let mut html = String::from("<body><div id=content><h1>Fastnet Rock</h1>");
        for i in 0..6 {
            html.push_str(&format!("<p>The <a href=/a{i}>Fastnet Rock</a> is a small <a href=/b{i}>clay-slate</a> islet in the <a href=/c{i}>Atlantic Ocean</a>, and it is the most southerly point of <a href=/d{i}>Ireland</a>, paragraph {i}.</p>"));
        }
        html.push_str("</div><div class=navbox><a href=/x>Lighthouses</a> <a href=/y>Islands</a> <a href=/z>Cork</a></div></body>");
        let t = extract_text(&html, &Auto::default()).text;
        assert!(t.contains("paragraph 5"), "{t}");
        assert!(t.contains("most southerly point of Ireland"), "{t}");
        assert!(!t.contains("Lighthouses"), "{t}");
    }

    #[test]
    fn an_article_split_over_table_cells_is_kept_whole() {
        let para = |i: usize| {
            format!("<p>Paragraph {i} of the review, long enough and free of links, describes the instrument's keyboard, its sound and how it compares with the older model in daily use at home, on stage and in the studio over several weeks.</p>")
        };
        let html = format!(
            "<table><tr><td class=menu><a href=/a>Home</a> <a href=/b>Reviews</a></td>\
             <td><h1>Keyboard review</h1>{}{}{}</td></tr><tr><td></td><td>{}</td></tr></table><div class=footer><a href=/c>Contact</a></div>",
            para(0),
            para(1),
            para(2),
            para(3)
        );
        let t = extract_text(&html, &Auto::default()).text;
        assert!(
            t.contains("Paragraph 0") && t.contains("Paragraph 3"),
            "{t}"
        );
        assert!(!t.contains("Contact") && !t.contains("Reviews"), "{t}");
    }

    #[test]
    fn a_post_header_is_part_of_the_post() {
        let html = "<header class=site><a href=/>Site</a><a href=/x>Section</a></header><div class='post hentry'><header><h1>Post title</h1><span class=byline>By A. Writer</span></header><p>The body of the post is long enough to be content, with commas, clauses, and a full stop at the end.</p><p>A second paragraph follows, and it is also long enough to count as real content here.</p></div>";
        let t = extract_text(html, &Auto::default()).text;
        assert!(t.starts_with("Post title\nBy A. Writer"), "{t}");
        assert!(!t.contains("Section"), "{t}");
    }

    /// What the rules (`auto-rules`) keep of `html` typed as `page_type`: the per-type
    /// stages are rules; the learned stage is retrained on them and tested in `auto_model`.
    fn select_as(html: &str, page_type: PageType) -> String {
        let doc = Doc::parse(html);
        let info = crate::extract::PageInfo {
            page_type,
            ..Default::default()
        };
        let rules = Auto {
            learned: false,
            ..Auto::default()
        };
        let keep = rules.select_page(&doc, &info);
        crate::extract::render(&doc, &keep)
    }

    /// A thread: the question and three replies, each in a `post_N` block inside a comment
    /// list, as Discourse's and phpBB's crawler views lay them out.
    fn thread() -> String {
        let post = |n: usize, who: &str, text: &str| {
            format!(
                "<div class=\"post_{n} topic-body reply\"><div class=\"author\">{who}</div>\
                 <div class=\"post-text\"><p>{text}</p></div></div>"
            )
        };
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/latest>Latest</a></nav>\
             <div id=\"comments-thread\">{}{}{}{}</div><footer>Powered by a forum</footer></body></html>",
            post(1, "ann", "My garden pond turns green every summer, even with a pump running all day. What am I doing wrong, and should I add plants?"),
            post(2, "bob", "Green water is algae, fed by sunlight and nutrients; floating plants that shade a third of the surface starve it within weeks."),
            post(3, "cy", "A UV clarifier fixed it for me, though it took a fortnight, and I also stopped feeding the fish so much every single day."),
            post(4, "dee", "Barley straw works as well, slowly, and it costs almost nothing: put a bale in a net bag near the pump in early spring."),
        )
    }

    #[test]
    fn on_a_forum_page_the_replies_are_the_content() {
        let html = thread();
        let forum = select_as(&html, PageType::Forum);
        for reply in ["algae", "UV clarifier", "Barley straw", "garden pond"] {
            assert!(forum.contains(reply), "{forum}");
        }
        assert!(!forum.contains("Powered by"), "{forum}");
        // Typed as an article, the comment-named thread is a comments section and goes.
        let article = select_as(&html, PageType::Article);
        assert!(!article.contains("Barley straw"), "{article}");
    }

    #[test]
    fn a_listing_of_card_links_keeps_its_items() {
        let card = |t: &str, d: &str| {
            format!("<div class=\"item\"><a href=\"/p/{t}\"><h3>{t}</h3><p>{d}</p><span>$19.99</span></a></div>")
        };
        let html = format!(
            "<html><body><nav class=menu><a href=/a>Shop</a> <a href=/b>About</a> <a href=/c>Contact</a></nav>\
             <main><h1>Certificate programs</h1><div class=grid>{}{}{}{}</div></main></body></html>",
            card("Chief Digital Officer", "Lead innovation across your enterprise and keep an edge in the digital economy, in twelve months of study."),
            card("Chief Product Officer", "Acquire the knowledge and skills you need to become an effective product leader, online or live."),
            card("Chief Technology Officer", "Learn how to use the latest technical trends to fuel growth and improve how the business runs."),
            card("Chief Data Officer", "Turn data into decisions: governance, analytics and the teams that make them work, in nine months."),
        );
        let t = select_as(&html, PageType::Listing);
        for item in [
            "Chief Product Officer",
            "become an effective product leader",
            "Chief Data Officer",
            "$19.99",
        ] {
            assert!(t.contains(item), "{t}");
        }
        assert!(!t.contains("Contact"), "{t}");
    }

    #[test]
    fn a_collection_keeps_its_product_grid_with_linked_titles() {
        let item = |name: &str, price: &str| {
            format!(
                "<li class=\"tile\"><h4><a href=\"/p/{name}\">{name} Water Bottle - 32 fl. oz.</a></h4>\
                 <span>{price}</span><dl><dt>Cap Type:</dt><dd>Screw Cap</dd></dl></li>"
            )
        };
        let items: String = ["Nalgene", "YETI", "Hydro", "Klean", "Stanley"]
            .iter()
            .zip(["$17.00", "$50.00", "$44.95", "$29.95", "$35.00"])
            .map(|(n, p)| item(n, p))
            .collect();
        let html = format!(
            "<html><body><nav class=menu><a href=/a>Camp</a> <a href=/b>Hike</a></nav>\
             <div class=\"search-page-wrapper\"><p>171 products</p><ul class=grid>{items}</ul></div>\
             <section class=faq><h2>Frequently asked questions</h2><p>How do I clean a bottle? \
             Rinse it with warm soapy water after every use, and let it dry with the cap off, \
             so nothing grows inside it between your trips.</p></section></body></html>"
        );
        let t = select_as(&html, PageType::Collection);
        for want in [
            "Nalgene Water Bottle",
            "$50.00",
            "Stanley Water Bottle",
            "Screw Cap",
        ] {
            assert!(t.contains(want), "{t}");
        }
        assert!(!t.contains("Hike"), "{t}");
    }

    #[test]
    fn card_links_are_links_that_hold_blocks() {
        let doc = Doc::parse(
            "<a href=/x>nav</a><a href=/y><div>card</div></a><a name=z><p>anchor</p></a>",
        );
        let card = card_links(&doc);
        let tagged: Vec<(Tag, bool)> = doc
            .elements
            .iter()
            .map(|e| e.tag)
            .zip(card)
            .skip(1)
            .collect();
        assert_eq!(
            tagged,
            [
                (Tag::A, false),
                (Tag::A, true),
                (Tag::Div, true),
                (Tag::A, false),
                (Tag::P, false)
            ]
        );
    }

    #[test]
    fn a_card_link_in_the_site_chrome_is_a_menu_entry() {
        let doc = Doc::parse(
            "<header><a href=/sql><div>Cloud SQL</div></a></header><main><header><a href=/a><div>Own</div></a></header></main><nav><a href=/b><p>Menu</p></a></nav><a href=/c><div>Card</div></a>",
        );
        let card = card_links(&doc);
        let cards: Vec<&str> = doc
            .segments
            .iter()
            .filter(|s| card[s.element as usize])
            .map(|s| doc.seg_text(s))
            .collect();
        assert_eq!(cards, ["Own", "Card"]);
    }

    /// A mega menu in the site's `<header>`: each entry a link around a name and a line of
    /// description, more words in all than the article. It goes, as a `<nav>` would.
    #[test]
    fn a_mega_menu_header_goes_however_big() {
        let entry = |k: usize| {
            format!("<li><a href=/p{k}><div>Product {k}</div><div>A fully managed service for running your workloads at any scale, number {k}.</div></a></li>")
        };
        let menu: String = (0..40).map(entry).collect();
        let html = format!(
            "<html><body><header class=masthead><ul>{menu}</ul></header><div class=content><h1>What is cloud computing?</h1><p>Cloud computing is the on-demand availability of computing resources, such as storage and infrastructure, as services over the internet.</p><p>It frees businesses from buying, running and maintaining their own machines, and they pay only for what they use.</p></div></body></html>"
        );
        let t = extract_text(&html, &Auto::default()).text;
        assert!(t.contains("on-demand availability"), "{t}");
        assert!(!t.contains("fully managed service"), "{t}");
    }

    use proptest::prelude::*;

    /// Pieces of markup that `auto` treats differently: boilerplate and content containers,
    /// links, lists, headings, hidden and script elements, entities, text.
    fn markup_piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("<p>".to_string()),
            Just("</p>".to_string()),
            Just("<div class=nav>".to_string()),
            Just("<div class=article-body>".to_string()),
            Just("</div>".to_string()),
            Just("<ul><li><a href=/x>".to_string()),
            Just("</a></li></ul>".to_string()),
            Just("<h1>".to_string()),
            Just("</h1>".to_string()),
            Just("<footer>© 2024 Site".to_string()),
            Just("</footer>".to_string()),
            Just("<article>".to_string()),
            Just("<br>".to_string()),
            Just("<span hidden>".to_string()),
            Just("<noscript>".to_string()),
            Just("<script>var x = '<p>';</script>".to_string()),
            Just("&amp; &#8212; &nbsp;".to_string()),
            "[a-zA-Z]{1,9}( [a-z]{1,9}){0,14}[.,]?",
            "[^<&]{0,24}",
        ]
    }

    proptest! {
        // Whatever the markup, `auto` returns, gives the same text twice, and keeps only
        // words a reader of the page sees (`plain`'s): it selects, it never writes (these
        // pages carry no structured data to fall back to).
        #[test]
        fn auto_keeps_a_subset_of_the_visible_words(
            pieces in proptest::collection::vec(markup_piece(), 0..60),
        ) {
            let html = format!("<html><body>{}</body></html>", pieces.concat());
            let auto = extract_text(&html, &Auto::default()).text;
            prop_assert_eq!(&auto, &extract_text(&html, &Auto::default()).text);
            let plain = extract_text(&html, &super::super::plain::Plain).text;
            let visible: std::collections::HashSet<&str> = plain.split_whitespace().collect();
            for w in auto.split_whitespace() {
                prop_assert!(visible.contains(w), "{w:?} of {auto:?} not in {plain:?}");
            }
        }
    }

    #[test]
    fn features_describe_the_blocks() {
        let html = "<html><head><title>River plan approved</title></head><body><nav><a href=/>Home</a></nav><article><h1>River plan approved</h1><p>The council approved the river plan on Tuesday, after a long debate, and work starts soon.</p></article><div class=legal>© 2024 Daily</div><footer>Contact us</footer></body></html>";
        let doc = Doc::parse(html);
        let t = block_table(&doc, &Auto::default());
        assert_eq!(t.rows.len(), t.texts.len());
        let col = |name: &str| FEATURE_NAMES.iter().position(|n| *n == name).unwrap();
        let h1 = t
            .texts
            .iter()
            .position(|s| s == "River plan approved")
            .unwrap();
        assert_eq!(t.rows[h1][col("heading")], 1.0);
        assert_eq!(t.rows[h1][col("title_overlap")], 1.0);
        assert_eq!(t.rows[h1][col("anc_article")], 1.0);
        let legal = t.texts.iter().position(|s| s.contains('©')).unwrap();
        assert_eq!(t.rows[legal][col("copyright")], 1.0);
        assert_eq!(t.rows[legal][col("pruned")], 0.0);
        let foot = t.texts.iter().position(|s| s == "Contact us").unwrap();
        assert_eq!(t.rows[foot][col("pruned")], 1.0);
        let nav = t.texts.iter().position(|s| s == "Home").unwrap();
        // Pruned blocks count no characters (their text is out whatever the model says).
        assert_eq!(t.rows[nav][col("pruned")], 1.0);
        assert_eq!(t.rows[nav][col("log_chars")], 0.0);
        let p = t
            .texts
            .iter()
            .position(|s| s.starts_with("The council"))
            .unwrap();
        assert_eq!(t.rows[p][col("rules_kept")], 1.0);
        assert_eq!(t.rows[p][col("ends_punct")], 1.0);
        assert!(t.kept[p] && !t.kept[nav] && !t.kept[foot]);
        assert!(t.rules_kept[p] && !t.rules_kept[legal]);
    }

    #[test]
    fn a_recommendation_heading_marks_its_section() {
        // Under "You may also like" (an <h2>), the cards' <h4> names do not end the
        // section; the next <h2> does.
        let card = |n: &str| format!("<div class=card><h4>{n}</h4><p>Linen, $80</p></div>");
        let html = format!(
            "<html><body><main><h1>Iris dress</h1><p>A dress of hemp, in three layers, with a \
             side zip and a pocket on the right.</p><h2>You may also like</h2>{}{}\
             <h2>Care</h2><p>Dry clean only.</p></main></body></html>",
            card("Rosa skirt"),
            card("Lily top")
        );
        let doc = Doc::parse(&html);
        let t = block_table(&doc, &Auto::default());
        let col = FEATURE_NAMES
            .iter()
            .position(|n| *n == "under_boiler_heading")
            .unwrap();
        let under = |text: &str| {
            let k = t.texts.iter().position(|s| s.starts_with(text)).unwrap();
            t.rows[k][col]
        };
        assert_eq!(under("A dress of hemp"), 0.0);
        assert_eq!(under("You may also like"), 1.0);
        assert_eq!(under("Lily top"), 1.0);
        assert_eq!(under("Linen, $80"), 1.0);
        assert_eq!(under("Care"), 0.0);
        assert_eq!(under("Dry clean only."), 0.0);
    }

    /// The item grid is found whatever the page's type (a listing typed as an article keeps
    /// its cards' mark for the learned model), and only its items carry the mark: not the
    /// page's heading, not a menu of bare links however many look-alike entries it has.
    #[test]
    fn the_item_grid_is_marked_on_every_page_type() {
        let card = |t: &str| {
            format!("<div class=\"card card-7\"><a href=/j/{t}><h3>{t}</h3></a><p>Remote, full time, from $90k</p></div>")
        };
        let link = |t: &str| format!("<li class=nav-item><a href=/{t}>{t} jobs</a></li>");
        let html = format!(
            "<html><body><ul class=menu>{}{}{}{}{}</ul><main><h1>Rust jobs this week</h1>\
             <div class=results>{}{}{}{}</div></main></body></html>",
            link("Go"),
            link("Python"),
            link("Java"),
            link("Swift"),
            link("Kotlin"),
            card("Backend engineer"),
            card("Compiler engineer"),
            card("Platform engineer"),
            card("Data engineer")
        );
        let doc = Doc::parse(&html);
        for page_type in [PageType::Article, PageType::Listing] {
            let d = Auto::default().decide(&doc, page_type);
            let in_grid = |text: &str| block_feature(&doc, &d, "in_grid", text);
            assert_eq!(in_grid("Compiler engineer"), 1.0, "{page_type:?}");
            assert_eq!(in_grid("Remote, full time"), 1.0, "{page_type:?}");
            assert_eq!(in_grid("Rust jobs this week"), 0.0, "{page_type:?}");
            assert_eq!(in_grid("Python jobs"), 0.0, "{page_type:?}");
        }
    }

    #[test]
    fn a_weak_word_leaves_prose_to_the_model() {
        // A hero `banner`'s pitch is mostly prose: the weak word does not prune it, the
        // model judges it. A `widget` of links is pruned as before.
        let pitch = "Our movers pack, load and carry every box of your home across the state, \
                     and they insure each piece of furniture for the whole trip.";
        let body = "Moving house is easier with a plan. Start a month ahead, sort what you \
                    own, and book the van early in the busy summer season.";
        let html = format!(
            "<html><body><div class=hero-banner><p>{pitch}</p></div>\
             <main><p>{body}</p><p>{body}</p><p>{body}</p></main>\
             <div class=widget><a href=/a>Packing tips</a> <a href=/b>Storage units</a> \
             <a href=/c>Truck rental</a></div></body></html>"
        );
        let doc = Doc::parse(&html);
        let d = Auto::default().decide(&doc, PageType::Service);
        let pruned = |text: &str| block_feature(&doc, &d, "pruned", text);
        assert_eq!(pruned("Our movers pack"), 0.0);
        assert_eq!(pruned("Packing tips"), 1.0);
        assert_eq!(pruned("Moving house"), 0.0);
    }

    #[test]
    fn a_line_repeated_elsewhere_on_the_page_is_kept_once() {
        let quote =
            "Loved the experience of ordering here, a beautiful selection and quick delivery.";
        let story =
            "The dress is cut from hemp in three flowing layers, with a side zip and a pocket.";
        let html = format!(
            "<html><body><main><h1>Iris dress</h1><p>{story}</p><p>{story}</p>\
             <nav class=toc><a href=#care>Care and washing</a></nav>\
             <table><tr><td>Fabric one</td><td>100% long-staple cotton</td></tr>\
             <tr><td>Fabric two</td><td>100% long-staple cotton</td></tr></table>\
             <div class=slider><div class=slide><p>{quote}</p></div>\
             <div class='slide slick-cloned'><p>{quote}</p></div></div>\
             <h2 id=care>Care and washing</h2><p>Dry clean only, never bleach.</p></main></body></html>"
        );
        let out = extract_text(&html, &Auto::default()).text;
        // The clone goes; a paragraph said twice in one text stays twice, and so do a
        // table's repeated cells and a heading its table of contents links to.
        assert_eq!(out.matches("Loved the experience").count(), 1, "{out}");
        assert_eq!(out.matches("three flowing layers").count(), 2, "{out}");
        assert_eq!(out.matches("long-staple").count(), 2, "{out}");
        assert!(out.contains("Care and washing"), "{out}");
        let doc = Doc::parse(&html);
        let mut keep = vec![true; doc.segments.len()];
        drop_repeated_lines(&doc, &mut keep);
        assert_eq!(keep.iter().filter(|k| !**k).count(), 1);
    }

    #[test]
    fn news_pages_in_chinese_and_japanese_keep_their_article() {
        // Sentences run without spaces: a paragraph is one "word" to a whitespace split,
        // and the prose features count its characters.
        let zh = "<html lang=zh-CN><body><div class=header><ul class=nav>\
            <li><a href=/>首页</a></li><li><a href=/news>新闻</a></li><li><a href=/sports>体育</a></li></ul></div>\
            <div class=main><h1>市议会批准河道治理计划</h1>\
            <div class=info>2024年05月12日 来源：示例日报</div><div class=article>\
            <p>市议会在经过长时间的辩论之后，于星期二批准了这条河的治理计划，工程将在今年下半年开始。这是本市近十年来规模最大的水利工程之一。</p>\
            <p>根据计划，河道两岸将新建约十二公里的绿道和三座人行桥，同时对沿岸的排污口进行全面整治。</p>\
            <p>不少市民对这一计划表示欢迎。也有市民担心施工期间的交通和噪音问题，市政府表示将分段施工。</p></div>\
            <div class=related><h3>相关文章</h3><ul><li><a href=/a/1.html>全市水利工程建设进展顺利</a></li>\
            <li><a href=/a/2.html>环保部门加强河道水质监测</a></li></ul></div></div>\
            <div class=footer><p>关于我们 | 联系我们 | 网站地图</p><p>Copyright © 2024 示例网 版权所有</p></div></body></html>";
        let out = extract_text(zh, &Auto::default()).text;
        assert!(out.contains("批准了这条河的治理计划"), "{out}");
        assert!(out.contains("分段施工"), "{out}");
        assert!(
            !out.contains("全市水利工程") && !out.contains("版权所有"),
            "{out}"
        );
        let ja = "<html lang=ja><body><div id=header><ul class=gnav><li><a href=/>ホーム</a></li>\
            <li><a href=/kyoto>京都</a></li></ul></div><div id=content><div class=entry>\
            <h1 class=entry-title>初めての京都旅行で行きたい寺社</h1><div class=entry-content>\
            <p>京都には千を超える寺社がありますが、初めての旅行ではどこを回ればよいか迷ってしまいますよね。</p>\
            <p>清水の舞台で有名な清水寺は、京都を代表する観光地です。朝早く訪れると人が少なく、景色をゆっくり楽しめます。</p>\
            <p>千本鳥居で知られる伏見稲荷大社は、山全体が境内になっています。</p></div>\
            <div class=related-entries><h3>関連記事</h3><ul><li><a href=/p/1>大阪で食べたいグルメ10選</a></li>\
            <li><a href=/p/2>奈良公園の鹿と遊ぶ一日</a></li></ul></div></div></div>\
            <div id=footer><p>Copyright © 2024 旅のブログ 無断転載を禁じます。</p></div></body></html>";
        let out = extract_text(ja, &Auto::default()).text;
        assert!(out.contains("清水寺は、京都を代表する観光地です"), "{out}");
        assert!(out.contains("伏見稲荷大社"), "{out}");
        assert!(
            !out.contains("グルメ10選") && !out.contains("無断転載"),
            "{out}"
        );
    }

    #[test]
    fn a_news_page_in_thai_keeps_its_article() {
        // Thai spaces phrases, not words: a run is a word per five characters.
        let th = "<html lang=th><body><div class=header><ul class=menu>\
            <li><a href=/>หน้าแรก</a></li><li><a href=/news>ข่าว</a></li><li><a href=/sport>กีฬา</a></li></ul></div>\
            <div class=main><h1>สภากรุงเทพฯ อนุมัติแผนปรับปรุงคลอง</h1><div class=date>12 พฤษภาคม 2567</div>\
            <div class=article-body>\
            <p>สภากรุงเทพมหานครได้อนุมัติแผนการปรับปรุงคลองสายหลักเมื่อวันอังคารที่ผ่านมา หลังจากการอภิปรายเป็นเวลานาน โครงการนี้จะเริ่มดำเนินการในช่วงครึ่งหลังของปีนี้</p>\
            <p>ตามแผนดังกล่าว จะมีการสร้างทางเดินริมคลองระยะทางประมาณสิบสองกิโลเมตรและสะพานคนเดินข้ามอีกสามแห่ง พร้อมทั้งปรับปรุงระบบระบายน้ำเสียตลอดแนวคลอง</p>\
            <p>ประชาชนจำนวนมากแสดงความยินดีต่อแผนนี้ แต่บางส่วนกังวลเรื่องการจราจรและเสียงดังระหว่างการก่อสร้าง ทางกรุงเทพมหานครระบุว่าจะทยอยดำเนินการเป็นช่วงๆ</p></div>\
            <div class=related><h3>ข่าวที่เกี่ยวข้อง</h3><ul><li><a href=/n/1>ความคืบหน้าโครงการระบบระบายน้ำทั่วเมือง</a></li>\
            <li><a href=/n/2>กรมควบคุมมลพิษเพิ่มการตรวจคุณภาพน้ำ</a></li></ul></div></div>\
            <div class=footer><p>เกี่ยวกับเรา | ติดต่อเรา | แผนผังเว็บไซต์</p><p>Copyright © 2024 ข่าวตัวอย่าง สงวนลิขสิทธิ์</p></div></body></html>";
        let out = extract_text(th, &Auto::default()).text;
        assert!(out.contains("อนุมัติแผนการปรับปรุงคลองสายหลัก"), "{out}");
        assert!(out.contains("สะพานคนเดินข้ามอีกสามแห่ง"), "{out}");
        assert!(out.contains("ทยอยดำเนินการเป็นช่วงๆ"), "{out}");
        assert!(
            !out.contains("ระบบระบายน้ำทั่วเมือง") && !out.contains("สงวนลิขสิทธิ์"),
            "{out}"
        );
        assert!(!out.contains("หน้าแรก"), "{out}");
    }

    #[test]
    fn a_shared_link_with_its_discussion_keeps_the_discussion() {
        let reply = |who: &str, text: &str| {
            format!("<div class=comment><a href=/u/{who}>{who}</a><div class=comment-text><p>{text}</p></div></div>")
        };
        let replies: String = [
            ("kiri", "Very interested in the ergonomic reference counting work, since I clone reference-counted pointers into async tasks all day long and it adds up."),
            ("dureuill", "So do I, and I do not find that eliding the clones would improve ergonomics much, especially with the complexity of a new trait for cheap clones."),
            ("knapp", "That is my concern as well. I have never felt the pain of cloning to be a burden large enough to justify implicit cloning of smart pointers."),
            ("vale", "The goal about the new trait solver is the one I am most looking forward to, because it fixes so many long-standing soundness bugs at once."),
        ]
        .iter()
        .map(|(w, t)| reply(w, t))
        .collect();
        let page = |story: &str| {
            format!(
                "<html><body><nav><a href=/>Home</a> <a href=/new>New</a></nav>\
                 <main><div class=story>{story}</div>\
                 <ol class=comments><li>{replies}</li></ol></main></body></html>"
            )
        };
        // Lobsters and Hacker News show a shared link's domain beside its title.
        let shared = page(
            "<a href=https://blog.example.org/goals.html>Project goals for 2024</a> \
             <a class=domain href=/origin/blog.example.org>blog.example.org</a> via <a href=/u/scv>scv</a>",
        );
        let out = extract_text(&shared, &Auto::default()).text;
        assert!(out.contains("ergonomic reference counting"), "{out}");
        assert!(out.contains("new trait solver"), "{out}");
        // A photo post's caption is the post: its comments stay out.
        let photo = page("<h2><a href=/2024/09/prepping.html>prepping for a new week.</a></h2>");
        let out = extract_text(&photo, &Auto::default()).text;
        assert!(out.contains("prepping for a new week"), "{out}");
        assert!(!out.contains("ergonomic"), "{out}");
        assert!(is_domain("blog.rust-lang.org") && is_domain("nytimes.com"));
        assert!(!is_domain("v1.2") && !is_domain("e.g.") && !is_domain("Fig. 3"));
    }

    #[test]
    fn a_story_summary_under_a_headline_citing_its_source_keeps_the_discussion() {
        let sentence = "The kernel developers weighed a move from plain C to a modern dialect of \
                        C++, citing templates, overloading and stricter type checks as gains. ";
        let reply = |i: usize| {
            format!(
                "<div class=comment><a href=/u/{i}>user{i}</a><div class=comment-text><p>Reply \
                 {i}: the real question is whether maintainers would accept the churn, since \
                 every subsystem would need review, and the toolchains differ across the \
                 architectures that the kernel still supports today.</p></div></div>"
            )
        };
        let replies: String = (0..60).map(reply).collect();
        let page = |paragraphs: usize| {
            let summary: String = (0..paragraphs)
                .map(|_| format!("<p>{}</p>", sentence.repeat(3)))
                .collect();
            format!(
                "<html><body><nav><a href=/>Home</a> <a href=/new>New</a></nav><main>\
                 <article><h2><a href=/story/1>A Discussion Whether To Convert The Kernel To \
                 Modern C++</a> <a class=story-sourcelnk href=https://www.phoronix.com/news/1>\
                 (phoronix.com)</a></h2>\
                 <div class=details>Posted by an editor on Friday</div>{summary}</article>\
                 <div class=comments>{replies}</div></main></body></html>"
            )
        };
        // Slashdot's form: a summary of 130 words, 2,000 in the discussion.
        let out = extract_text(&page(2), &Auto::default()).text;
        assert!(out.contains("modern dialect"), "{out}");
        assert!(out.contains("Reply 7: the real question"), "{out}");
        // An article of its own (400 words and more) citing its source keeps to itself.
        let out = extract_text(&page(8), &Auto::default()).text;
        assert!(out.contains("modern dialect"), "{out}");
        assert!(!out.contains("Reply 7"), "{out}");
    }

    #[test]
    fn bare_asset_urls_go_and_other_urls_stay() {
        let story =
            "The tee is cut from combed cotton in a regular fit, with side seams and ribbing.";
        let html = format!(
            "<html><body><main><h1>Staple tee</h1><p>{story}</p>\
             <dl><dt>cat_thumb_Bone:</dt><dd>https://cdn.example.com/images/5001_BONE_THUMB.jpg</dd>\
             <dt>swatch:</dt><dd>//cdn.example.com/s/bone.PNG?v=3</dd></dl>\
             <p>Size guide:</p><p>https://example.com/size-guide</p></main></body></html>"
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("combed cotton"), "{out}");
        assert!(
            !out.contains("THUMB.jpg") && !out.contains("bone.PNG"),
            "{out}"
        );
        let doc = Doc::parse(&html);
        let mut keep = vec![true; doc.segments.len()];
        drop_asset_urls(&doc, &mut keep);
        let dropped: Vec<&str> = doc
            .segments
            .iter()
            .zip(&keep)
            .filter(|(_, k)| !**k)
            .map(|(s, _)| doc.seg_text(s))
            .collect();
        assert_eq!(
            dropped,
            [
                "https://cdn.example.com/images/5001_BONE_THUMB.jpg",
                "//cdn.example.com/s/bone.PNG?v=3"
            ]
        );
    }

    #[test]
    fn a_button_label_alone_on_its_line_goes() {
        let card = |name: &str| {
            format!(
                "<div class=card><h3>{name} tutoring</h3><p>Weekly lessons with a tutor who knows the syllabus, the exams and how to plan a term of revision around them.</p><a href=/{name}>Learn more</a></div>"
            )
        };
        let html = format!(
            "<html><body><main><h1>Our tutoring</h1>{}{}{}<p><a href=/more>Read more about the council's plan</a></p></main></body></html>",
            card("Maths"),
            card("Physics"),
            card("Chemistry")
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("Physics tutoring"), "{out}");
        assert!(out.contains("how to plan a term"), "{out}");
        assert!(!out.lines().any(|l| l == "Learn more"), "{out}");
    }

    #[test]
    fn a_consent_manager_goes_whatever_its_size() {
        let purpose = "<p>Store and access information on a device, such as cookies and device identifiers, for the purposes described below, and measure how the content performs.</p>";
        let html = format!(
            "<html><body><main><h1>Dinner recipes</h1><p>{}</p></main>\
             <div id=\"onetrust-consent-sdk\"><div class=\"ot-sdk-container\">{}</div></div></body></html>",
            "Quick dinners for busy weeks, from sheet pan chicken to a one-pot pasta, each ready in half an hour and loved by the whole family.",
            purpose.repeat(6)
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("sheet pan chicken"), "{out}");
        assert!(!out.contains("device identifiers"), "{out}");
    }

    #[test]
    fn a_dialog_goes_whatever_its_size_but_not_drupals_page_wrapper() {
        let notice = "<p>We use cookies to improve your web browsing experience, enhance site security, and for marketing and promotional purposes, and to remember your preferences.</p>";
        let story = "Quick dinners for busy weeks, from sheet pan chicken to a one-pot pasta, each ready in half an hour and loved by the whole family.";
        let html = format!(
            "<html><body><div class=\"dialog-off-canvas-main-canvas\"><main><h1>Dinner recipes</h1><p>{story}</p></main></div>\
             <section><div id=\"ensNotifyBanner\" role=\"dialog\" aria-label=\"Consent Banner\">{}</div></section></body></html>",
            notice.repeat(6)
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("sheet pan chicken"), "{out}");
        assert!(!out.contains("browsing experience"), "{out}");
        let dialog = |ident: &str| ident_bits(ident) & W_DIALOG != 0;
        assert!(dialog("ensnotifybanner dialog") && dialog("alertdialog"));
        assert!(!dialog("dialog-off-canvas-main-canvas") && !dialog("muidialog-root"));
    }

    #[test]
    fn a_code_comment_is_not_a_comment_section() {
        let intro = "<p>Git tracks every change to a project, and a handful of commands covers most of what a developer does with it from one day to the next.</p>";
        let html = format!(
            "<html><body><article><h1>A brief intro to git</h1>{intro}\
             <pre><code class=\"language-bash hljs\"><span class=\"hljs-comment\"># initialize a repository</span>\ngit init\n\
             <span class=\"token comment\"># stage every modified file</span>\ngit add -A\n</code></pre>{intro}</article>\
             <div class=\"comments\"><p>Great post, thanks for writing this up for beginners like me, it helped a lot.</p></div></body></html>"
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(
            out.contains("git init") && out.contains("git add -A"),
            "{out}"
        );
        assert!(out.contains("# initialize a repository"), "{out}");
        assert!(out.contains("# stage every modified file"), "{out}");
        assert!(!out.contains("Great post"), "{out}");
    }

    #[test]
    fn a_side_by_side_comparison_is_kept() {
        let html = "<html><body><main><h1>Plans</h1><p>Compare our two plans below and choose the one that fits the way your team works today and the way it will grow.</p>\
             <div class=\"side-by-side\"><div><h3>Basic</h3><ul><li>5 users</li><li>10 GB storage</li><li>Email support</li></ul></div>\
             <div><h3>Pro</h3><ul><li>50 users</li><li>1 TB storage</li><li>Phone support</li></ul></div></div>\
             <p>Both plans can be cancelled at any time, and you keep your data for thirty days after you leave, whichever plan you chose.</p></main>\
             <div class=\"side-nav\"><ul><li>Pricing FAQ</li><li>Enterprise plans</li><li>Partner discounts</li></ul></div></body></html>";
        let out = extract_text(html, &Auto::default()).text;
        assert!(
            out.contains("1 TB storage") && out.contains("Email support"),
            "{out}"
        );
        assert!(!out.contains("Partner discounts"), "{out}");
    }

    #[test]
    fn running_text_under_a_navigation_word_is_kept() {
        let html = "<html><body><nav class=\"menu\"><ul><li><a href=\"/\">Home</a></li><li><a href=\"/about\">About us</a></li><li><a href=\"/book\">Book a table</a></li></ul></nav>\
             <main><h1>Our autumn menu</h1><p>Every dish on this menu is cooked from what the farms around the valley bring us that week, so the list changes as the season turns.</p>\
             <p>Tell us about any allergy when you book: the kitchen can change most dishes, and the staff will tell you what each plate holds before you order it.</p>\
             <div class=\"menu-section\"><h2>Starters</h2><p>Grilled octopus with lemon, capers and smoked paprika oil, served warm with sourdough.</p>\
             <p>Burrata with heritage tomatoes, basil oil and toasted pine nuts from our own garden.</p></div>\
             <div class=\"share-menu\"><p>Share this menu with your friends and family on every network you use.</p></div></main></body></html>";
        let out = extract_text(html, &Auto::default()).text;
        assert!(
            out.contains("Grilled octopus") && out.contains("Burrata"),
            "{out}"
        );
        // Links under a navigation word go, and so does prose under any other strong word.
        assert!(!out.contains("Book a table"), "{out}");
        assert!(!out.contains("Share this menu"), "{out}");
    }

    #[test]
    fn a_code_blocks_toolbar_wrapper_is_not_a_toolbar() {
        let intro = "<p>Serde makes parsing JSON a one-liner in most programs, and the derive macros keep the types and the data in step.</p>";
        let html = format!(
            "<html><body><article><h1>Parsing JSON in Rust</h1>{intro}\
             <div class=\"code-toolbar\"><pre class=\"language-rust\"><code>let v: Value = serde_json::from_str(data)?;\n\
             println!(\"{{}}\", v[\"name\"]);</code></pre><div class=\"toolbar\"><button>Copy</button></div></div>\
             {intro}<div class=\"share-toolbar\"><p>Share this article with your friends and followers on every network you use.</p></div>\
             </article></body></html>"
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("serde_json::from_str(data)"), "{out}");
        assert!(!out.contains("Copy"), "{out}");
        assert!(!out.contains("Share this article"), "{out}");
    }

    #[test]
    fn customer_reviews_are_a_products_comments() {
        for ident in [
            "product-reviews",
            "pdp reviewlist",
            "bv-reviews-container",
            "yotpo-main-widget",
            "jdgm-rev-widg",
            "okereviews",
        ] {
            assert!(customer_reviews(ident), "{ident}");
        }
        for ident in [
            "image-preview",
            "product-overview",
            "testimonial-card",
            "description",
        ] {
            assert!(!customer_reviews(ident), "{ident}");
        }
        let desc = "<p>A solid oak shelf unit with eight open cubes, for books, records and baskets, that stands upright or on its side.</p>";
        let review = "<p>Great shelf, easy to put together and very sturdy; I bought three more for the craft room and love them all.</p>";
        let html = format!(
            "<html><head><script type=\"application/ld+json\">{{\"@type\":\"Product\",\"name\":\"Shelf\"}}</script></head>\
             <body><main><h1>Shelf unit</h1><div class=\"price\">$89.99</div>{}\
             <section class=\"product-reviews\"><h2>Reviews</h2>{}</section></main></body></html>",
            desc.repeat(4),
            review.repeat(2)
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("eight open cubes"), "{out}");
        assert!(!out.contains("craft room"), "{out}");
        let with = Auto {
            keep_comments: true,
            ..Auto::default()
        };
        assert!(extract_text(&html, &with).text.contains("craft room"));
    }

    #[test]
    fn a_short_notice_gives_way_to_a_page_its_words_hid() {
        // HubSpot's grid puts every module in a `widget-span`: the weak word pruned the
        // whole article (now it prunes no element that is mostly prose), and only a
        // one-line notice outside it was left.
        let p = "Once your career is under way, it is important to build a solid financial future, one careful step and one sensible habit at a time.";
        let module = format!("<div class=\"widget-span hs_cos_wrapper_widget\"><p>{p}</p></div>");
        let html = format!(
            "<html><body><p>Enable JavaScript to ensure website accessibility</p><main>{}</main></body></html>",
            module.repeat(4)
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("solid financial future"), "{out}");
    }

    #[test]
    fn a_page_is_never_empty_by_accident() {
        // Two equal halves of prose, each in a `widget` (a weak word, which leaves what is
        // mostly prose to the model): both are kept; comments stay out. A Tailwind
        // variant that mentions `banner` is no role word at all.
        let p = "The committee met on Tuesday to review the plan for the new library, and it agreed, after a long and careful debate, to fund the first stage of the work.";
        let html = format!(
            "<html><body><nav><a href=/>Home</a></nav><div class=\"widget\"><p>{p}</p></div>\
             <div class=\"widget\"><p>{p}</p></div>\
             <div class=\"comments\"><p>A reader wrote in to say that the plan, in her view, comes far too late for the town and its many readers.</p></div></body></html>"
        );
        let out = extract_text(&html, &Auto::default()).text;
        assert!(out.contains("committee met"), "{out}");
        assert!(!out.contains("A reader wrote"), "{out}");
        assert!(!out.contains("Home"), "{out}");
        assert_eq!(ident_bits("lg:first:has-[&gt;[data-slot=banner]]:pt-0"), 0);
    }

    #[test]
    fn empty_and_boilerplate_only_pages() {
        assert_eq!(extract_text("", &Auto::default()).text, "");
        let boiler =
            "<nav><a href=/>Home</a></nav><aside>Ads here</aside><footer>(c) 2024</footer>";
        assert_eq!(extract_text(boiler, &Auto::default()).text, "");
        // A page that is nothing but a site footer has no main text (a shop's shell before
        // its scripts run); a `<nav>` around everything may be one left open, and stays.
        assert_eq!(
            extract_text("<nav><a href=/>x</a></nav>", &Auto::default()).text,
            "x"
        );
        let shell = "<body><div id=root></div><footer><dl><dt><h5>Help</h5></dt><dd>\
            <a href=/h>Help Center</a>, <a href=/d>Disputes &amp; Reports</a>, \
            <a href=/r>Return and refund policy</a>, <a href=/t>Transparency Center</a></dd>\
            <dt><h5>Browse by Category</h5></dt><dd><a href=/p>All Popular</a>, \
            <a href=/w>Wiki</a>, <a href=/b>Blog</a></dd></dl></footer></body>";
        assert_eq!(extract_text(shell, &Auto::default()).text, "");
        // The same by a strong word, beside the site's header: a `site-footer` that holds
        // most of the page, though not all of it (a wrapper of everything is the page).
        let by_class = shell
            .replace(
                "<body>",
                "<body><header><a href=/>Shop</a> Sign in for the best prices</header>",
            )
            .replace("<footer>", "<div class=site-footer>")
            .replace("</footer>", "</div>");
        assert_eq!(extract_text(&by_class, &Auto::default()).text, "");
        // A wrapper whose class names a menu around the whole of a links-only page (a news
        // aggregator's front page) is the page: its headlines stay.
        let mut front = String::from("<body><div class=\"navbar-fixed\"><table>");
        for i in 0..20 {
            front.push_str(&format!(
                "<tr><td><a href=/s{i}>Story {i}: a new database engine written in Rust</a> \
                 (<a href=/d{i}>example{i}.com</a>)</td></tr><tr><td>{i} points by \
                 <a href=/u{i}>user{i}</a> | <a href=/c{i}>{i} comments</a></td></tr>"
            ));
        }
        front.push_str("</table></div></body>");
        let t = extract_text(&front, &Auto::default()).text;
        assert!(t.contains("a new database engine"), "{t}");
        // A menu left open around a links-only page is the page: the rules keep it (the
        // model, which sees every row inside a `<nav>`, may still judge its link rows).
        let open_menu = front.replace("<div class=\"navbar-fixed\">", "<nav><a href=/>Home</a>");
        let rules = Auto {
            learned: false,
            ..Auto::default()
        };
        let t = extract_text(&open_menu, &rules).text;
        assert!(t.contains("a new database engine"), "{t}");
        // A menu left open around the article (no `</nav>`) holds prose: it stays.
        let open_nav = "<body><nav><a href=/>Home</a> <a href=/news>News</a>\
            <h1>Harbour reopens</h1><p>The harbour reopened on Monday after a month of repairs, \
            and the first ferries, which had waited outside, came in before noon.</p>\
            <p>Repairs to the northern quay, the town said, will go on until the spring.</p>";
        let t = extract_text(open_nav, &Auto::default()).text;
        assert!(t.contains("harbour reopened"), "{t}");
    }

    /// The front page of books.toscrape.com (a shop's demo for scrapers, laid out as its
    /// Django Oscar theme writes it): a sidebar of 50 categories, a demo-site warning, and
    /// a grid of 20 books, each a cover, stars, a linked title, a price, "In stock" and a
    /// basket button. The books and their prices are the page.
    #[test]
    fn a_shop_grid_keeps_its_items_and_prices() {
        let mut html = String::from(
            "<html lang=\"en-us\"><head><title>All products | Books to Scrape - Sandbox</title>\
             </head><body><header class=\"header container-fluid\"><div class=\"col-sm-8 h1\">\
             <a href=\"index.html\">Books to Scrape</a><small> We love being scraped!</small>\
             </div></header><div class=\"container-fluid page\"><ul class=breadcrumb><li>\
             <a href=\"index.html\">Home</a></li><li class=active>All products</li></ul>\
             <div class=row><aside class=\"sidebar col-sm-4 col-md-3\"><div class=side_categories>\
             <ul class=\"nav nav-list\"><li><a href=\"books_1/index.html\">Books</a><ul>",
        );
        for i in 0..50 {
            html.push_str(&format!(
                "<li><a href=\"books/category-{i}/index.html\">Category {i}</a></li>"
            ));
        }
        html.push_str(
            "</ul></li></ul></div></aside><div class=\"col-sm-8 col-md-9\">\
             <div class=\"page-header action\"><h1>All products</h1></div>\
             <form method=get class=form-horizontal><strong>1000</strong> results - showing \
             <strong>1</strong> to <strong>20</strong>.</form><section>\
             <div class=\"alert alert-warning\" role=alert><strong>Warning!</strong> This is a \
             demo website for web scraping purposes. Prices and ratings here were randomly \
             assigned and have no real meaning.</div><div><ol class=row>",
        );
        let books = [
            "A Light in the Attic",
            "Tipping the Velvet",
            "Soumission",
            "Sharp Objects",
            "Sapiens: A Brief ...",
            "The Requiem Red",
            "The Dirty Little ...",
            "The Coming Woman: ...",
            "The Boys in the B ...",
            "The Black Maria",
            "Starving Hearts ( ...",
            "Shakespeare's Son ...",
            "Set Me Free",
            "Scott Pilgrim's P ...",
            "Rip it Up and Sta ...",
            "Our Band Could Be ...",
            "Olio",
            "Mesaerion: The Be ...",
            "Libertarianism fo ...",
            "It's Only the Him ...",
        ];
        let price = |i: usize| format!("£{}.{:02}", 13 + 2 * i, (37 * i) % 100);
        for (i, title) in books.iter().enumerate() {
            html.push_str(&format!(
                "<li class=\"col-xs-6 col-sm-4 col-md-3 col-lg-3\"><article class=product_pod>\
                 <div class=image_container><a href=\"book_{i}/index.html\"><img \
                 src=\"cover_{i}.jpg\" alt=\"{title}\" class=thumbnail></a></div>\
                 <p class=\"star-rating Three\"><i class=icon-star></i><i class=icon-star></i></p>\
                 <h3><a href=\"book_{i}/index.html\" title=\"{title}\">{title}</a></h3>\
                 <div class=product_price><p class=price_color>{}</p>\
                 <p class=\"instock availability\"><i class=icon-ok></i> In stock</p><form>\
                 <button type=submit class=\"btn btn-primary btn-block\">Add to basket</button>\
                 </form></div></article></li>",
                price(i)
            ));
        }
        html.push_str(
            "</ol><div><ul class=pager><li class=current>Page 1 of 50</li><li class=next>\
             <a href=\"page-2.html\">next</a></li></ul></div></div></section></div></div></div>\
             <footer class=\"footer container-fluid\"></footer></body></html>",
        );
        let t = extract_text(&html, &Auto::default()).text;
        for (i, title) in books.iter().enumerate() {
            assert!(t.contains(title), "{title} missing: {t}");
            let price = price(i);
            assert!(t.contains(&price), "{price} missing: {t}");
        }
        assert!(!t.contains("Category 7"), "{t}");
        assert!(!t.contains("We love being scraped"), "{t}");
    }
}
