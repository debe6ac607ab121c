//! Arbitrary UTF-8 (lossily decoded bytes) → every token of `Tokenizer`, with its name,
//! content, attributes (raw and decoded) and `decode_text` of every text-like token.
//!
//! Checks: no panic; tokens move forward, are non-empty, lie on char boundaries inside the
//! page, and there are at most as many tokens as bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warcsift::tokenize::{decode_attr, decode_text, TokenKind, Tokenizer};

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let src = src.as_ref();
    let mut last_end = 0;
    let mut count = 0usize;
    for t in Tokenizer::new(src) {
        count += 1;
        assert!(count <= src.len(), "more tokens than bytes");
        assert!(t.start >= last_end, "tokens move forward");
        assert!(
            t.end > t.start && t.end <= src.len(),
            "non-empty, inside the page"
        );
        assert!(src.is_char_boundary(t.start) && src.is_char_boundary(t.end));
        last_end = t.end;
        let _ = t.name(src);
        match t.kind {
            TokenKind::Text | TokenKind::RawText | TokenKind::Cdata => {
                let _ = decode_text(t.content(src));
            }
            TokenKind::StartTag => {
                for (name, value) in t.attrs(src) {
                    let _ = (name.len(), decode_attr(value));
                }
                let _ = t.attr(src, "class");
            }
            _ => {}
        }
    }
});
