"""Typed records: schemas, validation, and the searchable text a record is indexed by.

Sensitive fields are validated and stored for their owner, but never enter the text that
is chunked, analyzed, embedded or sent to the graph.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any

from ingest.failures import IngestFailure

FIELD_TYPES = ("STRING", "TEXT", "INTEGER", "NUMBER", "BOOLEAN", "DATE")
MASK = "••••"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_TITLE_FIELDS = ("title", "name", "subject")


@dataclass(frozen=True)
class FieldSpec:
    name: str
    type: str
    searchable: bool = True
    sensitive: bool = False
    required: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "searchable": self.searchable,
            "sensitive": self.sensitive,
            "required": self.required,
        }


def check_schema(fields: list[FieldSpec]) -> None:
    """Raises IngestFailure(BAD_USER_INPUT) naming the first bad field."""
    if not fields:
        raise IngestFailure("BAD_USER_INPUT", "a record schema needs at least one field")
    seen: set[str] = set()
    for spec in fields:
        if not _NAME.match(spec.name):
            raise IngestFailure(
                "BAD_USER_INPUT", f"field name {spec.name!r} must match {_NAME.pattern}"
            )
        if spec.name in seen:
            raise IngestFailure("BAD_USER_INPUT", f"field {spec.name!r} is declared twice")
        if spec.type not in FIELD_TYPES:
            raise IngestFailure(
                "BAD_USER_INPUT", f"field {spec.name!r} has unknown type {spec.type!r}"
            )
        if spec.sensitive and spec.searchable:
            raise IngestFailure(
                "BAD_USER_INPUT", f"field {spec.name!r} cannot be sensitive and searchable"
            )
        seen.add(spec.name)


def validate_record(schema: list[dict[str, Any]], values: Any) -> dict[str, Any]:
    """The record's values, checked against `schema`; INVALID_RECORD names the field."""
    if not isinstance(values, dict):
        raise IngestFailure("INVALID_RECORD", "record fields must be a JSON object")
    specs = {spec["name"]: spec for spec in schema}
    for name in values:
        if name not in specs:
            raise IngestFailure("INVALID_RECORD", f"field {name!r} is not in the schema")
    for name, spec in specs.items():
        value = values.get(name)
        if value is None:
            if spec["required"]:
                raise IngestFailure("INVALID_RECORD", f"field {name!r} is required")
            continue
        if not _has_type(value, spec["type"]):
            raise IngestFailure("INVALID_RECORD", f"field {name!r} must be {spec['type']}")
    return {name: value for name, value in values.items() if value is not None}


def record_text(schema: list[dict[str, Any]], values: dict[str, Any]) -> tuple[str, str]:
    """The indexed text ("name: value" lines of searchable, non-sensitive fields) and a title."""
    visible = [s for s in schema if s["searchable"] and not s["sensitive"] and s["name"] in values]
    text = "\n".join(f"{s['name']}: {values[s['name']]}" for s in visible)
    title = next(
        (str(values[s["name"]]) for s in visible if s["name"].lower() in _TITLE_FIELDS), ""
    )
    return text, title


def masked(schema: list[dict[str, Any]], values: dict[str, Any]) -> dict[str, Any]:
    sensitive = {s["name"] for s in schema if s["sensitive"]}
    return {name: (MASK if name in sensitive else value) for name, value in values.items()}


def _has_type(value: Any, type_name: str) -> bool:
    if type_name in ("STRING", "TEXT"):
        return isinstance(value, str)
    if type_name == "BOOLEAN":
        return isinstance(value, bool)
    if type_name == "INTEGER":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "NUMBER":
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    return isinstance(value, str) and _is_iso_date(value)


def _is_iso_date(value: str) -> bool:
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True
