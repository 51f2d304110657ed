"""The description in a question that a named thing answers: "the architect of T" in
"In which town did the architect of T retire?". A bridge found for it (the architect's name)
stands in its place, and the question becomes one a single passage answers: "In which town
did Ada Ray retire?".

Read from the question's dependency parse, never its words:
- a common noun before the name, with a prepositional phrase or a relative clause that runs
  up to the name ("the architect of T", "the engineer who rebuilt the tower of T");
- or the noun the name is the possessor of ("T's sister").

The nearest such noun to the name is the description: "the teacher of the architect of T"
is the teacher of what "the architect of T" names. There is none where the question asks for
the noun itself ("Who was the architect of T?"), or where the span would hold the question's
own wh-word ("Which bridge designed by T …?").
"""

from __future__ import annotations

from spacy.tokens import Doc, Token

WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
_MODIFIERS = frozenset({"prep", "relcl", "acl"})
_ASKED = frozenset({"attr", "nsubj", "nsubjpass"})  # a copula's two sides


def description(doc: Doc, start: int, end: int) -> tuple[int, int] | None:
    """The characters of the description that the name at `start`..`end` anchors, name
    included; None when the question has none."""
    named = [t for t in doc if start <= t.idx < end]
    if not named:
        return None
    first, last = named[0].i, named[-1].i
    owned = _possessed(doc, last)
    if owned is not None:
        return _characters(doc, first, owned.i)
    head = _nearest_head(doc, first)
    return None if head is None else _characters(doc, head.left_edge.i, last)


def _possessed(doc: Doc, last: int) -> Token | None:
    """The noun right after the name's possessive ending: "sister" of "T's sister"."""
    if last + 2 >= len(doc) or doc[last + 1].dep_ != "case":
        return None
    noun = doc[last + 2]
    return noun if noun.pos_ == "NOUN" and not _asked_for(noun) else None


def _nearest_head(doc: Doc, first: int) -> Token | None:
    found = None
    for token in doc[:first]:
        if token.pos_ == "NOUN" and _reaches(token, first) and _may_stand_in(doc, token, first):
            found = token
    return found


def _reaches(noun: Token, first: int) -> bool:
    """Whether a phrase or clause of the noun runs up to the name (the parse may hang the
    name itself elsewhere, as an apposition)."""
    return any(
        c.dep_ in _MODIFIERS and noun.i < c.i < first and c.right_edge.i >= first - 1
        for c in noun.children
    )


def _may_stand_in(doc: Doc, noun: Token, first: int) -> bool:
    """Not what the question asks for, and holding none of its wh-words ("who" of "the
    engineer who rebuilt" opens a relative clause and asks nothing)."""
    asks = any(_asks(t) for t in doc[noun.left_edge.i : first])
    return not asks and not _asked_for(noun)


def _asks(token: Token) -> bool:
    return token.tag_ in WH_TAGS and token.head.dep_ != "relcl"


def _asked_for(noun: Token) -> bool:
    """The noun is what the question asks for: one side of a copula whose other side is the
    wh-word ("Who was the architect …?", "Who is T's sister?")."""
    if noun.dep_ not in _ASKED or noun.head.pos_ != "AUX":
        return False
    return any(_asks(t) and t.dep_ in _ASKED for t in noun.head.children if t is not noun)


def _characters(doc: Doc, first: int, last: int) -> tuple[int, int]:
    return doc[first].idx, doc[last].idx + len(doc[last])
