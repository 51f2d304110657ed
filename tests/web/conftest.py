"""A real Chromium against the real server, and the pages' own JavaScript errors as failures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import httpx
import pytest

from app.localdb.chromium import launch, missing
from app.localdb.stack import Stack
from tests.app.answers.test_answers import demo_documents
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient
from tests.web.browser import SCREENSHOTS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture
def browser() -> Iterator[Browser]:
    """One browser per test: Playwright's sync API holds an event loop while it runs, and
    the fixtures that mint keys and load corpora run their own. So a test names those
    fixtures before `page`, which pytest then sets up first."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A fresh profile per test; an uncaught error in the page fails the test."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.set_default_timeout(20_000)
    yield opened
    context.close()
    assert errors == [], errors


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def demo(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[str, str]:
    """The demo corpus, graphed: a key and its collection's name."""
    gql = GraphQLClient(http, tenant_key_module)
    return tenant_key_module, graphed_collection(gql, stack, *demo_documents())


def open_app(page: Page, key: str, view: str = "ask") -> None:
    """Open the page as `make run`'s link does, with the key in the fragment."""
    page.goto(f"/#apiKey={key}")
    page.wait_for_selector("#who >> text=search")
    page.goto(f"/#/{view}")
