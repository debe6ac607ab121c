//! Page type: what kind of page this is (article, forum, product, collection, listing,
//! documentation, service, or other), from what the page declares (schema.org types in
//! JSON-LD and microdata, `og:type`), platform fingerprints and structure.
//!
//! Takes the page's [`Doc`] and its [`Structured`] data; gives a [`PageType`]. Extraction
//! (`auto`) reads it to decide what the main content of such a page is; every output format
//! writes it as `page_type`.

use crate::doc::Doc;
use crate::structured::Structured;

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
pub fn classify(_doc: &Doc, _structured: &Structured) -> PageType {
    PageType::Other
}
