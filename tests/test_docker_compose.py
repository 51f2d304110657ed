"""docker-compose.yml cannot run here (no Docker engine), so check what it configures."""

from __future__ import annotations

from typing import Any

import yaml

from app.settings import PROJECT_ROOT, VARIABLES, Settings


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())
    return loaded


def test_app_sets_only_variables_the_settings_read() -> None:
    environment = _compose()["services"]["trellis"]["environment"]
    assert set(environment) <= set(VARIABLES), set(environment) - set(VARIABLES)
    assert {"DATABASE_URL", "NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD"} <= set(environment)


def test_production_turns_introspection_and_graphiql_off() -> None:
    environment = _compose()["services"]["trellis"]["environment"]
    serving = Settings.from_env(environment).serving
    assert not serving.introspection and not serving.graphiql


def test_databases_are_the_supported_versions_with_volumes_and_healthchecks() -> None:
    services = _compose()["services"]
    assert services["neo4j"]["image"] == "neo4j:5.26-community"
    assert services["postgres"]["image"] == "pgvector/pgvector:pg17"
    assert services["neo4j"]["environment"]["NEO4J_AUTH"].startswith("neo4j/")
    for name in ("neo4j", "postgres"):
        assert services[name]["volumes"] and services[name]["healthcheck"]["test"]


def test_app_waits_for_healthy_databases() -> None:
    app = _compose()["services"]["trellis"]
    assert app["build"] == "."
    assert app["depends_on"] == {
        "neo4j": {"condition": "service_healthy"},
        "postgres": {"condition": "service_healthy"},
    }
    assert (PROJECT_ROOT / "Dockerfile").exists()
