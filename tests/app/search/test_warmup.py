"""Warming search up at start: readiness waits for it, and a failed warm-up still ends."""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator

import httpx
import pytest
from starlette.applications import Starlette

from app.localdb.stack import Stack, stack_services
from app.search.warmup import WarmUp
from schema.asgi import create_app
from tests.graph_helpers import eventually


@pytest.fixture(autouse=True)
def _unfrozen() -> Iterator[None]:
    """A warm-up freezes what the process holds; the tests after these collect it again."""
    yield
    gc.unfreeze()


class _Broken:
    async def warm_up(self) -> None:
        raise RuntimeError("the model would not load")


async def test_a_failed_warm_up_ends_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    warm_up = WarmUp()
    with caplog.at_level(logging.WARNING, logger="app.search.warmup"):
        await warm_up.run(_Broken())
    assert warm_up.done and warm_up.seconds is not None
    assert "warm-up failed" in caplog.text


class _Loading:
    def __init__(self) -> None:
        self.loaded: list[list[str]] = []

    async def warm_up(self) -> None:
        self.loaded.append(["a model's tables"])


async def test_what_was_loaded_is_frozen_out_of_later_collections() -> None:
    """A full collection no longer walks what lives as long as the server."""
    target = _Loading()
    await WarmUp().run(target)
    assert not any(o is target.loaded for o in gc.get_objects())
    assert gc.get_freeze_count() > 0


async def _ready(app: Starlette) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://trellis") as client:
        return await client.get("/readyz")


@pytest.mark.integration
async def test_readiness_waits_for_the_warm_up_on_the_real_databases(stack: Stack) -> None:
    """The warm-up runs the relationship paths' real queries against Neo4j (for a tenant
    that does not exist), and loads the models; until it ends the server is not ready."""
    app = create_app(stack.settings, stack.endpoints)
    async with stack_services(stack, 30) as services:
        app.state.services = services
        warming = await _ready(app)
        assert warming.status_code == 503
        assert warming.json()["status"] == "warming" and warming.json()["down"] == []
        await services.search.warm_up()  # raises if a query it compiles is not valid Cypher
        await services.warm_up.run(services.search)
        ready = await _ready(app)
        assert ready.status_code == 200 and ready.json()["status"] == "ready"


@pytest.mark.integration
def test_the_server_becomes_ready_after_its_warm_up(http: httpx.Client) -> None:
    eventually(lambda: http.get("/readyz").status_code == 200, seconds=60)
    assert http.get("/readyz").json()["status"] == "ready"
