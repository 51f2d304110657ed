"""Session fixtures: one real Neo4j, one real PostgreSQL and one real server per test run."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from app.localdb import llamacpp
from app.localdb.stack import Stack, free_port, local_stack
from schema.serving import running_server
from tests.graphql_client import GraphQLClient
from tests.web.browser import browser_line


def pytest_report_header() -> list[str]:
    reason = llamacpp.missing()
    model = f"skipped, {reason}" if reason else str(llamacpp.bundled_gguf())
    return [browser_line(), f"local model server tests: {model}"]


@pytest.fixture(scope="session")
def stack() -> Iterator[Stack]:
    with local_stack(TRELLIS_DB_TIMEOUT_SECONDS="3") as started:
        yield started


@pytest.fixture(scope="session")
def base_url(stack: Stack) -> Iterator[str]:
    with running_server(stack) as url:
        yield url


@pytest.fixture(scope="session")
def http(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as client:
        yield client


@pytest.fixture
def tenant_key(http: httpx.Client, stack: Stack) -> str:
    """A fresh tenant with its own key, so tests never share data."""
    from app.localdb.stack import make_key

    return make_key(stack, f"tenant-{uuid.uuid4().hex[:10]}")


@pytest.fixture(scope="module")
def tenant_key_module(http: httpx.Client, stack: Stack) -> str:
    from app.localdb.stack import make_key

    return make_key(stack, f"tenant-{uuid.uuid4().hex[:10]}")


@pytest.fixture
def gql(http: httpx.Client, tenant_key: str) -> GraphQLClient:
    return GraphQLClient(http, tenant_key)


@pytest.fixture(scope="session")
def llama_url(stack: Stack) -> Iterator[str]:
    """A real llama.cpp server with the bundled SmolLM2-135M, on one CPU thread, once."""
    reason = llamacpp.missing()
    if reason:
        pytest.skip(reason)
    gguf = llamacpp.bundled_gguf()
    assert gguf is not None
    log = stack.data_dir / "llama-server.log"
    with llamacpp.llama_server(llamacpp.LocalModel(gguf), free_port(), log) as url:
        yield url
