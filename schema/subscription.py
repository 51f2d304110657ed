"""Subscription root (graphql-transport-ws only)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncGenerator, AsyncIterator
from typing import TypeVar

import strawberry

from app.errors import ErrorCode, TrellisError
from app.ids import uuid_or_not_found
from schema.answers import AnswerEvent, AnswerInput, DocumentAnswerInput, event_of
from schema.chat import ChatEvent, ChatInput, chat_event_of
from schema.context import Info
from schema.jobs import IngestProgress
from schema.permissions import ANSWER, INGEST, RESEARCH, SEARCH
from schema.research import ResearchEvent, research_event_of

MAX_TICKS = 1000
T = TypeVar("T")
POLL_SECONDS = 0.2


@strawberry.type
class Subscription:
    @strawberry.subscription(
        permission_classes=SEARCH,
        description="Counts from 1 to `count`: a check of the WebSocket path.",
    )
    async def ticks(
        self, info: Info, count: int = 3, interval_ms: int = 100
    ) -> AsyncGenerator[int, None]:
        if not 1 <= count <= MAX_TICKS or not 0 <= interval_ms <= 60_000:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT,
                f"count must be 1 to {MAX_TICKS} and intervalMs 0 to 60000",
            )
        ends = _stream_end(info)
        for tick in range(1, count + 1):
            yield tick
            _check_lifetime(info, ends, "ticks")
            await asyncio.sleep(interval_ms / 1000)

    @strawberry.subscription(
        permission_classes=ANSWER,
        description="An answer as it is written: AnswerSources, then AnswerDelta events (verified"
        " text), an AnswerClaim for each claim caveated, removed or repaired (cited by"
        " verification), and AnswerDone last.",
    )
    async def answer_stream(
        self, info: Info, input: AnswerInput
    ) -> AsyncGenerator[AnswerEvent, None]:
        principal = await info.context.principal()
        request = input.to_request()
        events = info.context.services.answers.stream(principal, request)
        async for event in _admitted(info, events):
            yield event_of(event, request.sources)

    @strawberry.subscription(
        permission_classes=ANSWER,
        description="documentAnswer as it is written, with answerStream's events.",
    )
    async def document_answer_stream(
        self, info: Info, input: DocumentAnswerInput
    ) -> AsyncGenerator[AnswerEvent, None]:
        principal = await info.context.principal()
        request = input.to_request()
        events = info.context.services.document_answers.stream(principal, request)
        async for event in _admitted(info, events):
            yield event_of(event, request.sources)

    @strawberry.subscription(
        permission_classes=ANSWER,
        description="A stateless chat completion from the configured LLM: ChatDelta events,"
        " then ChatDone with the usage. It retrieves nothing and stores nothing but the usage"
        " row; the caller assembles the context. PROVIDER_NOT_CONFIGURED without an LLM.",
    )
    async def chat(self, info: Info, input: ChatInput) -> AsyncGenerator[ChatEvent, None]:
        principal = await info.context.principal()
        request = input.to_request()
        async for event in _admitted(info, info.context.services.chat.stream(principal, request)):
            yield chat_event_of(event)

    @strawberry.subscription(
        permission_classes=RESEARCH,
        description="A research run as it goes: ResearchProgress for each step (those taken"
        " before subscribing first), ResearchUpdated with the draft brief after each round"
        " that read more, and ResearchDone with the run when it has ended.",
    )
    async def research_events(
        self, info: Info, id: strawberry.ID
    ) -> AsyncGenerator[ResearchEvent, None]:
        principal = await info.context.principal()
        ends = _stream_end(info)
        alive = functools.partial(_check_lifetime, info, ends, "researchEvents")
        async for event in info.context.services.research.events(principal, str(id), alive):
            yield research_event_of(event)

    @strawberry.subscription(
        permission_classes=INGEST,
        description="Progress of an ingest job, ending with a final event.",
    )
    async def ingest_progress(
        self, info: Info, job_id: strawberry.ID
    ) -> AsyncGenerator[IngestProgress, None]:
        tenant = await info.context.tenant()
        ingestion = info.context.services.ingestion
        job = uuid_or_not_found(job_id, "job")
        last, ends = None, _stream_end(info)
        while True:
            summary = await ingestion.job(tenant, job)
            event = IngestProgress.of(summary)
            if event != last:
                yield event
                last = event
            if event.final:
                return
            _check_lifetime(info, ends, "ingestProgress")
            await asyncio.sleep(POLL_SECONDS)


async def _admitted(info: Info, events: AsyncIterator[T]) -> AsyncGenerator[T, None]:
    """A model's stream, run while it holds an admission slot (refused: an OVERLOADED error)."""
    async with info.context.services.admission.slot():
        async for event in events:
            yield event


def _stream_end(info: Info) -> float:
    seconds = info.context.services.settings.serving.stream_seconds
    return asyncio.get_running_loop().time() + seconds


def _check_lifetime(info: Info, ends: float, field: str) -> None:
    """A stream past the longest a stream may run ends with TIMEOUT; subscribing again
    goes on (an ingest job's progress picks up where it is)."""
    if asyncio.get_running_loop().time() >= ends:
        seconds = info.context.services.settings.serving.stream_seconds
        raise TrellisError(
            ErrorCode.TIMEOUT,
            f"{field} ran for its longest, {seconds:g} s; subscribe again to go on",
            field=field,
        )
