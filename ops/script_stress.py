#!/usr/bin/env python3
"""How `auto` carries to a script written without spaces: the devset rewritten as Chinese
(or, with `--script th`, as Thai: see `Rewriter`); and, with `--script LANG` for a language
written with spaces (`tr`, `fi`, `ru`, `ar`, `de`, ...), how it carries to that language's
words (see `RankRewriter`).

The devset is nearly all English; Chinese and Japanese, written without spaces between
words, are a tenth of Common Crawl. This check rewrites every page's text (not its markup)
and its gold the same way: each English word becomes Chinese characters (a stopword one
character of the `stop-words` crate's Chinese list, any other word two characters of a
fixed pool, chosen by a hash of the word, so a word is always written alike), the spaces
between rewritten words are dropped, and `, . ! ? : ; ( )` after a word become their
full-width forms. A word is then 1.55 characters, as in Chinese (1,000 Chinese characters
translate into 600 to 700 English words).

It prints, per package, the character F1 (`chr_F1`, as `warcsift eval` computes it) of:
- `invariant`: `auto`'s output on the English page, rewritten: what an extractor that reads
  both scripts alike would score;
- `rewritten`: `auto`'s output on the rewritten page.
The difference is what the script costs `auto`. Nothing here is tuned on: the rewritten pages
keep every English page's boilerplate phrases, dates and bylines only as random characters,
which no Chinese page holds, so part of the difference is the rewriting's own.

Usage: python3 ops/script_stress.py [--bin target/release/warcsift] [--devset DIR]
       [--packages dragnet,cleaneval,readability,wcxb] [--work DIR] [--script zh|th|LANG|en]
(`--script LANG` needs the `wordfreq` package: `pip install wordfreq`.)
"""
import argparse
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import zlib

EN_STOP = set("""a about above after again against all am an and any are as at be because been
before being below between both but by can did do does doing down during each few for from
further had has have having he her here hers herself him himself his how i if in into is it
its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with you your yours yourself yourselves""".split())
FULL_WIDTH = {",": "，", ".": "。", "!": "！", "?": "？", ":": "：", ";": "；", "(": "（", ")": "）"}
TOKEN = re.compile(r"[A-Za-z]+|\s+|.", re.S)


def crate_dir():
    """The source folder of the `stop-words` crate in Cargo's registry (the newest there)."""
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    dirs = glob.glob(os.path.join(home, "registry", "src", "*", "stop-words-*"))
    if not dirs:
        sys.exit("the stop-words crate is not in Cargo's registry (cargo fetch)")
    return sorted(dirs)[-1]


def iso_stopwords(lang):
    """The `stop-words` crate's stopwords-iso list of `lang` (from Cargo's registry)."""
    path = os.path.join(crate_dir(), "src", "iso", "stopwords-iso.json")
    return json.load(open(path, encoding="utf-8"))[lang]


def chinese_stopwords():
    """The single-character Chinese stopwords of the `stop-words` crate."""
    return [w for w in iso_stopwords("zh") if len(w) == 1 and "\u4e00" <= w <= "\u9fff"]


# Thai: consonants and the vowel signs written after them, to spell made-up words.
THAI_CONSONANTS = [chr(c) for c in range(0x0E01, 0x0E2F)]
THAI_VOWELS = ["\u0E30", "\u0E32", "\u0E34", "\u0E35", "\u0E38", "\u0E39", "\u0E31"]


class Rewriter:
    """`script` "zh": Chinese, as the module comment says. "th": Thai, also written without
    spaces between words; a space ends a phrase or sentence instead of a full stop. A
    stopword becomes a word of the crate's Thai list, any other word of n letters a made-up
    Thai word of about 0.8 n characters (consonant and vowel sign pairs; Thai words run to
    about four to six characters), and `. , ! ? ; :` after a word a space."""

    def __init__(self, script="zh"):
        self.script = script
        if script == "th":
            self.stop = [w for w in iso_stopwords("th") if " " not in w]
            return
        self.stop = chinese_stopwords()
        stop = set(self.stop)
        self.pool = [chr(c) for c in range(0x4E00, 0x4E00 + 6000) if chr(c) not in stop]

    def word(self, w):
        h = zlib.crc32(w.lower().encode())
        if w.lower() in EN_STOP:
            return self.stop[h % len(self.stop)]
        if self.script == "th":
            n = max(2, round(0.8 * len(w)))
            out = []
            for i in range(n):
                h = (h * 1103515245 + 12345) & 0xFFFFFFFF
                out.append(THAI_CONSONANTS[(h >> 8) % len(THAI_CONSONANTS)] if i % 2 == 0
                           else THAI_VOWELS[(h >> 8) % len(THAI_VOWELS)])
            return "".join(out)
        return self.pool[h % len(self.pool)] + self.pool[(h >> 13) % len(self.pool)]

    def punct(self, t):
        """What punctuation `t` after a rewritten word becomes, if it changes."""
        if self.script == "th":
            return " " if t in ".,!?;:" else None
        return FULL_WIDTH.get(t)

    def text(self, s):
        toks = TOKEN.findall(s)
        out, prev = [], False
        for i, t in enumerate(toks):
            if t.isascii() and t[0].isalpha():
                out.append(self.word(t))
                prev = True
            elif t.isspace():
                nxt = toks[i + 1] if i + 1 < len(toks) else ""
                joins = nxt and ((nxt.isascii() and nxt[0].isalpha())
                                 or self.punct(nxt) is not None)
                if prev and joins and "\n" not in t:
                    continue
                out.append(t)
                prev = False
            elif prev and self.punct(t) is not None:
                out.append(self.punct(t))
            else:
                out.append(t)
                prev = False
        return "".join(out)

    def html(self, h):
        out, pos = [], 0
        for m in re.finditer(r"(?is)<(script|style)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", h):
            out.append(self.text(h[pos:m.start()]))
            out.append(m.group(0))
            pos = m.end()
        out.append(self.text(h[pos:]))
        return "".join(out)


def is_word(w):
    """Letters only, with their combining marks (a Hindi word's vowel signs are marks, not
    letters, to `str.isalpha`)."""
    return w[:1].isalpha() and all(unicodedata.category(c)[0] in "LM" for c in w)


class RankRewriter(Rewriter):
    """A language written with spaces, by word frequency (`wordfreq`'s word lists of the
    web, Wikipedia, subtitles, news and books): each English word becomes the word of the
    other language that stands at the same point of its cumulative frequency (the middle of
    the English word's own span), so the rewritten text's words are about as frequent as
    that language's own: its function words are the language's, and their share of the
    text is about that of the language's prose (a Turkish or Finnish text holds far fewer
    stopwords than an English one). Mapping rank to rank would keep English's shares
    instead. A word outside the English list's first 30,000 becomes one of the language's
    words of rank 5,000 to 30,000, chosen by a hash; a capital first letter and an all
    capital word stay so (in scripts with case). Spaces are kept, and punctuation after a
    word is written as the language writes it (`MARKS`).
    `--script en` is the control: English, each word swapped with its neighbour in
    frequency rank (`and` and `of`), which costs what the rewriting costs by itself
    (bylines, dates and boilerplate phrases become word salad) and nothing of a language."""

    TOP = 30_000
    RARE_FROM = 5_000
    # Punctuation after a word, as these languages write it: the Arabic comma, semicolon
    # and question mark (Arabic, Persian, Urdu), the Urdu full stop, the danda that ends a
    # Hindi, Bengali, Marathi or Nepali sentence. The rest keep ASCII's.
    ARABIC = {",": "\u060C", ";": "\u061B", "?": "\u061F"}
    DANDA = {".": "\u0964"}
    MARKS = {"ar": ARABIC, "fa": ARABIC, "ur": {**ARABIC, ".": "\u06D4"}, "hi": DANDA,
             "bn": DANDA, "mr": DANDA, "ne": DANDA}

    def __init__(self, lang):
        try:
            from wordfreq import top_n_list, word_frequency
        except ImportError:
            sys.exit("script_stress: --script LANG needs the wordfreq package (pip install wordfreq)")
        self.script = lang
        self.marks = self.MARKS.get(lang, {})

        def words(code):
            """The words of `code`, and where each one's span of the cumulative frequency
            ends."""
            ws = [w for w in top_n_list(code, self.TOP) if is_word(w)]
            fs = [word_frequency(w, code) for w in ws]
            total, cum, ends = sum(fs), 0.0, []
            for f in fs:
                cum += f / total
                ends.append(cum)
            return ws, ends
        en, en_ends = words("en")
        self.target, t_ends = words(lang)
        if len(self.target) < self.RARE_FROM * 2:
            sys.exit(f"script_stress: wordfreq has too few words of {lang!r}")
        if lang == "en":
            # The control: English, each word swapped with its neighbour in rank.
            self.map = {w: en[i ^ 1] for i, w in enumerate(en) if i ^ 1 < len(en)}
            return
        # Each English word goes to the target word whose span holds its span's middle.
        self.map, j = {}, 0
        for i, w in enumerate(en):
            mid = (en_ends[i - 1] if i else 0.0) / 2 + en_ends[i] / 2
            while j < len(t_ends) - 1 and t_ends[j] < mid:
                j += 1
            self.map[w] = self.target[j]

    def word(self, w):
        low = w.lower()
        out = self.map.get(low)
        if out is None:
            h = zlib.crc32(low.encode())
            out = self.target[self.RARE_FROM + h % (len(self.target) - self.RARE_FROM)]
        if len(w) > 1 and w.isupper():
            return out.upper()
        return out[:1].upper() + out[1:] if w[:1].isupper() else out

    def text(self, s):
        out, prev = [], False
        for t in TOKEN.findall(s):
            if t.isascii() and t[0].isalpha():
                out.append(self.word(t))
                prev = True
            else:
                out.append(self.marks.get(t, t) if prev else t)
                prev = False
        return "".join(out)


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def chr_f1(binary, dataset, pred):
    out = subprocess.run([binary, "eval", "--dataset", dataset, "-a", "none", "--pred",
                          f"x={pred}"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        cols = line.split()
        if len(cols) > 8 and cols[1] == "x" and cols[0] != "all":
            return float(cols[8])
    raise SystemExit(f"script_stress: no score for {dataset}:\n{out}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(repo, "target", "release", "warcsift"))
    ap.add_argument("--devset", default=os.path.join(repo, "..", "shared", "devset"))
    ap.add_argument("--packages", default="dragnet,cleaneval,readability,wcxb")
    ap.add_argument("--work", help="keep the rewritten devset and outputs here")
    ap.add_argument("--script", default="zh",
                    help="zh (default) or th: rewrite as Chinese or Thai; any other "
                    "wordfreq language code (tr, fi, ru, ar, de, ...): by frequency rank")
    args = ap.parse_args()
    if not os.path.isdir(args.devset):
        print(f"script_stress: no devset at {args.devset}: skipped")
        return
    work = args.work or tempfile.mkdtemp(prefix="script_stress.")
    rw = Rewriter(args.script) if args.script in ("zh", "th") else RankRewriter(args.script)
    # The rewritten devset's folder (the English outputs are under "en").
    folder = "en-swapped" if args.script == "en" else args.script
    packages = args.packages.split(",")
    for pkg in packages:
        src, dst = os.path.join(args.devset, pkg), os.path.join(work, folder, pkg)
        os.makedirs(dst, exist_ok=True)
        for name in os.listdir(src):
            path = os.path.join(src, name)
            if name.endswith((".html", ".html.gz")):
                html = re.sub(r"(?i)charset\s*=\s*[\"']?[\w-]+", "charset=utf-8", read(path))
                with open(os.path.join(dst, name.removesuffix(".gz")), "w", encoding="utf-8") as f:
                    f.write(rw.html(html))
            elif name.endswith(".txt"):
                with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                    f.write(rw.text(read(path)))
            elif os.path.isfile(path):
                shutil.copy(path, dst)
    for tag, root in (("en", args.devset), (folder, os.path.join(work, folder))):
        for pkg in packages:
            subprocess.run([args.bin, "eval", "--dataset", os.path.join(root, pkg), "-a", "auto",
                            "--dump", os.path.join(work, "out", tag)],
                           capture_output=True, check=True)
    for pkg in packages:
        src = os.path.join(work, "out", "en", "auto", pkg)
        dst = os.path.join(work, "invariant", pkg)
        os.makedirs(dst, exist_ok=True)
        for name in os.listdir(src):
            with open(os.path.join(dst, name), "w", encoding="utf-8") as f:
                f.write(rw.text(read(os.path.join(src, name))))
    print(f"{'package':<12} {'invariant':>9} {'rewritten':>9}   chr_F1 of auto ({work})")
    for pkg in packages:
        data = os.path.join(work, folder, pkg)
        inv = chr_f1(args.bin, data, os.path.join(work, "invariant"))
        real = chr_f1(args.bin, data, os.path.join(work, "out", folder, "auto"))
        print(f"{pkg:<12} {inv:>9.3f} {real:>9.3f}")


if __name__ == "__main__":
    main()
