//! Page types in `eval`: how well warcsift's page-type classifier ([`crate::page_type`])
//! agrees with the labels of a package's `meta.jsonl` (WCXB labels every page: article,
//! forum, product, collection, listing, documentation, service), and every system's mean F1
//! per labelled type, which is how WCXB publishes its scores.
//!
//! Built only when some page carries a label ([`PageTypeReport::build`] gives `None`
//! otherwise), so the output of unlabelled packages stays as it was. The classification
//! scored is that of `auto` when it runs, else of the first method that builds a `Doc`
//! (every method but the parse-only `none` gives the same type: it is decided before any
//! method selects). Pages whose label is not a [`PageType`] name are left out and counted.

use std::fmt::Write as _;

use super::dataset::Package;
use super::measures::{Measure, Scores};
use super::runner::{PageResult, System};
use super::summary::MeasureSummaries;
use crate::page_type::PageType;

const TYPES: usize = PageType::ALL.len();

/// The page-type block of a report.
#[derive(Debug, Clone, Default)]
pub struct PageTypeReport {
    /// The method whose page types are scored; `None` when only peers ran.
    pub classifier: Option<String>,
    /// Pages with a known label.
    pub pages: usize,
    /// Pages whose label is not a page-type name (left out of everything here).
    pub unknown_labels: usize,
    /// `confusion[label][predicted]`, both in [`PageType::ALL`] order.
    pub confusion: [[usize; TYPES]; TYPES],
    /// Systems, in report order.
    pub systems: Vec<String>,
    /// Per labelled type with at least one page: the type, its pages, and every system's
    /// summaries over those pages (in `systems` order).
    pub by_type: Vec<(PageType, usize, Vec<MeasureSummaries>)>,
}

/// The system whose page types are scored: `auto` if it ran, else the first method that
/// builds a `Doc`.
fn classifier(systems: &[System]) -> Option<usize> {
    let builds_doc = |name: &str| crate::extract::method(name).is_some_and(|m| m.builds_doc());
    let methods = || {
        systems.iter().enumerate().filter_map(|(i, s)| match s {
            System::Method(name) => Some((i, name.as_str())),
            System::Peer { .. } => None,
        })
    };
    methods()
        .find(|(_, n)| *n == "auto")
        .or_else(|| methods().find(|(_, n)| builds_doc(n)))
        .map(|(i, _)| i)
}

impl PageTypeReport {
    /// The page-type block of `results`, or `None` when no page has a label.
    pub fn build(
        packages: &[Package],
        systems: &[System],
        results: &[PageResult],
    ) -> Option<PageTypeReport> {
        let labelled = |r: &PageResult| {
            packages
                .get(r.package)
                .and_then(|p| p.pages.get(r.page))
                .and_then(|p| p.page_type.as_deref())
                .filter(|l| !l.trim().is_empty())
        };
        if !results.iter().any(|r| labelled(r).is_some()) {
            return None;
        }
        let who = classifier(systems);
        let mut out = PageTypeReport {
            classifier: who.map(|i| systems[i].name().to_owned()),
            systems: systems.iter().map(|s| s.name().to_owned()).collect(),
            ..PageTypeReport::default()
        };
        let mut scores: Vec<Vec<Vec<Scores>>> = vec![vec![Vec::new(); systems.len()]; TYPES];
        for r in results {
            let Some(label) = labelled(r) else { continue };
            let Some(gold) = PageType::from_name(label.trim()) else {
                out.unknown_labels += 1;
                continue;
            };
            out.pages += 1;
            if let Some(i) = who {
                // A method that failed on the page decided nothing: `other`.
                let predicted = r
                    .systems
                    .get(i)
                    .and_then(|s| s.page_type)
                    .unwrap_or(PageType::Other);
                out.confusion[gold as usize][predicted as usize] += 1;
            }
            for (score, acc) in r.systems.iter().zip(&mut scores[gold as usize]) {
                acc.push(score.scores);
            }
        }
        for t in PageType::ALL {
            let per_system = &scores[t as usize];
            let n = per_system.first().map_or(0, Vec::len);
            if n > 0 {
                let summaries = per_system.iter().map(|s| MeasureSummaries::of(s)).collect();
                out.by_type.push((t, n, summaries));
            }
        }
        Some(out)
    }

    /// Pages labelled `t`.
    pub fn labelled(&self, t: PageType) -> usize {
        self.confusion[t as usize].iter().sum()
    }

    /// Pages classified as `t`.
    pub fn predicted(&self, t: PageType) -> usize {
        self.confusion.iter().map(|row| row[t as usize]).sum()
    }

    /// Share of labelled pages classified as labelled; `None` without a classifier.
    pub fn accuracy(&self) -> Option<f64> {
        let correct: usize = (0..TYPES).map(|t| self.confusion[t][t]).sum();
        self.classifier
            .as_ref()
            .filter(|_| self.pages > 0)
            .map(|_| correct as f64 / self.pages as f64)
    }

    /// Precision and recall of type `t` (`None` where undefined: nothing predicted, or
    /// nothing labelled, as `t`).
    pub fn precision_recall(&self, t: PageType) -> (Option<f64>, Option<f64>) {
        let hit = self.confusion[t as usize][t as usize] as f64;
        let ratio = |n: usize| (n > 0).then(|| hit / n as f64);
        (ratio(self.predicted(t)), ratio(self.labelled(t)))
    }

    /// Types to show: those labelled or predicted at least once.
    fn shown(&self) -> Vec<PageType> {
        PageType::ALL
            .into_iter()
            .filter(|&t| self.labelled(t) + self.predicted(t) > 0)
            .collect()
    }

    /// The text block printed after the table: accuracy, per-type precision and recall,
    /// the confusion matrix, and every system's mean F1 of `measure` per labelled type.
    pub fn table(&self, measure: Measure) -> String {
        let mut out = String::new();
        let opt = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"));
        let _ = writeln!(out);
        match (&self.classifier, self.accuracy()) {
            (Some(name), Some(acc)) => {
                let _ = writeln!(
                    out,
                    "page types ({} labelled pages, classified by {name}): accuracy {acc:.3}",
                    self.pages
                );
                let _ = writeln!(
                    out,
                    "{:14}  {:>5}  {:>9}  {:>6}  {:>9}",
                    "type", "pages", "precision", "recall", "predicted"
                );
                for t in self.shown() {
                    let (p, r) = self.precision_recall(t);
                    let _ = writeln!(
                        out,
                        "{:14}  {:>5}  {:>9}  {:>6}  {:>9}",
                        t.as_str(),
                        self.labelled(t),
                        opt(p),
                        opt(r),
                        self.predicted(t)
                    );
                }
                let shown = self.shown();
                let _ = write!(
                    out,
                    "\nconfusion (rows: label, columns: classified as)\n{:14}",
                    ""
                );
                for t in &shown {
                    let _ = write!(out, "  {:>7}", short(*t));
                }
                let _ = writeln!(out);
                for g in &shown {
                    let _ = write!(out, "{:14}", g.as_str());
                    for p in &shown {
                        let _ = write!(out, "  {:>7}", self.confusion[*g as usize][*p as usize]);
                    }
                    let _ = writeln!(out);
                }
            }
            _ => {
                let _ = writeln!(
                    out,
                    "page types ({} labelled pages; no method ran to classify them)",
                    self.pages
                );
            }
        }
        if self.unknown_labels > 0 {
            let _ = writeln!(
                out,
                "({} pages with a label that is no page type left out)",
                self.unknown_labels
            );
        }
        let sw = self
            .systems
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = write!(
            out,
            "\nmean {}_F1 per labelled page type\n{:14}  {:>5}",
            measure.name(),
            "type",
            "pages"
        );
        for s in &self.systems {
            let _ = write!(out, "  {s:>sw$}");
        }
        let _ = writeln!(out);
        for (t, n, summaries) in &self.by_type {
            let _ = write!(out, "{:14}  {n:>5}", t.as_str());
            for s in summaries {
                let _ = write!(out, "  {:>sw$.3}", s.get(measure).f1);
            }
            let _ = writeln!(out);
        }
        out
    }

    /// The `page_types` object of the JSON summary: `classifier`, `pages`, `accuracy`,
    /// `unknown_labels`, `types` (per type: `pages` labelled, `predicted`, `precision`,
    /// `recall`), `confusion` (label → classified as → pages) and `f1` (label → system →
    /// every measure's summary, plus `pages`).
    pub fn to_json(&self) -> serde_json::Value {
        let mut types = serde_json::Map::new();
        let mut confusion = serde_json::Map::new();
        for t in self.shown() {
            let (p, r) = self.precision_recall(t);
            types.insert(
                t.as_str().to_owned(),
                serde_json::json!({
                    "pages": self.labelled(t),
                    "predicted": self.predicted(t),
                    "precision": p,
                    "recall": r,
                }),
            );
            let row: serde_json::Map<String, serde_json::Value> = self
                .shown()
                .into_iter()
                .map(|p| {
                    let n = self.confusion[t as usize][p as usize];
                    (p.as_str().to_owned(), serde_json::Value::from(n))
                })
                .collect();
            confusion.insert(t.as_str().to_owned(), serde_json::Value::Object(row));
        }
        let mut f1 = serde_json::Map::new();
        for (t, n, summaries) in &self.by_type {
            let mut row = serde_json::Map::new();
            row.insert("pages".to_owned(), serde_json::Value::from(*n));
            for (name, s) in self.systems.iter().zip(summaries) {
                row.insert(name.clone(), serde_json::to_value(s).unwrap_or_default());
            }
            f1.insert(t.as_str().to_owned(), serde_json::Value::Object(row));
        }
        serde_json::json!({
            "classifier": self.classifier,
            "pages": self.pages,
            "unknown_labels": self.unknown_labels,
            "accuracy": self.accuracy(),
            "types": types,
            "confusion": confusion,
            "f1": f1,
        })
    }
}

/// A column heading of at most seven characters.
fn short(t: PageType) -> &'static str {
    match t {
        PageType::Collection => "collect",
        PageType::Documentation => "docs",
        other => other.as_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::dataset::discover;
    use crate::eval::runner::{evaluate, RunOptions};
    use std::fs;

    /// A tiny labelled package: a Discourse thread, a priced product and a page whose label
    /// is no type, scored with `plain` and a peer.
    #[test]
    fn labelled_package_gets_a_page_type_block() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let pkg = tmp.path().join("typed");
        fs::create_dir_all(&pkg).unwrap_or_else(|e| panic!("{e}"));
        let forum = r#"<script type="application/ld+json">{"@type":"DiscussionForumPosting",
            "headline":"Range?"}</script><div class="topic-body crawler-post"><p>About twenty
            miles on a charge.</p></div>"#;
        let product = r#"<div itemscope itemtype="https://schema.org/Product"><h1>Kettle</h1>
            <span>$49.99</span><button class="add-to-cart">Add</button></div>"#;
        let pages = [
            ("1", forum, "About twenty miles on a charge.", "forum"),
            ("2", product, "Kettle", "product"),
            ("3", "<p>Hello</p>", "Hello", "weird"),
        ];
        let mut meta = String::new();
        for (id, html, gold, label) in pages {
            let write = |name: String, text: &str| {
                fs::write(pkg.join(name), text).unwrap_or_else(|e| panic!("{e}"))
            };
            write(format!("{id}.html"), html);
            write(format!("{id}.txt"), gold);
            meta.push_str(&format!(
                "{{\"id\": \"{id}\", \"page_type\": \"{label}\"}}\n"
            ));
        }
        fs::write(pkg.join("meta.jsonl"), meta).unwrap_or_else(|e| panic!("{e}"));
        let peer = tmp.path().join("peer");
        fs::create_dir_all(peer.join("typed")).unwrap_or_else(|e| panic!("{e}"));
        fs::write(peer.join("typed/2.txt"), "Kettle").unwrap_or_else(|e| panic!("{e}"));

        let packages = discover(&[pkg], None).unwrap_or_else(|e| panic!("{e}"));
        let systems = vec![
            System::Method("plain".into()),
            System::Peer {
                name: "peer".into(),
                dir: peer,
            },
        ];
        let options = RunOptions {
            threads: 1,
            ..RunOptions::default()
        };
        let results = evaluate(&packages, &systems, &options).unwrap_or_else(|e| panic!("{e}"));
        let r = PageTypeReport::build(&packages, &systems, &results)
            .unwrap_or_else(|| panic!("labels were given"));
        assert_eq!(r.classifier.as_deref(), Some("plain"));
        assert_eq!((r.pages, r.unknown_labels), (2, 1));
        assert_eq!(r.accuracy(), Some(1.0));
        assert_eq!(
            r.confusion[PageType::Forum as usize][PageType::Forum as usize],
            1
        );
        assert_eq!(
            r.precision_recall(PageType::Product),
            (Some(1.0), Some(1.0))
        );
        assert_eq!(r.precision_recall(PageType::Article), (None, None));
        // Mean F1 per labelled type: the peer found the product's text and missed the
        // forum's.
        let (t, n, s) = &r.by_type[1];
        assert_eq!((*t, *n), (PageType::Product, 1));
        assert_eq!(s[1].get(Measure::Bag).f1, 1.0);
        assert_eq!(r.by_type[0].2[1].get(Measure::Bag).f1, 0.0);

        let table = r.table(Measure::Bag);
        assert!(table.contains("accuracy 1.000"), "{table}");
        assert!(
            table.contains("mean bag_F1 per labelled page type"),
            "{table}"
        );
        assert!(
            table.contains("1 pages with a label that is no page type"),
            "{table}"
        );
        let json = r.to_json();
        assert_eq!(json["accuracy"], 1.0);
        assert_eq!(json["confusion"]["forum"]["forum"], 1);
        assert_eq!(json["types"]["product"]["recall"], 1.0);
        assert_eq!(json["f1"]["product"]["peer"]["bag"]["f1"], 1.0);

        // The same package without labels, or with only peers, behaves as before / says so.
        assert!(PageTypeReport::build(&packages, &systems[1..], &results)
            .is_some_and(|r| r.accuracy().is_none() && r.classifier.is_none()));
        let mut unlabelled = packages.clone();
        for p in &mut unlabelled[0].pages {
            p.page_type = None;
        }
        assert!(PageTypeReport::build(&unlabelled, &systems, &results).is_none());
    }
}
