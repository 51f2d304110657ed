"""Debian's Chromium, driven by Playwright: the browser is the machine's, never downloaded."""

from __future__ import annotations

import shutil
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".data" / "screenshots"
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


def playwright_installed() -> bool:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return True


def missing() -> str | None:
    """Why the browser tests cannot run here, in one line; None when they can."""
    if chromium() is None:
        return "no Chromium at /usr/bin/chromium (apt-get install chromium)"
    if not playwright_installed():
        return "the playwright package is missing (pip install -e '.[dev]')"
    return None


def browser_line() -> str:
    reason = missing()
    return f"browser tests: skipped, {reason}" if reason else f"browser tests: {chromium()}"
