//! Arbitrary UTF-8 (lossily decoded bytes after the first) → `Doc::parse` and one method of
//! `warcsift::extract::registry()`, chosen by the first byte: `select` through `extract_text`,
//! and `explain`. Selector values past the registry also run the Crunch `lol_html` rewrite
//! stage and a `Doc` built with a tiny depth limit.
//!
//! One method per input, not all of them: running every method on every input held the
//! target to ~30 runs/s, too slow to plateau. The selector byte lets libFuzzer's
//! coverage feedback steer each method separately.
//!
//! Bit 6 of the selector writes the page as Markdown (bit 7: with link targets); the text
//! then goes through language detection, as in the pipeline.
//!
//! Checks: no panic; `select` gives one flag per segment; an explanation's columns all have
//! one value per row.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warcsift::doc::{Doc, Limits};
use warcsift::extract;
use warcsift::{lang, markdown};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, html)) = data.split_first() else {
        return;
    };
    let src = String::from_utf8_lossy(html);
    let src = src.as_ref();
    let methods = extract::registry();
    let Some(m) = methods.get(usize::from(selector) % (methods.len() + 1)) else {
        let _ = extract::crunch::rewrite(src, &[]);
        let shallow = Doc::parse_with(
            src,
            Limits {
                max_depth: 4,
                max_ident_bytes: 8,
                units: false,
                hrefs: true,
            },
        );
        assert!(shallow.elements.iter().all(|e| e.depth <= 5));
        assert!(shallow.units.is_empty());
        return;
    };
    let doc = Doc::parse(src);
    // The page as the pipeline writes it: text (or Markdown, links by the selector's top
    // bit) with its metadata, structured-data fallback and page type, and its language.
    let page = if selector & 0x40 == 0 {
        extract::extract_text(src, m.as_ref())
    } else {
        let links = if selector & 0x80 == 0 {
            markdown::Links::TextOnly
        } else {
            markdown::Links::Inline
        };
        extract::extract_page_as(
            src,
            Some("https://example.com/a/b?c=d"),
            m.as_ref(),
            Some(links),
        )
    };
    let _ = lang::detect(&page.text, page.lang.as_deref());
    let keep = m.select(&doc);
    assert_eq!(
        keep.len(),
        doc.segments.len(),
        "{}: one flag per segment",
        m.name()
    );
    if !m.reads_units() {
        // The pipeline gives such a method a Doc without units: it must not notice.
        let lean = Doc::parse_with(
            src,
            Limits {
                units: false,
                ..Limits::default()
            },
        );
        assert_eq!(m.select(&lean), keep, "{}: same without units", m.name());
    }
    if let Some(ex) = m.explain(&doc) {
        for (name, column) in &ex.columns {
            assert_eq!(column.len(), ex.kept.len(), "{}: column {name}", m.name());
        }
    }
});
