#!/usr/bin/env python3
"""Markdown structure against the wcxb gold Markdown (`<id>.md`, 1,293 pages).

Runs `warcsift page --markdown` on each wcxb page with a gold `.md` and compares the
structure, per kind:

- heading: a line starting with `#`; list item: a line starting with `-`, `*`, `+` or
  `N.` (after indentation); table row: a line starting with `|` that is not a `| --- |`
  separator; code block: a fenced block (its content lines joined).
- Items are compared by their normalised text (NFKC, lower case, letters and digits only).
- Precision: share of our items of a kind that the gold has as that kind; recall: share
  of the gold's that we have as that kind (micro, over all pages).
- "pages kept": of the pages whose gold has the kind, the share where we give at least
  half of the gold's items of that kind as such.

Usage: python3 ops/eval_markdown.py [--bin target/release/warcsift] [--devset DIR] [--jobs 2]
"""
import argparse
import collections
import concurrent.futures as cf
import gzip
import json
import os
import re
import subprocess
import sys
import unicodedata

KINDS = ("heading", "list_item", "table_row", "code_block")


def key(s):
    s = unicodedata.normalize("NFKC", s).lower()
    return "".join(c for c in s if c.isalnum())


def structure(md):
    out = {k: collections.Counter() for k in KINDS}
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        t = line.strip()
        if t.startswith("```"):
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            k = key(" ".join(body))
            if k:
                out["code_block"][k] += 1
        elif t.startswith("#"):
            k = key(t.lstrip("#"))
            if k:
                out["heading"][k] += 1
        elif re.match(r"^([-*+]|\d+[.)])\s+", t):
            k = key(re.sub(r"^([-*+]|\d+[.)])\s+", "", t))
            if k:
                out["list_item"][k] += 1
        elif t.startswith("|") and not re.fullmatch(r"[|:\-\s]+", t):
            k = key(t)
            if k:
                out["table_row"][k] += 1
        i += 1
    return out


def run_page(binary, path, url):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        html = f.read()
    args = [binary, "page", "--markdown", "-"] + (["--url", url] if url else [])
    p = subprocess.run(args, input=html, capture_output=True, timeout=120)
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else ""


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target")), "release", "warcsift"))
    ap.add_argument("--devset", default=os.path.join(repo, "..", "shared", "devset", "wcxb"))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(os.path.join(a.devset, "meta.jsonl"))]
    rows = [r for r in rows if os.path.exists(os.path.join(a.devset, r["id"] + ".md"))]

    def one(r):
        p = os.path.join(a.devset, r["id"] + ".html")
        p = p if os.path.exists(p) else p + ".gz"
        return structure(run_page(a.bin, p, r.get("url")))

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        ours = list(ex.map(one, rows))
    golds = [structure(open(os.path.join(a.devset, r["id"] + ".md")).read()) for r in rows]
    print(f"wcxb Markdown structure, {len(rows)} pages with gold Markdown ({a.bin})")
    print(f"{'kind':11} {'precision':>9} {'recall':>7} {'pages with it':>14} {'pages kept':>10}")
    for k in KINDS:
        tp_p = tp_r = n_o = n_g = pages = kept = 0
        for o, g in zip(ours, golds):
            inter = sum((o[k] & g[k]).values())
            n_o += sum(o[k].values())
            n_g += sum(g[k].values())
            tp_p += inter
            tp_r += inter
            if g[k]:
                pages += 1
                kept += inter >= 0.5 * sum(g[k].values())
        print(f"{k:11} {tp_p / max(n_o, 1):9.3f} {tp_r / max(n_g, 1):7.3f} {pages:14} "
              f"{kept / max(pages, 1):10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
