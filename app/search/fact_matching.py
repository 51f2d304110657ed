"""Query-to-fact matching: the graph walk also starts from the entities of the typed facts a
query resembles, not only from the names it contains (HippoRAG 2 links a query to the
triples nearest it).

- A query that names entities is matched to the facts about them: "Where was the director
  of Film X born?" names Film X, and of Film X's facts "Film X directed by D" is the one
  nearest the query, so D, whom the query never names, starts the walk too. The fact
  chooses which of the seed's relations the question follows, by meaning, where the
  relation cues (retrieval/relation_cues.py) choose by words.
- A query that names nothing is matched to all the collection's facts, and walks from
  their entities beside the dense leg's best passage. Facts about the named entities
  only, when there are some: matched against every fact, a question's relation words
  ("daughter of") pulled in the facts of unrelated people, and 2Wiki R@2 fell from 75.4 to
  70.1 (bench/RESULTS.md).

A fact's entities weigh FACT_WEIGHT times the fact's similarity to the query, where a named
seed weighs 1; facts below FACT_SIMILARITY are not used. An entity in several facts takes
its best. Both were chosen on the two shared sets together (bench/RESULTS.md).

A request asks for it (`graph: {matchFacts: true}`). Off by default: on the shared sets it
moved a question or two either way, their rule-extracted facts being few and mostly about
the passage's own title entity, which the walk reaches anyway.
"""

from __future__ import annotations

from store import fact_vectors
from store.fact_vectors import FactMatch, FactQuery
from store.pool import Pool, autocommitted
from store.tenants import Tenant

FACTS = 5  # nearest facts read per query
FACT_SIMILARITY = 0.6  # facts less similar to the query than this are not used
FACT_WEIGHT = 0.5  # the most a fact's entity weighs, against 1 for a named seed


async def fact_entities(
    pool: Pool, tenant: Tenant, query: FactQuery
) -> tuple[tuple[str, float], ...]:
    """The entities of the collection's facts nearest the query vector, with their weight."""
    async with autocommitted(pool) as conn:
        found = await fact_vectors.nearest(conn, tenant, query)
    return weigh(found)


def weigh(matches: list[FactMatch]) -> tuple[tuple[str, float], ...]:
    """Each entity of a fact above the floor, at its best fact's weight."""
    weights: dict[str, float] = {}
    for match in (m for m in matches if m.similarity >= FACT_SIMILARITY):
        weight = FACT_WEIGHT * match.similarity
        for entity in (match.subject_id, match.object_id):
            weights[entity] = max(weights.get(entity, 0.0), weight)
    return tuple(sorted(weights.items(), key=lambda item: (-item[1], item[0])))
