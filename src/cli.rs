//! Command line: raw arguments (clap) are resolved into plain configurations
//! ([`crate::pipeline::Config`], ...) that the rest of the program reads. Nothing deeper
//! looks at the command line.
//!
//! Errors print as one sentence on stderr and exit with status 1 (2 for usage errors, as
//! clap does); the program never panics on input.

use crate::extract;
use crate::http;
use crate::input::InputSpec;
use crate::input::RetryPolicy;
use crate::manifest;
use crate::output::{Compress, Format, ShardOptions, DEFAULT_SHARD_SIZE, DEFAULT_ZSTD_LEVEL};
use crate::pipeline::{self, Config, InputItem, PageBudget};
use crate::record::ReaderOptions;
use crate::task;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "warcsift",
    version,
    about = "Stream web archives (WARC) and keep the main text of every HTML page",
    long_about = "Stream web archives (WARC: plain, gzip, zstd; files, stdin or http(s) URLs) and write \
                  the main text of every HTML page, with navigation, ads and other boilerplate removed, \
                  into JSONL, WET or text shards."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Extract the main text of every HTML page of one or more WARC files into shards.
    Extract(ExtractArgs),
    /// Extract the main text of one HTML page (a file, or - for stdin) to stdout.
    Page(PageArgs),
    /// List the extraction methods, one per line, with the paper each comes from.
    Algorithms,
    /// Score methods (and other tools' outputs) against gold text: the evaluation framework.
    Eval(crate::eval::EvalArgs),
    /// Add up the stats of a crawl's output folder (all tasks) into OUT/stats-merged.json; with
    /// --manifest, also list the inputs not done yet.
    MergeStats(MergeStatsArgs),
    /// Show what a method saw on one page: its features per unit (TSV) and its paper's figure (SVG).
    Explain(crate::explain::ExplainArgs),
}

/// The rules for crawls run as job arrays, printed by `warcsift extract --help`.
const EXTRACT_LONG_HELP: &str = "\
Crawls as job arrays (Slurm, Kubernetes indexed Jobs, AWS Batch):
  Task I of N takes inputs I, I+N, I+2N, ... of the full list (positional inputs first, then the
  manifest's lines), counting from 0. I and N default to the scheduler's environment:
  SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT (or MAX - MIN + 1);
  JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX, with --task-count given. Flags win.

Output folder (one for all tasks):
  <stem>-NNNNN.<ext>       shards of one input; a manifest line's stem is its file name plus
                           12 hex digits of the line's SHA-1 (unique, stable across reruns)
  _done/<stem>.json        completion marker: written after the input's shards are in place
  _errors/<stem>.jsonl     the input's record errors (input, byte offset, record id, reason)
  stats.json, errors.jsonl the run's summary; with task slicing stats-task-NNNN.json and
                           errors-task-NNNN.jsonl, so tasks never write the same file
  `warcsift merge-stats OUT` adds up the markers of all tasks.

Resuming: with --resume, inputs with a marker are skipped and everything else an interrupted
run left of the others is removed first, so a task killed at any moment and rerun gives
exactly the output of an uninterrupted run. Exit status: 0 when every input was done, 1 when
an input could not be read (the others are still done) or the output could not be written.";

#[derive(clap::Args, Debug)]
#[command(after_long_help = EXTRACT_LONG_HELP)]
pub struct ExtractArgs {
    /// WARC inputs: paths (.warc, .warc.gz, .warc.zst; compression detected from the bytes),
    /// `-` for stdin, or http(s):// URLs (streamed, no temporary file).
    #[arg(required_unless_present_any = ["manifest", "records"])]
    pub inputs: Vec<String>,
    /// A file listing inputs, one per line, plain or gzip (like Common Crawl's warc.paths.gz);
    /// blank lines and `#` comments are ignored, relative lines resolved against --prefix.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// Records to extract, by index entry: a CSV or TSV file whose header line names the
    /// columns warc_filename, warc_record_offset and warc_record_length (as Common Crawl's
    /// columnar index and CDX API give them). Each record is fetched with one HTTP Range
    /// request, or a seek for a local file; relative file names are resolved against
    /// --prefix. Each WARC file is one input (its own shards, marker and errors).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// Directory or http(s):// base URL for the relative lines of --manifest and --records
    /// (for Common Crawl: `https://data.commoncrawl.org/`).
    #[arg(long, value_name = "DIR|URL")]
    pub prefix: Option<String>,
    /// This task's index I in a job array, from 0: it takes inputs I, I+N, I+2N, ...
    /// [default: from SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX]
    #[arg(long, value_name = "I")]
    pub task_index: Option<usize>,
    /// The number N of tasks in the array. [default: from SLURM_ARRAY_TASK_COUNT or
    /// SLURM_ARRAY_TASK_MIN/MAX; required for Kubernetes (completions) and AWS Batch (size)]
    #[arg(long, value_name = "N")]
    pub task_count: Option<usize>,
    /// Skip inputs marked done in OUT/_done; clear what interrupted runs left of the others.
    #[arg(long)]
    pub resume: bool,
    /// Stop at the first bad record (by default it is counted, listed in the errors file, and
    /// the run goes on).
    #[arg(long)]
    pub strict: bool,
    /// Time budget per page in milliseconds (0: none). Pages the cost model predicts to take
    /// longer (by their size) are extracted with --fallback-algorithm (stats: fallbacks);
    /// pages that take longer anyway are counted (stats: over_budget).
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub page_time_budget_ms: u64,
    /// The cheap method for pages over the time budget.
    #[arg(long, default_value = pipeline::DEFAULT_FALLBACK, value_name = "NAME")]
    pub fallback_algorithm: String,
    /// Send pages whose decoded payload is larger than this straight to the fallback method
    /// [default: the time budget times the method's throughput in the cost model]
    #[arg(long, value_name = "BYTES")]
    pub fallback_above_bytes: Option<usize>,
    /// Retries of an http(s) input after transient failures (connection reset or refused,
    /// timeouts, 5xx, 429), also in the middle of the body (resumed with a Range request).
    #[arg(long, default_value_t = 5, value_name = "N")]
    pub http_retries: u32,
    /// Delay before the first retry in milliseconds, doubled for each further one (at most
    /// 60 s), or the server's Retry-After.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub http_backoff_ms: u64,
    /// Output folder for shards, completion markers, stats and errors.
    #[arg(short, long, default_value = "out")]
    pub out: PathBuf,
    /// Extraction method (see `warcsift algorithms`).
    #[arg(short = 'a', long = "algorithm", default_value = DEFAULT_ALGORITHM)]
    pub algorithm: String,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Shard format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
    /// Keep only pages whose text is detected in one of these languages (ISO 639-1 codes,
    /// comma-separated: --lang de,fr); the others are counted as skipped.lang.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub lang: Vec<String>,
    /// Keep only pages whose language is detected with at least this confidence (0 to 1).
    #[arg(long, default_value_t = 0.0, value_name = "SCORE")]
    pub min_lang_score: f32,
    /// Write `text` as GitHub-flavoured Markdown (headings, lists, tables, code blocks; the
    /// same words as the plain text).
    #[arg(long)]
    pub markdown: bool,
    /// With --markdown, write links as `[text](url)` (URL resolved against the page's base
    /// or URL; `javascript:` and fragment-only links as text only).
    #[arg(long, requires = "markdown")]
    pub links: bool,
    /// Compression of JSONL shards (WET is always gzip per record, text never compressed).
    #[arg(long, value_enum, default_value_t = Compress::Zstd)]
    pub compress: Compress,
    /// Start a new shard after this many uncompressed bytes.
    #[arg(long, default_value_t = DEFAULT_SHARD_SIZE)]
    pub shard_size: u64,
    /// zstd level for JSONL shards.
    #[arg(long, default_value_t = DEFAULT_ZSTD_LEVEL)]
    pub zstd_level: i32,
    /// Worker threads (default: available cores).
    #[arg(short = 't', long)]
    pub threads: Option<usize>,
    /// Inputs read at once, sharing the worker threads; each keeps its own shards, marker
    /// and errors, byte-identical to a run that reads one at a time [default: one per 5
    /// threads (a reader feeds about five workers of the default method), at most the
    /// number of inputs]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub readers: Option<u64>,
    /// Records larger than this (bytes) are skipped and counted, never buffered.
    #[arg(long, default_value_t = 16 * 1024 * 1024)]
    pub max_record_bytes: u64,
    /// Largest decoded HTTP payload (bytes) after Content-Encoding (gzip bombs stop here).
    #[arg(long, default_value_t = 64 * 1024 * 1024)]
    pub max_payload_bytes: usize,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(clap::Args, Debug)]
pub struct MergeStatsArgs {
    /// The output folder shared by a crawl's tasks.
    pub out: PathBuf,
    /// The crawl's manifest: also list the inputs it names that are not done yet (exit status
    /// 1 when there are any). Inputs are matched by the output names `extract --manifest`
    /// gives them, so inputs run as positional arguments do not count.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct PageArgs {
    /// An HTML file (gzip, zstd or lz4 compressed ones too, told by their magic bytes), or - for stdin.
    pub file: String,
    /// Extraction method (see `warcsift algorithms`).
    #[arg(short = 'a', long = "algorithm", default_value = DEFAULT_ALGORITHM)]
    pub algorithm: String,
    /// The page's URL (its TLD hints the charset detector).
    #[arg(long)]
    pub url: Option<String>,
    /// The charset a server declared for the page (as in an HTTP Content-Type header).
    #[arg(long)]
    pub charset: Option<String>,
    #[command(flatten)]
    pub method: MethodArgs,
    /// Print the title, metadata, language, page type and charset before the text.
    #[arg(long)]
    pub meta: bool,
    /// Print the page as one JSON record with the fields of `extract`'s JSONL (metadata,
    /// detected language, text), instead of the text.
    #[arg(long, conflicts_with = "meta")]
    pub json: bool,
    /// The text as GitHub-flavoured Markdown.
    #[arg(long)]
    pub markdown: bool,
    /// With --markdown, write links as `[text](url)` (URL resolved against the page's base
    /// or --url; `javascript:` and fragment-only links as text only).
    #[arg(long, requires = "markdown")]
    pub links: bool,
}

/// Choices some methods take, shared by `extract` and `page`.
#[derive(clap::Args, Debug, Clone)]
pub struct MethodArgs {
    /// Keep comment sections (`auto`; left out by default).
    #[arg(long)]
    pub comments: bool,
    /// Leave tables out of the text (`auto`; kept by default).
    #[arg(long)]
    pub no_tables: bool,
    /// Also drop elements matching this CSS selector (`crunch`; repeatable).
    #[arg(long, value_name = "SELECTOR")]
    pub drop_selector: Vec<String>,
}

impl MethodArgs {
    pub fn options(&self) -> extract::Options {
        extract::Options {
            comments: self.comments,
            tables: !self.no_tables,
            drop_selectors: self.drop_selector.clone(),
        }
    }
}

/// The method used when none is named.
pub const DEFAULT_ALGORITHM: &str = "auto";

/// Environment variable that makes `extract` sleep this many milliseconds per record: only
/// for tests that must interrupt a run part way (ignored unless set to a number).
pub const TEST_DELAY_ENV: &str = "WARCSIFT_TEST_DELAY_MS";

impl ExtractArgs {
    /// Resolve into the pipeline's configuration: read the manifest, pick this task's slice.
    pub fn resolve(&self) -> Result<Config, String> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = self.threads.unwrap_or(cores);
        let mut inputs: Vec<InputItem> = self
            .inputs
            .iter()
            .map(|s| InputItem::positional(InputSpec::parse(s)))
            .collect();
        let prefix = self.prefix.as_deref().map(manifest::Prefix::parse);
        if prefix.is_some() && self.manifest.is_none() && self.records.is_none() {
            return Err("--prefix resolves the lines of --manifest or --records; give one".into());
        }
        if let Some(path) = &self.manifest {
            let entries = manifest::load(path, prefix.as_ref())?;
            inputs.extend(entries.into_iter().map(InputItem::from_manifest));
        }
        if let Some(path) = &self.records {
            for group in crate::records::load(path)? {
                let source =
                    manifest::resolve(&group.filename, prefix.as_ref()).map_err(|why| {
                        format!(
                            "the records file {}: the warc_filename {:?} {why}",
                            path.display(),
                            group.filename
                        )
                    })?;
                inputs.push(InputItem {
                    stem: manifest::stem(&group.filename),
                    spec: InputSpec::Records {
                        source: Box::new(source),
                        ranges: group.ranges,
                    },
                    manifest_line: Some(group.filename),
                });
            }
        }
        // Checked over the whole list, so that every task of an array refuses alike.
        pipeline::check_unique_stems(&inputs).map_err(|e| e.to_string())?;
        let task = task::resolve(self.task_index, self.task_count, |k| std::env::var(k).ok())?
            .map(|(slice, _)| slice);
        if let Some(slice) = task {
            inputs = slice.select(inputs);
        }
        let backoff = Duration::from_millis(self.http_backoff_ms);
        Ok(Config {
            readers: self.readers.and_then(|n| usize::try_from(n).ok()),
            inputs,
            out_dir: self.out.clone(),
            shard: ShardOptions {
                format: self.format,
                compress: self.compress,
                shard_size: self.shard_size,
                zstd_level: self.zstd_level,
            },
            threads,
            algorithm: self.algorithm.clone(),
            method_options: self.method.options(),
            reader: ReaderOptions::default().with_max_record_bytes(self.max_record_bytes),
            http: http::Limits::default().with_max_decoded_bytes(self.max_payload_bytes),
            progress: !self.quiet,
            task,
            resume: self.resume,
            strict: self.strict,
            budget: PageBudget::new(
                &self.algorithm,
                self.page_time_budget_ms,
                &self.fallback_algorithm,
                self.fallback_above_bytes,
            ),
            retry: RetryPolicy {
                retries: self.http_retries,
                base_delay: backoff,
                max_delay: Duration::from_secs(60).max(backoff),
            },
            corpus: crate::corpus::CorpusOptions {
                langs: crate::corpus::CorpusOptions::parse_langs(&self.lang),
                min_lang_score: self.min_lang_score,
                markdown: self.markdown,
                links: self.links,
            },
            cores,
            record_delay: std::env::var(TEST_DELAY_ENV)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|&ms| ms > 0)
                .map(Duration::from_millis),
        })
    }

    /// `warcsift extract`.
    pub fn run(&self) -> Result<(), String> {
        let cfg = self.resolve()?;
        if let (Some(t), false) = (cfg.task, self.quiet) {
            eprintln!(
                "warcsift: task {} of {} (index from 0): {} inputs",
                t.index,
                t.count,
                cfg.inputs.len()
            );
        }
        let report = pipeline::run(&cfg).map_err(|e| {
            if e.is_output() {
                format!(
                    "{e}; the output is unusable, so the run stops here (inputs finished \
                     before are marked done in {}: fix the cause and rerun with --resume)",
                    cfg.out_dir.join(crate::resume::DONE_DIR).display()
                )
            } else {
                e.to_string()
            }
        })?;
        let stats = &report.stats;
        eprintln!(
            "warcsift: {} records read, {} pages extracted, {} skipped, {} errors in {:.2} s \
             ({:.0} records/s, {:.1} MB/s); {} inputs done ({} by earlier runs), {} failed; \
             output in {}",
            stats.records_read,
            stats.extracted,
            stats.total_skipped(),
            stats.total_errors(),
            stats.wall_seconds,
            stats.records_per_second,
            stats.mb_per_second,
            report.done_now + report.resumed,
            report.resumed,
            report.failed.len(),
            cfg.out_dir.display()
        );
        if report.failed.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = report.failed.iter().map(|f| f.input.as_str()).collect();
        Err(format!(
            "{} of {} inputs could not be read ({}); the others are done, and a rerun with \
             --resume retries only these",
            report.failed.len(),
            cfg.inputs.len(),
            names.join(", ")
        ))
    }
}

impl MergeStatsArgs {
    /// `warcsift merge-stats`.
    pub fn run(&self) -> Result<(), String> {
        let merged = crate::merge::merge_folder(&self.out, self.manifest.as_deref())?;
        let path = self.out.join(crate::merge::MERGED_STATS);
        let body = serde_json::to_vec_pretty(&merged).map_err(|e| e.to_string())?;
        crate::resume::write_atomic(&path, &body)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", merged.summary());
        let _ = writeln!(out, "written to {}", path.display());
        if merged.inputs_missing > 0 {
            return Err(format!(
                "{} of the manifest's {} inputs are not done yet",
                merged.inputs_missing,
                merged.inputs_missing + merged.inputs_done_of_manifest
            ));
        }
        Ok(())
    }
}

/// Entry point of the binary; returns the process exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("warcsift: {message}");
            1
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Extract(args) => args.run(),
        Command::MergeStats(args) => args.run(),
        Command::Page(args) => page(&args),
        Command::Algorithms => {
            let mut out = std::io::stdout().lock();
            for m in extract::registry() {
                let _ = writeln!(out, "{:<18} {}", m.name(), m.describe());
            }
            Ok(())
        }
        Command::Eval(args) => crate::eval::run(&args),
        Command::Explain(args) => crate::explain::run(&args),
    }
}

fn page(args: &PageArgs) -> Result<(), String> {
    let bytes = crate::input::read_document(&args.file)?;
    let method = extract::method_with(&args.algorithm, &args.method.options())?;
    let opts = crate::corpus::CorpusOptions {
        markdown: args.markdown,
        links: args.links,
        ..crate::corpus::CorpusOptions::default()
    };
    let ex = extract::extract_with_as(
        &bytes,
        args.charset.as_deref(),
        args.url.as_deref(),
        method.as_ref(),
        opts.markdown(),
    );
    let mut out = std::io::stdout().lock();
    if args.json {
        let facts = crate::corpus::RecordFacts {
            id: String::new(),
            url: args.url.clone().unwrap_or_default(),
            date: String::new(),
            source: args.file.clone(),
            offset: 0,
            truncated: false,
        };
        if let Some(record) = crate::corpus::page_record(ex, facts, &opts) {
            let mut line = Vec::new();
            crate::output::jsonl::encode_into(&record, &mut line);
            let _ = out.write_all(&line);
        }
        return Ok(());
    }
    if args.meta {
        let m = &ex.page.meta;
        let detected = opts.detect_lang(&ex.page.text, ex.page.lang.as_deref());
        let _ = writeln!(out, "title: {}", m.title.as_deref().unwrap_or(""));
        let _ = writeln!(
            out,
            "html_title: {}",
            ex.page.title.as_deref().unwrap_or("")
        );
        let _ = writeln!(out, "author: {}", m.author.as_deref().unwrap_or(""));
        let _ = writeln!(
            out,
            "date_published: {}",
            m.date_published.as_deref().unwrap_or("")
        );
        let _ = writeln!(out, "site_name: {}", m.site_name.as_deref().unwrap_or(""));
        let _ = writeln!(
            out,
            "canonical_url: {}",
            m.canonical_url.as_deref().unwrap_or("")
        );
        let _ = writeln!(
            out,
            "description: {}",
            m.description.as_deref().unwrap_or("")
        );
        match detected {
            Some(d) => {
                let _ = writeln!(out, "lang: {} ({:.2})", d.code, d.score);
            }
            None => {
                let _ = writeln!(out, "lang: ");
            }
        }
        let _ = writeln!(out, "html_lang: {}", ex.page.lang.as_deref().unwrap_or(""));
        let _ = writeln!(out, "page_type: {}", ex.page.page_type.as_str());
        let _ = writeln!(out, "charset: {} ({})", ex.charset, ex.charset_source);
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "{}", ex.page.text);
    Ok(())
}
