"""Sentences of a passage with their character offsets, for quoting it word for word.

Boundaries: sentence punctuation (Latin, Hebrew and CJK) followed by a space or the end,
except the period of an initial, a title, or an abbreviation before a number ("d. 1993",
"c. 1850"), any mark before a lower-case word ("the U.S. state of") or a comma ("Outrage! ,
the official …"), and a title's own "!" or "?" before a bracket ("Arise! (German: …) is a
film"); a blank line; a line that starts a list item or a heading; and a short line that
ends without punctuation (a heading or a `Field: value` line) unless the next line starts
in lower case or with a digit. A long line that ends without punctuation is a wrapped
sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SHORT_LINE = 50  # characters; a shorter unpunctuated line ends its sentence
_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)]|#{1,6}\s)")
_PUNCTUATED = re.compile(r"[.!?。！？:;,]\s*$")
# A period after an initial, a title or a name's suffix does not end a sentence: "Albert
# S. Rogell", "St. Louis", "Dr. Hale", "John Waters Jr. (born 1946)".
_ABBREVIATION = re.compile(
    r"(?:^|[\s(\"'])(?:[A-Z]|St|Dr|Mr|Mrs|Ms|Prof|Gen|Col|Lt|Capt|Rev|Mt|Ft|vs|Jr|Sr)\.$"
)
# Abbreviations before a number or a date: born, died, circa, flourished, reigned, page,
# number, volume, opus ("b. 1901", "d. 1993", "c. 1850", "fl. 1920s", "d. March 28, 2003",
# "ranked World No. 7", "Vol. 2", "Op. 27"), in the case English writes each in.
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b"
)
_BEFORE_A_NUMBER = re.compile(r"(?:^|[\s(\"'])(?:b|d|c|ca|fl|r|p|pp|no|vol|No|Nos|Vol|Op)\.$")
_A_NUMBER = re.compile(rf"\d|{_MONTH}")
_LOWER = re.compile(r"[a-z]")


@dataclass(frozen=True)
class Sentence:
    start: int  # offsets into the passage
    end: int
    text: str


def sentences(text: str) -> list[Sentence]:
    found: list[Sentence] = []
    for start, end in _blocks(text):
        found.extend(_split(text, start, end))
    return found


def _blocks(text: str) -> list[tuple[int, int]]:
    """Runs of lines that may hold one sentence across their line breaks."""
    lines = list(re.finditer(r"[^\n]*(?:\n|$)", text))
    blocks: list[tuple[int, int]] = []
    start = 0
    for index, line in enumerate(lines):
        body = line.group(0).rstrip("\n")
        if _ITEM.match(body) and line.start() > start:
            blocks.append((start, line.start()))
            start = line.start()
        following = lines[index + 1].group(0) if index + 1 < len(lines) else ""
        if not body.strip() or _ends_block(body, following):
            blocks.append((start, line.end()))
            start = line.end()
    blocks.append((start, len(text)))
    return [(s, e) for s, e in blocks if text[s:e].strip()]


def _ends_block(line: str, following: str) -> bool:
    """A short unpunctuated line is a heading or a field, unless the next line carries on
    its sentence (it starts in lower case or with a digit)."""
    stripped, ahead = line.strip(), following.lstrip()
    carries_on = bool(ahead) and (ahead[0].islower() or ahead[0].isdigit())
    return len(stripped) < SHORT_LINE and not _PUNCTUATED.search(stripped) and not carries_on


def _split(text: str, start: int, end: int) -> list[Sentence]:
    pieces: list[Sentence] = []
    cursor = start
    for boundary in _END.finditer(text, start, end):
        if _continues(text, start, boundary.start(), boundary.end()):
            continue
        pieces.extend(_trimmed(text, cursor, boundary.start()))
        cursor = boundary.end()
    pieces.extend(_trimmed(text, cursor, end))
    return pieces


def _continues(text: str, start: int, period: int, after: int) -> bool:
    """Whether the punctuation at `period` is inside a sentence rather than its end."""
    if _ABBREVIATION.search(text, max(start, period - 6), period):
        return True
    if _LOWER.match(text, after) or text.startswith((",", ";", ":"), after):
        return True  # "in the U.S. state of …", "Outrage! , a board game": no sentence starts so
    if text[period - 1] in "!?" and text.startswith("(", after):
        return True  # a title's own mark: "Tabitha, Arise! (German: Tabea, stehe auf!) is …"
    if _BEFORE_A_NUMBER.search(text[max(start, period - 5) : period]) is None:
        return False
    return _A_NUMBER.match(text, after) is not None


def _trimmed(text: str, start: int, end: int) -> list[Sentence]:
    raw = text[start:end]
    lead = len(raw) - len(raw.lstrip())
    body = raw.strip()
    if not body:
        return []
    return [Sentence(start + lead, start + lead + len(body), body)]
