//! Integration tests: the real `warcsift` binary on real WARC files, in every input form,
//! with every output format read back by an independent reader.

mod support;

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use support::*;

/// The pages of a JSONL output folder, keyed by record id: (url, title, text, charset).
fn pages_by_id(dir: &Path) -> BTreeMap<String, (String, Option<String>, String, String)> {
    read_jsonl(dir)
        .into_iter()
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                (
                    v["url"].as_str().unwrap().to_string(),
                    // The sample's expected title is the <title> tag: `html_title`
                    // (`title` is the headline, docs/corpus.md).
                    v["html_title"].as_str().map(str::to_string),
                    v["text"].as_str().unwrap().to_string(),
                    v["charset"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect()
}

/// Run `extract` (default method, uncompressed JSONL) on `input`, fed `stdin` when given, and
/// read the pages back.
fn extract_pages(
    input: &str,
    stdin: Option<&Path>,
    out: &Path,
) -> BTreeMap<String, (String, Option<String>, String, String)> {
    let mut cmd = Command::new(bin());
    cmd.args([
        "extract",
        input,
        "-o",
        out.to_str().unwrap(),
        "--compress",
        "none",
        "-q",
    ]);
    if let Some(p) = stdin {
        cmd.stdin(std::fs::File::open(p).unwrap());
    }
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{input}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    pages_by_id(out)
}

#[test]
fn sample_counts_match_the_input() {
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "-a",
        "plain",
    ]);
    assert!(ok, "{err}");
    let expected = expected();
    let stats = stats(out.path());
    let counts = &expected["counts"];
    assert_eq!(stats["records_read"], counts["records"]);
    assert_eq!(stats["extracted"], counts["pages_kept"]);
    let by_type: u64 = stats["page_types"]
        .as_object()
        .map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
    assert_eq!(Some(by_type), stats["extracted"].as_u64(), "{stats}");
    assert_eq!(stats["extracted_truncated"], counts["truncated"]);
    for (reason, n) in counts["skipped"].as_object().unwrap() {
        assert_eq!(&stats["skipped"][reason], n, "skipped {reason}");
    }
    assert_eq!(stats["errors"], serde_json::json!({}));
    assert!(err.contains("14 pages extracted"), "summary line: {err}");
}

#[test]
fn every_sample_page_decodes_and_keeps_its_text() {
    // With `plain` nothing is removed, so every sentence the sample's author marked as main
    // content must be there, correctly decoded (windows-1252, Shift_JIS, wrong declaration,
    // chunked and gzip payloads).
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "-a",
        "plain",
    ]);
    assert!(ok, "{err}");
    let got = pages_by_id(out.path());
    for page in expected()["pages"].as_array().unwrap() {
        let id = page["record_id"].as_str().unwrap();
        let (url, title, text, charset) = got
            .get(id)
            .unwrap_or_else(|| panic!("page {} missing", page["name"]));
        assert_eq!(url, page["url"].as_str().unwrap());
        let text = collapse(text);
        for must in page["must_contain"].as_array().unwrap() {
            let must = collapse(must.as_str().unwrap());
            assert!(text.contains(&must), "{}: missing {must:?}", page["name"]);
        }
        if let Some(t) = page["title"].as_str() {
            assert_eq!(title.as_deref(), Some(t));
        }
        if let Some(c) = page["charset"].as_str() {
            assert!(
                charset.eq_ignore_ascii_case(c),
                "{}: charset {charset} vs {c}",
                page["name"]
            );
        }
    }
}

/// The same pages come out whatever form the input takes.
#[test]
fn every_input_form_gives_the_same_pages() {
    let dir = tempdir();
    let gz = sample();
    let plain = dir.path().join("sample.warc");
    let zst = dir.path().join("sample.warc.zst");
    let single = dir.path().join("single-member.warc.gz");
    let raw = gunzip_all(&std::fs::read(&gz).unwrap());
    std::fs::write(&plain, &raw).unwrap();
    std::fs::write(&zst, zstd::encode_all(&raw[..], 3).unwrap()).unwrap();
    // A whole file compressed as one gzip member, and named misleadingly: detection is by bytes.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&raw).unwrap();
    std::fs::write(&single, enc.finish().unwrap()).unwrap();
    let misnamed = dir.path().join("actually-zstd.warc.gz");
    std::fs::copy(&zst, &misnamed).unwrap();

    let run = |input: &str, stdin: Option<&Path>| {
        let out = dir
            .path()
            .join(format!("out-{}", input.replace(['/', ':'], "_")));
        extract_pages(input, stdin, &out)
    };
    let reference = run(gz.to_str().unwrap(), None);
    assert_eq!(reference.len(), 14);
    for input in [&plain, &zst, &single, &misnamed] {
        assert_eq!(
            run(input.to_str().unwrap(), None),
            reference,
            "{}",
            input.display()
        );
    }
    assert_eq!(run("-", Some(&gz)), reference, "stdin");
    assert_eq!(run("-", Some(&plain)), reference, "stdin, plain");
    let server = serve_file(std::fs::read(&gz).unwrap());
    assert_eq!(
        run(&format!("http://{server}/crawl/sample.warc.gz"), None),
        reference,
        "http"
    );
}

#[test]
fn http_errors_are_sentences() {
    let server = serve_status("404 Not Found");
    let out = tempdir();
    let url = format!("http://{server}/missing.warc.gz");
    let (ok, _, err) = warcsift(&["extract", &url, "-o", out.path().to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("404") && err.contains("missing.warc.gz"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_folder_given_as_input_is_refused_with_what_to_pass() {
    let folder = tempdir();
    let out = tempdir();
    let name = folder.path().to_str().unwrap();
    let (ok, _, err) = warcsift(&["extract", name, "-o", out.path().to_str().unwrap()]);
    assert!(!ok, "a run whose only input is a folder must fail");
    assert!(
        err.contains(&format!("{name} is a folder, not a file"))
            && err.contains(&format!("{name}/*.warc.gz"))
            && err.contains("--manifest"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn jsonl_zstd_and_gzip_shards_read_back() {
    let out = tempdir();
    let o = out.path();
    for (compress, ext) in [("zstd", "jsonl.zst"), ("gzip", "jsonl.gz")] {
        let dir = o.join(compress);
        let (ok, _, err) = warcsift(&[
            "extract",
            sample().to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
            "--compress",
            compress,
            "-a",
            "plain",
        ]);
        assert!(ok, "{err}");
        let shard = dir.join(format!("sample-00000.{ext}"));
        let bytes = std::fs::read(&shard).unwrap();
        let text = if compress == "zstd" {
            zstd::decode_all(&bytes[..]).unwrap()
        } else {
            gunzip_all(&bytes)
        };
        let lines: Vec<Value> = String::from_utf8(text)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 14);
        for v in &lines {
            for key in [
                "id",
                "url",
                "date",
                "title",
                "lang",
                "page_type",
                "charset",
                "charset_source",
                "text",
                "source",
                "offset",
                "truncated",
            ] {
                assert!(v.get(key).is_some(), "{key} missing in {v}");
            }
        }
    }
}

#[test]
fn gzip_offsets_point_at_the_record_member() {
    // Common Crawl's index gives the offset of the gzip member of a record; ours must too, so
    // `dd skip=offset | zcat` starts with that very record.
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "--compress",
        "none",
    ]);
    assert!(ok, "{err}");
    let gz = std::fs::read(sample()).unwrap();
    for v in read_jsonl(out.path()) {
        let off = v["offset"].as_u64().unwrap() as usize;
        let mut d = flate2::read::GzDecoder::new(&gz[off..]);
        let mut head = vec![0u8; 4096];
        let n = d.read(&mut head).unwrap();
        let head = String::from_utf8_lossy(&head[..n]);
        assert!(head.starts_with("WARC/1."), "offset {off}");
        assert!(
            head.contains(v["id"].as_str().unwrap()),
            "offset {off} is not record {}",
            v["id"]
        );
    }
}

#[test]
fn wet_output_reads_back_with_warcio() {
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "--format",
        "wet",
    ]);
    assert!(ok, "{err}");
    let wet = out.path().join("sample-00000.warc.wet.gz");
    assert!(wet.exists());
    let Some(summary) = python_check_wet(&wet) else {
        return;
    };
    assert_eq!(
        summary["records"], 15,
        "warcinfo + 14 conversion records: {summary}"
    );
    assert_eq!(summary["conversion"], 14);
    assert_eq!(summary["digest_ok"], true);
    assert_eq!(summary["length_ok"], true);
    let types = summary["page_types"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(types.len(), 14, "{summary}");
    assert!(
        types.iter().all(|t| t
            .as_str()
            .and_then(warcsift::page_type::PageType::from_name)
            .is_some()),
        "every record names a page type: {summary}"
    );
    // The detected language, as ISO 639-3 (CC's form), on the records whose text has one.
    let langs = summary["langs"].as_array().cloned().unwrap_or_default();
    assert!(
        langs.iter().any(|l| l == "eng"),
        "English pages carry WARC-Identified-Content-Language: {summary}"
    );
    assert!(
        langs.iter().flatten_strs().all(|l| l.len() == 3),
        "{summary}"
    );
}

trait FlattenStrs {
    fn flatten_strs(self) -> impl Iterator<Item = String>;
}

impl<'a, I: Iterator<Item = &'a Value>> FlattenStrs for I {
    fn flatten_strs(self) -> impl Iterator<Item = String> {
        self.filter_map(|v| v.as_str().map(str::to_string))
    }
}

#[test]
fn text_format_writes_one_file_per_page() {
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "--format",
        "text",
        "-a",
        "plain",
    ]);
    assert!(ok, "{err}");
    let dir = out.path().join("sample-00000");
    let txt = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "txt")
        })
        .count();
    assert_eq!(txt, 14);
    let index = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    assert_eq!(index.lines().count(), 15, "header + 14 pages");
}

#[test]
fn shards_roll_over_and_no_temporary_files_remain() {
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "--compress",
        "none",
        "--shard-size",
        "4000",
        "-a",
        "plain",
    ]);
    assert!(ok, "{err}");
    let names: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let shards = names.iter().filter(|n| n.ends_with(".jsonl")).count();
    assert!(shards > 2, "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    assert_eq!(read_jsonl(out.path()).len(), 14);
}

#[test]
fn threads_do_not_change_the_output() {
    let mut inputs = vec![sample()];
    if let Some(dev) = shared_warc("dev.warc.gz") {
        inputs.push(dev);
    }
    for input in inputs {
        let out = tempdir();
        let mut digests = Vec::new();
        for threads in ["1", "2", "3"] {
            let dir = out.path().join(threads);
            let (ok, _, err) = warcsift(&[
                "extract",
                input.to_str().unwrap(),
                "-o",
                dir.to_str().unwrap(),
                "-t",
                threads,
                "-q",
            ]);
            assert!(ok, "{err}");
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "zst"))
                .collect();
            files.sort();
            digests.push(
                files
                    .iter()
                    .map(|f| std::fs::read(f).unwrap())
                    .collect::<Vec<_>>(),
            );
        }
        assert!(
            digests[0] == digests[1] && digests[1] == digests[2],
            "{}: output differs between thread counts",
            input.display()
        );
    }
}

#[test]
fn dev_warc_extracts_every_html_response() {
    let Some(dev) = shared_warc("dev.warc.gz") else {
        return;
    };
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        dev.to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "-q",
    ]);
    assert!(ok, "{err}");
    // Count HTML responses independently: scan the decompressed WARC for response records.
    let raw = gunzip_all(&std::fs::read(&dev).unwrap());
    let responses = raw
        .windows(20)
        .filter(|w| w == b"WARC-Type: response\r")
        .count();
    let s = stats(out.path());
    assert_eq!(s["extracted"].as_u64().unwrap() as usize, responses);
    assert_eq!(s["errors"], serde_json::json!({}));
    assert_eq!(read_jsonl(out.path()).len(), responses);
}

#[test]
fn malformed_input_never_stops_the_run() {
    let dir = tempdir();
    let gz = std::fs::read(sample()).unwrap();
    let members = gzip_members(&gz);
    assert!(members.len() > 30);

    // 1. Truncated in the middle of the last member: every complete record is kept.
    let cut = dir.path().join("truncated.warc.gz");
    let last = members[members.len() - 1];
    std::fs::write(&cut, &gz[..last.0 + (last.1 - last.0) / 2]).unwrap();
    // 2. Garbage between members.
    let garbage = dir.path().join("garbage.warc.gz");
    let mut g = gz[..members[10].1].to_vec();
    g.extend_from_slice(b"\x00\xffthis is not a gzip member at all\n\x1f\x8b\x08garbage");
    g.extend_from_slice(&gz[members[10].1..]);
    std::fs::write(&garbage, &g).unwrap();
    // 3. Plain WARC with junk lines and a record whose Content-Length lies.
    let raw = gunzip_all(&gz);
    let junk = dir.path().join("junk.warc");
    let mut j = b"junk line before the first record\r\n".to_vec();
    j.extend_from_slice(&raw);
    j.extend_from_slice(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999\r\n\r\nHTTP/1.1 200 OK\r\n\r\n<p>short");
    std::fs::write(&junk, &j).unwrap();

    for (path, min_pages) in [(&cut, 13), (&garbage, 13), (&junk, 14)] {
        let out = dir.path().join(format!(
            "out-{}",
            path.file_name().unwrap().to_string_lossy()
        ));
        let (ok, _, err) = warcsift(&[
            "extract",
            path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-q",
            "-a",
            "plain",
        ]);
        assert!(ok, "{}: {err}", path.display());
        assert!(!err.contains("panicked"), "{err}");
        let s = stats(&out);
        assert!(
            s["extracted"].as_u64().unwrap() >= min_pages,
            "{}: {s}",
            path.display()
        );
        // Errors, or repairs (a cut last record is kept, marked truncated).
        let count = |key: &str| -> u64 {
            s[key]
                .as_object()
                .map_or(0, |m| m.values().map(|v| v.as_u64().unwrap()).sum())
        };
        assert!(
            count("errors") + count("repairs") >= 1,
            "{}: errors counted: {s}",
            path.display()
        );
        let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
        assert!(errors.lines().count() >= 1, "{}", path.display());
        for line in errors.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(v["offset"].is_u64() && v["reason"].is_string());
        }
    }

    // 4. Oversized records are skipped and counted, the rest kept.
    let out = dir.path().join("out-small");
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-q",
        "--max-record-bytes",
        "3000",
    ]);
    assert!(ok, "{err}");
    let s = stats(&out);
    let too_large = s["skipped"]["too_large"].as_u64().unwrap_or(0);
    assert!(too_large > 0, "{s}");
    let extracted = s["extracted"].as_u64().unwrap();
    assert!(extracted > 0 && extracted < 14, "{s}");
    // Every record is accounted for: extracted, skipped by reason, or failed.
    let skipped: u64 = s["skipped"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(
        extracted + skipped,
        s["records_read"].as_u64().unwrap(),
        "{s}"
    );
}

#[test]
fn pure_garbage_and_empty_inputs_finish_cleanly() {
    let dir = tempdir();
    let cases: [(&str, &[u8]); 4] = [
        ("empty.warc", b""),
        ("garbage.warc", b"\x00\x01\x02 not a warc file at all\n\n\n"),
        (
            "bad.gz",
            b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage garbage",
        ),
        (
            "header-only.warc",
            b"WARC/1.0\r\nWARC-Type: response\r\nContent-Le",
        ),
    ];
    for (name, bytes) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let out = dir.path().join(format!("out-{name}"));
        let (ok, _, err) = warcsift(&[
            "extract",
            p.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-q",
        ]);
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert_eq!(stats(&out)["extracted"], 0);
        // No record at all: a failed input, said in a sentence (exit status 1). A header
        // cut by the end of input is read as a record, and the cut is an error.
        if name == "header-only.warc" {
            assert!(ok, "{name}: {err}");
            assert_eq!(stats(&out)["errors"]["record"], 1, "{name}");
        } else {
            assert!(!ok, "{name}: {err}");
            assert!(
                err.contains("no record could be read from"),
                "{name}: {err}"
            );
            assert_eq!(stats(&out)["inputs_failed"], 1, "{name}");
        }
    }
    let (ok, _, err) = warcsift(&[
        "extract",
        "/nonexistent/file.warc.gz",
        "-o",
        dir.path().join("x").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/file.warc.gz"), "{err}");
}

#[test]
fn page_and_algorithms_commands() {
    let (ok, out, _) = warcsift(&["algorithms"]);
    assert!(ok);
    for name in [
        "plain",
        "cetr-tm",
        "cetr-km",
        "cetr-tm-blocks",
        "cetr-km-blocks",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(name)),
            "{name} not listed"
        );
    }
    let dir = tempdir();
    let page = dir.path().join("p.html");
    std::fs::write(&page, b"<html><head><title>T</title><meta charset=windows-1252></head><body><p>caf\xe9 cr\xe8me</p></body></html>").unwrap();
    let (ok, out, err) = warcsift(&["page", page.to_str().unwrap(), "-a", "plain", "--meta"]);
    assert!(ok, "{err}");
    assert!(out.contains("café crème"), "{out}");
    assert!(out.contains("charset: windows-1252 (meta)"), "{out}");
    // Two words of text, nothing that speaks for any type.
    assert!(out.contains("page_type: other"), "{out}");
    let mut child = Command::new(bin())
        .args(["page", "-", "-a", "plain"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"<p>from stdin</p>")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "from stdin");
    let (ok, _, err) = warcsift(&["page", page.to_str().unwrap(), "-a", "nonsense"]);
    assert!(!ok && err.contains("nonsense"), "{err}");
    // A page saved gzipped (as the devset's `<id>.html.gz`) reads as its HTML, in `page` and
    // in `explain`, told by its magic bytes whatever its name.
    let gz = dir.path().join("p.gz.bin");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&std::fs::read(&page).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let (ok, out, err) = warcsift(&["page", gz.to_str().unwrap(), "-a", "plain"]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "café crème");
    let (ok, out, err) = warcsift(&["explain", gz.to_str().unwrap(), "-a", "plain"]);
    assert!(ok, "{err}");
    assert!(out.contains("café crème"), "{out}");
    let (ok, _, err) = warcsift(&["page", dir.path().join("absent").to_str().unwrap()]);
    assert!(!ok && err.contains("absent"), "{err}");
}

#[test]
fn stateful_methods_stay_deterministic_with_threads() {
    // Info Discoverer learns each host's template from the pages before: the pipeline runs it
    // on one worker, in input order, whatever --threads says.
    let out = tempdir();
    let mut runs = Vec::new();
    for threads in ["1", "2"] {
        let dir = out.path().join(threads);
        let (ok, _, err) = warcsift(&[
            "extract",
            sample().to_str().unwrap(),
            "-o",
            dir.to_str().unwrap(),
            "-t",
            threads,
            "-q",
            "-a",
            "info-discoverer",
            "--compress",
            "none",
        ]);
        assert!(ok, "{err}");
        runs.push(std::fs::read(dir.join("sample-00000.jsonl")).unwrap());
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn method_options_reach_the_extractor() {
    let out = tempdir();
    let (ok, _, err) = warcsift(&[
        "extract",
        sample().to_str().unwrap(),
        "-o",
        out.path().to_str().unwrap(),
        "-q",
        "-a",
        "crunch",
        "--drop-selector",
        "[[",
    ]);
    assert!(!ok && err.contains("[["), "{err}");
}

#[test]
fn dev_warc_through_stdin_and_http_gives_the_same_pages() {
    let Some(dev) = shared_warc("dev.warc.gz") else {
        return;
    };
    let out = tempdir();
    let run = |input: &str, stdin: Option<&Path>, name: &str| {
        extract_pages(input, stdin, &out.path().join(name))
    };
    let file = run(dev.to_str().unwrap(), None, "file");
    assert_eq!(file.len(), 2318);
    assert_eq!(run("-", Some(&dev), "stdin"), file);
    let server = serve_file(std::fs::read(&dev).unwrap());
    assert_eq!(
        run(&format!("http://{server}/dev.warc.gz"), None, "http"),
        file
    );
}

#[test]
fn markdown_links_keep_the_words() {
    use warcsift::markdown::without_link_targets;
    let dir = tempdir();
    let page = dir.path().join("links.html");
    std::fs::write(
        &page,
        "<html><head><title>T</title></head><body><article><h1>The <a href=\"/river\">river</a> plan</h1>\
         <p>The council approved the plan for the river on Tuesday, after a long debate that ran \
         late into the night; <a href=\"minutes.html#p2\">the minutes [draft]</a> are online, and \
         <a href=\"javascript:share()\">share</a> or <a href=\"#top\">go up</a>.</p>\
         <ul><li><a href=\"https://other.org/x\">Other coverage</a> of the same meeting</li></ul>\
         </article></body></html>",
    )
    .unwrap();
    let p = page.to_str().unwrap();
    let url = "https://news.example.com/2025/plan.html";
    let (ok, plain_md, err) = warcsift(&["page", p, "--url", url, "--markdown"]);
    assert!(ok, "{err}");
    let (ok, md, err) = warcsift(&["page", p, "--url", url, "--markdown", "--links"]);
    assert!(ok, "{err}");
    assert!(
        md.contains("[river](https://news.example.com/river)"),
        "{md}"
    );
    assert!(
        md.contains("[the minutes [draft]](https://news.example.com/2025/minutes.html#p2)"),
        "{md}"
    );
    assert!(
        md.contains("- [Other coverage](https://other.org/x) of"),
        "{md}"
    );
    assert!(!md.contains("javascript") && !md.contains("#top"), "{md}");
    assert!(!plain_md.contains("]("), "{plain_md}");
    assert_eq!(without_link_targets(&md), plain_md);
    // --links means nothing without --markdown.
    let (ok, _, err) = warcsift(&["page", p, "--links"]);
    assert!(!ok && err.contains("--markdown"), "{err}");

    // extract: the same pages, the same words and languages, with and without --links.
    let mut runs = Vec::new();
    let sample = sample();
    for links in [false, true] {
        let out = dir.path().join(format!("out-{links}"));
        let mut args = vec![
            "extract",
            sample.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--compress",
            "none",
            "-q",
            "--markdown",
        ];
        if links {
            args.push("--links");
        }
        let (ok, _, err) = warcsift(&args);
        assert!(ok, "{err}");
        runs.push(read_jsonl(&out));
    }
    assert_eq!(runs[0].len(), runs[1].len());
    let mut linked = 0;
    for (a, b) in runs[0].iter().zip(&runs[1]) {
        let (ta, tb) = (a["text"].as_str().unwrap(), b["text"].as_str().unwrap());
        linked += usize::from(tb.contains("](http"));
        assert_eq!(without_link_targets(tb), ta, "{}", a["url"]);
        assert_eq!(a["lang"], b["lang"], "{}", a["url"]);
    }
    assert!(linked > 0, "no page of the sample has a link in its text");
}
