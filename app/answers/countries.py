"""Countries by any of their names: "the U.S.", "American" and "United States" are one
country; "Cuban American" names two. The names are countryinfo's (each country's name,
alternative spellings and demonym); one name may stand for more than one country. Apart
from them, countryinfo's provinces (states, counties): "Shandong" is in China."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from countryinfo import CountryInfo


def countries_in(text: str) -> frozenset[str]:
    """The countries a text names, each name whole and in its own case ("US", not "us");
    dots are dropped first, so "U.S." is "US"."""
    pattern, names = _names()
    return frozenset(c for m in pattern.finditer(text.replace(".", "")) for c in names[m.group()])


@lru_cache(maxsize=1)
def _names() -> tuple[re.Pattern[str], dict[str, frozenset[str]]]:
    names: dict[str, set[str]] = {}
    for key, info in CountryInfo.all().items():
        for name in (info.get("name"), info.get("demonym"), *(info.get("altSpellings") or [])):
            if isinstance(name, str) and len(name) >= 2:
                names.setdefault(name.replace(".", ""), set()).add(key)
    for name, key in _ENGLISH_NAMES.items():
        names.setdefault(name, set()).add(key)
    for continent in _CONTINENTS:
        names.setdefault(continent, set())  # matched whole, before the country it holds
    return _lookup(names)


# What English calls a country and countryinfo leaves out: "based in America", as
# "American" is its demonym there.
_ENGLISH_NAMES = {"America": "united states"}
_CONTINENTS = ("North America", "South America", "Central America", "Latin America")


# Asked of every sentence about a side, for the same few names again and again.
@lru_cache(maxsize=4_096)
def provinces_in(text: str) -> Mapping[str, frozenset[str]]:
    """The provinces a text names, each with the countries it is one of: "Qingdao,
    Shandong" names Shandong, of China."""
    pattern, names = _provinces()
    return {m.group(): names[m.group()] for m in pattern.finditer(text.replace(".", ""))}


@lru_cache(maxsize=1)
def _provinces() -> tuple[re.Pattern[str], dict[str, frozenset[str]]]:
    names: dict[str, set[str]] = {}
    for key, info in CountryInfo.all().items():
        for name in info.get("provinces") or []:
            # Shorter ones are words as often as names: "Man", "Bar", "Van".
            if isinstance(name, str) and len(name) >= 4:
                names.setdefault(name.replace(".", ""), set()).add(key)
    return _lookup(names)


def _lookup(names: dict[str, set[str]]) -> tuple[re.Pattern[str], dict[str, frozenset[str]]]:
    """A pattern of the names, whole words, and what each stands for."""
    longest_first = sorted(names, key=len, reverse=True)  # "Papua New Guinea" before "Guinea"
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")
    return pattern, {name: frozenset(keys) for name, keys in names.items()}
