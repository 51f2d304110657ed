"""A small local server that speaks the common `/rerank` protocol, for tests.

It scores a document by how many of the query's words it contains, plus 10 for each
"preferred" in it, so tests can predict (and steer) its order; results come back best
first, as real rerankers return them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def overlap(query: str, document: str) -> float:
    words = set(query.lower().split())
    found = sum(1 for w in set(document.lower().split()) if w in words)
    return float(found + 10 * document.lower().count("preferred"))


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "body": body})
        if self.server.failures:
            self._reply(self.server.failures.pop(0), {"error": "try again"})
            return
        scored = [
            {"index": i, "relevance_score": overlap(body["query"], d)}
            for i, d in enumerate(body["documents"])
        ]
        scored.sort(key=lambda r: -r["relevance_score"])
        self._reply(200, {"results": scored[: body.get("top_n", len(scored))]})

    def _reply(self, status: int, payload: object) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    requests: list[dict[str, Any]]
    failures: list[int]


@contextmanager
def fake_reranker_server() -> Iterator[_Server]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.requests, server.failures = [], []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def url_of(server: _Server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"
