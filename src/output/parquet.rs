//! Parquet encoding: the JSONL schema as columns, zstd-compressed, in row groups of about
//! [`ROW_GROUP_BYTES`], for pyarrow, pandas, DuckDB, Spark and HF `datasets`.
//!
//! One shard is one Parquet file. Columns, in [`PageRecord`]'s field order (strings are
//! `BYTE_ARRAY` annotated `STRING`, i.e. UTF-8; nullable where the JSONL field can be `null`):
//!
//! ```text
//! message page {
//!   required binary id (STRING);            required binary url (STRING);
//!   required binary date (STRING);          optional binary title (STRING);
//!   optional binary html_title (STRING);    optional binary author (STRING);
//!   optional binary date_published (STRING); optional binary description (STRING);
//!   optional binary site_name (STRING);     optional binary canonical_url (STRING);
//!   optional binary lang (STRING);          optional float lang_score;
//!   optional binary html_lang (STRING);     required binary page_type (STRING);
//!   required binary charset (STRING);       required binary charset_source (STRING);
//!   required binary text (STRING);          required binary source (STRING);
//!   required int64 offset (INTEGER(64,false)); required boolean truncated;
//! }
//! ```
//!
//! - **Row groups**: pages are buffered until their text and fields reach
//!   [`ROW_GROUP_BYTES`] (128 MiB, the size Spark and DuckDB read best and the one the
//!   Parquet documentation recommends), then written as one row group; the shard's last
//!   pages make a smaller one. A shard of the default 256 MiB holds two or three.
//! - **Compression**: zstd at the shard writer's level (`--zstd-level`, default 3) for every
//!   column. Dictionary encoding for the short columns (Parquet's default), none for `text`
//!   and `description` (each value is unique; a dictionary would only cost), and no min/max
//!   statistics for `text`.
//! - **Deterministic**: the same pages give the same bytes (no timestamps; `created_by` is
//!   `warcsift <version>`).
//!
//! Atomicity is the shard writer's: the file is written under its temporary name and
//! renamed once the footer is written and the data synced.

use std::fs::File;
use std::io::BufWriter;
use std::sync::Arc;

use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, FloatType, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;

use super::PageRecord;

/// Uncompressed bytes of buffered pages after which a row group is written: 128 MiB.
pub const ROW_GROUP_BYTES: u64 = 128 * 1024 * 1024;

/// The Parquet schema of a shard (see the module doc).
pub const SCHEMA: &str = "
message page {
  required binary id (STRING);
  required binary url (STRING);
  required binary date (STRING);
  optional binary title (STRING);
  optional binary html_title (STRING);
  optional binary author (STRING);
  optional binary date_published (STRING);
  optional binary description (STRING);
  optional binary site_name (STRING);
  optional binary canonical_url (STRING);
  optional binary lang (STRING);
  optional float lang_score;
  optional binary html_lang (STRING);
  required binary page_type (STRING);
  required binary charset (STRING);
  required binary charset_source (STRING);
  required binary text (STRING);
  required binary source (STRING);
  required int64 offset (INTEGER(64,false));
  required boolean truncated;
}
";

/// One Parquet shard being written.
pub struct ParquetShard {
    writer: SerializedFileWriter<BufWriter<File>>,
    rows: Vec<PageRecord>,
    buffered: u64,
    row_group_bytes: u64,
}

impl ParquetShard {
    /// Start a Parquet file on `w`, zstd at `level`.
    pub fn create(w: BufWriter<File>, level: i32) -> parquet::errors::Result<ParquetShard> {
        Self::with_row_group_bytes(w, level, ROW_GROUP_BYTES)
    }

    /// [`ParquetShard::create`] with another row-group size (tests).
    pub fn with_row_group_bytes(
        w: BufWriter<File>,
        level: i32,
        row_group_bytes: u64,
    ) -> parquet::errors::Result<ParquetShard> {
        let schema = Arc::new(parse_message_type(SCHEMA)?);
        let plain = |b: parquet::file::properties::WriterPropertiesBuilder, col: &str| {
            b.set_column_dictionary_enabled(ColumnPath::from(col), false)
        };
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(level)?))
            .set_created_by(format!("warcsift {}", env!("CARGO_PKG_VERSION")))
            // Row groups are cut here by bytes, never by the library's row count.
            .set_max_row_group_size(usize::MAX)
            .set_column_statistics_enabled(ColumnPath::from("text"), EnabledStatistics::None)
            .set_statistics_truncate_length(Some(64))
            .set_column_index_truncate_length(Some(64));
        for col in ["text", "description"] {
            props = plain(props, col);
        }
        let writer = SerializedFileWriter::new(w, schema, Arc::new(props.build()))?;
        Ok(ParquetShard {
            writer,
            rows: Vec::new(),
            buffered: 0,
            row_group_bytes,
        })
    }

    /// Add one page; writes a row group when the buffer is full. Returns the page's
    /// uncompressed size (its fields' bytes), which the shard writer counts for rollover.
    pub fn write(&mut self, page: &PageRecord) -> parquet::errors::Result<u64> {
        let size = record_bytes(page);
        self.rows.push(page.clone());
        self.buffered += size;
        if self.buffered >= self.row_group_bytes {
            self.flush()?;
        }
        Ok(size)
    }

    /// Write the buffered pages as one row group.
    fn flush(&mut self) -> parquet::errors::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows);
        self.buffered = 0;
        let mut group = self.writer.next_row_group()?;
        let n = rows.len();
        let mut index = 0;
        while let Some(mut col) = group.next_column()? {
            match index {
                // Strings, in schema order.
                0..=10 | 12..=17 => {
                    let (values, defs) = string_column(&rows, index);
                    let defs = defs.as_deref();
                    col.typed::<ByteArrayType>()
                        .write_batch(&values, defs, None)?;
                }
                11 => {
                    let values: Vec<f32> = rows.iter().filter_map(|r| r.lang_score).collect();
                    let defs: Vec<i16> = rows
                        .iter()
                        .map(|r| i16::from(r.lang_score.is_some()))
                        .collect();
                    col.typed::<FloatType>()
                        .write_batch(&values, Some(&defs), None)?;
                }
                18 => {
                    let values: Vec<i64> = rows.iter().map(|r| r.offset as i64).collect();
                    col.typed::<Int64Type>().write_batch(&values, None, None)?;
                }
                19 => {
                    let values: Vec<bool> = rows.iter().map(|r| r.truncated).collect();
                    col.typed::<BoolType>().write_batch(&values, None, None)?;
                }
                _ => {
                    return Err(parquet::errors::ParquetError::General(format!(
                        "schema has more columns than the writer knows ({index})"
                    )))
                }
            }
            col.close()?;
            index += 1;
        }
        debug_assert_eq!(index, 20, "{n} rows");
        group.close()?;
        Ok(())
    }

    /// Write the last row group and the footer; returns the file's writer for syncing.
    pub fn finish(mut self) -> parquet::errors::Result<BufWriter<File>> {
        self.flush()?;
        self.writer.into_inner()
    }
}

/// Values and (for optional columns) definition levels of string column `index`.
fn string_column(rows: &[PageRecord], index: usize) -> (Vec<ByteArray>, Option<Vec<i16>>) {
    let required = |f: fn(&PageRecord) -> &str| -> (Vec<ByteArray>, Option<Vec<i16>>) {
        let v = rows
            .iter()
            .map(|r| ByteArray::from(f(r).as_bytes().to_vec()))
            .collect();
        (v, None)
    };
    let optional = |f: fn(&PageRecord) -> Option<&str>| {
        let v = rows
            .iter()
            .filter_map(|r| f(r).map(|s| ByteArray::from(s.as_bytes().to_vec())))
            .collect();
        let d = rows.iter().map(|r| i16::from(f(r).is_some())).collect();
        (v, Some(d))
    };
    match index {
        0 => required(|r| &r.id),
        1 => required(|r| &r.url),
        2 => required(|r| &r.date),
        3 => optional(|r| r.title.as_deref()),
        4 => optional(|r| r.html_title.as_deref()),
        5 => optional(|r| r.author.as_deref()),
        6 => optional(|r| r.date_published.as_deref()),
        7 => optional(|r| r.description.as_deref()),
        8 => optional(|r| r.site_name.as_deref()),
        9 => optional(|r| r.canonical_url.as_deref()),
        10 => optional(|r| r.lang.as_deref()),
        12 => optional(|r| r.html_lang.as_deref()),
        13 => required(|r| &r.page_type),
        14 => required(|r| &r.charset),
        15 => required(|r| &r.charset_source),
        16 => required(|r| &r.text),
        _ => required(|r| &r.source),
    }
}

/// A page's size in a row group before compression: its strings' bytes and 13 for the
/// numbers and flags.
fn record_bytes(p: &PageRecord) -> u64 {
    let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    (p.id.len()
        + p.url.len()
        + p.date.len()
        + opt(&p.title)
        + opt(&p.html_title)
        + opt(&p.author)
        + opt(&p.date_published)
        + opt(&p.description)
        + opt(&p.site_name)
        + opt(&p.canonical_url)
        + opt(&p.lang)
        + opt(&p.html_lang)
        + p.page_type.len()
        + p.charset.len()
        + p.charset_source.len()
        + p.text.len()
        + p.source.len()
        + 13) as u64
}
