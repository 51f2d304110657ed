"""Answer a benchmark's questions through the answers service's stream and write one JSON
line per question: what bench/answers.py scores.

Kept to what both answer engines' code has, so the same file runs today's reader in the
project and the hand-written composer it replaced in a worktree of its last commit
(bench/answers.py's RULES_COMMIT), on the same kept databases:

    PYTHONPATH=WORKTREE python bench/_answer_dump.py DATASET OUT.jsonl --keep DIR [--questions N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from pathlib import Path
from typing import Any

from app.answers.request import AnswerRequest
from app.answers.results import Answer, AnswerDelta, AnswerDone, AnswerSources
from app.localdb.stack import local_stack, stack_services
from app.services import Services
from app.tenancy.principal import Principal
from bench.quality import ensure_corpus, questions
from retrieval.request import SearchRequest
from store.tenants import Tenant

TOP_K = 8


async def _answered(
    services: Services, principal: Principal, collection: str, query: str
) -> dict[str, Any]:
    request = AnswerRequest(SearchRequest((collection,), query, top_k=TOP_K))
    started = time.perf_counter()
    row: dict[str, Any] = {"first_delta": None}
    async for event in services.answers.stream(principal, request):
        elapsed = (time.perf_counter() - started) * 1000
        if isinstance(event, AnswerSources):
            row["to_sources"] = elapsed
        elif isinstance(event, AnswerDelta) and row["first_delta"] is None:
            row["first_delta"] = elapsed
        elif isinstance(event, AnswerDone):
            return {**row, **_answer(event.answer), "total": elapsed}
    raise RuntimeError("the stream ended without an answer")


def _answer(answer: Answer) -> dict[str, Any]:
    brief = answer.brief
    titles = {s.ref: s.hit.document.title for s in answer.sources}
    quotes = [*brief.support, *brief.context, *brief.other_side]
    return {
        "short": brief.short_answer,
        "confidence": getattr(brief, "confidence", None),
        "settled": brief.settled,
        "answer": brief.answer,
        "quotes": [{"text": q.text, "title": titles.get(q.ref, "")} for q in quotes],
        "cited": [titles[r] for r in answer.cited if r in titles],
    }


async def _searched(services: Services, tenant: Tenant, collection: str, query: str) -> float:
    """The timing baseline: the answer's own retrieval request through search alone."""
    services.search.forget_queries()
    started = time.perf_counter()
    await services.search.search(tenant, SearchRequest((collection,), query, top_k=TOP_K))
    return (time.perf_counter() - started) * 1000


async def dump(dataset: str, out: Path, keep: Path, limit: int | None, env: dict[str, str]) -> None:
    with local_stack(keep_in=keep / dataset, **env) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services, dataset)
            principal = await services.keys.operator(tenant)
            await services.warm_up.run(services.search)
            with out.open("w") as sink:
                for item in questions(dataset, limit):
                    row = await _answered(services, principal, dataset, item["question"])
                    row["search_alone"] = await _searched(
                        services, tenant, dataset, item["question"]
                    )
                    sink.write(json.dumps({"id": item["_id"], **row}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dataset")
    parser.add_argument("out", type=Path)
    parser.add_argument("--keep", type=Path, required=True)
    parser.add_argument("--questions", type=int, default=None)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for settings")
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    asyncio.run(dump(args.dataset, args.out, args.keep, args.questions, env))


if __name__ == "__main__":
    main()
