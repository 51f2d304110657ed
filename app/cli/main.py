"""The `trellis` command line. Every failure is one line on stderr and a non-zero exit."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from app.backend_errors import quiet_library_outages
from app.cli import access
from app.cli.ingest import IngestRequest, run_ingest, submit_paths
from app.cli.local_llm import local_llm
from app.errors import BackendUnavailable, LocalServiceError, SettingsError, TrellisError
from app.localdb.bolt import port_is_free
from app.localdb.endpoints import local_neo4j, local_postgres, postgres_url, resolve_endpoints
from app.services import Services, open_services
from app.settings import PROJECT_ROOT, Settings
from app.tenancy import devkey
from app.tenancy.devkey import DEV_TENANT
from store.migrations import migrate as apply_migrations
from store.tenants import ensure_tenant

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
_FAILURES = (SettingsError, LocalServiceError, BackendUnavailable, TrellisError)


def one_line_errors(command: F) -> F:
    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except _FAILURES as error:
            click.echo(f"trellis: error: {_describe(error)}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _describe(error: Exception) -> str:
    if isinstance(error, BackendUnavailable) and error.reason:
        return f"{error.message}: {error.reason}"
    return str(error)


@click.group()
def main() -> None:
    """Trellis: a GraphQL knowledge-graph API for retrieval and grounded answers."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    quiet_library_outages()


@main.command()
@click.option(
    "--llm",
    type=click.Choice(["none", "local"]),
    default="none",
    show_default=True,
    help="local: serve a GGUF model with llama.cpp beside Trellis (TRELLIS_LOCAL_LLM_GGUF;"
    " by default SmolLM2-135M, which answers badly) and offer it in answerModels.",
)
@one_line_errors
def run(llm: str) -> None:
    """Start the local databases, migrate, print a development key, and serve."""
    settings = Settings.from_env()
    _require_free_port(settings)
    _services_up(settings)
    asyncio.run(_migrate(settings))
    key = asyncio.run(devkey.ensure_dev_key(settings, postgres_url(settings)))
    demo = IngestRequest([PROJECT_ROOT / "demo"], "demo", DEV_TENANT, create=True)
    queued = asyncio.run(submit_paths(settings, demo))
    click.echo(f"demo      {queued} document(s) queued; the server indexes them in the background")
    base = f"http://{settings.host}:{settings.port}"
    click.echo(f"Web app:   {base}/#apiKey={key}")
    click.echo(f"GraphiQL:  {base}/graphql#apiKey={key}")
    click.echo(f"API key:   {key}   (send it as the X-API-Key header)")
    # The served app reads its settings from the environment, where local_llm names its model.
    with local_llm(settings) if llm == "local" else contextlib.nullcontext():
        _serve(settings)


@main.command()
@one_line_errors
def serve() -> None:
    """Serve the GraphQL API (starting local databases when none are configured)."""
    settings = Settings.from_env()
    _require_free_port(settings)
    _serve(settings)


@main.command()
@one_line_errors
def migrate() -> None:
    """Apply pending PostgreSQL migrations."""
    settings = Settings.from_env()
    applied = asyncio.run(_migrate(settings))
    click.echo(
        f"applied {len(applied)} migration(s)" + (": " + ", ".join(applied) if applied else "")
    )


@main.group()
def services() -> None:
    """Local databases: Neo4j (Maven jars) and PostgreSQL (pgserver wheel)."""


@services.command("up")
@one_line_errors
def services_up() -> None:
    _services_up(Settings.from_env())


@services.command("down")
@one_line_errors
def services_down() -> None:
    settings = Settings.from_env()
    for local in (local_neo4j(settings), local_postgres(settings)):
        stopped = local.stop()
        click.echo(f"{local.status().name:<8} {'stopped' if stopped else 'was not running'}")


@services.command("status")
@one_line_errors
def services_status() -> None:
    settings = Settings.from_env()
    statuses = [local_neo4j(settings).status(), local_postgres(settings).status()]
    for status in statuses:
        click.echo(status.line())
    if not all(status.running for status in statuses):
        sys.exit(1)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--collection", required=True, help="Collection to index into.")
@click.option("--tenant", default=DEV_TENANT, show_default=True, help="Tenant that owns it.")
@click.option("--create", is_flag=True, help="Create the collection if it does not exist.")
@click.option("--no-graph", is_flag=True, help="Leave graph extraction to a running server.")
@click.option("--access-scope", "access_scopes", multiple=True, help="Content scope (repeatable).")
@one_line_errors
def ingest(
    paths: tuple[Path, ...], collection: str, tenant: str, create: bool, **more: Any
) -> None:
    """Index files (.txt .md .html .pdf), folders (recursively) and .jsonl files."""
    settings = Settings.from_env()
    scopes = tuple(more["access_scopes"])
    request = IngestRequest(list(paths), collection, tenant, create, not more["no_graph"], scopes)
    failures = asyncio.run(run_ingest(settings, request))
    for line in failures:
        click.echo(f"failed: {line}", err=True)
    if failures:
        click.echo(f"trellis: error: {len(failures)} document(s) failed", err=True)
        sys.exit(1)


@main.group()
def graph() -> None:
    """The knowledge graph in Neo4j, derived from Postgres."""


@graph.command("rebuild")
@click.option("--collection", required=True, help="Collection whose graph to rebuild.")
@click.option("--tenant", default=DEV_TENANT, show_default=True, help="Tenant that owns it.")
@one_line_errors
def graph_rebuild(collection: str, tenant: str) -> None:
    """Re-derive a collection's whole graph from Postgres."""
    count = asyncio.run(_with_services(lambda s: _rebuild(s, tenant, collection)))
    click.echo(f"rebuilt the graph of {count} document(s)")


@graph.command("sync")
@one_line_errors
def graph_sync() -> None:
    """Apply every pending change in the graph outbox now."""
    applied = asyncio.run(_with_services(lambda s: s.graph_admin.sync()))
    click.echo(f"applied {applied} change(s)")


async def _rebuild(services: Services, tenant_name: str, collection: str) -> int:
    async with services.pool.connection() as conn:
        tenant = await ensure_tenant(conn, tenant_name)
    return await services.graph_admin.rebuild(tenant, collection)


async def _with_services(action: Callable[[Services], Awaitable[T]]) -> T:
    settings = Settings.from_env()
    services = await open_services(settings, resolve_endpoints(settings))
    try:
        return await action(services)
    finally:
        await services.close()


def _services_up(settings: Settings) -> None:
    endpoints = resolve_endpoints(settings)
    click.echo(f"postgres  {'configured' if settings.postgres.url else 'local, up'}")
    click.echo(f"neo4j     {endpoints.neo4j_uri}")


async def _migrate(settings: Settings) -> list[str]:
    try:
        applied = await apply_migrations(postgres_url(settings))
    except OSError as error:
        raise BackendUnavailable("postgres", str(error)) from error
    return [f"{m.version:04d}_{m.name}" for m in applied]


def _require_free_port(settings: Settings) -> None:
    if not port_is_free(settings.host, settings.port):
        raise SettingsError(
            f"port {settings.port} on {settings.host} is already in use; "
            "stop what holds it or set TRELLIS_PORT"
        )


def _serve(settings: Settings) -> None:
    """Serve in `TRELLIS_WORKERS` processes. The local databases start here first, so the
    processes find them running and share them; every background loop is safe to run in
    each process (the queues are claimed with row and advisory locks)."""
    import uvicorn

    if settings.serving.workers > 1:
        resolve_endpoints(settings)
    uvicorn.run(
        "schema.asgi:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        ws="websockets-sansio",
        lifespan="on",
        timeout_keep_alive=settings.keep_alive_seconds,
        workers=settings.serving.workers,
    )


access.register(main, one_line_errors, _migrate)
