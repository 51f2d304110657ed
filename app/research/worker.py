"""The research worker: claims runs and carries each to its end, renewing its lease.

Runs are claimed with FOR UPDATE SKIP LOCKED (store/research.py), so any number of processes
share the queue; each claims only the runs whose model it can run. A worker renews each run's
lease while it works on it; a process killed mid-run stops renewing, and the next worker to
look takes the run over once the lease has lapsed, after its last step. A worker that stops
cleanly gives its runs back at once. A cancelled run is stopped here at once when this
process runs it, and by its next step's write (or lease renewal) when another does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from uuid import UUID

from app.backend_errors import log_pass_failure
from app.research.researcher import Researcher
from app.settings import ResearchSettings
from store import research
from store.pool import Pool
from store.research import ClaimedRun

log = logging.getLogger(__name__)


class ResearchWorker:
    def __init__(
        self, pool: Pool, researcher: Researcher, settings: ResearchSettings, models: list[str]
    ) -> None:
        self._pool = pool
        self._researcher = researcher
        self._settings = settings
        self._models = models  # the runs it claims: processes may have different LLMs
        self._held: dict[UUID, tuple[ClaimedRun, asyncio.Task[None]]] = {}
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    def stop_local(self, run_id: UUID) -> None:
        """Stop the run now if this process runs it (it was cancelled)."""
        held = self._held.pop(run_id, None)
        if held is not None:
            held[1].cancel()

    async def run_forever(self, idle_seconds: float = 1.0) -> None:
        try:
            while True:
                try:
                    await self.claim_some()
                except Exception as error:
                    log_pass_failure(log, "research", error)
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), idle_seconds)
        finally:
            await self._give_back()

    async def claim_some(self) -> list[asyncio.Task[None]]:
        """Claim what this process has room for and start each run; their tasks."""
        room = self._settings.concurrency - len(self._held)
        if room <= 0:
            return []
        async with self._pool.connection() as conn:
            claimed = await research.claim(conn, self._settings.lease_seconds, room, self._models)
        return [self._start(c) for c in claimed]

    def _start(self, claimed: ClaimedRun) -> asyncio.Task[None]:
        task = asyncio.create_task(self._hold(claimed))
        self._held[claimed.run.id] = (claimed, task)
        return task

    async def _hold(self, claimed: ClaimedRun) -> None:
        renewing = asyncio.create_task(self._renew(claimed))
        try:
            await self._researcher.run(claimed)
        except Exception as error:  # left RUNNING: taken up again once the lease lapses
            log_pass_failure(log, f"research run {claimed.run.id}", error)
        finally:
            renewing.cancel()
            self._release(claimed)

    def _release(self, claimed: ClaimedRun) -> None:
        """Free the claim's place, unless it was freed already (stopped) and the run claimed
        again since, by this process."""
        held = self._held.get(claimed.run.id)
        if held is not None and held[0] is claimed:
            del self._held[claimed.run.id]
            self.wake()

    async def _renew(self, claimed: ClaimedRun) -> None:
        lease = self._settings.lease_seconds
        while True:
            await asyncio.sleep(lease / 3)
            try:
                async with self._pool.connection() as conn:
                    ours = await research.renew(conn, claimed, lease)
            except Exception as error:
                log_pass_failure(log, "research lease", error)
                continue
            if not ours:
                self.stop_local(claimed.run.id)
                return

    async def _give_back(self) -> None:
        """Stop the runs this process holds and return them to the queue."""
        held = list(self._held.values())
        self._held.clear()
        for _, task in held:
            task.cancel()
        await asyncio.gather(*(task for _, task in held), return_exceptions=True)
        for claimed, _ in held:
            with contextlib.suppress(Exception):
                async with self._pool.connection() as conn:
                    await research.release(conn, claimed)
