"""A small local server that speaks the OpenAI embeddings protocol, for tests."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests._json_server import JsonServer, base_url, json_server

DIMENSION = 8


def fake_vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255 - 0.5 for b in digest[:DIMENSION]]


def _embeddings(body: dict[str, Any]) -> object:
    data = [
        {"object": "embedding", "index": i, "embedding": fake_vector(text)}
        for i, text in reversed(list(enumerate(body["input"])))
    ]
    return {"object": "list", "data": data, "model": body["model"]}


@contextmanager
def fake_embeddings_server() -> Iterator[JsonServer]:
    with json_server(_embeddings) as server:
        yield server


def url_of(server: JsonServer) -> str:
    return f"{base_url(server)}/v1"
