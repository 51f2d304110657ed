"""A small graphql-transport-ws client for tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

PROTOCOL = Subprotocol("graphql-transport-ws")


def ws_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + "/graphql"


@contextmanager
def open_ws(base_url: str, params: dict[str, Any] | None) -> Iterator[ClientConnection]:
    with connect(ws_url(base_url), subprotocols=[PROTOCOL], open_timeout=10) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": params or {}}))
        yield ws


def subscribe(
    ws: ClientConnection, query: str, timeout: float = 10, **variables: Any
) -> list[dict[str, Any]]:
    """Every message of one subscription, up to its complete or error."""
    payload = {"query": query, "variables": variables}
    ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
    messages = []
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        messages.append(message)
        if message["type"] in ("complete", "error"):
            return messages
