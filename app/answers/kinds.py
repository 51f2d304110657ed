"""What kind of a thing a sentence names, for "What type of sprite did she play?", "… what
kind of activist?": the words a sentence puts before the noun asked about ("a water
sprite", "conceptual artist and political activist"), with the noun.

English word order only: up to three modifiers before the noun, back to a determiner, a
preposition, a conjunction, a comma or a verb-like word. A phrase the question holds is
no answer, and "the lamp" of "this type of lamp" names no kind.
"""

from __future__ import annotations

import re

MODIFIERS = 3  # words before the noun read as its kind
# Not the analyzer's stopwords: those hold "it", "more" and "same", and "IT products" is a
# kind of product.
_STOPS = frozenset(
    "a an the this that these those its his her their our my your of in on at by for from"
    " with to and or but as is was are were be been being has had have which who whom whose"
    " what also other another one some any each every no".split()
)
_WORD = re.compile(r"[\w'’-]+")
# A name set right after its kind: "musician George Harrison", "the series "Charmed"", "a
# fanzine named "SKUM"".
_BESIDE = re.compile(
    r"(?P<noun>[\w'’-]+)(?:,?\s+(?:named|called|titled|entitled|known\s+as))?\s+[\"“]?$"
)


def named_kinds(text: str, noun: str, asked: str) -> list[tuple[str, int, int]]:
    """Each "<modifiers> <noun>" phrase of the sentence whose modifiers the question does
    not hold, as (text, start, end): the kind of the noun the sentence names."""
    found = []
    words = list(_WORD.finditer(text))
    for index, word in enumerate(words):
        if _is_noun(word.group(), noun):
            start = _first_modifier(text, words, index, asked)
            if start is not None:
                found.append((text[start : word.end()], start, word.end()))
    return found


# A place set after its kind and "of": "the county of Hertfordshire", "the city of Bath".
# Only kinds English names so; "the capital of France" and "the director of Titanic" name
# something else.
_OF_PLACE = re.compile(r"\b(?P<noun>[\w'’-]+)\s+of\s+$")
_NAMED_WITH_OF = frozenset(
    "borough city county district island municipality neighborhood neighbourhood province"
    " region state suburb territory town village".split()
)


def set_beside(text: str, start: int, noun: str, place: bool = False) -> bool:
    """Whether the name at `start` stands right after the noun, as English names a thing
    by its kind: the sentence says of that name what the question asks for."""
    patterns = (_BESIDE, _OF_PLACE) if place and noun in _NAMED_WITH_OF else (_BESIDE,)
    found = (pattern.search(text, 0, start) for pattern in patterns)
    return any(match and _is_noun(match.group("noun"), noun) for match in found)


# A name set right before its kind, in lower case: "the Downtown section", "the U.S.
# military".
_BEFORE = re.compile(r"\s+(?P<noun>[a-z][\w'’-]*)\b")


def set_before(text: str, end: int, noun: str) -> bool:
    """Whether the name ending at `end` stands right before the noun, naming a thing of
    that kind: "in the Downtown section of the city" names a section."""
    match = _BEFORE.match(text, end)
    return match is not None and _is_noun(match.group("noun"), noun)


def _is_noun(word: str, noun: str) -> bool:
    folded = word.casefold()
    return folded in (noun, noun + "s", noun + "es")


def _first_modifier(text: str, words: list[re.Match[str]], index: int, asked: str) -> int | None:
    """Where the noun's modifiers start, if it has any and the question does not hold the
    phrase."""
    start = None
    for previous in range(index - 1, max(index - MODIFIERS, 0) - 1, -1):
        word, after = words[previous], words[previous + 1]
        if _ends_modifiers(word.group(), text[word.end() : after.start()], previous < index - 1):
            break
        start = word.start()
    if start is None or text[start : words[index].end()].casefold() in asked:
        return None
    return start


def _ends_modifiers(word: str, between: str, farther: bool) -> bool:
    """A small word, punctuation, or farther back a lower-case word ending in "s", most
    often a verb ("provides IT products"); next to the noun it may modify ("sports car")."""
    verb_like = farther and word.islower() and word.endswith("s") and not word.endswith("ss")
    return word.casefold() in _STOPS or not between.isspace() or verb_like
