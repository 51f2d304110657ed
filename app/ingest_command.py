"""`trellis ingest`: index files, folders and .jsonl into a collection, with a progress bar."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

from tqdm import tqdm

from app.devkey import DEV_TENANT
from app.endpoints import resolve_endpoints
from app.errors import ErrorCode, SettingsError, TrellisError
from app.ingestion import MAX_BATCH
from app.services import Services, open_services
from app.settings import Settings
from ingest.sources import Collected, MissingPath, collect
from store.tenants import Tenant, ensure_tenant


@dataclass(frozen=True)
class IngestRequest:
    paths: list[Path]
    collection: str
    tenant: str = DEV_TENANT
    create: bool = False
    graph: bool = True


async def run_ingest(settings: Settings, request: IngestRequest) -> list[str]:
    """Index everything under the paths; returns one line per document that failed."""
    try:
        found = collect(request.paths)
    except MissingPath as error:
        raise SettingsError(str(error)) from None
    if found.skipped:
        print(f"skipped {found.skipped} file(s) of unsupported types", file=sys.stderr)
    services = await open_services(settings, resolve_endpoints(settings))
    try:
        tenant = await _tenant(services, request.tenant)
        await _collection(services, tenant, request)
        job_ids = await _submit(services, tenant, request.collection, found)
        await _index_with_progress(services, tenant, job_ids, len(found.submissions))
        if request.graph:
            await _project(services)
        return [f"{where}: {why}" for where, why in found.problems] + await _failures(
            services, tenant, job_ids
        )
    finally:
        await services.close()


async def _project(services: Services) -> None:
    """Build the graph now; when Neo4j fails, the outbox keeps the work for a later sync."""
    try:
        await services.projector.drain()
    except Exception as error:
        print(
            f"graph deferred ({type(error).__name__}); run `trellis graph sync` later",
            file=sys.stderr,
        )


async def _tenant(services: Services, name: str) -> Tenant:
    async with services.pool.connection() as conn:
        return await ensure_tenant(conn, name)


async def _collection(services: Services, tenant: Tenant, request: IngestRequest) -> None:
    try:
        await services.collections.get(tenant, request.collection)
    except TrellisError as error:
        if error.code != ErrorCode.NOT_FOUND or not request.create:
            raise
        await services.collections.create(tenant, request.collection)


async def _submit(
    services: Services, tenant: Tenant, collection: str, found: Collected
) -> list[UUID]:
    batches = [
        found.submissions[i : i + MAX_BATCH] for i in range(0, len(found.submissions), MAX_BATCH)
    ]
    return [
        await services.ingestion.submit_documents(tenant, collection, batch) for batch in batches
    ]


async def _index_with_progress(
    services: Services, tenant: Tenant, job_ids: list[UUID], total: int
) -> None:
    bar = tqdm(
        total=total,
        unit="doc",
        file=sys.stderr,
        dynamic_ncols=True,
        bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]",
    )
    started = time.monotonic()
    try:
        while True:
            done = await _done(services, tenant, job_ids)
            bar.update(done - bar.n)
            if done >= total or not (await services.worker.run_batch()).items:
                break
    finally:
        bar.close()
    elapsed = time.monotonic() - started
    rate = total / elapsed if elapsed > 0 else 0.0
    print(f"processed {total} document(s) in {elapsed:.1f}s ({rate:.1f}/s)", file=sys.stderr)


async def _done(services: Services, tenant: Tenant, job_ids: list[UUID]) -> int:
    summaries = [await services.ingestion.job(tenant, job) for job in job_ids]
    return sum(s.total - s.pending for s in summaries)


async def _failures(services: Services, tenant: Tenant, job_ids: list[UUID]) -> list[str]:
    lines = []
    for job in job_ids:
        for outcome in await services.ingestion.outcomes(tenant, job):
            if outcome.status == "FAILED":
                lines.append(
                    f"{outcome.external_id}: {outcome.error_code}: {outcome.error_message}"
                )
    return lines
