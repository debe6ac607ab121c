//! Structured data a page ships beside its markup: schema.org JSON-LD and the state that
//! single-page apps render from (Next.js `__NEXT_DATA__`, Nuxt `__NUXT_DATA__`).
//!
//! Takes the raw JSON that [`crate::doc`] kept ([`Doc::data`]); gives a [`Structured`]: the
//! schema.org types the page declares (for page typing), and the texts it carries
//! (`articleBody`, `text`, `description`, and for app state its longest prose strings) for the
//! structured-data fallback of pages whose markup holds no prose. Parsed once per page with
//! `serde_json`; a script that is not valid JSON is skipped (some sites ship JSON-LD with
//! trailing commas or raw newlines in strings: a browser ignores it too).
//!
//! Refuses nothing; bounded: at most [`MAX_NODES`] JSON values are visited per page.

use crate::doc::{DataKind, Doc};
use serde_json::Value;

/// JSON values visited per page at most (app state can hold hundreds of thousands).
pub const MAX_NODES: usize = 200_000;

/// What a page's structured data says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structured {
    /// schema.org `@type` names, as written but without a URL prefix (`Article`,
    /// `DiscussionForumPosting`, `Product`, ...), in document order, each once.
    pub types: Vec<String>,
    /// Main texts: `articleBody` and the `text` of posts, questions, answers and comments
    /// (JSON-LD), in document order.
    pub bodies: Vec<String>,
    /// `description` values (JSON-LD), in document order.
    pub descriptions: Vec<String>,
    /// The first `headline` (JSON-LD).
    pub headline: Option<String>,
    /// App state: strings that read as prose (at least [`APP_PROSE_CHARS`] characters with
    /// spaces, not markup or URLs), in document order.
    pub app_texts: Vec<String>,
    /// The page's JSON-LD documents, parsed once here for every reader of them (the
    /// metadata of [`crate::metadata`] walks them again for its own fields).
    pub json_ld: Vec<Value>,
}

/// The shortest app-state string taken as prose.
pub const APP_PROSE_CHARS: usize = 80;

impl Structured {
    /// Read the structured data of `doc`.
    pub fn read(doc: &Doc) -> Structured {
        let mut out = Structured::default();
        let mut budget = MAX_NODES;
        for d in &doc.data {
            let Ok(value) = serde_json::from_str::<Value>(&d.json) else {
                continue;
            };
            match d.kind {
                DataKind::JsonLd => {
                    out.json_ld(&value, &mut budget);
                    out.json_ld.push(value);
                }
                DataKind::AppState => out.app_state(&value, &mut budget),
            }
        }
        out
    }

    /// Whether the page declares any of `names` (schema.org type names, case-insensitive).
    pub fn declares(&self, names: &[&str]) -> bool {
        self.types
            .iter()
            .any(|t| names.iter().any(|n| t.eq_ignore_ascii_case(n)))
    }

    fn json_ld(&mut self, v: &Value, budget: &mut usize) {
        walk(v, budget, |v, stack| {
            let Value::Object(map) = v else {
                return;
            };
            match map.get("@type") {
                Some(Value::String(t)) => self.add_type(t),
                Some(Value::Array(ts)) => {
                    for t in ts.iter().filter_map(Value::as_str) {
                        self.add_type(t);
                    }
                }
                _ => {}
            }
            for key in ["articleBody", "text", "reviewBody"] {
                if let Some(text) = map.get(key).and_then(Value::as_str) {
                    push_text(&mut self.bodies, text);
                }
            }
            if let Some(text) = map.get("description").and_then(Value::as_str) {
                push_text(&mut self.descriptions, text);
            }
            if self.headline.is_none() {
                if let Some(h) = map.get("headline").and_then(Value::as_str) {
                    let h = collapse(h);
                    if !h.is_empty() {
                        self.headline = Some(h);
                    }
                }
            }
            // Children in document order (serde_json keeps keys sorted, which is fine:
            // order only matters between sibling texts of one kind).
            let children: Vec<&Value> = map
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "articleBody" | "text" | "reviewBody" | "description"
                    )
                })
                .map(|(_, v)| v)
                .filter(|v| v.is_object() || v.is_array())
                .collect();
            stack.extend(children.into_iter().rev());
        });
    }

    fn add_type(&mut self, t: &str) {
        let t = t.trim();
        let t = t.rsplit(['/', '#', ':']).next().unwrap_or(t);
        if !t.is_empty() && t.len() <= 64 && !self.types.iter().any(|have| have == t) {
            self.types.push(t.to_owned());
        }
    }

    fn app_state(&mut self, v: &Value, budget: &mut usize) {
        walk(v, budget, |v, stack| match v {
            Value::Object(map) => stack.extend(map.values().rev()),
            Value::String(s) if reads_as_prose(s) => push_text(&mut self.app_texts, s),
            _ => {}
        });
    }
}

/// Depth-first walk over `root` in document order, at most `budget` values in all (shared
/// by every script of a page): arrays are opened here, every other value goes to `visit`,
/// which pushes the children it wants walked (last first) onto the stack it is given.
fn walk<'a>(
    root: &'a Value,
    budget: &mut usize,
    mut visit: impl FnMut(&'a Value, &mut Vec<&'a Value>),
) {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        match v {
            Value::Array(items) => stack.extend(items.iter().rev()),
            _ => visit(v, &mut stack),
        }
    }
}

/// A JSON string that reads as prose: long enough, with spaces between words, and not
/// markup, a URL, code or base64.
fn reads_as_prose(s: &str) -> bool {
    if s.len() < APP_PROSE_CHARS {
        return false;
    }
    let t = s.trim_start();
    if t.starts_with('<') || t.starts_with("http") || t.starts_with('{') || t.starts_with('[') {
        return false;
    }
    let spaces = s.bytes().filter(|&b| b == b' ').count();
    let words = spaces + 1;
    // Prose has a space every 4-10 bytes; code and data have far fewer, or many symbols.
    let symbols = s
        .bytes()
        .filter(|b| matches!(b, b'{' | b'}' | b';' | b'=' | b'<' | b'>' | b'\\' | b'_'))
        .count();
    words * 16 >= s.len() && symbols * 20 < s.len()
}

/// Push `text` collapsed, with markup removed (JSON-LD bodies often hold HTML), if it is not
/// empty and not a repeat of the last one.
fn push_text(list: &mut Vec<String>, text: &str) {
    // Markup goes through the Doc builder, which decodes entities itself; plain text is
    // decoded here (once either way: `&amp;amp;` stays `&amp;`).
    let text = if text.contains('<') {
        strip_tags(text)
    } else {
        crate::mojibake::repair_decoded(crate::tokenize::decode_text(text)).into_owned()
    };
    let text = collapse_keep_lines(&text);
    if !text.is_empty() && list.last() != Some(&text) {
        list.push(text);
    }
}

/// Text with `<...>` tags removed; block tags become line breaks.
fn strip_tags(html: &str) -> String {
    let doc = Doc::parse(html);
    let mut out = String::new();
    let mut block = None;
    for seg in doc.segments.iter().filter(|s| !s.hidden) {
        if block.is_some() {
            out.push(if block == Some(seg.block) { ' ' } else { '\n' });
        }
        out.push_str(doc.seg_text(seg));
        block = Some(seg.block);
    }
    out
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whitespace collapsed within lines; empty lines dropped.
fn collapse_keep_lines(s: &str) -> String {
    s.lines()
        .map(collapse)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_ld_types_bodies_and_descriptions() {
        let doc = Doc::parse(
            r#"<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
            {"@type":"WebPage","name":"x"},
            {"@type":["Article","NewsArticle"],"headline":" River  plan ","description":"A plan.",
             "articleBody":"<p>First para.</p><p>Second &amp; last.</p>"}]}</script>
            <script type="application/ld+json">{"@type":"http://schema.org/QAPage",
             "mainEntity":{"@type":"Question","text":"How?","acceptedAnswer":{"@type":"Answer","text":"Thus."}}}</script>
            <script type="application/ld+json">{not json</script>"#,
        );
        let s = Structured::read(&doc);
        assert_eq!(
            s.types,
            [
                "WebPage",
                "Article",
                "NewsArticle",
                "QAPage",
                "Question",
                "Answer"
            ]
        );
        assert_eq!(s.headline.as_deref(), Some("River plan"));
        assert_eq!(s.descriptions, ["A plan."]);
        assert_eq!(s.bodies, ["First para.\nSecond & last.", "How?", "Thus."]);
        let once = Doc::parse(
            r#"<script type="application/ld+json">{"articleBody":"<p>a &amp;amp; b</p>","description":"c &amp;amp; d"}</script>"#,
        );
        let once = Structured::read(&once);
        assert_eq!(
            (once.bodies[0].as_str(), once.descriptions[0].as_str()),
            ("a &amp; b", "c &amp; d")
        );
        assert!(s.declares(&["qapage"]));
        assert!(!s.declares(&["Product"]));
    }

    #[test]
    fn app_state_keeps_prose_strings_only() {
        let prose = "The council approved the plan for the river on Tuesday, after a long debate that ran late.";
        let html = format!(
            r#"<script id="__NEXT_DATA__" type="application/json">{{"props":{{"pageProps":{{
            "url":"https://example.com/a/very/long/path/that/is/not/prose/at/all/but/long/enough/x",
            "css":"a{{color:red}};b{{x:y}};c{{x:y}};d{{x:y}};e{{x:y}};f{{x:y}};g{{x:y}};h{{x:y}};i{{x:y}}",
            "body":"{prose}","n":3}}}}}}</script>"#
        );
        let s = Structured::read(&Doc::parse(&html));
        assert_eq!(s.app_texts, [prose]);
        assert!(s.types.is_empty());
    }

    #[test]
    fn budget_bounds_huge_state() {
        let items = vec!["1"; MAX_NODES + 10].join(",");
        let html = format!(r#"<script id="__NEXT_DATA__">[{items}]</script>"#);
        let s = Structured::read(&Doc::parse(&html));
        assert!(s.app_texts.is_empty());
    }
}
