"""Explore in the browser: hits with how they were found, a graph hit's path, the
neighbourhood drawn by Cytoscape.js, an edge's evidence, paths and the timeline."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
import pytest

from tests.graphql_client import GraphQLClient
from tests.web.conftest import open_app, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.integration

FACT_EDGES = """trellisGraph.edges("[kind = 'FACT']").length"""


def entity_id(http: httpx.Client, demo: tuple[str, str], name: str) -> str:
    key, collection = demo
    found = GraphQLClient(http, key).data(
        "query($c: String!, $q: String!) { entities(collection: $c, query: $q) { entity { id } } }",
        c=collection,
        q=name,
    )
    return str(found["entities"][0]["entity"]["id"])


def test_search_hits_say_how_they_were_found_and_draw_graph_paths(
    page: Page, demo: tuple[str, str]
) -> None:
    open_app(page, demo[0], "explore")
    page.fill("#search-query", "Who signed the Northwind agreement for the Provider?")
    page.click("#search-form button")
    page.wait_for_selector(".hit")
    names = page.locator(".entity-matches a.entity").all_inner_texts()
    assert "Northwind Analytics" in names and not any("/" in name for name in names), names
    methods = page.locator(".hit").evaluate_all("hits => hits.map(h => h.dataset.methods)")
    assert all(methods) and any("GRAPH" in m for m in methods), methods
    path = page.locator(".hit .path:has(button.edge)").first
    assert path.locator("a.entity").count() == path.locator("button.edge").count() + 1
    path.locator("button.edge").first.click()
    assert page.locator("#panel .evidence-item").count() >= 1
    screenshot(page, "explore")


def test_the_neighbourhood_is_drawn_and_an_edge_shows_its_evidence(
    page: Page, http: httpx.Client, demo: tuple[str, str]
) -> None:
    open_app(page, demo[0], f"entity/{entity_id(http, demo, 'Maya Rosen')}")
    page.wait_for_function("window.trellisGraph && window.trellisGraph.edges().length > 0")
    drawn = page.evaluate("[trellisGraph.nodes().length, trellisGraph.edges().length]")
    assert drawn[0] >= 2 and drawn[1] >= 1
    click_edge(page)
    evidence = page.locator("#panel .evidence-item").first
    assert evidence.locator("cite").inner_text()
    sentence = " ".join(evidence.locator("q").inner_text().split())
    evidence.locator("button").click()
    page.wait_for_selector("#panel mark")
    assert sentence in " ".join(page.inner_text("#panel mark").split())
    screenshot(page, "entity")


def click_edge(page: Page) -> None:
    """A real click on the canvas at the midpoint of the edge farthest from any node (nodes
    take clicks before edges), a fact's if there is one."""
    page.locator("#graph").scroll_into_view_if_needed()
    point = page.evaluate(
        """() => {
          const facts = trellisGraph.edges("[kind = 'FACT']");
          const nodes = trellisGraph.nodes().map(n => n.renderedPosition());
          const clearance = (p) => Math.min(...nodes.map(n => Math.hypot(n.x - p.x, n.y - p.y)));
          const edges = (facts.length ? facts : trellisGraph.edges()).toArray();
          const edge = edges.sort((a, b) =>
            clearance(b.renderedMidpoint()) - clearance(a.renderedMidpoint()))[0];
          const box = trellisGraph.container().getBoundingClientRect();
          const mid = edge.renderedMidpoint();
          return [box.left + mid.x, box.top + mid.y];
        }"""
    )
    page.mouse.click(point[0], point[1])
    page.wait_for_selector("#panel .evidence-item")


def test_the_graph_as_of_a_date_before_the_facts_drops_them(
    page: Page, http: httpx.Client, demo: tuple[str, str]
) -> None:
    open_app(page, demo[0], f"entity/{entity_id(http, demo, 'Maya Rosen')}")
    page.wait_for_function("window.trellisGraph && window.trellisGraph.edges().length > 0")
    before = page.evaluate(FACT_EDGES)
    page.fill("#as-of", "1990-01-01")
    page.click("#graph-form button")
    page.wait_for_selector("#graph-note >> text=as of 1990-01-01")
    after = page.evaluate(FACT_EDGES)
    assert after < before, "the demo's facts are dated after 1990"


def test_paths_and_the_timeline_are_shown(
    page: Page, http: httpx.Client, demo: tuple[str, str]
) -> None:
    open_app(page, demo[0], f"entity/{entity_id(http, demo, 'Maya Rosen')}")
    page.wait_for_selector("#timeline table, #timeline p:not(.hint)")
    page.fill("#path-to", "Elena Petrova")
    page.click("#paths-form button")
    page.wait_for_selector("#paths .path, #paths p")
    path = page.locator("#paths .path").first
    assert path.locator("a.entity").first.inner_text() == "Maya Rosen"
    assert path.locator("a.entity").last.inner_text() == "Elena Petrova"


def test_the_collections_themes_are_shown_with_their_entities(
    http: httpx.Client, demo: tuple[str, str], page: Page
) -> None:
    key, collection = demo
    GraphQLClient(http, key).data(
        "mutation($c: String!) { refreshThemes(collection: $c) { themes { id } } }", c=collection
    )
    open_app(page, key, "explore")
    page.wait_for_selector("#themes .theme")
    theme = page.locator("#themes .theme").first
    assert theme.locator("strong").inner_text() and theme.locator("a.entity").count() >= 2
    theme.locator("a.entity").first.click()
    page.wait_for_selector(".entity-page h1")
