"""Vocabulary rules are stored per collection, replaced as a set, and validated."""

from __future__ import annotations

import pytest

from tests.graphql_client import GraphQLClient
from tests.helpers import new_collection

pytestmark = pytest.mark.integration

SET = """mutation($c: String!, $r: [VocabularyRuleInput!]!) {
  setVocabularyRules(collection: $c, rules: $r) { kind term terms } }"""


def test_rules_round_trip_and_replace(gql: GraphQLClient) -> None:
    name = new_collection(gql)
    rules = [
        {"kind": "SYNONYMS", "terms": ["PTO", "paid time off", "leave"]},
        {"kind": "EXPANSION", "term": "SLA", "terms": ["service level agreement"]},
    ]
    saved = gql.data(SET, c=name, r=rules)["setVocabularyRules"]
    assert saved == [
        {"kind": "SYNONYMS", "term": None, "terms": rules[0]["terms"]},
        {"kind": "EXPANSION", "term": "SLA", "terms": ["service level agreement"]},
    ]
    gql.data(SET, c=name, r=rules[1:])
    listed = gql.data("query($c: String!) { vocabularyRules(collection: $c) { term } }", c=name)
    assert listed["vocabularyRules"] == [{"term": "SLA"}]


@pytest.mark.parametrize(
    "rule",
    [
        {"kind": "SYNONYMS", "terms": ["only-one"]},
        {"kind": "EXPANSION", "terms": ["x"]},
        {"kind": "EXPANSION", "term": "x", "terms": []},
        {"kind": "SYNONYMS", "terms": ["a", "x" * 101]},
        {"kind": "SYNONYMS", "terms": [f"term {n}" for n in range(51)]},
    ],
)
def test_bad_rules_are_refused_and_keep_the_old_set(
    gql: GraphQLClient, rule: dict[str, object]
) -> None:
    name = new_collection(gql)
    gql.data(SET, c=name, r=[{"kind": "SYNONYMS", "terms": ["a", "b"]}])
    body = gql.post(SET, c=name, r=[{"kind": "SYNONYMS", "terms": ["c", "d"]}, rule])
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "rules[1]"}
    listed = gql.data("query($c: String!) { vocabularyRules(collection: $c) { terms } }", c=name)
    assert listed["vocabularyRules"] == [{"terms": ["a", "b"]}]


def test_more_than_a_thousand_rules_are_refused_naming_the_field(gql: GraphQLClient) -> None:
    rules = [{"kind": "SYNONYMS", "terms": [f"a{n}", f"b{n}"]} for n in range(1001)]
    body = gql.post(SET, c=new_collection(gql), r=rules)
    assert body["errors"][0]["extensions"] == {"code": "BAD_USER_INPUT", "field": "rules"}
