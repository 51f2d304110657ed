"""Copies built in the background (app/search/_built.py): current only at their version, one
build at a time per key, rebuilt after a pause that grows with the last build's time, and
bounded in size."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass

import pytest

from app.search import _built
from app.search._built import BuiltCopies, Key
from app.settings import CopySettings
from store.bm25 import Stats
from store.scope import Scope

SCOPE = Scope(uuid.uuid4(), uuid.uuid4())
KEY: Key = (SCOPE.tenant_id, SCOPE.collection_id)
LIMITS = CopySettings(min_chunks=0, most=10)


@dataclass(frozen=True)
class Copy:
    version: int
    size: int


class Source:
    """What the copies are built from: a version that moves, and a clock the test sets."""

    def __init__(self, size: int = 1) -> None:
        self.version = 1
        self.size = size
        self.builds = 0
        self.now = 0.0

    async def build(self, key: Key) -> Copy:
        self.builds += 1
        self.now += 1.0  # each build takes a second
        return Copy(self.version, self.size)


def at(version: int) -> Stats:
    """The collection's statistics at `version`."""
    return Stats(version, 1, 1.0)


def copies_of(source: Source) -> BuiltCopies[Copy]:
    return BuiltCopies("test copy", source.build, lambda stats: stats.version, LIMITS)


@pytest.fixture
def source(monkeypatch: pytest.MonkeyPatch) -> Source:
    made = Source()
    monkeypatch.setattr(_built, "_now", lambda: made.now)
    return made


def test_a_copy_is_used_only_at_its_version(source: Source) -> None:
    async def run() -> None:
        copies = copies_of(source)
        assert copies.current(SCOPE, at(1)) is None and copies.current(SCOPE, at(1)) is None
        await copies.settle()
        assert source.builds == 1  # one build at a time per key
        assert copies.current(SCOPE, at(1)) == Copy(1, 1)
        assert copies.current(SCOPE, at(2)) is None

    asyncio.run(run())


def test_a_changing_collection_is_rebuilt_after_a_pause(source: Source) -> None:
    async def run() -> None:
        copies = copies_of(source)
        copies.current(SCOPE, at(1))
        await copies.settle()
        source.version = 2
        source.now += _built.REBUILD_PAUSE - 0.5  # the last build took a second
        assert copies.current(SCOPE, at(2)) is None
        await copies.settle()
        assert source.builds == 1
        source.now += 1.0
        copies.current(SCOPE, at(2))
        await copies.settle()
        assert source.builds == 2 and copies.current(SCOPE, at(2)) == Copy(2, 1)

    asyncio.run(run())


def test_copies_over_the_bound_are_not_kept() -> None:
    async def run() -> None:
        big = Source(size=11)
        copies = copies_of(big)
        copies.current(SCOPE, at(1))
        await copies.settle()
        assert not copies.holds(KEY)

    asyncio.run(run())
