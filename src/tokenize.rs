//! Zero-DOM HTML tokenizer driven by `memchr`.
//!
//! Takes a decoded page (`&str`) and yields a flat stream of [`Token`]s: text runs, start and
//! end tags, comments, doctypes, CDATA sections and the raw text of raw-text elements. Each
//! token carries its byte range in the page and the 0-based source line it starts on (found
//! by one forward `memchr` pass over the page's newlines, advanced as tokens pass them). It never
//! builds a tree, never recurses and never allocates per token: tag names are resolved to a
//! [`Tag`] id through a lower-cased stack buffer, attributes are parsed only when a caller asks
//! ([`Token::attrs`]), and character references are decoded only when a caller asks
//! ([`decode_text`], through `htmlize`, which carries the full HTML5 entity table).
//!
//! Raw-text elements (`script`, `style`, `textarea`, `title`, `template`, `xmp`,
//! `iframe`, `noembed`, `noframes`, `plaintext`) are skipped to their real end tag, so a `<` in
//! a script never starts a tag. `template` is treated as raw text on purpose: no browser
//! renders it, except a declarative shadow root (`<template shadowrootmode="open">`, or the
//! `shadowroot` attribute of its first form), which the HTML parser attaches to its parent
//! and browsers render without any script (server-rendered web components): its content is
//! markup like any. `noscript` is *not*: its content is parsed as markup, the way an HTML parser
//! with scripting disabled parses it, because that is what a crawler without JavaScript
//! (Common Crawl's) receives and what such a reader sees. Forums such as Discourse serve
//! their posts inside `<noscript>` for exactly those readers.
//!
//! What it refuses: nothing. Every byte sequence tokenizes; malformed markup degrades the way
//! the WHATWG tokenizer degrades it (a lone `<` is text, an unterminated comment runs to the end,
//! an end tag's attributes are ignored, a tag whose quote never closes swallows the rest of the
//! page as a browser would, and is reported as a text run rather than dropped). Cost is linear:
//! every scan moves forward and each byte is examined a bounded number of times. In particular
//! a `<` whose tag never closes is scanned once, and the rest of the page becomes one text run
//! (no rescan from the next `<`); the end-tag search of raw text and the comment search each
//! run once, forward. Tags have no length limit (a long tag is still scanned once), but
//! [`Token::attrs`] parses at most [`MAX_ATTR_BYTES`] (64 KiB) of a tag's attributes.

use memchr::{memchr, memchr3, memmem};
use std::borrow::Cow;

/// The kinds of token the tokenizer reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// A run of character data between tags (entities not yet decoded).
    Text,
    /// `<name ...>`; [`Token::tag`] says which element.
    StartTag,
    /// `</name>`.
    EndTag,
    /// `<!-- ... -->`, and bogus comments (`<? ... >`, `<!x ...>`, `</1 ...>`).
    Comment,
    /// `<!DOCTYPE ...>`.
    Doctype,
    /// `<![CDATA[ ... ]]>`: its inner range is reported as text-like content.
    Cdata,
    /// The content of a raw-text element (script, style, title, ...), up to its end tag.
    RawText,
}

/// One token: what it is, where it is, and on which line it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    /// The element of a start tag, end tag or raw text; [`Tag::Other`] for unknown names,
    /// [`Tag::None`] for tokens that are not about an element.
    pub tag: Tag,
    /// Byte range of the whole token in the page (for tags: from `<` to `>` inclusive).
    pub start: usize,
    pub end: usize,
    /// 0-based source line of `start`.
    pub line: u32,
    /// `<br/>`-style self-closing flag on start tags.
    pub self_closing: bool,
    /// For start and end tags: bytes of the name as written (found while tokenizing, so
    /// [`Token::name`] and [`Token::attrs`] need not scan for it again).
    name_len: u32,
}

impl Token {
    /// The token's source text.
    pub fn raw<'a>(&self, src: &'a str) -> &'a str {
        src.get(self.start..self.end).unwrap_or("")
    }

    /// For text, raw text and CDATA: the character data (CDATA without its brackets).
    pub fn content<'a>(&self, src: &'a str) -> &'a str {
        let raw = self.raw(src);
        match self.kind {
            TokenKind::Cdata => raw.get(9..raw.len().saturating_sub(3)).unwrap_or(""),
            _ => raw,
        }
    }

    /// The tag name as written, lower-cased on the fly by callers that need it; for known
    /// elements prefer [`Tag::name`].
    pub fn name<'a>(&self, src: &'a str) -> &'a str {
        let skip = if self.kind == TokenKind::EndTag { 2 } else { 1 };
        if matches!(self.kind, TokenKind::StartTag | TokenKind::EndTag) {
            // The tokenizer measured the name, inside the token.
            let from = self.start + skip;
            return src.get(from..from + self.name_len as usize).unwrap_or("");
        }
        let raw = self.raw(src);
        let n = raw
            .bytes()
            .skip(skip)
            .take_while(|&b| !is_name_end(b))
            .count();
        raw.get(skip..skip + n).unwrap_or("")
    }

    /// Attributes of a start tag, parsed now (lazily, on request). Only the first
    /// [`MAX_ATTR_BYTES`] of the attribute text are parsed.
    pub fn attrs<'a>(&self, src: &'a str) -> Attrs<'a> {
        let body = if self.kind == TokenKind::StartTag {
            let from = self.start + 1 + self.name_len as usize;
            src.get(from..self.end.saturating_sub(1)).unwrap_or("")
        } else {
            ""
        };
        let mut end = body.len().min(MAX_ATTR_BYTES);
        while !body.is_char_boundary(end) {
            end -= 1;
        }
        Attrs {
            s: body.get(..end).unwrap_or(""),
            pos: 0,
        }
    }

    /// The value of one attribute (first occurrence, name compared ASCII-case-insensitively),
    /// with character references decoded.
    pub fn attr<'a>(&self, src: &'a str, name: &str) -> Option<Cow<'a, str>> {
        self.attrs(src)
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| decode_attr(v))
    }
}

/// Bytes of a start tag's attribute text that [`Token::attrs`] parses: attributes starting
/// beyond are ignored, a value running past it is cut there. Real tags are far shorter (the
/// exception, an inline `data:` URI, usually comes after `id` and `class`); the bound makes the
/// attribute work of one tag constant, however often a caller asks and whatever the page holds.
pub const MAX_ATTR_BYTES: usize = 64 * 1024;

/// Iterator over `(name, raw value)` pairs of a start tag; values are not entity-decoded
/// (use [`decode_attr`]). Valueless attributes give `""`.
pub struct Attrs<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        let b = self.s.as_bytes();
        loop {
            while self.pos < b.len() && (b[self.pos].is_ascii_whitespace() || b[self.pos] == b'/') {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return None;
            }
            let name_start = self.pos;
            // An attribute name may start with '=' (spec quirk); consume at least one byte.
            self.pos += 1;
            while self.pos < b.len()
                && !b[self.pos].is_ascii_whitespace()
                && !matches!(b[self.pos], b'/' | b'=' | b'>')
            {
                self.pos += 1;
            }
            let name = self.s.get(name_start..self.pos).unwrap_or("");
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos >= b.len() || b[self.pos] != b'=' {
                if name.is_empty() {
                    continue;
                }
                return Some((name, ""));
            }
            self.pos += 1;
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            let value = match b.get(self.pos) {
                Some(&q @ (b'"' | b'\'')) => {
                    let vs = self.pos + 1;
                    let ve = memchr(q, &b[vs..]).map_or(b.len(), |i| vs + i);
                    self.pos = (ve + 1).min(b.len());
                    self.s.get(vs..ve).unwrap_or("")
                }
                _ => {
                    let vs = self.pos;
                    while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
                        self.pos += 1;
                    }
                    self.s.get(vs..self.pos).unwrap_or("")
                }
            };
            return Some((name, value));
        }
    }
}

/// Decode character references in text (full HTML5 table, numeric references, the legacy
/// semicolon-less forms). Borrows when there is nothing to decode.
#[inline]
pub fn decode_text(raw: &str) -> Cow<'_, str> {
    if !has_ampersand(raw.as_bytes()) {
        return Cow::Borrowed(raw);
    }
    htmlize::unescape(raw)
}

/// The first `needle` in `hay`: its first [`SHORT_SCAN`] bytes read one by one (the `<`
/// after a tag is most often a few bytes of indentation away, and so is the `>` of a short
/// tag), then memchr, which costs more to set up than such a short read.
#[inline]
fn find_byte(needle: u8, hay: &[u8]) -> Option<usize> {
    let head = hay.len().min(SHORT_SCAN);
    match hay[..head].iter().position(|&c| c == needle) {
        Some(i) => Some(i),
        None => memchr(needle, &hay[head..]).map(|i| head + i),
    }
}

/// How many bytes [`find_byte`] reads before it calls memchr.
const SHORT_SCAN: usize = 16;

/// Runs shorter than this are searched byte by byte rather than by memchr, whose set-up
/// costs more than such a read: most text between two tags, most attribute values
/// ([`has_ampersand`], and the line split of `Doc`'s text runs).
pub(crate) const SHORT_RUN_BYTES: usize = 32;

/// Whether `b` holds a `&`: memchr for long runs, a short one byte by byte
/// ([`SHORT_RUN_BYTES`]).
#[inline]
fn has_ampersand(b: &[u8]) -> bool {
    if b.len() < SHORT_RUN_BYTES {
        b.contains(&b'&')
    } else {
        memchr(b'&', b).is_some()
    }
}

/// Decode character references in an attribute value (attribute rules: `&amp=` stays).
pub fn decode_attr(raw: &str) -> Cow<'_, str> {
    if !has_ampersand(raw.as_bytes()) {
        return Cow::Borrowed(raw);
    }
    htmlize::unescape_attribute(raw)
}

#[inline]
fn is_name_end(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'/' || b == b'>'
}

/// The streaming tokenizer. Create with [`Tokenizer::new`] and iterate.
pub struct Tokenizer<'a> {
    src: &'a str,
    pos: usize,
    /// Newlines before the last position asked for in [`Tokenizer::line_at`].
    line: u32,
    /// The page's newlines from `next_newline` on, found lazily.
    newlines: memchr::Memchr<'a>,
    /// Offset of the first newline not yet counted in `line` (`usize::MAX`: none left).
    next_newline: usize,
    /// A raw-text element whose content comes next.
    pending_raw: Option<Tag>,
    /// Token produced while finishing another (raw text after a start tag is emitted next).
    queued: Option<Token>,
    /// Open `<svg>` and `<math>` elements: only inside them (HTML's foreign content) is
    /// `<![CDATA[` a CDATA section; elsewhere it is a bogus comment that ends at the next
    /// `>`, as the WHATWG tokenizer reads it (a stray `<![CDATA[` in a page's body must not
    /// swallow the page up to some distant `]]>`).
    foreign: u32,
}

impl<'a> Tokenizer<'a> {
    pub fn new(src: &'a str) -> Self {
        let mut newlines = memchr::memchr_iter(b'\n', src.as_bytes());
        let next_newline = newlines.next().unwrap_or(usize::MAX);
        Tokenizer {
            src,
            pos: 0,
            line: 0,
            newlines,
            next_newline,
            pending_raw: None,
            queued: None,
            foreign: 0,
        }
    }

    /// Line of byte offset `at`: the newlines before it. `at` never decreases between calls,
    /// so each newline is found once, by `memchr` (which skips the bytes between newlines
    /// many at a time), and a call that passes none costs one comparison.
    #[inline]
    fn line_at(&mut self, at: usize) -> u32 {
        while self.next_newline < at {
            self.line = self.line.wrapping_add(1);
            self.next_newline = self.newlines.next().unwrap_or(usize::MAX);
        }
        self.line
    }

    fn token(&mut self, kind: TokenKind, tag: Tag, start: usize, end: usize) -> Token {
        let line = self.line_at(start);
        Token {
            kind,
            tag,
            start,
            end,
            line,
            self_closing: false,
            name_len: 0,
        }
    }

    /// Content of a raw-text element starting at `self.pos`, up to (not including) `</tag`.
    fn raw_text(&mut self, tag: Tag) -> Option<Token> {
        let b = self.src.as_bytes();
        let start = self.pos;
        if tag == Tag::Plaintext {
            self.pos = b.len();
        } else {
            let name = tag.name().as_bytes();
            let mut from = start;
            let finder = memmem::Finder::new(b"</");
            self.pos = loop {
                match finder.find(&b[from..]) {
                    None => break b.len(),
                    Some(i) => {
                        let at = from + i;
                        let after = at + 2;
                        let matches = b.len() >= after + name.len()
                            && b[after..after + name.len()].eq_ignore_ascii_case(name)
                            && b.get(after + name.len()).is_none_or(|&c| is_name_end(c));
                        if matches {
                            break at;
                        }
                        from = after;
                    }
                }
            };
        }
        (self.pos > start).then(|| self.token(TokenKind::RawText, tag, start, self.pos))
    }

    /// Scan a tag or markup declaration at `self.pos` (which holds `<`). Returns `None` when
    /// the `<` does not start markup (it is then text).
    fn markup(&mut self) -> Option<Token> {
        let b = self.src.as_bytes();
        let start = self.pos;
        let next = *b.get(start + 1)?;
        match next {
            b'!' => {
                let rest = &b[start + 2..];
                if rest.starts_with(b"--") {
                    // Comment: "<!-->" and "<!--->" close at once (spec); otherwise find "-->".
                    let body = start + 4;
                    let end = if b[body..].starts_with(b">") {
                        body + 1
                    } else if b[body..].starts_with(b"->") {
                        body + 2
                    } else {
                        memmem::find(&b[body..], b"-->").map_or(b.len(), |i| body + i + 3)
                    };
                    self.pos = end;
                    Some(self.token(TokenKind::Comment, Tag::None, start, end))
                } else if self.foreign > 0
                    && rest.len() >= 7
                    && rest[..7].eq_ignore_ascii_case(b"[CDATA[")
                {
                    let end = memmem::find(&b[start + 9..], b"]]>")
                        .map_or(b.len(), |i| start + 9 + i + 3);
                    self.pos = end;
                    Some(self.token(TokenKind::Cdata, Tag::None, start, end))
                } else {
                    let end = find_byte(b'>', &b[start..]).map_or(b.len(), |i| start + i + 1);
                    self.pos = end;
                    let kind = if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
                        TokenKind::Doctype
                    } else {
                        TokenKind::Comment
                    };
                    Some(self.token(kind, Tag::None, start, end))
                }
            }
            b'?' => {
                let end = find_byte(b'>', &b[start..]).map_or(b.len(), |i| start + i + 1);
                self.pos = end;
                Some(self.token(TokenKind::Comment, Tag::None, start, end))
            }
            b'/' => {
                let c = *b.get(start + 2)?;
                if c.is_ascii_alphabetic() {
                    let name_end = name_end(b, start + 2);
                    let tag = Tag::from_name(&b[start + 2..name_end]);
                    let end = find_byte(b'>', &b[name_end..]).map_or(b.len(), |i| name_end + i + 1);
                    self.pos = end;
                    let mut t = self.token(TokenKind::EndTag, tag, start, end);
                    t.name_len = u32::try_from(name_end - (start + 2)).unwrap_or(u32::MAX);
                    if matches!(tag, Tag::Svg | Tag::Math) {
                        self.foreign = self.foreign.saturating_sub(1);
                    }
                    Some(t)
                } else if c == b'>' {
                    // "</>" is dropped entirely.
                    self.pos = start + 3;
                    Some(self.token(TokenKind::Comment, Tag::None, start, start + 3))
                } else {
                    let end = find_byte(b'>', &b[start..]).map_or(b.len(), |i| start + i + 1);
                    self.pos = end;
                    Some(self.token(TokenKind::Comment, Tag::None, start, end))
                }
            }
            c if c.is_ascii_alphabetic() => {
                let name_end = name_end(b, start + 1);
                let tag = Tag::from_name(&b[start + 1..name_end]);
                let end = tag_end(b, name_end)?;
                self.pos = end;
                let mut t = self.token(TokenKind::StartTag, tag, start, end);
                t.name_len = u32::try_from(name_end - (start + 1)).unwrap_or(u32::MAX);
                t.self_closing = end >= 2 && b[end - 2] == b'/';
                if matches!(tag, Tag::Svg | Tag::Math) && !t.self_closing {
                    self.foreign = self.foreign.saturating_add(1);
                }
                if tag.is_raw_text()
                    && !t.self_closing
                    && !(tag == Tag::Template && shadow_root(&t, self.src))
                {
                    self.pending_raw = Some(tag);
                }
                Some(t)
            }
            _ => None,
        }
    }
}

/// Whether a `<template>` start tag declares a shadow root (`shadowrootmode`, or the
/// `shadowroot` of its first shipped form).
fn shadow_root(t: &Token, src: &str) -> bool {
    t.attrs(src).any(|(n, _)| {
        n.eq_ignore_ascii_case("shadowrootmode") || n.eq_ignore_ascii_case("shadowroot")
    })
}

/// End of a tag name starting at `from`.
fn name_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && !is_name_end(b[i]) {
        i += 1;
    }
    i
}

/// Position after the `>` closing a start tag whose attributes start at `from`, honouring
/// quoted attribute values. `None` when the tag never closes (EOF inside the tag).
fn tag_end(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        let j = i + memchr3(b'>', b'"', b'\'', &b[i..])?;
        match b[j] {
            b'>' => return Some(j + 1),
            q => {
                // A quote only opens a value right after '=' (possibly with spaces).
                let mut k = j;
                while k > from && b[k - 1].is_ascii_whitespace() {
                    k -= 1;
                }
                if k > from && b[k - 1] == b'=' {
                    i = j + 1 + memchr(q, &b[j + 1..])? + 1;
                } else {
                    i = j + 1;
                }
            }
        }
    }
}

impl Iterator for Tokenizer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        if let Some(t) = self.queued.take() {
            return Some(t);
        }
        if let Some(tag) = self.pending_raw.take() {
            if let Some(t) = self.raw_text(tag) {
                return Some(t);
            }
        }
        let b = self.src.as_bytes();
        if self.pos >= b.len() {
            return None;
        }
        let start = self.pos;
        let text_line = self.line_at(start);
        let mut scan = start;
        loop {
            let lt = match find_byte(b'<', &b[scan..]) {
                Some(i) => scan + i,
                None => {
                    self.pos = b.len();
                    return Some(self.token(TokenKind::Text, Tag::None, start, b.len()));
                }
            };
            self.pos = lt;
            match self.markup() {
                Some(markup) if lt == start => return Some(markup),
                Some(markup) => {
                    self.queued = Some(markup);
                    return Some(Token {
                        kind: TokenKind::Text,
                        tag: Tag::None,
                        start,
                        end: lt,
                        line: text_line,
                        self_closing: false,
                        name_len: 0,
                    });
                }
                None if lt + 1 < b.len() && b[lt + 1].is_ascii_alphabetic() && lt == start => {
                    // A start tag that never closes: the rest of the page is one text run
                    // (a browser drops it; keeping it as text loses nothing).
                    self.pos = b.len();
                    return Some(self.token(TokenKind::Text, Tag::None, start, b.len()));
                }
                None if lt + 1 < b.len() && b[lt + 1].is_ascii_alphabetic() => {
                    // Emit the text before it first; the unclosed tag is handled next call.
                    self.pos = lt;
                    return Some(self.token(TokenKind::Text, Tag::None, start, lt));
                }
                None => {
                    // '<' that starts nothing: it is text; keep scanning.
                    scan = lt + 1;
                    self.pos = start;
                }
            }
        }
    }
}

macro_rules! tags {
    ($($variant:ident => $name:literal),* $(,)?) => {
        /// Element names the extractors care about, resolved once by the tokenizer.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Tag {
            /// Not an element (text, comment, doctype).
            None,
            /// An element whose name is not in this table (custom elements, typos).
            Other,
            $($variant),*
        }

        impl Tag {
            /// All known tags, for tables indexed by tag.
            pub const COUNT: usize = 2 $(+ { let _ = Tag::$variant; 1 })*;

            /// The lower-case name ("" for `None`, "*" for `Other`).
            pub fn name(self) -> &'static str {
                match self {
                    Tag::None => "",
                    Tag::Other => "*",
                    $(Tag::$variant => $name),*
                }
            }

            /// Every known tag with its name, for [`TAG_TABLE`].
            const NAMED: &[(&str, Tag)] = &[$(($name, Tag::$variant)),*];

            /// [`Tag::from_name`]'s definition on a lower-cased name: the twin the tests
            /// compare the table lookup with.
            #[cfg(test)]
            fn from_lower(name: &[u8]) -> Tag {
                match std::str::from_utf8(name) {
                    $(Ok($name) => Tag::$variant,)*
                    _ => Tag::Other,
                }
            }
        }
    };
}

/// Longest tag name [`Tag::from_name`] looks up (longer ones are no known tag).
const TAG_NAME_MAX: usize = 12;

/// A name of at most [`TAG_NAME_MAX`] bytes as one integer: its bytes from the low end, and
/// its length in the top byte (so a NUL byte cannot make two names equal).
const fn tag_key(name: &[u8]) -> u128 {
    let mut k = (name.len() as u128) << 120;
    let mut i = 0;
    while i < name.len() {
        k |= (name[i] as u128) << (8 * i);
        i += 1;
    }
    k
}

/// Slots of [`TAG_TABLE`]: a power of two, about four per known tag.
const TAG_SLOTS: usize = 512;

const fn tag_home(key: u128) -> usize {
    let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TAG_SLOTS.trailing_zeros())) as usize
}

/// Known tags by [`tag_key`] of their names, open addressing with linear probing (key 0,
/// which no name has, marks a free slot): one multiplication and a probe or two per tag
/// name, where a `match` on the name compared it with candidate after candidate.
static TAG_TABLE: [(u128, Tag); TAG_SLOTS] = {
    let mut table = [(0u128, Tag::Other); TAG_SLOTS];
    let mut i = 0;
    while i < Tag::NAMED.len() {
        let (name, tag) = Tag::NAMED[i];
        let key = tag_key(name.as_bytes());
        let mut slot = tag_home(key);
        while table[slot].0 != 0 {
            slot = (slot + 1) % TAG_SLOTS;
        }
        table[slot] = (key, tag);
        i += 1;
    }
    table
};

tags! {
    A => "a", Abbr => "abbr", Address => "address", Area => "area", Article => "article",
    Aside => "aside", Audio => "audio", B => "b", Base => "base", Bdi => "bdi", Bdo => "bdo",
    Blockquote => "blockquote", Body => "body", Br => "br", Button => "button",
    Canvas => "canvas", Caption => "caption", Center => "center", Cite => "cite",
    Code => "code", Col => "col", Colgroup => "colgroup", Dd => "dd", Del => "del",
    Details => "details", Dfn => "dfn", Dialog => "dialog", Dir => "dir", Div => "div",
    Dl => "dl", Dt => "dt", Em => "em", Embed => "embed", Fieldset => "fieldset",
    Figcaption => "figcaption", Figure => "figure", Font => "font", Footer => "footer",
    Form => "form", Frame => "frame", Frameset => "frameset", H1 => "h1", H2 => "h2",
    H3 => "h3", H4 => "h4", H5 => "h5", H6 => "h6", Head => "head", Header => "header",
    Hgroup => "hgroup", Hr => "hr", Html => "html", I => "i", Iframe => "iframe",
    Img => "img", Input => "input", Ins => "ins", Kbd => "kbd", Label => "label",
    Legend => "legend", Li => "li", Link => "link", Main => "main", Map => "map",
    Mark => "mark", Menu => "menu", Meta => "meta", Meter => "meter", Nav => "nav",
    Noembed => "noembed", Noframes => "noframes", Noscript => "noscript",
    Object => "object", Ol => "ol", Optgroup => "optgroup", Option => "option",
    Output => "output", P => "p", Param => "param", Picture => "picture",
    Plaintext => "plaintext", Pre => "pre", Progress => "progress", Q => "q", Rp => "rp",
    Rt => "rt", Ruby => "ruby", S => "s", Samp => "samp", Script => "script",
    Search => "search", Section => "section", Select => "select", Small => "small",
    Source => "source", Span => "span", Strike => "strike", Strong => "strong",
    Style => "style", Sub => "sub", Summary => "summary", Sup => "sup", Svg => "svg",
    Math => "math", Table => "table", Tbody => "tbody", Td => "td", Template => "template",
    Textarea => "textarea", Tfoot => "tfoot", Th => "th", Thead => "thead", Time => "time",
    Title => "title", Tr => "tr", Track => "track", Tt => "tt", U => "u", Ul => "ul",
    Var => "var", Video => "video", Wbr => "wbr", Xmp => "xmp",
}

impl Tag {
    /// Resolve a tag name as written (any case). Names longer than any known tag are `Other`.
    pub fn from_name(name: &[u8]) -> Tag {
        if name.len() > TAG_NAME_MAX || name.is_empty() {
            return Tag::Other;
        }
        // `tag_key` of the lower-cased name. Built here by an iterator: calling the const fn
        // (which the table needs) on this hot path cost 4 M more instructions on 30 MB.
        let mut key = (name.len() as u128) << 120;
        for (i, b) in name.iter().enumerate() {
            key |= u128::from(b.to_ascii_lowercase()) << (8 * i);
        }
        let mut slot = tag_home(key);
        loop {
            match TAG_TABLE[slot] {
                (k, tag) if k == key => return tag,
                (0, _) => return Tag::Other,
                _ => slot = (slot + 1) % TAG_SLOTS,
            }
        }
    }

    /// Elements whose content the tokenizer skips to the real end tag.
    pub fn is_raw_text(self) -> bool {
        matches!(
            self,
            Tag::Script
                | Tag::Style
                | Tag::Textarea
                | Tag::Title
                | Tag::Template
                | Tag::Xmp
                | Tag::Iframe
                | Tag::Noembed
                | Tag::Noframes
                | Tag::Plaintext
        )
    }

    /// Void elements: never have content or an end tag.
    pub fn is_void(self) -> bool {
        matches!(
            self,
            Tag::Area
                | Tag::Base
                | Tag::Br
                | Tag::Col
                | Tag::Embed
                | Tag::Hr
                | Tag::Img
                | Tag::Input
                | Tag::Link
                | Tag::Meta
                | Tag::Param
                | Tag::Source
                | Tag::Track
                | Tag::Wbr
        )
    }

    /// Block-level elements: text on either side of one of these is a different block
    /// (line-blocks of seed 002, CETR's re-broken lines, the output's line breaks).
    pub fn is_block(self) -> bool {
        matches!(
            self,
            Tag::Address
                | Tag::Article
                | Tag::Aside
                | Tag::Blockquote
                | Tag::Body
                | Tag::Br
                | Tag::Caption
                | Tag::Center
                | Tag::Dd
                | Tag::Details
                | Tag::Dialog
                | Tag::Dir
                | Tag::Div
                | Tag::Dl
                | Tag::Dt
                | Tag::Fieldset
                | Tag::Figcaption
                | Tag::Figure
                | Tag::Footer
                | Tag::Form
                | Tag::Frameset
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6
                | Tag::Head
                | Tag::Header
                | Tag::Hgroup
                | Tag::Hr
                | Tag::Html
                | Tag::Legend
                | Tag::Li
                | Tag::Main
                | Tag::Menu
                | Tag::Nav
                | Tag::Ol
                | Tag::Option
                | Tag::P
                | Tag::Pre
                | Tag::Search
                | Tag::Section
                | Tag::Select
                | Tag::Summary
                | Tag::Table
                | Tag::Tbody
                | Tag::Td
                | Tag::Tfoot
                | Tag::Th
                | Tag::Thead
                | Tag::Tr
                | Tag::Ul
                | Tag::Textarea
        )
    }

    /// A heading's level: 1 for `<h1>` .. 6 for `<h6>`.
    pub fn heading_level(self) -> Option<u8> {
        match self {
            Tag::H1 => Some(1),
            Tag::H2 => Some(2),
            Tag::H3 => Some(3),
            Tag::H4 => Some(4),
            Tag::H5 => Some(5),
            Tag::H6 => Some(6),
            _ => None,
        }
    }

    /// Headings h1..h6.
    pub fn is_heading(self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }
}

/// The obvious twin of [`Tokenizer`] used by tests: a byte-at-a-time scan that finds the
/// same tag boundaries for well-formed markup without memchr.
#[cfg(test)]
pub(crate) fn naive_tag_names(src: &str) -> Vec<(TokenKind, String)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<' && i + 1 < b.len() {
            let (kind, s) = if b[i + 1] == b'/' {
                (TokenKind::EndTag, i + 2)
            } else {
                (TokenKind::StartTag, i + 1)
            };
            if s < b.len() && b[s].is_ascii_alphabetic() {
                let mut e = s;
                while e < b.len() && !is_name_end(b[e]) {
                    e += 1;
                }
                out.push((kind, src[s..e].to_ascii_lowercase()));
                while i < b.len() && b[i] != b'>' {
                    i += 1;
                }
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kinds(src: &str) -> Vec<(TokenKind, Tag, String)> {
        Tokenizer::new(src)
            .map(|t| (t.kind, t.tag, t.raw(src).to_string()))
            .collect()
    }

    /// [`Tag::from_name`] as it was defined: lower-case, then `from_lower`'s `match`.
    fn tag_by_match(name: &[u8]) -> Tag {
        if name.len() > TAG_NAME_MAX || name.is_empty() {
            return Tag::Other;
        }
        Tag::from_lower(&name.to_ascii_lowercase())
    }

    #[test]
    fn every_known_tag_is_found_by_its_name_in_any_case() {
        assert_eq!(Tag::NAMED.len() + 2, Tag::COUNT);
        for &(name, tag) in Tag::NAMED {
            assert!(name.len() <= TAG_NAME_MAX, "{name}");
            assert_eq!(tag.name(), name);
            assert_eq!(Tag::from_name(name.as_bytes()), tag, "{name}");
            assert_eq!(
                Tag::from_name(name.to_uppercase().as_bytes()),
                tag,
                "{name}"
            );
            let mut nul = name.as_bytes().to_vec();
            nul.push(0);
            assert_eq!(Tag::from_name(&nul), Tag::Other, "{name}\\0");
            assert_eq!(
                Tag::from_name(&nul[..nul.len() - 2]),
                tag_by_match(&nul[..nul.len() - 2])
            );
        }
        for other in [
            "",
            "x",
            "divv",
            "h7",
            "blockquotes",
            "my-widget",
            "svg:rect",
            "\u{130}",
        ] {
            assert_eq!(Tag::from_name(other.as_bytes()), Tag::Other, "{other}");
        }
    }

    #[test]
    fn basic_stream() {
        let src = "<!DOCTYPE html><HTML lang=en><p class='x'>Hi &amp; bye</p><!-- c --></html>";
        let k = kinds(src);
        assert_eq!(k[0].0, TokenKind::Doctype);
        assert_eq!((k[1].0, k[1].1), (TokenKind::StartTag, Tag::Html));
        assert_eq!((k[2].0, k[2].1), (TokenKind::StartTag, Tag::P));
        assert_eq!((k[3].0, k[3].2.as_str()), (TokenKind::Text, "Hi &amp; bye"));
        assert_eq!(decode_text(&k[3].2), "Hi & bye");
        assert_eq!((k[4].0, k[4].1), (TokenKind::EndTag, Tag::P));
        assert_eq!(k[5].0, TokenKind::Comment);
        assert_eq!((k[6].0, k[6].1), (TokenKind::EndTag, Tag::Html));
        assert_eq!(k.len(), 7);
    }

    #[test]
    fn script_is_skipped_to_its_real_end_tag() {
        let src = "<script>if (a<b) document.write('</div><p>x</p>');</SCRIPT >after";
        let k = kinds(src);
        assert_eq!(k[0].1, Tag::Script);
        assert_eq!(k[1].0, TokenKind::RawText);
        assert_eq!(k[1].2, "if (a<b) document.write('</div><p>x</p>');");
        assert_eq!((k[2].0, k[2].1), (TokenKind::EndTag, Tag::Script));
        assert_eq!(k[3].2, "after");
        // "</scriptx" is not the end tag.
        let src = "<style>a</stylex>b</style>";
        assert_eq!(kinds(src)[1].2, "a</stylex>b");
    }

    #[test]
    fn title_and_textarea_are_raw_text() {
        let src = "<title>A <b>bold</b> &amp; title</title>";
        let k = kinds(src);
        assert_eq!(k[1].0, TokenKind::RawText);
        assert_eq!(decode_text(&k[1].2), "A <b>bold</b> & title");
    }

    #[test]
    fn a_template_is_raw_text_unless_it_declares_a_shadow_root() {
        let k = kinds("<template id=t><p>inert</p></template>");
        assert_eq!(k[1].0, TokenKind::RawText);
        for src in [
            "<template shadowrootmode=\"open\"><p>shown</p></template>",
            "<template SHADOWROOT=closed><p>shown</p></template>",
        ] {
            let k = kinds(src);
            assert_eq!(k[1].0, TokenKind::StartTag, "{src}");
            assert_eq!(k[2].2, "shown", "{src}");
        }
    }

    #[test]
    fn attributes_parsed_on_request() {
        let src = r#"<a HREF="/x?a=1&amp;b=2" class = 'nav main' data-x=y disabled id=top>"#;
        let t = Tokenizer::new(src).next().unwrap();
        let attrs: Vec<_> = t.attrs(src).collect();
        assert_eq!(
            attrs,
            vec![
                ("HREF", "/x?a=1&amp;b=2"),
                ("class", "nav main"),
                ("data-x", "y"),
                ("disabled", ""),
                ("id", "top")
            ]
        );
        assert_eq!(t.attr(src, "href").unwrap(), "/x?a=1&b=2");
        assert_eq!(t.tag, Tag::A);
    }

    #[test]
    fn quoted_gt_does_not_end_a_tag() {
        let src = r#"<img alt="a > b" src=x.png>text"#;
        let k = kinds(src);
        assert_eq!(k[0].1, Tag::Img);
        assert_eq!(k[1].2, "text");
    }

    #[test]
    fn lone_lt_is_text() {
        let src = "a < b and c <3 d</p>";
        let k = kinds(src);
        assert_eq!(
            k[0],
            (TokenKind::Text, Tag::None, "a < b and c <3 d".into())
        );
        assert_eq!(k[1].0, TokenKind::EndTag);
    }

    #[test]
    fn unterminated_constructs_run_to_the_end() {
        assert_eq!(kinds("x<!-- never closed <p>")[1].0, TokenKind::Comment);
        let k = kinds("<script>never closed <p>");
        assert_eq!(k[1].2, "never closed <p>");
        // An attribute quote that never closes: the rest is text, nothing lost, no hang.
        let k = kinds("ok<a href=\"oops>more text");
        assert_eq!(k[0].2, "ok");
        assert_eq!(k[1].0, TokenKind::Text);
        assert_eq!(k.len(), 2);
    }

    #[test]
    fn cdata_and_bogus_comments() {
        let k = kinds("<svg><![CDATA[x<y]]></svg><?xml version='1.0'?></ 3><//>");
        assert_eq!(k[1].0, TokenKind::Cdata);
        let src = "<math><![CDATA[x<y]]>";
        let t = Tokenizer::new(src).nth(1).unwrap();
        assert_eq!(t.content(src), "x<y");
        // Outside svg and math, `<![CDATA[` is a bogus comment to the next `>`.
        let k = kinds("<body><![CDATA[<p>text</p> ]]>");
        assert_eq!(
            k.iter().map(|t| t.0).collect::<Vec<_>>(),
            [
                TokenKind::StartTag,
                TokenKind::Comment,
                TokenKind::Text,
                TokenKind::EndTag,
                TokenKind::Text
            ]
        );
        let k = kinds("<svg/><![CDATA[x]]>");
        assert_eq!(k[1].0, TokenKind::Comment);
        assert!(k[1..].iter().all(|t| t.0 == TokenKind::Comment));
    }

    #[test]
    fn lines_are_reported() {
        let src = "<html>\n<body>\nline two text\n<p>x</p>\n\n<b>y</b>";
        let toks: Vec<_> = Tokenizer::new(src).collect();
        let body = toks.iter().find(|t| t.tag == Tag::Body).unwrap();
        assert_eq!(body.line, 1);
        let p = toks.iter().find(|t| t.tag == Tag::P).unwrap();
        assert_eq!(p.line, 3);
        let b = toks.iter().find(|t| t.tag == Tag::B).unwrap();
        assert_eq!(b.line, 5);
        let text = toks
            .iter()
            .find(|t| t.raw(src).contains("line two"))
            .unwrap();
        assert_eq!(text.line, 1, "text starts right after <body> on line 1");
    }

    #[test]
    fn entities_use_the_full_table() {
        assert_eq!(
            decode_text("&hellip;&mdash;&NotNestedGreaterGreater;&#x20AC;&#8364;"),
            "…—⪢̸€€"
        );
        assert_eq!(decode_text("AT&T &copy 2024"), "AT&T © 2024");
    }

    #[test]
    fn self_closing_and_void() {
        let t = Tokenizer::new("<br/>").next().unwrap();
        assert!(t.self_closing && t.tag.is_void());
        // A self-closing raw-text tag does not swallow the page.
        let k = kinds("<script src=x />after<p>");
        assert_eq!(k[1].2, "after");
    }

    #[test]
    fn attribute_parsing_is_capped() {
        let src = format!(
            "<div id=a {} class=late>text</div>",
            "x=\"é\" ".repeat(MAX_ATTR_BYTES / 4)
        );
        let t = Tokenizer::new(&src).next().unwrap();
        assert_eq!(t.tag, Tag::Div);
        assert_eq!(t.attr(&src, "id").as_deref(), Some("a"));
        assert_eq!(t.attr(&src, "class"), None, "beyond the cap");
        assert!(t.attrs(&src).count() < MAX_ATTR_BYTES / 6);
        // The tag itself is still one token, and the text after it is text.
        let k = kinds(&src);
        assert_eq!((k[1].0, k[1].2.as_str()), (TokenKind::Text, "text"));
    }

    #[test]
    fn lines_count_every_newline_before_the_token() {
        // A newline at offset 0, runs of newlines longer than any SIMD block, newlines inside
        // tags, comments and scripts, and a token right after a newline.
        let long = "\n".repeat(150);
        let src = format!("\n<p>a\n{long}<b\n x='\n'>c</b><!--\n\n--><script>\n</script>\n<i>");
        for t in Tokenizer::new(&src) {
            let naive = src.as_bytes()[..t.start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            assert_eq!(t.line as usize, naive, "{:?} at {}", t.kind, t.start);
        }
        assert_eq!(Tokenizer::new(&src).last().map(|t| t.line), Some(158));
    }

    proptest! {
        #[test]
        fn short_scans_find_what_memchr_finds(
            hay in proptest::collection::vec(proptest::sample::select(vec![b'<', b'>', b'&', b' ', b'a']), 0..64),
            needle in proptest::sample::select(vec![b'<', b'>', b'&']),
        ) {
            prop_assert_eq!(find_byte(needle, &hay), memchr(needle, &hay));
            prop_assert_eq!(has_ampersand(&hay), memchr(b'&', &hay).is_some());
        }

        #[test]
        fn token_lines_match_a_naive_count(s in "(<p>|</p>|<!--|-->|<script>|</script>|\n|\n\n\n|x{1,80}|<a href='\n'>|é){0,120}") {
            for t in Tokenizer::new(&s) {
                let naive = s.as_bytes()[..t.start].iter().filter(|&&b| b == b'\n').count() as u32;
                prop_assert_eq!(t.line, naive);
            }
        }

        #[test]
        fn tag_names_are_the_scanned_names(s in "(<|</|>|/| |\t|\n|=|'|\"|a|P|h1|div|x-y|\u{0}|é){0,80}") {
            for t in Tokenizer::new(&s) {
                let raw = t.raw(&s).as_bytes();
                let skip = if t.kind == TokenKind::EndTag { 2 } else { 1 };
                let n = raw.iter().skip(skip).take_while(|&&b| !is_name_end(b)).count();
                prop_assert_eq!(t.name(&s), t.raw(&s).get(skip..skip + n).unwrap_or(""));
            }
        }

        #[test]
        fn never_panics_and_covers_input(s in "(<|>|/|!|-|a|p|\"|'|=| |\n|&|script|div|[a-z]{1,3}|é){0,200}") {
            let mut last = 0;
            for t in Tokenizer::new(&s) {
                prop_assert!(t.start >= last, "tokens move forward");
                prop_assert!(t.end > t.start && t.end <= s.len());
                prop_assert!(s.is_char_boundary(t.start) && s.is_char_boundary(t.end));
                last = t.end;
                let _ = t.attrs(&s).count();
            }
        }

        #[test]
        fn tag_lookup_agrees_with_the_match(
            name in proptest::collection::vec(
                prop_oneof![
                    3 => prop::sample::select(b"abdehilmnoprstuvAHDPST1236".to_vec()),
                    1 => any::<u8>(),
                ],
                0..14,
            ),
        ) {
            prop_assert_eq!(Tag::from_name(&name), tag_by_match(&name));
        }

        #[test]
        fn tags_match_naive_scan(parts in proptest::collection::vec(("[a-zA-Z]{1,8}", "[a-z ]{0,10}", any::<bool>()), 0..40)) {
            let mut src = String::new();
            for (name, text, end) in &parts {
                src.push_str(if *end { "</" } else { "<" });
                src.push_str(name);
                src.push('>');
                src.push_str(text);
            }
            // Raw-text names change the stream by design; leave them out of this comparison.
            prop_assume!(!parts.iter().any(|(n, _, end)| !end && Tag::from_name(n.as_bytes()).is_raw_text()));
            let fast: Vec<_> = Tokenizer::new(&src)
                .filter(|t| matches!(t.kind, TokenKind::StartTag | TokenKind::EndTag))
                .map(|t| (t.kind, t.name(&src).to_ascii_lowercase()))
                .collect();
            prop_assert_eq!(fast, naive_tag_names(&src));
        }
    }
}
