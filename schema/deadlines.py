"""Every query and mutation runs within a deadline chosen by what it asks for (settings per
class: search, graph reads, ingest, answers, the rest). The deadline reaches the databases
(app/deadlines.py); here, each resolver still running at the deadline is stopped, and its field
fails with TIMEOUT. An operation asking for several classes gets the longest. Subscriptions
are streams: their lifetimes are bounded elsewhere."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from graphql import GraphQLResolveInfo, OperationType
from strawberry.extensions import SchemaExtension

from app.deadlines import deadline_after
from app.errors import ErrorCode, TrellisError
from app.settings import DeadlineSettings
from schema._operations import INGEST_FIELDS, operation_of, root_fields

SEARCH = frozenset({"search", "readSpans"})
GRAPH = frozenset({"neighborhood", "paths", "timeline", "themes", "entities", "entity"})
ANSWER = frozenset({"answer", "documentAnswer"})
ANSWER_MARGIN = 1.0  # seconds: the answer's own budget ends first, with its own error


class Deadlines(SchemaExtension):
    def __init__(self, settings: DeadlineSettings, answer_seconds: float) -> None:
        self._settings = settings
        self._answer_seconds = answer_seconds + ANSWER_MARGIN
        self._at: float | None = None
        self._seconds = 0.0

    def on_execute(self) -> Iterator[None]:
        operation = operation_of(self.execution_context)
        if operation is None or operation.operation == OperationType.SUBSCRIPTION:
            yield
            return
        self._seconds = max(self._seconds_for(name) for name in root_fields(operation))
        with deadline_after(self._seconds) as at:
            self._at = at
            yield

    def resolve(
        self,
        _next: Callable[..., Any],
        root: Any,
        info: GraphQLResolveInfo[Any],
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        result = _next(root, info, *args, **kwargs)
        if self._at is None or not inspect.isawaitable(result):
            return result
        return self._within(result, info.field_name)

    async def _within(self, work: Awaitable[Any], field: str) -> Any:
        assert self._at is not None
        timeout = asyncio.timeout_at(self._at)
        try:
            async with timeout:
                return await work
        except TimeoutError:
            if not timeout.expired():
                raise
            raise TrellisError(
                ErrorCode.TIMEOUT,
                f"{field} ran past the request's deadline of {self._seconds:g} s",
                field=field,
            ) from None

    def _seconds_for(self, field: str) -> float:
        settings = self._settings
        if field in SEARCH:
            return settings.search_seconds
        if field in GRAPH:
            return settings.graph_seconds
        if field in INGEST_FIELDS:
            return settings.ingest_seconds
        return self._answer_seconds if field in ANSWER else settings.other_seconds
