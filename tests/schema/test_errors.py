"""A database's outage is logged a line every so often, with the refusals since the last,
not a line for each refused request."""

from __future__ import annotations

import logging

import pytest

from schema.errors import _OutageLog


def test_an_outage_logs_one_line_then_counts_the_refusals_it_did_not_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    outages = _OutageLog(every=3600)
    with caplog.at_level(logging.WARNING, logger="schema.errors"):
        for _ in range(5):
            outages.seen("postgres", "PostgresUnreachable")
        outages.seen("neo4j", "ServiceUnavailable")
        outages.every = 0  # the next line is due
        outages.seen("postgres", "PostgresUnreachable")
    assert caplog.messages == [
        "postgres unavailable: PostgresUnreachable (and 0 times more since the last line)",
        "neo4j unavailable: ServiceUnavailable (and 0 times more since the last line)",
        "postgres unavailable: PostgresUnreachable (and 4 times more since the last line)",
    ]
