"""The research queue (store/research.py, app/research/worker.py) on databases of its own,
with no server but the ones a test starts: claims never overlap, a stale claim writes
nothing, a run past its budget fails keeping its draft, and a server killed mid-run leaves
the run to the next server, which finishes it without repeating a step."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from app.answers.request import AnswerRequest
from app.localdb.stack import Stack, free_port, local_stack, make_key, stack_services
from app.research.runs import RunStatus
from app.tenancy.principal import Principal
from retrieval.request import SearchRequest
from store import keys, research
from store.research import Ending, NewRun, NewStep
from tests.clubs import QUESTION, club_documents
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration

TENANT = "researchers"
MODELS = ["extractive"]
LEASE = "2"


@pytest.fixture(scope="module")
def quiet_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """No server unless a test starts one: the tests work the queue themselves."""
    with local_stack(TRELLIS_RESEARCH_LEASE_SECONDS=LEASE) as stack:
        source = tmp_path_factory.mktemp("clubs") / "clubs.jsonl"
        lines = [json.dumps({"id": d["externalId"], **d}) for d in club_documents()]
        source.write_text("\n".join(lines) + "\n")
        ingest = trellis(stack, "ingest", str(source), "--collection", "clubs", "--create",
                         "--tenant", TENANT)  # fmt: skip
        assert ingest.wait(300) == 0, ingest.stderr.read() if ingest.stderr else ""
        yield stack


@pytest.fixture(scope="module")
def secret(quiet_stack: Stack) -> str:
    return make_key(quiet_stack, TENANT)


def trellis(stack: Stack, *args: str, **env: str) -> subprocess.Popen[bytes]:
    command = [str(Path(sys.executable).parent / "trellis"), *args]
    return subprocess.Popen(
        command,
        env={**os.environ, **stack.env(), "TRELLIS_RESEARCH_LEASE_SECONDS": LEASE, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_two_workers_never_claim_one_run(quiet_stack: Stack, secret: str) -> None:
    run_id = _queued(quiet_stack, secret)
    claimed = asyncio.run(_claim_twice(quiet_stack))
    assert [c.run.id for c in claimed] == [run_id]
    _cancel(quiet_stack, run_id)


def test_a_stale_claim_writes_nothing(quiet_stack: Stack, secret: str) -> None:
    run_id = _queued(quiet_stack, secret)
    asyncio.run(_stale_claim(quiet_stack, run_id))
    assert rows(quiet_stack, "SELECT number, message FROM research_steps WHERE run_id = %s",
                run_id) == [(1, "second")]  # fmt: skip
    assert rows(quiet_stack, "SELECT status, claims FROM research_runs WHERE id = %s",
                run_id) == [("DONE", 2)]  # fmt: skip


def test_a_run_past_its_budget_fails_and_keeps_its_draft(quiet_stack: Stack, secret: str) -> None:
    done = asyncio.run(_work(quiet_stack, secret))
    assert done.status is RunStatus.DONE
    late = _late_copy(quiet_stack, done.id)
    failed = asyncio.run(_work(quiet_stack, secret, late))
    assert failed.status is RunStatus.FAILED
    assert failed.reason == "TIMEOUT: the run took longer than its budget of 5 s"
    assert failed.brief is not None and failed.answer is None
    assert [s.kind.value for s in failed.steps] == ["PLAN", "ROUND"]  # none taken after


def test_a_run_survives_a_killed_server(quiet_stack: Stack, secret: str) -> None:
    """The first server is killed in its first round (a lock holds the round's reads), after
    its plan step; the second takes the run over once the lease lapses and finishes it."""
    first = _serve(quiet_stack)
    try:
        with psycopg.connect(quiet_stack.endpoints.postgres_url) as lock:
            lock.execute("LOCK TABLE chunks IN ACCESS EXCLUSIVE MODE")
            run_id = _start(first.url, secret)
            _wait_for(lambda: _numbers(quiet_stack, run_id) == [1], "the plan step")
            time.sleep(0.5)  # in its first round, waiting on the lock
            first.process.send_signal(signal.SIGKILL)
            first.process.wait(30)
            lock.rollback()
    finally:
        first.stop()
    assert _numbers(quiet_stack, run_id) == [1]
    second = _serve(quiet_stack)
    try:
        run = _finished(second.url, secret, run_id)
    finally:
        second.stop()
    assert run["status"] == "DONE", run
    steps = [s["number"] for s in run["steps"]]
    assert steps == list(range(1, len(steps) + 1)) and len(steps) >= 4
    assert [s["kind"] for s in run["steps"]].count("PLAN") == 1
    assert rows(quiet_stack, "SELECT claims FROM research_runs WHERE id = %s", run_id) == [(2,)]
    assert len(run["answer"]["sources"]) == run["passagesRead"] > 0


def test_a_run_cancelled_mid_way_takes_no_further_step(quiet_stack: Stack, secret: str) -> None:
    """Cancelled while its first round waits on a lock, after its plan step: the round's
    work is stopped, and nothing it read is written."""
    server = _serve(quiet_stack)
    try:
        with psycopg.connect(quiet_stack.endpoints.postgres_url) as lock:
            lock.execute("LOCK TABLE chunks IN ACCESS EXCLUSIVE MODE")
            run_id = _start(server.url, secret)
            _wait_for(lambda: _numbers(quiet_stack, run_id) == [1], "the plan step")
            cancelled = _cancel_through(server.url, secret, run_id)
            lock.rollback()
        time.sleep(2)  # time enough for a round the cancel had not stopped
        run = _finished(server.url, secret, run_id)
    finally:
        server.stop()
    assert cancelled == "CANCELLED" and run["status"] == "CANCELLED"
    assert _numbers(quiet_stack, run_id) == [1] and run["answer"] is None


# -- helpers ---------------------------------------------------------------------------------


def _queued(stack: Stack, secret: str) -> uuid.UUID:
    async def insert() -> uuid.UUID:
        async with await psycopg.AsyncConnection.connect(
            stack.endpoints.postgres_url, autocommit=True
        ) as conn:
            key = await keys.active(conn, secret)
            assert key is not None
            run = NewRun(uuid.uuid4(), key.tenant_id, key.id, "q", {}, "extractive", 600.0)
            return (await research.insert(conn, run)).id

    return asyncio.run(insert())


def _cancel(stack: Stack, run_id: uuid.UUID) -> None:
    rows(stack, "UPDATE research_runs SET status = 'CANCELLED' WHERE id = %s RETURNING id", run_id)


async def _claim_twice(stack: Stack) -> list[research.ClaimedRun]:
    url = stack.endpoints.postgres_url
    one = await psycopg.AsyncConnection.connect(url)
    two = await psycopg.AsyncConnection.connect(url)
    try:
        first = await research.claim(one, 30, 5, MODELS)  # its transaction stays open
        second = await research.claim(two, 30, 5, MODELS)  # skips the runs it locked
        await one.commit()
        await two.commit()
        return [*first, *second]
    finally:
        await one.close()
        await two.close()


async def _stale_claim(stack: Stack, run_id: uuid.UUID) -> None:
    async with await psycopg.AsyncConnection.connect(
        stack.endpoints.postgres_url, autocommit=True
    ) as conn:
        assert await research.claim(conn, 30, 5, ["another model"]) == []
        [old] = await research.claim(conn, 30, 5, MODELS)
        lapse = "UPDATE research_runs SET lease_until = now() - interval '1 s' WHERE id = %s"
        await conn.execute(lapse, (run_id,))
        [new] = await research.claim(conn, 30, 5, MODELS)  # the lease lapsed: taken over
        assert new.run.id == old.run.id == run_id and new.token != old.token
        step = NewStep(1, "PLAN", "first", 0, {}, None)
        assert not await research.add_step(conn, old, step)
        assert await research.add_step(conn, new, NewStep(1, "PLAN", "second", 0, {}, None))
        assert not await research.add_step(conn, new, step)  # its number is taken
        assert not await research.finish(conn, old, Ending("DONE"))
        assert not await research.renew(conn, old, 30)
        assert await research.finish(conn, new, Ending("DONE"))


async def _work(stack: Stack, secret: str, run_id: uuid.UUID | None = None) -> Any:
    """Start a run (or take the one given) and work the queue in this process until it ends."""
    async with stack_services(stack) as services:
        async with services.pool.connection() as conn:
            key = await keys.active(conn, secret)
        assert key is not None
        principal = Principal.of(key)
        if run_id is None:
            request = AnswerRequest(SearchRequest(("clubs",), QUESTION, top_k=1))
            run_id = (await services.research.start(principal, request)).id
        while not (run := await services.research.run(principal, str(run_id))).status.ended:
            await asyncio.gather(*await services.research_worker.claim_some())
        return run


def _late_copy(stack: Stack, done: uuid.UUID) -> uuid.UUID:
    """A copy of a run that had planned and read one round, started longer ago than its
    budget: as if its worker had died then, long before."""
    copy = uuid.uuid4()
    rows(
        stack,
        "INSERT INTO research_runs (id, tenant_id, key_id, query, request, budget_seconds,"
        " status, started_at, claims, model) SELECT %s, tenant_id, key_id, query, request, 5,"
        " 'QUEUED', now() - interval '1 minute', 1, model FROM research_runs WHERE id = %s"
        " RETURNING id",
        copy,
        done,
    )
    rows(
        stack,
        "INSERT INTO research_steps (run_id, number, kind, message, passages_read, detail,"
        " brief) SELECT %s, number, kind, message, passages_read, detail, brief"
        " FROM research_steps WHERE run_id = %s AND number <= 2 RETURNING number",
        copy,
        done,
    )
    return copy


class _Server:
    def __init__(self, stack: Stack) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.process = trellis(stack, "serve", TRELLIS_PORT=str(port))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(60)


def _serve(stack: Stack) -> _Server:
    server = _Server(stack)
    _wait_for(lambda: _answers(server), "the server to start", 180)
    return server


def _answers(server: _Server) -> bool:
    assert server.process.poll() is None, (
        server.process.stderr.read() if server.process.stderr else ""
    )
    try:
        return httpx.get(server.url + "/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _start(url: str, secret: str) -> str:
    with httpx.Client(base_url=url, timeout=30) as http:
        gql = GraphQLClient(http, secret)
        started = gql.data(
            "mutation($i: ResearchInput!) { startResearch(input: $i) { id } }",
            i={"collections": ["clubs"], "query": QUESTION, "topK": 1},
        )
    run_id: str = started["startResearch"]["id"]
    return run_id


def _cancel_through(url: str, secret: str, run_id: str) -> str:
    with httpx.Client(base_url=url, timeout=30) as http:
        gql = GraphQLClient(http, secret)
        query = "mutation($id: ID!) { cancelResearch(id: $id) { status } }"
        status: str = gql.data(query, id=run_id)["cancelResearch"]["status"]
    return status


def _finished(url: str, secret: str, run_id: str) -> dict[str, Any]:
    query = """query($id: ID!) { researchRun(id: $id) { status passagesRead
      steps { number kind } answer { sources { ref } } } }"""
    with httpx.Client(base_url=url, timeout=30) as http:
        gql = GraphQLClient(http, secret)
        deadline = time.monotonic() + 120
        while True:
            run: dict[str, Any] = gql.data(query, id=run_id)["researchRun"]
            if run["status"] not in ("QUEUED", "RUNNING") or time.monotonic() > deadline:
                return run
            time.sleep(0.2)


def _numbers(stack: Stack, run_id: str) -> list[int]:
    found = rows(stack, "SELECT number FROM research_steps WHERE run_id = %s ORDER BY 1", run_id)
    return [r[0] for r in found]


def _wait_for(condition: Any, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        time.sleep(0.05)
