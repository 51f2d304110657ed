"""How long a thing lasted, for "Which battle lasted longer?" and "Which satellite was
operational for longer?": a span of dates the sentence gives ("fought from 19 September
to 16 December 1944", "operational from May 1983 until April 1986"), or a length it
states ("it lasted almost 18 years").

A span's first end may leave its year to the second ("from August 4 to September 18,
1950"). Two dates a sentence names apart ("proposed in 1964 … launched in 1978") are no
span: only "from … to", "between … and" and a stated length are read. English only.
"""

from __future__ import annotations

import re
from datetime import date

from app.answers.evidence import count_of
from ingest.dates import parse_date

_ENDS = r"(?:[\w,.]+\s+){0,3}?"  # up to three words before a year: "September 18, 1950"
_SPAN = re.compile(
    rf"\b(?:from|between)\s+(?P<first>{_ENDS}[\w,.]+)\s+(?:to|until|till|through|and)\s+"
    rf"(?P<second>{_ENDS}\d{{3,4}})\b",
    re.I,
)
_YEAR = re.compile(r"\b\d{3,4}\b")
_LENGTH = re.compile(
    r"\blast(?:ed|ing|s)?\s+(?:(?:about|almost|nearly|over|some|around|roughly|just)\s+)?"
    r"(?P<count>[\w.,-]+)\s+(?P<unit>day|week|month|year|decade|centur(?:y|ie))s?\b",
    re.I,
)
_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365, "decade": 3_652, "centur": 36_524}


def lasted_days(text: str) -> int | None:
    """The days the sentence says a thing lasted: its first span of dates, else the first
    length it states; None when it gives neither."""
    for found in _SPAN.finditer(text):
        days = _span_days(found.group("first"), found.group("second"))
        if days is not None:
            return days
    return _stated_days(text)


def _span_days(first: str, second: str) -> int | None:
    """The days from one end to the other, the first taking the second's year when it
    names none ("19 September" to "16 December 1944")."""
    year = _YEAR.search(second)
    assert year is not None  # the pattern ends the second at a year
    start = _day(first if _YEAR.search(first) else f"{first} {year.group()}")
    end = _day(second)
    if start is None or end is None or end < start:
        return None
    return (end - start).days


def _day(text: str) -> date | None:
    """The first day a date names, at whatever precision it gives."""
    found = parse_date(text)
    return None if found is None else found.first_day


def _stated_days(text: str) -> int | None:
    found = _LENGTH.search(text)
    if found is None:
        return None
    count = count_of(found.group("count"))
    unit = found.group("unit").casefold().removesuffix("ie")
    return None if count is None else round(count * _DAYS[unit])
