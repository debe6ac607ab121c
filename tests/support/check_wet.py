#!/usr/bin/env python3
"""Check a WET file written by warcsift the way downstream tools will read it.

Usage: python3 tests/support/check_wet.py FILE.warc.wet.gz

Reads FILE with warcio (required) and, when importable, fastwarc, and checks:
  - every record is its own gzip member, starts with "WARC/1.0\\r\\n" and ends with
    "\\r\\n\\r\\n" (split with zlib, independently of either library);
  - Content-Length equals the length of the block each reader returns;
  - WARC-Block-Digest equals "sha1:" + base32(SHA-1(block)), recomputed here, and warcio's
    own digest check (check_digests=True, warcio >= 1.7) and fastwarc's
    verify_block_digest() agree;
  - the first record is a warcinfo, all others are conversion records;
  - warcio and fastwarc see the same records.

Prints one JSON object on stdout:
  {"records": N, "conversion": M, "digest_ok": bool, "length_ok": bool, "uris": [...],
   "page_types": [...] (each conversion record's WARC-Page-Type as warcio reads it),
   "langs": [...] (each one's WARC-Identified-Content-Language, null where absent),
   "gzip_members": N, "fastwarc": null | {"records": N, "digest_ok": bool, "length_ok": bool},
   "problems": [...]}
and exits 1 if any check failed (the JSON then lists the problems), 2 on bad usage or if
warcio is not installed.
"""

import base64
import hashlib
import inspect
import json
import sys
import zlib


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def gzip_members(raw, problems):
    """Decompress each gzip member on its own; a WET file has one record per member."""
    members = []
    rest = raw
    while rest:
        d = zlib.decompressobj(wbits=31)
        try:
            data = d.decompress(rest) + d.flush()
        except zlib.error as e:
            problems.append("gzip member %d: %s" % (len(members), e))
            break
        if not d.eof:
            problems.append("gzip member %d is truncated" % len(members))
            break
        members.append(data)
        rest = d.unused_data
    for i, m in enumerate(members):
        if not m.startswith(b"WARC/1.0\r\n"):
            problems.append("gzip member %d does not start with a WARC/1.0 record" % i)
        if not m.endswith(b"\r\n\r\n"):
            problems.append("gzip member %d does not end with CRLF CRLF" % i)
    return members


def read_warcio(path, problems):
    from warcio.archiveiterator import ArchiveIterator

    kwargs = {}
    if "check_digests" in inspect.signature(ArchiveIterator.__init__).parameters:
        kwargs["check_digests"] = True
    out = []
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, **kwargs):
            h = rec.rec_headers
            block = rec.content_stream().read()
            checker = getattr(rec, "digest_checker", None)
            out.append(
                {
                    "type": rec.rec_type,
                    "uri": h.get_header("WARC-Target-URI"),
                    "page_type": h.get_header("WARC-Page-Type"),
                    "lang": h.get_header("WARC-Identified-Content-Language"),
                    "id": h.get_header("WARC-Record-ID"),
                    "length": int(h.get_header("Content-Length") or -1),
                    "block_len": len(block),
                    "digest": h.get_header("WARC-Block-Digest"),
                    "computed": sha1_b32(block),
                    "warcio_digest_passed": None if checker is None else checker.passed,
                    "warcio_problems": [] if checker is None else list(checker.problems),
                }
            )
    return out


def read_fastwarc(path, problems):
    try:
        from fastwarc.warc import ArchiveIterator
    except ImportError:
        return None
    records = []
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, parse_http=False):
            digest_ok = rec.verify_block_digest(consume=False)
            block = rec.reader.read()
            records.append(
                {
                    "uri": rec.headers.get("WARC-Target-URI"),
                    "length": rec.content_length,
                    "block_len": len(block),
                    "digest_ok": bool(digest_ok)
                    and rec.headers.get("WARC-Block-Digest") == sha1_b32(block),
                }
            )
    summary = {
        "records": len(records),
        "digest_ok": all(r["digest_ok"] for r in records),
        "length_ok": all(r["length"] == r["block_len"] for r in records),
    }
    if not summary["digest_ok"]:
        problems.append("fastwarc: a block digest does not verify")
    if not summary["length_ok"]:
        problems.append("fastwarc: a Content-Length differs from the block length")
    return summary, [r["uri"] for r in records]


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path = argv[1]
    problems = []
    try:
        with open(path, "rb") as f:
            raw = f.read()
        members = gzip_members(raw, problems)
        records = read_warcio(path, problems)
    except ImportError:
        print("check_wet.py needs warcio: python3 -m pip install warcio", file=sys.stderr)
        return 2
    except Exception as e:  # a file warcio cannot read is a failed check, said plainly
        error = "warcio cannot read %s: %s: %s" % (path, type(e).__name__, " ".join(str(e).split()))
        print(json.dumps({"records": 0, "conversion": 0, "digest_ok": False,
                          "length_ok": False, "uris": [], "page_types": [], "langs": [], "gzip_members": 0,
                          "fastwarc": None, "problems": problems + [error]}))
        return 1

    length_ok = all(r["length"] == r["block_len"] for r in records)
    digest_ok = all(
        r["digest"] == r["computed"] and r["warcio_digest_passed"] is not False
        for r in records
    )
    if not length_ok:
        problems.append("warcio: a Content-Length differs from the block length")
    if not digest_ok:
        problems.append("warcio: a WARC-Block-Digest does not match its block")
    for r in records:
        problems.extend("warcio: " + p for p in r["warcio_problems"])
    if not records or records[0]["type"] != "warcinfo":
        problems.append("the first record is not a warcinfo record")
    others = [r["type"] for r in records[1:] if r["type"] != "conversion"]
    if others:
        problems.append("unexpected record types after warcinfo: %s" % sorted(set(others)))
    if len(members) != len(records):
        problems.append(
            "%d gzip members for %d records: not one member per record"
            % (len(members), len(records))
        )
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        problems.append("duplicate WARC-Record-ID")

    uris = [r["uri"] for r in records if r["type"] == "conversion"]
    fast = None
    try:
        fw = read_fastwarc(path, problems)
    except Exception as e:
        problems.append("fastwarc: %s: %s" % (type(e).__name__, e))
        fw = None
    if fw is not None:
        fast, fast_uris = fw
        if fast["records"] != len(records) or [u for u in fast_uris if u] != uris:
            problems.append("fastwarc and warcio see different records")

    summary = {
        "records": len(records),
        "conversion": len(uris),
        "digest_ok": digest_ok,
        "length_ok": length_ok,
        "uris": uris,
        "page_types": [r["page_type"] for r in records if r["type"] == "conversion"],
        "langs": [r["lang"] for r in records if r["type"] == "conversion"],
        "gzip_members": len(members),
        "fastwarc": fast,
        "problems": problems,
    }
    print(json.dumps(summary))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
