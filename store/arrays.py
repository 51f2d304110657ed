"""Array parameters sent as one text literal and cast in the SQL (`%s::uuid[]`,
`%s::text[]`). psycopg formats a Python list one element at a time in Python: 0.2 ms for 160
ids, against 2 µs for the joined literal, and a search sends about ten such lists."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID


def uuid_array(ids: Iterable[str | UUID]) -> str:
    """A uuid[] literal; an element that is not a uuid fails the cast, as in a list."""
    return "{" + ",".join(map(str, ids)) + "}"


def text_array(items: Iterable[str]) -> str:
    """A text[] literal with every element quoted, so that commas, braces, quotes,
    backslashes and spaces stay inside it."""
    return "{" + ",".join(map(_quoted, items)) + "}"


def _quoted(item: str) -> str:
    return '"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"'
