//! `warcsift eval`: score extraction methods against human gold text, following Gottron's
//! evaluation framework (seed 004, "A framework for evaluating content extraction").
//!
//! The pipeline, one module per step:
//!
//! ```text
//! dataset ──▶ runner ──────────────────────────▶ summary ──▶ report / figure
//! packages    extract_bytes per method (timed),  mean, median,  stdout table, TSV,
//! of pages    or a peer's DIR/<package>/<id>.txt pstdev         JSON, Markdown, SVG
//!             ──▶ measures (normalize, lcs)
//! ```
//!
//! # Measures (seed 004, section 3)
//!
//! For every page and every method, precision P, recall R and F1 = 2PR/(P+R) over five
//! kinds of items ([`measures::Measure`]):
//!
//! 1. `chars`: characters (Unicode code points) of the normalised text; the relevant
//!    extracted items are the longest common subsequence (LCS) with the gold;
//! 2. `words_seq`: the word sequence, intersected by LCS;
//! 3. `bag`: the bag of words, intersected by Σ min(count in gold, count in prediction);
//! 4. `set`: the set of distinct words, intersected as sets;
//! 5. `shingles`: word 4-grams as a bag — *not* in the seed: taken from the ScrapingHub
//!    article-extraction benchmark, which the reference scorer `score.py` also reports.
//!    A text of one to three words is a single shingle.
//!
//! The seed uses Hirschberg's algorithm for the LCS; we use the bit-parallel recurrence
//! (Allison–Dix, Hyyrö) over 64-bit words, exact, O(n·m/64) time and linear memory
//! ([`lcs`]), with the O(n·m) dynamic program as its test twin.
//!
//! Per package (and over all pages, group `all`, which is the mean over pages, not over
//! packages): mean P, R and F1, the median and the population standard deviation of F1
//! (the seed's stability measure), and the processing time as milliseconds per kB of HTML
//! and pages per second (seed section 3; only the `extract_bytes` call is timed).
//!
//! # Conventions, identical to the reference scorer `tools/eval/score.py`
//!
//! * Normalisation ([`normalize`]): CPython's `html.unescape` (legacy entities without `;`
//!   included), every run of Python `\s` to one space, strip, lower-case.
//! * Words: maximal runs of Python `\w` (letters `L*`, numbers `N*` and `_`; combining
//!   marks split words, as in Python).
//! * Files are read as UTF-8 with invalid bytes replaced; a missing prediction file is an
//!   empty prediction.
//! * Empty texts ([`measures::prf`]): empty gold and empty prediction score P = R = F1 = 1;
//!   an empty prediction for non-empty gold scores P = 1, R = 0, F1 = 0; a prediction for
//!   empty gold scores P = 0, R = 1, F1 = 0; no shared item gives F1 = 0. The same rule
//!   applies per measure, so a punctuation-only text has characters but no words.
//! * `rapidfuzz`'s `LCSseq.similarity` is an exact LCS length, as ours is, so per-page
//!   scores agree to floating-point rounding (1e-16 on 40 devset pages, see
//!   `tests/eval_vs_score.rs`), up to Unicode-version differences in `\w`/`lower()`
//!   (our `\w` table is CPython 3.11's Unicode 14).
//!
//! Where we deliberately differ from the seed: the shingle measure is added; gold and
//! predictions are plain text files rather than HTML returned by a proxy; time is
//! measured in-process around the extraction call, not through a proxy round trip.
//!
//! # Inputs and outputs
//!
//! A test package is a folder of `<id>.html` pages, gold `<id>.txt` and optional
//! `meta.jsonl` ([`dataset`]). `--pred DIR` scores another tool's `DIR/<package>/<id>.txt`
//! side by side with warcsift's methods. `--tsv` writes one row per page × method,
//! `--json` the summary, `--markdown` a README table, `--svg` the seed's Figure 1,
//! `--dump DIR` each method's texts as `DIR/<method>/<package>/<id>.txt` so that
//! `score.py` (or anything else) can rescore them.
//!
//! When pages carry a page-type label (`page_type` in `meta.jsonl`, as WCXB's do), the
//! table is followed by the page-type block of [`page_types`]: the classifier's accuracy,
//! precision and recall per type, its confusion matrix, and every system's mean F1 per
//! labelled type; `--json` holds the same under `page_types`.
//!
//! ```no_run
//! use std::path::Path;
//! let s = warcsift::eval::score_dirs(Path::new("gold/cleaneval"), Path::new("out/cleaneval"))?;
//! println!("words_seq F1 {:.3}", s.measures.get(warcsift::eval::Measure::WordsSeq).f1);
//! # Ok::<(), String>(())
//! ```

use std::fs;
use std::path::{Path, PathBuf};

pub mod dataset;
pub mod figure;
pub mod lcs;
pub mod measures;
pub mod normalize;
pub mod page_types;
mod pyclass;
pub mod report;
pub mod runner;
pub mod summary;

pub use measures::{score_pair, GoldText, Measure, Prf, Scores};
pub use report::Report;
pub use runner::{evaluate, score_dirs, DirScore, RunOptions, System};
pub use summary::{MeasureSummaries, MeasureSummary};

/// Command-line arguments of `warcsift eval`.
#[derive(clap::Args, Debug, Clone)]
pub struct EvalArgs {
    /// Folder of test packages (like ../shared/devset) or one package folder; repeatable.
    #[arg(long, required = true, num_args = 1..)]
    pub dataset: Vec<PathBuf>,
    /// Methods, comma-separated, "all", or "none" to score only --pred outputs.
    #[arg(short = 'a', long = "algorithm", default_value = "all")]
    pub algorithm: String,
    /// Score texts another tool produced: DIR/PACKAGE/ID.txt (repeatable; the tool is
    /// named after DIR's last component, or NAME=DIR). A missing file is an empty prediction.
    #[arg(long, value_name = "[NAME=]DIR")]
    pub pred: Vec<String>,
    /// Write each method's text to DIR/METHOD/PACKAGE/ID.txt.
    #[arg(long, value_name = "DIR")]
    pub dump: Option<PathBuf>,
    /// Write one row per page × method (all measures, HTML bytes, milliseconds).
    #[arg(long, value_name = "FILE")]
    pub tsv: Option<PathBuf>,
    /// Write the summary (per package and overall, per method, every measure) as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a Markdown table of mean F1 per package (for a README).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write a grouped bar chart of mean F1 per package and method (seed 004, Figure 1).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Measure shown first in the table and used by --markdown and --svg.
    #[arg(long, default_value = "words_seq",
          value_parser = ["chars", "words_seq", "bag", "set", "shingles"])]
    pub measure: String,
    /// Score at most N pages per package (the first N ids), for quick runs.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// What `eval` will do, resolved from [`EvalArgs`]: nothing below reads the command line.
#[derive(Debug, Clone)]
pub struct EvalConfig {
    pub datasets: Vec<PathBuf>,
    pub systems: Vec<System>,
    pub measure: Measure,
    pub limit: Option<usize>,
    pub run: RunOptions,
    pub tsv: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub markdown: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

impl EvalConfig {
    /// Validate the arguments: method names against [`crate::extract::algorithm_names`],
    /// peer folders exist, no two systems share a name, at least one system.
    pub fn from_args(args: &EvalArgs) -> Result<EvalConfig, String> {
        let mut systems = resolve_methods(&args.algorithm)?;
        for spec in &args.pred {
            let peer = parse_pred(spec)?;
            if systems.iter().any(|s| s.name() == peer.name()) {
                return Err(format!(
                    "--pred {spec}: the name {:?} is already used; name it with NAME=DIR",
                    peer.name()
                ));
            }
            systems.push(peer);
        }
        if systems.is_empty() {
            return Err("nothing to evaluate: no method (-a) and no --pred".to_owned());
        }
        Ok(EvalConfig {
            datasets: args.dataset.clone(),
            systems,
            measure: Measure::from_name(&args.measure)
                .ok_or_else(|| format!("unknown measure {:?}", args.measure))?,
            limit: args.limit,
            run: RunOptions {
                threads: args.threads.unwrap_or(0),
                dump: args.dump.clone(),
                progress: true,
            },
            tsv: args.tsv.clone(),
            json: args.json.clone(),
            markdown: args.markdown.clone(),
            svg: args.svg.clone(),
        })
    }
}

/// `-a` value to methods: `all` is every name of [`crate::extract::algorithm_names`] at run
/// time but the parse-only `none` method, `none` or empty is no method, otherwise a comma-separated list (duplicates dropped).
fn resolve_methods(spec: &str) -> Result<Vec<System>, String> {
    let known = crate::extract::algorithm_names();
    let spec = spec.trim();
    if spec.is_empty() || spec == "none" {
        return Ok(Vec::new());
    }
    if spec == "all" {
        // The parse-only method extracts nothing: there is nothing of it to score.
        return Ok(known
            .iter()
            .filter(|n| **n != "none")
            .map(|n| System::Method((*n).to_owned()))
            .collect());
    }
    let mut out: Vec<System> = Vec::new();
    for name in spec.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !known.contains(&name) {
            return Err(format!(
                "unknown algorithm {name:?}; known: {}",
                known.join(", ")
            ));
        }
        if !out.iter().any(|s| s.name() == name) {
            out.push(System::Method(name.to_owned()));
        }
    }
    Ok(out)
}

/// `--pred [NAME=]DIR`.
fn parse_pred(spec: &str) -> Result<System, String> {
    let (name, dir) = match spec.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !name.contains(['/', '\\']) => {
            (name.to_owned(), PathBuf::from(dir))
        }
        _ => {
            let dir = PathBuf::from(spec);
            let canonical = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            let name = canonical
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .ok_or_else(|| format!("--pred {spec}: cannot name the tool; use NAME=DIR"))?;
            (name, dir)
        }
    };
    if !dir.is_dir() {
        return Err(format!("--pred {spec}: {} is not a folder", dir.display()));
    }
    Ok(System::Peer { name, dir })
}

/// Run `warcsift eval`: score, print the summary table on stdout, write the requested files.
pub fn run(args: &EvalArgs) -> Result<(), String> {
    let config = EvalConfig::from_args(args)?;
    let report = run_config(&config)?;
    print!("{}", report.table(config.measure));
    if let Some(types) = &report.page_types {
        print!("{}", types.table(config.measure));
    }
    Ok(())
}

/// Everything [`run`] does except printing; returns the report.
pub fn run_config(config: &EvalConfig) -> Result<Report, String> {
    let packages = dataset::discover(&config.datasets, config.limit)?;
    for system in &config.systems {
        if let System::Peer { name, dir } = system {
            for p in packages.iter().filter(|p| !dir.join(&p.name).is_dir()) {
                eprintln!(
                    "eval: warning: {name}: no folder {} (every {} page scores as empty)",
                    dir.join(&p.name).display(),
                    p.name
                );
            }
        }
    }
    let results = evaluate(&packages, &config.systems, &config.run)?;
    let report = Report::build(&packages, &config.systems, &results);
    if let Some(path) = &config.tsv {
        let file = fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut w = std::io::BufWriter::new(file);
        report::write_tsv(&mut w, &packages, &config.systems, &results)
            .and_then(|()| std::io::Write::flush(&mut w))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &config.json {
        let text = serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?;
        write_file(path, &(text + "\n"))?;
    }
    if let Some(path) = &config.markdown {
        write_file(path, &report.markdown(config.measure))?;
    }
    if let Some(path) = &config.svg {
        write_file(path, &figure::bar_chart_svg(&report, config.measure)?)?;
    }
    Ok(report)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        eval: EvalArgs,
    }

    #[test]
    fn arguments_parse() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "eval",
            "--dataset",
            "a",
            "b",
            "-a",
            "plain",
            "--pred",
            "x=/tmp",
            "--limit",
            "3",
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cli.eval.dataset.len(), 2);
        assert_eq!(cli.eval.algorithm, "plain");
        assert_eq!(cli.eval.measure, "words_seq");
        assert_eq!(cli.eval.limit, Some(3));
        assert!(Cli::try_parse_from(["eval", "--dataset", "a", "--measure", "nope"]).is_err());
        assert!(Cli::try_parse_from(["eval"]).is_err());
    }

    #[test]
    fn methods_and_peers_resolve() {
        let known = crate::extract::algorithm_names();
        // `all`: every method but the parse-only `none`.
        assert_eq!(resolve_methods("all").map(|v| v.len()), Ok(known.len() - 1));
        assert_eq!(resolve_methods("none"), Ok(vec![]));
        assert_eq!(resolve_methods(" "), Ok(vec![]));
        let first = known[0];
        let twice = resolve_methods(&format!("{first}, {first}")).unwrap_or_default();
        assert_eq!(twice, vec![System::Method(first.to_owned())]);
        assert!(resolve_methods("no-such-method").is_err());

        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = tmp.path().join("trafilatura");
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let named = parse_pred(&dir.display().to_string());
        assert_eq!(named.as_ref().map(System::name), Ok("trafilatura"));
        let renamed = parse_pred(&format!("tf={}", dir.display()));
        assert_eq!(renamed.as_ref().map(System::name), Ok("tf"));
        assert!(parse_pred(&tmp.path().join("missing").display().to_string()).is_err());
    }
}
