//! Arbitrary bytes → `Input::from_reader` (compression by magic) → `RecordReader`, iterated to
//! the end. The first byte picks a variant: the bytes as they are (plain, or gzip/zstd/lz4
//! when they start with the magic), or the bytes split into one gzip member per record (as
//! Common Crawl writes WARC files and the Internet Archive ARC files: before every line that
//! starts with `WARC/1.`, `filedesc://` or `http://`), intact, truncated or with one
//! corrupted byte; its top bit picks small reader limits. ARC input (an ARC header line at a
//! record boundary) goes through the same reader, so ARC seeds cover the ARC parser.
//!
//! Checks: no panic, the reader ends (at most one event per input byte, plus one), a kept
//! record's block is never larger than `max_record_bytes`, and a gzip stream cut inside a
//! member yields at least one error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Write};
use warcsift::input::Input;
use warcsift::record::{ReadEvent, ReaderOptions, RecordReader};

/// One gzip member per record: split before every `WARC/1.`, `filedesc://` or `http://` that
/// starts a line. Also gives the compressed offsets where members end.
fn gzip_records(data: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut starts = vec![0];
    let mut i = 1;
    while i + 7 <= data.len() {
        let rest = &data[i..];
        let record = [&b"WARC/1."[..], b"filedesc://", b"http://"]
            .iter()
            .any(|p| rest.starts_with(p));
        if data[i - 1] == b'\n' && record {
            starts.push(i);
        }
        i += 1;
    }
    starts.push(data.len());
    let mut out = Vec::new();
    let mut ends = Vec::new();
    for w in starts.windows(2) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let _ = e.write_all(&data[w[0]..w[1]]);
        if let Ok(member) = e.finish() {
            out.extend_from_slice(&member);
            ends.push(out.len());
        }
    }
    (out, ends)
}

fuzz_target!(|data: &[u8]| {
    let [mode, p0, p1, rest @ ..] = data else {
        return;
    };
    let at = usize::from(*p0) << 8 | usize::from(*p1);
    // Set when the stream was cut inside a gzip member: that must be reported.
    let mut cut_inside = false;
    let bytes = match mode & 3 {
        0 => rest.to_vec(),
        1 => gzip_records(rest).0,
        2 => {
            let (mut gz, ends) = gzip_records(rest);
            let cut = at % (gz.len() + 1);
            cut_inside = cut > 0 && !ends.contains(&cut);
            gz.truncate(cut);
            gz
        }
        _ => {
            let (mut gz, _) = gzip_records(rest);
            if !gz.is_empty() {
                let n = gz.len();
                gz[at % n] ^= p1 | 1;
            }
            gz
        }
    };
    let opts = if mode & 0x80 != 0 {
        ReaderOptions::default()
            .with_max_record_bytes(4096)
            .with_max_header_bytes(512)
            .with_max_header_count(16)
    } else {
        ReaderOptions::default()
    };
    let limit = bytes.len() as u64 + 1;
    let Ok(input) = Input::from_reader("fuzz", Cursor::new(bytes)) else {
        return;
    };
    let mut events = 0u64;
    let mut errors = 0u64;
    for event in RecordReader::new(input, opts) {
        events += 1;
        assert!(events <= limit, "the reader must make progress");
        match &event {
            ReadEvent::Record(r) => assert!(r.block.len() as u64 <= opts.max_record_bytes),
            ReadEvent::Error { .. } => errors += 1,
            ReadEvent::Skipped { .. } => {}
        }
    }
    assert!(
        !cut_inside || errors > 0,
        "a truncated gzip member went unreported"
    );
});
