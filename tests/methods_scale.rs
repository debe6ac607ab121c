//! Every method survives pathological sizes: 1,000,000 nested elements and a 50 MB page on
//! one line, without stack overflow or quadratic blow-up. (Linear growth itself is measured by
//! `benches/scaling.rs`; here a quadratic method would not finish within CI's budget.)

use warcsift::extract::{extract_text, registry};

#[test]
fn every_method_survives_a_million_nested_elements() {
    let n = 1_000_000;
    let mut html = String::with_capacity(n * 12);
    for i in 0..n {
        html.push_str("<div>");
        if i % 100_000 == 0 {
            html.push_str("Some text at this depth, long enough to be a paragraph of content.");
        }
    }
    html.push_str(&"</div>".repeat(n));
    for m in registry() {
        let t = extract_text(&html, m.as_ref());
        assert!(t.text.len() < html.len(), "{}", m.name());
    }
}

#[test]
fn every_method_survives_a_fifty_megabyte_one_line_page() {
    let para = "<p>A paragraph of an article on one line, with <a href=/x>a link</a>, commas, and enough words to count as content for every method here.</p>";
    let nav = "<ul class=nav><li><a href=/a>Home</a></li><li><a href=/b>News</a></li></ul>";
    let mut html = String::with_capacity(51 << 20);
    html.push_str("<html><head><title>One line</title></head><body>");
    while html.len() < 50 << 20 {
        html.push_str(nav);
        for _ in 0..20 {
            html.push_str(para);
        }
    }
    html.push_str("</body></html>");
    assert!(!html.contains('\n'));
    for m in registry() {
        let t = extract_text(&html, m.as_ref());
        assert!(t.text.len() <= html.len(), "{}", m.name());
        if m.name() == "plain" || m.name() == "auto" {
            assert!(t.text.contains("A paragraph of an article"), "{}", m.name());
        }
    }
}
