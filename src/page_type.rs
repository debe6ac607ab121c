//! Page type: what kind of page this is (article, forum, product, collection, listing,
//! documentation, service, or other), from what the page declares (schema.org types in
//! JSON-LD and microdata, `og:type`), platform fingerprints and structure.
//!
//! Takes the page's [`Doc`] and its [`Structured`] data; gives a [`PageType`]. Extraction
//! (`auto`) reads it to decide what the main content of such a page is; every output format
//! writes it as `page_type`.
//!
//! # How
//!
//! A transparent scored rule set in two steps:
//!
//! 1. [`Signals::read`] measures the page once: the schema.org types it declares (JSON-LD,
//!    and microdata `itemtype`s among the element idents), `og:type` and `generator`, the
//!    URL's host and path, platform fingerprints among the class/id words (one
//!    Aho-Corasick pass over [`Doc::idents`]), and structure: prose paragraphs, prices,
//!    links, headings that are links, code blocks, form controls, and the largest group
//!    of repeated sibling items (same tag and first class word) that each hold a link and
//!    some text of their own. That is one pass over the segments, one reverse pass over
//!    the elements and one over the ident bytes, with two vectors allocated per page.
//! 2. [`Signals::scores`] gives every type points from the signals, in order of trust:
//!    declared types speak loudest (except the generic ones every page of a site carries:
//!    `WebPage`, `Organization`, `BreadcrumbList`, and `Article`, which SEO plugins put on
//!    every page), then platforms, then URL patterns, then structure. The highest score
//!    wins; a page where nothing reaches [`MIN_SCORE`] is [`PageType::Other`].
//!
//! The rules were written from what these platforms and vocabularies mean on the web at
//! large, and their weights checked on WCXB's development pages (1,310 pages of seven
//! types); no rule names a site.
//!
//! Refuses nothing; linear in the page.

use std::sync::OnceLock;

use crate::doc::Doc;
use crate::structured::Structured;
use crate::tokenize::Tag;

/// The page types of WCXB (Foley 2026), plus `Other`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PageType {
    Article,
    Forum,
    Product,
    Collection,
    Listing,
    Documentation,
    Service,
    #[default]
    Other,
}

impl PageType {
    pub const ALL: [PageType; 8] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
        PageType::Other,
    ];

    /// The name written in outputs (`page_type`) and used by WCXB's labels.
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
            PageType::Other => "other",
        }
    }

    /// The type named `name` (as [`PageType::as_str`] writes it).
    pub fn from_name(name: &str) -> Option<PageType> {
        PageType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// Classify a page.
pub fn classify(doc: &Doc, structured: &Structured) -> PageType {
    Signals::read(doc, structured).classify()
}

/// The lowest winning score: below it nothing spoke clearly and the page is
/// [`PageType::Other`].
pub const MIN_SCORE: f32 = 1.5;

/// Schema.org types that say something about the page type, as a bit set ([`Signals::decl`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Decl {
    /// `DiscussionForumPosting`, `SocialMediaPosting`.
    ForumPost,
    /// `QAPage`.
    QaPage,
    /// `Question` (also part of every `FAQPage`).
    Question,
    /// `Comment`, `UserComments`.
    Comment,
    /// `Product`, `ProductGroup`, `ProductModel`, `IndividualProduct`, and the `Offer` of
    /// one product.
    Product,
    Offer,
    /// `AggregateOffer`: a price range, often of a product's variants or a category.
    AggregateOffer,
    ItemList,
    CollectionPage,
    /// `OfferCatalog`.
    Catalog,
    SearchResultsPage,
    /// `TechArticle`, `APIReference`.
    TechArticle,
    SoftwareSourceCode,
    /// `NewsArticle` and its kinds, `BlogPosting`, `LiveBlogPosting`, `ScholarlyArticle`,
    /// `Report`, `OpinionNewsArticle`, ...: specific enough to trust.
    NewsArticle,
    /// Plain `Article`: SEO plugins declare it on every post and page of a site.
    Article,
    /// `Blog`: a blog's front page or archive (a post declares `BlogPosting`).
    Blog,
    /// `Service`, `FinancialProduct`, `Offer`s of services are not told apart.
    Service,
    /// `LocalBusiness` and its common kinds (`Dentist`, `LegalService`, `Restaurant`, ...).
    LocalBusiness,
    ContactPage,
    AboutPage,
    FaqPage,
    /// `SoftwareApplication`, `WebApplication`, `MobileApplication`.
    SoftwareApp,
    Recipe,
    HowTo,
    Review,
    Course,
    Event,
    ProfilePage,
}

/// Schema.org type names (lower case) and what they declare. Longer names first where one
/// is a prefix of another, because microdata `itemtype`s are matched by prefix.
const DECL_NAMES: &[(&str, Decl)] = &[
    ("discussionforumposting", Decl::ForumPost),
    ("socialmediaposting", Decl::ForumPost),
    ("qapage", Decl::QaPage),
    ("question", Decl::Question),
    ("comment", Decl::Comment),
    ("usercomments", Decl::Comment),
    ("productgroup", Decl::Product),
    ("productmodel", Decl::Product),
    ("individualproduct", Decl::Product),
    ("product", Decl::Product),
    ("aggregateoffer", Decl::AggregateOffer),
    ("offercatalog", Decl::Catalog),
    ("offer", Decl::Offer),
    ("itemlist", Decl::ItemList),
    ("collectionpage", Decl::CollectionPage),
    ("searchresultspage", Decl::SearchResultsPage),
    ("techarticle", Decl::TechArticle),
    ("apireference", Decl::TechArticle),
    ("softwaresourcecode", Decl::SoftwareSourceCode),
    ("newsarticle", Decl::NewsArticle),
    ("analysisnewsarticle", Decl::NewsArticle),
    ("opinionnewsarticle", Decl::NewsArticle),
    ("reportagenewsarticle", Decl::NewsArticle),
    ("reviewnewsarticle", Decl::NewsArticle),
    ("backgroundnewsarticle", Decl::NewsArticle),
    ("blogposting", Decl::NewsArticle),
    ("liveblogposting", Decl::NewsArticle),
    ("scholarlyarticle", Decl::NewsArticle),
    ("medicalscholarlyarticle", Decl::NewsArticle),
    ("report", Decl::NewsArticle),
    ("satiricalarticle", Decl::NewsArticle),
    ("article", Decl::Article),
    ("blog", Decl::Blog),
    ("service", Decl::Service),
    ("professionalservice", Decl::LocalBusiness),
    ("financialservice", Decl::LocalBusiness),
    ("financialproduct", Decl::Service),
    ("localbusiness", Decl::LocalBusiness),
    ("legalservice", Decl::LocalBusiness),
    ("attorney", Decl::LocalBusiness),
    ("dentist", Decl::LocalBusiness),
    ("physician", Decl::LocalBusiness),
    ("medicalclinic", Decl::LocalBusiness),
    ("medicalbusiness", Decl::LocalBusiness),
    ("homeandconstructionbusiness", Decl::LocalBusiness),
    ("hvacbusiness", Decl::LocalBusiness),
    ("plumber", Decl::LocalBusiness),
    ("electrician", Decl::LocalBusiness),
    ("roofingcontractor", Decl::LocalBusiness),
    ("generalcontractor", Decl::LocalBusiness),
    ("autorepair", Decl::LocalBusiness),
    ("realestateagent", Decl::LocalBusiness),
    ("insuranceagency", Decl::LocalBusiness),
    ("accountingservice", Decl::LocalBusiness),
    ("employmentagency", Decl::LocalBusiness),
    ("travelagency", Decl::LocalBusiness),
    ("restaurant", Decl::LocalBusiness),
    ("healthandbeautybusiness", Decl::LocalBusiness),
    ("sportsactivitylocation", Decl::LocalBusiness),
    ("governmentoffice", Decl::LocalBusiness),
    ("governmentservice", Decl::Service),
    ("contactpage", Decl::ContactPage),
    ("aboutpage", Decl::AboutPage),
    ("faqpage", Decl::FaqPage),
    ("softwareapplication", Decl::SoftwareApp),
    ("webapplication", Decl::SoftwareApp),
    ("mobileapplication", Decl::SoftwareApp),
    ("recipe", Decl::Recipe),
    ("howto", Decl::HowTo),
    ("review", Decl::Review),
    ("course", Decl::Course),
    ("event", Decl::Event),
    ("profilepage", Decl::ProfilePage),
];

/// The [`Decl`] of a schema.org type name (any case, exact).
fn decl_of(name: &str) -> Option<Decl> {
    DECL_NAMES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, d)| d)
}

/// The [`Decl`] whose name starts `rest` (lower case): a microdata `itemtype` as kept in
/// [`Doc::idents`], where the next element's words may follow without a space.
fn decl_prefix(rest: &[u8]) -> Option<Decl> {
    DECL_NAMES
        .iter()
        .find(|(n, _)| rest.starts_with(n.as_bytes()))
        .map(|&(_, d)| d)
}

/// What a class/id fingerprint suggests (`IDENT_MARKS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Mark {
    /// A forum engine's post markup (XenForo, Discourse, phpBB, vBulletin, Invision,
    /// Simple Machines, Flarum, MyBB, Vanilla, Stack Exchange, Reddit).
    ForumEngine,
    /// A documentation generator's markup (Sphinx, Read the Docs, MkDocs, Docusaurus,
    /// GitBook, VitePress, VuePress, Docsy, rustdoc, Doxygen, Javadoc, Mintlify).
    DocsEngine,
    /// A single product's buying controls (add to cart, quantity, variants, gallery).
    ProductPage,
    /// A product grid's markup (product cards, facets, sort order).
    ProductGrid,
    /// A post's own markup (entry content, byline, author box, comment form).
    Post,
    /// Landing-page sections (hero, pricing, testimonials, accordions).
    Landing,
    /// A microdata `itemtype` (`schema.org/...`): the type name follows.
    Microdata,
}

/// Class/id substrings (lower case) and what they suggest. Matched anywhere in an ident
/// (leftmost-longest), so each is specific enough as a substring. At most 32, so that the
/// automaton stays the fast 8-bucket kind of Teddy (`aho_corasick::packed`): beyond that
/// the pass over the idents costs twice as much (every pattern here earned its place on
/// the devset, and the first of each engine's words is the one it never drops).
const IDENT_MARKS: &[(&str, Mark)] = &[
    // Forum engines.
    ("bbwrapper", Mark::ForumEngine),    // XenForo
    ("usertitle", Mark::ForumEngine),    // XenForo, vBulletin
    ("topic-body", Mark::ForumEngine),   // Discourse
    ("crawler-post", Mark::ForumEngine), // Discourse (its server-rendered view)
    ("postbody", Mark::ForumEngine),     // phpBB
    ("postbit", Mark::ForumEngine),      // vBulletin
    ("ipscomment", Mark::ForumEngine),   // Invision
    ("post_wrapper", Mark::ForumEngine), // Simple Machines
    // Documentation generators.
    ("docutils", Mark::DocsEngine),    // Sphinx, Docutils
    ("headerlink", Mark::DocsEngine),  // Sphinx, MkDocs
    ("rst-content", Mark::DocsEngine), // Read the Docs theme
    ("md-content", Mark::DocsEngine),  // MkDocs Material
    ("theme-doc-", Mark::DocsEngine),  // Docusaurus
    ("td-content", Mark::DocsEngine),  // Docsy (Hugo)
    ("rustdoc", Mark::DocsEngine),
    ("admonition", Mark::DocsEngine), // notes and warnings of Sphinx, MkDocs, Docusaurus
    ("docs-", Mark::DocsEngine),      // docs-content, docs-sidebar, docs-nav, ...
    // One product.
    ("add-to-cart", Mark::ProductPage),
    ("addtocart", Mark::ProductPage),
    ("single-product", Mark::ProductPage), // WooCommerce
    ("product-gallery", Mark::ProductPage),
    // Many products.
    ("product-grid", Mark::ProductGrid),
    ("product-list", Mark::ProductGrid),
    ("facet", Mark::ProductGrid), // faceted search: filters of a category
    // A post.
    ("entry-content", Mark::Post),
    ("post-content", Mark::Post),
    ("author-bio", Mark::Post),
    // Landing pages.
    ("hero", Mark::Landing),
    ("testimonial", Mark::Landing),
    ("pricing", Mark::Landing),
    ("accordion", Mark::Landing),
    // Microdata.
    ("schema.org/", Mark::Microdata),
];

const MARKS: usize = Mark::Microdata as usize + 1;

fn ident_matcher() -> Option<&'static aho_corasick::packed::Searcher> {
    static AC: OnceLock<Option<aho_corasick::packed::Searcher>> = OnceLock::new();
    AC.get_or_init(|| {
        let mut b = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostLongest)
            .heuristic_pattern_limits(false)
            .builder();
        b.extend(IDENT_MARKS.iter().map(|(p, _)| p));
        b.build()
    })
    .as_ref()
}

/// Platform families a `<meta name="generator">` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Generator {
    #[default]
    None,
    Forum,
    Docs,
    Shop,
    /// Anything else (WordPress, Drupal, Hugo, ...): says nothing of the type.
    Other,
}

fn generator_of(value: &str) -> Generator {
    const FORUM: &[&str] = &[
        "discourse",
        "phpbb",
        "vbulletin",
        "xenforo",
        "invision",
        "simple machines",
        "smf",
        "flarum",
        "mybb",
        "nodebb",
        "vanilla",
        "punbb",
        "fluxbb",
        "bbpress",
    ];
    const DOCS: &[&str] = &[
        "sphinx",
        "mkdocs",
        "docusaurus",
        "gitbook",
        "vitepress",
        "vuepress",
        "rustdoc",
        "doxygen",
        "javadoc",
        "docfx",
        "antora",
        "mintlify",
        "readme.io",
        "nextra",
        "starlight",
        "docsify",
        "bookdown",
        "jupyter book",
        "mdbook",
    ];
    const SHOP: &[&str] = &["shopify", "prestashop", "magento", "shopware", "oxid"];
    let v = value.to_ascii_lowercase();
    let has = |list: &[&str]| list.iter().any(|n| v.contains(n));
    if has(FORUM) {
        Generator::Forum
    } else if has(DOCS) {
        Generator::Docs
    } else if has(SHOP) {
        Generator::Shop
    } else if v.trim().is_empty() {
        Generator::None
    } else {
        Generator::Other
    }
}

/// What the URL says, from its host and path ([`url_signals`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct UrlSignals {
    /// Path matches of each type, as points (see [`url_signals`]).
    pub forum: f32,
    pub product: f32,
    pub collection: f32,
    pub listing: f32,
    pub docs: f32,
    pub article: f32,
    pub service: f32,
    /// The site's front page (empty path, or only a language code).
    pub home: bool,
    /// The last path segment reads as a title slug (four or more words joined by `-`/`_`).
    pub slug: bool,
    /// The path holds a date (`/2024/05/`, `/2024-05-17-`).
    pub dated: bool,
}

/// Read the URL: each pattern adds points to the types it suggests. Patterns are path
/// segments (or host labels), never a site's name.
pub fn url_signals(url: &str) -> UrlSignals {
    let mut u = UrlSignals::default();
    let lower = url.to_ascii_lowercase();
    let rest = lower.split_once("://").map_or(lower.as_str(), |(_, r)| r);
    let (host, path) = match rest.find(['/', '?', '#']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let (path, query) = match path.find(['?', '#']) {
        Some(i) => path.split_at(i),
        None => (path, ""),
    };
    let host_label = |l: &str| {
        host.split('.')
            .next()
            .is_some_and(|first| first == l || first.starts_with(&format!("{l}-")))
    };
    if [
        "forum",
        "forums",
        "community",
        "discuss",
        "discussion",
        "bbs",
        "board",
        "boards",
    ]
    .iter()
    .any(|l| host_label(l))
    {
        u.forum += 2.0;
    }
    if [
        "docs",
        "doc",
        "developer",
        "developers",
        "devdocs",
        "api",
        "wiki",
        "manual",
    ]
    .iter()
    .any(|l| host_label(l))
    {
        u.docs += 2.0;
    }
    if ["shop", "store"].iter().any(|l| host_label(l)) {
        u.product += 0.5;
        u.collection += 0.5;
    }
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let last = segs.last().copied().unwrap_or("");
    let is_lang = |s: &str| {
        (s.len() == 2 && s.bytes().all(|b| b.is_ascii_lowercase()))
            || (s.len() == 5 && s.as_bytes().get(2).is_some_and(|&b| b == b'-' || b == b'_'))
    };
    let is_index = |s: &str| s.starts_with("index.") || s.starts_with("default.");
    u.home = segs.iter().all(|s| is_lang(s) || is_index(s)) && !query.contains("topic");
    let words_in = |s: &str| s.split(['-', '_', '+']).filter(|w| w.len() > 1).count();
    u.slug = words_in(last.trim_end_matches(".html").trim_end_matches(".htm")) >= 4;
    let year = |s: &str| {
        s.len() == 4 && s.starts_with(['1', '2']) && s.bytes().all(|b| b.is_ascii_digit())
    };
    u.dated = segs
        .windows(2)
        .any(|w| year(w[0]) && w[1].len() <= 2 && w[1].bytes().all(|b| b.is_ascii_digit()))
        || segs.iter().any(|s| {
            s.get(..4).is_some_and(year)
                && s.as_bytes().get(4) == Some(&b'-')
                && s.get(5..7)
                    .is_some_and(|m| m.bytes().all(|b| b.is_ascii_digit()))
        });
    let numeric = |s: &str| !s.is_empty() && s.bytes().take_while(u8::is_ascii_digit).count() >= 3;
    for (i, &s) in segs.iter().enumerate() {
        let next = segs.get(i + 1).copied();
        let is_last = i + 1 == segs.len();
        match s {
            // Forum threads: Discourse /t/slug/id, XenForo /threads/, Invision /topic/id-,
            // Reddit /r/x/comments/, Stack Exchange /questions/id.
            "t" | "d" if next.is_some_and(|n| numeric(n) || s == "t") => u.forum += 3.0,
            _ if s.starts_with("showtopic")
                || s.starts_with("showthread")
                || s.starts_with("viewtopic")
                || s.starts_with("viewthread") =>
            {
                u.forum += 3.0
            }
            "thread" | "threads" | "showtopic.php" | "discussion" | "discussions" => u.forum += 3.0,
            "topic" | "topics" if next.is_some_and(numeric) => u.forum += 3.0,
            "comments" if segs.first() == Some(&"r") => u.forum += 3.0,
            "questions" | "question" if next.is_some_and(numeric) => u.forum += 3.0,
            "forum" | "forums" | "community" | "communities" | "board" | "boards" => u.forum += 1.5,
            // One product: Shopify /products/handle, WooCommerce /product/,
            // /p/, /dp/ and /ip/ item pages, /item/.
            "product" | "products" | "produkt" | "produit" | "producto" | "prodotto"
                if next.is_some() =>
            {
                u.product += 3.0
            }
            "p" | "dp" | "ip" | "item" | "items" | "pd" | "pdp" if next.is_some() => {
                u.product += 2.5
            }
            // Categories of a shop (a bare `/c` or `/cat` is no category).
            "collections" | "shop" => u.collection += 2.5,
            "collection" | "product-category" | "c" | "cat" | "catalog" | "catalogue"
            | "browse" | "kategorie" | "categorie" | "categoria"
                if next.is_some() =>
            {
                u.collection += 2.5
            }
            "category" | "categories" => {
                u.collection += 1.0;
                u.listing += 2.0;
            }
            "tag" | "tags" | "topic" | "topics" | "section" | "sections" | "archive"
            | "archives" | "author" | "authors" | "list" | "lists" | "search" | "page"
            | "trending" | "latest" | "issues" | "chart" | "directory" | "subject" | "subjects" => {
                u.listing += 2.0
            }
            "news" | "blog" | "blogs" | "articles" | "stories" | "posts" | "insights" | "press"
            | "updates" | "magazine" => {
                if is_last {
                    u.listing += 2.0;
                } else {
                    u.article += 1.5;
                }
            }
            "article" | "story" | "post" | "p-" | "a" => u.article += 1.0,
            // Documentation.
            "docs" | "doc" | "documentation" | "reference" | "api" | "manual" | "manuals"
            | "guide" | "guides" | "handbook" | "tutorial" | "tutorials" | "library" | "learn"
            | "book" | "man" | "sdk" | "wiki" | "kb" | "knowledge-base" | "help" | "support" => {
                let w =
                    match s {
                        "docs" | "doc" | "documentation" | "reference" | "api" | "manual"
                        | "sdk" => 3.0,
                        "help" | "support" | "kb" | "knowledge-base" | "guide" | "guides"
                        | "wiki" => 1.0,
                        _ => 1.5,
                    };
                u.docs += w;
            }
            // Services of a business, departments of an administration.
            "services" | "service" | "solutions" | "solution" | "pricing" | "plans" | "contact"
            | "contact-us" | "about" | "about-us" | "platform" | "features" | "industries"
            | "consulting" | "what-we-do" | "our-services" | "work" | "company" | "careers"
            | "programs" | "program" | "department" | "departments" | "offices" => u.service += 2.0,
            _ => {}
        }
    }
    if query.contains("topic=") || query.contains("t=") && path.ends_with(".php") {
        u.forum += 3.0;
    }
    u
}

/// Everything [`Signals::scores`] reads, measured once per page.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Signals {
    /// Declared schema.org types ([`Decl`] bits), JSON-LD and microdata.
    pub decl: u64,
    /// `og:type`, lower case.
    pub og_type: String,
    pub generator: Generator,
    pub url: UrlSignals,
    /// Distinct fingerprints found per [`Mark`].
    pub marks: [u16; MARKS],
    /// Bytes of visible text, and of those inside links. Text is measured in UTF-8 bytes
    /// throughout: a CJK character (three bytes) says about as much as three Latin
    /// letters, so one threshold fits every script.
    pub bytes: u32,
    pub link_bytes: u32,
    /// `<p>` elements with at least [`PROSE_BYTES`] of text outside links, and their bytes.
    pub prose_paras: u32,
    pub prose_bytes: u32,
    /// Bytes in long runs of text outside links (at least [`PROSE_BYTES`] between two
    /// tags), wherever they are: prose that is not in `<p>`s.
    pub long_runs: u32,
    /// Short text runs that read as a price (a currency sign next to a number).
    pub prices: u32,
    /// Headings, and text runs that are links inside a heading (teaser titles).
    pub headings: u32,
    pub heading_links: u32,
    /// `<pre>` and `<code>` elements.
    pub code: u32,
    /// `<time>` elements.
    pub times: u32,
    /// `<form>`, `<button>` and `<select>` elements.
    pub forms: u32,
    pub buttons: u32,
    pub selects: u32,
    /// The largest group of repeated siblings (a run of children with the same tag and
    /// first class word) that each hold a link and text of their own: their number, and
    /// their container's share of the page's text.
    pub items: u32,
    pub items_share: f32,
    /// Such items in all groups of at least three (a front page has several sections of
    /// teasers).
    pub items_total: u32,
    /// The same for siblings holding long text (at least [`POST_BYTES`] outside links) and
    /// a link or a `<time>`: posts, comments, answers.
    pub posts: u32,
}

/// Bytes of text outside links that make a `<p>` a prose paragraph.
pub const PROSE_BYTES: u32 = 80;

/// Bytes of text outside links that make a repeated sibling a post rather than a teaser.
pub const POST_BYTES: u32 = 200;

/// A teaser or product card holds at most this many bytes of text.
const ITEM_MAX_BYTES: u32 = 600;

/// Per-element totals and repeated-child counts for the reverse pass.
#[derive(Clone, Copy, Default)]
struct Acc {
    bytes: u32,
    link_bytes: u32,
    items: Run,
    posts: Run,
    /// A `<time>` in the subtree.
    time: bool,
}

/// The longest run of alike children of one element, children taken in reverse order.
#[derive(Clone, Copy, Default)]
struct Run {
    /// The child last counted, as element index + 1; 0 for none.
    last: u32,
    run: u32,
    best: u32,
}

impl Run {
    /// Count child `i`: the run goes on when it is alike the last one counted (same tag,
    /// same first ident word), else a new run starts. Children in between that are not
    /// counted (spacers, ads) do not break it.
    fn push(&mut self, doc: &Doc, i: usize) {
        let els = &doc.elements;
        // Numbered ids (`post-312660`, `postBoxWrapper5872`) name one sibling each: their
        // digits do not make siblings unalike.
        let first = |e: &crate::doc::Element| {
            doc.ident(e)
                .split(' ')
                .next()
                .unwrap_or("")
                .trim_end_matches(|c: char| c.is_ascii_digit())
        };
        let alike = match (
            els.get(i),
            (self.last as usize).checked_sub(1).and_then(|l| els.get(l)),
        ) {
            (Some(a), Some(b)) => a.tag == b.tag && first(a) == first(b),
            _ => false,
        };
        self.run = if alike { self.run + 1 } else { 1 };
        self.last = i as u32 + 1;
        self.best = self.best.max(self.run);
    }
}

impl Signals {
    /// Measure `doc`.
    pub fn read(doc: &Doc, structured: &Structured) -> Signals {
        let mut s = Signals::default();
        for t in &structured.types {
            if let Some(d) = decl_of(t) {
                s.decl |= 1 << d as u8;
            }
        }
        for (k, v) in &doc.meta {
            match k.as_str() {
                "og:type" if s.og_type.is_empty() => s.og_type = v.trim().to_ascii_lowercase(),
                "generator" if s.generator == Generator::None => s.generator = generator_of(v),
                _ => {}
            }
        }
        if let Some(url) = &doc.url {
            s.url = url_signals(url);
        }
        s.read_idents(doc);
        s.read_structure(doc);
        s
    }

    /// Whether the page declares `d`.
    pub fn declares(&self, d: Decl) -> bool {
        self.decl & (1 << d as u8) != 0
    }

    /// One pass of the fingerprint automaton over all idents.
    fn read_idents(&mut self, doc: &Doc) {
        let Some(ac) = ident_matcher() else { return };
        let hay = doc.idents.as_bytes();
        let mut seen = [false; IDENT_MARKS.len()];
        for m in ac.find_iter(hay) {
            let p = m.pattern().as_usize();
            let Some(&(_, mark)) = IDENT_MARKS.get(p) else {
                continue;
            };
            if mark == Mark::Microdata {
                if let Some(d) = hay.get(m.end()..).and_then(decl_prefix) {
                    self.decl |= 1 << d as u8;
                }
                continue;
            }
            let k = mark as usize;
            if let Some(first) = seen.get_mut(p).filter(|f| !**f) {
                *first = true;
                self.marks[k] += 1;
            }
        }
    }

    /// One pass over the segments, one reverse pass over the elements.
    fn read_structure(&mut self, doc: &Doc) {
        let els = &doc.elements;
        let mut acc = vec![Acc::default(); els.len()];
        let tag_of = |i: u32| els.get(i as usize).map_or(Tag::None, |e| e.tag);
        for seg in &doc.segments {
            if seg.hidden {
                continue;
            }
            // Bytes, not characters (see `Signals::bytes`).
            let len = seg.text.end.saturating_sub(seg.text.start);
            self.bytes += len;
            if let Some(a) = acc.get_mut(seg.element as usize) {
                a.bytes += len;
                if seg.link {
                    a.link_bytes += len;
                }
            }
            if !seg.link && len >= PROSE_BYTES {
                self.long_runs += len;
            }
            if seg.link {
                self.link_bytes += len;
                let el = els.get(seg.element as usize);
                // A title that is a link (not a heading's one-character anchor).
                if len >= 12
                    && el.is_some_and(|e| e.tag.is_heading() || tag_of(e.parent).is_heading())
                {
                    self.heading_links += 1;
                }
            }
            if seg.chars <= 40 && reads_as_price(doc.seg_text(seg).as_bytes()) {
                self.prices += 1;
            }
        }
        let mut best_items = (0u32, 0u32);
        for i in (1..els.len()).rev() {
            let e = &els[i];
            let a = acc[i];
            self.close_groups(&a, &mut best_items);
            match e.tag {
                Tag::P if a.bytes - a.link_bytes >= PROSE_BYTES => {
                    self.prose_paras += 1;
                    self.prose_bytes += a.bytes - a.link_bytes;
                }
                Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => self.headings += 1,
                Tag::Pre | Tag::Code => self.code += 1,
                Tag::Time => self.times += 1,
                Tag::Form => self.forms += 1,
                Tag::Button => self.buttons += 1,
                Tag::Select => self.selects += 1,
                _ => {}
            }
            let parent = e.parent as usize;
            let own = a.bytes - a.link_bytes;
            // Teasers and cards are boxes whose link (title, name) is a good part of their
            // text; a paragraph with a link in it is prose, not an item.
            let boxed = is_box(e.tag) && !e.hidden && a.link_bytes > 0;
            // A menu entry is a short link alone; a teaser has text of its own or a title
            // as long as a headline.
            let item = boxed
                && a.bytes <= ITEM_MAX_BYTES
                && a.link_bytes * 5 >= a.bytes
                && (own >= 5 || a.link_bytes >= 25);
            // A post is signed: its author's link, or its date when the author is plain text.
            let time = a.time || e.tag == Tag::Time;
            let post =
                is_box(e.tag) && !e.hidden && (a.link_bytes > 0 || time) && own >= POST_BYTES;
            if parent != i {
                if let Some(p) = acc.get_mut(parent) {
                    p.bytes += a.bytes;
                    p.link_bytes += a.link_bytes;
                    p.time |= time;
                    if item {
                        p.items.push(doc, i);
                    }
                    if post {
                        p.posts.push(doc, i);
                    }
                }
            }
        }
        if let Some(root) = acc.first() {
            self.close_groups(root, &mut best_items);
        }
        self.items = best_items.0;
        self.items_share = if self.bytes > 0 {
            best_items.1 as f32 / self.bytes as f32
        } else {
            0.0
        };
    }

    /// Take in the repeated children of an element whose subtree is done.
    fn close_groups(&mut self, a: &Acc, best_items: &mut (u32, u32)) {
        if a.items.best > best_items.0 {
            *best_items = (a.items.best, a.bytes);
        }
        if a.items.best >= 3 {
            self.items_total += a.items.best;
        }
        self.posts = self.posts.max(a.posts.best);
    }

    /// Points per type, in [`PageType::ALL`] order (the last, `Other`, stays 0).
    pub fn scores(&self) -> [f32; 8] {
        use Decl as D;
        let d = |x: Decl| self.declares(x);
        let mark = |m: Mark| self.marks[m as usize] as f32;
        let mut article = 0.0f32;
        let mut forum = 0.0f32;
        let mut product = 0.0f32;
        let mut collection = 0.0f32;
        let mut listing = 0.0f32;
        let mut docs = 0.0f32;
        let mut service = 0.0f32;

        // Declared types. A product among many declared products is a category page: the
        // list types decide between one product and many.
        let list_decl = d(D::ItemList) || d(D::CollectionPage) || d(D::Catalog);
        if d(D::ForumPost) || d(D::QaPage) {
            forum += 6.0;
        }
        if d(D::Question) && !d(D::FaqPage) {
            forum += 3.0;
        }
        if d(D::Comment) {
            forum += 1.0;
        }
        if d(D::Product) {
            if list_decl || d(D::AggregateOffer) && !d(D::Offer) {
                collection += 3.0;
                product += 1.5;
            } else {
                product += 4.0;
            }
        }
        if d(D::Catalog) {
            collection += 2.0;
        }
        if d(D::CollectionPage) || d(D::SearchResultsPage) {
            listing += 2.0;
            collection += 1.5;
        }
        if d(D::ItemList) && !d(D::Product) {
            listing += 1.0;
        }
        if d(D::Blog) && !d(D::NewsArticle) {
            listing += 1.5;
        }
        if d(D::TechArticle) || d(D::SoftwareSourceCode) {
            docs += 4.0;
        }
        if d(D::NewsArticle) {
            article += 3.0;
        } else if d(D::Article) {
            article += 1.5;
        }
        if d(D::Recipe) || d(D::Review) && !d(D::Product) {
            article += 1.0;
        }
        if d(D::HowTo) {
            article += 0.5;
            docs += 0.5;
        }
        if d(D::Service) || d(D::ContactPage) || d(D::AboutPage) {
            service += 3.0;
        }
        if d(D::LocalBusiness) {
            service += 1.5;
        }
        if d(D::FaqPage) {
            service += 1.0;
        }
        if d(D::SoftwareApp) || d(D::Course) || d(D::Event) {
            service += 1.0;
        }

        // og:type.
        match self.og_type.as_str() {
            "article" | "blog" | "newsarticle" => article += 1.0,
            t if t.contains("group") || t.contains("ecommerce") || t.contains("catalog") => {
                collection += 2.5
            }
            t if t.contains("product") || t.ends_with(":item") => product += 3.0,
            "website" => {
                listing += 0.3;
                service += 0.3;
                collection += 0.3;
            }
            _ => {}
        }

        // Platforms.
        match self.generator {
            Generator::Forum => forum += 4.0,
            Generator::Docs => docs += 5.0,
            Generator::Shop => {
                product += 0.5;
                collection += 0.5;
            }
            _ => {}
        }
        forum += (mark(Mark::ForumEngine) * 2.0).min(6.0);
        docs += (mark(Mark::DocsEngine) * 1.5).min(6.0);
        product += (mark(Mark::ProductPage) * 1.0).min(4.0);
        collection += (mark(Mark::ProductGrid) * 1.0).min(3.0);
        article += (mark(Mark::Post) * 0.5).min(2.5);
        service += (mark(Mark::Landing) * 0.5).min(2.0);

        // URL.
        let u = &self.url;
        forum += u.forum;
        product += u.product;
        collection += u.collection;
        listing += u.listing;
        docs += u.docs;
        article += u.article;
        service += u.service;
        if u.dated {
            article += 2.0;
        }
        if u.slug {
            article += 1.0;
        }
        if u.home {
            service += 1.0;
            listing += 1.0;
            article -= 1.5;
            product -= 1.0;
        }

        // Structure.
        let bytes = self.bytes.max(1) as f32;
        let link_share = self.link_bytes as f32 / bytes;
        let prose_share = self.prose_bytes as f32 / bytes;
        let heading_density = self.headings as f32 / self.prose_paras.max(1) as f32;
        // Articles: mostly prose, in paragraphs longer than the headings between them,
        // usually with a date.
        if prose_share >= 0.45 {
            article += 1.0;
        }
        if self.prose_bytes >= 2000 {
            article += 1.0;
        }
        if self.prose_paras >= 5 && heading_density <= 1.0 {
            article += 0.5;
        }
        if (1..=3).contains(&self.times) {
            article += 1.0;
        }
        if self.prose_paras < 3 {
            article -= 1.0;
        }
        // Service and landing pages: short sections under many headings, buttons.
        if heading_density >= 1.2 && self.prose_bytes < 6000 {
            service += 1.0;
        }
        if self.buttons >= 8 && prose_share < 0.5 {
            service += 0.5;
        }
        let dated = self.times > 0 || u.dated || d(D::NewsArticle) || mark(Mark::Post) > 0.0;
        if !dated {
            service += 0.5;
        }
        if self.code >= 3 {
            docs += 1.0;
        }
        if self.code >= 10 {
            docs += 1.0;
        }
        let many_prices = self.prices >= 6;
        if many_prices && self.items >= 6 {
            collection += 3.0;
            // A declared product among a grid of priced items is one of many.
            if self.prices >= 15 && self.items >= 10 {
                product -= 2.0;
            }
        } else if many_prices {
            collection += 1.0;
        } else if self.prices >= 1 {
            product += 1.0;
        }
        if self.selects > 0 && self.prices >= 1 {
            product += 0.5;
        }
        // Listings: many teasers (a linked title and a line of text each), titles that
        // are links, dates.
        if self.items >= 8 && self.prices < 3 {
            listing += 1.5;
            if self.items_share > 0.3 {
                listing += 1.0;
            }
        }
        // (Product names are linked headings too: only without prices do they say listing.)
        if self.heading_links >= 6 && self.prices < 3 {
            listing += 1.5;
        }
        if self.heading_links >= 15 && self.prices < 3 {
            listing += 0.5;
        }
        if self.times >= 5 && self.posts < 3 {
            listing += 1.0;
        }
        if link_share > 0.5 && self.prose_bytes < 1500 {
            listing += 1.0;
        }
        // Forums: many posts of prose, each with a link (its author) and a date.
        if self.posts >= 3 {
            forum += 1.0;
        }
        if self.posts >= 5 {
            forum += 0.5;
        }
        if self.times >= 5 && self.posts >= 3 {
            forum += 1.5;
        }
        // An article has a date or two; many are a thread's or a listing's.
        if self.times >= 8 {
            article -= 1.0;
        }
        [
            article, forum, product, collection, listing, docs, service, 0.0,
        ]
    }

    /// The type with the highest score; [`PageType::Other`] when none reaches
    /// [`MIN_SCORE`]. Ties go to the type listed first in [`PageType::ALL`].
    pub fn classify(&self) -> PageType {
        let scores = self.scores();
        let mut best = (PageType::Other, MIN_SCORE - f32::EPSILON);
        for (t, &s) in PageType::ALL.iter().zip(&scores) {
            if s > best.1 {
                best = (*t, s);
            }
        }
        best.0
    }
}

/// Elements that hold one item of a list, grid or thread.
fn is_box(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Li | Tag::Div | Tag::Article | Tag::Section | Tag::Tr | Tag::Td | Tag::Dd | Tag::Other
    )
}

/// A short text that reads as a price: a currency sign (`$`, `£`, `¥`, `€` and the other
/// signs of U+20A0..U+20CF) with a digit right before or after it (spaces allowed).
fn reads_as_price(t: &[u8]) -> bool {
    let digit_near = |from: usize, to: usize| {
        let after = t
            .get(to..)
            .unwrap_or_default()
            .iter()
            .copied()
            .filter(|&b| b != b' ' && b != 0xc2 && b != 0xa0)
            .take(1)
            .any(|b| b.is_ascii_digit());
        let before = t
            .get(..from)
            .unwrap_or_default()
            .iter()
            .rev()
            .copied()
            .filter(|&b| b != b' ' && b != 0xc2 && b != 0xa0)
            .take(1)
            .any(|b| b.is_ascii_digit());
        after || before
    };
    for i in memchr::memchr3_iter(b'$', 0xc2, 0xe2, t) {
        let sign_len = match (t.get(i), t.get(i + 1)) {
            (Some(b'$'), _) => 1,
            (Some(0xc2), Some(0xa3 | 0xa5)) => 2,
            (Some(0xe2), Some(0x82)) => 3,
            _ => continue,
        };
        if digit_near(i, i + sign_len) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str, url: Option<&str>) -> (Signals, PageType) {
        let mut doc = Doc::parse(html);
        doc.url = url.map(str::to_owned);
        let structured = Structured::read(&doc);
        let s = Signals::read(&doc, &structured);
        let t = classify(&doc, &structured);
        assert_eq!(s.classify(), t);
        (s, t)
    }

    fn prose(n: usize) -> String {
        "<p>The council met on Tuesday to discuss the river plan, and after a long debate \
         that ran late into the evening it approved the first stage of the works.</p>"
            .repeat(n)
    }

    #[test]
    fn names_round_trip() {
        for t in PageType::ALL {
            assert_eq!(PageType::from_name(t.as_str()), Some(t));
        }
        assert_eq!(PageType::from_name("blog"), None);
    }

    #[test]
    fn empty_page_is_other() {
        assert_eq!(page("", None).1, PageType::Other);
        assert_eq!(page("<html><body></body></html>", None).1, PageType::Other);
    }

    #[test]
    fn json_ld_forum_posting() {
        let html = r#"<script type="application/ld+json">{"@context":"https://schema.org",
            "@type":"DiscussionForumPosting","headline":"Range?","text":"How far does it go?"}
            </script><div><p>How far does it go on one charge?</p></div>"#;
        let (s, t) = page(html, None);
        assert!(s.declares(Decl::ForumPost));
        assert_eq!(t, PageType::Forum);
    }

    #[test]
    fn faq_questions_are_not_a_forum() {
        // FAQPage carries Question and Answer too; with prose and a date it reads as an
        // article, not as a Q&A thread.
        let html = format!(
            r#"<script type="application/ld+json">{{"@type":"FAQPage","mainEntity":[
            {{"@type":"Question","name":"Why?","acceptedAnswer":{{"@type":"Answer","text":"So."}}}}]}}
            </script><article><h1>River plan</h1><time>2024-05-01</time>{}</article>"#,
            prose(8)
        );
        assert_eq!(page(&html, None).1, PageType::Article);
    }

    #[test]
    fn microdata_product() {
        let html = r#"<div itemscope itemtype="http://schema.org/Product">
            <h1 itemprop="name">Kettle</h1><span itemprop="price">$49.99</span>
            <button class="btn add-to-cart">Add to cart</button></div>"#;
        let (s, t) = page(html, None);
        assert!(s.declares(Decl::Product));
        assert_eq!(s.prices, 1);
        assert_eq!(t, PageType::Product);
    }

    #[test]
    fn discourse_fingerprint() {
        let post = |n: usize| {
            format!(
                "<div class='topic-body crawler-post'><span class='creator'><a href='/u/{n}'>\
                 user{n}</a></span><div class='post'><p>I get about twenty miles out of it on \
                 a full charge, less in the cold and when the hills are steep, so plan ahead \
                 for that and carry the charger when you can, it is small.</p></div></div>"
            )
        };
        let html = format!(
            "<meta name=generator content='Discourse 3.2'><div>{}</div>",
            (0..4).map(post).collect::<String>()
        );
        let (s, t) = page(&html, Some("https://forum.example.org/t/range/3275"));
        assert!(s.marks[Mark::ForumEngine as usize] >= 2);
        assert_eq!(s.generator, Generator::Forum);
        assert_eq!(t, PageType::Forum);
    }

    #[test]
    fn dated_posts_with_plain_text_authors_are_a_thread() {
        // A forum theme that signs posts with the author's name as plain text and a
        // `<time>`: no link in the post, yet each is a post of the thread.
        let post = |n: usize| {
            format!(
                "<div class='forum-post'><span class='author'>user{n}</span><time \
                 datetime='2017-06-0{n}'>Jun {n}, 2017</time><div class='content'><p>I flattened \
                 the top with a jack plane first and only then cut the dovetails, which made the \
                 whole job far easier than the last time, when I did it the other way round and \
                 the joints came out loose.</p></div></div>"
            )
        };
        let html = format!(
            "<meta property='og:type' content='article'><h1>First projects</h1><div>{}</div>",
            (1..6).map(post).collect::<String>()
        );
        let url = "https://example.com/discussions/topic/first-projects-of-a-beginner/";
        let (s, t) = page(&html, Some(url));
        assert_eq!(s.posts, 5);
        assert_eq!(t, PageType::Forum);
    }

    #[test]
    fn sphinx_documentation() {
        let html = format!(
            "<div class=document><div class=body><h1>json — JSON encoder<a class=headerlink \
             href='#json'>¶</a></h1>{}<pre>import json</pre><p>Use <code class='docutils \
             literal'>dumps</code>.</p></div></div>",
            prose(3)
        );
        let (s, t) = page(&html, Some("https://docs.example.org/3/library/json.html"));
        assert!(s.marks[Mark::DocsEngine as usize] >= 2);
        assert_eq!(t, PageType::Documentation);
    }

    #[test]
    fn listing_by_repeated_teasers() {
        let teaser = |n: usize| {
            format!(
                "<div class='card'><h3><a href='/a/{n}'>Council approves the river plan, \
                 part {n}</a></h3><span>May {n}, 2024 · 4 min read</span></div>"
            )
        };
        let html = format!(
            "<nav><a href=/>Home</a></nav><main><div class=grid>{}</div></main>",
            (1..=12).map(teaser).collect::<String>()
        );
        let (s, t) = page(&html, None);
        assert_eq!(s.items, 12);
        assert!(s.heading_links >= 12);
        assert_eq!(t, PageType::Listing);
    }

    #[test]
    fn collection_by_priced_cards() {
        let card = |n: usize| {
            format!(
                "<li class='product-card'><a href='/products/kettle-{n}'>Kettle model {n}</a>\
                 <span class=price>€{n}9,00</span></li>"
            )
        };
        let html = format!(
            "<ul class=product-grid>{}</ul>",
            (1..=10).map(card).collect::<String>()
        );
        let (s, t) = page(&html, Some("https://shop.example.com/collections/kettles"));
        assert_eq!(s.prices, 10);
        assert_eq!(s.items, 10);
        assert_eq!(t, PageType::Collection);
    }

    #[test]
    fn plain_article() {
        let html = format!(
            "<header><a href=/>Home</a> <a href=/news>News</a></header><article><h1>Council \
             approves the river plan</h1><time datetime=2024-05-01>May 1, 2024</time>{}\
             </article>",
            prose(10)
        );
        let (s, t) = page(
            &html,
            Some("https://news.example.com/2024/05/council-approves-the-river-plan"),
        );
        assert!(s.url.dated && s.url.slug);
        assert_eq!(t, PageType::Article);
    }

    #[test]
    fn service_page() {
        let html = "<section class=hero><h1>Plumbing repairs</h1><p>Fast and fair.</p>\
             <a class=button href=/contact>Book now</a></section><h2>Leaks</h2><p>We fix them.\
             </p><h2>Boilers</h2><p>We service them.</p><h2>Drains</h2><p>We clear them.</p>\
             <section class=testimonials><h2>What clients say</h2></section>";
        let (_, t) = page(html, Some("https://plumber.example.com/services/repairs/"));
        assert_eq!(t, PageType::Service);
    }

    #[test]
    fn url_patterns() {
        let u = url_signals("https://example.com/threads/best-closed-headphones.973407/");
        assert!(u.forum >= 3.0);
        let u = url_signals("https://shop.example.com/products/quarter-socks?variant=1");
        assert!(u.product >= 3.0);
        let u = url_signals("https://example.com/en/");
        assert!(u.home);
        let u = url_signals("https://forum.example.org/showthread.php?t=186269");
        assert!(u.forum >= 3.0);
        let u = url_signals("not a url at all");
        assert_eq!(u.forum + u.product + u.docs, 0.0);
    }

    #[test]
    fn prices() {
        assert!(reads_as_price(b"$49.99"));
        assert!(reads_as_price("12,90\u{a0}€".as_bytes()));
        assert!(reads_as_price("£ 5".as_bytes()));
        assert!(!reads_as_price(b"US$"));
        assert!(!reads_as_price("€".as_bytes()));
        assert!(!reads_as_price("a – b".as_bytes()));
    }

    #[test]
    fn hostile_input_is_linear_and_total() {
        let html = format!(
            "{}{}",
            "<div class='schema.org/".repeat(10_000),
            "<li><a href=x>".repeat(10_000)
        );
        let _ = page(&html, Some("http://\u{fffd}/\u{0}"));
    }
}
