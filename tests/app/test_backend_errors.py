"""Background passes log a database outage as a line every so often, anything else with its
traceback; what requests an outage fails is logged a line every so often, with the failures
since the last, not a line for each."""

from __future__ import annotations

import logging

import psycopg_pool
import pytest
from neo4j.exceptions import ServiceUnavailable

from app.backend_errors import OutageLog, RepeatedLines, log_pass_failure

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


def test_a_loop_failing_every_pass_through_an_outage_logs_every_so_often(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The research worker passes every second: through a 20 s outage, two lines, not 20."""
    loop = logging.getLogger("tests.passes.every-second")
    down = psycopg_pool.PoolTimeout("couldn't get a connection after 5.00 sec")
    with caplog.at_level(logging.WARNING, "tests.passes.every-second"):
        for _ in range(20):
            log_pass_failure(loop, "research", down)
        log_pass_failure(loop, "research lease", down)  # another subject has its own line
    assert caplog.messages == [
        "research waits: postgres is unavailable: PoolTimeout"
        " (and 0 times more since the last line)",
        "research lease waits: postgres is unavailable: PoolTimeout"
        " (and 0 times more since the last line)",
    ]


def test_any_other_failure_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    try:
        raise ValueError("a bug")
    except ValueError as error:
        with caplog.at_level(logging.WARNING, "tests.passes"):
            log_pass_failure(log, "themes", error)
    [record] = caplog.records
    assert record.getMessage() == "themes failed; retrying"
    assert "Traceback" in caplog.text and "ValueError: a bug" in caplog.text


def test_an_outage_logs_one_line_then_counts_the_refusals_it_did_not_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    outages = OutageLog(logging.getLogger("schema.errors"), every=3600)
    with caplog.at_level(logging.WARNING, logger="schema.errors"):
        for _ in range(5):
            outages.seen("postgres unavailable", "PostgresUnreachable")
        outages.seen("neo4j unavailable", "ServiceUnavailable")
        outages.every = 0  # the next line is due
        outages.seen("postgres unavailable", "PostgresUnreachable")
    assert caplog.messages == [
        "postgres unavailable: PostgresUnreachable (and 0 times more since the last line)",
        "neo4j unavailable: ServiceUnavailable (and 0 times more since the last line)",
        "postgres unavailable: PostgresUnreachable (and 4 times more since the last line)",
    ]


def test_a_library_line_repeated_through_an_outage_passes_every_so_often_with_its_count(
    caplog: pytest.LogCaptureFixture,
) -> None:
    library = logging.getLogger("tests.library.pool")
    repeated = RepeatedLines(every=3600)
    library.addFilter(repeated)
    try:
        with caplog.at_level(logging.WARNING, logger="tests.library.pool"):
            for attempt in range(4):
                library.warning("error connecting in %r: %s", "pool-1", f"refused {attempt}")
            library.warning("another line")
            repeated.every = 0  # the next line is due
            library.warning("error connecting in %r: %s", "pool-1", "refused 4")
    finally:
        library.removeFilter(repeated)
    assert caplog.messages == [
        "error connecting in 'pool-1': refused 0",
        "another line",
        "error connecting in 'pool-1': refused 4 (and 3 times more since the last line)",
    ]
