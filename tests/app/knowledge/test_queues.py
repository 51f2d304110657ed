"""The ingest queue and the graph outbox under real load: fair between tenants, bounded by
size, isolated from a bad document, and safe with several projectors at once.

No server runs on this stack, so only the workers a test starts touch the queues.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import pytest

from app.ingestion.worker import IngestWorker
from app.knowledge.projection import GraphProjector
from app.localdb.stack import Stack, free_port, local_stack, stack_services
from app.services import Services
from app.settings import PROJECT_ROOT
from app.tenancy.devkey import DEV_TENANT
from ingest.submission import DocumentSubmission
from retrieval.request import Mode, SearchRequest
from store.outbox import RetryPolicy
from store.tenants import Tenant, ensure_tenant
from tests.graph_helpers import counts, eventually, graphed
from tests.helpers import rows

pytestmark = pytest.mark.integration

PEOPLE = ["Dana Levi", "Omar Haddad", "Mei Tanaka", "Jonas Weber", "Priya Raman"]
COMPANIES = ["Acme Robotics", "Borealis Foods", "Cobalt Mining", "Delta Shipping"]
PLACES = ["Lisbon", "Denver", "Osaka", "Nairobi", "Oslo"]


@pytest.fixture(scope="module")
def quiet() -> Iterator[Stack]:
    with local_stack() as stack:
        yield stack


@dataclass
class Lab:
    stack: Stack
    services: Services

    async def tenant(self) -> Tenant:
        async with self.services.pool.connection() as conn:
            return await ensure_tenant(conn, f"t-{uuid.uuid4().hex[:8]}")

    async def collection(self, tenant: Tenant) -> str:
        name = f"c-{uuid.uuid4().hex[:8]}"
        await self.services.collections.create(tenant, name)
        return name

    async def submit(self, tenant: Tenant, collection: str, texts: list[str]) -> uuid.UUID:
        docs = [DocumentSubmission(external_id=f"d{i}", text=t) for i, t in enumerate(texts)]
        return await self.services.ingestion.submit_documents(tenant, collection, docs)

    def projector(self, retry: RetryPolicy | None = None) -> GraphProjector:
        graph = self.services.graph
        return GraphProjector(self.services.pool, graph, self.stack.settings.spacy_model, retry)


@asynccontextmanager
async def lab(stack: Stack) -> AsyncIterator[Lab]:
    async with stack_services(stack, 30) as services:
        yield Lab(stack, services)


def story(i: int) -> str:
    """Short passages that share people, companies and places, so projectors contend."""
    person, other = PEOPLE[i % 5], PEOPLE[(i + 2) % 5]
    company, place = COMPANIES[i % 4], PLACES[(i * 3) % 5]
    return (
        f"{person} joined {company} in {2000 + i}. {company} is headquartered in {place}. "
        f"{other} met {person} in {PLACES[(i + 1) % 5]} to discuss {COMPANIES[(i + 1) % 4]}."
    )


def statuses(stack: Stack, job: uuid.UUID) -> dict[str, int]:
    found = rows(
        stack, "SELECT status, count(*) FROM ingest_items WHERE job_id = %s GROUP BY 1", job
    )
    return {status: n for status, n in found}


def test_a_small_job_is_not_starved_by_a_large_one(quiet: Stack) -> None:
    async def run() -> None:
        async with lab(quiet) as lab_:
            big, small = await lab_.tenant(), await lab_.tenant()
            big_job = await lab_.submit(big, await lab_.collection(big), ["Filler text."] * 400)
            small_job = await lab_.submit(small, await lab_.collection(small), ["Hello."] * 5)
            result = await IngestWorker(lab_.services.pool, lab_.services.embedders).run_batch()
            assert result.items == 128
            assert statuses(quiet, small_job) == {"INDEXED": 5}
            assert statuses(quiet, big_job) == {"INDEXED": 123, "PENDING": 277}

    asyncio.run(run())


def test_a_cli_worker_takes_only_its_own_jobs(quiet: Stack) -> None:
    async def run() -> None:
        async with lab(quiet) as lab_:
            tenant = await lab_.tenant()
            name = await lab_.collection(tenant)
            other = await lab_.submit(tenant, name, ["Someone else's job."] * 3)
            mine = await lab_.submit(tenant, name, [f"My document {i}." for i in range(3)])
            worker = IngestWorker(lab_.services.pool, lab_.services.embedders)
            assert (await worker.run_batch([mine])).items == 3
            assert statuses(quiet, mine) == {"INDEXED": 3}
            assert statuses(quiet, other) == {"PENDING": 3}
            await worker.drain()

    asyncio.run(run())


def test_batches_are_bounded_by_bytes(quiet: Stack) -> None:
    async def run() -> None:
        async with lab(quiet) as lab_:
            tenant = await lab_.tenant()
            name = await lab_.collection(tenant)
            giant = "A long sentence about nothing in particular. " * 2000  # ~90 kB
            job = await lab_.submit(tenant, name, [giant, *["A small one."] * 20])
            worker = IngestWorker(lab_.services.pool, lab_.services.embedders, max_bytes=50_000)
            assert (await worker.run_batch()).items == 1  # the giant goes alone
            assert (await worker.run_batch()).items == 20  # the small ones, together
            assert statuses(quiet, job) == {"INDEXED": 21}

    asyncio.run(run())


def test_a_failing_document_is_parked_and_the_rest_are_graphed(quiet: Stack) -> None:
    """One tenant's document fails projection (a trigger refuses its mentions) between good
    ones; every other document, another tenant's included, becomes GRAPHED."""

    async def run() -> None:
        async with lab(quiet) as lab_:
            first, second = await lab_.tenant(), await lab_.tenant()
            jobs = [
                await lab_.submit(
                    first, await lab_.collection(first), [story(i) for i in range(5)]
                ),
                await lab_.submit(second, await lab_.collection(second), [story(7), story(8)]),
            ]
            await IngestWorker(lab_.services.pool, lab_.services.embedders).drain()
            bad = rows(
                quiet,
                "SELECT document_id FROM ingest_items WHERE job_id = %s AND ordinal = 2",
                jobs[0],
            )[0][0]
            owners = list(zip((first, second), jobs, strict=True))
            ids = [(await lab_.services.ingestion.job(t, j)).collection_id for t, j in owners]
            with refused_mentions(quiet, bad):
                retry = RetryPolicy(max_attempts=2, first_delay_seconds=0.0)
                await lab_.projector(retry).drain(ids)
            summaries = [
                await lab_.services.ingestion.job(t, j)
                for t, j in zip((first, second), jobs, strict=True)
            ]
            assert [(s.graphed, s.graph_failed) for s in summaries] == [(4, 1), (2, 0)]
            notes, status = rows(
                quiet, "SELECT graph_notes, status FROM documents WHERE id = %s", bad
            )[0]
            assert status == "INDEXED"
            assert notes[-1].startswith("graph projection failed after 2 attempts: RaiseException")
            parked = rows(
                quiet,
                "SELECT attempts, parked_at IS NOT NULL FROM graph_outbox"
                " WHERE payload->>'document_id' = %s",
                str(bad),
            )
            assert parked == [(2, True)]

    asyncio.run(run())


@contextmanager
def refused_mentions(stack: Stack, document_id: uuid.UUID) -> Iterator[None]:
    """Postgres refuses this document's mentions, as a real fault in its projection would."""
    name = f"refuse_{uuid.uuid4().hex[:8]}"
    rows_sql = [
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        f" IF NEW.document_id = '{document_id}' THEN RAISE EXCEPTION 'refused for the test';"
        " END IF; RETURN NEW; END $$",
        f"CREATE TRIGGER {name} BEFORE INSERT ON mentions FOR EACH ROW EXECUTE FUNCTION {name}()",
    ]
    with psycopg.connect(stack.endpoints.postgres_url, autocommit=True) as conn:
        for sql in rows_sql:
            conn.execute(sql)
        try:
            yield
        finally:
            conn.execute(f"DROP TRIGGER {name} ON mentions")
            conn.execute(f"DROP FUNCTION {name}()")


def test_two_projectors_at_once_build_the_graph_one_builds(quiet: Stack) -> None:
    async def run() -> tuple[str, str, str]:
        async with lab(quiet) as lab_:
            tenant = await lab_.tenant()
            names = [await lab_.collection(tenant) for _ in range(3)]
            for name in names:
                await lab_.submit(tenant, name, [story(i) for i in range(40)])
            await IngestWorker(lab_.services.pool, lab_.services.embedders).drain()
            ids = await collection_ids(lab_, tenant, names)
            await lab_.projector().drain([ids[0]])
            await asyncio.gather(lab_.projector().drain(ids[1:]), lab_.projector().drain(ids[1:]))
            return names[0], names[1], names[2]

    single, *pair = asyncio.run(run())
    assert counts(quiet, pair[0]) == counts(quiet, pair[1]) == counts(quiet, single)
    assert graphed(quiet, single) == graphed(quiet, pair[0]) == graphed(quiet, pair[1]) == 40


async def collection_ids(lab_: Lab, tenant: Tenant, names: list[str]) -> list[uuid.UUID]:
    return [(await lab_.services.collections.get(tenant, n)).id for n in names]


def test_search_says_how_much_of_the_scope_is_not_yet_graphed(quiet: Stack) -> None:
    async def run() -> list[int]:
        async with lab(quiet) as lab_:
            tenant = await lab_.tenant()
            name = await lab_.collection(tenant)
            await lab_.submit(tenant, name, [story(i) for i in range(6)])
            await IngestWorker(lab_.services.pool, lab_.services.embedders).drain()
            request = SearchRequest(collections=(name,), query="Acme Robotics", mode=Mode.GRAPH)
            pending = [(await lab_.services.search.search(tenant, request)).graph_pending]
            await lab_.projector().drain([(await lab_.services.collections.get(tenant, name)).id])
            pending.append((await lab_.services.search.search(tenant, request)).graph_pending)
            return pending

    assert asyncio.run(run()) == [6, 0]


def test_trellis_run_is_ready_at_once_and_the_demo_passes_a_backlog(quiet: Stack) -> None:
    """A large job of another tenant is queued; `trellis run` answers /readyz within seconds,
    and the demo it submits is indexed in the first batch, while the backlog still waits."""

    async def queue_backlog() -> list[uuid.UUID]:
        async with lab(quiet) as lab_:
            tenant = await lab_.tenant()
            name = await lab_.collection(tenant)
            filler = "Filler sentence here. " * 100
            batches = [[f"Backlog {b}-{i}. {filler}" for i in range(1000)] for b in range(3)]
            return [await lab_.submit(tenant, name, texts) for texts in batches]

    backlog = asyncio.run(queue_backlog())
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "trellis"), "run"],
        env={**os.environ, **quiet.env(), "TRELLIS_PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        started = time.monotonic()
        eventually(lambda: _ready(port), seconds=60)
        assert time.monotonic() - started < 30
        demo = (
            "SELECT count(*) FROM documents d JOIN collections c ON c.id = d.collection_id"
            " JOIN tenants t ON t.id = c.tenant_id WHERE c.name = 'demo' AND t.name = %s"
        )
        expected = len([p for p in (PROJECT_ROOT / "demo").rglob("*") if p.is_file()])
        eventually(lambda: rows(quiet, demo, DEV_TENANT) == [(expected,)], seconds=120)
        assert sum(statuses(quiet, job).get("PENDING", 0) for job in backlog) > 0
    finally:
        server.terminate()
        server.wait(60)


def _ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False
