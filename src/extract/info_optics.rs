//! Info Optics: the hybrid of a statistical model and formatting characteristics (seed
//! `000_64bffcaad3915f21.txt`, sections D and III; seed `001_cb3313078f820fc2.txt`, eqs.
//! (1)–(4) and the content-genre determination module of its Fig. 1).
//!
//! **Statistical model.** For every text node `i` of the page, with `ø(i)` its quantity of
//! text (the equations were lost in conversion; we follow the prose of seed 001):
//!
//! - eq. (1), text deviation: `D(i) = ø(i) − Avg ø(T)`, the mean taken over the nodes `T`;
//! - eq. (2), normalized deviation into `[0, 1]`: `N(i) = (D(i) − min D) / (max D − min D)`
//!   (1 for every node when all deviations are equal);
//! - eq. (3), link density: `L(i) = anchor text of i / text of i`;
//! - eq. (4), normalized link density: `NL(i) = L(i) / max L` over the page (0 when the page
//!   has no links).
//!
//! A node is *informative* when `N(i) ≥ n_min` (it renders much of the information) and
//! `NL(i) ≤ nl_max` (it is not there for navigation). **Formatting characteristics**: every node
//! formatted like an informative one (same tag path from the root, with each element's classes)
//! is content too, which brings back the short paragraphs of an article that the statistics
//! alone miss ("titles of the columns in tables, headings", seed 000 section D's drawback).
//!
//! **Content-genre determination** (seed 001): the page's self-description (`<title>`, `<meta>`
//! description, keywords, `og:type`, `og:title`, `og:description`, `generator`) and its host
//! (standing in for the paper's "list of top 200 pre-classified websites", of which we keep a
//! few dozen) decide a genre, and the genre chooses the thresholds:
//!
//! | genre     | `n_min` | `nl_max` | why |
//! |-----------|---------|----------|-----|
//! | news      | 0.20    | 0.25     | "content extraction has to be done only for the article": long, link-poor paragraphs |
//! | blog      | 0.15    | 0.30     | a single post like news, with shorter paragraphs and more inline links |
//! | reference | 0.10    | 0.50     | encyclopedic prose links densely, and sections, definitions and table cells are short |
//! | forum     | 0.05    | 0.40     | many short posts of similar length, all content; signatures and menus are link lists |
//! | shop      | 0.05    | 1.00     | "too much removal of the links would render no useful information": product names are links |
//! | other     | 0.15    | 0.30     | between news and blog; also the fixed pair of the pre-genre model |
//!
//! Registered: `info-optics` (genre determined per page) and `info-optics-fixed` (the "other"
//! pair for every page, the fixed-threshold model seed 001 improves on).
//!
//! Deliberate choices, and why:
//! - A *node* is a block-level element (or the page root) and its text is the text it owns:
//!   its own text and that of its inline descendants (`a`, `b`, `span`, …), not that of nested
//!   blocks. With subtree text the root would always be the most informative node and keep the
//!   whole page; with only direct text nodes a paragraph's link would be a node of its own.
//!   `T` is the set of nodes that own some text.
//! - Min-max normalisation makes `N` independent of the mean; `D` is still reported, as the
//!   paper plots it.
//! - Nodes similar to informative ones are exempt from the text-quantity test only, not from
//!   the link test, so table layouts whose menu cells share the content cell's tag path do not
//!   come back; for shops `nl_max = 1` keeps them anyway.
//! - In the formatting signature, words of `id`/`class` containing a digit (`post-1234`) are
//!   dropped, so numbered siblings compare equal.

use super::{mean_std, Explanation, Method};
use crate::doc::Doc;
use std::collections::HashSet;

/// A page's content genre (seed 001, content genre determination).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Genre {
    News,
    Shop,
    Forum,
    Blog,
    Reference,
    Other,
}

impl Genre {
    /// `(n_min, nl_max)`: minimum normalized deviation and maximum normalized link density of
    /// an informative node (see the table in the module documentation).
    pub fn thresholds(self) -> (f64, f64) {
        match self {
            Genre::News => (0.20, 0.25),
            Genre::Blog => (0.15, 0.30),
            Genre::Reference => (0.10, 0.50),
            Genre::Forum => (0.05, 0.40),
            Genre::Shop => (0.05, 1.00),
            Genre::Other => (0.15, 0.30),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Genre::News => "news",
            Genre::Shop => "shop",
            Genre::Forum => "forum",
            Genre::Blog => "blog",
            Genre::Reference => "reference",
            Genre::Other => "other",
        }
    }
}

/// Genres in tie-break order.
const GENRES: [Genre; 5] = [
    Genre::News,
    Genre::Shop,
    Genre::Forum,
    Genre::Blog,
    Genre::Reference,
];

/// Words of the self-description that vote for a genre.
fn genre_words(g: Genre) -> &'static [&'static str] {
    match g {
        Genre::News => &[
            "news",
            "breaking",
            "headlines",
            "headline",
            "newspaper",
            "journalism",
            "reporter",
            "correspondent",
            "gazette",
            "tribune",
            "herald",
            "newsroom",
            "editorial",
        ],
        Genre::Shop => &[
            "shop", "shopping", "store", "buy", "price", "prices", "cart", "sale", "deals",
            "discount", "shipping", "checkout", "product", "products", "outlet",
        ],
        Genre::Forum => &[
            "forum",
            "forums",
            "thread",
            "threads",
            "board",
            "discussion",
            "discussions",
            "community",
            "replies",
            "reply",
            "posts",
            "topic",
            "topics",
            "question",
            "questions",
            "answers",
        ],
        Genre::Blog => &[
            "blog", "blogs", "blogger", "blogging", "diary", "musings", "thoughts", "weblog",
        ],
        Genre::Reference => &[
            "wiki",
            "wikipedia",
            "encyclopedia",
            "encyclopaedia",
            "dictionary",
            "definition",
            "definitions",
            "glossary",
            "documentation",
            "docs",
            "reference",
            "manual",
            "handbook",
            "thesaurus",
            "meaning",
        ],
        Genre::Other => &[],
    }
}

/// Pre-classified hosts (suffix match after the scheme and `www.`).
const HOSTS: &[(&str, Genre)] = &[
    ("wikipedia.org", Genre::Reference),
    ("wiktionary.org", Genre::Reference),
    ("wikimedia.org", Genre::Reference),
    ("britannica.com", Genre::Reference),
    ("merriam-webster.com", Genre::Reference),
    ("dictionary.com", Genre::Reference),
    ("docs.rs", Genre::Reference),
    ("amazon.com", Genre::Shop),
    ("amazon.co.uk", Genre::Shop),
    ("amazon.de", Genre::Shop),
    ("ebay.com", Genre::Shop),
    ("ebay.co.uk", Genre::Shop),
    ("etsy.com", Genre::Shop),
    ("aliexpress.com", Genre::Shop),
    ("walmart.com", Genre::Shop),
    ("bestbuy.com", Genre::Shop),
    ("reddit.com", Genre::Forum),
    ("stackoverflow.com", Genre::Forum),
    ("stackexchange.com", Genre::Forum),
    ("quora.com", Genre::Forum),
    ("bbc.co.uk", Genre::News),
    ("bbc.com", Genre::News),
    ("cnn.com", Genre::News),
    ("nytimes.com", Genre::News),
    ("theguardian.com", Genre::News),
    ("reuters.com", Genre::News),
    ("foxnews.com", Genre::News),
    ("washingtonpost.com", Genre::News),
    ("apnews.com", Genre::News),
    ("blogspot.com", Genre::Blog),
    ("wordpress.com", Genre::Blog),
    ("medium.com", Genre::Blog),
    ("tumblr.com", Genre::Blog),
    ("substack.com", Genre::Blog),
];

fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('@')
        .next()
        .unwrap_or("");
    let host = host.split(':').next().unwrap_or("").to_ascii_lowercase();
    host.strip_prefix("www.").map(str::to_owned).unwrap_or(host)
}

/// Content genre from the page's host, `<title>` and `<meta>`.
pub fn detect_genre(doc: &Doc) -> Genre {
    if let Some(h) = doc.url.as_deref().map(host) {
        for &(suffix, g) in HOSTS {
            if h == suffix || h.ends_with(&format!(".{suffix}")) {
                return g;
            }
        }
    }
    let mut score = [0u32; 5];
    let mut text = doc.title.clone().unwrap_or_default();
    for (k, v) in &doc.meta {
        let v = v.to_lowercase();
        match k.as_str() {
            "og:type" => {
                let v = v.trim();
                if v.contains("product") {
                    score[1] += 3;
                } else if v == "article" {
                    score[0] += 1;
                }
            }
            "generator" => {
                if ["wordpress", "blogger", "ghost", "jekyll", "hugo", "tumblr"]
                    .iter()
                    .any(|g| v.contains(g))
                {
                    score[3] += 2;
                }
                for (g, s) in [
                    ("phpbb", 2),
                    ("vbulletin", 2),
                    ("discourse", 2),
                    ("xenforo", 2),
                ] {
                    if v.contains(g) {
                        score[2] += s;
                    }
                }
                if v.contains("mediawiki") {
                    score[4] += 3;
                }
            }
            _ => {
                text.push(' ');
                text.push_str(&v);
            }
        }
    }
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let w = w.to_lowercase();
        for (k, g) in GENRES.iter().enumerate() {
            if genre_words(*g).contains(&w.as_str()) {
                score[k] += 1;
            }
        }
    }
    let best = score.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return Genre::Other;
    }
    GENRES
        .iter()
        .zip(score)
        .find(|&(_, s)| s == best)
        .map_or(Genre::Other, |(g, _)| *g)
}

/// How thresholds are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenreMode {
    /// Determine the genre of every page (seed 001).
    Detect,
    /// One genre's thresholds for every page.
    Fixed(Genre),
}

/// Info Optics.
#[derive(Debug, Clone, Copy)]
pub struct InfoOptics {
    pub genre: GenreMode,
}

/// The statistics of every text node.
#[derive(Debug, Clone, Default)]
pub struct Nodes {
    /// Text node (element index) owning each element's text, per element.
    pub owner: Vec<u32>,
    /// The text nodes (elements owning visible text), in document order.
    pub nodes: Vec<u32>,
    /// ø(i): owned visible characters.
    pub text: Vec<f64>,
    /// D(i), N(i), L(i), NL(i) per text node.
    pub d: Vec<f64>,
    pub n: Vec<f64>,
    pub l: Vec<f64>,
    pub nl: Vec<f64>,
    /// Formatting signature (tag path with classes) per text node.
    pub signature: Vec<u64>,
}

fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x100000001b3).rotate_left(29)
}

/// Hash of an element's identifying words without the words carrying digits.
fn ident_hash(words: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for w in words.split_whitespace() {
        if w.bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        for b in w.bytes() {
            h = mix(h, u64::from(b));
        }
        h = mix(h, 0x20);
    }
    h
}

/// Eqs. (1)–(4) for every text node, and the formatting signatures. Linear.
pub fn statistics(doc: &Doc) -> Nodes {
    let m = doc.elements.len();
    let mut owner = vec![0u32; m];
    let mut path = vec![0xcbf29ce484222325u64; m];
    for i in 1..m {
        let e = &doc.elements[i];
        let p = e.parent as usize;
        owner[i] = if e.tag.is_block() { i as u32 } else { owner[p] };
        path[i] = mix(mix(path[p], e.tag as u64 + 1), ident_hash(doc.ident(e)));
    }
    let mut chars = vec![0u64; m];
    let mut links = vec![0u64; m];
    for s in doc.segments.iter().filter(|s| !s.hidden) {
        let Some(&o) = owner.get(s.element as usize) else {
            continue;
        };
        chars[o as usize] += u64::from(s.chars);
        if s.link {
            links[o as usize] += u64::from(s.chars);
        }
    }
    let nodes: Vec<u32> = (0..m as u32).filter(|&i| chars[i as usize] > 0).collect();
    let text: Vec<f64> = nodes.iter().map(|&i| chars[i as usize] as f64).collect();
    let (mean, _) = mean_std(&text);
    let d: Vec<f64> = text.iter().map(|t| t - mean).collect();
    let (lo, hi) = d
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let n = d
        .iter()
        .map(|&v| if hi > lo { (v - lo) / (hi - lo) } else { 1.0 })
        .collect();
    let l: Vec<f64> = nodes
        .iter()
        .map(|&i| links[i as usize] as f64 / chars[i as usize] as f64)
        .collect();
    let max_l = l.iter().copied().fold(0.0f64, f64::max);
    let nl = l
        .iter()
        .map(|&v| if max_l > 0.0 { v / max_l } else { 0.0 })
        .collect();
    let signature = nodes.iter().map(|&i| path[i as usize]).collect();
    Nodes {
        owner,
        nodes,
        text,
        d,
        n,
        l,
        nl,
        signature,
    }
}

impl InfoOptics {
    /// The genre whose thresholds apply to this page.
    pub fn genre_of(&self, doc: &Doc) -> Genre {
        match self.genre {
            GenreMode::Detect => detect_genre(doc),
            GenreMode::Fixed(g) => g,
        }
    }

    /// Per text node: kept (informative, or formatted like an informative node).
    pub fn kept(&self, st: &Nodes, genre: Genre) -> Vec<bool> {
        let (n_min, nl_max) = genre.thresholds();
        let informative: Vec<bool> =
            st.n.iter()
                .zip(&st.nl)
                .map(|(&n, &nl)| n >= n_min && nl <= nl_max)
                .collect();
        let formats: HashSet<u64> = st
            .signature
            .iter()
            .zip(&informative)
            .filter(|(_, &i)| i)
            .map(|(&s, _)| s)
            .collect();
        (0..st.nodes.len())
            .map(|k| informative[k] || (st.nl[k] <= nl_max && formats.contains(&st.signature[k])))
            .collect()
    }
}

/// `info-optics` and `info-optics-fixed`.
pub fn methods() -> Vec<Box<dyn Method>> {
    vec![
        Box::new(InfoOptics {
            genre: GenreMode::Detect,
        }),
        Box::new(InfoOptics {
            genre: GenreMode::Fixed(Genre::Other),
        }),
    ]
}

impl Method for InfoOptics {
    fn name(&self) -> &'static str {
        match self.genre {
            GenreMode::Detect => "info-optics",
            GenreMode::Fixed(_) => "info-optics-fixed",
        }
    }

    fn describe(&self) -> &'static str {
        match self.genre {
            GenreMode::Detect => "Info Optics: normalized text deviation and link density per node, plus nodes formatted like informative ones; thresholds per content genre from <title>/<meta> (seeds 000 §D/III, 001)",
            GenreMode::Fixed(_) => "Info Optics with one fixed threshold pair for every page, without genre determination (seed 000 §D/III)",
        }
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        let st = statistics(doc);
        let kept = self.kept(&st, self.genre_of(doc));
        let mut by_element = vec![false; doc.elements.len()];
        for (&i, &k) in st.nodes.iter().zip(&kept) {
            by_element[i as usize] = k;
        }
        doc.segments
            .iter()
            .map(|s| {
                !s.hidden
                    && st
                        .owner
                        .get(s.element as usize)
                        .is_some_and(|&o| by_element[o as usize])
            })
            .collect()
    }

    fn explain(&self, doc: &Doc) -> Option<Explanation> {
        let st = statistics(doc);
        let genre = self.genre_of(doc);
        let kept = self.kept(&st, genre);
        let (n_min, nl_max) = genre.thresholds();
        Some(Explanation {
            unit: "node",
            columns: vec![
                ("text".into(), st.text.clone()),
                ("D".into(), st.d.clone()),
                ("N".into(), st.n.clone()),
                ("L".into(), st.l.clone()),
                ("NL".into(), st.nl.clone()),
            ],
            plot: vec![2, 4],
            thresholds: vec![
                (format!("N min ({})", genre.name()), n_min),
                (format!("NL max ({})", genre.name()), nl_max),
            ],
            kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    fn detect(head: &str, url: Option<&str>) -> Genre {
        let mut doc = Doc::parse(&format!("<head>{head}</head><body><p>x</p></body>"));
        doc.url = url.map(str::to_owned);
        detect_genre(&doc)
    }

    #[test]
    fn genre_from_title_meta_and_host() {
        assert_eq!(
            detect("<title>Storm hits coast - Daily News</title>", None),
            Genre::News
        );
        assert_eq!(
            detect(
                "<title>Headphones X200</title><meta property=og:type content=product>",
                None
            ),
            Genre::Shop
        );
        assert_eq!(
            detect(
                "<title>Best price headphones - buy online | AudioStore</title>",
                None
            ),
            Genre::Shop
        );
        assert_eq!(
            detect("<title>Help with my router</title><meta name=description content='Community forum thread with replies'>", None),
            Genre::Forum
        );
        assert_eq!(
            detect(
                "<title>Sunday thoughts</title><meta name=generator content='WordPress 6.4'>",
                None
            ),
            Genre::Blog
        );
        assert_eq!(
            detect("<title>Entropy - definition and meaning</title>", None),
            Genre::Reference
        );
        assert_eq!(
            detect(
                "<title>Information</title>",
                Some("https://en.wikipedia.org/wiki/Information")
            ),
            Genre::Reference
        );
        assert_eq!(detect("<title>Welcome</title>", None), Genre::Other);
        assert_eq!(detect("", None), Genre::Other);
    }

    #[test]
    fn statistics_follow_the_equations() {
        // Texts 40, 20, 10 (one fully linked); mean 70/3.
        let html = format!(
            "<p>{}</p><div>{}<b>x</b></div><li><a href=/>{}</a></li>",
            "a".repeat(40),
            "b".repeat(19),
            "c".repeat(10)
        );
        let doc = Doc::parse(&html);
        let st = statistics(&doc);
        assert_eq!(
            st.text,
            vec![40.0, 20.0, 10.0],
            "inline <b> belongs to the div"
        );
        assert!((st.d[0] - (40.0 - 70.0 / 3.0)).abs() < 1e-12);
        assert_eq!(st.n[0], 1.0);
        assert_eq!(st.n[2], 0.0);
        assert!((st.n[1] - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(st.l, vec![0.0, 0.0, 1.0]);
        assert_eq!(st.nl, vec![0.0, 0.0, 1.0]);
    }

    fn news_page(title: &str) -> String {
        let mut html = format!("<html><head><title>{title}</title></head><body>");
        html.push_str("<ul class=menu><li><a href=/>Home</a></li><li><a href=/w>World news and politics</a></li></ul>");
        html.push_str("<div class=article>");
        html.push_str(&format!(
            "<p>{}</p>",
            "The storm reached the coast on Monday night, flooding streets. ".repeat(8)
        ));
        html.push_str(&format!(
            "<p>{}</p>",
            "Officials urged people to stay home. ".repeat(5)
        ));
        html.push_str("<p>Schools stay closed.</p>");
        html.push_str("</div><div class=footer><p>Contact us</p></div></body></html>");
        html
    }

    /// Statistics keep the long paragraphs; formatting brings back the short one; the menu
    /// (links) and the short footer (different formatting) go.
    #[test]
    fn keeps_article_and_similar_nodes_drops_menu_and_footer() {
        let t = extract_text(
            &news_page("Storm floods coast | Daily News"),
            &InfoOptics {
                genre: GenreMode::Detect,
            },
        )
        .text;
        assert!(t.contains("The storm reached the coast"), "{t}");
        assert!(t.contains("Officials urged"), "{t}");
        assert!(
            t.contains("Schools stay closed."),
            "similar formatting: {t}"
        );
        assert!(!t.contains("World news"), "{t}");
        assert!(!t.contains("Contact us"), "{t}");
        // The short paragraph alone is far below n_min: only formatting keeps it.
        let doc = Doc::parse(&news_page("x"));
        let st = statistics(&doc);
        let short = st.text.iter().position(|&c| c == 20.0).unwrap();
        assert!(st.n[short] < 0.05);
    }

    /// The same shop listing: as a shop, product links are content; as news, they are
    /// navigation. Threshold position: NL 1 is above every genre's `nl_max` but the shop's.
    #[test]
    fn genre_switches_thresholds() {
        let body = "<div class=intro><p>Our summer collection of wireless headphones, with free delivery on every order and a two-year warranty on all models.</p></div><ul class=products><li><a href=/p/1>Acme X200 wireless headphones, black</a></li><li><a href=/p/2>Acme X300 noise cancelling headphones</a></li></ul><ul class=nav><li><a href=/>Home</a></li></ul>";
        let shop = format!("<head><title>Headphones</title><meta property=og:type content=product></head><body>{body}</body>");
        let news =
            format!("<head><title>Headphones - Daily News</title></head><body>{body}</body>");
        let m = InfoOptics {
            genre: GenreMode::Detect,
        };
        assert_eq!(detect_genre(&Doc::parse(&shop)), Genre::Shop);
        assert_eq!(detect_genre(&Doc::parse(&news)), Genre::News);
        let as_shop = extract_text(&shop, &m).text;
        assert!(
            as_shop.contains("Acme X200") && as_shop.contains("Acme X300"),
            "{as_shop}"
        );
        assert!(
            !as_shop.contains("Home"),
            "short menu links stay out: {as_shop}"
        );
        let as_news = extract_text(&news, &m).text;
        assert!(as_news.contains("summer collection"), "{as_news}");
        assert!(!as_news.contains("Acme"), "{as_news}");
        let fixed = InfoOptics {
            genre: GenreMode::Fixed(Genre::Other),
        };
        assert!(!extract_text(&shop, &fixed).text.contains("Acme"));
    }

    /// `N ≥ n_min` keeps, just below drops (news: 0.20).
    #[test]
    fn deviation_threshold_sits_at_n_min() {
        // Texts 105 (max), 26 (N = 0.21), 24 (N = 0.19), 5 (min), each formatted differently.
        let html = format!(
            "<div id=a>{}</div><section>{}</section><article>{}</article><aside>{}</aside>",
            "m".repeat(105),
            "k".repeat(26),
            "d".repeat(24),
            "z".repeat(5)
        );
        let doc = Doc::parse(&html);
        let st = statistics(&doc);
        assert!((st.n[1] - 0.21).abs() < 1e-9 && (st.n[2] - 0.19).abs() < 1e-9);
        let m = InfoOptics {
            genre: GenreMode::Fixed(Genre::News),
        };
        assert_eq!(m.kept(&st, Genre::News), vec![true, true, false, false]);
        // Forum pages keep shorter nodes (n_min 0.05).
        assert_eq!(m.kept(&st, Genre::Forum), vec![true, true, true, false]);
    }

    #[test]
    fn explain_rows_are_text_nodes() {
        let doc = Doc::parse(&news_page("Storm | Daily News"));
        let m = InfoOptics {
            genre: GenreMode::Detect,
        };
        let ex = m.explain(&doc).unwrap();
        let st = statistics(&doc);
        assert_eq!(ex.kept.len(), st.nodes.len());
        assert!(ex.columns.iter().all(|(_, v)| v.len() == st.nodes.len()));
        assert_eq!(ex.thresholds[0].1, 0.20);
        assert!(ex.thresholds[0].0.contains("news"));
    }

    #[test]
    fn degenerate_pages() {
        for html in [
            "",
            "<title>t</title>",
            "just text",
            "<a href=x>only a link</a>",
            "<div></div>",
        ] {
            for m in methods() {
                let doc = Doc::parse(html);
                let keep = m.select(&doc);
                assert_eq!(keep.len(), doc.segments.len());
                assert!(m.explain(&doc).is_some());
            }
        }
        // A page with one text node keeps it (N = 1, no links).
        let t = extract_text(
            "just text",
            &InfoOptics {
                genre: GenreMode::Detect,
            },
        )
        .text;
        assert_eq!(t, "just text");
        let n = 1_000_000;
        let mut html = "<div>".repeat(n);
        html.push_str("deep");
        let limits = crate::doc::Limits {
            max_depth: 2 * n,
            ..Default::default()
        };
        let doc = Doc::parse_with(&html, limits);
        assert_eq!(methods()[0].select(&doc), vec![true]);
    }
}
