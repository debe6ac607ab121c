#!/usr/bin/env python3
"""Markdown structure against the wcxb gold Markdown (`<id>.md`, 1,293 pages).

Runs `warcsift page --markdown` on each wcxb page with a gold `.md` and compares the
structure, per kind:

- heading: a line starting with `#`; list item: a line starting with `-`, `*`, `+` or
  `N.` (after indentation); table row: a line starting with `|` that is not a `| --- |`
  separator; code block: a fenced block (its content lines joined); quote: a line of a
  `>` quotation (its text, without a heading or list mark); inline code: a `` `span` ``
  outside code blocks. A quotation's lines are classified after their `>` marks too (a
  `> - item` is a list item and a quote line).
- Items are compared by their normalised text (NFKC, lower case, letters and digits only).
- Precision: share of our items of a kind that the gold has as that kind; recall: share
  of the gold's that we have as that kind (micro, over all pages).
- "pages kept": of the pages whose gold has the kind, the share where we give at least
  half of the gold's items of that kind as such.

- `--pred DIR` scores another system's Markdown instead: DIR/<id>.md per page (a missing
  file is an empty prediction), with the same code. Link targets (`[text](url)`) are taken
  out before comparing, so output with links scores like output without.

rs-trafilatura's Markdown (its `output_markdown` option) comes from the peers-rs tool of
../shared/tools/peers-rs with a mode `rs-trafilatura-md` added (one thread, default
options): `peers-rs rs-trafilatura-md ../shared/devset/wcxb /tmp/peers/rs-md`.

Usage: python3 ops/eval_markdown.py [--bin target/release/warcsift] [--devset DIR] [--jobs 2]
       python3 ops/eval_markdown.py --pred /tmp/peers/rs-md
       python3 ops/eval_markdown.py --links   # warcsift with --links (same words, plus URLs)
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

KINDS = ("heading", "list_item", "table_row", "code_block", "quote", "inline_code")

QUOTE = re.compile(r"^\s*((?:>[ \t]?)+)")
SPAN = re.compile(r"(`+)(.+?)\1")


def key(s):
    s = re.sub(r"\]\([^()\s]*\)", "]", s)
    s = unicodedata.normalize("NFKC", s).lower()
    return "".join(c for c in s if c.isalnum())


def unquote(line):
    """`line` without its `>` quotation marks, and whether it had any."""
    m = QUOTE.match(line)
    return (line[m.end():], True) if m else (line, False)


def structure(md):
    out = {k: collections.Counter() for k in KINDS}
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        line, quoted = unquote(lines[i])
        t = line.strip()
        if t.startswith("```"):
            body = []
            i += 1
            while i < len(lines) and not unquote(lines[i])[0].strip().startswith("```"):
                body.append(unquote(lines[i])[0])
                i += 1
            k = key(" ".join(body))
            if k:
                out["code_block"][k] += 1
            i += 1
            continue
        if quoted and key(t):
            out["quote"][key(re.sub(r"^(#+|[-*+]|\d+[.)])\s+", "", t))] += 1
        for m in SPAN.finditer(t):
            if key(m.group(2)):
                out["inline_code"][key(m.group(2))] += 1
        if t.startswith("#"):
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


def run_page(binary, path, url, links=False):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        html = f.read()
    args = [binary, "page", "--markdown", "-"] + (["--url", url] if url else [])
    args += ["--links"] if links else []
    p = subprocess.run(args, input=html, capture_output=True, timeout=120)
    return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else ""


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target")), "release", "warcsift"))
    ap.add_argument("--devset", default=os.path.join(repo, "..", "shared", "devset", "wcxb"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--pred", help="score DIR/<id>.md instead of running warcsift")
    ap.add_argument("--links", action="store_true", help="run warcsift with --links")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(os.path.join(a.devset, "meta.jsonl"))]
    rows = [r for r in rows if os.path.exists(os.path.join(a.devset, r["id"] + ".md"))]

    def one(r):
        if a.pred:
            p = os.path.join(a.pred, r["id"] + ".md")
            return structure(open(p, encoding="utf-8", errors="replace").read()
                             if os.path.exists(p) else "")
        p = os.path.join(a.devset, r["id"] + ".html")
        p = p if os.path.exists(p) else p + ".gz"
        return structure(run_page(a.bin, p, r.get("url"), a.links))

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        ours = list(ex.map(one, rows))
    golds = [structure(open(os.path.join(a.devset, r["id"] + ".md")).read()) for r in rows]
    print(f"wcxb Markdown structure, {len(rows)} pages with gold Markdown ({a.pred or a.bin})")
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
