"""What the warm-up at server start (app/search/warmup.py) saves the first searches.

Run with `.venv/bin/python -m bench.warmup [--dataset NAME] [--keep DIR] [--rounds N]
[--searches N]` (`make bench` runs it on HotpotQA, kept in `.data/bench`). Each round is a
new process on newly started databases, as a server restart is: one searches cold, the
next runs `Search.warm_up()` first and then searches; rounds alternate so that both
conditions see the same machine. Each runs the dataset's first questions as HYBRID
searches, topK 5.

Reported, per search in order: the cold time (the baseline, same run), the time after the
warm-up, and their ratio; and what the warm-up itself took. The first search's remaining
cost is cold data pages, which a warm-up against a tenant that does not exist never reads.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TypedDict

from app.localdb.stack import local_stack, stack_services
from bench.quality import DATASETS, ensure_corpus, questions
from retrieval.request import Mode, SearchRequest

DEFAULT_KEEP = Path(".data/bench")


class Round(TypedDict):
    warm_up_s: float | None  # None in a cold round
    ms: list[float]  # each search, in order


async def one_round(dataset: str, keep: Path, warm: bool, searches: int) -> Round:
    """One cold process: optionally warm up, then time each search."""
    with local_stack(keep_in=keep / dataset) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services, dataset)
            started = time.perf_counter()
            if warm:
                await services.search.warm_up()
            warm_up_s = time.perf_counter() - started if warm else None
            times = []
            for item in questions(dataset, searches):
                request = SearchRequest((dataset,), item["question"], Mode.HYBRID, 5)
                began = time.perf_counter()
                await services.search.search(tenant, request)
                times.append((time.perf_counter() - began) * 1000)
    return {"warm_up_s": warm_up_s, "ms": times}


def child(args: argparse.Namespace, warm: bool) -> Round:
    """A round in its own process: nothing loaded, nothing compiled."""
    command = [sys.executable, "-m", "bench.warmup", "--round", "warm" if warm else "cold"]
    command += ["--dataset", args.dataset, "--keep", str(args.keep)]
    command += ["--searches", str(args.searches)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    result: Round = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def report(cold: list[Round], warm: list[Round]) -> None:
    print(f"\n### first searches after a start ({len(cold)} rounds each, HYBRID topK 5)\n")
    print("| search | cold ms (baseline) | after the warm-up ms | ratio |")
    print("|---|---|---|---|")
    columns = zip(*(r["ms"] for r in cold), strict=True)
    warmed = zip(*(r["ms"] for r in warm), strict=True)
    for index, (a, b) in enumerate(zip(columns, warmed, strict=True), start=1):
        ratio = statistics.median(b) / statistics.median(a)
        print(f"| {index} | {_cell(a)} | {_cell(b)} | {ratio:.2f}x |")
    took = [r["warm_up_s"] or 0.0 for r in warm]
    print(f"\n- the warm-up itself: {' / '.join(f'{s:.2f}' for s in took)} s")


def _cell(values: tuple[float, ...]) -> str:
    return " / ".join(f"{v:,.0f}" for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", choices=DATASETS, default="hotpotqa")
    parser.add_argument("--keep", type=Path, default=DEFAULT_KEEP, help="kept databases")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each condition")
    parser.add_argument("--searches", type=int, default=5, help="searches per round")
    parser.add_argument("--round", choices=("cold", "warm"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rounds < 1 or args.searches < 1:
        parser.error("--rounds and --searches must be at least 1")
    if args.round:
        found = asyncio.run(one_round(args.dataset, args.keep, args.round == "warm", args.searches))
        print(json.dumps(found))
        return
    cold, warm = [], []
    for _ in range(args.rounds):
        cold.append(child(args, False))
        warm.append(child(args, True))
    report(cold, warm)


if __name__ == "__main__":
    main()
