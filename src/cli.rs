//! Command line: raw arguments (clap) are resolved into plain configurations
//! ([`crate::pipeline::Config`], ...) that the rest of the program reads. Nothing deeper
//! looks at the command line.
//!
//! Errors print as one sentence on stderr and exit with status 1 (2 for usage errors, as
//! clap does); the program never panics on input.

use crate::extract;
use crate::http;
use crate::input::InputSpec;
use crate::output::{Compress, Format, ShardOptions, DEFAULT_SHARD_SIZE, DEFAULT_ZSTD_LEVEL};
use crate::pipeline::{self, Config};
use crate::record::ReaderOptions;
use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::PathBuf;

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
    // (explain: being written)
}

#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// WARC inputs: paths (.warc, .warc.gz, .warc.zst; compression detected from the bytes),
    /// `-` for stdin, or http(s):// URLs (streamed, no temporary file).
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Output folder for shards, stats.json and errors.jsonl.
    #[arg(short, long, default_value = "out")]
    pub out: PathBuf,
    /// Extraction method (see `warcsift algorithms`).
    #[arg(short = 'a', long = "algorithm", default_value = DEFAULT_ALGORITHM)]
    pub algorithm: String,
    /// Shard format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
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
pub struct PageArgs {
    /// An HTML file, or - for stdin.
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
    /// Print the title, language and charset before the text.
    #[arg(long)]
    pub meta: bool,
}

/// The method used when none is named.
pub const DEFAULT_ALGORITHM: &str = "cetr-km-blocks";

impl ExtractArgs {
    /// Resolve into the pipeline's configuration.
    pub fn resolve(&self) -> Config {
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
        Config {
            inputs: self.inputs.iter().map(|s| InputSpec::parse(s)).collect(),
            out_dir: self.out.clone(),
            shard: ShardOptions {
                format: self.format,
                compress: self.compress,
                shard_size: self.shard_size,
                zstd_level: self.zstd_level,
            },
            threads,
            algorithm: self.algorithm.clone(),
            reader: ReaderOptions::default().with_max_record_bytes(self.max_record_bytes),
            http: http::Limits::default().with_max_decoded_bytes(self.max_payload_bytes),
            progress: !self.quiet,
        }
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
        Command::Extract(args) => {
            let cfg = args.resolve();
            let stats = pipeline::run(&cfg).map_err(|e| e.to_string())?;
            eprintln!(
                "warcsift: {} records read, {} pages extracted, {} skipped, {} errors in {:.2} s \
                 ({:.0} records/s, {:.1} MB/s); output in {}",
                stats.records_read,
                stats.extracted,
                stats.total_skipped(),
                stats.total_errors(),
                stats.wall_seconds,
                stats.records_per_second,
                stats.mb_per_second,
                cfg.out_dir.display()
            );
            Ok(())
        }
        Command::Page(args) => page(&args),
        Command::Algorithms => {
            let mut out = std::io::stdout().lock();
            for m in extract::registry() {
                let _ = writeln!(out, "{:<18} {}", m.name(), m.describe());
            }
            Ok(())
        }
        Command::Eval(args) => crate::eval::run(&args),
    }
}

fn page(args: &PageArgs) -> Result<(), String> {
    let mut bytes = Vec::new();
    if args.file == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
    } else {
        bytes = std::fs::read(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file))?;
    }
    let ex = extract::extract_bytes(
        &bytes,
        args.charset.as_deref(),
        args.url.as_deref(),
        &args.algorithm,
    )
    .map_err(|e| format!("{e}; `warcsift algorithms` lists them"))?;
    let mut out = std::io::stdout().lock();
    if args.meta {
        let _ = writeln!(out, "title: {}", ex.page.title.as_deref().unwrap_or(""));
        let _ = writeln!(out, "lang: {}", ex.page.lang.as_deref().unwrap_or(""));
        let _ = writeln!(out, "charset: {} ({})", ex.charset, ex.charset_source);
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "{}", ex.page.text);
    Ok(())
}
