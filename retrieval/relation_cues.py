"""Relation cues: which mentions in a passage the question's relation words point at.

In "Where was the director of film X born?", X's passage names many people; the one
"directed by" names is the bridge. The question's words outside its linked names
("director", "born") are its cues. A mention scores by the cue words near it in its
sentence, each worth less with distance. Words match when their stems are equal or one
stem begins the other ("direct" and "director"), without any list of relations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ingest.analyzer import analyze

WINDOW = 6  # words on either side of a mention that can name its relation
MIN_PREFIX = 4  # a stem this long may match a longer stem it begins

_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?;]\s|\n")


def cue_terms(query: str, names: Iterable[str]) -> frozenset[str]:
    """The query's terms outside its linked names."""
    named = {t for name in names for t in analyze(name)}
    return frozenset(t for t in analyze(query) if t not in named)


def cue_strength(text: str, spans: list[tuple[int, int]], cues: frozenset[str]) -> float:
    """The strongest cue signal around any of a mention's spans (0 when none is near)."""
    if not cues:
        return 0.0
    return max(
        (_around(text, start, end, cues) for start, end in spans if end > start), default=0.0
    )


def _around(text: str, start: int, end: int, cues: frozenset[str]) -> float:
    before, after = _sentence_bounds(text, start, end)
    left = [m.group() for m in _WORD.finditer(text, before, start)][::-1][:WINDOW]
    right = [m.group() for m in _WORD.finditer(text, end, after)][:WINDOW]
    return sum(
        1.0 / (1 + distance)
        for words in (left, right)
        for distance, word in enumerate(words)
        if _matches(word, cues)
    )


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return (ends[-1] if ends else 0), (after.start() if after else len(text))


def _matches(word: str, cues: frozenset[str]) -> bool:
    terms = analyze(word)
    return bool(terms) and any(_related(terms[0], cue) for cue in cues)


def _related(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= MIN_PREFIX and long.startswith(short)
