//! Completion markers and resuming: how a task killed at any instant is rerun without losing
//! a page or writing one twice.
//!
//! # The output folder
//!
//! All tasks of a crawl share one `--out` folder. Each input owns the names derived from its
//! stem (unique across the crawl, see [`crate::manifest`]), and only the task that processes
//! the input touches them:
//!
//! ```text
//! out/<stem>-00000.jsonl.zst ...    the input's shards (crate::output), final names
//! out/.<stem>-00001.jsonl.zst.tmp   a shard being written (hidden, temporary)
//! out/_errors/<stem>.jsonl          the input's record errors (only when it had some)
//! out/_done/<stem>.json             its completion marker: input, shards, stats (Marker)
//! out/stats.json, errors.jsonl      a run's summary (no task slicing), or per task:
//! out/stats-task-0003.json, errors-task-0003.jsonl
//! ```
//!
//! # The protocol, per input
//!
//! 1. If `--resume` and `_done/<stem>.json` exists: skip the input (its counts are read back
//!    from the marker into the run's summary).
//! 2. Otherwise clear its names: the marker first (so nothing half-redone can ever look done),
//!    then its errors file, then every shard of the stem, final or temporary, of any format,
//!    whichever run left it ([`OutputIndex`]).
//! 3. Extract; shards are written under temporary names and renamed when complete.
//! 4. Sync the folder (the shard renames are durable), write the errors file, then the marker,
//!    each atomically: temporary name, `sync_data`, rename, sync of the directory
//!    ([`write_atomic`]).
//!
//! A kill before the marker's rename leaves the input unmarked, and step 2 of the rerun
//! removes whatever it had written; a kill after it leaves a complete input. So a rerun with
//! `--resume` writes exactly the pages an uninterrupted run writes, each once, and byte for
//! byte the same shards (the pipeline's output is deterministic). The summary files are
//! rebuilt at the end of every run from the markers and errors files of the task's inputs,
//! so they too describe the whole task, however many runs it took.
//!
//! Not covered: two processes working on the same input at once (two tasks of different
//! arrays, or a scheduler that starts a task again while the first copy still runs); run one
//! array over one output folder at a time.

use crate::stats::Stats;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Folder of completion markers, inside `--out`.
pub const DONE_DIR: &str = "_done";
/// Folder of per-input error lists, inside `--out`.
pub const ERRORS_DIR: &str = "_errors";

/// Extensions of shard files of every format and compression ([`crate::output::shard_name`]);
/// text shards are directories without one.
const SHARD_EXTENSIONS: [&str; 5] = [
    ".jsonl.zst",
    ".jsonl.gz",
    ".jsonl",
    ".warc.wet.gz",
    ".parquet",
];

/// What `_done/<stem>.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// The input as opened (path or URL).
    pub input: String,
    /// The manifest line it came from, when it came from a manifest.
    #[serde(default)]
    pub manifest_line: Option<String>,
    pub stem: String,
    /// Final names of its shards, in order (relative to `--out`).
    pub shards: Vec<String>,
    /// Its errors file, relative to `--out`, when it had record errors.
    #[serde(default)]
    pub errors_file: Option<String>,
    pub stats: Stats,
}

/// `out/_done/<stem>.json`.
pub fn marker_path(out: &Path, stem: &str) -> PathBuf {
    out.join(DONE_DIR).join(format!("{stem}.json"))
}

/// `out/_errors/<stem>.jsonl`.
pub fn errors_path(out: &Path, stem: &str) -> PathBuf {
    out.join(ERRORS_DIR).join(format!("{stem}.jsonl"))
}

/// The temporary name [`write_atomic`] uses for `path`: `.<name>.tmp` beside it.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp"))
}

/// Write `bytes` to `path` so that `path` is either absent/old or complete, also across a
/// power cut: temporary name, `sync_data`, rename, sync of the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_data()?;
        drop(f);
        fs::rename(&tmp, path)?;
        sync_dir(path.parent().unwrap_or(Path::new(".")))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Make renames in `dir` durable (no-op where directories cannot be opened for syncing).
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    match fs::File::open(dir) {
        Ok(d) => match d.sync_all() {
            // Some filesystems refuse fsync on directories; durability is then theirs.
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => Ok(()),
            other => other,
        },
        Err(e) => Err(e),
    }
}

/// Read one marker.
pub fn read_marker(path: &Path) -> Result<Marker, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not a completion marker: {e}", path.display()))
}

/// Stems that have a marker in `out/_done` (empty when the folder does not exist).
pub fn marked_stems(out: &Path) -> io::Result<BTreeMap<String, PathBuf>> {
    let dir = out.join(DONE_DIR);
    let mut stems = BTreeMap::new();
    let entries = match fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(stems),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if let Some(stem) = name.strip_suffix(".json") {
            stems.insert(stem.to_string(), entry.path());
        }
    }
    Ok(stems)
}

/// The stem a file or directory name in `--out` is a shard of, final or temporary, of any
/// format: `<stem>-NNNNN<ext>`, `.<stem>-NNNNN<ext>.tmp` or `.<stem>-NNNNN.old.tmp`.
pub fn shard_stem(name: &str) -> Option<&str> {
    let name = match name.strip_prefix('.') {
        Some(hidden) => hidden
            .strip_suffix(".old.tmp")
            .or_else(|| hidden.strip_suffix(".tmp"))?,
        None => name,
    };
    let numbered = SHARD_EXTENSIONS
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(name);
    let (stem, number) = numbered.rsplit_once('-')?;
    let is_number = number.len() >= 5 && number.bytes().all(|b| b.is_ascii_digit());
    (is_number && !stem.is_empty()).then_some(stem)
}

/// The shard files of every stem present in `--out`, from one listing of the folder (a crawl
/// puts hundreds of thousands of files there: list once per run, not once per input).
#[derive(Debug, Default)]
pub struct OutputIndex {
    by_stem: HashMap<String, Vec<PathBuf>>,
}

impl OutputIndex {
    pub fn scan(out: &Path) -> io::Result<OutputIndex> {
        let mut by_stem: HashMap<String, Vec<PathBuf>> = HashMap::new();
        let entries = match fs::read_dir(out) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(OutputIndex::default()),
            Err(e) => return Err(e),
        };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name();
            if let Some(stem) = shard_stem(&name.to_string_lossy()) {
                by_stem
                    .entry(stem.to_string())
                    .or_default()
                    .push(entry.path());
            }
        }
        Ok(OutputIndex { by_stem })
    }

    /// Shard files and directories (final or temporary) of `stem`.
    pub fn files_of(&self, stem: &str) -> &[PathBuf] {
        self.by_stem.get(stem).map_or(&[], Vec::as_slice)
    }
}

/// Step 2 of the protocol: remove the marker, the errors file and every shard of `stem`.
/// Returns the number of shard files and directories removed.
pub fn clear_input(out: &Path, stem: &str, index: &OutputIndex) -> io::Result<usize> {
    let marker = marker_path(out, stem);
    remove_if_present(&marker)?;
    remove_if_present(&temp_path(&marker))?;
    let errors = errors_path(out, stem);
    remove_if_present(&errors)?;
    remove_if_present(&temp_path(&errors))?;
    let mut removed = 0;
    for path in index.files_of(stem) {
        if remove_if_present(path)? {
            removed += 1;
        }
    }
    Ok(removed)
}

/// Remove a file or directory; `Ok(false)` when it was not there.
pub fn remove_if_present(path: &Path) -> io::Result<bool> {
    let result = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => Err(e),
        Ok(m) if m.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
    };
    match result {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
        Ok(()) => Ok(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names_map_back_to_their_stem() {
        let cases = [
            ("x-00000.jsonl.zst", Some("x")),
            (".x-00001.jsonl.zst.tmp", Some("x")),
            ("a-b-00012.jsonl.gz", Some("a-b")),
            ("a-00001-00000.jsonl", Some("a-00001")),
            ("x-00000.warc.wet.gz", Some("x")),
            ("x-00003", Some("x")),
            (".x-00003.tmp", Some("x")),
            (".x-00003.old.tmp", Some("x")),
            ("x-123456.jsonl", Some("x")),
            ("stats.json", None),
            ("stats-task-0003.json", None),
            ("errors-task-0003.jsonl", None),
            ("errors.jsonl", None),
            ("_done", None),
            ("x-0000a.jsonl", None),
            ("-00000.jsonl", None),
            (".x-00000.jsonl.zst", None),
        ];
        for (name, stem) in cases {
            assert_eq!(shard_stem(name), stem, "{name}");
        }
    }

    #[test]
    fn clearing_removes_exactly_one_inputs_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        fs::create_dir_all(out.join(DONE_DIR)).unwrap();
        fs::create_dir_all(out.join(ERRORS_DIR)).unwrap();
        let mine = [
            "a-00000.jsonl.zst",
            ".a-00001.jsonl.zst.tmp",
            "a-00000.warc.wet.gz",
        ];
        let theirs = [
            "a-00001-00000.jsonl.zst",
            "ab-00000.jsonl.zst",
            "stats.json",
        ];
        for n in mine.iter().chain(&theirs) {
            fs::write(out.join(n), b"x").unwrap();
        }
        fs::create_dir(out.join("a-00002")).unwrap();
        fs::write(out.join("a-00002/000000.txt"), b"x").unwrap();
        fs::write(marker_path(out, "a"), b"{}").unwrap();
        fs::write(temp_path(&marker_path(out, "a")), b"{").unwrap();
        fs::write(errors_path(out, "a"), b"").unwrap();
        fs::write(marker_path(out, "ab"), b"{}").unwrap();
        let index = OutputIndex::scan(out).unwrap();
        assert_eq!(clear_input(out, "a", &index).unwrap(), 4);
        let mut left: Vec<String> = fs::read_dir(out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "_done",
                "_errors",
                "a-00001-00000.jsonl.zst",
                "ab-00000.jsonl.zst",
                "stats.json"
            ]
        );
        let marked: Vec<String> = marked_stems(out).unwrap().into_keys().collect();
        assert_eq!(marked, ["ab"]);
        // Clearing again finds nothing, and is not an error.
        assert_eq!(clear_input(out, "a", &index).unwrap(), 0);
    }

    #[test]
    fn atomic_writes_leave_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert!(!temp_path(&p).exists());
        let missing = dir.path().join("no/such/dir/m.json");
        assert!(write_atomic(&missing, b"x").is_err());
    }
}
