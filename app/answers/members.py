"""How many members a group has, for "Which band has more members, A or B?".

A passage gives a group's size in one of three ways, tried in this order:
- a number of members: "consisting of three members" (any count of the unit);
- a word for a group of that size: "a rock duo", "a three-piece band", "a four-person
  group";
- the members by name, after a word that introduces them: "consists of Ed Kowalczyk (lead
  vocals), Chad Taylor (guitar) …", "was formed in 2004 by Rory Attwell and Sam Mehran",
  "The band's members are …". Their count is the people the sentence names.

General English only; a sentence that names people without introducing them as members
("toured with …") gives no count.
"""

from __future__ import annotations

import re

from ingest.extraction import Named

UNIT = "member"  # the analyzer's term for "members"
# Words for a group of a size: "a rock duo", "the trio".
SIZES = {"duo": 2, "trio": 3, "quartet": 4, "quintet": 5, "sextet": 6, "septet": 7, "octet": 8}
_SIZE = re.compile(r"\b(?P<size>" + "|".join(SIZES) + r")\b", re.I)
# What a number before a hyphen counts when it sizes a group: "a three-piece band".
_SIZED = re.compile(r"\b(?P<count>\w+)-(?:piece|person|member|man|strong)\b", re.I)
_INTRODUCED = re.compile(
    r"\b(?:consist(?:s|ed|ing)?\s+of|compris(?:es|ed|ing)|(?:composed|made\s+up)\s+of"
    r"|members?\s+(?:are|were|is|was|include|included)|line-?up|formed\b[^.]*?\bby)\b",
    re.I,
)


def sizes(text: str) -> list[tuple[str, int, int]]:
    """The group sizes a sentence states in words, as (the count's text, start, end):
    "duo", or "three" of "three-piece"."""
    found = [(m.group("size"), m.start("size"), m.end("size")) for m in _SIZE.finditer(text)]
    found += [(m.group("count"), m.start("count"), m.end("count")) for m in _SIZED.finditer(text)]
    return sorted(found, key=lambda size: size[1])


def listed(text: str, named: list[Named]) -> int | None:
    """How many people a sentence introduces as members: those it names after the words
    that introduce them."""
    introduced = _INTRODUCED.search(text)
    if introduced is None:
        return None
    people = {n.text for n in named if n.label == "PERSON" and n.start >= introduced.start()}
    return len(people) or None
