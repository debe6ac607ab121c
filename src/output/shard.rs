//! The shard writer: numbering, rollover, compression, and the temp-then-rename dance.
//! Formats are encoded by [`super::jsonl`], [`super::wet`] and [`super::text`].

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;

use super::parquet::ParquetShard;
use super::text::TextShard;
use super::{jsonl, wet, Compress, Format, OutputError, PageRecord, ShardOptions};

/// Write buffer in front of each shard file: large enough that the compressor's output
/// reaches the kernel in few, big writes.
const BUFFER_SIZE: usize = 256 * 1024;

/// Encoded JSONL is collected up to this many bytes before it goes to the gzip or zstd
/// compressor, so that the compressor runs over about a megabyte at a time with its tables
/// hot in the cache instead of a few kilobytes per page between other threads' work. The
/// compressed bytes are the same as with one call per page: both compressors cut blocks by
/// their own buffer sizes, not by the sizes of the writes.
const PENDING_BYTES: usize = 1024 * 1024;

/// gzip level of JSONL shards: flate2's (and gzip's) default.
const GZIP_LEVEL: u32 = 6;

/// What [`ShardWriter::finish`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShardSummary {
    /// Final paths of the shards (files, or directories for [`Format::Text`]), in order.
    pub files: Vec<PathBuf>,
    /// Pages written.
    pub pages: u64,
    /// Bytes before compression (JSONL lines, WARC records, or text files and index lines).
    pub bytes_uncompressed: u64,
    /// Bytes on disk.
    pub bytes_written: u64,
}

/// Final name (file or directory name, no directory) of shard number `index` of `stem`.
pub fn shard_name(stem: &str, opts: &ShardOptions, index: u64) -> String {
    let ext = match (opts.format, opts.compress) {
        (Format::Jsonl, Compress::Zstd) => ".jsonl.zst",
        (Format::Jsonl, Compress::Gzip) => ".jsonl.gz",
        (Format::Jsonl, Compress::None) => ".jsonl",
        (Format::Wet, _) => ".warc.wet.gz",
        (Format::Text, _) => "",
        (Format::Parquet, _) => ".parquet",
    };
    format!("{stem}-{index:05}{ext}")
}

/// Temporary name under which shard `name` is written: hidden, and never ending in a
/// final extension.
fn temp_name(name: &str) -> String {
    format!(".{name}.tmp")
}

/// Writes the pages of one input (`stem`, already sanitised by the caller) into
/// `<dir>/<stem>-NNNNN.<ext>` shards. See the [module docs](super) for naming and guarantees.
pub struct ShardWriter {
    dir: PathBuf,
    stem: String,
    opts: ShardOptions,
    next_index: u64,
    current: Option<OpenShard>,
    /// One encoded page (uncompressed), reused across pages.
    scratch: Vec<u8>,
    /// One gzip member (WET), reused across pages.
    member: Vec<u8>,
    /// JSONL not yet given to the gzip or zstd compressor (see [`PENDING_BYTES`]).
    pending: Vec<u8>,
    summary: ShardSummary,
    /// Set after an error: the temporary path of the shard that was being written.
    failed: Option<PathBuf>,
}

struct OpenShard {
    name: String,
    tmp: PathBuf,
    dest: PathBuf,
    body: Body,
    uncompressed: u64,
}

enum Body {
    Plain(BufWriter<File>),
    Gzip(GzEncoder<BufWriter<File>>),
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<File>>),
    /// WET: records arrive already compressed, one gzip member each.
    Members(BufWriter<File>),
    Text(TextShard),
    Parquet(Box<ParquetShard>),
}

impl ShardWriter {
    /// Prepare to write shards of `stem` into `dir` (created if missing). No file is created
    /// until the first page arrives.
    pub fn create(dir: &Path, stem: &str, opts: &ShardOptions) -> Result<ShardWriter, OutputError> {
        check_stem(stem)?;
        let levels = zstd::compression_level_range();
        if !levels.contains(&opts.zstd_level) {
            return Err(OutputError::InvalidZstdLevel {
                level: opts.zstd_level,
                min: *levels.start(),
                max: *levels.end(),
            });
        }
        fs::create_dir_all(dir).map_err(|cause| OutputError::CreateDir {
            path: dir.to_path_buf(),
            cause,
        })?;
        Ok(ShardWriter {
            dir: dir.to_path_buf(),
            stem: stem.to_string(),
            opts: opts.clone(),
            next_index: 0,
            current: None,
            scratch: Vec::new(),
            member: Vec::new(),
            pending: Vec::new(),
            summary: ShardSummary::default(),
            failed: None,
        })
    }

    /// Append `page` to the current shard, opening one if needed, and close the shard once
    /// it reaches the shard size. After an error the writer refuses everything.
    pub fn write(&mut self, page: &PageRecord) -> Result<(), OutputError> {
        self.check_not_failed()?;
        let result = self.write_page(page);
        self.poison_on_error(result)
    }

    /// Close the last shard and rename it into place. Returns the final paths and byte counts.
    pub fn finish(mut self) -> Result<ShardSummary, OutputError> {
        self.check_not_failed()?;
        if let Some(shard) = self.current.take() {
            let result = self.close(shard);
            self.poison_on_error(result)?;
        }
        Ok(self.summary)
    }

    fn check_not_failed(&self) -> Result<(), OutputError> {
        match &self.failed {
            Some(path) => Err(OutputError::Poisoned {
                stem: self.stem.clone(),
                path: path.clone(),
            }),
            None => Ok(()),
        }
    }

    /// On error, drop the open shard where it is (under its temporary name) and remember it.
    fn poison_on_error(&mut self, result: Result<(), OutputError>) -> Result<(), OutputError> {
        if result.is_err() {
            let tmp = match self.current.take() {
                Some(shard) => shard.tmp,
                None => self.dir.join(temp_name(&shard_name(
                    &self.stem,
                    &self.opts,
                    self.next_index.saturating_sub(1),
                ))),
            };
            self.failed = Some(tmp);
        }
        result
    }

    fn write_page(&mut self, page: &PageRecord) -> Result<(), OutputError> {
        let mut shard = match self.current.take() {
            Some(shard) => shard,
            None => self.open(page)?,
        };
        let written = self.append(&mut shard, page);
        let full = shard.uncompressed >= self.opts.shard_size;
        if let Err(e) = written {
            // Keep the shard so that the error handling knows its temporary name.
            self.current = Some(shard);
            return Err(e);
        }
        self.summary.pages += 1;
        if full {
            self.close(shard)
        } else {
            self.current = Some(shard);
            Ok(())
        }
    }

    fn append(&mut self, shard: &mut OpenShard, page: &PageRecord) -> Result<(), OutputError> {
        self.scratch.clear();
        let tmp = &shard.tmp;
        match &mut shard.body {
            Body::Plain(w) => {
                jsonl::encode_into(page, &mut self.scratch);
                w.write_all(&self.scratch)
            }
            Body::Gzip(_) | Body::Zstd(_) => {
                let before = self.pending.len();
                jsonl::encode_into(page, &mut self.pending);
                shard.uncompressed += (self.pending.len() - before) as u64;
                if self.pending.len() < PENDING_BYTES {
                    return Ok(());
                }
                let written = compress_pending(&mut shard.body, &mut self.pending);
                return written.map_err(|e| OutputError::write(tmp, e));
            }
            Body::Members(w) => {
                wet::conversion_record(page, &mut self.scratch);
                self.member.clear();
                wet::gzip_member(&self.scratch, &mut self.member)
                    .and_then(|()| w.write_all(&self.member))
            }
            Body::Text(t) => {
                shard.uncompressed += t.write(page)?;
                return Ok(());
            }
            Body::Parquet(p) => {
                shard.uncompressed += p.write(page).map_err(|cause| parquet_error(tmp, cause))?;
                return Ok(());
            }
        }
        .map_err(|e| OutputError::write(tmp, e))?;
        shard.uncompressed += self.scratch.len() as u64;
        Ok(())
    }

    /// Open the next shard under its temporary name; `first` is its first page (WET's
    /// warcinfo record is dated and named from it).
    fn open(&mut self, first: &PageRecord) -> Result<OpenShard, OutputError> {
        let name = shard_name(&self.stem, &self.opts, self.next_index);
        self.next_index += 1;
        let tmp = self.dir.join(temp_name(&name));
        let dest = self.dir.join(&name);
        if self.opts.format == Format::Text {
            let text = TextShard::create(&tmp)?;
            let uncompressed = text.bytes; // the index header
            return Ok(OpenShard {
                name,
                tmp,
                dest,
                body: Body::Text(text),
                uncompressed,
            });
        }
        let file = File::create(&tmp).map_err(|e| OutputError::create(&tmp, e))?;
        let w = BufWriter::with_capacity(BUFFER_SIZE, file);
        let mut uncompressed = 0;
        let body = match (self.opts.format, self.opts.compress) {
            (Format::Parquet, _) => Body::Parquet(Box::new(
                ParquetShard::create(w, self.opts.zstd_level)
                    .map_err(|cause| parquet_error(&tmp, cause))?,
            )),
            (Format::Wet, _) => {
                let mut w = w;
                self.scratch.clear();
                wet::warcinfo_record(&name, first, &mut self.scratch);
                self.member.clear();
                wet::gzip_member(&self.scratch, &mut self.member)
                    .and_then(|()| w.write_all(&self.member))
                    .map_err(|e| OutputError::write(&tmp, e))?;
                uncompressed = self.scratch.len() as u64;
                Body::Members(w)
            }
            (_, Compress::None) => Body::Plain(w),
            (_, Compress::Gzip) => {
                Body::Gzip(GzEncoder::new(w, flate2::Compression::new(GZIP_LEVEL)))
            }
            (_, Compress::Zstd) => {
                let mut enc = zstd::stream::write::Encoder::new(w, self.opts.zstd_level)
                    .map_err(|e| OutputError::create(&tmp, e))?;
                enc.include_checksum(true)
                    .map_err(|e| OutputError::create(&tmp, e))?;
                Body::Zstd(enc)
            }
        };
        Ok(OpenShard {
            name,
            tmp,
            dest,
            body,
            uncompressed,
        })
    }

    /// Finish the compressor, flush, sync, and rename the shard to its final name.
    fn close(&mut self, shard: OpenShard) -> Result<(), OutputError> {
        let OpenShard {
            name,
            tmp,
            dest,
            body,
            uncompressed,
        } = shard;
        let written = match body {
            Body::Text(t) => {
                let bytes = t.bytes;
                t.finish()?;
                replace_dir(&self.dir, &name, &tmp, &dest)?;
                bytes
            }
            Body::Plain(w) | Body::Members(w) => seal(w, &tmp)?,
            Body::Parquet(p) => {
                let w = p.finish().map_err(|cause| parquet_error(&tmp, cause))?;
                seal(w, &tmp)?
            }
            Body::Gzip(mut enc) => {
                let w = compress_pending_into(&mut enc, &mut self.pending)
                    .and_then(|()| enc.finish())
                    .map_err(|e| OutputError::write(&tmp, e))?;
                seal(w, &tmp)?
            }
            Body::Zstd(mut enc) => {
                let w = compress_pending_into(&mut enc, &mut self.pending)
                    .and_then(|()| enc.finish())
                    .map_err(|e| OutputError::write(&tmp, e))?;
                seal(w, &tmp)?
            }
        };
        if !matches!(self.opts.format, Format::Text) {
            fs::rename(&tmp, &dest).map_err(|cause| OutputError::Rename {
                from: tmp.clone(),
                to: dest.clone(),
                cause,
            })?;
        }
        self.summary.files.push(dest);
        self.summary.bytes_uncompressed += uncompressed;
        self.summary.bytes_written += written;
        Ok(())
    }
}

/// Gives the collected JSONL to the shard's compressor (gzip or zstd bodies only).
fn compress_pending(body: &mut Body, pending: &mut Vec<u8>) -> std::io::Result<()> {
    match body {
        Body::Gzip(enc) => compress_pending_into(enc, pending),
        Body::Zstd(enc) => compress_pending_into(enc, pending),
        Body::Plain(_) | Body::Members(_) | Body::Text(_) | Body::Parquet(_) => Ok(()),
    }
}

fn compress_pending_into(w: &mut impl Write, pending: &mut Vec<u8>) -> std::io::Result<()> {
    let written = w.write_all(pending);
    pending.clear();
    written
}

/// A Parquet encoding failure (an I/O error inside the Parquet writer stays an I/O error).
fn parquet_error(tmp: &Path, cause: ::parquet::errors::ParquetError) -> OutputError {
    match cause {
        ::parquet::errors::ParquetError::External(e) => match e.downcast::<std::io::Error>() {
            Ok(io) => OutputError::write(tmp, *io),
            Err(e) => OutputError::Parquet {
                path: tmp.to_path_buf(),
                cause: ::parquet::errors::ParquetError::External(e),
            },
        },
        cause => OutputError::Parquet {
            path: tmp.to_path_buf(),
            cause,
        },
    }
}

/// Flush `w`, sync the file's data to disk, and return its length.
fn seal(w: BufWriter<File>, tmp: &Path) -> Result<u64, OutputError> {
    let mut file = w
        .into_inner()
        .map_err(|e| OutputError::write(tmp, e.into_error()))?;
    file.flush().map_err(|e| OutputError::write(tmp, e))?;
    file.sync_data().map_err(|e| OutputError::write(tmp, e))?;
    let len = file
        .metadata()
        .map_err(|e| OutputError::write(tmp, e))?
        .len();
    Ok(len)
}

/// Rename the complete directory `tmp` to `dest`. A directory cannot be renamed over a
/// non-empty one, so an existing `dest` (an earlier run) is first moved aside to
/// `.<name>.old.tmp`, then removed once the new shard is in place.
fn replace_dir(dir: &Path, name: &str, tmp: &Path, dest: &Path) -> Result<(), OutputError> {
    let rename = |from: &Path, to: &Path| {
        fs::rename(from, to).map_err(|cause| OutputError::Rename {
            from: from.to_path_buf(),
            to: to.to_path_buf(),
            cause,
        })
    };
    if fs::symlink_metadata(dest).is_err() {
        return rename(tmp, dest);
    }
    let old = dir.join(format!(".{name}.old.tmp"));
    remove_any(&old)?;
    rename(dest, &old)?;
    rename(tmp, dest)?;
    remove_any(&old)
}

/// Remove `path`, file or directory, if it exists.
fn remove_any(path: &Path) -> Result<(), OutputError> {
    let result = match fs::symlink_metadata(path) {
        Err(_) => return Ok(()),
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
    };
    result.map_err(|e| OutputError::write(path, e))
}

fn check_stem(stem: &str) -> Result<(), OutputError> {
    let reason = if stem.is_empty() {
        Some("it is empty")
    } else if stem.starts_with('.') {
        Some("it starts with '.', which would hide it and read as a temporary file")
    } else if stem.contains(['/', '\\', '\0']) {
        Some("it contains '/', '\\' or NUL; the caller must sanitise input names")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(OutputError::InvalidStem {
            stem: stem.to_string(),
            reason,
        }),
        None => Ok(()),
    }
}
