#!/usr/bin/env python3
"""Compare language detectors: warcsift's (whatlang, src/lang.rs) against lingua.

Two measurements:

1. **Labelled texts in many languages.** The gettext catalogues that Debian installs under
   /usr/share/locale (translations of the system's programs' messages, one folder per
   language) give texts whose language is known. Per language (at least 20 with enough
   messages), --per-lang short texts (one or more messages joined to 30-120 characters)
   and long ones (joined to ~1,000 characters), drawn with a fixed seed. Accuracy of each
   detector against the folder's language, per language and overall, and the time per text.
2. **Agreement on real pages** (--pages DIR_OR_JSONL): warcsift's `lang` against lingua
   run on the same extracted text, for every page with at least 20 bytes of text.

lingua runs from its Python package (`pip install lingua-language-detector`: the same
Rust library as the `lingua` crate, so its accuracy is the crate's; its time includes a
little Python overhead per call), with all its 75 languages, high-accuracy mode (its
default) and low-accuracy mode. whatlang runs in `examples/lang_detect.rs`, built with
`cargo build --release --example lang_detect`.

Usage: python3 ops/lang_compare.py [--per-lang 150] [--pages out/x.jsonl.zst]
"""
import argparse
import collections
import gettext
import glob
import json
import os
import random
import re
import subprocess
import sys
import time

LOCALE = "/usr/share/locale"
# Folder name -> ISO 639-1 code as both detectors write it.
FOLDERS = {
    "de": "de", "fr": "fr", "es": "es", "it": "it", "pt": "pt", "ru": "ru", "pl": "pl",
    "nl": "nl", "tr": "tr", "vi": "vi", "ja": "ja", "zh_CN": "zh", "ko": "ko", "ar": "ar",
    "cs": "cs", "sv": "sv", "da": "da", "fi": "fi", "hu": "hu", "ro": "ro", "uk": "uk",
    "el": "el", "he": "he", "id": "id", "bg": "bg", "hr": "hr", "sk": "sk", "sl": "sl",
    "lt": "lt", "lv": "lv", "et": "et", "ca": "ca", "fa": "fa", "hi": "hi", "th": "th",
    "nb": "nb", "sr": "sr", "eo": "eo", "af": "af",
}
MIN_MESSAGES = 300
# Languages not written in Latin script: their catalogues also hold untranslated (English)
# messages, which are left out here (a message must be mostly non-ASCII letters).
NON_LATIN = {"ru", "uk", "bg", "sr", "el", "he", "ar", "fa", "ja", "zh", "ko", "th", "hi"}


def messages(folder):
    code = FOLDERS[folder]
    out = []
    for mo in sorted(glob.glob(os.path.join(LOCALE, folder, "LC_MESSAGES", "*.mo"))):
        try:
            with open(mo, "rb") as f:
                cat = gettext.GNUTranslations(f)._catalog
        except Exception:
            continue
        for k, v in cat.items():
            if not k or not isinstance(v, str):
                continue
            v = re.sub(r"%[-+ #0-9.]*[a-zA-Z]|\{[^}]*\}|<[^>]*>|&[a-z]+;|[_&](?=\w)", " ", v)
            v = " ".join(v.split())
            letters = sum(c.isalpha() for c in v)
            if letters < 12 or letters < 0.6 * len(v):
                continue
            ascii_letters = sum(c.isascii() and c.isalpha() for c in v)
            if code in NON_LATIN and ascii_letters > 0.3 * letters:
                continue
            if code not in NON_LATIN and v == k:
                continue  # untranslated
            out.append(v)
    return sorted(set(out))


def samples(msgs, rng, n, lo, hi):
    out = []
    for _ in range(n):
        text = ""
        while len(text) < lo:
            m = rng.choice(msgs)
            text = (text + " " + m).strip()
        out.append(text[:hi] if len(text) > hi else text)
    return out


def whatlang(binary, texts):
    data = "\n".join(t.replace("\n", "\\n") for t in texts) + "\n"
    p = subprocess.run([binary], input=data.encode(), capture_output=True, check=True)
    codes = [l.split("\t")[0] for l in p.stdout.decode().splitlines()]
    m = re.search(r"\(([\d.]+) µs per text\)", p.stderr.decode())
    return [None if c == "-" else c for c in codes], float(m.group(1)) if m else float("nan")


def lingua_detect(detector, texts):
    t0 = time.perf_counter()
    out = []
    for t in texts:
        lang = detector.detect_language_of(t)
        out.append(lang.iso_code_639_1.name.lower() if lang else None)
    return out, (time.perf_counter() - t0) * 1e6 / max(len(texts), 1)


def read_pages(path):
    files = [path] if os.path.isfile(path) else sorted(glob.glob(os.path.join(path, "*.jsonl*")))
    for f in files:
        if f.endswith(".zst"):
            raw = subprocess.run(["zstd", "-dc", f], capture_output=True, check=True).stdout
        else:
            raw = open(f, "rb").read()
        for line in raw.decode().splitlines():
            yield json.loads(line)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(repo, "target"))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(target, "release", "examples", "lang_detect"))
    ap.add_argument("--per-lang", type=int, default=150)
    ap.add_argument("--pages", help="extract output (JSONL file or folder) to compare on")
    ap.add_argument("--seed", type=int, default=23)
    a = ap.parse_args()

    from lingua import LanguageDetectorBuilder
    t0 = time.perf_counter()
    high = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()
    load_high = time.perf_counter() - t0
    t0 = time.perf_counter()
    low = (LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode()
           .with_preloaded_language_models().build())
    load_low = time.perf_counter() - t0
    print(f"lingua models loaded: high accuracy {load_high:.1f} s, low accuracy {load_low:.1f} s")

    rng = random.Random(a.seed)
    langs = []
    data = {"short": [], "long": []}
    for folder, code in FOLDERS.items():
        msgs = messages(folder)
        if len(msgs) < MIN_MESSAGES:
            continue
        langs.append(code)
        for t in samples(msgs, rng, a.per_lang, 30, 120):
            data["short"].append((code, t))
        for t in samples(msgs, rng, a.per_lang, 1000, 1100):
            data["long"].append((code, t))
    print(f"{len(langs)} languages with >= {MIN_MESSAGES} messages: {' '.join(langs)}")

    for kind in ("short", "long"):
        gold = [c for c, _ in data[kind]]
        texts = [t for _, t in data[kind]]
        results = {}
        results["whatlang"] = whatlang(a.bin, texts)
        results["lingua-high"] = lingua_detect(high, texts)
        results["lingua-low"] = lingua_detect(low, texts)
        print(f"\n{kind} texts ({len(texts)}, {'30-120' if kind == 'short' else '~1,000'} chars)")
        print(f"{'detector':12} {'accuracy':>8} {'µs/text':>8}   worst languages")
        for name, (pred, us) in results.items():
            ok = collections.Counter()
            for g, p in zip(gold, pred):
                ok[g] += g == p
            acc = sum(ok.values()) / len(gold)
            worst = sorted(langs, key=lambda l: ok[l])[:5]
            ws = " ".join(f"{l}:{ok[l] / a.per_lang:.2f}" for l in worst)
            print(f"{name:12} {acc:8.3f} {us:8.1f}   {ws}")

    if a.pages:
        pages = [p for p in read_pages(a.pages) if len((p.get("text") or "").strip()) >= 20]
        ref, _ = lingua_detect(high, [p["text"] for p in pages])
        agree = collections.Counter()
        total = collections.Counter()
        for p, r in zip(pages, ref):
            key = r or "none"
            total[key] += 1
            agree[key] += (p.get("lang") or None) == r
        n = sum(total.values())
        print(f"\nagreement of warcsift's lang with lingua (high accuracy) on {n} pages of "
              f"{len(total)} languages (by lingua): {sum(agree.values()) / max(n, 1):.3f}")
        for l, c in total.most_common():
            print(f"  {l:5} {c:6} pages  agreement {agree[l] / c:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
