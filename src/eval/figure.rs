//! Seed 004's Figure 1: mean F1 per package, one bar per method, as an SVG.
//!
//! Drawn with plotters' SVG backend, which writes labels as `<text>` elements: no font
//! files or font features are needed (text extents are estimated for layout only).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::measures::Measure;
use super::report::Report;

/// Grouped bar chart of the mean F1 of `measure`: one group per package (and "all"), one
/// bar per system, legend on the right.
pub fn bar_chart_svg(report: &Report, measure: Measure) -> Result<String, String> {
    let groups = &report.groups;
    let systems = &report.systems;
    let (n, k) = (groups.len(), systems.len().max(1));
    let legend_width = 40
        + 8 * systems
            .iter()
            .map(|s| s.name().chars().count())
            .max()
            .unwrap_or(4);
    let plot_width = (n * (k * 14 + 24) + 80).max(480);
    let width = (plot_width + legend_width) as u32;
    let height = 420u32.max(60 + 18 * k as u32);
    let mut svg = String::new();
    {
        let err = |e: DrawingAreaErrorKind<_>| format!("svg: {e}");
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(plot_width as u32);
        let mut chart = ChartBuilder::on(&plot)
            .caption(
                format!("Mean F1 ({}) per package", measure.name()),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(44)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..1f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .max_light_lines(1)
            .x_labels(0)
            .y_desc("F1")
            .draw()
            .map_err(err)?;
        // Group names under the bars, placed in pixels (the f64 axis cannot be told to tick
        // exactly at the group centres).
        for (g, name) in groups.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(g as f64, 0.0));
            let style = TextStyle::from(("sans-serif", 14).into_font())
                .pos(Pos::new(HPos::Center, VPos::Top));
            root.draw(&Text::new(name.clone(), (px, py + 8), style))
                .map_err(err)?;
        }
        let bar = 0.8 / k as f64;
        for s in 0..systems.len() {
            let color = color(s);
            let bars = (0..n).map(|g| {
                let x0 = g as f64 - 0.4 + s as f64 * bar;
                let f1 = report.cells[g][s].measures.get(measure).f1;
                Rectangle::new([(x0, 0.0), (x0 + bar * 0.9, f1)], color.filled())
            });
            chart.draw_series(bars).map_err(err)?;
        }
        for (s, system) in systems.iter().enumerate() {
            let color = color(s);
            let y = 40 + 18 * s as i32;
            legend
                .draw(&Rectangle::new([(8, y), (20, y + 12)], color.filled()))
                .map_err(err)?;
            legend
                .draw(&Text::new(
                    system.name().to_owned(),
                    (26, y),
                    ("sans-serif", 13),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A distinct colour per system: hues spread by the golden ratio, two lightness levels.
fn color(i: usize) -> RGBAColor {
    let hue = (i as f64 * 0.618_033_988_75).fract();
    HSLColor(hue, 0.7, if i % 2 == 0 { 0.45 } else { 0.6 }).to_rgba()
}
