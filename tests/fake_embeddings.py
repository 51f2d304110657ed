"""A small local server that speaks the OpenAI embeddings protocol, for tests."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DIMENSION = 8


def fake_vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255 - 0.5 for b in digest[:DIMENSION]]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        if self.server.failures:
            status = self.server.failures.pop(0)
            self._reply(status, {"error": {"message": "try again"}})
            return
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(text)}
            for i, text in reversed(list(enumerate(body["input"])))
        ]
        self._reply(200, {"object": "list", "data": data, "model": body["model"]})

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
def fake_embeddings_server() -> Iterator[_Server]:
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
    return f"http://127.0.0.1:{server.server_address[1]}/v1"
