"""A local JSON-over-HTTP server for tests of providers we speak to (embeddings, reranker)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from app.localdb.scripted_llm import send_json, served

Respond = Callable[[dict[str, Any]], object]


class JsonServer(ThreadingHTTPServer):
    """Records requests; answers with the queued failure statuses first, then `respond`."""

    requests: list[dict[str, Any]]
    failures: list[int]
    respond: Respond


class _Handler(BaseHTTPRequestHandler):
    server: JsonServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        if self.server.failures:
            self._reply(self.server.failures.pop(0), {"error": {"message": "try again"}})
        else:
            self._reply(200, self.server.respond(body))

    def _reply(self, status: int, payload: object) -> None:
        send_json(self, status, payload)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def json_server(respond: Respond) -> Iterator[JsonServer]:
    server = JsonServer(("127.0.0.1", 0), _Handler)
    server.requests, server.failures, server.respond = [], [], respond
    with served(server):
        yield server


def base_url(server: JsonServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"
