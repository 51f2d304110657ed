"""What an answer asks for, once validated: the question, the conversation, the sources
shown, the composer, and the search it runs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID

from app.search.results import SearchHit
from retrieval.request import SearchRequest

EXTRACTIVE = "extractive"  # the local composer: no LLM, deterministic
DEFAULT_TOP_K = 8  # passages an answer reads at MEDIUM effort unless asked for more


class Role(StrEnum):
    USER = "USER"
    ASSISTANT = "ASSISTANT"


class SourcesMode(StrEnum):
    ALL = "ALL"  # the cited sources first, then the others retrieved
    CITED = "CITED"
    NONE = "NONE"  # no sources, and an answer without markers


class Effort(StrEnum):
    MEDIUM = "MEDIUM"  # one search
    HIGH = "HIGH"  # twice the passages, three graph hops, further rounds (app/answers/rounds.py)


class ClaimPolicy(StrEnum):
    REMOVE = "REMOVE"
    CAVEAT = "CAVEAT"
    ABSTAIN = "ABSTAIN"


@dataclass(frozen=True)
class Message:
    role: Role
    content: str
    attachments: tuple[str, ...] = ()  # texts the message carried, searched with the question


@dataclass(frozen=True)
class Reading:
    """Passages already read, by a research run's rounds (app/research/): the answer composes
    from them and searches nothing. A draft, the brief a run shows between rounds, is neither
    checked against the plan nor charged; the run's answer is both."""

    hits: tuple[SearchHit, ...]
    draft: bool = False


@dataclass(frozen=True)
class AnswerRequest:
    search: SearchRequest  # collections, query, mode, filters, graph and topK of the answer
    history: tuple[Message, ...] = ()
    sources: SourcesMode = SourcesMode.ALL
    model: str | None = None
    language: str | None = None
    document: UUID | None = None  # set: answered from this document's whole text, not searched
    effort: Effort = Effort.MEDIUM
    read: Reading | None = None  # set: composed from these passages, not searched

    @property
    def query(self) -> str:
        return self.search.query

    @property
    def charged(self) -> bool:
        return self.read is None or not self.read.draft


@dataclass(frozen=True)
class DocumentAnswerRequest:
    """A question about one document: its whole extracted text is the context."""

    document: str  # its id
    query: str
    history: tuple[Message, ...] = ()
    sources: SourcesMode = SourcesMode.ALL
    model: str | None = None
    language: str | None = None
