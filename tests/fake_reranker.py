"""A small local server that speaks the common `/rerank` protocol, for tests.

It scores a document by how many of the query's words it contains, plus 10 for each
"preferred" in it, so tests can predict (and steer) its order; results come back best
first, as real rerankers return them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests._json_server import JsonServer, base_url, json_server


def overlap(query: str, document: str) -> float:
    words = set(query.lower().split())
    found = sum(1 for w in set(document.lower().split()) if w in words)
    return float(found + 10 * document.lower().count("preferred"))


def _rerank(body: dict[str, Any]) -> object:
    scored = [
        {"index": i, "relevance_score": overlap(body["query"], d)}
        for i, d in enumerate(body["documents"])
    ]
    scored.sort(key=lambda r: -r["relevance_score"])
    return {"results": scored[: body.get("top_n", len(scored))]}


@contextmanager
def fake_reranker_server() -> Iterator[JsonServer]:
    with json_server(_rerank) as server:
        yield server


def url_of(server: JsonServer) -> str:
    return base_url(server)
