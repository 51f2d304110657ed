"""The mention weight Postgres computes for the walk's subgraph equals store.knowledge's."""

from __future__ import annotations

import pytest

from app.localdb.stack import Stack
from store.knowledge import MENTION_WEIGHT_SQL, mention_weight
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
def test_the_sql_weight_is_the_python_weight(stack: Stack, spans: list[int]) -> None:
    query = f"SELECT {MENTION_WEIGHT_SQL} FROM (SELECT %s::int[] AS spans) m"
    assert rows(stack, query, spans) == [(mention_weight(spans),)]
