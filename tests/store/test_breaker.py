"""The pool's circuit breaker: when the server cannot be reached, requests fail at once as
unavailable instead of each waiting out the pool's timeout, and the pool's reconnection
closes the breaker again. The outage is a relay in front of the real server, cut and
restored; one backend ending while the server is up opens nothing."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from app.localdb.stack import Stack
from store._breaker import PostgresUnreachable
from store.pool import Pool, breaker_open, open_pool

pytestmark = pytest.mark.integration


class _Relay:
    """A Unix socket forwarding to the server's; cut, it drops every connection and refuses
    new ones, as a stopped server does."""

    def __init__(self, url: str, folder: Path) -> None:
        params = conninfo_to_dict(url)
        port = params.get("port") or 5432
        self.target = f"{params['host']}/.s.PGSQL.{port}"
        self.path = folder / f".s.PGSQL.{port}"
        self.url = make_conninfo(url, host=str(folder))
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> None:
        self.server = await asyncio.start_unix_server(self._relay, path=str(self.path))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        self.path.unlink()
        for writer in self.writers:
            writer.close()
        self.writers.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_unix_connection(self.target)
        self.writers += [writer, upstream_writer]
        await asyncio.gather(
            _pipe(reader, upstream_writer), _pipe(upstream_reader, writer), return_exceptions=True
        )


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


async def _one(pool: Pool) -> int:
    async with pool.connection() as conn:
        row = await (await conn.execute("SELECT 1")).fetchone()
        return int(row[0]) if row else 0


async def _timed_failure(pool: Pool) -> tuple[BaseException, float]:
    started = time.monotonic()
    try:
        await _one(pool)
    except psycopg.Error as error:
        return error, time.monotonic() - started
    raise AssertionError("the server answered through a cut relay")


@dataclass
class _Outage:
    first: BaseException  # the request that found the server gone
    then: BaseException  # the request after it
    seconds: float  # how long the latter took to fail
    opened: bool
    closed: bool  # after the relay was restored
    answers: int


async def _outage(relay: _Relay) -> _Outage:
    await relay.start()
    pool = await open_pool(relay.url, 2, 3)
    try:
        assert await _one(pool) == 1
        await relay.cut()
        first, _ = await _timed_failure(pool)  # finds the server gone
        then, seconds = await _timed_failure(pool)
        opened = breaker_open(pool)
        await relay.start()
        for _ in range(100):  # the pool reconnects with its backoff: seconds
            await asyncio.sleep(0.2)
            with contextlib.suppress(psycopg.Error):
                if await _one(pool) == 1:
                    break
        closed = not breaker_open(pool)
        return _Outage(first, then, seconds, opened, closed, await _one(pool))
    finally:
        await pool.close()


@pytest.mark.usefixtures("base_url")
def test_an_outage_fails_requests_at_once_and_the_reconnection_closes_the_breaker(
    stack: Stack, tmp_path: Path
) -> None:
    found = asyncio.run(_outage(_Relay(stack.endpoints.postgres_url, tmp_path)))
    assert not isinstance(found.first, PostgresUnreachable)  # the pool's own failure
    assert isinstance(found.then, PostgresUnreachable) and "moments ago" in str(found.then)
    assert found.seconds < 0.5 and found.opened  # not the pool's 3 s timeout
    assert found.closed and found.answers == 1


@pytest.mark.usefixtures("base_url")
def test_one_backend_ending_opens_nothing(stack: Stack) -> None:
    async def run() -> tuple[int, bool]:
        pool = await open_pool(stack.endpoints.postgres_url, 1, 10)
        try:
            async with pool.connection() as conn:
                victim = conn.info.backend_pid
            async with await psycopg.AsyncConnection.connect(stack.endpoints.postgres_url) as a:
                await a.execute("SELECT pg_terminate_backend(%s)", [victim])
            await asyncio.sleep(0.5)  # the server closes the socket
            answer = await _one(pool)  # the check finds it closed: a probe finds the server
            return answer, breaker_open(pool)
        finally:
            await pool.close()

    assert asyncio.run(run()) == (1, False)
