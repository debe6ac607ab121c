//! What each stage of the pipeline costs, on real pages: the first 200 responses of
//! `../shared/warc/dev.warc.gz` (skipped with a message when the shared folder is absent).
//!
//! Stages, in pipeline order, each timed alone over all those pages with its input prepared
//! beforehand:
//!
//! | bench | what one iteration does | bytes counted |
//! |---|---|---|
//! | `stages/inflate` | decode the gzip members through `input::Input` | decompressed WARC |
//! | `stages/inflate-zlib-rs` | the same with flate2's streaming `MultiGzDecoder` (zlib-rs), the decoder `Input` uses only for members that are not in its buffer whole: the reference for its libdeflate path | decompressed WARC |
//! | `stages/frame` | `record::RecordReader` over the decompressed bytes | decompressed WARC |
//! | `stages/read` | both: `RecordReader` over `Input` (the reader thread's work) | decompressed WARC |
//! | `stages/http` | `http::parse_response` of each response block | response blocks |
//! | `stages/charset` | `charset::decode` of each payload | payloads |
//! | `stages/tokenize` | iterate every token of each decoded page | decoded HTML |
//! | `floor/tag-scan` | `memchr` to every `<` and the `>` after it, nothing else: the least work that tells markup from text | decoded HTML |
//! | `stages/doc` | `Doc::parse` of each page (tokenizer included) | decoded HTML |
//! | `extract/<method>` | `select` + `render` on prebuilt docs (Crunch: its own prepared docs) | decoded HTML |
//! | `page/<method>` | `extract::extract_with`: charset, prepare, parse, select, render | payloads |
//! | `output/jsonl` | `output::jsonl::encode_into` of each page's `PageRecord` | JSONL |
//! | `output/zstd` | zstd (level 3, streaming, as the shard writer) of that JSONL | JSONL |
//! | `output/zstd-1`, `output/zstd-fast1`, `output/zstd-fast10` | the same at levels 1, -1 and -10 (`--zstd-level`) | JSONL |
//!
//! At the end a table gives each stage's speed from its fastest sample (interference on
//! shared cores only ever adds time) and its time per page, then the floor of issue 6: the
//! parse-only pass, the same plus the tag scan, JSONL and zstd at level -10 (what any extractor
//! pays before deciding anything), and the default path, each per page and as a multiple of
//! the parse-only pass.
//!
//! `cargo bench --bench stages` (about 3 minutes on 2 shared cores; add a filter such as
//! `-- stages/` or `-- extract/auto` to run fewer). `STAGES_PAGES=N` changes the page count.

use criterion::{black_box, Criterion, SamplingMode, Throughput};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warcsift::charset;
use warcsift::doc::Doc;
use warcsift::extract::{self, registry, render};
use warcsift::http::{self, Limits};
use warcsift::input::Input;
use warcsift::output::{jsonl, PageRecord};
use warcsift::record::{ReadEvent, ReaderOptions, RecordReader};
use warcsift::tokenize::Tokenizer;

const DEV_WARC: &str = "../shared/warc/dev.warc.gz";
const DEFAULT_PAGES: usize = 200;

/// (bench name, fastest seconds per iteration, bytes per iteration), in the order run.
static TIMES: Mutex<Vec<(String, f64, u64)>> = Mutex::new(Vec::new());

/// Shared bytes for `Input::from_reader` (which wants an owned `'static` reader).
#[derive(Clone)]
struct Shared(Arc<[u8]>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// One response: its record block and what the stages after HTTP need.
struct Page {
    url: String,
    id: String,
    date: String,
    offset: u64,
    block: Vec<u8>,
    body: Vec<u8>,
    http_charset: Option<String>,
    html: String,
}

struct Corpus {
    /// gzip members of the first records, up to and including the last page's.
    compressed: Shared,
    /// The same, decompressed.
    warc: Vec<u8>,
    pages: Vec<Page>,
}

/// The first `n` HTML responses of the dev WARC, or `None` when it is absent.
fn load(n: usize) -> Option<Corpus> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEV_WARC);
    let Ok(file) = std::fs::read(&path) else {
        eprintln!(
            "SKIP: {} is absent (the shared folder is not beside the repository); no stage benchmarks",
            path.display()
        );
        return None;
    };
    // Decode member by member until n responses are in, to know the compressed prefix.
    let mut rest: &[u8] = &file;
    let mut warc = Vec::new();
    let mut responses = 0;
    while !rest.is_empty() && responses < n {
        let mut d = flate2::bufread::GzDecoder::new(&mut rest);
        let mut member = Vec::new();
        if d.read_to_end(&mut member).is_err() {
            break;
        }
        drop(d);
        let head = &member[..member.len().min(2048)];
        if head
            .windows(19)
            .any(|w| w.eq_ignore_ascii_case(b"WARC-Type: response"))
        {
            responses += 1;
        }
        warc.extend_from_slice(&member);
    }
    let compressed = Shared(Arc::from(&file[..file.len() - rest.len()]));
    drop(file);

    let limits = Limits::default();
    let mut pages = Vec::new();
    for event in RecordReader::new(&warc[..], ReaderOptions::default()) {
        let ReadEvent::Record(rec) = event else {
            continue;
        };
        if !rec.is_http_response() {
            continue;
        }
        let Ok(resp) = http::parse_response(&rec.block, &limits) else {
            continue;
        };
        let url = rec.header.target_uri().unwrap_or_default().to_string();
        let body = resp.body.to_vec();
        let http_charset = resp.charset.clone();
        let html = charset::decode(&body, http_charset.as_deref(), Some(&url))
            .text
            .into_owned();
        drop(resp);
        pages.push(Page {
            id: rec.header.record_id().unwrap_or_default().to_string(),
            date: rec.header.date().unwrap_or_default().to_string(),
            offset: rec.offset,
            url,
            block: rec.block,
            body,
            http_charset,
            html,
        });
    }
    Some(Corpus {
        compressed,
        warc,
        pages,
    })
}

/// Times `f` as bench `name` with `bytes` of throughput, and keeps its fastest iteration.
fn bench(c: &mut Criterion, group: &str, name: &str, bytes: u64, mut f: impl FnMut()) {
    let mut g = c.benchmark_group(group);
    g.sampling_mode(SamplingMode::Flat);
    g.throughput(Throughput::Bytes(bytes));
    let key = format!("{group}/{name}");
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            let elapsed = start.elapsed();
            let per = elapsed.as_secs_f64() / iters.max(1) as f64;
            if let Ok(mut t) = TIMES.lock() {
                match t.iter_mut().find(|e| e.0 == key) {
                    Some(e) => e.1 = e.1.min(per),
                    None => t.push((key.clone(), per, bytes)),
                }
            }
            elapsed
        })
    });
    g.finish();
}

fn bench_stages(c: &mut Criterion, corpus: &Corpus) {
    let pages = &corpus.pages;
    let warc_bytes = corpus.warc.len() as u64;
    let block_bytes: u64 = pages.iter().map(|p| p.block.len() as u64).sum();
    let body_bytes: u64 = pages.iter().map(|p| p.body.len() as u64).sum();
    let html_bytes: u64 = pages.iter().map(|p| p.html.len() as u64).sum();
    eprintln!(
        "stages: {} pages; {:.1} MB gzip, {:.1} MB WARC, {:.1} MB payloads, {:.1} MB decoded HTML",
        pages.len(),
        corpus.compressed.0.len() as f64 / 1e6,
        warc_bytes as f64 / 1e6,
        body_bytes as f64 / 1e6,
        html_bytes as f64 / 1e6
    );

    bench(c, "stages", "inflate", warc_bytes, || {
        let mut input =
            Input::from_reader("bench", std::io::Cursor::new(corpus.compressed.clone())).unwrap();
        black_box(std::io::copy(&mut input, &mut std::io::sink()).unwrap());
    });
    bench(c, "stages", "inflate-zlib-rs", warc_bytes, || {
        let mut gz = flate2::bufread::MultiGzDecoder::new(corpus.compressed.as_ref());
        black_box(std::io::copy(&mut gz, &mut std::io::sink()).unwrap());
    });
    bench(c, "stages", "frame", warc_bytes, || {
        let n = RecordReader::new(&corpus.warc[..], ReaderOptions::default()).count();
        black_box(n);
    });
    bench(c, "stages", "read", warc_bytes, || {
        let input =
            Input::from_reader("bench", std::io::Cursor::new(corpus.compressed.clone())).unwrap();
        black_box(RecordReader::new(input, ReaderOptions::default()).count());
    });
    let limits = Limits::default();
    bench(c, "stages", "http", block_bytes, || {
        for p in pages {
            black_box(http::parse_response(black_box(&p.block), &limits).ok());
        }
    });
    bench(c, "stages", "charset", body_bytes, || {
        for p in pages {
            black_box(charset::decode(
                black_box(&p.body),
                p.http_charset.as_deref(),
                Some(&p.url),
            ));
        }
    });
    bench(c, "stages", "tokenize", html_bytes, || {
        for p in pages {
            black_box(Tokenizer::new(black_box(&p.html)).count());
        }
    });
    // The floor of any HTML extractor: find every `<` and the `>` after it, nothing else
    // (no names, attributes, quotes, entities or text). No extractor that tells markup from
    // text can touch a page with less work than this.
    bench(c, "floor", "tag-scan", html_bytes, || {
        for p in pages {
            black_box(tag_scan(black_box(p.html.as_bytes())));
        }
    });
    bench(c, "stages", "doc", html_bytes, || {
        for p in pages {
            black_box(Doc::parse(black_box(&p.html)));
        }
    });

    let docs: Vec<Doc> = pages
        .iter()
        .map(|p| {
            let mut d = Doc::parse(&p.html);
            d.url = Some(p.url.clone());
            d
        })
        .collect();
    for method in registry() {
        // A method with a pre-pass (Crunch) gets docs of its own prepared HTML.
        let prepared: Option<Vec<Doc>> = pages
            .iter()
            .any(|p| matches!(method.prepare(&p.html), std::borrow::Cow::Owned(_)))
            .then(|| {
                pages
                    .iter()
                    .map(|p| {
                        let mut d = Doc::parse(&method.prepare(&p.html));
                        d.url = Some(p.url.clone());
                        d
                    })
                    .collect()
            });
        let docs = prepared.as_ref().unwrap_or(&docs);
        bench(c, "extract", method.name(), html_bytes, || {
            for d in docs {
                let keep = method.select(black_box(d));
                black_box(render(d, &keep));
            }
        });
    }
    for name in ["auto", "plain"] {
        let Some(method) = extract::method(name) else {
            continue;
        };
        bench(c, "page", name, body_bytes, || {
            for p in pages {
                black_box(extract::extract_with(
                    black_box(&p.body),
                    p.http_charset.as_deref(),
                    Some(&p.url),
                    method.as_ref(),
                ));
            }
        });
    }

    let auto = extract::method("auto").expect("the default method");
    let records: Vec<PageRecord> = pages
        .iter()
        .map(|p| {
            let x = extract::extract_with(
                &p.body,
                p.http_charset.as_deref(),
                Some(&p.url),
                auto.as_ref(),
            );
            PageRecord {
                id: p.id.clone(),
                url: p.url.clone(),
                date: p.date.clone(),
                title: x.page.title,
                html_lang: x.page.lang,
                page_type: x.page.page_type.as_str().to_string(),
                charset: x.charset.to_string(),
                charset_source: x.charset_source.to_string(),
                text: x.page.text,
                source: DEV_WARC.to_string(),
                offset: p.offset,
                truncated: false,
                ..PageRecord::default()
            }
        })
        .collect();
    let mut lines = Vec::new();
    for r in &records {
        jsonl::encode_into(r, &mut lines);
    }
    let jsonl_bytes = lines.len() as u64;
    let mut out = Vec::with_capacity(lines.len());
    bench(c, "output", "jsonl", jsonl_bytes, || {
        out.clear();
        for r in &records {
            jsonl::encode_into(black_box(r), &mut out);
        }
        black_box(out.len());
    });
    let mut zout = Vec::with_capacity(lines.len());
    // Level 3 is the shard writer's default; 1, -1 and -10 are cheaper ones a user can ask
    // for (`--zstd-level`); -10 barely compresses, and is the floor of JSONL+zstd output.
    for (name, level) in [
        ("zstd", 3),
        ("zstd-1", 1),
        ("zstd-fast1", -1),
        ("zstd-fast10", -10),
    ] {
        bench(c, "output", name, jsonl_bytes, || {
            zout.clear();
            let mut enc = zstd::stream::write::Encoder::new(&mut zout, level).unwrap();
            for line in lines.split_inclusive(|&b| b == b'\n') {
                enc.write_all(black_box(line)).unwrap();
            }
            enc.finish().unwrap();
            black_box(zout.len());
        });
    }
}

/// Tags in `html` by the least work that still separates markup from text: `memchr` to each
/// `<`, then to the `>` after it.
fn tag_scan(html: &[u8]) -> usize {
    let mut tags = 0;
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'<', &html[at..]) {
        let lt = at + i;
        match memchr::memchr(b'>', &html[lt..]) {
            Some(j) => {
                tags += 1;
                at = lt + j + 1;
            }
            None => break,
        }
    }
    tags
}

/// One row per bench: speed from the fastest iteration, and time per page.
fn print_summary(pages: usize) {
    let Ok(times) = TIMES.lock() else {
        return;
    };
    if times.is_empty() {
        return;
    }
    println!(
        "\nstage speeds ({pages} pages; fastest iteration; MB = 10^6 bytes of the bytes counted)"
    );
    println!("{:<28} {:>10} {:>12}", "bench", "MB/s", "µs per page");
    for (name, secs, bytes) in times.iter() {
        if !secs.is_finite() || *secs <= 0.0 {
            continue;
        }
        println!(
            "{:<28} {:>10.1} {:>12.1}",
            name,
            *bytes as f64 / 1e6 / secs,
            secs * 1e6 / pages.max(1) as f64
        );
    }
    print_floor(&times, pages);
}

/// The stage sums behind issue 6's targets, as ratios to the parse-only pass (`-a none`:
/// read, HTTP, charset), all from this run:
/// - floor: parse-only, plus the tag scan, JSONL and zstd at level -10 (which barely
///   compresses): what any extractor that looks at every tag and writes JSONL+zstd pays
///   before it decides anything;
/// - default: parse-only, plus `Doc` building, `auto`, JSONL and zstd at level 3.
fn print_floor(times: &[(String, f64, u64)], pages: usize) {
    let get = |k: &str| times.iter().find(|e| e.0 == k).map(|e| e.1);
    let sum = |ks: &[&str]| ks.iter().map(|k| get(k)).sum::<Option<f64>>();
    let parse = ["stages/read", "stages/http", "stages/charset"];
    let (Some(p), Some(floor), Some(default)) = (
        sum(&parse),
        sum(&[
            &parse[..],
            &["floor/tag-scan", "output/jsonl", "output/zstd-fast10"],
        ]
        .concat()),
        sum(&[
            &parse[..],
            &["stages/doc", "extract/auto", "output/jsonl", "output/zstd"],
        ]
        .concat()),
    ) else {
        println!("\n(floor: run the stages/, floor/, output/ and extract/auto benches together)");
        return;
    };
    let us = |s: f64| s * 1e6 / pages.max(1) as f64;
    println!("\nper page, as a multiple of the parse-only pass (read + http + charset)");
    println!("{:<60} {:>8.1} µs {:>6.2}×", "parse only", us(p), 1.0);
    println!(
        "{:<60} {:>8.1} µs {:>6.2}×",
        "floor: + tag scan + jsonl + zstd level -10",
        us(floor),
        floor / p
    );
    println!(
        "{:<60} {:>8.1} µs {:>6.2}×",
        "default: + doc + extract/auto + jsonl + zstd level 3",
        us(default),
        default / p
    );
}

fn main() {
    let n = std::env::var("STAGES_PAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_PAGES);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(10)
        .configure_from_args();
    let Some(corpus) = load(n) else {
        return;
    };
    bench_stages(&mut c, &corpus);
    c.final_summary();
    print_summary(corpus.pages.len());
}
