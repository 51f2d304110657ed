"""The planner's statistics are gathered when an ingest job changes its collection by a tenth
(store/statistics.py), in the job's own transaction."""

from __future__ import annotations

import pytest

from app.localdb.stack import Stack
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows

pytestmark = pytest.mark.integration
COUNTS = (
    "SELECT s.chunk_count, s.analyzed_chunk_count FROM collection_stats s"
    " JOIN collections c ON c.id = s.collection_id WHERE c.name = %s"
)


def _docs(prefix: str, n: int) -> list[dict[str, str]]:
    return [
        {"externalId": f"{prefix}{i}", "text": f"Ledger {prefix}{i} records a shipment of tin."}
        for i in range(n)
    ]


def test_a_new_collection_is_analysed_when_its_first_job_finishes(
    gql: GraphQLClient, stack: Stack
) -> None:
    name = new_collection(gql)
    assert ingest(gql, name, *_docs("a", 20))["job"]["done"]
    [(chunks, analyzed)] = rows(stack, COUNTS, name)
    assert chunks >= 20 and analyzed == chunks


def test_a_small_addition_waits_until_the_collection_has_changed_by_a_tenth(
    gql: GraphQLClient, stack: Stack
) -> None:
    name = new_collection(gql)
    ingest(gql, name, *_docs("a", 40))
    [(before, _)] = rows(stack, COUNTS, name)
    ingest(gql, name, *_docs("b", 1))
    [(after, analyzed)] = rows(stack, COUNTS, name)
    assert after > before and analyzed == before
    ingest(gql, name, *_docs("c", 5))
    [(grown, analyzed)] = rows(stack, COUNTS, name)
    assert analyzed == grown
