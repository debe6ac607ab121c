//! Counters of a run: what was read, kept, skipped and why, what failed, and how fast.
//!
//! Written as `stats.json` beside the shards. All maps are `BTreeMap`s so the file is stable
//! across runs (the timing fields aside). [`Stats::merge`] adds two runs' counts, which is how
//! per-input counts become the run's totals (and, on a cluster, tasks' totals a crawl's).
//!
//! `warcsift merge-stats` ([`crate::merge`]) adds up the counts kept in the completion
//! markers. This module depends on no other of the crate: markers, summaries and the merge
//! all read and write these counts.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Records read, by `WARC-Type` (lower-cased; `unknown` when missing; ARC records as
    /// `warcinfo` and `response`).
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
    /// Records read anyway after a repair, by kind (`length_mismatch`, `missing_blank_line`,
    /// `truncated_kept`): logged in the errors file with the kind `repair`, never a failure.
    #[serde(default)]
    pub repairs: BTreeMap<String, u64>,
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
        add(&mut self.repairs, &other.repairs);
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
