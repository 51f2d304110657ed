"""Versioned migrations: ordered files, a table of applied versions, safe to re-run."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from app.localdb.stack import Stack
from store.migrations import available, migrate

pytestmark = pytest.mark.integration


def test_files_are_ordered_and_numbered() -> None:
    versions = [m.version for m in available()]
    assert versions == sorted(versions) and versions[0] == 1
    assert len(set(versions)) == len(versions)


def test_badly_named_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "add_stuff.sql").write_text("SELECT 1")
    with pytest.raises(ValueError, match=r"NNNN_name\.sql"):
        available(tmp_path)


def test_new_migration_applies_once(stack: Stack, tmp_path: Path, base_url: str) -> None:
    for migration in available():
        (tmp_path / migration.path.name).write_text(migration.path.read_text())
    (tmp_path / "9001_probe.sql").write_text("CREATE TABLE migration_probe (id int)")
    try:
        first = asyncio.run(migrate(stack.endpoints.postgres_url, tmp_path))
        second = asyncio.run(migrate(stack.endpoints.postgres_url, tmp_path))
        assert [m.version for m in first] == [9001]
        assert second == []
    finally:
        with psycopg.connect(stack.endpoints.postgres_url, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS migration_probe")
            conn.execute("DELETE FROM schema_migrations WHERE version = 9001")


def test_failed_migration_leaves_nothing_behind(
    stack: Stack, tmp_path: Path, base_url: str
) -> None:
    (tmp_path / "9002_broken.sql").write_text("CREATE TABLE half_done (id int); SELECT nonsense;")
    with pytest.raises(psycopg.errors.UndefinedColumn):
        asyncio.run(migrate(stack.endpoints.postgres_url, tmp_path))
    with psycopg.connect(stack.endpoints.postgres_url) as conn:
        assert conn.execute("SELECT to_regclass('half_done')").fetchone() == (None,)
        assert conn.execute(
            "SELECT count(*) FROM schema_migrations WHERE version = 9002"
        ).fetchone() == (0,)
