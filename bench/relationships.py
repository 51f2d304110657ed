"""Relationship-path benchmark on a synthetic graph: 100k entities and 1M edges.

Run with `make bench` or `.venv/bin/python -m bench.relationships [--entities N]`.
Edges: 600k co-occurrences and 100k dated facts between entities chosen with a skewed
(Zipf-like) popularity, so hubs with thousands of edges exist, plus 300k mentions of
100k chunks. Every figure sits next to a baseline measured in the same run: the same
Cypher without the time filter, and networkx's pagerank on the same subgraph.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime
from typing import Any

import networkx
import numpy as np

from app.localdb.stack import local_stack
from bench._timing import p50_p95
from graph.constraints import ensure_constraints
from graph.driver import GraphStore, open_graph
from graph.neighborhood import neighborhood
from graph.paths import find_paths
from graph.temporal import EVERYTHING, TimeFilter
from graph.timeline import timeline
from retrieval.ppr import ALPHA, Restart, personalized_pagerank

TENANT = "bench-tenant"
COLLECTION = "bench-collection"
BATCH = 10_000
SAMPLES = 200
NOW_FILTER = TimeFilter()
AS_OF = TimeFilter(valid_at=datetime(2015, 6, 1, tzinfo=UTC))


def popular(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    """Entity indexes with Zipf-like popularity (exponent 0.8): a few hubs, a long tail."""
    weights = 1.0 / np.arange(1, n + 1) ** 0.8
    return rng.choice(n, size=size, p=weights / weights.sum())


async def load_graph(
    graph: GraphStore, entities: int, rng: np.random.Generator
) -> dict[str, float]:
    ids = [str(uuid.UUID(int=i + 1)) for i in range(entities)]
    started = time.perf_counter()
    await _batches(graph, _ENTITY, [{"id": i, "name": f"Entity {n}"} for n, i in enumerate(ids)])
    nodes_s = time.perf_counter() - started
    edges = 0
    started = time.perf_counter()
    edges += await _cooccurrences(graph, ids, rng, 6 * entities)
    edges += await _facts(graph, ids, rng, entities)
    edges += await _mentions(graph, ids, rng, entities)
    return {"edges": edges, "edge_seconds": time.perf_counter() - started, "node_seconds": nodes_s}


_ENTITY = (
    "UNWIND $rows AS row CREATE (:Entity {id: row.id, name: row.name, type: 'ORG',"
    " aliases: [], names: row.name, collection_id: $c, tenant_id: $t, mention_count: 1})"
)
_COOCCURS = (
    "UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b})"
    " CREATE (a)-[:CO_OCCURS {document_id: row.d, weight: row.w}]->(b)"
)
_FACTS = (
    "UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b})"
    " CREATE (a)-[:RELATED {fact_id: row.f, predicate: row.p, document_id: row.d,"
    " chunk_id: row.d, span_start: 0, span_end: 40, sentence: 'A synthetic sentence.',"
    " valid_from: row.vf, valid_from_precision: 'year', valid_to: row.vt,"
    " recorded_at: datetime()}]->(b)"
)
_MENTIONS = (
    "UNWIND $rows AS row MATCH (e:Entity {id: row.e})"
    " MERGE (c:Chunk {id: row.c}) ON CREATE SET c.tenant_id = $t, c.collection_id = $c,"
    " c.document_id = row.c, c.ordinal = 0"
    " CREATE (e)-[:MENTIONED_IN {count: 1, spans: [0, 5], document_id: row.c}]->(c)"
)


async def _batches(graph: GraphStore, query: Any, rows: list[dict[str, Any]]) -> int:
    for start in range(0, len(rows), BATCH):
        await graph.write(query, rows=rows[start : start + BATCH], c=COLLECTION, t=TENANT)
    return len(rows)


async def _cooccurrences(
    graph: GraphStore, ids: list[str], rng: np.random.Generator, n: int
) -> int:
    a, b = popular(rng, len(ids), n), rng.integers(0, len(ids), n)
    rows = [
        {"a": ids[x], "b": ids[y], "d": f"doc-{i % 50_000}", "w": int(w)}
        for i, (x, y, w) in enumerate(zip(a, b, rng.integers(1, 5, n), strict=True))
        if x != y
    ]
    return await _batches(graph, _COOCCURS, rows)


async def _facts(graph: GraphStore, ids: list[str], rng: np.random.Generator, n: int) -> int:
    a, b = popular(rng, len(ids), n), rng.integers(0, len(ids), n)
    years = rng.integers(1990, 2024, n)
    rows = [
        {
            "a": ids[x],
            "b": ids[y],
            "f": str(uuid.uuid4()),
            "p": ("acquire", "found", "headquartered in", "ceo of")[i % 4],
            "d": f"doc-{i % 50_000}",
            "vf": str(year),
            "vt": str(year + 5) if i % 3 == 0 else None,
        }
        for i, (x, y, year) in enumerate(zip(a, b, years, strict=True))
        if x != y
    ]
    return await _batches(graph, _FACTS, rows)


async def _mentions(graph: GraphStore, ids: list[str], rng: np.random.Generator, n: int) -> int:
    chunks = n
    who = popular(rng, len(ids), 3 * chunks)
    rows = [{"e": ids[e], "c": f"chunk-{i // 3}"} for i, e in enumerate(who)]
    unique = list({(r["e"], r["c"]): r for r in rows}.values())
    return await _batches(graph, _MENTIONS, unique)


async def interleaved(
    actions: dict[str, Callable[[Any], Awaitable[object]]], inputs: list[Any]
) -> dict[str, tuple[float, float]]:
    """p50 and p95 in ms per action. Actions alternate on each input, so caches warming up
    and machine noise fall on all of them alike."""
    for item in inputs[:20]:
        for action in actions.values():
            await action(item)
    samples: dict[str, list[float]] = {name: [] for name in actions}
    for item in inputs:
        for name, action in actions.items():
            started = time.perf_counter()
            await action(item)
            samples[name].append((time.perf_counter() - started) * 1000)
    return {name: p50_p95(values) for name, values in samples.items()}


def ppr_versus_networkx(
    edges: dict[tuple[str, str], float], seed: str, repeat: int = 5
) -> tuple[float, float]:
    nodes = sorted({n for e in edges for n in e})
    started = time.perf_counter()
    for _ in range(repeat):
        ours = personalized_pagerank(nodes, edges, Restart((seed,)))
    ours_s = (time.perf_counter() - started) / repeat
    g = networkx.Graph()
    g.add_weighted_edges_from((a, b, w) for (a, b), w in edges.items())
    started = time.perf_counter()
    for _ in range(repeat):
        theirs = networkx.pagerank(g, alpha=1 - ALPHA, personalization={seed: 1.0}, tol=1e-10)
    theirs_s = (time.perf_counter() - started) / repeat
    difference = sum(abs(ours[n] - theirs[n]) for n in nodes)
    assert difference < 1e-6, f"PPR differs from networkx by {difference:.2e} (L1)"
    return ours_s * 1000, theirs_s * 1000


async def measure(graph: GraphStore, entities: int, rng: np.random.Generator) -> dict[str, Any]:
    ids = [str(uuid.UUID(int=int(i) + 1)) for i in popular(rng, entities, SAMPLES)]
    pairs = list(
        zip(
            ids,
            [str(uuid.UUID(int=int(i) + 1)) for i in rng.integers(0, entities, SAMPLES)],
            strict=True,
        )
    )

    def around(time_filter: TimeFilter) -> Callable[[str], Awaitable[object]]:
        return lambda e: neighborhood(graph, TENANT, e, 2, time_filter, [], 50)

    def between(time_filter: TimeFilter) -> Callable[[tuple[str, str]], Awaitable[object]]:
        return lambda p: find_paths(graph, TENANT, p[0], p[1], 4, time_filter, 10)

    figures: dict[str, Any] = await interleaved(
        {
            "neighborhood": around(NOW_FILTER),
            "neighborhood_as_of": around(AS_OF),
            "neighborhood_base": around(EVERYTHING),
        },
        ids,
    )
    figures |= await interleaved(
        {
            "paths": between(NOW_FILTER),
            "paths_as_of": between(AS_OF),
            "paths_base": between(EVERYTHING),
        },
        pairs,
    )
    figures |= await interleaved(
        {
            "timeline": lambda e: timeline(graph, TENANT, e, date(2000, 1, 1), None, None, 100),
            "timeline_base": lambda e: timeline(graph, TENANT, e, None, None, None, 100),
        },
        ids,
    )
    return figures | await _ppr_figures(graph, ids[:50])


_AROUND = (
    "MATCH (s:Entity {id: $seed, tenant_id: $tenant})-[:MENTIONED_IN]->(c:Chunk)"
    " MATCH (c)<-[m:MENTIONED_IN]-(e:Entity)"
    " RETURN e.id AS entity, c.id AS chunk, m.weight AS weight LIMIT 20000"
)


async def _ppr_figures(graph: GraphStore, seeds: list[str]) -> dict[str, Any]:
    """PPR against networkx on each seed's chunks and their entities (search reads its
    subgraph from Postgres, store/subgraph.py; this graph lives in Neo4j only)."""
    ours, theirs, sizes = [], [], []
    for seed in seeds:
        rows = await graph.read(_AROUND, seed=seed, tenant=TENANT)
        edges = {(r["entity"], r["chunk"]): float(r["weight"] or 1.0) for r in rows}
        if edges:
            mine, base = ppr_versus_networkx(edges, seed)
            ours.append(mine)
            theirs.append(base)
            sizes.append(len(edges))
    return {
        "ppr": statistics.median(ours),
        "ppr_base": statistics.median(theirs),
        "ppr_edges": statistics.median(sizes),
    }


async def run(entities: int) -> tuple[dict[str, float], dict[str, Any]]:
    rng = np.random.default_rng(7)
    with local_stack() as stack:
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 600)
        try:
            await ensure_constraints(graph)
            loaded = await load_graph(graph, entities, rng)
            return loaded, await measure(graph, entities, rng)
        finally:
            await graph.close()


def report(entities: int, loaded: dict[str, float], f: dict[str, Any]) -> None:
    rate = loaded["edges"] / loaded["edge_seconds"]
    print(
        f"| figure ({entities} entities, {loaded['edges']:.0f} edges) | p50 ms | p95 ms"
        " | vs baseline (p95) |"
    )
    print("|---|---|---|---|")
    print(f"| load: edges with UNWIND batches of {BATCH} | {rate:.0f} edges/s | | |")
    for name, label in (
        ("neighborhood", "neighborhood, 2 hops, first 50 (current facts)"),
        ("neighborhood_as_of", "neighborhood, 2 hops, first 50, asOf 2015-06-01"),
        ("paths", "paths, maxHops 4, first 10 (current facts)"),
        ("paths_as_of", "paths, maxHops 4, first 10, asOf 2015-06-01"),
        ("timeline", "timeline, from 2000, first 100"),
    ):
        base = f[name.replace("_as_of", "") + "_base"]
        p50, p95 = f[name]
        print(
            f"| {label} | {p50:.1f} | {p95:.1f} | {p95 / base[1]:.2f}x (no filter: {base[1]:.1f}) |"
        )
    print(
        f"| PPR on a seed's chunks and their entities (median {f['ppr_edges']:.0f} edges)"
        f" | {f['ppr']:.2f} | |"
        f" {f['ppr'] / f['ppr_base']:.2f}x networkx pagerank ({f['ppr_base']:.1f} ms) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=100_000)
    args = parser.parse_args()
    loaded, figures = asyncio.run(run(args.entities))
    report(args.entities, loaded, figures)


if __name__ == "__main__":
    main()
