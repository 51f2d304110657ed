"""One research run, step by step.

A run plans (the question's entities and relation words), retrieves in rounds, then
composes. The first round is one search at HIGH effort's reach: twice the passages, three
graph hops. Each further round is a HIGH answer's next round (app/answers/rounds.py): the
bridge entities the passages read so far name near the question's relation words, each
searched with those words. Rounds stop when one finds nothing new, or after
TRELLIS_RESEARCH_ROUNDS. After each round that read more, the extractive composer drafts a
brief from everything read, uncharged; the answer is composed by the run's model from every
passage read, through the answer pipeline with its checks, verification and metering. The
span reader keeps what it read with a question (app/answers/extractive/reader.py), so each
draft, and an extractive answer, reads only the passages new since the draft before.

Every step is a row written under the run's claim (store/research.py) with the passages it
read, so a run taken over after its worker died goes on after its last step, reading what
that worker had read.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from app.answers.chat import Chat
from app.answers.request import EXTRACTIVE, AnswerRequest, Effort, Reading
from app.answers.results import Answer, Brief
from app.answers.rounds import PASSAGES, Rounds, next_round
from app.answers.service import Answers, with_effort
from app.errors import ErrorCode, TrellisError
from app.research import planner
from app.research._values import from_json, to_json
from app.research.runs import StepKind
from app.search.results import SearchHit
from app.search.service import Search
from app.settings import ResearchSettings
from app.tenancy.principal import Principal
from retrieval.request import SearchRequest
from store import keys, research
from store.pool import Pool
from store.research import ClaimedRun, Ending, NewStep, StepRow

MAX_CLAIMS = 5  # a run whose worker died this often is not tried again


class _Lost(Exception):
    """The run is no longer this claim's: cancelled, or taken over by another worker."""


@dataclass
class _State:
    claimed: ClaimedRun
    principal: Principal
    request: AnswerRequest
    search: SearchRequest  # the first round's
    read: list[SearchHit] = field(default_factory=list)
    asked: set[str] = field(default_factory=set)  # bridges searched, case-folded
    subquestions: list[str] = field(default_factory=list)  # the model's, verified
    rounds: int = 0
    number: int = 0  # the last step written
    exhausted: bool = False  # a round found nothing new

    def absorb(self, step: StepRow) -> None:
        """Take in a step an earlier claim wrote."""
        self.number = step.number
        if step.kind == StepKind.PLAN:
            self.subquestions = list(step.detail.get("subquestions", []))
        if step.kind != StepKind.ROUND:
            return
        hits = [from_json(SearchHit, hit) for hit in step.detail["hits"]]
        self.read += hits
        self.asked |= set(step.detail["asked"])
        self.rounds += 1
        self.exhausted = not hits


class Researcher:
    def __init__(
        self,
        pool: Pool,
        answers: Answers,
        search: Search,
        chat: Chat,
        settings: ResearchSettings,
    ) -> None:
        self._pool = pool
        self._answers = answers
        self._search = search
        self._chat = chat
        self._settings = settings

    async def run(self, claimed: ClaimedRun) -> None:
        """Take the run from its last step to its end; a run no longer this claim's is left
        as it is."""
        try:
            await self._within_budget(await self._resume(claimed))
        except TrellisError as error:
            await self._end(claimed, Ending("FAILED", f"{error.code.value}: {error.message}"))
        except _Lost:
            return

    async def _within_budget(self, state: _State) -> None:
        try:
            async with asyncio.timeout(_left(state.claimed)) as limit:
                await self._steps(state)
        except TimeoutError:
            if not limit.expired():
                raise
            budget = state.claimed.run.budget_seconds
            raise TrellisError(
                ErrorCode.TIMEOUT, f"the run took longer than its budget of {budget:g} s"
            ) from None

    async def _resume(self, claimed: ClaimedRun) -> _State:
        if claimed.run.claims > MAX_CLAIMS:
            raise TrellisError(
                ErrorCode.INTERNAL_ERROR, f"its worker stopped {MAX_CLAIMS} times before its end"
            )
        async with self._pool.connection() as conn:
            key = await keys.active_by_id(conn, claimed.run.key_id)
            done = await research.steps(conn, claimed.run.id, detail=True)
        if key is None:
            raise TrellisError(
                ErrorCode.FORBIDDEN, "the key that started the run was revoked or has expired"
            )
        request = from_json(AnswerRequest, claimed.request)
        state = _State(claimed, Principal.of(key), request, await self._first_search(request))
        for step in done:
            state.absorb(step)
        return state

    async def _first_search(self, request: AnswerRequest) -> SearchRequest:
        query = await self._answers.searched(request)
        reach = with_effort(replace(request, effort=Effort.HIGH)).search
        return replace(reach, query=query)

    async def _steps(self, state: _State) -> None:
        if state.number == 0:
            await self._plan(state)
        while state.rounds < self._settings.rounds and not state.exhausted:
            await self._round(state)
        await self._compose(state)

    async def _plan(self, state: _State) -> None:
        names, cues = await self._search.plan(state.principal.tenant, state.search)
        message = (
            f"Entities: {', '.join(names) or 'none known to the graph'}."
            f" Relation words: {', '.join(sorted(cues)) or 'none'}."
        )
        detail = {"query": state.search.query, "entities": names, "cues": sorted(cues)}
        planned = await self._subquestions(state)
        if planned is not None:
            state.subquestions = planned.kept
            message += _planned_message(planned)
            detail |= {"subquestions": planned.kept, "rejected": to_json(planned.rejected)}
        await self._step(state, StepKind.PLAN, message, detail)

    async def _subquestions(self, state: _State) -> planner.SubQuestions | None:
        """The run's LLM's sub-questions, verified; None when the run has no LLM."""
        model = state.request.model
        if model is None or model == EXTRACTIVE:
            return None
        question, left = state.request.query, _left(state.claimed)
        return await planner.plan(self._chat, state.principal, model, question, left)

    async def _round(self, state: _State) -> None:
        tenant = state.principal.tenant
        if state.rounds == 0:
            hits = await self._first_round(state)
            asked: list[str] = []
            searched = [state.search.query, *state.subquestions]
            message = f"Searched {', '.join(map(repr, searched))}: {_passages(len(hits))}."
        else:
            rounds = Rounds(state.search, list(state.read), set(state.asked))
            hits = await next_round(self._search, tenant, rounds)
            asked = sorted(rounds.asked - state.asked)
            message = _round_message(rounds.searched, len(hits))
        state.read += hits
        state.asked |= set(asked)
        state.rounds += 1
        state.exhausted = not hits
        brief = await self._draft(state) if hits else None
        detail = {"round": state.rounds, "asked": asked, "hits": to_json(hits)}
        await self._step(state, StepKind.ROUND, message, detail, brief)

    async def _first_round(self, state: _State) -> list[SearchHit]:
        """The question's search, then each sub-question's best passages not yet found."""
        tenant = state.principal.tenant
        hits = list((await self._search.search(tenant, state.search)).hits)
        known = {hit.chunk_id for hit in hits}
        for asked in state.subquestions:
            request = replace(state.search, query=asked, top_k=PASSAGES)
            for hit in (await self._search.search(tenant, request)).hits:
                if hit.chunk_id not in known:
                    known.add(hit.chunk_id)
                    hits.append(hit)
        return hits

    async def _draft(self, state: _State) -> Brief:
        """The extractive composer's brief from everything read so far; not charged."""
        reading = Reading(tuple(state.read), draft=True)
        drafted = replace(state.request, model=None, read=reading)
        return (await self._answered(state, drafted)).brief

    async def _answered(self, state: _State, request: AnswerRequest) -> Answer:
        """The answer to `request` within what is left of the run's budget: a draft or the
        answer reads every passage of the rounds, more than an answer asked directly."""
        return await self._answers.answer(state.principal, request, _left(state.claimed))

    async def _compose(self, state: _State) -> None:
        reading = replace(state.request, read=Reading(tuple(state.read)))
        answer = await self._answered(state, reading)
        short = answer.brief.short_answer
        message = f"Composed the answer from {_passages(len(state.read))}" + (
            f": {short}." if short else "."
        )
        step = _new_step(state, StepKind.COMPOSE, message, {}, None)
        async with self._pool.connection() as conn, conn.transaction():
            if not await research.add_step(conn, state.claimed, step):
                raise _Lost
            await research.finish(conn, state.claimed, Ending("DONE", answer=to_json(answer)))

    async def _step(
        self,
        state: _State,
        kind: StepKind,
        message: str,
        detail: dict[str, Any],
        brief: Brief | None = None,
    ) -> None:
        step = _new_step(state, kind, message, detail, brief)
        async with self._pool.connection() as conn:
            if not await research.add_step(conn, state.claimed, step):
                raise _Lost
        state.number = step.number

    async def _end(self, claimed: ClaimedRun, ending: Ending) -> None:
        async with self._pool.connection() as conn:
            await research.finish(conn, claimed, ending)


def _new_step(
    state: _State, kind: StepKind, message: str, detail: dict[str, Any], brief: Brief | None
) -> NewStep:
    drafted = None if brief is None else to_json(brief)
    return NewStep(state.number + 1, kind.value, message, len(state.read), detail, drafted)


def _planned_message(planned: planner.SubQuestions) -> str:
    kept = "; ".join(planned.kept) or "none"
    rejected = "; ".join(f"{r.question} ({r.reason})" for r in planned.rejected)
    return f" Sub-questions: {kept}." + (f" Not searched: {rejected}." if rejected else "")


def _round_message(asked: list[str], found: int) -> str:
    if not asked:
        return "No bridge left that was not searched: nothing more to read."
    return f"Searched the bridges {', '.join(asked)}: {_passages(found, 'new ')}."


def _passages(count: int, new: str = "") -> str:
    return f"{count} {new}passage" + ("" if count == 1 else "s")


def _left(claimed: ClaimedRun) -> float:
    """The run's budget left, counted from its first claim."""
    started = claimed.run.started_at or datetime.now(UTC)
    spent = (datetime.now(UTC) - started).total_seconds()
    return max(claimed.run.budget_seconds - spent, 0.0)
