"""The second round of a HYBRID search (`graph { secondRound }`, on unless false).

A multi-hop question's first round usually finds the passage that names the bridge ("Film X
... directed by D") sooner than the bridge's own passage, which shares few of the query's
words. The second round reads the first round's best passages for the entities they name
near the query's relation words (the relation cues the graph walk weighs by), and runs one
keyword search per bridge: its name and those relation words, the second hop's own question
("Marta Kowalczyk born"). The bridge's name with the whole query kept finding what the
first round had found (bench/RESULTS.md). The rankings fuse with the first round's legs
together at one text leg's weight, and the head is re-scored as any other
(app/search/ranking.py).

On by default since its searches weigh as one text leg: it costs 2Wiki nothing, gains on
HotpotQA, and takes about 4 ms, its keyword searches being in memory (bench/RESULTS.md,
"Retrieval generality, fifth round"). At a text leg's weight each, it lost on 2Wiki.
"""

from __future__ import annotations

import asyncio
import dataclasses

from app.search import ranking
from app.search.legs import LegContext, SearchLegs
from app.search.results import LegResult
from retrieval.relation_cues import CuedPassage, cue_terms
from retrieval.request import Leg
from store import mentions
from store.mentions import ChunkMentions
from store.pool import Pool, autocommitted

BRIDGE_PASSAGES = 2  # the first round's best passages read for bridges
BRIDGES = 2  # keyword searches the round runs


async def second_round(
    pool: Pool, legs: SearchLegs, context: LegContext, first: dict[Leg, LegResult]
) -> list[LegResult]:
    """One keyword ranking per bridge of the first round's best passages."""
    graph = first.get(Leg.GRAPH)
    seeds = graph.seeds if graph is not None else {}
    top = [c.chunk_id for c in ranking.fuse(first, context.request.top_k)[:BRIDGE_PASSAGES]]
    async with autocommitted(pool) as conn:
        passages = await mentions.in_chunks(conn, context.tenant.id, [str(c) for c in top])
    cues = cue_terms(context.request.query, seeds.values())
    ordered = [passages[str(c)] for c in top if str(c) in passages]
    names = bridges(ordered, cues, set(seeds))[:BRIDGES]
    asked = [_asking(context, " ".join([name, *sorted(cues)])) for name in names]
    return list(await asyncio.gather(*(legs.keyword(c) for c in asked)))


def bridges(passages: list[ChunkMentions], cues: frozenset[str], seeds: set[str]) -> list[str]:
    """The names the passages mention, best passage first, then by the cue signal around
    them, then by where they first occur; each name once, the query's own entities left out."""
    found: list[tuple[int, float, int, str]] = []
    for rank, passage in enumerate(passages):
        cued = CuedPassage(passage.text, cues)
        for entity, spans in passage.spans.items():
            named = [span for span in spans if span[1] > span[0]]  # a title's is empty
            if entity not in seeds and named:
                start, end = min(named)
                found.append((rank, -cued.strength(named), start, passage.text[start:end]))
    return list(dict.fromkeys(name.strip() for *_, name in sorted(found) if name.strip()))


def _asking(context: LegContext, query: str) -> LegContext:
    request = dataclasses.replace(context.request, query=query)
    return dataclasses.replace(context, request=request)
