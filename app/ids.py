"""Ids that arrive as text: a malformed one is simply not found, like a missing one."""

from __future__ import annotations

from uuid import UUID

from app.errors import ErrorCode, TrellisError


def uuid_or_none(value: str) -> UUID | None:
    try:
        return UUID(value)
    except ValueError:
        return None


def uuid_or_not_found(value: str, noun: str) -> UUID:
    found = uuid_or_none(value)
    if found is None:
        raise TrellisError(ErrorCode.NOT_FOUND, f"no {noun} {value}")
    return found
