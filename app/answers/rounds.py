"""A HIGH-effort answer's further retrieval rounds. Each round reads the passages found so
far for the bridge entities they name near the question's relation words, the reading of the
search's own second round (app/search/second_round.py), and searches for each new bridge
with those words: the next hop's own question ("Marta Kowalczyk born"). What a round finds
joins what the answer reads. Rounds stop when one finds nothing new, or after
TRELLIS_ANSWER_HIGH_ROUNDS: a question of three or four hops needs a round per hop, which one
search cannot take."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from uuid import UUID

from app.search.results import SearchHit
from app.search.service import Search
from app.tenancy.auth import Tenant
from retrieval.request import Mode, SearchRequest

BRIDGES = 2  # bridges searched a round, the best read first
PASSAGES = 3  # hits kept from each bridge's search


@dataclass
class Rounds:
    """What the rounds have read and asked so far."""

    search: SearchRequest
    read: list[SearchHit]
    asked: set[str] = field(default_factory=set)  # bridges already searched, case-folded
    searched: list[str] = field(default_factory=list)  # the bridges searched, as named


async def further(search: Search, tenant: Tenant, rounds: Rounds, most: int) -> list[SearchHit]:
    """The hits the rounds found that the first search had not, in the order found."""
    found: list[SearchHit] = []
    for _ in range(most):
        new = await next_round(search, tenant, rounds)
        if not new:
            break
        rounds.read += new
        found += new
    return found


async def next_round(search: Search, tenant: Tenant, rounds: Rounds) -> list[SearchHit]:
    """One round: the passages its bridges' searches found that none before had (the
    caller adds them to what was read); nothing when no bridge is new."""
    read = [h.chunk_id for h in rounds.read]
    names, cues = await search.bridge_names(tenant, rounds.search, read)
    fresh = [n for n in names if n.casefold() not in rounds.asked][:BRIDGES]
    rounds.asked |= {n.casefold() for n in fresh}
    rounds.searched += fresh
    known: set[UUID] = set(read)
    new: list[SearchHit] = []
    for name in fresh:
        asked = " ".join([name, *sorted(cues)])
        for hit in await _bridge_hits(search, tenant, rounds.search, asked):
            if hit.chunk_id not in known:
                known.add(hit.chunk_id)
                new.append(hit)
    return new


async def _bridge_hits(
    search: Search, tenant: Tenant, request: SearchRequest, query: str
) -> list[SearchHit]:
    """The keyword search for one bridge: its name and the question's relation words."""
    asked = replace(request, query=query, mode=Mode.KEYWORD, top_k=PASSAGES, min_score=None)
    return (await search.search(tenant, asked)).hits
