//! Counters of a run: what was read, kept, skipped and why, what failed, and how fast.
//!
//! Written as `stats.json` beside the shards. All maps are `BTreeMap`s so the file is stable
//! across runs (the timing fields aside). [`Stats::merge`] adds two runs' counts, which is how
//! per-input counts become the run's totals (and, on a cluster, tasks' totals a crawl's).
//!
//! [`merge_folder`] is `warcsift merge-stats`: it adds up the completion markers
//! ([`crate::resume::Marker`]) of an output folder, one per input whichever task did it, so
//! the crawl's totals count every done input exactly once (per-task summaries are views of the
//! same markers, and are not added again).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// File name of `merge-stats`' report, inside the output folder.
pub const MERGED_STATS: &str = "stats-merged.json";

/// Counts of one input or of a whole run.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Stats {
    /// Inputs processed (read to their end and marked done).
    pub inputs: u64,
    /// Inputs that could not be opened or read to their end (left unmarked, so a rerun with
    /// `--resume` retries them).
    #[serde(default)]
    pub inputs_failed: u64,
    /// Inputs skipped because a completion marker said an earlier run had done them
    /// (`--resume`); their counts are included in the others.
    #[serde(default)]
    pub inputs_resumed: u64,
    /// WARC records framed (kept, skipped or failed).
    pub records_read: u64,
    /// Records read, by `WARC-Type` (or by skip reason where the type is implied).
    pub records_by_type: BTreeMap<String, u64>,
    /// Pages written to the shards.
    pub extracted: u64,
    /// Of which with empty main text.
    pub extracted_empty: u64,
    /// Of which flagged `WARC-Truncated`.
    pub extracted_truncated: u64,
    /// Pages extracted with the fallback method instead of the chosen one, because their size
    /// predicted an extraction longer than `--page-time-budget-ms`.
    #[serde(default)]
    pub fallbacks: u64,
    /// Pages whose extraction (by either method) took longer than the budget anyway; their
    /// text is kept. Timing-dependent, unlike the other counts.
    #[serde(default)]
    pub over_budget: u64,
    /// Records not extracted, by reason (`request`, `not_html`, `too_large`, ...).
    pub skipped: BTreeMap<String, u64>,
    /// Records or stretches of input that failed, by kind.
    pub errors: BTreeMap<String, u64>,
    /// Pages by how their charset was decided (`http`, `meta`, `detected`, ...).
    pub charset_sources: BTreeMap<String, u64>,
    /// Pages by page type (`article`, `forum`, `product`, ...: [`crate::page_type`]).
    #[serde(default)]
    pub page_types: BTreeMap<String, u64>,
    /// Pages by detected language ([`crate::lang`]; `und` where the text is too short).
    #[serde(default)]
    pub langs: BTreeMap<String, u64>,
    /// Decompressed WARC bytes read.
    pub bytes_in: u64,
    /// Bytes written to shards (compressed, as on disk).
    pub bytes_out: u64,
    /// Uncompressed bytes of the shards' content.
    pub bytes_out_uncompressed: u64,
    /// Shard files written.
    pub shards: u64,
    pub wall_seconds: f64,
    pub records_per_second: f64,
    /// Decompressed input MB (10^6 bytes) per second.
    pub mb_per_second: f64,
}

impl Stats {
    pub fn count(map: &mut BTreeMap<String, u64>, key: &str) {
        *map.entry(key.to_string()).or_insert(0) += 1;
    }

    pub fn error(&mut self, kind: &str) {
        Self::count(&mut self.errors, kind);
    }

    pub fn total_errors(&self) -> u64 {
        self.errors.values().sum()
    }

    pub fn total_skipped(&self) -> u64 {
        self.skipped.values().sum()
    }

    /// Add `other`'s counts into `self` (rates are recomputed by [`Stats::finish`]).
    pub fn merge(&mut self, other: &Stats) {
        fn add(a: &mut BTreeMap<String, u64>, b: &BTreeMap<String, u64>) {
            for (k, v) in b {
                *a.entry(k.clone()).or_insert(0) += v;
            }
        }
        self.inputs += other.inputs;
        self.inputs_failed += other.inputs_failed;
        self.inputs_resumed += other.inputs_resumed;
        self.records_read += other.records_read;
        add(&mut self.records_by_type, &other.records_by_type);
        self.extracted += other.extracted;
        self.extracted_empty += other.extracted_empty;
        self.extracted_truncated += other.extracted_truncated;
        self.fallbacks += other.fallbacks;
        self.over_budget += other.over_budget;
        add(&mut self.skipped, &other.skipped);
        add(&mut self.errors, &other.errors);
        add(&mut self.charset_sources, &other.charset_sources);
        add(&mut self.page_types, &other.page_types);
        add(&mut self.langs, &other.langs);
        self.bytes_in += other.bytes_in;
        self.bytes_out += other.bytes_out;
        self.bytes_out_uncompressed += other.bytes_out_uncompressed;
        self.shards += other.shards;
        self.wall_seconds += other.wall_seconds;
    }

    /// Set the wall time and the rates derived from it.
    pub fn finish(&mut self, wall_seconds: f64) {
        self.wall_seconds = wall_seconds;
        if wall_seconds > 0.0 {
            self.records_per_second = self.records_read as f64 / wall_seconds;
            self.mb_per_second = self.bytes_in as f64 / 1e6 / wall_seconds;
        }
    }
}

/// One done input, as `merge-stats` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DoneInput {
    pub stem: String,
    pub input: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest_line: Option<String>,
}

/// `stats-merged.json`: the crawl's totals and which inputs are done (and missing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MergedStats {
    /// Sum of the done inputs' counts (`wall_seconds`: their summed processing time).
    pub stats: Stats,
    pub inputs_done: u64,
    /// With a manifest: how many of its inputs are done, and the lines of those that are not.
    pub inputs_done_of_manifest: u64,
    pub inputs_missing: u64,
    pub missing: Vec<String>,
    /// Markers that could not be read (each a sentence); their inputs count as not done.
    pub unreadable_markers: Vec<String>,
    pub done: Vec<DoneInput>,
}

impl MergedStats {
    /// A few lines for a terminal (missing inputs: the first 20).
    pub fn summary(&self) -> String {
        let s = &self.stats;
        let mut out = format!(
            "{} inputs done: {} records read, {} pages extracted ({} empty, {} by the fallback \
             method), {} skipped, {} errors; {:.1} MB in, {:.1} MB out in {} shards",
            self.inputs_done,
            s.records_read,
            s.extracted,
            s.extracted_empty,
            s.fallbacks,
            s.total_skipped(),
            s.total_errors(),
            s.bytes_in as f64 / 1e6,
            s.bytes_out as f64 / 1e6,
            s.shards
        );
        for why in &self.unreadable_markers {
            out.push_str(&format!("\nunreadable marker: {why}"));
        }
        if self.inputs_missing > 0 {
            out.push_str(&format!(
                "\n{} inputs of the manifest are missing:",
                self.inputs_missing
            ));
            for line in self.missing.iter().take(20) {
                out.push_str(&format!("\n  {line}"));
            }
            if self.missing.len() > 20 {
                out.push_str(&format!("\n  ... and {} more", self.missing.len() - 20));
            }
        } else if self.inputs_done_of_manifest > 0 {
            out.push_str("\nevery input of the manifest is done");
        }
        out
    }
}

/// Add up the completion markers of the output folder `out`; with `manifest`, also find the
/// inputs it lists that have no marker (stems are derived from the lines alone, so no
/// `--prefix` is needed).
pub fn merge_folder(out: &Path, manifest: Option<&Path>) -> Result<MergedStats, String> {
    let marked = crate::resume::marked_stems(out).map_err(|e| {
        format!(
            "cannot list {}: {e}",
            out.join(crate::resume::DONE_DIR).display()
        )
    })?;
    if marked.is_empty() && !out.is_dir() {
        return Err(format!("{} is not a folder", out.display()));
    }
    let mut merged = MergedStats {
        stats: Stats::default(),
        inputs_done: 0,
        inputs_done_of_manifest: 0,
        inputs_missing: 0,
        missing: Vec::new(),
        unreadable_markers: Vec::new(),
        done: Vec::new(),
    };
    let mut readable = std::collections::BTreeSet::new();
    for (stem, path) in &marked {
        match crate::resume::read_marker(path) {
            Ok(m) => {
                merged.stats.merge(&m.stats);
                merged.inputs_done += 1;
                readable.insert(stem.clone());
                merged.done.push(DoneInput {
                    stem: m.stem,
                    input: m.input,
                    manifest_line: m.manifest_line,
                });
            }
            Err(why) => merged.unreadable_markers.push(why),
        }
    }
    let wall = merged.stats.wall_seconds;
    merged.stats.finish(wall);
    if let Some(manifest) = manifest {
        for (_, line) in crate::manifest::read_lines(manifest)? {
            if readable.contains(&crate::manifest::stem(&line)) {
                merged.inputs_done_of_manifest += 1;
            } else {
                merged.inputs_missing += 1;
                merged.missing.push(line);
            }
        }
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_and_finish_derives_rates() {
        let mut a = Stats {
            records_read: 10,
            bytes_in: 4_000_000,
            ..Stats::default()
        };
        Stats::count(&mut a.skipped, "request");
        let mut b = a.clone();
        Stats::count(&mut b.skipped, "not_html");
        a.merge(&b);
        assert_eq!(a.records_read, 20);
        assert_eq!(a.skipped["request"], 2);
        assert_eq!(a.skipped["not_html"], 1);
        a.finish(2.0);
        assert_eq!(a.records_per_second, 10.0);
        assert_eq!(a.mb_per_second, 4.0);
    }
}
