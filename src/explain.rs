//! `warcsift explain PAGE.html -a METHOD --svg out.svg --tsv out.tsv`: what one method saw on
//! one page.
//!
//! Takes one page (a file, or `-` for stdin), decodes it as the pipeline does
//! ([`crate::charset::decode`]), builds its [`Doc`] and asks the method for its
//! [`Explanation`]: the per-unit features it computed (a line, block, token, window or element
//! per row) and what it kept. Gives:
//! - `--tsv`: one row per unit, columns `<unit>`, every feature column, `kept` (1/0);
//! - `--svg`: the figure the method's paper would draw: the plotted features over the unit
//!   index (bars for a raw histogram, curves for the rest), threshold lines with their labels,
//!   kept units shaded light green behind, a legend, the axis naming the unit, and the method
//!   and page as the title (plotters' SVG backend writes `<text>` elements itself, so no font
//!   files are needed);
//! - the kept text on stdout, always, also for methods that explain nothing.

use crate::doc::Doc;
use crate::extract::{self, Explanation};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Command-line arguments of `warcsift explain`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The HTML page to explain (gzip, zstd or lz4 compressed too), or "-" to read it from stdin.
    pub page: PathBuf,
    /// The method (see `warcsift algorithms`).
    #[arg(short = 'a', long = "algorithm", default_value = "cetr-tm")]
    pub algorithm: String,
    /// Write the figure (SVG) here.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Write the per-unit features (TSV) here.
    #[arg(long)]
    pub tsv: Option<PathBuf>,
    /// The page's URL (charset detection hint; host for per-site methods).
    #[arg(long)]
    pub url: Option<String>,
}

/// Explain one page: write the TSV and SVG asked for, print the kept text to stdout.
pub fn run(args: &ExplainArgs) -> Result<(), String> {
    let page_name = args.page.display().to_string();
    let bytes = crate::input::read_document(&args.page)?;
    let method = extract::method(&args.algorithm).ok_or_else(|| {
        format!(
            "unknown algorithm {:?}; known: {}",
            args.algorithm,
            extract::algorithm_names().join(", ")
        )
    })?;
    let decoded = crate::charset::decode(&bytes, None, args.url.as_deref());
    let prepared = method.prepare(&decoded.text);
    let mut doc = Doc::parse(&prepared);
    doc.url = args.url.clone();

    // `explain` first: a stateful method (info-discoverer) does not record the page there.
    let explanation = method.explain(&doc);
    let keep = method.select(&doc);
    let text = extract::render(&doc, &keep);

    match &explanation {
        Some(ex) => {
            if let Some(path) = &args.tsv {
                let file =
                    File::create(path).map_err(|e| format!("creating {}: {e}", path.display()))?;
                let mut out = BufWriter::new(file);
                write_tsv(ex, &mut out)
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("writing {}: {e}", path.display()))?;
            }
            if let Some(path) = &args.svg {
                let short = args
                    .page
                    .file_name()
                    .map_or(page_name.clone(), |n| n.to_string_lossy().into_owned());
                let title = format!("{} — {short}", method.name());
                draw_svg(ex, &title, path)?;
            }
            let kept = ex.kept.iter().filter(|&&k| k).count();
            eprintln!(
                "{}: {} {}s, {kept} kept; charset {} ({})",
                method.name(),
                ex.kept.len(),
                ex.unit,
                decoded.encoding.name(),
                decoded.source.as_str()
            );
        }
        None => {
            eprintln!(
                "{} has no per-unit explanation (nothing to plot){}; the kept text follows.",
                method.name(),
                if args.svg.is_some() || args.tsv.is_some() {
                    ", so no SVG/TSV was written"
                } else {
                    ""
                }
            );
        }
    }
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("writing stdout: {e}"))
}

/// Rows of an explanation: the longest of its columns and its `kept`.
fn rows(ex: &Explanation) -> usize {
    ex.columns
        .iter()
        .map(|(_, v)| v.len())
        .chain(std::iter::once(ex.kept.len()))
        .max()
        .unwrap_or(0)
}

/// A TSV cell: tabs and line breaks would break the table.
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// One row per unit: `<unit>` index, every column, `kept` (1/0). Missing values are empty.
pub fn write_tsv(ex: &Explanation, out: &mut impl Write) -> io::Result<()> {
    let unit = if ex.unit.is_empty() { "unit" } else { ex.unit };
    write!(out, "{}", clean(unit))?;
    for (name, _) in &ex.columns {
        write!(out, "\t{}", clean(name))?;
    }
    writeln!(out, "\tkept")?;
    for i in 0..rows(ex) {
        write!(out, "{i}")?;
        for (_, values) in &ex.columns {
            match values.get(i) {
                Some(v) => write!(out, "\t{v}")?,
                None => write!(out, "\t")?,
            }
        }
        let kept = match ex.kept.get(i) {
            Some(true) => "1",
            Some(false) => "0",
            None => "",
        };
        writeln!(out, "\t{kept}")?;
    }
    Ok(())
}

/// Series colours (colour-blind-safe Tableau 10 subset).
const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];
const THRESHOLD_COLOR: RGBColor = RGBColor(214, 39, 40);
const KEPT_COLOR: RGBColor = RGBColor(200, 240, 200);

/// Runs of consecutive kept rows, as inclusive index ranges.
fn kept_runs(kept: &[bool]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, &k) in kept.iter().enumerate() {
        match (k, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, i - 1));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, kept.len() - 1));
    }
    runs
}

/// Draw the explanation: plotted columns over the unit index (the first as bars when it is a
/// raw histogram under a smoothed curve, or when there are few units), thresholds as labelled
/// horizontal lines, kept units shaded, legend, axis labels, `title` as caption.
pub fn draw_svg(ex: &Explanation, title: &str, path: &Path) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let n = rows(ex);
    let plotted: Vec<(&str, &[f64])> = ex
        .plot
        .iter()
        .filter_map(|&i| ex.columns.get(i))
        .map(|(name, v)| (name.as_str(), v.as_slice()))
        .collect();

    // Value range over everything drawn (finite values only), always including 0.
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for v in plotted
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .chain(ex.thresholds.iter().map(|t| t.1))
        .filter(|v| v.is_finite())
    {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if hi - lo < 1e-12 {
        hi = lo + 1.0;
    }
    let pad = (hi - lo) * 0.08;
    let (y0, y1) = (lo - if lo < 0.0 { pad } else { 0.0 }, hi + pad);
    let (x0, x1) = (-0.5f64, (n.max(1) as f64) - 0.5);

    let root = SVGBackend::new(path, (1200, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    let unit = if ex.unit.is_empty() { "unit" } else { ex.unit };
    let y_desc = match plotted.as_slice() {
        [(name, _)] => (*name).to_string(),
        _ => "value".to_string(),
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(format!("{unit} index"))
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .draw()
        .map_err(|e| err(&e))?;

    // Kept units, behind everything.
    let runs = kept_runs(&ex.kept);
    let shade = chart
        .draw_series(runs.iter().map(|&(a, b)| {
            Rectangle::new(
                [(a as f64 - 0.5, y0), (b as f64 + 0.5, y1)],
                KEPT_COLOR.filled(),
            )
        }))
        .map_err(|e| err(&e))?;
    shade
        .label(format!("kept {unit}s"))
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], KEPT_COLOR.filled()));

    let bars_first = plotted.len() > 1 || n <= 60;
    for (k, (name, values)) in plotted.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        if k == 0 && bars_first {
            let half = if n <= 60 { 0.35 } else { 0.5 };
            let fill = color.mix(0.55).filled();
            chart
                .draw_series(
                    values
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| v.is_finite())
                        .map(|(i, &v)| {
                            Rectangle::new([(i as f64 - half, 0.0), (i as f64 + half, v)], fill)
                        }),
                )
                .map_err(|e| err(&e))?
                .label(*name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], fill));
        } else {
            // A curve, broken where a value is missing (NaN).
            let style = color.stroke_width(2);
            let mut pieces: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
            for (i, &v) in values.iter().enumerate() {
                if v.is_finite() {
                    if let Some(p) = pieces.last_mut() {
                        p.push((i as f64, v));
                    }
                } else if pieces.last().is_some_and(|p| !p.is_empty()) {
                    pieces.push(Vec::new());
                }
            }
            let mut labelled = false;
            for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
                let s = chart
                    .draw_series(LineSeries::new(piece, style))
                    .map_err(|e| err(&e))?;
                if !labelled {
                    s.label(*name)
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
                    labelled = true;
                }
            }
        }
    }

    // Thresholds: dashed horizontal lines, labelled at their right end.
    let label_style = ("sans-serif", 15)
        .into_font()
        .color(&THRESHOLD_COLOR)
        .pos(Pos::new(HPos::Right, VPos::Bottom));
    for (label, value) in ex.thresholds.iter().filter(|t| t.1.is_finite()) {
        let style = THRESHOLD_COLOR.stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x0, *value), (x1, *value)],
                8,
                5,
                style,
            ))
            .map_err(|e| err(&e))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
        chart
            .draw_series(std::iter::once(Text::new(
                label.clone(),
                (x1, *value),
                label_style.clone(),
            )))
            .map_err(|e| err(&e))?;
    }

    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake() -> Explanation {
        Explanation {
            unit: "line",
            columns: vec![
                (
                    "tag ratio".into(),
                    vec![0.0, 1.0, 12.0, 30.0, 25.0, f64::NAN, 2.0],
                ),
                (
                    "smoothed".into(),
                    vec![0.5, 3.0, 11.0, 22.0, 20.0, 9.0, 3.0],
                ),
            ],
            plot: vec![0, 1],
            thresholds: vec![("τ = λσ".into(), 9.5)],
            kept: vec![false, false, true, true, true, false, false],
        }
    }

    #[test]
    fn tsv_has_header_and_one_row_per_unit() {
        let mut out = Vec::new();
        write_tsv(&fake(), &mut out).unwrap();
        let s = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], "line\ttag ratio\tsmoothed\tkept");
        assert_eq!(lines.len(), 1 + 7);
        assert_eq!(lines[3], "2\t12\t11\t1");
        assert_eq!(lines[6], "5\tNaN\t9\t0");
        assert!(lines.iter().all(|l| l.split('\t').count() == 4));
    }

    #[test]
    fn svg_has_title_legend_and_threshold_label() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.svg");
        draw_svg(&fake(), "cetr-tm — page.html", &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
        assert!(svg.contains("<text"));
        assert!(svg.contains("cetr-tm"));
        assert!(svg.contains("τ = λσ"));
        assert!(svg.contains("line index"));
        assert!(svg.contains("kept lines"));
    }

    #[test]
    fn svg_survives_empty_and_degenerate_input() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e.svg");
        draw_svg(&Explanation::default(), "empty <&>", &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("empty &lt;&amp;&gt;"));
        let ex = Explanation {
            unit: "block",
            columns: vec![("all NaN".into(), vec![f64::NAN; 3])],
            plot: vec![0, 7],
            thresholds: vec![("inf".into(), f64::INFINITY)],
            kept: vec![true; 3],
        };
        draw_svg(&ex, "t", &path).unwrap();
    }

    #[test]
    fn run_writes_files_and_rejects_unknown_methods() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("p.html");
        std::fs::write(&page, "<html><body><p>Some text here.</p></body></html>").unwrap();
        let args = ExplainArgs {
            page: page.clone(),
            algorithm: "no-such-method".into(),
            svg: None,
            tsv: None,
            url: None,
        };
        assert!(run(&args).unwrap_err().contains("unknown algorithm"));
        // A method with an explanation (the last registered that has one) writes both files.
        let doc = Doc::parse("<p>x</p>");
        if let Some(m) = extract::registry()
            .into_iter()
            .find(|m| m.explain(&doc).is_some())
        {
            let args = ExplainArgs {
                algorithm: m.name().to_string(),
                svg: Some(dir.path().join("o.svg")),
                tsv: Some(dir.path().join("o.tsv")),
                ..args
            };
            run(&args).unwrap();
            assert!(std::fs::read_to_string(dir.path().join("o.svg"))
                .unwrap()
                .contains(m.name()));
            let tsv = std::fs::read_to_string(dir.path().join("o.tsv")).unwrap();
            assert!(tsv.lines().next().unwrap().ends_with("\tkept"));
        }
    }
}
