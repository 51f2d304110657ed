"""GraphiQL works offline: every asset comes from our own static folder."""

from __future__ import annotations

import hashlib
import re

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from app.settings import Settings
from schema import build_schema
from schema.asgi import STATIC_DIR
from schema.view import TrellisGraphQL

pytestmark = pytest.mark.integration


def test_page_loads_only_local_assets(http: httpx.Client) -> None:
    page = http.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert len(assets) == 5
    assert not re.search(r"https?://", " ".join(assets))
    for asset in assets:
        fetched = http.get(asset)
        assert fetched.status_code == 200, asset
        assert len(fetched.content) > 1000


def test_vendored_versions_licences_and_checksums() -> None:
    folder = STATIC_DIR / "graphiql"
    lines = (folder / "MANIFEST").read_text().splitlines()
    versions = dict(line.split() for line in lines[:4])
    assert versions["graphiql"].startswith("3.8.") and versions["react"].startswith("18.")
    for line in lines[4:]:
        digest, name = line.split()
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    for licence in (
        "LICENSE.graphiql",
        "LICENSE.react",
        "LICENSE.react-dom",
        "LICENSE.graphql-ws.md",
    ):
        assert "Permission is hereby granted" in (folder / licence).read_text()


def _served(**env: str) -> TestClient:
    settings = Settings.from_env(env)
    graphql = TrellisGraphQL(build_schema(settings), settings.serving.graphiql)
    app = Starlette(routes=[Route("/graphql", graphql)])
    app.state.services = None  # introspection and the page read no database
    return TestClient(app)


def test_production_switches_turn_graphiql_and_introspection_off() -> None:
    with _served(TRELLIS_GRAPHIQL="false", TRELLIS_INTROSPECTION="false") as client:
        page = client.get("/graphql", headers={"Accept": "text/html"})
        assert page.status_code == 404
        body = client.post("/graphql", json={"query": "{ __schema { types { name } } }"}).json()
        assert body["errors"][0]["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
        assert "introspection" in body["errors"][0]["message"].lower()


def test_both_are_on_by_default() -> None:
    with _served() as client:
        assert client.get("/graphql", headers={"Accept": "text/html"}).status_code == 200
        body = client.post("/graphql", json={"query": "{ __schema { queryType { name } } }"}).json()
        assert body["data"]["__schema"]["queryType"]["name"] == "Query"
