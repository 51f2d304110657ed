"""The public evaluation data beside the checkout (`../shared/bench/`), which only the
benchmarks read. A clone without it gets a one-line message, not a traceback."""

from __future__ import annotations

from pathlib import Path

from app.settings import PROJECT_ROOT

SHARED_BENCH = PROJECT_ROOT.parent / "shared" / "bench"


def shared_file(*parts: str) -> Path:
    """The file under ../shared/bench/, or exit saying it is missing."""
    path = SHARED_BENCH.joinpath(*parts)
    if not path.is_file():
        raise SystemExit(f"this benchmark needs {path}, which is not here (see its SOURCE.md)")
    return path
