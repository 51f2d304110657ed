"""Small timing helpers shared by the benchmarks."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def median_ms(action: Callable[[], object], repeat: int, warmup: int = 20) -> float:
    for _ in range(warmup):
        action()
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def run(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    subprocess.run(
        command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def p50_p95(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]
