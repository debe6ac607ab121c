//! `none`: parse only. The pipeline reads, frames, parses HTTP and decodes the charset as for
//! any method, then writes the page's metadata record with empty text: no tokenizing, no
//! [`Doc`], no selection. It measures the cost of everything but extraction (`extract -a
//! none`), and gives a metadata-only index of a crawl's HTML pages.

use super::Method;
use crate::doc::Doc;

/// The parse-only method: extracts nothing.
pub struct ParseOnly;

impl Method for ParseOnly {
    fn name(&self) -> &'static str {
        "none"
    }
    fn describe(&self) -> &'static str {
        "parse only: read, HTTP, charset; metadata with empty text (no tokenizing or extraction)"
    }
    fn select(&self, doc: &Doc) -> Vec<bool> {
        vec![false; doc.segments.len()]
    }
    fn builds_doc(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{extract_bytes, extract_text};

    #[test]
    fn extracts_nothing_but_still_decodes() {
        let t = extract_text("<title>T</title><p>Body</p>", &ParseOnly);
        assert_eq!(t, crate::extract::PageText::default());
        let ex = extract_bytes(b"<p>caf\xe9</p>", Some("iso-8859-1"), None, "none").unwrap();
        assert_eq!((ex.charset, ex.charset_source), ("windows-1252", "http"));
        assert!(ex.page.text.is_empty());
    }
}
