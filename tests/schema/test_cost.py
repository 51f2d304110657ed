"""Every operation's static cost is checked before it runs (schema/cost.py)."""

from __future__ import annotations

import time
from typing import Any

from graphql import FragmentDefinitionNode, OperationDefinitionNode, parse

from app.settings import Settings
from schema import build_schema, schema
from schema.cost import operation_cost, root_costs
from tests.graphql_client import GraphQLClient
from tests.helpers import new_collection

ROOTS = root_costs(Settings.from_env({}).serving.cost)


def cost(query: str, **variables: Any) -> int:
    document = parse(query)
    [operation] = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    return operation_cost(schema._schema, operation, fragments, variables, ROOTS)


def nested(levels: int, first: int = 100, collection: str = "c") -> str:
    inner = "name"
    for _ in range(levels):
        inner = f"neighbours(first: {first}) {{ entity {{ {inner} }} }}"
    entities = f'entities(collection: "{collection}", query: "q", first: 1)'
    return f"{{ {entities} {{ entity {{ {inner} }} }} }}"


def test_a_page_multiplies_what_its_items_select() -> None:
    assert cost(nested(1, first=10)) == 1 + 1 + 1 + 10 * 1
    assert cost(nested(2, first=10)) == 3 + 10 * (1 + 1 + 10)


def test_page_sizes_come_from_variables_input_objects_and_defaults() -> None:
    listing = (
        'query($n: Int = 5) { documents(collection: "c", first: $n) { edges { node { id } } } }'
    )
    assert cost(listing) == 1 + 5 * 2
    assert cost(listing, n=100) == 1 + 100 * 2
    search = "query($i: SearchInput!) { search(input: $i) { hits { text } } }"
    assert cost(search, i={"topK": 30}) == ROOTS["search"] + 30
    assert cost('{ search(input: {collections: ["c"], query: "q"}) { hits { text } } }') == (
        ROOTS["search"] + 10
    )


def test_a_fragment_cycle_is_not_followed() -> None:
    assert cost("{ ...F } fragment F on Query { ...F collections { name } }") == 1


def test_the_nested_neighbours_bomb_is_refused_at_once_naming_cost_and_limit(
    gql: GraphQLClient,
) -> None:
    started = time.perf_counter()
    body = gql.post(nested(3))
    elapsed = time.perf_counter() - started
    [error] = body["errors"]
    assert error["extensions"]["code"] == "QUERY_TOO_COSTLY"
    assert error["extensions"]["cost"] == cost(nested(3)) and error["extensions"]["limit"] == 10_000
    assert "10000" in error["message"] and body.get("data") is None
    assert elapsed < 1.0  # refused before anything ran (the bench measures it properly)


def test_an_ordinary_query_is_under_the_limit(gql: GraphQLClient) -> None:
    assert gql.data(nested(1, collection=new_collection(gql))) == {"entities": []}


async def test_the_limit_is_a_setting() -> None:
    settings = Settings.from_env({"TRELLIS_MAX_QUERY_COST": "10"})
    assert settings.serving.cost.max_cost == 10
    result = await build_schema(settings).execute(nested(1, first=20))
    assert result.errors and (result.errors[0].extensions or {})["code"] == "QUERY_TOO_COSTLY"
