"""`trellis keys`, `trellis plans` and `trellis credits`: the operator's access commands."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import click

from app.errors import SettingsError
from app.ids import uuid_or_not_found
from app.localdb.endpoints import postgres_url
from app.settings import Settings
from app.tenancy.keys import ApiKeys, KeyRequest
from app.tenancy.plans import Plans
from app.tenancy.principal import ALL_SCOPES
from store.keys import KeyRow
from store.pool import Pool, open_pool

T = TypeVar("T")
Wrap = Callable[[Callable[..., Any]], Callable[..., Any]]
Migrate = Callable[[Settings], Awaitable[list[str]]]
_DURATION = re.compile(r"^(\d{1,6})([dhm])$")
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}
_SCOPE_HELP = "Repeatable; default every scope: " + ", ".join(s.value for s in ALL_SCOPES)


def register(main: click.Group, one_line_errors: Wrap, migrate: Migrate) -> None:
    """Add the commands to `main`; `migrate` runs first, so a fresh database works."""

    def run(action: Callable[[Pool], Awaitable[T]]) -> T:
        return asyncio.run(_with_pool(migrate, action))

    main.add_command(_keys(one_line_errors, run))
    main.add_command(_plans(one_line_errors, run))
    main.add_command(_credits(one_line_errors, run))


Runner = Callable[[Callable[[Pool], Awaitable[Any]]], Any]


def _keys(one_line_errors: Wrap, run: Runner) -> click.Group:
    @click.group("keys")
    def keys() -> None:
        """API keys: create, list, revoke."""

    @keys.command("create")
    @click.option("--tenant", required=True, help="Tenant name; created if it does not exist.")
    @click.option("--scopes", "scopes", multiple=True, help=_SCOPE_HELP)
    @click.option("--content-scope", "content_scopes", multiple=True, help="Repeatable.")
    @click.option("--expires", help="An ISO date or time, or a duration: 30d, 12h, 90m.")
    @click.option("--name", default="", help="A label to recognise the key by.")
    @one_line_errors
    def create(
        tenant: str, scopes: tuple[str, ...], content_scopes: tuple[str, ...], **more: Any
    ) -> None:
        """Create a key and print only its secret (shown this once)."""
        if not tenant.strip():
            raise SettingsError("--tenant must not be empty")
        request = KeyRequest(
            _split(scopes) or None, _split(content_scopes), more["name"], expiry(more["expires"])
        )
        created = run(lambda pool: ApiKeys(pool).create_for_name(tenant, request))
        click.echo(created.secret)

    @keys.command("list")
    @click.option("--tenant", required=True)
    @one_line_errors
    def list_keys(tenant: str) -> None:
        """One line per key: id, state, prefix, scopes, content scopes, name."""
        for row in run(lambda pool: ApiKeys(pool).of_tenant_named(tenant)):
            click.echo(key_line(row))

    @keys.command("revoke")
    @click.argument("key_id")
    @one_line_errors
    def revoke(key_id: str) -> None:
        """Revoke a key at once."""
        row = run(lambda pool: ApiKeys(pool).revoke(uuid_or_not_found(key_id, "API key")))
        click.echo(f"revoked {row.id}")

    return keys


def _plans(one_line_errors: Wrap, run: Runner) -> click.Group:
    @click.group("plans")
    def plans() -> None:
        """Plans: what a tenant may spend, and how fast."""

    @plans.command("list")
    @one_line_errors
    def list_plans() -> None:
        for p in run(lambda pool: Plans(pool).all()):
            cap = "unlimited" if p.monthly_answers is None else p.monthly_answers
            models = ",".join(p.models) or "extractive only"
            click.echo(f"{p.name:<11} answers/month={cap} rpm={p.requests_per_minute} {models}")

    @plans.command("set")
    @click.option("--tenant", required=True)
    @click.option("--plan", required=True)
    @one_line_errors
    def set_plan(tenant: str, plan: str) -> None:
        run(lambda pool: Plans(pool).set(tenant, plan))
        click.echo(f"{tenant} is on the {plan} plan")

    return plans


def _credits(one_line_errors: Wrap, run: Runner) -> click.Group:
    @click.group("credits")
    def credits() -> None:
        """A tenant's credit balance."""

    # A negative AMOUNT such as -2.5 is an argument, not an option.
    @credits.command("add", context_settings={"ignore_unknown_options": True})
    @click.option("--tenant", required=True)
    @click.argument("amount")
    @one_line_errors
    def add(tenant: str, amount: str) -> None:
        """Add AMOUNT credits (negative to take some away); prints the new balance."""
        balance = run(lambda pool: Plans(pool).add_credits(tenant, amount))
        click.echo(f"{tenant} balance {balance:f}")

    return credits


def key_line(row: KeyRow) -> str:
    state = "revoked" if row.revoked_at else "active"
    if row.expires_at and row.expires_at <= datetime.now(UTC) and not row.revoked_at:
        state = "expired"
    content = ",".join(row.content_scopes) or "*"
    return f"{row.id}  {state:<7}  {row.prefix}…  {','.join(row.scopes)}  {content}  {row.name}"


def expiry(text: str | None) -> datetime | None:
    if not text:
        return None
    duration = _DURATION.match(text.strip())
    if duration:
        amount = int(duration[1])
        return datetime.now(UTC) + timedelta(**{_UNITS[duration[2]]: amount})
    try:
        parsed = datetime.fromisoformat(text.strip())
    except ValueError:
        raise SettingsError(
            f"--expires {text!r} must be an ISO date or time, or 30d, 12h, 90m"
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    """--scopes search,answer and --scopes search --scopes answer both work."""
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


async def _with_pool(migrate: Migrate, action: Callable[[Pool], Awaitable[T]]) -> T:
    settings = Settings.from_env()
    await migrate(settings)
    pool = await open_pool(postgres_url(settings), 1, settings.db_timeout_seconds)
    try:
        return await action(pool)
    finally:
        await pool.close()
