"""The one lexical analyzer, shared by indexing and querying.

- NFKC normalisation and case folding;
- Hebrew: niqqud and cantillation removed, geresh/gershayim joined, prefix letters trimmed;
- English (Latin script): stopwords dropped, Snowball stemming;
- CJK (Han, kana, Hangul): overlapping character bigrams.
"""

from __future__ import annotations

import re
import unicodedata

import Stemmer

from ingest._stopwords import ENGLISH
from ingest.memo import forget, memo

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"(?P<cjk>[{_CJK}]+)|(?P<word>[^\W_{_CJK}]+)")
_HEBREW_MARKS = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
# Geresh, gershayim and ASCII quotes inside Hebrew words (acronyms such as צה״ל) join them.
_HEBREW_PUNCT = re.compile("(?<=[\u05d0-\u05ea])[\u05f3\u05f4'\"](?=[\u05d0-\u05ea])")
_HEBREW_PREFIX_LETTERS = frozenset("והבכלמש")
_MIN_HEBREW_STEM = 2
_MAX_TOKEN_LENGTH = 64
_stemmer = Stemmer.Stemmer("english")


def analyze(text: str) -> list[str]:
    """Index terms of `text`, in order, repeats kept (BM25 counts them)."""
    normalised = _normalise(text)
    terms: list[str] = []
    for match in _TOKEN.finditer(normalised):
        if match.lastgroup == "cjk":
            terms.extend(_bigrams(match.group()))
        else:
            term = _word_term(match.group())
            if term:
                terms.append(term)
    return terms


@memo(131_072)
def word_terms(word: str) -> str:
    """One word's index terms, space-separated (a term has no space). Cached: a search reads
    its passages a word at a time (highlights, relation cues), and analysing a word
    normalises it first."""
    return " ".join(analyze(word))


def clear_cache() -> None:
    """Forget memoised word terms (benchmarks measure the analyzer from cold)."""
    forget(_word_term)
    forget(word_terms)


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _HEBREW_MARKS.sub("", text)
    return _HEBREW_PUNCT.sub("", text)


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


@memo(200_000)
def _word_term(word: str) -> str | None:
    if len(word) > _MAX_TOKEN_LENGTH:
        return None
    if "\u05d0" <= word[0] <= "\u05ea":
        return trim_hebrew_prefixes(word)
    if word in ENGLISH:
        return None
    if word.isalpha() and word[0] < "\u0250":  # Latin script
        return str(_stemmer.stemWord(word))
    return word


def trim_hebrew_prefixes(word: str) -> str:
    """Strip leading prefix letters (ו ה ב כ ל מ ש and their combinations), keeping two or
    more letters.

    Greedy and uncapped on purpose: trimming a prefix letter + X always gives the same term
    as trimming X, so every prefixed form meets its bare form in the index. Without a
    lexicon this also conflates some unrelated words that begin with those letters; BM25's
    idf keeps such common stems cheap.
    """
    stripped = 0
    while len(word) - stripped > _MIN_HEBREW_STEM and word[stripped] in _HEBREW_PREFIX_LETTERS:
        stripped += 1
    return word[stripped:]
