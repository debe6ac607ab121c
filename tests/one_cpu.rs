//! A process that may run on one CPU only (`taskset -c 0`, a cpuset, a Slurm task with
//! `--cpus-per-task=1`) reads, extracts and writes each input on one thread. It must write
//! exactly what the threaded pipeline writes: the same shards, errors and counts, and the
//! same failure under `--strict`.

mod support;

use clap::Parser;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use support::*;
use warcsift::pipeline::{self, Config, PipelineError};

/// `extract`'s arguments, parsed as the command line would be.
#[derive(Parser)]
struct Extract {
    #[command(flatten)]
    args: warcsift::cli::ExtractArgs,
}

fn config(args: &[&str], cores: usize) -> Config {
    let mut cfg = Extract::try_parse_from(std::iter::once("extract").chain(args.iter().copied()))
        .expect("arguments parse")
        .args
        .resolve()
        .expect("arguments resolve");
    cfg.cores = cores;
    cfg
}

fn warc_record(kind: &str, id: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: http://example.com/{id}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn page(n: usize) -> Vec<u8> {
    let body = format!(
        "<html><head><title>Page {n}</title></head><body><nav><a href=/>Home</a></nav>\
         <article><h1>Report number {n}</h1><p>{}</p></article></body></html>",
        "The committee met on Tuesday to discuss the budget for the coming year. "
            .repeat(5 + n % 7)
    );
    let mut http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    http.extend_from_slice(body.as_bytes());
    warc_record("response", &format!("{n:08}"), &http)
}

/// Good pages with bad records among them: garbage between records, a response whose
/// status line has no status code, and a non-HTML payload.
fn hostile_warc() -> Vec<u8> {
    let mut w = Vec::new();
    for n in 0..60 {
        w.extend(page(n));
        match n % 20 {
            3 => w.extend_from_slice(b"garbage that is no WARC record at all\r\n\r\n"),
            9 => w.extend(warc_record(
                "response",
                &format!("bad-status-{n}"),
                b"HTTP/1.1 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>",
            )),
            14 => w.extend(warc_record(
                "response",
                &format!("png-{n}"),
                b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
            )),
            _ => {}
        }
    }
    w
}

/// Every file under `dir` but the timings of `stats.json`, by path.
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let bytes = std::fs::read(&path).unwrap();
            let bytes = if name.ends_with(".json") && bytes.starts_with(b"{") {
                without_timings(&bytes)
            } else {
                bytes
            };
            files.insert(name, bytes);
        }
    }
    files
}

/// A stats (or marker) JSON object without the fields that measure time.
fn without_timings(json: &[u8]) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_slice(json).expect("JSON");
    fn strip(v: &mut serde_json::Value) {
        if let Some(map) = v.as_object_mut() {
            map.retain(|k, _| {
                !(k.contains("seconds") || k.ends_with("_per_second") || k == "finished_at")
            });
            map.values_mut().for_each(strip);
        }
    }
    strip(&mut v);
    serde_json::to_vec_pretty(&v).unwrap()
}

fn run(input: &Path, out: &Path, extra: &[&str], cores: usize) -> Result<(), PipelineError> {
    let mut args = vec![input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"];
    args.extend_from_slice(extra);
    pipeline::run(&config(&args, cores)).map(|_| ())
}

#[test]
fn one_cpu_writes_what_the_threads_write() {
    let dir = tempdir();
    let hostile = dir.path().join("hostile.warc");
    std::fs::File::create(&hostile)
        .unwrap()
        .write_all(&hostile_warc())
        .unwrap();
    for (input, extra) in [
        (sample(), vec!["--compress", "zstd"]),
        (hostile.clone(), vec!["--compress", "none"]),
        (
            hostile.clone(),
            vec!["--format", "wet", "--compress", "gzip"],
        ),
    ] {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let mut seen = Vec::new();
        for (threads, cores) in [("1", 1), ("1", 2), ("2", 2)] {
            let out = dir
                .path()
                .join(format!("{name}-{}-t{threads}-c{cores}", extra[1]));
            let mut args = extra.clone();
            args.extend(["-t", threads]);
            run(&input, &out, &args, cores).expect("the run succeeds");
            seen.push((format!("-t {threads} on {cores} CPUs"), outputs(&out)));
        }
        let (first, want) = &seen[0];
        let stats: serde_json::Value = serde_json::from_slice(&want["stats.json"]).unwrap();
        assert!(stats["extracted"].as_u64().unwrap() > 0, "{name}: {stats}");
        if input == hostile {
            assert!(
                stats["errors"]["record"].as_u64().unwrap_or(0) > 0
                    && stats["errors"]["http"].as_u64().unwrap_or(0) > 0
                    && stats["skipped"]["not_html"].as_u64().unwrap_or(0) > 0,
                "the hostile input has bad records of each kind: {stats}"
            );
        }
        for (how, got) in &seen[1..] {
            assert_eq!(
                want.keys().collect::<Vec<_>>(),
                got.keys().collect::<Vec<_>>(),
                "{name}: files of {first} and {how}"
            );
            for (file, bytes) in want {
                assert!(
                    got[file] == *bytes,
                    "{name}: {file} differs between {first} and {how}"
                );
            }
        }
    }
}

#[test]
fn one_cpu_stops_at_the_first_bad_record_under_strict() {
    let dir = tempdir();
    let hostile = dir.path().join("hostile.warc");
    std::fs::write(&hostile, hostile_warc()).unwrap();
    let mut messages = Vec::new();
    for cores in [1, 2] {
        let out = dir.path().join(format!("strict-{cores}"));
        let err = run(&hostile, &out, &["--strict", "-t", "1"], cores)
            .expect_err("--strict fails on the first bad record");
        assert!(matches!(err, PipelineError::Strict { .. }), "{err}");
        messages.push(err.to_string());
    }
    assert_eq!(messages[0], messages[1]);
}

/// The real binary under `taskset -c 0` (when the machine has it): the process sees one CPU
/// and takes the one-thread path; its shards are those of a run on every CPU.
#[test]
fn pinned_to_one_cpu_the_binary_writes_the_same_shards() {
    let pinned_ok = std::process::Command::new("taskset")
        .args(["-c", "0", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !pinned_ok {
        eprintln!("SKIP: taskset is missing or cannot pin to CPU 0");
        return;
    }
    let dir = tempdir();
    let sample = sample();
    let (pinned, free) = (dir.path().join("pinned"), dir.path().join("free"));
    let status = std::process::Command::new("taskset")
        .args(["-c", "0", bin(), "extract"])
        .arg(&sample)
        .args(["-o", pinned.to_str().unwrap(), "-q", "-t", "1"])
        .status()
        .expect("run warcsift under taskset");
    assert!(status.success());
    let (ok, _, stderr) = warcsift(&[
        "extract",
        sample.to_str().unwrap(),
        "-o",
        free.to_str().unwrap(),
        "-q",
        "-t",
        "2",
    ]);
    assert!(ok, "{stderr}");
    assert_eq!(outputs(&pinned), outputs(&free));
}
