"""What two named things have in common: "What occupation do A and B share?", "A and B are
both what?", "Both A and B are located in which city?".

A value of a named type (a city, a company, a person) is one both sides' passages hold. A
class of thing (an occupation, a genre, "what?") is read from what each side's opening
sentence defines it as ("… was an American journalist, essayist and critic"): the noun the
two definitions share, with the modifiers they share ("former tennis player").

English grammar only: a copula, then a list of noun phrases up to a preposition, a
participle or a relative clause. Capitalised words (nationalities, names) and numbers are
no part of a class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.answers.evidence import EDITION, Evidence, related_terms, values
from app.answers.question import CLASS_NOUNS, PARTICIPLES, AnswerType, Question
from ingest.analyzer import analyze

_DEFINITION = re.compile(
    r"\b(?:is|was|are|were)\s+(?:(?:widely\s+)?(?:regarded|considered|recogni[sz]ed)\s+as\s+)?"
    r"(?:(?:one\s+of\s+)?(?:a|an|the)\s+)?(?P<rest>.+)$",
    re.I | re.S,
)
# A noun before "of" that only introduces the class: "a genus of flowering plants".
_INTRODUCES = CLASS_NOUNS | {"form", "style", "member", "one", "brand", "collection"}
_ENDS = frozenset(
    "who whom whose which that from in on at by for with to best based born located"
    " founded written directed produced created as since during where when".split()
)
_ITEM = re.compile(r",|;|\band\b|\bor\b|\(|\)")
_WORD = re.compile(r"[\w'-]+|[^\w\s]")

# "What are both A and B?", "A and B are both what?"
_WHAT_BOTH_ARE = re.compile(r"\bwhat\s+(?:are|were)\s+both\b|\b(?:are|were)\s+both\s+what\b", re.I)

T = TypeVar("T")


@dataclass(frozen=True)
class Common:
    """What the two sides share, and the sentence of each that says so."""

    text: str
    evidence: tuple[Evidence, Evidence]


def common_class(a: str, b: str, several: bool = False) -> str | None:
    """The class two opening sentences both define their subjects as, in the first one's
    words: the first of its noun phrases whose noun the other has; or, `several` asked
    ("what occupations?", "what are both?"), every such phrase: "musician, singer and
    songwriter"."""
    theirs = definition_items(b)
    found = []
    for item in definition_items(a):
        match = next((other for other in theirs if _same_head(item, other)), None)
        if match is not None:
            terms = _terms(match)
            found.append(" ".join(w for w in item if related_terms(frozenset(analyze(w)), terms)))
    return _listed(found if several else found[:1])


def asks_several(question: Question) -> bool:
    """Whether a question of what two things share asks for every class they share: it
    names the kind in the plural ("what occupations"), or asks what both are."""
    head = question.head or ""
    plural = head.endswith("s") and not head.endswith("ss")
    return plural or _WHAT_BOTH_ARE.search(question.text) is not None


def _listed(items: list[str]) -> str | None:
    if len(items) <= 1:
        return items[0] if items else None
    return f"{', '.join(items[:-1])} and {items[-1]}"


def named_class(opening: str, other: str) -> str | None:
    """A class of two words or more that one opening defines its subject as and the other
    opening names as it stands, though in no definition of its own: "board game" of
    "Outrage! , "the official Tower of London board game", was first created in 1992"."""
    for item in definition_items(opening):
        phrase = " ".join(item)
        if len(item) >= 2 and re.search(rf"\b{re.escape(phrase)}\b", other, re.I):
            return phrase
    return None


def definition_items(opening: str) -> list[list[str]]:
    """The noun phrases an opening sentence says its subject is, each as its lower-case
    words: "was an American film editor and director of …" → [film editor], [director]."""
    found = _DEFINITION.search(opening)
    if found is None:
        return []
    items: list[list[str]] = []
    current: list[str] = []
    words = _words(found.group("rest"))
    for index, word in enumerate(words):
        if word == "of" and current and current[-1] in _INTRODUCES:
            current = []
        elif _ends(words, index, current):
            break
        elif _ITEM.fullmatch(word):
            items, current = _closed(items, current), []
        elif word.islower() and word not in ("a", "an", "the"):
            current.append(word)
    return _closed(items, current)


def defines_as_kind(opening: str, head: str) -> bool:
    """Whether an opening sentence's own noun phrases call its subject a `head`: "a fight
    song of …" is a song; "a song by the band …" is no band, nor "a king of the … Empire"
    an empire. Stricter than `subjects.defines_as`, which reads ten words whatever they
    belong to: that one serves a page a chain of evidence already reached, this one a page
    taken on its opening alone."""
    wanted = frozenset(analyze(head))
    return any(related_terms(_terms(item[-1:]), wanted) for item in definition_items(opening))


def common_value(
    sides: tuple[list[Evidence], list[Evidence]], question: Question, wanted: AnswerType
) -> Common | None:
    """A value of the wanted type both sides' sentences hold, the pair nearest the top of
    the two lists; the shorter form when one holds the other ("Istanbul" of "Istanbul,
    Turkey")."""
    found = [[(e, v) for e in side for v in values(e, question, wanted)] for side in sides]
    pair = _first_pair(found[0], found[1], lambda x, y: same_name(*_series(x[1].text, y[1].text)))
    if pair is None:
        return None
    (a, x), (b, y) = pair
    return Common(min(_series(x.text, y.text), key=len), (a, b))


def _series(x: str, y: str) -> tuple[str, str]:
    """Two names without their editions' years when those differ: "the 2011 French Open"
    and "1974 French Open" are finals of one tournament, the "French Open"."""
    if _edition(x) == _edition(y):
        return x, y
    return EDITION.sub("", x), EDITION.sub("", y)


def _edition(name: str) -> str | None:
    found = EDITION.match(name)
    return found.group("year") if found else None


def _first_pair(
    a: Sequence[T], b: Sequence[T], alike: Callable[[T, T], bool]
) -> tuple[T, T] | None:
    pairs = ((i + j, i, j) for i in range(len(a)) for j in range(len(b)) if alike(a[i], b[j]))
    best = min(pairs, default=None)
    return None if best is None else (a[best[1]], b[best[2]])


def same_name(x: str, y: str) -> bool:
    """Whether two names name one thing: the words of one hold the other's ("Istanbul" and
    "Istanbul, Turkey"); "Brad Pitt" and "Brad Silberling" do not."""
    a, b = (set(_words(t.casefold())) - {",", "the"} for t in (x, y))
    return bool(a) and bool(b) and (a <= b or b <= a)


def _same_head(a: list[str], b: list[str]) -> bool:
    """Whether one phrase's noun is a word of the other: "director" and "film director",
    "documentary" and "documentary film"; not "film director" and "film editor"."""
    heads = related_terms(_terms(a[-1:]), _terms(b)) or related_terms(_terms(b[-1:]), _terms(a))
    return bool(heads)


def _terms(words: list[str]) -> frozenset[str]:
    return frozenset(t for w in words for t in analyze(w))


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _closed(items: list[list[str]], current: list[str]) -> list[list[str]]:
    return [*items, current] if current else items


def _ends(words: list[str], index: int, current: list[str]) -> bool:
    word = words[index]
    stop = word.casefold() in _ENDS or word in ("of", ".", ":")
    return stop or _after_noun(words, index, current)


def _after_noun(words: list[str], index: int, current: list[str]) -> bool:
    """A participle after the noun ends the phrase: "a magazine published by …", "a
    documentary starring Maija …", "a film loosely based on …", "an actor best-known
    for …", "aircraft carriers built for …" (the participles a question's phrase ends at
    too); not "a mixed martial artist"."""
    word, following = words[index], words[index + 1] if index + 1 < len(words) else ""
    if not current or not word.islower():
        return False
    if word.endswith("ly") and following.endswith("ed"):
        return True
    ends = following[:1].isupper() or following.casefold() in _ENDS | {"a", "an", "the"}
    return (word.endswith(("ed", "ing", "known")) or word in PARTICIPLES) and ends
