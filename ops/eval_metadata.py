#!/usr/bin/env python3
"""Metadata agreement with the wcxb gold: title, author, publish date.

Runs `warcsift page --json` on every page of the devset's wcxb package (gold in its
meta.jsonl: `title`, `author`, `publish_date`) and prints the share of exact agreement after
normalisation, per field:

- `gold set`: over the pages whose gold has the field, the share where ours equals it;
- `all pages`: over every page, counting agreement also where both have nothing;
- `ours set`: over the pages where ours has the field, the share that equals the gold
  (precision of what we write).

Normalisation (the same for ours and gold): Unicode NFKC; lower case; curly quotes to
straight ones, dashes (U+2010-2015, U+2212) to '-'; whitespace collapsed; leading and
trailing spaces and the punctuation . , : ; | - removed. Authors also lose a leading "by ".
Dates compare their first ten characters (YYYY-MM-DD: the gold is a date without time).

Usage: python3 ops/eval_metadata.py [--bin target/release/warcsift] [--devset DIR]
       [--jobs 2] [--dump FILE.jsonl] [--limit N]
"""
import argparse
import concurrent.futures as cf
import gzip
import json
import os
import re
import subprocess
import sys
import unicodedata


def norm(s):
    if s is None:
        return ""
    s = unicodedata.normalize("NFKC", s).lower()
    s = re.sub("[\u2018\u2019\u201a\u201b\u2032]", "'", s)
    s = re.sub("[\u201c\u201d\u201e\u201f\u2033]", '"', s)
    s = re.sub("[\u2010-\u2015\u2212]", "-", s)
    s = " ".join(s.split())
    return s.strip(" .,:;|-")


def norm_author(s):
    s = norm(s)
    if s.startswith("by "):
        s = s[3:].strip()
    return s


def norm_date(s):
    return (s or "").strip()[:10]


FIELDS = [
    ("title", "title", norm),
    ("author", "author", norm_author),
    ("date", "date_published", norm_date),
]


def run_page(binary, path, url):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        html = f.read()
    args = [binary, "page", "--json", "-"]
    if url:
        args += ["--url", url]
    p = subprocess.run(args, input=html, capture_output=True, timeout=120)
    if p.returncode != 0 or not p.stdout.strip():
        return {}
    return json.loads(p.stdout)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target")), "release", "warcsift"))
    ap.add_argument("--devset", default=os.path.join(repo, "..", "shared", "devset", "wcxb"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dump", help="write ours and gold per page to this JSONL file")
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()

    rows = [json.loads(l) for l in open(os.path.join(a.devset, "meta.jsonl"))]
    if a.limit:
        rows = rows[: a.limit]

    def path_of(r):
        p = os.path.join(a.devset, r["id"] + ".html")
        return p if os.path.exists(p) else p + ".gz"

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        ours = list(ex.map(lambda r: run_page(a.bin, path_of(r), r.get("url")), rows))

    dump = open(a.dump, "w") if a.dump else None
    print(f"wcxb metadata, {len(rows)} pages ({a.bin})")
    print(f"{'field':8} {'gold set':>18} {'all pages':>18} {'ours set':>18}")
    for name, key, fn in FIELDS:
        gold_set = all_agree = ours_set = 0
        gold_hit = ours_hit = 0
        for r, o in zip(rows, ours):
            g, p = fn(r.get(name if name != "date" else "publish_date")), fn(o.get(key))
            if g == p:
                all_agree += 1
            if g:
                gold_set += 1
                gold_hit += g == p
            if p:
                ours_set += 1
                ours_hit += g == p
        print(f"{name:8} {gold_hit:5}/{gold_set:<5} {gold_hit / max(gold_set, 1):.3f}"
              f"  {all_agree:5}/{len(rows):<5} {all_agree / len(rows):.3f}"
              f"  {ours_hit:5}/{ours_set:<5} {ours_hit / max(ours_set, 1):.3f}")
    if dump:
        for r, o in zip(rows, ours):
            dump.write(json.dumps({
                "id": r["id"], "page_type": r.get("page_type"),
                "gold": {"title": r.get("title"), "author": r.get("author"),
                         "date": r.get("publish_date")},
                "ours": {"title": o.get("title"), "html_title": o.get("html_title"),
                         "author": o.get("author"), "date": o.get("date_published"),
                         "site_name": o.get("site_name"), "lang": o.get("lang")},
            }, ensure_ascii=False) + "\n")
        dump.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
