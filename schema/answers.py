"""GraphQL types for grounded answers: the input, the answer and its brief, and the events
of `answerStream`."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry

from app.answers import results
from app.answers.request import (
    DEFAULT_TOP_K,
    AnswerRequest,
    ClaimPolicy,
    DocumentAnswerRequest,
    Effort,
    Message,
    Role,
    SourcesMode,
)
from app.answers.service import AnswerModel as ModelRow
from app.answers.service import EffortInfo
from retrieval.request import Filters, Leg, Mode, SearchRequest
from schema.relationships import RelationshipPath
from schema.search import (
    DiscoveryMethod,
    GraphSearchInput,
    HitDocument,
    SearchFiltersInput,
    SearchMode,
)

AnswerSourcesMode = strawberry.enum(
    SourcesMode, description="ALL: cited sources first, then the others. NONE: no markers."
)
AnswerClaimPolicy = strawberry.enum(
    ClaimPolicy, description="What an unsupported claim does to an answer."
)
MessageRole = strawberry.enum(Role)
AnswerEffort = strawberry.enum(Effort)


@strawberry.enum
class ClaimStatus(Enum):
    SUPPORTED = "SUPPORTED"
    CAVEATED = "CAVEATED"
    REMOVED = "REMOVED"


@strawberry.input(description="One earlier message of the conversation, oldest first.")
class MessageInput:
    role: MessageRole  # type: ignore[valid-type]
    content: str
    attachments: list[str] | None = strawberry.field(
        default=None,
        description="Texts the message carried (at most 5, 8,000 characters each). Those of"
        " the last 5 messages are searched with the question.",
    )

    def to_message(self) -> Message:
        return Message(Role(self.role), self.content, tuple(self.attachments or ()))


@strawberry.input(
    description="A research run's question: the answer's fields but effort; a run reads"
    " more than any effort, in rounds (see startResearch)."
)
class ResearchInput:
    collections: list[str]
    query: str
    history: list[MessageInput] | None = None
    top_k: int = strawberry.field(default=DEFAULT_TOP_K, description="The answer's own, 1 to 50.")
    sources: AnswerSourcesMode = SourcesMode.ALL  # type: ignore[valid-type]
    model: str | None = strawberry.field(default=None, description="See answerModels.")
    language: str | None = strawberry.field(
        default=None, description="Answer in this language instead of the question's."
    )
    mode: SearchMode = Mode.HYBRID  # type: ignore[valid-type]
    filters: SearchFiltersInput | None = None
    graph: GraphSearchInput | None = None
    fail_closed: bool = False

    def to_request(self) -> AnswerRequest:
        graph = self.graph or GraphSearchInput()
        search = SearchRequest(
            collections=tuple(self.collections),
            query=self.query,
            mode=Mode(self.mode),
            top_k=self.top_k,
            filters=self.filters.to_filters() if self.filters else Filters(),
            fail_closed=self.fail_closed,
            hops=graph.hops,
            as_of=graph.as_of,
            second_round=graph.second_round,
            match_facts=graph.match_facts,
            legs=tuple(Leg),
        )
        history = tuple(m.to_message() for m in self.history or [])
        return AnswerRequest(search, history, SourcesMode(self.sources), self.model, self.language)


@strawberry.input
class AnswerInput(ResearchInput):
    effort: AnswerEffort = strawberry.field(  # type: ignore[valid-type]
        default=Effort.MEDIUM,
        description="HIGH reads more: twice the passages, three graph hops, and further"
        " retrieval rounds from the bridges of what was read (see answerEfforts).",
    )

    def to_request(self) -> AnswerRequest:
        return replace(super().to_request(), effort=Effort(self.effort))


@strawberry.input(description="A question about one document, answered from its whole text.")
class DocumentAnswerInput:
    document: strawberry.ID
    query: str
    history: list[MessageInput] | None = None
    sources: AnswerSourcesMode = SourcesMode.ALL  # type: ignore[valid-type]
    model: str | None = strawberry.field(default=None, description="See answerModels.")
    language: str | None = strawberry.field(
        default=None, description="Answer in this language instead of the question's."
    )

    def to_request(self) -> DocumentAnswerRequest:
        history = tuple(m.to_message() for m in self.history or [])
        return DocumentAnswerRequest(
            str(self.document),
            self.query,
            history,
            SourcesMode(self.sources),
            self.model,
            self.language,
        )


@strawberry.type
class AnswerSpan:
    document_id: strawberry.ID
    unit: str
    start: int
    end: int

    @classmethod
    def of(cls, span: results.QuoteSpan) -> AnswerSpan:
        return cls(
            document_id=strawberry.ID(str(span.document_id)),
            unit=span.unit,
            start=span.start,
            end=span.end,
        )


@strawberry.type(description="Words of a passage, verified against its span's canonical text.")
class AnswerQuote:
    ref: str
    text: str
    span: AnswerSpan
    verified: bool

    @classmethod
    def of(cls, quote: results.Quote) -> AnswerQuote:
        return cls(
            ref=quote.ref, text=quote.text, span=AnswerSpan.of(quote.span), verified=quote.verified
        )


@strawberry.type
class AnswerClaim:
    text: str
    refs: list[str]
    status: ClaimStatus
    reason: str | None
    repaired_citation: bool = strawberry.field(
        description="The composer cited no source, or sources that do not support the claim;"
        " verification found the one source that does and cited it."
    )

    @classmethod
    def of(cls, claim: results.Claim) -> AnswerClaim:
        return cls(
            text=claim.text,
            refs=list(claim.refs),
            status=ClaimStatus(claim.status.value),
            reason=claim.reason,
            repaired_citation=claim.repaired,
        )


@strawberry.type
class AnswerBrief:
    answer: str
    short_answer: str | None = strawberry.field(
        description="The extractive model's answer span, given only when its reader thinks it"
        " more likely right than wrong; a comparison's verdict (yes, no, or one of its two"
        " sides) or the value two sides share; never a span for a yes-or-no question. The span"
        " reader reads English; in other languages the best sentences are quoted, with the"
        " number or date a how-many or when question asks."
    )
    confidence: float | None = strawberry.field(
        description="The extractive reader's confidence, 0 to 1, in its best span, with or"
        " without a short answer; null for a comparison's verdict (the reader reads each"
        " side's value, not the verdict), from an LLM, or outside the reader's languages."
    )
    settled: bool
    support: list[AnswerQuote]
    context: list[AnswerQuote]
    other_side: list[AnswerQuote]
    gaps: list[str]

    @classmethod
    def of(cls, brief: results.Brief) -> AnswerBrief:
        return cls(
            answer=brief.answer,
            short_answer=brief.short_answer,
            confidence=brief.confidence,
            settled=brief.settled,
            support=[AnswerQuote.of(q) for q in brief.support],
            context=[AnswerQuote.of(q) for q in brief.context],
            other_side=[AnswerQuote.of(q) for q in brief.other_side],
            gaps=list(brief.gaps),
        )


@strawberry.type
class AnswerSource:
    ref: str
    span: AnswerSpan | None
    document: HitDocument
    score: float
    cited: bool
    discovery_methods: list[DiscoveryMethod]
    relationship_path: RelationshipPath | None

    @classmethod
    def of(cls, source: results.Source, cited: frozenset[str]) -> AnswerSource:
        hit = source.hit
        chars = next((s for s in hit.spans if s.unit == "CHARS"), None)
        span = (
            results.QuoteSpan(hit.document.id, "CHARS", chars.start, chars.end) if chars else None
        )
        return cls(
            ref=source.ref,
            span=AnswerSpan.of(span) if span else None,
            document=HitDocument.of(hit.document),
            score=hit.score,
            cited=source.ref in cited,
            discovery_methods=[DiscoveryMethod(m.value) for m in hit.methods],
            relationship_path=RelationshipPath.of(hit.path) if hit.path else None,
        )


@strawberry.type
class AnswerUsage:
    model: str
    prompt_tokens: int
    completion_tokens: int
    passages_read: int
    time_to_first_delta_ms: float | None
    latency_ms: float
    credits: float = strawberry.field(description="What the usage row recorded and charged.")
    recorded_at: datetime | None = strawberry.field(description="When the usage row was written.")

    @classmethod
    def of(cls, usage: results.Usage) -> AnswerUsage:
        return cls(**{**vars(usage), "credits": float(usage.credits)})


@strawberry.type
class AnswerVerification:
    policy: AnswerClaimPolicy  # type: ignore[valid-type]
    quotes_checked: int
    quotes_verified: int
    claims_checked: int
    claims_supported: int
    claims_caveated: int
    claims_removed: int
    claims_repaired: int = strawberry.field(
        description="Supported claims that verification cited itself: the composer's markers"
        " were missing or pointed at sources that do not support them."
    )


@strawberry.type
class Answer:
    text: str = strawberry.field(description="With a [[SRC:0001]] marker after every claim.")
    html: str
    language: str
    direction: str = strawberry.field(description="LTR or RTL.")
    brief: AnswerBrief
    claims: list[AnswerClaim]
    sources: list[AnswerSource]
    abstained: bool
    abstain_reason: str | None
    query_used: str
    degraded: bool
    missing_legs: list[str]
    usage: AnswerUsage
    verification: AnswerVerification

    @classmethod
    def of(cls, answer: results.Answer) -> Answer:
        return cls(
            text=answer.text,
            html=answer.html,
            language=answer.language,
            direction=answer.direction,
            brief=AnswerBrief.of(answer.brief),
            claims=[AnswerClaim.of(c) for c in answer.claims],
            sources=[AnswerSource.of(s, answer.cited) for s in answer.sources],
            abstained=answer.abstained,
            abstain_reason=answer.abstain_reason,
            query_used=answer.query_used,
            degraded=answer.degraded,
            missing_legs=list(answer.missing_legs),
            usage=AnswerUsage.of(answer.usage),
            verification=AnswerVerification(**vars(answer.verification)),
        )


@strawberry.type(description="First: what the answer is built on, before any text.")
class AnswerSources:
    sources: list[AnswerSource]
    query_used: str
    degraded: bool
    missing_legs: list[str]


@strawberry.type(description="Verified text, in order; the deltas concatenate to the text.")
class AnswerDelta:
    text: str


@strawberry.type(description="Last: the whole answer.")
class AnswerDone:
    answer: Answer


AnswerEvent = Annotated[
    AnswerSources | AnswerDelta | AnswerClaim | AnswerDone, strawberry.union("AnswerEvent")
]


def event_of(
    event: results.AnswerEvent, mode: SourcesMode
) -> AnswerSources | AnswerDelta | AnswerClaim | AnswerDone:
    if isinstance(event, results.AnswerSources):
        shown = [] if mode is SourcesMode.NONE else event.sources
        return AnswerSources(
            sources=[AnswerSource.of(s, frozenset()) for s in shown],
            query_used=event.query_used,
            degraded=event.degraded,
            missing_legs=list(event.missing_legs),
        )
    if isinstance(event, results.AnswerDelta):
        return AnswerDelta(text=event.text)
    if isinstance(event, results.Claim):
        return AnswerClaim.of(event)
    return AnswerDone(answer=Answer.of(event.answer))


@strawberry.type
class AnswerModelInfo:
    name: str
    provider: str = strawberry.field(description="LOCAL or OPENAI_COMPATIBLE.")
    default: bool

    @classmethod
    def of(cls, row: ModelRow) -> AnswerModelInfo:
        return cls(name=row.name, provider=row.provider, default=row.default)


@strawberry.type(description="How much an answer reads at one effort, and its time budget.")
class AnswerEffortInfo:
    name: AnswerEffort  # type: ignore[valid-type]
    budget_seconds: float
    passages: str = strawberry.field(description="The passages read, against topK.")
    graph_hops: int
    further_rounds: int = strawberry.field(description="Retrieval rounds after the first, at most.")

    @classmethod
    def of(cls, info: EffortInfo) -> AnswerEffortInfo:
        return cls(
            name=info.effort,
            budget_seconds=info.budget_seconds,
            passages=info.passages,
            graph_hops=info.graph_hops,
            further_rounds=info.further_rounds,
        )
