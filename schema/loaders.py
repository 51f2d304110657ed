"""Per-request batching of the per-node lookups (DataLoader style): a page of 100 entities
asking for their neighbours costs one expansion step and one lookup, not 100 of each.

Loads made in the same tick are gathered and grouped by their arguments (a page of entities
asks alike); nothing is cached, so a WebSocket's later operations read fresh data."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any, Generic, Protocol, TypeVar

from strawberry.dataloader import DataLoader

from app.collections.documents import DocumentRow
from app.knowledge.relationships import TimeFilter
from app.services import Services
from app.tenancy.auth import Tenant

K = TypeVar("K", bound="_Keyed")
T = TypeVar("T")

Neighbours = list[tuple[dict[str, Any], float]]
MentionPage = tuple[list[tuple[int, DocumentRow]], bool]


class _Keyed(Protocol, Hashable):
    """A load's key: the entity, and the arguments it shares with the loads batched with it."""

    @property
    def entity_id(self) -> str: ...

    def group(self) -> Hashable: ...


@dataclass(frozen=True)
class NeighbourKey:
    entity_id: str
    first: int
    as_of: datetime | None
    known_at: datetime | None

    def group(self) -> Hashable:
        return (self.first, self.as_of, self.known_at)


@dataclass(frozen=True)
class MentionKey:
    entity_id: str
    first: int
    after: str | None

    def group(self) -> Hashable:
        return (self.first, self.after)


@dataclass
class Loaders:
    services: Services
    tenant: Callable[[], Awaitable[Tenant]]
    neighbours: DataLoader[NeighbourKey, Neighbours] = field(init=False)
    mentions: DataLoader[MentionKey, MentionPage] = field(init=False)
    documents: DataLoader[str, DocumentRow | None] = field(init=False)

    def __post_init__(self) -> None:
        self.neighbours = DataLoader(_Grouped(self._neighbours), cache=False)
        self.mentions = DataLoader(_Grouped(self._mentions), cache=False)
        self.documents = DataLoader(self._documents, cache=False)

    async def _neighbours(self, keys: list[NeighbourKey]) -> dict[str, Neighbours]:
        first = keys[0]
        time = TimeFilter.at(first.as_of, first.known_at)
        ids = [k.entity_id for k in keys]
        return await self.services.entities.neighbours_of(
            await self.tenant(), ids, first.first, time
        )

    async def _mentions(self, keys: list[MentionKey]) -> dict[str, MentionPage]:
        ids = [k.entity_id for k in keys]
        tenant = await self.tenant()
        return await self.services.entities.documents_of(tenant, ids, keys[0].first, keys[0].after)

    async def _documents(self, ids: list[str]) -> Sequence[DocumentRow | None]:
        found = await self.services.documents.get_many(await self.tenant(), ids)
        return [found.get(i) for i in ids]


class _Grouped(Generic[K, T]):
    """A batch function over keys of any arguments: one call of `load` per argument group.
    A group that fails fails its own keys only."""

    def __init__(self, load: Callable[[list[K]], Awaitable[dict[str, T]]]) -> None:
        self._load = load

    async def __call__(self, keys: list[K]) -> Sequence[T | BaseException]:
        results: dict[K, T | BaseException] = {}
        for _, members in groupby(sorted(keys, key=_order), key=lambda k: k.group()):
            group = list(dict.fromkeys(members))
            try:
                found = await self._load(group)
                results.update({k: found[k.entity_id] for k in group})
            except Exception as error:
                results.update({k: error for k in group})
        return [results[k] for k in keys]


def _order(key: _Keyed) -> str:
    return repr(key.group())
