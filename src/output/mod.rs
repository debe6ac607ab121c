//! Output: kept text → shards on disk. The last stage of the pipeline.
//!
//! **Takes** one [`PageRecord`] per extracted page, in the order the pipeline hands them over,
//! for one input file at a time. **Gives** a numbered series of shard files (or, for
//! [`Format::Text`], shard directories) under one output directory, and a [`ShardSummary`]
//! of what was written. The same sequence of pages always gives byte-identical shards: no
//! timestamps, no randomness, no hash-map order anywhere in the output.
//!
//! ```no_run
//! use std::path::Path;
//! use warcsift::output::{PageRecord, ShardOptions, ShardWriter};
//!
//! # fn pages() -> Vec<PageRecord> { Vec::new() }
//! let mut writer = ShardWriter::create(Path::new("out"), "CC-MAIN-x", &ShardOptions::default())?;
//! for page in pages() {
//!     writer.write(&page)?;
//! }
//! let summary = writer.finish()?; // out/CC-MAIN-x-00000.jsonl.zst, ...
//! println!("{} pages in {} shards", summary.pages, summary.files.len());
//! # Ok::<(), warcsift::output::OutputError>(())
//! ```
//!
//! # Formats and file names
//!
//! Shards of one input are named `<stem>-NNNNN.<ext>`, numbered from `00000` (five digits,
//! more past 99999), so a plain sort lists them in order:
//!
//! | format  | `--compress` | shard name                     | content |
//! |---------|--------------|--------------------------------|---------|
//! | `jsonl` | `zstd`       | `<stem>-00000.jsonl.zst`       | one zstd frame (with checksum) of JSONL |
//! | `jsonl` | `gzip`       | `<stem>-00000.jsonl.gz`        | one gzip member of JSONL |
//! | `jsonl` | `none`       | `<stem>-00000.jsonl`           | JSONL |
//! | `wet`   | ignored      | `<stem>-00000.warc.wet.gz`     | WARC/1.0, one gzip member per record |
//! | `text`  | ignored      | `<stem>-00000/` (a directory)  | `000000.txt`, `000001.txt`, … and `index.tsv` |
//! | `parquet` | ignored (zstd inside) | `<stem>-00000.parquet` | Parquet, the JSONL fields as columns, zstd |
//!
//! - **JSONL** ([`jsonl`]): one JSON object per line, `\n`-terminated, with the fields of
//!   [`PageRecord`] in declaration order. Reads back with any JSON parser (and into
//!   [`PageRecord`] with serde).
//! - **WET** ([`wet`]): exactly the layout of Common Crawl's WET files, so `warcio`, `fastwarc`
//!   and CC tooling read it: a `warcinfo` record opens every shard, then one `conversion`
//!   record per page whose block is the title line followed by the text. WET is always
//!   gzip-compressed per record, as Common Crawl writes it; `--compress` does not apply.
//! - **Text** ([`text`]): for looking at results by eye. One plain `.txt` file per page
//!   holding exactly [`PageRecord::text`], named by its sequence number within the shard,
//!   and an `index.tsv` mapping each number to the record id, URL and page type. Never
//!   compressed.
//!
//! # Atomic shards
//!
//! Every shard is written under a hidden temporary name in the same directory,
//! `.<name>.tmp` (for example `out/.CC-MAIN-x-00001.jsonl.zst.tmp`, or the directory
//! `out/.CC-MAIN-x-00001.tmp/`), and renamed to its final name only once it is complete: the
//! compressor finished, the buffers flushed and, for file shards, the data synced to disk
//! (`sync_data`, one call per shard, so a power cut cannot leave an empty file under a final
//! name). A shard is complete when it rolls over or when [`ShardWriter::finish`] is called.
//! If the writer is dropped without `finish` (a crash, an error upstream) the last shard
//! stays under its temporary name: a file with a final-looking name is always whole.
//! After a write error the writer refuses further writes and `finish`.
//!
//! Shards of earlier runs with the same stem are replaced shard by shard; shards beyond the
//! number this run writes are left alone. Text shards skip `sync_data`: one per page would
//! cost more than the whole write, and the format is for inspection only.
//!
//! # Rollover and defaults
//!
//! A shard is closed after the page that makes its uncompressed size reach
//! [`ShardOptions::shard_size`]; the next page opens the next shard. Pages never split, so
//! every shard but the last holds at least `shard_size` bytes and overshoots by less than one
//! page (plus, for WET, its `warcinfo` record); a page larger than `shard_size` gets a shard
//! of its own. "Uncompressed size" is what the format writes before compression: JSONL lines,
//! WARC records, or `.txt` bytes plus `index.tsv` lines. Shards are opened lazily, so an input
//! without a single page gives no files at all.
//!
//! - `shard_size` = 256 MiB: big enough that per-shard costs (open, rename, fsync, warcinfo
//!   record, compressor start-up) vanish, small enough that a downstream job can hold one
//!   shard in memory and a crash loses at most one shard of work.
//! - `compress` = zstd, `zstd_level` = 3: zstd's own default level, which compresses text
//!   several hundred MB/s per core, so the writer never becomes the bottleneck next to
//!   extraction, and still shrinks text 3–4×. gzip (level 6) is there for tools that cannot
//!   read zstd.
//!
//! # Refuses
//!
//! - A `stem` that is empty, `.` or `..`, starts with `.` (would read as a temporary file),
//!   or contains `/`, `\` or NUL: the caller sanitises the input name; this stage only checks.
//! - A `zstd_level` outside the range the linked zstd supports (see
//!   [`zstd::compression_level_range`]).
//!
//! Every failure is an [`OutputError`] that reads as a sentence naming the path and the cause,
//! for example `cannot write shard out/.x-00001.jsonl.zst.tmp: No space left on device`.

pub mod jsonl;
pub mod parquet;
mod shard;
pub mod text;
pub mod wet;

#[cfg(test)]
mod tests;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

pub use shard::{shard_name, ShardSummary, ShardWriter};

/// One extracted page, as the pipeline hands it to the writer.
///
/// Field order is the order of the JSONL keys.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageRecord {
    /// `WARC-Record-ID` of the response record, e.g. `<urn:uuid:...>`.
    pub id: String,
    /// `WARC-Target-URI`.
    pub url: String,
    /// `WARC-Date`.
    pub date: String,
    /// The headline ([`crate::metadata`]: JSON-LD, OpenGraph, `<h1>`), without the site's
    /// name; the `<title>` tag (suffix removed) when nothing better is there.
    pub title: Option<String>,
    /// `<title>`, whitespace-collapsed, as written (site name and all).
    #[serde(default)]
    pub html_title: Option<String>,
    /// Author name(s), several joined with `, `.
    #[serde(default)]
    pub author: Option<String>,
    /// Publication date, ISO 8601: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` with the offset
    /// when the page gives a time.
    #[serde(default)]
    pub date_published: Option<String>,
    /// `<meta name=description>`, `og:description` or JSON-LD `description`.
    #[serde(default)]
    pub description: Option<String>,
    /// `og:site_name`, JSON-LD `WebSite` or publisher name.
    #[serde(default)]
    pub site_name: Option<String>,
    /// `<link rel=canonical>` or `og:url`, absolute.
    #[serde(default)]
    pub canonical_url: Option<String>,
    /// Detected language of [`PageRecord::text`] ([`crate::lang`]): ISO 639-1, or ISO 639-3
    /// where there is no two-letter code; `null` for texts too short to tell. (Before the
    /// field `html_lang` existed, this held the declared language.)
    pub lang: Option<String>,
    /// The detector's confidence in `lang`, 0 to 1 (two decimals).
    #[serde(default)]
    pub lang_score: Option<f32>,
    /// Declared language (`<html lang>`), as written in the page.
    #[serde(default)]
    pub html_lang: Option<String>,
    /// What kind of page it is ([`crate::page_type::PageType::as_str`]): `article`, `forum`,
    /// `product`, `collection`, `listing`, `documentation`, `service` or `other`. Records
    /// written before the field existed read back as `""`.
    #[serde(default)]
    pub page_type: String,
    /// WHATWG name of the charset the page was decoded with.
    pub charset: String,
    /// How the charset was decided: `bom`, `http`, `meta`, `detected`, `utf8-override`, `default`.
    pub charset_source: String,
    /// Main content, one block per line.
    pub text: String,
    /// Input file name as given on the command line.
    pub source: String,
    /// Byte offset of the record in the input.
    pub offset: u64,
    /// `WARC-Truncated` was set on the record.
    pub truncated: bool,
}

/// Output format of the shards (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// JSON Lines, one object per page.
    #[default]
    Jsonl,
    /// WARC conversion records, as Common Crawl's WET files.
    Wet,
    /// One `.txt` per page in a directory per shard, for inspection.
    Text,
    /// Apache Parquet, the JSONL fields as columns, zstd, one row group per ~128 MiB (docs/corpus.md).
    Parquet,
}

/// Compression of JSONL shards (`--compress`); WET is always gzip, text never compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Compress {
    /// zstd, one frame per shard, with content checksum.
    #[default]
    Zstd,
    /// gzip, one member per shard.
    Gzip,
    /// Plain files.
    None,
}

impl Format {
    /// The name used on the command line and in stats.
    pub fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Wet => "wet",
            Format::Text => "text",
            Format::Parquet => "parquet",
        }
    }
}

impl Compress {
    /// The name used on the command line and in stats.
    pub fn name(self) -> &'static str {
        match self {
            Compress::Zstd => "zstd",
            Compress::Gzip => "gzip",
            Compress::None => "none",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Compress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "jsonl" => Ok(Format::Jsonl),
            "wet" => Ok(Format::Wet),
            "text" => Ok(Format::Text),
            "parquet" => Ok(Format::Parquet),
            _ => Err(format!(
                "unknown output format {s:?} (expected jsonl, wet, text or parquet)"
            )),
        }
    }
}

impl FromStr for Compress {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "zstd" => Ok(Compress::Zstd),
            "gzip" => Ok(Compress::Gzip),
            "none" => Ok(Compress::None),
            _ => Err(format!(
                "unknown compression {s:?} (expected zstd, gzip or none)"
            )),
        }
    }
}

/// How shards are written. See the module docs for why the defaults are what they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardOptions {
    pub format: Format,
    /// Applies to [`Format::Jsonl`] only.
    pub compress: Compress,
    /// Uncompressed bytes after which a shard is closed. Default 256 MiB.
    pub shard_size: u64,
    /// zstd level for [`Compress::Zstd`]. Default 3.
    pub zstd_level: i32,
}

/// Default [`ShardOptions::shard_size`]: 256 MiB.
pub const DEFAULT_SHARD_SIZE: u64 = 256 * 1024 * 1024;
/// Default [`ShardOptions::zstd_level`]: zstd's own default.
pub const DEFAULT_ZSTD_LEVEL: i32 = 3;

impl Default for ShardOptions {
    fn default() -> Self {
        ShardOptions {
            format: Format::Jsonl,
            compress: Compress::Zstd,
            shard_size: DEFAULT_SHARD_SIZE,
            zstd_level: DEFAULT_ZSTD_LEVEL,
        }
    }
}

/// Why writing shards failed. Each message names the path and the cause.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("cannot create output directory {}: {}", path.display(), io_cause(cause))]
    CreateDir { path: PathBuf, cause: io::Error },
    #[error("cannot create shard {}: {}", path.display(), io_cause(cause))]
    Create { path: PathBuf, cause: io::Error },
    #[error("cannot write shard {}: {}", path.display(), io_cause(cause))]
    Write { path: PathBuf, cause: io::Error },
    #[error("cannot rename shard {} to {}: {}", from.display(), to.display(), io_cause(cause))]
    Rename {
        from: PathBuf,
        to: PathBuf,
        cause: io::Error,
    },
    #[error("invalid shard stem {stem:?}: {reason}")]
    InvalidStem { stem: String, reason: &'static str },
    #[error("invalid zstd level {level}: the linked zstd accepts {min} to {max}")]
    InvalidZstdLevel { level: i32, min: i32, max: i32 },
    #[error("cannot encode Parquet shard {}: {cause}", path.display())]
    Parquet {
        path: PathBuf,
        cause: ::parquet::errors::ParquetError,
    },
    #[error("shard writer for {} stopped after an earlier error; its last shard stays at {}", stem, path.display())]
    Poisoned { stem: String, path: PathBuf },
}

impl OutputError {
    pub(crate) fn write(path: &Path, cause: io::Error) -> OutputError {
        OutputError::Write {
            path: path.to_path_buf(),
            cause,
        }
    }

    pub(crate) fn create(path: &Path, cause: io::Error) -> OutputError {
        OutputError::Create {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// The OS's sentence for an I/O error, without Rust's ` (os error N)` suffix, so that
/// messages read "… : No space left on device".
fn io_cause(e: &io::Error) -> String {
    let s = e.to_string();
    match (e.raw_os_error(), s.rfind(" (os error ")) {
        (Some(_), Some(i)) => s[..i].to_string(),
        _ => s,
    }
}
