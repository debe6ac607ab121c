//! The block table `ops/train_auto.py` trains `auto`'s model on: one TSV row per block of
//! every page of a devset, with its features, its word count and how much of it the gold
//! text holds.
//!
//!     cargo run --release --example auto_blocks -- ../shared/devset > blocks.tsv
//!
//! Columns: `package`, `page`, `block`, `words`, `gold_words` (words in the page's gold text),
//! `label` (share of the block's word trigrams found in the gold text; bigrams, then words,
//! for blocks shorter than three words), then one column per feature
//! (`warcsift::extract::auto_model::FEATURE_NAMES`), then `group1` and `group2`, the
//! element ids of the parent and grandparent of the block's container
//! (`warcsift::extract::auto_model::block_groups`: the second stage's sibling context).
//!
//! With `--texts FILE` first, each block's text goes to FILE too (`package`, `page`, `block`,
//! `text`, tabs and line breaks as spaces), to read the table's rows beside what they hold.
use std::collections::HashSet;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use warcsift::doc::Doc;
use warcsift::eval::dataset::discover;
use warcsift::eval::normalize::{normalize, words};
use warcsift::extract::auto::block_table;
use warcsift::extract::auto::Auto;
use warcsift::extract::auto_model::FEATURE_NAMES;

fn hash(ws: &[&str]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    ws.hash(&mut h);
    h.finish()
}

fn main() -> Result<(), String> {
    let mut dirs: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let mut texts = None;
    if dirs.first().is_some_and(|a| a.as_os_str() == "--texts") && dirs.len() >= 2 {
        let path = dirs.remove(1);
        dirs.remove(0);
        let file = std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        texts = Some(BufWriter::new(file));
    }
    if dirs.is_empty() {
        return Err("usage: auto_blocks [--texts FILE] DEVSET_DIR...".into());
    }
    let packages = discover(&dirs, None)?;
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let header = format!(
        "package\tpage\tblock\twords\tgold_words\tlabel\t{}\tgroup1\tgroup2",
        FEATURE_NAMES.join("\t")
    );
    writeln!(out, "{header}").map_err(|e| e.to_string())?;
    let auto = Auto::default();
    for package in &packages {
        for page in &package.pages {
            let gold =
                std::fs::read(&page.gold).map_err(|e| format!("{}: {e}", page.gold.display()))?;
            let gold = normalize(&String::from_utf8_lossy(&gold));
            let gw = words(&gold);
            let mut grams: [HashSet<u64>; 3] = Default::default();
            for (n, set) in grams.iter_mut().enumerate() {
                set.extend(gw.windows(n + 1).map(hash));
            }
            let html = page.read_html()?;
            let decoded = warcsift::charset::decode(&html, None, page.url.as_deref());
            // The URL as the pipeline sets it (`extract_page_as`): the page type reads it.
            let mut doc = Doc::parse(&decoded.text);
            doc.url = page.url.clone();
            let table = block_table(&doc, &auto);
            for (k, (row, text)) in table.rows.iter().zip(&table.texts).enumerate() {
                let norm = normalize(text);
                let bw = words(&norm);
                let n = bw.len().min(3);
                let label = if n == 0 {
                    0.0
                } else {
                    let grams_in = bw
                        .windows(n)
                        .filter(|w| grams[n - 1].contains(&hash(w)))
                        .count();
                    grams_in as f64 / bw.windows(n).count() as f64
                };
                let cols: Vec<String> = row.iter().map(|v| format!("{v}")).collect();
                let [g1, g2] = table.groups[k];
                writeln!(
                    out,
                    "{}\t{}\t{k}\t{}\t{}\t{label:.3}\t{}\t{g1}\t{g2}",
                    package.name,
                    page.id,
                    bw.len(),
                    gw.len(),
                    cols.join("\t")
                )
                .map_err(|e| e.to_string())?;
                if let Some(t) = texts.as_mut() {
                    let text = text.replace(['\t', '\n', '\r'], " ");
                    writeln!(t, "{}\t{}\t{k}\t{text}", package.name, page.id)
                        .map_err(|e| e.to_string())?;
                }
            }
        }
    }
    if let Some(t) = texts.as_mut() {
        t.flush().map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}
