"""Answers in a language the reader was not trained on: the sentence sharing most of the
question's terms is quoted, and where the question asks how many or when, the number or
date in it is the short answer. The analyzer's terms work in every script it reads
(Hebrew prefixes trimmed, CJK as character pairs), so this reads any language, if coarsely.
"""

from __future__ import annotations

import re

from app.answers.extractive.drafting import claim
from app.answers.extractive.passages import Cited, Passage
from app.answers.results import Draft
from ingest.analyzer import analyze
from ingest.dates import parse_date

# The words each language asks "how many" and "when" with.
_ASKS_COUNT = {"he": re.compile(r"כמה"), "ja": re.compile(r"何|いくつ|幾")}
_ASKS_DATE = {"he": re.compile(r"מתי|באיזו שנה"), "ja": re.compile(r"いつ|何年")}
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_UNIT = re.compile(r"\s*(\w+)")  # the word after a number: its unit


def draft(question: str, passages: list[Passage], language: str) -> Draft:
    asked = set(analyze(question))
    best = max(
        (
            (len(asked & set(analyze(s.text))), -rank, rank, s)
            for rank, p in enumerate(passages)
            for s in p.sentences
        ),
        key=lambda item: item[:2],
        default=None,
    )
    if best is None or best[0] == 0:
        return Draft(abstain_reason="NO_CONTEXT")
    found = Cited(passages[best[2]], best[3])
    short = _short(question, found.sentence.text, language)
    return Draft(
        claims=[claim(found, short, language)],
        short_answer=short,
        support=[found.passage.quote(found.sentence)],
        settled=False,
    )


def _short(question: str, sentence: str, language: str) -> str | None:
    if (asks := _ASKS_DATE.get(language)) and asks.search(question):
        found = parse_date(sentence)
        return found.iso if found else None
    if (asks := _ASKS_COUNT.get(language)) and asks.search(question):
        return _counted(question, sentence)
    return None


def _counted(question: str, sentence: str) -> str | None:
    """The number counted in a unit the question names ("25" of "25日" for "何日"), else
    the first number."""
    numbers = list(_NUMBER.finditer(sentence))
    for number in numbers:
        unit = _UNIT.match(sentence, number.end())
        if unit and _unit_of(unit.group(1)) in question:
            return number.group()
    return numbers[0].group() if numbers else None


def _unit_of(word: str) -> str:
    """A word; of CJK text, which runs on unspaced, its first character (a counter)."""
    return word[0] if ord(word[0]) >= 0x3000 else word
