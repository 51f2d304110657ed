"""Answers at MEDIUM and HIGH effort on the shared 2Wiki and HotpotQA questions, in one run
(issue 51), with no LLM (the span reader composes).

Run with `.venv/bin/python -m bench.efforts [--dataset NAME] [--questions N] [--keep DIR]`.
Each question is answered through the answers service (topK 8; HIGH reads twice that, with
three graph hops and its further rounds) on the kept databases of bench.quality. Reported per
dataset and effort:

- `shortAnswer` exact match and token F1 as served (bench/answers.py's scoring);
- recall of the gold passages among the passages read: the share of a question's gold titles
  among the titles of its answer's sources (every passage read, in every round), averaged;
- passages read, and p50 / p95 of the whole answer's time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from app.answers.request import AnswerRequest, Effort
from app.answers.results import Answer
from app.localdb.stack import local_stack, stack_services
from app.services import Services
from app.settings import PROJECT_ROOT
from app.tenancy.principal import Principal
from bench._answer_dump import TOP_K
from bench._timing import p50_p95
from bench.answers import f1, golds, normalise
from bench.quality import ensure_corpus, questions
from retrieval.request import SearchRequest

DATASETS = ("2wiki", "hotpotqa")


async def answered(
    services: Services, principal: Principal, item: dict[str, Any], effort: Effort
) -> dict[str, float]:
    dataset = item["_dataset"]
    request = AnswerRequest(SearchRequest((dataset,), item["question"], top_k=TOP_K), effort=effort)
    started = time.perf_counter()
    answer = await services.answers.answer(principal, request)
    return score(item, answer, (time.perf_counter() - started) * 1000)


def score(item: dict[str, Any], answer: Answer, ms: float) -> dict[str, float]:
    short = answer.brief.short_answer or ""
    read = {s.hit.document.title for s in answer.sources}
    gold = set(item["gold_titles"])
    return {
        "em": float(any(normalise(short) == normalise(g) for g in golds(item))),
        "f1": max(f1(short, g) for g in golds(item)),
        "recall": len(gold & read) / len(gold),
        "read": float(len(answer.sources)),
        "ms": ms,
    }


async def run(dataset: str, keep: Path, limit: int | None) -> dict[Effort, list[dict[str, float]]]:
    found: dict[Effort, list[dict[str, float]]] = defaultdict(list)
    with local_stack(keep_in=keep / dataset) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services, dataset)
            principal = await services.keys.operator(tenant)
            await services.warm_up.run(services.search)
            for item in questions(dataset, limit):
                for effort in Effort:
                    item = {**item, "_dataset": dataset}
                    found[effort].append(await answered(services, principal, item, effort))
    return found


def report(dataset: str, found: dict[Effort, list[dict[str, float]]]) -> None:
    print(f"\n### {dataset} ({len(found[Effort.MEDIUM])} questions, topK {TOP_K})\n")
    print("| effort | EM | F1 | gold recall among passages read | passages read | p50 / p95 ms |")
    print("|---|---|---|---|---|---|")
    for effort, rows in found.items():
        mean = {k: statistics.mean(r[k] for r in rows) for k in ("em", "f1", "recall", "read")}
        p50, p95 = p50_p95([r["ms"] for r in rows])
        print(
            f"| {effort.value} | {100 * mean['em']:.1f} | {100 * mean['f1']:.1f}"
            f" | {100 * mean['recall']:.1f} | {mean['read']:.1f} | {p50:.0f} / {p95:.0f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", action="append", choices=DATASETS, default=[])
    parser.add_argument("--questions", type=int, default=None, help="first N questions only")
    parser.add_argument("--keep", type=Path, default=PROJECT_ROOT / ".data" / "bench")
    args = parser.parse_args()
    for dataset in args.dataset or DATASETS:
        report(dataset, asyncio.run(run(dataset, args.keep, args.questions)))


if __name__ == "__main__":
    main()
