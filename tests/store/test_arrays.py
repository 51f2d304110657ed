"""Array parameters sent as one literal (store/arrays.py) reach Postgres element for element,
whatever the elements hold."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.localdb.stack import Stack
from store.arrays import text_array, uuid_array
from tests.helpers import rows

pytestmark = pytest.mark.integration

# Postgres text cannot hold NUL, and UTF-8 no lone surrogate: neither reaches a statement.
_TEXT = st.text(st.characters(codec="utf-8", blacklist_characters="\x00"), max_size=30)
HOSTILE = ["a,b", "{x}", 'say "hi"', "back\\slash", " padded ", "", "NULL", "'; DROP TABLE x; --"]


@pytest.mark.parametrize("items", [[], HOSTILE, ["Gaby: A True Story", "Ünïcødé", "‮bidi"]])
def test_text_elements_arrive_as_sent(stack: Stack, items: list[str]) -> None:
    assert rows(stack, "SELECT %s::text[]", text_array(items)) == [(items,)]


@settings(max_examples=40, deadline=None)
@given(st.lists(_TEXT, max_size=8))
def test_any_text_arrives_as_sent(stack: Stack, items: list[str]) -> None:
    assert rows(stack, "SELECT %s::text[]", text_array(items)) == [(items,)]


def test_uuids_arrive_as_sent_from_strings_or_uuids(stack: Stack) -> None:
    ids = [uuid.uuid4() for _ in range(3)]
    assert rows(stack, "SELECT %s::uuid[]", uuid_array(ids)) == [(ids,)]
    assert rows(stack, "SELECT %s::uuid[]", uuid_array(map(str, ids))) == [(ids,)]
    assert rows(stack, "SELECT %s::uuid[]", uuid_array([])) == [([],)]
