"""Whether a named thing has the property a question names: "Are A and B both opera
composers?" (yes when each side's passage says so), "Who was also an actor, A or B?" (the
side whose passage says so).

The property is the question's content terms that are not the sides' own. A side has it to
the share of those terms one sentence about the side holds, word families counting
("composer of operas" holds "opera composers"). A people is exclusive: asked "both American
documentaries?", a side whose sentence calls it Australian and names no American lacks the
property, though it holds "documentary".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.answers.countries import countries_in, provinces_in
from app.answers.evidence import Evidence, count_of, name_pattern, related_terms
from app.answers.occupations import broader_held
from app.answers.question import CAPITALISED_RUN, AnswerType, Question
from app.answers.verdicts import same_kind
from ingest.analyzer import analyze
from ingest.resolution import without_possessive

HOLDS_SHARE = 0.5  # of the property's terms a sentence must hold for the side to have it
_ATTRIBUTIVE = re.compile(r" (?!language\b)[a-z]")  # a noun follows, in lower case
# Each word with the next, a space between: "women's magazines".
_PAIRS = re.compile(r"(?=(?<![\w'’-])([a-zA-Z]+(?:['’]s)?) ([\w'’-]+))")
_NAMED_THING = re.compile(r"\b(?:the|a|an)\s+[a-z]+\s+$")  # "the band " before a name


@dataclass(frozen=True)
class Holding:
    evidence: Evidence
    share: float  # of the property's terms the sentence holds
    settled: bool = False  # it names another people than the one asked: the side lacks it
    across: float = 0.0  # of the property's terms the side's sentences hold between them
    headless: bool = False  # none of the side's sentences holds the property's head noun

    @property
    def holds(self) -> bool:
        return self.share >= HOLDS_SHARE and not self.headless

    @property
    def strength(self) -> tuple[float, float]:
        """How well the side has the property: its best sentence's share, then what its
        other sentences add ("an American film director" in one, "advisor for Disney" in
        the next)."""
        return self.share, self.across


@dataclass(frozen=True)
class Origin:
    """A people or a place a sentence names: "American" (a people), "England"."""

    text: str
    people: bool


@dataclass(frozen=True)
class Property:
    terms: frozenset[str]  # the question's content terms, the sides' own left out
    origins: frozenset[str]  # the peoples and places it names, as the passages name them
    # Those a people's name settles against: the peoples, and the places the pool names a
    # people of ("England", by "English"); not a city ("Istanbul"), which no people names.
    exclusive: frozenset[str]
    # Those a narrower occupation holds ("a guitarist" is a musician); not the kind a
    # question picks among ("Which filmmaker was known for animation?"), which both are.
    broad: frozenset[str]
    # The property's last term, the noun its other terms modify ("ferns" of "species of
    # ferns", "magazines" of "sports magazines"): without it a side has none of it. Not a
    # year ("formed before 2010"), nor where a people or a place is the property ("of
    # Armenian descent").
    head: str | None = None
    # The terms of the words the question sets right before that noun: "sports" of "sports
    # magazines"; a side called another kind of it ("a nature magazine") has none of it.
    kinds: frozenset[str] = frozenset()


def property_of(question: Question, sides: tuple[str, str], pool: list[Evidence]) -> Property:
    """The property asked of the sides. A name in it is a people's or a place's when some
    sentence of the pool names it so, not by a list of nationalities; a people's name
    counts where it describes."""
    every = sorted({*sides, *_sides_as_written(question, sides)}, key=len, reverse=True)
    named = {t for side in every for t in analyze(side)} | _described(question.text, sides[1])
    ordered = [t for t in question.terms if t not in named]
    terms = frozenset(ordered)
    asked = question.text
    for side in every:
        asked = re.sub(re.escape(side), " ", asked, flags=re.I)
    known = {origin for e in pool for origin in _origins(e)}
    peoples = [o.text for o in known if o.people]
    origins = [o for o in known if _asks(asked, o)] + _places_of_peoples(asked, known, peoples)
    exclusive = [o.text for o in origins if o.people or _one_of(o.text, peoples)]
    broad = terms - frozenset(analyze(question.head or ""))
    head = ordered[-1] if len(ordered) >= 2 and ordered[-1].isalpha() and not origins else None
    theirs = {t for o in origins for t in analyze(o.text)}
    kinds = (_modifiers(asked, head, lower=False) & terms) - theirs if head else frozenset()
    found = frozenset(o.text for o in origins)
    return Property(terms, found, frozenset(exclusive), broad, head, kinds)


def _sides_as_written(question: Question, sides: tuple[str, str]) -> tuple[str, ...]:
    """The sides with the words the question set about each, which are that side's alone:
    "Ruggero Deodato from Italy, and Mexican Alejandro Springall" asks nothing Mexican of
    the first. Not the words after the second, which the question asks of both ("Are A and
    B American?")."""
    if question.comparison is None:
        return ()
    first, second = question.comparison.sides
    at = second.casefold().find(sides[1].casefold())
    return (first, second[: at + len(sides[1])]) if at >= 0 else (first,)


def _described(text: str, side: str) -> set[str]:
    """The terms of what the question says the last side is, set after it: "…, A or B, the
    1970 Rolling Stones documentary?" describes B; it is no property asked of both."""
    found = re.search(rf"{re.escape(side)}\s*,\s*(?:the|a|an)\s+(?P<what>[^,?]+)\?\s*$", text, re.I)
    return set(analyze(found.group("what"))) if found else set()


def _places_of_peoples(asked: str, known: set[Origin], peoples: list[str]) -> list[Origin]:
    """The places the question names that no sentence names but a people of the pool is
    of: "from England" when the passages say "an English band" and never "England"."""
    texts = {o.text for o in known}
    found = [m.group() for m in CAPITALISED_RUN.finditer(asked)]
    fresh = [n for n in found if not any(t in n for t in texts)]
    return [Origin(n, people=False) for n in fresh if _one_of(n, peoples)]


def _one_of(origin: str, names: list[str]) -> bool:
    """Whether one of the names is the origin in any form, as a nationality compares."""
    return any(same_kind(origin, name, AnswerType.NATIONALITY) for name in names)


def _asks(text: str, origin: Origin) -> bool:
    """Whether the question names the origin as one: not a name set after its kind ("the
    band Soulfly"), whatever the entity model took it for."""
    found = name_pattern(origin.text).search(text)
    if found is None or _NAMED_THING.search(text, 0, found.start()):
        return False
    return not origin.people or _describes(text, found.end())


def _describes(text: str, end: int) -> bool:
    """Whether the word ending at `end` describes: before a noun ("American documentaries")
    or last ("both Norwegian?"), not a name ("the band Soulfly, …")."""
    return _ATTRIBUTIVE.match(text, end) is not None or not text[end:].strip(" ?")


def holding(about_side: list[Evidence], wanted: Property) -> Holding | None:
    """The sentence about a side that holds most of the property, best scored first; none
    of it when that sentence names peoples and none of those asked."""
    if not about_side or not wanted.terms:
        return None
    held = [_held(e, wanted) for e in about_side]
    index = max(range(len(about_side)), key=lambda i: (len(held[i]), about_side[i].score))
    best = about_side[index]
    if _another_people(best, wanted.exclusive) or _another_kind(best, wanted, held[index]):
        return Holding(best, 0.0, settled=True)
    share, together = len(held[index]), frozenset().union(*held)
    headless = wanted.head is not None and wanted.head not in together
    return Holding(
        best, share / len(wanted.terms), across=len(together) / len(wanted.terms), headless=headless
    )


def _another_kind(evidence: Evidence, wanted: Property, held: frozenset[str]) -> bool:
    """Whether the sentence calls the side another kind of the property's noun and not the
    kind the question sets right before it: "a children's nature magazine" is no sports
    magazine, "a genus of flowering plants" no ice plants."""
    head, kinds = wanted.head, wanted.kinds
    if head is None or not kinds or head not in held or kinds & held:
        return False
    return bool(_modifiers(evidence.text, head) - kinds)


def _modifiers(text: str, head: str, lower: bool = True) -> frozenset[str]:
    """The terms of the content words set right before the noun in the text ("women's",
    not a number: "twenty novels"), in lower case only unless `lower` is false ("ESA
    astronauts")."""
    found: set[str] = set()
    for before, noun in _PAIRS.findall(text):
        kind = before.islower() or not lower
        if kind and head in analyze(noun) and count_of(before) is None:
            found.update(analyze(without_possessive(before)))
    return frozenset(found)


def _held(evidence: Evidence, wanted: Property) -> frozenset[str]:
    """The property's terms the sentence holds, word families counting, and those of the
    peoples and places asked that it names in any form ("English" holds "England", as a
    nationality compares)."""
    named = [o.text for o in _origins(evidence)]
    found = [a for a in wanted.origins if _names_origin(a, named)]
    origins = {t for a in found for t in analyze(a)} & wanted.terms
    broader = broader_held(evidence.terms, wanted.broad)
    return related_terms(evidence.terms, wanted.terms) | broader | origins


def _names_origin(asked: str, named: list[str]) -> bool:
    """Whether the names hold the origin asked in any form, a country also by one of its
    provinces ("Qingdao, Shandong" is in China); a province asked ("based in
    Massachusetts?") only by itself, not by its country."""
    provinces = provinces_in(asked)
    if provinces:
        return any(provinces.keys() & provinces_in(name).keys() for name in named)
    if _one_of(asked, named):
        return True
    within = {c for name in named for found in provinces_in(name).values() for c in found}
    return bool(countries_in(asked) & within)


def _another_people(evidence: Evidence, asked: frozenset[str]) -> bool:
    """Whether the sentence names a people and none of the peoples or countries asked."""
    peoples = [o.text for o in _origins(evidence) if o.people]
    if not asked or not peoples:
        return False
    return not any(_one_of(a, peoples) for a in asked)


def _origins(evidence: Evidence) -> list[Origin]:
    """The peoples a sentence names (spaCy's NORP), the languages it uses as an adjective,
    which are peoples too ("an English director", where spaCy reads a LANGUAGE; not
    "filmed in English" nor "an English-language film"), and its places (GPE)."""
    text = evidence.text
    found = []
    for n in evidence.named:
        people = n.label == "NORP" or (n.label == "LANGUAGE" and _ATTRIBUTIVE.match(text, n.end))
        if people or n.label == "GPE":
            found.append(Origin(n.text, bool(people)))
    return found
