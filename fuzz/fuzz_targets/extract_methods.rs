//! Arbitrary UTF-8 (lossily decoded bytes) → `Doc::parse` and every method of
//! `warcsift::extract::registry()`: `select` through `extract_text`, and `explain`; plus the
//! Crunch `lol_html` rewrite stage and a `Doc` built with a tiny depth limit.
//!
//! Checks: no panic; `select` gives one flag per segment; an explanation's columns all have
//! one value per row.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warcsift::doc::{Doc, Limits};
use warcsift::extract;

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let src = src.as_ref();
    let doc = Doc::parse(src);
    for m in extract::registry() {
        let _ = extract::extract_text(src, m.as_ref());
        let keep = m.select(&doc);
        assert_eq!(
            keep.len(),
            doc.segments.len(),
            "{}: one flag per segment",
            m.name()
        );
        if let Some(ex) = m.explain(&doc) {
            for (name, column) in &ex.columns {
                assert_eq!(column.len(), ex.kept.len(), "{}: column {name}", m.name());
            }
        }
    }
    let _ = extract::crunch::rewrite(src, &[]);
    let shallow = Doc::parse_with(
        src,
        Limits {
            max_depth: 4,
            max_ident_bytes: 8,
        },
    );
    assert!(shallow.elements.iter().all(|e| e.depth <= 5));
});
