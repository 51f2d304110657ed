"""Without Chromium, the browser tests say why in one line and skip; nothing else does."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.localdb import chromium
from tests.web import browser


def test_no_chromium_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setattr(chromium, "CHROMIUM", tmp_path / "chromium")
    assert chromium.missing() == "no Chromium at /usr/bin/chromium (apt-get install chromium)"
    assert browser.browser_line() == (
        "browser tests: skipped, no Chromium at /usr/bin/chromium (apt-get install chromium)"
    )


def test_a_found_chromium_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    found = tmp_path / "chromium"
    found.touch()
    monkeypatch.setattr("shutil.which", lambda name: str(found))
    assert chromium.missing() is None
    assert browser.browser_line() == f"browser tests: {found}"
