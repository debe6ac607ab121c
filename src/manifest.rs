//! Manifests: the list of a crawl's inputs, one per line, as Common Crawl publishes it
//! (`warc.paths.gz`), and the output names derived from it.
//!
//! **Takes** a file (`--manifest`), plain or gzip (told by the magic bytes `1f 8b`, never by
//! the name), and an optional `--prefix`: a directory or an `http(s)://` base URL. **Gives**
//! one [`Entry`] per input: the line as written, the [`InputSpec`] to open, and the stem its
//! shards and completion marker are named after.
//!
//! # Lines
//!
//! Surrounding whitespace (and a trailing `\r`) is trimmed; blank lines and lines starting
//! with `#` are ignored. A line that is itself an `http(s)://` URL is used as it is. Any other
//! line is a path: with `--prefix DIR` it is joined under `DIR` (leading `/` removed, so it
//! stays under the prefix), with `--prefix URL` it is appended to the URL after one `/`, its
//! bytes outside RFC 3986's path characters percent-encoded (`%` itself is kept, so lines that
//! are already encoded stay as they are); without `--prefix` it is a path as written
//! (relative to the current directory). Refused, naming the line number: a `..` component
//! (it would climb out of the prefix), a control character, invalid UTF-8, or an empty
//! manifest.
//!
//! # Output names (stems)
//!
//! Every input's shards are `<stem>-NNNNN.<ext>` in the one `--out` folder that all tasks of a
//! crawl share, so a stem must be unique across the crawl, the same on every rerun (that is
//! how `--resume` finds earlier work), and never a path. For a manifest line the stem is
//!
//! ```text
//! <last path component, WARC/compression extensions removed, reduced to [A-Za-z0-9._-],
//!  at most 100 characters> "-" <first 12 hex digits of SHA-1 of the line as written>
//! crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc/CC-MAIN-20240220211055-20240221001055-00000.warc.gz
//!   → CC-MAIN-20240220211055-20240221001055-00000-<12 hex>
//! ```
//!
//! The readable part says which file it is; the hash of the full line makes two files with
//! the same name in different segments (or names that only differ in characters the
//! sanitising folds together) distinct. The stem depends only on the line, not on
//! `--prefix`, so moving a mirror keeps the names. The hash is over the line as written: the
//! same file listed as `a/x.warc.gz` and `./a/x.warc.gz` gets two names. A stem never contains
//! `/` or `\`, never starts with `.`, and so can only name a file directly inside `--out`,
//! whatever the line holds (`../../etc/passwd`, `/abs/path`, spaces, `?`, unicode).
//! Positional inputs keep their shorter names ([`output_stem`]).

use crate::input::InputSpec;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Hex digits of the line's SHA-1 kept in a stem (48 bits: for a crawl of 100,000 files the
/// chance that two *equally named* files share them is below 10⁻⁴, and a collision would be
/// refused at start-up, never silently merged).
pub const STEM_HASH_DIGITS: usize = 12;

/// Longest readable part of a stem, so that `.<stem>-00000.warc.wet.gz.tmp` stays well under
/// the 255-byte file-name limit of common filesystems.
pub const STEM_BASE_MAX: usize = 100;

/// Where relative manifest lines are resolved (`--prefix`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prefix {
    Dir(PathBuf),
    Url(String),
}

impl Prefix {
    /// `http(s)://...` is a base URL, anything else a directory.
    pub fn parse(s: &str) -> Prefix {
        match InputSpec::parse(s) {
            InputSpec::Url(u) => Prefix::Url(u),
            _ => Prefix::Dir(PathBuf::from(s)),
        }
    }
}

/// One input of a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The line as written (trimmed): what the stem is derived from, and what
    /// `merge-stats --manifest` reports as missing.
    pub line: String,
    /// Line number in the manifest, from 1.
    pub number: usize,
    /// Where to read it.
    pub spec: InputSpec,
    /// Output name; see the module doc.
    pub stem: String,
}

/// Read a manifest (plain or gzip) and resolve every line against `prefix`.
pub fn load(path: &Path, prefix: Option<&Prefix>) -> Result<Vec<Entry>, String> {
    let lines = read_lines(path)?;
    if lines.is_empty() {
        return Err(format!(
            "the manifest {} lists no input (only blank lines or # comments)",
            path.display()
        ));
    }
    lines
        .into_iter()
        .map(|(number, line)| {
            let spec = resolve(&line, prefix).map_err(|why| {
                format!(
                    "line {number} of the manifest {} ({line:?}) {why}",
                    path.display()
                )
            })?;
            Ok(Entry {
                stem: stem(&line),
                line,
                number,
                spec,
            })
        })
        .collect()
}

/// The non-blank, non-comment lines of a manifest, trimmed, with their line numbers.
pub fn read_lines(path: &Path) -> Result<Vec<(usize, String)>, String> {
    let cannot = |e: std::io::Error| format!("cannot read the manifest {}: {e}", path.display());
    let mut file = BufReader::new(std::fs::File::open(path).map_err(cannot)?);
    let gzip = file.fill_buf().map_err(cannot)?.starts_with(&[0x1f, 0x8b]);
    let mut reader: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    let mut out = Vec::new();
    let mut raw = Vec::new();
    let mut number = 0;
    loop {
        raw.clear();
        let n = reader.read_until(b'\n', &mut raw).map_err(cannot)?;
        if n == 0 {
            break;
        }
        number += 1;
        let line = std::str::from_utf8(&raw).map_err(|_| {
            format!(
                "line {number} of the manifest {} is not valid UTF-8",
                path.display()
            )
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.chars().any(char::is_control) {
            return Err(format!(
                "line {number} of the manifest {} contains a control character",
                path.display()
            ));
        }
        out.push((number, line.to_string()));
    }
    // A gzip manifest whose bytes run out early fails inside read_until above.
    Ok(out)
}

/// Where one (trimmed) manifest line is read from. `Err` says why the line is refused.
pub fn resolve(line: &str, prefix: Option<&Prefix>) -> Result<InputSpec, String> {
    if let spec @ InputSpec::Url(_) = InputSpec::parse(line) {
        return Ok(spec);
    }
    if line.split(['/', '\\']).any(|c| c == "..") {
        return Err("has a `..` component, which would climb out of the prefix".into());
    }
    if line == "-" {
        return Err("is `-`; standard input cannot be listed in a manifest".into());
    }
    Ok(match prefix {
        None => InputSpec::Path(PathBuf::from(line)),
        Some(Prefix::Dir(dir)) => InputSpec::Path(dir.join(line.trim_start_matches('/'))),
        Some(Prefix::Url(base)) => InputSpec::Url(format!(
            "{}/{}",
            base.trim_end_matches('/'),
            percent_encode_path(line.trim_start_matches('/'))
        )),
    })
}

/// The stem of a manifest line; see the module doc.
pub fn stem(line: &str) -> String {
    use sha1::{Digest, Sha1};
    let base = line
        .split(['?', '#'])
        .next()
        .unwrap_or(line)
        .rsplit(['/', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or("input");
    let mut readable = clean_stem(base);
    if readable.len() > STEM_BASE_MAX {
        // clean_stem output is ASCII, so any byte index is a char boundary.
        readable.truncate(STEM_BASE_MAX);
    }
    let digest = data_encoding::HEXLOWER.encode(&Sha1::digest(line.as_bytes()));
    format!("{readable}-{}", &digest[..STEM_HASH_DIGITS])
}

/// Percent-encode what may not appear in a URL path (RFC 3986 `pchar` and `/`); `%` is kept.
fn percent_encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'%'
            );
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The stem shards of a positional input are named after: the file name without
/// WARC/compression extensions, reduced by [`clean_stem`] (never a path, never starting with a
/// dot). Manifest inputs are named by [`stem`] instead.
pub fn output_stem(spec: &InputSpec) -> String {
    let name = spec.name();
    let base = name
        .rsplit(['/', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or("stdin");
    clean_stem(base)
}

/// A file name without WARC/compression extensions, reduced to `[A-Za-z0-9._-]` (others
/// become `_`), without leading dots; `input` if nothing is left.
pub fn clean_stem(base: &str) -> String {
    let mut stem = base.to_string();
    for ext in [".gz", ".zst", ".zstd", ".warc", ".arc"] {
        if let Some(s) = stem.strip_suffix(ext) {
            stem = s.to_string();
        }
    }
    let mut clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    while clean.starts_with('.') {
        clean.remove(0);
    }
    if clean.is_empty() {
        clean = "input".into();
    }
    clean
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const CC: &str = "crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc/\
                      CC-MAIN-20240220211055-20240221001055-00000.warc.gz";

    #[test]
    fn common_crawl_lines_resolve_against_dir_and_url() {
        let dir = Prefix::parse("/data/cc");
        assert_eq!(
            resolve(CC, Some(&dir)).unwrap(),
            InputSpec::Path(PathBuf::from("/data/cc").join(CC))
        );
        let url = Prefix::parse("https://data.commoncrawl.org/");
        assert_eq!(
            resolve(CC, Some(&url)).unwrap(),
            InputSpec::Url(format!("https://data.commoncrawl.org/{CC}"))
        );
        assert_eq!(
            resolve("a b/x?.warc.gz", Some(&url)).unwrap(),
            InputSpec::Url("https://data.commoncrawl.org/a%20b/x%3F.warc.gz".into())
        );
        assert_eq!(
            resolve("/abs/x.warc", Some(&dir)).unwrap(),
            InputSpec::Path(PathBuf::from("/data/cc/abs/x.warc"))
        );
        assert_eq!(
            resolve("http://h/x.warc.gz", Some(&dir)).unwrap(),
            InputSpec::Url("http://h/x.warc.gz".into())
        );
        assert_eq!(
            resolve("x.warc", None).unwrap(),
            InputSpec::Path("x.warc".into())
        );
    }

    #[test]
    fn climbing_lines_are_refused() {
        for line in ["../x.warc.gz", "a/../../b", "a\\..\\b", ".."] {
            assert!(resolve(line, None).unwrap_err().contains("`..`"), "{line}");
        }
        assert!(resolve("a/..b/c", None).is_ok());
    }

    #[test]
    fn stems_are_unique_stable_and_inside_the_folder() {
        let s = stem(CC);
        assert!(
            s.starts_with("CC-MAIN-20240220211055-20240221001055-00000-"),
            "{s}"
        );
        assert_eq!(
            s.len(),
            "CC-MAIN-20240220211055-20240221001055-00000".len() + 13
        );
        assert_eq!(s, stem(CC), "stable");
        assert_ne!(stem("a/x.warc.gz"), stem("b/x.warc.gz"));
        assert_ne!(stem("a b.warc"), stem("a_b.warc"));
        for line in [
            "../../etc/passwd",
            "/abs/path.warc",
            "..",
            ".hidden.warc.gz",
            "a/b/",
            "sp ace/ü?x=1&y#frag",
            "\\\\server\\share\\x.warc",
            &"x".repeat(400),
        ] {
            let s = stem(line);
            assert!(
                !s.contains(['/', '\\']) && !s.starts_with('.'),
                "{line:?} → {s}"
            );
            assert!(s.len() <= STEM_BASE_MAX + 13, "{s}");
            assert!(
                s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')),
                "{s}"
            );
        }
    }

    #[test]
    fn plain_and_gzip_manifests_skip_blanks_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let text = "# Common Crawl paths\n\na/x.warc.gz\r\n  b/y.warc.gz  \n#c/z\n";
        let plain = dir.path().join("paths.txt");
        std::fs::write(&plain, text).unwrap();
        let gz = dir.path().join("paths.gz");
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        std::fs::write(&gz, e.finish().unwrap()).unwrap();
        for p in [&plain, &gz] {
            let entries = load(p, Some(&Prefix::parse("/d"))).unwrap();
            let lines: Vec<(usize, &str)> = entries
                .iter()
                .map(|e| (e.number, e.line.as_str()))
                .collect();
            assert_eq!(lines, vec![(3, "a/x.warc.gz"), (4, "b/y.warc.gz")]);
            assert_eq!(entries[0].spec, InputSpec::Path("/d/a/x.warc.gz".into()));
        }
        let empty = dir.path().join("empty");
        std::fs::write(&empty, "# nothing\n\n").unwrap();
        assert!(load(&empty, None).unwrap_err().contains("lists no input"));
        let bad = dir.path().join("bad");
        std::fs::write(&bad, "ok.warc\n../up.warc\n").unwrap();
        let err = load(&bad, None).unwrap_err();
        assert!(err.starts_with("line 2 of the manifest"), "{err}");
        let missing = dir.path().join("missing.gz");
        assert!(load(&missing, None)
            .unwrap_err()
            .starts_with("cannot read the manifest"));
        let mut cut = std::fs::read(&gz).unwrap();
        cut.truncate(cut.len() - 6);
        std::fs::write(&gz, cut).unwrap();
        assert!(
            load(&gz, None).is_err(),
            "a truncated gzip manifest is refused"
        );
    }
}
