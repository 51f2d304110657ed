"""Where the browser tests keep their screenshots, and the test run's line about them."""

from __future__ import annotations

from pathlib import Path

from app.localdb.chromium import chromium, missing

SCREENSHOTS = Path(__file__).resolve().parents[2] / ".data" / "screenshots"


def browser_line() -> str:
    reason = missing()
    return f"browser tests: skipped, {reason}" if reason else f"browser tests: {chromium()}"
