"""Life events and measures, and the words that state them. "The place of death of X" is
answered by "he was assassinated in Delft", and "where did X die?" by "his death in
Toronto"; "which is higher?" by "an elevation of 7295 m": the question and the passage
name one event or measure in different words, which neither stems nor shared first letters
join. A term of a family reads as the family's name.
"""

from __future__ import annotations

from collections.abc import Iterable

from ingest.analyzer import analyze

# English words for the events a life's facts are told by, as analyzer stems.
_FAMILIES = {
    "death": "die death killed assassinated executed murdered perished",
    "birth": "born birth",
    "burial": "buried burial entombed",
    # A measure, as a comparison asks for it ("which is higher?") and a passage gives it
    # ("an elevation of 7295 m").
    "height": "high higher highest tall taller tallest height elevation altitude",
    "distance": "close closer closest near nearer nearest distance away",
}
_FAMILY_OF = {term: name for name, words in _FAMILIES.items() for term in analyze(words)}
# The units a measure is given in, wherever its word stands: "the eighth highest mountain in
# the world at 8163 m" gives a height, "five miles (8 km) northwest of" a distance.
_UNITS = {
    "height": frozenset(analyze("m metre metres meter meters ft feet foot")),
    "distance": frozenset(analyze("mile miles km kilometre kilometres kilometer kilometers")),
}


def family(term: str) -> str:
    """The event a term names ("assassin" → "death"), or the term itself."""
    return _FAMILY_OF.get(term, term)


def with_families(terms: Iterable[str]) -> frozenset[str]:
    """The terms, with the event each one names beside it."""
    held = frozenset(terms)
    return held | {family(t) for t in held}


def units_of(terms: Iterable[str]) -> frozenset[str]:
    """The units of the measures the terms name: "higher" → m, ft."""
    return frozenset().union(*(_UNITS.get(family(t), frozenset()) for t in terms))
