//! `--markdown`: the kept text as GitHub-flavoured Markdown, with the same words as the
//! plain text ([`crate::extract::render`]).
//!
//! Takes the page's [`Doc`] and a method's selection; gives Markdown where each kept block
//! is marked by what encloses it in the page:
//!
//! - `<h1>`…`<h6>`: `#` … `######` headings;
//! - `<li>`: `- ` items (`1. ` in an `<ol>`), indented two spaces per enclosing list item;
//! - table cells: one `| a | b |` line per `<tr>`, a `| --- |` line after the table's first
//!   row;
//! - `<pre>`: a fenced block, its source lines kept as lines, with the language from a
//!   `language-x` / `lang-x` class of the `<pre>` or its `<code>`;
//! - anything else: a paragraph. Blocks are separated by a blank line, items and rows of one
//!   list or table by a line break.
//!
//! Link text only (no URLs: the `Doc` keeps none). Markup characters in the text are not
//! escaped, so the words stay exactly those of the plain text; only the marks and line
//! breaks are added.

use crate::doc::{Doc, Segment};
use crate::tokenize::Tag;

/// Ancestors looked at per segment at most (deeper markup is rare; the bound keeps a
/// pathological page linear).
const MAX_ANCESTORS: usize = 64;

/// What encloses a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Paragraph,
    Heading(u8),
    /// Nesting depth (1 = top level), ordered, the `<li>` element.
    Item(usize, bool, u32),
    /// The `<tr>` element and the `<table>` element.
    Cell(u32, u32),
    /// The `<pre>` element and its code language.
    Code(u32, Option<&'static str>),
}

/// The kept segments of `doc` as Markdown (see the module doc).
pub fn render(doc: &Doc, keep: &[bool]) -> String {
    let mut out = String::with_capacity(doc.text.len() / 2);
    let mut prev: Option<(&Segment, Kind)> = None;
    let mut table_rows = 0usize;
    let mut row_cells = 0usize;
    for (s, _) in doc
        .segments
        .iter()
        .zip(keep)
        .filter(|(s, &k)| k && !s.hidden)
    {
        let kind = kind_of(doc, s);
        match prev {
            Some((p, _)) if p.block == s.block => {
                // Same block: as the plain text joins it, except code keeps its lines.
                if matches!(kind, Kind::Code(..)) && p.line != s.line {
                    out.push('\n');
                } else if p.space_after || s.space_before || p.line != s.line {
                    out.push(' ');
                }
            }
            Some((_, pk)) => {
                close(&mut out, pk, kind, &mut table_rows, &mut row_cells);
                open(&mut out, pk, kind, &mut table_rows, &mut row_cells);
            }
            None => open_first(&mut out, kind, &mut table_rows, &mut row_cells),
        }
        out.push_str(doc.seg_text(s));
        prev = Some((s, kind));
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

/// Starts the block of kind `kind` after one of kind `pk`.
fn open(out: &mut String, pk: Kind, kind: Kind, rows: &mut usize, cells: &mut usize) {
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
    out.push_str(if tight { "\n" } else { "\n\n" });
    open_first(out, kind, rows, cells);
}

/// The mark that opens a block of kind `kind`.
fn open_first(out: &mut String, kind: Kind, rows: &mut usize, cells: &mut usize) {
    match kind {
        Kind::Paragraph => {}
        Kind::Heading(level) => {
            for _ in 0..level {
                out.push('#');
            }
            out.push(' ');
        }
        Kind::Item(depth, ordered, _) => {
            for _ in 1..depth {
                out.push_str("  ");
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

/// What encloses segment `s`: the innermost heading, `<pre>`, table cell or list item.
fn kind_of(doc: &Doc, s: &Segment) -> Kind {
    let mut i = s.element as usize;
    let mut cell = false;
    let mut row = None;
    let mut item: Option<u32> = None;
    let mut depth = 0usize;
    let mut ordered = None;
    let mut code_lang: Option<&'static str> = None;
    for _ in 0..MAX_ANCESTORS {
        let Some(e) = doc.elements.get(i) else { break };
        match e.tag {
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
                if !cell && item.is_none() =>
            {
                let level = match e.tag {
                    Tag::H1 => 1,
                    Tag::H2 => 2,
                    Tag::H3 => 3,
                    Tag::H4 => 4,
                    Tag::H5 => 5,
                    _ => 6,
                };
                return Kind::Heading(level);
            }
            Tag::Code => code_lang = code_lang.or_else(|| lang_of(doc.ident(e))),
            Tag::Pre if !cell => {
                let lang = code_lang.or_else(|| lang_of(doc.ident(e)));
                return Kind::Code(i as u32, lang);
            }
            Tag::Td | Tag::Th if item.is_none() => cell = true,
            Tag::Tr if cell && row.is_none() => row = Some(i as u32),
            Tag::Table if cell => {
                return Kind::Cell(row.unwrap_or(i as u32), i as u32);
            }
            Tag::Li if !cell => {
                item.get_or_insert(i as u32);
                depth += 1;
            }
            Tag::Ol | Tag::Ul if item.is_some() && ordered.is_none() => {
                ordered = Some(e.tag == Tag::Ol);
            }
            _ => {}
        }
        if i == 0 || e.parent as usize == i {
            break;
        }
        i = e.parent as usize;
    }
    match item {
        Some(li) => Kind::Item(depth, ordered.unwrap_or(false), li),
        None => Kind::Paragraph,
    }
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

    fn md(html: &str) -> String {
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        render(&doc, &keep)
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
             | k | v |\n| --- | --- |\n| x | 1 |\n\n```rust\nfn main() {\ngo();\n}\n```\n\nEnd."
        );
    }

    #[test]
    fn same_words_as_the_plain_text() {
        let html = "<h2>A</h2><p>b <i>c</i></p><ul><li>d</li></ul><table><tr><td>e</td><td>f</td></tr></table><pre>g\nh</pre>";
        let doc = Doc::parse(html);
        let keep = vec![true; doc.segments.len()];
        let plain = crate::extract::render(&doc, &keep);
        let marks = ["#", "##", "-", "|", "---", "```", "1."];
        let md = render(&doc, &keep);
        let words: Vec<&str> = md
            .split_whitespace()
            .map(|w| w.trim_start_matches("```"))
            .filter(|w| !w.is_empty() && !marks.contains(w))
            .collect();
        assert_eq!(words, plain.split_whitespace().collect::<Vec<_>>());
    }
}
