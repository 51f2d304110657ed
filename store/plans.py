"""Plans: what a tenant's keys may spend, and how fast."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from psycopg.rows import class_row

from store.pool import Conn


@dataclass(frozen=True)
class PlanRow:
    name: str
    monthly_answers: int | None
    requests_per_minute: int
    models: list[str]
    credits_per_answer: Decimal
    credits_per_1k_tokens: Decimal
    description: str


async def all_plans(conn: Conn) -> list[PlanRow]:
    async with conn.cursor(row_factory=class_row(PlanRow)) as cursor:
        await cursor.execute("SELECT * FROM plans ORDER BY name")
        return await cursor.fetchall()
