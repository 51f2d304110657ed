"""The query coverage of a search's head (retrieval/coverage.py), read from the index: each
candidate's indexed terms and title, and the query terms' document frequencies."""

from __future__ import annotations

from uuid import UUID

from ingest.analyzer import analyze
from retrieval.coverage import PassageTerms, QueryCoverage, query_weights
from store import bm25, search
from store.pool import Conn
from store.scope import Scope


async def query_coverage(
    conn: Conn, scope: Scope, query: str, chunk_ids: list[UUID]
) -> QueryCoverage[UUID]:
    asked = sorted(set(analyze(query)))
    frequencies = await bm25.frequencies(conn, scope, asked)
    found = await search.chunk_terms(conn, scope.tenant_id, chunk_ids)
    subjects = {chunk: frozenset(analyze(c.title)) for chunk, c in found.items()}
    # Only the query's terms and the head's titles' terms are ever asked about: kept alone,
    # the greedy order's unions of chosen passages' terms stay small.
    wanted = frozenset(asked).union(*subjects.values())
    passages = {
        chunk: PassageTerms(c.terms & wanted, subjects[chunk]) for chunk, c in found.items()
    }
    return QueryCoverage(query_weights(frequencies.chunk_count, frequencies.documents), passages)
