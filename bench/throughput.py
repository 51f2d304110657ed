"""Search throughput against a baseline commit measured in the same run (issue 50's load goal:
twice the issue's searches a second on the same 2 cores). The machine's speed moves by a third
over an hour, so a figure is only comparable with one measured beside it.

The baseline is another checkout, set up and holding its own 2Wiki store, for example the
commit the issue measured:

    git worktree add ../baseline 5d711ae
    cd ../baseline && make setup
    .venv/bin/python -m bench.quality --keep .data/bench --dataset 2wiki --only HYBRID --questions 5

Then `.venv/bin/python -m bench.throughput --baseline ../baseline [--rounds 2] [--seconds 60]
[--workers 1 --workers 2]`. Each round serves the baseline (one process: the issue's commit
has no TRELLIS_WORKERS) and this checkout with each `--workers` count (default 1), each on
its own store, in that order in the first round and the reverse in the second (and so on),
and puts the load of bench.reliability on it (50 clients of HYBRID searches, topK 5, the 2Wiki
questions in turn, a refused client waiting the Retry-After it is given) for 15 s of warming
up and then `seconds` measured. Reported per round: searches a second, admitted p50 / p95,
refusals, and the CPU each process took a search; then this checkout's searches a second over
the baseline's, per round and worker count.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
from pathlib import Path

from app.localdb.stack import local_stack
from bench._cpu import cpu_now
from bench._serving import Server, Tally
from bench._timing import p50_p95
from bench.quality import questions
from bench.reliability import DATASET, load

PROJECT_ROOT = Path(__file__).resolve().parent.parent
WARM_SECONDS = 15.0
CLIENTS = 50


def measure(tree: Path, asked: list[str], seconds: float, workers: int = 1) -> float:
    """Searches a second of `workers` processes served from `tree` on its kept 2Wiki store;
    prints its row."""
    with local_stack(keep_in=tree / ".data" / "bench" / DATASET) as stack:
        server = Server(stack, workers, tree)
        key = _key(server)
        server.start()
        try:
            asyncio.run(load(server.url, key, asked, CLIENTS, WARM_SECONDS))
            before = cpu_now(server.pid)
            tally = asyncio.run(load(server.url, key, asked, CLIENTS, seconds))
            spent = cpu_now(server.pid) - before
        finally:
            server.stop()
    rate = len(tally.ms) / seconds
    cpu = spent.per(len(tally.ms))
    print(f"| {tree}, {workers} | {rate:.1f} | {_latency(tally)} | {_refused(tally)} | {cpu} |")
    return rate


def _round(
    baseline: Path, asked: list[str], seconds: float, counts: list[int], *, reverse: bool
) -> dict[int, float]:
    """Searches a second of the baseline (at 0) and of this checkout with each worker count.
    Every other round runs them in reverse order: the machine's speed drifts by a sixth or
    more over the minutes of a round, and in a fixed order each checkout would meet the same
    part of that drift in every round (this checkout, run after the baseline, served fewer
    in the second round than in the first in three runs of four, while the baseline held)."""
    order = [0, *counts]
    rates: dict[int, float] = {}
    for n in reversed(order) if reverse else order:
        tree = baseline if n == 0 else PROJECT_ROOT
        rates[n] = measure(tree, asked, seconds, max(1, n))
    return rates


def _key(server: Server) -> str:
    """A key minted by the checkout's own command line: the tables differ between commits."""
    command = [server.trellis, "keys", "create", "--tenant", "bench"]
    made = subprocess.run(
        command, env=server.env, cwd=server.tree, capture_output=True, text=True, check=True
    )
    return made.stdout.strip().splitlines()[-1]


def _latency(tally: Tally) -> str:
    p50, p95 = p50_p95(tally.ms)
    return f"{p50:.0f} / {p95:.0f}"


def _refused(tally: Tally) -> str:
    others = {k: v for k, v in tally.codes.items() if k not in ("ok", "degraded")}
    return ", ".join(f"{v} {k}" for k, v in sorted(others.items())) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, action="append", help="this checkout's; repeat")
    args = parser.parse_args()
    counts = args.workers or [1]
    baseline = args.baseline.resolve()
    if not (baseline / ".venv" / "bin" / "trellis").exists():
        raise SystemExit(f"{baseline}: no .venv/bin/trellis; run `make setup` there first")
    asked = [q["question"] for q in questions(DATASET, None)]
    print(
        "| checkout, processes | searches/s | admitted p50 / p95 ms | refused | CPU ms a search |"
    )
    print("|---|---|---|---|---|")
    ratios: dict[int, list[float]] = {n: [] for n in counts}
    for index in range(args.rounds):
        rates = _round(baseline, asked, args.seconds, counts, reverse=index % 2 == 1)
        for n in counts:
            ratios[n].append(rates[n] / rates[0])
    for n, found in ratios.items():
        print(
            f"\n{n} process(es) over the baseline, per round: "
            + ", ".join(f"{r:.2f}x" for r in found)
        )


if __name__ == "__main__":
    main()
