"""Section references in a query ("appendix B", "section 4.2", "סעיף 12", "第3条"), as the
labels the section map gives such units, lower-cased."""

from __future__ import annotations

import re
import unicodedata

from ingest.sections import NUMERAL

_NUMBERED_WORDS = ("section", "clause", "article", "§")
_APPENDIX_WORDS = ("appendix", "annex", "schedule", "exhibit")
_CHAPTER_WORDS = ("chapter", "part")
_PATTERNS: list[tuple[re.Pattern[str], tuple[str, ...]]] = [
    (
        re.compile(r"\b(?:section|clause|article)\s+(\d[\w.-]*)|§\s*(\d[\w.-]*)", re.I),
        _NUMBERED_WORDS,
    ),
    (
        re.compile(r"\b(?:appendix|annex|schedule|exhibit)\s+([a-z0-9][\w.-]*)", re.I),
        _APPENDIX_WORDS,
    ),
    (re.compile(r"\b(?:chapter|part)\s+([\w.-]+)", re.I), _CHAPTER_WORDS),
    (re.compile(r"סעיף\s+(\S+)"), ("סעיף",)),
    (re.compile(r"פרק\s+(\S+)"), ("פרק",)),
    (re.compile(r"נספח\s+(\S+)"), ("נספח",)),
]
_JAPANESE = re.compile(rf"第({NUMERAL})(条|章)")
_APPENDIX_JA = re.compile(r"付録\s*(\S*)")


def section_labels(query: str) -> list[str]:
    """Every label a referenced unit may carry, e.g. "section 4.2" -> "section 4.2", "clause
    4.2", "article 4.2", "§ 4.2" and the bare "4.2" of a numbered clause."""
    text = unicodedata.normalize("NFKC", query)
    labels: list[str] = []
    for pattern, words in _PATTERNS:
        for match in pattern.finditer(text):
            number = _number(next(g for g in match.groups() if g))
            labels += [f"{word} {number}" for word in words]
            if words is _NUMBERED_WORDS:
                labels.append(number)
    labels += [f"第{m.group(1)}{m.group(2)}" for m in _JAPANESE.finditer(text)]
    labels += [f"付録 {m.group(1)}".strip().lower() for m in _APPENDIX_JA.finditer(text)]
    return list(dict.fromkeys(labels))


def _number(raw: str) -> str:
    return raw.rstrip(".,:;)?!").lower()
