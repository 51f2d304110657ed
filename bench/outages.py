"""Each database stopped and restarted under search load, with no restart of Trellis (issue
50's reliability suite), on the kept 2Wiki store (`.data/bench/2wiki`).

One `trellis serve` process is searched by `clients` clients (HYBRID, topK 5, the 2Wiki
questions in turn). For each of Neo4j and then Postgres: `before` seconds of load, the
database stopped for `down` seconds, started again, and `after` seconds more. Every
response is counted by phase (before, down, after the start returned) as ok, degraded or its
error code; any other error (a traceback's INTERNAL_ERROR, a dropped connection) is a
failure. Reported: those counts, how long after the database was back the last failed or
degraded search ended (recovery; OVERLOADED, which this load meets with the databases up,
left out), and the server's process id before and after (the same: not restarted). While
Neo4j is down a document is ingested; the time from Neo4j's return to that document being
graphed shows the outbox catching up.

Run with `.venv/bin/python -m bench.outages [--keep DIR] [--clients 10] [--down 20]`.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.localdb.stack import Stack, local_stack, make_key
from bench._serving import CREATE, INGEST, Searches, Server, Tally, client
from bench.quality import questions
from bench.reliability import ready_corpus

DATASET = "2wiki"
PROBE = "outage-probe"
GRAPHED = "query($c: String!) { documents(collection: $c) { edges { node { status } } } }"


@dataclass(frozen=True)
class Plan:
    clients: int
    before: float
    down: float
    after: float


@dataclass
class Outage:
    backend: str
    tally: Tally
    stopped: float = 0.0
    back: float = 0.0  # when the database's start returned
    graphed_after: float | None = None  # Neo4j: the probe document graphed, s after `back`


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", type=Path, default=Path(".data/bench"))
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--before", type=float, default=10.0)
    parser.add_argument("--down", type=float, default=20.0)
    parser.add_argument("--after", type=float, default=30.0)
    args = parser.parse_args()
    plan = Plan(args.clients, args.before, args.down, args.after)
    with local_stack(keep_in=args.keep / DATASET) as stack:
        asyncio.run(ready_corpus(stack))
        key = make_key(stack, "bench")
        server = Server(stack)
        server.start()
        pid = server.pid
        try:
            for backend in ("neo4j", "postgres"):
                report(asyncio.run(outage(stack, server.url, key, backend, plan)))
            alive = server.pid == pid and server.running()
            print(f"\nserver process {pid}: {'the same, still serving' if alive else 'GONE'}")
        finally:
            server.stop()


async def outage(stack: Stack, url: str, key: str, backend: str, plan: Plan) -> Outage:
    asked = [q["question"] for q in questions(DATASET, None)]
    result = Outage(backend, Tally())
    async with client(url, key, plan.clients + 2) as http:
        await http.post("/graphql", json={"query": CREATE, "variables": {"n": PROBE}})
        searches = Searches(http, DATASET, asked)
        until = time.monotonic() + plan.before + plan.down + plan.after + 600
        loops = [
            asyncio.create_task(searches.loop(n * 7, until, result.tally))
            for n in range(plan.clients)
        ]
        await asyncio.sleep(plan.before)
        await _down_and_back(stack, http, result, plan)
        graphing = asyncio.create_task(_graphed(http, result.back, backend == "neo4j"))
        await asyncio.sleep(plan.after)
        for loop in loops:
            loop.cancel()
        await asyncio.gather(*loops, return_exceptions=True)
        result.graphed_after = await graphing
    return result


async def _down_and_back(stack: Stack, http: httpx.AsyncClient, result: Outage, plan: Plan) -> None:
    database = stack.neo4j if result.backend == "neo4j" else stack.postgres
    result.stopped = time.monotonic()
    await asyncio.to_thread(database.stop)
    if result.backend == "neo4j":
        text = f"Probe written at {time.time():.0f} while the graph was down, by Ada Quill."
        docs = [{"externalId": "probe", "text": text}]
        await http.post("/graphql", json={"query": INGEST, "variables": {"c": PROBE, "docs": docs}})
    await asyncio.sleep(max(0.0, plan.down - (time.monotonic() - result.stopped)))
    await asyncio.to_thread(database.start)
    result.back = time.monotonic()


async def _graphed(http: httpx.AsyncClient, back: float, probed: bool) -> float | None:
    """Seconds from `back` until the probe document is graphed; None when not probed."""
    deadline = time.monotonic() + 300 if probed else 0
    while time.monotonic() < deadline:
        asked = {"query": GRAPHED, "variables": {"c": PROBE}}
        body = (await http.post("/graphql", json=asked)).json()
        edges = (body.get("data") or {}).get("documents", {}).get("edges", [])
        if edges and all(e["node"]["status"] == "GRAPHED" for e in edges):
            return time.monotonic() - back
        await asyncio.sleep(0.5)
    return None


def phases(result: Outage) -> dict[str, Counter[str]]:
    counted: dict[str, Counter[str]] = {"before": Counter(), "down": Counter(), "after": Counter()}
    for at, outcome in result.tally.events:
        phase = "before" if at < result.stopped else "down" if at < result.back else "after"
        counted[phase][outcome] += 1
    return counted


def recovery(result: Outage) -> float:
    """Seconds from the database's return to the end of the last search the outage kept from
    being served whole. OVERLOADED is left out: this load is refused now and then with every
    database up (counted per phase above), so the last refusal says nothing of recovery."""
    bad = [at for at, outcome in result.tally.events if _hurt(outcome) and at >= result.back]
    return max(bad) - result.back if bad else 0.0


def _hurt(outcome: str) -> bool:
    return outcome not in ("ok", "OVERLOADED")


COVERED = {"ok", "degraded", "SERVICE_UNAVAILABLE", "OVERLOADED", "TIMEOUT"}


def report(result: Outage) -> None:
    print(f"\n### {result.backend}: stopped {result.back - result.stopped:.1f} s under load\n")
    for phase, counts in phases(result).items():
        print(f"- {phase}: {dict(counts)}")
    failures = {k: v for k, v in result.tally.codes.items() if k not in COVERED}
    print(f"- outcomes other than ok, degraded or a coded refusal: {failures or 'none'}")
    print(f"- recovered {recovery(result):.1f} s after the database was back")
    if result.backend == "neo4j":
        after = result.graphed_after
        graphed = "not within 300 s" if after is None else f"{after:.1f} s after it was back"
        print(f"- the document ingested while it was down: graphed {graphed}")


if __name__ == "__main__":
    main()
