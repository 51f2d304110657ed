"""`trellis serve` as a user runs it, in its own process, and clients that search it: what the
reliability benchmarks share."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from app.localdb.stack import Stack, free_port

SEARCH = "query($i: SearchInput!) { search(input: $i) { degraded hits { score } } }"
CREATE = "mutation($n: String!) { createCollection(name: $n) { id } }"
INGEST = (
    "mutation($c: String!, $docs: [DocumentInput!]!) {"
    " ingestDocuments(collection: $c, documents: $docs) { job { id } } }"
)


class Server:
    """`trellis serve` on a stack's databases, in a process group of its own, so that a
    benchmark can stop it, kill -9 it, and start it again on the same port. `tree`: another
    checkout's (with its own `make setup`) instead of this one's, for a baseline."""

    def __init__(self, stack: Stack, workers: int = 1, tree: Path | None = None) -> None:
        self.tree = tree
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {  # the server's; a checkout's command line run on its stack needs it too
            **os.environ,
            "TRELLIS_DATA_DIR": str(stack.data_dir),
            "NEO4J_BOLT_PORT": str(stack.settings.neo4j.local_bolt_port),
            "TRELLIS_PORT": str(self.port),
            "TRELLIS_WORKERS": str(workers),
            "TRELLIS_LOG_LEVEL": "WARNING",
        }
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def trellis(self) -> str:
        if self.tree is None:
            return str(Path(sys.executable).parent / "trellis")
        return str(self.tree / ".venv" / "bin" / "trellis")

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    def start(self) -> float:
        """Start and wait until ready; the seconds that took."""
        started = time.monotonic()
        self._process = subprocess.Popen(
            [self.trellis, "serve"], env=self.env, cwd=self.tree, start_new_session=True
        )
        _wait_ready(self.url, self._process)
        return time.monotonic() - started

    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def kill(self) -> None:
        """SIGKILL to the whole group: no handler runs, no connection is closed cleanly."""
        os.killpg(self.pid, signal.SIGKILL)
        assert self._process is not None
        self._process.wait(timeout=60)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(timeout=60)


@contextmanager
def served(stack: Stack, workers: int) -> Iterator[tuple[str, int]]:
    """A started server until the block ends: its URL and its process id (with one worker,
    the server itself)."""
    server = Server(stack, workers)
    try:
        server.start()
        yield server.url, server.pid
    finally:
        server.stop()


def _wait_ready(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the server exited before it was ready")
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server was not ready in 180 s")


@dataclass
class Tally:
    ms: list[float] = field(default_factory=list)  # admitted searches
    codes: Counter[str] = field(default_factory=Counter)
    degraded: int = 0
    # (monotonic time it ended, "ok", "degraded" or the error's code), for timelines
    events: list[tuple[float, str]] = field(default_factory=list)

    def count(self, outcome: str) -> None:
        self.codes[outcome] += 1
        self.events.append((time.monotonic(), outcome))


def client(url: str, key: str, connections: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    headers = {"X-API-Key": key}
    return httpx.AsyncClient(base_url=url, headers=headers, timeout=60, limits=limits)


@dataclass(frozen=True)
class Searches:
    """HYBRID searches (topK 5) of one collection, its questions taken in turn."""

    client: httpx.AsyncClient
    collection: str
    asked: list[str]

    async def loop(self, offset: int, until: float, tally: Tally) -> None:
        turn = offset
        while time.monotonic() < until:
            await self.one(self.asked[turn % len(self.asked)], tally)
            turn += 1

    async def one(self, question: str, tally: Tally) -> None:
        search = {"collections": [self.collection], "query": question, "topK": 5}
        payload = {"query": SEARCH, "variables": {"i": {**search, "mode": "HYBRID"}}}
        started = time.perf_counter()
        try:
            response = await self.client.post("/graphql", json=payload)
            body = response.json()
        except (httpx.HTTPError, ValueError) as error:
            tally.count(type(error).__name__)
            await asyncio.sleep(0.2)  # a refused connection returns at once
            return
        if body.get("errors"):
            extensions = body["errors"][0].get("extensions", {})
            tally.count(extensions.get("code", "?"))
            await asyncio.sleep(extensions.get("retryAfterSeconds", 0))  # as a client is asked
            return
        tally.ms.append((time.perf_counter() - started) * 1000)
        degraded = bool(body["data"]["search"]["degraded"])
        tally.degraded += degraded
        tally.count("degraded" if degraded else "ok")
