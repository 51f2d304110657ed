"""Pre-flight checks of every operation that runs a model, in cost order:

1. permission (FORBIDDEN), and the plan reaching the model (PLAN_UPGRADE_REQUIRED);
2. the monthly allowance (ALLOWANCE_EXCEEDED);
3. the key's request-rate ceiling (RATE_LIMITED, with retryAfterSeconds);
4. the credit balance (INSUFFICIENT_BALANCE).

Each check runs only when the ones before it passed, so a refused request leaves the later
counters untouched, and nothing is searched until all four pass. Requests that run no model
pass only the permission and rate checks (`admit`).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.errors import ErrorCode, TrellisError
from app.tenancy.principal import Principal, Scope
from store import rate, tenants, usage
from store.pool import Conn, Pool


@dataclass(frozen=True)
class ModelRun:
    """What a request is about to run: the surface's scope and the model."""

    scope: Scope
    model: str
    default_model: str

    @property
    def priced_by_tokens(self) -> bool:
        return self.model != self.default_model


class Preflight:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def admit(self, principal: Principal) -> None:
        """The rate ceiling alone, for requests that run no model."""
        async with self._pool.connection() as conn:
            await _check_rate(conn, principal)

    async def before_model(self, principal: Principal, run: ModelRun) -> None:
        check_permission(principal, run)
        async with self._pool.connection() as conn:
            await _check_allowance(conn, principal)
            await _check_rate(conn, principal)
            await _check_balance(conn, principal, run)


def check_permission(principal: Principal, run: ModelRun) -> None:
    if not principal.may(run.scope):
        raise forbidden(run.scope)
    if not principal.plan.reaches(run.model, run.default_model):
        raise TrellisError(
            ErrorCode.PLAN_UPGRADE_REQUIRED,
            f"the {principal.plan.name} plan does not include model {run.model!r};"
            f" upgrade the plan or use {run.default_model!r}",
            field="model",
            plan=principal.plan.name,
        )


def forbidden(scope: Scope) -> TrellisError:
    return TrellisError(
        ErrorCode.FORBIDDEN, f"this API key lacks the {scope.value!r} scope", scope=scope.value
    )


def rate_limited(principal: Principal, wait: int) -> TrellisError:
    ceiling = principal.plan.requests_per_minute
    return TrellisError(
        ErrorCode.RATE_LIMITED,
        f"this API key is over {ceiling} requests a minute; retry in {wait} s",
        retryAfterSeconds=wait,
    )


async def _check_allowance(conn: Conn, principal: Principal) -> None:
    cap = principal.plan.monthly_answers
    if cap is None:
        return
    used = await usage.answers_this_month(conn, principal.tenant.id)
    if used >= cap:
        raise TrellisError(
            ErrorCode.ALLOWANCE_EXCEEDED,
            f"the {principal.plan.name} plan's {cap} answers this month are used",
            allowance=cap,
            used=used,
        )


async def _check_rate(conn: Conn, principal: Principal) -> None:
    wait = await rate.take(conn, principal.key_id, principal.plan.requests_per_minute)
    if wait is not None:
        raise rate_limited(principal, wait)


async def _check_balance(conn: Conn, principal: Principal, run: ModelRun) -> None:
    plan = principal.plan
    needed = plan.credits_per_answer
    by_tokens = run.priced_by_tokens and plan.credits_per_1k_tokens > 0
    if needed == 0 and not by_tokens:
        return
    balance = await tenants.balance(conn, principal.tenant.id)
    if balance < needed or (by_tokens and balance <= needed):
        raise TrellisError(
            ErrorCode.INSUFFICIENT_BALANCE,
            f"the balance of {balance:g} credits does not cover this answer",
            balance=float(balance),
        )
