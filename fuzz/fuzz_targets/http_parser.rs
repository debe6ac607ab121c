//! Arbitrary bytes → `http::parse_response` with small limits, plus the helpers the record
//! reader and workers use on the same bytes (`peek_content_type`, `sniff_html`,
//! `parse_content_type`).
//!
//! Checks: no panic, and the body is never larger than the decoded-size limit or the input
//! (a body is either a slice of the input, de-chunked input, or capped decoder output).
#![no_main]

use libfuzzer_sys::fuzz_target;
use warcsift::http::{self, Limits};

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_decoded_bytes: 1 << 20,
        max_headers: 32,
        max_header_bytes: 4096,
    };
    if let Ok(r) = http::parse_response(data, &limits) {
        assert!(r.body.len() <= limits.max_decoded_bytes.max(data.len()));
        assert!(r.headers.len() <= limits.max_headers);
        if let Some(ct) = r.header("content-type") {
            let _ = http::parse_content_type(ct);
            let _ = http::is_html_content_type(ct);
        }
        let _ = http::sniff_html(&r.body);
    }
    if let Some(ct) = http::peek_content_type(data) {
        let _ = http::parse_content_type(&ct);
    }
    let _ = http::sniff_html(data);
});
