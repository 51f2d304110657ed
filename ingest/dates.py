"""Dates named in text, parsed to ISO strings at the precision the text gives."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from dateutil import parser as date_parser

_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
# Two defaults that differ in every field: a field is known when both parses agree on it.
_DEFAULT_A = datetime(2001, 1, 1)
_DEFAULT_B = datetime(2002, 2, 2)


@dataclass(frozen=True)
class DateValue:
    iso: str  # "1875", "1875-11" or "1875-11-11"
    precision: str  # "year", "month" or "day"

    @property
    def first_day(self) -> date:
        """The first day the date names: 1 January of a year alone."""
        return date.fromisoformat((self.iso + "-01-01")[:10])


def parse_date(text: str) -> DateValue | None:
    """The date `text` names, or None when it names no year (e.g. "last week")."""
    if not _YEAR.search(text):
        return None
    try:
        first = date_parser.parse(text, default=_DEFAULT_A, fuzzy=True)
        second = date_parser.parse(text, default=_DEFAULT_B, fuzzy=True)
    except (ValueError, OverflowError):
        return None
    if first.year != second.year:
        return None
    if first.month != second.month:
        return DateValue(f"{first.year:04d}", "year")
    if first.day != second.day:
        return DateValue(f"{first.year:04d}-{first.month:02d}", "month")
    return DateValue(first.date().isoformat(), "day")
