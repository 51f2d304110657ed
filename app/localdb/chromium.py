"""Debian's Chromium, driven by Playwright, for the browser tests and bench/web.py: the
browser is the machine's (`apt-get install chromium`), never downloaded."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# As root in a sandbox with a closed network: no sandbox, no GPU, and no calls home.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> Path | None:
    found = shutil.which("chromium")
    return Path(found) if found else CHROMIUM if CHROMIUM.exists() else None


def missing() -> str | None:
    """Why no browser can be driven here, in one line; None when one can."""
    if chromium() is None:
        return "no Chromium at /usr/bin/chromium (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "the playwright package is missing (pip install -e '.[dev]')"
    return None


def launch(playwright: Any) -> Any:
    """The machine's Chromium, from a started Playwright (its sync or async API)."""
    return playwright.chromium.launch(executable_path=str(chromium()), args=ARGS)
