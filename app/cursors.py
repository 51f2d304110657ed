"""Opaque Relay cursors: keyset positions, base64-encoded. A cursor this API did not give is
BAD_USER_INPUT naming `after`."""

from __future__ import annotations

import base64
import binascii

from app.errors import ErrorCode, TrellisError


def encode(*parts: object) -> str:
    return base64.urlsafe_b64encode("|".join(str(p) for p in parts).encode()).decode()


def decode(cursor: str, parts: int) -> list[str]:
    try:
        found = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        found = []
    if len(found) != parts:
        raise invalid()
    return found


def invalid() -> TrellisError:
    return TrellisError(
        ErrorCode.BAD_USER_INPUT, "after is not a cursor this API gave", field="after"
    )
