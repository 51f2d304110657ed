"""What a question asks for, read from its wording: the type of the answer (a person, a
date, a place, a number), and for a comparison its two sides and which value wins.

The cues are the question words of each language (English, Hebrew, Japanese), never the
templates of a dataset. A question without a cue asks for a passage, not a short answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from ingest.analyzer import analyze


class AnswerType(StrEnum):
    PERSON = "PERSON"
    DATE = "DATE"
    PLACE = "PLACE"
    NUMBER = "NUMBER"
    ORGANISATION = "ORGANISATION"
    NATIONALITY = "NATIONALITY"
    YES_NO = "YES_NO"
    ANY = "ANY"


class Prefer(StrEnum):
    EARLIER = "EARLIER"
    LATER = "LATER"
    MORE = "MORE"
    LESS = "LESS"
    SAME = "SAME"  # a yes or no: do the two sides share the value?


# spaCy labels that can answer each type.
LABELS: dict[AnswerType, frozenset[str]] = {
    AnswerType.PERSON: frozenset({"PERSON"}),
    AnswerType.DATE: frozenset({"DATE"}),
    AnswerType.PLACE: frozenset({"GPE", "LOC", "FAC"}),
    AnswerType.ORGANISATION: frozenset({"ORG"}),
    AnswerType.NATIONALITY: frozenset({"NORP", "GPE"}),
}

_CUES: tuple[tuple[re.Pattern[str], AnswerType], ...] = (
    (
        re.compile(r"\b(how (many|much|long|old|far)|what (number|percentage|amount))\b", re.I),
        AnswerType.NUMBER,
    ),
    (
        re.compile(r"\b(when|(what|which) (year|date|day|month)|(date|year) of)\b", re.I),
        AnswerType.DATE,
    ),
    (re.compile(r"\b(who|whom|whose)\b", re.I), AnswerType.PERSON),
    (
        re.compile(r"\b(where|(what|which) (country|city|place|town)|place of)\b", re.I),
        AnswerType.PLACE,
    ),
    (
        re.compile(r"\b(which|what) (company|organi[sz]ation|team|firm)\b", re.I),
        AnswerType.ORGANISATION,
    ),
    (re.compile(r"\bnationality\b|\bwhich country\b.*\bfrom\b", re.I), AnswerType.NATIONALITY),
    (
        re.compile(r"^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will)\b", re.I),
        AnswerType.YES_NO,
    ),
    (re.compile(r"כמה"), AnswerType.NUMBER),
    (re.compile(r"מתי|באיזו שנה|באיזה תאריך"), AnswerType.DATE),
    (re.compile(r"(^|\s)(מי|מיהו|מיהי)(\s|$|\?)"), AnswerType.PERSON),
    (re.compile(r"איפה|היכן|לאן"), AnswerType.PLACE),
    (re.compile(r"何[日人件回年歳個本%]|いくつ|どのくらい|何パーセント"), AnswerType.NUMBER),
    (re.compile(r"いつ|何年|何月"), AnswerType.DATE),
    (re.compile(r"誰|だれ|どなた"), AnswerType.PERSON),
    (re.compile(r"どこ"), AnswerType.PLACE),
)
_PREFER: tuple[tuple[re.Pattern[str], Prefer], ...] = (
    (re.compile(r"\b(first|earlier|earliest|before|older|oldest|sooner)\b", re.I), Prefer.EARLIER),
    (
        re.compile(r"\b(last|later|latest|after|younger|youngest|newer|more recent(ly)?)\b", re.I),
        Prefer.LATER,
    ),
    (
        re.compile(
            r"\b(more|most|larger|largest|bigger|biggest|higher|highest|longer|longest)\b", re.I
        ),
        Prefer.MORE,
    ),
    (
        re.compile(r"\b(fewer|less|least|smaller|smallest|lower|lowest|shorter|shortest)\b", re.I),
        Prefer.LESS,
    ),
    (re.compile(r"קודם|ראשון|מוקדם"), Prefer.EARLIER),
    (re.compile(r"מאוחר|אחרון"), Prefer.LATER),
    (re.compile(r"先に|早い|最初"), Prefer.EARLIER),
    (re.compile(r"後に|遅い|最後"), Prefer.LATER),
)
_SIDES = (
    re.compile(
        r"(?:,|:|\bbetween|\bout of)\s*(?P<a>[^,?]+?)\s+(?:or|and)\s+(?P<b>[^,?]+?)\s*\??\s*$",
        re.I,
    ),
    re.compile(r"(?P<a>[^\s,]+)\s+או\s+(?P<b>[^\s?]+)"),
    re.compile(r"(?P<a>[^\s、,]+?)(?:と|か)(?P<b>[^\s、,]+?)(?:の|では|は|、|,)"),
)
# "Were A and B of the same nationality?", "Are A and B located in the same country?"
_SAME = re.compile(
    r"^\s*(?:are|were|is|was|do|does|did)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+same\s+(?P<what>\w+)",
    re.I,
)
_SAME_VALUE = (
    (re.compile(r"nationality|country|countries", re.I), AnswerType.NATIONALITY),
    (re.compile(r"place|city|town|neighbo|location|state|region", re.I), AnswerType.PLACE),
    (re.compile(r"year|date|day", re.I), AnswerType.DATE),
)
_LEADING = re.compile(r"^(?:[a-z]+,?\s+)+")  # "both movies, ", "the drinks "
_TRAILING = re.compile(r"(?:,?\s+[a-z]+)+,?$")  # " have the directors from the"
_QUESTION_WORDS = frozenset(
    analyze(
        "who whom whose what which when where why how many much long old far first earlier"
        " later last more less or and between did does do was were is are came come"
        " כמה מי מיהו מתי איפה היכן איזה איזו או קודם"
    )
)
_UNITS = (
    re.compile(r"\bhow (?:many|much)\s+(?:\w+\s+)??(\w+)", re.I),
    re.compile(r"כמה\s+(\S+)"),
    re.compile(r"何([日人件回年歳個本])"),
)
_KANA_ONLY = re.compile(r"^[\u3040-\u309f\u30fc]+$")  # particles and endings: です, すか


@dataclass(frozen=True)
class Comparison:
    sides: tuple[str, str]
    prefer: Prefer
    value: AnswerType  # what is compared: DATE or NUMBER, or for SAME the kind of value


@dataclass(frozen=True)
class Question:
    text: str
    answer_type: AnswerType
    comparison: Comparison | None
    terms: tuple[str, ...]  # content terms: the analyzer's, question words left out
    unit: str | None = None  # what a "how many" counts, as an analyzer term (day, 日)


def read_question(text: str) -> Question:
    answer_type = next((t for pattern, t in _CUES if pattern.search(text)), AnswerType.ANY)
    comparison = _comparison(text, answer_type)
    terms = tuple(dict.fromkeys(t for t in analyze(text) if _is_content(t)))
    return Question(text, answer_type, comparison, terms, _unit(text))


def _comparison(text: str, answer_type: AnswerType) -> Comparison | None:
    same = _same(text)
    if same is not None:
        return same
    prefer = next((p for pattern, p in _PREFER if pattern.search(text)), None)
    sides = _sides(text)
    if prefer is None or sides is None:
        return None
    by_time = prefer in (Prefer.EARLIER, Prefer.LATER) and answer_type is not AnswerType.NUMBER
    return Comparison(sides, prefer, AnswerType.DATE if by_time else AnswerType.NUMBER)


def _same(text: str) -> Comparison | None:
    """A yes/no question whether two named things share a value of one kind."""
    found = _SAME.search(text)
    if found is None:
        return None
    value = next((v for pattern, v in _SAME_VALUE if pattern.search(found.group("what"))), None)
    a, b = (_TRAILING.sub("", _LEADING.sub("", found.group(k))).strip(" ,") for k in "ab")
    if value is None or not a or not b:
        return None
    return Comparison((a, b), Prefer.SAME, value)


def _sides(text: str) -> tuple[str, str] | None:
    for pattern in _SIDES:
        found = pattern.search(text)
        if found and found.group("a").strip() and found.group("b").strip():
            return found.group("a").strip(), found.group("b").strip()
    return None


def _is_content(term: str) -> bool:
    return term not in _QUESTION_WORDS and not _KANA_ONLY.match(term)


def _unit(text: str) -> str | None:
    for pattern in _UNITS:
        found = pattern.search(text)
        if found:
            terms = analyze(found.group(1))
            return terms[0] if terms else None
    return None
