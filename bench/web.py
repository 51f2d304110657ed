"""The web app's speed: the JavaScript of its first load, and the time to the first source on
screen against the API's own time to sources.

`trellis serve` in its own process serves the demo corpus. Each question is asked twice in
turn, so both see the same machine:
- API: a graphql-transport-ws client opens a socket, subscribes to answerStream and stops the
  clock at the AnswerSources event;
- page: Debian's Chromium, driven by Playwright, submits the same question; the page's own
  clock runs from the submit (before its socket opens) to the frame after the sources are
  drawn.
Prints both medians and the median and p95 of their paired difference (goal: 100 ms or less).
Run with `.venv/bin/python -m bench.web`.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from typing import Any

from websockets.sync.client import connect
from websockets.typing import Subprotocol

from app.cli.ingest import IngestRequest, run_ingest
from app.localdb.chromium import launch
from app.localdb.stack import Stack, local_stack, make_key
from app.settings import PROJECT_ROOT
from bench._serving import served
from bench._timing import p50_p95

ROUNDS = 3
QUESTIONS = [
    "Who was the incident commander of INC-2041?",
    "When was the Northwind agreement signed?",
    "How many days of annual leave does a full-time employee get?",
    "Who do people questions go to?",
    "What caused the certificate failure?",
    "Within how many days are invoices due?",
]
STREAM = """subscription($input: AnswerInput!) { answerStream(input: $input) {
  __typename ... on AnswerSources { sources { ref } } } }"""
TENANT = "bench-web"


def load(stack: Stack) -> str:
    """The demo corpus, indexed and graphed as `trellis ingest demo` does, for the key's
    tenant."""
    request = IngestRequest([PROJECT_ROOT / "demo"], "demo", TENANT, create=True)
    failures = asyncio.run(run_ingest(stack.settings, request))
    assert not failures, failures
    return request.collection


def api_time_to_sources(url: str, key: str, collection: str, question: str) -> float:
    """ms from opening the socket to the AnswerSources event, as the page's clock runs."""
    started = time.perf_counter()
    ws_url = url.replace("http://", "ws://") + "/graphql"
    with connect(ws_url, subprotocols=[Subprotocol("graphql-transport-ws")]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"X-API-Key": key}}))
        ws.recv(timeout=30)
        variables = {"input": {"collections": [collection], "query": question}}
        payload = {"query": STREAM, "variables": variables}
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        while json.loads(ws.recv(timeout=60))["type"] != "next":
            pass
        elapsed = (time.perf_counter() - started) * 1000
        ws.send(json.dumps({"id": "1", "type": "complete"}))
    return elapsed


class Page:
    """The app in Chromium, signed in, asking on the Ask view."""

    def __init__(self, playwright: Any, url: str, key: str) -> None:
        self.page = launch(playwright).new_page()
        self.scripts: list[tuple[int, int]] = []
        self.page.on("response", self._count)
        self.page.goto(f"{url}/#apiKey={key}")
        self.page.wait_for_selector("#who >> text=answer")
        self.asked = 0

    def _count(self, response: Any) -> None:
        if response.request.resource_type == "script":
            sizes = response.request.sizes()
            self.scripts.append((sizes["responseBodySize"], len(response.body())))

    def time_to_sources(self, question: str) -> float:
        self.page.fill("#question", question)
        self.page.click("#ask-button")
        index = self.asked
        self.asked += 1
        self.page.wait_for_selector(f".turn >> nth={index} >> .usage:not(:empty)", timeout=60_000)
        return float(self.page.evaluate(f"window.trellisTimings[{index}].sourcesShown"))


def main() -> None:
    from playwright.sync_api import sync_playwright

    with local_stack() as stack, served(stack, 1) as (url, _):
        key = make_key(stack, TENANT)
        collection = load(stack)
        with sync_playwright() as playwright:
            page = Page(playwright, url, key)
            wire = sum(s for s, _ in page.scripts) / 1024
            raw = sum(b for _, b in page.scripts) / 1024
            print(f"first load: {len(page.scripts)} scripts, {wire:.0f} KB over the wire "
                  f"(gzip), {raw:.0f} KB uncompressed; goal 500 KB gzip")  # fmt: skip
            api, shown = [], []
            for _ in range(ROUNDS):
                for question in QUESTIONS:
                    api.append(api_time_to_sources(url, key, collection, question))
                    shown.append(page.time_to_sources(question))
    report(api, shown)


def report(api: list[float], shown: list[float]) -> None:
    differences = [s - a for a, s in zip(api, shown, strict=True)]
    p50, p95 = p50_p95(differences)
    print(f"{len(api)} questions: API time to sources median {statistics.median(api):.0f} ms;"
          f" first source on screen median {statistics.median(shown):.0f} ms")  # fmt: skip
    print(f"page minus API, paired: median {p50:+.0f} ms, p95 {p95:+.0f} ms; goal 100 ms or less")


if __name__ == "__main__":
    main()
