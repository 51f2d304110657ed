"""A throwaway local stack: a real Neo4j and PostgreSQL in a folder of their own, for the
tests and the benchmarks."""

from __future__ import annotations

import asyncio
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from app.localdb.endpoints import Endpoints
from app.localdb.neo4j import LocalNeo4j
from app.localdb.postgres import LocalPostgres
from app.services import Services, assemble
from app.settings import PROJECT_ROOT, Settings
from app.tenancy.keys import ApiKeys, KeyRequest
from graph.constraints import ensure_constraints
from graph.driver import open_graph
from store.migrations import migrate
from store.pool import open_pool

# Inside the checkout so `python -m tests.cleanup` can find stacks a killed run left behind.
STACKS_ROOT = PROJECT_ROOT / ".data" / "test"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Stack:
    data_dir: Path
    settings: Settings
    endpoints: Endpoints
    neo4j: LocalNeo4j
    postgres: LocalPostgres

    def env(self) -> dict[str, str]:
        return {
            "TRELLIS_DATA_DIR": str(self.data_dir),
            "NEO4J_BOLT_PORT": str(self.settings.neo4j.local_bolt_port),
        }

    def with_env(self, **extra: str) -> Stack:
        """The same databases, with settings read from the stack's environment and `extra`
        (an LLM to serve with, a budget to test)."""
        return replace(self, settings=Settings.from_env({**self.env(), **extra}))


@contextmanager
def local_stack(keep_in: Path | None = None, **extra_env: str) -> Iterator[Stack]:
    """Start a fresh Neo4j and PostgreSQL in a temporary folder; stop and delete them after.
    With `keep_in`, the databases live in that folder and stay there for the next run."""
    STACKS_ROOT.mkdir(parents=True, exist_ok=True)
    data_dir = keep_in or Path(tempfile.mkdtemp(prefix="stack-", dir=STACKS_ROOT))
    data_dir.mkdir(parents=True, exist_ok=True)
    env = {"TRELLIS_DATA_DIR": str(data_dir), "NEO4J_BOLT_PORT": str(free_port()), **extra_env}
    settings = Settings.from_env(env)
    neo4j = LocalNeo4j(data_dir / "neo4j", settings.neo4j.local_bolt_port)
    postgres = LocalPostgres(data_dir / "pg")
    try:
        url = postgres.start()
        neo4j.start()
        yield Stack(data_dir, settings, Endpoints(url, neo4j.uri), neo4j, postgres)
    finally:
        neo4j.stop()
        postgres.stop()
        if keep_in is None:
            shutil.rmtree(data_dir, ignore_errors=True)


def make_key(stack: Stack, tenant: str, request: KeyRequest | None = None) -> str:
    """Mint an API key on the stack's database, as `trellis keys create` does; by default
    with every scope."""

    async def mint() -> str:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            created = await ApiKeys(pool).create_for_name(tenant, request or KeyRequest())
        finally:
            await pool.close()
        return created.secret

    return asyncio.run(mint())


@asynccontextmanager
async def stack_services(stack: Stack, timeout: float = 60) -> AsyncIterator[Services]:
    """The services on a stack's databases, without the server's background loops: a
    benchmark or a test drives the queues itself."""
    await migrate(stack.endpoints.postgres_url)
    pool = await open_pool(stack.endpoints.postgres_url, 8, timeout)
    graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", timeout)
    services = assemble(stack.settings, pool, graph)
    try:
        await ensure_constraints(graph)
        yield services
    finally:
        await services.close()
