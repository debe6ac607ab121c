//! `--markdown`: the kept text as GitHub-flavoured Markdown, with the same words as the
//! plain text ([`crate::extract::render`]).
//!
//! Takes the page's [`Doc`] and a method's selection; gives Markdown where each kept block
//! is marked by what encloses it in the page:
//!
//! - `<h1>`…`<h6>`: `#` … `######` headings;
//! - `<li>`: `- ` items (`1. ` in an `<ol>`), indented under the text of each enclosing
//!   item (two spaces under a `- `, three under a `1. `), as CommonMark nests them;
//! - table cells: one `| a | b |` line per `<tr>`, a `| --- |` line after the table's first
//!   row;
//! - `<pre>`: a fenced block, its source lines kept as lines with their indentation, with
//!   the language from a `language-x` / `lang-x` class of the `<pre>` or its `<code>`;
//! - `<blockquote>`: its paragraphs and list items after `> `, a `>` line between two
//!   blocks of one quotation (its headings, tables and code blocks are written as they are);
//! - `<code>`, `<kbd>`, `<samp>` outside a `<pre>`: between backticks, unless a backtick
//!   would fall between two word characters (`<code>foo</code>bar` is one word of the plain
//!   text) or the code holds one;
//! - anything else: a paragraph. Blocks are separated by a blank line, items and rows of one
//!   list or table by a line break.
//!
//! Links ([`Links`]): their text only by default; with `--links`, `[text](url)`, the URL
//! resolved against the page's `<base href>` or URL (relative ones kept as they are when
//! neither is known), `javascript:`, `data:` and fragment-only (`#x`) targets written as
//! text only, and no links inside code blocks. Markup characters in the text are not
//! escaped, so the words stay exactly those of the plain text; only the marks, link targets
//! and line breaks are added ([`without_link_targets`] takes the targets out again).

use crate::doc::{Doc, Segment};
use crate::tokenize::Tag;

/// Ancestors looked at per segment at most (deeper markup is rare; the bound keeps a
/// pathological page linear).
const MAX_ANCESTORS: usize = 64;

/// How links are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Links {
    /// Their text only.
    #[default]
    TextOnly,
    /// `[text](url)` (`--links`).
    Inline,
}

/// What encloses a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Paragraph,
    Heading(u8),
    /// Indent in spaces (0 at the top level), ordered, the `<li>` element.
    Item(usize, bool, u32),
    /// The `<tr>` element and the `<table>` element.
    Cell(u32, u32),
    /// The `<pre>` element and its code language.
    Code(u32, Option<&'static str>),
}

/// The kept segments of `doc` as Markdown (see the module doc). [`Links::Inline`] needs a
/// `doc` parsed with [`crate::doc::Limits::hrefs`] (without it every link is text only).
pub fn render(doc: &Doc, keep: &[bool], links: Links) -> String {
    let mut out = String::with_capacity(doc.text.len() / 2);
    let mut prev: Option<(&Segment, Kind)> = None;
    // The `<blockquote>` of the last block, if written as a quotation.
    let mut prev_quote: Option<u32> = None;
    let mut table_rows = 0usize;
    let mut row_cells = 0usize;
    let base = match links {
        Links::Inline => base_url(doc),
        Links::TextOnly => None,
    };
    // The link element whose `[` is open, and its target.
    let mut open_link: Option<(u32, String)> = None;
    // The inline code element whose backtick is open, and where that backtick is in `out`;
    // and the last code element left unmarked (see below).
    let mut open_code: Option<(u32, usize)> = None;
    let mut unmarked: Option<u32> = None;
    let mut cursor = 0;
    for (i, (s, _)) in doc
        .segments
        .iter()
        .zip(keep)
        .enumerate()
        .filter(|(_, (s, &k))| k && !s.hidden)
    {
        let (kind, inline) = kind_of(doc, s);
        let quote = quote_of(kind, inline);
        let pre_line = doc.pre_line_at(i, &mut cursor);
        let link = match links {
            Links::Inline if s.link && !matches!(kind, Kind::Code(..)) => link_of(doc, s),
            _ => None,
        };
        let text = doc.seg_text(s);
        // Inline code between backticks, unless its text has one (it would end the span).
        let code = inline
            .code
            .filter(|_| !matches!(kind, Kind::Code(..)) && !text.contains('`'));
        let same_block = prev.is_some_and(|(p, _)| p.block == s.block);
        let link_ends = open_link
            .as_ref()
            .is_some_and(|(e, _)| link != Some(*e) || !same_block);
        // A code span closes inside the link it opened in. A backtick between two word
        // characters would split a word in two ("<code>foo</code>bar" is the one word
        // "foobar" in the plain text): such a span is left unmarked, its opening backtick
        // taken out again.
        if let Some((e, at)) = open_code {
            if Some(e) != code || !same_block || link_ends {
                let glued = same_block
                    && prev.is_some_and(|(p, _)| !s.spaced_from(p))
                    && out.ends_with(is_word_char)
                    && text.starts_with(is_word_char);
                if glued {
                    out.remove(at);
                    unmarked = Some(e);
                } else {
                    out.push('`');
                }
                open_code = None;
            }
        }
        if let Some((_, url)) = open_link.as_ref().filter(|_| link_ends) {
            close_link(&mut out, url);
            open_link = None;
        }
        match prev {
            Some((p, _)) if p.block == s.block => {
                // Same block: as the plain text joins it, except code keeps its lines.
                if matches!(kind, Kind::Code(..)) && (p.line != s.line || pre_line.is_some()) {
                    out.push('\n');
                } else if s.spaced_from(p) {
                    out.push(' ');
                }
            }
            Some((_, pk)) => {
                close(&mut out, pk, kind, &mut table_rows, &mut row_cells);
                let quotes = (prev_quote, quote);
                open(&mut out, pk, kind, quotes, &mut table_rows, &mut row_cells);
            }
            None => open_first(&mut out, kind, quote, &mut table_rows, &mut row_cells),
        }
        prev_quote = quote;
        // A line of code keeps its indentation (a table cell's text is one line).
        if let (Kind::Code(..), Some(l)) = (kind, pre_line) {
            out.push_str(doc.indent(l));
        }
        if let Some(e) = link.filter(|_| open_link.is_none()) {
            if let Some(url) = doc.href(e).and_then(|h| resolve(base.as_deref(), h)) {
                out.push('[');
                open_link = Some((e, url));
            }
        }
        if let Some(e) = code.filter(|&e| open_code.is_none() && unmarked != Some(e)) {
            if out.ends_with(is_word_char) && text.starts_with(is_word_char) {
                unmarked = Some(e);
            } else {
                open_code = Some((e, out.len()));
                out.push('`');
            }
        }
        out.push_str(text);
        prev = Some((s, kind));
    }
    if open_code.is_some() {
        out.push('`');
    }
    if let Some((_, url)) = &open_link {
        close_link(&mut out, url);
    }
    if let Some((_, pk)) = prev {
        close(
            &mut out,
            pk,
            Kind::Paragraph,
            &mut table_rows,
            &mut row_cells,
        );
    }
    out
}

/// A character of a word as the scorers count words (`\w`: letters, digits and the
/// underscore).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Ends an open link: `](url)`, with the characters that would end the target early (space,
/// parentheses, angle brackets) percent-encoded and control characters dropped.
fn close_link(out: &mut String, url: &str) {
    out.push_str("](");
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push(')');
}

/// The innermost link element ([`crate::doc::Element::link`]) around segment `s`.
fn link_of(doc: &Doc, s: &Segment) -> Option<u32> {
    let mut i = s.element as usize;
    for _ in 0..MAX_ANCESTORS {
        let e = doc.elements.get(i)?;
        if e.link {
            return Some(i as u32);
        }
        if i == 0 || e.parent as usize == i {
            break;
        }
        i = e.parent as usize;
    }
    None
}

/// The URL relative links resolve against: `<base href>` (itself resolved against the
/// page's URL), else the page's URL; `None` when neither is absolute.
fn base_url(doc: &Doc) -> Option<String> {
    let page = doc.url.as_deref().filter(|u| scheme_len(u).is_some());
    match doc.base.as_deref().filter(|b| !b.is_empty()) {
        Some(b) => resolve(page, b).filter(|u| scheme_len(u).is_some()),
        None => page.map(str::to_owned),
    }
}

/// Length of `url`'s scheme (`https` in `https://…`), when it starts with one.
fn scheme_len(url: &str) -> Option<usize> {
    let colon = url.find(':')?;
    let scheme = url.get(..colon)?;
    let mut chars = scheme.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    ok.then_some(colon)
}

/// The target of a link `href`, resolved against `base` (RFC 3986 section 5.2, with
/// dot-segment removal); `None` for a target that is no place to go (empty, fragment only,
/// `javascript:`, `vbscript:`, `data:`). Without a base a relative target is kept as is.
pub fn resolve(base: Option<&str>, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    if let Some(n) = scheme_len(href) {
        let scheme = href.get(..n).unwrap_or("");
        let bad = ["javascript", "vbscript", "data"];
        return (!bad.iter().any(|b| scheme.eq_ignore_ascii_case(b))).then(|| href.to_owned());
    }
    let Some(base) = base else {
        return Some(href.to_owned());
    };
    let n = scheme_len(base)?;
    let (scheme, rest) = base.split_at(n + 1);
    if href.starts_with("//") {
        return Some(format!("{scheme}{href}"));
    }
    // Authority: after "//" up to the first '/', '?' or '#'.
    let (authority, path_etc) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?', '#']).unwrap_or(r.len());
            (&rest[..end + 2], &r[end..])
        }
        None => ("", rest),
    };
    let path_end = path_etc.find(['?', '#']).unwrap_or(path_etc.len());
    let base_path = &path_etc[..path_end];
    let origin = format!("{scheme}{authority}");
    if let Some(q) = href.strip_prefix('?') {
        return Some(format!("{origin}{base_path}?{q}"));
    }
    let (path, tail) = match href.find(['?', '#']) {
        Some(i) => href.split_at(i),
        None => (href, ""),
    };
    let merged = if path.starts_with('/') {
        path.to_owned()
    } else {
        let dir = match base_path.rfind('/') {
            Some(i) => &base_path[..=i],
            None if authority.is_empty() => "",
            None => "/",
        };
        format!("{dir}{path}")
    };
    Some(format!("{origin}{}{tail}", remove_dot_segments(&merged)))
}

/// RFC 3986's remove_dot_segments on a path.
fn remove_dot_segments(path: &str) -> String {
    if !path.split('/').any(|s| s == "." || s == "..") {
        return path.to_owned();
    }
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = path.split('/').collect();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        match *seg {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 || out.first().is_some_and(|f| !f.is_empty()) {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    if path.starts_with('/') && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

/// `md` with each inline link written as its text alone (`[a b](https://x/y) c` gives
/// `a b c`), so that what reads the text (the language detector) reads the words, not the
/// URLs. Text without links is returned as it is.
pub fn without_link_targets(md: &str) -> std::borrow::Cow<'_, str> {
    if !md.contains("](") {
        return std::borrow::Cow::Borrowed(md);
    }
    let mut out = String::with_capacity(md.len());
    let mut rest = md;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find([')', ' ', '\n']) {
            Some(j) if after.as_bytes()[j] == b')' => {
                let before = &rest[..i];
                match opening_bracket(before) {
                    Some(k) => {
                        out.push_str(&before[..k]);
                        out.push_str(&before[k + 1..]);
                    }
                    None => out.push_str(before),
                }
                rest = &after[j + 1..];
            }
            _ => {
                out.push_str(&rest[..i + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The `[` that opens the link whose text ends `before`: the last one not matched by a `]`
/// after it (so `[a [b]` gives the first).
fn opening_bracket(before: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in before.bytes().enumerate().rev() {
        match b {
            b']' => depth += 1,
            b'[' if depth == 0 => return Some(i),
            b'[' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Ends the block of kind `pk` before one of kind `next`.
fn close(out: &mut String, pk: Kind, next: Kind, rows: &mut usize, cells: &mut usize) {
    match pk {
        Kind::Cell(row, table) => {
            let same_row = matches!(next, Kind::Cell(r, _) if r == row);
            if same_row {
                return;
            }
            out.push_str(" |");
            *rows += 1;
            if *rows == 1 {
                out.push('\n');
                out.push_str(&"| --- ".repeat((*cells).max(1)));
                out.push('|');
            }
            if !matches!(next, Kind::Cell(_, t) if t == table) {
                *rows = 0;
            }
            *cells = 0;
        }
        Kind::Code(pre, _) if !matches!(next, Kind::Code(p, _) if p == pre) => {
            out.push_str("\n```");
        }
        _ => {}
    }
}

/// The quotation a block of kind `kind` is written in: paragraphs and list items in a
/// `<blockquote>` (a heading, table or code block in one is written as it is: their marks
/// would need `> ` on every line).
fn quote_of(kind: Kind, inline: Inline) -> Option<u32> {
    inline
        .quote
        .filter(|_| matches!(kind, Kind::Paragraph | Kind::Item(..)))
}

/// Starts the block of kind `kind` after one of kind `pk`; `quotes` are the quotations of
/// the two ([`quote_of`]).
fn open(
    out: &mut String,
    pk: Kind,
    kind: Kind,
    quotes: (Option<u32>, Option<u32>),
    rows: &mut usize,
    cells: &mut usize,
) {
    let tight = match (pk, kind) {
        (Kind::Item(..), Kind::Item(..)) => true,
        (Kind::Cell(_, a), Kind::Cell(_, b)) => a == b,
        (Kind::Code(a, _), Kind::Code(b, _)) => a == b,
        _ => false,
    };
    match (pk, kind) {
        (Kind::Cell(r1, _), Kind::Cell(r2, _)) if r1 == r2 => {
            out.push_str(" | ");
            *cells += 1;
            return;
        }
        (Kind::Code(a, _), Kind::Code(b, _)) if a == b => {
            out.push('\n');
            return;
        }
        _ => {}
    }
    match quotes {
        // Two blocks of one quotation: a `>` line between them keeps it one.
        (Some(a), Some(b)) if a == b && !tight => out.push_str("\n>\n"),
        _ => out.push_str(if tight { "\n" } else { "\n\n" }),
    }
    open_first(out, kind, quotes.1, rows, cells);
}

/// The mark that opens a block of kind `kind` (after `> ` in a quotation).
fn open_first(
    out: &mut String,
    kind: Kind,
    quote: Option<u32>,
    rows: &mut usize,
    cells: &mut usize,
) {
    if quote.is_some() {
        out.push_str("> ");
    }
    match kind {
        Kind::Paragraph => {}
        Kind::Heading(level) => {
            for _ in 0..level {
                out.push('#');
            }
            out.push(' ');
        }
        Kind::Item(indent, ordered, _) => {
            for _ in 0..indent {
                out.push(' ');
            }
            out.push_str(if ordered { "1. " } else { "- " });
        }
        Kind::Cell(..) => {
            out.push_str("| ");
            *cells = 1;
            let _ = rows;
        }
        Kind::Code(_, lang) => {
            out.push_str("```");
            out.push_str(lang.unwrap_or(""));
            out.push('\n');
        }
    }
}

/// What encloses a segment besides its block's kind.
#[derive(Debug, Clone, Copy, Default)]
struct Inline {
    /// The innermost `<code>`, `<kbd>` or `<samp>` (inline code: written between backticks).
    code: Option<u32>,
    /// The innermost `<blockquote>` (a paragraph or list item in it is written after `> `).
    quote: Option<u32>,
}

/// What encloses segment `s`: the innermost heading, `<pre>`, table cell or list item, and
/// the inline code and quotation around it ([`Inline`]; looked for below a heading, a table
/// and a `<pre>` only as far as those).
fn kind_of(doc: &Doc, s: &Segment) -> (Kind, Inline) {
    let mut i = s.element as usize;
    let mut cell = false;
    let mut row = None;
    let mut item: Option<u32> = None;
    // List items above the block, and whether the last one's list is yet to be seen: an
    // enclosing item indents the block by the width of its mark ("- " 2, "1. " 3).
    let mut items = 0usize;
    let mut awaiting_list = false;
    let mut indent = 0usize;
    let mut ordered = None;
    let mut code_lang: Option<&'static str> = None;
    let mut inline = Inline::default();
    for _ in 0..MAX_ANCESTORS {
        let Some(e) = doc.elements.get(i) else { break };
        match e.tag {
            t if t.is_heading() && !cell && item.is_none() => {
                return (Kind::Heading(t.heading_level().unwrap_or(6)), inline);
            }
            Tag::Code | Tag::Kbd | Tag::Samp => {
                inline.code.get_or_insert(i as u32);
                if e.tag == Tag::Code {
                    code_lang = code_lang.or_else(|| lang_of(doc.ident(e)));
                }
            }
            Tag::Pre if !cell => {
                let lang = code_lang.or_else(|| lang_of(doc.ident(e)));
                return (Kind::Code(i as u32, lang), inline);
            }
            Tag::Blockquote => {
                inline.quote.get_or_insert(i as u32);
            }
            Tag::Td | Tag::Th if item.is_none() => cell = true,
            Tag::Tr if cell && row.is_none() => row = Some(i as u32),
            Tag::Table if cell => {
                return (Kind::Cell(row.unwrap_or(i as u32), i as u32), inline);
            }
            Tag::Li if !cell => {
                item.get_or_insert(i as u32);
                if awaiting_list {
                    // The item below had no list of its own: it is written as "- ".
                    if items == 1 {
                        ordered = Some(false);
                    } else {
                        indent += 2;
                    }
                }
                items += 1;
                awaiting_list = true;
            }
            Tag::Ol | Tag::Ul if awaiting_list => {
                awaiting_list = false;
                let ol = e.tag == Tag::Ol;
                if items == 1 {
                    ordered = Some(ol);
                } else {
                    indent += if ol { 3 } else { 2 };
                }
            }
            _ => {}
        }
        if i == 0 || e.parent as usize == i {
            break;
        }
        i = e.parent as usize;
    }
    if awaiting_list && items > 1 {
        indent += 2;
    }
    let kind = match item {
        Some(li) => Kind::Item(indent, ordered.unwrap_or(false), li),
        None => Kind::Paragraph,
    };
    (kind, inline)
}

/// The code language named by a `language-x`, `lang-x` or `highlight-source-x` class word,
/// when it is one of [`CODE_LANGS`].
fn lang_of(ident: &str) -> Option<&'static str> {
    let name = ident.split_whitespace().find_map(|w| {
        w.strip_prefix("language-")
            .or_else(|| w.strip_prefix("lang-"))
            .or_else(|| w.strip_prefix("highlight-source-"))
    })?;
    CODE_LANGS.iter().copied().find(|l| *l == name)
}

/// Code languages written after a fence (the common highlighter class names).
const CODE_LANGS: &[&str] = &[
    "bash",
    "c",
    "clojure",
    "cpp",
    "csharp",
    "css",
    "dart",
    "diff",
    "dockerfile",
    "elixir",
    "erlang",
    "go",
    "graphql",
    "haskell",
    "html",
    "ini",
    "java",
    "javascript",
    "js",
    "json",
    "julia",
    "kotlin",
    "latex",
    "lua",
    "makefile",
    "markdown",
    "matlab",
    "nginx",
    "objectivec",
    "ocaml",
    "perl",
    "php",
    "plaintext",
    "powershell",
    "python",
    "py",
    "r",
    "ruby",
    "rust",
    "scala",
    "scss",
    "shell",
    "sh",
    "sql",
    "swift",
    "text",
    "toml",
    "ts",
    "tsx",
    "typescript",
    "xml",
    "yaml",
    "yml",
    "zsh",
    "console",
    "jsx",
    "vue",
    "svelte",
];

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn md(html: &str) -> String {
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        render(&doc, &keep, Links::TextOnly)
    }

    fn md_links(html: &str, url: Option<&str>) -> String {
        let limits = crate::doc::Limits {
            hrefs: true,
            ..crate::doc::Limits::default()
        };
        let mut doc = Doc::parse_with(html, limits);
        doc.url = url.map(str::to_owned);
        let keep = vec![true; doc.segments.len()];
        render(&doc, &keep, Links::Inline)
    }

    /// The words of `md` without its marks, in order.
    fn words(md: &str) -> Vec<String> {
        let is_mark = |w: &str| {
            let all = |c: char| !w.is_empty() && w.chars().all(|x| x == c);
            (all('#') && w.len() <= 6)
                || w == "-"
                || w == "|"
                || (all('-') && w.len() >= 3)
                || w.strip_suffix('.')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        // Then the words as the scorers count them (runs of `\w`), so that the backticks
        // of inline code and the `>` of a quotation, which add no word, are no word.
        without_link_targets(md)
            .split_whitespace()
            .map(|w| w.trim_matches('`'))
            .filter(|w| !w.is_empty() && !is_mark(w))
            .flat_map(|w| w.split(|c: char| !is_word_char(c)))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn links_are_written_with_resolved_targets() {
        let html = "<html><head><title>t</title></head><body>\
            <h2><a href=\"/news\">News</a></h2>\
            <p>See <a href=\"a/b.html?x=1#top\">the <b>report</b></a>, \
            <a href=\"javascript:void(0)\">this</a> and <a href=\"#note\">that</a>.</p>\
            <ul><li><a href=\"https://other.org/p (1)\">Other</a></li></ul>\
            <pre><a href=\"/x\">code</a></pre></body></html>";
        let got = md_links(html, Some("https://example.com/dir/page.html"));
        assert_eq!(
            got,
            "## [News](https://example.com/news)\n\n\
             See [the report](https://example.com/dir/a/b.html?x=1#top), this and that.\n\n\
             - [Other](https://other.org/p%20%281%29)\n\n```\ncode\n```"
        );
        // Without --links: the text only, as before.
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        assert!(!render(&doc, &keep, Links::TextOnly).contains("]("));
        assert!(!md(html).contains('['));
    }

    #[test]
    fn base_href_and_pages_without_url() {
        let html = "<head><base href=\"https://cdn.example.net/docs/\"></head>\
            <p><a href=\"../guide/\">Guide</a> <a href=\"./x\">X</a></p>";
        assert_eq!(
            md_links(html, Some("https://example.com/")),
            "[Guide](https://cdn.example.net/guide/) [X](https://cdn.example.net/docs/x)"
        );
        let html = "<p><a href=\"rel/page\">Rel</a> <a href=\"//h.org/a\">Abs</a></p>";
        assert_eq!(md_links(html, None), "[Rel](rel/page) [Abs](//h.org/a)");
    }

    #[test]
    fn resolves_like_rfc_3986() {
        let base = Some("http://a/b/c/d;p?q");
        for (href, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("g#s", "http://a/b/c/g#s"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("mailto:x@y.z", "mailto:x@y.z"),
        ] {
            assert_eq!(resolve(base, href).as_deref(), Some(want), "{href}");
        }
        for bad in [
            "",
            "  ",
            "#top",
            "javascript:go()",
            "JavaScript:x",
            "data:text/html,x",
        ] {
            assert_eq!(resolve(base, bad), None, "{bad:?}");
        }
        assert_eq!(
            resolve(Some("https://h.org"), "p").as_deref(),
            Some("https://h.org/p")
        );
    }

    #[test]
    fn link_targets_leave_the_words_alone() {
        assert_eq!(without_link_targets("no links [here]"), "no links [here]");
        assert_eq!(
            without_link_targets("# [A b](https://x/y) c [d](e)."),
            "# A b c d."
        );
        assert_eq!(without_link_targets("x [a [b]](u) [[c]](v)"), "x a [b] [c]");
        let html = "<h2><a href=\"/a\">A</a> x</h2><p>b <a href=\"/c\"><i>c</i> d</a>e</p>\
            <ul><li><a href=\"/d\">d</a></li></ul><table><tr><td><a href=\"t\">e</a></td>\
            <td>f</td></tr></table><pre>g\nh</pre><p><a href=\"/s\">split\nacross</a> lines</p>";
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        let plain = crate::extract::render(&doc, &keep);
        let md = md_links(html, Some("https://example.com/"));
        assert!(md.contains("](https://example.com/a)"), "{md}");
        assert_eq!(words(&md), plain.split_whitespace().collect::<Vec<_>>());
    }

    #[test]
    fn headings_lists_tables_and_code() {
        let got = md("<h1>Title</h1><p>One <b>bold</b> word.</p><h2>Part</h2>\
            <ul><li>a</li><li>b<ul><li>b1</li></ul></li></ul><ol><li>first</li></ol>\
            <table><tr><th>k</th><th>v</th></tr><tr><td>x</td><td>1</td></tr></table>\
            <pre><code class=\"language-rust\">fn main() {\n    go();\n}</code></pre><p>End.</p>");
        assert_eq!(
            got,
            "# Title\n\nOne bold word.\n\n## Part\n\n- a\n- b\n  - b1\n1. first\n\n\
             | k | v |\n| --- | --- |\n| x | 1 |\n\n```rust\nfn main() {\n    go();\n}\n```\n\nEnd."
        );
    }

    #[test]
    fn quotations_and_inline_code() {
        // A quotation's paragraphs stay one quotation; its list items are quoted too; a
        // heading in one is written as a heading.
        assert_eq!(
            md(
                "<p>Before.</p><blockquote><p>One.</p><p>Two.</p><ul><li>i</li></ul>\
                <h3>H</h3></blockquote><p>After.</p>"
            ),
            "Before.\n\n> One.\n>\n> Two.\n>\n> - i\n\n### H\n\nAfter."
        );
        // Inline code (`code`, `kbd`, `samp`) between backticks, over the runs it spans,
        // inside a link's brackets and in headings; not inside a fenced block.
        assert_eq!(
            md("<h2>The <code>spawn</code> function</h2><p>Run <code>cargo <b>build</b></code>, \
                press <kbd>Ctrl</kbd>+<kbd>C</kbd>.</p><pre><code>let x = 1;</code></pre>"),
            "## The `spawn` function\n\nRun `cargo build`, press `Ctrl`+`C`.\n\n```\nlet x = 1;\n```"
        );
        assert_eq!(
            md_links(
                "<p>See <a href=\"/s\"><code>spawn</code></a> now.</p>",
                None
            ),
            "See [`spawn`](/s) now."
        );
        // A backtick between two word characters would split a word of the plain text:
        // such a span stays unmarked, and so does code holding a backtick.
        assert_eq!(
            md("<p>A <code>foo</code>bar, x<code>y</code> and <code>a`b</code> here.</p>"),
            "A foobar, xy and a`b here."
        );
    }

    #[test]
    fn nested_items_sit_under_their_parents_text() {
        // CommonMark nests an item only when it is indented to its parent's text: two
        // spaces under "- ", three under "1. ".
        let html = "<ol><li>one<ul><li>under one<ol><li>deeper</li></ol></li></ul></li></ol>\
                    <ul><li>a<ol><li>under a</li></ol></li></ul>";
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        assert_eq!(
            render(&doc, &keep, Links::TextOnly),
            "1. one\n   - under one\n     1. deeper\n- a\n  1. under a"
        );
    }

    #[test]
    fn same_words_as_the_plain_text() {
        let html = "<h2>A</h2><p>b <i>c</i></p><ul><li>d</li></ul><table><tr><td>e</td><td>f</td></tr></table><pre>g\nh</pre>";
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        let plain = crate::extract::render(&doc, &keep);
        let marks = ["#", "##", "-", "|", "---", "```", "1."];
        let md = render(&doc, &keep, Links::TextOnly);
        let words: Vec<&str> = md
            .split_whitespace()
            .map(|w| w.trim_start_matches("```"))
            .filter(|w| !w.is_empty() && !marks.contains(w))
            .collect();
        assert_eq!(words, plain.split_whitespace().collect::<Vec<_>>());
    }

    /// A random page from the markup Markdown writes (headings, nested lists, tables,
    /// code, quotes, links, inline marks, line breaks) around words and the characters
    /// Markdown gives a meaning to.
    fn page() -> impl Strategy<Value = String> {
        let word = "[a-zA-Z0-9]{1,6}|[*_`#|\\-]|1\\.|&amp;|&lt;|\u{e9}t\u{e9}";
        let leaf = proptest::collection::vec(word, 0..4).prop_map(|w| w.join(" "));
        leaf.prop_recursive(4, 48, 4, |inner| {
            let tag = prop_oneof![
                Just(("h1", "")),
                Just(("h3", "")),
                Just(("p", "")),
                Just(("ul", "li")),
                Just(("ol", "li")),
                Just(("blockquote", "")),
                Just(("pre", "")),
                Just(("code", "")),
                Just(("a", "")),
                Just(("b", "")),
                Just(("i", "")),
                Just(("div", "")),
                Just(("table", "tr")),
                Just(("tr", "td")),
                Just(("td", "")),
                Just(("span", "")),
            ];
            (tag, proptest::collection::vec(inner, 0..4), any::<bool>()).prop_map(
                |((outer, item), kids, br)| {
                    let attrs = match outer {
                        "a" => " href=\"/x y?z=1\"",
                        "pre" | "code" => " class=\"language-rust\"",
                        _ => "",
                    };
                    let body: String = kids
                        .iter()
                        .map(|k| match item {
                            "" => format!("{k}{}", if br { "<br>" } else { " " }),
                            _ => format!("<{item}>{k}</{item}>"),
                        })
                        .collect();
                    format!("<{outer}{attrs}>{body}</{outer}>")
                },
            )
        })
    }

    /// [`words`], without the fence lines (and the language they name) of code blocks.
    fn fenced_words(md: &str) -> Vec<String> {
        let unfenced: Vec<&str> = md
            .lines()
            .filter(|l| !l.trim_start().starts_with("```"))
            .collect();
        words(&unfenced.join("\n"))
    }

    proptest! {
        /// `--markdown` writes the plain text's words, in order, whatever the markup, the
        /// blocks kept and the way links are written (the module's promise, on which every
        /// quality figure for Markdown rests).
        #[test]
        fn markdown_has_the_plain_texts_words(
            html in page(),
            keep_seed in any::<u64>(),
            inline in any::<bool>(),
        ) {
            let limits = crate::doc::Limits { hrefs: true, ..crate::doc::Limits::default() };
            let mut doc = Doc::parse_with(&html, limits);
            doc.url = Some("https://example.com/a/b".to_string());
            let keep: Vec<bool> = (0..doc.segments.len())
                .map(|i| keep_seed.rotate_left(i as u32 % 64) & 1 == 1 || keep_seed % 3 == 0)
                .collect();
            let plain = crate::extract::render(&doc, &keep);
            let links = if inline { Links::Inline } else { Links::TextOnly };
            let md = render(&doc, &keep, links);
            // A word that is one of Markdown's marks ("-", "#") is left out on both sides:
            // `words` cannot tell it from a mark.
            prop_assert_eq!(fenced_words(&md), words(&plain), "markdown {:?}", md);
        }
    }
}
