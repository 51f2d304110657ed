"""Which words of a text match the query's analyzed terms, with their offsets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.analyzer import analyze
from ingest.memo import memo

_WORD = re.compile(r"\w+")
MAX_HIGHLIGHTS = 50


@dataclass(frozen=True)
class Highlight:
    term: str
    start: int  # offsets in the document
    end: int


def highlights(text: str, offset: int, terms: set[str]) -> list[Highlight]:
    found: list[Highlight] = []
    for match in _WORD.finditer(text):
        hit = next((t for t in _terms_of(match.group()).split() if t in terms), None)
        if hit is not None:
            found.append(Highlight(hit, offset + match.start(), offset + match.end()))
            if len(found) == MAX_HIGHLIGHTS:
                break
    return found


@memo(131_072)
def _terms_of(word: str) -> str:
    """A word's index terms, space-separated (a term has no space). Cached: every hit's
    passage is highlighted, a word at a time, and analysing a word normalises it first."""
    return " ".join(analyze(word))
