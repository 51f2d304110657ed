"""A small local server that speaks the OpenAI chat streaming protocol and replies from a
script: the provider of the LLM tests, and the fixed-rate one of the verification benchmark.

Each request takes the next scripted reply: an error status, or SSE chunks of text (one
`data:` event each), a usage chunk and `data: [DONE]`; a reply can wait before its first
chunk, or break the connection after some chunks.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    pieces: list[str] = field(default_factory=list)
    status: int = 200
    first_delay: float = 0.0  # seconds before the first chunk
    piece_delay: float = 0.0
    cut_after: int | None = None  # pieces sent before the connection breaks
    usage: tuple[int, int] = (120, 30)
    build: Callable[[dict[str, Any]], list[str]] | None = None  # pieces from the request


def ref_of(body: dict[str, Any], phrase: str) -> str:
    """The marker of the prompt's passage that contains `phrase`."""
    prompt: str = body["messages"][-1]["content"]
    for block in prompt.split("[["):
        if phrase in block:
            return "[[" + block.split("]]")[0] + "]]"
    raise AssertionError(f"no passage holds {phrase!r}")


def send_json(handler: BaseHTTPRequestHandler, status: int, payload: object) -> None:
    raw = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(raw)))
    handler.end_headers()
    handler.wfile.write(raw)


class ScriptedLlm(ThreadingHTTPServer):
    replies: list[Reply]
    requests: list[dict[str, Any]]
    sent: list[list[float]]  # per streamed request, when each piece went out (perf_counter)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedLlm
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "body": body})
        reply = (
            self.server.replies.pop(0) if len(self.server.replies) > 1 else self.server.replies[0]
        )
        if reply.status != 200:
            send_json(self, reply.status, {"error": {"message": "scripted failure"}})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self._stream(reply, body)

    def _stream(self, reply: Reply, body: dict[str, Any]) -> None:
        model = body["model"]
        pieces = reply.build(body) if reply.build else reply.pieces
        time.sleep(reply.first_delay)
        sent: list[float] = []
        self.server.sent.append(sent)
        for index, piece in enumerate(pieces):
            if reply.cut_after is not None and index >= reply.cut_after:
                self.connection.close()
                return
            self._event({"model": model, "choices": [{"index": 0, "delta": {"content": piece}}]})
            sent.append(time.perf_counter())
            time.sleep(reply.piece_delay)
        prompt, completion = reply.usage
        usage = {"prompt_tokens": prompt, "completion_tokens": completion}
        self._event({"model": model, "choices": [], "usage": usage})
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _event(self, payload: dict[str, Any]) -> None:
        self.wfile.write(f"data: {json.dumps(payload)}\n\n".encode())
        self.wfile.flush()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def scripted_llm(*replies: Reply) -> Iterator[ScriptedLlm]:
    server = ScriptedLlm(("127.0.0.1", 0), _Handler)
    server.replies, server.requests, server.sent = list(replies) or [Reply()], [], []
    with served(server):
        yield server


@contextmanager
def served(server: ThreadingHTTPServer) -> Iterator[None]:
    """Serve on a daemon thread until the block ends."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
