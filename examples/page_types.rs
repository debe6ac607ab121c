//! Page-type signals of every labelled page of a devset, for tuning the weights of
//! `warcsift::page_type` (one JSON line per page: id, URL, label, predicted type, scores
//! and every signal), or with `--time` the cost of measuring and scoring a page against
//! the cost of building its `Doc`.
//!
//!     cargo run --release --example page_types -- ../shared/devset/wcxb > signals.jsonl
//!     cargo run --release --example page_types -- --time ../shared/devset/wcxb
use std::path::PathBuf;
use std::time::Instant;

use warcsift::doc::{Doc, Limits};
use warcsift::eval::dataset::discover;
use warcsift::page_type::{PageType, Signals};
use warcsift::structured::Structured;

fn main() -> Result<(), String> {
    let mut time = false;
    let mut dirs = Vec::new();
    for a in std::env::args_os().skip(1) {
        if a == "--time" {
            time = true;
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    if dirs.is_empty() {
        return Err("usage: page_types [--time] DEVSET_DIR...".into());
    }
    let limits = Limits {
        units: false,
        ..Limits::default()
    };
    let (mut parse_s, mut classify_s, mut pages) = (0.0f64, 0.0f64, 0usize);
    let mut per_page = Vec::new();
    for package in discover(&dirs, None)? {
        for page in &package.pages {
            let html = page.read_html()?;
            let text = warcsift::charset::decode(&html, None, page.url.as_deref()).text;
            let t0 = Instant::now();
            let mut doc = Doc::parse_with(&text, limits);
            doc.url = page.url.clone();
            let structured = Structured::read(&doc);
            let t1 = Instant::now();
            if time {
                // Repeat so that the timer's resolution does not matter.
                const REPEAT: u32 = 50;
                let mut t = PageType::Other;
                let c0 = Instant::now();
                for _ in 0..REPEAT {
                    t = std::hint::black_box(warcsift::page_type::classify(
                        std::hint::black_box(&doc),
                        &structured,
                    ));
                }
                let c = c0.elapsed().as_secs_f64() / f64::from(REPEAT);
                std::hint::black_box(t);
                parse_s += (t1 - t0).as_secs_f64();
                classify_s += c;
                per_page.push(c);
                pages += 1;
                continue;
            }
            let signals = Signals::read(&doc, &structured);
            let line = serde_json::json!({
                "id": page.id,
                "url": page.url,
                "label": page.page_type,
                "predicted": signals.classify().as_str(),
                "scores": signals.scores(),
                "signals": signals,
                "types": structured.types,
            });
            println!("{line}");
        }
    }
    if time && pages > 0 {
        per_page.sort_by(f64::total_cmp);
        let us = |s: f64| s * 1e6;
        println!(
            "{pages} pages: Doc + structured data {:.1} us per page; classify mean {:.2} us, median {:.2} us, p90 {:.2} us, max {:.2} us",
            us(parse_s / pages as f64),
            us(classify_s / pages as f64),
            us(per_page[pages / 2]),
            us(per_page[pages * 9 / 10]),
            us(per_page[pages - 1]),
        );
    }
    Ok(())
}
