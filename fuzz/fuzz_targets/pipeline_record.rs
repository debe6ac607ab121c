//! One record end to end, as a pipeline worker sees it: the fuzz input is the block of a WARC
//! `response` (or, by the first byte, `resource`) record; the record is framed by
//! `RecordReader`, its HTTP message parsed and decoded, HTML-ness decided, the charset decoded
//! and one extraction method (picked by the first byte) run. This is `pipeline::process`
//! rebuilt from the public stages (that function is private).
//!
//! Checks: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warcsift::extract;
use warcsift::http::{self, Limits};
use warcsift::record::{ReadEvent, ReaderOptions, RecordReader};

fuzz_target!(|data: &[u8]| {
    let [pick, block @ ..] = data else {
        return;
    };
    let kind = if pick & 0x80 != 0 {
        "resource"
    } else {
        "response"
    };
    let mut warc = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:fuzz>\r\n\
         WARC-Target-URI: http://fuzz.example.jp/page\r\nContent-Type: text/html\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    warc.extend_from_slice(block);
    warc.extend_from_slice(b"\r\n\r\n");
    let methods = extract::registry();
    let method = &methods[usize::from(pick & 0x7f) % methods.len()];
    let limits = Limits::default().with_max_decoded_bytes(1 << 20);
    for event in RecordReader::new(&warc[..], ReaderOptions::default()) {
        let ReadEvent::Record(record) = event else {
            continue;
        };
        let url = record.header.target_uri().map(str::to_string);
        let (body, content_type, charset) = if record.is_http_response() {
            match http::parse_response(&record.block, &limits) {
                Ok(r) => (r.body, r.content_type, r.charset),
                Err(_) => continue,
            }
        } else {
            let (mime, charset) =
                http::parse_content_type(record.header.content_type().unwrap_or(""));
            (
                std::borrow::Cow::Borrowed(&record.block[..]),
                Some(mime),
                charset,
            )
        };
        let html = match content_type.as_deref().filter(|c| !c.is_empty()) {
            Some(ct) => http::is_html_content_type(ct) || http::sniff_html(&body),
            None => http::sniff_html(&body),
        };
        if html {
            let _ =
                extract::extract_with(&body, charset.as_deref(), url.as_deref(), method.as_ref());
        }
    }
});
