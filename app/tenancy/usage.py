"""Metering: one usage row per run of a model, its credits taken from the balance, and the
sums that `usage(from, to, groupBy)` reports."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from app.errors import ErrorCode, TrellisError
from app.tenancy.principal import Plan, Principal
from app.tenancy.visibility import whole_tenant_only
from store import usage
from store.pool import Pool
from store.tenants import Tenant
from store.usage import UsageEvent
from store.usage import UsageTotal as UsageTotal

MAX_SPAN_DAYS = 366


@dataclass(frozen=True)
class Consumed:
    """What one run used."""

    surface: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    passages_read: int
    complete: bool  # False when the stream broke off before its end
    priced_by_tokens: bool


@dataclass(frozen=True)
class Charge:
    """What was recorded for a run: exactly what the terminal event reports."""

    credits: Decimal
    recorded_at: datetime


def credits_for(plan: Plan, consumed: Consumed) -> Decimal:
    tokens = consumed.prompt_tokens + consumed.completion_tokens
    per_token = plan.credits_per_1k_tokens * tokens / 1000 if consumed.priced_by_tokens else 0
    return (plan.credits_per_answer + per_token).quantize(Decimal("0.0001"))


class Metering:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def record(self, principal: Principal, consumed: Consumed) -> Charge:
        credits = credits_for(principal.plan, consumed)
        event = UsageEvent(
            principal.tenant.id,
            principal.key_id,
            consumed.surface,
            consumed.model,
            consumed.prompt_tokens,
            consumed.completion_tokens,
            consumed.passages_read,
            credits,
            consumed.complete,
        )
        async with self._pool.connection() as conn, conn.transaction():
            at = await usage.record(conn, event)
        return Charge(credits, at)

    async def totals(
        self, tenant: Tenant, span: tuple[datetime, datetime], group_by: str
    ) -> list[UsageTotal]:
        whole_tenant_only(tenant, "usage")
        start, end = span
        if end <= start or (end - start).days > MAX_SPAN_DAYS:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT,
                f"`to` must be after `from`, at most {MAX_SPAN_DAYS} days later",
                field="to",
            )
        async with self._pool.connection() as conn:
            return await usage.totals(conn, tenant.id, span, group_by)
