"""Which words of a text match the query's analyzed terms, with their offsets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.analyzer import word_terms

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
        hit = next((t for t in word_terms(match.group()).split() if t in terms), None)
        if hit is not None:
            found.append(Highlight(hit, offset + match.start(), offset + match.end()))
            if len(found) == MAX_HIGHLIGHTS:
                break
    return found
