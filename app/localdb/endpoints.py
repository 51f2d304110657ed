"""Where the two databases are: configured servers, or local ones started on first use."""

from __future__ import annotations

from dataclasses import dataclass

from app.localdb.neo4j import LocalNeo4j
from app.localdb.postgres import LocalPostgres
from app.settings import Settings


@dataclass(frozen=True)
class Endpoints:
    postgres_url: str
    neo4j_uri: str


def local_postgres(settings: Settings) -> LocalPostgres:
    return LocalPostgres(settings.data_dir / "pg")


def local_neo4j(settings: Settings) -> LocalNeo4j:
    return LocalNeo4j(settings.data_dir / "neo4j", settings.neo4j.local_bolt_port)


def resolve_endpoints(settings: Settings) -> Endpoints:
    """Connection strings for both databases, starting the local ones when not configured."""
    return Endpoints(postgres_url=postgres_url(settings), neo4j_uri=neo4j_uri(settings))


def postgres_url(settings: Settings) -> str:
    return settings.postgres.url or local_postgres(settings).start()


def neo4j_uri(settings: Settings) -> str:
    if settings.neo4j.uri is not None:
        return settings.neo4j.uri
    local = local_neo4j(settings)
    local.start()
    return local.uri
