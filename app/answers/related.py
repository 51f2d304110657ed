"""The people a question reaches through: "Which film has the director who was born first,
A or B?" compares the people A's and B's passages name as director ("… directed by Maren
Olsvik"); "Where was the father of the director of film X born?" follows X's passage to
its director's, and that one to the father's, where the answer is read.

A name with a passage of its own among the retrieved ones is the surest link: it can be
followed, and it does not depend on the entity model reading it as a person. Kinship is
read from the words that state it ("son of", "married") and, between a father and a
mother, from the pronouns of each one's own passage.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.answers.evidence import Evidence, Value, name_pattern, nearness, related_terms, values
from app.answers.question import AnswerType, Question
from ingest.analyzer import analyze
from ingest.titles import without_qualifier

# The words that state a role in the passage of the thing or person it relates to: a kinship
# ("son of"), or what the role does ("a song recorded by", "music composed by").
_CUES = {
    "performer": "performer performed sung singer recorded song single",
    "composer": "composer composed music score",
    "founder": "founder founded established",
    "author": "author written wrote novel book",
    "writer": "writer written wrote",
    "father": "father son daughter child",
    "mother": "mother son daughter child",
    "husband": "husband married wife spouse",
    "wife": "wife married husband spouse",
    "spouse": "spouse married wife husband",
    "child": "child children son daughter father mother",
    "son": "son child children father mother",
    "daughter": "daughter child children father mother",
    "brother": "brother sibling",
    "sister": "sister sibling",
}
_PRONOUNS = {
    "he": re.compile(r"\b(?:he|his|him)\b", re.I),
    "she": re.compile(r"\b(?:she|her)\b", re.I),
}
_GENDER = {"father": "he", "husband": "he", "son": "he", "brother": "he"} | {
    "mother": "she",
    "wife": "she",
    "daughter": "she",
    "sister": "she",
}
# Words that name a man or a woman just before their name.
_TITLES = dict.fromkeys(
    "king prince duke archduke emperor lord sir count earl baron mr husband".split(), "he"
) | dict.fromkeys(
    "queen princess duchess archduchess empress lady dame countess baroness mrs ms wife".split(),
    "she",
)
# Kinship stated just before a name or a list of names: "the niece of X and Y". A role's
# person is named after the words for the other end of it ("the son of X" names a father);
# after any other kin word ("the father of X", "the niece of X") the name is someone else.
# Not "his wife X": "his" may be another's than the page's subject.
_KIN_OF = re.compile(r"\b(?P<kin>[a-z-]+)\s+of\s+(?:[A-Z][\w.'’-]*(?:\s+|,\s+|\s+and\s+))*$")
_KIN_WORDS = frozenset(
    "father mother parent parents son sons daughter daughters child children husband wife"
    " spouse widow widower consort brother brothers sister sisters sibling siblings"
    " grandfather grandmother grandparent grandson granddaughter grandchild niece nephew"
    " cousin uncle aunt stepfather stepmother stepson stepdaughter father-in-law"
    " mother-in-law son-in-law daughter-in-law brother-in-law sister-in-law".split()
)
_PARENT_OF = frozenset({"son", "daughter", "child"})
_CHILD_OF = frozenset({"father", "mother", "parent"})
_SPOUSE_OF = frozenset("wife husband spouse widow widower consort".split())
_SIBLING_OF = frozenset({"brother", "sister", "sibling"})
_NAMED_AFTER = {  # a role: the kin words before "of" that name a person in that role
    "father": _PARENT_OF,
    "mother": _PARENT_OF,
    "child": _CHILD_OF,
    "son": _CHILD_OF,
    "daughter": _CHILD_OF,
    "husband": _SPOUSE_OF,
    "wife": _SPOUSE_OF,
    "spouse": _SPOUSE_OF,
    "brother": _SIBLING_OF,
    "sister": _SIBLING_OF,
}
_WORD_BEFORE = re.compile(r"(\w+)[,.]?\s+$")
_WHO_IS = re.compile(r"^\s*who\s+(?:is|was|are|were)\b", re.I)
_APOSTROPHES = re.compile(r"[’`]")
MIN_NAME = 4  # letters of the shortest document name looked for in a question


@dataclass(frozen=True)
class Pages:
    """The retrieved passages' sentences by their document's name (case folded, without
    its qualifier), each in score order."""

    sentences: dict[str, list[Evidence]]

    @classmethod
    def of(cls, ranked: list[Evidence]) -> Pages:
        sentences: dict[str, list[Evidence]] = {}
        for evidence in ranked:
            sentences.setdefault(_name(evidence), []).append(evidence)
        sentences.pop("", None)
        return cls(sentences)

    def own(self, name: str) -> list[Evidence]:
        return self.sentences.get(name.casefold(), [])

    def pronoun(self, name: str) -> str | None:
        """The pronoun a name's own passage mostly uses, "he" or "she"; None on a tie."""
        own = self.own(name)
        he, she = (sum(len(r.findall(e.text)) for e in own) for r in _PRONOUNS.values())
        return None if he == she else ("he" if he > she else "she")

    def named_in(self, text: str) -> str | None:
        """The longest document name the text holds."""
        folded = text.casefold()
        found = [n for n in self.sentences if len(n) >= MIN_NAME and n in folded]
        return max(found, key=len, default=None)


@dataclass(frozen=True)
class Link:
    evidence: Evidence  # the sentence that names the person in the role
    person: Value


def related_person(
    about: list[Evidence], role: str, question: Question, pages: Pages
) -> Link | None:
    """The first sentence about the side that names someone next to a word of the role
    ("directed by", "son of"), and that someone: one whose passage was retrieved before
    any other person the entity model found; the name nearest the word, of two as near
    the one after it ("written by A and directed by B")."""
    cues = frozenset(analyze(_CUES.get(role, role)))
    asked, own = question.text.casefold(), _name(about[0]) if about else ""

    def skip(name: str) -> bool:
        return name in asked or name == own

    candidates: list[Callable[[Evidence], list[Value]]] = [
        lambda e: [v for v in _paged(e, pages, skip) if _fits(v, role, pages, e)],
        lambda e: [
            v
            for v in values(e, question, AnswerType.PERSON)
            if not skip(v.text.casefold()) and _fits(v, role, pages, e)
        ],
    ]
    for named in candidates:
        for evidence in about:
            near = [v for v in named(evidence) if nearness(evidence, v, cues) > 0]
            if near:
                return Link(evidence, max(near, key=lambda v: _closeness(evidence, v, cues)))
    return None


def through_roles(question: Question, pages: Pages) -> list[Link] | None:
    """The chain of people from the thing the question names, one per role, or None when
    a link is missing."""
    name = pages.named_in(question.text)
    links: list[Link] = []
    for role in question.roles:
        if name is None:
            return None
        link = related_person(pages.own(name), role, question, pages)
        if link is None:
            return None
        links.append(link)
        name = link.person.text if pages.own(link.person.text) else None
    return links


def asked_of(person: str, question: Question, pages: Pages) -> tuple[Evidence, Value] | None:
    """The value asked for in a person's own passage: first from a sentence where it
    stands near the question's words of what is asked ("died" for "the place of death"),
    not its names or roles, which the passage of a chain's last person rarely holds; then
    from the best sentence that holds one."""
    relation = frozenset(question.terms) - frozenset(
        analyze(f"{pages.named_in(question.text) or ''} {' '.join(question.roles)}")
    )
    found = [(e, _not_the_person(e, person, question)) for e in pages.own(person)]
    near = ((e, v) for e, vs in found for v in vs if _tells(e, v, relation))
    return next(near, None) or next(((e, vs[0]) for e, vs in found if vs), None)


def _not_the_person(evidence: Evidence, person: str, question: Question) -> list[Value]:
    """The sentence's values of the type asked but the person's own name, which the entity
    model may label a place ("Oswiu's forces killed Penda"): asked where Oswiu is buried,
    his name is no answer. A place within a name stays: "Arborea" of "Eleanor of Arborea"."""
    found = values(evidence, question, question.answer_type)
    if question.answer_type is AnswerType.PERSON:
        return found
    own = set(analyze(person))
    return [v for v in found if not own <= set(analyze(v.text))]


def _tells(evidence: Evidence, value: Value, relation: frozenset[str]) -> bool:
    """A value near the words of what is asked, or one holding them itself ("The 7 Habits
    of Highly Effective People" for "what title like The 7 Habits …")."""
    held = related_terms(frozenset(analyze(value.text)), relation)
    return bool(held) or nearness(evidence, value, relation) > 0


def asks_for_the_person(question: Question) -> bool:
    """ "Who is the father of …?" asks for the last person of the chain itself."""
    return question.answer_type is AnswerType.PERSON and bool(_WHO_IS.match(question.text))


def _paged(evidence: Evidence, pages: Pages, skip: Callable[[str], bool]) -> list[Value]:
    """The names of retrieved documents the sentence holds, where it holds them, and
    where it names them again by their last word ("written by Frank O'Connor … The film
    was directed by O'Connor"), as the person of the page."""
    text = _APOSTROPHES.sub("'", evidence.text.casefold())
    found = ((text.find(n), n) for n in pages.sentences if len(n) >= MIN_NAME)
    kept = [(i, n) for i, n in found if i >= 0 and not skip(n)]
    return [v for i, n in kept for v in _mentions(evidence.text, text, i, n)]


def _mentions(original: str, text: str, at: int, name: str) -> list[Value]:
    """The name where the text holds it, then each later mention of its last word: the
    page's full name, at the place of that word."""
    whole = Value(original[at : at + len(name)], at, at + len(name))
    last = name.split()[-1]
    if last == name or len(last) < MIN_NAME:
        return [whole]
    later = name_pattern(last).finditer(text, at + len(name))
    return [whole, *(Value(whole.text, m.start(), m.end()) for m in later)]


def _fits(person: Value, role: str, pages: Pages, evidence: Evidence) -> bool:
    """Not a man for a mother, nor a woman for a father: by their own passage's pronouns,
    or, without a passage, by the word the sentence names them after ("King Stanisław",
    "his wife, Milena"). Nor one named as another kin than the role: "the father of King
    X" names the page's child."""
    if _another_kin(evidence.text, person.start, role):
        return False
    wanted = _GENDER.get(role)
    found = pages.pronoun(person.text) or _titled(evidence.text, person.start)
    return wanted is None or found is None or found == wanted


def _another_kin(text: str, start: int, role: str) -> bool:
    """Whether the words just before the name state a kinship other than the role."""
    found = _KIN_OF.search(text, 0, start)
    if found is None or role not in _NAMED_AFTER:
        return False
    kin = found.group("kin")
    return kin in _KIN_WORDS and kin not in _NAMED_AFTER[role]


def _titled(text: str, start: int) -> str | None:
    """ "he" or "she" by the word just before a name; not a word before "of", which is
    about someone else ("the daughter of King X")."""
    before = _WORD_BEFORE.search(text, 0, start)
    return _TITLES.get(before.group(1).casefold()) if before else None


def _closeness(evidence: Evidence, person: Value, cues: frozenset[str]) -> tuple[float, bool]:
    before = frozenset(analyze(evidence.text[: person.start]))
    return nearness(evidence, person, cues), bool(related_terms(before, cues))


def _name(evidence: Evidence) -> str:
    return without_qualifier(evidence.source.hit.document.title).casefold()
