"""Chunks on sentence and paragraph boundaries, in three sizes.

- main chunks (~1,500 chars) never cross a section start; they carry the BM25 postings;
- small windows (~500 chars) fit the embedder's token limit and carry the vectors;
- large windows (~4,500 chars) give answers room around a hit.
Each window is linked to the main chunks it overlaps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MAIN_CHARS, SMALL_CHARS, LARGE_CHARS = 1500, 500, 4500
_MIN_CHUNK_BEFORE_BREAK = 200
_BOUNDARY = re.compile(r"(?<=[.!?…。！？])[\"'”’)\]]*\s+|\n+")

TokenCounter = Callable[[list[str]], list[int]]


@dataclass(frozen=True)
class Span:
    start: int
    end: int

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end


def sentence_units(text: str) -> list[Span]:
    """Sentences and lines, each with its trailing whitespace; together they cover `text`."""
    spans, start = [], 0
    for match in _BOUNDARY.finditer(text):
        if match.end() > start:
            spans.append(Span(start, match.end()))
            start = match.end()
    if start < len(text):
        spans.append(Span(start, len(text)))
    return spans


def main_chunks(text: str, units: list[Span], section_starts: Iterable[int]) -> list[Span]:
    fitted = fit(text, units, MAIN_CHARS)
    return pack(text, fitted, MAIN_CHARS, breaks=frozenset(section_starts))


def large_windows(text: str, units: list[Span]) -> list[Span]:
    return pack(text, fit(text, units, LARGE_CHARS), LARGE_CHARS)


def small_windows(
    text: str, units: list[Span], count_tokens: TokenCounter | None, token_budget: int
) -> list[Span]:
    """~500-char windows that never exceed `token_budget` tokens, so nothing is truncated."""
    if count_tokens is None:
        return pack(text, fit(text, units, SMALL_CHARS), SMALL_CHARS)
    fitted = fit(text, units, SMALL_CHARS, count_tokens, token_budget)
    weights = count_tokens([text[u.start : u.end] for u in fitted])
    return pack(text, fitted, SMALL_CHARS, weights=weights, budget=token_budget)


def fit(
    text: str,
    units: list[Span],
    max_chars: int,
    count_tokens: TokenCounter | None = None,
    token_budget: int = 0,
) -> list[Span]:
    """Split units that are too long on their own, at whitespace where there is some."""
    too_big = [u.end - u.start > max_chars for u in units]
    if count_tokens is not None:
        counts = count_tokens([text[u.start : u.end] for u in units])
        too_big = [big or n > token_budget for big, n in zip(too_big, counts, strict=True)]
    fitted: list[Span] = []
    for unit, big in zip(units, too_big, strict=True):
        if not big:
            fitted.append(unit)
            continue
        halves = _halve(text, unit)
        fitted.extend(fit(text, halves, max_chars, count_tokens, token_budget))
    return fitted


def pack(
    text: str,
    units: list[Span],
    max_chars: int,
    breaks: frozenset[int] = frozenset(),
    weights: list[int] | None = None,
    budget: int = 0,
) -> list[Span]:
    chunks: list[Span] = []
    start, end, weight = -1, -1, 0
    for index, unit in enumerate(units):
        unit_weight = weights[index] if weights is not None else 0
        full = end - start + (unit.end - unit.start) > max_chars or (
            weights is not None and weight + unit_weight > budget
        )
        at_break = unit.start in breaks and end - start >= _MIN_CHUNK_BEFORE_BREAK
        if start >= 0 and (full or at_break):
            chunks.extend(_trimmed(text, Span(start, end)))
            start, weight = -1, 0
        if start < 0:
            start = unit.start
        end, weight = unit.end, weight + unit_weight
    if start >= 0:
        chunks.extend(_trimmed(text, Span(start, end)))
    return chunks


def link(windows: list[Span], mains: list[Span]) -> list[list[int]]:
    """For each window, the indexes of the main chunks it overlaps."""
    return [[i for i, main in enumerate(mains) if window.overlaps(main)] for window in windows]


def _halve(text: str, unit: Span) -> list[Span]:
    middle = (unit.start + unit.end) // 2
    left = text.rfind(" ", unit.start + 1, middle + 1)
    right = text.find(" ", middle, unit.end - 1)
    candidates = [p for p in (left, right) if p > unit.start]
    cut = min(candidates, key=lambda p: abs(p - middle)) + 1 if candidates else middle
    return [Span(unit.start, cut), Span(cut, unit.end)]


def _trimmed(text: str, span: Span) -> list[Span]:
    piece = text[span.start : span.end]
    stripped = piece.strip()
    if not stripped:
        return []
    start = span.start + (len(piece) - len(piece.lstrip()))
    return [Span(start, start + len(stripped))]
