"""Typed values as JSON and back: what a research run stores of its request, the passages
each step read, its draft briefs and its answer. Dataclasses, enums, UUIDs, times, decimals,
lists, tuples, sets and string-keyed dicts, as the fields' type hints say; nothing else, so a
value that cannot come back as itself fails when it is stored, not when it is read."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Any, TypeVar
from uuid import UUID

T = TypeVar("T")
_PLAIN = (str, int, float, bool, type(None))


def to_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, UUID | Decimal):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_json(item) for item in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: to_json(v) for k, v in value.items()}
    raise TypeError(f"{type(value).__name__} is not stored as JSON")


def from_json(kind: type[T], data: Any) -> T:
    value: T = _read(kind, data)
    return value


def _read(kind: Any, data: Any) -> Any:
    if kind is Any:
        return data
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        return _union(typing.get_args(kind), data)
    if origin is not None:
        return _generic(origin, typing.get_args(kind), data)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{name: _read(hints[name], value) for name, value in data.items()})
    return _scalar(kind, data)


def _union(options: tuple[Any, ...], data: Any) -> Any:
    if data is None:
        return None
    present = [o for o in options if o is not type(None)]
    if len(present) != 1:
        raise TypeError(f"a union of {present} is not stored as JSON")
    return _read(present[0], data)


def _generic(origin: Any, args: tuple[Any, ...], data: Any) -> Any:
    if origin is dict:
        return {k: _read(args[1], v) for k, v in data.items()}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], item) for item in data)
        return tuple(_read(a, item) for a, item in zip(args, data, strict=True))
    return origin(_read(args[0], item) for item in data)  # list, set, frozenset


def _scalar(kind: Any, data: Any) -> Any:
    if kind is datetime:
        return datetime.fromisoformat(data)
    if kind in (UUID, Decimal) or (isinstance(kind, type) and issubclass(kind, enum.Enum)):
        return kind(data)
    if kind is float:
        return float(data)
    if kind in _PLAIN:
        return data
    raise TypeError(f"{kind} is not stored as JSON")


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)
