"""Search latency at 10k and 100k main chunks, against baselines measured in the same run.

Run with `make bench` or `.venv/bin/python -m bench.search [--keep DIR] [--queries N]`.
The 2Wiki corpus is indexed once (with `--keep DIR`, reused from the quality benchmark's
folder), then replicated in SQL into collections of about 10k and 100k main chunks: copies
keep their text and postings, and their vectors get random noise (uniform, 0.1 wide per
dimension: a copy's cosine to its original is about 0.87). Near-duplicates would make
HNSW recall@10 meaningless: the ten nearest would be a tie among one passage's copies.
Reported, per size:
- p50 and p95 of the KEYWORD, SEMANTIC, HYBRID (keyword + semantic + section), GRAPH and
  four-leg HYBRID searches, query embedding included;
- the dense leg against a numpy exact scan over the same vectors;
- HNSW recall@10 against an exact scan in Postgres;
- the keyword leg against `bm25s` fed the same tokens, with top-10 agreement.
Copies also get the source's graph (bench/_graph_copies.py), so GRAPH and four-leg HYBRID
are measured at every size.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import bm25s
import numpy as np

from app.localdb.stack import local_stack, stack_services
from app.search.legs import EF_SEARCH, QueryVectors
from app.services import Services
from bench._graph_copies import add_graph
from bench._sql import COPY_ID, collection_id, count
from bench._timing import p50_p95
from bench.quality import COLLECTION, ensure_corpus, questions
from ingest.analyzer import analyze
from retrieval.lexical_index import K1, B
from retrieval.request import Leg, Mode, SearchRequest
from store import bm25
from store import search as rows
from store.pool import Conn
from store.scope import Scope
from store.tenants import Tenant

SIZES = (10_000, 100_000)
NOISE = 0.1  # per dimension: copies sit about as far apart as related passages


async def replicate(services: Services, tenant: Tenant, target_chunks: int) -> str:
    """A collection of about `target_chunks` main chunks made of copies of the corpus."""
    name = f"{COLLECTION}-{target_chunks}-noise{NOISE}"
    async with services.pool.connection() as conn:
        await conn.set_autocommit(True)  # each copy below is its own transaction
        try:
            await _replicate(services, conn, tenant, name, target_chunks)
        finally:
            await conn.set_autocommit(False)
    return name


async def _replicate(
    services: Services, conn: Conn, tenant: Tenant, name: str, target_chunks: int
) -> None:
    source = await collection_id(conn, COLLECTION)
    existing = await collection_id(conn, name)
    if existing is not None:
        if await count(conn, "SELECT count(*) FROM chunks WHERE collection_id = %s", existing):
            await conn.execute("ANALYZE documents, chunks, chunk_links, postings")
            await add_graph(services, conn, tenant, name, (source, existing))
            return
        await conn.execute("DELETE FROM collections WHERE id = %s", (existing,))
    await services.collections.create(tenant, name)
    target = await collection_id(conn, name)
    per_copy = await count(
        conn, "SELECT count(*) FROM chunks WHERE collection_id = %s AND kind = 'main'", source
    )
    for copy in range(-(-target_chunks // per_copy)):
        async with conn.transaction():
            await _copy(conn, source, target, copy)
        print(f"  {name}: copy {copy + 1} done", flush=True)
    await conn.execute("ANALYZE documents, chunks, chunk_links, postings, collection_stats")
    await add_graph(services, conn, tenant, name, (source, target))


async def _copy(conn: Conn, source: Any, target: Any, copy: int) -> None:
    params = {"source": source, "target": target, "copy": str(copy), "noise": NOISE}
    for sql in _COPY_SQL:
        await conn.execute(sql, params)


_NEW = COPY_ID
_COPY_SQL = (
    "INSERT INTO documents (id, tenant_id, collection_id, external_id, source_type, title,"
    " content_type, metadata, content_hash, body, pages, status, version, chunk_count)"
    f" SELECT {_NEW.format('d.id')}, d.tenant_id, %(target)s, d.external_id || '#' || %(copy)s,"
    " d.source_type, d.title, d.content_type, d.metadata, d.content_hash, d.body, d.pages,"
    " 'INDEXED', 1, d.chunk_count FROM documents d WHERE d.collection_id = %(source)s",
    "INSERT INTO chunks (id, tenant_id, collection_id, document_id, kind, ordinal, char_start,"
    " char_end, content, term_count, embedding)"
    f" SELECT {_NEW.format('c.id')}, c.tenant_id, %(target)s, {_NEW.format('c.document_id')},"
    " c.kind, c.ordinal, c.char_start, c.char_end, c.content, c.term_count,"
    " CASE WHEN c.embedding IS NULL THEN NULL ELSE c.embedding + (SELECT array_agg("
    "  (random() - 0.5) * %(noise)s + 0 * g.i) FROM generate_series(1,"
    "  vector_dims(c.embedding)) AS g(i))::vector END"
    " FROM chunks c WHERE c.collection_id = %(source)s",
    "INSERT INTO chunk_links (window_id, main_id, tenant_id)"
    f" SELECT {_NEW.format('l.window_id')}, {_NEW.format('l.main_id')}, l.tenant_id"
    " FROM chunk_links l JOIN chunks c ON c.id = l.main_id WHERE c.collection_id = %(source)s",
    "INSERT INTO postings (collection_id, term, chunk_id, tenant_id, tf)"
    f" SELECT %(target)s, p.term, {_NEW.format('p.chunk_id')}, p.tenant_id, p.tf"
    " FROM postings p WHERE p.collection_id = %(source)s",
    "INSERT INTO collection_stats (collection_id, tenant_id, chunk_count, term_total)"
    " SELECT %(target)s, s.tenant_id, s.chunk_count, s.term_total FROM collection_stats s"
    " WHERE s.collection_id = %(source)s ON CONFLICT (collection_id) DO UPDATE SET"
    " chunk_count = collection_stats.chunk_count + EXCLUDED.chunk_count,"
    " term_total = collection_stats.term_total + EXCLUDED.term_total,"
    " version = collection_stats.version + 1",
)


async def latencies(
    services: Services,
    tenant: Tenant,
    name: str,
    items: list[str],
    mode: Mode,
    legs: tuple[Leg, ...],
) -> tuple[float, float]:
    samples = []
    for query in items:
        started = time.perf_counter()
        await services.search.search(tenant, SearchRequest((name,), query, mode, 10, legs=legs))
        samples.append((time.perf_counter() - started) * 1000)
    return p50_p95(samples)


async def dense_versus_numpy(
    services: Services, scope: Scope, vectors: list[np.ndarray]
) -> dict[str, float]:
    """The dense leg's SQL (HNSW) against numpy's exact scan, and HNSW recall@10."""
    async with services.pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT id, embedding FROM chunks WHERE collection_id = %s AND kind = 'small'"
            " AND embedding IS NOT NULL",
            (scope.collection_id,),
        )
        found = await cursor.fetchall()
    ids = [row[0] for row in found]
    matrix = np.vstack([row[1].to_numpy() for row in found]).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    sql_ms, numpy_ms, recall = [], [], []
    for vector in vectors:
        started = time.perf_counter()
        async with services.pool.connection() as conn, conn.transaction():
            approx = await rows.dense_hnsw(conn, scope, vector, 10, EF_SEARCH)
        sql_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        top = np.argpartition(-(matrix @ vector), 40)[:40]
        numpy_ms.append((time.perf_counter() - started) * 1000)
        async with services.pool.connection() as conn:
            exact = await rows.dense_exact(conn, scope, vector, 10)
        recall.append(len({c for c, _ in approx} & {c for c, _ in exact}) / max(len(exact), 1))
        del top
    return {
        "sql_p50": p50_p95(sql_ms)[0],
        "sql_p95": p50_p95(sql_ms)[1],
        "numpy_p50": p50_p95(numpy_ms)[0],
        "numpy_p95": p50_p95(numpy_ms)[1],
        "recall": statistics.mean(recall),
        "vectors": len(ids),
    }


async def keyword_versus_bm25s(
    services: Services, scope: Scope, items: list[str]
) -> dict[str, float]:
    """Our BM25 (in memory, and in SQL) against bm25s over the same tokens (Lucene, same k1, b)."""
    async with services.pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT chunk_id, term, tf FROM postings WHERE collection_id = %s",
            (scope.collection_id,),
        )
        postings = await cursor.fetchall()
    docs: dict[UUID, list[str]] = {}
    for chunk, term, tf in postings:
        docs.setdefault(chunk, []).extend([term] * tf)
    ids = list(docs)
    retriever = bm25s.BM25(method="lucene", k1=K1, b=B)
    retriever.index([docs[i] for i in ids], show_progress=False)
    ours_ms, sql_ms, theirs_ms, agreement = [], [], [], []
    for query in items:
        terms = analyze(query)
        started = time.perf_counter()
        async with services.pool.connection() as conn:
            stats = await bm25.stats(conn, scope.tenant_id, scope.collection_id)
            mine = await services.keyword_index.search(conn, scope, terms, 10, stats)
        ours_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        async with services.pool.connection() as conn:
            in_sql = await bm25.search_scope(conn, scope, terms, 10)
        # Copies tie exactly; summation order may break such ties differently, not scores.
        assert np.allclose([s for _, s in in_sql], [s for _, s in mine], rtol=0, atol=1e-9)
        sql_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        found, _ = retriever.retrieve([sorted(set(terms))], k=10, show_progress=False)
        theirs_ms.append((time.perf_counter() - started) * 1000)
        theirs = {ids[int(i)] for i in found[0]}
        agreement.append(len({c for c, _ in mine} & theirs) / 10)
    return {
        "ours_p95": p50_p95(ours_ms)[1],
        "sql_p95": p50_p95(sql_ms)[1],
        "theirs_p95": p50_p95(theirs_ms)[1],
        "agreement": statistics.mean(agreement),
    }


async def figures(keep: Path | None, count: int) -> list[dict[str, Any]]:
    with local_stack(keep_in=keep) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services)
            items = [q["question"] for q in questions(COLLECTION, count)]
            return [await _one_size(services, tenant, size, items) for size in (0, *SIZES)]


async def _one_size(
    services: Services, tenant: Tenant, size: int, items: list[str]
) -> dict[str, Any]:
    name = COLLECTION if size == 0 else await replicate(services, tenant, size)
    async with services.pool.connection() as conn:
        cid = await collection_id(conn, name)
        chunks = await count(
            conn, "SELECT count(*) FROM chunks WHERE collection_id = %s AND kind = 'main'", cid
        )
    scope = Scope(tenant.id, cid)
    result: dict[str, Any] = {"name": name, "chunks": chunks}
    for label, mode, legs in (*_MODES, *_GRAPH_MODES) if size else _GRAPH_MODES:
        await latencies(services, tenant, name, items[:5], mode, legs)  # warm-up
        await services.keyword_index.settle()  # the first search started its index build
        result[label] = await latencies(services, tenant, name, items, mode, legs)
    if size:
        embedder = services.embedders.get("all-MiniLM-L6-v2")
        cache = QueryVectors()
        vectors = [await cache.embed(embedder, q) for q in items]
        result["dense"] = await dense_versus_numpy(services, scope, vectors)
        result["keyword"] = await keyword_versus_bm25s(services, scope, items)
    return result


_TEXT_LEGS = (Leg.SEMANTIC, Leg.KEYWORD, Leg.SECTION)
_MODES = (
    ("KEYWORD", Mode.KEYWORD, tuple(Leg)),
    ("SEMANTIC", Mode.SEMANTIC, tuple(Leg)),
    ("HYBRID (no graph)", Mode.HYBRID, _TEXT_LEGS),
)
_GRAPH_MODES = (("GRAPH", Mode.GRAPH, tuple(Leg)), ("HYBRID", Mode.HYBRID, tuple(Leg)))


def report(results: list[dict[str, Any]]) -> None:
    print("| collection | main chunks | search | p50 ms | p95 ms |\n|---|---|---|---|---|")
    for r in results:
        for label in ("KEYWORD", "SEMANTIC", "HYBRID (no graph)", "GRAPH", "HYBRID"):
            if label in r:
                p50, p95 = r[label]
                print(f"| {r['name']} | {r['chunks']} | {label} | {p50:.1f} | {p95:.1f} |")
    print(
        "\n| main chunks | dense (HNSW, SQL) p95 | numpy exact p95 | ratio | HNSW recall@10 |"
        " keyword leg BM25 p95 | bm25s p95 | ratio | BM25 in SQL p95 | top-10 agreement |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if "dense" in r:
            d, k = r["dense"], r["keyword"]
            print(
                f"| {r['chunks']} | {d['sql_p95']:.1f} ms | {d['numpy_p95']:.1f} ms |"
                f" {d['sql_p95'] / d['numpy_p95']:.1f}x | {d['recall']:.3f} |"
                f" {k['ours_p95']:.1f} ms | {k['theirs_p95']:.1f} ms |"
                f" {k['ours_p95'] / k['theirs_p95']:.1f}x | {k['sql_p95']:.1f} ms |"
                f" {k['agreement']:.3f} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases here")
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    report(asyncio.run(figures(args.keep, args.queries)))


if __name__ == "__main__":
    main()
