"""Relay-style pagination shared by every connection."""

from __future__ import annotations

import strawberry


@strawberry.type
class PageInfo:
    has_next_page: bool
    end_cursor: str | None
