#!/usr/bin/env python3
"""Write seed corpora for the fuzz targets from samples/sample.warc.gz (stdlib only).

Seeds are written at run time into fuzz/corpus/<target>/ (git-ignored); nothing large is
committed. Usage, from anywhere:  python3 fuzz/make_seeds.py
"""
import gzip
import hashlib
import io
import pathlib
import zlib

FUZZ = pathlib.Path(__file__).resolve().parent
SAMPLE = FUZZ.parent / "samples" / "sample.warc.gz"


def members(raw: bytes):
    """Decompressed content of each gzip member, in order."""
    out, rest = [], raw
    while rest:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out.append(d.decompress(rest))
        rest = d.unused_data
    return out


def parse_record(rec: bytes):
    head, _, rest = rec.partition(b"\r\n\r\n")
    fields = {}
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        fields[k.strip().lower()] = v.strip()
    n = int(fields.get(b"content-length", b"0"))
    return fields, rest[:n]


def http_payload(block: bytes) -> bytes:
    head, _, body = block.partition(b"\r\n\r\n")
    h = head.lower()
    if b"transfer-encoding: chunked" in h:
        out, pos = b"", 0
        while True:
            nl = body.find(b"\r\n", pos)
            if nl < 0:
                break
            size = int(body[pos:nl].split(b";")[0], 16)
            if size == 0:
                break
            out += body[nl + 2:nl + 2 + size]
            pos = nl + 2 + size + 2
        body = out
    if b"content-encoding: gzip" in h and body[:2] == b"\x1f\x8b":
        body = gzip.decompress(body)
    return body


def write(target: str, data: bytes):
    d = FUZZ / "corpus" / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    gz = SAMPLE.read_bytes()
    recs = members(gz)
    raw = b"".join(recs)
    # Member byte ranges in the compressed file.
    ranges, rest = [], gz
    while rest:
        start = len(gz) - len(rest)
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        d.decompress(rest)
        rest = d.unused_data
        ranges.append((start, len(gz) - len(rest)))

    # warc_reader: [mode, p0, p1] + bytes. Small windows of records keep executions fast.
    for i in range(0, len(recs), 3):
        window = b"".join(recs[i:i + 3])
        write("warc_reader", b"\x00\x00\x00" + window)          # plain
        write("warc_reader", b"\x01\x00\x00" + window)          # one member per record
        write("warc_reader", b"\x82\x01\x10" + window)          # truncated, small limits
        write("warc_reader", b"\x03\x00\x40" + window)          # one corrupt byte
        s, e = ranges[i][0], ranges[min(i + 2, len(ranges) - 1)][1]
        write("warc_reader", b"\x00\x00\x00" + gz[s:e])          # real gzip members
    write("warc_reader", b"\x00\x00\x00" + raw[:4096])
    # ARC files (v1 and v2 header lines, a URL with a space, a negative length), plain and
    # one gzip member per record.
    page = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>arc</p>"
    desc = b"1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n"
    arc = (b"filedesc://x.arc 0.0.0.0 19961004000000 text/plain %d\n" % len(desc) + desc + b"\n"
           + b"http://a.com/x y 1.2.3.4 1996100400010299 text/html %d\n" % len(page) + page + b"\n"
           + b"http://a.com/n 1.2.3.4 19961004000104 text/html -1\n" + page + b"\n"
           + b"http://a.com/v2 1.2.3.4 20080101000000 text/html 200 CKSUM - 0 x.arc %d\n"
           % len(page) + page + b"\n")
    write("warc_reader", b"\x00\x00\x00" + arc)
    write("warc_reader", b"\x01\x00\x00" + arc)
    write("warc_reader", b"\x82\x00\x30" + arc)

    for rec in recs:
        fields, block = parse_record(rec)
        kind = fields.get(b"warc-type", b"")
        if kind not in (b"response", b"resource"):
            continue
        write("pipeline_record", (b"\x80" if kind == b"resource" else b"\x05") + block)
        if kind == b"response":
            write("http_parser", block)
            payload = http_payload(block)
        else:
            payload = block
        ct = b""
        for line in block.split(b"\r\n\r\n")[0].split(b"\r\n"):
            if line.lower().startswith(b"content-type:"):
                ct = line.split(b"charset=")[-1] if b"charset=" in line else b""
        url = fields.get(b"warc-target-uri", b"")[:255]
        write("charset", bytes([len(ct), len(url)]) + ct + url + payload)
        if payload[:8] != b"\x89PNG\r\n\x1a\n":
            write("tokenizer", payload)
            write("extract_methods", payload)
    # A few hostile shapes as seeds too.
    for s in [b"<a" * 200, b"<!--" + b"-" * 100, b"<script>" + b"</scrip" * 50,
              b"<div>" * 300 + b"x", b"<a href='" + b"x" * 100, b"&amp;&#x10FFFF;&#99999999;&",
              # React streaming (src/react_stream.rs): placed, nested, cyclic, unclosed.
              b'<main><!--$?--><template id="B:0"></template><p>Loading</p><!--/$--></main>'
              b'<div hidden id="S:0"><div><p>Specs</p><template id="P:1"></template></div></div>'
              b'<div hidden id="S:1">b<template id="P:1"></template></div>'
              b'<script>$RC("B:0","S:0");$RS("S:1","P:1")</script>',
              b'<template id="B:0"></template><div hidden id="S:0"><div>x'
              b'<script>$RC("B:0","S:0")</script>']:
        write("tokenizer", s)
        write("extract_methods", s)
    for s in [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\nab",
              b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip.compress(b"<p>" * 1000),
              b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n" + zlib.compress(b"<p>x</p>"),
              b"HTTP/1.1 200 OK\r\nContent-Encoding: br, gzip\r\n\r\n\x00\x01"]:
        write("http_parser", s)
        write("pipeline_record", b"\x01" + s)
    for t in sorted((FUZZ / "corpus").iterdir()):
        print(f"{t.name}: {len(list(t.iterdir()))} seeds")


if __name__ == "__main__":
    main()
