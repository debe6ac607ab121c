//! The pipeline: WARC bytes in, shards out, across threads, in bounded memory.
//!
//! ```text
//!            ┌────────────┐  bounded   ┌──────────┐  bounded  ┌──────────────────┐
//!  input ──▶ │ reader     │ ─────────▶ │ worker×N │ ────────▶ │ writer (in order)│ ──▶ shards
//!            │ inflate +  │  records   │ http,    │  pages    │ reorder by seq,  │    stats.json
//!            │ frame      │            │ charset, │           │ ShardWriter      │    errors.jsonl
//!            └────────────┘            │ extract  │           └──────────────────┘
//!                                      └──────────┘
//! ```
//!
//! - The **reader** opens the input ([`crate::input`]: file, stdin or http(s), the latter
//!   streamed through tokio), frames records ([`crate::record`]) and sends the ones worth
//!   extracting, numbered, to a bounded channel. Skipped records never leave the reader and
//!   their bodies are never buffered.
//! - **Workers** parse the HTTP payload ([`crate::http`]), decide HTML-ness, decode the charset
//!   and run the extraction method. A panic inside a method is caught and counted as that
//!   record's error: one bad page never stops a crawl.
//! - The **writer** puts results back in input order (a small reorder buffer bounded by the
//!   pages in flight) and writes them with [`crate::output::ShardWriter`]. So output is
//!   byte-identical whatever `--threads` is.
//!
//! Memory is bounded by the channel capacities (a few records per worker) times
//! `max_record_bytes`, whatever the input's size.

use crate::extract::{self, Method};
use crate::http;
use crate::input::{self, InputSpec};
use crate::output::{PageRecord, ShardOptions, ShardWriter};
use crate::record::{RawRecord, ReadEvent, ReaderOptions, RecordReader, SkipReason};
use crate::stats::Stats;
use crossbeam_channel::{bounded, Receiver, Sender};
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Everything a run needs, resolved from the command line (or built by tests).
#[derive(Clone)]
pub struct Config {
    pub inputs: Vec<InputSpec>,
    pub out_dir: PathBuf,
    pub shard: ShardOptions,
    pub threads: usize,
    pub algorithm: String,
    pub reader: ReaderOptions,
    pub http: http::Limits,
    /// Show a progress bar (only when stderr is a terminal).
    pub progress: bool,
}

/// A failure that stops the run: an input that cannot be opened, or output that cannot be
/// written. Per-record problems are never fatal; they are counted in [`Stats`].
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("unknown algorithm {0:?}; `warcsift algorithms` lists them")]
    UnknownAlgorithm(String),
    #[error("cannot read input {input}: {message}")]
    Input { input: String, message: String },
    #[error("{0}")]
    Output(#[from] crate::output::OutputError),
    #[error("cannot write {path}: {cause}")]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
}

/// One record on its way to a worker.
struct Job {
    seq: u64,
    record: RawRecord,
}

/// What a worker made of a record.
enum Outcome {
    Page(Box<PageRecord>),
    Skipped(SkipReason),
    Error {
        offset: u64,
        id: String,
        kind: &'static str,
        message: String,
    },
}

/// One line of `errors.jsonl`.
#[derive(serde::Serialize)]
struct ErrorLine<'a> {
    input: &'a str,
    offset: u64,
    id: Option<&'a str>,
    kind: &'a str,
    reason: &'a str,
}

/// Run every input through the pipeline; write shards, `stats.json` and `errors.jsonl`.
pub fn run(cfg: &Config) -> Result<Stats, PipelineError> {
    let method: Arc<dyn Method> = Arc::from(
        extract::method(&cfg.algorithm)
            .ok_or_else(|| PipelineError::UnknownAlgorithm(cfg.algorithm.clone()))?,
    );
    std::fs::create_dir_all(&cfg.out_dir).map_err(|cause| PipelineError::Write {
        path: cfg.out_dir.clone(),
        cause,
    })?;
    let errors_path = cfg.out_dir.join("errors.jsonl");
    let mut errors_file =
        std::fs::File::create(&errors_path).map_err(|cause| PipelineError::Write {
            path: errors_path.clone(),
            cause,
        })?;
    let progress = Progress::new(cfg.progress);
    let started = Instant::now();
    let mut total = Stats::default();
    for spec in &cfg.inputs {
        let stats = run_input(cfg, spec, &method, &mut errors_file, &progress)?;
        total.merge(&stats);
    }
    errors_file.flush().map_err(|cause| PipelineError::Write {
        path: errors_path,
        cause,
    })?;
    total.finish(started.elapsed().as_secs_f64());
    progress.finish();
    write_stats(&cfg.out_dir.join("stats.json"), &total)?;
    Ok(total)
}

/// Write `stats` as pretty JSON, atomically (temporary name, then rename).
pub fn write_stats(path: &Path, stats: &Stats) -> Result<(), PipelineError> {
    let tmp = path.with_extension("json.tmp");
    let body = serde_json::to_vec_pretty(stats).unwrap_or_default();
    std::fs::write(&tmp, body)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|cause| PipelineError::Write {
            path: path.to_path_buf(),
            cause,
        })
}

/// The stem shards of this input are named after: the file name without WARC/compression
/// extensions, reduced to `[A-Za-z0-9._-]` (never a path, never starting with a dot).
pub fn output_stem(spec: &InputSpec) -> String {
    let name = spec.name();
    let base = name
        .rsplit(['/', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or("stdin");
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

fn run_input(
    cfg: &Config,
    spec: &InputSpec,
    method: &Arc<dyn Method>,
    errors_file: &mut std::fs::File,
    progress: &Progress,
) -> Result<Stats, PipelineError> {
    let started = Instant::now();
    let source = spec.name();
    let input = input::open(spec).map_err(|e| PipelineError::Input {
        input: source.clone(),
        message: e.to_string(),
    })?;
    let writer = ShardWriter::create(&cfg.out_dir, &output_stem(spec), &cfg.shard)?;
    let threads = cfg.threads.max(1);
    let (job_tx, job_rx) = bounded::<Job>(threads * 4);
    let (out_tx, out_rx) = bounded::<(u64, Outcome)>(threads * 4);

    let mut reader_stats = Stats::default();
    let mut reader_errors: Vec<(u64, Option<String>, String)> = Vec::new();
    let result = std::thread::scope(|scope| {
        // Workers.
        for _ in 0..threads {
            let (rx, tx) = (job_rx.clone(), out_tx.clone());
            let method = Arc::clone(method);
            let (http_limits, source) = (cfg.http, source.as_str());
            scope.spawn(move || worker(rx, tx, method.as_ref(), &http_limits, source));
        }
        drop(job_rx);
        drop(out_tx);
        // Writer.
        let writer_handle = scope.spawn(|| write_in_order(out_rx, writer, progress));
        // Reader, on this thread.
        let mut records = RecordReader::new(input, cfg.reader);
        let mut seq = 0u64;
        while let Some(event) = records.next() {
            reader_stats.records_read += 1;
            match event {
                ReadEvent::Record(record) => {
                    let ty = record
                        .header
                        .record_type()
                        .unwrap_or("unknown")
                        .to_ascii_lowercase();
                    Stats::count(&mut reader_stats.records_by_type, &ty);
                    if job_tx.send(Job { seq, record }).is_err() {
                        break; // Writer failed; its error is reported below.
                    }
                    seq += 1;
                }
                ReadEvent::Skipped { reason, .. } => {
                    Stats::count(&mut reader_stats.records_by_type, type_of_skip(reason));
                    Stats::count(&mut reader_stats.skipped, reason.as_str());
                }
                ReadEvent::Error { offset, id, error } => {
                    reader_stats.records_read -= 1;
                    reader_stats.error("record");
                    reader_errors.push((offset, id, error.to_string()));
                }
            }
            progress.set_bytes(records.position());
        }
        reader_stats.bytes_in = records.position();
        drop(job_tx);
        writer_handle.join().unwrap_or_else(|_| {
            Err(PipelineError::Input {
                input: source.clone(),
                message: "the writer thread panicked".into(),
            })
        })
    });
    let (mut stats, worker_errors) = result?;
    stats.merge(&reader_stats);
    stats.inputs = 1;
    // errors.jsonl: reader and worker errors of this input, by offset (deterministic).
    let mut lines: Vec<(u64, Option<String>, &str, String)> = reader_errors
        .into_iter()
        .map(|(o, id, m)| (o, id, "record", m))
        .collect();
    lines.extend(
        worker_errors
            .into_iter()
            .map(|(o, id, k, m)| (o, Some(id), k, m)),
    );
    lines.sort_by_key(|l| l.0);
    let mut buf = Vec::new();
    for (offset, id, kind, reason) in &lines {
        let line = ErrorLine {
            input: &source,
            offset: *offset,
            id: id.as_deref(),
            kind,
            reason,
        };
        if serde_json::to_writer(&mut buf, &line).is_ok() {
            buf.push(b'\n');
        }
    }
    errors_file
        .write_all(&buf)
        .map_err(|cause| PipelineError::Write {
            path: cfg.out_dir.join("errors.jsonl"),
            cause,
        })?;
    stats.finish(started.elapsed().as_secs_f64());
    Ok(stats)
}

/// The record type a skip reason implies (for `records_by_type`).
fn type_of_skip(reason: SkipReason) -> &'static str {
    match reason {
        SkipReason::Warcinfo => "warcinfo",
        SkipReason::Request => "request",
        SkipReason::Metadata => "metadata",
        SkipReason::Revisit => "revisit",
        SkipReason::Conversion => "conversion",
        SkipReason::Continuation => "continuation",
        SkipReason::OtherType => "other",
        SkipReason::NotHttpResponse | SkipReason::NotHtml => "response",
        SkipReason::TooLarge => "too_large",
    }
}

fn worker(
    rx: Receiver<Job>,
    tx: Sender<(u64, Outcome)>,
    method: &dyn Method,
    limits: &http::Limits,
    source: &str,
) {
    for job in rx {
        let offset = job.record.offset;
        let id = job.record.header.record_id().unwrap_or("").to_string();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            process(&job.record, method, limits, source)
        }))
        .unwrap_or_else(|_| Outcome::Error {
            offset,
            id,
            kind: "internal",
            message: "extraction panicked on this record (a bug: please report it with the record)"
                .into(),
        });
        if tx.send((job.seq, outcome)).is_err() {
            return;
        }
    }
}

/// HTTP payload → HTML check → charset → extraction → page record.
fn process(
    record: &RawRecord,
    method: &dyn Method,
    limits: &http::Limits,
    source: &str,
) -> Outcome {
    let h = &record.header;
    let id = h.record_id().unwrap_or("").to_string();
    let url = h.target_uri().unwrap_or("").to_string();
    let is_response = h
        .record_type()
        .is_some_and(|t| t.eq_ignore_ascii_case("response"));
    let (body, content_type, charset) = if is_response {
        match http::parse_response(&record.block, limits) {
            Ok(resp) => (resp.body, resp.content_type, resp.charset),
            Err(e) => {
                return Outcome::Error {
                    offset: record.offset,
                    id,
                    kind: "http",
                    message: e.to_string(),
                }
            }
        }
    } else {
        let (mime, charset) = h.content_type().map(http::parse_content_type).unzip();
        (
            std::borrow::Cow::Borrowed(&record.block[..]),
            mime,
            charset.flatten(),
        )
    };
    let declared = content_type
        .as_deref()
        .filter(|ct| !ct.trim().is_empty())
        .or(h.identified_payload_type());
    let html = match declared {
        Some(ct) => {
            http::is_html_content_type(ct)
                || (ct.starts_with("text/plain") && http::sniff_html(&body))
        }
        None => http::sniff_html(&body),
    };
    if !html {
        return Outcome::Skipped(SkipReason::NotHtml);
    }
    let ex = extract::extract_with(&body, charset.as_deref(), Some(&url), method);
    Outcome::Page(Box::new(PageRecord {
        id,
        url,
        date: h.date().unwrap_or("").to_string(),
        title: ex.page.title,
        lang: ex.page.lang,
        charset: ex.charset.to_string(),
        charset_source: ex.charset_source.to_string(),
        text: ex.page.text,
        source: source.to_string(),
        offset: record.offset,
        truncated: h.truncated().is_some(),
    }))
}

type WorkerError = (u64, String, &'static str, String);

/// Reorder outcomes by sequence number and write pages; returns the counts and the
/// per-record errors.
fn write_in_order(
    rx: Receiver<(u64, Outcome)>,
    mut writer: ShardWriter,
    progress: &Progress,
) -> Result<(Stats, Vec<WorkerError>), PipelineError> {
    let mut stats = Stats::default();
    let mut errors = Vec::new();
    let mut pending: BTreeMap<u64, Outcome> = BTreeMap::new();
    let mut next = 0u64;
    for (seq, outcome) in rx {
        pending.insert(seq, outcome);
        while let Some(outcome) = pending.remove(&next) {
            next += 1;
            match outcome {
                Outcome::Page(page) => {
                    stats.extracted += 1;
                    if page.text.is_empty() {
                        stats.extracted_empty += 1;
                    }
                    if page.truncated {
                        stats.extracted_truncated += 1;
                    }
                    Stats::count(&mut stats.charset_sources, &page.charset_source);
                    writer.write(&page)?;
                    progress.inc();
                }
                Outcome::Skipped(reason) => Stats::count(&mut stats.skipped, reason.as_str()),
                Outcome::Error {
                    offset,
                    id,
                    kind,
                    message,
                } => {
                    stats.error(kind);
                    errors.push((offset, id, kind, message));
                }
            }
        }
    }
    let summary = writer.finish()?;
    stats.shards = summary.files.len() as u64;
    stats.bytes_out = summary.bytes_written;
    stats.bytes_out_uncompressed = summary.bytes_uncompressed;
    Ok((stats, errors))
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
}

impl Progress {
    fn new(enabled: bool) -> Self {
        use std::io::IsTerminal;
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} {elapsed_precise} {pos} pages ({per_sec}) {msg}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            started: Instant::now(),
        }
    }

    fn inc(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }

    fn set_bytes(&self, bytes: u64) {
        if let Some(b) = &self.bar {
            let secs = self.started.elapsed().as_secs_f64().max(1e-3);
            b.set_message(format!(
                "{:.1} MB in, {:.1} MB/s",
                bytes as f64 / 1e6,
                bytes as f64 / 1e6 / secs
            ));
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_never_escape_the_output_folder() {
        assert_eq!(
            output_stem(&InputSpec::parse("/data/CC-MAIN-2024-10-00001.warc.gz")),
            "CC-MAIN-2024-10-00001"
        );
        assert_eq!(output_stem(&InputSpec::parse("../../etc/passwd")), "passwd");
        assert_eq!(output_stem(&InputSpec::parse("a b/..warc.zst")), "input");
        assert_eq!(
            output_stem(&InputSpec::parse("https://host/x/y.warc.gz?sig=1&a=b")),
            "y.warc.gz_sig_1_a_b"
        );
        assert!(!output_stem(&InputSpec::parse("-")).contains('/'));
    }
}
