"""A pass-through in front of a real model server that notes, per request, when it arrived
and when the model's first content token passed: the model's own time to first token, on
the clock of the process that also times the answer."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

from app.localdb.scripted_llm import served


class TimingProxy(ThreadingHTTPServer):
    upstream: str
    arrived: list[float]
    first_token: list[float | None]


class _Handler(BaseHTTPRequestHandler):
    server: TimingProxy
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        self.server.arrived.append(time.perf_counter())
        self.server.first_token.append(None)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        url = self.server.upstream + self.path
        with httpx.stream("POST", url, content=body, headers=_forwarded(self.headers),
                          timeout=600) as reply:  # fmt: skip
            self.send_response(reply.status_code)
            self.send_header("Content-Type", reply.headers.get("content-type", "text/plain"))
            self.send_header("Connection", "close")
            self.end_headers()
            for line in reply.iter_lines():
                self._note(line)
                self.wfile.write(f"{line}\n".encode())
                self.wfile.flush()

    def _note(self, line: str) -> None:
        if self.server.first_token[-1] is None and _has_content(line):
            self.server.first_token[-1] = time.perf_counter()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _forwarded(headers: Message) -> dict[str, str]:
    wanted = ("content-type", "authorization")
    return {k: v for k, v in headers.items() if k.lower() in wanted}


def _has_content(line: str) -> bool:
    if not line.startswith("data: {"):
        return False
    choices = json.loads(line[6:]).get("choices") or [{}]
    return bool(choices[0].get("delta", {}).get("content"))


@contextmanager
def timing_proxy(upstream: str) -> Iterator[TimingProxy]:
    proxy = TimingProxy(("127.0.0.1", 0), _Handler)
    proxy.upstream, proxy.arrived, proxy.first_token = upstream, [], []
    with served(proxy):
        yield proxy


def url_of(proxy: TimingProxy) -> str:
    return f"http://127.0.0.1:{proxy.server_address[1]}"
