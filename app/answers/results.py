"""What an answer is made of, as values: sources with refs, quotes with spans, claims with
their verification, the structured brief, usage, and the events of a streamed answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from uuid import UUID

from app.answers.request import ClaimPolicy
from app.search.results import SearchHit


class ClaimStatus(StrEnum):
    SUPPORTED = "SUPPORTED"
    CAVEATED = "CAVEATED"
    REMOVED = "REMOVED"


@dataclass(frozen=True)
class Source:
    ref: str  # SRC:0001, numbered in retrieval order
    hit: SearchHit

    @property
    def marker(self) -> str:
        return f"[[{self.ref}]]"


@dataclass(frozen=True)
class QuoteSpan:
    document_id: UUID
    unit: str  # CHARS: offsets into the document's canonical text
    start: int
    end: int


@dataclass(frozen=True)
class Quote:
    ref: str
    text: str
    span: QuoteSpan
    verified: bool = False


@dataclass(frozen=True)
class Claim:
    text: str  # the claim with its markers
    refs: tuple[str, ...]
    status: ClaimStatus = ClaimStatus.SUPPORTED
    reason: str | None = None
    repaired: bool = False  # cited by verification: the composer's markers were missing or wrong


@dataclass(frozen=True)
class Brief:
    answer: str
    short_answer: str | None
    confidence: float | None  # the extractive reader's; None from an LLM
    settled: bool
    support: list[Quote]
    context: list[Quote]
    other_side: list[Quote]
    gaps: list[str]


@dataclass(frozen=True)
class Usage:
    model: str
    prompt_tokens: int
    completion_tokens: int
    passages_read: int
    time_to_first_delta_ms: float | None
    latency_ms: float
    # What the usage row recorded: set once the row is written, after the answer is done.
    credits: Decimal = Decimal(0)
    recorded_at: datetime | None = None


@dataclass(frozen=True)
class Verification:
    policy: ClaimPolicy
    quotes_checked: int
    quotes_verified: int
    claims_checked: int
    claims_supported: int
    claims_caveated: int
    claims_removed: int
    claims_repaired: int


@dataclass(frozen=True)
class AnswerSources:
    """The first event: what the answer is built on, before any text."""

    sources: list[Source]
    query_used: str
    degraded: bool
    missing_legs: list[str]


@dataclass(frozen=True)
class Answer:
    text: str
    html: str
    language: str
    direction: str
    brief: Brief
    claims: list[Claim]
    sources: list[Source]
    cited: frozenset[str]
    abstained: bool
    abstain_reason: str | None
    query_used: str
    degraded: bool
    missing_legs: list[str]
    usage: Usage
    verification: Verification


@dataclass(frozen=True)
class AnswerDelta:
    text: str


@dataclass(frozen=True)
class AnswerDone:
    answer: Answer


AnswerEvent = AnswerSources | AnswerDelta | Claim | AnswerDone


@dataclass
class Draft:
    """A composer's answer before verification: claims in order, the brief's parts, and
    whether it abstained (with a reason code) before writing anything."""

    claims: list[Claim] = field(default_factory=list)
    short_answer: str | None = None
    confidence: float | None = None
    support: list[Quote] = field(default_factory=list)
    context: list[Quote] = field(default_factory=list)
    other_side: list[Quote] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    settled: bool = True
    abstain_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def tokens(self) -> tuple[int, int]:
        return self.prompt_tokens, self.completion_tokens
