"""Answers at MEDIUM and HIGH effort, and research runs, on the shared 2Wiki and HotpotQA
questions, in one run (issue 51), with no LLM (the span reader composes).

Run with `.venv/bin/python -m bench.efforts [--dataset NAME] [--questions N] [--keep DIR]
[--planner]`.
Each question is answered through the answers service (topK 8; HIGH reads twice that, with
three graph hops and its further rounds), then as a research run through the research service
(started, worked by this process's research worker until it ends, and read back), on the kept
databases of bench.quality. A run's time is from its start to its end. Reported per dataset
and way:

- `shortAnswer` exact match and token F1 as served (bench/answers.py's scoring);
- recall of the gold passages among the passages read: the share of a question's gold titles
  among the titles of its answer's sources (every passage read, in every round), averaged;
- passages read, and p50 / p95 of the whole answer's time, each way with a span reader that
  has kept nothing from the way before.

With `--planner` (default 40 questions), each question is researched twice instead: with no
LLM, and with the local model (bench/_local_model.py, llama.cpp on two threads) as the run's
model, which plans its sub-questions (app/research/planner.py) and composes its answer.
Reported beside the above: the sub-questions the plan kept and rejected, a run's mean, and
the exact match and F1 of its last draft, which the span reader composes from everything the
run read whichever model composes the answer: what the plan changed in what was read.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.answers.extractive.reader import shared_reader
from app.answers.request import AnswerRequest, Effort
from app.answers.results import Answer
from app.localdb.stack import local_stack, stack_services
from app.research.runs import ResearchRun, StepKind
from app.services import Services
from app.settings import PROJECT_ROOT
from app.tenancy.principal import Principal
from bench._answer_dump import TOP_K
from bench._local_model import local_model_server
from bench._timing import p50_p95
from bench.answers import f1, golds, normalise
from bench.quality import ensure_corpus, questions
from bench.verification import llm_services
from retrieval.request import SearchRequest
from store import research

DATASETS = ("2wiki", "hotpotqa")


RESEARCH = "RESEARCH"
WAYS = (Effort.MEDIUM.value, Effort.HIGH.value, RESEARCH)
PLANNED = "RESEARCH, planned by the local model"
PLANNER_QUESTIONS = 40


async def answered(
    services: Services, principal: Principal, item: dict[str, Any], way: str
) -> dict[str, float]:
    request = AnswerRequest(SearchRequest((item["_dataset"],), item["question"], top_k=TOP_K))
    shared_reader().forget()  # each way reads its passages itself, not from the way before
    started = time.perf_counter()
    if way == RESEARCH:
        answer = await researched(services, principal, request)
    else:
        answer = await services.answers.answer(principal, replace(request, effort=Effort(way)))
    return score(item, answer, (time.perf_counter() - started) * 1000)


async def researched(services: Services, principal: Principal, request: AnswerRequest) -> Answer:
    run = await finished(services, principal, request)
    assert run.answer is not None, run.reason
    return run.answer


async def finished(services: Services, principal: Principal, request: AnswerRequest) -> ResearchRun:
    """A research run started, worked by this process's research worker, and read back."""
    run = await services.research.start(principal, request)
    while not run.status.ended:
        await asyncio.gather(*await services.research_worker.claim_some())
        run = await services.research.run(principal, str(run.id))
    return run


def score(item: dict[str, Any], answer: Answer, ms: float) -> dict[str, float]:
    short = answer.brief.short_answer or ""
    read = {s.hit.document.title for s in answer.sources}
    gold = set(item["gold_titles"])
    em, f1_ = matched(item, short)
    return {
        "em": em,
        "f1": f1_,
        "recall": len(gold & read) / len(gold),
        "read": float(len(answer.sources)),
        "ms": ms,
    }


async def run(dataset: str, keep: Path, limit: int | None) -> dict[str, list[dict[str, float]]]:
    found: dict[str, list[dict[str, float]]] = defaultdict(list)
    with local_stack(keep_in=keep / dataset) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services, dataset)
            principal = await services.keys.operator(tenant)
            await services.warm_up.run(services.search)
            for item in questions(dataset, limit):
                for way in WAYS:
                    item = {**item, "_dataset": dataset}
                    found[way].append(await answered(services, principal, item, way))
    return found


def report(dataset: str, found: dict[str, list[dict[str, float]]]) -> None:
    print(f"\n### {dataset} ({len(found[RESEARCH])} questions, topK {TOP_K})\n")
    print("| way | EM | F1 | gold recall among passages read | passages read | p50 / p95 ms |")
    print("|---|---|---|---|---|---|")
    for way, rows in found.items():
        mean = {k: statistics.mean(r[k] for r in rows) for k in ("em", "f1", "recall", "read")}
        p50, p95 = p50_p95([r["ms"] for r in rows])
        print(
            f"| {way} | {100 * mean['em']:.1f} | {100 * mean['f1']:.1f}"
            f" | {100 * mean['recall']:.1f} | {mean['read']:.1f} | {p50:.0f} / {p95:.0f} |",
            flush=True,
        )


async def run_planned(
    dataset: str, keep: Path, limit: int, llama: tuple[str, str]
) -> dict[str, list[dict[str, float]]]:
    url, model = llama
    found: dict[str, list[dict[str, float]]] = defaultdict(list)
    with local_stack(keep_in=keep / dataset) as stack:
        async with llm_services(stack, f"{url}/v1", model) as services:
            tenant = await ensure_corpus(services, dataset)
            principal = await services.keys.operator(tenant)
            await services.warm_up.run(services.search)
            for item in questions(dataset, limit):
                item = {**item, "_dataset": dataset}
                for way, chosen in ((RESEARCH, None), (PLANNED, model)):
                    found[way].append(await planned(services, principal, item, chosen))
    return found


async def planned(
    services: Services, principal: Principal, item: dict[str, Any], model: str | None
) -> dict[str, float]:
    """One research run's figures, with `model` (None: no LLM) planning and composing."""
    search = SearchRequest((item["_dataset"],), item["question"], top_k=TOP_K)
    shared_reader().forget()
    started = time.perf_counter()
    run = await finished(services, principal, AnswerRequest(search, model=model))
    assert run.answer is not None, run.reason
    figures = score(item, run.answer, (time.perf_counter() - started) * 1000)
    return figures | drafted(item, run) | await plan_of(services, run)


def drafted(item: dict[str, Any], run: ResearchRun) -> dict[str, float]:
    """The exact match and F1 of the run's last draft (the span reader's, from all it read)."""
    briefs = [step.brief for step in run.steps if step.brief is not None]
    em, f1_ = matched(item, (briefs[-1].short_answer if briefs else None) or "")
    return {"draft_em": em, "draft_f1": f1_}


def matched(item: dict[str, Any], short: str) -> tuple[float, float]:
    """A short answer's exact match and token F1 against the item's gold answers."""
    em = float(any(normalise(short) == normalise(g) for g in golds(item)))
    return em, max(f1(short, g) for g in golds(item))


async def plan_of(services: Services, run: ResearchRun) -> dict[str, float]:
    """The sub-questions the run's plan kept and rejected (none without an LLM)."""
    async with services.pool.connection() as conn:
        steps = await research.steps(conn, run.id, detail=True)
    detail = next((s.detail for s in steps if s.kind == StepKind.PLAN.value), {})
    return {
        "kept": float(len(detail.get("subquestions", []))),
        "rejected": float(len(detail.get("rejected", []))),
    }


def report_planned(dataset: str, model: str, found: dict[str, list[dict[str, float]]]) -> None:
    print(f"\n### {dataset} ({len(found[RESEARCH])} questions, topK {TOP_K}, {model})\n")
    print("| way | EM | F1 | last draft EM / F1 | gold recall among passages read"
          " | passages read | sub-questions kept / rejected | p50 / p95 ms |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for way, rows in found.items():
        keys = ("em", "f1", "draft_em", "draft_f1", "recall", "read", "kept", "rejected")
        mean = {k: statistics.mean(r[k] for r in rows) for k in keys}
        p50, p95 = p50_p95([r["ms"] for r in rows])
        print(
            f"| {way} | {100 * mean['em']:.1f} | {100 * mean['f1']:.1f}"
            f" | {100 * mean['draft_em']:.1f} / {100 * mean['draft_f1']:.1f}"
            f" | {100 * mean['recall']:.1f} | {mean['read']:.1f}"
            f" | {mean['kept']:.2f} / {mean['rejected']:.2f} | {p50:.0f} / {p95:.0f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", action="append", choices=DATASETS, default=[])
    parser.add_argument("--questions", type=int, default=None, help="first N questions only")
    parser.add_argument("--keep", type=Path, default=PROJECT_ROOT / ".data" / "bench")
    parser.add_argument("--planner", action="store_true", help="research planned by a model")
    args = parser.parse_args()
    if args.planner:
        planner(args.dataset or list(DATASETS), args.keep, args.questions or PLANNER_QUESTIONS)
        return
    for dataset in args.dataset or DATASETS:
        report(dataset, asyncio.run(run(dataset, args.keep, args.questions)))


def planner(datasets: list[str], keep: Path, limit: int) -> None:
    with local_model_server("bench.efforts --planner") as llama:
        for dataset in datasets:
            report_planned(dataset, llama[1], asyncio.run(run_planned(dataset, keep, limit, llama)))


if __name__ == "__main__":
    main()
