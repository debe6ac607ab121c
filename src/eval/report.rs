//! Per-package and overall summaries of an evaluation, and their renderings: the text table
//! on stdout, the per-page TSV (seed 004 section 4.3 stores results as tab-separated
//! values), the JSON summary and a Markdown table for READMEs.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::dataset::Package;
use super::measures::{Measure, Scores};
use super::page_types::PageTypeReport;
use super::runner::{PageResult, System};
use super::summary::MeasureSummaries;

/// Name of the group holding every page of every package.
pub const ALL: &str = "all";

/// One system on one group of pages (a package, or all of them).
#[derive(Debug, Clone, Default)]
pub struct GroupSummary {
    pub pages: usize,
    pub empty_predictions: usize,
    pub errors: usize,
    pub html_bytes: u64,
    /// Total extraction time; `None` for peers.
    pub seconds: Option<f64>,
    pub measures: MeasureSummaries,
}

impl GroupSummary {
    fn of<'a>(rows: impl Iterator<Item = (&'a PageResult, usize)>) -> GroupSummary {
        let mut out = GroupSummary::default();
        let mut scores: Vec<Scores> = Vec::new();
        for (page, s) in rows {
            let score = &page.systems[s];
            out.pages += 1;
            out.empty_predictions += usize::from(score.empty);
            out.errors += usize::from(score.error.is_some());
            out.html_bytes += page.html_bytes;
            if let Some(t) = score.seconds {
                *out.seconds.get_or_insert(0.0) += t;
            }
            scores.push(score.scores);
        }
        out.measures = MeasureSummaries::of(&scores);
        out
    }

    /// Pages extracted per second of extraction time (one thread).
    pub fn pages_per_s(&self) -> Option<f64> {
        self.seconds
            .filter(|&s| s > 0.0)
            .map(|s| self.pages as f64 / s)
    }

    /// Milliseconds of extraction per kB (1,000 bytes) of HTML: the seed's time measure
    /// (section 3), as total time over total size.
    pub fn ms_per_kb(&self) -> Option<f64> {
        self.seconds
            .filter(|_| self.html_bytes > 0)
            .map(|s| s * 1000.0 / (self.html_bytes as f64 / 1000.0))
    }
}

impl Serialize for GroupSummary {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(8))?;
        map.serialize_entry("pages", &self.pages)?;
        map.serialize_entry("empty_predictions", &self.empty_predictions)?;
        map.serialize_entry("errors", &self.errors)?;
        map.serialize_entry("html_bytes", &self.html_bytes)?;
        map.serialize_entry("seconds", &self.seconds)?;
        map.serialize_entry("pages_per_s", &self.pages_per_s())?;
        map.serialize_entry("ms_per_kb", &self.ms_per_kb())?;
        map.serialize_entry("measures", &self.measures)?;
        map.end()
    }
}

/// Every system on every package and on all pages.
#[derive(Debug, Clone)]
pub struct Report {
    /// Package names, then [`ALL`].
    pub groups: Vec<String>,
    pub systems: Vec<System>,
    /// `cells[group][system]`, groups in the order of [`Report::groups`].
    pub cells: Vec<Vec<GroupSummary>>,
    /// Page-type accuracy and F1 per page type, when some page carries a label.
    pub page_types: Option<PageTypeReport>,
}

impl Report {
    /// Summarise `results` (as returned by [`super::runner::evaluate`]).
    pub fn build(packages: &[Package], systems: &[System], results: &[PageResult]) -> Report {
        let mut groups: Vec<String> = packages.iter().map(|p| p.name.clone()).collect();
        groups.push(ALL.to_owned());
        let mut cells = Vec::with_capacity(groups.len());
        for k in 0..=packages.len() {
            let row = (0..systems.len())
                .map(|s| {
                    let pages = results
                        .iter()
                        .filter(|r| k == packages.len() || r.package == k);
                    GroupSummary::of(pages.map(|r| (r, s)))
                })
                .collect();
            cells.push(row);
        }
        Report {
            groups,
            systems: systems.to_vec(),
            cells,
            page_types: PageTypeReport::build(packages, systems, results),
        }
    }

    /// The summary of `system` (index) over all pages.
    pub fn overall(&self, system: usize) -> &GroupSummary {
        &self.cells[self.cells.len() - 1][system]
    }

    /// Look up a cell by names.
    pub fn get(&self, group: &str, system: &str) -> Option<&GroupSummary> {
        let g = self.groups.iter().position(|n| n == group)?;
        let s = self.systems.iter().position(|x| x.name() == system)?;
        Some(&self.cells[g][s])
    }

    /// Systems ordered by decreasing mean F1 of `measure` over all pages (stable).
    pub fn ranked(&self, measure: Measure) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.systems.len()).collect();
        order.sort_by(|&a, &b| {
            let f = |s: usize| self.overall(s).measures.get(measure).f1;
            f(b).total_cmp(&f(a))
        });
        order
    }

    /// The table printed on stdout: one row per package × system, `measure` first.
    pub fn table(&self, measure: Measure) -> String {
        let short = |m: Measure| match m {
            Measure::Chars => "chr",
            Measure::WordsSeq => "seq",
            Measure::Bag => "bag",
            Measure::Set => "set",
            Measure::Shingles => "shg",
        };
        let head = short(measure);
        let others: Vec<Measure> = Measure::ALL.into_iter().filter(|&m| m != measure).collect();
        let gw = self
            .groups
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(0)
            .max(7);
        let sw = self
            .systems
            .iter()
            .map(|s| s.name().len())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut out = String::new();
        let _ = write!(
            out,
            "{:gw$}  {:sw$}  {:>5}  {:>6}  {:>5}  {:>5}  {:>5}  {:>5}",
            "package",
            "method",
            "pages",
            format!("{head}_F1"),
            format!("{head}_P"),
            format!("{head}_R"),
            "med",
            "std"
        );
        for m in &others {
            let _ = write!(out, "  {:>6}", format!("{}_F1", short(*m)));
        }
        let _ = writeln!(
            out,
            "  {:>5}  {:>3}  {:>6}  {:>7}",
            "empty", "err", "ms/kB", "pages/s"
        );
        for (g, group) in self.groups.iter().enumerate() {
            for (s, system) in self.systems.iter().enumerate() {
                let c = &self.cells[g][s];
                let m = c.measures.get(measure);
                let _ = write!(
                    out,
                    "{group:gw$}  {:sw$}  {:>5}  {:6.3}  {:5.3}  {:5.3}  {:5.3}  {:5.3}",
                    system.name(),
                    c.pages,
                    m.f1,
                    m.p,
                    m.r,
                    m.f1_median,
                    m.f1_std
                );
                for o in &others {
                    let _ = write!(out, "  {:6.3}", c.measures.get(*o).f1);
                }
                let opt = |x: Option<f64>, prec: usize| {
                    x.map_or_else(|| "-".to_owned(), |v| format!("{v:.prec$}"))
                };
                let _ = writeln!(
                    out,
                    "  {:>5}  {:>3}  {:>6}  {:>7}",
                    c.empty_predictions,
                    c.errors,
                    opt(c.ms_per_kb(), 3),
                    opt(c.pages_per_s(), 0)
                );
            }
        }
        out
    }

    /// A Markdown table: mean F1 of `measure` per package and over all pages, plus overall
    /// P and R, systems ranked by overall F1.
    pub fn markdown(&self, measure: Measure) -> String {
        let mut out = format!(
            "Mean F1 ({}) per package; P and R over all pages.\n\n",
            measure.name()
        );
        let _ = writeln!(
            out,
            "| method | {} | P | R | pages/s |",
            self.groups.join(" | ")
        );
        let _ = writeln!(
            out,
            "|---|{}---|---|---|",
            "---:|".repeat(self.groups.len())
        );
        for s in self.ranked(measure) {
            let _ = write!(out, "| {} |", self.systems[s].name());
            for row in &self.cells {
                let _ = write!(out, " {:.3} |", row[s].measures.get(measure).f1);
            }
            let all = self.overall(s);
            let m = all.measures.get(measure);
            let speed = all
                .pages_per_s()
                .map_or_else(|| "–".to_owned(), |v| format!("{v:.0}"));
            let _ = writeln!(out, " {:.3} | {:.3} | {speed} |", m.p, m.r);
        }
        out
    }

    /// The JSON summary: `{"packages": [..., "all"], "methods": [{"name", "kind"}],
    /// "summary": {group: {method: GroupSummary}}}`, and `"page_types"` (see
    /// [`PageTypeReport::to_json`]) when some page carries a page-type label. The two lists
    /// give the report order (object keys come out sorted).
    pub fn to_json(&self) -> serde_json::Value {
        let methods: Vec<serde_json::Value> = self
            .systems
            .iter()
            .map(|s| serde_json::json!({ "name": s.name(), "kind": s.kind() }))
            .collect();
        let mut summary = serde_json::Map::new();
        for (g, group) in self.groups.iter().enumerate() {
            let mut row = serde_json::Map::new();
            for (s, system) in self.systems.iter().enumerate() {
                row.insert(
                    system.name().to_owned(),
                    serde_json::to_value(&self.cells[g][s]).unwrap_or_default(),
                );
            }
            summary.insert(group.clone(), serde_json::Value::Object(row));
        }
        let mut out = serde_json::json!({
            "packages": self.groups,
            "methods": methods,
            "summary": summary,
        });
        if let (Some(types), Some(map)) = (&self.page_types, out.as_object_mut()) {
            map.insert("page_types".to_owned(), types.to_json());
        }
        out
    }
}

/// Write one TSV row per page × system. Columns: `package page method`, then
/// `<measure>_p <measure>_r <measure>_f1` for each measure, `html_bytes ms`
/// (empty for peers), `empty` (0/1) and `error`.
pub fn write_tsv(
    mut w: impl Write,
    packages: &[Package],
    systems: &[System],
    results: &[PageResult],
) -> io::Result<()> {
    let mut header = String::from("package\tpage\tmethod");
    for m in Measure::ALL {
        let n = m.name();
        let _ = write!(header, "\t{n}_p\t{n}_r\t{n}_f1");
    }
    writeln!(w, "{header}\thtml_bytes\tms\tempty\terror")?;
    for r in results {
        let package = &packages[r.package];
        let page = &package.pages[r.page];
        for (system, score) in systems.iter().zip(&r.systems) {
            let mut line = format!("{}\t{}\t{}", package.name, page.id, system.name());
            for m in Measure::ALL {
                let x = score.scores.get(m);
                let _ = write!(line, "\t{:.6}\t{:.6}\t{:.6}", x.p, x.r, x.f1);
            }
            let ms = score
                .seconds
                .map_or_else(String::new, |s| format!("{:.3}", s * 1000.0));
            let error = score
                .error
                .as_deref()
                .unwrap_or("")
                .replace(['\t', '\n', '\r'], " ");
            writeln!(
                w,
                "{line}\t{}\t{ms}\t{}\t{error}",
                r.html_bytes,
                u8::from(score.empty)
            )?;
        }
    }
    Ok(())
}
