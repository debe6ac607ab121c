//! Page metadata for corpus builders: the headline (not the `<title>` tag with its site
//! suffix), author, publication date (ISO 8601), description, site name and canonical URL.
//!
//! Takes the [`Doc`] (its `<meta>` pairs, canonical link, `<time>` elements, `<h1>`,
//! element idents and JSON-LD scripts); gives a [`Metadata`]. Sources, best first:
//!
//! | field            | from |
//! |------------------|------|
//! | `title`          | chosen by agreement: the first `<h1>` (not the site's name or logo) that JSON-LD `headline`, `og:title`, `twitter:title`, Dublin Core / citation titles or `<title>` bear out once their site-name parts (`… \| Site`) are cut; on articles, products and categories an `<h1>` sharing a fifth of its words with them; else the declared title (not one that shares no word with the other sources), then `<title>`, site-name part cut (see `pick_title`) |
//! | `author`         | JSON-LD `author` (Person names, `@id` references resolved), `<meta name=author>` and the common CMS keys (`article:author` when not a URL, `parsely-author`, `sailthru.author`, `dc.creator`, `citation_author`, `byl`, Yoast's `twitter:label1` "Written by" / `twitter:data1`), microdata `itemprop=author`, then a "By Ann Lee" line under the `<h1>`, then an element classed `author`/`byline` (its first block, without label, date or role); two names are joined "A and B", more with `, ` |
//! | `date_published` | JSON-LD `datePublished` (then `dateCreated`, `uploadDate`), `article:published_time` and the common CMS keys, microdata `datePublished`, then the first `<time datetime>`, then a `<time>` or date-classed element's text, then a short block by the `<h1>` that reads as a date (on authored pages) |
//! | `description`    | `<meta name=description>`, `og:description`, JSON-LD `description` |
//! | `site_name`      | `og:site_name`, JSON-LD `WebSite`/publisher `name`, `application-name` |
//! | `canonical_url`  | `<link rel=canonical>`, `og:url`, resolved against the page URL |
//!
//! "Main entity" is the first JSON-LD node of an article-like type (`Article`,
//! `NewsArticle`, `BlogPosting`, ...), else of a posting, question, product, recipe or event
//! type, else a `WebPage`, else the first node with a type.
//!
//! Dates are written `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` with the offset as given (`Z`,
//! `+02:00`) when the source has a time; [`iso_date`] reads ISO 8601 and its common
//! variants, `2024/09/11`, `11.09.2024`, RFC 2822 and written-out English dates
//! (`September 11, 2024`, `11 Sep 2024`). A date it cannot read is left out.
//!
//! Cost: one pass over `Doc::meta` and the elements' idents, and one `serde_json` parse of
//! the page's JSON-LD (usually a few KB; app state is never parsed here).

use crate::doc::Doc;
use crate::page_type::PageType;
use crate::structured::Structured;
use crate::tokenize::Tag;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// `<meta>` keys (name, property or itemprop, lower-cased) that [`crate::doc`] keeps for
/// this module, beside those it keeps for itself.
pub const META_KEYS: &[&str] = &[
    "author",
    "og:site_name",
    "og:url",
    "twitter:title",
    "application-name",
    "article:author",
    "article:published_time",
    "og:published_time",
    "og:article:published_time",
    "datepublished",
    "datecreated",
    "date",
    "pubdate",
    "publishdate",
    "publish_date",
    "publish-date",
    "dc.date",
    "dc.date.issued",
    "dc.date.created",
    "dcterms.date",
    "dcterms.issued",
    "dcterms.created",
    "dc.creator",
    "dcterms.creator",
    "dc.title",
    "dcterms.title",
    "citation_title",
    "citation_author",
    "citation_publication_date",
    "citation_date",
    "parsely-author",
    "parsely-pub-date",
    "parsely-title",
    "sailthru.author",
    "sailthru.date",
    "sailthru.title",
    "byl",
    "headline",
    "twitter:label1",
    "twitter:data1",
    "twitter:label2",
    "twitter:data2",
];

/// What a page says about itself. Every field is whitespace-collapsed and non-empty, or `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The headline: the title as a person would mark it, without the site's name.
    pub title: Option<String>,
    /// Author name(s): two joined with ` and `, more with `, `.
    pub author: Option<String>,
    /// Publication date, ISO 8601 (see the module doc).
    pub date_published: Option<String>,
    pub description: Option<String>,
    pub site_name: Option<String>,
    /// Absolute URL.
    pub canonical_url: Option<String>,
}

/// Longest title, author list or site name kept (characters); descriptions get 4x.
const MAX_CHARS: usize = 300;

/// A headline has at most this many words (longer `<h1>`s are prose, not titles).
const MAX_TITLE_WORDS: usize = 40;

/// Length from which a title that another title source begins with and continues is
/// taken for a truncated copy of it (Yoast SEO cuts its schema `headline` at 110).
const TRUNCATED_CHARS: usize = 100;

impl Metadata {
    /// Read the metadata of `doc`, a page of type `page_type`.
    ///
    /// `author` and `date_published` are those of authored content: on articles, forum
    /// threads and pages of no known type they come from every source; on products,
    /// services, collections, listings and documentation the author only from what the
    /// page declares (JSON-LD, `<meta>`) and the date only from a JSON-LD article-like
    /// entity (their `<time>` elements and bylines date and sign other things: reviews,
    /// changes, comments).
    pub fn read(doc: &Doc, structured: &Structured, page_type: PageType) -> Metadata {
        let ld = JsonLd::of(&structured.json_ld);
        let authored = matches!(
            page_type,
            PageType::Article | PageType::Forum | PageType::Other
        );
        let meta = |keys: &[&str]| -> Option<String> {
            keys.iter().find_map(|key| {
                doc.meta
                    .iter()
                    .filter(|(k, _)| k == key)
                    .find_map(|(_, v)| clean(v))
            })
        };
        let site_name = meta(&["og:site_name"])
            .or_else(|| ld.site_name.clone())
            .or_else(|| meta(&["application-name"]))
            .map(|s| cut(&s, MAX_CHARS));
        let title = pick_title(
            doc,
            &ld,
            &meta,
            site_name.as_deref(),
            matches!(
                page_type,
                PageType::Article | PageType::Collection | PageType::Product
            ),
            page_type == PageType::Service,
        )
        .map(|t| drop_invisible(&t));
        // The author: JSON-LD `author`, then the `<meta>` keys of CMSs, then a byline. What
        // the page declares holds on every type of page; what its body shows only on
        // authored ones (elsewhere bylines sign reviews, comments, changes).
        let author = ld
            .author
            .clone()
            .or_else(|| {
                [
                    "author",
                    "article:author",
                    "parsely-author",
                    "sailthru.author",
                    "dc.creator",
                    "dcterms.creator",
                    "citation_author",
                    "byl",
                ]
                .iter()
                .filter_map(|k| meta(&[k]))
                .chain(twitter_written_by(doc))
                // A declared author may be the site's own name (a personal site, a blog).
                .find_map(|a| author_name(&a, None))
            })
            .or_else(|| {
                let site = site_name.as_deref();
                authored
                    .then(|| by_text(doc, site).or_else(|| byline(doc, site)))
                    .flatten()
            })
            .map(|s| cut(&s, MAX_CHARS));
        let date_published = ld
            .date
            .as_deref()
            .and_then(iso_date)
            .filter(|_| authored || ld.article)
            .or_else(|| {
                if !authored {
                    return None;
                }
                [
                    "article:published_time",
                    "og:published_time",
                    "og:article:published_time",
                    "datepublished",
                    "parsely-pub-date",
                    "sailthru.date",
                    "citation_publication_date",
                    "citation_date",
                    "dc.date.issued",
                    "dcterms.issued",
                    "dc.date",
                    "dcterms.date",
                    "dc.date.created",
                    "dcterms.created",
                    "pubdate",
                    "publishdate",
                    "publish_date",
                    "publish-date",
                    "date",
                    "datecreated",
                ]
                .iter()
                .filter_map(|k| meta(&[k]))
                .find_map(|d| iso_date(&d))
            })
            .or_else(|| ld.date_created.as_deref().and_then(iso_date))
            .filter(|_| authored || ld.article)
            .or_else(|| {
                if !authored {
                    return None;
                }
                doc.meta
                    .iter()
                    .filter(|(k, _)| k == "time")
                    .find_map(|(_, v)| iso_date(v))
                    .or_else(|| visible_date(doc))
                    .or_else(|| date_by_headline(doc))
            });
        let description = meta(&["description", "og:description"])
            .or_else(|| ld.description.clone())
            .map(|s| cut(&s, 4 * MAX_CHARS));
        let canonical_url = meta(&["canonical", "og:url"])
            .or_else(|| ld.url.clone())
            .and_then(|u| absolute_url(&u, doc.url.as_deref()));
        Metadata {
            title,
            author,
            date_published,
            description,
            site_name,
            canonical_url,
        }
    }
}

/// The `twitter:dataN` whose `twitter:labelN` is "Written by" or "Author" (Yoast and
/// other WordPress SEO plugins write the post's author there for link previews).
fn twitter_written_by(doc: &Doc) -> Option<String> {
    doc.meta.iter().find_map(|(k, v)| {
        let n = k.strip_prefix("twitter:label")?;
        let label = v.trim().trim_end_matches(':').to_lowercase();
        if !matches!(label.as_str(), "written by" | "author" | "by") {
            return None;
        }
        let key = format!("twitter:data{n}");
        doc.meta
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| clean(v))
    })
}

/// `<meta>` keys of declared titles, in the order they are trusted (after JSON-LD
/// `headline`).
const META_TITLE_KEYS: &[&str] = &[
    "og:title",
    "twitter:title",
    "headline",
    "parsely-title",
    "sailthru.title",
    "citation_title",
    "dc.title",
    "dcterms.title",
];

/// The headline, chosen by agreement between the page's title sources:
///
/// 1. the first of the first four `<h1>`s that the declared titles (JSON-LD `headline`,
///    `og:title`, `twitter:title`, ...) or the `<title>` bear out: each without its
///    site-name part, one begins or ends the other, or holds it as a third or more of its
///    letters (a marketing tagline in the `<h1>` is not the page's title). An `<h1>` that
///    is the site's name ([`h1_is_site`]) is skipped, and one that is all link text (a
///    logo linking home) must equal a declared title. On a service page (`slogans`),
///    whose `<h1>` is most often a tagline, only a title's whole head or its first part
///    before a separator bears an `<h1>` out;
/// 2. on articles, products and categories (`named`), the first `<h1>` that is neither
///    the site's name, a link nor a menu label, when it shares a fifth of its words with a
///    declared title or the `<title>`;
/// 3. with no declared title and no `<title>`, that first `<h1>`;
/// 4. else the first declared title, then the `<title>`, without the site-name part; a
///    first declared title that shares no word with the other sources while one of them
///    names a page ("Page | Site") is passed over, and a head "Home" gives the site's name.
///
/// An `<h1>` that copies a title source whole loses its site part as the title does.
fn pick_title(
    doc: &Doc,
    ld: &JsonLd,
    meta: &impl Fn(&[&str]) -> Option<String>,
    site: Option<&str>,
    named: bool,
    slogans: bool,
) -> Option<String> {
    // Without a declared site name, the <h1> a theme marks as the site's stands for it.
    let (h1s, branding) = h1_candidates(doc);
    let html = doc.title.as_deref().and_then(clean);
    // A `<title>` with a blank part (" | Nuts & Volts Magazine": the template's page name
    // left empty) names only the site: it is no title source, and what it holds stands for
    // the site's name when none is declared.
    let blank = html
        .as_deref()
        .and_then(blank_part_rest)
        .map(str::to_string);
    let html = if blank.is_some() { None } else { html };
    let site = site.or(branding.as_deref()).or(blank.as_deref());
    let host = doc.url.as_deref().and_then(host_of);
    let mut declared: Vec<String> = ld.headline.iter().cloned().collect();
    for key in META_TITLE_KEYS {
        if let Some(t) = meta(&[key]).filter(|t| !declared.contains(t)) {
            declared.push(t);
        }
    }
    // A declared title that is only the site's name (a shop's `og:title` on every page)
    // names no page but the home page.
    let site_key = site.map(norm_key).filter(|k| !k.is_empty());
    if !doc.url.as_deref().is_some_and(is_home_page) {
        declared.retain(|t| site_key.as_deref() != Some(norm_key(t).as_str()));
    }
    // The title sources, declared first; each without its site-name part ("head"), and
    // what was cut ("tail").
    let titles: Vec<&str> = declared
        .iter()
        .chain(html.iter())
        .map(String::as_str)
        .collect();
    let heads: Vec<(String, String)> = titles
        .iter()
        .map(|t| {
            let head = strip_site(t, site, host, None);
            let tail = norm_key(t).replacen(&norm_key(&head), "", 1);
            (head, tail)
        })
        .collect();
    let heads = untruncated(&heads);
    let is_site = |h: &str| h1_is_site(h, site, host, &heads);
    for h in h1s.iter().filter(|h| !is_site(&h.text)) {
        // Some sites repeat their name in the <h1> too.
        let text = strip_shared_tail(strip_site_part(&h.text, site), &titles);
        // An <h1> whose characters a charset conversion turned into "?" ("Beginner? Guide"
        // for "Beginner’s Guide") is the declared title, damaged: the title is the copy
        // that kept them.
        if let Some((head, _)) = heads.iter().find(|(head, _)| damaged_copy(text, head)) {
            return Some(cut(head, MAX_CHARS));
        }
        let text = strip_kicker(text, &heads);
        let key = norm_key(text);
        let backed = heads.iter().any(|(head, _)| {
            let d = norm_key(head);
            if slogans {
                // On a service page the <h1> is most often a slogan: only a declared
                // title's whole head, or its first part before a separator (the page's
                // name before a section or brand part the site-name cut did not know),
                // bears it out.
                return d == key
                    || SEPARATORS
                        .iter()
                        .filter_map(|sep| head.split_once(sep))
                        .any(|(first, _)| norm_key(first) == key);
            }
            // A logo (an <h1> that is all link) must be the whole headline; else one may
            // begin or end the other (a headline with or without its subtitle), or be a
            // third of it or more ("Buy Electric Guitars at Shop"; not one word of a long
            // headline that some section heading repeats).
            // A short end is a place or a product line the headline ends on ("… near
            // Houston"), not the headline.
            let affix = |long: &str, short: &str| {
                !short.is_empty()
                    && (long.starts_with(short)
                        || 3 * short.len() >= long.len()
                            && (long.ends_with(short) || long.contains(short)))
            };
            d == key || !h.linked && (affix(&d, &key) || affix(&key, &d))
        });
        if backed {
            // An <h1> that repeats a title source whole, site part and all (a
            // screen-reader copy of the <title>), loses that part as the title does.
            let copied = titles.iter().zip(&heads).find(|(t, (head, _))| {
                t.trim() == h.text.trim() && !head.is_empty() && head.len() < text.len()
            });
            let text = copied.map_or(text, |(_, (head, _))| head.as_str());
            return Some(cut(text, MAX_CHARS));
        }
    }
    // On an article (or a product or category page, whose <h1> names the thing), the
    // visible headline that shares its words with the declared one is the same headline
    // as the reader sees it (the declared one is often a search-engine variant: "Top 11
    // SEO Strategies for 2025" for "11 SEO Strategies for 2025 to Boost Rankings"); a
    // service page's tagline or a section name shares few.
    if named {
        let first = h1s
            .iter()
            .find(|h| !h.linked && !is_site(&h.text) && !is_ui_label(&h.text));
        if let Some(h) = first {
            let text = strip_shared_tail(strip_site_part(&h.text, site), &titles);
            if heads
                .iter()
                .any(|(head, _)| word_overlap(text, head) >= 0.2)
            {
                return Some(cut(text, MAX_CHARS));
            }
        }
    }
    // The first declared title, when it shares no word with any other title source (site
    // part and all) while one of those names a page beside the site ("Page | Site"), names
    // something else: an embedded video or event, a list's first product, a site-wide
    // default `og:title`.
    let others = || {
        heads
            .iter()
            .skip(1)
            .filter(|(h, _)| !norm_key(h).is_empty())
    };
    let lone = heads.first().is_some_and(|(first, _)| {
        others().any(|(_, tail)| !tail.is_empty())
            && titles[1..].iter().all(|t| word_overlap(first, t) == 0.0)
    });
    let first = if lone { others().next() } else { heads.first() };
    let Some((head, _)) = first else {
        return h1s
            .iter()
            .find(|h| !h.linked && !is_site(&h.text) && !is_ui_label(&h.text))
            .map(|h| cut(&h.text, MAX_CHARS));
    };
    // "Home - Site": the home page's title is the site's name.
    if norm_key(head) == "home" {
        if let Some(site) = site {
            return Some(cut(site, MAX_CHARS));
        }
    }
    Some(cut(head, MAX_CHARS)).filter(|t| !t.is_empty())
}

/// `text` without a leading label of one or two words ("Blog:", "Review |") where a title
/// source is exactly the rest: themes set the section's name before the headline in the
/// `<h1>` ("<strong>Blog:</strong> Best …"), while the page's declared titles name only
/// the headline. Without such a title source the label may be the headline's own start
/// ("Python: A Tutorial") and is kept.
fn strip_kicker<'t>(text: &'t str, heads: &[(String, String)]) -> &'t str {
    for sep in SEPARATORS.iter().copied().chain([": "]) {
        if let Some((label, rest)) = text.split_once(sep) {
            let (label, rest) = (label.trim(), rest.trim());
            let key = norm_key(rest);
            if !label.is_empty()
                && label.split_whitespace().count() <= 2
                && !key.is_empty()
                && heads.iter().any(|(head, _)| norm_key(head) == key)
            {
                return rest;
            }
        }
    }
    text
}

/// Whether `h1` is `head` with characters lost to a charset conversion: each `?` inside
/// it (not one that ends it) stands where `head` has up to two other letters or marks,
/// and the rest matches letter for letter ("What Are The Basics Of Event Planning?
/// Beginner? Guide" for "… Planning: Beginner’s Guide"). Text that passes through a
/// database or template in a single-byte charset loses what that charset lacks (curly
/// quotes, dashes, accents) as "?", while the `<title>` written elsewhere keeps them.
fn damaged_copy(h1: &str, head: &str) -> bool {
    let frags: Vec<Vec<char>> = h1
        .split('?')
        .map(|f| norm_key(f).chars().collect())
        .collect();
    if frags.iter().filter(|f| !f.is_empty()).count() < 2 || frags[0].is_empty() {
        return false;
    }
    let key: Vec<char> = norm_key(head).chars().collect();
    if key == frags.concat() {
        return false;
    }
    if !key.starts_with(&frags[0]) {
        return false;
    }
    let mut pos = frags[0].len();
    for f in &frags[1..] {
        let found = (pos..=pos + 2).find(|&j| key.get(j..).is_some_and(|rest| rest.starts_with(f)));
        let Some(j) = found else {
            return false;
        };
        pos = j + f.len();
    }
    (key.len() - pos <= 2 && frags.last().is_some_and(|f| f.is_empty())) || pos == key.len()
}

/// `text` without a last part (after one of [`SEPARATORS`]) of at most three words that
/// some title source ends with too, after a separator: a label the `<h1>` shares with the
/// page's titles, a section ("… | Opinion" in both), a site name, a tagline or a product
/// variant ("… | Top 19 Companies", "… - (30ct) 300mg"), not the headline. A range of
/// numbers ("Squad 2024 - 2025") is no label.
fn strip_shared_tail<'t>(text: &'t str, titles: &[&str]) -> &'t str {
    let digit = |c: char| c.is_ascii_digit();
    let range = |head: &str, tail: &str| head.ends_with(digit) && tail.starts_with(digit);
    for sep in SEPARATORS {
        if let Some((head, tail)) = text.rsplit_once(sep) {
            let (head, tail) = (head.trim(), tail.trim());
            if !head.is_empty()
                && !tail.is_empty()
                && tail.split_whitespace().count() <= 3
                && !range(head, tail)
                && titles.iter().any(|t| {
                    t.trim()
                        .strip_suffix(tail)
                        .is_some_and(|rest| rest.trim_end().ends_with(sep.trim()))
                })
            {
                return head;
            }
        }
    }
    text
}

/// Title heads with each truncated one replaced by the whole it was cut from: a head of
/// [`TRUNCATED_CHARS`] characters or more that another head begins with and goes on from
/// with more words.
/// SEO plugins cap a declared headline (Yoast's schema `headline` at 110 characters, cut
/// mid-word or mid-phrase), while the `<title>` or `og:title` keeps it whole.
fn untruncated(heads: &[(String, String)]) -> Vec<(String, String)> {
    let whole_of = |head: &str| {
        let head = head.trim_end_matches(['.', '…', ' ']);
        if head.chars().count() < TRUNCATED_CHARS {
            return None;
        }
        heads
            .iter()
            .filter(|(other, _)| {
                // The cut ran on mid-phrase: what follows is words, not a separator before
                // a site or section name ("… : science").
                other.strip_prefix(head).is_some_and(|rest| {
                    rest.trim_start()
                        .starts_with(|c: char| c.is_alphanumeric() || c == '(')
                })
            })
            .max_by_key(|(other, _)| other.len())
    };
    heads
        .iter()
        .map(|h| whole_of(&h.0).unwrap_or(h).clone())
        .collect()
}

/// Whether an `<h1>` is the site's name rather than the page's headline: it is the site
/// name, the page's host name (`example.com`, `example`), or it is in the part of a title
/// that [`strip_site`] cut as the site's (`… / Arch Linux Forums`) and not in the rest.
fn h1_is_site(
    h1: &str,
    site: Option<&str>,
    host: Option<&str>,
    heads: &[(String, String)],
) -> bool {
    let key = norm_key(h1);
    if key.is_empty() || site.is_some_and(|s| norm_key(s) == key) {
        return true;
    }
    if host.is_some_and(|host| names_host(&key, host, false)) {
        return true;
    }
    heads
        .iter()
        .any(|(head, tail)| tail.contains(&key) && !norm_key(head).contains(&key))
}

/// Whether `text` names the site at `host` ([`names_host`]), or its words' initials,
/// function words left out, spell one of the host's labels in three letters or more
/// ("Occupational Safety and Health Administration" at osha.gov).
fn names_host_text(text: &str, host: &str) -> bool {
    if names_host(&norm_key(text), host, false) {
        return true;
    }
    let initials: String = text
        .split_whitespace()
        .filter(|w| {
            !matches!(
                w.to_lowercase().as_str(),
                "and" | "of" | "the" | "for" | "&" | "in" | "on" | "at"
            )
        })
        .filter_map(|w| w.chars().find(|c| c.is_alphanumeric()))
        .flat_map(char::to_lowercase)
        .collect();
    initials.chars().count() >= 3 && names_host(&initials, host, true)
}

/// Whether `key` (a text's [`norm_key`]) is one of the host's labels but its last, or
/// (unless `labels_only`) the host from such a label on ("www.example.co.uk": "example",
/// "examplecouk", "wwwexamplecouk", ...).
fn names_host(key: &str, host: &str, labels_only: bool) -> bool {
    if key.is_empty() {
        return false;
    }
    let labels: Vec<&str> = host.split('.').collect();
    (0..labels.len().saturating_sub(1)).any(|i| {
        norm_key(labels[i]) == key || !labels_only && norm_key(&labels[i..].join(".")) == key
    })
}

/// Shared words over all words (Jaccard) of two texts, words lower-cased.
fn word_overlap(a: &str, b: &str) -> f32 {
    let words = |s: &str| -> Vec<String> {
        let mut w: Vec<String> = s
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        w.sort_unstable();
        w.dedup();
        w
    };
    let (a, b) = (words(a), words(b));
    let shared = a.iter().filter(|w| b.binary_search(w).is_ok()).count();
    let all = a.len() + b.len() - shared;
    if all == 0 {
        return 0.0;
    }
    shared as f32 / all as f32
}

/// Words that label page furniture, not content, when they are a heading's whole text.
fn is_ui_label(text: &str) -> bool {
    matches!(
        norm_key(text).as_str(),
        "menu"
            | "mainmenu"
            | "search"
            | "home"
            | "navigation"
            | "skiptocontent"
            | "openmenuclosemenu"
    )
}

/// Whether an absolute URL is a site's home page: no path but `/` (a query or fragment
/// aside).
fn is_home_page(url: &str) -> bool {
    url.split_once("://").is_some_and(|(_, rest)| {
        let rest = rest.split(['?', '#']).next().unwrap_or("");
        rest.find('/').is_none_or(|i| rest.get(i..) == Some("/"))
    })
}

/// The host of an absolute http(s) URL, lower-cased, without port and a leading `www.`.
fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', '?', '#', ':']).next()?;
    let host = host.strip_prefix("www.").unwrap_or(host);
    (!host.is_empty()).then_some(host)
}

/// A visible `<h1>`'s text, and whether all of it is link text (a logo or a permalink).
struct H1 {
    text: String,
    linked: bool,
}

/// The first four visible `<h1>`s with 1 to [`MAX_TITLE_WORDS`] words, and the text of
/// the first `<h1>` marked as the site's name, kept out of them.
fn h1_candidates(doc: &Doc) -> (Vec<H1>, Option<String>) {
    let mut out = Vec::new();
    let mut branding = None;
    for e in doc.elements.iter().filter(|e| e.tag == Tag::H1).take(4) {
        // Themes mark the site's name set as an <h1> ("site-title", "logo", mdBook's
        // "menu-title"), on the element or the one around it.
        let parent = doc.elements.get(e.parent as usize);
        let site_mark =
            names_the_site(doc.ident(e)) || parent.is_some_and(|p| names_the_site(doc.ident(p)));
        // Entity references left in the text by double escaping ("SQL &#x26; AI") decoded.
        // A thread's prefix label (XenForo's `<span class="label">News</span>`) is not
        // part of its title, nor is a tagline or subtitle the theme sets inside the <h1>
        // (`<h1>Black Edition<span class="…__tagline">Complete high-protein powder
        // meal</span></h1>`, shown on a line of its own: a shop's or a post's strapline,
        // which the page's titles leave out; Amazon's `<span id="productSubtitle">`).
        let is_label = |s: &crate::doc::Segment| {
            let el = doc.elements.get(s.element as usize);
            el.is_some_and(|el| {
                el.tag != Tag::H1
                    && doc.ident(el).split(' ').any(|w| {
                        w == "label"
                            || ["tagline", "subtitle", "sub-title", "subheading"]
                                .iter()
                                .any(|k| w.contains(k))
                    })
            })
        };
        // An `<h1 class="sr-only">`, or one in a `visually-hidden` block, is the page's
        // heading to a screen reader ("Ars Technica homepage" above a grid of stories): a
        // candidate, though not shown.
        let for_screen_readers = spoken_only(doc, e);
        let spoken = |s: &crate::doc::Segment| for_screen_readers || !s.hidden;
        let text = element_text_where(doc, e.seg_start, e.seg_end, |s| spoken(s) && !is_label(s));
        let Some(text) = clean(&text) else {
            continue;
        };
        if site_mark {
            branding = branding.or(Some(text));
            continue;
        }
        // Sphinx and MkDocs end headings with a permalink sign.
        let text = text.trim_end_matches(['¶', '#', '§', ' ']);
        // vBulletin's "Thread: …", arXiv's "Title: …": a label, not the title.
        let text = ["Thread:", "Topic:", "Title:"]
            .iter()
            .find_map(|l| text.strip_prefix(l))
            .map(str::trim_start)
            .filter(|rest| !rest.is_empty())
            .unwrap_or(text)
            .to_string();
        let words = text.split_whitespace().count();
        if (1..=MAX_TITLE_WORDS).contains(&words) {
            let segs = doc
                .segments
                .get(e.seg_start as usize..e.seg_end as usize)
                .unwrap_or(&[]);
            let linked = segs.iter().filter(|s| spoken(s)).all(|s| s.link);
            out.push(H1 { text, linked });
        }
    }
    (out, branding)
}

/// Whether `e` is hidden by a screen-reader-only class (its own or an ancestor's) and by
/// nothing else: its text is read aloud, though not shown.
fn spoken_only(doc: &Doc, e: &crate::doc::Element) -> bool {
    let mut spoken = false;
    let mut el = e;
    // Bounded by the depth: every element's parent comes before it, the root is its own.
    for _ in 0..=e.depth {
        if el.hidden && !el.screen_reader_only {
            return false;
        }
        spoken |= el.screen_reader_only;
        match doc.elements.get(el.parent as usize) {
            Some(p) if !std::ptr::eq(p, el) => el = p,
            _ => break,
        }
    }
    spoken
}

/// Whether `id class role itemprop` words mark the site's name or logo, not a page's
/// title: `logo`, `brand`, `site-title`, `site-name`, `menu-title`
/// (`devsite-page-title` is a page's).
fn names_the_site(ident: &str) -> bool {
    ident.split_whitespace().any(|w| {
        let w = w.replace('_', "-");
        w.contains("logo")
            || w.contains("brand")
            || [
                "site-title",
                "sitetitle",
                "site-name",
                "sitename",
                "menu-title",
            ]
            .iter()
            .any(|k| w == *k || w.ends_with(&format!("-{k}")))
    })
}

/// Visible text of `segments[from..to]`, words joined by single spaces.
fn element_text(doc: &Doc, from: u32, to: u32) -> String {
    element_text_where(doc, from, to, |s| !s.hidden)
}

/// The text of the segments of `segments[from..to]` that `keep` names, words joined by
/// single spaces.
fn element_text_where(
    doc: &Doc,
    from: u32,
    to: u32,
    keep: impl Fn(&crate::doc::Segment) -> bool,
) -> String {
    let mut out = String::new();
    let segs = doc.segments.get(from as usize..to as usize).unwrap_or(&[]);
    let mut prev: Option<&crate::doc::Segment> = None;
    for s in segs.iter().filter(|s| keep(s)) {
        if let Some(p) = prev {
            if p.block != s.block || s.spaced_from(p) {
                out.push(' ');
            }
        }
        out.push_str(doc.seg_text(s));
        prev = Some(s);
        if out.len() > 4 * MAX_CHARS {
            break;
        }
    }
    out
}

/// Separators between a headline and the site's name in titles.
const SEPARATORS: &[&str] = &[
    " | ", " - ", " – ", " — ", " :: ", " · ", " » ", " « ", " / ", " • ", " ~ ", " : ",
];

/// What a title holds besides a blank first or last part (`"| Site"`, `"Site -"`), if it
/// has one: a separator with nothing on its outer side ("-50% off" has no blank part).
fn blank_part_rest(title: &str) -> Option<&str> {
    SEPARATORS
        .iter()
        .filter(|s| !matches!(s.trim(), ":" | "/"))
        .find_map(|s| {
            title
                .strip_prefix(s.trim_start())
                .or_else(|| title.strip_suffix(s.trim_end()))
        })
        .map(str::trim)
        .filter(|rest| !rest.is_empty())
}

/// `title` without a site-name part at its end (or start): the part that is the site's
/// name (or the page's host), or, where the `<h1>` is one of the parts, that part.
fn strip_site(title: &str, site: Option<&str>, host: Option<&str>, h1: Option<&str>) -> String {
    let title = strip_unseparated_site(title.trim(), site, host);
    let title = title.trim();
    let Some(sep) = SEPARATORS.iter().find(|s| title.contains(*s)) else {
        return title.to_string();
    };
    let parts: Vec<&str> = title.split(sep).map(str::trim).collect();
    if let Some(h1) = h1 {
        let key = norm_key(h1);
        if let Some(p) = parts.iter().find(|p| norm_key(p) == key) {
            return (*p).to_string();
        }
    }
    let site_key = site.map(norm_key).filter(|s| !s.is_empty());
    let is_site_name = |p: &str| site_key.as_deref() == Some(norm_key(p).as_str());
    let is_site = |p: &str| {
        let k = norm_key(p);
        !k.is_empty()
            && site_key.as_deref().is_some_and(|s| {
                k == s || (s.len() > 3 && (k.contains(s) || s.contains(k.as_str())))
            })
    };
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    // A forum's trail, innermost first: "Topic / Board / Forums".
    if parts.len() >= 3 && *sep == " / " {
        return first.to_string();
    }
    if parts.len() >= 2 && is_site(last) {
        return parts[..parts.len() - 1].join(sep);
    }
    // A first part is the site's only when it is the site's name: one that begins with it
    // is a product or headline that begins with a brand ("Gymshark Arrival T-Shirt -
    // Black", "Visual Studio Community | Download Latest Free Version").
    if parts.len() >= 2 && is_site_name(first) {
        return parts[1..].join(sep);
    }
    // Three parts or more between pipes: "Headline | Section | Site".
    if parts.len() >= 3 && *sep == " | " {
        return first.to_string();
    }
    // The last part names the page's host ("… – The Bush Company USA" at
    // thebushcompanyusa.com, "… | Occupational Safety and Health Administration" at
    // osha.gov).
    if parts.len() >= 2 && host.is_some_and(|h| names_host_text(last, h)) {
        return parts[..parts.len() - 1].join(sep);
    }
    // A last part that names a kind of site ("… — Flask Documentation (3.1.x)").
    let lower = last.to_lowercase();
    if parts.len() >= 2
        && [
            "documentation",
            "docs",
            "blog",
            "forum",
            "community",
            ".com",
            "wiki",
            "news",
        ]
        .iter()
        .any(|w| lower.contains(w))
        && !first.to_lowercase().contains("documentation")
    {
        return parts[..parts.len() - 1].join(sep);
    }
    // No site name known: a last part of one to three words after a longer head is the
    // site's name far more often than part of the headline.
    let words = |p: &str| p.split_whitespace().count();
    if parts.len() >= 2
        && matches!(
            *sep,
            " | " | " - " | " – " | " — " | " :: " | " · " | " » " | " • "
        )
        && words(last) <= 3
        && words(&parts[..parts.len() - 1].join(" ")) >= 3
    {
        return parts[..parts.len() - 1].join(sep);
    }
    title.to_string()
}

/// `title` without a site part that no separator sets off: phpBB's "Site • View topic -"
/// (or "View forum -") before the topic, the page's host before the headline
/// ("example.com Vibe Coding"), or the site's name after it ("Trails GHORBA").
fn strip_unseparated_site<'t>(title: &'t str, site: Option<&str>, host: Option<&str>) -> &'t str {
    for label in ["View topic - ", "View forum - "] {
        if let Some((_, rest)) = title.split_once(label) {
            if !rest.trim().is_empty() {
                return rest.trim();
            }
        }
    }
    let rest_of = |rest: Option<&'t str>| {
        rest.filter(|r| r.starts_with(' ') || r.ends_with(' '))
            .map(str::trim)
            .filter(|r| {
                !r.is_empty()
                    && !SEPARATORS
                        .iter()
                        .any(|s| r.starts_with(s.trim()) || r.ends_with(s.trim()))
            })
    };
    if let Some(rest) = host.and_then(|h| rest_of(title.strip_prefix(h))) {
        return rest;
    }
    if let Some(rest) = site
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .and_then(|s| rest_of(title.strip_suffix(s)))
    {
        return rest;
    }
    title
}

/// `text` without a first or last part (between [`SEPARATORS`]) that is the site's name.
fn strip_site_part<'t>(text: &'t str, site: Option<&str>) -> &'t str {
    let Some(site) = site.map(norm_key).filter(|s| !s.is_empty()) else {
        return text;
    };
    for sep in SEPARATORS {
        if let Some((head, tail)) = text.rsplit_once(sep) {
            if norm_key(tail) == site && !head.trim().is_empty() {
                return head.trim();
            }
        }
        if let Some((head, tail)) = text.split_once(sep) {
            if norm_key(head) == site && !tail.trim().is_empty() {
                return tail.trim();
            }
        }
    }
    text
}

/// Lower-cased letters and digits only: for comparing titles and names.
fn norm_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// An author value as a name: not a URL, not the site's name (when `site` is given), not
/// an e-mail address, not a CMS default account ("admin"), not a placeholder a template
/// left unfilled ("undefined", "page.head.author", a numeric id, "Topic Author"), at most
/// twelve words, with a leading "By", enclosing quotes and stray separators removed.
fn author_name(v: &str, site: Option<&str>) -> Option<String> {
    let v = v.trim();
    if v.starts_with("http://") || v.starts_with("https://") || v.starts_with('/') {
        return None;
    }
    let v = strip_by(v).trim_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '“' | '”' | ',' | ';' | '•' | '·' | '|' | '-' | '–' | '—'
            )
    });
    let placeholder = v.bytes().all(|b| b.is_ascii_digit())
        || !v.contains(' ')
            && v.matches('.').count() >= 2
            && !v.contains("..")
            && v.split('.').all(|p| p.len() > 2)
        || matches!(
            norm_key(v).as_str(),
            "undefined"
                | "null"
                | "none"
                | "unknown"
                | "na"
                | "theauthor"
                | "topicauthor"
                | "author"
                | "anonymous"
        );
    if placeholder {
        return None;
    }
    let words = v.split_whitespace().count();
    if words == 0 || words > 12 || v.contains('@') && !v.contains(' ') {
        return None;
    }
    if site.is_some_and(|s| norm_key(s) == norm_key(v)) {
        return None;
    }
    // The default accounts of CMSs name no one.
    if matches!(
        norm_key(v).as_str(),
        "admin" | "administrator" | "webmaster" | "siteadmin"
    ) {
        return None;
    }
    clean(v)
}

/// Labels before an author's name in bylines, longest first among those that share a start.
const BY_LABELS: &[&str] = &[
    "written by",
    "posted by",
    "authored by",
    "published by",
    "article by",
    "recipe by",
    "text by",
    "words by",
    "story by",
    "reviewed by",
    "by:",
    "by",
    "author:",
    "author",
    // de, fr, es, it, pt, nl, pl, ru, zh, ja: "Von Anna Schmidt", "Auteur : …", "作者：…".
    "geschrieben von",
    "verfasst von",
    "von",
    "écrit par",
    "publié par",
    "par",
    "escrito por",
    "publicado por",
    "por",
    "scritto da",
    "a cura di",
    "autore:",
    "geschreven door",
    "door",
    "przez",
    "autor:",
    "autor",
    "auteur :",
    "auteur:",
    "auteur",
    "автор:",
    "автор",
    "作者：",
    "作者:",
    "投稿者：",
    "投稿者:",
    "投稿者",
    "作者",
    "文／",
    "文/",
];

/// The lower-cased start of `text`, up to `max` bytes (at a character boundary): one
/// allocation that every label can be compared with.
fn lower_head(text: &str, max: usize) -> String {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_lowercase()
}

/// The first bytes of [`BY_LABELS`] (lower case; a capital's UTF-8 lead byte is its small
/// letter's in the Latin-1 and Cyrillic ranges the labels use).
const LABEL_FIRST_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < BY_LABELS.len() {
        t[BY_LABELS[i].as_bytes()[0] as usize] = true;
        i += 1;
    }
    t
};

/// Bytes of the longest of [`BY_LABELS`] and the bare labels of [`is_by_label`].
const LABEL_BYTES: usize = 20;

/// `v` without a leading "By" / "by:" / "Written by".
fn strip_by(v: &str) -> &str {
    let v = v.trim();
    let head = lower_head(v, LABEL_BYTES);
    for prefix in BY_LABELS {
        // The lower-cased start may differ in length from the original ("İ"): the label's
        // bytes are checked on the original too.
        if v.len() <= prefix.len() + 1
            || !head.starts_with(prefix)
            || v.get(..prefix.len())
                .is_none_or(|h| h.to_lowercase() != *prefix)
        {
            continue;
        }
        let rest = &v[prefix.len()..];
        // A label that ends in its colon or slash ("作者：", "文/") needs no space.
        if rest.starts_with([' ', ':', '\u{a0}']) || prefix.ends_with([':', '：', '/', '／']) {
            return rest.trim_start_matches([' ', ':', '\u{a0}']).trim();
        }
    }
    v
}

/// The author from the page body: the first element whose `id`/`class`/`itemprop` words
/// name an author or byline (`author`, `byline`, `wp-block-post-author__name`, forum
/// `username`s; not avatars, bios or comment authors) and whose text reads as a name: one
/// to six words after an optional "By", no digits, no label such as "Author" alone.
fn byline(doc: &Doc, site: Option<&str>) -> Option<String> {
    // Built once: `str::contains` set a searcher up for each of the page's ident words.
    static FINDERS: std::sync::OnceLock<[memchr::memmem::Finder<'static>; 2]> =
        std::sync::OnceLock::new();
    let [author_word, byline_word] = FINDERS.get_or_init(|| {
        [
            memchr::memmem::Finder::new("author"),
            memchr::memmem::Finder::new("byline"),
        ]
    });
    let marked = |ident: &str| {
        // The skip words are looked for only where a word names an author: few elements.
        let hit = ident.split_whitespace().any(|w| {
            author_word.find(w.as_bytes()).is_some()
                || byline_word.find(w.as_bytes()).is_some()
                || matches!(
                    w,
                    "username" | "username-coloured" | "message-name" | "creator" | "poster"
                )
        });
        hit && !ident
            .split_whitespace()
            .any(|w| BYLINE_SKIP.iter().any(|s| w.contains(s)))
    };
    let mut tried = 0;
    for e in &doc.elements {
        if e.hidden || e.seg_start == e.seg_end || !marked(doc.ident(e)) {
            continue;
        }
        tried += 1;
        if tried > MARKED_TRIES {
            return None;
        }
        // The name is the first block of the element's text that is not a label alone:
        // a role, date or bio in a block of its own is not part of it.
        let name = element_blocks(doc, e.seg_start, e.seg_end, 3)
            .iter()
            .find(|b| !is_by_label(b))
            .and_then(|b| name_of_byline(b, site));
        if name.is_some() {
            return name;
        }
    }
    None
}

/// Lower-case words inside personal names.
const NAME_PARTICLES: &[&str] = &[
    "van", "von", "der", "den", "de", "del", "della", "da", "di", "du", "la", "le", "bin", "al",
    "y", "and", "&",
];

/// Whether `text` is only a byline label ("By", "Written by:", "Author").
fn is_by_label(text: &str) -> bool {
    let t = text.trim().trim_end_matches(':').to_lowercase();
    matches!(
        t.as_str(),
        "author"
            | "authors"
            | "by"
            | "written by"
            | "posted by"
            | "about the author"
            | "authored by"
            | "article by"
            | "von"
            | "par"
            | "por"
            | "door"
            | "przez"
            | "autor"
            | "auteur"
            | "autore"
            | "автор"
            | "作者"
            | "投稿者"
    )
}

/// The author's name in a byline's text: without a leading label ("By", "Written by"),
/// cut before a date, place or source that follows a separator (" on ", " in ", " | ",
/// " – ", " · "), a repeated name ("Ann (Ann)") dropped; one to six words without digits.
fn name_of_byline(text: &str, site: Option<&str>) -> Option<String> {
    let mut name = strip_by(text);
    for sep in [
        " | ", " · ", " • ", " – ", " — ", " - ", " on ", " in ", " (", " / ",
    ] {
        if let Some((head, _)) = name.split_once(sep) {
            name = head.trim();
        }
    }
    let name = name.trim_end_matches([',', ';', ':']);
    // A name: each word capitalised (but for particles: "van", "de", ...), or one word (a
    // user name); not a sentence ("This review is posted").
    let words: Vec<&str> = name.split_whitespace().collect();
    let capitalised = words.iter().all(|w| {
        w.chars().next().is_some_and(|c| !c.is_lowercase())
            || NAME_PARTICLES.contains(&w.to_lowercase().as_str())
    });
    if words.len() > 1 && !capitalised {
        return None;
    }
    let words = name.split_whitespace().count();
    if (1..=6).contains(&words)
        && !is_by_label(name)
        && !name.chars().any(|c| c.is_ascii_digit())
        && !name.contains(['|', '/', '©', '@'])
    {
        author_name(name, site)
    } else {
        None
    }
}

/// The author from a "By Ann Lee" line near the headline: the first visible text run
/// among the [`BYLINE_SEGMENTS`] after the first `<h1>` (or the page's start) that begins
/// with a byline label and a capitalised name, or is the label alone and the next run
/// is the name.
fn by_text(doc: &Doc, site: Option<&str>) -> Option<String> {
    let start = doc
        .elements
        .iter()
        .find(|e| e.tag == Tag::H1 && e.seg_start < e.seg_end)
        .map_or(0, |e| e.seg_end as usize);
    let segs: Vec<&crate::doc::Segment> = doc
        .segments
        .get(start..)
        .unwrap_or(&[])
        .iter()
        .filter(|s| !s.hidden)
        .take(BYLINE_SEGMENTS)
        .collect();
    for (i, s) in segs.iter().enumerate() {
        let text = doc.seg_text(s);
        // Most runs are prose: their first byte, then their start without a copy where it
        // is ASCII, rules them out.
        let Some(&first) = text.as_bytes().first() else {
            continue;
        };
        if !LABEL_FIRST_BYTES[usize::from(first.to_ascii_lowercase())] {
            continue;
        }
        let ascii_label = |l: &&str| {
            text.as_bytes()
                .get(..l.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(l.as_bytes()))
        };
        if first.is_ascii() && !BY_LABELS.iter().any(ascii_label) {
            continue;
        }
        let head = lower_head(text, LABEL_BYTES);
        if !BY_LABELS.iter().any(|l| head.starts_with(l)) {
            continue;
        }
        // A reviewer or a publisher signs no text of theirs.
        let other_role = ["reviewed by", "published by", "publié par", "publicado por"]
            .iter()
            .any(|l| head.starts_with(l));
        if other_role || !is_by_label(text) && strip_by(text).len() == text.trim().len() {
            continue;
        }
        let candidate = if is_by_label(text) {
            match segs.get(i + 1) {
                Some(next) => doc.seg_text(next).to_string(),
                None => continue,
            }
        } else {
            let rest = strip_by(text);
            if rest.len() == text.trim().len() {
                continue;
            }
            rest.to_string()
        };
        // A capital, or a letter of a script without case (王明).
        if !candidate
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() && !c.is_lowercase())
        {
            continue;
        }
        if let Some(n) = name_of_byline(&candidate, site) {
            return Some(n);
        }
    }
    None
}

/// Text runs after the first `<h1>` searched for a "By" line.
const BYLINE_SEGMENTS: usize = 120;

/// The first `max` blocks of the visible text of `segments[from..to]`, each with its
/// words joined by single spaces.
fn element_blocks(doc: &Doc, from: u32, to: u32, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let segs = doc.segments.get(from as usize..to as usize).unwrap_or(&[]);
    let mut prev: Option<&crate::doc::Segment> = None;
    for s in segs.iter().filter(|s| !s.hidden) {
        match prev {
            Some(p) if p.block == s.block => {
                let last = out.last_mut().expect("a block is open");
                if s.spaced_from(p) {
                    last.push(' ');
                }
                last.push_str(doc.seg_text(s));
            }
            _ => {
                if out.len() == max {
                    break;
                }
                out.push(doc.seg_text(s).to_string());
            }
        }
        prev = Some(s);
    }
    out
}

/// What `read` makes of the text of the first of the page's visible elements that
/// `marked` picks (by element and ident words) and `read` accepts; at most
/// [`MARKED_TRIES`] marked elements are tried.
fn first_marked<T>(
    doc: &Doc,
    marked: impl Fn(&crate::doc::Element, &str) -> bool,
    read: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    let mut tried = 0;
    for e in &doc.elements {
        if e.hidden || e.seg_start == e.seg_end || !marked(e, doc.ident(e)) {
            continue;
        }
        tried += 1;
        if tried > MARKED_TRIES {
            return None;
        }
        if let Some(v) = read(&element_text(doc, e.seg_start, e.seg_end)) {
            return Some(v);
        }
    }
    None
}

/// Marked elements (bylines, dates) tried per page at most.
const MARKED_TRIES: usize = 24;

/// Ident words that mark an element near an author that is not the byline.
const BYLINE_SKIP: &[&str] = &[
    "avatar",
    "image",
    "img",
    "photo",
    "bio",
    "description",
    "social",
    "comment",
    "about",
    "follow",
    "more",
    "related",
    "title",
    "label",
    "box",
];

/// A date written in the page near its byline: the text of a `<time>` or of an element
/// classed like a date (`date`, `published`, `post-date`, `timestamp`, `byline`, `meta`),
/// of at most twelve words, that [`iso_date`] reads.
fn visible_date(doc: &Doc) -> Option<String> {
    let marked = |e: &crate::doc::Element, ident: &str| {
        e.tag == Tag::Time
            || ident.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
                matches!(
                    w,
                    "date"
                        | "published"
                        | "pubdate"
                        | "posted"
                        | "timestamp"
                        | "byline"
                        | "dateline"
                        | "datetime"
                        | "time"
                )
            })
    };
    first_marked(doc, marked, |text| {
        if text.split_whitespace().count() > 12 {
            return None;
        }
        iso_date(text)
    })
}

/// A date standing by the headline on a page that marks nothing: the first short block
/// (at most [`DATE_BLOCK_WORDS`] words) among the [`DATE_BLOCKS_AFTER`] blocks after the
/// first visible `<h1>` (or the two before it) that [`iso_date`] reads: "December 15,
/// 2025", "by Ziyi Xu, Dec 17, 2025", "Dec 17, 2025 · 6 min read". Utility-class themes
/// (Tailwind and the like) print the date there with no `date` or `<time>` to find it by.
fn date_by_headline(doc: &Doc) -> Option<String> {
    let h1 = doc
        .elements
        .iter()
        .find(|e| e.tag == Tag::H1 && !e.hidden && e.seg_start < e.seg_end)?;
    let segments = &doc.segments;
    // The first segment of the block two before the headline's.
    let first = segments.get(h1.seg_start as usize)?.block;
    let start =
        segments[..h1.seg_start as usize].partition_point(|s| s.block < first.saturating_sub(2));
    let before = element_blocks(doc, start as u32, h1.seg_start, 2);
    let after = element_blocks(doc, h1.seg_end, segments.len() as u32, DATE_BLOCKS_AFTER);
    before
        .iter()
        .chain(&after)
        .filter(|text| (1..=DATE_BLOCK_WORDS).contains(&text.split_whitespace().count()))
        .find_map(|text| iso_date(text))
}

/// Blocks after the headline searched by [`date_by_headline`]: a subtitle, an author line,
/// a reading time and the date fit in this.
const DATE_BLOCKS_AFTER: usize = 6;

/// Words a date block of [`date_by_headline`] may have ("Posted by Jane Doe on March 3,
/// 2025 · 4 min read", "by Amanda · Dec 20, 2025 at 3:00 am · One comment so far").
const DATE_BLOCK_WORDS: usize = 14;

/// Whitespace collapsed, entity references in JSON-LD strings decoded, soft hyphens and
/// zero-width spaces (invisible line-break hints: "Assis&shy;tance") dropped; `None` if
/// empty.
fn clean(s: &str) -> Option<String> {
    let s = if s.contains('&') {
        crate::mojibake::repair_decoded(crate::tokenize::decode_text(s)).into_owned()
    } else {
        s.to_string()
    };
    let s = drop_invisible(&s.split_whitespace().collect::<Vec<_>>().join(" "));
    (!s.is_empty()).then_some(s)
}

/// Without soft hyphens and zero-width spaces: line-break hints that print nothing.
fn drop_invisible(s: &str) -> String {
    s.replace(['\u{ad}', '\u{200b}'], "")
}

/// At most `max` characters.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].trim_end().to_string(),
        None => s.to_string(),
    }
}

/// `u` as an absolute http(s) URL, resolved against `base` when relative.
fn absolute_url(u: &str, base: Option<&str>) -> Option<String> {
    let u = u.trim();
    if u.starts_with("http://") || u.starts_with("https://") {
        return Some(u.to_string());
    }
    let base = base?;
    let scheme_end = base.find("://")? + 3;
    let host_end = base[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(base.len(), |i| scheme_end + i);
    if let Some(rest) = u.strip_prefix("//") {
        return Some(format!("{}//{rest}", &base[..scheme_end - 2]));
    }
    if u.starts_with('/') {
        return Some(format!("{}{u}", &base[..host_end]));
    }
    None
}

/// What the page's JSON-LD says, from its main entity and site nodes.
#[derive(Debug, Default)]
struct JsonLd {
    /// The main entity is of an article-like type.
    article: bool,
    headline: Option<String>,
    author: Option<String>,
    date: Option<String>,
    date_created: Option<String>,
    description: Option<String>,
    site_name: Option<String>,
    url: Option<String>,
}

/// JSON values visited per page at most.
const MAX_NODES: usize = 20_000;

/// Main-entity types, best first (each group in turn).
const ARTICLE_TYPES: &[&str] = &[
    "article",
    "newsarticle",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "techarticle",
    "scholarlyarticle",
    "report",
    "socialmediaposting",
    "liveblogposting",
    "medicalwebpage",
    "review",
    "howto",
    "recipe",
];
const OTHER_TYPES: &[&str] = &[
    "discussionforumposting",
    "question",
    "qapage",
    "product",
    "event",
    "course",
    "videoobject",
    "podcastepisode",
    "creativework",
    "book",
    "faqpage",
];

impl JsonLd {
    fn of<'a>(values: &'a [Value]) -> JsonLd {
        let mut nodes: Vec<&'a Map<String, Value>> = Vec::new();
        let mut budget = MAX_NODES;
        for v in values {
            collect_nodes(v, &mut nodes, &mut budget);
        }
        let mut by_id: HashMap<&'a str, &'a Map<String, Value>> = HashMap::new();
        for n in &nodes {
            if let Some(id) = n.get("@id").and_then(Value::as_str) {
                // The node with the most keys wins (a bare {"@id"} is a reference).
                let better = by_id.get(id).is_none_or(|have| have.len() < n.len());
                if better {
                    by_id.insert(id, n);
                }
            }
        }
        // A `Question` is a Q&A page's main entity; one of several is an FAQ's item, and
        // names no page.
        let questions = nodes
            .iter()
            .filter(|n| types(n).iter().any(|t| t == "question"))
            .count();
        let typed = |group: &[&str]| {
            nodes.iter().copied().find(|n| {
                types(n)
                    .iter()
                    .any(|t| group.contains(&t.as_str()) && (t != "question" || questions == 1))
                    && n.len() > 2
            })
        };
        let main = typed(ARTICLE_TYPES)
            .or_else(|| typed(OTHER_TYPES))
            .or_else(|| typed(&["webpage", "itempage", "profilepage", "aboutpage"]))
            .or_else(|| nodes.iter().copied().find(|n| n.contains_key("@type")));
        let resolve = |v: &'a Value| resolve(&by_id, v);
        let mut out = JsonLd::default();
        let str_of = |m: &Map<String, Value>, k: &str| -> Option<String> {
            match m.get(k)? {
                Value::String(s) => clean(s),
                Value::Array(a) => a.iter().find_map(|v| v.as_str().and_then(clean)),
                Value::Object(o) => o.get("@value").and_then(Value::as_str).and_then(clean),
                _ => None,
            }
        };
        if let Some(m) = main {
            out.article = types(m).iter().any(|t| ARTICLE_TYPES.contains(&t.as_str()));
            let is_page = types(m).iter().any(|t| t.ends_with("page"));
            out.headline = str_of(m, "headline").or_else(|| {
                // A page's `name` is usually its <title>, suffix and all: only for
                // non-page main entities.
                let other = types(m).iter().any(|t| OTHER_TYPES.contains(&t.as_str()));
                (!is_page && other).then(|| str_of(m, "name")).flatten()
            });
            out.date = str_of(m, "datePublished").or_else(|| str_of(m, "uploadDate"));
            out.date_created = str_of(m, "dateCreated");
            out.description = str_of(m, "description");
            out.url = str_of(m, "url").filter(|u| u.starts_with("http"));
            if let Some(a) = m.get("author").or_else(|| m.get("creator")) {
                out.author = author_of(a, &resolve);
            }
            if out.date.is_none() {
                // Yoast puts the date on the WebPage and the author on the Article.
                out.date = nodes
                    .iter()
                    .find(|n| types(n).iter().any(|t| t == "webpage"))
                    .and_then(|n| str_of(n, "datePublished"));
            }
            if out.site_name.is_none() {
                out.site_name = m
                    .get("publisher")
                    .and_then(resolve)
                    .and_then(|p| str_of(p, "name"));
            }
        }
        if out.author.is_none() {
            // An article node of another type than the main (a WebPage main entity).
            out.author = nodes
                .iter()
                .filter(|n| {
                    types(n).iter().any(|t| {
                        ARTICLE_TYPES.contains(&t.as_str()) || OTHER_TYPES.contains(&t.as_str())
                    })
                })
                .find_map(|n| n.get("author").and_then(|a| author_of(a, &resolve)));
        }
        let site = nodes
            .iter()
            .find(|n| types(n).iter().any(|t| t == "website"))
            .and_then(|n| str_of(n, "name"));
        out.site_name = site.or(out.site_name);
        out
    }
}

/// `v` as an object, a bare `{"@id": ...}` reference replaced by the node it names.
fn resolve<'a>(
    by_id: &HashMap<&'a str, &'a Map<String, Value>>,
    v: &'a Value,
) -> Option<&'a Map<String, Value>> {
    let m = v.as_object()?;
    match m.get("@id").and_then(Value::as_str) {
        Some(id) if m.len() <= 2 => by_id.get(id).copied().or(Some(m)),
        _ => Some(m),
    }
}

/// Names of an `author` value: a string, a Person (by `@id` too; not an Organization) or
/// a list.
fn author_of<'a>(
    v: &'a Value,
    resolve: &impl Fn(&'a Value) -> Option<&'a Map<String, Value>>,
) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    let items: Vec<&Value> = match v {
        Value::Array(a) => a.iter().take(12).collect(),
        other => vec![other],
    };
    for item in items {
        let name = match item {
            Value::String(s) => author_name(s, None),
            Value::Object(_) => resolve(item)
                .filter(|m| {
                    !types(m)
                        .iter()
                        .any(|t| t == "organization" || t == "corporation")
                })
                .and_then(|m| m.get("name"))
                .and_then(|n| match n {
                    Value::String(s) => Some(s.as_str()),
                    Value::Array(a) => a.first().and_then(Value::as_str),
                    _ => None,
                })
                .and_then(|s| author_name(s, None)),
            _ => None,
        };
        if let Some(n) = name {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    join_names(&names)
}

/// Author names as a byline writes them: "A", "A and B", "A, B, C".
fn join_names(names: &[String]) -> Option<String> {
    match names {
        [] => None,
        [a, b] => Some(format!("{a} and {b}")),
        _ => Some(names.join(", ")),
    }
}

/// Lower-cased `@type` names of a node, without URL prefixes.
fn types(n: &Map<String, Value>) -> Vec<String> {
    let one = |t: &str| {
        let t = t.trim();
        t.rsplit(['/', '#', ':'])
            .next()
            .unwrap_or(t)
            .to_ascii_lowercase()
    };
    match n.get("@type") {
        Some(Value::String(t)) => vec![one(t)],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(one).collect(),
        _ => Vec::new(),
    }
}

/// Every JSON object under `v` (`@graph` and nested ones included), in document order.
fn collect_nodes<'a>(v: &'a Value, out: &mut Vec<&'a Map<String, Value>>, budget: &mut usize) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(m) => {
                out.push(m);
                let children: Vec<&Value> = m
                    .values()
                    .filter(|c| c.is_object() || c.is_array())
                    .collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Month names of other languages, whole words (lower case, without a final '.'):
/// nominative and genitive forms and the usual abbreviations in de, fr, es, it, pt, nl, pl
/// and ru, where [`MONTHS`]' English starts do not already read them ("marzo", "mayo").
/// Abbreviations that are English words ("ago", "out", "set", "gen") are left out.
const MONTHS_INTL: &[(&str, u32)] = &[
    ("jänner", 1),
    ("jän", 1),
    ("janvier", 1),
    ("janv", 1),
    ("enero", 1),
    ("ene", 1),
    ("gennaio", 1),
    ("janeiro", 1),
    ("stycznia", 1),
    ("styczeń", 1),
    ("января", 1),
    ("январь", 1),
    ("янв", 1),
    ("février", 2),
    ("fevrier", 2),
    ("févr", 2),
    ("fevereiro", 2),
    ("fev", 2),
    ("lutego", 2),
    ("luty", 2),
    ("февраля", 2),
    ("февраль", 2),
    ("фев", 2),
    ("märz", 3),
    ("mär", 3),
    ("março", 3),
    ("maart", 3),
    ("mrt", 3),
    ("marca", 3),
    ("marzec", 3),
    ("марта", 3),
    ("март", 3),
    ("avril", 4),
    ("avr", 4),
    ("abril", 4),
    ("abr", 4),
    ("kwietnia", 4),
    ("kwiecień", 4),
    ("апреля", 4),
    ("апрель", 4),
    ("апр", 4),
    ("mai", 5),
    ("maggio", 5),
    ("maio", 5),
    ("mei", 5),
    ("maja", 5),
    ("maj", 5),
    ("мая", 5),
    ("май", 5),
    ("juin", 6),
    ("giugno", 6),
    ("czerwca", 6),
    ("czerwiec", 6),
    ("июня", 6),
    ("июнь", 6),
    ("июн", 6),
    ("juillet", 7),
    ("juil", 7),
    ("luglio", 7),
    ("lipca", 7),
    ("lipiec", 7),
    ("июля", 7),
    ("июль", 7),
    ("июл", 7),
    ("août", 8),
    ("aout", 8),
    ("agosto", 8),
    ("augustus", 8),
    ("sierpnia", 8),
    ("sierpień", 8),
    ("августа", 8),
    ("август", 8),
    ("авг", 8),
    ("settembre", 9),
    ("setembro", 9),
    ("września", 9),
    ("wrzesień", 9),
    ("сентября", 9),
    ("сентябрь", 9),
    ("сен", 9),
    ("okt", 10),
    ("ottobre", 10),
    ("outubro", 10),
    ("października", 10),
    ("październik", 10),
    ("октября", 10),
    ("октябрь", 10),
    ("окт", 10),
    ("listopada", 11),
    ("listopad", 11),
    ("ноября", 11),
    ("ноябрь", 11),
    ("ноя", 11),
    ("dezember", 12),
    ("dez", 12),
    ("décembre", 12),
    ("déc", 12),
    ("diciembre", 12),
    ("dicembre", 12),
    ("dic", 12),
    ("dezembro", 12),
    ("grudnia", 12),
    ("grudzień", 12),
    ("декабря", 12),
    ("декабрь", 12),
    ("дек", 12),
];

/// The month a word names (1-12): three letters or more of an English month's start, or a
/// word of [`MONTHS_INTL`].
fn month_of(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    if w.chars().count() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| w.starts_with(m))
        .map(|i| i as u32 + 1)
        .or_else(|| MONTHS_INTL.iter().find(|(m, _)| *m == w).map(|&(_, n)| n))
}

/// `YYYY年M月D日` (Chinese, Japanese) and `YYYY년 M월 D일` (Korean), anywhere in `s`.
fn cjk_date(s: &str) -> Option<(u32, u32, u32)> {
    let (year_mark, month_mark, day_mark) = if s.contains('年') {
        ('年', '月', '日')
    } else {
        ('년', '월', '일')
    };
    let (before, rest) = s.split_once(year_mark)?;
    let y: u32 = before
        .trim_end()
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let (m, rest) = rest.split_once(month_mark)?;
    let (d, _) = rest.split_once(day_mark)?;
    Some((y, m.trim().parse().ok()?, d.trim().parse().ok()?))
}

/// A date as ISO 8601 (`YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` plus the offset as given),
/// from ISO 8601 and its common variants, `YYYY/MM/DD`, `D.M.YYYY`, `YYYYMMDD`, RFC 2822,
/// `YYYY年M月D日` (and Korean's `년 월 일`) and month names in English and the languages of
/// `MONTHS_INTL` (`September 11, 2024`, `11 Sep 2024`, `12. März 2024`). `None` when
/// unreadable or outside 1990-2100.
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits = |from: usize, n: usize| -> Option<u32> {
        let part = s.get(from..from + n)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let valid = |y: u32, m: u32, d: u32| {
        (1990..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
    };
    // YYYY-MM-DD[THH:MM[:SS][.fff][Z|±HH[:]MM]], also with '/' or '.' and a space for 'T'.
    if let (Some(y), Some(&sep)) = (digits(0, 4), b.get(4)) {
        if matches!(sep, b'-' | b'/' | b'.') {
            if let (Some(m), Some(d)) = (digits(5, 2), digits(8, 2)) {
                if b.get(7) == Some(&sep) && valid(y, m, d) {
                    let date = format!("{y:04}-{m:02}-{d:02}");
                    return Some(match time_part(s.get(10..).unwrap_or("")) {
                        Some(t) => format!("{date}T{t}"),
                        None => date,
                    });
                }
            }
        }
        // YYYYMMDD
        if b.len() == 8 {
            if let (Some(m), Some(d)) = (digits(4, 2), digits(6, 2)) {
                if valid(y, m, d) {
                    return Some(format!("{y:04}-{m:02}-{d:02}"));
                }
            }
        }
    }
    // D.M.YYYY, day first (the European order; D/M/YYYY is left out: the US order is
    // M/D/YYYY, and the month-name forms are not ambiguous).
    let mut dotted = s.splitn(3, '.');
    if let (Some(d), Some(m), Some(y)) = (dotted.next(), dotted.next(), dotted.next()) {
        let y = y.get(..4).unwrap_or("");
        let num = |p: &str, n: std::ops::RangeInclusive<usize>| {
            (n.contains(&p.len()) && p.bytes().all(|c| c.is_ascii_digit()))
                .then(|| p.parse::<u32>().ok())
                .flatten()
        };
        if let (Some(d), Some(m), Some(y)) = (num(d, 1..=2), num(m.trim(), 1..=2), num(y, 4..=4)) {
            if valid(y, m, d) {
                return Some(format!("{y:04}-{m:02}-{d:02}"));
            }
        }
    }
    if let Some((y, m, d)) = cjk_date(s) {
        return valid(y, m, d).then(|| format!("{y:04}-{m:02}-{d:02}"));
    }
    // Month names: "September 11, 2024", "11 Sep 2024", "Wed, 11 Sep 2024 10:00:00 GMT",
    // "12. März 2024", "12 de mayo de 2024", "5 мая 2024".
    let words: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    let (month, m) = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| month_of(w).map(|m| (i, m)))?;
    let num = |w: &str| -> Option<u32> {
        let w = w.trim_end_matches(['.', 's', 't', 'h', 'n', 'd', 'r']);
        (!w.is_empty() && w.len() <= 4 && w.bytes().all(|c| c.is_ascii_digit()))
            .then(|| w.parse().ok())
            .flatten()
    };
    let around: Vec<u32> = words
        .iter()
        .enumerate()
        .filter(|(i, _)| i.abs_diff(month) <= 2 && *i != month)
        .filter_map(|(_, w)| num(w))
        .collect();
    let y = *around.iter().find(|&&n| n >= 1000)?;
    let d = *around.iter().find(|&&n| (1..=31).contains(&n))?;
    valid(y, m, d).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// The time after an ISO date (`THH:MM[:SS][.fff][Z|±HH[:]MM]`) as `HH:MM:SS` plus the
/// offset (`Z` or `±HH:MM`); `None` when there is none, or it is midnight without an offset
/// (a date-only value padded by its CMS).
fn time_part(t: &str) -> Option<String> {
    let t = t.strip_prefix(['T', ' '])?;
    let b = t.as_bytes();
    let two = |i: usize| -> Option<u32> {
        let p = t.get(i..i + 2)?;
        p.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| p.parse().ok())
            .flatten()
    };
    let (h, mi) = (two(0)?, two(3)?);
    if b.get(2) != Some(&b':') || h > 23 || mi > 59 {
        return None;
    }
    let mut i = 5;
    let mut sec = 0;
    if b.get(5) == Some(&b':') {
        sec = two(6)?.min(59);
        i = 8;
        if b.get(8) == Some(&b'.') {
            i = 9;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
    }
    let offset = match b.get(i) {
        Some(b'Z') | Some(b'z') => "Z".to_string(),
        Some(&c @ (b'+' | b'-')) => {
            let oh = two(i + 1)?;
            let om = if b.get(i + 3) == Some(&b':') {
                two(i + 4)?
            } else {
                two(i + 3).unwrap_or(0)
            };
            format!("{}{oh:02}:{om:02}", c as char)
        }
        _ => String::new(),
    };
    if h == 0 && mi == 0 && sec == 0 && offset.is_empty() {
        return None;
    }
    Some(format!("{h:02}:{mi:02}:{sec:02}{offset}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_common_shapes() {
        let cases = [
            ("2024-09-11", Some("2024-09-11")),
            (
                "2024-09-11T10:20:30+02:00",
                Some("2024-09-11T10:20:30+02:00"),
            ),
            ("2024-09-11T10:20:30.123Z", Some("2024-09-11T10:20:30Z")),
            ("2024-09-11 10:20", Some("2024-09-11T10:20:00")),
            ("2024-09-11T00:00:00", Some("2024-09-11")),
            (
                "2024-09-11T10:20:30+0530",
                Some("2024-09-11T10:20:30+05:30"),
            ),
            ("2024/9/11", None),
            ("2024/09/11", Some("2024-09-11")),
            ("20240911", Some("2024-09-11")),
            ("11.09.2024", Some("2024-09-11")),
            ("September 11, 2024", Some("2024-09-11")),
            ("11 Sep 2024", Some("2024-09-11")),
            ("Wed, 11 Sep 2024 10:00:00 GMT", Some("2024-09-11")),
            ("Sept. 3rd, 2023", Some("2023-09-03")),
            // Other languages' orders and month names.
            ("1.5.2024", Some("2024-05-01")),
            ("12.05.2024, 10:32 Uhr", Some("2024-05-12")),
            ("12. März 2024", Some("2024-03-12")),
            ("3 février 2024", Some("2024-02-03")),
            ("12 de mayo de 2024", Some("2024-05-12")),
            ("21 agosto 2023", Some("2023-08-21")),
            ("5 мая 2024 г.", Some("2024-05-05")),
            ("12 grudnia 2023", Some("2023-12-12")),
            ("2024年5月12日 10:32", Some("2024-05-12")),
            ("2024년 5월 12일", Some("2024-05-12")),
            // English words that abbreviate months elsewhere name none here.
            ("3 days ago, 2024", None),
            ("yesterday", None),
            ("2024-13-01", None),
            ("", None),
        ];
        for (input, want) in cases {
            assert_eq!(iso_date(input).as_deref(), want, "{input}");
        }
    }

    #[test]
    fn titles_lose_the_site_suffix() {
        assert_eq!(
            strip_site("A plan | Gazette", Some("The Gazette"), None, None),
            "A plan"
        );
        assert_eq!(
            strip_site("Gazette - A plan for it", Some("Gazette"), None, None),
            "A plan for it"
        );
        assert_eq!(
            strip_site("River plan approved - Daily News", None, None, None),
            "River plan approved"
        );
        assert_eq!(
            strip_site("Why - and how", None, None, None),
            "Why - and how"
        );
        // A brand's product line, not its site name, begins the title (the short last
        // part, a colour, goes as a site name would).
        assert_eq!(
            strip_site(
                "Gymshark Arrival T-Shirt - Black",
                Some("Gymshark"),
                None,
                None
            ),
            "Gymshark Arrival T-Shirt"
        );
        assert_eq!(
            strip_site(
                "Visual Studio Community | Download Latest Free Version",
                Some("Visual Studio"),
                None,
                None
            ),
            "Visual Studio Community | Download Latest Free Version"
        );
        assert_eq!(
            strip_site("Big | News | Site", None, None, Some("News")),
            "News"
        );
        // No site name declared: the last part names the host, or spells its label's
        // initials; a part that only mentions the host's name stays.
        let osha = Some("osha.gov");
        assert_eq!(
            strip_site(
                "Electrical - Overview | Occupational Safety and Health Administration",
                None,
                osha,
                None
            ),
            "Electrical - Overview"
        );
        assert_eq!(
            strip_site(
                "Outdoor Gear – The Bush Company USA",
                None,
                Some("thebushcompanyusa.com"),
                None
            ),
            "Outdoor Gear"
        );
        // "Headline | Tagline | Site" keeps its head, as without a host.
        assert_eq!(
            strip_site(
                "Best Resume Writing Service | Professional Resume Writers | TopResume",
                None,
                Some("topresume.com"),
                None
            ),
            "Best Resume Writing Service"
        );
        assert_eq!(
            strip_site(
                "Safety rules at work – what OSHA inspectors look for",
                None,
                osha,
                None
            ),
            "Safety rules at work – what OSHA inspectors look for"
        );
    }

    #[test]
    fn metadata_from_json_ld_meta_and_markup() {
        let html = r##"<html><head><title>River plan approved | The Gazette</title>
            <meta property="og:site_name" content="The Gazette">
            <meta name="description" content="The council approved it.">
            <link rel="canonical" href="/news/river">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"WebSite","@id":"#site","name":"The Gazette"},
              {"@type":"WebPage","name":"River plan approved | The Gazette","datePublished":"2024-03-01T08:00:00+00:00"},
              {"@type":"NewsArticle","headline":"River plan approved","author":{"@id":"#p1"}},
              {"@type":"Person","@id":"#p1","name":"Ann Lee"}]}</script>
            </head><body><h1>River plan approved</h1><p>Text.</p></body></html>"##;
        let mut doc = Doc::parse(html);
        doc.url = Some("https://gazette.example/x?y".into());
        let m = Metadata::read(&doc, &Structured::read(&doc), PageType::Article);
        assert_eq!(m.title.as_deref(), Some("River plan approved"));
        assert_eq!(m.author.as_deref(), Some("Ann Lee"));
        assert_eq!(
            m.date_published.as_deref(),
            Some("2024-03-01T08:00:00+00:00")
        );
        assert_eq!(m.description.as_deref(), Some("The council approved it."));
        assert_eq!(m.site_name.as_deref(), Some("The Gazette"));
        assert_eq!(
            m.canonical_url.as_deref(),
            Some("https://gazette.example/news/river")
        );
    }

    #[test]
    fn metadata_from_markup_only() {
        let html = r#"<html><head><title>How to fix it - Fixers</title>
            <meta name="author" content="https://example.com/ann"></head><body>
            <h1>How to fix it</h1><div class="byline">By Ann Lee</div>
            <time datetime="2023-05-06">May 6</time><p>Text.</p></body></html>"#;
        let doc = Doc::parse(html);
        let m = Metadata::read(&doc, &Structured::read(&doc), PageType::Article);
        assert_eq!(m.title.as_deref(), Some("How to fix it"));
        assert_eq!(m.author.as_deref(), Some("Ann Lee"));
        assert_eq!(m.date_published.as_deref(), Some("2023-05-06"));
        assert_eq!(m.site_name, None);
    }

    #[test]
    fn rdfa_properties_name_several_keys_and_dublin_core_by_prefix() {
        // Readability's test pages `004-metadata-space-separated-properties` and
        // `metadata-content-missing`: one `property` attribute may name several keys.
        let html = r#"<html><head><title>Title Element</title>
            <meta property="x:title og:title twitter:title" content="A title">
            <meta property="og:description x:description">
            <meta property="dc:creator twitter:site_name" content="Creator Name">
            <meta property="dcterms:created" content="2015-03-26"></head>
            <body><p>Text.</p></body></html>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("A title"));
        assert_eq!(m.author.as_deref(), Some("Creator Name"));
        assert_eq!(m.date_published.as_deref(), Some("2015-03-26"));
        // A tag with both `name` and `property` gives both keys.
        let both = r#"<html><head><title>Title Element - Site</title>
            <meta name="twitter:title" property="og:title" content="Both titles"></head>
            <body><p>Text.</p></body></html>"#;
        let doc = Doc::parse(both);
        let keys: Vec<&str> = doc.meta.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["twitter:title", "og:title"]);
        let dc_only = r#"<html><head><title>Title Element</title>
            <meta property="x:title dc:title" content="My title"></head>
            <body><p>Text.</p></body></html>"#;
        assert_eq!(
            read(dc_only, PageType::Article, None).title.as_deref(),
            Some("My title")
        );
    }

    fn read(html: &str, page_type: PageType, url: Option<&str>) -> Metadata {
        let mut doc = Doc::parse(html);
        doc.url = url.map(str::to_string);
        Metadata::read(&doc, &Structured::read(&doc), page_type)
    }

    #[test]
    fn an_unmarked_date_by_the_headline_dates_an_article() {
        // Utility classes only: the date is the short block under the <h1>.
        let html = r#"<body><div class="m_0 fw_medium"><h1 class="text-xl">Understanding
            Lean</h1><p class="text-muted text-xl">December 15, 2025</p></div>
            <p>Long text of the post, with 2024 and March in it.</p></body>"#;
        assert_eq!(
            read(html, PageType::Article, None)
                .date_published
                .as_deref(),
            Some("2025-12-15")
        );
        // A byline with the date, a time and a comment count still counts; the release
        // date of a reviewed book further down does not come first.
        let html = r#"<body><h1>A review</h1><p>by Amanda · Dec 20, 2025 at 3:00 am · One
            comment so far</p><p>The book.</p><p>Released: June 17, 2025 by Tor</p></body>"#;
        assert_eq!(
            read(html, PageType::Article, None)
                .date_published
                .as_deref(),
            Some("2025-12-20")
        );
        // Far from the headline, or on a product page, a date is not the page's.
        let far = r#"<body><h1>Headline</h1><p>a</p><p>b</p><p>c</p><p>d</p><p>e</p><p>f</p>
            <p>g</p><p>h</p><p>December 15, 2025</p></body>"#;
        assert_eq!(read(far, PageType::Article, None).date_published, None);
        let product = r#"<body><h1>Kettle</h1><p>March 3, 2025</p></body>"#;
        assert_eq!(read(product, PageType::Product, None).date_published, None);
    }

    #[test]
    fn title_is_the_h1_that_a_title_part_bears_out() {
        // The <h1> is the head of the <title>; the rest is not a site name we know.
        let html = r#"<title>Kayaks | REI Co-op</title><body><h1>Kayaks</h1><p>x</p>"#;
        let m = read(html, PageType::Collection, None);
        assert_eq!(m.title.as_deref(), Some("Kayaks"));
        // "Buy X at Shop": the <h1> is a third of the title or more.
        let html = r#"<title>Buy Electric Guitars at Thomann</title><body>
            <h1>Electric Guitars</h1><p>x</p>"#;
        let m = read(html, PageType::Collection, None);
        assert_eq!(m.title.as_deref(), Some("Electric Guitars"));
        // A section heading that repeats one word of a long headline is not it.
        let html = r#"<title>How we found a bug in Vercel, Cursor, Discord and others</title>
            <body><h1>Discord</h1><p>x</p>"#;
        let m = read(html, PageType::Other, None);
        assert_eq!(
            m.title.as_deref(),
            Some("How we found a bug in Vercel, Cursor, Discord and others")
        );
    }

    #[test]
    fn an_h1_loses_a_section_label_that_no_title_source_has() {
        // "Blog:" before the headline in the <h1>; the declared titles have the headline.
        let html = r#"<title>Best Ad Agencies in 2025 (Ranked) | Silverback</title>
            <meta property="og:site_name" content="Silverback">
            <body><h1><strong>Blog:</strong> Best Ad Agencies in 2025 (Ranked)</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(
            m.title.as_deref(),
            Some("Best Ad Agencies in 2025 (Ranked)")
        );
        // Without a title source that is the rest, the first words are the headline's.
        let html = r#"<title>Python: A Tutorial for Beginners | Site</title>
            <body><h1>Python: A Tutorial for Beginners</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("Python: A Tutorial for Beginners"));
        assert_eq!(strip_kicker("Review: Tenet", &[]), "Review: Tenet");
    }

    #[test]
    fn an_h1_damaged_by_a_charset_conversion_gives_way_to_the_title() {
        let html = r#"<title>What Are The Basics Of Event Planning: Beginner’s Guide</title>
            <body><h1>What Are The Basics Of Event Planning? Beginner? Guide</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(
            m.title.as_deref(),
            Some("What Are The Basics Of Event Planning: Beginner’s Guide")
        );
        assert!(damaged_copy("Caf? de Flore", "Café de Flore"));
        // A question that ends the <h1>, or one that asks in the middle, is no damage.
        assert!(!damaged_copy("What is Rust?", "What is Rust"));
        assert!(!damaged_copy("Why? Because", "Why Rust wins"));
        assert!(!damaged_copy("Is it? Yes", "Is it? Yes"));
    }

    #[test]
    fn a_tagline_inside_the_h1_is_not_part_of_the_title() {
        let html = r#"<title>Black Edition | Meal Replacement Protein Powder | Huel</title>
            <body><h1>Black Edition<span class="Header__tagline">Complete protein meal</span>
            </h1><p>x</p>"#;
        let m = read(html, PageType::Product, None);
        assert_eq!(m.title.as_deref(), Some("Black Edition"));
        let html = r#"<title>Atomic Habits: Clear, James: Amazon.com: Books</title>
            <body><h1 id="title"><span id="productTitle">Atomic Habits</span>
            <span id="productSubtitle">Hardcover – October 16, 2018</span></h1><p>x</p>"#;
        let m = read(html, PageType::Product, None);
        assert_eq!(m.title.as_deref(), Some("Atomic Habits"));
    }

    #[test]
    fn a_title_with_a_blank_part_names_only_the_site() {
        assert_eq!(
            blank_part_rest("| Nuts & Volts Magazine"),
            Some("Nuts & Volts Magazine")
        );
        assert_eq!(blank_part_rest("Shop –"), Some("Shop"));
        assert_eq!(blank_part_rest("Kayaks | REI"), None);
        assert_eq!(blank_part_rest("/r/rust: news"), None);
        assert_eq!(blank_part_rest("|"), None);
        assert_eq!(blank_part_rest("-50% off all shoes"), None);
        // The template left the page's name out of the <title>: the <h1> is the title, and
        // the site's name in the <title> is not.
        let html = r#"<title> | Nuts &amp; Volts Magazine</title><body>
            <h1>Electronic Gadgets</h1><p>x</p>"#;
        let m = read(html, PageType::Listing, None);
        assert_eq!(m.title.as_deref(), Some("Electronic Gadgets"));
        let html = r#"<title> | Nuts &amp; Volts Magazine</title><body><p>x</p>"#;
        let m = read(html, PageType::Listing, None);
        assert_eq!(m.title, None);
    }

    #[test]
    fn a_declared_title_that_no_other_source_bears_out_is_passed_over() {
        // A listing page with one embedded video named `name`.
        let video_page = |name: &str| {
            let html = format!(
                r#"<title>Car Rental Topics | Eugene News</title>
                <script type="application/ld+json">{{"@type": "VideoObject",
                "name": "{name}", "uploadDate": "2025-12-18"}}</script>
                <body><p>x</p>"#
            );
            read(&html, PageType::Listing, None).title
        };
        // Its name shares no word with the <title>.
        assert_eq!(
            video_page("Thursday Live Broadcast").as_deref(),
            Some("Car Rental Topics")
        );
        // One that shares a word with it is the page's own.
        assert_eq!(
            video_page("Car Rental Explained").as_deref(),
            Some("Car Rental Explained")
        );
        // The whole <title>, site part and all, counts: here its head is the site's name.
        let html = r#"<title>Daily News | Scotland | Old town walls restored</title>
            <meta name="headline" content="Old town walls restored"><body><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("Old town walls restored"));
    }

    #[test]
    fn an_h1_that_copies_the_whole_title_loses_its_site_part() {
        let html = r#"<title>How to help babies sleep | Patient Education | Kids Hospital</title>
            <body><h1 class="sr-only">How to help babies sleep | Patient Education | Kids
            Hospital</h1><h2>How to help babies sleep</h2><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("How to help babies sleep"));
    }

    #[test]
    fn a_site_part_without_a_separator_is_cut() {
        // phpBB 3.0: "Site • View topic - Topic".
        let html = r#"<title>Campers • View topic - Best tent for winter?</title><body><p>x</p>"#;
        let m = read(html, PageType::Forum, None);
        assert_eq!(m.title.as_deref(), Some("Best tent for winter?"));
        // The host before the headline; the <h1> is the host, the site's name.
        let html = r#"<title>example.com Vibe Coding</title><body><h1>example.com</h1>
            <p>x</p>"#;
        let m = read(
            html,
            PageType::Article,
            Some("https://example.com/2025/vibe.html"),
        );
        assert_eq!(m.title.as_deref(), Some("Vibe Coding"));
        // The site's name after it.
        let html = r#"<title>Trails GHORBA</title>
            <meta property="og:site_name" content="GHORBA"><body><h1>Trails</h1><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(m.title.as_deref(), Some("Trails"));
        // A name the title only begins with is a brand of the product, and stays.
        let html = r#"<title>GHORBA Trail Map</title>
            <meta property="og:site_name" content="GHORBA"><body><p>x</p>"#;
        let m = read(html, PageType::Product, None);
        assert_eq!(m.title.as_deref(), Some("GHORBA Trail Map"));
    }

    #[test]
    fn a_home_page_titled_home_is_named_by_its_site() {
        let html = r#"<title>Home - The Example Blog</title>
            <meta property="og:site_name" content="The Example Blog"><body>
            <h2>First post</h2><p>x</p>"#;
        let m = read(html, PageType::Listing, Some("https://blog.example.com/"));
        assert_eq!(m.title.as_deref(), Some("The Example Blog"));
    }

    #[test]
    fn an_h1_loses_a_section_label_that_the_title_ends_with_too() {
        let html = r#"<title>The full impact of meditation on mind and body | Opinion</title>
            <meta property="og:title" content="How meditation rewires brains | Opinion">
            <body><h1>How meditation rewires brains | Opinion</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("How meditation rewires brains"));
        // A tail the titles do not share stays: it is part of the headline.
        let html = r#"<title>Cats and dogs | Pets</title>
            <body><h1>Cats and dogs | A Love Story</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("Cats and dogs | A Love Story"));
        // A range of years is no label.
        let html = r#"<title>Squad 2024 - 2025</title><body><h1>Squad 2024 - 2025</h1><p>x</p>"#;
        let m = read(html, PageType::Other, None);
        assert_eq!(m.title.as_deref(), Some("Squad 2024 - 2025"));
    }

    #[test]
    fn an_faq_item_names_no_page_but_a_lone_question_does() {
        let faq = r#"{"@context":"https://schema.org","@graph":[
            {"@type":"WebPage","name":"Webflow CMS"},
            {"@type":"Question","name":"Can I manage large-scale content with the CMS?",
             "acceptedAnswer":{"@type":"Answer","text":"Yes."}},
            {"@type":"Question","name":"Is there an API?",
             "acceptedAnswer":{"@type":"Answer","text":"Yes."}}]}"#;
        let html = format!(
            r#"<script type="application/ld+json">{faq}</script>
            <title>Build scalable websites visually with the Webflow CMS</title><p>x</p>"#
        );
        let m = read(&html, PageType::Service, None);
        assert_eq!(
            m.title.as_deref(),
            Some("Build scalable websites visually with the Webflow CMS")
        );
        // The one question of a Q&A page is its title.
        let qa = r#"{"@context":"https://schema.org","@type":"Question",
            "name":"How do I undo a commit?","answerCount":2,
            "acceptedAnswer":{"@type":"Answer","text":"git reset."}}"#;
        let html = format!(
            r#"<script type="application/ld+json">{qa}</script>
            <title>Stack Exchange</title><p>x</p>"#
        );
        let m = read(&html, PageType::Forum, None);
        assert_eq!(m.title.as_deref(), Some("How do I undo a commit?"));
    }

    #[test]
    fn a_truncated_declared_headline_gives_way_to_the_whole_title() {
        let long = "Fix It Friday: Struggling With How To Arrange Your Living Room? We Help 4 \
                    Readers Find Solutions (Including One Universal Trick That 9/10 Works)";
        let cut = &long[..110];
        let html = format!(
            r#"<head><script type="application/ld+json">{{"@type":"BlogPosting",
            "headline":"{cut}"}}</script><title>{long} - Emily Henderson</title></head>
            <body><p>x</p>"#
        );
        let m = read(&html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some(long));
        // A long headline that the <title> follows with a community's name is whole.
        let html = format!(
            r#"<head><meta property="og:title" content="{long}">
            <title>{long} : science</title></head><body><p>x</p>"#
        );
        let m = read(&html, PageType::Forum, None);
        assert_eq!(m.title.as_deref(), Some(long));
        // A short headline that the <title> continues is the headline, not a cut one.
        let html = r#"<head><meta property="og:title" content="Gym Workouts">
            <title>Gym Workouts for Beginners and Everyone Else</title></head><body><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("Gym Workouts"));
    }

    #[test]
    fn a_declared_title_that_is_the_site_name_names_only_the_home_page() {
        let html = r#"<head><title>All Men's Socks</title><meta property="og:site_name" content="Bombas">
            <meta property="og:title" content="Bombas"></head><body><p>x</p>"#;
        let m = read(
            html,
            PageType::Collection,
            Some("https://bombas.com/collections/men-socks"),
        );
        assert_eq!(m.title.as_deref(), Some("All Men's Socks"));
        let m = read(
            html,
            PageType::Collection,
            Some("https://bombas.com/?ref=x"),
        );
        assert_eq!(m.title.as_deref(), Some("Bombas"));
        assert!(is_home_page("https://bombas.com") && is_home_page("https://bombas.com/#top"));
        assert!(!is_home_page("https://bombas.com/men"));
    }

    #[test]
    fn a_short_h1_that_ends_the_title_is_not_the_headline() {
        let html = r#"<head><title>Mountain Bike Trails near Houston</title></head>
            <body><h1>Houston</h1><p>x</p>"#;
        let m = read(html, PageType::Listing, None);
        assert_eq!(
            m.title.as_deref(),
            Some("Mountain Bike Trails near Houston")
        );
        // A headline that ends a "Section: Headline" title is borne out by it.
        let html = r#"<head><title>Reviews: The Quiet Harbour of Old Town</title></head>
            <body><h1>The Quiet Harbour of Old Town</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("The Quiet Harbour of Old Town"));
    }

    #[test]
    fn title_reads_site_marks_labels_and_forum_trails() {
        // mdBook sets the book's name as `<h1 class="menu-title">`; the chapter's title is
        // the rest of the <title>, whose site part that name shows.
        let html = r#"<title>What is Ownership? - The Rust Programming Language</title><body>
            <h1 class="menu-title">The Rust Programming Language</h1>
            <h2>What Is Ownership?</h2><p>x</p>"#;
        let m = read(html, PageType::Documentation, None);
        assert_eq!(m.title.as_deref(), Some("What is Ownership?"));
        // A XenForo thread's prefix label is not part of its title.
        let html = r#"<title>News - Digital cameras in 2024 | Cameraderie</title><body>
            <h1 class="p-title-value"><span class="label label--green">News</span>
            <span class="label-append">&nbsp;</span>Digital cameras in 2024</h1><p>x</p>"#;
        let m = read(html, PageType::Forum, None);
        assert_eq!(m.title.as_deref(), Some("Digital cameras in 2024"));
        // vBulletin's "Thread:" label.
        let html = r#"<title>Buying hosting? | Web Hosting Talk</title><body>
            <h1>Thread: Buying hosting?</h1><p>x</p>"#;
        let m = read(html, PageType::Forum, None);
        assert_eq!(m.title.as_deref(), Some("Buying hosting?"));
        // A forum's trail, innermost first.
        let html = r#"<title>What happened with the ISO / Arch Discussion / Arch Linux Forums</title>
            <body><p>x</p>"#;
        let m = read(html, PageType::Forum, None);
        assert_eq!(m.title.as_deref(), Some("What happened with the ISO"));
        // "<h1>…</h2>" ends the <h1> (HTML's tree construction): the date after it is not
        // part of the headline.
        let html = r#"<title>A Backpacking Checklist</title><body>
            <h1>A Backpacking Checklist</h2><p>January 1, 2025</p><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("A Backpacking Checklist"));
    }

    #[test]
    fn an_h1_for_screen_readers_is_a_title_but_a_hidden_one_is_not() {
        // A home page's heading for screen readers; then one inside a visually-hidden block
        // (Drupal's page-title block); then one both visually hidden and `display:none`.
        let title = |h1: &str| {
            let html = format!(
                "<title>Smart Thermostats | PSE&amp;G Energy Efficiency Programs</title>\
                 <body>{h1}<p>x</p></body>"
            );
            read(&html, PageType::Article, None).title
        };
        assert_eq!(
            title(r#"<h1 class="sr-only">Smart Thermostats</h1>"#).as_deref(),
            Some("Smart Thermostats")
        );
        assert_eq!(
            title(r#"<div class="visually-hidden"><h1><span>Smart Thermostats</span></h1></div>"#)
                .as_deref(),
            Some("Smart Thermostats")
        );
        assert_eq!(
            title(r#"<div style="display:none"><h1 class="sr-only">Other</h1></div>"#).as_deref(),
            Some("Smart Thermostats | PSE&G Energy Efficiency Programs")
        );
    }

    #[test]
    fn title_skips_logo_and_site_name_h1s() {
        // A logo <h1> linking home, then the post's <h1>.
        let html = r#"<title>The December Watches, Day 18 | Whatever</title><body>
            <h1 class="site-title"><a href="https://whatever.example/">Whatever</a></h1>
            <h1 class="headline">The December Watches, Day 18</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("The December Watches, Day 18"));
        // A logo that is the head of a "Blog: Post" title is not borne out by it.
        let html = r#"<title>RogerBW's Blog: Advent of Code week 2</title><body>
            <div class="title"><h1><a href="/">RogerBW's Blog</a></h1></div><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(
            m.title.as_deref(),
            Some("RogerBW's Blog: Advent of Code week 2")
        );
        // The <h1> is in the part of the title that names the site.
        let html = r#"<title>What happened with the ISO / Arch Discussion / Arch Linux Forums</title>
            <body><h1>Arch Linux</h1><p>x</p>"#;
        let m = read(html, PageType::Forum, None);
        assert_ne!(m.title.as_deref(), Some("Arch Linux"));
        // The <h1> is the host's name.
        let html = r#"<title>Investment review request</title><body><h1>Bogleheads.org</h1>"#;
        let m = read(
            html,
            PageType::Forum,
            Some("https://www.bogleheads.org/forum/x"),
        );
        assert_eq!(m.title.as_deref(), Some("Investment review request"));
    }

    #[test]
    fn title_prefers_the_visible_headline_that_shares_words() {
        let html = r#"<title>Top 11 SEO Strategies for 2025 | LuccaAM</title>
            <meta property="og:site_name" content="LuccaAM"><body>
            <h1>11 SEO Strategies for 2025 to Boost Rankings and Stay Ahead</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(
            m.title.as_deref(),
            Some("11 SEO Strategies for 2025 to Boost Rankings and Stay Ahead")
        );
        // A service page's tagline is not its title.
        let html = r#"<title>Talkspace - Online Therapy for Everyone</title><body>
            <h1>Space to figure things out</h1><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(
            m.title.as_deref(),
            Some("Talkspace - Online Therapy for Everyone")
        );
        // Nor its shorter or longer cut of the title: the declared title names the
        // service; an <h1> that is its first part before a separator is that name.
        let html = r#"<title>Cybersecurity Consulting Services</title><body>
            <h1>Cybersecurity</h1><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(
            m.title.as_deref(),
            Some("Cybersecurity Consulting Services")
        );
        let html = r#"<title>Identity Theft Protection</title><body>
            <h1>Identity Theft Protection + $5 Million in Insurance*</h1><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(m.title.as_deref(), Some("Identity Theft Protection"));
        let html = r#"<title>Azure Functions | Microsoft Azure</title><body>
            <h1>Azure Functions</h1><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(m.title.as_deref(), Some("Azure Functions"));
        // On an article the <h1> with its subtitle cut is the headline still.
        let html = r#"<title>Cybersecurity Consulting Services</title><body>
            <h1>Cybersecurity</h1><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("Cybersecurity"));
        // Double-escaped entities in the <h1> are decoded.
        let html = r#"<title>12 Data Tools | Python, SQL &amp;#x26; AI | Splunk</title><body>
            <h1>12 Data Tools | Python, SQL &amp;#x26; AI</h1>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.title.as_deref(), Some("12 Data Tools | Python, SQL & AI"));
    }

    #[test]
    fn author_from_declarations_on_any_page() {
        // Yoast's "Written by" link-preview pair.
        let html = r#"<head><meta name="twitter:label1" content="Written by">
            <meta name="twitter:data1" content="Tyler Brown">
            <meta name="twitter:label2" content="Est. reading time">
            <meta name="twitter:data2" content="5 minutes"></head><body><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(m.author.as_deref(), Some("Tyler Brown"));
        // A personal site's author is its name too.
        let html = r#"<head><meta property="og:site_name" content="Cory Dransfeldt">
            <meta name="author" content="Cory Dransfeldt"></head><body><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.author.as_deref(), Some("Cory Dransfeldt"));
        // Two people are "A and B"; a CMS's default account is no one.
        let html = r#"<script type="application/ld+json">{"@type":"Article","headline":"H",
            "author":[{"@type":"Person","name":"Jared Newman"},
                      {"@type":"Person","name":"Sam Singleton"}]}</script><p>x</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.author.as_deref(), Some("Jared Newman and Sam Singleton"));
        let html = r#"<head><meta name="author" content="admin"></head><body><p>x</p>"#;
        assert_eq!(read(html, PageType::Article, None).author, None);
    }

    #[test]
    fn titles_drop_soft_hyphens() {
        let html = r#"<title>Home Repair Assis&shy;tance Program | City</title><body>
            <h1>Home Repair Assis&shy;tance Program</h1><p>x</p>"#;
        let m = read(html, PageType::Service, None);
        assert_eq!(m.title.as_deref(), Some("Home Repair Assistance Program"));
    }

    #[test]
    fn author_values_lose_quotes_and_separators_and_placeholders_name_no_one() {
        assert_eq!(
            author_name("\"David Kim\"", None).as_deref(),
            Some("David Kim")
        );
        assert_eq!(
            author_name("Haley Hoekstra •", None).as_deref(),
            Some("Haley Hoekstra")
        );
        assert_eq!(
            author_name("J.R.R. Tolkien", None).as_deref(),
            Some("J.R.R. Tolkien")
        );
        for placeholder in [
            "undefined",
            "null",
            "page.head.extra.author",
            "262588213843476",
            "Topic Author",
            "The Author",
        ] {
            assert_eq!(author_name(placeholder, None), None, "{placeholder}");
        }
    }
    #[test]
    fn author_from_a_by_line_under_the_headline() {
        let html = r#"<body><h1>Tips for Motors</h1>
            <p>By <a href="/contributor/aj">A. J. Neal</a> on May 6, 2024</p><p>Text.</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.author.as_deref(), Some("A. J. Neal"));
        // The label alone, the name in the next element.
        let html = r#"<body><h1>Laptop Buying</h1><div><p>Last updated</p><time>Aug 4, 2025</time>
            </div><div><p>Written by</p><p>Edzel Tabing</p></div><p>Text.</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.author.as_deref(), Some("Edzel Tabing"));
        // Not a sentence that happens to follow "by".
        let html = r#"<body><h1>Review</h1><p>Posted by this review is posted</p>"#;
        assert_eq!(read(html, PageType::Article, None).author, None);
        // Nor a reviewer's line.
        let html = r#"<body><h1>Vacations</h1><p>Reviewed By: Sherry Mims</p><p>Text.</p>"#;
        assert_eq!(read(html, PageType::Article, None).author, None);
        for label in BY_LABELS {
            assert!(label.len() <= LABEL_BYTES, "{label}");
            assert_eq!(label.to_lowercase(), *label);
        }
        // Other languages' labels.
        for (line, name) in [
            ("Von Anna Schmidt | 12.05.2024", "Anna Schmidt"),
            ("Par Jean Dupont", "Jean Dupont"),
            ("Автор: Анна Петрова", "Анна Петрова"),
            ("作者：王明", "王明"),
        ] {
            let html = format!("<body><h1>Der Plan</h1><p>{line}</p><p>Text.</p>");
            let m = read(&html, PageType::Article, None);
            assert_eq!(m.author.as_deref(), Some(name), "{line}");
        }
        // A sentence that begins with "Von" is no byline.
        let html = r#"<body><h1>Der Plan</h1><p>Von Berlin aus fuhr sie weiter.</p>"#;
        assert_eq!(read(html, PageType::Article, None).author, None);
    }

    #[test]
    fn author_from_a_marked_byline_without_its_role() {
        let html = r#"<body><h1>Tech Conferences</h1><div class="author-info">
            <a href="/team/rachel">Rachel MacDonald</a><div class="role">Writer</div></div>
            <p>Text.</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.author.as_deref(), Some("Rachel MacDonald"));
        let html = r#"<body><div class="author">By: <a href="/a/fg">FlowGuard EMEA</a>
            on 04-ago-2021 5:11:10</div><p>Text.</p>"#;
        let m = read(html, PageType::Article, None);
        assert_eq!(m.author.as_deref(), Some("FlowGuard EMEA"));
    }
}
