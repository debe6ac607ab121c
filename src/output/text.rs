//! Text shards: one directory per shard, one plain `.txt` file per page, for inspection.
//!
//! A shard directory `<stem>-NNNNN/` holds:
//!
//! - `000000.txt`, `000001.txt`, …: exactly [`PageRecord::text`] of each page, in the order
//!   the pages were written, numbered from 0 within the shard (six digits, more past 999999).
//!   No title line, no added newline.
//! - `index.tsv`: a header line `n\tid\turl\tpage_type`, then one line per page with its
//!   number (as in the file name, without `.txt`), record id, URL and page type. Tabs, line breaks and backslashes in
//!   the id and URL are written as `\t`, `\n`, `\r` and `\\`, so every page is one line.
//!
//! The shard writer builds the directory under a temporary name and renames it into place
//! when the shard is complete, like every other shard.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{OutputError, PageRecord};

/// Name of the per-shard index file.
pub const INDEX_FILE: &str = "index.tsv";

/// File name of the `n`-th page of a shard.
pub fn page_file_name(n: u64) -> String {
    format!("{n:06}.txt")
}

/// Append the `index.tsv` line of the `n`-th page to `out`.
pub fn index_line(n: u64, page: &PageRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(format!("{n:06}\t").as_bytes());
    escape_tsv(&page.id, out);
    out.push(b'\t');
    escape_tsv(&page.url, out);
    out.push(b'\t');
    escape_tsv(&page.page_type, out);
    out.push(b'\n');
}

fn escape_tsv(s: &str, out: &mut Vec<u8>) {
    for &b in s.as_bytes() {
        match b {
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ => out.push(b),
        }
    }
}

/// One text shard being written into its (temporary) directory.
pub(crate) struct TextShard {
    dir: PathBuf,
    index_path: PathBuf,
    index: BufWriter<File>,
    next: u64,
    line: Vec<u8>,
    /// Bytes written so far: page files, index header and lines.
    pub(crate) bytes: u64,
}

impl TextShard {
    /// Start a shard in `dir`, replacing whatever a crashed run left there.
    pub(crate) fn create(dir: &Path) -> Result<TextShard, OutputError> {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(|e| OutputError::create(dir, e))?;
        }
        fs::create_dir(dir).map_err(|e| OutputError::create(dir, e))?;
        let index_path = dir.join(INDEX_FILE);
        let file = File::create(&index_path).map_err(|e| OutputError::create(&index_path, e))?;
        let mut shard = TextShard {
            dir: dir.to_path_buf(),
            index: BufWriter::new(file),
            index_path,
            next: 0,
            line: Vec::new(),
            bytes: 0,
        };
        let header = b"n\tid\turl\tpage_type\n";
        shard
            .index
            .write_all(header)
            .map_err(|e| OutputError::write(&shard.index_path, e))?;
        shard.bytes += header.len() as u64;
        Ok(shard)
    }

    /// Write `page` as the next `.txt` file and index line; returns the bytes written.
    pub(crate) fn write(&mut self, page: &PageRecord) -> Result<u64, OutputError> {
        let path = self.dir.join(page_file_name(self.next));
        fs::write(&path, page.text.as_bytes()).map_err(|e| OutputError::write(&path, e))?;
        self.line.clear();
        index_line(self.next, page, &mut self.line);
        self.index
            .write_all(&self.line)
            .map_err(|e| OutputError::write(&self.index_path, e))?;
        self.next += 1;
        let n = (page.text.len() + self.line.len()) as u64;
        self.bytes += n;
        Ok(n)
    }

    /// Flush the index. The directory is then complete and may be renamed.
    pub(crate) fn finish(self) -> Result<(), OutputError> {
        let file = self
            .index
            .into_inner()
            .map_err(|e| OutputError::write(&self.index_path, e.into_error()))?;
        drop(file);
        Ok(())
    }
}
