"""Local databases: clear refusals that leave foreign or busy folders untouched."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from app.errors import LocalServiceError
from app.localdb.neo4j import LocalNeo4j
from app.localdb.postgres import LocalPostgres
from app.localdb.stack import Stack, free_port

pytestmark = pytest.mark.integration


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _foreign_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "someone-elses"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a database")
    return folder


def test_neo4j_refuses_a_foreign_folder(tmp_path: Path) -> None:
    folder = _foreign_folder(tmp_path)
    before = _snapshot(folder)
    with pytest.raises(LocalServiceError, match="holds files Trellis did not create"):
        LocalNeo4j(folder, free_port()).start()
    assert _snapshot(folder) == before


def test_postgres_refuses_a_foreign_folder(tmp_path: Path) -> None:
    folder = _foreign_folder(tmp_path)
    before = _snapshot(folder)
    with pytest.raises(LocalServiceError, match="is not a PostgreSQL data folder"):
        LocalPostgres(folder).start()
    assert _snapshot(folder) == before


def test_postgres_refuses_another_major_version(tmp_path: Path) -> None:
    folder = tmp_path / "pg"
    folder.mkdir()
    (folder / "PG_VERSION").write_text("15\n")
    with pytest.raises(LocalServiceError, match="PostgreSQL '15' cluster"):
        LocalPostgres(folder).start()
    assert _snapshot(folder) == {"PG_VERSION": b"15\n"}


def test_postgres_reports_a_corrupt_cluster(tmp_path: Path) -> None:
    folder = tmp_path / "pg"
    folder.mkdir()
    (folder / "PG_VERSION").write_text("18\n")
    (folder / "global").mkdir()
    before = _snapshot(folder)
    with pytest.raises(LocalServiceError, match="PostgreSQL failed to start"):
        LocalPostgres(folder).start()
    assert {k: v for k, v in _snapshot(folder).items() if k in before} == before


def test_neo4j_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(LocalServiceError) as raised:
            LocalNeo4j(tmp_path / "neo4j", port).start()
    assert str(raised.value) == (
        f"port {port} on 127.0.0.1 is already in use; stop what holds it or set NEO4J_BOLT_PORT"
    )


def test_launcher_refuses_a_second_instance_on_the_same_folder(stack: Stack) -> None:
    # Bypass the Python pid check to prove the launcher's own lock holds.
    second = LocalNeo4j(stack.neo4j.home, free_port())
    result = subprocess.run(
        second._command(), capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 4
    assert "already in use by another Neo4j launcher" in result.stderr
    assert stack.neo4j.status().running


def test_start_is_a_no_op_when_already_running(stack: Stack) -> None:
    pid = stack.neo4j.running_pid()
    stack.neo4j.start()
    assert stack.neo4j.running_pid() == pid
    assert stack.postgres.start() == stack.endpoints.postgres_url


def test_neo4j_reports_a_corrupt_store_and_leaves_it(tmp_path: Path) -> None:
    home = tmp_path / "neo4j"
    store = home / "data" / "databases" / "neo4j"
    store.mkdir(parents=True)
    (home / "TRELLIS_NEO4J").write_text("Neo4j data folder managed by Trellis\n")
    (store / "neostore").write_bytes(bytes(range(256)) * 40)
    before = _snapshot(store)
    neo4j = LocalNeo4j(home, free_port())
    try:
        with pytest.raises(LocalServiceError, match="store may be corrupt"):
            neo4j.start()
    finally:
        neo4j.stop()
    assert _snapshot(store) == before
