//! Run every system over every page, in parallel, and score the outputs.
//!
//! A *system* is either a warcsift method (its text comes from
//! [`crate::extract::extract_bytes`], timed around that call only) or a peer tool whose
//! outputs were written beforehand to `DIR/<package>/<id>.txt` (a missing file is an empty
//! prediction, as in `score.py`). Each page is one job: its HTML and gold are read and the
//! gold is prepared once ([`GoldText`]), then every system is scored against it. Jobs go to
//! `threads` workers through a shared index, largest pages first so that one huge page does
//! not finish last; results are put back in dataset order, so output is deterministic
//! whatever the thread count.
//!
//! A method that returns an error or panics on a page scores that page as an empty
//! prediction and is counted in `errors`; it does not stop the run. I/O errors (unreadable
//! page, gold or dump folder) do.

use std::fs;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::dataset::{Package, Page};
use super::measures::{GoldText, Scores};
use super::pyclass::is_space_char;
use super::summary::MeasureSummaries;
use crate::page_type::PageType;

/// Where a system's predictions come from.
#[derive(Debug, Clone, PartialEq)]
pub enum System {
    /// A warcsift method, by its `--algorithm` name.
    Method(String),
    /// Another tool's outputs, `dir/<package>/<id>.txt`.
    Peer { name: String, dir: PathBuf },
}

impl System {
    pub fn name(&self) -> &str {
        match self {
            System::Method(name) | System::Peer { name, .. } => name,
        }
    }

    /// `"method"` or `"pred"`.
    pub fn kind(&self) -> &'static str {
        match self {
            System::Method(_) => "method",
            System::Peer { .. } => "pred",
        }
    }
}

/// One system on one page.
#[derive(Debug, Clone, Default)]
pub struct PageScore {
    pub scores: Scores,
    /// Extraction time; `None` for peers.
    pub seconds: Option<f64>,
    /// The prediction was blank (`not pred.strip()` in `score.py`).
    pub empty: bool,
    /// Why the method produced nothing (error or panic), if it failed.
    pub error: Option<String>,
    /// The page type the method's extraction gave ([`crate::extract::PageText::page_type`]);
    /// `None` for peers and for a method that failed on the page.
    pub page_type: Option<PageType>,
}

/// Every system on one page, in the order of the `systems` given to [`evaluate`].
#[derive(Debug, Clone)]
pub struct PageResult {
    pub package: usize,
    pub page: usize,
    pub html_bytes: u64,
    pub systems: Vec<PageScore>,
}

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Worker threads; `0` means all available cores.
    pub threads: usize,
    /// Write each method's text to `dump/<method>/<package>/<id>.txt`.
    pub dump: Option<PathBuf>,
    /// Report progress on stderr (only shown when stderr is a terminal).
    pub progress: bool,
}

/// Score `systems` on every page of `packages`; results in dataset order (package, page).
pub fn evaluate(
    packages: &[Package],
    systems: &[System],
    options: &RunOptions,
) -> Result<Vec<PageResult>, String> {
    if let Some(dump) = &options.dump {
        for system in systems.iter().filter(|s| matches!(s, System::Method(_))) {
            for package in packages {
                let dir = dump.join(system.name()).join(&package.name);
                fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
        }
    }
    let jobs: Vec<(usize, usize)> = packages
        .iter()
        .enumerate()
        .flat_map(|(k, p)| (0..p.pages.len()).map(move |i| (k, i)))
        .collect();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(packages[jobs[j].0].pages[jobs[j].1].html_bytes));

    let threads = match options.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .clamp(1, jobs.len().max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let show_progress = options.progress && std::io::stderr().is_terminal();
    let (tx, rx) = crossbeam_channel::unbounded::<(usize, Result<PageResult, String>)>();

    let mut slots: Vec<Option<PageResult>> = vec![None; jobs.len()];
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, jobs, order) = (&next, &stop, &jobs, &order);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= order.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let job = order[i];
                let (k, p) = jobs[job];
                let result = score_page(&packages[k], k, p, systems, options.dump.as_deref());
                if result.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send((job, result)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut done = 0usize;
        for (job, result) in rx {
            match result {
                Ok(r) => slots[job] = Some(r),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
            done += 1;
            if show_progress && (done % 50 == 0 || done == jobs.len()) {
                eprint!("\reval: {done}/{} pages", jobs.len());
            }
        }
        if show_progress {
            eprintln!();
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    slots
        .into_iter()
        .map(|s| s.ok_or_else(|| "eval: a page was not scored".to_owned()))
        .collect()
}

/// Read a text file the way `score.py` does (`errors="replace"`).
fn read_text(path: &Path) -> Result<String, String> {
    fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn score_page(
    package: &Package,
    k: usize,
    p: usize,
    systems: &[System],
    dump: Option<&Path>,
) -> Result<PageResult, String> {
    let page = &package.pages[p];
    let gold = GoldText::new(&read_text(&page.gold)?);
    let needs_html = systems.iter().any(|s| matches!(s, System::Method(_)));
    let html = if needs_html {
        page.read_html()?
    } else {
        Vec::new()
    };
    let mut scores = Vec::with_capacity(systems.len());
    for system in systems {
        let (text, seconds, error, page_type) = match system {
            System::Method(name) => {
                let (text, seconds, error, page_type) = run_method(name, &html, page);
                if let Some(dump) = dump {
                    let path = dump
                        .join(name)
                        .join(&package.name)
                        .join(format!("{}.txt", page.id));
                    fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
                }
                (text, Some(seconds), error, page_type)
            }
            System::Peer { dir, .. } => {
                let path = dir.join(&package.name).join(format!("{}.txt", page.id));
                let text = if path.exists() {
                    read_text(&path)?
                } else {
                    String::new()
                };
                (text, None, None, None)
            }
        };
        scores.push(PageScore {
            scores: gold.score(&text),
            seconds,
            empty: text.chars().all(is_space_char),
            error,
            page_type,
        });
    }
    Ok(PageResult {
        package: k,
        page: p,
        html_bytes: page.html_bytes,
        systems: scores,
    })
}

/// Extract `page` with method `name`: the text, the seconds spent in the call, the error or
/// panic message if the method failed (then the text is empty), and the page type.
fn run_method(
    name: &str,
    html: &[u8],
    page: &Page,
) -> (String, f64, Option<String>, Option<PageType>) {
    let start = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        crate::extract::extract_bytes(html, None, page.url.as_deref(), name)
    }));
    let seconds = start.elapsed().as_secs_f64();
    match outcome {
        Ok(Ok(extraction)) => (
            extraction.page.text,
            seconds,
            None,
            Some(extraction.page.page_type),
        ),
        Ok(Err(e)) => (String::new(), seconds, Some(e), None),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            (
                String::new(),
                seconds,
                Some(format!("panicked: {msg}")),
                None,
            )
        }
    }
}

/// Scores of one prediction folder against one gold folder, like `score.py --gold --pred`.
#[derive(Debug, Clone)]
pub struct DirScore {
    pub docs: usize,
    pub empty_predictions: usize,
    pub measures: MeasureSummaries,
    /// `(id, scores)` in id order.
    pub per_doc: Vec<(String, Scores)>,
}

/// Score `pred/<id>.txt` against every `gold/<id>.txt` (except `*.comments.txt`), the job of
/// `score.py`: a missing prediction is empty; ids are sorted. Errors when the gold folder
/// is unreadable or holds no `.txt` file.
pub fn score_dirs(gold: &Path, pred: &Path) -> Result<DirScore, String> {
    let entries = fs::read_dir(gold).map_err(|e| format!("{}: {e}", gold.display()))?;
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter(|n| n.ends_with(".txt") && !n.ends_with(".comments.txt"))
        .map(|n| n.trim_end_matches(".txt").to_owned())
        .collect();
    ids.sort();
    if ids.is_empty() {
        return Err(format!("no gold .txt files in {}", gold.display()));
    }
    let mut per_doc = Vec::with_capacity(ids.len());
    let mut empty_predictions = 0;
    for id in ids {
        let name = format!("{id}.txt");
        let p = pred.join(&name);
        let text = if p.exists() {
            read_text(&p)?
        } else {
            String::new()
        };
        empty_predictions += usize::from(text.chars().all(is_space_char));
        let scores = GoldText::new(&read_text(&gold.join(&name))?).score(&text);
        per_doc.push((id, scores));
    }
    let all: Vec<Scores> = per_doc.iter().map(|(_, s)| *s).collect();
    Ok(DirScore {
        docs: per_doc.len(),
        empty_predictions,
        measures: MeasureSummaries::of(&all),
        per_doc,
    })
}
