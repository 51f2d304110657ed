"""Background passes log a database outage as one line a pass, anything else with its
traceback."""

from __future__ import annotations

import logging

import psycopg_pool
import pytest
from neo4j.exceptions import ServiceUnavailable

from app.backend_errors import log_pass_failure

log = logging.getLogger("tests.passes")


@pytest.mark.parametrize(
    ("error", "backend"),
    [
        (psycopg_pool.PoolTimeout("couldn't get a connection after 5.00 sec"), "postgres"),
        (ServiceUnavailable("Couldn't connect to 127.0.0.1:7687"), "neo4j"),
    ],
)
def test_a_database_down_is_one_line(
    caplog: pytest.LogCaptureFixture, error: Exception, backend: str
) -> None:
    with caplog.at_level(logging.WARNING, "tests.passes"):
        log_pass_failure(log, "ingest", error)
    [record] = caplog.records
    assert record.getMessage().startswith(f"ingest waits: {backend} is unavailable")
    assert record.exc_info is None
    assert "\n" not in caplog.text.strip()


def test_any_other_failure_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    try:
        raise ValueError("a bug")
    except ValueError as error:
        with caplog.at_level(logging.WARNING, "tests.passes"):
            log_pass_failure(log, "themes", error)
    [record] = caplog.records
    assert record.getMessage() == "themes failed; retrying"
    assert "Traceback" in caplog.text and "ValueError: a bug" in caplog.text
