"""Typed values as JSON and back (app/research/_values.py): what a run stores comes back
equal to what was stored, and a value that could not is refused when stored."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import TypeVar

import pytest

from app.answers.request import AnswerRequest, Effort, Message, Role, SourcesMode
from app.answers.results import Usage
from app.research._values import from_json, to_json
from app.search.results import HitDocument, SearchHit, Span
from graph.edges import Edge, Evidence, PathStep, RelationshipPath
from retrieval.highlights import Highlight
from retrieval.request import Filters, Leg, MetadataFilter, Mode, SearchRequest

T = TypeVar("T")


def _round_trip(value: T) -> T:
    return from_json(type(value), json.loads(json.dumps(to_json(value))))


def test_a_request_comes_back_equal() -> None:
    search = SearchRequest(
        ("docs", "notes"),
        "who signed?",
        Mode.KEYWORD,
        top_k=7,
        filters=Filters((MetadataFilter("year", at_least=2020),), ("d1",), datetime.now(UTC)),
        as_of=datetime(2024, 5, 1, tzinfo=UTC),
        legs=(Leg.SEMANTIC, Leg.GRAPH),
    )
    history = (Message(Role.USER, "and then?", ("attached text",)),)
    request = AnswerRequest(
        search, history, SourcesMode.CITED, "m", "de", uuid.uuid4(), Effort.HIGH
    )
    assert _round_trip(request) == request


def test_a_hit_with_its_path_comes_back_equal() -> None:
    entity = {"id": "e1", "name": "Kiel", "aliases": ["Kiel city"]}
    edge = Edge("FACT", "e1", "e2", 1.5, [Evidence("d", None, 3, 9, "s")], fact_id="f")
    path = RelationshipPath([entity, entity], [PathStep(entity, edge, entity)], 0.5)
    document = HitDocument(uuid.uuid4(), uuid.uuid4(), "T", "x", "text/plain", {"a": [1]}, "DOC")
    hit = SearchHit(
        uuid.uuid4(), 0.25, [Leg.GRAPH], document, None, [Span("CHARS", 0, 4)], "text", "ctx",
        [Highlight("kiel", 0, 4)], path,
    )  # fmt: skip
    assert _round_trip(hit) == hit


def test_decimals_and_times_come_back_as_themselves() -> None:
    usage = Usage("m", 1, 2, 3, None, 4.5, Decimal("0.0125"), datetime.now(UTC))
    assert _round_trip(usage) == usage


def test_a_value_that_could_not_come_back_is_refused_when_stored() -> None:
    @dataclass
    class Holder:
        value: object

    with pytest.raises(TypeError):
        to_json(Holder(object()))
    with pytest.raises(TypeError):
        to_json({1: "a key that is not text"})
