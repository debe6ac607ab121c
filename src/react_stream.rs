//! Pages that React streams from the server, put in order before they are tokenized.
//!
//! React's streaming renderer (`renderToPipeableStream`, the default of Next.js's App Router
//! and of Remix) sends the shell of a page first, with a placeholder where a part is still
//! loading, and the part itself later in the same response:
//!
//! ```html
//! <!--$?--><template id="B:0"></template><p>Loading…</p><!--/$-->   (boundary, fallback)
//! …
//! <div hidden id="S:0"><ul><li>Hand-applied nail trim</li></ul></div>
//! <script>$RC("B:0","S:0")</script>                                  (complete boundary)
//! ```
//!
//! A browser runs `$RC`, which swaps the fallback for the segment; `$RS("S:1","P:1")` moves a
//! segment into a bare `<template id="P:1">` the same way. A crawler that runs no script
//! receives all of it, with the page's own text (a store's specifications, a thread's posts)
//! in hidden `<div>`s at the end of the body, away from the sidebar or column it belongs in.
//! [`resolve`] does what those two calls do, on the bytes, so every method sees the page as a
//! reader does: each segment in its place, fallbacks gone. Pages without streamed segments
//! are returned as they are, after one substring search.
//!
//! Segments that no call places stay where they are; [`crate::doc`] still reads them as
//! visible.

use memchr::memmem;
use std::borrow::Cow;
use std::collections::HashMap;

/// The start of a streamed segment, as React writes it.
const SEGMENT: &[u8] = b"<div hidden id=\"S:";
/// Placements followed at most: a page with more is machine-made beyond any reader.
const MAX_MOVES: usize = 4096;
/// Segments inside segments followed at most (a cycle of placements ends here too).
const MAX_DEPTH: usize = 16;

/// The page with its streamed segments moved into their placeholders, or the page itself
/// when it has none (or they cannot be placed safely).
pub fn resolve(html: &str) -> Cow<'_, str> {
    let b = html.as_bytes();
    if memmem::find(b, SEGMENT).is_none() {
        return Cow::Borrowed(html);
    }
    let segments = segments(b);
    let moves = moves(b);
    if segments.is_empty() || moves.is_empty() {
        return Cow::Borrowed(html);
    }
    // Placeholder id → segment id, and every byte range that leaves its place.
    let mut cut: Vec<(usize, usize)> = Vec::new();
    let mut place: HashMap<usize, (&str, usize)> = HashMap::new();
    let templates = templates(b);
    for (target, seg) in &moves {
        let Some(s) = segments.get(seg) else {
            continue;
        };
        let Some((at, end)) = templates
            .get(target.as_str())
            .and_then(|&at| placeholder(b, at, target))
        else {
            continue;
        };
        // A placeholder inside the segment it receives would loop.
        if at >= s.outer.0 && at < s.outer.1 {
            continue;
        }
        place.insert(at, (seg.as_str(), end));
        cut.push(s.outer);
    }
    if place.is_empty() {
        return Cow::Borrowed(html);
    }
    cut.sort_unstable();
    let mut out = String::with_capacity(html.len());
    let mut budget = MAX_MOVES;
    let all = Placing {
        html,
        segments: &segments,
        place: &place,
        cut: &cut,
        limit: html.len().saturating_mul(2),
    };
    all.emit((0, html.len()), 0, 0, &mut out, &mut budget);
    Cow::Owned(out)
}

/// One streamed segment: the whole `<div>…</div>` and its content.
struct Segment {
    outer: (usize, usize),
    inner: (usize, usize),
}

/// What moves where.
struct Placing<'a> {
    html: &'a str,
    segments: &'a HashMap<String, Segment>,
    /// Placeholder start → (segment id, where the copy resumes).
    place: &'a HashMap<usize, (&'a str, usize)>,
    /// Moved segments' byte ranges, sorted.
    cut: &'a [(usize, usize)],
    /// Output bytes at most: a segment that many calls place is copied while the page
    /// stays under twice its size.
    limit: usize,
}

impl Placing<'_> {
    /// Copies `range` of the page to `out`, leaving out moved segments and putting each placed
    /// segment's content where its placeholder was (recursively: segments hold placeholders).
    ///
    /// `reserve` is what the callers will still copy once this returns, at most. Called with
    /// `out.len() + (range length) + reserve <= limit`, it returns with `out.len() + reserve
    /// <= limit`: a segment is placed only when its content, the rest of this range and the
    /// reserve all fit, so the output never passes `limit`.
    fn emit(
        &self,
        range: (usize, usize),
        depth: usize,
        reserve: usize,
        out: &mut String,
        budget: &mut usize,
    ) {
        let html = self.html;
        let (mut i, end) = range;
        let mut events: Vec<(usize, Event)> = self
            .place
            .iter()
            .filter(|(at, _)| **at >= i && **at < end)
            .map(|(at, (seg, skip))| (*at, Event::Place(seg, *skip)))
            .chain(
                self.cut
                    .iter()
                    .filter(|(a, _)| *a >= i && *a < end)
                    .map(|&(a, b)| (a, Event::Cut(b))),
            )
            .collect();
        events.sort_unstable_by_key(|(at, _)| *at);
        for (at, ev) in events {
            if at < i {
                continue; // inside a range already skipped
            }
            out.push_str(html.get(i..at).unwrap_or(""));
            match ev {
                Event::Cut(to) => i = to.min(end),
                Event::Place(seg, to) => {
                    if let Some(s) = self.segments.get(seg) {
                        let after = end.saturating_sub(to) + reserve;
                        let fits = out.len() + (s.inner.1 - s.inner.0) + after <= self.limit;
                        if *budget > 0 && depth < MAX_DEPTH && fits {
                            *budget -= 1;
                            self.emit(s.inner, depth + 1, after, out, budget);
                        }
                    }
                    i = to.min(end);
                }
            }
        }
        out.push_str(html.get(i..end).unwrap_or(""));
    }
}

enum Event<'a> {
    /// A segment starts here and ends at the offset given: its bytes go elsewhere.
    Cut(usize),
    /// A placeholder starts here: the segment named goes in, and the copy resumes at the
    /// offset given (after the fallback).
    Place(&'a str, usize),
}

/// Every `<div hidden id="S:…">` with its matching `</div>`, by segment id.
fn segments(b: &[u8]) -> HashMap<String, Segment> {
    let mut out = HashMap::new();
    for at in memmem::find_iter(b, SEGMENT) {
        let id_from = at + SEGMENT.len() - 2;
        let Some(q) = memchr::memchr(b'"', &b[id_from..]) else {
            continue;
        };
        let id = &b[id_from..id_from + q];
        let Some(gt) = memchr::memchr(b'>', &b[id_from + q..]) else {
            continue;
        };
        let inner_from = id_from + q + gt + 1;
        let Some(close) = matching_div_end(b, inner_from) else {
            continue;
        };
        let Ok(id) = std::str::from_utf8(id) else {
            continue;
        };
        out.insert(
            id.to_string(),
            Segment {
                outer: (at, close + b"</div>".len()),
                inner: (inner_from, close),
            },
        );
    }
    out
}

/// The offset of the `</div>` that closes a `<div>` whose content starts at `from`. React
/// writes every tag in lower case and escapes `<` in text, so counting works; an attribute
/// or script holding `<div` would make the count wrong, and then no `</div>` matches in
/// the end and the segment is left where it is.
fn matching_div_end(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = from;
    while let Some(lt) = memchr::memchr(b'<', b.get(i..)?) {
        let at = i + lt;
        let rest = &b[at..];
        if rest.starts_with(b"</div>") {
            depth -= 1;
            if depth == 0 {
                return Some(at);
            }
        } else if rest.starts_with(b"<div") && matches!(rest.get(4), Some(b' ' | b'>' | b'/')) {
            depth += 1;
        }
        i = at + 1;
    }
    None
}

/// `$RC("B:0","S:0")` and `$RS("S:1","P:1")` calls: (placeholder id, segment id).
fn moves(b: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (call, boundary_first) in [(&b"$RC(\""[..], true), (&b"$RS(\""[..], false)] {
        for at in memmem::find_iter(b, call) {
            let Some((a, b2)) = two_strings(&b[at + call.len() - 1..]) else {
                continue;
            };
            let (target, seg) = if boundary_first { (a, b2) } else { (b2, a) };
            out.push((target, seg));
            if out.len() >= MAX_MOVES {
                return out;
            }
        }
    }
    out
}

/// The two short string arguments at the start of `"x","y")`.
fn two_strings(b: &[u8]) -> Option<(String, String)> {
    let arg = |b: &[u8]| -> Option<(String, usize)> {
        let b = b.strip_prefix(b"\"")?;
        let end = memchr::memchr(b'"', b.get(..b.len().min(32))?)?;
        let s = std::str::from_utf8(&b[..end]).ok()?;
        Some((s.to_string(), end + 2))
    };
    let (first, n) = arg(b)?;
    let rest = b.get(n..)?.strip_prefix(b",")?;
    let (second, _) = arg(rest)?;
    Some((first, second))
}

/// Every `<template id="…">`, by id (the first of each).
fn templates(b: &[u8]) -> HashMap<&str, usize> {
    const OPEN: &[u8] = b"<template id=\"";
    let mut out = HashMap::new();
    for at in memmem::find_iter(b, OPEN) {
        let from = at + OPEN.len();
        let Some(q) = memchr::memchr(b'"', &b[from..b.len().min(from + 32)]) else {
            continue;
        };
        if let Ok(id) = std::str::from_utf8(&b[from..from + q]) {
            out.entry(id).or_insert(at);
        }
    }
    out
}

/// Where the copy resumes after the placeholder `<template id="ID">` at `at`: past
/// `</template>` for a segment placeholder (`P:`), past the fallback and its closing
/// `<!--/$-->` for a boundary (`B:`).
fn placeholder(b: &[u8], at: usize, id: &str) -> Option<(usize, usize)> {
    let close = at + memchr::memchr(b'>', &b[at..])? + 1;
    let after = close + memmem::find(&b[close..], b"</template>")? + b"</template>".len();
    if !id.starts_with("B:") {
        return Some((at, after));
    }
    // The fallback runs to the `<!--/$-->` that closes this boundary; boundaries nest.
    let mut depth = 1usize;
    let mut i = after;
    while let Some(c) = memmem::find(&b[i..], b"<!--") {
        let c = i + c;
        let rest = &b[c + 4..];
        if rest.starts_with(b"/$-->") {
            depth -= 1;
            if depth == 0 {
                return Some((at, c + b"<!--/$-->".len()));
            }
        } else if rest.starts_with(b"$") {
            depth += 1;
        }
        i = c + 4;
    }
    Some((at, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The property test's find: a segment placed twice, once inside another placed segment,
    /// filled the output up to the bound before the rest of the page was copied after it.
    #[test]
    fn placements_leave_room_for_the_rest_of_the_page() {
        let page = [
            "<div hidden id=\"S:3\">",
            "<template id=\"B:0\"></template>",
            "$RC(\"B:0\",\"S:1\")",
            "</div>",
            "<div hidden id=\"S:1\">",
            "<template id=\"B:0\"></template>",
            "<template id=\"B:2\"></template>",
            "$RC(\"B:2\",\"S:3\")",
            "$RS(\"S:1\",\"P:2\")",
            "$RC(\"B:0\",\"S:0\")",
            "</div>",
            "<template id=\"P:2\"></template>",
        ]
        .concat();
        let out = resolve(&page);
        assert!(
            out.len() <= 2 * page.len(),
            "{} > 2 * {}",
            out.len(),
            page.len()
        );
    }

    proptest! {
        /// Any mix of React's markers, cut anywhere: no panic, and the page never grows
        /// past twice its size however often segments are placed.
        #[test]
        fn any_mix_of_markers_resolves(
            parts in proptest::collection::vec(
                "(<div hidden id=\"S:[0-3]\">|</div>|<div>|<template id=\"[BP]:[0-3]\"></template>|<!--\\$\\?-->|<!--/\\$-->|\\$RC\\(\"B:[0-3]\",\"S:[0-3]\"\\)|\\$RS\\(\"S:[0-3]\",\"P:[0-3]\"\\)|word|é)",
                0..40,
            ),
            cut in 0usize..400,
        ) {
            let page: String = parts.concat();
            let mut end = cut.min(page.len());
            while !page.is_char_boundary(end) {
                end -= 1;
            }
            for p in [&page[..], &page[..end]] {
                let out = resolve(p);
                prop_assert!(out.len() <= 2 * p.len());
            }
        }
    }

    #[test]
    fn a_boundary_gets_its_segment_and_loses_its_fallback() {
        let page = "<main><!--$?--><template id=\"B:0\"></template><p>Loading</p><!--/$--></main>\
                    <footer>f</footer><div hidden id=\"S:0\"><div><p>Specs</p></div></div>\
                    <script>$RC(\"B:0\",\"S:0\")</script>";
        assert_eq!(
            resolve(page),
            "<main><!--$?--><div><p>Specs</p></div></main><footer>f</footer>\
             <script>$RC(\"B:0\",\"S:0\")</script>"
        );
    }

    #[test]
    fn segments_nest_and_segment_placeholders_are_filled() {
        let page = "<body><template id=\"P:1\"></template><i>x</i>\
                    <div hidden id=\"S:1\"><p>A</p><!--$?--><template id=\"B:2\"></template>\
                    <!--$--><b>spin</b><!--/$--><!--/$--></div>\
                    <div hidden id=\"S:2\"><p>B</p></div>\
                    <script>$RS(\"S:1\",\"P:1\");$RC(\"B:2\",\"S:2\")</script></body>";
        assert_eq!(
            resolve(page),
            "<body><p>A</p><!--$?--><p>B</p><i>x</i>\
             <script>$RS(\"S:1\",\"P:1\");$RC(\"B:2\",\"S:2\")</script></body>"
        );
    }

    #[test]
    fn pages_without_segments_or_calls_are_untouched() {
        let plain = "<p>Hello</p>";
        assert!(matches!(resolve(plain), Cow::Borrowed(_)));
        let no_call = "<template id=\"B:0\"></template><div hidden id=\"S:0\">x</div>";
        assert!(matches!(resolve(no_call), Cow::Borrowed(_)));
        // An unclosed segment or a call naming nothing known changes nothing.
        let broken = "<template id=\"B:0\"></template><div hidden id=\"S:0\"><div>x</div>\
                      <script>$RC(\"B:0\",\"S:0\")</script>";
        assert_eq!(resolve(broken), broken);
    }

    #[test]
    fn placements_in_a_cycle_end() {
        let page = "<template id=\"P:1\"></template>\
                    <div hidden id=\"S:1\">a<template id=\"P:2\"></template></div>\
                    <div hidden id=\"S:2\">b<template id=\"P:1\"></template></div>\
                    <script>$RS(\"S:1\",\"P:1\");$RS(\"S:2\",\"P:2\")</script>";
        let out = resolve(page);
        assert!(out.starts_with("ab"), "{out}");
    }

    #[test]
    fn a_segment_holding_its_own_placeholder_stays_put() {
        let page = "<div hidden id=\"S:0\"><template id=\"B:0\"></template></div>\
                    <script>$RC(\"B:0\",\"S:0\")</script>";
        assert_eq!(resolve(page), page);
    }
}
