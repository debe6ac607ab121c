//! `plain`: every visible text, nothing removed — the baseline of the evaluation framework
//! (seed 004, section 4: the "plain" text of a document is what a content-extraction method
//! must beat). Hidden elements (`hidden`, `display:none`) and the non-rendered elements
//! (script, style, template, title) are not visible, so they are not text; `noscript` content
//! is, as for a reader without scripting.

use super::Method;
use crate::doc::Doc;

/// The no-removal baseline.
pub struct Plain;

impl Method for Plain {
    fn name(&self) -> &'static str {
        "plain"
    }
    fn describe(&self) -> &'static str {
        "every visible text, no removal: the baseline (seed 004, section 4)"
    }
    fn reads_units(&self) -> bool {
        false
    }

    fn select(&self, doc: &Doc) -> Vec<bool> {
        doc.visible()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;

    #[test]
    fn keeps_all_visible_text_and_nothing_else() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body><nav>Home</nav>\
                    <script>var x='<p>no</p>'</script><p>Body &amp; soul</p><!-- c --><footer>(c)</footer></body></html>";
        let t = extract_text(html, &Plain);
        assert_eq!(t.text, "Home\nBody & soul\n(c)");
        assert_eq!(t.title.as_deref(), Some("T"));
    }
}
