"""The rate ceiling holds across server processes: a second `trellis serve` shares the
databases with the test server, and one key's requests to both count in one window."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.localdb.stack import Stack, free_port, make_key
from tests.app.tenancy.test_preflight import add_plan, away_from_the_minute_edge, plan_name
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration


@pytest.fixture
def second_server(stack: Stack) -> Iterator[httpx.Client]:
    port = free_port()
    env = {**os.environ, **stack.env(), "TRELLIS_PORT": str(port)}
    command = [str(Path(sys.executable).parent / "trellis"), "serve"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            wait_until_up(client, process)
            yield client
    finally:
        process.terminate()
        process.wait(timeout=30)


def wait_until_up(client: httpx.Client, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, "the second server exited"
        try:
            if client.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise AssertionError("the second server did not start")


def test_one_window_across_two_processes(
    http: httpx.Client, second_server: httpx.Client, stack: Stack
) -> None:
    tenant, plan = f"rate-{uuid.uuid4().hex[:8]}", plan_name()
    add_plan(stack, plan, requests_per_minute=4)
    key = make_key(stack, tenant)
    rows(stack, "UPDATE tenants SET plan = %s WHERE name = %s RETURNING 1", plan, tenant)
    servers = [GraphQLClient(http, key), GraphQLClient(second_server, key)]
    away_from_the_minute_edge()
    for server in servers * 2:
        assert server.data("{ collections { name } }") == {"collections": []}
    for server in servers:
        assert server.error_code("{ collections { name } }") == "RATE_LIMITED"
