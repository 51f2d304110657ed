"""What an answer asks for, once validated: the question, the conversation, the sources
shown, the composer, and the search it runs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from uuid import UUID

from retrieval.request import SearchRequest

EXTRACTIVE = "extractive"  # the local composer: no LLM, deterministic


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
class AnswerRequest:
    search: SearchRequest  # collections, query, mode, filters, graph and topK of the answer
    history: tuple[Message, ...] = ()
    sources: SourcesMode = SourcesMode.ALL
    model: str | None = None
    language: str | None = None
    document: UUID | None = None  # set: answered from this document's whole text, not searched
    effort: Effort = Effort.MEDIUM

    @property
    def query(self) -> str:
        return self.search.query


@dataclass(frozen=True)
class DocumentAnswerRequest:
    """A question about one document: its whole extracted text is the context."""

    document: str  # its id
    query: str
    history: tuple[Message, ...] = ()
    sources: SourcesMode = SourcesMode.ALL
    model: str | None = None
    language: str | None = None
