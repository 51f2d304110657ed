"""Ingestion benchmark on the 2Wiki corpus (6,119 passages, one document each).

Reports passages/s and chunks/s to INDEXED, the embedder alone on the same texts in the same
run and the ratio between the two, and the analyzer and postings rates.
Run with `make bench` or `.venv/bin/python -m bench.ingestion [--limit N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from app.localdb.stack import local_stack
from app.models.minilm import MiniLM
from app.services import Services, assemble
from bench._shared import shared_file
from bench._timing import seconds
from graph.driver import open_graph
from ingest.analyzer import analyze, clear_cache
from ingest.parsing import parse_text
from ingest.pipeline import prepare
from ingest.submission import DocumentSubmission
from store.migrations import migrate
from store.pool import open_pool
from store.tenants import ensure_tenant

CORPUS = ("2wiki", "corpus.json")


def load(limit: int | None, dataset: str = "2wiki") -> list[dict[str, str]]:
    passages: list[dict[str, str]] = json.loads(shared_file(dataset, CORPUS[1]).read_text())
    return passages[:limit] if limit else passages


def embedder_alone(passages: list[dict[str, str]]) -> dict[str, float]:
    """The local embedder on exactly the dense-window inputs ingestion will embed."""
    model = MiniLM()
    docs = [prepare(parse_text("text/plain", p["text"]), p["title"], model) for p in passages]
    inputs = [text for doc in docs for text in doc.embedding_inputs]
    tokens = sum(model.token_counts(inputs)) / len(inputs)
    elapsed = seconds(lambda: model.embed(inputs))
    return {
        "texts": len(inputs),
        "tokens": tokens,
        "seconds": elapsed,
        "texts_per_s": len(inputs) / elapsed,
        "passages_per_s": len(passages) / elapsed,
    }


def analyzer_alone(passages: list[dict[str, str]]) -> dict[str, float]:
    clear_cache()  # measure from cold, as a fresh process would
    terms = 0

    def run() -> None:
        nonlocal terms
        terms = sum(len(analyze(p["title"])) + len(analyze(p["text"])) for p in passages)

    elapsed = seconds(run)
    return {"passages_per_s": len(passages) / elapsed, "terms_per_s": terms / elapsed}


async def submit_corpus(
    services: Services, passages: list[dict[str, str]], collection: str = "2wiki"
) -> None:
    """Queue every passage as a document of a new collection of tenant "bench"."""
    async with services.pool.connection() as conn:
        tenant = await ensure_tenant(conn, "bench")
    await services.collections.create(tenant, collection)
    submissions = [
        DocumentSubmission(external_id=p["title"], title=p["title"], text=p["text"])
        for p in passages
    ]
    for i in range(0, len(submissions), 1000):
        await services.ingestion.submit_documents(tenant, collection, submissions[i : i + 1000])


async def ingest_all(services: Services, passages: list[dict[str, str]]) -> dict[str, float]:
    started = time.perf_counter()
    await submit_corpus(services, passages)
    await services.worker.drain()
    elapsed = time.perf_counter() - started
    async with services.pool.connection() as conn:
        counts = await (
            await conn.execute(
                "SELECT (SELECT count(*) FROM documents WHERE status = 'INDEXED'),"
                " (SELECT count(*) FROM chunks), (SELECT count(*) FROM postings)"
            )
        ).fetchone()
    assert counts is not None
    documents, chunks, postings = (int(v) for v in counts)
    assert documents == len(passages), f"{documents} of {len(passages)} indexed"
    return {
        "seconds": elapsed,
        "passages_per_s": documents / elapsed,
        "chunks_per_s": chunks / elapsed,
        "chunks": chunks,
        "postings": postings,
        "postings_copy_per_s": await postings_copy_rate(services),
    }


async def postings_copy_rate(services: Services) -> float:
    """Rows/s of the postings COPY alone: the index's rows re-sent into a scratch table."""
    async with services.pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT collection_id, term, chunk_id, tenant_id, tf FROM postings"
        )
        postings = await cursor.fetchall()
        await conn.execute("CREATE TEMP TABLE scratch (LIKE postings)")
        started = time.perf_counter()
        async with conn.cursor() as cur, cur.copy("COPY scratch FROM STDIN") as copy:
            for row in postings:
                await copy.write_row(row)
        elapsed = time.perf_counter() - started
        await conn.execute("DROP TABLE scratch")
    return len(postings) / elapsed


async def run_ingest(passages: list[dict[str, str]]) -> dict[str, dict[str, float]]:
    """Everything measured with both databases up, as ingestion runs, on a fresh stack."""
    with local_stack() as stack:
        baseline = {"embed": embedder_alone(passages), "analyze": analyzer_alone(passages)}
        await migrate(stack.endpoints.postgres_url)
        pool = await open_pool(stack.endpoints.postgres_url, 4, 30)
        graph = open_graph(stack.endpoints.neo4j_uri, None, None, "neo4j", 30)
        services = assemble(stack.settings, pool, graph)
        try:
            return {**baseline, "ingest": await ingest_all(services, passages)}
        finally:
            await services.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="first N passages only")
    args = parser.parse_args()
    passages = load(args.limit)
    figures = asyncio.run(run_ingest(passages))
    embed, analyzer, ingest = figures["embed"], figures["analyze"], figures["ingest"]
    print(f"| figure (2Wiki, {len(passages)} passages) | value |\n|---|---|")
    print(
        f"| embedder alone: {embed['texts']:.0f} dense windows, mean {embed['tokens']:.0f}"
        f" tokens | {embed['texts_per_s']:.1f} texts/s, {embed['passages_per_s']:.1f} passages/s |"
    )
    print(
        f"| ingest to INDEXED | {ingest['passages_per_s']:.1f} passages/s,"
        f" {ingest['chunks_per_s']:.1f} chunks/s ({ingest['chunks']:.0f} chunks,"
        f" {ingest['seconds']:.1f} s) |"
    )
    print(
        f"| ratio, ingest / embedder alone (passages/s) |"
        f" {ingest['passages_per_s'] / embed['passages_per_s']:.2f}x |"
    )
    print(
        f"| analyzer alone | {analyzer['passages_per_s']:.0f} passages/s,"
        f" {analyzer['terms_per_s']:.0f} terms/s |"
    )
    print(
        f"| postings: rows written, and the COPY alone | {ingest['postings']:.0f} rows,"
        f" {ingest['postings_copy_per_s']:.0f} rows/s |"
    )


if __name__ == "__main__":
    main()
