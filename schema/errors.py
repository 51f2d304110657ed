"""Turn every error into a GraphQL error with a stable `extensions.code`, and mask the rest.

Clients never see a traceback or an internal message: unexpected failures are logged
here and reach the client as INTERNAL_ERROR.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from graphql import DocumentNode, GraphQLError
from strawberry.extensions import SchemaExtension

from app.backend_errors import OutageLog, as_backend_unavailable, as_deadline_passed
from app.errors import ErrorCode, TrellisError
from schema._input_errors import argument_of, is_input_error

log = logging.getLogger(__name__)
_OUTAGES = OutageLog(log)  # a database's outage: a line every so often, not one a request


def with_code(error: GraphQLError, document: DocumentNode | None = None) -> GraphQLError:
    original = error.original_error
    if original is None and "code" in (error.extensions or {}):
        return error
    if is_input_error(error):
        field = argument_of(error, document)
        details: dict[str, object] = {} if field is None else {"field": field}
        return _coded(error, error.message, ErrorCode.BAD_USER_INPUT.value, details)
    if original is None:
        return _coded(error, error.message, "GRAPHQL_VALIDATION_FAILED", {})
    original = as_deadline_passed(original) or original
    known = as_backend_unavailable(original)
    if known is not None:
        _OUTAGES.seen(f"{known.backend} unavailable", str(known.reason or original))
        return _coded(error, known.message, known.code.value, known.details)
    if isinstance(original, TrellisError):
        return _coded(error, original.message, original.code.value, original.details)
    log.error("unexpected error at %s", error.path, exc_info=original)
    return _coded(error, "internal error", ErrorCode.INTERNAL_ERROR.value, {})


def _coded(
    error: GraphQLError, message: str, code: str, details: dict[str, object]
) -> GraphQLError:
    extensions = {**(error.extensions or {}), **details, "code": code}
    return GraphQLError(
        message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        extensions=extensions,
    )


class ErrorCodes(SchemaExtension):
    """Codes errors of queries and mutations, and of each subscription event."""

    def on_operation(self) -> Iterator[None]:
        yield
        _code_errors_of(self.execution_context.result, self._document())

    def on_stream_result(self, result: object) -> Iterator[None]:
        _code_errors_of(result, self._document())
        yield

    def _document(self) -> DocumentNode | None:
        return self.execution_context.graphql_document


def _code_errors_of(result: object, document: DocumentNode | None) -> None:
    errors = getattr(result, "errors", None)
    if errors:
        result.errors = [with_code(e, document) for e in errors]  # type: ignore[attr-defined]
