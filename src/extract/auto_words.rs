//! The words `auto` reads in a page's `id`, `class` and `role` attributes: the role lists
//! (content, strong and weak boilerplate, comment, article), the learned stage's caption
//! and meta words, and one hash lookup (`ident_bits`) that answers all of them per
//! class word. Shared by the rules ([`super::auto`]) and the learned model
//! ([`super::auto_model`]), below both, so neither imports the other's internals.

use crate::doc::Doc;
use rustc_hash::FxHashMap;

/// Boilerplate words in `id`/`class`/`role` that prune an element whatever else it says (as
/// a whole word, or as a `-`/`_` separated part of one). The navigation words, which spare
/// running text, are [`NAV_BOILER_WORDS`].
pub(crate) const STRONG_BOILER_WORDS: &[&str] = &[
    "footer",
    "sidebar",
    "cookie",
    "cookies",
    "consent",
    "share",
    "sharing",
    "social",
    "related",
    "recommended",
    "newsletter",
    "subscribe",
    "signup",
    "login",
    "advert",
    "advertisement",
    "advertising",
    "sponsor",
    "sponsored",
    "outbrain",
    "taboola",
    "tagcloud",
    "copyright",
    "disclaimer",
    "contentinfo",
    "complementary",
    "searchform",
    "masthead",
    "popup",
    "modal",
];

/// Strong boilerplate words that name a way around the site: they prune as the others do
/// ([`R_STRONG`]), except an element that reads as running text rather than as links (a
/// restaurant's `menu` of dishes, an FAQ's `faq_tabs-menu` of questions and answers).
pub(crate) const NAV_BOILER_WORDS: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "menubar",
    "breadcrumb",
    "breadcrumbs",
    "pagination",
    "pager",
    "toolbar",
];

/// Weaker boilerplate words: they prune only elements that declare no content word. (No
/// `leftcol`/`rightcol`: which side a column is on says nothing of what it holds, the main
/// text is as often in the left one, and as part of a longer class it names a column of
/// the content itself, Steam's `game_area_sys_req_leftCol` of system requirements.)
pub(crate) const WEAK_BOILER_WORDS: &[&str] = &[
    "side", "aside", "widget", "banner", "ad", "ads", "promo", "tags", "popular", "trending",
    "skip", "print", "rss", "overlay", "search", "tools",
];

/// `header`: a weak boilerplate word outside an article or `<main>` (the site's masthead),
/// the content's own header inside one ([`R_HEADER`]).
const HEADER_WORDS: &[&str] = &["header"];

const COMMENT_WORDS: &[&str] = &[
    "comment",
    "comments",
    "disqus",
    "respond",
    "replies",
    "reply",
    "discussion",
];

/// A comments section: a comment word, or a class glued from one (`commentlist`,
/// `postcomments`, `commentContent`; not `commentary`, which is an article genre). The twin
/// of [`R_COMMENT`] in [`ident_bits`].
#[cfg(test)]
fn is_comment(ident: &str) -> bool {
    has_word(ident, COMMENT_WORDS)
        || words(ident).filter(|w| !says_nothing(w)).any(|w| {
            (w.starts_with("comment") && !w.starts_with("commentary"))
                || w.ends_with("comments")
                || w.contains("disqus")
        })
}

/// Words that mark the main content.
pub(crate) const CONTENT_WORDS: &[&str] = &[
    "article",
    "articlebody",
    "article-body",
    "article-content",
    "main",
    "content",
    "entry",
    "entry-content",
    "post",
    "post-content",
    "post-body",
    "story",
    "story-body",
    "body",
    "text",
    "blog",
    "hentry",
    "news",
    "page-content",
    "main-content",
    "maincontent",
    "postbody",
    "storycontent",
    "itemprop-articlebody",
    // A results page's results (`search-results`, `results-list`) are its content.
    "results",
];

/// The whitespace-separated words of `text` (`str::split_whitespace`), split on bytes when
/// the text is ASCII: the two agree there but for U+000B, which only the first splits on.
pub(crate) fn words(text: &str) -> Words<'_> {
    words_known(text, text.is_ascii())
}

/// [`words`] for a caller that knows whether `text` is ASCII.
pub(crate) fn words_known(text: &str, ascii: bool) -> Words<'_> {
    if ascii && !text.as_bytes().contains(&0x0b) {
        Words::Ascii(text.split_ascii_whitespace())
    } else {
        Words::Unicode(text.split_whitespace())
    }
}

/// [`words`]' iterator.
pub(crate) enum Words<'a> {
    Ascii(std::str::SplitAsciiWhitespace<'a>),
    Unicode(std::str::SplitWhitespace<'a>),
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            Words::Ascii(w) => w.next(),
            Words::Unicode(w) => w.next(),
        }
    }

    /// One choice of variant for the whole walk (`for_each`, `fold`, `sum` go through
    /// here), not one per word.
    fn fold<B, F: FnMut(B, &'a str) -> B>(self, init: B, f: F) -> B {
        match self {
            Words::Ascii(w) => w.fold(init, f),
            Words::Unicode(w) => w.fold(init, f),
        }
    }
}

/// Does `ident` carry one of `list` as a word or as a `-`/`_`-separated part of a word?
///
/// Words that only describe or tag an element are not read as its role: state and hook
/// prefixes (`has-sidebar`, `js-social-images`, `with-comments`, `no-ads`) and taxonomy
/// values (`category-social-media`, `tag-share`, `entry-category-ads`, as WordPress and
/// Typepad put on every post).
///
/// The definition, kept as the obvious twin of [`ident_bits`], which answers it for all
/// lists at once.
#[cfg(test)]
pub(crate) fn has_word(ident: &str, list: &[&str]) -> bool {
    words(ident).filter(|w| !says_nothing(w)).any(|w| {
        if list.contains(&w) {
            return true;
        }
        if is_idiom(w.as_bytes()) {
            return false;
        }
        let mut parts = w.split(['-', '_']).peekable();
        if parts.peek().is_some_and(|p| MODIFIER_PREFIXES.contains(p)) {
            return false;
        }
        if (std::ptr::eq(list, WEAK_BOILER_WORDS) || std::ptr::eq(list, HEADER_WORDS))
            && parts.peek().is_some_and(|p| BUILDER_PREFIXES.contains(p))
        {
            return false;
        }
        while let Some(p) = parts.next() {
            if parts.peek().is_some() && TAXONOMY_WORDS.contains(&p) {
                return false;
            }
            if list.contains(&p) {
                return true;
            }
        }
        false
    })
}

/// A word that is an idiom of the form "X-by-X" (`side-by-side`, `step-by-step`, or with
/// `_`): a layout of the content (two columns of a comparison, numbered steps), not the
/// slot its first part would name (`side` of a sidebar). Its parts are not role words.
fn is_idiom(w: &[u8]) -> bool {
    let mut parts = w.split(|&b| b == b'-' || b == b'_');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(a), Some(b"by"), Some(c), None) => !a.is_empty() && a == c,
        _ => false,
    }
}

/// First parts of a class that make the rest a state or a script hook, not a role.
const MODIFIER_PREFIXES: &[&str] = &["has", "js", "with", "no", "is"];

/// First parts of the classes that page builders put on every block they lay out
/// (Elementor's `elementor-widget-text-editor`, Divi's `et_pb_widget`, WPBakery's
/// `vc_widget`, Beaver Builder's `fl-widget`, Gutenberg's `wp-block-*`, Adobe Experience
/// Manager's core components `cmp-cta__banner`, HubSpot's `hs_cos_wrapper_widget`): after them, a weak
/// boilerplate word (`widget`, `header`, `banner`, `side`) names a layout slot, not a role,
/// and does not prune. Strong words still do (`elementor-nav-menu` is a menu).
const BUILDER_PREFIXES: &[&str] = &[
    "elementor",
    "e",
    "et",
    "vc",
    "wpb",
    "fl",
    "wp",
    "brxe",
    "uagb",
    "cmp",
    "hs",
];

/// Parts after which a class names a taxonomy value (a category, tag or author).
const TAXONOMY_WORDS: &[&str] = &["category", "cat", "tag", "author", "format", "type"];

/// The role words an element's `id`/`class`/`role` declare, one bit each ([`Decision::roles`]).
pub(crate) const R_CONTENT: u8 = 1;
pub(crate) const R_STRONG: u8 = 1 << 1;
pub(crate) const R_WEAK: u8 = 1 << 2;
pub(crate) const R_COMMENT: u8 = 1 << 3;
/// `post`, `entry`, `hentry`, `article`, `story`, `articlebody`: a container of one article.
pub(crate) const R_ARTICLE: u8 = 1 << 4;

/// The lists behind the [`R_CONTENT`]… bits, in bit order.
const ARTICLE_WORDS: &[&str] = &["post", "entry", "hentry", "article", "story", "articlebody"];
/// A cookie notice or consent manager (`onetrust-consent-sdk`, `cmplz-cookiebanner`,
/// `usercentrics-root`, `truste_box_overlay`): it prunes whatever its size, since a consent
/// manager's purpose texts can outweigh the page it covers.
pub(crate) const R_CONSENT: u8 = 1 << 5;
/// `header` ([`HEADER_WORDS`]): weak, like [`R_WEAK`], except inside an article.
pub(crate) const R_HEADER: u8 = 1 << 6;
/// A strong word that is not a navigation word ([`STRONG_BOILER_WORDS`]; [`R_STRONG`] is
/// set for those and for [`NAV_BOILER_WORDS`]).
pub(crate) const R_STRONG_NOT_NAV: u8 = 1 << 7;
const CONSENT_WORDS: &[&str] = &[
    "cookie",
    "cookies",
    "consent",
    "onetrust",
    "optanon",
    "cookiebot",
    "cybotcookiebotdialog",
    "usercentrics",
    "truste",
    "cmplz",
    "didomi",
    "gdpr",
];

/// [`ident_bits`]' bits above the roles' byte: the word lists the learned stage reads of a
/// block's own element (`auto_model`'s caption and meta words)…
pub(crate) const W_CAPTION: u16 = 1 << 8;
pub(crate) const W_META: u16 = 1 << 9;
/// …and, for the lookup only, the words `has_word` treats as exceptions.
const W_MODIFIER: u16 = 1 << 10;
const W_TAXONOMY: u16 = 1 << 11;
const W_BUILDER: u16 = 1 << 12;
/// [`element_ident_bits`] only: the ident holds `articlebody` anywhere, even inside a
/// longer word (`c-articlebody-text`); the learned stage reads it as an article ancestor.
pub(crate) const W_ARTICLEBODY: u16 = 1 << 13;
/// The ident holds `dialog` or `alertdialog` as a whole word ([`DIALOG_WORDS`]), as
/// `role="dialog"` writes it: never as a part, since Drupal wraps every page in
/// `dialog-off-canvas-main-canvas`.
pub(crate) const W_DIALOG: u16 = 1 << 14;
/// WAI-ARIA's roles of a window the page opens over itself, `<dialog>`'s.
const DIALOG_WORDS: &[&str] = &["dialog", "alertdialog"];
/// The bits that are lists (roles, caption, meta).
const LIST_BITS: u16 = (1 << 10) - 1;
/// What a whole word may carry: the lists, and [`W_DIALOG`], which a part never does.
const WHOLE_WORD_BITS: u16 = LIST_BITS | W_DIALOG;

/// Every word of the lists [`ident_bits`] reads, with the bits of the lists holding it, in
/// an open-addressing hash table: one probe (rarely two) per class word or part, where a
/// binary search took about seven string comparisons.
struct WordTable {
    slots: Vec<(&'static str, u16)>,
    mask: usize,
}

impl WordTable {
    /// Home slot of a non-empty word, from its length and first, middle and last bytes.
    fn home(&self, w: &[u8]) -> usize {
        let n = w.len();
        let key = (n as u32)
            ^ (u32::from(w[0]) << 8)
            ^ (u32::from(w[n / 2]) << 16)
            ^ (u32::from(w[n - 1]) << 24);
        (key.wrapping_mul(0x9E37_79B1) >> 16) as usize & self.mask
    }

    fn get(&self, word: &[u8]) -> u16 {
        if word.is_empty() {
            return 0;
        }
        let mut i = self.home(word);
        loop {
            let (w, bits) = self.slots[i];
            if w.is_empty() {
                return 0;
            }
            if w.as_bytes() == word {
                return bits;
            }
            i = (i + 1) & self.mask;
        }
    }
}

fn word_table() -> &'static WordTable {
    static TABLE: std::sync::OnceLock<WordTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let lists: [(&[&'static str], u16); 14] = [
            (CONTENT_WORDS, u16::from(R_CONTENT)),
            (STRONG_BOILER_WORDS, u16::from(R_STRONG | R_STRONG_NOT_NAV)),
            (NAV_BOILER_WORDS, u16::from(R_STRONG)),
            (WEAK_BOILER_WORDS, u16::from(R_WEAK)),
            (COMMENT_WORDS, u16::from(R_COMMENT)),
            (ARTICLE_WORDS, u16::from(R_ARTICLE)),
            (CONSENT_WORDS, u16::from(R_CONSENT)),
            (HEADER_WORDS, u16::from(R_HEADER)),
            (CAPTION_WORDS, W_CAPTION),
            (META_WORDS, W_META),
            (MODIFIER_PREFIXES, W_MODIFIER),
            (TAXONOMY_WORDS, W_TAXONOMY),
            (BUILDER_PREFIXES, W_BUILDER),
            (DIALOG_WORDS, W_DIALOG),
        ];
        let n: usize = lists.iter().map(|(l, _)| l.len()).sum();
        let size = (n * 4).next_power_of_two();
        let mut t = WordTable {
            slots: vec![("", 0); size],
            mask: size - 1,
        };
        for (list, bit) in lists {
            for &w in list {
                let mut i = t.home(w.as_bytes());
                while !t.slots[i].0.is_empty() && t.slots[i].0 != w {
                    i = (i + 1) & t.mask;
                }
                t.slots[i].0 = w;
                t.slots[i].1 |= bit;
            }
        }
        t
    })
}

/// Per element, the [`ident_bits`] of its own ident: the [`R_CONTENT`]… roles in the low
/// byte (read by pruning and container scores as [`Decision::roles`]), the learned stage's
/// caption and meta words above, and [`W_ARTICLEBODY`]. Each distinct ident is read once
/// per page at most, and not at all when one of the thread's recent pages had it. Same
/// answers as `has_word` and [`is_comment`] on each list (the obvious twin,
/// [`bits_by_has_word`], is checked against it by a property test).
pub(crate) fn element_ident_bits(doc: &Doc) -> Vec<u16> {
    // A page repeats its idents (list items, table cells, every card of a grid): each
    // distinct one is looked up once, the last answer kept for runs of elements sharing
    // one. Pages repeat each other's too (`container`, `row`, a theme's or a CMS's
    // classes): the lookup asks the thread's [`IDENT_CACHE`] before reading the ident. The
    // bits are a function of the ident alone, so neither map changes an answer.
    IDENT_CACHE.with_borrow_mut(|cache| {
        if cache.key_bytes > IDENT_CACHE_BYTES {
            cache.bits.clear();
            cache.key_bytes = 0;
        }
        let mut seen: FxHashMap<&str, u16> = FxHashMap::default();
        let mut last: (&str, u16) = ("", 0);
        doc.elements
            .iter()
            .map(|e| {
                let ident = doc.ident(e);
                if ident != last.0 {
                    let bits = *seen.entry(ident).or_insert_with(|| cache.get(ident));
                    last = (ident, bits);
                }
                last.1
            })
            .collect()
    })
}

/// [`ident_bits`] of an ident, with [`W_ARTICLEBODY`] where it holds `articlebody`.
fn ident_bits_with_body(ident: &str) -> u16 {
    let body = memchr::memmem::find(ident.as_bytes(), b"articlebody").is_some();
    ident_bits(ident) | if body { W_ARTICLEBODY } else { 0 }
}

/// Bytes of idents [`IDENT_CACHE`] holds before it starts over: with the map's overhead a
/// few MiB per worker thread at most, while a run of pages fills it in a few hundred pages.
const IDENT_CACHE_BYTES: usize = 1 << 20;

/// [`element_ident_bits`]' answers per distinct ident, kept across the pages of a thread.
#[derive(Default)]
struct IdentCache {
    bits: FxHashMap<Box<str>, u16>,
    /// Sum of the keys' lengths (emptied with the map past [`IDENT_CACHE_BYTES`]).
    key_bytes: usize,
}

impl IdentCache {
    /// [`ident_bits_with_body`] of `ident`, worked out only when not already held.
    fn get(&mut self, ident: &str) -> u16 {
        if let Some(&bits) = self.bits.get(ident) {
            return bits;
        }
        let bits = ident_bits_with_body(ident);
        self.key_bytes += ident.len();
        self.bits.insert(ident.into(), bits);
        bits
    }
}

thread_local! {
    static IDENT_CACHE: std::cell::RefCell<IdentCache> = std::cell::RefCell::default();
}

/// The lists an ident names (the `R_*` and `W_*` bits), read as `has_word` reads each
/// one, plus [`R_COMMENT`] for classes glued from a comment word (see [`is_comment`]).
pub(crate) fn ident_bits(ident: &str) -> u16 {
    let bytes = ident.as_bytes();
    if !ident.is_ascii() || bytes.contains(&0x0b) {
        return words(ident)
            .filter(|w| !says_nothing(w))
            .fold(0, |bits, w| bits | word_bits(w.as_bytes()));
    }
    // An ASCII ident (nearly all of them): each class word read in one pass over its bytes
    // ([`class_word_bits`]), the words split as `split_ascii_whitespace` splits them.
    let table = word_table();
    bytes
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
        .fold(0, |bits, w| bits | class_word_bits(w, table))
}

/// `word_bits(w)` unless `w` [`says_nothing`], for an ASCII word: one pass finds a utility
/// class's `:` or `[`, counts the dashes a heading slug is told by and sees whether the
/// word has parts at all; a word of one part (`container`, `row`) is one table lookup.
fn class_word_bits(w: &[u8], table: &WordTable) -> u16 {
    let (mut dashes, mut underscores) = (0usize, 0usize);
    for &b in w {
        match b {
            b':' | b'[' => return 0,
            b'-' => dashes += 1,
            b'_' => underscores += 1,
            _ => {}
        }
    }
    if dashes >= 4 && is_heading_slug_bytes(w, dashes + 1) {
        return 0;
    }
    if dashes + underscores > 0 {
        return word_bits(w);
    }
    // One part: `word_bits`' part loop would look the same word up again and add nothing.
    (table.get(w) & WHOLE_WORD_BITS) | comment_bits(w)
}

/// [`R_COMMENT`] for a word glued from a comment word (see [`is_comment`]).
fn comment_bits(w: &[u8]) -> u16 {
    // `disqus` only where a `q` is (few class words have one).
    if (w.starts_with(b"comment") && !w.starts_with(b"commentary"))
        || w.ends_with(b"comments")
        || (memchr::memchr(b'q', w).is_some() && w.windows(6).any(|x| x == b"disqus"))
    {
        u16::from(R_COMMENT)
    } else {
        0
    }
}

/// A word of an ident that names no role: a utility class or a heading's slug.
fn says_nothing(w: &str) -> bool {
    is_utility(w) || is_heading_slug(w)
}

/// An id made from a heading's text (`receive-and-reply-to-an-inbound-sms-message`, as
/// Markdown renderers, docs generators and table-of-contents plugins anchor every section):
/// its words are the heading's, not a role, so `reply` in it does not make the section a
/// comment. Told by its length (seven parts or more) or by a function word among five or
/// more parts; no class name of a theme reads like that (`c-article-comments-list` has
/// four, and no `and`).
fn is_heading_slug(w: &str) -> bool {
    let parts = w.bytes().filter(|&b| b == b'-').count() + 1;
    is_heading_slug_bytes(w.as_bytes(), parts)
}

/// [`is_heading_slug`] of a word of `parts` dash-separated parts.
fn is_heading_slug_bytes(w: &[u8], parts: usize) -> bool {
    const FUNCTION_WORDS: &[&[u8]] = &[
        b"a", b"an", b"and", b"the", b"to", b"of", b"in", b"for", b"how", b"your", b"on", b"from",
        b"what", b"why", b"or", b"vs", b"you",
    ];
    parts >= 7 || (parts >= 5 && w.split(|&b| b == b'-').any(|p| FUNCTION_WORDS.contains(&p)))
}

/// A utility class of Tailwind or UnoCSS with a variant or an arbitrary value
/// (`lg:first:has-[>[data-slot=banner]]:pt-0`, `hover:bg-gray-100`, `w-[calc(100%-2rem)]`),
/// or a generated id (React's `:r1:`): it says how an element looks, not what it is, so its
/// parts are not role words. A page built this way wraps every section in such classes, and
/// reading `banner` out of one pruned all of vercel.com.
fn is_utility(w: &str) -> bool {
    w.bytes().any(|c| c == b':' || c == b'[')
}

/// [`ident_bits`] of one word (bytes of UTF-8: `-` and `_` never occur inside a character).
fn word_bits(w: &[u8]) -> u16 {
    let table = word_table();
    let mut bits = (table.get(w) & WHOLE_WORD_BITS) | comment_bits(w);
    if is_idiom(w) {
        return bits;
    }
    let mut parts = w.split(|&b| b == b'-' || b == b'_').peekable();
    let first = parts.peek().map_or(0, |p| table.get(p));
    if first & W_MODIFIER != 0 {
        return bits;
    }
    let mask = if first & W_BUILDER != 0 {
        LIST_BITS & !u16::from(R_WEAK | R_HEADER)
    } else {
        LIST_BITS
    };
    while let Some(p) = parts.next() {
        let b = table.get(p);
        if parts.peek().is_some() && b & W_TAXONOMY != 0 {
            break;
        }
        bits |= b & mask;
    }
    bits
}

/// [`ident_bits`]' obvious twin: one `has_word` scan per list.
#[cfg(test)]
fn bits_by_has_word(ident: &str) -> u16 {
    let bit = |on: bool, b: u16| if on { b } else { 0 };
    bit(has_word(ident, CONTENT_WORDS), u16::from(R_CONTENT))
        | bit(
            has_word(ident, STRONG_BOILER_WORDS) || has_word(ident, NAV_BOILER_WORDS),
            u16::from(R_STRONG),
        )
        | bit(
            has_word(ident, STRONG_BOILER_WORDS),
            u16::from(R_STRONG_NOT_NAV),
        )
        | bit(has_word(ident, WEAK_BOILER_WORDS), u16::from(R_WEAK))
        | bit(is_comment(ident), u16::from(R_COMMENT))
        | bit(has_word(ident, ARTICLE_WORDS), u16::from(R_ARTICLE))
        | bit(has_word(ident, CONSENT_WORDS), u16::from(R_CONSENT))
        | bit(has_word(ident, HEADER_WORDS), u16::from(R_HEADER))
        | bit(has_word(ident, CAPTION_WORDS), W_CAPTION)
        | bit(has_word(ident, META_WORDS), W_META)
        | bit(
            words(ident)
                .filter(|w| !says_nothing(w))
                .any(|w| DIALOG_WORDS.contains(&w)),
            W_DIALOG,
        )
}

/// Role words in a block's own element's (or its parent's) `id`/`class`.
pub(crate) const CAPTION_WORDS: &[&str] = &[
    "caption",
    "credit",
    "credits",
    "photo",
    "image",
    "img",
    "figure",
    "wp-caption-text",
];
pub(crate) const META_WORDS: &[&str] = &[
    "date",
    "time",
    "byline",
    "author",
    "meta",
    "posted",
    "dateline",
    "timestamp",
    "published",
    "info",
    "postmetadata",
    "entry-meta",
    "post-meta",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_builder_slots_are_not_roles() {
        // Adobe Experience Manager's core components and HubSpot's modules: a weak word
        // after the builder's prefix names a layout slot.
        assert_eq!(ident_bits("cmp-cta__banner") & u16::from(R_WEAK), 0);
        assert_eq!(ident_bits("hs_cos_wrapper_widget") & u16::from(R_WEAK), 0);
        assert_ne!(ident_bits("site-banner") & u16::from(R_WEAK), 0);
        // Strong words still prune.
        assert_ne!(ident_bits("cmp-navigation") & u16::from(R_STRONG), 0);
    }

    #[test]
    fn a_heading_slug_names_no_role() {
        let slug = "receive-and-reply-to-an-inbound-sms-message-section-indexable";
        assert_eq!(ident_bits(slug), 0);
        assert_eq!(ident_bits("how-to-share-a-comment"), 0);
        // Theme classes keep their roles.
        assert_ne!(
            ident_bits("c-article-comments-list") & u16::from(R_COMMENT),
            0
        );
        assert_ne!(ident_bits("reply-form") & u16::from(R_COMMENT), 0);
        assert_ne!(
            ident_bits("site-footer-widget-area-inner") & u16::from(R_WEAK),
            0
        );
    }

    #[test]
    fn side_by_side_is_a_layout_not_a_sidebar() {
        let weak = |ident: &str| ident_bits(ident) & u16::from(R_WEAK) != 0;
        assert!(!weak("side-by-side") && !weak("comparison side_by_side"));
        assert_eq!(ident_bits("step-by-step"), 0);
        assert!(weak("side-nav") && weak("left-side") && weak("side-by-nav"));
    }

    #[test]
    fn element_bits_are_each_idents_bits_plus_articlebody() {
        let doc = Doc::parse(
            "<div class='c-articlebody-text'><p class=post>a</p><p class=post>b</p>\
             <p class='sidebar widget'>c</p><p class=post>d</p><p class='article body'>e</p></div>",
        );
        let bits = element_ident_bits(&doc);
        for (e, &b) in doc.elements.iter().zip(&bits) {
            let ident = doc.ident(e);
            let body = if ident.contains("articlebody") {
                W_ARTICLEBODY
            } else {
                0
            };
            assert_eq!(b, ident_bits(ident) | body, "{ident:?}");
        }
        assert_ne!(bits[1] & W_ARTICLEBODY, 0);
        assert_eq!(bits.iter().filter(|&&b| b & W_ARTICLEBODY != 0).count(), 1);
    }

    #[test]
    fn role_lookup_agrees_with_has_word() {
        for ident in [
            "",
            "nav",
            "main-nav has-sidebar",
            "js-social-images entry-content",
            "category-social-media post",
            "tag-share",
            "entry-category-ads",
            "commentlist",
            "postcomments disqus_thread",
            "commentary",
            "article-body",
            "story_body",
            "no-ads widget",
            "sidebar-left page",
            "cat-news hentry",
            "comment-respond",
            "x-post-y",
            "post-",
            "-post",
            "a--b__c",
            "elementor-widget elementor-widget-text-editor",
            "elementor-nav-menu",
            "et_pb_widget e-con-full",
            "wp-block-group banner",
            "stack lg:first:has-[&gt;[data-slot=banner]]:pt-0 post",
            "hover:nav-link comment-body",
            "side-by-side",
            "step_by_step side",
            "side-by-nav",
        ] {
            assert_eq!(ident_bits(ident), bits_by_has_word(ident), "{ident:?}");
        }
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn role_lookup_agrees_with_has_word_on_any_ident(
            parts in prop::collection::vec(
                prop_oneof![
                    prop::sample::select(vec![
                        "nav", "post", "entry", "has", "js", "no", "category", "tag", "cat",
                        "elementor", "e", "et", "wp", "widget", "header",
                        "comment", "comments", "commentary", "disqus", "content", "main",
                        "side", "ad", "ads", "share", "article", "story", "body", "type",
                        "caption", "wp-caption-text", "author", "date", "title", "h1",
                        "post-title", "entry-meta", "photo", "is", "with", "format",
                        "onetrust", "consent", "gdpr", "cookie", "dialog", "alertdialog",
                        "modal-dialog", "dialog-off-canvas-main-canvas",
                        "lg:banner", "has-[>[data-slot=nav]]:pt-0", ":r1:",
                        "how-to", "and", "the", "a", "of-the", "reply-to-a-b-c",
                        "by", "side-by-side",
                    ]).prop_map(str::to_owned),
                    "[a-z]{0,6}",
                    "[a-zé\u{a0}\u{b}\t]{0,6}",
                ],
                0..8,
            ),
            seps in prop::collection::vec(
                prop::sample::select(vec![" ", "-", "_", "  ", "\t", "\u{b}", "\u{a0}", "\u{3000}"]),
                8,
            ),
        ) {
            let mut ident = String::new();
            for (p, s) in parts.iter().zip(&seps) {
                ident.push_str(p);
                ident.push_str(s);
            }
            prop_assert_eq!(ident_bits(&ident), bits_by_has_word(&ident), "{:?}", ident);
        }
    }
}
