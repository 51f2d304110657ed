"""How two values compare, and a value as the question asks for it: the verdicts of the
extractive composer's comparisons ("which came first?", "the same country?"), the year
of a date when a year is asked for, and a count without the word after it.
"""

from __future__ import annotations

import re

from app.answers.countries import countries_in
from app.answers.evidence import SCALES, Evidence, Value, count_of, in_first_brackets
from app.answers.question import AnswerType, Comparison, Prefer, Question
from app.answers.shared import same_name
from ingest.analyzer import analyze
from ingest.dates import parse_date

# Kinds whose values are names, the same when one's words hold the other's, not when they
# share their first letters as a place and its people do.
_NAMES = frozenset(
    {
        AnswerType.PERSON,
        AnswerType.ORGANISATION,
        AnswerType.WORK,
        AnswerType.EVENT,
        AnswerType.ENTITY,
    }
)
COUNTRY_PREFIX = 4  # letters a country and its people share: "Norway" and "Norwegian"
_ASKS_YEAR = re.compile(r"\b(?:what|which)\s+year\b|\byear\s+of\b|באיזו שנה|何年", re.I)
_WORD_AFTER = re.compile(r"\s+[^\W\d]+$")  # "44 victories"; not "25日"
_MEASURE = re.compile(r"\bhow\s+(?:long|far|tall|high|big|large|heavy|old|much|wide|deep)\b", re.I)
_POSSESSIVE = re.compile(r"['’]s$")
_ASKS_MIDDLE = re.compile(r"\bmiddle\s+names?\b", re.I)
_NAME_BEFORE = re.compile(r"(?<!\S)[A-Z][\w.'-]*\s+$")  # a capitalised word before a name
_NAME_AFTER = re.compile(r"\s+[A-Z][\w'-]*(?!\S)")
_QUOTED_WORD = re.compile(r"[\"“(]")  # a nickname set in quotes: no part of the name proper
# A bracket opened and never closed: "Oranjekoorts (Orange fever".
_OPEN_BRACKET = re.compile(r"\s*[(\[][^)\]]*$")
_STRAIGHT_QUOTE = '"'
_MAGNITUDE = re.compile(r"\s(?:" + "|".join([*SCALES, "percent"]) + r")$", re.I)


def winner(comparison: Comparison, found: list[tuple[Evidence, Value | None] | None]) -> str:
    a, b = [parsed(p[1], comparison.value) if p and p[1] else None for p in found]
    assert a is not None and b is not None
    first_wins = a <= b if comparison.prefer in (Prefer.EARLIER, Prefer.LESS) else a >= b
    return comparison.sides[0] if first_wins else comparison.sides[1]


def days_between(texts: list[str]) -> int | None:
    """The days between the earliest and the latest of the dates (a year alone counting
    from its first day), or None for fewer than two."""
    found = (parse_date(text) for text in texts)
    days = sorted(d.first_day for d in found if d is not None)
    return (days[-1] - days[0]).days if len(days) >= 2 else None


def within_brackets(text: str, found: list[Value]) -> list[Value]:
    """The values inside the text's first brackets, when they hold two or more; else all."""
    inside = in_first_brackets(text, found)
    return inside if len(inside) >= 2 else found


def as_asked(value: str, question: Question) -> str:
    """A date's year alone, when the question asks for a year; a count without the word
    read after it ("44 victories", "8,515 at"), which the question names or which is no
    unit at all, but with its magnitude ("250 million") or the unit of a measure the
    question does not name ("8 km" for "how long"); a name without the possessive it was
    read with ("Nelson Rockefeller's"), and without a bracket or a quote mark the entity
    model's span cut from its pair."""
    if question.answer_type is AnswerType.NUMBER:
        return _count(value, question)
    value = _balanced(_POSSESSIVE.sub("", value))
    found = parse_date(value) if _ASKS_YEAR.search(question.text) else None
    return found.iso.split("-")[0] if found is not None else value


def _balanced(value: str) -> str:
    """A name without the half of a pair of marks the model's span cut off: an opened
    bracket and what follows it ("Oranjekoorts (Orange fever"), and a lone quote mark
    (a title's opening mark, "Checo" of "Sergio "Checo" Pérez"). Paired marks stay, as in
    a nickname set in its name."""
    value = _OPEN_BRACKET.sub("", value) or value
    if value.count(_STRAIGHT_QUOTE) % 2:
        value = " ".join(value.replace(_STRAIGHT_QUOTE, "").split())
    return value


def middle_name(text: str, value: Value, question: Question) -> str | None:
    """For "what is the middle name of …?", the words between the first and the last of
    the full name the value stands in: "Andreas" of "Peter Andreas Thiel"; None when the
    question asks no such thing or the name has no middle."""
    if not _ASKS_MIDDLE.search(question.text):
        return None
    start, end = value.start, value.end
    while (before := _NAME_BEFORE.search(text, 0, start)) is not None:
        start = before.start()
    while (after := _NAME_AFTER.match(text, end)) is not None:
        end = after.end()
    words = [w for w in text[start:end].split() if not _QUOTED_WORD.match(w)]
    return " ".join(words[1:-1]) if len(words) >= 3 else None


def _count(value: str, question: Question) -> str:
    word = _WORD_AFTER.search(value)
    if word is None or _MAGNITUDE.search(value):
        return value
    named = set(analyze(word.group())) & {*question.terms, question.unit}
    return value if not named and _MEASURE.search(question.text) else value[: word.start()]


def same_kind(
    a: str, b: str, value: AnswerType, around: tuple[list[str], list[str]] = ([], [])
) -> bool:
    """Whether two values agree. Countries agree when the values name one in common
    (app/answers/countries: "American" and "the U.S.", "Cuban American" and "American");
    a value that names none stands for those its sentence's other values (`around`) name:
    "Alcamari" is a mountain in "the Bolivian Andes". Failing names, a country is the last
    part of a place ("Hamar, Norway"), and a hyphenated nationality each of its parts."""
    if value in _NAMES:
        return same_name(a, b)
    if value is not AnswerType.NATIONALITY:
        return _alike(a, b)
    ours, theirs = _countries(a, around[0]), _countries(b, around[1])
    if ours and theirs:
        return bool(ours & theirs)
    return any(_alike(x, y, COUNTRY_PREFIX) for x in _country_parts(a) for y in _country_parts(b))


def _countries(value: str, around: list[str]) -> frozenset[str]:
    return countries_in(value) or frozenset().union(*map(countries_in, around))


def _country_parts(text: str) -> list[str]:
    return [p for p in re.split(r"\s*-\s*", text.split(",")[-1]) if p.strip()]


def _alike(a: str, b: str, prefix: int = 5) -> bool:
    """The same place or nationality, however written: equal, or sharing the first five
    letters ("American" and "America", "Russian" and "Russia")."""
    x, y = a.casefold().strip(), b.casefold().strip()
    return x == y or (min(len(x), len(y)) >= prefix and x[:prefix] == y[:prefix])


def parsed(value: Value, wanted: AnswerType) -> float | None:
    """A comparable number: a date as YYYYMMDD (missing parts 0)."""
    if wanted is AnswerType.DATE:
        found = parse_date(value.text)
        if found is None:
            return None
        parts = [int(p) for p in found.iso.split("-")] + [0, 0]
        return float(parts[0] * 10_000 + parts[1] * 100 + parts[2])
    return count_of(value.text)
