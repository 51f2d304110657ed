"""The request body cap, enforced while the body is read and before anything parses it.

A body over the cap is refused with HTTP 413 and a GraphQL error coded PAYLOAD_TOO_LARGE,
naming the limit. A declared Content-Length over the larger, ingest cap is refused before a
byte is read; otherwise reading stops at that cap. A body between the two caps is let through
only when every root field of its operation ingests (documents and records are big by
nature); that check parses the request, which the size already read bounds. Where the small
cap is crossed, the bytes read so far are checked first: a query text there that ingests
nothing, or that is itself longer than the small cap, is refused without reading the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from app.errors import ErrorCode
from app.settings import ServingSettings
from schema._body_prefix import ingests_only_body, may_ingest

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


LINGER_SECONDS = 1.0  # the most a refused request's remaining body is read and discarded


class _TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


class BodyLimit:
    def __init__(self, app: ASGIApp, serving: ServingSettings) -> None:
        self._app = app
        self._limit = serving.max_body_bytes
        self._ingest_limit = serving.max_ingest_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._app(scope, receive, send)
            return
        try:
            body = await self._body(scope, receive)
        except _TooLarge as refused:
            await self._refuse(scope, receive, send, refused.limit)
            return
        if len(body) > self._limit and not ingests_only_body(body, self._limit):
            await self._refuse(scope, receive, send, self._limit)
            return
        await self._app(scope, _replay(body, receive), send)

    async def _body(self, scope: Scope, receive: Receive) -> bytes:
        if _declared_length(scope) > self._ingest_limit:
            raise _TooLarge(self._ingest_limit)
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            chunks.append(chunk)
            self._check(size, size + len(chunk), chunks)
            size += len(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)

    def _check(self, before: int, size: int, chunks: list[bytes]) -> None:
        """Refuse a body past the ingest cap, or one that crossed the small cap whose first
        bytes show it ingests nothing (schema/_body_prefix.py)."""
        if size > self._ingest_limit:
            raise _TooLarge(self._ingest_limit)
        if before <= self._limit < size and not may_ingest(b"".join(chunks), self._limit):
            raise _TooLarge(self._limit)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        message = (
            f"the request body is larger than the limit of {limit} bytes; send fewer or"
            " smaller documents per request"
        )
        error = {"code": ErrorCode.PAYLOAD_TOO_LARGE.value, "limit": limit}
        body = json.dumps({"data": None, "errors": [{"message": message, "extensions": error}]})
        headers = {"content-length": str(len(body)), "content-type": "application/json"}
        headers["connection"] = "close"
        start = [(k.encode(), v.encode()) for k, v in headers.items()]
        await send({"type": "http.response.start", "status": 413, "headers": start})
        await send({"type": "http.response.body", "body": body.encode(), "more_body": True})
        await _linger(receive)
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _linger(receive: Receive) -> None:
    """Discard what the client still sends, for at most LINGER_SECONDS, before the server
    closes. The answer is whole by its length already; closing a socket with unread bytes
    makes the kernel reset the connection, and a client still writing lost the 413 with
    it (what HTTP servers call a lingering close)."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(LINGER_SECONDS):
            while (await receive()).get("more_body", False):
                pass


def _declared_length(scope: Scope) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"content-length" and value.isdigit():
            return int(value)
    return 0


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body read, given once more to the app, then whatever the client sends next."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed
