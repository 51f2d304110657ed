"""A research run's sub-questions, planned by the run's LLM and verified before any is
searched.

A question of several hops names what it starts from, not what each hop must find: a model
can say which simpler questions, searched one by one, reach the rest ("Who directed the film
Blood Street?", then "When was its director born?"). The model's plan is checked as its
answers' claims are, against what it was given: a sub-question may name only what the
question names (a name or number the question does not hold is the model's invention, and
would search for it), must be shorter than a search's longest query, and must not be the
question again. A sub-question that fails is kept in the step with its reason, not searched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.answers.chat import Chat, ChatRequest
from app.models.chat import ChatMessage, ChatText
from app.search.checks import MAX_QUERY
from app.tenancy.principal import Principal

MOST = 3  # sub-questions searched in a run's first round
SURFACE = "research"  # the planning's usage rows' surface
PROMPT = (
    "Split the user's question into at most {most} simpler questions that, searched one by"
    " one in a document collection, find what answering it needs. Write one question per"
    " line and nothing else. Use only the names and numbers the question gives."
)
_LIST_MARK = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s*")  # a list's bullet or number
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Rejected:
    question: str
    reason: str


@dataclass(frozen=True)
class SubQuestions:
    kept: list[str] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)


async def plan(
    chat: Chat, principal: Principal, model: str, question: str, budget: float
) -> SubQuestions:
    """The model's sub-questions for the question, verified, written within `budget`
    seconds; its usage is metered."""
    messages = [
        ChatMessage("system", PROMPT.format(most=MOST)),
        ChatMessage("user", question),
    ]
    written = []
    async for item in chat.stream(principal, ChatRequest(messages, model, SURFACE), budget):
        if isinstance(item, ChatText):
            written.append(item.text)
    return verified("".join(written), question)


def verified(written: str, question: str) -> SubQuestions:
    """The lines the model wrote, each kept or rejected with its reason; at most MOST kept."""
    kept: list[str] = []
    rejected: list[Rejected] = []
    for line in written.splitlines():
        asked = _LIST_MARK.sub("", line).strip()
        if not asked or asked in kept:
            continue
        reason = _unsupported(asked, question) or ("past the most" if len(kept) >= MOST else "")
        if reason:
            rejected.append(Rejected(asked, reason))
        else:
            kept.append(asked)
    return SubQuestions(kept, rejected)


def _unsupported(asked: str, question: str) -> str:
    """Why the sub-question may not be searched; empty when it may."""
    if len(asked) > MAX_QUERY:
        return f"longer than {MAX_QUERY} characters"
    if _words(asked) == _words(question):
        return "the question itself"
    given = {w.casefold() for w in _words(question)}
    invented = list(dict.fromkeys(w for w in _names(asked) if w.casefold() not in given))
    if invented:
        return f"names {', '.join(invented)}, which the question does not"
    return ""


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _names(text: str) -> list[str]:
    """The words that name something: capitalised past the first word, or holding a digit."""
    words = _words(text)
    return [w for i, w in enumerate(words) if (i and w[:1].isupper()) or _digit(w)]


def _digit(word: str) -> bool:
    return any(c.isdigit() for c in word)
