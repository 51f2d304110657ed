"""Comparisons: a question that sets two things side by side ("which came first, A or B?",
"are A and B both …?", "was A born before B?", "what do A and B have in common?") is
answered by reading a value for each side with the reader, then comparing the two values:
as dates, as numbers, or for equality. What two sides have in common is a value both reads
hold.

The sides are found by what the passages are about: the subjects of retrieved documents
(their titles) that the question names, else the two phrases an "or" joins at the end of
the question. Which way a comparison goes is read from English's comparative words; besides
them this module reads only the auxiliary that opens a yes-or-no question and the "or" or
"and" that joins the two sides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ingest.dates import parse_date


class Order(StrEnum):
    EARLIER = "EARLIER"
    LATER = "LATER"
    MORE = "MORE"
    LESS = "LESS"


# English comparatives and superlatives by the way they order two values.
_ORDERS = {
    Order.EARLIER: "first earlier earliest older oldest before sooner",
    Order.LATER: "last later latest younger youngest after newer newest recent recently",
    Order.MORE: "more most larger largest bigger biggest higher highest longer longest taller"
    " tallest greater greatest",
    Order.LESS: "fewer fewest less least smaller smallest lower lowest shorter shortest",
}
_ORDER_OF = {word: order for order, words in _ORDERS.items() for word in words.split()}
# A question that opens with an auxiliary verb asks for a yes or a no.
_AUXILIARIES = frozenset(
    "is are was were do does did has have had can could will would should".split()
)
_TAIL_CHOICE = re.compile(r"[,:]\s*(?P<a>[^,:?]+?)\s+or\s+(?P<b>[^,:?]+?)\s*\??\s*$")
_WORD = re.compile(r"[\w'-]+")
_WH_WORD = re.compile(r"\b(?:who|whom|whose|which|what|when|where|how)\b", re.I)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Side:
    name: str  # as the question writes it
    start: int  # where in the question
    end: int


@dataclass(frozen=True)
class Comparison:
    sides: tuple[Side, Side]
    polar: bool  # answered yes or no
    order: Order | None  # None: the two values are compared for equality
    shared: bool = False  # asks for what both sides hold: a value both reads agree on

    def answered_by(self, text: str) -> bool:
        """Whether a span read with the whole question may answer it when the sides gave no
        verdict: a choice only by one of its sides ("which came first, A or B?" is not
        answered by a third name the passages offer), a yes-or-no question by no span, and
        what two sides have in common by any."""
        if self.shared:
            return True
        return not self.polar and any(same_value(text, side.name) for side in self.sides)

    def question_for(self, question: str, side: Side) -> str:
        """The question asked of one side: both sides' mentions replaced by this one, and the
        question word asking for the kind of value the order compares ("When is older, A?"):
        "who is older?" asks the reader for a person, and the value is a date."""
        first, second = self.sides
        asked = f"{question[: first.start]}{side.name}{question[second.end :]}"
        if self.order is None or self.polar:
            return asked
        word = "When" if self.order in (Order.EARLIER, Order.LATER) else "How many"
        return _WH_WORD.sub(word, asked, count=1)


def yes_or_no(question: str) -> bool:
    """Whether the question asks for a yes or a no: it opens with an auxiliary verb and offers
    no alternatives ("was it A or B?" asks which). No span of a passage answers it."""
    return _opens_with_auxiliary(question) and " or " not in f" {question.casefold()} "


def _opens_with_auxiliary(question: str) -> bool:
    words = _WORD.findall(question)
    return bool(words) and words[0].casefold() in _AUXILIARIES


def comparison_of(question: str, subjects: list[str]) -> Comparison | None:
    words = [w.casefold() for w in _WORD.findall(question)]
    polar = _opens_with_auxiliary(question)
    sides = _named_subjects(question, subjects) or _tail_choice(question)
    if sides is None:
        return None
    between = question[sides[0].end : sides[1].start].casefold()
    order = next((_ORDER_OF[w] for w in words if w in _ORDER_OF), None)
    if " or " in f" {between} ":  # "is A or B …?" asks which of the two, not whether
        return Comparison(sides, polar=False, order=order)
    if polar:
        return Comparison(sides, polar, order)
    if order is None and between.strip(" ,") == "and":
        return Comparison(sides, polar=False, order=None, shared=True)
    return None


def _named_subjects(question: str, subjects: list[str]) -> tuple[Side, Side] | None:
    """The first two documents' subjects the question names, longest names first where
    two overlap."""
    folded = question.casefold()
    found: list[Side] = []
    for name in sorted({s for s in subjects if len(s) > 1}, key=len, reverse=True):
        match = re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", folded)
        if match and not any(match.start() < s.end and s.start < match.end() for s in found):
            found.append(Side(question[match.start() : match.end()], *match.span()))
    found.sort(key=lambda s: s.start)
    return (found[0], found[1]) if len(found) >= 2 else None


def _tail_choice(question: str) -> tuple[Side, Side] | None:
    match = _TAIL_CHOICE.search(question)
    if match is None:
        return None
    a, b = match.span("a"), match.span("b")
    return Side(match.group("a"), *a), Side(match.group("b"), *b)


def value_of(text: str, order: Order) -> float | None:
    """A value to order by: a date as YYYYMMDD (missing parts 0), else a number."""
    if order in (Order.EARLIER, Order.LATER):
        found = parse_date(text)
        if found is None:
            return None
        parts = [int(p) for p in found.iso.split("-")] + [0, 0]
        return float(parts[0] * 10_000 + parts[1] * 100 + parts[2])
    return number_of(text)


def number_of(text: str) -> float | None:
    match = _NUMBER.search(text)
    if match is None:
        return None
    value = float(match.group().replace(",", ""))
    after = text[match.end() :].split()
    return value * _SCALES.get(after[0].casefold(), 1.0) if after else value


def first_wins(order: Order, values: tuple[float, float]) -> bool:
    a, b = values
    return a <= b if order in (Order.EARLIER, Order.LESS) else a >= b


def within(a: str, b: str) -> bool:
    """One read value holds the other whole: every word of the shorter is the longer's
    ("director" of "film director"; not "film director" of "film editor")."""
    x, y = sorted((_words(a), _words(b)), key=len)
    return bool(x) and x <= y


def same_value(a: str, b: str) -> bool:
    """Two read values agree when most of the shorter one's words are the other's."""
    x, y = _words(a), _words(b)
    if not x or not y:
        return False
    return len(x & y) / min(len(x), len(y)) >= 0.5


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """A value's words, folded: what-two-sides-share compares every span of one side's read
    with every span of the other's."""
    return frozenset(_WORD.findall(text.casefold()))
