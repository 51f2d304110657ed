"""Recognise driver errors that mean a database is down, whichever layer raised them."""

from __future__ import annotations

import neo4j.exceptions
import psycopg
import psycopg.errors
import psycopg_pool

from app.errors import BackendUnavailable

_POSTGRES_DOWN = (psycopg.OperationalError, psycopg_pool.PoolTimeout, psycopg_pool.PoolClosed)
_NEO4J_DOWN = (neo4j.exceptions.ServiceUnavailable, neo4j.exceptions.SessionExpired)


def as_backend_unavailable(error: BaseException) -> BackendUnavailable | None:
    if isinstance(error, BackendUnavailable):
        return error
    if isinstance(error, psycopg.errors.TransactionRollback):
        return None  # a deadlock or serialization failure: the server is up, retry the work
    if isinstance(error, _POSTGRES_DOWN):
        return BackendUnavailable("postgres", type(error).__name__)
    if isinstance(error, _NEO4J_DOWN):
        return BackendUnavailable("neo4j", type(error).__name__)
    return None
