"""Ask in the browser: sources before text, citations that open their span, Hebrew."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest

from bench.web import api_time_to_sources
from tests.graphql_client import GraphQLClient
from tests.helpers import new_collection
from tests.web.conftest import open_app, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.integration


QUESTION = "Who was the incident commander of INC-2041?"


def test_an_answer_streams_sources_then_text_and_a_citation_opens_its_span(
    page: Page, demo: tuple[str, str], base_url: str
) -> None:
    key, collection = demo
    api_time_to_sources(base_url, key, collection, QUESTION)  # both clocks read a warm server
    open_app(page, key)
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    page.wait_for_selector(".usage:not(:empty)")
    timing = page.evaluate("window.trellisTimings[0]")
    assert timing["sourcesShown"] <= timing["firstText"] <= timing["done"], timing
    assert "Priya Natarajan" in page.inner_text(".answer-text")
    citation = page.locator("a.citation").first
    ref = citation.get_attribute("data-ref") or ""
    citation.click()
    quotes = page.locator(".quote.verified q").all_inner_texts()
    marked = page.inner_text("#panel mark")
    assert "Priya Natarajan" in marked and marked in quotes, (marked, quotes)
    assert marked in page.inner_text("#panel .passage")
    cited = page.inner_text(f"#source-{ref.replace(':', '-')} .source-title")
    assert page.inner_text("#panel h2") == cited and "2041" in cited
    screenshot(page, "ask")
    api = api_time_to_sources(base_url, key, collection, QUESTION)
    print(f"first source on screen {timing['sourcesShown']:.0f} ms; the API's own time to"
          f" sources, asked again: {api:.0f} ms (not asserted: bench/web.py)")  # fmt: skip


def test_a_hebrew_answer_reads_right_to_left(page: Page, demo: tuple[str, str]) -> None:
    key, _ = demo
    open_app(page, key)
    page.fill("#question", "כמה ימי חופשה שנתית צובר עובד במשרה מלאה?")
    page.click("#ask-button")
    page.wait_for_selector(".usage:not(:empty)")
    text = page.locator(".answer-text")
    assert text.get_attribute("dir") == "rtl" and text.get_attribute("lang") == "he"
    assert "25" in (page.text_content(".short-answer bdi") or "")
    assert page.locator(".answer-text bdi").count() >= 1
    screenshot(page, "ask-hebrew")


def test_a_follow_up_carries_the_history(page: Page, demo: tuple[str, str]) -> None:
    key, _ = demo
    open_app(page, key)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    questions = ("Who was the incident commander of INC-2041?", "And of INC-2077?")
    for turn, question in enumerate(questions):
        page.fill("#question", question)
        page.press("#question", "Enter")
        page.wait_for_selector(f".turn >> nth={turn} >> .usage:not(:empty)")
    [follow_up] = [frame for frame in sent if "And of INC-2077?" in frame]
    assert "Who was the incident commander of INC-2041?" in follow_up and "ASSISTANT" in follow_up


def test_an_abstention_is_told_in_words(page: Page, demo: tuple[str, str]) -> None:
    open_app(page, demo[0])
    page.fill("#question", "What colour is the company's logo on the delivery vans?")
    page.click("#ask-button")
    page.wait_for_selector(".usage:not(:empty)")
    abstained = page.locator(".abstained")
    assert abstained.get_attribute("data-reason") == "NO_CONTEXT"
    assert "NO_CONTEXT" not in abstained.inner_text()
    assert page.locator("a.citation").count() == 0


def test_an_api_error_is_told_in_words(http: httpx.Client, tenant_key: str, page: Page) -> None:
    gql = GraphQLClient(http, tenant_key)
    name = new_collection(gql)
    open_app(page, tenant_key)
    gql.data("mutation($n: String!) { deleteCollection(name: $n) }", n=name)
    page.fill("#question", "Who wrote the report?")
    page.click("#ask-button")
    alert = page.locator(".turn .error")
    alert.wait_for()
    assert alert.get_attribute("data-code") == "NOT_FOUND"
    assert alert.inner_text().startswith("Not found") and "{" not in alert.inner_text()


def test_a_rejected_key_is_told_in_words(page: Page, demo: tuple[str, str]) -> None:
    open_app_expecting_error(page, "not-a-key")
    alert = page.locator("#who .error")
    assert alert.get_attribute("data-code") == "UNAUTHENTICATED"
    assert "This key was not accepted" in alert.inner_text()
    assert "{" not in alert.inner_text()
    assert page.locator("#ask-button").is_disabled()


def open_app_expecting_error(page: Page, key: str) -> None:
    page.goto(f"/#apiKey={key}")
    page.wait_for_selector("#who .error")


def test_the_first_load_is_under_500_kb_of_javascript(page: Page, demo: tuple[str, str]) -> None:
    scripts: list[int] = []

    def count(response: object) -> None:
        if response.request.resource_type == "script":  # type: ignore[attr-defined]
            scripts.append(response.request.sizes()["responseBodySize"])  # type: ignore[attr-defined]

    page.on("response", count)
    open_app(page, demo[0])
    assert len(scripts) >= 8
    print(f"JavaScript on first load: {sum(scripts) / 1024:.0f} KB over the wire")
    assert sum(scripts) <= 500_000


def test_a_document_is_asked_about_whole_from_its_row(page: Page, demo: tuple[str, str]) -> None:
    key, collection = demo
    open_app(page, key, f"collections/{collection}")
    row = page.locator("#documents tr", has_text="INC-2041.md")
    row.locator("a.ask-document").click()
    page.wait_for_selector("h1 >> text=Ask about")
    assert "INC-2041" in page.inner_text("h1")
    page.fill("#question", "Who was the incident commander?")
    page.click("#ask-button")
    page.wait_for_selector(".usage:not(:empty)")
    titles = set(page.locator(".sources .source-title").all_inner_texts())
    assert len(titles) == 1 and "INC-2041" in titles.pop()
    assert "Priya Natarajan" in page.inner_text(".answer-text")


def test_a_research_run_shows_its_steps_then_its_answer(page: Page, demo: tuple[str, str]) -> None:
    open_app(page, demo[0])
    page.fill("#question", "Who was the incident commander of INC-2041?")
    page.select_option("#effort", "RESEARCH")
    page.click("#ask-button")
    page.wait_for_selector(".run-status[data-status=DONE]", timeout=60_000)
    kinds = page.locator(".steps .step").evaluate_all("steps => steps.map(s => s.dataset.kind)")
    assert kinds[0] == "PLAN" and "ROUND" in kinds and kinds[-1] == "COMPOSE", kinds
    assert "Priya Natarajan" in page.inner_text(".answer-text")
    assert page.locator(".sources .source").count() >= 1
    assert page.locator("a.citation").count() >= 1
