"""kill -9 of the server during an ingest with graphing (issue 50's reliability suite).

On a fresh stack, one `trellis serve` process ingests N 2Wiki passages (2,000 by default)
into a collection with nothing in its way: the uninterrupted run, and the baseline. The same
passages then go into a second collection while the server is killed with SIGKILL at K
random points (20 by default; the delays are drawn with a fixed seed, between 0.5 s and a
tenth of the uninterrupted run's time) and started again each time. When both are done
(every document GRAPHED at its version, every fact embedded, the outbox empty), the two
collections' censuses are compared: documents, sections, chunks, vectors, postings, BM25
statistics, entities, mentions, co-occurrences, facts, and the Neo4j nodes and
relationships, with Neo4j's ids checked against Postgres's (orphans and missing) and
duplicated ids counted.

Run with `.venv/bin/python -m bench.crashes [--documents 2000] [--kills 20] [--seed 50]`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any

from app.localdb.stack import Stack, local_stack, stack_services
from bench._census import Census, census
from bench._serving import Server
from bench.ingestion import load as load_corpus
from bench.ingestion import submit_corpus

WHOLE, CRASHED = "uninterrupted", "killed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=50)
    args = parser.parse_args()
    passages = load_corpus(args.documents)
    with local_stack() as stack:
        server = Server(stack)
        server.start()
        try:
            whole = ingest_whole(stack, passages)
            print(f"uninterrupted: {len(passages)} passages graphed in {whole:.1f} s", flush=True)
            kills = ingest_killed(stack, server, passages, _delays(args, whole))
        finally:
            server.stop()
        report(kills, asyncio.run(census(stack, WHOLE)), asyncio.run(census(stack, CRASHED)))


def _delays(args: argparse.Namespace, whole: float) -> list[float]:
    rng = random.Random(args.seed)
    return [rng.uniform(0.5, max(1.0, whole / 10)) for _ in range(args.kills)]


def ingest_whole(stack: Stack, passages: list[dict[str, str]]) -> float:
    started = time.monotonic()
    asyncio.run(_submit(stack, passages, WHOLE))
    _wait_done(stack, WHOLE, len(passages))
    return time.monotonic() - started


def ingest_killed(
    stack: Stack, server: Server, passages: list[dict[str, str]], delays: list[float]
) -> list[dict[str, Any]]:
    """Kill the server after each delay of serving, restart it, and note where each kill
    landed (documents indexed and graphed at that moment)."""
    asyncio.run(_submit(stack, passages, CRASHED))
    kills = []
    for n, delay in enumerate(delays, 1):
        time.sleep(delay)
        server.kill()
        at = asyncio.run(census(stack, CRASHED, graph=False))
        restart = round(server.start(), 1)
        kills.append({"kill": n, "after s": round(delay, 1), **_progress(at), "restart s": restart})
        print(kills[-1], flush=True)
    _wait_done(stack, CRASHED, len(passages))
    return kills


def _progress(at: Census) -> dict[str, int]:
    return {key: at.postgres[key] for key in ("documents", "graphed", "outbox pending")}


async def _submit(stack: Stack, passages: list[dict[str, str]], collection: str) -> None:
    async with stack_services(stack) as services:
        await submit_corpus(services, passages, collection)


def _wait_done(stack: Stack, collection: str, documents: int) -> None:
    deadline = time.monotonic() + 3600
    while not asyncio.run(census(stack, collection, graph=False)).done(documents):
        if time.monotonic() > deadline:
            raise SystemExit(f"{collection} was not graphed within an hour")
        time.sleep(2)


def report(kills: list[dict[str, Any]], whole: Census, killed: Census) -> None:
    print(f"\n### kill -9 at {len(kills)} points, then restarted\n")
    for row in kills:
        print(f"- {row}")
    print("\n| count | uninterrupted | killed | difference |\n|---|---|---|---|")
    for key, value in {**whole.postgres, **whole.neo4j}.items():
        other = {**killed.postgres, **killed.neo4j}[key]
        print(f"| {key} | {value} | {other} | {other - value:+d} |")
    print(f"\nNeo4j against Postgres, killed run: {killed.integrity}")
    print(f"Neo4j against Postgres, uninterrupted run: {whole.integrity}")


if __name__ == "__main__":
    main()
