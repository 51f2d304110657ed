"""Research runs as callers see them: start one (it returns at once, queued), read it,
cancel it, follow its events. A run is its tenant's alone; a key limited to content scopes
sees only the runs it started, whose passages it was allowed to read."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from uuid import uuid4

from app.answers.request import EXTRACTIVE, AnswerRequest
from app.answers.results import Answer, Brief
from app.answers.service import Answers
from app.collections.service import Collections
from app.errors import ErrorCode, TrellisError
from app.ids import uuid_or_not_found
from app.research._values import from_json, to_json
from app.research.runs import (
    ResearchEnded,
    ResearchEvent,
    ResearchProgress,
    ResearchRun,
    ResearchStep,
    ResearchUpdated,
    RunStatus,
    StepKind,
)
from app.research.worker import ResearchWorker
from app.settings import ResearchSettings
from app.tenancy.principal import Principal
from store import research
from store.pool import Conn, Pool
from store.research import NewRun, RunRow, StepRow

POLL_SECONDS = 0.2


class Research:
    def __init__(
        self,
        pool: Pool,
        answers: Answers,
        collections: Collections,
        worker: ResearchWorker,
        settings: ResearchSettings,
    ) -> None:
        self._pool = pool
        self._answers = answers
        self._collections = collections
        self._worker = worker
        self._settings = settings

    async def start(self, principal: Principal, request: AnswerRequest) -> ResearchRun:
        """Queue the run once the request passes the answer's checks; it returns at once."""
        await self._answers.admit(principal, request)
        for name in request.search.collections:
            await self._collections.get(principal.tenant, name)
        run = NewRun(
            uuid4(),
            principal.tenant.id,
            principal.key_id,
            request.query,
            to_json(request),
            request.model or EXTRACTIVE,
            self._settings.budget_seconds,
        )
        async with self._pool.connection() as conn, conn.transaction():
            await self._check_room(conn, principal)
            row = await research.insert(conn, run)
        self._worker.wake()
        return _run_of(row, [])

    async def run(self, principal: Principal, run_id: str) -> ResearchRun:
        async with self._pool.connection() as conn:
            row = await _found(conn, principal, run_id)
            steps = await research.steps(conn, row.id)
        return _run_of(row, [_step_of(s) for s in steps])

    async def cancel(self, principal: Principal, run_id: str) -> ResearchRun:
        """Cancel a queued or running run; an ended run is returned as it is."""
        async with self._pool.connection() as conn:
            row = await _found(conn, principal, run_id)
            await research.cancel(conn, row.id, "cancelled by the caller")
            self._worker.stop_local(row.id)
            row = await _found(conn, principal, run_id)
            steps = await research.steps(conn, row.id)
        return _run_of(row, [_step_of(s) for s in steps])

    async def events(
        self, principal: Principal, run_id: str, alive: Callable[[], None]
    ) -> AsyncIterator[ResearchEvent]:
        """Each step as it is taken (those taken before too, in order), a draft brief after
        each round that read more, and the run when it has ended. `alive` is called at every
        look and raises when the stream has run for its longest."""
        seen: list[ResearchStep] = []
        while True:
            async with self._pool.connection() as conn:
                row = await _found(conn, principal, run_id)
                after = seen[-1].number if seen else 0
                new = [_step_of(s) for s in await research.steps(conn, row.id, after)]
            for step in new:
                yield ResearchProgress(step)
                if step.brief is not None:
                    yield ResearchUpdated(step.number, step.brief)
            seen += new
            if RunStatus(row.status).ended:
                yield ResearchEnded(_run_of(row, seen))
                return
            alive()
            await asyncio.sleep(POLL_SECONDS)

    async def _check_room(self, conn: Conn, principal: Principal) -> None:
        open_runs = await research.open_count(conn, principal.tenant.id)
        most = self._settings.max_open
        if open_runs >= most:
            raise TrellisError(
                ErrorCode.RATE_LIMITED,
                f"the tenant has {open_runs} research runs queued or running, the most it may;"
                " wait for one to end or cancel one",
                open=open_runs,
                limit=most,
            )


async def _found(conn: Conn, principal: Principal, run_id: str) -> RunRow:
    wanted = uuid_or_not_found(run_id, "research run")
    seen_by = research.seen_by(principal.tenant, principal.key_id)
    row = await research.by_id(conn, principal.tenant.id, seen_by, wanted)
    if row is None:
        raise TrellisError(ErrorCode.NOT_FOUND, f"no research run {run_id}", field="id")
    return row


def _run_of(row: RunRow, steps: list[ResearchStep]) -> ResearchRun:
    answer = None if row.answer is None else from_json(Answer, row.answer)
    return ResearchRun(
        row.id,
        RunStatus(row.status),
        row.query,
        row.reason,
        row.created_at,
        row.started_at,
        row.finished_at,
        steps,
        answer,
    )


def _step_of(step: StepRow) -> ResearchStep:
    brief = None if step.brief is None else from_json(Brief, step.brief)
    kind = StepKind(step.kind)
    return ResearchStep(step.number, kind, step.message, step.passages_read, step.created_at, brief)
