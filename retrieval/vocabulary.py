"""A collection's vocabulary rule: a synonym set or a one-way expansion, applied to queries."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VocabularyRule:
    kind: str  # SYNONYMS or EXPANSION
    term: str | None  # the expanded term, for EXPANSION
    terms: list[str]
