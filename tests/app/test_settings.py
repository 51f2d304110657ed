"""Settings: one typed object; a bad value is a one-line error naming the variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import SettingsError
from app.settings import Settings


def test_defaults_run_everything_locally() -> None:
    settings = Settings.from_env({})
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.keep_alive_seconds == 75  # above httpx's 5 s and a load balancer's 60 s
    assert settings.postgres.is_local and settings.neo4j.is_local
    assert settings.neo4j.database == "neo4j"
    assert settings.data_dir.name == ".data"


def test_production_values_are_read(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql://u:p@db:5432/trellis",
            "NEO4J_URI": "neo4j+s://abc.databases.neo4j.io",
            "NEO4J_USER": "neo4j",
            "NEO4J_PASSWORD": "secret",
            "NEO4J_DATABASE": "graph",
            "TRELLIS_PORT": "9000",
            "TRELLIS_KEEP_ALIVE_SECONDS": "120",
            "TRELLIS_DATA_DIR": str(tmp_path),
            "TRELLIS_LOG_LEVEL": "debug",
        }
    )
    assert not settings.postgres.is_local and not settings.neo4j.is_local
    assert settings.neo4j.database == "graph"
    assert settings.port == 9000 and settings.log_level == "DEBUG"
    assert settings.keep_alive_seconds == 120
    assert settings.data_dir == tmp_path.resolve()


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"TRELLIS_PORT": "eighty"}, "TRELLIS_PORT"),
        ({"TRELLIS_PORT": "70000"}, "TRELLIS_PORT"),
        ({"TRELLIS_PORT": "-1"}, "TRELLIS_PORT"),
        ({"NEO4J_BOLT_PORT": "0"}, "NEO4J_BOLT_PORT"),
        ({"TRELLIS_KEEP_ALIVE_SECONDS": "0"}, "TRELLIS_KEEP_ALIVE_SECONDS"),
        ({"TRELLIS_KEEP_ALIVE_SECONDS": "forever"}, "TRELLIS_KEEP_ALIVE_SECONDS"),
        ({"TRELLIS_PG_POOL_SIZE": "0"}, "TRELLIS_PG_POOL_SIZE"),
        ({"TRELLIS_DB_TIMEOUT_SECONDS": "soon"}, "TRELLIS_DB_TIMEOUT_SECONDS"),
        ({"TRELLIS_LOG_LEVEL": "LOUD"}, "TRELLIS_LOG_LEVEL"),
        ({"DATABASE_URL": "mysql://db/x"}, "DATABASE_URL"),
        ({"NEO4J_URI": "http://graph:7474", "NEO4J_USER": "u", "NEO4J_PASSWORD": "p"}, "NEO4J_URI"),
        ({"NEO4J_URI": "neo4j://graph:7687", "NEO4J_PASSWORD": "p"}, "NEO4J_USER"),
        ({"NEO4J_URI": "neo4j://graph:7687", "NEO4J_USER": "neo4j"}, "NEO4J_PASSWORD"),
        ({"TRELLIS_INTROSPECTION": "maybe"}, "TRELLIS_INTROSPECTION"),
        ({"TRELLIS_MAX_QUERY_COST": "0"}, "TRELLIS_MAX_QUERY_COST"),
        ({"TRELLIS_MAX_BODY_BYTES": "10"}, "TRELLIS_MAX_BODY_BYTES"),
        ({"TRELLIS_MAX_INGEST_BODY_BYTES": "2048"}, "TRELLIS_MAX_INGEST_BODY_BYTES"),
        ({"TRELLIS_DEADLINE_SEARCH_SECONDS": "never"}, "TRELLIS_DEADLINE_SEARCH_SECONDS"),
        ({"TRELLIS_WORKERS": "0"}, "TRELLIS_WORKERS"),
        ({"TRELLIS_MAX_CONCURRENT_REQUESTS": "0"}, "TRELLIS_MAX_CONCURRENT_REQUESTS"),
    ],
)
def test_bad_values_name_the_variable(env: dict[str, str], variable: str) -> None:
    with pytest.raises(SettingsError) as raised:
        Settings.from_env(env)
    message = str(raised.value)
    assert message.startswith(variable)
    assert "\n" not in message


def test_answer_settings() -> None:
    settings = Settings.from_env({})
    assert settings.answers.budget_seconds == 45.0 and not settings.answers.llm.configured
    llm = Settings.from_env(
        {"TRELLIS_LLM_URL": "http://x/v1", "TRELLIS_LLM_MODELS": "a, b", "TRELLIS_LLM_API_KEY": "k"}
    ).answers.llm
    assert llm.models == ("a", "b") and llm.configured
    with pytest.raises(SettingsError, match="TRELLIS_LLM_MODELS"):
        Settings.from_env({"TRELLIS_LLM_URL": "http://x/v1"})
    with pytest.raises(SettingsError, match="TRELLIS_ANSWER_SUPPORT_OVERLAP"):
        Settings.from_env({"TRELLIS_ANSWER_SUPPORT_OVERLAP": "2"})
