"""Relation cues: which mentions in a passage the question's relation words point at.

In "Where was the director of film X born?", X's passage names many people; the one
"directed by" names is the bridge. The question's words outside its linked names
("director", "born") are its cues. A mention scores by the cue words near it in its
sentence, each worth less with distance. Words match when their stems are equal or one
stem begins the other ("direct" and "director"), without any list of relations.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from functools import lru_cache

from ingest.analyzer import analyze, word_terms
from ingest.memo import memo

WINDOW = 6  # words on either side of a mention that can name its relation
MIN_PREFIX = 4  # a stem this long may match a longer stem it begins

_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?;]\s|\n")


def cue_terms(query: str, names: Iterable[str]) -> frozenset[str]:
    """The query's terms outside its linked names."""
    named = {t for name in names for t in analyze(name)}
    return frozenset(t for t in analyze(query) if t not in named)


class CuedPassage:
    """A passage read once for one query's cues: its words, which of them are cues, and
    where its sentences end. A walk scores every mention of a passage, so each mention then
    costs a few steps instead of a pass over its sentence (that pass, repeated per mention,
    was most of the graph leg's time on long passages)."""

    def __init__(self, text: str, cues: frozenset[str]) -> None:
        words = list(_WORD.finditer(text))
        self._starts = [m.start() for m in words]
        self._ends = [m.end() for m in words]
        self._cued = [bool(cues) and _matches(m.group(), cues) for m in words]
        breaks = list(_SENTENCE_END.finditer(text))
        self._break_starts = [m.start() for m in breaks]
        self._break_ends = [m.end() for m in breaks]
        self._length = len(text)

    def strength(self, spans: list[tuple[int, int]]) -> float:
        """The strongest cue signal around any of a mention's spans (0 when none is near)."""
        return max((self._around(s, e) for s, e in spans if e > s), default=0.0)

    def _around(self, start: int, end: int) -> float:
        before, after = self._sentence(start, end)
        first = bisect_left(self._starts, before)
        last = bisect_right(self._ends, start)
        left = range(last - 1, max(first, last - WINDOW) - 1, -1)
        right_from = bisect_left(self._starts, end)
        right = range(right_from, min(right_from + WINDOW, bisect_right(self._ends, after)))
        return sum(
            1.0 / (1 + distance)
            for indices in (left, right)
            for distance, i in enumerate(indices)
            if self._cued[i]
        )

    def _sentence(self, start: int, end: int) -> tuple[int, int]:
        ended = bisect_right(self._break_ends, start)
        before = self._break_ends[ended - 1] if ended else 0
        following = bisect_left(self._break_starts, end)
        has_after = following < len(self._break_starts)
        return before, (self._break_starts[following] if has_after else self._length)


@memo(131_072)
def _matches(word: str, cues: frozenset[str]) -> bool:
    """Stems equal, or one of at least MIN_PREFIX letters begins the other. Cached: the
    passages a walk starts from share most of their words."""
    stem = _stem(word)
    if stem is None:
        return False
    begun, beginning = _prefixes(cues)
    if stem in cues or (len(stem) >= MIN_PREFIX and stem in begun):
        return True
    return any(stem[:i] in beginning for i in range(MIN_PREFIX, len(stem)))


def _stem(word: str) -> str | None:
    """A word's first term."""
    return word_terms(word).partition(" ")[0] or None


@lru_cache(maxsize=256)
def _prefixes(cues: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The cues' prefixes a stem may equal, and the cues long enough to begin a stem."""
    begun = frozenset(c[:i] for c in cues for i in range(MIN_PREFIX, len(c) + 1))
    return begun, frozenset(c for c in cues if len(c) >= MIN_PREFIX)
