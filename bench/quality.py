"""Retrieval quality on the shared multi-hop sets: 2WikiMultiHopQA (the HippoRAG authors'
6,119-passage corpus) and HotpotQA (6,640 passages).

Run with `make bench-quality` or `.venv/bin/python -m bench.quality [--dataset NAME]
[--questions N] [--keep DIR] [--only MODE]`. Each passage is one document titled with its
title; every question is searched with topK 5 in each mode, and Recall@2 and Recall@5 are
the fractions of its gold titles in the top 2 and 5, averaged over questions, overall and
per question type, with the p50 and p95 of each search's time (the query embedding
included). `--keep DIR` keeps each dataset's indexed databases in DIR/NAME and reuses them
on the next run (ingestion takes minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.localdb.stack import local_stack, stack_services
from app.services import Services
from bench._shared import shared_file
from bench._timing import p50_p95
from bench.graph import ingest_to_graphed
from bench.ingestion import load
from retrieval.request import Leg, Mode, SearchRequest
from store.tenants import Tenant, ensure_tenant

DATASETS = ("2wiki", "hotpotqa", "squad")
COLLECTION = "2wiki"


@dataclass(frozen=True)
class Run:
    mode: Mode
    legs: tuple[Leg, ...] = tuple(Leg)
    second_round: bool | None = None  # the request's default: on in HYBRID
    match_facts: bool = False


RUNS: dict[str, Run] = {
    "KEYWORD": Run(Mode.KEYWORD),
    "SEMANTIC": Run(Mode.SEMANTIC),
    "HYBRID without graph": Run(Mode.HYBRID, (Leg.SEMANTIC, Leg.KEYWORD, Leg.SECTION)),
    "HYBRID": Run(Mode.HYBRID),
    "HYBRID without second round": Run(Mode.HYBRID, second_round=False),
    "HYBRID, fact matching": Run(Mode.HYBRID, match_facts=True),
    "GRAPH": Run(Mode.GRAPH),
}


def questions(dataset: str, limit: int | None) -> list[dict[str, Any]]:
    lines = shared_file(dataset, "questions.jsonl").read_text().splitlines()
    found = [json.loads(line) for line in lines if line.strip()]
    return found[:limit] if limit else found


@dataclass
class Recall:
    """Recall@2 and @5 per question type, and each search's milliseconds."""

    at2: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    at5: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    ms: list[float] = field(default_factory=list)

    def add(self, kind: str, gold: set[str], titles: list[str], ms: float) -> None:
        for key in (kind, "all"):
            self.at2[key].append(len(gold & set(titles[:2])) / len(gold))
            self.at5[key].append(len(gold & set(titles[:5])) / len(gold))
        self.ms.append(ms)

    def cell(self, kind: str) -> str:
        at2, at5 = self.at2.get(kind), self.at5.get(kind)
        if not at2 or not at5:
            return "–"
        return f"{100 * sum(at2) / len(at2):.1f} / {100 * sum(at5) / len(at5):.1f}"


async def recall(
    services: Services, tenant: Tenant, dataset: str, items: list[dict[str, Any]], run: str
) -> Recall:
    chosen = RUNS[run]
    services.search.forget_queries()  # each run embeds its queries, as first-time ones
    found = Recall()
    for item in items:
        question = item["question"]
        request = SearchRequest(
            (dataset,),
            question,
            chosen.mode,
            5,
            legs=chosen.legs,
            second_round=chosen.second_round,
            match_facts=chosen.match_facts,
        )
        started = time.perf_counter()
        outcome = await services.search.search(tenant, request)
        ms = (time.perf_counter() - started) * 1000
        titles = [hit.document.title for hit in outcome.hits]
        found.add(item["type"], set(item["gold_titles"]), titles, ms)
    return found


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
    await services.projector.drain()  # what a kept database recorded before it is derived
    return tenant


async def run(
    dataset: str, limit: int | None, keep: Path | None, only: list[str]
) -> dict[str, Recall]:
    with local_stack(keep_in=keep / dataset if keep else None) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services, dataset)
            items = questions(dataset, limit)
            return {
                name: await recall(services, tenant, dataset, items, name)
                for name in RUNS
                if not only or name in only
            }


def report(dataset: str, figures: dict[str, Recall]) -> None:
    kinds = sorted({k for f in figures.values() for k in f.at2 if k != "all"})
    n = len(next(iter(figures.values())).ms)
    print(f"\n### {dataset} ({n} questions, topK 5): R@2 / R@5, search ms\n")
    print("| mode | all | " + " | ".join(kinds) + " | p50 ms | p95 ms |")
    print("|---" * (len(kinds) + 4) + "|")
    for name, f in figures.items():
        p50, p95 = p50_p95(f.ms)
        cells = " | ".join(f.cell(k) for k in ["all", *kinds])
        print(f"| {name} | {cells} | {p50:.0f} | {p95:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", action="append", choices=DATASETS, default=[])
    parser.add_argument("--questions", type=int, default=None, help="first N questions only")
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases here")
    parser.add_argument("--only", action="append", default=[], help="a mode name from the table")
    args = parser.parse_args()
    for dataset in args.dataset or DATASETS:
        report(dataset, asyncio.run(run(dataset, args.questions, args.keep, args.only)))


if __name__ == "__main__":
    main()
