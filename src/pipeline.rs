//! The pipeline: WARC bytes in, shards out, across threads, in bounded memory.
//!
//! ```text
//!            ┌────────────┐  bounded   ┌──────────┐  bounded  ┌──────────────────┐
//!  input ──▶ │ reader     │ ─────────▶ │ worker×N │ ────────▶ │ writer (in order)│ ──▶ shards,
//!            │ inflate +  │  records   │ http,    │  pages    │ reorder by seq,  │    _done/ marker,
//!            │ frame      │            │ charset, │           │ ShardWriter      │    stats, errors
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
//! - On **one CPU** (the process may run on one only: `taskset -c 0`, a cpuset, a Slurm task
//!   of `--cpus-per-task=1`) with one worker, the three take turns on the reader's thread, a
//!   batch at a time: no hand-overs, and each batch is extracted while its bytes are still in
//!   the cache. Same shards, errors and counts (`tests/one_cpu.rs`); on big.warc.gz pinned
//!   to one core, 5–10% less time and about half the peak RSS (benches/HISTORY.md).
//!
//! Records and outcomes travel in batches (up to 8 records within 256 KiB, or one larger
//! record alone). Memory is bounded by an in-flight budget (`InFlight`): the reader sends a
//! batch only while the record bytes read but not yet written stay within
//! `IN_FLIGHT_PER_WORKER` (4 MiB) per worker (or nothing else is in flight, for one record larger
//! than that), whatever the input's size. The channels themselves hold many batches, so a
//! slow record or a compression burst in the writer does not leave a core idle.
//!
//! # Inputs, markers and failures
//!
//! Inputs run one after another; each is one *unit of work* with its own shards, errors file
//! and completion marker (the protocol is in [`crate::resume`]: a task killed at any instant
//! and rerun with `--resume` ends with exactly the output of an uninterrupted run).
//!
//! - A **bad record** never stops anything: it is counted by kind in the stats and listed in
//!   the errors file (input, byte offset, record id, reason). `--strict` makes the first one
//!   fatal instead ([`PipelineError::Strict`]).
//! - An **unusable input** (cannot be opened; an http(s) body that breaks off and cannot be
//!   resumed after the retries of [`crate::input::RetryPolicy`]) fails that input only: the
//!   sentence is printed, the shards it had written are removed, it is left unmarked (so a
//!   rerun with `--resume` retries just it), and the run goes on with the next input.
//!   [`RunReport::failed`] lists them; the command exits non-zero at the end.
//! - **Unusable output** (a shard, marker or summary that cannot be written: disk full,
//!   permissions) stops the run at once with a sentence naming the file and the cause
//!   ([`PipelineError::is_output`]). Inputs finished before stay marked.
//!
//! # Time per page
//!
//! A method cannot be interrupted in the middle of a page, so `--page-time-budget-ms` is kept
//! by *prediction* plus *counting*, not by preemption:
//!
//! - Before extraction, the page's decoded payload size is compared with a size limit: the
//!   budget times the method's worst measured throughput ([`cost_model_bytes_per_ms`]), or
//!   `--fallback-above-bytes`. A larger page goes straight to the cheap fallback method
//!   (`--fallback-algorithm`, `plain` by default: no scoring, one pass) and is counted in
//!   `stats.fallbacks`.
//! - After extraction the time taken is measured; a page that took longer than the budget
//!   anyway (a slow machine, an unusually expensive page shape) keeps its text and is counted
//!   in `stats.over_budget`, so a budget that is too generous shows in the stats.
//!
//! The model errs on the side of running the chosen method (its throughputs are the slowest
//! seen on pathological page shapes, halved for slower machines), and a fallback saves less
//! than one might hope: parsing the page is most of any method's cost, and `plain` pays it
//! too. It matters for the expensive methods (the character-level CCB variants) and for giant
//! pages; for ordinary ones, `over_budget` is the honest signal.

use crate::extract::{self, Method};
use crate::http;
use crate::input::{self, InputSpec};
use crate::manifest::{self, output_stem};
use crate::output::{shard_name, PageRecord, ShardOptions, ShardWriter};
use crate::record::{RawRecord, ReadEvent, ReaderOptions, RecordReader, SkipReason};
use crate::resume::{self, Marker, OutputIndex};
use crate::stats::Stats;
use crate::task::TaskSlice;
use crossbeam_channel::{bounded, Receiver, Sender};
use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One input of a run and the stem its output is named after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputItem {
    pub spec: InputSpec,
    /// Unique within the run (checked by [`run`]) and across a crawl's tasks.
    pub stem: String,
    /// The manifest line it came from, if any (recorded in the completion marker).
    pub manifest_line: Option<String>,
}

impl InputItem {
    /// An input given on the command line: named by [`manifest::output_stem`].
    pub fn positional(spec: InputSpec) -> InputItem {
        InputItem {
            stem: output_stem(&spec),
            spec,
            manifest_line: None,
        }
    }

    /// An input listed in a manifest: named by [`manifest::stem`].
    pub fn from_manifest(entry: manifest::Entry) -> InputItem {
        InputItem {
            spec: entry.spec,
            stem: entry.stem,
            manifest_line: Some(entry.line),
        }
    }
}

/// The per-page time budget, resolved (see the module doc's "Time per page").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageBudget {
    /// Extractions that take longer are counted in `stats.over_budget`. `None`: no budget.
    pub time: Option<Duration>,
    /// Pages whose decoded payload is larger go to `fallback` (`None`: never).
    pub fallback_above: Option<usize>,
    /// The cheap method.
    pub fallback: String,
}

/// Fallback method used when none is named.
pub const DEFAULT_FALLBACK: &str = "plain";

impl PageBudget {
    /// No budget: every page goes to the chosen method, nothing is timed.
    pub fn none() -> PageBudget {
        PageBudget {
            time: None,
            fallback_above: None,
            fallback: DEFAULT_FALLBACK.to_string(),
        }
    }

    /// A budget of `ms` milliseconds per page for `algorithm` (0: none). Pages larger than
    /// `above` bytes, or by default than `ms` × [`cost_model_bytes_per_ms`], go to `fallback`;
    /// when the fallback is the method itself there is nothing cheaper, so only the counting
    /// remains.
    pub fn new(algorithm: &str, ms: u64, fallback: &str, above: Option<usize>) -> PageBudget {
        let modelled = (ms > 0).then(|| {
            let limit = ms.saturating_mul(cost_model_bytes_per_ms(algorithm));
            usize::try_from(limit).unwrap_or(usize::MAX)
        });
        PageBudget {
            time: (ms > 0).then(|| Duration::from_millis(ms)),
            fallback_above: above.or(modelled).filter(|_| algorithm != fallback),
            fallback: fallback.to_string(),
        }
    }
}

/// The cost model: decoded HTML bytes per millisecond a method is assumed to process at
/// worst (1,000 bytes/ms = 1 MB/s). Measured on a release build, one core, pages of 256 KiB
/// to 8 MiB in three shapes (ordinary article markup; thousands of unclosed nested `<div>`s;
/// long tables of tiny cells), keeping each method's slowest shape: most methods ran at
/// 20–60 MB/s (tokenizing and building the [`crate::doc::Doc`] dominate, and every method
/// pays them), `ccb-chars`/`accb-chars` at ~4 MB/s. The values are those worst cases halved
/// for slower machines, grouped. A method not listed gets the slowest group's value.
///
/// With the default 2 s budget this sends only pages of more than ~20–30 MB (4 MB for the
/// character-level CCB variants) to the fallback: the size limit guards against the rare
/// giant page, and `stats.over_budget` shows whether pages of ordinary size are slow anyway
/// (superlinear behaviour on some page shape, which no size rule can predict).
pub fn cost_model_bytes_per_ms(algorithm: &str) -> u64 {
    match algorithm {
        "plain" | "cetr-km" | "cetr-km-blocks" | "line-block" | "line-block-sigma" | "cnr"
        | "cnr-precision" | "cnr-recall" | "bte" | "dsc" | "lqf" | "lqf-0.25" | "lqf-0.75" => {
            15_000
        }
        "cetr-tm" | "cetr-tm-blocks" | "ccb" | "accb" | "auto" | "dom-block" | "info-optics"
        | "info-optics-fixed" | "crunch" => 10_000,
        "info-discoverer" => 8_000,
        // Parse only: nothing to fall back from.
        "none" => u64::MAX,
        _ => 2_000,
    }
}

/// Everything a run needs, resolved from the command line (or built by tests).
#[derive(Clone)]
pub struct Config {
    /// The inputs of this run (for a task of an array: its slice only), in order.
    pub inputs: Vec<InputItem>,
    pub out_dir: PathBuf,
    pub shard: ShardOptions,
    pub threads: usize,
    /// Inputs read at once (`None`: one per [`WORKERS_PER_READER`] threads); the threads are
    /// shared among them.
    pub readers: Option<usize>,
    pub algorithm: String,
    /// Choices some methods take (`--comments`, `--no-tables`, `--drop-selector`).
    pub method_options: extract::Options,
    pub reader: ReaderOptions,
    pub http: http::Limits,
    /// Show a progress bar (only when stderr is a terminal).
    pub progress: bool,
    /// This run's place in a job array: names the summary files `stats-task-NNNN.json` and
    /// `errors-task-NNNN.jsonl` instead of `stats.json` and `errors.jsonl`.
    pub task: Option<TaskSlice>,
    /// Skip inputs that have a completion marker.
    pub resume: bool,
    /// Any record error stops the run.
    pub strict: bool,
    pub budget: PageBudget,
    /// Retries of http(s) inputs.
    pub retry: input::RetryPolicy,
    /// Metadata, language and language filter choices ([`crate::corpus`]).
    pub corpus: crate::corpus::CorpusOptions,
    /// CPUs this process may run on ([`std::thread::available_parallelism`], which follows
    /// `taskset`, cpusets and CPU quotas, as a Slurm task's `--cpus-per-task=1`). With one,
    /// and one worker, an input is read, extracted and written on one thread (see the
    /// module's doc).
    pub cores: usize,
    /// Sleep this long per record read (tests only: makes a run slow enough to interrupt;
    /// set from `WARCSIFT_TEST_DELAY_MS`).
    pub record_delay: Option<Duration>,
}

/// A failure that stops the run. Per-record problems are never fatal (unless `--strict`), and
/// an unusable input only fails that input; see the module doc.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    #[error("{0}")]
    InvalidOption(String),
    #[error("unknown algorithm {0:?}; `warcsift algorithms` lists them")]
    UnknownAlgorithm(String),
    #[error("cannot read input {input}: {message}")]
    Input { input: String, message: String },
    #[error("{0}")]
    Output(#[from] crate::output::OutputError),
    #[error("cannot write {}: {}", path.display(), os_sentence(cause))]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error(
        "the inputs {first} and {second} would both write shards named {stem}-NNNNN; \
         rename one of them, or list them in a manifest (which names outputs by their whole path)"
    )]
    DuplicateStem {
        stem: String,
        first: String,
        second: String,
    },
    #[error(
        "{input}: record error at byte {offset}{}: {reason}; stopping because of --strict",
        id.as_deref().map(|i| format!(" (record {i})")).unwrap_or_default()
    )]
    Strict {
        input: String,
        offset: u64,
        id: Option<String>,
        reason: String,
    },
}

impl PipelineError {
    /// Whether the output could not be written (the folder is unusable until fixed).
    pub fn is_output(&self) -> bool {
        matches!(self, PipelineError::Output(_) | PipelineError::Write { .. })
    }

    fn write(path: &Path, cause: std::io::Error) -> PipelineError {
        PipelineError::Write {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// The OS's sentence for an I/O error, without Rust's ` (os error N)` suffix.
fn os_sentence(e: &std::io::Error) -> String {
    let s = e.to_string();
    match (e.raw_os_error(), s.rfind(" (os error ")) {
        (Some(_), Some(i)) => s[..i].to_string(),
        _ => s,
    }
}

/// An input that could not be processed (the run went on without it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFailure {
    pub input: String,
    pub message: String,
}

/// What [`run`] did.
#[derive(Debug, Clone)]
pub struct RunReport {
    /// Counts of every input of the run that is done, including those done by earlier runs
    /// (`--resume`), plus the inputs that failed or were skipped in this run.
    pub stats: Stats,
    /// Inputs processed by this run.
    pub done_now: usize,
    /// Inputs skipped because an earlier run had done them.
    pub resumed: usize,
    /// Inputs that could not be processed, in order.
    pub failed: Vec<InputFailure>,
    /// The summary files written: stats and errors.
    pub stats_file: PathBuf,
    pub errors_file: PathBuf,
}

/// One record on its way to a worker.
struct Job {
    seq: u64,
    record: RawRecord,
}

/// Records travel from the reader to the workers, and outcomes from the workers to the
/// writer, in batches of up to this many records...
const BATCH_RECORDS: usize = 8;

/// ...whose blocks together stay under this many bytes (a larger record travels alone).
/// Batches mean each thread runs longer between hand-overs: fewer wake-ups, and on a shared
/// core fewer switches between the inflater's, the tokenizer's and the compressor's working
/// sets. Memory stays bounded as before: a batch holds at most one record above this size.
/// (1 MiB batches of 16 were no faster on two cores and kept ~20 MB more resident.)
const BATCH_BYTES: usize = 256 * 1024;

/// Record bytes per worker that may be read and not yet written: 16 full 256 KiB batches, and
/// more of the usual smaller ones. Deep queues keep both cores busy through the writer's
/// compression bursts and the reader's large records. Measured with `perf sched timehist` on
/// big.warc.gz, `-t 2`: with 4 batches a worker in flight a core sat idle 2–3.3% of the run;
/// with this budget 0.9–1.8% (2 MiB: 3.3–3.6%, 8 MiB: no better than 4), for ~20 MiB more
/// peak RSS.
const IN_FLIGHT_PER_WORKER: usize = 4 * 1024 * 1024;

/// Batches each channel holds per worker; the byte budget binds first on ordinary pages.
const QUEUE_BATCHES_PER_WORKER: usize = 32;

/// The in-flight budget: bytes of records the reader has sent and the writer not yet written.
/// The reader [`InFlight::acquire`]s a batch's bytes before sending it; the writer
/// [`InFlight::release`]s them once the batch's last page is written, so the budget also
/// bounds the writer's reorder buffer. Closing (the writer is gone) wakes the reader for good.
struct InFlight {
    state: Mutex<(usize, bool)>,
    freed: Condvar,
    limit: usize,
}

impl InFlight {
    fn new(limit: usize) -> InFlight {
        InFlight {
            state: Mutex::new((0, false)),
            freed: Condvar::new(),
            limit,
        }
    }

    /// Waits until `n` more bytes fit (or nothing is in flight), then takes them. False when
    /// closed: nobody will write them.
    fn acquire(&self, n: usize) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        while !st.1 && st.0 > 0 && st.0 + n > self.limit {
            st = self.freed.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        st.0 += n;
        !st.1
    }

    fn release(&self, n: usize) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.0 = st.0.saturating_sub(n);
        self.freed.notify_all();
    }

    fn close(&self) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.1 = true;
        self.freed.notify_all();
    }
}

/// Closes the budget when dropped: by the writer however it returns, and by a worker only
/// when it unwinds (its batch would never be written, so the reader must not wait for it).
struct CloseOnDrop<'a> {
    budget: &'a InFlight,
    only_on_panic: bool,
}

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        if !self.only_on_panic || std::thread::panicking() {
            self.budget.close();
        }
    }
}

/// A batch of outcomes with the record bytes it releases from the budget once written.
struct Outcomes {
    bytes: usize,
    list: Vec<(u64, Outcome)>,
}

/// The reader's batch being filled.
struct Batch {
    jobs: Vec<Job>,
    bytes: usize,
    /// Records per batch: [`BATCH_RECORDS`], or 1 when the test delay paces records.
    max: usize,
}

impl Batch {
    fn new(max: usize) -> Batch {
        Batch {
            jobs: Vec::with_capacity(max),
            bytes: 0,
            max,
        }
    }

    /// Whether `block_len` more bytes would overflow a non-empty batch.
    fn would_overflow(&self, block_len: usize) -> bool {
        !self.jobs.is_empty() && self.bytes + block_len > BATCH_BYTES
    }

    fn push(&mut self, job: Job) {
        self.bytes += job.record.block.len();
        self.jobs.push(job);
    }

    fn is_full(&self) -> bool {
        self.jobs.len() >= self.max || self.bytes >= BATCH_BYTES
    }

    /// Hands the batch (if not empty) with its bytes to `deliver`, and starts a new one;
    /// false when `deliver` says nobody will write it (the workers or the writer are gone).
    fn flush(&mut self, deliver: &mut impl FnMut(Vec<Job>, usize) -> bool) -> bool {
        if self.jobs.is_empty() {
            return true;
        }
        let jobs = std::mem::replace(&mut self.jobs, Vec::with_capacity(self.max));
        deliver(jobs, std::mem::take(&mut self.bytes))
    }
}

/// How a page's extraction went against the time budget.
#[derive(Debug, Clone, Copy, Default)]
struct PageCost {
    fallback: bool,
    over_budget: bool,
}

/// What a worker made of a record.
enum Outcome {
    Page(Box<PageRecord>, PageCost),
    Skipped(SkipReason),
    /// Dropped by the language filter (`skipped.lang`).
    FilteredByLang,
    Error {
        offset: u64,
        id: String,
        kind: &'static str,
        message: String,
    },
}

/// One line of an errors file.
#[derive(serde::Serialize)]
struct ErrorLine<'a> {
    input: &'a str,
    offset: u64,
    id: Option<&'a str>,
    kind: &'a str,
    reason: &'a str,
}

/// Why one input did not complete.
enum InputError {
    /// The input is unusable: the run goes on without it.
    Unusable(String),
    /// The run must stop.
    Fatal(PipelineError),
}

/// A completed input, before its marker is written.
struct InputDone {
    stats: Stats,
    /// Its errors file's content (JSON lines); empty when it had none.
    errors: Vec<u8>,
    /// Final shard names.
    shards: Vec<String>,
}

/// The methods of a run, looked up once.
struct Methods {
    main: Arc<dyn Method>,
    /// The fallback and the payload size above which it is used.
    fallback: Option<(Arc<dyn Method>, usize)>,
    time: Option<Duration>,
    corpus: crate::corpus::CorpusOptions,
}

/// Run every input through the pipeline; write shards, completion markers and the summary
/// (`stats.json` + `errors.jsonl`, or `stats-task-NNNN.json` + `errors-task-NNNN.jsonl`).
///
/// `Ok` also when some inputs failed: see [`RunReport::failed`].
pub fn run(cfg: &Config) -> Result<RunReport, PipelineError> {
    let lookup = |name: &str| -> Result<Arc<dyn Method>, PipelineError> {
        if extract::method(name).is_none() {
            return Err(PipelineError::UnknownAlgorithm(name.to_string()));
        }
        extract::method_with(name, &cfg.method_options)
            .map(Arc::from)
            .map_err(PipelineError::InvalidOption)
    };
    let methods = Methods {
        main: lookup(&cfg.algorithm)?,
        fallback: match cfg.budget.fallback_above {
            Some(limit) => Some((lookup(&cfg.budget.fallback)?, limit)),
            None => None,
        },
        time: cfg.budget.time,
        corpus: cfg.corpus.clone(),
    };
    check_unique_stems(&cfg.inputs)?;
    let out = &cfg.out_dir;
    for dir in [out.clone(), out.join(resume::DONE_DIR)] {
        std::fs::create_dir_all(&dir).map_err(|e| PipelineError::write(&dir, e))?;
    }
    let marked = if cfg.resume {
        resume::marked_stems(out)
            .map_err(|e| PipelineError::write(&out.join(resume::DONE_DIR), e))?
    } else {
        BTreeMap::new()
    };
    let index = OutputIndex::scan(out).map_err(|e| PipelineError::write(out, e))?;
    let to_read: Vec<&InputItem> = cfg
        .inputs
        .iter()
        .filter(|i| !marked.contains_key(&i.stem))
        .collect();
    let total: Option<u64> = to_read.iter().map(|i| file_size(&i.spec)).sum();
    let progress = Progress::new(cfg.progress, total);
    let mut report = RunReport {
        stats: Stats::default(),
        done_now: 0,
        resumed: 0,
        failed: Vec::new(),
        stats_file: out.join(summary_name("stats", cfg.task, "json")),
        errors_file: out.join(summary_name("errors", cfg.task, "jsonl")),
    };
    let started = Instant::now();
    // Inputs read at once, and the workers of each.
    let readers = if methods.main.stateful() {
        1
    } else {
        cfg.readers
            .unwrap_or_else(|| cfg.threads.div_ceil(WORKERS_PER_READER))
            .clamp(1, cfg.inputs.len().max(1))
    };
    let threads = (cfg.threads / readers).max(1);
    let each =
        |item: &InputItem| process_item(cfg, item, &methods, &progress, &marked, &index, threads);
    let outcomes: Vec<Option<ItemOutcome>> = if readers <= 1 {
        let mut outcomes = Vec::with_capacity(cfg.inputs.len());
        for item in &cfg.inputs {
            let outcome = each(item);
            let fatal = matches!(outcome, ItemOutcome::Fatal(_));
            outcomes.push(Some(outcome));
            if fatal {
                break;
            }
        }
        outcomes
    } else {
        // Several readers take the next input in turn; each input still has its own
        // shards, marker and errors, the same bytes as when read alone.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let slots: Vec<Mutex<Option<ItemOutcome>>> =
            cfg.inputs.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..readers {
                scope.spawn(|| {
                    use std::sync::atomic::Ordering::SeqCst;
                    while !stop.load(SeqCst) {
                        let k = next.fetch_add(1, SeqCst);
                        let (Some(item), Some(slot)) = (cfg.inputs.get(k), slots.get(k)) else {
                            break;
                        };
                        let outcome = each(item);
                        if matches!(outcome, ItemOutcome::Fatal(_)) {
                            stop.store(true, SeqCst);
                        }
                        *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(outcome);
                    }
                });
            }
        });
        slots
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect()
    };
    // Per input of the run: its counts once done (now or before), in input order.
    let mut done: Vec<Option<Stats>> = Vec::with_capacity(cfg.inputs.len());
    // Processing time of the inputs done now, summed.
    let mut now_wall = 0.0;
    for outcome in outcomes {
        match outcome {
            Some(ItemOutcome::Resumed(stats)) => {
                report.resumed += 1;
                done.push(Some(stats));
            }
            Some(ItemOutcome::Done(stats)) => {
                report.done_now += 1;
                now_wall += stats.wall_seconds;
                done.push(Some(stats));
            }
            Some(ItemOutcome::Failed(failure)) => {
                report.failed.push(failure);
                done.push(None);
            }
            Some(ItemOutcome::Fatal(e)) => {
                progress.finish();
                return Err(e);
            }
            None => done.push(None),
        }
    }
    progress.finish();
    // Inputs read at once overlap: this run took its elapsed time, not the sum.
    let wall_now = (readers > 1).then(|| (now_wall, started.elapsed().as_secs_f64()));
    write_summary(cfg, &done, wall_now, &mut report)?;
    Ok(report)
}

/// Workers one reader keeps busy: a reader frames about 11,000 pages/s on one core
/// (`-a none` reads big.warc.gz in 0.42 s) and a worker extracts about 2,000 with the default
/// method, so above five workers a run is reader-bound and, with several inputs, reads
/// several at once (`--readers` sets the number).
pub const WORKERS_PER_READER: usize = 5;

/// What became of one input of the run.
enum ItemOutcome {
    /// Done by an earlier run (`--resume`): its counts, from the marker.
    Resumed(Stats),
    /// Done now, marked.
    Done(Stats),
    /// Unusable: the run goes on without it.
    Failed(InputFailure),
    /// The run must stop.
    Fatal(PipelineError),
}

/// One input through the resume protocol: skipped when marked, else cleared, read with
/// `threads` workers, and marked (or failed).
fn process_item(
    cfg: &Config,
    item: &InputItem,
    methods: &Methods,
    progress: &Progress,
    marked: &BTreeMap<String, PathBuf>,
    index: &OutputIndex,
    threads: usize,
) -> ItemOutcome {
    let out = &cfg.out_dir;
    if let Some(path) = marked.get(&item.stem) {
        match resume::read_marker(path) {
            Ok(marker) => return ItemOutcome::Resumed(marker.stats),
            Err(why) => eprintln!("warcsift: {why}; processing {} again", item.spec),
        }
    }
    if let Err(e) = resume::clear_input(out, &item.stem, index) {
        let path = out.join(format!("{}-NNNNN", item.stem));
        return ItemOutcome::Fatal(PipelineError::write(&path, e));
    }
    let result = run_input(cfg, item, methods, progress, threads);
    progress.input_done(file_size(&item.spec).unwrap_or(0));
    match result {
        Ok(input_done) => {
            let stats = input_done.stats.clone();
            match finish_input(cfg, item, input_done) {
                Ok(()) => ItemOutcome::Done(stats),
                Err(e) => ItemOutcome::Fatal(e),
            }
        }
        Err(InputError::Unusable(message)) => {
            remove_partial_output(cfg, &item.stem);
            eprintln!(
                "warcsift: {message}; going on without this input (it is not marked done, \
                 so a rerun with --resume retries it)"
            );
            ItemOutcome::Failed(InputFailure {
                input: item.spec.name(),
                message,
            })
        }
        Err(InputError::Fatal(e)) => {
            remove_partial_output(cfg, &item.stem);
            ItemOutcome::Fatal(e)
        }
    }
}

/// `stats.json`, or `stats-task-0003.json` for a task of an array.
fn summary_name(what: &str, task: Option<TaskSlice>, ext: &str) -> String {
    match task {
        Some(t) => format!("{what}-{}.{ext}", t.label()),
        None => format!("{what}.{ext}"),
    }
}

/// Two inputs with one stem would overwrite each other's shards: refuse before writing.
pub fn check_unique_stems(inputs: &[InputItem]) -> Result<(), PipelineError> {
    let mut seen: HashMap<&str, &InputItem> = HashMap::new();
    for item in inputs {
        if let Some(first) = seen.insert(&item.stem, item) {
            return Err(PipelineError::DuplicateStem {
                stem: item.stem.clone(),
                first: first.spec.name(),
                second: item.spec.name(),
            });
        }
    }
    Ok(())
}

/// Steps 4 of the resume protocol: make the shards durable, then the errors file, then the
/// marker.
fn finish_input(cfg: &Config, item: &InputItem, d: InputDone) -> Result<(), PipelineError> {
    let out = &cfg.out_dir;
    resume::sync_dir(out).map_err(|e| PipelineError::write(out, e))?;
    let errors_file = if d.errors.is_empty() {
        None
    } else {
        let path = resume::errors_path(out, &item.stem);
        let dir = out.join(resume::ERRORS_DIR);
        std::fs::create_dir_all(&dir).map_err(|e| PipelineError::write(&dir, e))?;
        resume::write_atomic(&path, &d.errors).map_err(|e| PipelineError::write(&path, e))?;
        Some(format!("{}/{}.jsonl", resume::ERRORS_DIR, item.stem))
    };
    let marker = Marker {
        input: item.spec.name(),
        manifest_line: item.manifest_line.clone(),
        stem: item.stem.clone(),
        shards: d.shards,
        errors_file,
        stats: d.stats,
    };
    let path = resume::marker_path(out, &item.stem);
    let body = serde_json::to_vec_pretty(&marker).unwrap_or_default();
    resume::write_atomic(&path, &body).map_err(|e| PipelineError::write(&path, e))
}

/// Best effort after a failed input: remove the shards it wrote (final and temporary), which
/// are numbered from 0 without gaps. Errors are ignored: the input is unmarked, so a rerun
/// clears whatever is left.
fn remove_partial_output(cfg: &Config, stem: &str) {
    for i in 0.. {
        let name = shard_name(stem, &cfg.shard, i);
        let paths = [
            cfg.out_dir.join(&name),
            cfg.out_dir.join(format!(".{name}.tmp")),
            cfg.out_dir.join(format!(".{name}.old.tmp")),
        ];
        let removed = paths
            .iter()
            .filter(|p| resume::remove_if_present(p).unwrap_or(false))
            .count();
        if removed == 0 {
            break;
        }
    }
}

/// Write the run's summary: the counts of all its done inputs (read back from the markers of
/// those done before) and the concatenation of their errors files, in input order.
/// `wall_now`: with several inputs read at once, (their summed processing time, the run's
/// elapsed time), so that the run's time is the elapsed one (plus earlier runs' time).
fn write_summary(
    cfg: &Config,
    done: &[Option<Stats>],
    wall_now: Option<(f64, f64)>,
    report: &mut RunReport,
) -> Result<(), PipelineError> {
    let mut total = Stats::default();
    let mut errors = Vec::new();
    for (item, stats) in cfg.inputs.iter().zip(done) {
        let Some(stats) = stats else { continue };
        total.merge(stats);
        if stats.total_errors() + stats.repairs.values().sum::<u64>() > 0 {
            let path = resume::errors_path(&cfg.out_dir, &item.stem);
            match std::fs::read(&path) {
                Ok(bytes) => errors.extend_from_slice(&bytes),
                Err(e) => eprintln!(
                    "warcsift: cannot read {} for the run's error list: {}",
                    path.display(),
                    os_sentence(&e)
                ),
            }
        }
    }
    total.inputs_failed = report.failed.len() as u64;
    total.inputs_resumed = report.resumed as u64;
    let wall = match wall_now {
        Some((summed, elapsed)) => (total.wall_seconds - summed).max(0.0) + elapsed,
        None => total.wall_seconds,
    };
    total.finish(wall);
    resume::write_atomic(&report.errors_file, &errors)
        .map_err(|e| PipelineError::write(&report.errors_file, e))?;
    write_stats(&report.stats_file, &total)?;
    report.stats = total;
    Ok(())
}

/// Write `stats` as pretty JSON, atomically (temporary name, then rename).
pub fn write_stats(path: &Path, stats: &Stats) -> Result<(), PipelineError> {
    let body = serde_json::to_vec_pretty(stats).unwrap_or_default();
    resume::write_atomic(path, &body).map_err(|e| PipelineError::write(path, e))
}

fn run_input(
    cfg: &Config,
    item: &InputItem,
    methods: &Methods,
    progress: &Progress,
    threads: usize,
) -> Result<InputDone, InputError> {
    let started = Instant::now();
    let source = item.spec.name();
    let opts = input::OpenOptions { retry: cfg.retry };
    let input = input::open_with(&item.spec, &opts).map_err(|e| {
        // A folder: say what to pass instead (its files, or a manifest of them).
        let hint = if matches!(e, input::InputError::Directory { .. }) {
            let dir = source.trim_end_matches('/');
            format!(" (pass the archives in it, as {dir}/*.warc.gz, or list them in a --manifest)")
        } else {
            String::new()
        };
        InputError::Unusable(format!("cannot read input {source}: {e}{hint}"))
    })?;
    let writer = ShardWriter::create(&cfg.out_dir, &item.stem, &cfg.shard)
        .map_err(|e| InputError::Fatal(e.into()))?;
    // A stateful method (Info Discoverer) must see pages in input order: one worker.
    let threads = if methods.main.stateful() {
        1
    } else {
        threads.max(1)
    };
    let budget = InFlight::new(threads * IN_FLIGHT_PER_WORKER);
    let budget = &budget;
    let strict = cfg.strict;
    let mut records = RecordReader::new(input, cfg.reader);
    let mut read = ReadState::default();
    let result = if threads == 1 && cfg.cores == 1 {
        // One CPU: the reader's thread extracts and writes each batch as it is read. Three
        // threads taking turns on one core would only add hand-overs, and a batch read
        // megabytes earlier is out of the cache by the time its worker reaches it. Nothing
        // is ever in flight, so no one waits on the budget the writer releases into.
        let mut order = InOrder::new(writer, progress, strict, &source, budget);
        let mut failed = None;
        read_batches(&mut records, cfg, progress, &mut read, &mut |jobs, _| {
            let step = catch_unwind(AssertUnwindSafe(|| {
                order.accept(work(jobs, methods, &cfg.http, &source))
            }));
            match step {
                Ok(Ok(())) => true,
                Ok(Err(e)) => {
                    failed = Some(e);
                    false
                }
                Err(_) => {
                    failed = Some(PipelineError::Input {
                        input: source.clone(),
                        message: "the writer panicked".into(),
                    });
                    false
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => order.finish(),
        }
    } else {
        let (job_tx, job_rx) = bounded::<Vec<Job>>(threads * QUEUE_BATCHES_PER_WORKER);
        let (out_tx, out_rx) = bounded::<Outcomes>(threads * QUEUE_BATCHES_PER_WORKER);
        std::thread::scope(|scope| {
            // Workers.
            for _ in 0..threads {
                let (rx, tx) = (job_rx.clone(), out_tx.clone());
                let (http_limits, source) = (cfg.http, source.as_str());
                scope.spawn(move || {
                    let _close = CloseOnDrop {
                        budget,
                        only_on_panic: true,
                    };
                    worker(rx, tx, methods, &http_limits, source)
                });
            }
            drop(job_rx);
            drop(out_tx);
            // Writer.
            let writer_handle = scope.spawn(|| {
                let _close = CloseOnDrop {
                    budget,
                    only_on_panic: false,
                };
                write_in_order(out_rx, writer, progress, strict, &source, budget)
            });
            // Reader, on this thread.
            read_batches(
                &mut records,
                cfg,
                progress,
                &mut read,
                &mut |jobs, bytes| budget.acquire(bytes) && job_tx.send(jobs).is_ok(),
            );
            drop(job_tx);
            writer_handle.join().unwrap_or_else(|_| {
                Err(PipelineError::Input {
                    input: source.clone(),
                    message: "the writer thread panicked".into(),
                })
            })
        })
    };
    let ReadState {
        stats: mut reader_stats,
        errors: reader_errors,
    } = read;
    reader_stats.bytes_in = records.position();
    let source_error = records.get_ref().source_error();
    let no_record = (reader_stats.records_read == 0).then(|| {
        let mut what = records.get_ref().describe();
        if let Some((offset, _, _, first)) = reader_errors.first() {
            what.push_str(&format!(" (the first error, at byte {offset}: {first})"));
        }
        what
    });
    let (mut stats, worker_errors, shards) = result.map_err(InputError::Fatal)?;
    if let Some(message) = source_error {
        return Err(InputError::Unusable(format!(
            "cannot read input {source} to its end: {message}"
        )));
    }
    if let Some(what) = no_record {
        return Err(InputError::Unusable(format!(
            "no record could be read from {source}: {what}"
        )));
    }
    if strict {
        if let Some((offset, id, _, reason)) = reader_errors.iter().find(|e| e.2 == "record") {
            return Err(InputError::Fatal(PipelineError::Strict {
                input: source.clone(),
                offset: *offset,
                id: id.clone(),
                reason: reason.clone(),
            }));
        }
    }
    stats.merge(&reader_stats);
    stats.inputs = 1;
    // The errors file: reader and worker errors of this input, by offset (deterministic).
    let mut lines = reader_errors;
    lines.extend(
        worker_errors
            .into_iter()
            .map(|(o, id, k, m)| (o, Some(id), k, m)),
    );
    lines.sort_by_key(|l| l.0);
    let mut errors = Vec::new();
    for (offset, id, kind, reason) in &lines {
        let line = ErrorLine {
            input: &source,
            offset: *offset,
            id: id.as_deref(),
            kind,
            reason,
        };
        if serde_json::to_writer(&mut errors, &line).is_ok() {
            errors.push(b'\n');
        }
    }
    stats.finish(started.elapsed().as_secs_f64());
    Ok(InputDone {
        stats,
        errors,
        shards,
    })
}

/// What the reader counted and the records it could not read: (offset, record id, kind,
/// message).
#[derive(Default)]
struct ReadState {
    stats: Stats,
    errors: Vec<(u64, Option<String>, &'static str, String)>,
}

/// Frames every record of `records`, counts what it reads into `read`, and hands the ones
/// to extract, numbered and in batches, to `deliver` (with their bytes); stops early when
/// `deliver` returns false (nobody will write them) or, with `--strict`, at the first bad
/// record.
fn read_batches(
    records: &mut RecordReader<input::Input>,
    cfg: &Config,
    progress: &Progress,
    read: &mut ReadState,
    deliver: &mut impl FnMut(Vec<Job>, usize) -> bool,
) {
    let mut seq = 0u64;
    let mut batch = Batch::new(if cfg.record_delay.is_some() {
        1
    } else {
        BATCH_RECORDS
    });
    while let Some(event) = records.next() {
        if let Some(delay) = cfg.record_delay {
            std::thread::sleep(delay);
        }
        read.stats.records_read += 1;
        match event {
            ReadEvent::Record(record) => {
                let ty = record
                    .header
                    .record_type()
                    .unwrap_or("unknown")
                    .to_ascii_lowercase();
                Stats::count(&mut read.stats.records_by_type, &ty);
                if batch.would_overflow(record.block.len()) && !batch.flush(deliver) {
                    return; // The writer stopped; its error is reported by the caller.
                }
                batch.push(Job { seq, record });
                seq += 1;
                if batch.is_full() && !batch.flush(deliver) {
                    return;
                }
            }
            ReadEvent::Skipped {
                reason,
                record_type,
                ..
            } => {
                Stats::count(&mut read.stats.records_by_type, &record_type);
                Stats::count(&mut read.stats.skipped, reason.as_str());
            }
            ReadEvent::Error { offset, id, error } => {
                read.stats.records_read -= 1;
                if let Some(repair) = error.repair_kind() {
                    // A repair is logged, never an error of the input (not even with
                    // --strict).
                    Stats::count(&mut read.stats.repairs, repair);
                    read.errors.push((offset, id, "repair", error.to_string()));
                } else {
                    read.stats.error("record");
                    read.errors.push((offset, id, "record", error.to_string()));
                    if cfg.strict {
                        break;
                    }
                }
            }
        }
        // `RecordReader::position`, not `Iterator::position` of the `&mut` reader.
        let at = RecordReader::position(records);
        progress.set_bytes(at, records.get_ref().raw_bytes_read());
    }
    batch.flush(deliver);
}

/// One batch of records through [`run_job`], with the bytes it releases once written.
fn work(jobs: Vec<Job>, methods: &Methods, limits: &http::Limits, source: &str) -> Outcomes {
    Outcomes {
        bytes: jobs.iter().map(|job| job.record.block.len()).sum(),
        list: jobs
            .iter()
            .map(|job| (job.seq, run_job(job, methods, limits, source)))
            .collect(),
    }
}

fn worker(
    rx: Receiver<Vec<Job>>,
    tx: Sender<Outcomes>,
    methods: &Methods,
    limits: &http::Limits,
    source: &str,
) {
    for jobs in rx {
        if tx.send(work(jobs, methods, limits, source)).is_err() {
            return;
        }
    }
}

/// One record through [`process`], a panic turned into that record's error.
fn run_job(job: &Job, methods: &Methods, limits: &http::Limits, source: &str) -> Outcome {
    let offset = job.record.offset;
    let id = job.record.header.record_id().unwrap_or("").to_string();
    catch_unwind(AssertUnwindSafe(|| {
        process(&job.record, methods, limits, source)
    }))
    .unwrap_or_else(|_| Outcome::Error {
        offset,
        id,
        kind: "internal",
        message: "extraction panicked on this record (a bug: please report it with the record)"
            .into(),
    })
}

/// HTTP payload → HTML check → charset → extraction (by the chosen method, or the fallback
/// for pages the cost model predicts over budget) → page record.
fn process(record: &RawRecord, methods: &Methods, limits: &http::Limits, source: &str) -> Outcome {
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
    // A label can lie (a gzip-encoded PNG served as text/html): look at the decoded bytes.
    if !html || http::looks_binary(&body) {
        return Outcome::Skipped(SkipReason::NotHtml);
    }
    let mut cost = PageCost::default();
    let method: &dyn Method = match &methods.fallback {
        Some((fallback, limit)) if body.len() > *limit => {
            cost.fallback = true;
            fallback.as_ref()
        }
        _ => methods.main.as_ref(),
    };
    let started = Instant::now();
    let ex = extract::extract_with_as(
        &body,
        charset.as_deref(),
        Some(&url),
        method,
        methods.corpus.markdown(),
    );
    cost.over_budget = methods.time.is_some_and(|t| started.elapsed() > t);
    let facts = crate::corpus::RecordFacts {
        id,
        url,
        date: h.date().unwrap_or("").to_string(),
        source: source.to_string(),
        offset: record.offset,
        truncated: h.truncated().is_some(),
    };
    match crate::corpus::page_record(ex, facts, &methods.corpus) {
        Some(page) => Outcome::Page(Box::new(page), cost),
        None => Outcome::FilteredByLang,
    }
}

type WorkerError = (u64, String, &'static str, String);

/// The writer's side of [`InOrder`] on its own thread: every batch of `rx`, then
/// [`InOrder::finish`].
fn write_in_order(
    rx: Receiver<Outcomes>,
    writer: ShardWriter,
    progress: &Progress,
    strict: bool,
    source: &str,
    budget: &InFlight,
) -> Result<(Stats, Vec<WorkerError>, Vec<String>), PipelineError> {
    let mut order = InOrder::new(writer, progress, strict, source, budget);
    for batch in rx {
        order.accept(batch)?;
    }
    order.finish()
}

/// Outcomes put back in input order by sequence number and written: the counts, the
/// per-record errors and the shards. With `strict`, the first error stops it.
struct InOrder<'a> {
    writer: ShardWriter,
    progress: &'a Progress,
    strict: bool,
    source: &'a str,
    budget: &'a InFlight,
    stats: Stats,
    errors: Vec<WorkerError>,
    pending: BTreeMap<u64, Outcome>,
    /// Budget bytes to release once everything before the key (a batch's last seq + 1) is
    /// written.
    releases: BTreeMap<u64, usize>,
    next: u64,
}

impl<'a> InOrder<'a> {
    fn new(
        writer: ShardWriter,
        progress: &'a Progress,
        strict: bool,
        source: &'a str,
        budget: &'a InFlight,
    ) -> Self {
        InOrder {
            writer,
            progress,
            strict,
            source,
            budget,
            stats: Stats::default(),
            errors: Vec::new(),
            pending: BTreeMap::new(),
            releases: BTreeMap::new(),
            next: 0,
        }
    }

    /// Takes one batch, and writes every outcome that is next in order.
    fn accept(&mut self, batch: Outcomes) -> Result<(), PipelineError> {
        let stats = &mut self.stats;
        if let Some(&(last, _)) = batch.list.last() {
            *self.releases.entry(last + 1).or_default() += batch.bytes;
        } else {
            self.budget.release(batch.bytes);
        }
        self.pending.extend(batch.list);
        while let Some(outcome) = self.pending.remove(&self.next) {
            self.next += 1;
            match outcome {
                Outcome::Page(page, cost) => {
                    stats.extracted += 1;
                    stats.fallbacks += u64::from(cost.fallback);
                    stats.over_budget += u64::from(cost.over_budget);
                    if page.text.is_empty() {
                        stats.extracted_empty += 1;
                    }
                    if page.truncated {
                        stats.extracted_truncated += 1;
                    }
                    Stats::count(&mut stats.charset_sources, &page.charset_source);
                    Stats::count(&mut stats.page_types, &page.page_type);
                    Stats::count(&mut stats.langs, page.lang.as_deref().unwrap_or("und"));
                    self.writer.write(&page)?;
                    self.progress.inc();
                }
                Outcome::Skipped(reason) => Stats::count(&mut stats.skipped, reason.as_str()),
                Outcome::FilteredByLang => Stats::count(&mut stats.skipped, "lang"),
                Outcome::Error {
                    offset,
                    id,
                    kind,
                    message,
                } => {
                    if self.strict {
                        return Err(PipelineError::Strict {
                            input: self.source.to_string(),
                            offset,
                            id: Some(id).filter(|i| !i.is_empty()),
                            reason: message,
                        });
                    }
                    stats.error(kind);
                    self.errors.push((offset, id, kind, message));
                }
            }
        }
        while let Some(entry) = self.releases.first_entry() {
            if *entry.key() > self.next {
                break;
            }
            self.budget.release(entry.remove());
        }
        Ok(())
    }

    /// Closes the last shard: the counts, the errors and the final shard names.
    fn finish(self) -> Result<(Stats, Vec<WorkerError>, Vec<String>), PipelineError> {
        let mut stats = self.stats;
        let summary = self.writer.finish()?;
        stats.shards = summary.files.len() as u64;
        stats.bytes_out = summary.bytes_written;
        stats.bytes_out_uncompressed = summary.bytes_uncompressed;
        let shards = summary
            .files
            .iter()
            .filter_map(|f| f.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        Ok((stats, self.errors, shards))
    }
}

/// Progress on stderr when it is a terminal; nothing otherwise. When the size of every
/// input to read is known (local files), a bar with percent and ETA from the compressed bytes
/// read across all inputs; else a spinner. Rates are whole pages per second.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
    pages: std::sync::atomic::AtomicU64,
    /// Compressed bytes of the inputs finished so far (bar mode).
    finished: std::sync::atomic::AtomicU64,
}

impl Progress {
    /// `total`: the compressed bytes of all inputs to read, when known.
    fn new(enabled: bool, total: Option<u64>) -> Self {
        use std::io::IsTerminal;
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let (bar, template) = match total {
                Some(total) => (
                    indicatif::ProgressBar::new(total),
                    "{bar:30} {percent:>3}% {bytes}/{total_bytes} ETA {eta} · {msg}",
                ),
                None => (
                    indicatif::ProgressBar::new_spinner(),
                    "{spinner} {elapsed_precise} {msg}",
                ),
            };
            bar.set_style(
                indicatif::ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            started: Instant::now(),
            pages: std::sync::atomic::AtomicU64::new(0),
            finished: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn inc(&self) {
        self.pages
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// After each record: `decompressed` and `compressed` bytes read of the current input.
    fn set_bytes(&self, decompressed: u64, compressed: u64) {
        let Some(b) = &self.bar else { return };
        use std::sync::atomic::Ordering::Relaxed;
        b.set_position(self.finished.load(Relaxed) + compressed);
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let pages = self.pages.load(Relaxed);
        b.set_message(format!(
            "{pages} pages, {:.0} pages/s, {:.1} MB read",
            pages as f64 / secs,
            decompressed as f64 / 1e6
        ));
    }

    /// An input of `size` compressed bytes is finished (or skipped).
    fn input_done(&self, size: u64) {
        self.finished
            .fetch_add(size, std::sync::atomic::Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.set_position(self.finished.load(std::sync::atomic::Ordering::Relaxed));
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// The size of a local input file, for the progress bar.
fn file_size(spec: &InputSpec) -> Option<u64> {
    match spec {
        InputSpec::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_flight_budget_waits_for_the_writer_and_never_deadlocks() {
        let b = InFlight::new(100);
        // Nothing in flight: even a batch over the limit goes (one large record alone).
        assert!(b.acquire(250));
        b.release(250);
        assert!(b.acquire(60));
        assert!(b.acquire(40)); // exactly at the limit
        let (tx, rx) = crossbeam_channel::bounded(1);
        std::thread::scope(|s| {
            s.spawn(|| {
                // 100 in flight: 1 more byte must wait for a release.
                let ok = b.acquire(1);
                tx.send(ok).unwrap();
            });
            std::thread::sleep(Duration::from_millis(50));
            assert!(rx.try_recv().is_err(), "acquire went past the budget");
            b.release(60);
            assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(true));
        });
        assert_eq!(b.state.lock().unwrap().0, 41);
        // A closed budget (the writer is gone) refuses at once instead of waiting.
        std::thread::scope(|s| {
            let waiter = s.spawn(|| b.acquire(100));
            std::thread::sleep(Duration::from_millis(20));
            b.close();
            assert!(!waiter.join().unwrap());
        });
        assert!(!b.acquire(1));
    }

    #[test]
    fn a_panicking_worker_closes_the_budget() {
        let b = InFlight::new(10);
        assert!(b.acquire(10));
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let _close = CloseOnDrop {
                budget: &b,
                only_on_panic: true,
            };
            panic!("worker bug");
        }));
        assert!(r.is_err());
        assert!(!b.acquire(1), "the reader would wait forever");
        let c = InFlight::new(10);
        drop(CloseOnDrop {
            budget: &c,
            only_on_panic: true,
        });
        assert!(c.acquire(1), "a worker that ends normally leaves it open");
    }

    #[test]
    fn page_budget_from_the_cost_model() {
        let b = PageBudget::new("cetr-km-blocks", 2000, "plain", None);
        assert_eq!(b.time, Some(Duration::from_secs(2)));
        assert_eq!(b.fallback_above, Some(2000 * 15_000));
        let b = PageBudget::new("ccb-chars", 2000, "plain", None);
        assert_eq!(b.fallback_above, Some(4_000_000));
        // Explicit limit wins; no budget means no timing; no fallback to the method itself.
        let b = PageBudget::new("cetr-km-blocks", 0, "plain", Some(10));
        assert_eq!((b.time, b.fallback_above), (None, Some(10)));
        assert_eq!(
            PageBudget::new("plain", 2000, "plain", None).fallback_above,
            None
        );
        assert_eq!(PageBudget::new("x", 0, "plain", None), PageBudget::none());
        assert_eq!(cost_model_bytes_per_ms("no-such-method"), 2_000);
        // Parse only never falls back (it has no extraction to save).
        assert_eq!(
            PageBudget::new("none", 2000, "plain", None).fallback_above,
            Some(usize::MAX)
        );
    }

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
