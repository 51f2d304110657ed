"""GraphQL types for typed records: their schema, and a record as stored."""

from __future__ import annotations

from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.type(description="A record's fields as stored; sensitive values are masked.")
class StoredRecord:
    schema: str
    fields: JSON


@strawberry.enum
class FieldType(Enum):
    STRING = "STRING"
    TEXT = "TEXT"
    INTEGER = "INTEGER"
    NUMBER = "NUMBER"
    BOOLEAN = "BOOLEAN"
    DATE = "DATE"


@strawberry.input
class RecordFieldInput:
    name: str
    type: FieldType
    searchable: bool = True
    sensitive: bool = False
    required: bool = False


@strawberry.type
class RecordField:
    name: str
    type: FieldType
    searchable: bool
    sensitive: bool
    required: bool


@strawberry.type
class RecordSchema:
    id: strawberry.ID
    name: str
    fields: list[RecordField]

    @classmethod
    def of(cls, schema_id: Any, name: str, fields: list[dict[str, Any]]) -> RecordSchema:
        return cls(
            id=strawberry.ID(str(schema_id)),
            name=name,
            fields=[
                RecordField(
                    name=f["name"],
                    type=FieldType(f["type"]),
                    searchable=f["searchable"],
                    sensitive=f["sensitive"],
                    required=f["required"],
                )
                for f in fields
            ],
        )


@strawberry.input
class RecordInput:
    id: str
    fields: JSON
    access_scopes: list[str] | None = strawberry.field(
        default=None, description="As a document's accessScopes."
    )
