//! Hostile inputs, through the real binary: every case is generated here, written as a WARC
//! into a temporary folder and run with `warcsift extract` under a time limit (the process
//! group is killed on overrun, which fails the case) and a memory limit (the child's peak RSS,
//! from `/usr/bin/time -f %M`, or sampled from `/proc/PID/status` where that is missing).
//!
//! What every case checks (see [`Outcome`]): exit status 0 (a bad record is never fatal), no
//! panic text on stderr, every good record's id in the JSONL output, the bad record accounted
//! for the way the case says (an error in `stats.json` *and* a line in `errors.jsonl` naming
//! it, a skip reason counted, or a page), `errors.jsonl` holding exactly as many lines as
//! `stats.json` counts errors, and every record read accounted for (extracted + skipped +
//! per-record errors = records read).
//!
//! Also here: the fuzzers' minimized reproducers (`tests/fuzz-regressions/<target>/`) run
//! through the function their target calls, and linearity checks of the tokenizer and the
//! features stage (time at 4× the input, not absolute time).
//!
//! Sizes are chosen for `cargo test --release` (as CI runs it). In debug builds the 100 MB page
//! is 10 MB and time limits are multiplied by 8.

mod support;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{bin, gunzip_all, gzip_members, sample, stats, tempdir};

const MIB: u64 = 1024 * 1024;

/// Peak RSS allowed for ordinary cases.
const RSS_LIMIT: u64 = 300 * MIB;

/// Debug builds are far slower; limits stretch, the largest input shrinks.
fn slow_factor() -> u32 {
    if cfg!(debug_assertions) {
        8
    } else {
        1
    }
}

// ------------------------------------------------------------------------------ building

/// A WARC record with the given type, id (`<urn:uuid:ID>`), extra header fields and block.
fn record(kind: &str, id: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    record_declaring(kind, id, fields, block.len() as u64, block)
}

/// A record whose `Content-Length` says `declared`, whatever the block's real length.
fn record_declaring(
    kind: &str,
    id: &str,
    fields: &[(&str, &str)],
    declared: u64,
    block: &[u8],
) -> Vec<u8> {
    let mut v = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: http://hostile.example.com/{id}\r\n\
         WARC-Date: 2024-02-01T00:00:00Z\r\n"
    )
    .into_bytes();
    for (k, val) in fields {
        v.extend_from_slice(format!("{k}: {val}\r\n").as_bytes());
    }
    v.extend_from_slice(format!("Content-Length: {declared}\r\n\r\n").as_bytes());
    v.extend_from_slice(block);
    v.extend_from_slice(b"\r\n\r\n");
    v
}

/// An HTTP response message: status line, the given header lines, blank line, body.
fn http(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut v = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    v.extend_from_slice(body);
    v
}

/// A `response` record of an ordinary text/html page.
fn response(id: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    record("response", id, &[], &http(headers, body))
}

/// An ordinary page with enough prose that every method keeps something.
fn good_html(n: usize) -> Vec<u8> {
    format!(
        "<!DOCTYPE html><html lang=en><head><title>Good page {n}</title></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>Good page {n}</h1>\
         <p>This is the main text of good page number {n}. It has several sentences, so that \
         every extraction method sees a block of real prose and keeps it as the content.</p>\
         <p>The harbour ferry resumed its timetable on Monday after three weeks of repairs, \
         and commuters said the crossing felt quicker than before the storm.</p></article>\
         <footer>Copyright 2024</footer></body></html>"
    )
    .into_bytes()
}

/// The id of the n-th good page.
fn good_id(n: usize) -> String {
    format!("<urn:uuid:good-{n}>")
}

fn good(n: usize) -> Vec<u8> {
    response(
        &format!("good-{n}"),
        "Content-Type: text/html; charset=utf-8\r\n",
        &good_html(n),
    )
}

/// good 1, `bad`, good 2, good 3: the shape of most cases.
fn around(bad: &[u8]) -> Vec<u8> {
    [good(1), bad.to_vec(), good(2), good(3)].concat()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// `len` zero bytes, gzip-compressed, without holding them all in memory.
fn gzip_zeros(len: usize) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let chunk = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len());
        e.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    e.finish().unwrap()
}

// ------------------------------------------------------------------------------ running

/// How a run ended.
struct Run {
    status: Option<i32>,
    stderr: String,
    /// Peak resident set size of the warcsift process, bytes.
    peak_rss: u64,
    elapsed: Duration,
}

/// Runs the binary with `args` under `limit`; kills its process group and panics on overrun.
fn run_limited(name: &str, args: &[String], dir: &Path, limit: Duration) -> Run {
    let limit = limit * slow_factor();
    let time = Path::new("/usr/bin/time");
    let rss_file = dir.join(format!("{name}.rss"));
    let stderr_file = dir.join(format!("{name}.stderr"));
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.arg("-f").arg("%M").arg("-o").arg(&rss_file).arg(bin());
        c
    } else {
        Command::new(bin())
    };
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_file).unwrap())
        .process_group(0);
    let started = Instant::now();
    let mut child = cmd.spawn().expect("spawn warcsift");
    let mut sampled_rss = 0u64;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if !time.exists() {
            sampled_rss = sampled_rss.max(vm_hwm(child.id()).unwrap_or(0));
        }
        if started.elapsed() > limit {
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            panic!("{name}: still running after {limit:?}: killed (hang or super-linear cost)");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    let peak_rss = if time.exists() {
        let text = std::fs::read_to_string(&rss_file).unwrap_or_default();
        // The last line is %M (KiB); a line before it may say the command was killed.
        text.lines()
            .last()
            .and_then(|l| l.trim().parse::<u64>().ok())
            .map_or(0, |kib| kib * 1024)
    } else {
        sampled_rss
    };
    let stderr = std::fs::read_to_string(&stderr_file).unwrap_or_default();
    let stderr = stderr
        .lines()
        .filter(|l| !l.starts_with("Command exited with non-zero status"))
        .collect::<Vec<_>>()
        .join("\n");
    Run {
        status: status.code(),
        stderr,
        peak_rss,
        elapsed,
    }
}

/// Peak RSS (`VmHWM`) of a live process, bytes.
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What a case produced.
struct Outcome {
    name: String,
    stats: Value,
    /// Pages by record id.
    pages: BTreeMap<String, Value>,
    /// The lines of errors.jsonl.
    errors: Vec<Value>,
    run: Run,
}

impl Outcome {
    fn has_page(&self, id: &str) -> bool {
        self.pages.contains_key(id)
    }

    fn error_for(&self, id: &str) -> Option<&Value> {
        self.errors.iter().find(|e| e["id"].as_str() == Some(id))
    }

    fn skipped(&self, reason: &str) -> u64 {
        self.stats["skipped"][reason].as_u64().unwrap_or(0)
    }

    fn total(&self, key: &str) -> u64 {
        self.stats[key]
            .as_object()
            .map_or(0, |m| m.values().filter_map(Value::as_u64).sum())
    }

    fn expect_pages(&self, ids: &[String]) {
        for id in ids {
            assert!(
                self.has_page(id),
                "{}: good record {id} missing from the output; pages {:?}, errors {:?}",
                self.name,
                self.pages.keys().collect::<Vec<_>>(),
                self.errors
            );
        }
    }
}

/// Writes `warc` as `name` (gzip-compressed per record when it ends in `.gz`... the caller
/// compresses), runs `warcsift extract` on it with `extra` arguments and checks what every case
/// must satisfy.
fn run_case(
    dir: &Path,
    name: &str,
    warc: &[u8],
    extra: &[&str],
    limit: Duration,
    rss_limit: u64,
) -> Outcome {
    let input = dir.join(name);
    std::fs::write(&input, warc).unwrap();
    run_file(dir, name, &input, extra, limit, rss_limit)
}

fn run_file(
    dir: &Path,
    name: &str,
    input: &Path,
    extra: &[&str],
    limit: Duration,
    rss_limit: u64,
) -> Outcome {
    let out = dir.join(format!("out-{name}"));
    let mut args: Vec<String> = vec![
        "extract".into(),
        input.to_string_lossy().into_owned(),
        "-o".into(),
        out.to_string_lossy().into_owned(),
        "-q".into(),
        "--compress".into(),
        "none".into(),
        "-t".into(),
        "2".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let run = run_limited(name, &args, dir, limit);
    // Exit status 1 only for an input from which no record at all could be read.
    let no_record = run.stderr.contains("no record could be read from");
    assert_eq!(
        run.status,
        Some(i32::from(no_record)),
        "{name}: exit status {:?}; stderr: {}",
        run.status,
        run.stderr
    );
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("RUST_BACKTRACE"),
        "{name}: panic text on stderr: {}",
        run.stderr
    );
    assert!(
        run.peak_rss <= rss_limit,
        "{name}: peak RSS {} MiB over the {} MiB limit",
        run.peak_rss / MIB,
        rss_limit / MIB
    );
    let stats = stats(&out);
    let pages = read_pages(&out);
    let errors: Vec<Value> = std::fs::read_to_string(out.join("errors.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("errors.jsonl lines are JSON"))
        .collect();
    let o = Outcome {
        name: name.to_string(),
        stats,
        pages,
        errors,
        run,
    };
    assert_eq!(
        o.errors.len() as u64,
        o.total("errors") + o.total("repairs"),
        "{name}: errors.jsonl lines vs stats.json errors and repairs: {:?} / {}",
        o.errors,
        o.stats
    );
    // Every record read is extracted, skipped or failed in a worker (reader errors are not
    // records read).
    let record_errors = o.stats["errors"]["record"].as_u64().unwrap_or(0);
    assert_eq!(
        o.stats["records_read"].as_u64().unwrap(),
        o.stats["extracted"].as_u64().unwrap() + o.total("skipped") + o.total("errors")
            - record_errors,
        "{name}: records not accounted for: {}",
        o.stats
    );
    eprintln!(
        "{name}: {:.2}s, peak RSS {} MiB, {} pages, {} skipped, {} errors",
        o.run.elapsed.as_secs_f64(),
        o.run.peak_rss / MIB,
        o.pages.len(),
        o.total("skipped"),
        o.errors.len()
    );
    o
}

/// The pages of the JSONL shards (`*-NNNNN.jsonl`) in `dir`, by record id. (Not
/// `support::read_jsonl`, which would also read `errors.jsonl`.)
fn read_pages(dir: &Path) -> BTreeMap<String, Value> {
    let mut pages = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let is_shard = name
            .strip_suffix(".jsonl")
            .and_then(|stem| stem.rsplit_once('-'))
            .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !is_shard {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).expect("shard lines are JSON");
            pages.insert(v["id"].as_str().unwrap_or("").to_string(), v);
        }
    }
    pages
}

/// The three good pages of [`around`].
fn goods() -> Vec<String> {
    (1..=3).map(good_id).collect()
}

const BAD: &str = "<urn:uuid:bad>";

/// How the bad record of a case may be accounted for.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// Listed in errors.jsonl (and so counted in stats.json).
    Error,
    /// Counted under this skip reason.
    Skipped(&'static str),
    /// Extracted as a page.
    Page,
    /// Extracted as a page *and* listed in errors.jsonl (a record whose length was wrong).
    PageAndError,
    /// A page or an error: both are fine, but it must be one of them.
    PageOrError,
    /// A page, an error, or skipped as not HTML (junk bytes that look binary once decoded).
    PageErrorOrNotHtml,
}

fn check_bad(o: &Outcome, expect: Expect) {
    let page = o.has_page(BAD);
    let error = o.error_for(BAD).is_some();
    eprintln!(
        "{}: bad record: page={page} error={:?} skipped={:?}",
        o.name,
        o.error_for(BAD).and_then(|e| e["reason"].as_str()),
        o.stats["skipped"]
    );
    let ok = match expect {
        Expect::Error => error && !page,
        Expect::Skipped(reason) => o.skipped(reason) >= 1 && !page,
        Expect::Page => page && !error,
        Expect::PageAndError => page && error,
        Expect::PageOrError => page || error,
        Expect::PageErrorOrNotHtml => page || error || o.skipped("not_html") >= 1,
    };
    assert!(
        ok,
        "{}: bad record expected {expect:?}, got page={page} error={error}; errors {:?}; stats {}",
        o.name, o.errors, o.stats
    );
}

/// Runs `good 1, bad, good 2, good 3` (plain) and checks the good pages and the bad record.
fn case(dir: &Path, name: &str, bad: &[u8], expect: Expect) -> Outcome {
    let o = run_case(
        dir,
        name,
        &around(bad),
        &[],
        Duration::from_secs(30),
        RSS_LIMIT,
    );
    o.expect_pages(&goods());
    check_bad(&o, expect);
    o
}

// ------------------------------------------------------------------------------ cases

#[test]
fn truncated_gzip_members_at_many_offsets() {
    // The first six records of the sample: warcinfo, request, response (news), metadata,
    // request, response (forum); one gzip member each.
    let dir = tempdir();
    let gz = std::fs::read(sample()).unwrap();
    let members: Vec<(usize, usize)> = gzip_members(&gz).into_iter().take(6).collect();
    let file = &gz[..members[5].1];
    let ids: Vec<Option<String>> = members
        .iter()
        .map(|&(s, e)| {
            let raw = gunzip_all(&gz[s..e]);
            let text = String::from_utf8_lossy(&raw);
            let is_page = text.contains("WARC-Type: response");
            let id = text
                .lines()
                .find_map(|l| l.strip_prefix("WARC-Record-ID: "))
                .map(|s| s.trim().to_string());
            id.filter(|_| is_page)
        })
        .collect();
    assert_eq!(ids.iter().flatten().count(), 2, "two pages in the window");
    // Every member boundary and its neighbours, every byte of the first member's header and
    // of each member's trailer, and a stride through the rest.
    let mut offsets = BTreeSet::new();
    for &(s, e) in &members {
        for d in 0..12 {
            offsets.insert(s + d);
            offsets.insert(e.saturating_sub(d));
        }
    }
    offsets.extend((0..file.len()).step_by(53));
    offsets.retain(|&c| c <= file.len());
    let full = run_case(
        dir.path(),
        "uncut.warc.gz",
        file,
        &["-a", "plain"],
        Duration::from_secs(20),
        RSS_LIMIT,
    );
    assert!(full.errors.is_empty());
    let started = Instant::now();
    for &cut in &offsets {
        let name = format!("cut-{cut}.warc.gz");
        let o = run_case(
            dir.path(),
            &name,
            &file[..cut],
            &["-a", "plain"],
            Duration::from_secs(20),
            RSS_LIMIT,
        );
        let at_boundary = cut == 0 || members.iter().any(|&(_, e)| e == cut);
        for (k, &(_, end)) in members.iter().enumerate() {
            let Some(id) = &ids[k] else { continue };
            if cut >= end {
                assert!(o.has_page(id), "{name}: complete record {id} lost");
            }
        }
        // A cut page is kept with what is there, flagged truncated; any other page is the
        // whole page (a cut in a member's last bytes can leave its data complete, with only
        // the trailer missing).
        for (id, page) in &o.pages {
            if page["truncated"] == true {
                continue;
            }
            assert_eq!(
                page["text"], full.pages[id]["text"],
                "{name}: {id} differs from the uncut run"
            );
        }
        if at_boundary {
            assert!(o.errors.is_empty(), "{name}: {:?}", o.errors);
        } else {
            // Reported as an error or repair, or, when no record at all could be read, as a
            // failed input.
            let failed = o.run.stderr.contains("no record could be read");
            assert!(
                !o.errors.is_empty() || failed,
                "{name}: the cut was not reported"
            );
        }
    }
    eprintln!(
        "{} truncation offsets in {:.1}s",
        offsets.len(),
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn truncated_at_every_offset_in_process() {
    // Every offset (not a stride), through the library's reader: no panic, no hang, and every
    // complete record read.
    use warcsift::input::Input;
    use warcsift::record::{ReadEvent, ReaderOptions, RecordReader};
    let gz = std::fs::read(sample()).unwrap();
    let members: Vec<(usize, usize)> = gzip_members(&gz).into_iter().take(6).collect();
    let file = &gz[..members[5].1];
    for cut in 0..=file.len() {
        let input = Input::from_reader("cut", std::io::Cursor::new(file[..cut].to_vec())).unwrap();
        let mut records = 0usize;
        let mut errors = 0usize;
        for (n, event) in RecordReader::new(input, ReaderOptions::default()).enumerate() {
            assert!(n <= cut + 1, "cut {cut}: the reader does not end");
            match event {
                ReadEvent::Error { .. } => errors += 1,
                _ => records += 1,
            }
        }
        let complete = members.iter().filter(|&&(_, e)| e <= cut).count();
        assert!(records >= complete, "cut {cut}: {records} < {complete}");
        let at_boundary = cut == 0 || members.iter().any(|&(_, e)| e == cut);
        assert_eq!(errors == 0, at_boundary, "cut {cut}: {errors} errors");
    }
}

#[test]
fn wrong_content_length() {
    let dir = tempdir();
    let page = http("Content-Type: text/html\r\n", &good_html(99));
    let n = page.len() as u64;
    for (name, declared, expect) in [
        ("cl-larger-by-100", n + 100, Expect::PageAndError),
        ("cl-larger-by-5000", n + 5000, Expect::PageAndError),
        (
            "cl-larger-than-the-file",
            n + 50_000_000,
            Expect::PageAndError,
        ),
        ("cl-smaller-by-50", n - 50, Expect::PageAndError),
        ("cl-smaller-by-most", 30, Expect::Error),
        ("cl-zero", 0, Expect::Error),
    ] {
        let bad = record_declaring("response", "bad", &[], declared, &page);
        let o = case(dir.path(), name, &bad, expect);
        if declared > n {
            // The records swallowed by the block are read again: nothing else fails.
            assert_eq!(o.errors.len(), 1, "{name}: {:?}", o.errors);
            let text = o.pages[BAD]["text"].as_str().unwrap_or("");
            assert!(!text.contains("WARC"), "{name}: block not cut: {text}");
        }
    }
    // A request record (skipped by type) that swallows the next response.
    let bad = record_declaring(
        "request",
        "bad",
        &[],
        400,
        b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n",
    );
    let o = case(dir.path(), "request-cl-larger", &bad, Expect::Error);
    assert_eq!(o.skipped("request"), 1);
    // The same, one gzip member per record, as Common Crawl writes them.
    let bad = record_declaring("response", "bad", &[], n + 300, &page);
    let gz: Vec<u8> = [good(1), bad, good(2), good(3)]
        .iter()
        .flat_map(|r| gzip(r))
        .collect();
    let o = run_case(
        dir.path(),
        "cl-larger-gz.warc.gz",
        &gz,
        &[],
        Duration::from_secs(30),
        RSS_LIMIT,
    );
    o.expect_pages(&goods());
    check_bad(&o, Expect::PageAndError);
}

#[test]
fn missing_blank_lines() {
    let dir = tempdir();
    // After the WARC header: the HTTP head is read as more header fields.
    let mut bad = response("bad", "Content-Type: text/html\r\n", &good_html(9));
    let at = bad.windows(9).position(|w| w == b"\r\n\r\nHTTP/").unwrap();
    bad.drain(at..at + 2);
    case(
        dir.path(),
        "no-blank-after-warc-header",
        &bad,
        Expect::Error,
    );
    // After the HTTP head: the HTML is read as header lines (a page with little or no text).
    let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n".to_vec();
    block.extend_from_slice(&good_html(9));
    let bad = record("response", "bad", &[], &block);
    case(
        dir.path(),
        "no-blank-after-http-head",
        &bad,
        Expect::PageOrError,
    );
}

#[test]
fn chunked_bodies_with_bad_sizes() {
    let dir = tempdir();
    let html = good_html(7);
    let (a, b) = html.split_at(40);
    let te = "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n";
    let chunk = |size: &str, data: &[u8]| {
        let mut v = format!("{size}\r\n").into_bytes();
        v.extend_from_slice(data);
        v.extend_from_slice(b"\r\n");
        v
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("not-hex", [chunk("zz", a), chunk("0", b"")].concat()),
        ("size-too-large", chunk("fffffff", &html)),
        ("size-overflows", chunk("ffffffffffffffffffffffff", &html)),
        ("negative", chunk("-5", &html)),
        (
            "bad-second-size",
            [chunk("28", a), chunk("x1", b), chunk("0", b"")].concat(),
        ),
        (
            "sizes-too-small",
            [chunk("3", a), chunk("3", b), chunk("0", b"")].concat(),
        ),
        ("no-last-chunk", [chunk("28", a)].concat()),
    ];
    for (name, body) in cases {
        let bad = response("bad", te, &body);
        case(
            dir.path(),
            &format!("chunked-{name}"),
            &bad,
            Expect::PageOrError,
        );
    }
}

#[test]
fn content_encoding_that_lies() {
    let dir = tempdir();
    let html = good_html(5);
    let mut junk_gzip = vec![0x1f, 0x8b, 0x08, 0x00];
    junk_gzip.extend((0..2000u32).map(|i| (i * 7919 % 251) as u8));
    let cases: Vec<(&str, &str, Vec<u8>, Expect)> = vec![
        ("gzip-but-plain", "gzip", html.clone(), Expect::Page),
        (
            "gzip-magic-then-junk",
            "gzip",
            junk_gzip.clone(),
            Expect::PageOrError,
        ),
        ("deflate-but-plain", "deflate", html.clone(), Expect::Page),
        ("br-but-plain", "br", html.clone(), Expect::Page),
        (
            "br-but-junk",
            "br",
            junk_gzip[4..].to_vec(),
            Expect::PageErrorOrNotHtml,
        ),
        ("zstd-but-gzip", "zstd", gzip(&html), Expect::Page),
        ("br-but-gzip", "br", gzip(&html), Expect::Page),
        (
            "gzip-twice-but-once",
            "gzip, gzip",
            gzip(&html),
            Expect::Page,
        ),
        ("unknown-coding", "compress", html.clone(), Expect::Page),
        (
            "truncated-gzip",
            "gzip",
            gzip(&html)[..60].to_vec(),
            Expect::PageOrError,
        ),
    ];
    for (name, coding, body, expect) in cases {
        let headers = format!("Content-Type: text/html\r\nContent-Encoding: {coding}\r\n");
        let bad = response("bad", &headers, &body);
        let o = case(dir.path(), &format!("ce-{name}"), &bad, expect);
        if expect == Expect::Page && name != "unknown-coding" {
            let text = o.pages[BAD]["text"].as_str().unwrap_or("");
            assert!(text.contains("harbour ferry"), "ce-{name}: {text:?}");
        }
    }
}

/// A payload that is binary only once its content coding is undone (a gzip-encoded PNG
/// labelled text/html): the record reader cannot see through the coding, so the worker looks
/// at the decoded bytes and skips it as not HTML.
#[test]
fn binary_behind_a_content_coding_is_skipped() {
    let dir = tempdir();
    let png = [
        &b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"[..],
        &(0..3000u32)
            .map(|i| (i * 31 % 256) as u8)
            .collect::<Vec<_>>(),
    ]
    .concat();
    let bad = response(
        "bad",
        "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
        &gzip(&png),
    );
    case(
        dir.path(),
        "gzip-encoded-png",
        &bad,
        Expect::Skipped("not_html"),
    );
}

#[test]
fn decompression_bombs_stop_at_the_payload_limit() {
    let dir = tempdir();
    let big = 200 << 20; // 200 MiB of zeros, over the 64 MiB default limit.
    let gz = gzip_zeros(big);
    let zst = zstd::encode_all(std::io::Read::take(std::io::repeat(0), big as u64), 3).unwrap();
    let double = gzip(&gz);
    let cases: Vec<(&str, &str, Vec<u8>)> = vec![
        ("gzip", "gzip", gz),
        ("zstd", "zstd", zst),
        ("gzip-of-gzip", "gzip, gzip", double),
    ];
    for (name, coding, body) in cases {
        let headers = format!("Content-Type: text/html\r\nContent-Encoding: {coding}\r\n");
        let bad = response("bad", &headers, &body);
        let o = case(dir.path(), &format!("bomb-{name}"), &bad, Expect::Error);
        let reason = o.error_for(BAD).unwrap()["reason"].as_str().unwrap_or("");
        assert!(reason.contains("exceeds"), "bomb-{name}: {reason}");
    }
    // A smaller limit is enforced too.
    let bomb = response(
        "bad",
        "Content-Type: text/html\r\nContent-Encoding: gzip\r\n",
        &gzip_zeros(4 << 20),
    );
    let o = run_case(
        dir.path(),
        "bomb-small-limit",
        &around(&bomb),
        &["--max-payload-bytes", "1000000"],
        Duration::from_secs(30),
        RSS_LIMIT,
    );
    o.expect_pages(&goods());
    check_bad(&o, Expect::Error);
}

#[test]
fn deep_nesting_and_tag_floods() {
    let dir = tempdir();
    let n = 1_000_000;
    let pages: Vec<(&str, String)> = vec![
        (
            "nested-divs",
            format!(
                "<html><body>{}deep text{}</body></html>",
                "<div>".repeat(n),
                "</div>".repeat(n)
            ),
        ),
        (
            "nested-custom",
            format!("<body>{}deep text", "<x-a class=c>".repeat(n)),
        ),
        (
            "nested-mixed",
            format!(
                "<body>{}deep text",
                "<div><span><b><table><td><ul><li>".repeat(n / 7)
            ),
        ),
        (
            "stray-end-tags",
            format!("<body><p>text</p>{}", "</div>".repeat(n)),
        ),
        (
            "open-tags-without-gt",
            format!("<body><p>text</p>{}", "<a".repeat(n)),
        ),
        (
            "open-tags-with-space",
            format!("<body><p>text</p>{}", "<a ".repeat(n)),
        ),
        (
            "unclosed-quotes",
            format!("<body><p>text</p>{}", "<a href='x ".repeat(n / 4)),
        ),
        (
            "comment-openers",
            format!("<body><p>text</p>{}", "<!-".repeat(n)),
        ),
        (
            "end-tag-openers",
            format!("<body><p>text</p><script>{}", "</scrip".repeat(n / 2)),
        ),
        ("entities", format!("<body><p>{}</p>", "&amp".repeat(n))),
        ("lone-lt", format!("<body><p>{}</p>", "< ".repeat(n))),
        (
            "many-attributes",
            format!("<body><div {}>text</div>", "a=b ".repeat(n)),
        ),
        (
            "many-paragraphs",
            format!("<body>{}", "<p>word word</p>\n".repeat(n / 4)),
        ),
    ];
    for (name, html) in pages {
        let bad = response("bad", "Content-Type: text/html\r\n", html.as_bytes());
        let o = run_case(
            dir.path(),
            name,
            &around(&bad),
            &[],
            Duration::from_secs(60),
            RSS_LIMIT,
        );
        o.expect_pages(&goods());
        check_bad(&o, Expect::Page);
    }
}

#[test]
fn hundred_megabyte_one_line_page() {
    let dir = tempdir();
    let target: usize = if cfg!(debug_assertions) {
        10 << 20
    } else {
        100 << 20
    };
    let mut html = b"<html><head><title>Huge</title></head><body>".to_vec();
    let para = b"<p>A long paragraph of ordinary prose on one single line, repeated \
                 until the page is a hundred megabytes long, with no newline at all.</p>";
    while html.len() < target {
        html.extend_from_slice(para);
    }
    html.extend_from_slice(b"</body></html>");
    let bad = response("bad", "Content-Type: text/html\r\n", &html);
    drop(html);
    let warc = around(&bad);
    drop(bad);
    let o = run_case(
        dir.path(),
        "one-line-100mb",
        &warc,
        &["--max-record-bytes", "200000000"],
        Duration::from_secs(240),
        1536 * MIB,
    );
    o.expect_pages(&goods());
    check_bad(&o, Expect::Page);
    // With the default record limit the same record is skipped, and costs no memory.
    let o = run_case(
        dir.path(),
        "one-line-100mb-default-limit",
        &warc,
        &[],
        Duration::from_secs(60),
        RSS_LIMIT,
    );
    o.expect_pages(&goods());
    if !cfg!(debug_assertions) {
        assert_eq!(o.skipped("too_large"), 1, "{}", o.stats);
    }
}

#[test]
fn unterminated_constructs() {
    let dir = tempdir();
    let cases: [(&str, &[u8]); 6] = [
        (
            "comment",
            b"<body><p>Visible before.</p><!-- never closed <p>hidden</p>",
        ),
        (
            "script",
            b"<body><p>Visible before.</p><script>var a = '</div>'; never closed",
        ),
        (
            "attribute-quote",
            b"<body><p>Visible before.</p><a href=\"never closed>text<p>more",
        ),
        (
            "cdata",
            b"<body><p>Visible before.</p><![CDATA[ never closed",
        ),
        ("tag-at-eof", b"<body><p>Visible before.</p><div class=x"),
        ("title", b"<html><head><title>never closed <p>x</p>"),
    ];
    for (name, html) in cases {
        let bad = response("bad", "Content-Type: text/html\r\n", html);
        case(
            dir.path(),
            &format!("unterminated-{name}"),
            &bad,
            Expect::Page,
        );
    }
}

#[test]
fn bytes_that_are_not_clean_text() {
    let dir = tempdir();
    let mut utf16le = vec![0xff, 0xfe];
    let mut utf16be = vec![0xfe, 0xff];
    for u in "<html><body><p>Grüße aus Zürich, 日本語のテキスト.</p></body></html>".encode_utf16()
    {
        utf16le.extend_from_slice(&u.to_le_bytes());
        utf16be.extend_from_slice(&u.to_be_bytes());
    }
    let png: Vec<u8> = [
        &b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06"[..],
        &(0..3000u32)
            .map(|i| (i * 31 % 256) as u8)
            .collect::<Vec<_>>(),
    ]
    .concat();
    let noise: Vec<u8> = (0..4000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let png_bytes = png.clone();
    let cases: Vec<(&str, &str, Vec<u8>, Expect)> = vec![
        (
            "nul-bytes",
            "text/html",
            b"<body><p>before\x00after</p>\x00\x00<p>x\x00</p>".to_vec(),
            Expect::Page,
        ),
        (
            "invalid-utf8",
            "text/html; charset=utf-8",
            b"<body><p>bad \xff\xfe \xc3 \xe2\x82 \xed\xa0\x80 \xf4\x90\x80\x80 end</p>".to_vec(),
            Expect::Page,
        ),
        (
            "mixed-utf8-latin1",
            "text/html",
            "<body><p>caf\u{e9} na\u{ef}ve </p><p>caf"
                .bytes()
                .chain(*b"\xe9 cr\xe8me</p>")
                .collect(),
            Expect::Page,
        ),
        ("utf16le-bom", "text/html", utf16le, Expect::Page),
        ("utf16be-bom", "text/html", utf16be, Expect::Page),
        (
            "utf16-declared-no-bom",
            "text/html; charset=utf-16",
            good_html(4),
            Expect::Page,
        ),
        (
            "png-labelled-html",
            "text/html",
            png.clone(),
            Expect::Skipped("not_html"),
        ),
        (
            "noise-labelled-html",
            "text/html",
            noise,
            Expect::Skipped("not_html"),
        ),
        (
            "png-undeclared",
            "",
            png.clone(),
            Expect::Skipped("not_html"),
        ),
    ];
    // A resource record (no HTTP envelope) labelled text/html that is a PNG.
    case(
        dir.path(),
        "png-resource",
        &record(
            "resource",
            "bad",
            &[("Content-Type", "text/html")],
            &png_bytes,
        ),
        Expect::Skipped("not_html"),
    );
    for (name, ct, body, expect) in cases {
        let headers = if ct.is_empty() {
            String::new()
        } else {
            format!("Content-Type: {ct}\r\n")
        };
        let bad = response("bad", &headers, &body);
        let o = case(dir.path(), name, &bad, expect);
        if expect == Expect::Page {
            let text = o.pages[BAD]["text"].as_str().unwrap_or("");
            assert!(!text.contains('\u{0}'), "{name}: NUL in the text: {text:?}");
        }
        if name.starts_with("utf16") && name.ends_with("-bom") && !name.contains("no-bom") {
            let page = &o.pages[BAD];
            assert!(
                page["charset"].as_str().unwrap_or("").starts_with("UTF-16"),
                "{name}: {page}"
            );
        }
    }
}

#[test]
fn empty_records_and_inputs() {
    let dir = tempdir();
    case(
        dir.path(),
        "zero-byte-response",
        &record("response", "bad", &[], b""),
        Expect::Skipped("not_http_response"),
    );
    case(
        dir.path(),
        "zero-byte-resource",
        &record("resource", "bad", &[("Content-Type", "text/html")], b""),
        Expect::Page,
    );
    case(
        dir.path(),
        "zero-byte-http-body",
        &response("bad", "Content-Type: text/html\r\n", b""),
        Expect::Page,
    );
    // Empty gzip members between records, and a zero-byte file.
    let empty = gzip(b"");
    let gz: Vec<u8> = [gzip(&good(1)), empty.clone(), empty.clone(), gzip(&good(2))].concat();
    let o = run_case(
        dir.path(),
        "empty-members.warc.gz",
        &gz,
        &[],
        Duration::from_secs(20),
        RSS_LIMIT,
    );
    o.expect_pages(&[good_id(1), good_id(2)]);
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let o = run_case(
        dir.path(),
        "zero-bytes.warc",
        b"",
        &[],
        Duration::from_secs(20),
        RSS_LIMIT,
    );
    assert_eq!(o.stats["records_read"], 0);
}

#[test]
fn input_ending_inside_a_header() {
    let dir = tempdir();
    for cut in [
        &b"WARC/1.0\r\nWARC-Type: resp"[..],
        b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 10\r\n",
        b"WARC/1",
    ] {
        let warc = [good(1), good(2), cut.to_vec()].concat();
        let name = format!("ends-in-header-{}", cut.len());
        let o = run_case(
            dir.path(),
            &name,
            &warc,
            &[],
            Duration::from_secs(20),
            RSS_LIMIT,
        );
        o.expect_pages(&[good_id(1), good_id(2)]);
        assert_eq!(o.errors.len(), 1, "{name}: {:?}", o.errors);
        // And the same, gzip-compressed, cut inside the last member.
        let gz = [gzip(&good(1)), gzip(&good(2)), gzip(cut)].concat();
        let name = format!("ends-in-header-{}.warc.gz", cut.len());
        let o = run_case(
            dir.path(),
            &name,
            &gz[..gz.len() - 3],
            &[],
            Duration::from_secs(20),
            RSS_LIMIT,
        );
        o.expect_pages(&[good_id(1), good_id(2)]);
        assert!(!o.errors.is_empty(), "{name}");
    }
}

#[test]
fn header_limits_are_enforced() {
    let dir = tempdir();
    let many_fields = "X-F: v\r\n".repeat(5000);
    let fields: Vec<(&str, &str)> = many_fields
        .lines()
        .map(|l| l.split_once(": ").unwrap())
        .collect();
    let page = http("Content-Type: text/html\r\n", &good_html(8));
    case(
        dir.path(),
        "warc-header-5000-fields",
        &record("response", "bad", &fields, &page),
        Expect::Error,
    );
    let long = "x".repeat(1 << 20);
    case(
        dir.path(),
        "warc-header-1mb-line",
        &record("response", "bad", &[("X-Long", &long)], &page),
        Expect::Error,
    );
    case(
        dir.path(),
        "http-10000-headers",
        &response("bad", &"X-H: v\r\n".repeat(10_000), &good_html(8)),
        Expect::Error,
    );
    case(
        dir.path(),
        "http-100kb-header-line",
        &response(
            "bad",
            &format!("X-H: {}\r\n", "y".repeat(100_000)),
            &good_html(8),
        ),
        Expect::Error,
    );
    case(
        dir.path(),
        "content-length-not-a-number",
        &[
            b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:bad>\r\n\
              Content-Length: 12abc\r\n\r\n"
                .to_vec(),
            page.clone(),
            b"\r\n\r\n".to_vec(),
        ]
        .concat(),
        Expect::Error,
    );
}

// ------------------------------------------------------------------------------ linearity

/// Seconds for `f` (best of a few runs, so that one slow run on a busy machine does not count).
fn best_time(mut f: impl FnMut()) -> f64 {
    let runs = if cfg!(debug_assertions) { 2 } else { 5 };
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Asserts that `work` over `make(10 n)` costs well under 100× `work` over `make(n)`: linear is
/// 10× (up to ~30× when the larger input falls out of the CPU caches), quadratic 100×. 10×
/// rather than 4× leaves room for cache effects on a shared machine; retried, since timing is
/// noisy there.
fn assert_linear(name: &str, n: usize, make: impl Fn(usize) -> String, work: impl Fn(&str)) {
    let small = make(n);
    let large = make(10 * n);
    let mut ratios = Vec::new();
    for _ in 0..3 {
        let t1 = best_time(|| work(&small)).max(1e-4);
        let t10 = best_time(|| work(&large));
        let ratio = t10 / t1;
        ratios.push(ratio);
        eprintln!(
            "{name}: {:.2} ms → {:.2} ms ({ratio:.1}x)",
            t1 * 1e3,
            t10 * 1e3
        );
        if ratio < 50.0 {
            return;
        }
    }
    panic!("{name}: 10x the input cost {ratios:?}x the time: not linear");
}

#[test]
fn tokenizer_and_features_stay_linear() {
    use warcsift::tokenize::{decode_text, Tokenizer};
    let tokens = |s: &str| {
        let mut n = 0usize;
        for t in Tokenizer::new(s) {
            n += t.attrs(s).count() + 1;
            if t.kind == warcsift::tokenize::TokenKind::Text {
                n += decode_text(t.raw(s)).len();
            }
        }
        std::hint::black_box(n);
    };
    let doc = |s: &str| {
        std::hint::black_box(warcsift::doc::Doc::parse(s).segments.len());
    };
    let n = 40_000;
    type Make = fn(usize) -> String;
    let patterns: Vec<(&str, Make)> = vec![
        ("<a without >", |k| "<a".repeat(k)),
        ("<a space without >", |k| "<a ".repeat(k)),
        ("text then <a", |k| format!("x{}", "<a b".repeat(k))),
        ("unclosed quotes", |k| "<a b='".repeat(k)),
        ("quotes without =", |k| "<a \" ' ".repeat(k)),
        ("spaces before quotes", |k| {
            format!("<a {}>", "    \"".repeat(k))
        }),
        ("end tags without >", |k| "</a".repeat(k)),
        ("bogus comments", |k| "<!x".repeat(k)),
        ("comment openers", |k| "<!-".repeat(k)),
        ("unclosed comment", |k| format!("<!--{}", "-- >".repeat(k))),
        ("script end-tag prefixes", |k| {
            format!("<script>{}", "</scrip".repeat(k))
        }),
        ("title end-tag prefixes", |k| {
            format!("<title>{}", "</".repeat(k))
        }),
        ("cdata", |k| "<![CDATA[".repeat(k)),
        ("processing", |k| "<?".repeat(k)),
        ("lone <", |k| "< ".repeat(k)),
        ("entities", |k| "&amp".repeat(k)),
        ("numeric entities", |k| "&#".repeat(k)),
        ("nested divs", |k| "<div>".repeat(k)),
        ("nested custom", |k| "<x-y>".repeat(k)),
        ("stray end tags", |k| "</div>".repeat(k)),
        ("implied ends", |k| {
            "<li><p><td><tr><dt><dd><option><h1>".repeat(k / 4)
        }),
        ("many attributes", |k| format!("<div {}>", "a=b ".repeat(k))),
        ("long tag name", |k| {
            format!("<{}>x</{}>", "a".repeat(k), "a".repeat(k))
        }),
        ("lines", |k| "<p>x</p>\n".repeat(k)),
    ];
    for (name, make) in patterns {
        assert_linear(&format!("tokenize: {name}"), n, make, tokens);
        assert_linear(&format!("doc: {name}"), n, make, doc);
    }
}

// ------------------------------------------------------------------------------ fuzz regressions

/// The minimized reproducers the fuzzers found, each run through the function its target
/// calls. Files live in `tests/fuzz-regressions/<target>/`.
#[test]
fn fuzz_regressions() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut ran = std::collections::BTreeMap::new();
    for target in std::fs::read_dir(&root).expect("tests/fuzz-regressions is in the repository") {
        let target = target.unwrap().path();
        if !target.is_dir() {
            continue;
        }
        let name = target.file_name().unwrap().to_string_lossy().into_owned();
        for file in std::fs::read_dir(&target).unwrap() {
            let file = file.unwrap().path();
            let data = std::fs::read(&file).unwrap();
            *ran.entry(name.clone()).or_insert(0) += 1;
            let started = Instant::now();
            run_fuzz_target(&name, &data);
            let secs = started.elapsed().as_secs_f64();
            assert!(
                secs < 10.0 * f64::from(slow_factor()),
                "{}: {secs:.1}s",
                file.display()
            );
        }
    }
    // Every fuzz target has its inputs here.
    for t in [
        "warc_reader",
        "http_parser",
        "charset",
        "tokenizer",
        "extract_methods",
        "pipeline_record",
    ] {
        assert!(
            ran.get(t).copied().unwrap_or(0) > 0,
            "no inputs for {t}: {ran:?}"
        );
    }
}

/// One gzip member per record (split before every `WARC/1.` that starts a line) and the
/// compressed offsets where members end, as the `warc_reader` fuzz target builds them.
fn gzip_records(data: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut starts = vec![0];
    for i in 1..data.len().saturating_sub(6) {
        if data[i - 1] == b'\n' && data[i..].starts_with(b"WARC/1.") {
            starts.push(i);
        }
    }
    starts.push(data.len());
    let mut out = Vec::new();
    let mut ends = Vec::new();
    for w in starts.windows(2) {
        out.extend_from_slice(&gzip(&data[w[0]..w[1]]));
        ends.push(out.len());
    }
    (out, ends)
}

/// What each fuzz target does with one input (kept in step with `fuzz/fuzz_targets/`).
fn run_fuzz_target(target: &str, data: &[u8]) {
    use warcsift::{charset, extract, http, input::Input, record};
    match target {
        "warc_reader" => {
            let [mode, p0, p1, rest @ ..] = data else {
                return;
            };
            let at = usize::from(*p0) << 8 | usize::from(*p1);
            let (bytes, cut_inside) = match mode & 3 {
                0 => (rest.to_vec(), false),
                1 => (gzip_records(rest).0, false),
                2 => {
                    let (mut gz, ends) = gzip_records(rest);
                    let cut = at % (gz.len() + 1);
                    gz.truncate(cut);
                    (gz, cut > 0 && !ends.contains(&cut))
                }
                _ => {
                    let (mut gz, _) = gzip_records(rest);
                    if !gz.is_empty() {
                        let n = gz.len();
                        gz[at % n] ^= p1 | 1;
                    }
                    (gz, false)
                }
            };
            let opts = if mode & 0x80 != 0 {
                record::ReaderOptions::default()
                    .with_max_record_bytes(4096)
                    .with_max_header_bytes(512)
                    .with_max_header_count(16)
            } else {
                record::ReaderOptions::default()
            };
            let limit = bytes.len() + 1;
            let input = Input::from_reader("f", std::io::Cursor::new(bytes)).unwrap();
            let events: Vec<_> = record::RecordReader::new(input, opts)
                .take(limit + 1)
                .collect();
            assert!(events.len() <= limit, "the reader must make progress");
            let errors = events
                .iter()
                .filter(|e| matches!(e, record::ReadEvent::Error { .. }))
                .count();
            assert!(
                !cut_inside || errors > 0,
                "a truncated gzip member went unreported"
            );
        }
        "http_parser" => {
            let limits = http::Limits {
                max_decoded_bytes: 1 << 20,
                max_headers: 32,
                max_header_bytes: 4096,
            };
            if let Ok(r) = http::parse_response(data, &limits) {
                assert!(r.body.len() <= limits.max_decoded_bytes.max(data.len()));
            }
        }
        "charset" => {
            let _ = charset::decode(data, Some("utf-8"), Some("http://a.jp/"));
            let _ = charset::decode(data, None, None);
            assert!(charset::detector_input_agrees(data, Some("http://a.jp/")));
            assert!(charset::detector_input_agrees(data, None));
        }
        "tokenizer" | "extract_methods" | "pipeline_record" => {
            let src = String::from_utf8_lossy(data);
            for m in extract::registry() {
                let _ = extract::extract_text(&src, m.as_ref());
                let doc = warcsift::doc::Doc::parse(&src);
                let _ = m.explain(&doc);
            }
        }
        other => panic!("unknown fuzz target folder {other}"),
    }
}
