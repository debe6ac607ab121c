//! `warcsift merge-stats`: add up the completion markers ([`crate::resume::Marker`]) of an
//! output folder, one per input whichever task did it, so the crawl's totals count every done
//! input exactly once (per-task summaries are views of the same markers, and are not added
//! again); with the crawl's manifest, also list the inputs not done yet.
//!
//! Takes an output folder (and a manifest); gives [`MergedStats`], written as
//! [`MERGED_STATS`]. Reads markers through [`crate::resume`] and manifest lines through
//! [`crate::manifest`]; the counts are [`crate::stats::Stats`].

use crate::stats::Stats;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// File name of `merge-stats`' report, inside the output folder.
pub const MERGED_STATS: &str = "stats-merged.json";

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
