"""Typed facts from a dependency parse: subject, predicate (verb lemma + preposition), object.

Patterns: "X acquired Y", "X was born in Y", "Y was acquired by X", "X married Y",
"X is the CEO of Y" (copula), "X, the CEO of Y, ..." (apposition).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from spacy.tokens import Span, Token

_SUBJECTS = ("nsubj", "nsubjpass")


@dataclass(frozen=True)
class Triple:
    subject: int  # index into the sentence's entity mentions
    predicate: str
    object: int


def sentence_triples(sentence: Span, entity_of: dict[int, int]) -> list[Triple]:
    """Triples between entity mentions; `entity_of` maps token index -> mention index."""
    found: dict[tuple[int, str, int], None] = {}
    for token in sentence:
        for triple in (*_verb_triples(token, entity_of), *_apposition_triples(token, entity_of)):
            if triple.subject != triple.object:
                found[(triple.subject, triple.predicate, triple.object)] = None
    return [Triple(*key) for key in found]


def _verb_triples(verb: Token, entity_of: dict[int, int]) -> Iterator[Triple]:
    if verb.pos_ not in ("VERB", "AUX"):
        return
    subjects = [c for c in verb.children if c.dep_ in _SUBJECTS and c.i in entity_of]
    if not subjects:
        return
    passive = any(c.dep_ == "nsubjpass" for c in subjects)
    verb_word = verb.lower_ if passive else verb.lemma_.lower()
    for subject in subjects:
        yield from _objects(verb, verb_word, entity_of[subject.i], passive, entity_of)


def _objects(
    verb: Token, verb_word: str, subject: int, passive: bool, entity_of: dict[int, int]
) -> Iterator[Triple]:
    for child in verb.children:
        if child.dep_ in ("dobj", "attr") and child.i in entity_of:
            yield Triple(subject, verb.lemma_.lower(), entity_of[child.i])
        elif child.dep_ == "attr":
            yield from _noun_prep_triples(child, subject, entity_of)
        elif child.dep_ == "agent" and passive:
            for agent in _prep_objects(child, entity_of):
                yield Triple(agent, verb.lemma_.lower(), subject)
        elif child.dep_ == "prep":
            for target in _prep_objects(child, entity_of):
                yield Triple(
                    subject, f"{verb_word}{_object_noun(verb, entity_of)} {child.lower_}", target
                )


def _object_noun(verb: Token, entity_of: dict[int, int]) -> str:
    """ "moved its headquarters to Y" keeps the noun: " headquarters" ("move headquarters to")."""
    for child in verb.children:
        if child.dep_ == "dobj" and child.i not in entity_of and child.pos_ == "NOUN":
            return f" {child.lemma_.lower()}"
    return ""


def _apposition_triples(token: Token, entity_of: dict[int, int]) -> Iterator[Triple]:
    if token.i not in entity_of:
        return
    for child in token.children:
        if child.dep_ == "appos" and child.i not in entity_of:
            yield from _noun_prep_triples(child, entity_of[token.i], entity_of)


def _noun_prep_triples(noun: Token, subject: int, entity_of: dict[int, int]) -> Iterator[Triple]:
    """ "the CEO of Y" -> (subject, "ceo of", Y)."""
    for child in noun.children:
        if child.dep_ == "prep":
            for target in _prep_objects(child, entity_of):
                yield Triple(subject, f"{noun.lemma_.lower()} {child.lower_}", target)


def _prep_objects(preposition: Token, entity_of: dict[int, int]) -> Iterator[int]:
    for child in preposition.children:
        if child.dep_ == "pobj" and child.i in entity_of:
            yield entity_of[child.i]
