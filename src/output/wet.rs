//! WET encoding: pages as WARC/1.0 `conversion` records, laid out exactly as Common Crawl's
//! WET files so that `warcio`, `fastwarc` and CC tooling read them back unchanged.
//!
//! A shard is a `warcinfo` record followed by one `conversion` record per page, each record
//! compressed as its own gzip member (what CC does, and what lets readers seek to a record):
//!
//! ```text
//! WARC/1.0\r\n
//! WARC-Type: conversion\r\n
//! WARC-Target-URI: <url>\r\n
//! WARC-Date: <date of the original capture>\r\n
//! WARC-Record-ID: <urn:uuid:…-5…>\r\n
//! WARC-Refers-To: <original WARC-Record-ID>\r\n
//! WARC-Block-Digest: sha1:<base32 of SHA-1 of the block>\r\n
//! WARC-Identified-Content-Language: <detected language, ISO 639-3> (when detected)\r\n
//! WARC-Page-Type: <article, forum, product, ...>\r\n
//! Content-Type: text/plain\r\n
//! Content-Length: <bytes in the block>\r\n
//! \r\n
//! <block>\r\n
//! \r\n
//! ```
//!
//! - **Block**: the title on the first line (as CC does), then `\n`, then the page text as
//!   given. The first line is *always* the title: a page without one gets an empty first
//!   line, so a reader never mistakes the first text line for a title. Line breaks inside the
//!   title become spaces.
//! - **Record ids** are name-based, so output is byte-identical across runs: a UUIDv5
//!   (RFC 9562 §5.5: SHA-1 of namespace and name) in the namespace [`NAMESPACE`], named by the
//!   original record id for a conversion record and by the shard file name and first page's
//!   id for the warcinfo record.
//! - **warcinfo**: dated with the first page's `WARC-Date` (never the clock), and a
//!   `application/warc-fields` block naming the software (`warcsift/<version>`), the format,
//!   and the input file.
//! - **Header values** are written as given, except that ASCII control characters (which
//!   would break the record framing) are percent-encoded (`%0D`, `%0A`, …), and a
//!   `WARC-Refers-To` that is not already `<…>` gets its angle brackets.
//! - `WARC-Page-Type` is warcsift's own field (WARC 1.0 §4 lets a record carry fields of its
//!   own, and readers keep them): the page's type as [`PageRecord::page_type`] names it.
//! - `WARC-Identified-Content-Language` is the *detected* language of the text
//!   ([`PageRecord::lang`], [`crate::lang`]) as ISO 639-3, the form Common Crawl writes
//!   (`eng`, `deu`; CC lists up to three, comma-separated, we give one); left out when no
//!   language was detected. The declared `<html lang>` is not written.

use flate2::write::GzEncoder;
use sha1::{Digest, Sha1};
use std::io::Write;

use super::PageRecord;

/// UUID namespace of warcsift's WET record ids: UUIDv5 of `urn:warcsift:wet` in the RFC 9562
/// URL namespace (`29ec581e-00d1-51e2-a243-4b72c515751f`).
pub const NAMESPACE: [u8; 16] = [
    0x29, 0xec, 0x58, 0x1e, 0x00, 0xd1, 0x51, 0xe2, 0xa2, 0x43, 0x4b, 0x72, 0xc5, 0x15, 0x75, 0x1f,
];

/// gzip level of each record member: flate2's default (6), the level CC's WET files use.
const GZIP_LEVEL: u32 = 6;

/// A name-based UUID (version 5): SHA-1 of `namespace ‖ name`, with version and variant bits
/// set, formatted `xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx` in lowercase.
pub fn uuid5(namespace: &[u8; 16], name: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(namespace);
    h.update(name);
    let digest = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex = data_encoding::HEXLOWER.encode(&b);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The `WARC-Record-ID` of the conversion record for the page whose record id is `original_id`.
pub fn conversion_record_id(original_id: &str) -> String {
    format!("<urn:uuid:{}>", uuid5(&NAMESPACE, original_id.as_bytes()))
}

/// `WARC-Block-Digest` value of `block`: `sha1:` and the RFC 4648 base32 of its SHA-1.
pub fn block_digest(block: &[u8]) -> String {
    format!(
        "sha1:{}",
        data_encoding::BASE32.encode(&Sha1::digest(block))
    )
}

/// The block of a page's conversion record: title line, `\n`, text.
pub fn conversion_block(page: &PageRecord) -> Vec<u8> {
    let title = page.title.as_deref().unwrap_or("");
    let mut block = Vec::with_capacity(title.len() + 1 + page.text.len());
    for c in title.chars() {
        let c = if c == '\r' || c == '\n' { ' ' } else { c };
        let mut buf = [0u8; 4];
        block.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    block.push(b'\n');
    block.extend_from_slice(page.text.as_bytes());
    block
}

/// Append the uncompressed `conversion` record of `page` to `out`.
pub fn conversion_record(page: &PageRecord, out: &mut Vec<u8>) {
    let block = conversion_block(page);
    let refers_to = if page.id.starts_with('<') && page.id.ends_with('>') {
        page.id.clone()
    } else {
        format!("<{}>", page.id)
    };
    let record_id = conversion_record_id(&page.id);
    let digest = block_digest(&block);
    let mut headers = vec![
        ("WARC-Type", "conversion"),
        ("WARC-Target-URI", page.url.as_str()),
        ("WARC-Date", page.date.as_str()),
        ("WARC-Record-ID", record_id.as_str()),
        ("WARC-Refers-To", refers_to.as_str()),
        ("WARC-Block-Digest", digest.as_str()),
    ];
    if let Some(code) = page.lang.as_deref().and_then(crate::lang::iso639_3) {
        headers.push(("WARC-Identified-Content-Language", code));
    }
    headers.push(("WARC-Page-Type", page.page_type.as_str()));
    headers.push(("Content-Type", "text/plain"));
    record(out, &headers, &block);
}

/// Append the uncompressed `warcinfo` record that opens the shard `file_name`, whose first
/// page is `first`, to `out`.
pub fn warcinfo_record(file_name: &str, first: &PageRecord, out: &mut Vec<u8>) {
    let mut block = Vec::new();
    let fields = [
        ("software", concat!("warcsift/", env!("CARGO_PKG_VERSION"))),
        ("format", "WARC File Format 1.0"),
        (
            "description",
            "WET: main text of HTML pages, one conversion record per page; the first line of each block is the page title (empty if none)",
        ),
        ("source", first.source.as_str()),
    ];
    for (name, value) in fields {
        field(&mut block, name, value);
    }
    let mut id_name = Vec::new();
    id_name.extend_from_slice(b"warcinfo\n");
    id_name.extend_from_slice(file_name.as_bytes());
    id_name.push(b'\n');
    id_name.extend_from_slice(first.id.as_bytes());
    record(
        out,
        &[
            ("WARC-Type", "warcinfo"),
            ("WARC-Date", &first.date),
            ("WARC-Filename", file_name),
            (
                "WARC-Record-ID",
                &format!("<urn:uuid:{}>", uuid5(&NAMESPACE, &id_name)),
            ),
            ("WARC-Block-Digest", &block_digest(&block)),
            ("Content-Type", "application/warc-fields"),
        ],
        &block,
    );
}

/// Append `data` compressed as one complete gzip member to `out`. The gzip header carries no
/// file name and mtime 0, so the bytes depend on `data` only.
pub fn gzip_member(data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
    let mut gz = GzEncoder::new(out, flate2::Compression::new(GZIP_LEVEL));
    gz.write_all(data)?;
    gz.finish()?;
    Ok(())
}

/// `WARC/1.0`, `headers`, `Content-Length`, blank line, `block`, blank line.
fn record(out: &mut Vec<u8>, headers: &[(&str, &str)], block: &[u8]) {
    out.extend_from_slice(b"WARC/1.0\r\n");
    for (name, value) in headers {
        field(out, name, value);
    }
    field(out, "Content-Length", &block.len().to_string());
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
}

/// `name: value\r\n`, with ASCII control characters of `value` percent-encoded.
fn field(out: &mut Vec<u8>, name: &str, value: &str) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    for &b in value.as_bytes() {
        if b < 0x20 || b == 0x7f {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            out.push(b);
        }
    }
    out.extend_from_slice(b"\r\n");
}
