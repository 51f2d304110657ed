"""Errors with stable codes. Clients see the code and message, never a traceback."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FORBIDDEN = "FORBIDDEN"
    ALLOWANCE_EXCEEDED = "ALLOWANCE_EXCEEDED"
    RATE_LIMITED = "RATE_LIMITED"
    INSUFFICIENT_BALANCE = "INSUFFICIENT_BALANCE"
    PLAN_UPGRADE_REQUIRED = "PLAN_UPGRADE_REQUIRED"
    NOT_FOUND = "NOT_FOUND"
    ALREADY_EXISTS = "ALREADY_EXISTS"
    BAD_USER_INPUT = "BAD_USER_INPUT"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    EMBEDDING_PROFILE_MISMATCH = "EMBEDDING_PROFILE_MISMATCH"
    EMPTY_DOCUMENT = "EMPTY_DOCUMENT"
    INVALID_ENCODING = "INVALID_ENCODING"
    UNSUPPORTED_CONTENT_TYPE = "UNSUPPORTED_CONTENT_TYPE"
    DOCUMENT_TOO_LARGE = "DOCUMENT_TOO_LARGE"
    PARSE_FAILED = "PARSE_FAILED"
    INVALID_RECORD = "INVALID_RECORD"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    DEGRADED_RESULT = "DEGRADED_RESULT"
    PROVIDER_NOT_CONFIGURED = "PROVIDER_NOT_CONFIGURED"
    PROVIDER_UNAVAILABLE = "PROVIDER_UNAVAILABLE"
    ANSWER_TIMEOUT = "ANSWER_TIMEOUT"
    DOCUMENT_TOO_LONG = "DOCUMENT_TOO_LONG"
    QUERY_TOO_COSTLY = "QUERY_TOO_COSTLY"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    TIMEOUT = "TIMEOUT"
    OVERLOADED = "OVERLOADED"
    ALREADY_RUNNING = "ALREADY_RUNNING"


class TrellisError(Exception):
    """An error a client may see: a stable code, a message, and optional details."""

    def __init__(self, code: ErrorCode, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class BackendUnavailable(TrellisError):
    """A database is down or unreachable. `backend` is "postgres" or "neo4j"."""

    def __init__(self, backend: str, reason: str = "") -> None:
        message = f"{backend} is unavailable"
        # A client retrying at once would only be refused again: the breakers' cooldown.
        super().__init__(
            ErrorCode.SERVICE_UNAVAILABLE, message, backend=backend, retryAfterSeconds=1
        )
        self.backend = backend
        self.reason = reason


class SettingsError(Exception):
    """A missing or bad setting. The message is one line naming the variable."""


class LocalServiceError(Exception):
    """A local database could not be started or stopped. The message is one line."""
