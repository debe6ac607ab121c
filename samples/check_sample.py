#!/usr/bin/env python3
"""Check samples/sample.warc.gz against samples/expected.json with an independent reader (warcio).

Usage: python3 samples/check_sample.py [WARC] [EXPECTED]     (needs: pip install warcio)

- every record parses, and every block and payload digest verifies (check_digests="raise");
- the record counts match expected.json;
- every page listed in expected.json is found by its WARC-Record-ID with the right URL, and
  after warcio has de-chunked / gunzipped its payload and it has been decoded with its true
  charset, each must_contain sentence is somewhere in the page (a check of the sample, not of
  any extractor: tags are stripped and entities decoded before comparing).
Prints one line per record and "N passed, N failed" at the end; exits 1 on any failure.
"""

import html
import json
import pathlib
import re
import sys

from warcio.archiveiterator import ArchiveIterator

HERE = pathlib.Path(__file__).resolve().parent
PY_CODECS = {"UTF-8": "utf-8", "windows-1252": "cp1252", "Shift_JIS": "cp932"}


def main():
    warc = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "sample.warc.gz"
    exp = json.loads((pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "expected.json").read_text("utf-8"))
    pages = {p["record_id"]: p for p in exp["pages"]}
    passed, failed, seen, by_type = 0, 0, set(), {}

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}")

    with open(warc, "rb") as fh:
        for i, rec in enumerate(ArchiveIterator(fh, check_digests="raise")):
            t = rec.rec_type
            by_type[t] = by_type.get(t, 0) + 1
            body = rec.content_stream().read()  # de-chunked and decompressed by warcio
            check(rec.digest_checker.passed is not False, f"record {i}: digest {rec.digest_checker.problems}")
            rid = rec.rec_headers.get_header("WARC-Record-ID")
            print(f"{i:3} {t:9} {len(body):6} {rec.rec_headers.get_header('WARC-Target-URI') or ''}")
            p = pages.get(rid)
            if p is None:
                continue
            seen.add(rid)
            check(rec.rec_headers.get_header("WARC-Target-URI") == p["url"], f"{p['name']}: url")
            check(t == p["warc_type"], f"{p['name']}: WARC-Type {t}")
            text = body.decode(PY_CODECS[p["charset"]], "replace")
            flat = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", text)))
            for s in p["must_contain"]:
                check(s in flat, f"{p['name']}: must_contain not in the decoded page: {s[:60]}")

    c = exp["counts"]
    check(sum(by_type.values()) == c["records"], f"records {sum(by_type.values())} != {c['records']}")
    check(by_type == c["by_type"], f"by_type {by_type} != {c['by_type']}")
    check(seen == set(pages), f"pages not found: {sorted(set(pages) - seen)}")
    print(f"sample: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
