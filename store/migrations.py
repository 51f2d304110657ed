"""Versioned schema migrations: ordered SQL files and a table of applied versions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

_FOLDER = Path(__file__).parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
# Any constant works: it serialises concurrent migrators across processes.
_LOCK_KEY = 0x7472656C6C6973


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path


def available(folder: Path = _FOLDER) -> list[Migration]:
    found = []
    for path in folder.glob("*.sql"):
        match = _NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file {path.name} must be named NNNN_name.sql")
        found.append(Migration(int(match[1]), match[2], path))
    return sorted(found, key=lambda m: m.version)


async def migrate(url: str, folder: Path = _FOLDER) -> list[Migration]:
    """Apply every pending migration, each in its own transaction. Returns those applied."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            return await _apply_pending(conn, available(folder))
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))


async def _apply_pending(
    conn: psycopg.AsyncConnection[tuple[object, ...]], migrations: list[Migration]
) -> list[Migration]:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version integer PRIMARY KEY, name text NOT NULL,"
        " applied_at timestamptz NOT NULL DEFAULT now())"
    )
    cursor = await conn.execute("SELECT version FROM schema_migrations")
    done = {row[0] for row in await cursor.fetchall()}
    applied = []
    for migration in migrations:
        if migration.version in done:
            continue
        async with conn.transaction():
            await conn.execute(migration.path.read_text().encode())
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
        applied.append(migration)
    return applied
