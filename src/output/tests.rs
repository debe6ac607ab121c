//! Tests of the whole output stage: every format written, read back by independent code.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::*;

fn page(i: u64, text: &str) -> PageRecord {
    PageRecord {
        id: format!("<urn:uuid:00000000-0000-4000-8000-{i:012}>"),
        url: format!("http://example.com/{i}"),
        date: "2024-05-06T07:08:09Z".into(),
        title: if i % 3 == 0 {
            None
        } else {
            Some(format!("Title {i}"))
        },
        html_title: Some(format!("Title {i} | Site")),
        author: (i % 2 == 1).then(|| format!("Author {i}")),
        date_published: (i % 3 == 1).then(|| "2024-05-06".into()),
        site_name: Some("Site".into()),
        lang: if i % 2 == 0 { Some("en".into()) } else { None },
        lang_score: if i % 2 == 0 {
            Some(0.5 + (i % 50) as f32 / 100.0)
        } else {
            None
        },
        html_lang: (i % 4 == 0).then(|| "en-US".into()),
        page_type: ["article", "forum", "product", "other"][i as usize % 4].into(),
        charset: "UTF-8".into(),
        charset_source: "meta".into(),
        text: text.into(),
        source: "in/CC-MAIN-x.warc.gz".into(),
        offset: i * 1000,
        truncated: i % 5 == 4,
        ..PageRecord::default()
    }
}

fn pages(n: u64) -> Vec<PageRecord> {
    (0..n)
        .map(|i| {
            let text = match i % 4 {
                0 => String::new(),
                1 => format!("Paragraph {i}.\nSecond line with ünïcödé ✓ and \"quotes\"."),
                2 => "x".repeat(300 + i as usize),
                _ => format!("tab\there\r\nand a NUL \u{0} and U+2028 \u{2028} in {i}"),
            };
            page(i, &text)
        })
        .collect()
}

fn opts(format: Format, compress: Compress, shard_size: u64) -> ShardOptions {
    ShardOptions {
        format,
        compress,
        shard_size,
        ..ShardOptions::default()
    }
}

fn write_all(dir: &Path, o: &ShardOptions, pages: &[PageRecord]) -> ShardSummary {
    let mut w = ShardWriter::create(dir, "x", o).unwrap();
    for p in pages {
        w.write(p).unwrap();
    }
    w.finish().unwrap()
}

/// Names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn jsonl_lines(bytes: &[u8]) -> Vec<PageRecord> {
    let text = std::str::from_utf8(bytes).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'));
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn decompress(path: &Path) -> Vec<u8> {
    let raw = fs::read(path).unwrap();
    let mut out = Vec::new();
    match path.extension().and_then(|e| e.to_str()) {
        Some("zst") => out = zstd::decode_all(&raw[..]).unwrap(),
        Some("gz") => {
            flate2::read::MultiGzDecoder::new(&raw[..])
                .read_to_end(&mut out)
                .unwrap();
        }
        _ => out = raw,
    }
    out
}

// ---- JSONL ----

#[test]
fn jsonl_lines_parse_back_to_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = pages(10);
    let s = write_all(
        dir.path(),
        &opts(Format::Jsonl, Compress::None, u64::MAX),
        &input,
    );
    assert_eq!(s.files, vec![dir.path().join("x-00000.jsonl")]);
    assert_eq!(s.pages, 10);
    let bytes = fs::read(&s.files[0]).unwrap();
    assert_eq!(s.bytes_uncompressed, bytes.len() as u64);
    assert_eq!(s.bytes_written, bytes.len() as u64);
    assert_eq!(jsonl_lines(&bytes), input);
}

#[test]
fn zstd_and_gzip_shards_decompress_to_the_exact_jsonl() {
    let input = pages(25);
    let plain_dir = tempfile::tempdir().unwrap();
    let plain = write_all(
        plain_dir.path(),
        &opts(Format::Jsonl, Compress::None, 2000),
        &input,
    );
    for (compress, ext) in [(Compress::Zstd, "jsonl.zst"), (Compress::Gzip, "jsonl.gz")] {
        let dir = tempfile::tempdir().unwrap();
        let s = write_all(dir.path(), &opts(Format::Jsonl, compress, 2000), &input);
        assert_eq!(s.files.len(), plain.files.len());
        assert_eq!(s.bytes_uncompressed, plain.bytes_uncompressed);
        let mut on_disk = 0;
        for (i, (f, p)) in s.files.iter().zip(&plain.files).enumerate() {
            assert_eq!(f, &dir.path().join(format!("x-{i:05}.{ext}")));
            assert_eq!(decompress(f), fs::read(p).unwrap(), "{}", f.display());
            on_disk += fs::metadata(f).unwrap().len();
        }
        assert_eq!(s.bytes_written, on_disk);
        assert!(s.bytes_written < s.bytes_uncompressed);
    }
}

#[test]
fn rollover_at_shard_size_never_splits_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = pages(40);
    let size = 1500;
    let s = write_all(
        dir.path(),
        &opts(Format::Jsonl, Compress::None, size),
        &input,
    );
    assert!(s.files.len() > 3, "{} shards", s.files.len());
    let mut back = Vec::new();
    let mut total = 0;
    for (i, f) in s.files.iter().enumerate() {
        let bytes = fs::read(f).unwrap();
        total += bytes.len() as u64;
        let lines = jsonl_lines(&bytes);
        let last_line = {
            let mut one = Vec::new();
            jsonl::encode_into(lines.last().unwrap(), &mut one);
            one.len() as u64
        };
        let len = bytes.len() as u64;
        if i + 1 < s.files.len() {
            // Closed by the page that made it reach the size, and not one page later.
            assert!(len >= size, "shard {i}: {len} < {size}");
            assert!(
                len - last_line < size,
                "shard {i} should have closed a page earlier"
            );
        } else {
            assert!(len - last_line < size);
        }
        back.extend(lines);
    }
    assert_eq!(back, input);
    assert_eq!(total, s.bytes_uncompressed);
}

#[test]
fn a_page_bigger_than_the_shard_size_gets_its_own_shard() {
    let dir = tempfile::tempdir().unwrap();
    let input = vec![
        page(1, "small"),
        page(2, &"big ".repeat(100)),
        page(3, "small"),
    ];
    let s = write_all(
        dir.path(),
        &opts(Format::Jsonl, Compress::None, 100),
        &input,
    );
    assert_eq!(s.files.len(), 3);
    for (f, p) in s.files.iter().zip(&input) {
        assert_eq!(jsonl_lines(&fs::read(f).unwrap()), vec![p.clone()]);
    }
}

#[test]
fn no_pages_no_files() {
    let dir = tempfile::tempdir().unwrap();
    let s = write_all(dir.path(), &ShardOptions::default(), &[]);
    assert_eq!(s, ShardSummary::default());
    assert!(listing(dir.path()).is_empty());
}

// ---- Atomicity ----

#[test]
fn temp_names_before_finish_final_names_after() {
    let dir = tempfile::tempdir().unwrap();
    let o = opts(Format::Jsonl, Compress::Zstd, 1500);
    let mut w = ShardWriter::create(dir.path(), "x", &o).unwrap();
    assert!(
        listing(dir.path()).is_empty(),
        "nothing before the first page"
    );
    w.write(&page(1, "one")).unwrap();
    assert_eq!(listing(dir.path()), [".x-00000.jsonl.zst.tmp"]);
    w.write(&page(2, &"y".repeat(2000))).unwrap(); // reaches the size: shard 0 complete
    assert_eq!(listing(dir.path()), ["x-00000.jsonl.zst"]);
    w.write(&page(3, "three")).unwrap();
    assert_eq!(
        listing(dir.path()),
        [".x-00001.jsonl.zst.tmp", "x-00000.jsonl.zst"]
    );
    let s = w.finish().unwrap();
    assert_eq!(
        listing(dir.path()),
        ["x-00000.jsonl.zst", "x-00001.jsonl.zst"]
    );
    assert_eq!(s.files.len(), 2);
    assert_eq!(s.pages, 3);
}

#[test]
fn drop_without_finish_leaves_only_a_temp_file() {
    for format in [Format::Jsonl, Format::Wet, Format::Text] {
        let dir = tempfile::tempdir().unwrap();
        let o = opts(format, Compress::Zstd, u64::MAX);
        let mut w = ShardWriter::create(dir.path(), "x", &o).unwrap();
        for p in pages(5) {
            w.write(&p).unwrap();
        }
        drop(w);
        let names = listing(dir.path());
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(names[0].starts_with(".x-00000") && names[0].ends_with(".tmp"));
        assert!(!dir.path().join(shard_name("x", &o, 0)).exists());
    }
}

#[test]
fn after_a_write_error_the_writer_refuses_to_finish() {
    let dir = tempfile::tempdir().unwrap();
    let o = opts(Format::Text, Compress::None, u64::MAX);
    let mut w = ShardWriter::create(dir.path(), "x", &o).unwrap();
    w.write(&page(1, "one")).unwrap();
    let tmp = dir.path().join(".x-00000.tmp");
    fs::remove_dir_all(&tmp).unwrap(); // the disk "loses" the shard under us
    let err = w.write(&page(2, "two")).unwrap_err().to_string();
    let expected = format!("cannot write shard {}: ", tmp.join("000001.txt").display());
    assert!(err.starts_with(&expected), "{err}");
    assert!(err.ends_with("No such file or directory"), "{err}");
    let err = w.finish().unwrap_err().to_string();
    assert!(err.contains("stopped after an earlier error"), "{err}");
    assert!(!dir.path().join("x-00000").exists());
}

#[test]
fn rewriting_replaces_earlier_shards() {
    for format in [Format::Jsonl, Format::Text] {
        let dir = tempfile::tempdir().unwrap();
        let o = opts(format, Compress::Gzip, u64::MAX);
        write_all(dir.path(), &o, &pages(6));
        let s = write_all(dir.path(), &o, &pages(2));
        assert_eq!(listing(dir.path()), [shard_name("x", &o, 0)]);
        if format == Format::Text {
            assert_eq!(
                listing(&s.files[0]),
                ["000000.txt", "000001.txt", "index.tsv"]
            );
        } else {
            assert_eq!(jsonl_lines(&decompress(&s.files[0])), pages(2));
        }
    }
}

// ---- Determinism ----

#[test]
fn same_pages_give_byte_identical_output() {
    for format in [Format::Jsonl, Format::Wet, Format::Text] {
        for compress in [Compress::Zstd, Compress::Gzip, Compress::None] {
            let o = opts(format, compress, 3000);
            let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            let sa = write_all(a.path(), &o, &pages(30));
            let sb = write_all(b.path(), &o, &pages(30));
            assert_eq!(sa.files.len(), sb.files.len());
            assert_eq!(sa.bytes_written, sb.bytes_written);
            for (fa, fb) in sa.files.iter().zip(&sb.files) {
                assert_eq!(fa.file_name(), fb.file_name());
                if format == Format::Text {
                    for name in listing(fa) {
                        assert_eq!(
                            fs::read(fa.join(&name)).unwrap(),
                            fs::read(fb.join(&name)).unwrap()
                        );
                    }
                } else {
                    assert_eq!(
                        fs::read(fa).unwrap(),
                        fs::read(fb).unwrap(),
                        "{format} {compress}"
                    );
                }
            }
        }
    }
}

// ---- WET, read back by an independent parser ----

/// RFC 4648 base32, written out longhand: the slow twin of `data_encoding::BASE32`.
fn naive_base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let bits: Vec<u8> = bytes
        .iter()
        .flat_map(|b| (0..8).rev().map(move |i| (b >> i) & 1))
        .collect();
    let mut out: String = bits
        .chunks(5)
        .map(|c| {
            let v = (0..5).fold(0usize, |acc, i| {
                (acc << 1) | *c.get(i).unwrap_or(&0) as usize
            });
            ALPHABET[v] as char
        })
        .collect();
    while out.len() % 8 != 0 {
        out.push('=');
    }
    out
}

/// One record: headers in order, block.
struct Record {
    headers: Vec<(String, String)>,
    block: Vec<u8>,
}

impl Record {
    fn get(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} header"))
    }
}

/// Gunzip each member on its own, check it holds exactly one well-framed record, and check
/// Content-Length and WARC-Block-Digest against the block.
fn read_wet(path: &Path) -> Vec<Record> {
    let raw = fs::read(path).unwrap();
    let mut rest = &raw[..];
    let mut records = Vec::new();
    while !rest.is_empty() {
        let mut member = Vec::new();
        let mut gz = flate2::bufread::GzDecoder::new(rest);
        gz.read_to_end(&mut member).unwrap();
        rest = gz.into_inner(); // the bufread decoder stops at the end of one member
        let text_end = member
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("end of headers");
        let head = std::str::from_utf8(&member[..text_end]).unwrap();
        let mut lines = head.split("\r\n");
        assert_eq!(lines.next(), Some("WARC/1.0"));
        let headers: Vec<(String, String)> = lines
            .map(|l| {
                let (n, v) = l.split_once(": ").expect("name: value");
                (n.to_string(), v.to_string())
            })
            .collect();
        let mut r = Record {
            headers,
            block: Vec::new(),
        };
        let len: usize = r.get("Content-Length").parse().unwrap();
        let body = &member[text_end + 4..];
        assert_eq!(
            body.len(),
            len + 4,
            "Content-Length must be the exact block length"
        );
        assert_eq!(&body[len..], b"\r\n\r\n");
        r.block = body[..len].to_vec();
        let digest = format!(
            "sha1:{}",
            naive_base32(&<sha1::Sha1 as sha1::Digest>::digest(&r.block))
        );
        assert_eq!(r.get("WARC-Block-Digest"), digest);
        records.push(r);
    }
    records
}

#[test]
fn wet_records_are_well_framed_with_exact_lengths_and_digests() {
    let dir = tempfile::tempdir().unwrap();
    let input = pages(20);
    let s = write_all(dir.path(), &opts(Format::Wet, Compress::Zstd, 2500), &input);
    assert!(s.files.len() > 1);
    let mut back = Vec::new();
    let mut uncompressed = 0;
    for (i, f) in s.files.iter().enumerate() {
        let name = format!("x-{i:05}.warc.wet.gz");
        assert_eq!(f, &dir.path().join(&name));
        uncompressed += decompress(f).len() as u64;
        let mut records = read_wet(f);
        assert_eq!(records[0].get("WARC-Date"), records[1].get("WARC-Date"));
        let info = records.remove(0);
        assert_eq!(info.get("WARC-Type"), "warcinfo");
        assert_eq!(info.get("WARC-Filename"), name);
        assert_eq!(info.get("Content-Type"), "application/warc-fields");
        let fields = std::str::from_utf8(&info.block).unwrap();
        assert!(fields.contains(&format!(
            "software: warcsift/{}\r\n",
            env!("CARGO_PKG_VERSION")
        )));
        assert!(fields.contains("source: in/CC-MAIN-x.warc.gz\r\n"));
        for r in records {
            // The detected language, as ISO 639-3, where the page has one.
            let lang = input
                .iter()
                .find(|p| p.url == r.get("WARC-Target-URI"))
                .and_then(|p| p.lang.as_deref())
                .and_then(crate::lang::iso639_3);
            let mut want = vec![
                "WARC-Type",
                "WARC-Target-URI",
                "WARC-Date",
                "WARC-Record-ID",
                "WARC-Refers-To",
                "WARC-Block-Digest",
            ];
            if lang.is_some() {
                want.push("WARC-Identified-Content-Language");
            }
            want.extend(["WARC-Page-Type", "Content-Type", "Content-Length"]);
            assert_eq!(
                r.headers
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>(),
                want
            );
            if let Some(code) = lang {
                assert_eq!(r.get("WARC-Identified-Content-Language"), code);
            }
            assert_eq!(r.get("WARC-Type"), "conversion");
            assert_eq!(r.get("Content-Type"), "text/plain");
            back.push(r);
        }
    }
    assert_eq!(uncompressed, s.bytes_uncompressed);
    assert_eq!(back.len(), input.len());
    for (r, p) in back.iter().zip(&input) {
        assert_eq!(r.get("WARC-Target-URI"), p.url);
        assert_eq!(r.get("WARC-Date"), p.date);
        assert_eq!(r.get("WARC-Refers-To"), p.id);
        assert_eq!(r.get("WARC-Page-Type"), p.page_type);
        let id = r.get("WARC-Record-ID");
        assert!(
            id.starts_with("<urn:uuid:") && id.ends_with('>') && id.len() == 47,
            "{id}"
        );
        assert_eq!(&id[24..25], "5", "version nibble of {id}");
        assert!("89ab".contains(&id[29..30]), "variant nibble of {id}");
        let block = std::str::from_utf8(&r.block).unwrap();
        let (title, text) = block.split_once('\n').unwrap();
        assert_eq!(title, p.title.as_deref().unwrap_or(""));
        assert_eq!(text, p.text);
    }
}

#[test]
fn wet_header_values_cannot_break_the_framing() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = page(1, "text");
    p.url = "http://e.com/a\r\nWARC-Type: response".into();
    p.title = Some("two\nlines".into());
    p.id = "bare-id".into();
    let s = write_all(
        dir.path(),
        &opts(Format::Wet, Compress::None, u64::MAX),
        &[p],
    );
    let records = read_wet(&s.files[0]);
    assert_eq!(records.len(), 2);
    let r = &records[1];
    assert_eq!(
        r.get("WARC-Target-URI"),
        "http://e.com/a%0D%0AWARC-Type: response"
    );
    assert_eq!(r.get("WARC-Type"), "conversion");
    assert_eq!(r.get("WARC-Refers-To"), "<bare-id>");
    assert_eq!(r.block, b"two lines\ntext");
}

#[test]
fn uuid5_matches_rfc_vectors_and_our_namespace() {
    // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "python.org")
    let dns = [
        0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
        0xc8,
    ];
    assert_eq!(
        wet::uuid5(&dns, b"python.org"),
        "886313e1-3b8a-5372-9b90-0c9aee199e5d"
    );
    let mut url = dns;
    url[3] = 0x11; // NAMESPACE_URL differs from NAMESPACE_DNS in one byte
    let ns = wet::uuid5(&url, b"urn:warcsift:wet");
    assert_eq!(ns, "29ec581e-00d1-51e2-a243-4b72c515751f");
    assert_eq!(
        data_encoding::HEXLOWER.encode(&wet::NAMESPACE),
        ns.replace('-', "")
    );
    // Python: uuid.uuid5(uuid.UUID("29ec581e-..."), "<urn:uuid:0>")
    assert_eq!(
        wet::conversion_record_id("<urn:uuid:0>"),
        "<urn:uuid:0e6b42d7-cf62-577c-a212-dec29a45cae5>"
    );
}

#[test]
fn naive_base32_agrees_with_data_encoding() {
    for n in 0..40u8 {
        let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37).wrapping_add(n)).collect();
        assert_eq!(naive_base32(&bytes), data_encoding::BASE32.encode(&bytes));
    }
}

proptest! {
    #[test]
    fn any_page_round_trips_through_jsonl_and_wet(
        text in "\\PC*|[\\x00-\\x1f\\\\\"\u{2028}a-z]{0,40}",
        title in proptest::option::of("\\PC{0,20}"),
        url in "[ -~]{0,30}",
        lang in proptest::option::of("[\x00-\x7f]{0,8}"),
        score in proptest::option::of(0.0f32..=1.0),
        author in proptest::option::of("\\PC{0,20}"),
        offset in any::<u64>(),
        truncated in any::<bool>(),
    ) {
        let mut p = page(7, &text);
        p.title = title;
        p.url = url;
        p.lang = lang;
        p.lang_score = score.map(|s| (s * 100.0).round() / 100.0);
        p.author = author;
        p.offset = offset;
        p.truncated = truncated;
        let mut line = Vec::new();
        jsonl::encode_into(&p, &mut line);
        let mut twin = Vec::new();
        jsonl::encode_serde(&p, &mut twin);
        prop_assert_eq!(&line, &twin);
        prop_assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        let back: PageRecord = serde_json::from_slice(&line).unwrap();
        prop_assert_eq!(&back, &p);

        let mut rec = Vec::new();
        wet::conversion_record(&p, &mut rec);
        let block = wet::conversion_block(&p);
        let head = format!("Content-Length: {}\r\n\r\n", block.len());
        let at = rec.windows(head.len()).position(|w| w == head.as_bytes()).unwrap();
        let tail = [&block[..], b"\r\n\r\n"].concat();
        prop_assert_eq!(&rec[at + head.len()..], tail.as_slice());
        prop_assert!(block.ends_with(p.text.as_bytes()));
    }
}

// ---- Text ----

#[test]
fn text_shards_hold_one_file_per_page_and_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let input = pages(12);
    let s = write_all(
        dir.path(),
        &opts(Format::Text, Compress::Zstd, 1200),
        &input,
    );
    assert!(s.files.len() > 1);
    let mut n_total = 0;
    let mut bytes = 0;
    for (i, d) in s.files.iter().enumerate() {
        assert_eq!(d, &dir.path().join(format!("x-{i:05}")));
        assert!(d.is_dir());
        let index = fs::read_to_string(d.join("index.tsv")).unwrap();
        bytes += index.len() as u64;
        let mut lines = index.lines();
        assert_eq!(lines.next(), Some("n\tid\turl\tpage_type"));
        for (n, line) in lines.enumerate() {
            let p = &input[n_total];
            assert_eq!(
                line,
                format!("{n:06}\t{}\t{}\t{}", p.id, p.url, p.page_type)
            );
            let txt = fs::read(d.join(format!("{n:06}.txt"))).unwrap();
            assert_eq!(txt, p.text.as_bytes());
            bytes += txt.len() as u64;
            n_total += 1;
        }
        assert_eq!(listing(d).len(), index.lines().count()); // n .txt files + index.tsv
    }
    assert_eq!(n_total, input.len());
    assert_eq!(s.bytes_written, bytes);
    assert_eq!(s.bytes_uncompressed, bytes);
    assert!(listing(dir.path()).iter().all(|n| !n.starts_with('.')));
}

#[test]
fn text_index_escapes_tabs_and_line_breaks() {
    let mut p = page(1, "");
    p.url = "http://e.com/a\tb\nc\\d".into();
    let mut line = Vec::new();
    text::index_line(3, &p, &mut line);
    assert_eq!(
        String::from_utf8(line).unwrap(),
        format!(
            "000003\t{}\thttp://e.com/a\\tb\\nc\\\\d\t{}\n",
            p.id, p.page_type
        )
    );
}

// ---- Options and errors ----

#[test]
fn format_and_compress_names() {
    use clap::ValueEnum;
    for f in Format::value_variants() {
        let name = f.to_possible_value().unwrap().get_name().to_string();
        assert_eq!(name, f.to_string());
        assert_eq!(name.parse::<Format>().unwrap(), *f);
    }
    for c in Compress::value_variants() {
        let name = c.to_possible_value().unwrap().get_name().to_string();
        assert_eq!(name, c.to_string());
        assert_eq!(name.parse::<Compress>().unwrap(), *c);
    }
    assert_eq!(Compress::default(), Compress::Zstd);
    assert!("zip"
        .parse::<Compress>()
        .unwrap_err()
        .contains("expected zstd, gzip or none"));
    let d = ShardOptions::default();
    assert_eq!(
        (d.format, d.shard_size, d.zstd_level),
        (Format::Jsonl, 256 << 20, 3)
    );
}

#[test]
fn refuses_bad_stems_and_levels() {
    let dir = tempfile::tempdir().unwrap();
    for stem in ["", ".hidden", "a/b", "a\\b", "..", "a\0b"] {
        let err = ShardWriter::create(dir.path(), stem, &ShardOptions::default()).err();
        assert!(
            matches!(err, Some(OutputError::InvalidStem { .. })),
            "{stem:?}"
        );
    }
    let o = ShardOptions {
        zstd_level: 99,
        ..ShardOptions::default()
    };
    let err = ShardWriter::create(dir.path(), "x", &o)
        .err()
        .unwrap()
        .to_string();
    assert!(err.starts_with("invalid zstd level 99"), "{err}");
}

#[test]
fn errors_name_the_path_and_the_cause() {
    let e = OutputError::Write {
        path: PathBuf::from("out/.x-00001.jsonl.zst.tmp"),
        cause: std::io::Error::from_raw_os_error(28),
    };
    assert_eq!(
        e.to_string(),
        "cannot write shard out/.x-00001.jsonl.zst.tmp: No space left on device"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    fs::write(&file, "").unwrap();
    let err = ShardWriter::create(&file.join("sub"), "x", &ShardOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        err,
        format!(
            "cannot create output directory {}: Not a directory",
            file.join("sub").display()
        )
    );
}

/// Write a sample WET file and, where Python's warcio is installed, check it with
/// `tests/support/check_wet.py` (warcio, plus fastwarc when importable).
#[test]
fn wet_reads_back_with_warcio_when_available() {
    let have_warcio = std::process::Command::new("python3")
        .args(["-c", "import warcio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_warcio {
        eprintln!("python3 with warcio not found; skipping the warcio check");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let s = write_all(
        dir.path(),
        &opts(Format::Wet, Compress::Zstd, u64::MAX),
        &pages(9),
    );
    // WARCSIFT_WET_SAMPLE=/tmp/sample.warc.wet.gz keeps a copy to try other readers on.
    if let Some(keep) = std::env::var_os("WARCSIFT_WET_SAMPLE") {
        fs::copy(&s.files[0], keep).unwrap();
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/check_wet.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(&s.files[0])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["records"], 10);
    assert_eq!(v["conversion"], 9);
    assert_eq!(v["digest_ok"], true);
    assert_eq!(v["length_ok"], true);
    assert_eq!(v["uris"][8], "http://example.com/8");
}

#[test]
fn the_writer_can_move_to_a_writer_thread() {
    fn assert_send<T: Send>() {}
    assert_send::<ShardWriter>();
    assert_send::<PageRecord>();
}
