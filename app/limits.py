"""Argument bounds shared by the services: out of range is BAD_USER_INPUT naming the field."""

from __future__ import annotations

from app.errors import ErrorCode, TrellisError


def check_range(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise TrellisError(
            ErrorCode.BAD_USER_INPUT, f"{field} must be {low} to {high}, not {value}", field=field
        )
