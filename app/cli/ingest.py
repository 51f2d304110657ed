"""`trellis ingest`: index files, folders and .jsonl into a collection, with honest progress.

Files are read and submitted in bounded batches, then this process indexes its own jobs'
items (a running server may help; it never waits behind other jobs), then projects the
collection's graph beside any server doing the same. Progress counts megabytes, so the
estimate holds when one document is far larger than the rest.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from uuid import UUID

from app.cli._progress import Progress
from app.errors import ErrorCode, SettingsError, TrellisError
from app.ingestion.submit import MAX_BATCH
from app.localdb.endpoints import resolve_endpoints
from app.services import Services, open_services
from app.settings import Settings
from app.tenancy.devkey import DEV_TENANT
from ingest.sources import Collected, MissingPath, Skipped, collect, read
from ingest.submission import DocumentSubmission
from store.jobs import JobSummary
from store.tenants import Tenant, ensure_tenant

SUBMIT_BYTES = 64 * 1024 * 1024  # raw content per submitted job
POLL_SECONDS = 0.5


@dataclass(frozen=True)
class IngestRequest:
    paths: list[Path]
    collection: str
    tenant: str = DEV_TENANT
    create: bool = False
    graph: bool = True
    access_scopes: tuple[str, ...] = ()  # carried by every document that names none itself


@dataclass
class _Run:
    services: Services
    tenant: Tenant
    collection: str
    collection_id: UUID
    skipped: Counter[str]
    jobs: list[UUID]
    access_scopes: tuple[str, ...] = ()


async def run_ingest(settings: Settings, request: IngestRequest) -> list[str]:
    """Index everything under the paths; returns one line per document that failed."""
    found = _collect(request.paths)
    services = await open_services(settings, resolve_endpoints(settings))
    try:
        run = await _start(services, request, found)
        await _submit_all(run, found, settings.max_document_bytes)
        alongside = await _index(run, request.graph)
        if alongside is not None:
            await _project(run, alongside)
        _summarise(run, await _summaries(run))
        return [f"{where}: {why}" for where, why in found.problems] + await _failures(run)
    finally:
        await services.close()


async def submit_paths(settings: Settings, request: IngestRequest) -> int:
    """Queue everything under the paths for a server to index; returns documents queued."""
    found = _collect(request.paths)
    services = await open_services(settings, resolve_endpoints(settings))
    try:
        run = await _start(services, request, found)
        await _submit_all(run, found, settings.max_document_bytes)
        return sum(s.total for s in await _summaries(run))
    finally:
        await services.close()


def _collect(paths: list[Path]) -> Collected:
    try:
        return collect(paths)
    except MissingPath as error:
        raise SettingsError(str(error)) from None


async def _start(services: Services, request: IngestRequest, found: Collected) -> _Run:
    async with services.pool.connection() as conn:
        tenant = await ensure_tenant(conn, request.tenant)
    collection_id = await _collection(services, tenant, request)
    skipped = Counter(found.skipped)
    scopes = request.access_scopes
    return _Run(services, tenant, request.collection, collection_id, skipped, [], scopes)


async def _collection(services: Services, tenant: Tenant, request: IngestRequest) -> UUID:
    try:
        return (await services.collections.get(tenant, request.collection)).id
    except TrellisError as error:
        if error.code != ErrorCode.NOT_FOUND or not request.create:
            raise
        return (await services.collections.create(tenant, request.collection)).id


async def _submit_all(run: _Run, found: Collected, max_bytes: int) -> None:
    ingestion = run.services.ingestion
    for batch in _batches(found, max_bytes, run.skipped):
        scoped = [_with_scopes(s, run.access_scopes) for s in batch]
        run.jobs.append(await ingestion.submit_documents(run.tenant, run.collection, scoped))


def _with_scopes(submission: DocumentSubmission, scopes: tuple[str, ...]) -> DocumentSubmission:
    if not scopes or submission.access_scopes is not None:
        return submission
    return replace(submission, access_scopes=list(scopes))


def _batches(
    found: Collected, max_bytes: int, skipped: Counter[str]
) -> Iterator[list[DocumentSubmission]]:
    """Submissions read lazily, at most MAX_BATCH and about SUBMIT_BYTES per batch."""
    batch: list[DocumentSubmission] = []
    size = 0
    for submission in _submissions(found, max_bytes, skipped):
        length = len(submission.data or submission.text or "")
        if batch and (len(batch) >= MAX_BATCH or size + length > SUBMIT_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(submission)
        size += length
    if batch:
        yield batch


def _submissions(
    found: Collected, max_bytes: int, skipped: Counter[str]
) -> Iterator[DocumentSubmission]:
    yield from found.lines
    for source in found.files:
        try:
            yield read(source, max_bytes)
        except Skipped as skip:
            skipped[skip.reason] += 1


async def _index(run: _Run, graph: bool) -> asyncio.Task[None] | None:
    """Index this run's items; progress in megabytes, documents and chunks. With `graph`,
    the collection's graph is projected alongside, as a server does (spaCy and the embedder
    share the cores); the projecting task is returned to be finished."""
    summaries = await _summaries(run)
    progress = Progress("indexed", sum(s.bytes for s in summaries), unit="B")
    started = time.monotonic()
    worker = asyncio.create_task(_work(run))
    alongside = asyncio.create_task(_project_alongside(run, worker)) if graph else None
    try:
        while not worker.done():
            progress.show(_indexed(await _summaries(run)))
            await asyncio.wait({worker}, timeout=POLL_SECONDS)
        await worker
        summaries = await _summaries(run)
        progress.show(_indexed(summaries))
    finally:
        progress.close()
    documents = sum(s.total for s in summaries)
    elapsed = time.monotonic() - started
    rate = documents / elapsed if elapsed > 0 else 0.0
    print(f"processed {documents} document(s) in {elapsed:.1f}s ({rate:.1f}/s)", file=sys.stderr)
    return alongside


async def _project_alongside(run: _Run, indexing: asyncio.Task[None]) -> None:
    while not indexing.done():
        if not await run.services.projector.drain([run.collection_id]):
            await asyncio.wait({indexing}, timeout=POLL_SECONDS)


async def _work(run: _Run) -> None:
    """This run's items, batch by batch, until none is pending (a server may take some)."""
    while any(s.pending for s in await _summaries(run)):
        if not (await run.services.worker.run_batch(run.jobs)).items:
            await asyncio.sleep(POLL_SECONDS)


def _indexed(summaries: list[JobSummary]) -> tuple[int, str]:
    done = sum(s.total - s.pending for s in summaries)
    total = sum(s.total for s in summaries)
    chunks = sum(s.chunks for s in summaries)
    graphed = sum(s.graphed for s in summaries)
    note = f"{done}/{total} docs, {chunks} chunks, {graphed} graphed"
    return sum(s.bytes_done for s in summaries), note


async def _project(run: _Run, alongside: asyncio.Task[None]) -> None:
    """Finish the collection's graph beside any other projector; when Neo4j is down, the
    outbox keeps the work for a server or a later `trellis graph sync`."""
    total = _documents(await _summaries(run))
    progress = Progress("graphed", total, unit="doc")
    try:
        await alongside
        while (ended := _graph_ended(await _summaries(run))) < total:
            progress.show((ended, ""))
            if not await run.services.projector.drain([run.collection_id]):
                await asyncio.sleep(POLL_SECONDS)  # another projector has it, or a retry is due
        progress.show((total, ""))
    except Exception as error:
        print(
            f"graph deferred ({type(error).__name__}); run `trellis graph sync` later",
            file=sys.stderr,
        )
    finally:
        progress.close()


def _documents(summaries: list[JobSummary]) -> int:
    return sum(s.indexed + s.unchanged for s in summaries)


def _graph_ended(summaries: list[JobSummary]) -> int:
    return sum(s.graphed + s.graph_failed for s in summaries)


def _summarise(run: _Run, summaries: list[JobSummary]) -> None:
    counts = {
        "indexed": sum(s.indexed for s in summaries),
        "unchanged": sum(s.unchanged for s in summaries),
        "failed": sum(s.failed for s in summaries),
        "graphed": sum(s.graphed for s in summaries),
        "graph failed": sum(s.graph_failed for s in summaries),
    }
    print(", ".join(f"{name} {n}" for name, n in counts.items()), file=sys.stderr)
    if run.skipped:
        ordered = sorted(run.skipped.items(), key=lambda item: (-item[1], item[0]))
        reasons = ", ".join(f"{reason} {n}" for reason, n in ordered)
        print(f"skipped {run.skipped.total()} file(s): {reasons}", file=sys.stderr)


async def _summaries(run: _Run) -> list[JobSummary]:
    return [await run.services.ingestion.job(run.tenant, job) for job in run.jobs]


async def _failures(run: _Run) -> list[str]:
    lines = []
    for job in run.jobs:
        for outcome in await run.services.ingestion.outcomes(run.tenant, job):
            if outcome.status == "FAILED":
                lines.append(
                    f"{outcome.external_id}: {outcome.error_code}: {outcome.error_message}"
                )
            elif outcome.graph_failed:
                note = (outcome.graph_notes or ["graph projection failed"])[-1]
                lines.append(f"{outcome.external_id}: GRAPH_FAILED: {note}")
    return lines
