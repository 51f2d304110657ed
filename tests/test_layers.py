"""The layers, checked: `schema` → `app` → `graph` | `store` → `retrieval` → `ingest`.

The contracts live in pyproject.toml and `make lint` runs them; running them here too means
`make test` alone cannot pass on a tree that breaks them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.settings import PROJECT_ROOT


def test_the_import_contracts_are_kept() -> None:
    command = [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=PROJECT_ROOT)
    assert result.returncode == 0, result.stdout[-3000:]


def _pure_modules() -> list[str]:
    found = [f"retrieval.{p.stem}" for p in (PROJECT_ROOT / "retrieval").glob("*.py")]
    return [m for m in found if not m.endswith("__init__")] + ["app.search.ranking", "graph.edges"]


@pytest.mark.parametrize("module", _pure_modules())
def test_a_pure_search_piece_does_not_load_spacy(module: str) -> None:
    program = f"import sys\nimport {module}\nprint('spacy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=PROJECT_ROOT,
    )
    assert result.stdout.strip() == "False"
