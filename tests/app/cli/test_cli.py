"""The `trellis` command line against the real local databases."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app.localdb.stack import Stack
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration


def trellis(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).parent / "trellis"), *args]
    return subprocess.run(
        command, env={**os.environ, **env}, capture_output=True, text=True, timeout=300, check=False
    )


def test_keys_create_prints_only_a_working_key(stack: Stack, http: object) -> None:
    result = trellis("keys", "create", "--tenant", "cli-tenant", env=stack.env())
    assert result.returncode == 0, result.stderr
    key = result.stdout.strip()
    assert key.startswith("trk_") and result.stdout.count("\n") == 1
    client = GraphQLClient(http, key)  # type: ignore[arg-type]
    assert client.data("{ collections { name } }") == {"collections": []}


def test_keys_create_needs_a_tenant_name(stack: Stack) -> None:
    result = trellis("keys", "create", "--tenant", "  ", env=stack.env())
    assert result.returncode == 2
    assert result.stderr.strip() == "trellis: error: --tenant must not be empty"


def test_services_status_reports_both_up(stack: Stack) -> None:
    result = trellis("services", "status", env=stack.env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert [line.split()[:2] for line in result.stdout.splitlines()] == [
        ["neo4j", "up"],
        ["postgres", "up"],
    ]


def test_migrate_is_idempotent(stack: Stack) -> None:
    result = trellis("migrate", env=stack.env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "applied 0 migration(s)"


@pytest.mark.parametrize("command", [["serve"], ["migrate"], ["keys", "create", "--tenant", "x"]])
def test_bad_setting_stops_with_one_line(command: list[str], tmp_path: Path) -> None:
    result = trellis(
        *command,
        env={
            "TRELLIS_DATA_DIR": str(tmp_path),
            "TRELLIS_PORT": "x",
            "TRELLIS_PG_POOL_SIZE": "lots",
        },
    )
    assert result.returncode == 2
    assert result.stderr.startswith("trellis: error: TRELLIS_")
    assert result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = trellis(
            "serve", env={"TRELLIS_DATA_DIR": str(tmp_path), "TRELLIS_PORT": str(port)}
        )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"trellis: error: port {port} on 127.0.0.1 is already in use; "
        "stop what holds it or set TRELLIS_PORT"
    )
