"""Knowledge-graph benchmark on the 2Wiki corpus: ingest to GRAPHED, NER and Neo4j rates.

Run with `make bench` or `.venv/bin/python -m bench.graph [--limit N]`. The ingest worker and
the graph worker run side by side, as in the server, on a fresh pair of databases.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from app.localdb.stack import local_stack
from app.services import Services, assemble
from bench._timing import seconds
from bench.ingestion import load, submit_corpus
from graph.driver import GraphStore, Statement, open_graph
from ingest.extraction import Extractor
from store.migrations import migrate
from store.pool import open_pool


class TimedGraph(GraphStore):
    """Counts the time spent in Neo4j writes."""

    write_seconds = 0.0

    async def write(self, query: Any, **params: Any) -> list[dict[str, Any]]:
        started = time.perf_counter()
        try:
            return await super().write(query, **params)
        finally:
            TimedGraph.write_seconds += time.perf_counter() - started

    async def write_many(self, statements: list[Statement]) -> None:
        started = time.perf_counter()
        try:
            await super().write_many(statements)
        finally:
            TimedGraph.write_seconds += time.perf_counter() - started


def ner_alone(passages: list[dict[str, str]], model: str) -> float:
    extractor = Extractor(model)
    texts = [(0, p["text"]) for p in passages]
    return len(passages) / seconds(lambda: extractor.extract(texts))


async def ingest_to_graphed(
    services: Services, passages: list[dict[str, str]], collection: str = "2wiki"
) -> float:
    started = time.perf_counter()
    await submit_corpus(services, passages, collection)
    await asyncio.gather(services.worker.drain(), _graph_until_done(services, len(passages)))
    return time.perf_counter() - started


async def _graph_until_done(services: Services, total: int) -> None:
    while await _count(services, "SELECT count(*) FROM documents WHERE status = 'GRAPHED'") < total:
        if not await services.projector.drain():
            await asyncio.sleep(0.2)


async def _count(services: Services, sql: str) -> int:
    async with services.pool.connection() as conn:
        row = await (await conn.execute(sql)).fetchone()
    return int(row[0]) if row else 0


async def figures(passages: list[dict[str, str]]) -> dict[str, float]:
    with local_stack() as stack:
        ner = ner_alone(passages, stack.settings.spacy_model)
        await migrate(stack.endpoints.postgres_url)
        pool = await open_pool(stack.endpoints.postgres_url, 4, 60)
        plain = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 60)
        graph = TimedGraph(plain.driver, plain.database)
        services = assemble(stack.settings, pool, graph)
        try:
            from graph.constraints import ensure_constraints

            await ensure_constraints(graph)
            TimedGraph.write_seconds = 0.0
            elapsed = await ingest_to_graphed(services, passages)
            return {"ner": ner, "elapsed": elapsed, **await _graph_counts(services)}
        finally:
            await services.close()


async def _graph_counts(services: Services) -> dict[str, float]:
    records = await services.graph.read(
        "MATCH (n) WITH count(n) AS nodes MATCH ()-[r]->() RETURN nodes, count(r) AS rels"
    )
    cooccurs = await services.graph.read("MATCH ()-[r:CO_OCCURS]->() RETURN count(r) AS n")
    return {
        "entities": await _count(services, "SELECT count(*) FROM entities"),
        "facts": await _count(services, "SELECT count(*) FROM facts"),
        "with_fact": await _count(services, "SELECT count(DISTINCT document_id) FROM facts"),
        "cooccurs": cooccurs[0]["n"],
        "neo4j_items": records[0]["nodes"] + records[0]["rels"],
        "neo4j_seconds": TimedGraph.write_seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="first N passages only")
    args = parser.parse_args()
    passages = load(args.limit)
    f = asyncio.run(figures(passages))
    n = len(passages)
    print(f"| figure (2Wiki, {n} passages) | value |\n|---|---|")
    print(f"| NER alone (spaCy, full pipeline, nlp.pipe) | {f['ner']:.1f} passages/s |")
    print(
        f"| whole corpus, ingest to GRAPHED | {f['elapsed']:.1f} s ({n / f['elapsed']:.1f}"
        " passages/s; goal under 240 s) |"
    )
    print(
        f"| Neo4j writes | {f['neo4j_items']:.0f} nodes + relationships in"
        f" {f['neo4j_seconds']:.1f} s of writing, {f['neo4j_items'] / f['neo4j_seconds']:.0f}/s |"
    )
    print(
        f"| entities, typed facts, co-occurrence edges | {f['entities']:.0f},"
        f" {f['facts']:.0f}, {f['cooccurs']:.0f} |"
    )
    print(f"| passages with at least one typed fact | {f['with_fact'] / n:.1%} |")


if __name__ == "__main__":
    main()
