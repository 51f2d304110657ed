"""The mention weight Postgres stores for the walk's subgraph equals store.knowledge's."""

from __future__ import annotations

import pytest

from app.localdb.stack import Stack
from store.knowledge import mention_weight
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    "spans",
    [
        [],
        [0, 0],  # the title alone
        [4, 9],
        [0, 0, 12, 20, 40, 47],
        [3, 8, 30, 30, 50, 50],
    ],
)
@pytest.mark.usefixtures("base_url")  # the served app has migrated the database
def test_the_stored_weight_is_the_python_weight(stack: Stack, spans: list[int]) -> None:
    query = "SELECT trellis_mention_weight(%s::int[])"
    assert rows(stack, query, spans) == [(mention_weight(spans),)]


def test_every_written_mention_carries_its_weight(gql: GraphQLClient, stack: Stack) -> None:
    text = "Ada Lovelace met Charles Babbage in London. Ada Lovelace wrote the notes."
    name = graphed_collection(
        gql, stack, {"externalId": "a", "title": "Ada Lovelace", "text": text}
    )
    found = rows(
        stack,
        "SELECT m.spans, m.weight FROM mentions m JOIN documents d ON d.id = m.document_id"
        " JOIN collections c ON c.id = d.collection_id"
        " WHERE c.name = %s",
        name,
    )
    assert found and all(weight == mention_weight(spans) for spans, weight in found)
    assert any(weight > 1 for _, weight in found)  # the title's subject weighs more
