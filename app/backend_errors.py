"""Recognise driver errors that mean a database is down, or that a request's deadline
stopped its work on the server, whichever layer raised them."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import neo4j.exceptions
import psycopg
import psycopg.errors
import psycopg_pool

from app.errors import BackendUnavailable, ErrorCode, TrellisError

_POSTGRES_DOWN = (psycopg.OperationalError, psycopg_pool.PoolTimeout, psycopg_pool.PoolClosed)
_NEO4J_DOWN = (neo4j.exceptions.ServiceUnavailable, neo4j.exceptions.SessionExpired)


def as_deadline_passed(error: BaseException) -> TrellisError | None:
    """The server stopped a statement at the request's deadline: statement_timeout on
    Postgres, the transaction timeout on Neo4j."""
    timed_out = isinstance(error, psycopg.errors.QueryCanceled) or (
        isinstance(error, neo4j.exceptions.Neo4jError)
        and "TransactionTimedOut" in (error.code or "")
    )
    if not timed_out:
        return None
    return TrellisError(ErrorCode.TIMEOUT, "the request ran past its deadline")


def as_backend_unavailable(error: BaseException) -> BackendUnavailable | None:
    if isinstance(error, BackendUnavailable):
        return error
    if as_deadline_passed(error) is not None:
        return None  # the server is up: it stopped the statement on time
    if isinstance(error, psycopg.errors.TransactionRollback):
        return None  # a deadlock or serialization failure: the server is up, retry the work
    if isinstance(error, _POSTGRES_DOWN):
        return BackendUnavailable("postgres", type(error).__name__)
    if isinstance(error, _NEO4J_DOWN):
        return BackendUnavailable("neo4j", type(error).__name__)
    return None


@dataclass
class _Throttle:
    """Whether a subject's next line is due, and how many were held back since its last."""

    _last: dict[str, float] = field(default_factory=dict)
    _quiet: dict[str, int] = field(default_factory=dict)

    def due(self, subject: str, every: float) -> int | None:
        """The lines held back since the subject's last, when `every` seconds have passed
        since it; else None."""
        now = time.monotonic()
        if now - self._last.get(subject, -every) < every:
            self._quiet[subject] = self._quiet.get(subject, 0) + 1
            return None
        self._last[subject] = now
        return self._quiet.pop(subject, 0)


@dataclass
class OutageLog:
    """A line every so often for what an outage keeps failing, with the failures since the
    last: with the breakers failing requests at once, clients retrying were refused
    thousands of times a minute, and a line each buried everything else."""

    log: logging.Logger
    every: float = 10.0  # seconds between lines for one subject
    _throttle: _Throttle = field(default_factory=_Throttle)

    def seen(self, subject: str, reason: str) -> None:
        more = self._throttle.due(subject, self.every)
        if more is not None:
            line = "%s: %s (and %d times more since the last line)"
            self.log.warning(line, subject, reason, more)


class RepeatedLines(logging.Filter):
    """A library's warning repeated through an outage passes every `every` seconds, with the
    count held back since: psycopg's pool logs each failed reconnection, ten lines a second
    while Postgres is down. Lines are the same when their logger and format are."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self._throttle = _Throttle()

    def filter(self, record: logging.LogRecord) -> bool:
        more = self._throttle.due(f"{record.name}: {record.msg}", self.every)
        if more and isinstance(record.args, tuple | None):
            record.msg = f"{record.msg} (and %d times more since the last line)"
            record.args = (*(record.args or ()), more)
        return more is not None


_PASSES: dict[str, OutageLog] = {}  # per logger: each background loop has its own


def log_pass_failure(log: logging.Logger, what: str, error: Exception) -> None:
    """A background pass that failed and runs again on its next turn: while a database is
    down, a line every so often with the passes since (the research worker's passes come
    every second, and a traceback or a line each would bury the outage's other lines); the
    traceback for anything else."""
    down = as_backend_unavailable(error)
    if down is None:
        log.warning("%s failed; retrying", what, exc_info=error)
        return
    outages = _PASSES.setdefault(log.name, OutageLog(log))
    outages.seen(f"{what} waits: {down.message}", down.reason)


def quiet_library_outages() -> None:
    """Throttle the database drivers' own lines about a server they cannot reach (once, however
    often the command line starts in one process)."""
    pool = logging.getLogger("psycopg.pool")
    if not any(isinstance(f, RepeatedLines) for f in pool.filters):
        pool.addFilter(RepeatedLines())
