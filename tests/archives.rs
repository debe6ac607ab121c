//! Integration tests: the archives people actually have. The real binary reads ARC files,
//! early WARC versions with ClueWeb09's quirks, lz4 and truncated inputs made here (so CI
//! needs nothing else), and every real file of `../shared/warc/real/` against warcio's counts
//! (skipped with a message where the shared folder is absent).

mod support;

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use support::*;

/// Run `extract -a none` on `inputs` into `out`: (success, stderr).
fn extract(inputs: &[&Path], out: &Path, extra: &[&str]) -> (bool, String) {
    let mut args: Vec<&str> = vec!["extract", "-q", "--compress", "none"];
    if !extra.contains(&"-a") {
        args.extend(["-a", "none"]);
    }
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["-o", out.to_str().unwrap()]);
    args.extend(extra);
    let (ok, _, err) = warcsift(&args);
    (ok, err)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn lz4(data: &[u8]) -> Vec<u8> {
    let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

const PAGE: &str = "<html><head><title>Old page</title></head><body><h1>Tide tables</h1>\
                    <p>The Moon pulls the ocean towards it, so two bulges form and most coasts \
                    see two high tides every lunar day.</p></body></html>";

/// An ARC file as Internet Archive crawlers wrote them: the version block, an HTML page, an
/// image, and an HTML page whose URL has a space; one gzip member per record when `gz`.
fn arc_fixture(gz: bool) -> (Vec<u8>, Vec<u64>) {
    let http = |ct: &str, body: &str| {
        format!(
            "HTTP/1.0 200 OK\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let desc = "1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n";
    let records = [
        format!(
            "filedesc://IA-0001.arc 0.0.0.0 19961004000000 text/plain {}\n{desc}\n",
            desc.len()
        ),
        {
            let b = http("text/html", PAGE);
            format!(
                "http://example.com/ 93.184.216.119 19961004000102 text/html {}\n{b}\n",
                b.len()
            )
        },
        {
            let b = http("image/gif", "GIF89a....");
            format!(
                "http://example.com/a.gif 93.184.216.119 19961004000103 image/gif {}\n{b}\n",
                b.len()
            )
        },
        {
            let b = http("text/html", PAGE);
            format!(
                "http://example.com/a page.html 93.184.216.119 1996100400010433 text/html {}\n{b}\n",
                b.len()
            )
        },
    ];
    let mut file = Vec::new();
    let mut offsets = Vec::new();
    for r in &records {
        offsets.push(file.len() as u64);
        if gz {
            file.extend(gzip(r.as_bytes()));
        } else {
            file.extend(r.as_bytes());
        }
    }
    (file, offsets)
}

/// A WARC record with `version` and the fields given, `block` as its block.
fn warc_record(version: &str, fields: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    let mut r = format!("{version}\r\n").into_bytes();
    for (k, v) in fields {
        r.extend(format!("{k}: {v}\r\n").as_bytes());
    }
    r.extend(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
    r.extend(block);
    r.extend(b"\r\n\r\n");
    r
}

fn response(id: &str, url: &str, version: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{PAGE}");
    let mut fields = vec![
        ("WARC-Type", "response"),
        ("WARC-Record-ID", id),
        ("WARC-Target-URI", url),
        ("WARC-Date", "2009-03-65T08:43:19-0800"),
        ("Content-Type", "application/http; msgtype=response"),
    ];
    fields.extend_from_slice(extra);
    warc_record(version, &fields, http.as_bytes())
}

/// Run `extract --records LIST --prefix PREFIX` into `out`: the pages written.
fn extract_records(list: &Path, prefix: &str, out: &Path) -> Vec<Value> {
    let (ok, _, err) = warcsift(&[
        "extract",
        "-q",
        "--compress",
        "none",
        "--records",
        list.to_str().unwrap(),
        "--prefix",
        prefix,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{prefix}: {err}");
    pages(out)
}

/// A `warcinfo` record naming `software`, then pages of a.example, b.example and c.example,
/// all of WARC `version`.
fn warcinfo_and_three_pages(version: &str, software: &str) -> [Vec<u8>; 4] {
    let info = format!("software: {software}\r\n");
    [
        warc_record(version, &[("WARC-Type", "warcinfo")], info.as_bytes()),
        response("<urn:uuid:a>", "http://a.example/", version, &[]),
        response("<urn:uuid:b>", "http://b.example/", version, &[]),
        response("<urn:uuid:c>", "http://c.example/", version, &[]),
    ]
}

/// The pages of a JSONL output folder (`read_jsonl` also reads `errors.jsonl`).
fn pages(out: &Path) -> Vec<Value> {
    read_jsonl(out)
        .into_iter()
        .filter(|v| v.get("url").is_some())
        .collect()
}

#[test]
fn arc_files_plain_and_gzip() {
    let dir = tempdir();
    for gz in [false, true] {
        let (file, offsets) = arc_fixture(gz);
        let path = dir.path().join(if gz { "old.arc.gz" } else { "old.arc" });
        std::fs::write(&path, &file).unwrap();
        let out = dir.path().join(format!("out-{gz}"));
        let (ok, err) = extract(&[&path], &out, &[]);
        assert!(ok, "{err}");
        let s = stats(&out);
        assert_eq!(s["records_read"], 4, "{s}");
        assert_eq!(s["records_by_type"]["warcinfo"], 1, "{s}");
        assert_eq!(s["records_by_type"]["response"], 3, "{s}");
        assert_eq!(s["extracted"], 2, "{s}");
        let got = pages(&out);
        let urls: Vec<&str> = got.iter().map(|p| p["url"].as_str().unwrap()).collect();
        assert_eq!(
            urls,
            ["http://example.com/", "http://example.com/a page.html"]
        );
        assert_eq!(got[0]["date"], "1996-10-04T00:01:02Z");
        // Offsets: the record's (member's) start in the file, as CDX indexes keep them.
        assert_eq!(got[0]["offset"], offsets[1]);
        assert_eq!(got[1]["offset"], offsets[3]);
        assert_ne!(got[0]["id"], got[1]["id"]);
    }
}

#[test]
fn clueweb09_warc_018_with_its_quirks() {
    let dir = tempdir();
    let warcinfo = warc_record(
        "WARC/0.18",
        &[
            ("WARC-Type", "warcinfo"),
            ("Content-Type", "application/warc-fields"),
        ],
        b"software: Nutch 1.0-dev (modified for clueweb09)\r\n",
    );
    // An empty WARC-Identified-Payload-Type, and Content-Encoding: gzip on a payload that
    // is already decoded.
    let a = response(
        "<urn:uuid:a>",
        "http://a.example/",
        "WARC/0.18",
        &[("WARC-Identified-Payload-Type", "")],
    );
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Type: text/html\r\n\r\n{PAGE}"
    );
    let b = warc_record(
        "WARC/0.17",
        &[
            ("WARC-Type", "response"),
            ("WARC-Record-ID", "<urn:uuid:b>"),
            ("WARC-Target-URI", "http://b.example/"),
            ("WARC-Identified-Payload-Type", ""),
        ],
        http.as_bytes(),
    );
    let file: Vec<u8> = [gzip(&warcinfo), gzip(&a), gzip(&b)].concat();
    let path = dir.path().join("clueweb.warc.gz");
    std::fs::write(&path, file).unwrap();
    let out = dir.path().join("out");
    let (ok, err) = extract(&[&path], &out, &[]);
    assert!(ok, "{err}");
    let s = stats(&out);
    assert_eq!(s["extracted"], 2, "{s}");
    assert_eq!(s["skipped"]["warcinfo"], 1, "{s}");
    assert_eq!(s["errors"].as_object().map_or(0, |m| m.len()), 0, "{s}");
}

#[test]
fn lz4_per_record_frames() {
    let dir = tempdir();
    let records = [
        warc_record(
            "WARC/1.1",
            &[("WARC-Type", "warcinfo")],
            b"software: fastwarc\r\n",
        ),
        response("<urn:uuid:1>", "http://one.example/", "WARC/1.1", &[]),
        response("<urn:uuid:2>", "http://two.example/", "WARC/1.1", &[]),
    ];
    let frames: Vec<Vec<u8>> = records.iter().map(|r| lz4(r)).collect();
    let path = dir.path().join("crawl.warc.lz4");
    std::fs::write(&path, frames.concat()).unwrap();
    let out = dir.path().join("out");
    let (ok, err) = extract(&[&path], &out, &[]);
    assert!(ok, "{err}");
    let got = pages(&out);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["offset"], frames[0].len() as u64);
    assert_eq!(got[1]["offset"], (frames[0].len() + frames[1].len()) as u64);
}

/// A `.warc.zst` file as ArchiveTeam's and other crawlers write them (IIPC's warc-zstd
/// specification): a skippable frame (`0x184D2A5D`) holding a zstd-compressed dictionary,
/// then one frame per record, compressed with that dictionary. Returns the file and each
/// record's (offset, length).
fn dictionary_warc_zst(records: &[Vec<u8>]) -> (Vec<u8>, Vec<(usize, usize)>) {
    let samples: Vec<Vec<u8>> = (0..300)
        .map(|i| {
            response(
                &format!("<urn:uuid:s{i}>"),
                &format!("http://s{i}.example/"),
                "WARC/1.1",
                &[],
            )
        })
        .collect();
    let dict = zstd::dict::from_samples(&samples, 4096).unwrap();
    let packed = zstd::encode_all(&dict[..], 19).unwrap();
    let mut file = vec![0x5d, 0x2a, 0x4d, 0x18];
    file.extend((packed.len() as u32).to_le_bytes());
    file.extend(&packed);
    let mut c = zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap();
    let mut ranges = Vec::new();
    for r in records {
        let frame = c.compress(r).unwrap();
        ranges.push((file.len(), frame.len()));
        file.extend(frame);
    }
    (file, ranges)
}

#[test]
fn dictionary_compressed_warc_zst_whole_and_by_record() {
    let dir = tempdir();
    let records = warcinfo_and_three_pages("WARC/1.1", "wget-at");
    let (file, ranges) = dictionary_warc_zst(&records);
    let path = dir.path().join("crawl.warc.zst");
    std::fs::write(&path, &file).unwrap();
    let out = dir.path().join("out");
    let (ok, err) = extract(&[&path], &out, &[]);
    assert!(ok, "{err}");
    let got = pages(&out);
    let urls: Vec<&str> = got.iter().map(|p| p["url"].as_str().unwrap()).collect();
    assert_eq!(
        urls,
        [
            "http://a.example/",
            "http://b.example/",
            "http://c.example/"
        ]
    );
    // Each record at its frame's offset, as an index of the file gives it.
    for (page, &(offset, _)) in got.iter().zip(&ranges[1..]) {
        assert_eq!(page["offset"], offset as u64);
    }
    // By index entry (a seek per record): the dictionary is read from the file's start.
    let list = format!(
        "warc_filename\twarc_record_offset\twarc_record_length\n\
         crawl.warc.zst\t{}\t{}\ncrawl.warc.zst\t{}\t{}\n",
        ranges[3].0, ranges[3].1, ranges[1].0, ranges[1].1
    );
    let list_path = dir.path().join("records.tsv");
    std::fs::write(&list_path, list).unwrap();
    let got = extract_records(
        &list_path,
        dir.path().to_str().unwrap(),
        &dir.path().join("out-records"),
    );
    let found: Vec<(&str, u64)> = got
        .iter()
        .map(|p| (p["url"].as_str().unwrap(), p["offset"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            ("http://c.example/", ranges[3].0 as u64),
            ("http://a.example/", ranges[1].0 as u64)
        ]
    );
}

#[test]
fn a_truncated_last_member_keeps_what_is_there() {
    let dir = tempdir();
    // Large enough for several zstd blocks (128 KiB each), so that a cut frame still has
    // whole blocks to hand out.
    let words: String = (0..40_000)
        .map(|i| format!("w{} ", i * 7919 % 100_003))
        .collect();
    let long_page = format!("<html><body><p>{words}</p></body></html>");
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{long_page}");
    let last = warc_record(
        "WARC/1.0",
        &[
            ("WARC-Type", "response"),
            ("WARC-Record-ID", "<urn:uuid:cut>"),
            ("WARC-Target-URI", "http://cut.example/"),
        ],
        http.as_bytes(),
    );
    let first = response("<urn:uuid:1>", "http://one.example/", "WARC/1.0", &[]);
    for kind in ["gzip", "zstd", "plain"] {
        let (whole, cut_member) = match kind {
            "gzip" => (gzip(&first), gzip(&last)),
            "zstd" => (
                zstd::encode_all(&first[..], 3).unwrap(),
                zstd::encode_all(&last[..], 3).unwrap(),
            ),
            _ => (first.clone(), last.clone()),
        };
        let cut = &cut_member[..cut_member.len() * 2 / 3];
        let path = dir.path().join(format!("cut-{kind}.warc"));
        std::fs::write(&path, [&whole[..], cut].concat()).unwrap();
        let out = dir.path().join(format!("out-{kind}"));
        let (ok, err) = extract(&[&path], &out, &[]);
        assert!(ok, "{kind}: {err}");
        let got = pages(&out);
        let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
        assert_eq!(got.len(), 2, "{kind}: {got:?} {errors}");
        assert_eq!(got[1]["truncated"], true, "{kind}");
        assert_eq!(got[0]["truncated"], false, "{kind}");
        assert!(
            errors.contains("\"kind\":\"repair\"") && errors.contains("marked truncated"),
            "{kind}: {errors}"
        );
        assert_eq!(stats(&out)["repairs"]["truncated_kept"], 1, "{kind}");
    }
}

#[test]
fn inputs_without_a_record_fail_and_are_retried_on_resume() {
    let dir = tempdir();
    let html = dir.path().join("page.warc.gz");
    std::fs::write(
        &html,
        gzip(b"<!doctype html><html><p>not an archive</p></html>"),
    )
    .unwrap();
    let empty = dir.path().join("empty.warc");
    std::fs::write(&empty, b"").unwrap();
    let good = dir.path().join("good.warc");
    std::fs::write(
        &good,
        response("<urn:uuid:g>", "http://g.example/", "WARC/1.0", &[]),
    )
    .unwrap();
    let out = dir.path().join("out");
    let (ok, err) = extract(&[&html, &empty, &good], &out, &[]);
    assert!(!ok, "exit status 1 expected: {err}");
    assert!(
        err.contains("no record could be read from")
            && err.contains("it is gzip-compressed and holds HTML or XML, not an archive"),
        "{err}"
    );
    assert!(err.contains("it is empty"), "{err}");
    let s = stats(&out);
    assert_eq!(
        (s["inputs"].as_u64(), s["inputs_failed"].as_u64()),
        (Some(1), Some(2)),
        "{s}"
    );
    // --resume skips the good input and tries the two others again.
    let (ok, err) = extract(&[&html, &empty, &good], &out, &["--resume"]);
    assert!(!ok);
    assert_eq!(err.matches("no record could be read").count(), 2, "{err}");
    let s = stats(&out);
    assert_eq!(s["inputs_resumed"], 1, "{s}");
}

#[test]
fn repairs_are_logged_alike_and_keep_the_exit_status() {
    let dir = tempdir();
    // One record without its closing CRLF CRLF, one with a Content-Length that swallows the
    // start of the next record. (One byte too many only takes a byte of the blank line: that
    // is read as a missing blank line.)
    let mut a = response("<urn:uuid:a>", "http://a.example/", "WARC/1.0", &[]);
    a.truncate(a.len() - 4);
    a.extend(b"\n\n");
    let b = response("<urn:uuid:b>", "http://b.example/", "WARC/1.0", &[]);
    let b = String::from_utf8(b).unwrap();
    let len = b
        .split("Content-Length: ")
        .nth(1)
        .unwrap()
        .split('\r')
        .next()
        .unwrap();
    let n: usize = len.parse().unwrap();
    let b = b.replacen(
        &format!("Content-Length: {n}"),
        &format!("Content-Length: {}", n + 10),
        1,
    );
    let c = response("<urn:uuid:c>", "http://c.example/", "WARC/1.0", &[]);
    let path = dir.path().join("repaired.warc");
    std::fs::write(&path, [a, b.into_bytes(), c].concat()).unwrap();
    let out = dir.path().join("out");
    let (ok, err) = extract(&[&path], &out, &[]);
    assert!(ok, "{err}");
    let s = stats(&out);
    assert_eq!(s["extracted"], 3, "{s}");
    assert_eq!(s["repairs"]["missing_blank_line"], 1, "{s}");
    assert_eq!(s["repairs"]["length_mismatch"], 1, "{s}");
    let errors = std::fs::read_to_string(out.join("errors.jsonl")).unwrap();
    let kinds: Vec<String> = errors
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(kinds, ["repair", "repair"], "{errors}");
}

/// Files on which warcio finds more HTML pages than warcsift keeps, and why warcsift is right
/// (or deliberately different).
const WARCIO_DIFFERS: [(&str, &str); 3] = [
    (
        "CDX-Writer/giant_html.warc.gz",
        "its one record declares 431 MB: skipped as too_large by --max-record-bytes (16 MiB)",
    ),
    (
        "datatogether-warc/response.warc",
        "the response block has HTTP headers but no status line: not an HTTP response",
    ),
    (
        "pywb/example-extra.warc",
        "a hand-made test of a broken status line (`HTTPX/1.1 200 OK`): not an HTTP response",
    ),
];

#[test]
fn every_real_file_gives_at_least_warcios_html_pages() {
    let Some(expected_path) = shared_warc("real/expected.json") else {
        return;
    };
    let real = expected_path.parent().unwrap().to_path_buf();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
    let dir = tempdir();
    let mut short = Vec::new();
    let mut files = 0;
    for (k, (name, want)) in expected.as_object().unwrap().iter().enumerate() {
        files += 1;
        let out = dir.path().join(format!("o{k}"));
        let path = real.join(name);
        let (ok, err) = extract(&[&path], &out, &["-t", "1"]);
        assert!(!err.contains("panicked"), "{name}: {err}");
        let s = stats(&out);
        let pages = s["extracted"].as_u64().unwrap_or(0);
        let html = want["warcio_html_pages"].as_u64().unwrap();
        if pages < html && !WARCIO_DIFFERS.iter().any(|(f, _)| f == name) {
            short.push(format!("{name}: {pages} pages, warcio {html} ({err})"));
        }
        // A file from which warcio reads records is not a failed input here.
        if want["warcio_records"].as_u64().unwrap() > 0 && want["warcio_error"].is_null() {
            assert!(ok, "{name}: {err}");
        }
    }
    assert!(
        short.is_empty(),
        "{} of {files} files short:\n{}",
        short.len(),
        short.join("\n")
    );
}

/// Serve `body` on a loopback port, answering `Range: bytes=A-B` with `206 Partial Content`;
/// returns the address and the number of requests served.
fn serve_ranges(body: Vec<u8>) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::{BufRead, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = std::sync::Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let Ok(mut stream) = stream else { continue };
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut range = None;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("range: bytes=") {
                    let (a, b) = v.trim().split_once('-').unwrap();
                    range = Some((a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()));
                }
            }
            let (status, part, extra) = match range {
                Some((a, b)) => (
                    "206 Partial Content",
                    &body[a..=b.min(body.len() - 1)],
                    format!("Content-Range: bytes {a}-{b}/{}\r\n", body.len()),
                ),
                None => ("200 OK", &body[..], String::new()),
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
                part.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(part);
        }
    });
    (addr, count)
}

#[test]
fn records_by_index_entry_over_http_range_and_seek() {
    let dir = tempdir();
    let records = warcinfo_and_three_pages("WARC/1.0", "test");
    let members: Vec<Vec<u8>> = records.iter().map(|r| gzip(r)).collect();
    let offsets: Vec<usize> = members
        .iter()
        .scan(0, |at, m| {
            let o = *at;
            *at += m.len();
            Some(o)
        })
        .collect();
    let file = members.concat();
    std::fs::create_dir_all(dir.path().join("crawl/segment")).unwrap();
    std::fs::write(dir.path().join("crawl/segment/CC-1.warc.gz"), &file).unwrap();
    // C before A, as an index query may list them; B is not wanted.
    let list = format!(
        "url\twarc_filename\twarc_record_offset\twarc_record_length\n\
         http://c.example/\tcrawl/segment/CC-1.warc.gz\t{}\t{}\n\
         http://a.example/\tcrawl/segment/CC-1.warc.gz\t{}\t{}\n",
        offsets[3],
        members[3].len(),
        offsets[1],
        members[1].len()
    );
    let list_path = dir.path().join("records.tsv");
    std::fs::write(&list_path, list).unwrap();
    let (addr, count) = serve_ranges(file);
    let run = |prefix: &str, out: &Path| extract_records(&list_path, prefix, out);
    let by_url = run(&format!("http://{addr}/"), &dir.path().join("out-http"));
    assert_eq!(
        count.load(std::sync::atomic::Ordering::SeqCst),
        2,
        "one request per record"
    );
    let urls: Vec<&str> = by_url.iter().map(|p| p["url"].as_str().unwrap()).collect();
    assert_eq!(urls, ["http://c.example/", "http://a.example/"]);
    assert_eq!(by_url[0]["offset"], offsets[3] as u64);
    assert_eq!(by_url[1]["offset"], offsets[1] as u64);
    let by_seek = run(dir.path().to_str().unwrap(), &dir.path().join("out-dir"));
    let text = |pages: &[Value]| -> Vec<(String, u64)> {
        pages
            .iter()
            .map(|p| {
                (
                    p["text"].as_str().unwrap().to_string(),
                    p["offset"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(text(&by_seek), text(&by_url));
    // --resume: the WARC file is marked done and not fetched again.
    let before = count.load(std::sync::atomic::Ordering::SeqCst);
    let (ok, _, err) = warcsift(&[
        "extract",
        "-q",
        "--records",
        list_path.to_str().unwrap(),
        "--prefix",
        &format!("http://{addr}/"),
        "-o",
        dir.path().join("out-http").to_str().unwrap(),
        "--resume",
    ]);
    assert!(ok, "{err}");
    assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), before);
}

#[test]
fn several_inputs_read_at_once_write_the_same_bytes() {
    let dir = tempdir();
    let mut inputs = Vec::new();
    for name in ["a", "b", "c"] {
        let p = dir.path().join(format!("{name}.warc.gz"));
        std::fs::copy(sample(), &p).unwrap();
        inputs.push(p);
    }
    // A failed input among them keeps its place in the summary.
    let bad = dir.path().join("d.warc");
    std::fs::write(&bad, b"not an archive\n").unwrap();
    inputs.push(bad);
    let refs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    let shards = |out: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .filter(|p| !p.ends_with("errors.jsonl"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let one = dir.path().join("one");
    let (ok, err) = extract(&refs, &one, &["-a", "plain", "-t", "2", "--readers", "1"]);
    assert!(!ok, "{err}");
    let three = dir.path().join("three");
    let (ok, err) = extract(&refs, &three, &["-a", "plain", "-t", "2", "--readers", "3"]);
    assert!(!ok, "{err}");
    assert_eq!(shards(&one).len(), 3);
    assert_eq!(shards(&one), shards(&three));
    let (a, b) = (stats(&one), stats(&three));
    for key in [
        "records_read",
        "extracted",
        "records_by_type",
        "inputs",
        "inputs_failed",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
}
