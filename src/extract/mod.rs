//! Content-extraction methods, all fed by one pass of the tokenizer.
//!
//! (API pinned; implementation being written.)

/// What one method kept of one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageText {
    /// The page title (`<title>`), whitespace-collapsed; never part of `text`.
    pub title: Option<String>,
    /// The declared language (`<html lang>`), if any.
    pub lang: Option<String>,
    /// The main content, one block (paragraph, heading, list item, table row) per line.
    pub text: String,
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
    vec!["plain"]
}

/// Decode `html` (charset from BOM / `http_charset` / `<meta>` / detection with the URL's TLD)
/// and run `algorithm` over it. Errors only for an unknown algorithm name.
pub fn extract_bytes(
    html: &[u8],
    http_charset: Option<&str>,
    url: Option<&str>,
    algorithm: &str,
) -> Result<Extraction, String> {
    let _ = (http_charset, url);
    if !algorithm_names().contains(&algorithm) {
        return Err(format!("unknown algorithm {algorithm:?}"));
    }
    Ok(Extraction {
        page: PageText { title: None, lang: None, text: String::from_utf8_lossy(html).into_owned() },
        charset: "UTF-8",
        charset_source: "default",
    })
}
