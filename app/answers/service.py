"""Answers: search, compose, verify, and stream the answer claim by claim.

The stream yields the sources before any text, then verified text in order, then an event
for each claim caveated or removed, then the whole answer. Under ABSTAIN the text waits
until every claim is checked, so an unsupported claim never reaches the client.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field, replace

from app.answers.assembly import AnswerParts, assemble
from app.answers.budget import within
from app.answers.checks import check_request
from app.answers.composer import ComposeContext, Composer
from app.answers.conversation import retrieval_query, standalone
from app.answers.language import Language, language_of
from app.answers.prompt import CHARS_PER_TOKEN
from app.answers.quotes import verify_quotes
from app.answers.request import EXTRACTIVE, AnswerRequest, ClaimPolicy, Effort
from app.answers.results import (
    Answer,
    AnswerDelta,
    AnswerDone,
    AnswerEvent,
    AnswerSources,
    Claim,
    ClaimStatus,
    Draft,
    Source,
)
from app.answers.rounds import Rounds, further
from app.answers.verification import apply_policy, verify_claim
from app.collections.service import Collection, Collections
from app.collections.spans import Spans
from app.errors import ErrorCode, TrellisError
from app.models.chat import ChatModel
from app.search.checks import MAX_TOP_K as SEARCH_MAX_TOP_K
from app.search.linking import EntityLinker
from app.search.results import SearchHit
from app.search.service import Search
from app.settings import AnswerSettings
from app.tenancy.auth import Tenant
from app.tenancy.preflight import ModelRun, Preflight
from app.tenancy.principal import Principal, Scope
from app.tenancy.usage import Charge, Consumed, Metering
from ingest.titles import without_qualifier
from retrieval.request import Mode, SearchRequest

STRICTNESS = (ClaimPolicy.CAVEAT, ClaimPolicy.REMOVE, ClaimPolicy.ABSTAIN)
HIGH_HOPS = 3  # a HIGH-effort search's graph hops


@dataclass(frozen=True)
class AnswerModel:
    name: str
    provider: str  # LOCAL or OPENAI_COMPATIBLE
    default: bool


@dataclass(frozen=True)
class EffortInfo:
    """What an answer reads at one effort, and its time budget."""

    effort: Effort
    budget_seconds: float
    passages: str  # against topK
    graph_hops: int
    further_rounds: int


@dataclass
class _Run:
    """One answer in progress."""

    request: AnswerRequest
    language: Language
    policy: ClaimPolicy
    started: float = field(default_factory=time.perf_counter)
    sources: list[Source] = field(default_factory=list)
    question: str = ""  # standalone: what the composer answers
    query_used: str = ""  # what was searched: the question and any attachments
    degraded: bool = False
    missing_legs: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    first_delta: float | None = None
    passages: dict[str, str] = field(default_factory=dict)  # what claims are checked against
    composing: bool = False  # a model has started; from here on the run is charged
    metered: bool = False


@dataclass(frozen=True)
class Access:
    """The checks an answer passes before it runs, and the meter after."""

    preflight: Preflight
    metering: Metering


class Answers:
    def __init__(
        self,
        search: Search,
        collections: Collections,
        spans: Spans,
        linker: EntityLinker,
        settings: AnswerSettings,
        composers: dict[str, Composer],
        access: Access,
        chat: ChatModel | None = None,
    ) -> None:
        self._search = search
        self._collections = collections
        self._spans = spans
        self._linker = linker
        self._settings = settings
        self._composers = composers
        self._access = access
        self._chat = chat

    async def close(self) -> None:
        if self._chat is not None:
            await self._chat.close()

    async def warm_up(self) -> None:
        """Each composer loads what it needs, once (one serves every LLM model)."""
        for composer in {id(c): c for c in self._composers.values()}.values():
            await composer.warm_up()

    def models(self) -> list[AnswerModel]:
        llm = [AnswerModel(m, "OPENAI_COMPATIBLE", False) for m in self._settings.llm.models]
        return [AnswerModel(EXTRACTIVE, "LOCAL", True), *llm]

    def efforts(self) -> list[EffortInfo]:
        settings, medium_hops = self._settings, SearchRequest((), "").hops
        return [
            EffortInfo(Effort.MEDIUM, settings.budget_seconds, "topK", medium_hops, 0),
            EffortInfo(
                Effort.HIGH, settings.high_budget_seconds,
                "twice topK, and what the rounds find", HIGH_HOPS, settings.high_rounds,
            ),
        ]  # fmt: skip

    def models_for(self, principal: Principal) -> list[AnswerModel]:
        """The models the principal's plan reaches; the default is always among them."""
        return [m for m in self.models() if principal.plan.reaches(m.name, EXTRACTIVE)]

    async def answer(
        self, principal: Principal, request: AnswerRequest, budget: float | None = None
    ) -> Answer:
        """The whole answer, within `budget` seconds or else its effort's budget."""
        async for event in self.stream(principal, request, budget):
            if isinstance(event, AnswerDone):
                return event.answer
        raise TrellisError(ErrorCode.INTERNAL_ERROR, "the answer ended without a result")

    def stream(
        self, principal: Principal, request: AnswerRequest, budget: float | None = None
    ) -> AsyncIterator[AnswerEvent]:
        """The answer's events, within `budget` seconds or else its effort's budget: past it,
        ANSWER_TIMEOUT. A research run gives what is left of its own budget: its answer reads
        every passage of its rounds, and may take longer than an answer asked directly."""
        if budget is None:
            budget = self._settings.budget_for(request.effort is Effort.HIGH)
        return within(self._events(principal, request), budget, "the answer")

    async def _events(
        self, principal: Principal, request: AnswerRequest
    ) -> AsyncGenerator[AnswerEvent, None]:
        composer = await self.admit(principal, request)
        request = with_effort(request)
        tenant = principal.tenant
        targets = [await self._collections.get(tenant, n) for n in request.search.collections]
        run = _Run(request, language_of(request.query, request.language), _policy(targets))
        try:
            async for event in self._run(principal, run, composer, targets):
                yield event
        except TrellisError as error:
            charged = await self._charge_broken_off(principal, run)
            if charged is not None:
                error.details["creditsCharged"] = float(charged.credits)
            raise
        finally:
            await self._charge_broken_off(principal, run)

    async def admit(self, principal: Principal, request: AnswerRequest) -> Composer:
        """Check the request, and that the principal may run its model now; its composer.
        A draft is not checked against the plan's allowance: the run it belongs to was."""
        check_request(request)
        composer = self._composer(request.model)
        if request.charged:
            model = request.model or EXTRACTIVE
            run = ModelRun(Scope.ANSWER, model, EXTRACTIVE)
            await self._access.preflight.before_model(principal, run)
        return composer

    async def searched(self, request: AnswerRequest) -> str:
        """What the answer searches: the question made standalone from the conversation,
        and the texts attached to its last messages."""
        return retrieval_query(await self._standalone(request), request.history)

    async def _standalone(self, request: AnswerRequest) -> str:
        extractor = self._linker.extractor
        return await asyncio.to_thread(
            lambda: standalone(request.query, request.history, extractor())
        )

    async def _describe(self, question: str, start: int, end: int) -> tuple[int, int] | None:
        extractor = self._linker.extractor
        return await asyncio.to_thread(lambda: extractor().description(question, start, end))

    async def _run(
        self, principal: Principal, run: _Run, composer: Composer, targets: list[Collection]
    ) -> AsyncIterator[AnswerEvent]:
        yield await self._retrieve(principal.tenant, run)
        run.composing = True
        context = self._context(principal.tenant, run)
        draft = Draft(abstain_reason="NO_CONTEXT")
        async for item in composer.compose(context) if run.sources else _nothing():
            if isinstance(item, Draft):
                draft = item
                continue
            async for event in self._release(run, item):
                yield event
        for event in await self._finish(principal, run, draft):
            yield event

    async def _charge_broken_off(self, principal: Principal, run: _Run) -> Charge | None:
        """A run that started a model and ended without its answer (an error, the budget,
        the client gone) is charged for what it used; once."""
        if not run.composing or run.metered or not run.request.charged:
            return None
        return await self._meter(principal, run, None)

    async def _meter(self, principal: Principal, run: _Run, draft: Draft | None) -> Charge:
        """Record the run's usage. Without a draft the stream broke off: it is charged for
        the passages it read and an estimate of the tokens it used so far."""
        run.metered = True
        model = run.request.model or EXTRACTIVE
        done = draft is not None
        tokens = _estimated(run, model) if draft is None else draft.tokens
        consumed = Consumed("answer", model, *tokens, len(run.sources), done, model != EXTRACTIVE)
        return await self._access.metering.record(principal, consumed)

    def _composer(self, model: str | None) -> Composer:
        name = model or EXTRACTIVE
        if name != EXTRACTIVE and not self._settings.llm.configured:
            raise TrellisError(
                ErrorCode.PROVIDER_NOT_CONFIGURED,
                f"model {name!r} needs an LLM provider: set TRELLIS_LLM_URL and"
                " TRELLIS_LLM_API_KEY",
                field="model",
            )
        if name not in self._composers:
            known = ", ".join(m.name for m in self.models())
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT,
                f"unknown model {name!r}; use one of {known}",
                field="model",
            )
        return self._composers[name]

    async def _retrieve(self, tenant: Tenant, run: _Run) -> AnswerSources:
        run.question = await self._standalone(run.request)
        run.query_used = retrieval_query(run.question, run.request.history)
        hits = await self._hits(tenant, run)
        run.sources = [Source(f"SRC:{i + 1:04d}", hit) for i, hit in enumerate(hits)]
        run.passages = {s.ref: _checked_text(s) for s in run.sources}
        return AnswerSources(run.sources, run.query_used, run.degraded, run.missing_legs)

    async def _hits(self, tenant: Tenant, run: _Run) -> list[SearchHit]:
        """The search's hits; for a question about one document, that whole document."""
        if run.request.read is not None:
            return list(run.request.read.hits)
        if run.request.document is not None:
            return await self._search.document_hits(tenant, run.request.document)
        search = replace(run.request.search, query=run.query_used)
        outcome = await self._search.search(tenant, search)
        run.degraded = outcome.degraded
        run.missing_legs = [leg.value for leg in outcome.missing_legs]
        if run.request.effort is not Effort.HIGH:
            return outcome.hits
        rounds = Rounds(search, list(outcome.hits))
        most = self._settings.high_rounds
        return [*outcome.hits, *await further(self._search, tenant, rounds, most)]

    def _context(self, tenant: Tenant, run: _Run) -> ComposeContext:
        return ComposeContext(
            question=run.question,
            sources=run.sources,
            language=run.language.code,
            history=run.request.history,
            model=run.request.model or EXTRACTIVE,
            lookup=_Lookup(self._search, tenant, run),
            describe=self._describe,
            whole=run.request.document is not None,
        )

    async def _release(self, run: _Run, claim: Claim) -> AsyncIterator[AnswerEvent]:
        """Verify one claim; release its text unless the policy holds text back."""
        claim, reason = verify_claim(claim, run.passages, self._settings.support_overlap)
        checked = apply_policy(claim, reason, run.policy, run.language.code)
        run.claims.append(checked)
        if run.policy is ClaimPolicy.ABSTAIN:
            return
        if checked.status is not ClaimStatus.REMOVED:
            run.first_delta = run.first_delta or time.perf_counter()
            yield AnswerDelta(_joined(run, checked))
        if checked.status is not ClaimStatus.SUPPORTED or checked.repaired:
            yield checked

    async def _finish(self, principal: Principal, run: _Run, draft: Draft) -> list[AnswerEvent]:
        events: list[AnswerEvent] = []
        unsupported = [c for c in run.claims if c.status is not ClaimStatus.SUPPORTED]
        if run.policy is ClaimPolicy.ABSTAIN and not unsupported and run.claims:
            run.first_delta = time.perf_counter()
            events.append(AnswerDelta(" ".join(c.text for c in run.claims)))
        elif run.policy is ClaimPolicy.ABSTAIN:
            events.extend(unsupported)
        verified = await verify_quotes(self._spans, principal.tenant, draft)
        parts = AnswerParts(
            run.request,
            run.language,
            run.policy,
            run.sources,
            run.claims,
            verified,
            run.query_used,
            run.degraded,
            run.missing_legs,
            run.started,
            run.first_delta,
        )
        answer = assemble(parts)
        if not run.request.charged:
            return [*events, AnswerDone(answer)]
        charged = await self._meter(principal, run, draft)
        usage = replace(answer.usage, credits=charged.credits, recorded_at=charged.recorded_at)
        events.append(AnswerDone(replace(answer, usage=usage)))
        return events


def _estimated(run: _Run, model: str) -> tuple[int, int]:
    if model == EXTRACTIVE:
        return 0, 0
    prompt = sum(len(text) // CHARS_PER_TOKEN + 1 for text in run.passages.values())
    return prompt, sum(len(c.text) // CHARS_PER_TOKEN + 1 for c in run.claims)


def with_effort(request: AnswerRequest) -> AnswerRequest:
    """HIGH reads more: twice the passages and three graph hops (its further rounds run
    after the first search)."""
    if request.effort is not Effort.HIGH:
        return request
    top_k = min(2 * request.search.top_k, SEARCH_MAX_TOP_K)
    return replace(request, search=replace(request.search, top_k=top_k, hops=HIGH_HOPS))


def _policy(targets: list[Collection]) -> ClaimPolicy:
    """The strictest policy of the collections answered from."""
    return max((ClaimPolicy(t.answer_policy) for t in targets), key=STRICTNESS.index)


def _joined(run: _Run, claim: Claim) -> str:
    released = [c for c in run.claims if c.status is not ClaimStatus.REMOVED]
    return claim.text if len(released) == 1 else " " + claim.text


async def _nothing() -> AsyncIterator[Claim | Draft]:
    yield Draft(abstain_reason="NO_CONTEXT")


def _checked_text(source: Source) -> str:
    """What a source holds for checking a claim: its text and its document's title, which
    the sources list shows and the prompt gives the model ("Picric acid — …" names the
    passage's own subject)."""
    return f"{source.hit.document.title}\n{source.hit.text}"


@dataclass(frozen=True)
class _Lookup:
    """A composer's way to more passages: the documents titled with a name, searched for
    in the collections the answer reads. What it finds joins the run's sources, numbered on,
    so the claims that cite it are checked against it and the answer lists it."""

    search: Search
    tenant: Tenant
    run: _Run
    top_k: int = 3

    async def __call__(self, name: str) -> list[Source]:
        if self.run.request.document is not None:
            return []  # a question about one document reads that document alone
        # A title is a name: the keyword leg alone finds its page, in milliseconds.
        request = replace(
            self.run.request.search,
            query=name,
            top_k=self.top_k,
            mode=Mode.KEYWORD,
            min_score=None,
        )
        outcome = await self.search.search(self.tenant, request)
        known = {s.hit.chunk_id for s in self.run.sources}
        key = name.casefold()
        hits = [
            h
            for h in outcome.hits
            if h.chunk_id not in known and without_qualifier(h.document.title).casefold() == key
        ]
        found = [Source(f"SRC:{len(self.run.sources) + i + 1:04d}", h) for i, h in enumerate(hits)]
        self.run.sources.extend(found)
        self.run.passages.update({s.ref: _checked_text(s) for s in found})
        return found
