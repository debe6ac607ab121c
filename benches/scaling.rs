//! Does every method stay linear in the page? Each method of the registry extracts the same
//! page scaled 1×, 2×, 4× and 8× (its body content repeated), and the time ratios
//! t(k×)/t(1×) are printed per method at the end: linear methods read ≈ 2, 4, 8.
//!
//! The page is a real one from the development set (`../shared/devset/dragnet/100.html`, a
//! news article with navigation, sidebar and footer) when present, else a synthetic article
//! page built here. Runs are short (0.2 s warm-up, 1 s measurement, 10 samples per point),
//! since the bench shares two cores.
//!
//! `cargo bench --bench scaling` (add a filter such as `-- cetr` to time fewer methods).

use criterion::{black_box, BenchmarkId, Criterion, Throughput};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use warcsift::extract::{extract_text, registry};

const SCALES: [usize; 4] = [1, 2, 4, 8];
const DEVSET_PAGE: &str = "../shared/devset/dragnet/100.html";

/// (method, scale) → fastest time per extraction over the samples, filled by the
/// measurements. The minimum, not the mean: on shared cores, interference only ever adds
/// time, so the fastest sample is the most stable estimate of the page's own cost.
static TIMES: Mutex<BTreeMap<(String, usize), f64>> = Mutex::new(BTreeMap::new());

/// A synthetic article page: header, navigation, paragraphs with a few inline links, a
/// related-links list and a footer.
fn synthetic_page() -> String {
    let mut body = String::from(
        "<div class=header><h1><a href=/>The Example Times</a></h1></div>\n\
         <ul class=nav><li><a href=/world>World</a></li><li><a href=/politics>Politics</a></li>\
         <li><a href=/business>Business</a></li><li><a href=/sport>Sport</a></li></ul>\n\
         <div class=article><h2>Council approves the new river barrier</h2>\n",
    );
    for i in 0..12 {
        body.push_str(&format!(
            "<p>Paragraph {i}: the city council voted on Tuesday to fund a flood barrier on the \
             river, after <a href=/r{i}>a report</a> warned that the old embankments would not \
             survive another winter of storms. Residents who live near the water welcomed the \
             decision, though some asked why it had taken so long.</p>\n"
        ));
    }
    body.push_str(
        "</div>\n<div class=related><h3>Related</h3><ul><li><a href=/a>Storm season</a></li>\
         <li><a href=/b>Budget vote</a></li><li><a href=/c>River history</a></li></ul></div>\n\
         <div class=footer>&copy; The Example Times | <a href=/privacy>Privacy</a> | \
         <a href=/contact>Contact</a></div>\n",
    );
    format!(
        "<html><head><title>Council approves barrier</title></head><body>\n{body}</body></html>"
    )
}

/// The page and where it came from.
fn base_page() -> (String, &'static str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DEVSET_PAGE);
    match std::fs::read(&path) {
        Ok(bytes) => (
            warcsift::charset::decode(&bytes, None, None)
                .text
                .into_owned(),
            DEVSET_PAGE,
        ),
        Err(_) => (synthetic_page(), "synthetic article page"),
    }
}

/// The page with its body content repeated `k` times (head and closing tags once).
fn scaled(page: &str, k: usize) -> String {
    let lower = page.to_ascii_lowercase();
    let start = lower
        .find("<body")
        .and_then(|i| lower[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    let end = lower
        .rfind("</body")
        .filter(|&e| e >= start)
        .unwrap_or(page.len());
    let inner = &page[start..end];
    let mut out = String::with_capacity(page.len() + inner.len() * k);
    out.push_str(&page[..start]);
    for _ in 0..k {
        out.push_str(inner);
    }
    out.push_str(&page[end..]);
    out
}

fn bench_scaling(c: &mut Criterion) {
    let (page, source) = base_page();
    let pages: Vec<(usize, String)> = SCALES.iter().map(|&k| (k, scaled(&page, k))).collect();
    eprintln!(
        "scaling: {source}, {} bytes at 1×, {} bytes at 8×",
        pages[0].1.len(),
        pages[3].1.len()
    );
    for method in registry() {
        let mut group = c.benchmark_group(format!("scaling/{}", method.name()));
        for (k, html) in &pages {
            group.throughput(Throughput::Bytes(html.len() as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(format!("{k}x")),
                html,
                |b, html| {
                    b.iter_custom(|iters| {
                        let start = Instant::now();
                        for _ in 0..iters {
                            black_box(extract_text(black_box(html), method.as_ref()));
                        }
                        let elapsed = start.elapsed();
                        let per = elapsed.as_secs_f64() / iters.max(1) as f64;
                        if let Ok(mut t) = TIMES.lock() {
                            let e = t
                                .entry((method.name().to_string(), *k))
                                .or_insert(f64::INFINITY);
                            *e = e.min(per);
                        }
                        elapsed
                    })
                },
            );
        }
        group.finish();
    }
}

/// Print t(k×)/t(1×) per method, from the fastest time per extraction.
fn print_ratios() {
    let Ok(times) = TIMES.lock() else {
        return;
    };
    let fastest = |m: &str, k: usize| {
        times
            .get(&(m.to_string(), k))
            .copied()
            .filter(|t| t.is_finite())
    };
    let mut methods: Vec<&str> = times.keys().map(|(m, _)| m.as_str()).collect();
    methods.dedup();
    if methods.is_empty() {
        return;
    }
    // `plain` only parses and renders: its ratios are the cost of the shared stages
    // (tokenizer, Doc, render), so "8×/plain" near 1 means the method itself adds nothing
    // superlinear.
    let plain8 = fastest("plain", 8)
        .zip(fastest("plain", 1))
        .map(|(t8, t1)| t8 / t1);
    println!("\nscaling ratios t(k×)/t(1×) (linear: 2, 4, 8; fastest sample per point)");
    println!(
        "{:<22} {:>10} {:>7} {:>7} {:>7} {:>10}",
        "method", "t(1×)", "2×", "4×", "8×", "8×/plain"
    );
    for m in methods {
        let Some(t1) = fastest(m, 1).filter(|t| *t > 0.0) else {
            continue;
        };
        let ratio = |k| fastest(m, k).map(|t| t / t1);
        let show = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.2}"));
        let vs_plain = ratio(8).zip(plain8).map(|(r, p)| r / p);
        println!(
            "{:<22} {:>8.3}ms {:>7} {:>7} {:>7} {:>10}",
            m,
            t1 * 1e3,
            show(ratio(2)),
            show(ratio(4)),
            show(ratio(8)),
            show(vs_plain)
        );
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10)
        .configure_from_args();
    bench_scaling(&mut c);
    c.final_summary();
    print_ratios();
}
