"""What a passage is about: the thing its document's title names, as the document's opening
sentence defines it ("Charmed is an American television series …").

A "which series …?" question is often answered by what a passage is about rather than by a
name inside it: the question describes the thing, and the passage that matches the
description is the thing's own. Its title (`ingest.titles.without_qualifier`) is then the
answer, when the opening sentence says the title's thing is of the kind the question asks
for.
"""

from __future__ import annotations

import re

from app.answers.evidence import related_terms
from ingest.analyzer import analyze

DEFINITION_WORDS = 10  # words after "is" read for the kind of thing the subject is
_COPULA = re.compile(r"\b(?:is|was|are|were)\s", re.I)
# A relative clause, or a place the subject is in ("a community in Fairfax County"),
# ends what it is said to be.
_ENDS_THE_KIND = frozenset({"who", "whom", "whose", "which", "that", "in", "at", "near"})
_PUNCTUATION = ".,;:()\"'“”‘’"


def kinds(opening: str) -> frozenset[str]:
    """The analyzer terms of what an opening sentence says its subject is: the words after
    its first "is" or "was", up to a relative clause or where it is. Hyphenated modifiers ("a
    Tamil-language song") name no kind."""
    found = _COPULA.search(opening)
    if found is None:
        return frozenset()
    terms: set[str] = set()
    for token in opening[found.end() :].split()[:DEFINITION_WORDS]:
        word = token.strip(_PUNCTUATION).casefold()
        if word in _ENDS_THE_KIND:
            break
        if word and "-" not in word:
            terms.update(analyze(word))
    return frozenset(terms)


def defines_as(opening: str, head: str) -> bool:
    """Whether the opening sentence says its subject is a `head` (one word family)."""
    wanted = frozenset(analyze(head))
    return bool(wanted) and bool(related_terms(kinds(opening), wanted))
