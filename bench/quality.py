"""Retrieval quality on 2WikiMultiHopQA (the HippoRAG authors' 6,119-passage corpus).

Run with `make bench-quality` or `.venv/bin/python -m bench.quality [--questions N]
[--keep DIR]`. Each passage is one document titled with its title; every question is searched
with topK 5 in each mode, and Recall@2 and Recall@5 are the fractions of its gold titles in
the top 2 and 5, averaged over questions. `--keep DIR` keeps the indexed databases in DIR
and reuses them on the next run (ingestion takes minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from typing import Any

from app.localdb.stack import local_stack, stack_services
from app.services import Services
from bench._shared import shared_file
from bench.graph import ingest_to_graphed
from bench.ingestion import load
from retrieval.request import Leg, Mode, SearchRequest
from store.tenants import Tenant, ensure_tenant

QUESTIONS = ("2wiki", "questions.jsonl")
COLLECTION = "2wiki"
RUNS: dict[str, tuple[Mode, tuple[Leg, ...]]] = {
    "KEYWORD": (Mode.KEYWORD, tuple(Leg)),
    "SEMANTIC": (Mode.SEMANTIC, tuple(Leg)),
    "HYBRID without graph": (Mode.HYBRID, (Leg.SEMANTIC, Leg.KEYWORD, Leg.SECTION)),
    "HYBRID": (Mode.HYBRID, tuple(Leg)),
    "GRAPH": (Mode.GRAPH, tuple(Leg)),
}


def questions(limit: int | None) -> list[dict[str, Any]]:
    lines = shared_file(*QUESTIONS).read_text().splitlines()
    found = [json.loads(line) for line in lines if line.strip()]
    return found[:limit] if limit else found


async def recall(
    services: Services,
    tenant: Tenant,
    items: list[dict[str, Any]],
    mode: Mode,
    legs: tuple[Leg, ...],
) -> dict[str, float]:
    at2 = at5 = 0.0
    started = time.perf_counter()
    for item in items:
        request = SearchRequest((COLLECTION,), item["question"], mode, 5, legs=legs)
        outcome = await services.search.search(tenant, request)
        titles = [hit.document.title for hit in outcome.hits]
        gold = set(item["gold_titles"])
        at2 += len(gold & set(titles[:2])) / len(gold)
        at5 += len(gold & set(titles[:5])) / len(gold)
    n = len(items)
    return {
        "r2": 100 * at2 / n,
        "r5": 100 * at5 / n,
        "ms": 1000 * (time.perf_counter() - started) / n,
    }


async def ensure_corpus(services: Services, dataset: str = COLLECTION) -> Tenant:
    """Tenant "bench", with the dataset's corpus in a collection of its name, graphed (a
    kept database already has it)."""
    async with services.pool.connection() as conn:
        tenant = await ensure_tenant(conn, "bench")
        cursor = await conn.execute(
            "SELECT count(*) FROM documents d JOIN collections c ON c.id = d.collection_id"
            " WHERE c.name = %s AND d.status = 'GRAPHED'",
            (dataset,),
        )
        row = await cursor.fetchone()
    if not row or row[0] == 0:
        seconds = await ingest_to_graphed(services, load(None, dataset), dataset)
        print(f"ingested and graphed {dataset} in {seconds:.0f} s")
    return tenant


async def run(limit: int | None, keep: Path | None, only: list[str]) -> dict[str, dict[str, float]]:
    with local_stack(keep_in=keep) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services)
            items = questions(limit)
            return {
                name: await recall(services, tenant, items, *RUNS[name])
                for name in RUNS
                if not only or name in only
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=None, help="first N questions only")
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases here")
    parser.add_argument("--only", action="append", default=[], help="a mode name from the table")
    args = parser.parse_args()
    figures = asyncio.run(run(args.questions, args.keep, args.only))
    n = args.questions or len(questions(None))
    print(f"| mode (2Wiki, {n} questions, topK 5) | R@2 | R@5 | ms/query |\n|---|---|---|---|")
    for name, f in figures.items():
        print(f"| {name} | {f['r2']:.1f} | {f['r5']:.1f} | {f['ms']:.0f} |")


if __name__ == "__main__":
    main()
