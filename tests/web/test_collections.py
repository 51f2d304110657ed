"""Collections in the browser: documents, an upload followed to its end with its failures,
and a key without the ingest scope that sees why it may not upload."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.tenancy.keys import KeyRequest
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection
from tests.web.conftest import open_app, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.integration

NOTE = """# Ferry timetable

The harbour ferry leaves Nordkai at 07:15 and 08:45 on weekdays. Captain Ilka Brandt
commands the morning crossing, and the evening crossing is cancelled in January.
"""


@pytest.fixture
def folder(tmp_path: Path) -> list[Path]:
    (tmp_path / "ferry.md").write_text(NOTE)
    (tmp_path / "notes.txt").write_text("Tickets are sold on board. Bicycles travel free.\n")
    (tmp_path / "empty.md").write_text("")
    return sorted(tmp_path.iterdir())


def test_an_upload_shows_progress_to_the_end_and_lists_failures_with_codes(
    tenant_key: str, http: httpx.Client, folder: list[Path], page: Page
) -> None:
    name = new_collection(GraphQLClient(http, tenant_key))
    open_app(page, tenant_key, f"collections/{name}")
    page.set_input_files("#upload-files", [str(path) for path in folder])
    page.click("#upload-button")
    page.wait_for_selector(".job .progress[data-final=true]", timeout=60_000)
    summary = page.inner_text(".job .progress")
    assert "3/3 documents" in summary and "2 indexed" in summary and "1 failed" in summary
    # The page lists failures after the stream ends, once it has read the job's outcomes.
    page.wait_for_selector(".job .failures li")
    failure = page.locator(".failures li")
    assert failure.count() == 1 and failure.get_attribute("data-code") == "EMPTY_DOCUMENT"
    page.wait_for_selector("#documents tbody tr >> nth=1")
    titles = page.locator("#documents tbody tr td:first-child bdi").all_inner_texts()
    assert sorted(titles) == ["ferry.md", "notes.txt"]
    screenshot(page, "collections")


@pytest.fixture
def reader(http: httpx.Client, stack: Stack) -> tuple[str, str]:
    """A key without ingest or admin, of a tenant whose collection holds a document."""
    tenant = f"web-reader-{uuid.uuid4().hex[:8]}"
    owner = GraphQLClient(http, make_key(stack, tenant))
    name = new_collection(owner)
    ingest(owner, name, {"externalId": "ferry.md", "text": NOTE, "contentType": "text/markdown"})
    return make_key(stack, tenant, KeyRequest(("search", "answer"))), name


def test_a_key_without_ingest_sees_upload_disabled_with_the_apis_reason(
    reader: tuple[str, str], page: Page
) -> None:
    key, name = reader
    open_app(page, key, f"collections/{name}")
    page.wait_for_selector("#upload-form")
    assert page.locator("#upload-button").is_disabled()
    assert page.locator("#upload-files").is_disabled()
    assert page.inner_text("#upload-form .denied") == "this API key lacks the 'ingest' scope"
    assert page.locator("#create-form button").is_disabled()
    assert page.inner_text("#create-form .denied") == "this API key lacks the 'admin' scope"
    page.wait_for_selector("#documents tbody tr")
    screenshot(page, "keys")


def test_creating_a_collection_adds_it_to_the_list(tenant_key: str, page: Page) -> None:
    open_app(page, tenant_key, "collections")
    page.fill("#new-collection", "field-notes")
    page.click("#create-form button")
    page.wait_for_selector("#collection-list >> text=field-notes")
    assert page.is_checked("#chooser input[value=field-notes]")
