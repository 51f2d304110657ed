"""The query coverage of a search's head (retrieval/coverage.py), read from the index: each
candidate's indexed terms and title, and the query terms' document frequencies."""

from __future__ import annotations

from uuid import UUID

from ingest.analyzer import analyze
from retrieval.coverage import PassageTerms, QueryCoverage, query_weights
from store import search
from store.bm25 import Frequencies
from store.pool import Conn
from store.scope import Scope


def asked_terms(query: str) -> list[str]:
    """The query's terms whose document frequencies the coverage weighs."""
    return sorted(set(analyze(query)))


async def query_coverage(
    conn: Conn, scope: Scope, chunk_ids: list[UUID], frequencies: Frequencies
) -> QueryCoverage[UUID]:
    """The head's coverage of the query whose terms' `frequencies` are given."""
    found = await search.chunk_terms(conn, scope.tenant_id, chunk_ids)
    subjects = {chunk: frozenset(analyze(c.title)) for chunk, c in found.items()}
    # Only the query's terms and the head's titles' terms are ever asked about: kept alone,
    # the greedy order's unions of chosen passages' terms stay small.
    # A query term no chunk has is in no passage's terms: the counted ones are all it needs.
    wanted = frozenset(frequencies.documents).union(*subjects.values())
    passages = {
        chunk: PassageTerms(c.terms & wanted, subjects[chunk]) for chunk, c in found.items()
    }
    return QueryCoverage(query_weights(frequencies.chunk_count, frequencies.documents), passages)
