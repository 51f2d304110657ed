"""Query-to-fact matching: the graph walk also starts from the entities of the typed facts a
query resembles, not only from the names it contains (HippoRAG 2 links a query to the
triples nearest it).

"Where was the director of Film X born?" names Film X; the fact "Film X directed by D"
is near the query in the collection's embedding space, so D, whom the query never names,
starts the walk too, at a weight below a named seed's. A query that names nothing walks
from the entities of its facts.

A fact's entities weigh FACT_WEIGHT times the fact's similarity to the query; facts below
FACT_SIMILARITY are not used. An entity in several facts takes its best.
"""

from __future__ import annotations

from uuid import UUID

import numpy as np
from numpy.typing import NDArray

from store import fact_vectors
from store.fact_vectors import FactMatch
from store.pool import Pool
from store.tenants import Tenant

FACTS = 5  # nearest facts read per query
FACT_SIMILARITY = 0.5  # facts less similar to the query than this are not used
FACT_WEIGHT = 0.5  # the most a fact's entity weighs, against 1 for a named seed


async def fact_entities(
    pool: Pool, tenant: Tenant, collection_id: UUID, vector: NDArray[np.float32]
) -> tuple[tuple[str, float], ...]:
    """The entities of the collection's facts nearest the query vector, with their weight."""
    async with pool.connection() as conn:
        found = await fact_vectors.nearest(conn, tenant, collection_id, vector, FACTS)
    return weigh(found)


def weigh(matches: list[FactMatch]) -> tuple[tuple[str, float], ...]:
    """Each entity of a fact above the floor, at its best fact's weight."""
    weights: dict[str, float] = {}
    for match in (m for m in matches if m.similarity >= FACT_SIMILARITY):
        weight = FACT_WEIGHT * match.similarity
        for entity in (match.subject_id, match.object_id):
            weights[entity] = max(weights.get(entity, 0.0), weight)
    return tuple(sorted(weights.items(), key=lambda item: (-item[1], item[0])))
