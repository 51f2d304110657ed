"""Parse IDs that arrive as GraphQL arguments; a malformed one is simply not found."""

from __future__ import annotations

from uuid import UUID

from app.errors import ErrorCode, TrellisError


def job_uuid(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise TrellisError(ErrorCode.NOT_FOUND, f"no job {value}") from None
