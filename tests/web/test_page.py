"""The web app's page is served by Trellis itself, offline: every asset is local, vendored
with its version, licence and checksum, and compressed on the wire."""

from __future__ import annotations

import hashlib
import re

import httpx
import pytest

from schema.asgi import STATIC_DIR

pytestmark = pytest.mark.integration


def test_the_page_at_the_root_loads_only_local_assets(http: httpx.Client) -> None:
    page = http.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert len(assets) == 3
    assert not re.search(r"(?:src|href)=\"https?://", page.text)
    for asset in assets:
        fetched = http.get(asset, headers={"Accept-Encoding": "gzip"})
        assert fetched.status_code == 200, asset
        assert fetched.headers["content-encoding"] == "gzip", asset


def test_every_module_the_page_imports_is_served(http: httpx.Client) -> None:
    folder = STATIC_DIR / "web" / "js"
    for module in folder.glob("*.js"):
        for imported in re.findall(r'from "\./([a-z]+\.js)"', module.read_text()):
            assert (folder / imported).exists(), (module.name, imported)
            assert http.get(f"/static/web/js/{imported}").status_code == 200


def test_the_vendored_graph_library_has_its_version_licence_and_checksum() -> None:
    folder = STATIC_DIR / "web" / "vendor"
    version, checksum = (folder / "MANIFEST").read_text().splitlines()
    assert version.startswith("cytoscape 3.")
    digest, name = checksum.split()
    assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    assert "Permission is hereby granted" in (folder / "LICENSE.cytoscape").read_text()


def test_graphiql_stays_at_graphql(http: httpx.Client) -> None:
    page = http.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "GraphiQL" in page.text
