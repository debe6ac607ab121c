//! Detect the language of each line of stdin with warcsift's detector ([`warcsift::lang`]),
//! for `ops/lang_compare.py`. Input: one text per line, `\n` inside a text written as the
//! two characters `\n`. Output: one line per text, `code<TAB>score` (`-<TAB>0` when no
//! language is detected), then on stderr the time spent in detection alone.

use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let stdin = std::io::stdin();
    let texts: Vec<String> = stdin
        .lock()
        .lines()
        .map_while(Result::ok)
        .map(|l| l.replace("\\n", "\n"))
        .collect();
    let started = Instant::now();
    let found: Vec<_> = texts
        .iter()
        .map(|t| warcsift::lang::detect(t, None))
        .collect();
    let elapsed = started.elapsed();
    let mut out = std::io::stdout().lock();
    for d in found {
        let _ = match d {
            Some(d) => writeln!(out, "{}\t{}", d.code, d.score),
            None => writeln!(out, "-\t0"),
        };
    }
    eprintln!(
        "{} texts in {:.3} s ({:.1} µs per text)",
        texts.len(),
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e6 / texts.len().max(1) as f64
    );
}
