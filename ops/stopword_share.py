#!/usr/bin/env python3
"""The share of running text that each language's stopword list covers, as `auto`'s
`stopword_density` feature counts it.

`stopword_density` (jusText's prose signal: seed 006, section 3.2) is the share of a block's
words found in the `stop-words` crate's list for the page's language. The model learns its
thresholds on the devset, which is English; and the crate's lists cover very different
shares of prose in different languages: English's NLTK list about 0.47 of the words of
running text, Turkish's list of 53 words about 0.14, Finnish (whose function words are
mostly case endings) 0.24, Ukrainian's stopwords-iso list 0.15. This prints those shares
(language, share; tab-separated). Dividing a block's density by its language's share and
multiplying it by English's (jusText instead builds every language's list alike, from the
most frequent words of its Wikipedia, under one pair of thresholds) was measured with
`ops/script_stress.py --script LANG` and left out: docs/quality.md, "Languages written
with spaces".

The share is measured with `wordfreq` (Robyn Speer's word frequencies of web text,
Wikipedia, subtitles, news and books, in 40-odd languages): the summed frequency of the
words whose normalized form (letters and digits, lower-cased: `auto_lang::normalize`) is in
the list, over the summed frequency of all words with a letter or digit. For Chinese,
Japanese and Korean, whose density `auto` counts in characters, it is the share of their
CJK characters that are single-character stopwords. Norwegian reads wordfreq's `nb`,
Croatian its `sh` (Serbo-Croatian in Latin script); Thai and Estonian have no wordfreq
list (`-`).

Usage: pip install wordfreq; python3 ops/stopword_share.py
"""
import json
import os
import sys

from script_stress import crate_dir

# The codes of `LANGS` in src/extract/auto_lang.rs, in its order.
LANGS = ("en ru de zh ja es fr it pt pl nl tr vi id cs ko fa ar sv hu el ro uk da fi no he th "
         "bg sk hi ca hr sl lt lv et").split()
CJK = {"zh", "ja", "ko"}
# wordfreq's code where it differs from ours.
WORDFREQ_CODE = {"no": "nb", "hr": "sh"}
# The `stop-words` crate's NLTK lists (its build.rs), used before stopwords-iso's.
NLTK = {"sq": "albanian", "ar": "arabic", "az": "azerbaijani", "eu": "basque",
        "be": "belarusian", "bn": "bengali", "ca": "catalan", "zh": "chinese", "da": "danish",
        "nl": "dutch", "en": "english", "fi": "finnish", "fr": "french", "de": "german",
        "el": "greek", "he": "hebrew", "hu": "hungarian", "id": "indonesian", "it": "italian",
        "kk": "kazakh", "ne": "nepali", "no": "norwegian", "pt": "portuguese",
        "ro": "romanian", "ru": "russian", "sl": "slovenian", "es": "spanish",
        "sv": "swedish", "tg": "tajik", "ta": "tamil", "tr": "turkish", "uz": "uzbek"}


def normalize(w):
    """`auto_lang::normalize`: None for a phrase, else letters and digits, lower-cased."""
    if any(c.isspace() for c in w):
        return None
    n = "".join(c.lower() for c in w if c.isalnum())
    return n or None


def is_cjk(c):
    """`script::is_cjk`, near enough for a frequency count: Han, kana, Hangul syllables."""
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x3040 <= o <= 0x30FF
            or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FA1F)


def stoplist(d, lang, iso):
    if lang in NLTK:
        with open(os.path.join(d, "src", "nltk", NLTK[lang]), encoding="utf-8") as f:
            words = f.read().split("\n")
    else:
        words = iso.get(lang, [])
    return {n for n in map(normalize, words) if n}


def share(lang, stops, freqs):
    covered = total = 0.0
    if lang in CJK:
        chars = {w for w in stops if len(w) == 1 and is_cjk(w)}
        for w, f in freqs.items():
            cjk = [c for c in w if is_cjk(c)]
            total += f * len(cjk)
            covered += f * sum(c in chars for c in cjk)
    else:
        for w, f in freqs.items():
            n = normalize(w)
            if n:
                total += f
                covered += f * (n in stops)
    return covered / total if total else None


def main():
    try:
        from wordfreq import available_languages, get_frequency_dict
    except ImportError:
        sys.exit("stopword_share: needs the wordfreq package (pip install wordfreq)")
    d = crate_dir()
    with open(os.path.join(d, "src", "iso", "stopwords-iso.json"), encoding="utf-8") as f:
        iso = json.load(f)
    have = set(available_languages())
    for lang in LANGS:
        code = WORDFREQ_CODE.get(lang, lang)
        s = share(lang, stoplist(d, lang, iso), get_frequency_dict(code)) if code in have else None
        print(f"{lang}\t{'-' if s is None else f'{s:.3f}'}")


if __name__ == "__main__":
    main()
