"""Plans and balances, as the operator's CLI changes them. The plans themselves are rows of
the `plans` table (see README, "Plans")."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from app.errors import ErrorCode, TrellisError
from app.tenancy._tenants import tenant_named
from store import plans, tenants
from store.plans import PlanRow
from store.pool import Pool

MAX_CREDITS = Decimal("1e9")


class Plans:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def all(self) -> list[PlanRow]:
        async with self._pool.connection() as conn:
            return await plans.all_plans(conn)

    async def set(self, tenant_name: str, plan: str) -> None:
        known = [p.name for p in await self.all()]
        if plan not in known:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT,
                f"no plan {plan!r}; plans are {', '.join(known)}",
                field="plan",
            )
        tenant = await tenant_named(self._pool, tenant_name)
        async with self._pool.connection() as conn:
            await tenants.set_plan(conn, tenant.id, plan)

    async def add_credits(self, tenant_name: str, amount: str) -> Decimal:
        """The new balance. `amount` may be negative, to correct a grant."""
        credits = parse_credits(amount)
        tenant = await tenant_named(self._pool, tenant_name)
        async with self._pool.connection() as conn:
            return await tenants.add_credits(conn, tenant.id, credits)


def parse_credits(amount: str) -> Decimal:
    try:
        credits = Decimal(amount)
    except InvalidOperation:
        credits = Decimal("NaN")
    if not credits.is_finite() or abs(credits) > MAX_CREDITS:
        raise TrellisError(
            ErrorCode.BAD_USER_INPUT,
            f"credits must be a number of at most {MAX_CREDITS:,.0f}, not {amount!r}",
            field="credits",
        )
    return credits
