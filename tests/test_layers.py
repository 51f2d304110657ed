"""The layers, checked: `schema` → `app` → `graph` | `store` → `retrieval` → `ingest`.

Each package may import only the packages below it. Imports are read from the source, so a
lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings import PROJECT_ROOT

OURS = ("schema", "app", "graph", "store", "retrieval", "ingest")
ALLOWED = {
    "ingest": set(),
    "retrieval": {"ingest"},
    "store": {"retrieval", "ingest"},
    "graph": {"retrieval", "ingest"},
    "app": {"graph", "store", "retrieval", "ingest"},
}


def imported_packages(package: str) -> dict[str, set[str]]:
    """Our other packages each module of `package` imports, by module path."""
    found: dict[str, set[str]] = {}
    for path in sorted((PROJECT_ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {name for node in ast.walk(tree) for name in _tops(node)} - {package}
        found[str(path.relative_to(PROJECT_ROOT))] = {n for n in names if n in OURS}
    return found


def _tops(node: ast.AST) -> set[str]:
    """The top-level packages an import statement names."""
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return {node.module.split(".")[0]}
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    return set()


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    wrong = {
        module: sorted(names - ALLOWED[package])
        for module, names in imported_packages(package).items()
        if names - ALLOWED[package]
    }
    assert wrong == {}


def test_the_pure_search_pieces_do_not_load_spacy() -> None:
    modules = [p.stem for p in (PROJECT_ROOT / "retrieval").glob("*.py") if p.stem != "__init__"]
    program = "import sys\n" + "".join(f"import retrieval.{m}\n" for m in modules)
    program += "print('spacy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(PROJECT_ROOT),
    )
    assert result.stdout.strip() == "False"
